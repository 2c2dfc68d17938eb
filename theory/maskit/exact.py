"""MaskIt's beliefs and privacy checks in exact rational arithmetic (the reference twin).

Sources: 000_211156f2009240b4.txt §3.2-§3.6 (= 001_eb11505ae1399b83.txt §2-§5).

* :func:`prior_beliefs` - Proposition 1: ``Pr[X_t = c_i] = (A^(1) ... A^(t))_i``.
* :func:`transition_probability` - Eq. (3.2): ``Pr[X_{t2} = c_j | X_{t1} = c_i] = (e_i^T A^(t1+1) ... A^(t2))_j``.
* :func:`forward_backward` - Eq. (3.3) with the suppression emissions of Proposition 2
  (``b_{i,⊥} = p_i^t``, ``b_{i,i} = 1 - p_i^t``): ``Pr[X_t = c_i | o] = α_i(t)β_i(t) / Σ_j α_j(t)β_j(t)``.
* :func:`max_breach_naive` / :func:`is_private_naive` - ISPRIVATE of Algorithm 2 (all outputs).
* :func:`max_breach` / :func:`is_private` - ISPRIVATE of Algorithm 3: only the partial outputs
  ``o_{t1}, ⊥, ..., ⊥, o_{t2}`` of Lemma 4 (``o_{t1}`` in C ∪ {start}, ``o_{t2}`` in C ∪ {end}),
  forward vectors per ``(t1, c_i)`` and backward vectors per ``(t2, c_j)`` cached (Lemma 3), and
  the optional cache of passed triplets of Lemma 5. Without a cache, on chains of size n^2 T^3 >=
  :data:`FILTER_MIN_SIZE`, the loop runs as :mod:`privclaims.theory.maskit.exact_filter` (float scan with a proven
  error bound, rational recomputation of every candidate; the same result and OpCount as
  :func:`_max_breach_plain`, the loop as written).
* :func:`okay_to_release` - the simulatable check, Algorithm 4 (``improved=False``) or Algorithm 5,
  with posteriors from Corollary 1.
* :func:`simulatable_utility` - ``supp_i(t)``, the γ recursion and ``T - γ_start(0)`` (§3.6.1).

Every function here has a twin of the same name and signature in :mod:`privclaims.theory.maskit.fast`.
:func:`prior_beliefs` and the operation count live in :mod:`privclaims.theory.maskit.exact_base`, the partial
outputs of Algorithm 3 (Lemmas 3-5) in :mod:`privclaims.theory.maskit.partial_outputs`, where the float filter
reads them too; both are re-exported here.
"""

from __future__ import annotations

from typing import Any, Hashable, Iterable, Sequence

from privclaims.theory.dp.delta_privacy import Breach
from privclaims.theory.errors import InvalidInput
# OpCount, prior_beliefs, vec_mat (exact_base) and END, PassedCache, checked_cache, partial_outputs (partial_outputs)
# are part of this twin's API: callers keep reading them here.
from privclaims.theory.maskit.exact_base import OpCount, prior_beliefs, vec_mat
from privclaims.theory.maskit.exact_filter import max_breach_filtered
from privclaims.theory.maskit.model import (
    MarkovChain,
    check_delta,
    check_from,
    check_output,
    output_prefix,
    check_time,
    sensitive_indices,
    suppression_vector,
)
from privclaims.theory.maskit.partial_outputs import (
    END,
    PassedCache,
    checked_cache,
    partial_mass,
    partial_outputs,
    triplet_posterior,
)
from privclaims.theory.numbers import ONE, ZERO, Q
from privclaims.theory.validate import exponential_size, index


# --------------------------------------------------------------------------- Markov chain


def transition_probability(chain: MarkovChain, t1: int, i: int | None, t2: int) -> list[Any]:
    """Eq. (3.2): the distribution of ``X_{t2}`` given ``X_{t1} = c_i`` (t1 = 0 means "start", i ignored).

    ``0 <= t1 <= t2 <= T``; for t2 = t1 this is the unit vector e_i.
    """
    t1, i, t2 = check_from(chain, t1, i, t2)
    return _reach(chain, t1, i)[t2 - t1]


