"""Definition 3 with one split per input (003's order, the thesis's §6.5) for the Gaussian mechanism, rigorously.

Under the per-input order the least Ω2 of an input L is the union, over all neighbours L' of L, of the per-pair
breach sets {O : |ln(p_L(O)/p_L'(O))| > ε}. For M(L) = f(L) + X, X ~ N(0, σ² I_d), and Δ = f(L) − f(L'), the pair's
loss is (2⟨X, Δ⟩ + |Δ|²)/(2σ²) (:mod:`privclaims.theory.count.exact_privacy`), so:

* **±Δ both neighbours** (a user with contribution Δ can be added to L and one deleted from it): the union of the
  two breach sets is {|⟨X, Δ⟩| > εσ² − |Δ|²/2}, of probability ``2 Q(εσ/|Δ| − |Δ|/(2σ))`` (:func:`two_sided_breach`).
* **d orthogonal directions** ±s·e_j (a histogram of d cells, one user per cell; L2-sensitivity s): the coordinates
  of X are independent, so Pr[∪] = ``1 − (1 − 2 Q(εσ/s − s/(2σ)))^d`` (:func:`axis_union_breach`).
* **k directions sharing one coordinate**, ±(e_0 + e_j), j = 1..k (one context, k/2 ads bidding on it, a user's
  entry adds 1 to count_0 and to one click or no-click count; |Δ|² = 2): the union is {∃j: |X_0 + X_j| > T},
  T = εσ² − 1. Given X_0 = x the events are independent, so Pr[no breach] = E[g(X_0)] with
  g(x) = (Φ((T − x)/σ) − Φ((−T − x)/σ))^k, even and decreasing in |x|; :func:`shared_axis_union_lower` bounds
  E[g(X_0)] above on a grid (g at the left end of each cell) and returns a rigorous LOWER bound on Pr[∪].

Every function returns an ``mpmath.iv`` interval (``ctx`` is ``mpmath.iv`` at some precision).
"""

from __future__ import annotations

from typing import Any

from privclaims.theory.count.model import positive_sigma2
from privclaims.theory.count.normal_tail import normal_sf
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import as_rational, to_interval


def _positive_int(x: object, name: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int) or x < 1:
        raise InvalidInput(f"{name} = {x!r} must be a positive integer")
    return x


def two_sided_breach(eps: object, sigma2: object, s: object, ctx: Any) -> Any:
    """``Pr[|⟨X, Δ⟩| > εσ² − s²/2] = 2 Q(εσ/s − s/(2σ))`` for |Δ| = s: the per-input least δ of an input whose
    neighbours differ by +Δ and −Δ only (a single count with sensitivity s, e.g. Count's bit sum, s = 1)."""
    e, s2, sv = as_rational(eps, "eps"), positive_sigma2(sigma2), as_rational(s, "sensitivity s")
    if sv <= 0:
        raise InvalidInput(f"sensitivity s = {sv} must be > 0")
    sigma = ctx.sqrt(to_interval(s2, ctx))
    z = to_interval(e, ctx) * sigma / to_interval(sv, ctx) - to_interval(sv, ctx) / (2 * sigma)
    return 2 * normal_sf(z, ctx)


def axis_union_breach(eps: object, sigma2: object, s: object, d: int, ctx: Any) -> Any:
    """``1 − (1 − 2 Q(εσ/s − s/(2σ)))^d``: the per-input least δ at an input with neighbours ±s·e_j, j = 1..d."""
    _positive_int(d, "d")
    p = two_sided_breach(eps, sigma2, s, ctx)
    return 1 - (1 - p) ** d


def shared_axis_union_lower(eps: object, sigma2: object, k: int, ctx: Any, cells: int = 400, width: object = "1/20") -> Any:
    """A rigorous lower bound on Pr[∃ j ≤ k: |X_0 + X_j| > εσ² − 1] (X_i ~ N(0, σ²) independent): the per-input
    least δ at an input whose neighbours differ by ±(e_0 + e_j), j = 1..k. The grid has ``cells`` cells of
    ``width``·σ on x_0 ≥ 0 (g is even), the last cell reaching to infinity."""
    _positive_int(k, "k")
    _positive_int(cells, "cells")
    e, s2, w = as_rational(eps, "eps"), positive_sigma2(sigma2), as_rational(width, "width")
    sig2 = to_interval(s2, ctx)
    sigma = ctx.sqrt(sig2)
    T = to_interval(e, ctx) * sig2 - 1
    if T.b <= 0:
        raise InvalidInput("εσ² − 1 must be > 0 (otherwise every output breaches)")

    def g(x: Any) -> Any:  # Pr[−T − x ≤ Y ≤ T − x]^k, Y ~ N(0, σ²)
        inside = normal_sf((-T - x) / sigma, ctx) - normal_sf((T - x) / sigma, ctx)
        return ctx.mpf([max(inside.a, 0), min(inside.b, 1)]) ** k

    upper = ctx.mpf(0)
    step = to_interval(w, ctx)
    for i in range(cells):
        a = step * i  # cell [aσ, (a + w)σ) in units of σ, the last one [aσ, ∞)
        mass = normal_sf(a, ctx) - (normal_sf(a + step, ctx) if i < cells - 1 else 0)
        upper = upper + mass * g(a * sigma)
    return 1 - 2 * upper


__all__ = ["two_sided_breach", "axis_union_breach", "shared_axis_union_lower"]
