"""The float-filtered exact ISPRIVATE (theory/maskit/exact_filter.py) returns exactly what the plain
rational loop of Algorithm 3 returns - gain, witness, early exit and operation counts - and the
maximum of Algorithm 2 over all outputs; it refuses (None) where its error bound is not certified."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from privclaims.counterexamples.maskit_strategies import float_hard_instances, instances
from privclaims.theory.maskit import exact as E
from privclaims.theory.maskit import exact_filter as X
from privclaims.theory.maskit.exact_filter import max_breach_filtered
from privclaims.theory.maskit.model import markov_chain, sensitive_indices, suppression_vector
from privclaims.theory.maskit.synthetic import routine_chain
from privclaims.theory.numbers import Q


def both(ch, p, S, d=None):
    P, sens = suppression_vector(ch, p), sensitive_indices(ch, S)
    o1, o2 = E.OpCount(), E.OpCount()
    plain = E._max_breach_plain(ch, P, sens, d, None, o1)
    filtered = max_breach_filtered(ch, P, sens, d, o2)
    return plain, o1, filtered, o2


def hide_sensitive(ch, p, S):
    """p with p_s = 1 for s in S: no release of s, so the maximum comes from inference (t1 < t < t2)."""
    sens = set(sensitive_indices(ch, S))
    return [[Q(1) if i in sens else v for i, v in enumerate(row)] for row in p]


@given(instances(max_n=4, max_T=5, d=2), st.booleans(), st.booleans())
def test_filtered_equals_plain_loop(inst, hide, with_delta):
    ch, p, S, d = inst
    if hide:
        p = hide_sensitive(ch, p, S)
    plain, o1, filtered, o2 = both(ch, p, S, d if with_delta else None)
    assert filtered == plain
    assert o2 == o1


@given(instances(max_n=3, max_T=3), st.booleans())
def test_filtered_equals_all_outputs(inst, hide):
    ch, p, S, d = inst
    if hide:
        p = hide_sensitive(ch, p, S)
    _, _, filtered, _ = both(ch, p, S)
    assert filtered.gain == E.max_breach_naive(ch, suppression_vector(ch, p), S).gain


def test_max_breach_dispatch_on_a_routine_chain():
    ch, S = routine_chain(3, n=8, T=8, days=80, n_sensitive=2)
    assert ch.n * ch.n * ch.T ** 3 >= E.FILTER_MIN_SIZE
    half = [[Q(1, 2)] * ch.n for _ in range(ch.T)]
    for p in (half, hide_sensitive(ch, half, S)):
        for d in (None, Q(1, 10), Q(99, 100)):
            plain, o1, _, _ = both(ch, p, S, d)
            ops = E.OpCount()
            assert E.max_breach(ch, p, S, delta=d, ops=ops) == plain
            assert ops == o1


def test_uncertified_chain_falls_back():
    tiny = Q(1, 2 ** 120)  # below the accepted 2^-100: products could leave the normal range
    ch = markov_chain(["a", "b"], [Q(1, 2), Q(1, 2)], [[[1 - tiny, tiny], [Q(1, 2), Q(1, 2)]]] * 3)
    p = [[Q(1, 2)] * 2 for _ in range(ch.T)]
    plain, _, filtered, o2 = both(ch, p, ["b"])
    assert filtered is None and o2 == E.OpCount()
    assert E.max_breach(ch, p, ["b"]) == plain


def smallest_entry(ch, P):
    vals = list(ch.initial) + [v for m in ch.steps for r in m for v in r] + [v for r in P for v in r]
    return min(v for v in vals if v > 0)


@given(float_hard_instances())
def test_filtered_equals_plain_on_float_hard_instances(inst):
    """Near-ties (2^-50..2^-99 nudges), exact ties rounded differently (swap-symmetric chains), p near
    0 and 1; δ at the exact maximum (Line 21's strict > must not fire) and 2^-60 below it (it must)."""
    ch, p, sens = inst
    S = [ch.contexts[i] for i in sens]
    top = E._max_breach_plain(ch, p, sens).gain
    deltas = [None, Q(1, 2)] + [v for v in (top, top - Q(1, 2 ** 60)) if 0 < v < 1]
    for d in deltas:
        plain, o1, filtered, o2 = both(ch, p, S, d)
        if filtered is None:  # refused only where floats may leave the certified range
            assert smallest_entry(ch, p) <= Q(1, 2 ** 90) and o2 == E.OpCount()
            continue
        assert filtered == plain
        assert o2 == o1


def all_gains_zero_chain():
    """p = 1 everywhere: nothing is released, every posterior is the prior, all 3T gains are exactly
    0 - a tie the plain loop gives to its first belief (t = 1, s = c0). In float64 the rows of c0 and
    c1 (1/6 -+ 2^-92, 2/3) sum to 1 - 2^-53, so their gains at t = 1 come out -2^-54 and the others 0:
    the float maximum would name c2."""
    third, e = Q(1, 3), Q(1, 2 ** 92)
    rows = [[third / 2 - e, Q(2, 3), third / 2 + e], [Q(2, 3), third / 2 - e, third / 2 + e], [Q(1, 2), Q(1, 2), Q(0)]]
    ch = markov_chain(["c0", "c1", "c2"], [third] * 3, [rows])
    return ch, [[Q(1)] * 3 for _ in range(ch.T)], (0, 1, 2)


def test_exact_tie_goes_to_the_first_belief_whatever_the_float_noise(monkeypatch):
    ch, P, sens = all_gains_zero_chain()
    plain, o1, filtered, o2 = both(ch, P, ch.contexts)
    assert plain.gain == 0 and (plain.t, plain.s) == (1, "c0")
    assert filtered == plain and o2 == o1
    monkeypatch.setattr(E, "FILTER_MIN_SIZE", 0)
    ops = E.OpCount()
    assert E.max_breach(ch, P, ch.contexts, ops=ops) == plain and ops == o1
    # the instance needs the margin: without it the float noise picks another witness
    monkeypatch.setattr(X, "error_bound", lambda n, T: 0.0)
    assert max_breach_filtered(ch, P, sens) != plain


def test_priors_below_the_float_range_with_certified_forward_backward_floats():
    """c1 is reachable only by staying in c1 (probability 2^-99 a step), so Pr[X_t = c1] = 2^-99t
    falls below 2^-1022 (float 0 from t = 11): the gains 1 - 2^-99t of releasing c1 are all the float
    1.0, yet differ exactly. p(c1) = 0 from t = 8 keeps the forward/backward floats >= 2^-800, so the
    filter is certified and must find the largest gain, 1 - 2^-1188 at t = T = 12, by recomputation."""
    e, T = Q(1, 2 ** 99), 12
    ch = markov_chain(["c0", "c1"], [1 - e, e], [[[Q(1), Q(0)], [1 - e, e]]] * (T - 1))
    P = [[Q(1, 2), Q(1, 2) if t < 8 else Q(0)] for t in range(1, T + 1)]
    assert float(E.prior_beliefs(ch)[T - 1][1]) == 0.0
    for d in (None, 1 - Q(1, 2 ** 600)):
        plain, o1, filtered, o2 = both(ch, P, ["c1"], d)
        assert filtered is not None and filtered == plain and o2 == o1
    plain, _, _, _ = both(ch, P, ["c1"])
    assert plain.gain == 1 - e ** T and plain.t == T
