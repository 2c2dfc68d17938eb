"""Fast twin (numpy float64 / scipy.sparse): the same functions and signatures as
:mod:`privclaims.theory.ads.exact`, for instances with 10^4 ads and 10^5 contexts.

Greedy is *lazy* (Minoux): benefits only shrink as A grows (Fact 3, submodularity), so a stale
benefit is an upper bound; an ad is re-evaluated only when its bound reaches the top of a heap. On small
instances (``k ×`` stored entries ``≤ 2^16``) it evaluates every ad each round instead, the same run float for float
(:func:`greedy_run_evaluated` chooses either).
Ties: benefits within ``tol = 2^-40 · max(1, E[Revenue(𝒜)])`` of the best are treated as equal
and the lowest ad id wins. So the fast twin is exact *up to tol*, not up to rounding: it reproduces
the exact twin's choice whenever exact ties are float ties (e.g. dyadic inputs) and every exact gap
exceeds ``tol`` plus rounding; an exact gap below ``tol`` is a tie here even when the floats are exact
(values 1/2 and 1/2 + 2^-45: the exact twin takes the second ad, this one the first). The same
tolerance decides :func:`client_choice` and :func:`optimum`.

Inputs: an exact :class:`~privclaims.theory.ads.model.AdInstance` (converted) or a :class:`SparseAdInstance`
(built by :func:`sparse_instance`, validated in :func:`privclaims.theory.ads.model.validate_sparse`).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, Hashable, Iterable

import numpy as np

from privclaims.theory.ads.exact import AltResult, GreedyRun
from privclaims.theory.ads.model import AdInstance, check_ad_set, check_alpha, check_k, check_subsets, validate_sparse
from privclaims.theory.errors import InvalidInput
from privclaims.theory.floats import RELATIVE_MARGIN

if TYPE_CHECKING:  # scipy.sparse is imported where a matrix is built (not when the module is)
    import scipy.sparse as sp


@dataclass(frozen=True)
class SparseAdInstance:
    """``weights[j] = Pr[c_j|ĉ]`` and the CSR value matrix ``values[a, j] = p_a(c_j)·CTR_τ(a|c_j)``."""

    weights: np.ndarray
    values: sp.csr_matrix
    contexts: tuple[Hashable, ...] | None = None

    @property
    def n_ads(self) -> int:
        return int(self.values.shape[0])

    @property
    def n_contexts(self) -> int:
        return int(self.values.shape[1])

    def context_index(self, c: Hashable) -> int:
        if self.contexts is None:
            if isinstance(c, (int, np.integer)) and 0 <= int(c) < self.n_contexts:
                return int(c)
            raise InvalidInput(f"unknown context {c!r} (contexts are 0..{self.n_contexts - 1})")
        try:
            return self.contexts.index(c)
        except ValueError:
            raise InvalidInput(f"unknown context {c!r}") from None


def sparse_instance(weights: Any, ctr: Any, payments: Any = None, *, threshold: float | None = None,
                    contexts: Iterable[Hashable] | None = None) -> SparseAdInstance:
    """Validate float inputs (see :func:`privclaims.theory.ads.model.validate_sparse`) and build the instance."""
    w, V = validate_sparse(weights, ctr, payments, threshold)
    return SparseAdInstance(w, V, None if contexts is None else tuple(contexts))


def as_sparse(inst: AdInstance | SparseAdInstance) -> SparseAdInstance:
    """The float form of an exact instance (values ``p·CTR_τ`` rounded once to float64)."""
    if isinstance(inst, SparseAdInstance):
        return inst
    if not isinstance(inst, AdInstance):
        raise InvalidInput(f"expected an AdInstance or SparseAdInstance, got {type(inst).__name__}")
    V = np.array([[float(v) for v in row] for row in inst.values()], dtype=np.float64)
    w = np.array([float(x) for x in inst.weights], dtype=np.float64)
    import scipy.sparse as sp

    return SparseAdInstance(w, sp.csr_matrix(V), tuple(inst.contexts))


def stored_positions(indptr: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The positions in ``indices`` / ``data`` of the stored entries of the compressed rows (CSR) or columns
    (CSC) ``rows``, concatenated in that order, and each row's number of entries."""
    lo = indptr[rows]
    lens = indptr[rows + 1] - lo
    return np.arange(int(lens.sum())) - np.repeat(np.cumsum(lens) - lens - lo, lens), lens