def _reach(chain: MarkovChain, t1: int, i: int | None) -> list[list[Any]]:
    """All of ``e_i A^(t1+1) ... A^(t2)`` for t2 = t1..T (memoised on the chain)."""
    key = ("exact.reach", t1, i if t1 else None)
    memo = chain.memo_get(key)
    if memo is not None:
        return memo
    if t1 == 0:
        vecs = [[ZERO] * chain.n] + [list(r) for r in prior_beliefs(chain)]
    else:
        if i is None or not 0 <= i < chain.n:
            raise InvalidInput(f"context index {i!r} out of range 0..{chain.n - 1}")
        v = [ONE if k == i else ZERO for k in range(chain.n)]
        vecs = [v]
        for t in range(t1 + 1, chain.T + 1):
            v = vec_mat(v, chain.steps[t - 2])
            vecs.append(v)
    chain.memo_set(key, vecs)
    return vecs


def joint_probability(chain: MarkovChain, x: Sequence[int]) -> Any:
    """``Pr[X_1..X_T = x] = Π_t a^(t)_{x_{t-1}, x_t}``."""
    if len(x) != chain.T:
        raise InvalidInput(f"stream of length {len(x)}, expected T = {chain.T}")
    if any(o is None for o in x):
        raise InvalidInput(f"stream {tuple(x)!r} contains ⊥ (None); an input stream has a context index at every t")
    x = check_output(chain, x)
    pr = chain.initial[x[0]]
    for t in range(2, chain.T + 1):
        pr *= chain.steps[t - 2][x[t - 2]][x[t - 1]]
    return pr


def input_streams(chain: MarkovChain) -> dict[tuple[int, ...], Any]:
    """Every input stream of positive probability with its probability (small chains only)."""
    out: dict[tuple[int, ...], Any] = {}

    def rec(prefix: tuple[int, ...], pr: Any) -> None:
        t = len(prefix) + 1
        if t > chain.T:
            out[prefix] = pr
            return
        row = chain.initial if t == 1 else chain.steps[t - 2][prefix[-1]]
        for j, a in enumerate(row):
            if a:
                rec(prefix + (j,), pr * a)

    rec((), ONE)
    return out


# --------------------------------------------------------------------------- HMM of Proposition 2


UNOBSERVED = "?"


def emission(p: Sequence[Sequence[Any]], t: int, k: int, o: int | None) -> Any:
    """Proposition 2: b^(t)_{k,o} = p_k^t if o = ⊥, 1 - p_k^t if o = k, 0 otherwise (1 if unobserved)."""
    if o is UNOBSERVED:
        return ONE
    if o is None:
        return p[t - 1][k]
    return ONE - p[t - 1][k] if o == k else ZERO


def forward_backward(chain: MarkovChain, p: Sequence[Sequence[object]], outputs: Sequence[int | None]) -> tuple[list[list[Any]], Any]:
    """Eq. (3.3): ``(posteriors, Pr[o])`` where ``posteriors[t-1][i] = Pr[X_t = c_i | o]``.

    An output shorter than T is a prefix o_1..o_e (later outputs unobserved: emission 1).

    α_i(1) = a^(1)_{start,i}; α_i(t) = Σ_j α_j(t-1) a^(t)_{j,i} b^(t-1)_{j,o_{t-1}};
    β_i(T+1) = 1;  β_i(t) = Σ_j b^(t)_{i,o_t} a^(t+1)_{i,j} β_j(t+1)  (a^(T+1)_{i,end} = 1).
    """
    p = suppression_vector(chain, p)
    o = output_prefix(chain, outputs) + (UNOBSERVED,) * (chain.T - len(outputs))
    T, n = chain.T, chain.n
    alpha = [list(chain.initial)]
    for t in range(2, T + 1):
        prev = alpha[-1]
        weighted = [prev[j] * emission(p, t - 1, j, o[t - 2]) for j in range(n)]
        alpha.append(vec_mat(weighted, chain.steps[t - 2]))
    beta = [[ZERO] * n for _ in range(T)]
    beta[T - 1] = [emission(p, T, i, o[T - 1]) for i in range(n)]
    for t in range(T - 1, 0, -1):
        nxt = beta[t]
        m = chain.steps[t - 1]
        beta[t - 1] = [emission(p, t, i, o[t - 1]) * sum((m[i][j] * nxt[j] for j in range(n) if m[i][j]), ZERO) for i in range(n)]
    total = sum((alpha[0][i] * beta[0][i] for i in range(n)), ZERO)
    if total == 0:
        raise InvalidInput(f"output {o!r} has probability 0; its posterior is undefined")
    post = [[alpha[t][i] * beta[t][i] / total for i in range(n)] for t in range(T)]
    return post, total


