"""The equivalences the fast MaskIt twin's speed-ups rely on (issue 17):

* ``okay_to_release`` decides by one conservative comparison of the maximum gain: on random small
  chains its decisions equal the exact twin's (δ = k/1009, a denominator no chain probability here
  shares, so no gain sits on the boundary posterior - prior = δ where the fast twin may suppress more).
* ``max_breach`` keeps each (t1, t2) pair's result and each forward table in a search's cache with the
  P rows they read: along a walk that changes one coordinate at a time (what greedy_mondrian does) the
  breach, decision included, equals the computation without the cache.
* Counting: with ``ops`` and a search's cache, ``max_breach``, ``is_private`` and the generic greedy count the same
  calls, beliefs and multiply-adds as without the cache (a pair the cache holds adds the work it takes without it).
* ``greedy_mondrian`` (which shares one cache across its calls, and whose ISPRIVATE first tries the
  pair that breached in the previous call) returns the same K and the same number
  of ISPRIVATE calls as the generic greedy of :mod:`privclaims.theory.maskit.search` over the fast ISPRIVATE
  without a cache.
* ``forward_backward`` (both passes through the shared ``diag(b^(t)) A^(t+1)``) equals the exact twin
  on outputs and on prefixes of outputs.
* Underflow: on chains with entries 10^-k (k = 150..400) float priors, reach products and normalisers
  underflow where the exact values are positive; the fast twin's "possible" sets still equal the exact
  ones, and its decisions stay at least as cautious (fast private => exact private, fast release =>
  exact release).
* The no-underflow certificate of ``max_breach`` (``(min entry * min p)^T >= 2^-899``): the support of every
  normaliser D equals exact D > 0, certified D are at least the floor in float, and on the extremal chain
  (D = (a q)^T) the certificate holds exactly when D >= 2^-899. ``forward_backward``'s release emission
  1 - p keeps its relative accuracy (p = 1 - 10^-400).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from privclaims.counterexamples.maskit_strategies import chains, grid_vectors, instances, underflow_chains
from privclaims.theory.errors import InvalidInput
from privclaims.theory.maskit import exact as E
from privclaims.theory.maskit import fast as F
from privclaims.theory.maskit import search
from privclaims.theory.floats import UNDERFLOW_FLOOR
from privclaims.theory.maskit.model import markov_chain, suppression_vector
from privclaims.theory.maskit.partial_outputs import END
from privclaims.theory.maskit.system import SimulatableCheck, maskit
from privclaims.theory.numbers import Q


@st.composite
def off_boundary(draw, max_n: int = 4, max_T: int = 5):
    ch = draw(chains(max_n, max_T))
    k = draw(st.integers(1, ch.n))
    S = sorted(draw(st.permutations(list(ch.contexts)))[:k])
    return ch, S, Q(draw(st.integers(1, 1008)), 1009)


@given(off_boundary())
def test_okay_to_release_fast_equals_exact(inst):
    ch, S, d = inst
    for x in list(E.input_streams(ch))[:6]:
        o = maskit(ch, SimulatableCheck(ch, S, d), x)
        for tn in range(1, ch.T + 1):
            pre = o[: tn - 1]
            assert F.okay_to_release(ch, S, d, pre) == E.okay_to_release(ch, S, d, pre), (pre, d)
            assert F.okay_to_release(ch, S, d, pre, improved=False) == E.okay_to_release(ch, S, d, pre, improved=False)


def _same(a, b) -> bool:
    return (a.gain, a.output, a.t, a.s) == (b.gain, b.output, b.t, b.s)


_COORDINATE_VALUES = st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0])  # built once, not at every draw (issue 25)
_DELTAS = st.sampled_from([None, Q(1, 10), Q(1, 3), Q(9, 10)])


def _walk(ch, data, steps: int):
    """``(S, P, δ)`` for a drawn sensitive set S along a walk of ``steps`` suppression arrays P from all ones, each
    changing one coordinate of the one before (what a greedy search's ISPRIVATE calls see), each with a drawn δ
    (None: no early exit)."""
    S = sorted(data.draw(st.permutations(list(ch.contexts)))[: data.draw(st.integers(1, ch.n))])
    P = np.ones((ch.T, ch.n))
    for _ in range(steps):
        t, i = data.draw(st.integers(0, ch.T - 1)), data.draw(st.integers(0, ch.n - 1))
        P = P.copy()
        P[t, i] = data.draw(_COORDINATE_VALUES)
        yield S, P, data.draw(_DELTAS)


@given(chains(max_n=4, max_T=6), st.data())
def test_max_breach_with_search_cache_equals_fresh_computation(ch, data):
    cache = E.PassedCache()
    for S, P, delta in _walk(ch, data, 12):
        cached = F.max_breach(ch, P, S, delta=delta, cache=cache)
        fresh = F.max_breach(ch, P, S, delta=delta)
        assert _same(cached, fresh), (P, delta, cached, fresh)
        assert F.is_private(ch, P, S, Q(1, 10), cache=cache) == F.is_private(ch, P, S, Q(1, 10))


def _counts(ops):
    return ops.is_private_calls, ops.beliefs, ops.mult_adds


@given(st.one_of(chains(max_n=4, max_T=6), underflow_chains(max_n=3, max_T=5)), st.data())
def test_the_search_cache_changes_no_count(ch, data):
    """Along a walk changing one coordinate at a time, ``max_breach`` and ``is_private`` counting their work with a
    search's cache count what they count without it (the same calls, beliefs and multiply-adds, call by call), and
    return the same breach: a pair the cache holds adds the work it takes without the cache. The walks run on chains
    whose normalisers may underflow too (weak pairs: their beliefs are counted)."""
    cache = E.PassedCache()
    for S, P, delta in _walk(ch, data, 10):
        with_cache, without = E.OpCount(), E.OpCount()
        assert _same(F.max_breach(ch, P, S, delta=delta, cache=cache, ops=with_cache),
                     F.max_breach(ch, P, S, delta=delta, ops=without))
        assert _counts(with_cache) == _counts(without), (P, delta)
        if delta is not None:
            with_cache, without = E.OpCount(), E.OpCount()
            assert (F.is_private(ch, P, S, delta, cache=cache, ops=with_cache)
                    == F.is_private(ch, P, S, delta, ops=without))
            assert _counts(with_cache) == _counts(without), (P, delta)


@given(instances(max_n=3, max_T=4), st.sampled_from([2, 3, 10]), st.booleans())
def test_greedy_with_a_search_cache_counts_and_ends_alike(inst, d, keep_forward):
    """The generic greedy over the fast twin with one cache shared by its ISPRIVATE calls (what the MaskIt
    experiments run) returns the vector, the calls and the counted work of the search without a cache, whether
    the cache keeps the forward tables or (above FORWARD_MEMO_FLOATS, forced here) only the pairs' results."""
    from unittest import mock

    ch, _, S, delta = inst
    ops_a, ops_b = E.OpCount(), E.OpCount()
    with mock.patch.object(F, "FORWARD_MEMO_FLOATS", F.FORWARD_MEMO_FLOATS if keep_forward else 0):
        a = search.greedy_mondrian(ch, S, delta, d, twin=F, ops=ops_a, cache=E.PassedCache())
    b = search.greedy_mondrian(ch, S, delta, d, twin=F, ops=ops_b)
    assert (a.p, a.utility, a.is_private_calls) == (b.p, b.utility, b.is_private_calls)
    assert _counts(ops_a) == _counts(ops_b)


class _Uncached:
    """The fast ISPRIVATE without a search cache."""

    @staticmethod
    def is_private(chain, p, S, delta):
        return F.is_private(chain, p, S, delta)


@given(instances(max_n=3, max_T=4))
def test_greedy_mondrian_equals_generic_greedy(inst):
    ch, _, S, d = inst
    K, calls = F.greedy_mondrian(ch, S, d, 3)
    ref = search.greedy_mondrian(ch, S, d, 3, twin=_Uncached)
    assert np.array_equal(K, np.array([[int(v * 3) for v in row] for row in ref.p]))
    assert calls == ref.is_private_calls


class _ReadsRationals:
    """The fast twin given the grid vector as rationals (what it was given before ``search.grid_vector``)."""

    @staticmethod
    def is_private(chain, p, S, delta, ops=None):
        assert not isinstance(p, np.ndarray)
        return F.is_private(chain, p, S, delta, ops=ops)


@given(instances(max_n=3, max_T=4), st.sampled_from([1, 2, 3, 7, 10]))
def test_fast_grid_vector_is_the_rationals_as_the_fast_twin_reads_them(inst, d):
    """search.grid_vector hands the fast twin k/d as floats: entry by entry what the fast twin makes of the
    rationals, and the generic greedy over it decides, counts and ends alike (same vector, calls and work)."""
    ch, _, S, delta = inst
    coords = search.coordinates(ch)
    ks = [(3 * n + 1) % (d + 1) for n in range(len(coords))]
    fast_p = search.grid_vector(ch, coords, ks, d, F)
    exact_p = search.grid_vector(ch, coords, ks, d)
    assert isinstance(fast_p, np.ndarray) and not isinstance(exact_p, np.ndarray)
    assert np.array_equal(fast_p, np.array([[float(x) for x in row] for row in exact_p]))
    ops_a, ops_b = E.OpCount(), E.OpCount()
    a = search.greedy_mondrian(ch, S, delta, d, twin=F, ops=ops_a)
    b = search.greedy_mondrian(ch, S, delta, d, twin=_ReadsRationals, ops=ops_b)
    assert (a.p, a.utility, a.is_private_calls) == (b.p, b.utility, b.is_private_calls)
    assert (ops_a.is_private_calls, ops_a.beliefs, ops_a.mult_adds) == (ops_b.is_private_calls, ops_b.beliefs, ops_b.mult_adds)


@given(instances(max_n=4, max_T=4))
def test_forward_backward_prefixes_agree(inst):
    ch, p, S, d = inst
    for o in list(E.output_distribution(ch, p))[:4]:
        for e in range(ch.T + 1):
            pe, te = E.forward_backward(ch, p, o[:e])
            pf, tf = F.forward_backward(ch, p, o[:e])
            assert abs(float(te) - tf) <= 1e-12
            assert np.allclose(np.array(pe, float), pf, atol=1e-9)


@given(chains(max_n=3, max_T=4), st.data())
def test_forward_backward_array_and_exact_p_agree(ch, data):
    p = data.draw(grid_vectors(ch, 4))
    P = np.array([[float(v) for v in row] for row in p])
    o = tuple(None if data.draw(st.booleans()) else data.draw(st.integers(0, ch.n - 1)) for _ in range(ch.T))
    try:
        pe, te = E.forward_backward(ch, p, o)
    except InvalidInput:  # an output of probability 0: the fast twin must refuse it too
        with pytest.raises(InvalidInput):
            F.forward_backward(ch, P, o)
        return
    pf, tf = F.forward_backward(ch, P, o)
    assert abs(float(te) - tf) <= 1e-12
    assert np.allclose(np.array(pe, float), pf, atol=1e-9)


@given(st.integers(2, 3), st.integers(2, 4), st.data())
def test_a_cache_passed_across_chains_never_changes_the_answer(n, T, data):
    """``cache`` is public: a caller may (wrongly) share one PassedCache between two chains of the same
    shape. The fast twin's part of it must then be a miss, never the other chain's gains (which could
    declare private what is not)."""
    one, two = (data.draw(chains(min_n=n, max_n=n, min_T=T, max_T=T)) for _ in range(2))
    S = sorted(data.draw(st.permutations(list(one.contexts)))[: data.draw(st.integers(1, n))])
    P = np.array([[data.draw(st.sampled_from([0.0, 0.5, 1.0])) for _ in range(n)] for _ in range(T)])
    cache = E.PassedCache()
    F.max_breach(one, P, S, cache=cache)
    assert F.is_private(one, P, S, Q(1, 2), cache=cache) == F.is_private(one, P, S, Q(1, 2))
    assert _same(F.max_breach(two, P, S, cache=cache), F.max_breach(two, P, S))
    for d in (Q(1, 10), Q(1, 2), Q(9, 10)):
        assert F.is_private(two, P, S, d, cache=cache) == F.is_private(two, P, S, d)


@pytest.mark.parametrize("bad", [
    np.ma.array([[2.0, 0.0], [0.0, 0.0]], mask=[[True, False], [False, False]]),  # a mask must not hide p = 2
    np.array([[None, 0], [0, 0]], dtype=object),
    np.array([[0.5 + 0.5j, 0], [0, 0]]),
    np.zeros((2, 2), dtype="datetime64[s]"),
])
def test_suppression_arrays_the_exact_twin_would_refuse_are_invalid_input(bad):
    ch = markov_chain(["a", "b"], [Q(1, 2), Q(1, 2)], [[[Q(1, 2), Q(1, 2)], [Q(1), Q(0)]]])
    with pytest.raises(InvalidInput):
        F.is_private(ch, bad, ["a"], Q(1, 2))
    with pytest.raises(InvalidInput):
        F.forward_backward(ch, bad, (None, None))


@pytest.mark.parametrize("twin", [E, F])
@pytest.mark.parametrize("bad", [{}, "cache", 0])
def test_a_cache_that_is_not_a_passed_cache_is_invalid_input(twin, bad):
    ch = markov_chain(["a", "b"], [Q(1, 2), Q(1, 2)], [[[Q(1, 2), Q(1, 2)], [Q(1), Q(0)]]])
    with pytest.raises(InvalidInput, match="cache"):
        twin.is_private(ch, [[0, 0], [0, 0]], ["a"], Q(1, 2), cache=bad)
    with pytest.raises(InvalidInput, match="cache"):
        twin.max_breach(ch, [[0, 0], [0, 0]], ["a"], delta=Q(1, 2), cache=bad)


@given(st.integers(2, 3), st.integers(2, 3), st.data())
def test_the_exact_lemma5_cache_shared_across_chains_and_deltas_never_changes_the_answer(n, T, data):
    """Lemma 5 (a triplet that passed under p passes under every q ⪰ p) holds for one chain and one δ;
    a PassedCache a caller shares between chains or δs must not skip a triplet that passed elsewhere."""
    one, two = (data.draw(chains(min_n=n, max_n=n, min_T=T, max_T=T)) for _ in range(2))
    S = sorted(data.draw(st.permutations(list(one.contexts)))[: data.draw(st.integers(1, n))])
    p = [[Q(data.draw(st.integers(0, 2)), 2) for _ in range(n)] for _ in range(T)]
    cache = E.PassedCache()
    E.is_private(one, p, S, Q(9, 10), cache=cache)
    for ch in (one, two):
        for d in (Q(1, 10), Q(1, 2), Q(9, 10)):
            assert E.is_private(ch, p, S, d, cache=cache) == E.is_private(ch, p, S, d)


@pytest.mark.parametrize("x", [Q(10**20 - 1, 10**20), Q(1, 10**400)])
def test_an_exact_p_strictly_inside_0_1_stays_inside_in_float(x):
    """Whether a context can be released (p < 1) or suppressed (p > 0) decides which outputs are
    possible; rounding p = 1 - 10^-20 to 1.0 made the fast twin call private a vector under which
    releasing the sensitive context is possible (gain 1/2 > δ), where the exact twin does not."""
    ch = markov_chain(["a", "b"], [Q(1, 2), Q(1, 2)], [[[Q(1, 2), Q(1, 2)], [Q(1, 2), Q(1, 2)]]])
    p = [[x, Q(1)], [x, Q(1)]]
    for d in (Q(1, 10), Q(1, 3)):
        if not E.is_private(ch, p, ["a"], d):
            assert not F.is_private(ch, p, ["a"], d)
    P = F._p_array(ch, p)
    assert 0 < P[0, 0] < 1


def test_an_underflowing_prior_does_not_make_the_fast_twin_less_cautious():
    e = Q(1, 10**200)
    ch = markov_chain(["a", "b", "c"], [Q(1), Q(0), Q(0)], [[[1 - e, e, Q(0)], [Q(0), 1 - e, e], [Q(0), Q(0), Q(1)]]] * 2)
    p = [[Q(1)] * 3, [Q(1)] * 3, [Q(1), Q(1), Q(0)]]
    assert not E.is_private(ch, p, ["c"], Q(1, 2))  # releasing c at t = 3 is possible: gain 1 - 10^-400
    assert not F.is_private(ch, p, ["c"], Q(1, 2))


@given(underflow_chains(), st.data())
def test_supports_are_the_exact_zero_patterns_even_when_floats_underflow(ch, data):
    pri = E.prior_beliefs(ch)
    assert F.prior_support(ch).tolist() == [[x > 0 for x in r] for r in pri]
    t1 = data.draw(st.integers(0, ch.T), label="t1")
    i = None if t1 == 0 else data.draw(st.integers(0, ch.n - 1), label="i")
    t2 = data.draw(st.integers(t1, ch.T), label="t2")
    assert F.possible_states(ch, t1, i, t2) == E.possible_states(ch, t1, i, t2)


@given(underflow_chains(), st.data())
def test_fast_is_private_on_underflowing_chains_is_never_less_cautious(ch, data):
    p = data.draw(grid_vectors(ch, 2), label="p")
    S = sorted(data.draw(st.permutations(list(ch.contexts)), label="S")[:data.draw(st.integers(1, ch.n), label="k")])
    d = Q(data.draw(st.integers(1, 1008), label="k/1009"), 1009)
    if F.is_private(ch, p, S, d):
        assert E.is_private(ch, p, S, d)
    assert F.max_breach(ch, p, S).gain >= float(E.max_breach(ch, p, S).gain) - 1e-9  # never below the exact maximum


@given(underflow_chains(), st.data())
def test_fast_okay_to_release_on_underflowing_chains_is_never_less_cautious(ch, data):
    S = sorted(data.draw(st.permutations(list(ch.contexts)), label="S")[:data.draw(st.integers(1, ch.n), label="k")])
    d = Q(data.draw(st.integers(1, 1008), label="k/1009"), 1009)
    L = data.draw(st.integers(0, ch.T - 1), label="L")
    prefix = [None] * L
    if L and data.draw(st.booleans(), label="release"):
        t = data.draw(st.integers(1, L), label="t")
        prefix[t - 1] = data.draw(st.sampled_from(E.possible_states(ch, 0, None, t)), label="released")
    for improved in (True, False):  # Algorithm 5 and Algorithm 4
        try:
            ok_e = E.okay_to_release(ch, S, d, prefix, improved=improved)
        except (InvalidInput, ZeroDivisionError):
            return  # a prefix the chain cannot produce
        if F.okay_to_release(ch, S, d, prefix, improved=improved):
            assert ok_e


def test_an_underflowing_normaliser_makes_the_pair_cautious_not_impossible():
    """D = Pr[⊥, X_3 = c | X_1 = a] = 10^-400 underflows; the partial output a, ⊥, c is possible and reveals b at
    t = 2 (posterior 1, prior 10^-200): the fast twin must not skip it."""
    e = Q(1, 10**200)
    ch = markov_chain(["a", "b", "c"], [Q(1), Q(0), Q(0)], [[[1 - e, e, Q(0)], [Q(0), 1 - e, e], [Q(0), Q(0), Q(1)]]] * 2)
    p = [[Q(0), Q(1), Q(1)], [Q(1)] * 3, [Q(1), Q(1), Q(0)]]  # release a at 1 and c at 3, suppress all of t = 2
    assert not E.is_private(ch, p, ["b"], Q(1, 2))
    assert not F.is_private(ch, p, ["b"], Q(1, 2))


def test_forward_backward_says_underflow_not_probability_0():
    e = Q(1, 10**200)
    ch = markov_chain(["a", "b", "c"], [Q(1), Q(0), Q(0)], [[[1 - e, e, Q(0)], [Q(0), 1 - e, e], [Q(0), Q(0), Q(1)]]] * 2)
    p = [[Q(0)] * 3] * 3
    assert E.forward_backward(ch, p, (0, 1, 2))[1] == e * e  # positive: 10^-400
    with pytest.raises(InvalidInput, match="underflows"):
        F.forward_backward(ch, p, (0, 1, 2))
    with pytest.raises(InvalidInput, match="probability 0"):
        F.forward_backward(ch, p, (0, 2, 1))


def test_forward_backward_never_divides_by_a_subnormal_normaliser():
    """Pr[o] = 2.3 * 10^-323 is positive in float but subnormal (5 significant units of 2^-1074): a -> b (1.3e-323) or
    c (1.0e-323), both -> d, output (a, ⊥, d). Dividing by it gives Pr[X_2 = b | o] = 3/5 where the exact value is
    13/23; the fast twin must refuse (below the floor 2^-900) or agree with the exact posteriors."""
    z, e1, e2 = Q(0), Q(13, 10**324), Q(10, 10**324)
    A = [[1 - e1 - e2, e1, e2, z], [z, z, z, Q(1)], [z, z, z, Q(1)], [z, z, z, Q(1)]]
    ch = markov_chain(["a", "b", "c", "d"], [Q(1), z, z, z], [A, A])
    p = [[z] * 4, [z, Q(1), Q(1), z], [z] * 4]
    post, total = E.forward_backward(ch, p, (0, None, 3))
    assert post[1][1] == Q(13, 23) and 0 < float(total) < UNDERFLOW_FLOOR
    try:
        fast_post, _ = F.forward_backward(ch, p, (0, None, 3))
    except InvalidInput as e:
        assert "underflows" in str(e)
    else:
        assert np.allclose(fast_post, [[float(x) for x in row] for row in post], rtol=0, atol=1e-9), fast_post


def test_fast_okay_to_release_suppresses_when_a_possible_state_is_too_small_to_divide_by():
    """a, b (1/50 each) and x (48/50) at t = 1; a and b -> c with 10^-310, everything else -> m. Pr[X_2 = c] =
    4 * 10^-312 is a subnormal float below the floor 2^-900, and releasing c at t = 2 raises Pr[X_1 = b] from 1/50 to
    1/2: exact suppresses at delta = 1/10 and the fast twin must too. Dividing instead, 1/f overflows to inf, and the
    sensitive x (which cannot reach c) gets 0 * inf = NaN, which the maximum over the gains in between then drops:
    with S = {b, x} the fast twin would release (with S = {b} alone the inf gain still suppresses)."""
    z, e = Q(0), Q(1, 10**310)
    A = [[z, z, z, 1 - e, e], [z, z, z, 1 - e, e], [z, z, z, Q(1), z], [z, z, z, Q(1), z], [z, z, z, z, Q(1)]]
    ch = markov_chain(["a", "b", "x", "m", "c"], [Q(1, 50), Q(1, 50), Q(48, 50), z, z], [A])
    assert 0 < float(E.prior_beliefs(ch)[1][4]) < UNDERFLOW_FLOOR
    for S in (["b", "x"], ["b"]):
        assert not E.okay_to_release(ch, S, Q(1, 10), [None])
        assert not F.okay_to_release(ch, S, Q(1, 10), [None]), S


def test_fast_okay_to_release_suppresses_below_the_floor_even_where_the_exact_twin_releases():
    """The documented conservative rule, on its own: a, b, x (1/5, 1/5, 3/5) each go to c with 10^-290 at t = 2, so
    Pr[X_2 = c] = 10^-290 is a normal float below the floor 2^-900, and releasing c leaves every belief at its prior
    (gain 0): the exact twin releases at delta = 1/10. The fast twin suppresses all the same - it never divides by a
    possible state's probability below the floor (dividing here would give gain 0 and release: a fast decision that
    relied on the quotient's accuracy, which the floor exists to avoid)."""
    z, e = Q(0), Q(1, 10**290)
    A = [[z, z, z, 1 - e, e], [z, z, z, 1 - e, e], [z, z, z, 1 - e, e], [z, z, z, Q(1), z], [z, z, z, z, Q(1)]]
    ch = markov_chain(["a", "b", "x", "m", "c"], [Q(1, 5), Q(1, 5), Q(3, 5), z, z], [A])
    assert 0 < float(E.prior_beliefs(ch)[1][4]) < UNDERFLOW_FLOOR
    assert E.okay_to_release(ch, ["b"], Q(1, 10), [None])
    assert not F.okay_to_release(ch, ["b"], Q(1, 10), [None])


def _exact_normalisers(ch, p) -> dict:
    """{(t1, i, t2, j): D} for every partial output with a suppressed time (t2 >= t1 + 2) of positive probability."""
    return {(t1, i, t2, j): D for t1, i, t2, j, D, _, _ in E.partial_outputs(ch, suppression_vector(ch, p)) if t2 >= t1 + 2}


def _fast_normalisers(ch, p):
    """(certificate, {(t1, i, t2, j): (float D, exact-pattern bit)}) over the fast twin's candidate pairs."""
    pairs = F._PartialOutputs(ch, F._p_array(ch, p), np.arange(ch.n), None, None)
    out = {}
    for t1 in range(ch.T):
        starts = np.flatnonzero(pairs.starts(t1))
        for t2 in range(t1 + 2, ch.T + 2):
            _, D, ends = pairs.normaliser(t1, t2)
            sup = pairs.d_support(t1, t2)
            for ki in starts:
                for kj in np.flatnonzero(ends):
                    key = (t1, None if t1 == 0 else int(ki), t2, END if t2 == ch.T + 1 else int(kj))
                    out[key] = (float(D[ki, kj]), bool(sup[ki, kj]))
    return pairs.safe, out


@given(underflow_chains(max_T=5, near_certificate=True), st.data())
def test_the_no_underflow_certificate_and_the_support_of_d_against_exact_normalisers(ch, data):
    """On chains whose path products straddle the certificate's bound: the support of every normaliser D
    equals the exact D > 0, and where ``_cannot_underflow`` certifies the suppression array, every D > 0 is
    at least the floor in float (so that ``max_breach`` may read D > 0 and divide by D)."""
    p = data.draw(grid_vectors(ch, 2), label="p")
    exact = _exact_normalisers(ch, p)
    safe, fast = _fast_normalisers(ch, p)
    assert set(exact) <= set(fast)
    for key, (d, sup) in fast.items():
        assert sup == (key in exact)
        if safe and sup:
            assert d >= UNDERFLOW_FLOOR


_B = int(-np.log2(UNDERFLOW_FLOOR)) - 1  # 899: the certificate asks (min entry * min p)^T >= 2^-899


@pytest.mark.parametrize("T", [2, 3, 5, 8])
@pytest.mark.parametrize("bits", ["at the bound", "one past it", "T - 1 factors", "an entry below float range"])
def test_the_no_underflow_certificate_is_exact_on_the_extremal_chain(T, bits):
    """The extremal case of the certificate's bound: c0 stays c0 with probability a = 2^-k (else c1, absorbing)
    and is suppressed with probability q = 2^-m, c1 is always released. The partial output start, ⊥^T, end has
    D = (a q)^T exactly, the smallest any path product can be; the certificate must hold iff D >= 2^-899.
    bits: T (k + m) = T (899 // T), T (899 // T + 1), T (899 // (T - 1)) (where counting T - 1 factors would still
    certify), and a = 2^-1080, whose float is 0."""
    km = {"at the bound": _B // T, "one past it": _B // T + 1, "T - 1 factors": _B // (T - 1), "an entry below float range": 1080}[bits]
    k, m = (1080, 0) if km == 1080 else (km - km // 3, km // 3)
    a, q = Q(1, 2 ** k), Q(1, 2 ** m)
    ch = markov_chain(["c0", "c1"], [a, 1 - a], [[[a, 1 - a], [Q(0), Q(1)]]] * (T - 1))
    p = [[q, Q(0)]] * T
    exact = _exact_normalisers(ch, p)
    safe, fast = _fast_normalisers(ch, p)
    key = (0, None, T + 1, END)
    assert exact[key] == (a * q) ** T == min(exact.values())
    assert safe == (exact[key] >= 2 * Q(UNDERFLOW_FLOOR))
    if safe:
        assert fast[key][0] == exact[key]  # a power of 2 in the normal range: exact in float


def test_forward_backward_keeps_a_tiny_release_probability_1_minus_p():
    """p = 1 - 10^-400 is the float 1 - 2^-53, so 1 - float(p) = 2^-53: the release emission must come from the
    exact 1 - p, else Pr[o] of an output releasing that context is 10^384 times too large where it underflows."""
    e = Q(1, 10**400)
    ch = markov_chain(["a", "b"], [Q(1, 2)] * 2, [[[Q(1, 2)] * 2] * 2])
    p = [[1 - e, Q(1, 2)], [Q(1, 2), Q(1, 2)]]
    assert 0 < E.forward_backward(ch, p, (0, None))[1] < Q(UNDERFLOW_FLOOR)
    with pytest.raises(InvalidInput, match="underflows"):
        F.forward_backward(ch, p, (0, None))
    q = [[1 - Q(1, 10**100), Q(1, 2)], [Q(1, 2), Q(1, 2)]]  # 1 - p = 10^-100: a normal float
    total = E.forward_backward(ch, q, (0, None))[1]
    assert F.forward_backward(ch, q, (0, None))[1] == pytest.approx(float(total), rel=1e-12)


def test_grid_vector_floats_only_where_k_over_d_stays_inside_the_unit_interval():
    """Below d = 2**52 every k/d with 0 < k < d is a float strictly inside (0, 1); from there on (1 - 1/d may round to
    1) the fast twin is handed the rationals and converts them itself (probability_float keeps them below 1)."""
    ch = markov_chain(["a", "b"], [Q(1, 2), Q(1, 2)], [[[Q(1, 2), Q(1, 2)], [Q(1, 3), Q(2, 3)]]])
    coords = search.coordinates(ch)
    for d in (2**52 - 1, 2**52, 2**53 + 1):
        p = search.grid_vector(ch, coords, [d - 1] * len(coords), d, F)
        if d < 2**52:
            assert isinstance(p, np.ndarray) and all(0 < p[t - 1, i] < 1 for t, i in coords), d
        else:
            assert not isinstance(p, np.ndarray) and all(p[t - 1][i] == Q(d - 1, d) for t, i in coords), d
