"""An EXACT sampler for the discrete Gaussian N_Z(0, sigma^2) (Canonne, Kamath, Steinke 2020).

The discrete Gaussian with parameter ``sigma^2 > 0`` (rational) has
``Pr[X = x] = exp(-x^2 / (2 sigma^2)) / sum_{y in Z} exp(-y^2 / (2 sigma^2))`` for ``x in Z``.
It is the noise the thesis asks for in practice (000_211156f2009240b4.txt §5.4, footnote 1:
"we would use a discretized version of Gaussian noise and do all computations modulo some large
number q"); 002_9d55ef468949585c.txt §4.2.1 reduces modulo a prime p.

The sampler uses only integer uniform draws (``rng.randrange``) and exact rational arithmetic, so
its output law is exactly the discrete Gaussian (no floating point anywhere). Algorithms 1 and 2 are the project's one
integer core, :mod:`privclaims.theory.noise.cks` (ZEALOUS's grid Laplace draws through it too):

* :func:`bernoulli_exp_neg` draws ``Bernoulli(exp(-gamma))`` for rational ``gamma >= 0``
  (CKS 2020 Algorithm 1: for gamma in [0, 1], count K until ``Bernoulli(gamma / K)`` fails; K odd
  has probability exactly exp(-gamma); for gamma > 1, draws of exp(-1) while more than 1 is left, then one of
  the rest: the order :mod:`privclaims.theory.noise.cks` states).
* :func:`discrete_laplace` draws ``Pr[Y = y] ∝ exp(-|y| / t)`` for integer ``t >= 1``
  (CKS 2020 Algorithm 2 with s = 1).
* :func:`discrete_gaussian` draws from N_Z(0, sigma^2) by rejection from the discrete Laplace with
  ``t = floor(sigma) + 1``, accepting Y with probability ``exp(-(|Y| - sigma^2/t)^2 / (2 sigma^2))``
  (CKS 2020 Algorithm 3). Expected number of trials is below 2.

``rng`` is any object with ``randrange(n)`` returning a uniform integer in ``[0, n)`` —
``random.Random(seed)`` for reproducible runs, ``secrets.SystemRandom()`` in deployment.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Protocol

from privclaims.theory.errors import InvalidInput
from privclaims.theory.noise import cks
from privclaims.theory.numbers import as_rational, rational_str
from privclaims.theory.validate import exponential_size, finite_float, integer, randomness


class IntegerSource(Protocol):
    def randrange(self, n: int) -> int: ...


def bernoulli_exp_neg(gamma: object, rng: IntegerSource) -> bool:
    """``Bernoulli(exp(-gamma))`` exactly, for rational ``gamma >= 0`` (CKS 2020 Algorithm 1:
    :func:`privclaims.theory.noise.cks.bernoulli_exp` on ``rng.randrange``)."""
    randomness(rng, "rng", "randrange")
    g = as_rational(gamma, "gamma")
    if g < 0:
        raise InvalidInput(f"gamma = {rational_str(g)} must be >= 0")
    return cks.bernoulli_exp(int(g.numerator), int(g.denominator), rng.randrange)


def discrete_laplace(t: int, rng: IntegerSource) -> int:
    """``Pr[Y = y] = (e^{1/t} - 1)/(e^{1/t} + 1) * exp(-|y|/t)`` for integer ``t >= 1`` (CKS 2020 Algorithm 2 with
    s = 1: :func:`privclaims.theory.noise.cks.discrete_laplace` at scale t/1 on ``rng.randrange``)."""
    t = integer(t, "t", lo=1)  # the discrete Laplace scale
    randomness(rng, "rng", "randrange")
    return cks.discrete_laplace(t, 1, rng.randrange)


def floor_sqrt(q: Fraction) -> int:
    """``floor(sqrt(q))`` for a rational ``q >= 0``, exactly."""
    q = as_rational(q, "q")
    if q < 0:
        raise InvalidInput(f"q = {rational_str(q)} must be >= 0 (floor_sqrt of a negative number)")
    return math.isqrt(q.numerator * q.denominator) // q.denominator


def discrete_gaussian(sigma2: object, rng: IntegerSource) -> int:
    """One exact draw from N_Z(0, sigma2), ``sigma2`` a rational > 0."""
    s2q = as_rational(sigma2, "sigma^2")
    if s2q <= 0:
        raise InvalidInput(f"sigma^2 = {rational_str(s2q)} must be > 0")
    randomness(rng, "rng", "randrange")
    s2 = Fraction(int(s2q.numerator), int(s2q.denominator))
    t = int(floor_sqrt(s2)) + 1  # a Python int (floor_sqrt's may be the rational type's integer): the draws are ints
    below = rng.randrange
    while True:
        y = cks.discrete_laplace(t, 1, below)
        gamma = (abs(y) - s2 / t) ** 2 / (2 * s2)
        if cks.bernoulli_exp(int(gamma.numerator), int(gamma.denominator), below):
            return y


def discrete_gaussian_variance(sigma2: object, ctx: Any) -> Any:
    """``Var[N_Z(0, u)]`` for rational ``u = sigma2 > 0``, enclosed in ``ctx`` (``mpmath.iv``). It is below ``u``
    and, for small ``u``, far below it (about ``2 e^{-1/(2u)}``: 0.3 % of u at u = 0.053).

    * ``u < 1``: directly, ``Σ x² w^{x²} / Σ w^{x²}`` with ``w = e^{-1/(2u)}``, summed to ``|x| <= K`` with the tails
      bounded geometrically (for ``x > K`` consecutive terms shrink by at most ``((K+2)/(K+1))² w^{2K+3} < 1/2``).
    * ``u >= 1``: by Poisson summation, ``Σ_x e^{-x²/(2u)} = sqrt(2πu) θ(u)``, ``θ(u) = 1 + 2 Σ_{k>=1} q^{k²}``,
      ``q = e^{-2π²u}``; differentiating in u, ``E[X²] = u + 2u² θ'/θ``, i.e.
      ``Var = u (1 - 8π² u A / (1 + 2B))``, ``A = Σ_{k>=1} k² q^{k²}``, ``B = Σ_{k>=1} q^{k²}``, each summed to k = 6 with
      the tail ``<= q^7 / (1 - q)`` (for k >= 7, ``k² q^{k²} <= q^k`` as ``q <= e^{-19}``).

    The two forms are one identity; tests check they agree where both are cheap.
    """
    u = as_rational(sigma2, "sigma^2")
    if u <= 0:
        raise InvalidInput(f"sigma^2 = {rational_str(u)} must be > 0")
    ui = ctx.mpf(int(u.numerator)) / ctx.mpf(int(u.denominator))
    if u < 1:
        w = ctx.exp(-1 / (2 * ui))
        K = 4 + floor_sqrt(Fraction(300) * Fraction(int(u.numerator), int(u.denominator)))
        num, den = ctx.mpf(0), ctx.mpf(1)
        for x in range(1, K + 1):
            t = w ** (x * x)
            num, den = num + 2 * x * x * t, den + 2 * t
        last_num, last_den = 2 * (K + 1) ** 2 * w ** ((K + 1) ** 2), 2 * w ** ((K + 1) ** 2)
        ratio = ctx.mpf((K + 2) ** 2) / (K + 1) ** 2 * w ** (2 * K + 3)
        if not ratio.b < 0.5:
            raise AssertionError(f"tail ratio {ratio} at u = {u}")  # unreachable for u < 1: w^(2K+3) <= e^-35
        tail = ctx.mpf([0, 1]) / (1 - ratio)  # in [0, 1/(1 - ratio)]
        return (num + last_num * tail) / (den + last_den * tail)
    q = ctx.exp(-2 * ctx.pi ** 2 * ui)
    A = ctx.fsum(k * k * q ** (k * k) for k in range(1, 7))
    B = ctx.fsum(q ** (k * k) for k in range(1, 7))
    tail = ctx.mpf([0, 1]) * q ** 7 / (1 - q)
    return ui * (1 - 8 * ctx.pi ** 2 * ui * (A + tail) / (1 + 2 * (B + tail)))


def discrete_gaussian_pmf_float(sigma2: float, support: int) -> dict[int, float]:
    """Float pmf of N_Z(0, sigma2) on ``[-support, support]`` (normaliser summed over a wide window);
    used only by statistical tests of the sampler, never by a verdict. The window is at most
    :data:`privclaims.theory.validate.ENUMERATION_LIMIT` points wide (refused beyond)."""
    sigma2 = finite_float(sigma2, "sigma2", lo=0, lo_open=True)
    support = integer(support, "support", lo=0)
    exponential_size(2 * max(support, int(12 * math.sqrt(sigma2)) + 12) + 1, "discrete_gaussian_pmf_float's window",
                     "a smaller sigma2 / support (the pmf is for statistical tests of the sampler)")
    width = max(support, int(12 * math.sqrt(sigma2)) + 12)
    w = {x: math.exp(-x * x / (2 * sigma2)) for x in range(-width, width + 1)}
    z = sum(w.values())
    return {x: w[x] / z for x in range(-support, support + 1)}


__all__: list[Any] = ["bernoulli_exp_neg", "discrete_laplace", "discrete_gaussian", "floor_sqrt", "discrete_gaussian_variance",
                      "discrete_gaussian_pmf_float"]