def posterior_belief(chain: MarkovChain, p: Sequence[Sequence[object]], outputs: Sequence[int | None], t: int, s: Hashable) -> Any:
    """``Pr[X_t = s | o]`` for the probabilistic check with suppression vector p (Proposition 2)."""
    t, k = check_time(chain, t), chain.index(s)
    post, _ = forward_backward(chain, p, outputs)
    return post[t - 1][k]


def _naive_guard(chain: MarkovChain, what: str) -> None:
    """Refuse at once to enumerate up to ``(n + 1)^T`` outputs beyond :data:`privclaims.theory.validate.ENUMERATION_LIMIT`."""
    exponential_size((chain.n + 1) ** chain.T, f"{what} (up to (n + 1)^T outputs, n = {chain.n}, T = {chain.T})",
                     "max_breach / is_private (Algorithm 3, polynomial: (n+1)^2 (T+2)^2 partial outputs)")


def output_distribution(chain: MarkovChain, p: Sequence[Sequence[object]]) -> dict[tuple, Any]:
    """Every output ``o_1..o_T`` of positive probability under the probabilistic check, with Pr[o]."""
    p = suppression_vector(chain, p)
    _naive_guard(chain, "output_distribution")
    T, n = chain.T, chain.n
    out: dict[tuple, Any] = {}

    def rec(prefix: tuple, f: list[Any]) -> None:
        # f_k = Pr[X_t = k, o_1..o_{t-1}] for t = len(prefix) + 1
        t = len(prefix) + 1
        for o in [None] + [k for k in range(n) if f[k]]:
            g = [f[k] * emission(p, t, k, o) for k in range(n)]
            if not any(g):
                continue
            if t == T:
                out[prefix + (o,)] = sum(g, ZERO)
            else:
                rec(prefix + (o,), vec_mat(g, chain.steps[t - 1]))

    rec((), list(chain.initial))
    return out


# --------------------------------------------------------------------------- ISPRIVATE, Algorithm 2


def max_breach_naive(chain: MarkovChain, p: Sequence[Sequence[object]], S: Iterable[Hashable]) -> Breach:
    """Algorithm 2's ISPRIVATE as a maximum: over all outputs of positive probability, all t and
    s in S, the largest ``Pr[X_t = s | o] - Pr[X_t = s]`` (exponential in T: refused at once beyond
    :data:`privclaims.theory.validate.ENUMERATION_LIMIT` outputs)."""
    sens = sensitive_indices(chain, S)
    _naive_guard(chain, "max_breach_naive")
    pri = prior_beliefs(chain)
    best: Breach | None = None
    for o in output_distribution(chain, p):
        post, _ = forward_backward(chain, p, o)
        for t in range(1, chain.T + 1):
            for s in sens:
                g = post[t - 1][s] - pri[t - 1][s]
                if best is None or g > best.gain:
                    best = Breach(g, o, t, chain.contexts[s])
    assert best is not None
    return best


def is_private_naive(chain: MarkovChain, p: Sequence[Sequence[object]], S: Iterable[Hashable], delta: object) -> bool:
    """Algorithm 2: True iff no output, time and sensitive context has posterior - prior > δ."""
    d = check_delta(delta)
    return max_breach_naive(chain, p, S).gain <= d


# --------------------------------------------------------------------------- ISPRIVATE, Algorithm 3


def partial_posterior(chain: MarkovChain, p: Sequence[Sequence[object]], t1: int, i: int | None, t2: int,
                      j: int | str | None, t: int) -> list[Any] | None:
    """``Pr[X_t = . | o_{t1} = c_i, ⊥, ..., ⊥, o_{t2} = c_j]`` as computed by Algorithm 3 (t1 = 0: start,
    t2 = T + 1: end, ``j = None`` with ``t2 = e``: the trailing partial output o_{t1}, ⊥ (to e)),
    or None when the partial output has probability 0."""
    p = suppression_vector(chain, p)
    if j is None:  # trailing: o_{t1}, ⊥ .. ⊥ up to time t2 = e, nothing observed after
        prefix = [UNOBSERVED] * chain.T
        for tau in range(t1 + 1, t2 + 1):
            prefix[tau - 1] = None
        if t1:
            prefix[t1 - 1] = i
        return _conditional(chain, p, prefix, t, condition=(t1, i))
    for a, b, c, d, D, F, H in partial_outputs(chain, p):
        if (a, b, c, d) == (t1, i, t2, j):
            if t == t1:
                return [ONE if k == i else ZERO for k in range(chain.n)]
            if t == t2:
                return [ONE if k == j else ZERO for k in range(chain.n)]
            return [F[t][k] * H[t][k] / D for k in range(chain.n)]
    return None