def _column_max(V: sp.csr_matrix) -> np.ndarray:
    """``max_a V[a, j]`` per column, implicit zeros included (as ``V.max(axis=0)``). For a canonical CSR
    matrix with non-negative entries (every instance: values are p·CTR >= 0) it is one unbuffered
    ``np.maximum.at`` over the stored entries from 0, the same numbers without a CSC copy; otherwise scipy's."""
    if not V.nnz:
        return np.zeros(V.shape[1])
    if V.has_canonical_format and V.data.min() >= 0:
        top = np.zeros(V.shape[1])
        np.maximum.at(top, V.indices, V.data)
        return top
    return V.max(axis=0).toarray().ravel()


def _tol(S: SparseAdInstance) -> float:
    """``2^-40 · max(1, E[Revenue(all ads)])`` with ``E[Revenue(all ads)] = Σ_j w_j · max_a v(a, c_j)``.

    Shortcut, same number: the revenue is at most ``M · Σ_j w_j`` (``M`` the largest value), and a float
    dot of ``n`` non-negative terms errs by at most ``γ_n = n·2^-53 / (1 − n·2^-53)`` relatively; so when
    ``fl(M · Σw) · (1 + 3γ_n) < 1`` the computed revenue is below 1 and ``max(1, ·)`` is exactly 1, without
    the column maxima (a pass over every stored value)."""
    V, w = S.values, S.weights
    if not V.nnz:
        return RELATIVE_MARGIN
    n = max(V.shape[1], 2)
    u = n * 2.0 ** -53
    if u < 0.25 and V.data.min() >= 0 and w.min() >= 0 and float(V.data.max()) * float(w.sum()) * (1 + 3 * u / (1 - u)) < 1:
        return RELATIVE_MARGIN
    return RELATIVE_MARGIN * max(1.0, float(_column_max(V) @ w))


def _rows_max(S: SparseAdInstance, A: tuple[int, ...]) -> np.ndarray:
    if not A:
        return np.zeros(S.n_contexts)
    return S.values[list(A)].max(axis=0).toarray().ravel()


def expected_revenue(inst: AdInstance | SparseAdInstance, ads: Iterable[int]) -> float:
    """``Σ_j Pr[c_j|ĉ] · max_{a∈A} v(a, c_j)`` in float64."""
    S = as_sparse(inst)
    A = check_ad_set(S.n_ads, ads)
    return float(_rows_max(S, A) @ S.weights)


def benefit(inst: AdInstance | SparseAdInstance, base: Iterable[int], added: Iterable[int]) -> float:
    S = as_sparse(inst)
    A = set(check_ad_set(S.n_ads, base, "A"))
    A2 = set(check_ad_set(S.n_ads, added, "A'"))
    return expected_revenue(S, A | A2) - expected_revenue(S, A)


def revenue_in_context(inst: AdInstance | SparseAdInstance, ads: Iterable[int], context: Hashable) -> float:
    S = as_sparse(inst)
    A = check_ad_set(S.n_ads, ads)
    j = S.context_index(context)
    return float(S.values[list(A), j].max()) if A else 0.0


def client_choice(inst: AdInstance | SparseAdInstance, ads: Iterable[int], context: Hashable) -> int:
    """``argmax_{a∈A} v(a, c)``, lowest id among values within rounding of the best."""
    S = as_sparse(inst)
    A = check_ad_set(S.n_ads, ads)
    if not A:
        raise InvalidInput("client_choice: the server sent no ads")
    j = S.context_index(context)
    col = S.values[list(A), j].toarray().ravel()
    best = col.max()
    tol = RELATIVE_MARGIN * max(1.0, abs(best))
    return int(A[int(np.flatnonzero(col >= best - tol)[0])])


def displayed_ad(inst: AdInstance | SparseAdInstance, ads: Iterable[int], context: Hashable) -> int | None:
    """The client's choice, or None when every sent ad has value 0 in ``c``."""
    S = as_sparse(inst)
    a = client_choice(S, ads, context)
    return a if S.values[a, S.context_index(context)] > 0 else None


_ONE_ROW, _NONEMPTY = np.zeros(1, dtype=np.int64), np.ones(1, dtype=bool)  # one non-empty row starting at 0


