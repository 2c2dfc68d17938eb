"""Searching suppression probabilities on the grid {0, 1/d, ..., 1} (000_211156f2009240b4.txt §3.4.2-§3.4.4).

initialize solves ``argmax utility(p) s.t. ISPRIVATE(δ, p, S, M)``. Only coordinates (t, c_i) with
``Pr[X_t = c_i] > 0`` matter (the others enter neither utility nor any belief of an output of
positive probability); they are fixed at 1 (suppress), the conservative choice for states that the
model deems impossible. Three searches:

* :func:`optimal_exhaustive` - every grid vector (the (d+1)^k brute force; reference optimum).
* :func:`optimal_monotone` - the same enumeration, but ISPRIVATE is skipped whenever monotonicity
  (Theorem 3) decides it from an earlier answer: dominating a private vector, or dominated by a
  non-private one. This is what ALGPR [3] exploits; its optimum must equal the brute force (Lemma 2).
* :func:`greedy_mondrian` - start from (1, ..., 1) and lower each coordinate by binary search as
  long as privacy holds, until no coordinate can be lowered: a *minimal* private vector.

``twin`` is :mod:`privclaims.theory.maskit.exact` (default) or :mod:`privclaims.theory.maskit.fast` (conservative).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import Any, Hashable, Iterable

import numpy as np

from privclaims.theory.maskit import exact, fast
from privclaims.theory.maskit.model import MarkovChain, check_delta, check_grid, dominates, sensitive_indices
from privclaims.theory.numbers import ONE, Q
from privclaims.theory.validate import exponential_size


@dataclass
class SearchOutcome:
    p: list[list[Any]]
    utility: Any
    is_private_calls: int
    vectors: int = 0
    minimal: list = field(default_factory=list)


def coordinates(chain: MarkovChain) -> list[tuple[int, int]]:
    """(t, i) with Pr[X_t = c_i] > 0: the free coordinates of a suppression vector."""
    pri = exact.prior_beliefs(chain)
    return [(t, i) for t in range(1, chain.T + 1) for i in range(chain.n) if pri[t - 1][i] > 0]


def vector_from(chain: MarkovChain, coords: list[tuple[int, int]], values: Iterable[Any]) -> list[list[Any]]:
    p = [[ONE] * chain.n for _ in range(chain.T)]
    for (t, i), v in zip(coords, values):
        p[t - 1][i] = v
    return p


def grid_vector(chain: MarkovChain, coords: list[tuple[int, int]], numerators: Iterable[int], d: int,
                twin: Any = exact) -> Any:
    """The grid vector ``p_i^t = k/d`` at ``coords`` (1 elsewhere) as ``twin`` reads it: for the fast twin the
    T x n float array of ``k / d`` (each entry correctly rounded, i.e. ``float(Fraction(k, d))``, and for
    d < 2**52 strictly inside (0, 1) when k/d is: what the fast twin would make of the rationals, without
    converting them one by one); for any other twin the rationals of :func:`vector_from`."""
    if twin is fast and d < 2**52:
        K = np.full((chain.T, chain.n), d, dtype=np.int64)
        for (t, i), k in zip(coords, numerators):
            K[t - 1, i] = k
        return K / d
    return vector_from(chain, coords, [Q(k, d) for k in numerators])


def _grid(d: int) -> list[Any]:
    if d < 1:
        from privclaims.theory.errors import InvalidInput

        raise InvalidInput(f"grid granularity d = {d} must be >= 1")
    return [Q(k, d) for k in range(d + 1)]


def optimal_exhaustive(chain: MarkovChain, S: Iterable[Hashable], delta: object, d: int, twin: Any = exact,
                       keep_private: bool = False) -> SearchOutcome:
    """The utility-maximal private vector over all (d+1)^k grid vectors (ties: first in lexicographic order);
    refused up front above :data:`privclaims.theory.validate.ENUMERATION_LIMIT` vectors."""
    S = [chain.contexts[i] for i in sensitive_indices(chain, S)]
    delta = check_delta(delta)
    d = check_grid(d)
    coords = coordinates(chain)
    exponential_size((d + 1) ** len(coords), f"optimal_exhaustive over (d + 1)^k = {d + 1}^{len(coords)} grid vectors",
                     "greedy_mondrian (the greedy search) or a smaller grid d")
    best = None
    calls = 0
    private = []
    for vals in product(_grid(d), repeat=len(coords)):
        p = vector_from(chain, coords, vals)
        calls += 1
        if twin.is_private(chain, p, S, delta):
            u = exact.utility(chain, p)
            if keep_private:
                private.append((vals, u))
            if best is None or u > best[1]:
                best = (p, u)
    assert best is not None  # (1, ..., 1) is always private: every output is ⊥...⊥
    out = SearchOutcome(best[0], best[1], calls, calls)
    if keep_private:
        pv = {v for v, _ in private}
        step = Q(1, d)
        out.minimal = [(v, u) for v, u in private
                       if all(v[k] == 0 or tuple(v[:k]) + (v[k] - step,) + tuple(v[k + 1:]) not in pv for k in range(len(v)))]
    return out


def optimal_monotone(chain: MarkovChain, S: Iterable[Hashable], delta: object, d: int, twin: Any = exact,
                     fixed: dict | None = None) -> SearchOutcome:
    """Exhaustive order, ISPRIVATE only where Theorem 3 cannot infer the answer from earlier calls.

    ``fixed`` maps coordinates (t, i) to a grid numerator they keep (e.g. 1 for sensitive states
    after showing that lowering them breaches privacy); the rest range over the grid.
    """
    import numpy as np

    S = list(S)
    delta = check_delta(delta)
    fixed = fixed or {}
    coords = coordinates(chain)
    free = [k for k, c in enumerate(coords) if c not in fixed]
    yes = np.zeros((0, len(coords)), dtype=np.int64)
    no = np.zeros((0, len(coords)), dtype=np.int64)
    best = None
    calls = 0
    vectors = 0
    pri = exact.prior_beliefs(chain)
    weights = [pri[t - 1][i] for t, i in coords]
    # enumerate from the top (1,..,1) downwards so that private vectors are met before what they dominate
    for free_vals in product(range(d, -1, -1), repeat=len(free)):
        vals = [0] * len(coords)
        for k, c in enumerate(coords):
            if c in fixed:
                vals[k] = fixed[c]
        for k, v in zip(free, free_vals):
            vals[k] = v
        vectors += 1
        arr = np.array(vals, dtype=np.int64)
        if len(yes) and np.any(np.all(arr >= yes, axis=1)):
            ok = True
        elif len(no) and np.any(np.all(arr <= no, axis=1)):
            ok = False
        else:
            calls += 1
            ok = twin.is_private(chain, vector_from(chain, coords, [Q(v, d) for v in vals]), S, delta)
            if ok:
                yes = np.vstack([yes, arr])
            else:
                no = np.vstack([no, arr])
        if ok:
            u = sum((w * (1 - Q(v, d)) for w, v in zip(weights, vals)), Q(0))
            if best is None or u > best[1]:
                best = (vals, u)
    assert best is not None
    p = vector_from(chain, coords, [Q(v, d) for v in best[0]])
    return SearchOutcome(p, best[1], calls, vectors)


def greedy_mondrian(chain: MarkovChain, S: Iterable[Hashable], delta: object, d: int, twin: Any = exact,
                    ops: exact.OpCount | None = None, cache: exact.PassedCache | None = None) -> SearchOutcome:
    """MONDRIAN-style greedy: from (1..1), binary-search each coordinate down while private; repeat to a fixpoint.
    ``ops`` (optional) counts the work of every ISPRIVATE call (calls, beliefs, multiply-adds) in the twin;
    ``cache`` (optional) is the store the search's ISPRIVATE calls share (the fast twin's changes neither its
    answers nor its counts; the exact twin's Lemma 5 store skips triplets, and so counts less)."""
    d = check_grid(d)
    S = [chain.contexts[i] for i in sensitive_indices(chain, S)]
    delta = check_delta(delta)
    coords = coordinates(chain)
    vals = [d] * len(coords)  # integer numerators
    calls = 0

    def private(v: list[int]) -> bool:
        nonlocal calls
        calls += 1
        p = grid_vector(chain, coords, v, d, twin)
        kw = {name: given for name, given in (("ops", ops), ("cache", cache)) if given is not None}
        return twin.is_private(chain, p, S, delta, **kw)

    changed = True
    while changed:
        changed = False
        for k in range(len(coords)):
            lo, hi = 0, vals[k]  # smallest private value lies in [lo, hi]; hi is private
            while lo < hi:
                mid = (lo + hi) // 2
                trial = vals[:k] + [mid] + vals[k + 1:]
                if private(trial):
                    hi = mid
                else:
                    lo = mid + 1
            if hi < vals[k]:
                vals[k] = hi
                changed = True
    p = vector_from(chain, coords, [Q(x, d) for x in vals])
    return SearchOutcome(p, exact.utility(chain, p), calls, calls)


def is_minimal(chain: MarkovChain, p: list[list[Any]], S: Iterable[Hashable], delta: object, d: int, twin: Any = exact) -> bool:
    """No single free coordinate can be lowered by 1/d without breaching δ-privacy."""
    S = list(S)
    if not twin.is_private(chain, p, S, delta):
        return False
    for t, i in coordinates(chain):
        if p[t - 1][i] > 0:
            q = [list(r) for r in p]
            q[t - 1][i] -= Q(1, d)
            if twin.is_private(chain, q, S, delta):
                return False
    return True


__all__ = ["SearchOutcome", "coordinates", "vector_from", "grid_vector", "optimal_exhaustive", "optimal_monotone",
           "greedy_mondrian", "is_minimal", "dominates"]