WITNESS_MAX_BITS = 20_000  # confirmed_breach gives up when a belief's rational needs more bits than this


class WitnessTooLarge(Exception):
    """:func:`witness_belief` stopped: a rational it carries grew past ``max_bits``."""


def _sized(v: list[Any], max_bits: int | None) -> list[Any]:
    if max_bits is not None and any(x and int(x.denominator).bit_length() > max_bits for x in v):
        raise WitnessTooLarge(max_bits)
    return v


def witness_belief(chain: MarkovChain, p: Sequence[Sequence[object]], output: Any, t: int, s: int, *,
                   max_bits: int | None = None) -> tuple[Any, Any] | None:
    """``(Pr[X_t = c_s | output], Pr[X_t = c_s])`` in rationals for one output of a breach: a partial output
    ``(t1, i, t2, j)`` of Algorithm 3 (as :func:`max_breach` and its float twin store it) or ``("release",)``
    (c_s itself released at t: posterior 1); None when that output has probability 0. Only the steps the belief
    reads (the prior up to t, the forward vector from t1 and the backward one from t2 to t), not the whole check:
    how a float twin's candidate breach is confirmed, or not, exactly. With ``max_bits`` it raises
    :class:`WitnessTooLarge` as soon as a denominator it carries needs more bits (the rationals of a long chain grow
    with every step)."""
    p = suppression_vector(chain, p)
    t = check_time(chain, t)
    s = index(s, chain.n, "s")
    T, n = chain.T, chain.n
    rows = [list(chain.initial)]  # Proposition 1, up to t only
    for tau in range(2, t + 1):
        rows.append(_sized(vec_mat(rows[-1], chain.steps[tau - 2]), max_bits))
    prior = rows[t - 1][s]
    if prior == 0:
        return None
    if output == ("release",):
        return (ONE, prior) if p[t - 1][s] < 1 else None
    t1, i, t2, j = output
    if not (t1 <= t <= t2 and (t1 == 0 or (rows[t1 - 1][i] > 0 and p[t1 - 1][i] < 1))
            and (j == END or p[t2 - 1][j] < 1)):
        return None
    last = T if j == END else t2 - 1
    upto = last if t in (t1, t2) else t  # at a release only D, the probability of the output, is needed
    f = None if t1 == 0 else [ONE if k == i else ZERO for k in range(n)]  # F[tau] of partial_outputs
    for tau in range(t1 + 1, upto + 1):
        base = list(chain.initial) if tau == 1 else vec_mat(f, chain.steps[tau - 2])
        f = _sized([base[k] * p[tau - 1][k] for k in range(n)], max_bits)
    if t in (t1, t2):  # a release at t: posterior 1 for the context released, 0 for the others
        D = partial_mass(chain, {last: f}, t1, t2, j)
        return None if D == 0 else (ONE if (t, s) in ((t1, i), (t2, j)) else ZERO, prior)
    h = [ONE] * n if j == END else [chain.steps[t2 - 2][k][j] for k in range(n)]  # H(last)
    for tau in range(last - 1, t - 1, -1):
        weighted = [p[tau][k] * h[k] for k in range(n)]
        h = _sized([sum((chain.steps[tau - 1][k][l] * weighted[l] for l in range(n) if chain.steps[tau - 1][k][l]),
                        ZERO) for k in range(n)], max_bits)
    D = sum((f[k] * h[k] for k in range(n)), ZERO)
    return None if D == 0 else (f[s] * h[s] / D, prior)


