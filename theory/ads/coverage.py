"""Maximum coverage and the reduction of Proposition 6 (000_211156f2009240b4.txt §4.3;
002_9d55ef468949585c.txt Proposition 3.1), plus the instances on which Greedy's bound is attained.

Reduction: a coverage instance (universe U, sets S_1..S_m, k) becomes an ad instance with one leaf
context per element ``u ∈ U`` (``Pr[u|ĉ] = 1/|U|``, ĉ the root), one ad per set with
``CTR(a_i|u) = 1`` iff ``u ∈ S_i`` (else 0) and ``p_a = 1``. Then for every A,
``E[Revenue(A|ĉ)] = |∪_{i∈A} S_i| / |U|``, so optimal ad sets are optimal covers.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Hashable, Sequence

from privclaims.theory.ads.model import AdInstance, ad_instance, check_k
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q


def coverage_to_ads(universe: Sequence[Hashable], sets: Sequence[frozenset | set]) -> AdInstance:
    """The ad instance of Proposition 6's proof for a coverage instance."""
    U = list(universe)
    if not U:
        raise InvalidInput("max coverage: empty universe")
    if len(set(U)) != len(U):
        raise InvalidInput("max coverage: the universe lists an element twice")
    if not sets:
        raise InvalidInput("max coverage: no sets")
    for i, s in enumerate(sets):
        extra = set(s) - set(U)
        if extra:
            raise InvalidInput(f"set {i} has elements {sorted(map(repr, extra))} outside the universe")
    n = len(U)
    ctr = [[Q(1) if u in s else Q(0) for u in U] for s in sets]
    return ad_instance([Q(1, n)] * n, ctr, [Q(1)] * len(sets), contexts=U)


def covered(sets: Sequence[frozenset | set], chosen: Sequence[int]) -> int:
    """``|∪_{i ∈ chosen} S_i|``."""
    out: set = set()
    for i in chosen:
        out |= set(sets[i])
    return len(out)


def max_coverage(sets: Sequence[frozenset | set], k: int) -> tuple[tuple[int, ...], int]:
    """Brute-force maximum coverage with at most k sets (= exactly k when k <= #sets; coverage is
    monotone), lexicographically first optimum."""
    k = check_k(k, len(sets))
    best, best_v = None, -1
    for c in combinations(range(len(sets)), k):
        v = covered(sets, c)
        if v > best_v:
            best, best_v = c, v
    return best, best_v


def tight_instance(k: int) -> tuple[AdInstance, tuple[int, ...]]:
    """An instance on which Greedy (lowest-id ties) attains exactly ``1 − (1 − 1/k)^k`` of the optimum.

    Leaf contexts are cells ``(i, j)``, ``i = 1..k+1`` (greedy layer, k+1 = never covered by greedy
    ads), ``j = 1..k`` (optimal ad). ``Pr[(i, j)] = (1/k)·(1/k)(1 − 1/k)^{i−1}`` for ``i <= k`` and
    ``(1/k)(1 − 1/k)^k`` for ``i = k+1``. Ads ``0..k−1`` ("greedy" G_i) click with CTR 1 in row i,
    ads ``k..2k−1`` ("optimal" O_j) in column j. In round i both G_i and every O_j have benefit
    ``(1/k)(1 − 1/k)^{i−1}``; the tie goes to the lower id, G_i. Greedy earns ``1 − (1 − 1/k)^k``,
    the O ads earn 1. Returns the instance and the optimal ad set.
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InvalidInput(f"k = {k!r} must be a positive integer")
    r = 1 - Q(1, k)
    cells, weights = [], []
    for i in range(1, k + 2):
        for j in range(1, k + 1):
            cells.append((i, j))
            weights.append(Q(1, k) * Q(1, k) * r ** (i - 1) if i <= k else Q(1, k) * r ** k)
    ctr = [[Q(1) if c[0] == i else Q(0) for c in cells] for i in range(1, k + 1)]
    ctr += [[Q(1) if c[1] == j else Q(0) for c in cells] for j in range(1, k + 1)]
    return ad_instance(weights, ctr, contexts=cells), tuple(range(k, 2 * k))


def perturbed_tight_instance(k: int, eps: Any) -> tuple[AdInstance, tuple[int, ...]]:
    """:func:`tight_instance` with the optimal ads' CTR scaled
    by ``1 − eps`` so Greedy prefers G_i strictly (no reliance on tie-breaking). Its ratio is
    ``(1 − (1 − 1/k)^k) / (1 − eps)``-close to the bound as eps -> 0."""
    base, opt = tight_instance(k)
    eps = Q(eps)
    if not 0 < eps < 1:
        raise InvalidInput(f"eps = {eps} must lie in (0, 1)")
    ctr = [list(row) for row in base.ctr]
    for a in opt:
        ctr[a] = [x * (1 - eps) for x in ctr[a]]
    return ad_instance(list(base.weights), ctr, contexts=list(base.contexts)), opt
