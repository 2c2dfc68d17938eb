"""The fast twin of :mod:`privclaims.theory.maskit.exact`: numpy float64, vectorised over contexts and times.

Same names and signatures as the exact twin. Privacy *decisions* are conservative
(:mod:`privclaims.theory.floats`): ``is_private`` answers True and ``okay_to_release`` answers True only when
every gain is below δ by more than the rounding margin; where rounding cannot decide, the fast
twin suppresses. It never releases what exact arithmetic would suppress.

Precomputation (memoised on the chain): ``reach[t1, t2] = A^(t1+1) ... A^(t2)`` for all
``0 < t1 <= t2 <= T`` (Eq. 3.2 for every pair of times; the "one-time precompute" of the
simulatable benchmark), and its rows and columns of the sensitive contexts per S, after which an
okayToRelease decision is a handful of array operations. Within one search (``greedy_mondrian``),
``max_breach`` keeps each partial-output pair's result and each start time's forward table in the
search's cache (per chain and S) with the rows of p they read, and recomputes only what a changed row touches;
``is_private`` first tries the pair that breached in the previous call.

Underflow: a float prior, reach product or normaliser D can be 0 (or subnormal) where the exact value is
positive (a chain with Pr[X_3 = c] = 10^-400). Every "is this possible?" decision therefore reads the
exact zero pattern (:func:`prior_support`, :func:`reach_support`, the support of D): all entries are
nonnegative, so the support of a product is the boolean product of the supports (no cancellation).
Where the exact pattern says positive but the float value is below :data:`privclaims.theory.floats.UNDERFLOW_FLOOR`,
the decision is the cautious one: a partial output's gains are bounded by ``1 - prior`` and
okayToRelease suppresses.
"""

from __future__ import annotations

from typing import Any, Hashable, Iterable, NamedTuple, Sequence

import numpy as np

from privclaims.theory.dp.delta_privacy import Breach
from privclaims.theory.errors import InvalidInput
from privclaims.theory.floats import UNDERFLOW_FLOOR, max_keeping_nan, possibly_gt, probability_float
from privclaims.theory.validate import clip_unit
from privclaims.theory.maskit.exact_base import OpCount
from privclaims.theory.maskit.partial_outputs import PassedCache, checked_cache
from privclaims.theory.maskit.model import (
    MarkovChain,
    check_delta,
    check_from,
    check_grid,
    check_output,
    output_prefix,
    check_time,
    sensitive_indices,
    suppression_vector,
)

END = "end"
FORWARD_MEMO_FLOATS = 2_000_000  # max_breach keeps forward tables in a search's cache up to this size (16 MB)


def float_chain(chain: MarkovChain) -> tuple[np.ndarray, np.ndarray]:
    """The chain in float64, memoised on it: ``(A^(1) as an n-vector, A^(2..T) as a (T - 1) x n x n array)``,
    each entry ``float(x)`` of its exact value (correctly rounded). Read only: every float computation on the
    chain (this twin, the float filter of the exact Algorithm 3, the system driver) shares it."""
    memo = chain.memo_get("fast.arrays")
    if memo is None:
        init = np.array([float(x) for x in chain.initial])
        if chain.T > 1:
            steps = np.array([[[float(x) for x in r] for r in m] for m in chain.steps])
        else:
            steps = np.zeros((0, chain.n, chain.n))
        memo = (init, steps)
        chain.memo_set("fast.arrays", memo)
    return memo


def _A(chain: MarkovChain, t: int) -> np.ndarray:
    """A^(t) for 2 <= t <= T as an n x n array."""
    return float_chain(chain)[1][t - 2]


def _p_array(chain: MarkovChain, p: Any) -> np.ndarray:
    """p as a (T x n) float64 array. A real array is checked here (its data as given: a mask or a
    matrix subclass must not hide or reshape an entry); anything else, including arrays of objects or
    of complex, text or time values, goes through :func:`suppression_vector` as in the exact twin."""
    if isinstance(p, np.ndarray) and p.dtype.kind not in "biuf":
        p = p.tolist()
    if isinstance(p, np.ndarray):
        p = np.asarray(p)
        if p.shape != (chain.T, chain.n) or not (p.min() >= 0 and p.max() <= 1):  # NaN fails here too
            raise InvalidInput(f"suppression array of shape {p.shape} must be (T, n) = ({chain.T}, {chain.n}) within [0, 1]")
        return p.astype(float, copy=False)  # read only: callers never write into it
    return np.array([[probability_float(x) for x in r] for r in suppression_vector(chain, p)])


def prior_beliefs(chain: MarkovChain) -> np.ndarray:
    """Proposition 1: row t - 1 is the distribution of X_t."""
    memo = chain.memo_get("fast.prior")
    if memo is None:
        memo = _forward_products(*float_chain(chain), np.dot)
        chain.memo_set("fast.prior", memo)
    return memo


def _forward_products(init: np.ndarray, steps: np.ndarray, dot) -> np.ndarray:
    """Rows ``init``, ``init A^(2)``, ``init A^(2) A^(3)``, ... (``dot``: the float or the support product)."""
    rows = [init]
    for m in steps:
        rows.append(dot(rows[-1], m))
    return np.array(rows)


def _reach_products(steps: np.ndarray, n: int, dot) -> np.ndarray:
    """``R[t1, t2] = A^(t1+1) ... A^(t2)`` (identity for t1 = t2) for 1 <= t1 <= t2 <= T = len(steps) + 1."""
    T = len(steps) + 1
    R = np.zeros((T + 1, T + 1, n, n))
    eye = np.eye(n)
    for t1 in range(1, T + 1):
        R[t1, t1] = eye
        for t2 in range(t1 + 1, T + 1):
            R[t1, t2] = dot(R[t1, t2 - 1], steps[t2 - 2])
    return R


