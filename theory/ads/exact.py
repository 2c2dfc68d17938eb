"""Exact twin (rationals): the equations of 000_211156f2009240b4.txt §4.2.3-4.3 as written.

* Client choice (§4.2.3):      ``a* = argmax_{a∈A} p_a·CTR(a|c)`` (lowest ad id on ties).
* Expected revenue (§4.2.3):   ``E[Revenue(A|ĉ)] = Σ_{c->ĉ} Pr[c|ĉ] · max_{a∈A} p_a·CTR(a|c)`` (0 for A = ∅).
* Benefit (§4.3.1):            ``B(A, A') = E[Revenue(A ∪ A'|ĉ)] − E[Revenue(A|ĉ)]``.
* Greedy (Algorithm 6):        add ``argmax_a B(A, {a})`` until ``|A| = k`` (lowest id on ties).
* Greedy' (Proposition 7):     Greedy with ``k = |𝒜|``, output the prefix maximising revenue − α·k'.
* Greedy'' (Theorem 8):        Greedy while revenue − α·|A| strictly increases.
* Optimum:                     brute force over all k-subsets (lexicographically first optimum).

Values are ``v(a, c) = p_a(c)·CTR_τ(a|c)`` (see :mod:`privclaims.theory.ads.model`). Every function here has a
same-signature counterpart in :mod:`privclaims.theory.ads.fast`.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any, Hashable, Iterable

from privclaims.theory.ads.model import AdInstance, check_ad_set, check_alpha, check_instance, check_k, check_subsets
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import ZERO, Q


@dataclass(frozen=True)
class GreedyRun:
    """Greedy's ads in the order chosen, their benefits ``b_i`` and the revenues ``b(l)``."""

    order: tuple[int, ...]
    benefits: tuple[Any, ...]
    revenues: tuple[Any, ...]  # revenues[l] = b(l) = E[Revenue({a_1..a_l})], revenues[0] = 0
    evaluations: int  # number of B(A, {a}) evaluations (operation count)


@dataclass(frozen=True)
class AltResult:
    """A solution of Eq. (4.3): ``k``, the ads, the objective revenue − α·k, loop iterations."""

    k: int
    ads: tuple[int, ...]
    objective: Any
    iterations: int


def _value_rows(inst: AdInstance) -> list[list[Any]]:
    return inst.values()


def revenue_in_context(inst: AdInstance, ads: Iterable[int], context: Hashable) -> Any:
    """``max_{a∈A} p_a(c)·CTR_τ(a|c)`` for one leaf context ``c`` (0 for A = ∅)."""
    check_instance(inst)
    A = check_ad_set(inst.n_ads, ads)
    j = inst.context_index(context)
    return max((inst.value(a, j) for a in A), default=ZERO)


def expected_revenue(inst: AdInstance, ads: Iterable[int]) -> Any:
    """``E[Revenue(A|ĉ)] = Σ_j Pr[c_j|ĉ] · max_{a∈A} v(a, c_j)``."""
    check_instance(inst)
    A = check_ad_set(inst.n_ads, ads)
    if not A:
        return ZERO
    total = ZERO
    for j, w in enumerate(inst.weights):
        total += w * max(inst.value(a, j) for a in A)
    return total


def benefit(inst: AdInstance, base: Iterable[int], added: Iterable[int]) -> Any:
    """``B(A, A') = E[Revenue(A ∪ A')] − E[Revenue(A)]``."""
    check_instance(inst)
    A = set(check_ad_set(inst.n_ads, base, "A"))
    A2 = set(check_ad_set(inst.n_ads, added, "A'"))
    return expected_revenue(inst, A | A2) - expected_revenue(inst, A)


BENEFIT_TABLE_MAX_ADS = 12
"""The benefit table has 4^|𝒜| entries: 16.8M at 12 ads (larger instances are refused before any work)."""


