"""The fast twin of :mod:`theory.maskit.exact`: numpy float64, vectorised over contexts and times.

Same names and signatures as the exact twin. Privacy *decisions* are conservative
(:mod:`theory.floats`): ``is_private`` answers True and ``okay_to_release`` answers True only when
every gain is below δ by more than the rounding margin; where rounding cannot decide, the fast
twin suppresses. It never releases what exact arithmetic would suppress.

Precomputation (memoised on the chain): ``reach[t1, t2] = A^(t1+1) ... A^(t2)`` for all
``0 < t1 <= t2 <= T`` (Eq. 3.2 for every pair of times; the "one-time precompute" of the
simulatable benchmark), and its rows and columns of the sensitive contexts per S, after which an
okayToRelease decision is a handful of array operations. Within one search (``greedy_mondrian``),
``max_breach`` keeps each partial-output pair's result and each start time's forward table in the
search's cache, keyed by the rows of p they read, and recomputes only what a changed row touches.
"""

from __future__ import annotations

from typing import Any, Hashable, Iterable, Sequence

import numpy as np

from theory.dp.delta_privacy import Breach
from theory.errors import InvalidInput
from theory.floats import possibly_gt
from theory.validate import clip_unit
from theory.maskit.exact import OpCount, PassedCache
from theory.maskit.model import (
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


def _arrays(chain: MarkovChain) -> tuple[np.ndarray, np.ndarray]:
    memo = chain._memo_get("fast.arrays")
    if memo is None:
        init = np.array([float(x) for x in chain.initial])
        if chain.T > 1:
            steps = np.array([[[float(x) for x in r] for r in m] for m in chain.steps])
        else:
            steps = np.zeros((0, chain.n, chain.n))
        memo = (init, steps)
        chain._memo_set("fast.arrays", memo)
    return memo


def _A(chain: MarkovChain, t: int) -> np.ndarray:
    """A^(t) for 2 <= t <= T as an n x n array."""
    return _arrays(chain)[1][t - 2]


def _p_array(chain: MarkovChain, p: Any) -> np.ndarray:
    if isinstance(p, np.ndarray):
        if p.shape != (chain.T, chain.n) or not (p.min() >= 0 and p.max() <= 1):  # NaN fails here too
            raise InvalidInput(f"suppression array of shape {p.shape} must be (T, n) = ({chain.T}, {chain.n}) within [0, 1]")
        return p.astype(float, copy=False)  # read only: callers never write into it
    return np.array([[float(x) for x in r] for r in suppression_vector(chain, p)])


def prior_beliefs(chain: MarkovChain) -> np.ndarray:
    """Proposition 1: row t - 1 is the distribution of X_t."""
    memo = chain._memo_get("fast.prior")
    if memo is None:
        init, steps = _arrays(chain)
        rows = [init]
        for m in steps:
            rows.append(rows[-1] @ m)
        memo = np.array(rows)
        chain._memo_set("fast.prior", memo)
    return memo


def reach_table(chain: MarkovChain) -> np.ndarray:
    """``R[t1, t2] = A^(t1+1) ... A^(t2)`` (identity for t1 = t2), 1 <= t1 <= t2 <= T; index 0 unused."""
    memo = chain._memo_get("fast.reach")
    if memo is None:
        T, n = chain.T, chain.n
        R = np.zeros((T + 1, T + 1, n, n))
        eye = np.eye(n)
        for t1 in range(1, T + 1):
            R[t1, t1] = eye
            for t2 in range(t1 + 1, T + 1):
                R[t1, t2] = R[t1, t2 - 1] @ _A(chain, t2)
        memo = R
        chain._memo_set("fast.reach", memo)
    return memo


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


def _emissions(chain: MarkovChain, P: np.ndarray, outputs: Sequence[int | None]) -> np.ndarray:
    """Proposition 2's emission of every time as one (T x n) array: row t - 1 is ``b^(t)_{., o_t}``
    (``p^t`` for ⊥, ``(1 - p_i^t) e_i`` for a release of c_i, all ones where unobserved, i.e. past a prefix)."""
    o = output_prefix(chain, outputs)
    E = np.ones_like(P)
    E[:len(o)] = P[:len(o)]
    ts = [t for t, v in enumerate(o) if v is not None]
    if ts:
        vs = [o[t] for t in ts]
        E[ts] = 0.0
        E[ts, vs] = 1.0 - P[ts, vs]
    return E


def forward_backward(chain: MarkovChain, p: Any, outputs: Sequence[int | None]) -> tuple[np.ndarray, float]:
    """Eq. (3.3): ``(posteriors (T x n), Pr[o])`` for the probabilistic check's HMM (Proposition 2).

    As in the exact twin, an output shorter than T is a prefix o_1..o_e (later outputs unobserved: emission 1).
    With ``M_t = diag(b^(t)) A^(t+1)`` both recursions use the same matrices, ``α(t+1) = α(t) M_t`` and
    ``β(t) = M_t β(t+1)`` from ``β(T) = b^(T)``; step k advances α from t = k and β from t = T - k together
    as one product of the row ``[α | β^T]`` with the block-diagonal ``diag(M_k, M_{T-1-k}^T)``.
    """
    P = _p_array(chain, p)
    E = _emissions(chain, P, outputs)
    T, n = chain.T, chain.n
    init, steps = _arrays(chain)
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
    if total == 0:
        raise InvalidInput(f"output {tuple(outputs)!r} has probability 0; its posterior is undefined")
    return alpha * beta / total, total


def posterior_belief(chain: MarkovChain, p: Any, outputs: Sequence[int | None], t: int, s: Hashable) -> float:
    t, k = check_time(chain, t), chain.index(s)
    post, _ = forward_backward(chain, p, outputs)
    return clip_unit(post[t - 1][k])


def max_breach(chain: MarkovChain, p: Any, S: Iterable[Hashable], *, delta: object = None,
               cache: PassedCache | None = None, ops: OpCount | None = None) -> Breach:
    """Algorithm 3's maximum gain over the partial outputs of Lemma 4, vectorised over
    (start context i, sensitive s, end context j). With ``delta`` it returns as soon as a gain
    possibly exceeds δ (Line 21's early exit).

    ``cache`` is the store one search shares across its ISPRIVATE calls (as in the exact twin). The fast
    twin does not skip Lemma 5 triplets; it keeps there each pair's result and each start time's forward
    table, keyed by the rows of p they read, so a search that changes one coordinate of p at a time
    (greedy_mondrian) recomputes only what that row touches. The result never depends on the cache.
    With ``ops`` every pair is computed and counted (the cache is not used).

    Pairs (t1, t2) are visited in increasing order and a gain replaces the best only when strictly
    larger, so the breach returned is the first maximum (or, with δ, the first gain possibly above δ).
    The forward tables of a start time and the backward tables of an end time are built lazily, when
    a pair first needs them, so an early exit does not pay for the tables it never reads.
    """
    dstop = None if delta is None else float(check_delta(delta))
    P = _p_array(chain, p)
    sens = np.array(sensitive_indices(chain, S))
    T, n, ns = chain.T, chain.n, len(sens)
    init, steps = _arrays(chain)
    pri = prior_beliefs(chain)
    if ops is not None:
        ops.is_private_calls += 1
    best_gain, best_key = -1.0, (None, 0, None)
    # released sensitive states: posterior 1 (t = t1 or t = t2), all t at once. At t the posterior of s
    # given a release is 1 if s itself is released, else 0 (when some other context can be released).
    releasable = (pri > 0) & (P < 1)  # (T, n): contexts that can be released at t
    can = releasable[:, sens]
    others = (releasable.sum(axis=1)[:, None] - can.astype(int)) > 0
    g = np.where(can | others, np.where(can, 1.0, 0.0) - pri[:, sens], -1.0)  # (T, |S|)
    if dstop is not None:
        hit = np.flatnonzero(possibly_gt(g.max(axis=1), dstop))
        if len(hit):
            t, k = int(hit[0]), int(np.argmax(g[hit[0]]))
            return Breach(float(g[t, k]), ("release",), t + 1, chain.contexts[sens[k]])
    t, k = divmod(int(np.argmax(g)), ns)
    if g[t, k] > best_gain:
        best_gain, best_key = float(g[t, k]), (("release",), t + 1, chain.contexts[sens[k]])
    end_mask = P < 1  # (T, n): contexts an output may release at t2 (the pair's end)
    ends_any = end_mask.any(axis=1)
    prS = pri[:, sens]  # (T, |S|)
    harr: dict[int, np.ndarray] = {}

    def backward(t2: int) -> np.ndarray:
        """Harr[t] (|S| x n_j): Pr of suppressing t+1..t2-1 and reaching c_j at t2 (end: n_j = 1) from s at t."""
        if t2 not in harr:
            nj = 1 if t2 == T + 1 else n
            tab = np.zeros((T + 1, n, nj))
            last = min(t2 - 1, T)
            tab[last] = np.ones((n, 1)) if t2 == T + 1 else steps[t2 - 2]
            for t in range(last - 1, 0, -1):
                tab[t] = steps[t - 1] @ (P[t][:, None] * tab[t + 1])
                if ops is not None:
                    ops.mult_adds += n * n * nj
            harr[t2] = tab[:, sens, :]  # only sensitive rows are needed
        return harr[t2]

    buf = np.empty(T * n * ns * n)
    # Per (t1, t2), the pair's best (gain, key) depends only on P at times max(t1, 1)..min(t2, T): it is
    # kept in the search's cache with those rows.
    memo = None if cache is None or ops is not None else cache.entries.setdefault(("fast.max_breach", tuple(sens)), {})
    rowkeys = [P[t].tobytes() for t in range(T)] if memo is not None else []
    keep_forward = (T + 1) * T * n * n <= FORWARD_MEMO_FLOATS

    def forward(t1: int) -> tuple[np.ndarray, list]:
        """Farr[tau] (n_i x n): Pr of c_i at t1 (t1 = 0: start, then c at 1 suppressed), suppressing t1+1..tau
        and being in c at tau; ``keys[k]`` the P row of the time Farr's k-th computed row read (time 1 + k for
        t1 = 0, else t1 + 1 + k). Memoised with the memo: rows read from unchanged P rows are kept, the rest
        dropped (the caller extends the table as far as it needs)."""
        ent = memo.get(("F", t1)) if memo is not None else None
        if ent is None:
            Farr, keys = np.zeros((T + 1, 1 if t1 == 0 else n, n)), []
            if t1:
                Farr[t1] = np.eye(n)
            if memo is not None and keep_forward:
                memo[("F", t1)] = (Farr, keys)
        else:
            Farr, keys = ent
            lo = 1 if t1 == 0 else t1 + 1
            m = 0
            while m < len(keys) and keys[m] == rowkeys[lo - 1 + m]:
                m += 1
            del keys[m:]
        if t1 == 0 and not keys:
            Farr[1] = (init * P[0])[None, :]
            keys.append(rowkeys[0] if memo is not None else None)
        return Farr, keys
    for t1 in range(0, T):
        ni = 1 if t1 == 0 else n
        if t1 == 0:
            starts = np.array([True])
        else:
            starts = (pri[t1 - 1] > 0) & (P[t1 - 1] < 1)
            if not starts.any():
                continue
        Farr = keys = None
        for t2 in range(t1 + 2, T + 2):
            if t2 <= T and not ends_any[t2 - 1]:
                continue  # no end context: no valid pair
            if memo is not None:
                rows = rowkeys[max(t1, 1) - 1:min(t2, T)]
                hit = memo.get((t1, t2))
                if hit is not None and hit[0] == rows:
                    res = hit[1]
                    if res is not None and res[0] > best_gain:
                        best_gain, best_key = res
                        if dstop is not None and possibly_gt(best_gain, dstop):
                            return Breach(best_gain, best_key[0], best_key[1], best_key[2])
                    continue
            if Farr is None:
                Farr, keys = forward(t1)
            for tau in range(t1 + 1 + len(keys) if t1 else len(keys) + 1, t2):  # forward tables up to t2 - 1
                np.multiply(Farr[tau - 1] @ steps[tau - 2], P[tau - 1][None, :], out=Farr[tau])
                keys.append(rowkeys[tau - 1] if memo is not None else None)
                if ops is not None:
                    ops.mult_adds += ni * n * n
            if t2 == T + 1:
                D = Farr[T].sum(axis=1, keepdims=True)
                ends = np.array([True])
            else:
                D = Farr[t2 - 1] @ steps[t2 - 2]
                ends = end_mask[t2 - 1]
            valid = starts[:, None] & ends[None, :] & (D > 0)
            res = None
            if valid.any():
                every = valid.all()
                Dsafe = D if every else np.where(valid, D, 1.0)
                a, b = t1 + 1, t2
                nj = D.shape[1]
                gain = buf[: (b - a) * ni * ns * nj].reshape(b - a, ni, ns, nj)
                np.multiply(Farr[a:b][:, :, sens, None], backward(t2)[a:b, None, :, :], out=gain)
                np.divide(gain, Dsafe[None, :, None, :], out=gain)  # posteriors
                np.subtract(gain, prS[a - 1:b - 1, None, :, None], out=gain)
                if not every:
                    np.copyto(gain, -1.0, where=~valid[None, :, None, :])
                if ops is not None:
                    ops.beliefs += int(valid.sum()) * ns * (b - a)
                flat = int(gain.argmax())
                rest, kj = divmod(flat, nj)
                rest, ks = divmod(rest, ns)
                ktau, ki = divmod(rest, ni)
                i = None if t1 == 0 else ki
                j = END if t2 == T + 1 else kj
                res = (float(gain.flat[flat]), ((t1, i, t2, j), a + ktau, chain.contexts[sens[ks]]))
            if memo is not None:
                memo[(t1, t2)] = (rows, res)
            if res is not None and res[0] > best_gain:
                best_gain, best_key = res
                if dstop is not None and possibly_gt(best_gain, dstop):
                    return Breach(best_gain, best_key[0], best_key[1], best_key[2])
    return Breach(best_gain, best_key[0], best_key[1], best_key[2])


def is_private(chain: MarkovChain, p: Any, S: Iterable[Hashable], delta: object, *,
               cache: PassedCache | None = None, ops: OpCount | None = None) -> bool:
    """Conservative Algorithm 3: True only if every gain is certainly <= δ."""
    d = float(check_delta(delta))
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
    return [int(j) for j in np.nonzero(_from_last(chain, t_last, i_last)[t_now] > 0)[0]]


def _from_last(chain: MarkovChain, t_last: int, i_last: int | None) -> np.ndarray:
    """Row t = Pr[X_t = . | X_{t_last} = c_{i_last}] for t = t_last..T (rows before t_last unused)."""
    if t_last == 0:
        out = np.zeros((chain.T + 1, chain.n))
        out[1:] = prior_beliefs(chain)
        return out
    R = reach_table(chain)
    return R[t_last, :, i_last, :]


def _sensitive_tables(chain: MarkovChain, sens: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The slices of the reach table and the priors that Algorithm 5 reads, per (chain, S), memoised:
    ``idx`` (the sensitive indices), ``prS[t] = Pr[X_t = s]`` (row 0 unused), ``rows[t1, t2] = R[t1, t2][S, :]``
    and ``cols[t1, t2] = R[t1, t2][:, S]``."""
    key = ("fast.sensitive", sens)
    memo = chain._memo_get(key)
    if memo is None:
        idx = np.array(sens)
        R = reach_table(chain)
        prS = np.zeros((chain.T + 1, len(sens)))
        prS[1:] = prior_beliefs(chain)[:, idx]
        memo = (idx, prS, np.ascontiguousarray(R[:, :, idx, :]), np.ascontiguousarray(R[:, :, :, idx]))
        chain._memo_set(key, memo)
    return memo


def okay_to_release(chain: MarkovChain, S: Iterable[Hashable], delta: object, prefix: Sequence[int | None], *,
                    improved: bool = True, ops: OpCount | None = None) -> bool:
    """Algorithm 5 (and, with ``improved=False``, the extra times t <= t'' of Algorithm 4), vectorised
    over the possible states j, the sensitive contexts and the times; conservative.

    With c_{i''} released last at t'' and ``f(t) = Pr[X_t = . | X_{t''} = c_{i''}]``, the gains for a
    possible state c_j at t' are ``f_s(t) R[t, t']_{s, j} / f_j(t') - Pr[X_t = s]`` for t'' < t < t',
    ``[s = j] - Pr[X_{t'} = s]`` at t', and ``R[t', t]_{j, s} - Pr[X_t = s]`` for t > t'. The decision is
    one conservative comparison of their maximum with δ (``possibly_gt`` is monotone in the gain, so
    this equals comparing every gain)."""
    sens = sensitive_indices(chain, S)
    d = float(check_delta(delta))
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
    idx, prS, rows, cols = _sensitive_tables(chain, sens)
    fl_now = prior_beliefs(chain)[t_now - 1] if t_last == 0 else reach_table(chain)[t_last, t_now, i_last]
    poss = np.flatnonzero(fl_now > 0)
    if len(poss) == 0:
        raise InvalidInput(f"no context is possible at t = {t_now} after the released output {prefix!r}")
    ns, npos = len(sens), len(poss)
    # t = now: the released state itself (posterior 1 if s is the possible state j, else 0)
    best = [((fl_now[idx] > 0) - prS[t_now]).max()]
    size = ns * npos
    # t strictly between the last release and now
    if t_now - t_last > 1:
        ts = slice(t_last + 1, t_now)
        fS = prS[ts] if t_last == 0 else cols[t_last, ts, i_last]
        post = fS[:, :, None] * rows[ts, t_now][:, :, poss] / fl_now[poss][None, None, :]
        best.append((post - prS[ts][:, :, None]).max())
        size += (t_now - t_last - 1) * ns * npos
    # t after now: forward from the released state
    if t_now < T:
        best.append((cols[t_now, t_now + 1:][:, poss, :] - prS[t_now + 1:][:, None, :]).max())
        size += (T - t_now) * ns * npos
    if not improved:
        pri = prior_beliefs(chain)
        R = reach_table(chain)
        rel = [(t, o) for t, o in enumerate(prefix, start=1) if o is not None]
        marks = [(0, None)] + rel
        for k in range(len(marks) - 1):
            (t1, i1), (t2, j2) = marks[k], marks[k + 1]
            for t in range(t1 + 1, t2 + 1):
                a = (pri[t - 1] if t1 == 0 else R[t1, t][i1])[idx]
                b = R[t, t2][idx, j2]
                den = (pri[t2 - 1][j2] if t1 == 0 else R[t1, t2][i1, j2])
                best.append(np.max(a * b / den - pri[t - 1][idx]))
                size += ns
    if ops is not None:
        ops.beliefs += size
    g = max(best)
    if not all(v == v for v in best):  # a NaN gain: suppress
        return False
    return not bool(possibly_gt(g, d))


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
                g += sum(float(dist[j]) * gamma(int(j), nxt) for j in np.nonzero(dist > 0)[0])
            memo[(i, t)] = g
        return memo[(i, t)]

    return T - gamma(None, 0)


def greedy_mondrian(chain: MarkovChain, S: Iterable[Hashable], delta: object, d: int) -> tuple[np.ndarray, int]:
    """MONDRIAN-style greedy on the grid {0, 1/d, .., 1} with the conservative ISPRIVATE, on float arrays:
    returns (integer numerators k (p = k/d) as a T x n array, ISPRIVATE calls). Zero-prior states stay at 1."""
    d = check_grid(d)
    S = [chain.contexts[i] for i in sensitive_indices(chain, S)]
    check_delta(delta)
    pri = prior_beliefs(chain)
    coords = [(t, i) for t in range(chain.T) for i in range(chain.n) if pri[t, i] > 0]
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