def reach_table(chain: MarkovChain) -> np.ndarray:
    """``R[t1, t2] = A^(t1+1) ... A^(t2)`` (identity for t1 = t2), 1 <= t1 <= t2 <= T; index 0 unused."""
    memo = chain.memo_get("fast.reach")
    if memo is None:
        memo = _reach_products(float_chain(chain)[1], chain.n, np.dot)
        chain.memo_set("fast.reach", memo)
    return memo


def _step_supports(chain: MarkovChain) -> tuple[np.ndarray, np.ndarray]:
    """The exact zero patterns of A^(1) (n) and of A^(2..T) ((T - 1) x n x n) as 0/1 float arrays (so that
    products run in BLAS; an entry of a 0/1 product is a count of paths, read only as ``> 0``)."""
    memo = chain.memo_get("fast.step_supports")
    if memo is None:
        init = np.array([1.0 if x else 0.0 for x in chain.initial])
        steps = np.array([[[1.0 if x else 0.0 for x in r] for r in m] for m in chain.steps]).reshape(chain.T - 1, chain.n, chain.n)
        memo = (init, steps)
        chain.memo_set("fast.step_supports", memo)
    return memo


def _bool_dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The support of a product of nonnegative arrays from the supports of its factors, as 0/1 floats."""
    return (a @ b > 0).astype(float)


def _smallest_entry_log2(chain: MarkovChain) -> float:
    """log2 of the chain's smallest positive transition probability (A^(1) included), -inf if a positive
    entry rounds to float 0 (memoised on the chain)."""
    memo = chain.memo_get("fast.smallest_entry_log2")
    if memo is None:
        (init, steps), (init_s, steps_s) = float_chain(chain), _step_supports(chain)
        vals = np.concatenate((init, steps.ravel()))
        if ((vals == 0) & (np.concatenate((init_s, steps_s.ravel())) > 0)).any():
            memo = -np.inf
        else:
            memo = float(np.log2(vals[vals > 0].min()))
        chain.memo_set("fast.smallest_entry_log2", memo)
    return memo


def _cannot_underflow(chain: MarkovChain, P: np.ndarray) -> bool:
    """A certificate that no normaliser D of ``max_breach`` falls below :data:`UNDERFLOW_FLOOR` while positive:
    D is a sum of path products of at most T transition probabilities and T suppression probabilities,
    each path product is at least ``(min a * min p)^T``, and so is every partial product on the way (all
    normal floats, relative errors ~T n 2^-53). When this bound is at least twice the floor, float D > 0
    is exactly D > 0 and no D is too small to divide by."""
    pos = P[P > 0]
    p_log2 = float(np.log2(pos.min())) if pos.size else 0.0
    return bool(chain.T * (_smallest_entry_log2(chain) + p_log2) >= np.log2(UNDERFLOW_FLOOR) + 1)


def prior_support(chain: MarkovChain) -> np.ndarray:
    """``(T x n)`` bool: ``Pr[X_t = c_i] > 0`` exactly (row t - 1), from the chain's exact entries, never from
    float priors (which can underflow to 0)."""
    memo = chain.memo_get("fast.prior_support")
    if memo is None:
        memo = _forward_products(*_step_supports(chain), _bool_dot) > 0
        chain.memo_set("fast.prior_support", memo)
    return memo


def reach_support(chain: MarkovChain) -> np.ndarray:
    """``(T+1) x (T+1) x n x n`` bool: ``R[t1, t2] > 0`` exactly (the zero pattern of :func:`reach_table`)."""
    memo = chain.memo_get("fast.reach_support")
    if memo is None:
        memo = _reach_products(_step_supports(chain)[1], chain.n, _bool_dot) > 0
        chain.memo_set("fast.reach_support", memo)
    return memo


def reach_table_mult_adds(chain: MarkovChain) -> int:
    """The multiply-adds ``reach_table`` performs to build R: one n x n product (n^3) per pair t1 < t2 <= T.
    Computed from (n, T), not counted on the fly, since the table is memoised on the chain."""
    return chain.n ** 3 * chain.T * (chain.T - 1) // 2


def transition_probability(chain: MarkovChain, t1: int, i: int | None, t2: int) -> np.ndarray:
    """Eq. (3.2): the distribution of X_{t2} given X_{t1} = c_i (t1 = 0: "start")."""
    t1, i, t2 = check_from(chain, t1, i, t2)
    if t1 == 0:
        return prior_beliefs(chain)[t2 - 1] if t2 else np.zeros(chain.n)
    v = np.zeros(chain.n)
    v[i] = 1.0
    for t in range(t1 + 1, t2 + 1):
        v = v @ _A(chain, t)
    return v


def _release_probabilities(chain: MarkovChain, p: Any, P: np.ndarray) -> np.ndarray:
    """``1 - p`` as a (T x n) float array with relative accuracy: ``1 - P`` for a real array (exact where p >= 1/2,
    correctly rounded below), else from the exact ``1 - p``, since ``1 - float(p)`` keeps only the absolute
    accuracy of p (p = 1 - 10^-400 is the float 1 - 2^-53, and 1 - that is 2^-53, not 10^-400)."""
    if isinstance(p, np.ndarray) and p.dtype.kind in "biuf":
        return 1.0 - P
    rows = suppression_vector(chain, p.tolist() if isinstance(p, np.ndarray) else p)
    return np.array([[probability_float(1 - x) for x in r] for r in rows])


def _emissions(chain: MarkovChain, p: Any, P: np.ndarray, outputs: Sequence[int | None]) -> np.ndarray:
    """Proposition 2's emission of every time as one (T x n) array: row t - 1 is ``b^(t)_{., o_t}``
    (``p^t`` for ⊥, ``(1 - p_i^t) e_i`` for a release of c_i, all ones where unobserved, i.e. past a prefix)."""
    o = output_prefix(chain, outputs)
    E = np.ones_like(P)
    E[:len(o)] = P[:len(o)]
    ts = [t for t, v in enumerate(o) if v is not None]
    if ts:
        vs = [o[t] for t in ts]
        E[ts] = 0.0
        E[ts, vs] = _release_probabilities(chain, p, P)[ts, vs]
    return E


def forward_backward(chain: MarkovChain, p: Any, outputs: Sequence[int | None]) -> tuple[np.ndarray, float]:
    """Eq. (3.3): ``(posteriors (T x n), Pr[o])`` for the probabilistic check's HMM (Proposition 2).

    As in the exact twin, an output shorter than T is a prefix o_1..o_e (later outputs unobserved: emission 1).
    With ``M_t = diag(b^(t)) A^(t+1)`` both recursions use the same matrices, ``α(t+1) = α(t) M_t`` and
    ``β(t) = M_t β(t+1)`` from ``β(T) = b^(T)``; step k advances α from t = k and β from t = T - k together
    as one product of the row ``[α | β^T]`` with the block-diagonal ``diag(M_k, M_{T-1-k}^T)``.
    """
    P = _p_array(chain, p)
    E = _emissions(chain, p, P, outputs)
    T, n = chain.T, chain.n
    init, steps = float_chain(chain)
    blocks = np.zeros((T - 1, 2 * n, 2 * n))
    blocks[:, :n, :n] = E[:-1, :, None] * steps  # M_t, t = 1..T-1
    blocks[:, n:, n:] = blocks[::-1, :n, :n].transpose(0, 2, 1)
    v = np.concatenate((init, E[T - 1]))
    rows = [v]
    dot = np.dot
    for m in blocks:
        v = dot(v, m)
        rows.append(v)
    ab = np.array(rows)
    alpha, beta = ab[:, :n], ab[::-1, n:]
    total = float(init @ beta[0])
    if total < UNDERFLOW_FLOOR:
        if not _output_possible(chain, E):
            raise InvalidInput(f"output {tuple(outputs)!r} has probability 0; its posterior is undefined")
        raise InvalidInput(f"output {tuple(outputs)!r} has a positive probability that underflows float64 "
                           f"(computed {total!r} < 2^-900); use the exact twin for its posterior")
    return alpha * beta / total, total


def _output_possible(chain: MarkovChain, E: np.ndarray) -> bool:
    """Is Pr[o] > 0 exactly? The forward recursion on the zero patterns of the chain and of the emissions
    (an emission is 0 exactly when its float is: ``p`` is kept inside (0, 1) by :func:`probability_float`)."""
    init, steps = _step_supports(chain)
    a = init * (E[0] > 0)
    for t in range(1, chain.T):
        a = _bool_dot(a, steps[t - 1]) * (E[t] > 0)
    return bool(a.any())


def posterior_belief(chain: MarkovChain, p: Any, outputs: Sequence[int | None], t: int, s: Hashable) -> float:
    t, k = check_time(chain, t), chain.index(s)
    post, _ = forward_backward(chain, p, outputs)
    return clip_unit(post[t - 1][k])


class _PartialOutputs:
    """The partial outputs ``o_{t1}, ⊥..⊥, o_{t2}`` of Lemma 4 for one suppression array P: per pair
    (t1, t2), the best gain over (t, start c_i, sensitive s, end c_j) and where it is, vectorised.

    Forward tables (per start time) and backward tables (per end time) are built lazily, when a pair
    first needs them. With ``memo`` (a search's cache) each pair's result and each forward table is kept
    with the rows of P it read (times max(t1, 1)..min(t2, T) for a pair), and reused while those rows
    are unchanged, so a search that changes one coordinate at a time recomputes only what it touches.

    ``ops`` counts the work of the computation without a memo, whether or not there is one: without a memo
    the tables and pairs count as they are computed; with one, :meth:`count_visit` adds for each visited pair
    the work it takes without the memo (the forward rows up to t2 - 1 of its start time, the backward table of
    its end time the first time a pair of that end time computes gains, and the pair's beliefs, kept beside its
    result), so the counts do not depend on what the memo held.
    """

    def __init__(self, chain: MarkovChain, P: np.ndarray, sens: np.ndarray, memo: dict | None, ops: OpCount | None) -> None:
        self.chain, self.P, self.sens, self.memo = chain, P, sens, memo
        self.ops = ops if memo is None else None  # counted where computed
        self.visits = ops if memo is not None else None  # counted per visited pair (count_visit)
        self.forward_counted: dict[int, int] = {}  # t1 -> the last forward row counted in this call
        self.backward_counted: set[int] = set()  # t2 whose backward table is counted in this call
        self.T, self.n, self.ns = chain.T, chain.n, len(sens)
        self.init, self.steps = float_chain(chain)
        self.pri = prior_beliefs(chain)
        self.pri_support = prior_support(chain)
        self.prS = self.pri[:, sens]  # (T, |S|)
        self.end_mask = P < 1  # (T, n): contexts an output may release at t2 (the pair's end)
        self.safe = _cannot_underflow(chain, P)  # then D > 0 in float is exact and D is never too small
        self.ends_any = self.end_mask.any(axis=1)
        self.rowkeys = [P[t].tobytes() for t in range(self.T)] if memo is not None else []
        self.keep_forward = (self.T + 1) * self.T * self.n * self.n <= FORWARD_MEMO_FLOATS
        self.buf = np.empty(self.T * self.n * self.ns * self.n)
        self.harr: dict[int, np.ndarray] = {}
        self.farr: dict[int, tuple[np.ndarray, list]] = {}
        self.fsup: dict[int, np.ndarray] = {}

    def starts(self, t1: int) -> np.ndarray:
        """Which start contexts can be released at t1 (t1 = 0: the single "start")."""
        if t1 == 0:
            return np.array([True])
        return self.pri_support[t1 - 1] & (self.P[t1 - 1] < 1)

    def candidate(self, t2: int) -> bool:
        """Some context can end a partial output at t2 (always at "end", t2 = T + 1)."""
        return t2 == self.T + 1 or bool(self.ends_any[t2 - 1])

    def backward(self, t2: int) -> np.ndarray:
        """Harr[t] (|S| x n_j): Pr of suppressing t+1..t2-1 and reaching c_j at t2 (end: n_j = 1) from s at t."""
        if t2 not in self.harr:
            T, n, steps, P = self.T, self.n, self.steps, self.P
            nj = 1 if t2 == T + 1 else n
            tab = np.zeros((T + 1, n, nj))
            last = min(t2 - 1, T)
            tab[last] = np.ones((n, 1)) if t2 == T + 1 else steps[t2 - 2]
            for t in range(last - 1, 0, -1):
                tab[t] = steps[t - 1] @ (P[t][:, None] * tab[t + 1])
                if self.ops is not None:
                    self.ops.mult_adds += n * n * nj
            self.harr[t2] = tab[:, self.sens, :]  # only sensitive rows are needed
        return self.harr[t2]

    def forward(self, t1: int, upto: int) -> np.ndarray:
        """Farr[tau] (n_i x n) for tau <= upto: Pr of c_i at t1 (t1 = 0: start, then c at 1 suppressed),
        suppressing t1+1..tau and being in c at tau. ``keys[k]`` is the P row that Farr's k-th computed
        row read (time 1 + k for t1 = 0, else t1 + 1 + k); in the memo, rows read from unchanged P rows
        are kept and the rest recomputed."""
        if t1 not in self.farr:
            memo, T, n = self.memo, self.T, self.n
            ent = memo.get(("F", t1)) if memo is not None else None
            if ent is None:
                Farr, keys = np.zeros((T + 1, 1 if t1 == 0 else n, n)), []
                if t1:
                    Farr[t1] = np.eye(n)
                if memo is not None and self.keep_forward:
                    memo[("F", t1)] = (Farr, keys)
            else:
                Farr, keys = ent
                lo = 1 if t1 == 0 else t1 + 1
                m = 0
                while m < len(keys) and keys[m] == self.rowkeys[lo - 1 + m]:
                    m += 1
                del keys[m:]
            if t1 == 0 and not keys:
                Farr[1] = (self.init * self.P[0])[None, :]
                keys.append(self.rowkeys[0] if memo is not None else None)
            self.farr[t1] = (Farr, keys)
        Farr, keys = self.farr[t1]
        P, steps = self.P, self.steps
        for tau in range(t1 + 1 + len(keys) if t1 else len(keys) + 1, upto + 1):
            np.multiply(Farr[tau - 1] @ steps[tau - 2], P[tau - 1][None, :], out=Farr[tau])
            keys.append(self.rowkeys[tau - 1] if self.memo is not None else None)
            if self.ops is not None:
                self.ops.mult_adds += Farr.shape[1] * self.n * self.n
        return Farr

    def forward_support(self, t1: int) -> np.ndarray:
        """The exact zero pattern of every Farr[tau] of :meth:`forward` (0/1 floats, all tau at once)."""
        if t1 not in self.fsup:
            T, n, P = self.T, self.n, self.P
            init, steps = _step_supports(self.chain)
            Fs = np.zeros((T + 1, 1 if t1 == 0 else n, n))
            if t1:
                Fs[t1] = np.eye(n)
            else:
                Fs[1] = (init * (P[0] > 0))[None, :]
            for tau in range(max(t1 + 1, 2), T + 1):
                Fs[tau] = _bool_dot(Fs[tau - 1], steps[tau - 2]) * (P[tau - 1] > 0)[None, :]
            self.fsup[t1] = Fs
        return self.fsup[t1]

    def d_support(self, t1: int, t2: int) -> np.ndarray:
        """The exact zero pattern of the pair's normaliser D (n_i x n_j) as a bool array."""
        Fs = self.forward_support(t1)
        if t2 == self.T + 1:
            return Fs[self.T].sum(axis=1, keepdims=True) > 0
        return Fs[t2 - 1] @ _step_supports(self.chain)[1][t2 - 2] > 0

    def normaliser(self, t1: int, t2: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(Farr, D, ends)``: the forward table of t1, the pair's normaliser D (n_i x n_j, in float; its exact
        zero pattern is :meth:`d_support`) and the contexts that may end it at t2 (``[True]`` for "end")."""
        Farr = self.forward(t1, t2 - 1)
        if t2 == self.T + 1:
            return Farr, Farr[self.T].sum(axis=1, keepdims=True), np.array([True])
        return Farr, Farr[t2 - 1] @ self.steps[t2 - 2], self.end_mask[t2 - 1]

    def count_visit(self, t1: int, t2: int, computed: bool, beliefs: int) -> None:
        """Add to the counts (with a memo) the work pair (t1, t2) takes without one: the forward rows of t1 up to
        t2 - 1 not yet counted in this call (t1 = 0: rows 2.., one start row each; else rows t1 + 1.., n start rows
        each; n^2 multiply-adds per start row), and when the pair computes gains (``computed``) its ``beliefs`` and,
        the first time in this call, the backward table of t2 (rows min(t2 - 1, T) - 1 .. 1, n^2 n_j each)."""
        ops, n = self.visits, self.n
        done = self.forward_counted.get(t1, t1 if t1 else 1)
        if t2 - 1 > done:
            ops.mult_adds += (t2 - 1 - done) * (1 if t1 == 0 else n) * n * n
            self.forward_counted[t1] = t2 - 1
        if computed:
            ops.beliefs += beliefs
            if t2 not in self.backward_counted:
                self.backward_counted.add(t2)
                ops.mult_adds += max(0, min(t2 - 1, self.T) - 1) * n * n * (1 if t2 == self.T + 1 else n)

    def result(self, t1: int, t2: int, starts: np.ndarray) -> tuple | None:
        """``(gain, (partial output, t, s))`` of the pair's first maximal gain, or None if the pair has no
        possible output (from the memo when the P rows it reads are unchanged)."""
        memo, T = self.memo, self.T
        if memo is not None:
            rows = self.rowkeys[max(t1, 1) - 1:min(t2, T)]
            hit = memo.get((t1, t2))
            if hit is not None and hit[0] == rows:
                if self.visits is not None:
                    self.count_visit(t1, t2, hit[1] is not None, hit[2])
                return hit[1]
        Farr, D, ends = self.normaliser(t1, t2)
        cand = starts[:, None] & ends[None, :]
        if self.safe:  # no pair is weak (D > 0 in float is exact)
            valid, weak, has_weak = cand & (D > 0), None, False
        else:
            valid = cand & (D >= UNDERFLOW_FLOOR)
            # possible (exact D > 0) but D too small in float to divide by: gains bounded by 1 - prior
            weak = cand & (D < UNDERFLOW_FLOOR)
            if weak.any() and not (weak & (D > 0)).all():
                weak &= (D > 0) | self.d_support(t1, t2)
            has_weak = bool(weak.any())
        res, beliefs = None, 0
        n_valid = np.count_nonzero(valid)
        if has_weak or n_valid:
            ni, ns, nj = D.shape[0], self.ns, D.shape[1]
            every = n_valid == valid.size
            Dsafe = D if every else np.where(valid, D, 1.0)
            a, b = t1 + 1, t2
            gain = self.buf[: (b - a) * ni * ns * nj].reshape(b - a, ni, ns, nj)
            np.multiply(Farr[a:b][:, :, self.sens, None], self.backward(t2)[a:b, None, :, :], out=gain)
            np.divide(gain, Dsafe[None, :, None, :], out=gain)  # posteriors
            np.subtract(gain, self.prS[a - 1:b - 1, None, :, None], out=gain)
            if not every:
                np.copyto(gain, -1.0, where=~valid[None, :, None, :])
                if has_weak:
                    np.copyto(gain, (1.0 - self.prS[a - 1:b - 1])[:, None, :, None], where=weak[None, :, None, :])
            beliefs = (int((valid | weak).sum()) if has_weak else int(n_valid)) * ns * (b - a)
            if self.ops is not None:
                self.ops.beliefs += beliefs
            flat = int(gain.argmax())
            rest, kj = divmod(flat, nj)
            rest, ks = divmod(rest, ns)
            ktau, ki = divmod(rest, ni)
            i = None if t1 == 0 else ki
            j = END if t2 == T + 1 else kj
            res = (float(gain.flat[flat]), ((t1, i, t2, j), a + ktau, self.chain.contexts[self.sens[ks]]))
        if memo is not None:
            memo[(t1, t2)] = (rows, res, beliefs)
            if self.visits is not None:
                self.count_visit(t1, t2, res is not None, beliefs)
        return res


def _search_memo(cache: PassedCache | None, chain: MarkovChain, sens: np.ndarray) -> dict | None:
    """The fast twin's part of a search's cache for this chain and S (none without a cache). A kept result
    depends on the chain, S and the P rows it read: the rows are checked on use, the chain and S are the
    scope (:meth:`PassedCache.scope`)."""
    if cache is None:
        return None
    return cache.scope("fast.max_breach", chain, tuple(int(s) for s in sens))


def max_breach(chain: MarkovChain, p: Any, S: Iterable[Hashable], *, delta: object = None,
               cache: PassedCache | None = None, ops: OpCount | None = None) -> Breach:
    """Algorithm 3's maximum gain over the partial outputs of Lemma 4, vectorised over
    (start context i, sensitive s, end context j). With ``delta`` it returns as soon as a gain
    possibly exceeds δ (Line 21's early exit).

    ``cache`` is the store one search shares across its ISPRIVATE calls (as in the exact twin). The fast
    twin does not skip Lemma 5 triplets; it keeps there each pair's result and each start time's forward
    table (see :class:`_PartialOutputs`). Neither the result nor the counts in ``ops`` depend on the cache:
    with one, a pair it holds adds the work it takes without it (:meth:`_PartialOutputs.count_visit`).

    Pairs (t1, t2) are visited in increasing order and a gain replaces the best only when strictly
    larger, so the breach returned is the first maximum (or, with δ, the first gain possibly above δ).
    """
    dstop = None if delta is None else float(check_delta(delta))
    P = _p_array(chain, p)
    sens = np.array(sensitive_indices(chain, S))
    T, ns = chain.T, len(sens)
    cache = checked_cache(cache)
    pri = prior_beliefs(chain)
    if ops is not None:
        ops.is_private_calls += 1
    best_gain, best_key = -1.0, (None, 0, None)
    # released sensitive states: posterior 1 (t = t1 or t = t2), all t at once. At t the posterior of s
    # given a release is 1 if s itself is released, else 0 (when some other context can be released).
    releasable = prior_support(chain) & (P < 1)  # (T, n): contexts that can be released at t (exact zeros)
    can = releasable[:, sens]
    others = (releasable.sum(axis=1)[:, None] - can.astype(int)) > 0
    g = np.where(can | others, np.where(can, 1.0, 0.0) - pri[:, sens], -1.0)  # (T, |S|)
    if dstop is not None:
        hit = np.flatnonzero(possibly_gt(g.max(axis=1), dstop))
        if len(hit):
            t, k = int(hit[0]), int(np.argmax(g[hit[0]]))
            if ops is not None:  # Pr[X_t = s | a release at t] (1 or 0) for the times up to the exit
                ops.beliefs += int(np.count_nonzero((can | others)[: t + 1]))
            return Breach(float(g[t, k]), ("release",), t + 1, chain.contexts[sens[k]])
    if ops is not None:
        ops.beliefs += int(np.count_nonzero(can | others))
    t, k = divmod(int(np.argmax(g)), ns)
    if g[t, k] > best_gain:
        best_gain, best_key = float(g[t, k]), (("release",), t + 1, chain.contexts[sens[k]])
    memo = _search_memo(cache, chain, sens)
    pairs = _PartialOutputs(chain, P, sens, memo, ops)
    for t1 in range(0, T):
        starts = pairs.starts(t1)
        if not starts.any():
            continue
        for t2 in range(t1 + 2, T + 2):
            if not pairs.candidate(t2):
                continue  # no end context: no valid pair
            res = pairs.result(t1, t2, starts)
            if res is not None and res[0] > best_gain:
                best_gain, best_key = res
                if dstop is not None and possibly_gt(best_gain, dstop):
                    if memo is not None:
                        memo["hint"] = (t1, t2)
                    return Breach(best_gain, best_key[0], best_key[1], best_key[2])
    return Breach(best_gain, best_key[0], best_key[1], best_key[2])


def _hinted_breach(chain: MarkovChain, p: Any, S: Iterable[Hashable], d: float, cache: PassedCache) -> bool:
    """Does the pair that breached in the search's previous early exit possibly exceed δ again? (A search
    that changes one coordinate at a time usually breaches there again; checking it first only reorders
    the pairs, and ISPRIVATE's answer does not depend on the order.)"""
    sens = np.array(sensitive_indices(chain, S))
    memo = _search_memo(cache, chain, sens)
    if memo is None or "hint" not in memo:
        return False
    t1, t2 = memo["hint"]
    pairs = _PartialOutputs(chain, _p_array(chain, p), sens, memo, None)
    starts = pairs.starts(t1)
    if not starts.any() or not pairs.candidate(t2):
        return False
    res = pairs.result(t1, t2, starts)
    return res is not None and bool(possibly_gt(res[0], d))


def is_private(chain: MarkovChain, p: Any, S: Iterable[Hashable], delta: object, *,
               cache: PassedCache | None = None, ops: OpCount | None = None) -> bool:
    """Conservative Algorithm 3: True only if every gain is certainly <= δ. With a search's ``cache``
    the pair that breached last is tried first (not when counting ``ops``: the counts are those of the pairs
    in order, up to the first that possibly exceeds δ)."""
    d = float(check_delta(delta))
    cache = checked_cache(cache)
    if cache is not None and ops is None and _hinted_breach(chain, p, S, d, cache):
        return False
    g = max_breach(chain, p, S, delta=delta, cache=cache, ops=ops).gain
    return not bool(possibly_gt(g, d))


def privacy_level(chain: MarkovChain, p: Any, S: Iterable[Hashable]) -> float:
    return max(0.0, max_breach(chain, p, S).gain)


def utility(chain: MarkovChain, p: Any) -> float:
    """Σ_{t,i} Pr[X_t = c_i](1 - p_i^t)."""
    return float(np.sum(prior_beliefs(chain) * (1.0 - _p_array(chain, p))))


# --------------------------------------------------------------------------- simulatable check


def possible_states(chain: MarkovChain, t_last: int, i_last: int | None, t_now: int) -> list[int]:
    t_last, i_last, t_now = check_from(chain, t_last, i_last, t_now, t2_name="t_now")
    return [int(j) for j in np.flatnonzero(_possible_from_last(chain, t_last, i_last)[t_now])]


def _possible_from_last(chain: MarkovChain, t_last: int, i_last: int | None) -> np.ndarray:
    """Row t: the exact zero pattern of :func:`_from_last`'s row t (bool; never read off float values)."""
    if t_last == 0:
        out = np.zeros((chain.T + 1, chain.n), dtype=bool)
        out[1:] = prior_support(chain)
        return out
    return reach_support(chain)[t_last, :, i_last, :]


def _from_last(chain: MarkovChain, t_last: int, i_last: int | None) -> np.ndarray:
    """Row t = Pr[X_t = . | X_{t_last} = c_{i_last}] for t = t_last..T (rows before t_last unused)."""
    if t_last == 0:
        out = np.zeros((chain.T + 1, chain.n))
        out[1:] = prior_beliefs(chain)
        return out
    R = reach_table(chain)
    return R[t_last, :, i_last, :]


class _DecisionTables(NamedTuple):
    """What Algorithm 5 reads, per (chain, S), laid out so that one decision reads contiguous slices
    (``R`` = :func:`reach_table`, ``Rs`` = :func:`reach_support`; time index 0 unused):

    * ``idx``: the sensitive indices; ``prS[t, s] = Pr[X_t = s]``;
    * ``into[t', t] = R[t, t'][S, :]`` (from a sensitive state at t to every state at t');
    * ``out_of[t'', i, t] = R[t'', t][i, S]`` (from c_i at t'' to the sensitive states at t);
    * ``now_after[t', j] = max(max_s [s = j] - Pr[X_{t'} = s], max_{t > t', s} R[t', t]_{j, s} - Pr[X_t = s])``:
      Algorithm 5's largest gain at and after t' when c_j is the possible state at t' (T^2 n |S| subtractions once;
      a decision reads one row of it);
    * ``R``, ``pri``: the reach table and the priors (shared, for Algorithm 4's extra times).
    """

    idx: np.ndarray
    prS: np.ndarray
    into: np.ndarray
    out_of: np.ndarray
    now_after: np.ndarray
    R: np.ndarray
    pri: np.ndarray


def _sensitive_tables(chain: MarkovChain, sens: tuple[int, ...]) -> _DecisionTables:
    """The :class:`_DecisionTables` of (chain, S), memoised on the chain."""
    key = ("fast.decision_tables", sens)
    memo = chain.memo_get(key)
    if memo is None:
        idx = np.array(sens)
        R = reach_table(chain)
        T, n = chain.T, chain.n
        prS = np.zeros((T + 1, len(sens)))
        prS[1:] = prior_beliefs(chain)[:, idx]
        into = np.ascontiguousarray(R[:, :, idx, :].transpose(1, 0, 2, 3))
        out_of = np.ascontiguousarray(R[:, :, :, idx].transpose(0, 2, 1, 3))
        now_after = np.full((T + 1, n), -np.inf)
        for t in range(1, T + 1):
            now = np.zeros((n, len(sens)))
            now[idx, np.arange(len(sens))] = 1.0
            now_after[t] = (now - prS[t]).max(axis=1)
            if t < T:
                now_after[t] = np.maximum(now_after[t], (out_of[t, :, t + 1:] - prS[t + 1:][None]).max(axis=(1, 2)))
        memo = _DecisionTables(idx, prS, into, out_of, now_after, R, prior_beliefs(chain))
        chain.memo_set(key, memo)
    return memo


def _from_last_rows(chain: MarkovChain, sens: tuple[int, ...], t_last: int, i_last: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For a last release of c_i at t'' (t'' = 0: none), per later time t' (entry or row t'): ``best[t']``, the
    largest ``now_after[t', j]`` (:class:`_DecisionTables`) over the states c_j possible at t' (-inf if none; the
    possible states are the exact support of ``f(t') = Pr[X_{t'} = . | X_{t''} = c_i]``, :func:`_possible_from_last`);
    ``inv[t']``, ``1 / f_j(t')`` where c_j is possible and 0 elsewhere; ``underflow[t']``, whether some possible
    state's float f_j(t') is below :data:`UNDERFLOW_FLOOR` (too small to divide by: Algorithm 5 then suppresses).
    Memoised on the chain per (S, t'', i): T n divisions and comparisons, once."""
    key = ("fast.from_last", sens, t_last, i_last)
    memo = chain.memo_get(key)
    if memo is None:
        possible, f = _possible_from_last(chain, t_last, i_last), _from_last(chain, t_last, i_last)
        small = possible & (f < UNDERFLOW_FLOOR)
        inv = np.divide(1.0, f, out=np.zeros(f.shape), where=possible & ~small)
        best = np.max(_sensitive_tables(chain, sens).now_after, axis=1, where=possible, initial=-np.inf)
        memo = (best.tolist(), inv, small.any(axis=1).tolist())
        chain.memo_set(key, memo)
    return memo


def _checked_decision_args(chain: MarkovChain, S: Iterable[Hashable], delta: object) -> tuple[tuple[int, ...], float]:
    """``(sensitive_indices(chain, S), float(check_delta(delta)))``, memoised on the chain per (S, δ) as given
    (both are pure functions of their values; any other S, or an unhashable label or δ, is validated on every call)."""
    key, memo = None, None
    if isinstance(S, (list, tuple, frozenset)):
        try:
            key = ("fast.decision_args", tuple(S), type(delta), delta)
            memo = chain.memo_get(key)
        except TypeError:  # an unhashable label or δ
            key = None
    if memo is None:
        memo = (sensitive_indices(chain, S), float(check_delta(delta)))
        if key is not None:
            chain.memo_set(key, memo)
    return memo


def okay_to_release(chain: MarkovChain, S: Iterable[Hashable], delta: object, prefix: Sequence[int | None], *,
                    improved: bool = True, ops: OpCount | None = None) -> bool:
    """Algorithm 5 (and, with ``improved=False``, the extra times t <= t'' of Algorithm 4), vectorised
    over the possible states j, the sensitive contexts and the times; conservative.

    With c_{i''} released last at t'' and ``f(t) = Pr[X_t = . | X_{t''} = c_{i''}]``, the gains for a
    possible state c_j at t' are ``f_s(t) R[t, t']_{s, j} / f_j(t') - Pr[X_t = s]`` for t'' < t < t',
    ``[s = j] - Pr[X_{t'} = s]`` at t', and ``R[t', t]_{j, s} - Pr[X_t = s]`` for t > t'. The maximum of the
    last two over s and t depends on (t', j) only and is read from a table (:class:`_DecisionTables`). The
    decision is one conservative comparison of the maximum gain with δ (``possibly_gt`` is monotone in the
    gain, so this equals comparing every gain).

    The work of one decision is the (t' - t'' - 1) |S| n gains in between. A state impossible at t' enters
    them with the factor 0 in place of 1 / f_j(t'), i.e. with the gain ``-Pr[X_t = s]``, which never exceeds
    the gain of a possible state at the same (t, s) (those are >= -Pr[X_t = s], and one is possible), so the
    maximum is the maximum over the possible states."""
    sens, d = _checked_decision_args(chain, S, delta)
    prefix = check_output(chain, prefix, len(prefix))
    t_now = len(prefix) + 1
    T = chain.T
    if t_now > T:
        raise InvalidInput(f"prefix of length {len(prefix)}: nothing left to release (T = {T})")
    t_last, i_last = 0, None
    for t in range(len(prefix), 0, -1):
        if prefix[t - 1] is not None:
            t_last, i_last = t, prefix[t - 1]
            break
    tab = _sensitive_tables(chain, sens)
    best, invs, underflows = _from_last_rows(chain, sens, t_last, i_last)
    # t = now and after: the largest entry of the table's row over the possible states (-inf: none is possible)
    g = best[t_now]
    if g == -np.inf:
        raise InvalidInput(f"no context is possible at t = {t_now} after the released output {prefix!r}")
    if ops is not None:  # now, after and in between: |S| gains per possible state and time t'' < t <= T
        ops.beliefs += len(sens) * int(np.count_nonzero(_possible_from_last(chain, t_last, i_last)[t_now])) * (T - t_last)
    underflow = False
    # t strictly between the last release and now
    if t_now - t_last > 1:
        underflow = underflows[t_now]  # a possible state's float probability too small to divide by: suppress
        if not underflow:
            ts = slice(t_last + 1, t_now)
            post = (tab.prS[ts] if t_last == 0 else tab.out_of[t_last, i_last, ts])[:, :, None] * tab.into[t_now, ts]
            post *= invs[t_now]
            post -= tab.prS[ts, :, None]
            g = max_keeping_nan(g, float(_MAX(post, axis=None)))
    if not improved:
        pri, R, idx = tab.pri, tab.R, tab.idx
        rel = [(t, o) for t, o in enumerate(prefix, start=1) if o is not None]
        marks = [(0, None)] + rel
        for k in range(len(marks) - 1):
            (t1, i1), (t2, j2) = marks[k], marks[k + 1]
            for t in range(t1 + 1, t2 + 1):
                a = (pri[t - 1] if t1 == 0 else R[t1, t][i1])[idx]
                b = R[t, t2][idx, j2]
                den = (pri[t2 - 1][j2] if t1 == 0 else R[t1, t2][i1, j2])
                if den < UNDERFLOW_FLOOR:
                    underflow = True
                else:
                    g = max_keeping_nan(g, float(np.max(a * b / den - pri[t - 1][idx])))
                if ops is not None:
                    ops.beliefs += len(sens)
    if underflow or g != g:  # an underflowed denominator or a NaN gain: suppress
        return False
    return not possibly_gt(g, d)


_MAX = np.maximum.reduce


def supp(chain: MarkovChain, S: Iterable[Hashable], delta: object, i: int | None, t: int) -> int:
    """supp_i(t): the number of ⊥ following a release of c_i at t (conservative decisions)."""
    sensitive_indices(chain, S)
    check_delta(delta)
    t, i, _ = check_from(chain, t, i, t, t2_name="t")
    k = 0
    while t + k + 1 <= chain.T:
        prefix = [None] * (t + k)
        if t:
            prefix[t - 1] = i
        if okay_to_release(chain, S, delta, prefix):
            break
        k += 1
    return k


def simulatable_utility(chain: MarkovChain, S: Iterable[Hashable], delta: object) -> float:
    """T - γ_start(0) with the γ recursion of §3.6.1, over the reachable release points."""
    T = chain.T
    memo: dict = {}

    def gamma(i: int | None, t: int) -> float:
        if t == T + 1:
            return 0.0
        if (i, t) not in memo:
            k = supp(chain, S, delta, i, t)
            nxt = t + k + 1
            g = float(k)
            if nxt <= T:
                dist = _from_last(chain, t, i)[nxt]
                g += sum(float(dist[j]) * gamma(int(j), nxt) for j in np.flatnonzero(_possible_from_last(chain, t, i)[nxt]))
            memo[(i, t)] = g
        return memo[(i, t)]

    return T - gamma(None, 0)


def greedy_mondrian(chain: MarkovChain, S: Iterable[Hashable], delta: object, d: int) -> tuple[np.ndarray, int]:
    """MONDRIAN-style greedy on the grid {0, 1/d, .., 1} with the conservative ISPRIVATE, on float arrays:
    returns (integer numerators k (p = k/d) as a T x n array, ISPRIVATE calls). Zero-prior states stay at 1."""
    d = check_grid(d)
    S = [chain.contexts[i] for i in sensitive_indices(chain, S)]
    check_delta(delta)
    pos = prior_support(chain)
    coords = [(t, i) for t in range(chain.T) for i in range(chain.n) if pos[t, i]]
    K = np.full((chain.T, chain.n), d, dtype=np.int64)
    calls = 0
    cache = PassedCache()  # shared by the search's ISPRIVATE calls (see max_breach)

    def private(Kt: np.ndarray) -> bool:
        nonlocal calls
        calls += 1
        return is_private(chain, Kt / d, S, delta, cache=cache)

    changed = True
    while changed:
        changed = False
        for t, i in coords:
            lo, hi = 0, int(K[t, i])
            while lo < hi:
                mid = (lo + hi) // 2
                trial = K.copy()
                trial[t, i] = mid
                if private(trial):
                    hi = mid
                else:
                    lo = mid + 1
            if hi < K[t, i]:
                K[t, i] = hi
                changed = True
    return K, calls


def utility_released_fraction(chain: MarkovChain, K: np.ndarray, d: int) -> float:
    """utility^Prob / T for p = K/d."""
    d = check_grid(d)
    return float(np.sum(prior_beliefs(chain) * (1.0 - K / d))) / chain.T
