"""Theorem 1 of 000_211156f2009240b4.txt §2.2.1 (Proposition 4.2 of 002_9d55ef468949585c.txt), exactly.

The Gaussian mechanism ``M(L) = f(L) + N(0, sigma^2 I_d)``, f with L2-sensitivity s. For neighbours
with ``Delta = f(L) - f(L')`` (``|Delta| <= s``) and output ``O = f(L) + X`` the privacy loss is::

    ln(p_L(O) / p_L'(O)) = (2 <X, Delta> + |Delta|^2) / (2 sigma^2)  ~  N(eta, 2 eta),  eta = |Delta|^2 / (2 sigma^2).

Definition 3's smallest breach set is ``Omega_2 = {O : |loss| > eps}``, of probability::

    B(eps, eta) = Q((eps - eta) / sqrt(2 eta)) + Q((eps + eta) / sqrt(2 eta)).

``dB/deta = [phi(a)(eps + eta) - phi(b)(eta - eps)] / (2 sqrt 2 eta^{3/2})`` with ``phi(b) = e^{-eps} phi(a)``
is > 0, so the worst neighbours have ``|Delta| = s`` and the worst admissible variance is the least
one. At Theorem 1's least variance ``sigma^2 = 2 s^2 ln(4/delta) / eps^2``, ``eta = eps^2 / (4 ln(4/delta))``
does not depend on s. Every function here returns an ``mpmath.iv`` interval enclosing the real value
(rationals in, :func:`privclaims.theory.count.normal_tail.normal_sf` for Q); decisions go through
:func:`privclaims.theory.numbers.rigorous_sign`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from privclaims.theory.count.model import positive_sigma2, privacy_eps_delta
from privclaims.theory.count.normal_tail import normal_sf
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q, as_rational, rigorous_sign, to_interval


def _s(s: object) -> Any:
    v = as_rational(s, "sensitivity s")
    if v <= 0:
        raise InvalidInput(f"sensitivity s = {v} must be > 0")
    return v


def breach_probability(eps: object, sigma2: object, s: object, ctx: Any) -> Any:
    """Exact (enclosed) ``Pr[M(L) in Omega_2]`` for the worst neighbours (|Delta| = s)."""
    e, s2, sv = as_rational(eps, "eps"), positive_sigma2(sigma2), _s(s)
    sigma = ctx.sqrt(to_interval(s2, ctx))
    a = to_interval(e, ctx) * sigma / to_interval(sv, ctx) - to_interval(sv, ctx) / (2 * sigma)
    b = to_interval(e, ctx) * sigma / to_interval(sv, ctx) + to_interval(sv, ctx) / (2 * sigma)
    return normal_sf(a, ctx) + normal_sf(b, ctx)


def theorem1_breach(eps: object, delta: object, ctx: Any) -> Any:
    """``B`` at Theorem 1's least variance: ``eta = eps^2 / (4 ln(4/delta))`` (independent of s)."""
    e = as_rational(eps, "eps")
    _, d = privacy_eps_delta(1, delta)
    ei = to_interval(e, ctx)
    eta = ei * ei / (4 * ctx.log(4 / to_interval(d, ctx)))
    r = ctx.sqrt(2 * eta)
    return normal_sf((ei - eta) / r, ctx) + normal_sf((ei + eta) / r, ctx)


def theorem1_holds(eps: object, delta: object) -> bool:
    """Is the Gaussian mechanism with ``sigma^2 = 2 s^2 ln(4/delta)/eps^2`` (eps, delta)-probabilistically DP?"""
    _, d = privacy_eps_delta(eps, delta)
    return rigorous_sign(lambda c: to_interval(d, c) - theorem1_breach(eps, delta, c)) >= 0


def is_probabilistically_private(eps: object, delta: object, sigma2: object, s: object = 1) -> bool:
    """Definition 3 for the Gaussian mechanism (variance sigma2, sensitivity s), decided rigorously."""
    _, d = privacy_eps_delta(eps, delta)
    return rigorous_sign(lambda c: to_interval(d, c) - breach_probability(eps, sigma2, s, c)) >= 0


def omega1_outside_probability(eps: object, sigma2: object, s: object, ctx: Any) -> Any:
    """``Pr[M(L) not in Omega_1]`` for the proof's Omega_1 with |Delta| = s (1-d projection):
    ``Omega_1 = {-eps sigma^2 <= X s <= eps sigma^2 - s^2/2}``, so the mass outside is
    ``Q(eps sigma / s) + Q(eps sigma / s - s / (2 sigma))``."""
    e, s2, sv = as_rational(eps, "eps"), positive_sigma2(sigma2), _s(s)
    sigma = ctx.sqrt(to_interval(s2, ctx))
    z = to_interval(e, ctx) * sigma / to_interval(sv, ctx)
    return normal_sf(z, ctx) + normal_sf(z - to_interval(sv, ctx) / (2 * sigma), ctx)