class _Lazy:
    """Lazy greedy state: per-context best value ``cur`` and a heap of (−upper bound, ad id).

    Re-evaluations are batched: the stale heads of the heap are popped a few at a time (4, 8, ... 256 per
    batch within a round) and their benefits computed together by :meth:`_gains`. Evaluating an extra ad
    only refreshes its bound, so the pick is the same function of the current benefits: the lowest id
    among those within ``tol`` of the largest."""

    def __init__(self, S: SparseAdInstance):
        self.S = S
        self.V = S.values
        self.w = S.weights
        self.cur = np.zeros(S.n_contexts)
        self.indptr = self.V.indptr.tolist()  # Python ints: cheap row slicing
        self.ptr = np.asarray(self.V.indptr, dtype=np.int64)
        self.indices, self.data = self.V.indices, self.V.data
        # the first bounds are the benefits at cur = 0, summed as every later evaluation is (_row_gains): a bound
        # from another summation order (V @ w) could sit one rounding step below the benefit it bounds
        gains = _row_gains(self.data, self.indices, self.ptr[:-1], self.ptr[1:] > self.ptr[:-1], self.w, self.cur)
        self.heap = list(zip((-gains).tolist(), range(S.n_ads)))
        heapq.heapify(self.heap)
        self.stamp = [0] * S.n_ads
        self.round = 0
        self.best = float("inf")
        self.evaluations = S.n_ads
        self.tol = _tol(S)

    def _gains(self, ads: list[int]) -> list[float]:
        """The current benefits of the rows ``ads``, by :func:`_row_gains` on their stored entries (a row's sum
        depends on its entries only, so one row gives the same float alone, in a batch or among all rows)."""
        self.evaluations += len(ads)
        if len(ads) == 1:
            lo, hi = self.indptr[ads[0]], self.indptr[ads[0] + 1]
            if lo == hi:
                return [0.0]
            return _row_gains(self.data[lo:hi], self.indices[lo:hi], _ONE_ROW, _NONEMPTY, self.w, self.cur).tolist()
        pos, lens = stored_positions(self.ptr, np.asarray(ads, dtype=np.int64))
        if not pos.size:
            return [0.0] * len(ads)
        return _row_gains(self.data[pos], self.indices[pos], np.cumsum(lens) - lens, lens > 0, self.w,
                          self.cur).tolist()

    def _refresh(self, entries: list[tuple[float, int]]) -> list[float]:
        """Current benefits of popped heap entries, stamping them fresh. A bound of 0 needs no evaluation:
        benefits only shrink and are sums of non-negative terms, so the benefit is exactly 0."""
        r = self.round
        todo = [a for negub, a in entries if self.stamp[a] != r and negub != 0.0]
        got = dict(zip(todo, self._gains(todo))) if todo else {}
        out = []
        for negub, a in entries:
            if self.stamp[a] != r:
                self.stamp[a] = r
                out.append(got.get(a, 0.0))
            else:
                out.append(-negub)
        return out

    def next_best(self) -> tuple[int, float] | None:
        """The ad with the largest benefit (lowest id among near-ties), removed from the heap."""
        if not self.heap:
            return None
        self.round += 1
        r = self.round
        heap, stamp = self.heap, self.stamp
        size = 4
        while stamp[heap[0][1]] != r:
            batch = []
            while heap and len(batch) < size and stamp[heap[0][1]] != r:
                batch.append(heapq.heappop(heap))
            for (_, a), g in zip(batch, self._refresh(batch)):
                heapq.heappush(heap, (-g, a))
            size = min(2 * size, 256)
        self.best = -heap[0][0]  # the largest current benefit
        thr = self.best - self.tol
        cands = []
        while heap and -heap[0][0] >= thr and len(cands) < 64:
            cands.append(heapq.heappop(heap))
        if heap and -heap[0][0] >= thr:  # many near-ties (e.g. all benefits 0): one pass, not a pop each
            cands.extend(e for e in heap if -e[0] >= thr)
            heap[:] = [e for e in heap if -e[0] < thr]
            heapq.heapify(heap)
        gains = self._refresh(cands)
        pick = min(a for (_, a), g in zip(cands, gains) if g >= thr)
        gain = 0.0
        rest = []
        for (_, a), g in zip(cands, gains):
            if a == pick:
                gain = g
            else:
                rest.append((-g, a))
        if len(rest) > 64:
            heap.extend(rest)
            heapq.heapify(heap)
        else:
            for e in rest:
                heapq.heappush(heap, e)
        return pick, gain

    def add(self, a: int) -> None:
        lo, hi = self.indptr[a], self.indptr[a + 1]
        idx = self.indices[lo:hi]
        self.cur[idx] = np.maximum(self.cur[idx], self.data[lo:hi])


