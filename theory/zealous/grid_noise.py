"""Theorem 14 for the noise ZEALOUS's release really draws: Laplace on a grid of granularity g (exact rationals).

The release (:mod:`privclaims.theory.zealous.engines`) adds ``η = g K``, K discrete Laplace with
``Pr[K = k] = (1 - r)/(1 + r) r^{|k|}``, ``r = e^{-g/λ}`` (:func:`privclaims.theory.noise.laplace.laplace_on_grid`),
never the continuous ``Lap(λ)`` of Step 4. Theorem 14's proof (000_211156f2009240b4.txt §6.4.2) uses the noise in
three places only:

1. (6.8): ``Pr[Z(S) ∉ Ω] = 1 - (1 - T(τ′ - τ))^{|K|} <= (U m / τ) T(τ′ - τ)``, with ``T(x) = Pr[η > x]``, and asks it be
   ``<= δ``;
2. case (ii): ``1 / (1 - T(τ′ - τ)) <= e^{1/λ}``, i.e. ``T(τ′ - τ) <= 1 - e^{-1/λ}`` (its first gap);
3. case (i): the ratio of the noise's probabilities at two points one count apart is at most ``e^{1/λ}``, and for an
   item left unpublished the ratio of the probabilities ``Pr[η <= y + 1] / Pr[η <= y]`` is at most ``e^{1/λ}``.

For the grid noise, (3) holds when ``1/g`` is an integer (one count is ``1/g`` steps: the ratio is exactly
``r^{-1/g} = e^{1/λ}``; otherwise a count's noisy values and its neighbour's lie on different grids and the ratio is
infinite; the discrete Laplace is log-concave, so its distribution function's ratio over one count decreases in y
towards its left-tail value ``r^{-1/g} = e^{1/λ}``), and (1), (2) hold with the grid's tail ``T_g(x) = Pr[g K > x] = r^{⌊x/g⌋ + 1} / (1 + r)`` for ``x >= 0``.
``T_g`` is not ``½ e^{-x/λ}``: it is up to ``2 / (1 + r) ≈ 1 + g/(2λ)`` times larger, so a τ′ meeting (6.5) with
nothing to spare can leave the release's δ above the target (U = 2, m = 1, ε = 1, δ = 3/5000: τ′ = 15.451 meets
(6.5), and publishing an item of count τ has probability 0.00060006 > δ — an output its neighbour cannot produce).

So the release is certified by ``T_g(τ′ - τ) <= B = min(δ τ / (U m), 1 - e^{-1/λ})`` (and ``1/g`` an integer); the
least such τ′ is ``τ + g (k* - 1)``, ``k* = ⌈(λ / g) ln(1 / (B (1 + r)))⌉`` when that is at least 1, and otherwise
``k* = 1 - ⌊(λ / g) ln(1 / ((1 - B)(1 + r)))⌋`` (at most 1; the tail of a negative x is ``1 - r^{-⌊x/g⌋}/(1 + r)``) — a
rational, found exactly by enclosing the logarithm until its ceiling (floor) is decided. (No tie is possible: ``r^k / (1 + r) = B`` would make
``e^{-g/λ}`` algebraic.)
"""

from __future__ import annotations

import math
from typing import Any

from privclaims.theory.errors import InvalidInput, UndecidedComparison
from privclaims.theory.numbers import Q, as_rational, enclosure_bounds, in_open_unit, positive, rational_str, rigorous_sign, to_interval
from privclaims.theory.zealous.model import contributions
from privclaims.theory.zealous.parameters import one_minus_exp_neg

_LARGEST_EXPONENT = 1 << 20


def steps_per_count(granularity: object) -> int:
    """``1/g``, which must be a positive integer for the grid noise to keep Theorem 14's ratio ``e^{1/λ}``."""
    g = positive(granularity, "granularity")
    inv = 1 / Q(g)
    if inv.denominator != 1:
        raise InvalidInput(f"granularity g = {rational_str(g)}: 1/g must be an integer (one count must be a whole number "
                           "of grid steps, or a count's noisy values and its neighbour's lie on different grids)")
    return int(inv)


def grid_tail(x: object, lam: object, granularity: object, ctx: Any) -> Any:
    """``Pr[g K > x]`` (enclosed in ``ctx``) for rational x: ``r^{n+1}/(1+r)`` with ``n = ⌊x/g⌋ >= 0``, and
    ``1 - r^{-n}/(1+r)`` for ``n < 0`` (symmetry of K)."""
    xq, lam_q, g = as_rational(x, "x"), positive(lam, "lambda"), positive(granularity, "granularity")
    n = math.floor(Q(xq) / Q(g))
    step = to_interval(Q(g) / Q(lam_q), ctx)
    r = ctx.exp(-step)
    if n >= 0:
        return ctx.exp(-(n + 1) * step) / (1 + r)
    return 1 - ctx.exp(n * step) / (1 + r)


def _bounds(U: object, m: object, delta: object, tau: object, lam: object) -> tuple[Any, Any]:
    """``(δ τ / (U m), λ)`` validated: the rational bound of (6.8), and λ."""
    u = positive(U, "U")
    mm = contributions(m)
    d = in_open_unit(delta, "delta")
    t = positive(tau, "tau")
    return Q(d) * Q(t) / (Q(u) * mm), positive(lam, "lambda")


