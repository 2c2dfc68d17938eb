"""Exact twin of the query generalizer (``004_66621c1b9afebedf.txt`` §2, §4, §5): the reference.

Everything is a literal reading of the paper, in exact rationals (:data:`privclaims.theory.numbers.Q`):

* ``matching_rows(T, Q)``: the tuples ``t`` with ``t.a_i = v_i`` for every ``v_i ≠ *`` (a scan).
* Eq. (2): ``G(Q, a) = Σ_{i=1}^{n} p_i · i`` with ``p_i = |x_i| / N`` over the ``n`` distinct values
  of ``a`` among the ``N`` matching tuples, sorted so that ``p_1 ≥ p_2 ≥ ... ≥ p_n``; hence
  ``G = (Σ_i c_(i) · i) / N`` for the counts ``c_(1) ≥ c_(2) ≥ ...`` (the empty sum 0 when ``N = 0``).
* Eq. (1): ``H = −Σ p_i log₂ p_i`` (exact as a sympy expression, or a rigorous mpmath interval).
* Traffic overhead (§5): the number of tuples matching the (generalised) query.
* The four strategies of §4, same signature ``strategy(table, query, requirement, *, seed=0)``:
  Brute-Force (all ``2^k`` combinations of the ``k`` fixed values and ``*``; least ``G ≥ G_min``;
  ties: one at random, seeded), Best-Fit / Worst-Fit (remove one value at a time, the one giving the
  least / greatest ``G``; ties: the lowest attribute position), Random-Fit (remove a uniformly random
  remaining value, seeded). All return ``Q`` itself when ``G(Q, a) ≥ G_min`` (§4: "Q is modified ...
  if G(Q, a) is less than G_min") and stop as soon as ``G(Q̂, a) ≥ G_min``.

Operation counts (for the complexity claims) are recorded in an optional :class:`OpCount`.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Hashable, Mapping, Sequence

if TYPE_CHECKING:  # sympy takes 0.5 s to import: only the Shannon entropy needs it, so it is imported there
    import sympy

from privclaims.theory.numbers import Q, to_interval
from privclaims.theory.validate import counts as check_counts, positive_counts
from privclaims.theory.querygen.model import (
    AuxTable, Generalization, PrivacyRequirement, STAR, all_star, best_fit_step, check_choice, check_strategy,
    check_ties, fixed_positions, is_star, pick_tie, random_removal_order, remove, validate_request,
)


@dataclass
class OpCount:
    """Counters: tuples visited by scans, value comparisons in the frequency sort, G evaluations."""

    row_visits: int = 0
    sort_comparisons: int = 0
    evaluations: int = 0


def matching_rows(table: AuxTable, query: Sequence[Hashable], ops: OpCount | None = None) -> list[int]:
    """Indices of the tuples matching ``query`` (literal scan of every tuple: tuple ``k`` matches iff
    ``rows[k][i] == v_i`` at every fixed position ``i``, tested one fixed position at a time on the tuples that met
    the ones before)."""
    if ops is not None:
        ops.row_visits += table.n_rows
    rows = table.rows
    keep: Sequence[int] = range(len(rows))
    for i, v in enumerate(query):
        if not is_star(v):
            keep = [k for k in keep if rows[k][i] == v]
    return list(keep)


def value_counts(table: AuxTable, rows: Sequence[int], target: int) -> dict[Hashable, int]:
    """``|x_i|`` for every value ``x_i`` of the target attribute appearing among ``rows``."""
    counts: dict[Hashable, int] = {}
    for k in rows:
        x = table.rows[k][target]
        counts[x] = counts.get(x, 0) + 1
    return counts


def sorted_counts(counts: Sequence[int], ops: OpCount | None = None) -> list[int]:
    """Counts in decreasing order (the paper's ``p_1 ≥ p_2 ≥ ...``); comparisons counted if asked."""
    if ops is None:
        return sorted(counts, reverse=True)

    def cmp(x: int, y: int) -> int:
        ops.sort_comparisons += 1
        return (y > x) - (y < x)

    return sorted(counts, key=functools.cmp_to_key(cmp))


def guessing_entropy_of_counts(counts: Sequence[int], ops: OpCount | None = None) -> Any:
    """Eq. (2) from the counts ``|x_i|``: ``Σ_i (c_(i)/N) · i`` (0 for no tuples, the empty sum)."""
    num, n = guessing_numerator(counts, ops)
    return Q(num, n) if n else Q(0)


def guessing_numerator(counts: Sequence[int], ops: OpCount | None = None) -> tuple[int, int]:
    """``(Σ_i c_(i) · i, N)``: Eq. (2) as an integer fraction (counts: non-negative integers)."""
    return _numerator(check_counts(counts), ops)


def _numerator(counts: list[int], ops: OpCount | None) -> tuple[int, int]:
    """:func:`guessing_numerator` of counts already known to be non-negative integers."""
    cs = sorted_counts([c for c in counts if c], ops)
    if ops is not None:
        ops.evaluations += 1
    return sum(c * i for i, c in enumerate(cs, start=1)), sum(cs)


def guessing_numerator_pairwise(counts: Sequence[int]) -> tuple[int, int]:
    """Eq. (2) without sorting: ``Σ_i c_(i)·i = N + Σ_{x<y} min(c_x, c_y)`` (each pair of values
    contributes the smaller count once more: the tuples of the less frequent value wait one more
    guess). Used for the SMT encoding of Eq. (4) and as an independent oracle."""
    cs = positive_counts(counts)
    return sum(cs) + sum(min(a, b) for a, b in itertools.combinations(cs, 2)), sum(cs)


def guessing_entropy_of_distribution(p: Sequence[object]) -> Any:
    """Eq. (2) for an explicit distribution ``P = {p_1, ..., p_n}`` (sorted decreasingly first)."""
    ps = sorted((Q(x) for x in p), reverse=True)
    return sum((pi * i for i, pi in enumerate(ps, start=1)), Q(0))


def _fraction(table: AuxTable, query: Sequence[Hashable], target: int, ops: OpCount | None) -> tuple[int, int]:
    rows = matching_rows(table, query, ops)
    return _numerator(list(value_counts(table, rows, target).values()), ops)  # counts of tuples: integers >= 1


def guessing_entropy(table: AuxTable, query: Sequence[Hashable] | Mapping[str, Hashable],
                     attribute: str | int, ops: OpCount | None = None) -> Any:
    """``G(Q, a)`` of Eq. (2), exact. The target must be ``*`` in the query."""
    q, t = validate_request(table, query, PrivacyRequirement(attribute, 1))
    num, n = _fraction(table, q, t, ops)
    return Q(num, n) if n else Q(0)


def shannon_entropy_of_counts(counts: Sequence[int]) -> sympy.Expr:
    """Eq. (1), ``H = −Σ p_i log₂ p_i`` with ``p_i = c_i/N``, as an exact sympy expression (0 if N = 0): the logarithms
    of the ratios split (``log(c/N) = log c − log N``) and the sum expanded, a rational plus rational multiples of
    ``log(k)/log(2)`` (e.g. counts (2, 1): ``-2/3 + log(3)/log(2)``; ``k`` is not factored, so equal values may print
    differently). Issue 25 (algorithm): ``expand_log`` and ``expand`` instead of ``simplify`` - the same value, ~10x
    less time (150 count vectors: 1.6 -> 0.16 CPU s), and no failure on large counts (``simplify`` raised OverflowError
    on some vectors of counts <= 50 and ran for minutes on (10^6, 1), a reviewer's finding)."""
    import sympy

    cs = positive_counts(counts)
    n = sum(cs)
    return sympy.nsimplify(0) if not n else sympy.expand(sympy.expand_log(
        -sum(sympy.Rational(c, n) * sympy.log(sympy.Rational(c, n), 2) for c in cs), force=True))


def shannon_entropy_interval(counts: Sequence[int], iv: Any) -> Any:
    """Eq. (1) as an mpmath interval (for rigorous comparisons with :func:`privclaims.theory.numbers.rigorous_sign`).
    The counts are checked as :func:`shannon_entropy_of_counts` checks them (a count of 2.5 is refused, not truncated)."""
    cs = positive_counts(counts)
    n = sum(cs)
    total = iv.mpf(0)
    for c in cs:
        p = to_interval(Q(c, n), iv)
        total -= p * iv.log(p) / iv.log(iv.mpf(2))
    return total


def shannon_entropy(table: AuxTable, query: Sequence[Hashable] | Mapping[str, Hashable],
                    attribute: str | int) -> sympy.Expr:
    q, t = validate_request(table, query, PrivacyRequirement(attribute, 1))
    return shannon_entropy_of_counts(list(value_counts(table, matching_rows(table, q), t).values()))


def traffic_overhead(table: AuxTable, query: Sequence[Hashable] | Mapping[str, Hashable]) -> int:
    """§5: the number of tuples of the provider's database (here: the table) matching the query."""
    from privclaims.theory.querygen.model import make_query

    return len(matching_rows(table, make_query(table, query)))


def is_privacy_preserving(table: AuxTable, query: Sequence[Hashable] | Mapping[str, Hashable],
                          req: PrivacyRequirement) -> bool:
    """§4: ``G(Q, a) ≥ G_min``."""
    q, t = validate_request(table, query, req)
    num, n = _fraction(table, q, t, None)
    return n > 0 and Q(num, n) >= req.g_min


# ------------------------------------------------------------------------------------ strategies


def meets_g_min(num: int, n: int, g_min: Any) -> bool:
    """Does ``G = num / n`` meet the requirement: ``n > 0`` (the query matches a tuple) and ``num / n >= G_min``."""
    return n > 0 and Q(num, n) >= g_min


def _start(table: AuxTable, query: Any, req: PrivacyRequirement, ops: OpCount | None):
    q, t = validate_request(table, query, req)
    ops = ops if ops is not None else OpCount()
    num, n = _fraction(table, q, t, ops)
    return q, t, ops, num, n


def brute_force(table: AuxTable, query: Any, req: PrivacyRequirement, *, seed: int = 0,
                ops: OpCount | None = None, ties: str = "two-or-more") -> Generalization:
    """Brute-Force (§4 strategy 1): among all ``2^k`` combinations of the ``k`` fixed values and ``*``,
    the one with the least ``G(Q̂, a)`` subject to ``G(Q̂, a) ≥ G_min``; ties broken by
    :func:`~privclaims.theory.querygen.model.pick_tie` read by ``ties`` (seeded) among the tied combinations in
    bitmask order (bit j = the j-th fixed position set to ``*``)."""
    check_ties(ties)
    q, t, ops, num, n = _start(table, query, req, ops)
    if meets_g_min(num, n, req.g_min):
        return Generalization("brute_force", q, (), num, n, True, ops.evaluations)
    fixed = fixed_positions(q)
    best: list[tuple[int, tuple, int, int]] = []
    best_g = None
    for mask in range(1, 1 << len(fixed)):
        gone = tuple(fixed[j] for j in range(len(fixed)) if mask >> j & 1)
        cand = remove(q, gone)
        c_num, c_n = _fraction(table, cand, t, ops)
        if not meets_g_min(c_num, c_n, req.g_min):
            continue
        g = Q(c_num, c_n)
        if best_g is None or g < best_g:
            best_g, best = g, [(mask, gone, c_num, c_n)]
        elif g == best_g:
            best.append((mask, gone, c_num, c_n))
    if not best:
        top = all_star(table.m)
        a_num, a_n = _fraction(table, top, t, None)
        return Generalization("brute_force", top, fixed, a_num, a_n, False, ops.evaluations)
    mask, gone, c_num, c_n = pick_tie(best, seed, ties)
    return Generalization("brute_force", remove(q, gone), gone, c_num, c_n, True, ops.evaluations)


def _greedy(name: str, table: AuxTable, query: Any, req: PrivacyRequirement, pick_max: bool,
            ops: OpCount | None, choice: str = "local-min") -> Generalization:
    q, t, ops, num, n = _start(table, query, req, ops)
    removed: list[int] = []
    cur = q
    while not meets_g_min(num, n, req.g_min) and fixed_positions(cur):
        cand = {}
        for i in fixed_positions(cur):
            c_num, c_n = _fraction(table, remove(cur, [i]), t, ops)
            cand[i] = (Q(c_num, c_n) if c_n else Q(0), c_num, c_n)
        vals = {i: c[0] for i, c in cand.items()}
        if pick_max:
            top = max(vals.values())
            i = next(j for j, v in vals.items() if v == top)
        else:  # ties: lowest position (vals is in position order)
            i = best_fit_step(vals, lambda j: meets_g_min(cand[j][1], cand[j][2], req.g_min), choice)[0]
        _, num, n = cand[i]
        cur = remove(cur, [i])
        removed.append(i)
    return Generalization(name, cur, tuple(removed), num, n, meets_g_min(num, n, req.g_min), ops.evaluations)


def best_fit(table: AuxTable, query: Any, req: PrivacyRequirement, *, seed: int = 0,
             ops: OpCount | None = None, choice: str = "local-min") -> Generalization:
    """Best-Fit (§4 strategy 2): remove, one at a time, the value whose removal gives the least
    ``G(Q̂, a)`` (ties: lowest position), until ``G(Q̂, a) ≥ G_min`` or nothing is left to remove.
    ``choice="fit"`` reads the step as the best fit: the least G among the removals that already meet
    G_min, when one does (:func:`~privclaims.theory.querygen.model.best_fit_step`)."""
    return _greedy("best_fit", table, query, req, False, ops, check_choice("best_fit", choice))


def worst_fit(table: AuxTable, query: Any, req: PrivacyRequirement, *, seed: int = 0,
              ops: OpCount | None = None) -> Generalization:
    """Worst-Fit (§4 strategy 3): as Best-Fit, removing the value giving the greatest ``G(Q̂, a)``."""
    return _greedy("worst_fit", table, query, req, True, ops)


def random_fit(table: AuxTable, query: Any, req: PrivacyRequirement, *, seed: int = 0,
               ops: OpCount | None = None) -> Generalization:
    """Random-Fit (§4 strategy 4): remove a uniformly random remaining value (seeded) until
    ``G(Q̂, a) ≥ G_min`` or nothing is left to remove."""
    q, t, ops, num, n = _start(table, query, req, ops)
    removed: list[int] = []
    cur = q
    order = random_removal_order(fixed_positions(q), seed)
    for i in order:
        if meets_g_min(num, n, req.g_min):
            break
        cur = remove(cur, [i])
        removed.append(i)
        num, n = _fraction(table, cur, t, ops)
    return Generalization("random_fit", cur, tuple(removed), num, n, meets_g_min(num, n, req.g_min), ops.evaluations)


def generalize(table: AuxTable, query: Any, req: PrivacyRequirement, strategy: str, *, seed: int = 0,
               ops: OpCount | None = None, choice: str = "local-min", ties: str = "two-or-more") -> Generalization:
    """Dispatch by strategy name (``brute_force``, ``best_fit``, ``worst_fit``, ``random_fit``); ``choice`` reads
    Best-Fit's step (only ``best_fit`` takes ``"fit"``), ``ties`` Brute-Force's tie rule (the others have none)."""
    check_ties(ties)
    if check_choice(check_strategy(strategy), choice) != "local-min":
        return best_fit(table, query, req, seed=seed, ops=ops, choice=choice)
    if strategy == "brute_force":
        return brute_force(table, query, req, seed=seed, ops=ops, ties=ties)
    return _BY_NAME[strategy](table, query, req, seed=seed, ops=ops)


def optimum(table: AuxTable, query: Any, req: PrivacyRequirement) -> tuple[Any, list[tuple]]:
    """Eq. (4) by exhaustion: ``min f(x)`` s.t. ``f(x) ≥ G_min`` over ``x ∈ {0,1}^m`` (``x_i = 0``: ``*``)
    — all generalisations of ``Q`` including ``Q``; returns (the minimum or None, the minimisers)."""
    q, t = validate_request(table, query, req)
    fixed = fixed_positions(q)
    vals: dict[tuple, Any] = {}
    for mask in range(1 << len(fixed)):
        cand = remove(q, [fixed[j] for j in range(len(fixed)) if mask >> j & 1])
        num, n = _fraction(table, cand, t, None)
        if meets_g_min(num, n, req.g_min):
            vals[cand] = Q(num, n)
    if not vals:
        return None, []
    lo = min(vals.values())
    return lo, [c for c, g in vals.items() if g == lo]


_BY_NAME = {"brute_force": brute_force, "best_fit": best_fit, "worst_fit": worst_fit, "random_fit": random_fit}

__all__ = ["OpCount", "STAR", "matching_rows", "value_counts", "guessing_entropy", "guessing_entropy_of_counts",
           "guessing_entropy_of_distribution", "guessing_numerator_pairwise", "shannon_entropy", "shannon_entropy_of_counts",
           "shannon_entropy_interval", "traffic_overhead", "is_privacy_preserving", "brute_force", "best_fit",
           "worst_fit", "random_fit", "generalize", "optimum"]