def proof_bound(eps: object, sigma2: object, s: object, ctx: Any) -> Any:
    """The proof's bound ``2 e^{-eps^2 sigma^2/(2 s^2) + eps/2 - s^2/(8 sigma^2)} / ((eps sigma/s - s/(2 sigma)) sqrt(2 pi))``."""
    e, s2, sv = as_rational(eps, "eps"), positive_sigma2(sigma2), _s(s)
    ei, si, sg2 = to_interval(e, ctx), to_interval(sv, ctx), to_interval(s2, ctx)
    sigma = ctx.sqrt(sg2)
    z = ei * sigma / si - si / (2 * sigma)
    return 2 * ctx.exp(-ei * ei * sg2 / (2 * si * si) + ei / 2 - si * si / (8 * sg2)) / (z * ctx.sqrt(2 * ctx.pi))


def proof_bound_via_fact2(eps: object, sigma2: object, s: object, ctx: Any) -> Any:
    """``2 e^{-z^2/2} / (z sqrt(2 pi))`` with ``z = eps sigma/s - s/(2 sigma)`` (the line before expanding)."""
    e, s2, sv = as_rational(eps, "eps"), positive_sigma2(sigma2), _s(s)
    sigma = ctx.sqrt(to_interval(s2, ctx))
    z = to_interval(e, ctx) * sigma / to_interval(sv, ctx) - to_interval(sv, ctx) / (2 * sigma)
    return 2 * fact2_bound(z, ctx)


def fact2_bound(z: Any, ctx: Any) -> Any:
    """Fact 2's right-hand side ``e^{-z^2/2} / (z sqrt(2 pi))``."""
    z = ctx.mpf(z)
    return ctx.exp(-z * z / 2) / (z * ctx.sqrt(2 * ctx.pi))


def privacy_loss(x: object, delta_f: object, sigma2: object) -> Any:
    """Exact privacy loss exponent ``(2 x Delta + Delta^2) / (2 sigma^2)`` at noise x (1-d), a rational."""
    x, d, s2 = Q(as_rational(x, "x")), Q(as_rational(delta_f, "Delta")), positive_sigma2(sigma2)
    return (2 * x * d + d * d) / (2 * s2)


def final_chain_lines(ln_arg: Any, ctx: Any) -> tuple[Any, Any, Any]:
    """The last three inequalities of the proof as ``rhs - lhs`` intervals, for ``ln_arg = ln(2/delta)``:

    1. ``(4 ln(2/d) - 1) sqrt(pi) - sqrt(ln(2/d)) e^{1/2}``
    2. ``4 sqrt(ln(2/d)) sqrt(pi) - e^{1/2} - sqrt(pi)/sqrt(ln(2/d))``
    3. the same at ``ln(2/d) = ln 2`` (delta = 1).
    """
    L = ctx.mpf(ln_arg)
    sp, h = ctx.sqrt(ctx.pi), ctx.exp(ctx.mpf(1) / 2)
    one = (4 * L - 1) * sp - ctx.sqrt(L) * h
    two = 4 * ctx.sqrt(L) * sp - h - sp / ctx.sqrt(L)
    l2 = ctx.log(2)
    three = 4 * ctx.sqrt(l2) * sp - h - sp / ctx.sqrt(l2)
    return one, two, three


def largest_private_eps(delta: object, lo: object = 1, hi: object = 64, steps: int = 30) -> tuple[Any, Any]:
    """Bracket ``[a, b]`` (rationals) around the eps where Theorem 1's variance stops giving
    (eps, delta)-probabilistic DP: ``theorem1_holds(a)`` and not ``theorem1_holds(b)`` (bisection,
    each decision rigorous). Raises if ``lo`` fails or ``hi`` holds."""
    a, b = Q(as_rational(lo, "lo")), Q(as_rational(hi, "hi"))
    if not theorem1_holds(a, delta):
        raise InvalidInput(f"Theorem 1 already fails at eps = {a}")
    if theorem1_holds(b, delta):
        raise InvalidInput(f"Theorem 1 still holds at eps = {b}")
    for _ in range(steps):
        m = (a + b) / 2
        if theorem1_holds(m, delta):
            a = m
        else:
            b = m
    return a, b


__all__ = [
    "breach_probability", "theorem1_breach", "theorem1_holds", "is_probabilistically_private",
    "omega1_outside_probability", "proof_bound", "proof_bound_via_fact2", "fact2_bound", "privacy_loss",
    "final_chain_lines", "largest_private_eps", "Fraction",
]