def confirmed_breach(chain: MarkovChain, p: Sequence[Sequence[object]], candidate: Breach,
                     delta: object) -> tuple[Breach, Any] | None:
    """The candidate breach of a float twin (its output, t and s; its float gain is not read) with its exact
    gain, and the exact prior Pr[X_t = s], when the gain exceeds δ: a witness that the policy is not δ-private. None when it does not (the float
    gain was within rounding doubt of δ, or a cautious bound where floats underflow, not a gain any output
    attains), the candidate names no output, or confirming it needs rationals of more than
    :data:`WITNESS_MAX_BITS` bits: the float twin's "not private" is then only "not certified"."""
    d = check_delta(delta)
    if candidate.output is None:
        return None
    try:
        w = witness_belief(chain, p, candidate.output, candidate.t, chain.index(candidate.s), max_bits=WITNESS_MAX_BITS)
    except WitnessTooLarge:  # not confirmed: the door says the float twin could not certify either way
        return None
    if w is None or w[0] - w[1] <= d:
        return None
    return Breach(w[0] - w[1], candidate.output, candidate.t, candidate.s), w[1]


def _conditional(chain: MarkovChain, p: Sequence[Sequence[Any]], pattern: Sequence[Any], t: int, condition: tuple) -> list[Any] | None:
    """Posterior of X_t given a pattern of emissions (UNOBSERVED / ⊥ / index), conditioning on
    X_{t1} = c_i instead of its release emission (the α(t1) = e_i of the text)."""
    t1, i = condition
    T, n = chain.T, chain.n
    pat = list(pattern)
    joint = [ZERO] * n
    total = ZERO
    for x, px in input_streams(chain).items():
        if t1 and x[t1 - 1] != i:
            continue
        w = px
        for tau in range(1, T + 1):
            if t1 and tau == t1:
                continue
            w *= emission(p, tau, x[tau - 1], pat[tau - 1])
            if not w:
                break
        if w:
            total += w
            joint[x[t - 1]] += w
    if total == 0:
        return None
    return [v / total for v in joint]


def max_breach(chain: MarkovChain, p: Sequence[Sequence[object]], S: Iterable[Hashable], *,
               delta: object = None, cache: PassedCache | None = None, ops: OpCount | None = None) -> Breach:
    """Algorithm 3's ISPRIVATE as a maximum over partial outputs (Lemma 4: the same maximum as
    Algorithm 2). With ``delta`` given it stops at the first triplet with gain > δ (Line 21), skips
    triplets cached as passed under a dominated vector (Line 18) and records passed ones (Line 24).

    Without a cache, on chains of size ``n^2 T^3 >= FILTER_MIN_SIZE``, the loop runs as
    :func:`privclaims.theory.maskit.exact_filter.max_breach_filtered` (the same triplets in the same order,
    floating-point gains with a proven error bound deciding only what they certainly decide, every
    candidate for the result recomputed in rationals): the same Breach and OpCount as
    :func:`_max_breach_plain`, which runs otherwise (and whenever the bound cannot be certified).
    """
    p = suppression_vector(chain, p)
    sens = sensitive_indices(chain, S)
    d = None if delta is None else check_delta(delta)
    cache = checked_cache(cache)
    if cache is None and chain.n * chain.n * chain.T ** 3 >= FILTER_MIN_SIZE:
        found = max_breach_filtered(chain, p, sens, d, ops)
        if found is not None:
            return found
    return _max_breach_plain(chain, p, sens, d, cache, ops)


# Below this size of n^2 T^3 the plain loop is as fast as the filtered one (numpy set-up per block).
FILTER_MIN_SIZE = 20_000


def _max_breach_plain(chain: MarkovChain, p: Sequence[Sequence[Any]], sens: Sequence[int], d: Any = None,
                     cache: PassedCache | None = None, ops: OpCount | None = None) -> Breach:
    """Algorithm 3's loop as written (validated p, sensitive indices, δ or None): every triplet
    ⟨t, s, partial output⟩ of :func:`partial_outputs` in order, its belief in rational arithmetic,
    the first strict maximum kept (Line 21's exit at the first gain > δ, Lemma 5's cache)."""
    pri = prior_beliefs(chain)
    T = chain.T
    if ops is not None:
        ops.is_private_calls += 1
    best = Breach(ZERO - 1, None, 0, None)
    for t1, i, t2, j, D, F, H in partial_outputs(chain, p, ops):
        key_o = (t1, i, t2, j)
        for t in range(max(t1, 1), min(t2, T) + 1):
            for s in sens:
                key = (t, s, key_o)
                if cache is not None and cache.passed_under_dominated(chain, d, key, p):
                    if ops is not None:
                        ops.skipped_by_cache += 1
                    continue
                post = triplet_posterior(t, s, key_o, F, H, D)
                if ops is not None:
                    ops.beliefs += 1
                g = post - pri[t - 1][s]
                if g > best.gain:
                    best = Breach(g, key_o, t, chain.contexts[s])
                if d is not None:
                    if g > d:
                        return best
                    if cache is not None:
                        cache.add(chain, d, key, p)
    return best