EAGER_MAX_WORK = 1 << 16  # rounds × stored entries up to which Greedy evaluates every ad each round (see _greedy)


def _row_gains(data: np.ndarray, indices: np.ndarray, starts: np.ndarray, nonempty: np.ndarray, w: np.ndarray,
               cur: np.ndarray) -> np.ndarray:
    """Each row's benefit ``Σ_j w_j · max(0, v(a, c_j) − cur_j)`` over its stored entries (rows start at ``starts``
    in ``data``/``indices``; ``nonempty`` marks the rows with entries), summed per row by ``np.add.reduceat``. The one
    evaluation of both Greedy evaluations (:meth:`_Lazy._gains` and :func:`_greedy_eager`)."""
    d = data - cur[indices]
    np.maximum(d, 0.0, out=d)
    d *= w[indices]
    out = np.zeros(starts.size)
    if d.size:
        out[nonempty] = np.add.reduceat(d, starts[nonempty])
    return out


def _greedy_eager(S: SparseAdInstance, k: int) -> GreedyRun:
    """Algorithm 6 evaluating every ad in every round (one vectorised pass over the stored entries): the same
    run as :func:`_greedy_lazy`, float for float. Both pick, among the ads not chosen, the lowest id whose benefit is
    within ``tol`` of the largest; the lazy twin's stale bounds are never below the current benefits (each term
    ``w_j·max(0, v − cur_j)`` is a monotone float function of ``cur_j``, summed in the same order), so its fresh top is
    this largest benefit and its candidates are every ad within ``tol`` of it; the benefits are the same floats
    (:func:`_row_gains`)."""
    V, w = S.values, S.weights
    ptr = np.asarray(V.indptr, dtype=np.int64)
    starts, nonempty = ptr[:-1], ptr[1:] > ptr[:-1]
    data, indices = V.data, V.indices
    cur = np.zeros(S.n_contexts)
    tol = _tol(S)
    taken = np.zeros(S.n_ads, dtype=bool)
    order, benefits, revenues = [], [], [0.0]
    evaluations = 0
    for _ in range(k):
        g = _row_gains(data, indices, starts, nonempty, w, cur)
        evaluations += S.n_ads - len(order)
        g[taken] = -np.inf
        best = float(g.max())
        a = int(np.flatnonzero(g >= best - tol)[0])
        taken[a] = True
        lo, hi = int(ptr[a]), int(ptr[a + 1])
        cur[indices[lo:hi]] = np.maximum(cur[indices[lo:hi]], data[lo:hi])
        order.append(a)
        benefits.append(float(g[a]))
        revenues.append(revenues[-1] + float(g[a]))
        if best == 0.0:  # every benefit left is exactly 0 (they only shrink): each further round takes the lowest id
            rest = np.flatnonzero(~taken)[: k - len(order)].tolist()
            order += rest
            benefits += [0.0] * len(rest)
            revenues += [revenues[-1]] * len(rest)
            break
    return GreedyRun(tuple(order), tuple(benefits), tuple(revenues), evaluations)


def _greedy_lazy(S: SparseAdInstance, k: int) -> GreedyRun:
    """Algorithm 6 with lazy (Minoux) evaluation: a benefit is re-evaluated only when its stale bound tops the heap."""
    st = _Lazy(S)
    order, benefits, revenues = [], [], [0.0]
    for _ in range(k):
        a, g = st.next_best()
        st.add(a)
        order.append(a)
        benefits.append(g)
        revenues.append(revenues[-1] + g)
        if st.best == 0.0:  # every benefit left is exactly 0 (they only shrink): each further round ties at 0
            rest = sorted(b for _, b in st.heap)[: k - len(order)]  # and takes the lowest id left
            order += rest
            benefits += [0.0] * len(rest)
            revenues += [revenues[-1]] * len(rest)
            break
    return GreedyRun(tuple(order), tuple(benefits), tuple(revenues), st.evaluations)


