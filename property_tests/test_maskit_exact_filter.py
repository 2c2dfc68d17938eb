"""The float-filtered exact ISPRIVATE (theory/maskit/exact_filter.py) returns exactly what the plain
rational loop of Algorithm 3 returns - gain, witness, early exit and operation counts - and the
maximum of Algorithm 2 over all outputs; it refuses (None) where its error bound is not certified."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from counterexamples.maskit_strategies import instances
from theory.maskit import exact as E
from theory.maskit.exact_filter import max_breach_filtered
from theory.maskit.model import markov_chain, sensitive_indices, suppression_vector
from theory.maskit.synthetic import routine_chain
from theory.numbers import Q


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