def subset_revenues(inst: AdInstance) -> list[Any]:
    """``E[Revenue(A|ĉ)]`` of every ad set, indexed by its bitmask (bit a set: ad a ∈ A), exactly: per context
    the best value of A is the larger of the best of A without its lowest ad and that ad's value (so each set costs
    one max per context); equal to :func:`expected_revenue` of the set."""
    check_instance(inst)
    m = inst.n_ads
    if m > BENEFIT_TABLE_MAX_ADS:
        raise InvalidInput(f"inst has {m} ads: the table of every ad set's revenue holds 2^{m} entries "
                           f"(at most {BENEFIT_TABLE_MAX_ADS} ads)")
    n = len(inst.weights)
    best: list[list[Any]] = [[ZERO] * n]
    for mask in range(1, 1 << m):
        low = (mask & -mask).bit_length() - 1
        rest = best[mask & (mask - 1)]
        best.append([max(rest[j], inst.value(low, j)) for j in range(n)])
    return [sum((w * b for w, b in zip(inst.weights, row)), ZERO) for row in best]


def benefit_table(inst: AdInstance) -> list[list[Any]]:
    """``B(A, A')`` for every pair of ad sets, ``table[mask(A)][mask(A')]`` (:func:`benefit`, exactly, from
    :func:`subset_revenues`): 4^|𝒜| entries, for exhaustive checks over all pairs (Fact 3)."""
    er = subset_revenues(inst)
    full = len(er)
    return [[er[b | a] - er[b] for a in range(full)] for b in range(full)]


def client_choice(inst: AdInstance, ads: Iterable[int], context: Hashable) -> int:
    """``a* = argmax_{a∈A} p_a(c)·CTR_τ(a|c)``; the lowest ad id among ties (Definition of §4.2.3)."""
    check_instance(inst)
    A = check_ad_set(inst.n_ads, ads)
    if not A:
        raise InvalidInput("client_choice: the server sent no ads")
    j = inst.context_index(context)
    best = max(inst.value(a, j) for a in A)
    return min(a for a in A if inst.value(a, j) == best)


def displayed_ad(inst: AdInstance, ads: Iterable[int], context: Hashable) -> int | None:
    """The client's choice, or ``None`` (show nothing) when every sent ad has value 0 in ``c``.

    This abstaining rule is what the experiments' *coverage* metric presupposes (§4.4.1); the
    literal rule :func:`client_choice` always displays an ad.
    """
    check_instance(inst)
    a = client_choice(inst, ads, context)
    return a if inst.value(a, inst.context_index(context)) > 0 else None


def _greedy(inst: AdInstance, k: int) -> GreedyRun:
    vals = _value_rows(inst)
    n = inst.n_contexts
    cur = [ZERO] * n  # max over chosen ads per context
    chosen: list[int] = []
    benefits, revenues = [], [ZERO]
    evaluations = 0
    remaining = list(range(inst.n_ads))
    while len(chosen) < k:
        best_a, best_b = None, None
        for a in remaining:  # ascending ids: strict > keeps the lowest id among ties
            b = ZERO
            row = vals[a]
            for j in range(n):
                if row[j] > cur[j]:
                    b += inst.weights[j] * (row[j] - cur[j])
            evaluations += 1
            if best_b is None or b > best_b:
                best_a, best_b = a, b
        chosen.append(best_a)
        remaining.remove(best_a)
        row = vals[best_a]
        cur = [max(x, y) for x, y in zip(cur, row)]
        benefits.append(best_b)
        revenues.append(revenues[-1] + best_b)
    return GreedyRun(tuple(chosen), tuple(benefits), tuple(revenues), evaluations)


def greedy_run(inst: AdInstance, k: int) -> GreedyRun:
    """Algorithm 6 with its trace (order, benefits b_i, revenues b(l), evaluation count)."""
    check_instance(inst)
    return _greedy(inst, check_k(k, inst.n_ads))


def greedy(inst: AdInstance, k: int) -> tuple[int, ...]:
    """Algorithm 6: the k ads chosen greedily, in the order chosen (lowest id on ties)."""
    check_instance(inst)
    return greedy_run(inst, k).order