def holds(U: object, m: object, delta: object, tau: object, lam: object, tau_prime: object, granularity: object) -> bool:
    """Do (6.8) and case (ii) hold for the grid noise at this τ′ (and 1/g an integer)? Decided rigorously."""
    steps_per_count(granularity)
    b1, lam_q = _bounds(U, m, delta, tau, lam)
    x = Q(as_rational(tau_prime, "tau'")) - Q(as_rational(tau, "tau"))
    first = rigorous_sign(lambda c: to_interval(b1, c) - grid_tail(x, lam_q, granularity, c)) >= 0
    return first and rigorous_sign(
        lambda c: one_minus_exp_neg(1 / to_interval(lam_q, c), c) - grid_tail(x, lam_q, granularity, c)) >= 0


def _decided(f: Any, rounding: Any, at_most: Any = None) -> int:
    """``rounding(x)`` (``math.ceil`` or ``math.floor``) of the real x that ``f(iv)`` encloses, decided exactly: the
    enclosure is refined until both ends round alike (or, given ``at_most``, until the enclosure lies below it: then
    ``at_most`` is returned)."""
    prec = 128
    while True:
        lo, hi = enclosure_bounds(f, prec, _LARGEST_EXPONENT)
        a, b = rounding(lo), rounding(hi)
        if a == b:
            return a
        if at_most is not None and hi <= at_most:
            return at_most
        if prec >= 1 << 17:
            raise UndecidedComparison(f"least grid step count not decided at {prec} bits (enclosure [{lo}, {hi}])")
        prec *= 4


def _least_steps(log_inverse: Any, below: Any, lam: Any, granularity: Any) -> int:
    """The least integer k with ``Pr[K >= k] <= B``, decided exactly, given ``ln(1/B)`` as a function of ``iv`` and
    ``below()``: the integer ``⌊(λ/g)(ln(1/(1-B)) - ln(1+r))⌋`` (None when ``B >= 1``: every k qualifies).

    ``k >= 1``: ``r^k/(1+r) <= B`` iff ``k >= (λ/g)(ln(1/B) - ln(1+r))``. ``k <= 0``: ``Pr[K >= k] = 1 - r^{1-k}/(1+r)``, so
    ``<= B`` iff ``1 - k <= (λ/g)(ln(1/(1-B)) - ln(1+r))`` - possible only when ``B >= 1/(1+r)`` (τ′ below τ)."""
    if below is None:
        return -(1 << 62)  # no constraint from this bound (B >= 1); the other bound (< 1) decides
    pos = max(1, _decided(_scaled(log_inverse, lam, granularity), math.ceil, at_most=1))
    if pos > 1:
        return pos
    return min(1, 1 - below())  # below() >= 1 iff some k <= 0 qualifies


def _scaled(log_b: Any, lam: Any, granularity: Any) -> Any:
    """``iv -> (ln(1/B) - ln(1 + r)) / (g/λ)`` for ``ln(1/B)`` given as a function of ``iv``."""
    def kappa(c: Any) -> Any:
        s = to_interval(Q(granularity) / Q(lam), c)
        return (log_b(c) - c.log(1 + c.exp(-s))) / s
    return kappa


def _ceil_of_positive(f: Any) -> int:
    """``⌈y⌉`` of a real ``y > 0`` (known positive; its enclosure may reach 0 when y is below 2^-(2^20)): at least 1."""
    return max(1, _decided(f, math.ceil, at_most=1))


def least_tau_prime(U: object, m: object, delta: object, tau: object, lam: object, granularity: object) -> Any:
    """The least τ′ (an exact rational on τ + gℤ) for which the grid noise meets (6.8) and case (ii). It lies below τ when
    ``B >= 1/(1 + r)`` (large δτ/(Um) and λ < 1/ln 2), and always above ``τ - 1`` (case (ii)'s bound is below 1)."""
    steps_per_count(granularity)
    b1, lam_q = _bounds(U, m, delta, tau, lam)
    g = positive(granularity, "granularity")
    k1 = _least_steps(lambda c: -c.log(to_interval(b1, c)),
                      (lambda: _decided(_scaled(lambda c: -c.log(to_interval(1 - b1, c)), lam_q, g), math.floor))
                      if b1 < 1 else None, lam_q, g)
    # case (ii): 1 - B = e^{-1/λ}, so (λ/g)(ln(1/(1-B)) - ln(1+r)) = 1/g - y with y = (λ/g) ln(1+r) > 0, whose floor is
    # 1/g - ⌈y⌉ (y may be far below any enclosure's resolution when λ is tiny: 1/g - y is then not decided as a whole)
    steps = steps_per_count(g)
    k2 = _least_steps(lambda c: -c.log(one_minus_exp_neg(1 / to_interval(lam_q, c), c)),
                      lambda: steps - _ceil_of_positive(lambda c: c.log(1 + c.exp(-to_interval(Q(g) / Q(lam_q), c)))
                                                        / to_interval(Q(g) / Q(lam_q), c)), lam_q, g)
    return Q(as_rational(tau, "tau")) + Q(g) * (max(k1, k2) - 1)


__all__ = ["steps_per_count", "grid_tail", "holds", "least_tau_prime"]