def is_private(chain: MarkovChain, p: Sequence[Sequence[object]], S: Iterable[Hashable], delta: object, *,
               cache: PassedCache | None = None, ops: OpCount | None = None) -> bool:
    """Algorithm 3 (improved ISPRIVATE): True iff p preserves δ-privacy (Definition 6)."""
    d = check_delta(delta)
    return max_breach(chain, p, S, delta=d, cache=cache, ops=ops).gain <= d


def privacy_level(chain: MarkovChain, p: Sequence[Sequence[object]], S: Iterable[Hashable]) -> Any:
    """privacy(p) of §3.4.2: the smallest δ for which p preserves δ-privacy, ``max(0, max gain)``."""
    g = max_breach(chain, p, S).gain
    return g if g > 0 else ZERO


def utility(chain: MarkovChain, p: Sequence[Sequence[object]]) -> Any:
    """utility(p) = Σ_{t, i} Pr[X_t = c_i] (1 - p_i^t): the expected number of released states."""
    p = suppression_vector(chain, p)
    pri = prior_beliefs(chain)
    return sum((pri[t][i] * (ONE - p[t][i]) for t in range(chain.T) for i in range(chain.n)), ZERO)


# --------------------------------------------------------------------------- simulatable check


def possible_states(chain: MarkovChain, t_last: int, i_last: int | None, t_now: int) -> list[int]:
    """§3.5.1: c_j is possible at t' iff ``(e_{o_{t''}} A^(t''+1) ... A^(t'))_j > 0``."""
    return [j for j, v in enumerate(transition_probability(chain, t_last, i_last, t_now)) if v > 0]


def simulatable_posterior(chain: MarkovChain, t: int, s: int, t1: int, i1: int | None, t2: int, j2: int | None) -> Any:
    """Corollary 1: ``Pr[X_t = s | X_{t1} = o_{t1}, X_{t2} = o_{t2}]`` with t1 <= t <= t2
    (t1 = 0: "start"; t2 = T + 1: "end", whose factors are 1)."""
    t1, i1, _ = check_from(chain, t1, i1, t1)
    t2 = check_time(chain, t2, "t2", lo=t1, hi=chain.T + 1)
    t = check_time(chain, t, "t", lo=max(t1, 1), hi=t2)
    s = index(s, chain.n, "s (context index)")
    if t2 <= chain.T:
        j2 = index(j2, chain.n, "j2 (context index)")
    return _simulatable_posterior(chain, t, s, t1, i1, t2, j2)


def _simulatable_posterior(chain: MarkovChain, t: int, s: int, t1: int, i1: int | None, t2: int, j2: int | None) -> Any:
    """:func:`simulatable_posterior` on arguments already checked (Algorithm 4/5's inner loop validates once per call)."""
    if t == t1:
        return ONE if s == i1 else ZERO
    if t == t2:
        return ONE if s == j2 else ZERO
    a = _reach(chain, t1, i1)[t - t1][s]
    if t2 == chain.T + 1:
        return a
    b = _reach(chain, t, s)[t2 - t][j2]
    den = _reach(chain, t1, i1)[t2 - t1][j2]
    return a * b / den


def releases(prefix: Sequence[int | None]) -> list[tuple[int, int]]:
    """The releases ``(t, context index)`` of an output prefix, in time order (⊥ = None skipped)."""
    return [(t, o) for t, o in enumerate(prefix, start=1) if o is not None]