def greedy_guarantee(k: int) -> Any:
    """Greedy's approximation factor for a monotone submodular revenue and k ads (thesis §4.3,
    002_9d55ef468949585c.txt §3, after Nemhauser et al.): ``1 - (1 - 1/k)^k`` (exact), which decreases
    to ``1 - 1/e`` and is 1 for k = 1. Greedy's revenue is at least this times the optimum."""
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InvalidInput(f"k = {k!r} must be a positive integer")
    return 1 - (1 - Q(1, k)) ** k


def optimum(inst: AdInstance, k: int) -> tuple[tuple[int, ...], Any]:
    """Brute force ``A* = argmax_{|A|=k} E[Revenue(A|ĉ)]`` (the lexicographically first optimum)."""
    check_instance(inst)
    check_subsets(inst.n_ads, check_k(k, inst.n_ads))
    k = check_k(k, inst.n_ads)
    vals = _value_rows(inst)
    best_set, best_v = None, None
    for A in combinations(range(inst.n_ads), k):
        v = ZERO
        for j, w in enumerate(inst.weights):
            v += w * max(vals[a][j] for a in A)
        if best_v is None or v > best_v:
            best_set, best_v = A, v
    return best_set, best_v


def greedy_prime(inst: AdInstance, alpha: object) -> AltResult:
    """Greedy' (Prop. 7): run Greedy with k = |𝒜| and output the prefix length
    ``k' = argmax_{0<=k'<=|𝒜|} b(k') − α·k'`` (the smallest maximiser) and ``{a_1..a_k'}``.

    ``k' = 0`` (send nothing, objective 0) is allowed, as in the max over k of Eq. (4.3).
    Iterations = |𝒜| (one Greedy round per ad)."""
    check_instance(inst)
    alpha = check_alpha(alpha)
    run = _greedy(inst, inst.n_ads)
    objs = [run.revenues[l] - alpha * l for l in range(inst.n_ads + 1)]
    best = max(objs)
    kp = objs.index(best)
    return AltResult(kp, tuple(run.order[:kp]), best, inst.n_ads)


def greedy_double_prime(inst: AdInstance, alpha: object) -> AltResult:
    """Greedy'' (Theorem 8): Algorithm 6 whose while-condition is "revenue − α·|A| still increases".

    Each iteration computes the greedy ad ``a`` for the current A; if
    ``E[Revenue(A ∪ {a})] − α(|A|+1) > E[Revenue(A)] − α|A|`` (i.e. ``B(A,{a}) > α``) it is added,
    else the loop stops and outputs A. Iterations counts loop bodies (including the final,
    non-improving one)."""
    check_instance(inst)
    alpha = check_alpha(alpha)
    vals = _value_rows(inst)
    n = inst.n_contexts
    cur = [ZERO] * n
    chosen: list[int] = []
    value = ZERO
    iterations = 0
    remaining = list(range(inst.n_ads))
    while remaining:
        iterations += 1
        best_a, best_b = None, None
        for a in remaining:
            b = ZERO
            for j in range(n):
                if vals[a][j] > cur[j]:
                    b += inst.weights[j] * (vals[a][j] - cur[j])
            if best_b is None or b > best_b:
                best_a, best_b = a, b
        if not best_b > alpha:
            break
        chosen.append(best_a)
        remaining.remove(best_a)
        cur = [max(x, y) for x, y in zip(cur, vals[best_a])]
        value += best_b
    return AltResult(len(chosen), tuple(chosen), value - alpha * len(chosen), iterations)


def optimum_alt(inst: AdInstance, alpha: object) -> AltResult:
    """Brute force Eq. (4.3): ``max_{0<=k<=|𝒜|} max_{|A|=k} E[Revenue(A)] − α·k`` (smallest k, then
    lexicographically first A, among optima)."""
    check_instance(inst)
    check_subsets(inst.n_ads)
    alpha = check_alpha(alpha)
    best = AltResult(0, (), ZERO, 0)
    for k in range(1, inst.n_ads + 1):
        A, v = optimum(inst, k)
        if v - alpha * k > best.objective:
            best = AltResult(k, A, v - alpha * k, 0)
    return best
