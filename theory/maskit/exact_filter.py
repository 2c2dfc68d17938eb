"""Algorithm 3's exact maximum with a floating-point filter (exact predicates, as in exact geometric computation).

Sources: 000_211156f2009240b4.txt §3.4.5 (Algorithm 3, Lemmas 3-4).

:func:`max_breach_filtered` returns exactly what Algorithm 3's plain loop
(:func:`privclaims.theory.maskit.exact.max_breach` without a cache, below the filter's size) returns without a cache - the same rational gain, the same witness (the first strict maximum in the
loop order t1, o_{t1}, t2, o_{t2}, t, s), the same early exit at the first gain > δ and the same
OpCount - but evaluates the n^2 T^3 |S| beliefs in float64, vectorised per (t1, t2) block, and
recomputes in rationals only the beliefs that can decide the result:

* Every float here is a sum of products of non-negative numbers (the chain, p, the forward vectors
  F and backward tables H of Lemma 3), or a quotient of two. Conversions from Q are correctly
  rounded (gmpy2.mpq and Fraction alike); with each rounding counted as ``2u`` (u = 2^-53, a
  conservative 2x), a sum of k non-negative terms in any order (BLAS, FMA) within relative
  ``γ_{k-1}``, and per forward or backward step at most n + 3 roundings (two conversions, one
  product, n - 1 additions, the p factor), F[t], H(t) and D carry at most T (n + 3) + n + 4 each,
  so a belief F H / D at most ``m = 3 (T + 2)(n + 4) + 8`` and relative error <= γ = 2mu / (1 - 2mu).
  The gain ``post - Pr[X_t = s]`` is a difference of two numbers in [0, 1]: it is bounded in
  absolute terms (no relative bound survives the cancellation), by γ (post <= 1) + 2u (the prior's
  conversion) + 2u (the subtraction's rounding) + 2^-1074 twice (underflow, next item) < γ + 5u;
  :func:`error_bound` returns ``ERR = 2γ + 8u``, so ERR exceeds the true error by more than u.
* Underflow: every positive entry of the chain and of p must be >= 2^-100 and every positive
  forward/backward float >= 2^-800. Then every product and sum that forms F, H and D is >= 2^-1000
  (normal, so the relative bounds hold) and is 0 exactly when the rational is 0, so D = 0 - which
  partial outputs exist, and the beliefs counted - is decided exactly; D >= 2^-900 and H <= 1 + γ
  keep H / D finite. Otherwise the function returns None and the caller runs the plain loop. Two
  roundings may still underflow and are taken as absolute errors <= 2^-1074: the final product
  F (H / D) (both factors may be near 2^-800) and the prior's conversion (priors are not certified
  and may be below 2^-1074, whence the float 0).
* A maximiser b* of the exact gain g* has float gain >= g* - e >= M - 2e (M the largest float gain,
  e the true error), so >= fl(M - 2 ERR) (the threshold's own rounding is <= 2u < 2 (ERR - e)); so
  does every belief whose exact gain ties g*, so the first of them in loop order is recomputed.
  A belief whose exact gain exceeds δ has float gain >= float(δ) - 2 ERR likewise. Only those
  candidates are recomputed exactly (:func:`privclaims.theory.maskit.partial_outputs.triplet_posterior` on the
  rational F, H, D of its ``forward_vectors`` / ``backward_table`` / ``partial_mass``), in loop
  order, the releases (t = t1 or t2, posterior 0 or 1) first to raise the threshold to their exact
  maximum; a posterior is 1 exactly when F[t][k] H(t)[k] = 0 for every k != s and 0 when F[t][s] H(t)[s] = 0,
  read from the zero patterns of the chain and p (such gains, and the releases', are looked up, not recomputed).
* Pruning (issue 25): the running maximum only grows, so a gain below (running maximum - 2 ERR) when it comes
  is neither a candidate nor the maximum, nor (if also below float(δ) - 2 ERR) an exit candidate. Per start time
  t1 the releases of every end come first (their gains ``[c = s] - Pr[X_t = s]`` need no F, H or D), and then
  only the interior columns (t, s) whose largest possible float gain reaches that threshold are computed: that
  is 0 where X_t = s is impossible (F[t][s] = 0 exactly, so the float posterior is 0 and the gain 0 - 0) and
  ``1 + 2 ERR - float(Pr[X_t = s])`` otherwise (the float posterior is at most 1 + γ, the gain's rounding below ERR).

Operation counts are those of the plain loop: ``beliefs`` = the triplets the loop evaluates up to
its exit, ``mult_adds`` = n^2 per vector-matrix product of Lemma 3's forward vectors (per possible
o_{t1} reached) and backward tables (every endpoint), as :func:`privclaims.theory.maskit.exact_base.vec_mat` counts.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from privclaims.theory.dp.delta_privacy import Breach
from privclaims.theory.maskit import partial_outputs as PO
from privclaims.theory.maskit.exact_base import OpCount, prior_beliefs
from privclaims.theory.maskit.fast import float_chain, prior_support
from privclaims.theory.maskit.model import MarkovChain
from privclaims.theory.numbers import ONE, ZERO

U = 2.0 ** -53
TINY = 2.0 ** -800  # smallest positive forward/backward float accepted
SMALLEST_ENTRY = 2.0 ** -100  # smallest positive chain or p entry accepted


def error_bound(n: int, T: int) -> float:
    """ERR: a bound on |float gain - exact gain| for any belief of Algorithm 3 (see the module text)."""
    k = 2 * (3 * (T + 2) * (n + 4) + 8) * U
    return 2 * k / (1 - k) + 8 * U


def _floats(rows: Sequence[Sequence[Any]]) -> np.ndarray:
    return np.array([[float(v) for v in r] for r in rows], dtype=float)


def _prior_floats(chain: MarkovChain) -> np.ndarray:
    """``float(Pr[X_t = c])`` (correctly rounded) of the exact priors, row t - 1, memoised on the chain."""
    memo = chain.memo_get("exact_filter.prior_floats")
    if memo is None:
        memo = _floats(prior_beliefs(chain))
        chain.memo_set("exact_filter.prior_floats", memo)
    return memo


class _Uncertified(Exception):
    """A positive float fell below TINY: the error bound does not hold."""


def _certify(a: np.ndarray) -> None:
    pos = a[a > 0]
    if pos.size and pos.min() < TINY:
        raise _Uncertified


def _backward_sens(steps: np.ndarray, P: np.ndarray, sens: np.ndarray, n: int, T: int) -> dict[int, np.ndarray]:
    """``Hs[t2][t] = H_{t2}(t)[sens, :]`` (|S| x n_j; n_j = 1 for "end") for t2 = 2..T+1, t = 1..t2-1."""
    out: dict[int, np.ndarray] = {}
    for t2 in range(2, T + 2):
        last = min(t2 - 1, T)
        tab = np.ones((n, 1)) if t2 == T + 1 else steps[t2 - 2].copy()
        rows = np.zeros((T + 1, len(sens), tab.shape[1]))
        rows[last] = tab[sens]
        for t in range(last - 1, 0, -1):
            tab = steps[t - 1] @ (P[t][:, None] * tab)
            _certify(tab)
            rows[t] = tab[sens]
        out[t2] = rows
    return out


def _mult_adds_backward(n: int, T: int) -> int:
    return sum((n if t2 <= T else 1) * n * n * max(0, min(t2 - 1, T) - 1) for t2 in range(1, T + 2))


def _mult_adds_forward(n: int, T: int, t1: int) -> int:
    return n * n * len(range(max(t1 + 1, 2), T + 1))


def max_breach_filtered(chain: MarkovChain, p: Sequence[Sequence[Any]], sens: Sequence[int], d: Any = None,
                        ops: OpCount | None = None) -> Breach | None:
    """Algorithm 3's plain loop (:func:`privclaims.theory.maskit.exact.max_breach` with no cache) by the float
    filter; None if the bound cannot be certified for this chain and p (nothing is counted in ``ops`` then)."""
    T, n = chain.T, chain.n
    init, steps = float_chain(chain)  # the fast twin's float chain, memoised on it (float(x) per entry)
    P = _floats(p)
    err = error_bound(n, T)
    if err > 1e-6 or any(a[a > 0].size and a[a > 0].min() < SMALLEST_ENTRY for a in (init, steps, P)):
        return None
    S = np.array(sens)
    nS = len(sens)
    reach = prior_support(chain)  # Pr[X_t = c] > 0 exactly, memoised on the chain
    can_release = np.array([[v < 1 for v in row] for row in p])
    pri_f = np.zeros((T + 1, nS))
    pri_f[1:] = _prior_floats(chain)[:, S]  # row t: Pr[X_t = s] in float (row 0 unused)
    # the largest float gain an interior belief (t1 < t < t2) at (t, s) can have: 0 where X_t = s is impossible
    # (F[t][s] = 0 exactly, so the float posterior is 0), else 1 + ERR - Pr[X_t = s] (post <= 1 + γ), plus ERR
    top = np.zeros((T + 1, nS))
    top[1:] = np.where(reach[:, S], 1.0 + 2 * err - pri_f[1:], 0.0)
    is_s = np.arange(n)[:, None] == S[None, :]  # (n, |S|): c_k is s (a release's posterior)
    d_f = None if d is None else float(d)
    try:
        Hs = _backward_sens(steps, P, S, n, T)
        scan = _Scan(chain, p, sens, d, ops, init > 0, steps > 0, P > 0, err, d_f)
        for t1 in range(0, T + 1):
            if t1 == 0:
                starts = np.array([True])
                Farr = np.zeros((T + 1, 1, n))
                if T >= 1:
                    Farr[1] = (init * P[0])[None, :]
            else:
                starts = reach[t1 - 1] & can_release[t1 - 1]
                if not starts.any():
                    continue
                Farr = np.zeros((T + 1, n, n))
                Farr[t1] = np.eye(n)
            for tau in range(max(t1 + 1, 2), T + 1):
                Farr[tau] = (Farr[tau - 1] @ steps[tau - 2]) * P[tau - 1][None, :]
                _certify(Farr[tau])
            FS = Farr[:, :, S]  # (T + 1, n_i, |S|)
            blocks = []  # (t2, D, valid) of the partial outputs starting at t1, in the loop's order
            for t2 in range(t1 + 1, T + 2):
                if t2 == T + 1:
                    D = Farr[T].sum(axis=1, keepdims=True) if t1 < T else np.ones((len(starts), 1))
                    ends = np.array([True])
                else:
                    D = init[None, :] if t2 == 1 else Farr[t2 - 1] @ steps[t2 - 2]
                    ends = can_release[t2 - 1]
                valid = starts[:, None] & ends[None, :] & (D > 0)
                if valid.any():
                    scan.count(t2, valid, (min(t2, T) - max(t1, 1) + 1) * nS)
                    blocks.append((t2, D, valid))
            # releases first (t = t1: posterior [i = s]; t = t2: [j = s]), exact up to the prior's rounding, for
            # all ends at once: they raise the threshold below which the interior need not be computed
            if blocks:
                t2s = np.array([t2 for t2, _, _ in blocks])
                V = np.zeros((len(blocks), len(starts), n), dtype=bool)  # valid, the end's column 0 for t2 = T + 1
                for b, (_, _, valid) in enumerate(blocks):
                    V[b, :, :valid.shape[1]] = valid
                ends_ok = t2s <= T
                scan.releases(t1, t2s, V, is_s - pri_f[t1] if t1 >= 1 else None,
                              np.where(ends_ok[:, None, None], is_s[None] - pri_f[np.minimum(t2s, T)][:, None, :], -np.inf))
            # the interior t1 < t < t2, only the columns (t, s) where a gain can reach the threshold
            for t2, D, valid in blocks:
                lo, hi = t1 + 1, min(t2 - 1, T)
                if lo > hi:
                    continue
                tt, ss = np.nonzero(top[lo:hi + 1] >= scan.threshold())
                if tt.size:
                    tt += lo
                    g = Hs[t2][tt, ss].T[None, :, :] / np.where(valid, D, 1.0)[:, :, None]  # (n_i, n_j, columns): H / D
                    g *= FS[tt, :, ss].T[:, None, :]  # F (H / D)
                    g -= pri_f[tt, ss][None, None, :]
                    np.copyto(g, -np.inf, where=~valid[:, :, None])
                    scan.block(t1, t2, g, tt, ss)
            found = scan.end_of_t1(t1, starts)
            if found is not None:
                return found
    except _Uncertified:
        return None
    return scan.finish()


class _Scan:
    """The candidates of the scan, in the plain loop's order (t1, i, t2, j, t, s), and its counts.

    Gains come in blocks ``g[i, j, c]`` of one (t1, t2) over some columns c = (t, s). A belief is a candidate
    for the result if its float gain is >= M - 2 ERR (M the largest float gain) and for the exit if >= δ - 2 ERR.
    The running maximum only grows, so a gain below the running maximum - 2 ERR when its block comes is never
    a candidate, nor the maximum: :meth:`threshold` is the least gain still worth computing."""

    def __init__(self, chain: MarkovChain, p: Sequence[Sequence[Any]], sens: Sequence[int], d: Any,
                 ops: OpCount | None, init_b: np.ndarray, steps_b: np.ndarray, P_b: np.ndarray,
                 err: float, d_f: float | None) -> None:
        self.chain, self.p, self.sens, self.d = chain, p, sens, d
        self.init_b, self.steps_b, self.P_b = init_b, steps_b.astype(float), P_b
        self.err, self.d_f = err, d_f
        self.support_memo: dict = {}
        self.ops = ops
        self.pri = prior_beliefs(chain)
        self.best_f = -np.inf
        self.cands: list[np.ndarray] = []  # rows (t1, i, t2, j, t, s_pos) with their float gains
        self.cand_g: list[np.ndarray] = []
        self.exit_rows: list[np.ndarray] = []
        self.blocks: list[tuple[int, int, np.ndarray]] = []  # (t2, valid, beliefs per valid partial output) of this t1
        self.beliefs = 0
        self.forward_mult_adds = 0  # of the t1 done so far
        self.forward_memo: dict = {}
        self.backward_memo: dict = {}
        self.known_memo: dict = {}

    def threshold(self) -> float:
        """The least float gain that can still be a candidate (for the result or for the exit)."""
        thr = self.best_f - 2 * self.err
        return thr if self.d_f is None else min(thr, self.d_f - 2 * self.err)

    def count(self, t2: int, valid: np.ndarray, per: int) -> None:
        """The block (t1, t2) evaluates ``per`` beliefs per valid partial output (the plain loop's count)."""
        self.blocks.append((t2, valid, per))

    @staticmethod
    def _rows(t1: int, t2: int, shape: tuple, k: np.ndarray, tt: np.ndarray, ss: np.ndarray) -> np.ndarray:
        i, j, c = np.unravel_index(k, shape)
        return np.stack([np.full_like(i, t1), i, np.full_like(i, t2), j, tt[c], ss[c]], axis=1)

    def block(self, t1: int, t2: int, gain: np.ndarray, tt: np.ndarray, ss: np.ndarray) -> None:
        """Gains ``gain[i, j, c]`` of the block (t1, t2) at the columns (tt[c], ss[c]) (-inf: no partial output)."""
        err = 2 * self.err
        m = float(gain.max())
        self._raise(m)
        flat = gain.reshape(-1)
        if m >= self.best_f - err:
            k = np.flatnonzero(flat >= self.best_f - err)
            self.cands.append(self._rows(t1, t2, gain.shape, k, tt, ss))
            self.cand_g.append(flat[k])
        if self.d_f is not None and m >= self.d_f - err:
            k = np.flatnonzero(flat >= self.d_f - err)
            if k.size:
                self.exit_rows.append(self._rows(t1, t2, gain.shape, k, tt, ss))

    def releases(self, t1: int, t2s: np.ndarray, V: np.ndarray, r1: np.ndarray | None, r2: np.ndarray) -> None:
        """The release gains of the blocks (t1, t2s[b]) over their valid partial outputs ``V[b, i, j]``: at t = t1,
        ``r1[i, s]`` (the same for every end; None for t1 = 0), at t = t2, ``r2[b, j, s]`` (the same for every
        start; -inf where t2 = T + 1, "end")."""
        rows_ok, ends_ok = V.any(axis=(0, 2)), V.any(axis=1)  # (n_i,), (blocks, n_j)
        m = float(r2[ends_ok].max()) if ends_ok.any() else -np.inf
        if r1 is not None and rows_ok.any():
            m = max(m, float(r1[rows_ok].max()))
        self._raise(m)
        thrs = [(self.best_f - 2 * self.err, True)]
        if self.d_f is not None:
            thrs.append((self.d_f - 2 * self.err, False))
        for thr, cand in thrs:
            parts = []
            if r1 is not None:  # the (i, s) above thr, then their valid (b, j)
                hi, hs = np.nonzero(r1 >= thr)
                if hi.size:
                    b, k, j = np.nonzero(V[:, hi, :])
                    i, s = hi[k], hs[k]
                    parts.append((b, i, j, s, np.full_like(b, t1), r1[i, s]))
            hb, hj, hs = np.nonzero(r2 >= thr)  # the (b, j, s) above thr, then their valid i
            if hb.size:
                k, i = np.nonzero(V[hb, :, hj])
                b, j, s = hb[k], hj[k], hs[k]
                parts.append((b, i, j, s, t2s[b], r2[b, j, s]))
            for b, i, j, s, t, g in parts:
                rows = np.stack([np.full_like(b, t1), i, t2s[b], j, t, s], axis=1)
                if cand:
                    self.cands.append(rows)
                    self.cand_g.append(g)
                else:
                    self.exit_rows.append(rows)

    def _raise(self, m: float) -> None:
        """A new gain m: the running maximum, and the candidates that fall out of reach."""
        if m > self.best_f:
            self.best_f = m
            keep = [g >= m - 2 * self.err for g in self.cand_g]
            self.cands = [c[k] for c, k in zip(self.cands, keep)]
            self.cand_g = [g[k] for g, k in zip(self.cand_g, keep)]

    def end_of_t1(self, t1: int, starts: np.ndarray) -> Breach | None:
        """The exit of Line 21 if some triplet of this t1 has exact gain > δ; else count the t1 and go on."""
        found = None
        if self.exit_rows:
            rows = _in_order(np.concatenate(self.exit_rows))
            found = self._first_above(rows, self.d)
            self.exit_rows = []
        n, T = self.chain.n, self.chain.T
        if found is None:
            self.beliefs += sum(int(v.sum()) * per for _, v, per in self.blocks)
            self.forward_mult_adds += int(starts.sum()) * _mult_adds_forward(n, T, t1)
            self.blocks = []
            return None
        g, r = found
        t1_, i, t2, j, t, s = (int(x) for x in r)
        before = 0  # beliefs evaluated before r within this t1: order (i, t2, j, t, s)
        for bt2, v, per in self.blocks:
            before += int(v[:i].sum()) * per
            if bt2 < t2:
                before += int(v[i].sum()) * per
            elif bt2 == t2:
                before += int(v[i, :j].sum()) * per
        a = max(t1, 1)
        before += (t - a) * len(self.sens) + s
        if self.ops is not None:
            self.ops.is_private_calls += 1
            self.ops.beliefs += self.beliefs + before + 1
            self.ops.mult_adds += (_mult_adds_backward(n, T) + self.forward_mult_adds
                                   + int(starts[:i + 1].sum()) * _mult_adds_forward(n, T, t1))
        return self._breach(g, r)

    def _first_above(self, rows: np.ndarray, d: Any) -> tuple[Any, np.ndarray] | None:
        """The first row (in order) whose exact gain exceeds d, with that gain; the gains known by a lookup
        (:meth:`_known_gains`) are read, and only other rows before the first known one above d are recomputed."""
        known, vals = self._known_gains(rows)
        at = np.flatnonzero(known)
        above = [k for k, v in zip(at.tolist(), vals) if v > d]
        stop = above[0] if above else len(rows)
        for k in np.flatnonzero(~known[:stop]):
            g = self._exact_gain(rows[k])
            if g > d:
                return g, rows[k]
        return (vals[int(np.count_nonzero(known[:stop]))], rows[stop]) if above else None

    def finish(self) -> Breach:
        n, T = self.chain.n, self.chain.T
        err = 2 * self.err
        if self.ops is not None:
            self.ops.is_private_calls += 1
            self.ops.beliefs += self.beliefs
            self.ops.mult_adds += _mult_adds_backward(n, T) + self.forward_mult_adds
        if not self.cands:
            return Breach(ZERO - 1, None, 0, None)
        rows, gf = np.concatenate(self.cands), np.concatenate(self.cand_g)
        keep = gf >= self.best_f - err
        rows, gf = rows[keep], gf[keep]
        order = np.lexsort(rows.T[::-1])
        rows, gf = rows[order], gf[order]
        # the gains known by a lookup (releases, posteriors 1 or 0 by the zero patterns) are exact at once; their
        # maximum bounds what the others must reach
        known, vals = self._known_gains(rows)
        exact: list[Any] = [None] * len(rows)
        for k, v in zip(np.flatnonzero(known).tolist(), vals):
            exact[k] = v
        lower = max(vals, default=None)
        other = ~known if lower is None else ~known & (gf >= float(lower) - err)
        for k in np.flatnonzero(other):
            exact[k] = self._exact_gain(rows[k])
        best = max(v for v in exact if v is not None)
        k = next(k for k, v in enumerate(exact) if v is not None and v == best)  # the first maximum in loop order
        return self._breach(best, rows[k])

    def _known_gains(self, rows: np.ndarray) -> tuple[np.ndarray, list[Any]]:
        """Which rows have a posterior known to be 1 or 0 without rationals, and their exact gains
        ``posterior - Pr[X_t = s]`` in row order (each (t, s, posterior) computed once): a release (t = t1 or t2)
        has posterior [c_k = s] (k = i at t1, j at t2); in between, the posterior F[t][s] H(t)[s] / D is 0 when
        F[t][s] H(t)[s] = 0 and 1 when F[t][k] H(t)[k] = 0 for every k != s (D > 0 being their sum), read from
        the zero patterns of the chain and p (:meth:`_support`), for all rows of one t1 (t2) at once."""
        t1, i, t2, j, t, s = rows.T
        sens = np.asarray(self.sens)
        at1, at2 = t == t1, t == t2
        code = np.full(len(rows), -1)  # the posterior: 1, 0 or -1 (unknown)
        rel = at1 | at2
        code[rel] = (np.where(at1, i, j)[rel] == sens[s[rel]]).astype(int)
        inner = np.flatnonzero(~rel)
        if inner.size:
            n, T = self.chain.n, self.chain.T
            both = np.zeros((inner.size, n), dtype=bool)
            for v in np.unique(t1[inner]):
                k = inner[t1[inner] == v]
                both[np.searchsorted(inner, k)] = self._support(("F", int(v)))[t[k], 0 if v == 0 else i[k]]
            for v in np.unique(t2[inner]):
                k = inner[t2[inner] == v]
                both[np.searchsorted(inner, k)] &= self._support(("H", int(v)))[t[k], :, 0 if v == T + 1 else j[k]]
            on_s = both[np.arange(inner.size), sens[s[inner]]]
            others = both.sum(axis=1) - on_s
            code[inner] = np.where(~on_s, 0, np.where(others == 0, 1, -1))
        known = code >= 0
        vals = []
        for tv, sv, c in zip(t[known].tolist(), s[known].tolist(), code[known].tolist()):
            key = (tv, sv, c)
            v = self.known_memo.get(key)
            if v is None:
                v = self.known_memo[key] = (ONE if c else ZERO) - self.pri[tv - 1][self.sens[sv]]
            vals.append(v)
        return known, vals

    def _key(self, r: np.ndarray) -> tuple:
        t1, i, t2, j = (int(x) for x in r[:4])
        return (t1, None if t1 == 0 else i, t2, PO.END if t2 == self.chain.T + 1 else j)

    def _breach(self, g: Any, r: np.ndarray) -> Breach:
        return Breach(g, self._key(r), int(r[4]), self.chain.contexts[self.sens[int(r[5])]])

    def _exact_gain(self, r: np.ndarray) -> Any:
        key_o = self._key(r)
        t1, i, t2, j = key_o
        t, s = int(r[4]), self.sens[int(r[5])]
        if t in (t1, t2):
            F = H = D = None
        elif self._posterior_is_one(key_o, t, s):
            return ONE - self.pri[t - 1][s]
        else:
            if (t1, i) not in self.forward_memo:
                self.forward_memo[(t1, i)] = PO.forward_vectors(self.chain, self.p, t1, i)
            if (t2, j) not in self.backward_memo:
                self.backward_memo[(t2, j)] = PO.backward_table(self.chain, self.p, t2, j)
            F, H = self.forward_memo[(t1, i)], self.backward_memo[(t2, j)]
            D = PO.partial_mass(self.chain, F, t1, t2, j)
        return PO.triplet_posterior(t, s, key_o, F, H, D) - self.pri[t - 1][s]

    def _posterior_is_one(self, key_o: tuple, t: int, s: int) -> bool:
        """Exactly: is ``F[t][k] H(t)[k] = 0`` for every k != s (so the posterior F[t][s] H(t)[s] / D is 1,
        D being Σ_k F[t][k] H(t)[k] > 0)? Decided on the zero patterns of the chain and p alone."""
        t1, i, t2, j = key_o
        both = self._support(("F", t1))[t, 0 if t1 == 0 else i] & self._support(("H", t2))[t, :, 0 if t2 == self.chain.T + 1 else j]
        both[s] = False
        return not both.any()

    def _support(self, key: tuple) -> np.ndarray:
        """Where the rational F of every start at t1 (key ("F", t1): ``[τ, i, k]``) or H of every end at t2
        (key ("H", t2): ``[t, k, j]``) is non-zero, from the zero patterns of the chain and p (one boolean
        product per time for all starts or ends at once)."""
        if key in self.support_memo:
            return self.support_memo[key]
        n, T = self.chain.n, self.chain.T
        A, Pb = self.steps_b, self.P_b
        if key[0] == "F":
            t1 = key[1]
            out = np.zeros((T + 1, 1 if t1 == 0 else n, n), dtype=bool)
            if t1 == 0:
                out[1] = self.init_b & Pb[0]
            else:
                out[t1] = np.eye(n, dtype=bool)
            for tau in range(max(t1 + 1, 2), T + 1):
                out[tau] = ((out[tau - 1].astype(float) @ A[tau - 2]) > 0) & Pb[tau - 1]
        else:
            t2 = key[1]
            last = min(t2 - 1, T)
            out = np.zeros((T + 1, n, 1 if t2 == T + 1 else n), dtype=bool)
            out[last] = True if t2 == T + 1 else A[t2 - 2] > 0
            for t in range(last - 1, 0, -1):
                out[t] = (A[t - 1] @ (Pb[t][:, None] & out[t + 1]).astype(float)) > 0
        self.support_memo[key] = out
        return out


def _in_order(rows: np.ndarray) -> np.ndarray:
    """Rows (t1, i, t2, j, t, s_pos) sorted in the plain loop's order."""
    if not len(rows):
        return rows
    return rows[np.lexsort(rows.T[::-1])]
