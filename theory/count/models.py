"""The documents' models for count and Theorem 1 witnesses, as validators (issue 21, item 3).

Each validator returns the list of ways a witness leaves the model the documents state (empty: inside it):

* :func:`gaussian_problems` — Theorem 1 (000 §2.2.1; 002 Prop. 4.2): ε ≤ 1, δ ∈ (0, 1), σ² ≥ 2 s² ln(4/δ)/ε², f into
  ℝ^d with L2-sensitivity s (for a histogram of d cells with one user per cell and users adding 1 to one cell, s = 1).
* :func:`count_problems` — Count(σ², t) (000 §5.4; 002 §4.2.1): N ≥ 1 users, t ∈ [0, 1), (1 − t)N − 1 > 0, σ² > 0,
  at least (1 − t)N honest available users.
* :func:`corollary2_problems` — Corollary 2 (000 §5.5.3; 002 Cor. 4.3): ε ≤ 1, σ² ≥ 6 height(H) m² ln(4/δ)/ε², a
  hierarchy of height ≥ 1, m ≥ 1 entries per user, any number of ads bidding on a context (none included: the
  documents bound the bidders by b, and TopDown with no bidders releases the node counts only).

Comparisons with irrational bounds are decided rigorously (:func:`privclaims.theory.numbers.rigorous_sign`).
"""

from __future__ import annotations

from typing import Any

from privclaims.theory.numbers import Q, rigorous_sign, to_interval


def _eps_delta(eps: Any, delta: Any) -> list[str]:
    bad = []
    if not 0 < Q(eps) <= 1:
        bad.append(f"ε = {eps} is not in (0, 1]")
    if not 0 < Q(delta) < 1:
        bad.append(f"δ = {delta} is not in (0, 1)")
    return bad


def _variance_at_least(sigma2: Any, factor: Any, eps: Any, delta: Any) -> bool:
    """σ² ≥ factor·ln(4/δ)/ε², rigorously."""
    return rigorous_sign(lambda c: to_interval(Q(sigma2), c) * to_interval(Q(eps), c) ** 2
                         - to_interval(Q(factor), c) * c.log(4 / to_interval(Q(delta), c))) >= 0


def gaussian_problems(eps: Any, delta: Any, sigma2: Any, s: Any, d: int) -> list[str]:
    bad = _eps_delta(eps, delta)
    if not (isinstance(d, int) and d >= 1):
        bad.append(f"d = {d!r} is not a positive dimension")
    if Q(s) <= 0:
        bad.append(f"s = {s} is not a positive sensitivity")
    if not bad and not _variance_at_least(sigma2, 2 * Q(s) ** 2, eps, delta):
        bad.append(f"σ² = {sigma2} is below Theorem 1's 2 s² ln(4/δ)/ε²")
    return bad


def count_problems(n_users: int, t: Any, sigma2: Any, honest_available: int) -> list[str]:
    bad = []
    tq = Q(t)
    if not (isinstance(n_users, int) and n_users >= 1):
        bad.append(f"N = {n_users!r} is not a positive number of users")
        return bad
    if not 0 <= tq < 1:
        bad.append(f"t = {t} is not in [0, 1)")
    elif (1 - tq) * n_users - 1 <= 0:
        bad.append(f"(1 − t)N − 1 = {(1 - tq) * n_users - 1} is not > 0")
    if Q(sigma2) <= 0:
        bad.append(f"σ² = {sigma2} is not > 0")
    if honest_available < (1 - tq) * n_users:
        bad.append(f"{honest_available} honest available users, fewer than (1 − t)N = {(1 - tq) * n_users}")
    return bad


def corollary2_problems(eps: Any, delta: Any, sigma2: Any, height: int, m: int, ads: int) -> list[str]:
    bad = _eps_delta(eps, delta)
    if not (isinstance(height, int) and height >= 1):
        bad.append(f"height(H) = {height!r} is not ≥ 1")
    if not (isinstance(m, int) and m >= 1):
        bad.append(f"m = {m!r} is not ≥ 1")
    if isinstance(ads, bool) or not (isinstance(ads, int) and ads >= 0):
        bad.append(f"{ads!r} ads: the number of bidding ads must be an integer ≥ 0")
    if not bad and not _variance_at_least(sigma2, 6 * height * m * m, eps, delta):
        bad.append(f"σ² = {sigma2} is below Corollary 2's 6 height(H) m² ln(4/δ)/ε²")
    return bad


__all__ = ["gaussian_problems", "count_problems", "corollary2_problems"]
