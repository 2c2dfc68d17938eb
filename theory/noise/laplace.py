"""An exact discrete Laplace sampler (Canonne, Kamath, Steinke 2020, Algorithms 1-2).

Why not ``numpy.random.laplace``? Mironov (2012, "On significance of the least significant bits
for differential privacy") showed that the textbook float sampler ``c + lam * sign(u) * log(U)``
does not produce every double: the set of reachable outputs depends on ``c``, so a noisy count
``c + eta`` often can only have come from one of two neighbouring true counts ``c`` / ``c + 1``
(the likelihood ratio is infinite, not ``e^{1/lam}``); he recovered the true value in a large
fraction of draws. Any sampler that rounds a real-valued draw inherits some such gap.

The leak is demonstrated by :func:`naive_float_laplace` / :func:`naive_output_possible` (a test shows that
most outputs for c = 0 exclude c = 1 exactly). The cure used here: draw the noise on an exact grid with exact arithmetic. With granularity
``g`` (a positive rational) the noise is ``eta = g * K`` with

    Pr[K = k] = (1 - r) / (1 + r) * r^{|k|},    r = e^{-g/lam},

the discrete Laplace distribution of scale ``t = lam / g``. Every step of the sampler uses only
random bits and rational arithmetic (no floats), so its output distribution is *exactly* this:

* ``bernoulli_exp(gamma)`` - Bernoulli(e^{-gamma}) for rational gamma >= 0 (CKS Alg. 1: for
  gamma in [0,1] draw Bernoulli(gamma/k) for k = 1, 2, ... until the first failure; the number of
  successes is even with probability e^{-gamma}; for gamma > 1 multiply floor(gamma) draws of
  Bernoulli(e^{-1}) by one Bernoulli(e^{-(gamma - floor gamma)})).
* ``discrete_laplace(t)`` - CKS Alg. 2 for rational scale t = s/t': U uniform on {0..s'-1} accepted
  w.p. e^{-U/s'} ..., geometric part V, sign, reject (neg, 0).

ZEALOUS adds ``eta`` to integer counts and compares with tau'. For granularity g -> 0 the grid
noise converges to Lap(lam). Per unit of count the probability ratio is exactly e^{1/lam} when 1/g is an integer,
but the tail ``Pr[eta > x] = r^{floor(x/g)+1}/(1+r)`` is not ``1/2 e^{-x/lam}`` (up to ``2/(1+r)`` times it), so
Theorem 14's threshold must be met with the grid's tail: :mod:`privclaims.theory.zealous.grid_noise` (and
:func:`grid_tail_probability` here, for rational r).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from privclaims.theory.errors import InvalidInput
from privclaims.theory.noise import cks
from privclaims.theory.numbers import Q, as_rational, positive
from privclaims.theory.validate import integer, randomness


class BitSource:
    """Uniform random integers from an integer seed (Python's Mersenne twister: bits, never floats).

    Seeded for reproducible checks; a real release should use :meth:`system` (OS randomness).
    """

    def __init__(self, seed: int | None) -> None:
        if seed is not None:
            integer(seed, "seed")
        self._r = random.Random(seed) if seed is not None else random.SystemRandom()

    @classmethod
    def system(cls) -> "BitSource":
        return cls(None)

    def below(self, n: int) -> int:
        """Uniform on {0, ..., n-1} (exact: rejection sampling on random bits)."""
        if n <= 0:
            raise InvalidInput(f"uniform range n = {n} must be positive")
        return self._r.randrange(n)

    def bernoulli(self, p: Any) -> bool:
        """Bernoulli(p) for a rational p in [0, 1], exactly."""
        p = Fraction(int(p.numerator), int(p.denominator))
        return self.below(p.denominator) < p.numerator


def bernoulli_exp(gamma: object, bits: BitSource) -> bool:
    """Bernoulli(e^{-gamma}) for rational gamma >= 0 (CKS 2020 Algorithm 1, :func:`privclaims.theory.noise.cks.bernoulli_exp`
    on ``bits.below``), exactly."""
    randomness(bits, "bits", "below")
    g = as_rational(gamma, "gamma")
    if g < 0:
        raise InvalidInput(f"gamma = {g} must be >= 0")
    return cks.bernoulli_exp(int(g.numerator), int(g.denominator), bits.below)


def discrete_laplace(scale: object, bits: BitSource) -> int:
    """K with Pr[K = k] proportional to e^{-|k|/scale} (CKS 2020 Algorithm 2, :func:`privclaims.theory.noise.cks.discrete_laplace`
    on ``bits.below``), scale a positive rational."""
    t = positive(scale, "scale")
    randomness(bits, "bits", "below")
    return cks.discrete_laplace(int(t.numerator), int(t.denominator), bits.below)


def laplace_on_grid(lam: object, granularity: object, bits: BitSource) -> Any:
    """g * K with K discrete Laplace of scale lam/g: an exact sample of grid Laplace noise (a rational)."""
    lam_q, g = positive(lam, "lambda"), positive(granularity, "granularity")
    return Q(discrete_laplace(lam_q / g, bits)) * g


def grid_tail_probability(x_steps: int, r: object) -> Any:
    """Pr[K > x] for K discrete Laplace with ratio r = e^{-1/t} and an integer x >= 0: r^{x+1}/(1+r).

    (Sum_{k > x} (1-r)/(1+r) r^k = (1-r)/(1+r) * r^{x+1}/(1-r).) Exact for rational r.
    """
    x_steps = integer(x_steps, "x_steps (use symmetry for negative x)", lo=0)
    rr = as_rational(r, "r")
    if not 0 < rr < 1:
        raise InvalidInput(f"r = {rr} must lie in (0, 1)")
    return rr ** (x_steps + 1) / (1 + rr)


def discrete_laplace_pmf(k: int, r: object) -> Any:
    """Pr[K = k] = (1 - r)/(1 + r) r^{|k|} for rational r = e^{-1/t} in (0, 1)."""
    k = integer(k, "k")
    rr = as_rational(r, "r")
    if not 0 < rr < 1:
        raise InvalidInput(f"r = {rr} must lie in (0, 1)")
    return (1 - rr) / (1 + rr) * rr ** abs(k)


# --------------------------------------------------------------------------- the leak (Mironov 2012)


def naive_float_laplace(c: float, lam: float, rng: random.Random) -> float:
    """The textbook float sampler: c + lam * S * ln(U), U uniform on the 53-bit grid (0, 1], S = +-1.

    For demonstration only (:func:`naive_output_possible`); never used to release data.
    """
    import math

    u = (rng.getrandbits(53) + 1) / 2 ** 53
    s = 1.0 if rng.getrandbits(1) else -1.0
    return c + lam * s * math.log(u)


def naive_output_possible(y: float, c: float, lam: float) -> bool:
    """Could the naive sampler with true value ``c`` have printed exactly the double ``y``?

    Tries the 53-bit grid points u near exp(-|y - c|/lam) for both signs: float rounding makes the
    reachable outputs a sparse, c-dependent set of doubles, so for most draws from c one can rule out c' = c + 1.
    """
    import math

    for s in (1.0, -1.0):
        t = (y - c) / (lam * s)
        if t > 0:
            continue
        k0 = int(math.exp(t) * 2 ** 53)
        for k in range(max(1, k0 - 4), min(2 ** 53, k0 + 5) + 1):
            if c + lam * s * math.log(k / 2 ** 53) == y:
                return True
    return False