EVALUATIONS = ("auto", "lazy", "eager")


def _greedy(S: SparseAdInstance, k: int, evaluation: str = "auto") -> GreedyRun:
    """Algorithm 6 on the float instance: evaluating every ad each round (``"eager"``; ``"auto"`` when
    ``k × stored entries`` is at most :data:`EAGER_MAX_WORK`: on small instances one numpy pass per round costs less
    than the lazy heap's bookkeeping) or lazily (Minoux, ``"lazy"``; ``"auto"`` otherwise). The two give the same run
    (order, benefits, revenues, float for float); only ``evaluations`` differs."""
    if evaluation not in EVALUATIONS:
        raise InvalidInput(f"evaluation = {evaluation!r}: use one of {EVALUATIONS}")
    if evaluation == "eager" or (evaluation == "auto" and k * max(S.values.nnz, 1) <= EAGER_MAX_WORK):
        return _greedy_eager(S, k)
    return _greedy_lazy(S, k)


def greedy_run(inst: AdInstance | SparseAdInstance, k: int) -> GreedyRun:
    """Greedy's run (order, benefits, revenues, benefit evaluations), the benefits evaluated as :func:`_greedy`'s
    ``"auto"`` picks."""
    return greedy_run_evaluated(inst, k, "auto")


def greedy_run_evaluated(inst: AdInstance | SparseAdInstance, k: int, evaluation: str) -> GreedyRun:
    """:func:`greedy_run` with the evaluation of the benefits chosen (``"auto"``, ``"lazy"``, ``"eager"``): it decides
    how many benefits are computed, never which run."""
    S = as_sparse(inst)
    return _greedy(S, check_k(k, S.n_ads), evaluation)


def greedy(inst: AdInstance | SparseAdInstance, k: int) -> tuple[int, ...]:
    """Algorithm 6 (lazy evaluation): the k ads in the order chosen."""
    return greedy_run(inst, k).order


def optimum(inst: AdInstance | SparseAdInstance, k: int) -> tuple[tuple[int, ...], float]:
    """Brute force over all k-subsets, vectorised (lexicographically first among near-optima)."""
    S = as_sparse(inst)
    k = check_k(k, S.n_ads)
    check_subsets(S.n_ads, k)
    D = S.values.toarray()
    combos = np.array(list(combinations(range(S.n_ads), k)), dtype=np.int64)
    vals = np.empty(len(combos))
    step = max(1, 2_000_000 // max(1, k * S.n_contexts))
    for s in range(0, len(combos), step):
        c = combos[s:s + step]
        vals[s:s + step] = D[c].max(axis=1) @ S.weights
    best = vals.max()
    i = int(np.flatnonzero(vals >= best - _tol(S))[0])
    return tuple(int(a) for a in combos[i]), float(vals[i])


def greedy_prime(inst: AdInstance | SparseAdInstance, alpha: object) -> AltResult:
    """Greedy' (Prop. 7): full greedy order, then the best prefix for revenue − α·k'."""
    a_ = float(check_alpha(alpha)) if not isinstance(alpha, float) else alpha
    if a_ < 0:
        raise InvalidInput(f"alpha = {a_!r} must be >= 0")
    S = as_sparse(inst)
    run = _greedy(S, S.n_ads)
    objs = np.array(run.revenues) - a_ * np.arange(S.n_ads + 1)
    kp = int(np.flatnonzero(objs >= objs.max() - _tol(S))[0])
    return AltResult(kp, run.order[:kp], float(objs[kp]), S.n_ads)


def greedy_double_prime(inst: AdInstance | SparseAdInstance, alpha: object) -> AltResult:
    """Greedy'' (Theorem 8): lazy greedy while the next benefit exceeds α."""
    a_ = float(check_alpha(alpha)) if not isinstance(alpha, float) else alpha
    if a_ < 0:
        raise InvalidInput(f"alpha = {a_!r} must be >= 0")
    S = as_sparse(inst)
    st = _Lazy(S)
    order, value, iterations = [], 0.0, 0
    while len(order) < S.n_ads:
        iterations += 1
        a, g = st.next_best()
        if not g > a_:
            break
        st.add(a)
        order.append(a)
        value += g
    return AltResult(len(order), tuple(order), value - a_ * len(order), iterations)