def okay_to_release(chain: MarkovChain, S: Iterable[Hashable], delta: object, prefix: Sequence[int | None], *,
                    improved: bool = True, ops: OpCount | None = None) -> bool:
    """The simulatable check's okayToRelease(·, t', o) with t' = len(prefix) + 1.

    Algorithm 4 (``improved=False``) checks every possible state c_j at t', s in S and t in [T];
    Algorithm 5 only t in [t''+1, T] (t'' the last release; Lemma 9). False iff some
    ``Pr[X_t = s | ⟨o, c_j⟩] - Pr[X_t = s] > δ`` (posteriors by Proposition 5 / Corollary 1).
    """
    sens = sensitive_indices(chain, S)
    d = check_delta(delta)
    prefix = check_output(chain, prefix, len(prefix))
    t_now = len(prefix) + 1
    if t_now > chain.T:
        raise InvalidInput(f"prefix of length {len(prefix)}: nothing left to release (T = {chain.T})")
    rel = releases(prefix)
    t_last, i_last = rel[-1] if rel else (0, None)
    pri = prior_beliefs(chain)
    t_from = t_last + 1 if improved else 1
    for j in possible_states(chain, t_last, i_last, t_now):
        marks = [(0, None)] + rel + [(t_now, j), (chain.T + 1, None)]
        for s in sens:
            for t in range(t_from, chain.T + 1):
                k = max(idx for idx, (tm, _) in enumerate(marks) if tm <= t)
                t1, i1 = marks[k]
                t2, j2 = marks[k + 1] if t1 < t else marks[k]
                if ops is not None:
                    ops.beliefs += 1
                if _simulatable_posterior(chain, t, s, t1, i1, t2, j2) - pri[t - 1][s] > d:
                    return False
    return True


def _okay_after(chain: MarkovChain, sens: Sequence[int], d: Any, t_last: int, i_last: int | None, t_now: int) -> bool:
    """okayToRelease of Algorithm 5 when the last release was c_{i_last} at t_last (Claim 7: nothing else matters)."""
    prefix = [None] * (t_now - 1)
    if t_last:
        prefix[t_last - 1] = i_last
    return okay_to_release(chain, [chain.contexts[s] for s in sens], d, prefix)


def supp(chain: MarkovChain, S: Iterable[Hashable], delta: object, i: int | None, t: int) -> int:
    """supp_i(t) (§3.6.1): how many ⊥ follow the release of c_i at t (t = 0: "start")."""
    sens = sensitive_indices(chain, S)
    d = check_delta(delta)
    t, i, _ = check_from(chain, t, i, t, t2_name="t")
    return _supp(chain, sens, d, i, t)


def _supp(chain: MarkovChain, sens: Sequence[int], d: Any, i: int | None, t: int) -> int:
    key = ("exact.supp", tuple(sens), d, i, t)
    memo = chain.memo_get(key)
    if memo is not None:
        return memo
    k = 0
    while t + k + 1 <= chain.T and not _okay_after(chain, sens, d, t, i, t + k + 1):
        k += 1
    chain.memo_set(key, k)
    return k


def simulatable_utility(chain: MarkovChain, S: Iterable[Hashable], delta: object) -> Any:
    """utility^Simulatable(M) = T - γ_start(0), γ_i(t) = supp_i(t) + Σ_j Pr[X_{t+supp+1} = c_j | X_t = c_i] γ_j(t+supp+1)."""
    sens = sensitive_indices(chain, S)
    d = check_delta(delta)
    memo: dict = {}

    def gamma(i: int | None, t: int) -> Any:
        if t == chain.T + 1:
            return ZERO
        if (i, t) in memo:
            return memo[(i, t)]
        k = _supp(chain, sens, d, i, t)
        nxt = t + k + 1
        g = Q(k)
        if nxt <= chain.T:
            dist = transition_probability(chain, t, i, nxt)
            g += sum((dist[j] * gamma(j, nxt) for j in range(chain.n) if dist[j]), ZERO)
        memo[(i, t)] = g
        return g

    return Q(chain.T) - gamma(None, 0)


def hybrid_pick(probabilistic_utility: object, simulatable_utility: object) -> str:
    """The hybrid check (000_211156f2009240b4.txt Theorem 6; 001_eb11505ae1399b83.txt §5, Theorem 5): run the check whose expected
    utility (expected number of released contexts per day) is larger — ``"probabilistic"`` if
    ``U_prob > U_sim``, else ``"simulatable"`` (ties go to the simulatable check, which needs no policy)."""
    return "probabilistic" if Q(probabilistic_utility) > Q(simulatable_utility) else "simulatable"

