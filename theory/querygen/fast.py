"""Fast twin of :mod:`privclaims.theory.querygen.exact` (same signatures), numpy, one pass per query.

Idea (a bitmap group-by over the generalisation lattice): for a query with fixed positions
``F = (f_0, ..., f_{k-1})`` give every tuple the bitmask ``agree = Σ_j [t.a_{f_j} = v_{f_j}] · 2^j``.
A generalisation that keeps the set ``S ⊆ F`` matches ``t`` iff ``agree ⊇ S``. One ``bincount`` of
``(agree, t.a)`` followed by a superset-sum (zeta) transform over the ``2^k`` masks yields the
target-value counts of *all* ``2^k`` generalisations at once; sorting each row decreasingly and
dotting with ``1..n`` gives the numerators of Eq. (2). Cost ``O(N·k + 2^k·k·n + 2^k·n log n)``.

Decisions are exact: ``G = num / N`` with integer ``num`` and ``N``, and ``G ≥ G_min = p/q`` is
decided as ``num·q ≥ p·N`` in integers, so the fast twin never releases what the exact twin would
suppress (and agrees with it everywhere). Choices among candidates (least/greatest ``G``, ties)
compare the integer fractions exactly. Only reported ``G`` values are floats.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Hashable, Mapping, Sequence

import numpy as np

from privclaims.theory.errors import InvalidInput
from privclaims.theory.validate import counts as check_counts, positive_counts

from privclaims.theory.querygen.model import (
    AuxTable, Generalization, PrivacyRequirement, all_star, best_fit_step, check_choice, check_strategy, check_ties,
    fixed_positions, make_query, pick_tie, random_removal_order, remove, validate_request,
)

MAX_LATTICE_BITS = 22


def encode(table: AuxTable) -> np.ndarray:
    """The table as an ``int32`` matrix of domain codes (read-only; computed once per table, :meth:`AuxTable.derived`)."""

    def build() -> np.ndarray:
        codes = np.array([[table.value_code(i, v) for i, v in enumerate(r)] for r in table.rows], dtype=np.int32)
        codes.setflags(write=False)
        return codes

    return table.derived("domain codes", build)


def matching_mask(table: AuxTable, query: Sequence[Hashable]) -> np.ndarray:
    codes = encode(table)
    mask = np.ones(table.n_rows, dtype=bool)
    for i in fixed_positions(query):
        mask &= codes[:, i] == table.value_code(i, query[i])
    return mask


def lattice(table: AuxTable, query: Sequence[Hashable], target: int) -> tuple[tuple[int, ...], np.ndarray, np.ndarray]:
    """``(F, num, N)``: for every removal mask ``R`` (bit j set: ``v_{F[j]}`` replaced by ``*``) the
    Eq. (2) numerator ``num[R] = Σ_i c_(i)·i`` and the match count ``N[R]`` of that generalisation."""
    codes = encode(table)
    fixed = fixed_positions(query)
    k = len(fixed)
    if k > MAX_LATTICE_BITS:
        raise ValueError(f"{k} fixed attributes: lattice of 2^{k} generalisations is too large")
    n_t = len(table.domains[target])
    agree = np.zeros(table.n_rows, dtype=np.int64)
    for j, i in enumerate(fixed):
        agree |= (codes[:, i] == table.value_code(i, query[i])).astype(np.int64) << j
    full = (1 << k) - 1
    cnt = np.bincount(agree * n_t + codes[:, target], minlength=(full + 1) * n_t).reshape(full + 1, n_t)
    cnt = cnt.astype(np.int64)
    # superset sums: sup[S] = Σ_{M ⊇ S} cnt[M]  (S = the kept fixed positions)
    idx = np.arange(full + 1)
    for j in range(k):
        lo = idx[(idx >> j & 1) == 0]
        cnt[lo] += cnt[lo | (1 << j)]
    srt = -np.sort(-cnt, axis=1)
    num_kept = srt @ np.arange(1, n_t + 1, dtype=np.int64)
    n_kept = srt.sum(axis=1)
    # index by removal mask R = full ^ S
    return fixed, num_kept[full ^ idx], n_kept[full ^ idx]


def meets_g_min(num: np.ndarray | int, n: np.ndarray | int, g_min: Any) -> np.ndarray | bool:
    """The exact twin's ``n > 0 and num / n >= G_min`` elementwise, in integer arithmetic (``num q >= p n`` for
    ``G_min = p / q``; Python integers where int64 could overflow)."""
    p, q = int(g_min.numerator), int(g_min.denominator)
    if np.max(num) * q >= 2 ** 62 or np.max(n) * p >= 2 ** 62:  # pragma: no cover - huge tables
        return np.array([nn > 0 and int(a) * q >= p * int(nn) for a, nn in zip(np.ravel(num), np.ravel(n))]
                        ).reshape(np.shape(num))
    return (n > 0) & (num * q >= p * n)


def _g(num: int, n: int) -> Fraction:
    return Fraction(int(num), int(n)) if n else Fraction(0)


def guessing_entropy(table: AuxTable, query: Sequence[Hashable] | Mapping[str, Hashable],
                     attribute: str | int, ops: Any = None) -> float:
    """``G(Q, a)`` as a float (Eq. (2))."""
    q, t = validate_request(table, query, PrivacyRequirement(attribute, 1))
    codes = encode(table)
    c = np.bincount(codes[matching_mask(table, q), t], minlength=len(table.domains[t]))
    c = np.sort(c)[::-1]
    n = c.sum()
    return float(c @ np.arange(1, len(c) + 1)) / n if n else 0.0


def guessing_entropy_of_counts(counts: Sequence[int], ops: Any = None) -> float:
    c = np.sort(np.asarray(check_counts(counts), dtype=np.int64))[::-1]
    n = c.sum()
    return float(c @ np.arange(1, len(c) + 1)) / n if n else 0.0


def shannon_entropy_of_counts(counts: Sequence[int]) -> float:
    c = np.asarray(positive_counts(counts), dtype=np.float64)
    if not c.size:
        return 0.0
    p = c / c.sum()
    return float(-(p * np.log2(p)).sum())


def traffic_overhead(table: AuxTable, query: Sequence[Hashable] | Mapping[str, Hashable]) -> int:
    return int(matching_mask(table, make_query(table, query)).sum())


def is_privacy_preserving(table: AuxTable, query: Sequence[Hashable] | Mapping[str, Hashable],
                          req: PrivacyRequirement) -> bool:
    q, t = validate_request(table, query, req)
    _, num, n = lattice(table, q, t)
    return bool(meets_g_min(num[0], n[0], req.g_min))


# ------------------------------------------------------------------------------------ strategies


def _result(name: str, table: AuxTable, q: tuple, fixed: tuple, r: int, num: np.ndarray, n: np.ndarray,
            satisfied: bool, evaluations: int, order: Sequence[int] | None = None) -> Generalization:
    gone = tuple(order) if order is not None else tuple(fixed[j] for j in range(len(fixed)) if r >> j & 1)
    return Generalization(name, remove(q, gone), gone, int(num[r]), int(n[r]), bool(satisfied), evaluations)


def _brute(q: tuple, table: AuxTable, fixed: tuple, num: np.ndarray, n: np.ndarray, g_min: Any, seed: int,
           rule: str = "two-or-more", ok: np.ndarray | None = None):
    k = len(fixed)
    ok = meets_g_min(num, n, g_min) if ok is None else ok
    if ok[0]:
        return _result("brute_force", table, q, fixed, 0, num, n, True, 1)
    evals = 1 << k
    cand = np.flatnonzero(ok)
    if cand.size == 0:
        full = (1 << k) - 1
        return _result("brute_force", table, q, fixed, full, num, n, False, evals)
    g = num[cand] / n[cand]
    near = cand[g <= g.min() * (1 + 1e-9)]
    exact = {int(r): _g(num[r], n[r]) for r in near}
    lo = min(exact.values())
    ties = sorted(r for r, v in exact.items() if v == lo)
    return _result("brute_force", table, q, fixed, pick_tie(ties, seed, rule), num, n, True, evals)


def _greedy(name: str, q: tuple, table: AuxTable, fixed: tuple, num: np.ndarray, n: np.ndarray, g_min: Any,
            pick_max: bool, choice: str = "local-min", ok: np.ndarray | None = None):
    k = len(fixed)
    r, evals, order = 0, 1, []
    ok = meets_g_min(num, n, g_min) if ok is None else ok
    while not ok[r] and len(order) < k:
        vals = {}
        for j in range(k):
            if r >> j & 1:
                continue
            evals += 1
            vals[j] = _g(num[r | 1 << j], n[r | 1 << j])
        if pick_max:
            top = max(vals.values())
            j = next(i for i, v in vals.items() if v == top)
        else:  # ties: lowest position (vals is in position order)
            j = best_fit_step(vals, lambda i, r=r: bool(ok[r | 1 << i]), choice)[0]
        r |= 1 << j
        order.append(fixed[j])
    return _result(name, table, q, fixed, r, num, n, ok[r], evals, order)


def _random(q: tuple, table: AuxTable, fixed: tuple, num: np.ndarray, n: np.ndarray, g_min: Any, seed: int):
    pos = {f: j for j, f in enumerate(fixed)}
    ok = meets_g_min(num, n, g_min)
    r, evals, order = 0, 1, []
    for f in random_removal_order(fixed, seed):
        if ok[r]:
            break
        r |= 1 << pos[f]
        order.append(f)
        evals += 1
    return _result("random_fit", table, q, fixed, r, num, n, ok[r], evals, order)


def _run(strategy: str, table: AuxTable, q: tuple, fixed: tuple, num: np.ndarray, n: np.ndarray, g_min: Any,
         seed: int, choice: str = "local-min", ties: str = "two-or-more") -> Generalization:
    if strategy == "brute_force":
        return _brute(q, table, fixed, num, n, g_min, seed, ties)
    if strategy == "random_fit":
        return _random(q, table, fixed, num, n, g_min, seed)
    return _greedy(strategy, q, table, fixed, num, n, g_min, strategy == "worst_fit",
                   choice if strategy == "best_fit" else "local-min")


def generalize(table: AuxTable, query: Any, req: PrivacyRequirement, strategy: str, *, seed: int = 0,
               ops: Any = None, choice: str = "local-min", ties: str = "two-or-more") -> Generalization:
    """Same contract as :func:`privclaims.theory.querygen.exact.generalize`."""
    check_choice(check_strategy(strategy), choice)
    check_ties(ties)
    q, t = validate_request(table, query, req)
    fixed, num, n = lattice(table, q, t)
    return _run(strategy, table, q, fixed, num, n, req.g_min, seed, choice, ties)


def brute_force(table: AuxTable, query: Any, req: PrivacyRequirement, *, seed: int = 0, ops: Any = None,
                ties: str = "two-or-more") -> Generalization:
    return generalize(table, query, req, "brute_force", seed=seed, ties=ties)


def best_fit(table: AuxTable, query: Any, req: PrivacyRequirement, *, seed: int = 0, ops: Any = None,
             choice: str = "local-min") -> Generalization:
    return generalize(table, query, req, "best_fit", seed=seed, choice=choice)


def worst_fit(table: AuxTable, query: Any, req: PrivacyRequirement, *, seed: int = 0, ops: Any = None) -> Generalization:
    return generalize(table, query, req, "worst_fit", seed=seed)


def random_fit(table: AuxTable, query: Any, req: PrivacyRequirement, *, seed: int = 0, ops: Any = None) -> Generalization:
    return generalize(table, query, req, "random_fit", seed=seed)


def _greedy_path(fixed: tuple, num: Sequence[int], n: Sequence[int], pick_max: bool) -> list[int]:
    """The positions (indices into ``fixed``) a greedy run removes, in order, when it never stops: Worst-Fit (the
    greatest G, lowest position on ties) or Best-Fit's "local-min" step (the least G, :func:`best_fit_step`). Neither
    choice looks at G_min, so the run for any G_min is a prefix of this path, cut at the first query meeting it."""
    k, r, path = len(fixed), 0, []
    while len(path) < k:
        vals = {j: _g(num[r | 1 << j], n[r | 1 << j]) for j in range(k) if not r >> j & 1}
        if pick_max:
            top = max(vals.values())
            j = next(i for i, v in vals.items() if v == top)
        else:
            j = best_fit_step(vals, lambda i: False, "local-min")[0]
        r |= 1 << j
        path.append(j)
    return path


def _cut(name: str, table: AuxTable, q: tuple, fixed: tuple, num: np.ndarray, n: np.ndarray, ok: Sequence[bool],
         path: Sequence[int], greedy: bool) -> Generalization:
    """The run that follows ``path`` (indices into ``fixed``) until the query meets G_min (``ok[r]``) or nothing is
    left: what :func:`_greedy` (``greedy``: step ``i`` evaluates the ``k - i`` remaining removals) or :func:`_random`
    (one evaluation per step) returns for a G_min-independent choice sequence."""
    k, r, evals, order = len(fixed), 0, 1, []
    for i, j in enumerate(path):
        if ok[r]:
            break
        evals += (k - i) if greedy else 1
        r |= 1 << j
        order.append(fixed[j])
    return _result(name, table, q, fixed, r, num, n, ok[r], evals, order)


def generalize_levels(table: AuxTable, query: Any, attribute: str | int, g_mins: Sequence[object],
                      strategies: Sequence[str], *, seed: int = 0,
                      choice: str = "local-min", ties: str = "two-or-more") -> dict[tuple[str, Any], Generalization]:
    """All ``strategies`` × ``g_mins`` for one query, sharing one lattice (the experiments' inner loop); ``choice``
    reads Best-Fit's step, ``ties`` Brute-Force's tie rule (the other strategies have one reading of each).

    Equal to :func:`generalize` per level (property_tests/test_querygen_twins.py); faster by sharing what does not
    depend on G_min: the per-level decisions ``num·q >= p·N`` once per level, not per strategy, and the choice
    sequences of Worst-Fit, Best-Fit's "local-min" step and Random-Fit once per query, each level's run being the
    sequence's prefix up to the first query meeting its G_min (Best-Fit's "fit" step looks at G_min: run per level)."""
    return generalize_levels_by_reading(table, query, attribute, g_mins, strategies, seed=seed, choices=(choice,),
                                        ties=(ties,))[(choice, ties)]


def generalize_levels_by_reading(table: AuxTable, query: Any, attribute: str | int, g_mins: Sequence[object],
                                 strategies: Sequence[str], *, seed: int = 0, choices: Sequence[str] = ("local-min",),
                                 ties: Sequence[str] = ("two-or-more",)
                                 ) -> dict[tuple[str, str], dict[tuple[str, Any], Generalization]]:
    """:func:`generalize_levels` under every pair of readings at once: ``{(choice, tie): generalize_levels(...,
    choice=choice, ties=tie)}``. Worst-Fit and Random-Fit read neither, Best-Fit reads only the step ``choice`` and
    Brute-Force only the tie rule, so each is computed once per reading it reads, on one lattice and one set of
    per-level decisions (an experiment run under several readings of the same query shares them)."""
    choices, ties = list(dict.fromkeys(choices)), list(dict.fromkeys(ties))
    for c in choices:
        check_choice("best_fit", c)
    for tie in ties:
        check_ties(tie)
    if not choices or not ties:
        raise InvalidInput(f"choices = {choices!r} and ties = {ties!r} must each name at least one reading")
    reqs = [PrivacyRequirement(attribute, g) for g in g_mins]
    q, t = validate_request(table, query, reqs[0])
    fixed, num, n = lattice(table, q, t)
    strategies = [check_strategy(s) for s in strategies]
    ok = {r.g_min: meets_g_min(num, n, r.g_min) for r in reqs}
    ok_list = {g: v.tolist() for g, v in ok.items()}
    num_list, n_list = num.tolist(), n.tolist()
    pos = {f: j for j, f in enumerate(fixed)}

    def path(s: str, choice: str) -> list[int] | None:
        if s == "worst_fit" or (s == "best_fit" and choice == "local-min"):
            return _greedy_path(fixed, num_list, n_list, s == "worst_fit")
        if s == "random_fit":
            return [pos[f] for f in random_removal_order(fixed, seed)]
        return None

    def levels(s: str, choice: str, tie: str) -> dict[tuple[str, Any], Generalization]:
        p = path(s, choice)
        out = {}
        for r in reqs:
            if p is not None:
                out[(s, r.g_min)] = _cut(s, table, q, fixed, num, n, ok_list[r.g_min], p, s != "random_fit")
            elif s == "brute_force":
                out[(s, r.g_min)] = _brute(q, table, fixed, num, n, r.g_min, seed, tie, ok[r.g_min])
            else:  # Best-Fit's "fit" step
                out[(s, r.g_min)] = _greedy(s, q, table, fixed, num_list, n_list, r.g_min, False, choice, ok_list[r.g_min])
        return out

    def reading_read(s: str, choice: str, tie: str) -> str | None:
        """The one reading strategy ``s`` depends on (None: neither): its results are keyed by it alone."""
        return choice if s == "best_fit" else tie if s == "brute_force" else None

    done: dict[tuple[str, Any], dict] = {}
    result: dict[tuple[str, str], dict[tuple[str, Any], Generalization]] = {}
    for c in choices:
        for tie in ties:
            combo: dict[tuple[str, Any], Generalization] = {}
            for s in strategies:
                key = (s, reading_read(s, c, tie))
                if key not in done:
                    done[key] = levels(s, c, tie)
                combo.update(done[key])
            result[(c, tie)] = combo
    return result


__all__ = ["encode", "lattice", "matching_mask", "guessing_entropy", "guessing_entropy_of_counts",
           "shannon_entropy_of_counts", "traffic_overhead", "is_privacy_preserving", "brute_force", "best_fit",
           "worst_fit", "random_fit", "generalize", "generalize_levels", "generalize_levels_by_reading", "all_star"]
