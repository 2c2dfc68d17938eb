"""Exact vs fast twins of privclaims.theory.maskit: beliefs agree within 1e-9; fast privacy decisions are
conservative (never release what exact arithmetic suppresses), including at the exact boundary
posterior - prior = δ."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given

from privclaims.counterexamples.maskit_strategies import instances
from privclaims.theory.maskit import exact as E
from privclaims.theory.maskit import fast as F
from privclaims.theory.maskit.model import suppression_vector
from privclaims.theory.maskit.system import SimulatableCheck, maskit
from privclaims.theory.numbers import Q


@given(instances(max_n=4, max_T=4))
def test_beliefs_agree(inst):
    ch, p, S, d = inst
    assert np.allclose(np.array(E.prior_beliefs(ch), float), F.prior_beliefs(ch), atol=1e-12)
    for o in list(E.output_distribution(ch, p))[:5]:
        pe, te = E.forward_backward(ch, p, o)
        pf, tf = F.forward_backward(ch, p, o)
        assert abs(float(te) - tf) <= 1e-12
        assert np.allclose(np.array(pe, float), pf, atol=1e-9)
    assert abs(float(E.max_breach(ch, p, S).gain) - F.max_breach(ch, p, S).gain) <= 1e-9
    assert abs(float(E.utility(ch, p)) - F.utility(ch, p)) <= 1e-12


@given(instances(max_n=3, max_T=4))
def test_probabilistic_decision_conservative_at_boundary(inst):
    ch, p, S, d = inst
    g = E.max_breach(ch, p, S).gain
    for delta in {d, g, g - Q(1, 10 ** 12), g + Q(1, 10 ** 12)}:
        if 0 < delta < 1:
            exact = E.is_private(ch, p, S, delta)
            if F.is_private(ch, p, S, delta):
                assert exact, f"fast released at δ = {delta} where exact suppresses"
    if 0 < g < 1:
        assert E.is_private(ch, p, S, g)  # posterior - prior = δ exactly is private
        assert not F.is_private(ch, p, S, g - Q(1, 10 ** 12))


@given(instances(max_n=3, max_T=4))
def test_simulatable_decision_conservative(inst):
    ch, p, S, d = inst
    for x in list(E.input_streams(ch))[:6]:
        o = maskit(ch, SimulatableCheck(ch, S, d), x)
        for tn in range(1, ch.T + 1):
            pre = o[: tn - 1]
            if F.okay_to_release(ch, S, d, pre):
                assert E.okay_to_release(ch, S, d, pre)
            assert E.okay_to_release(ch, S, d, pre) == E.okay_to_release(ch, S, d, pre, improved=False)
    fu, eu = F.simulatable_utility(ch, S, d), float(E.simulatable_utility(ch, S, d))
    assert fu <= eu + 1e-9


@given(instances(max_n=3, max_T=3))
def test_partial_isprivate_equals_full_enumeration(inst):
    ch, p, S, d = inst
    assert E.max_breach(ch, p, S).gain == E.max_breach_naive(ch, suppression_vector(ch, p), S).gain


@given(instances(max_n=3, max_T=4))
def test_fast_algorithm4_conservative(inst):
    ch, p, S, d = inst
    for x in list(E.input_streams(ch))[:4]:
        o = maskit(ch, SimulatableCheck(ch, S, d, improved=False), x)
        for tn in range(1, ch.T + 1):
            if F.okay_to_release(ch, S, d, o[: tn - 1], improved=False):
                assert E.okay_to_release(ch, S, d, o[: tn - 1], improved=False)


def _two_iid_contexts(T: int = 2):
    from privclaims.theory.maskit.model import markov_chain

    half = Q(1, 2)
    return markov_chain(["h", "s"], [half, half], [[[half, half], [half, half]]] * (T - 1))


def test_maskit_privacy_at_its_exact_level():
    """Definition 6 (000 §3.3): delta-privacy means posterior - prior <= delta (non-strict). Two i.i.d. uniform
    contexts h, s; s always suppressed, h with probability 1/2: after a suppression Pr[s | ⊥] = (1/2)/(1/2 + 1/4)
    = 2/3, so the largest gain is 2/3 - 1/2 = 1/6 (a release reveals h, gain <= 0)."""
    half = Q(1, 2)
    ch = _two_iid_contexts(3)
    p = {"s": 1, "h": half}
    assert E.privacy_level(ch, p, ["s"]) == Q(1, 6)
    assert E.is_private(ch, p, ["s"], Q(1, 6)) and not E.is_private(ch, p, ["s"], Q(1, 7))
    assert E.prior_beliefs(ch) == [[half, half]] * 3
    assert F.is_private(ch, p, ["s"], Q(1, 5)) and not F.is_private(ch, p, ["s"], Q(1, 7))
    assert not F.is_private(ch, p, ["s"], Q(1, 6) - Q(1, 10 ** 20))  # a float tie with the gain: suppress
    assert F.utility(ch, p) == pytest.approx(3 * half * half)  # only h is released, half of the time
    assert E.utility(ch, p) == Q(3, 4)


def test_okay_to_release_at_its_exact_level():
    """The simulatable check suppresses iff some posterior - prior > delta (Algorithm 5's test is strict). Two i.i.d.
    uniform contexts, S = {s}: releasing s at t = 1 moves Pr[X_1 = s] from 1/2 to 1, a gain of exactly 1/2. The exact
    twin releases at delta = 1/2 and not at 1/2 - 10^-20; the fast twin (one conservative comparison) releases at
    neither, since both round to the float 0.5, and does at delta = 0.6."""
    ch = _two_iid_contexts(2)
    for improved in (True, False):
        assert E.okay_to_release(ch, ["s"], Q(1, 2), [], improved=improved)
        assert not E.okay_to_release(ch, ["s"], Q(1, 2) - Q(1, 10 ** 20), [], improved=improved)
        assert not F.okay_to_release(ch, ["s"], Q(1, 2) - Q(1, 10 ** 20), [], improved=improved)
        assert not F.okay_to_release(ch, ["s"], Q(1, 2), [], improved=improved)
        assert F.okay_to_release(ch, ["s"], Q(3, 5), [], improved=improved)


@given(instances(max_n=3, max_T=4))
def test_is_private_at_every_attained_gain(inst):
    """ISPRIVATE at delta = each gain Algorithm 3 attains is exactly privacy_level <= delta: Line 21 exits at the first
    gain strictly above delta, never at one equal to it (a later triplet may still exceed delta)."""
    from privclaims.theory.maskit.model import sensitive_indices
    from privclaims.theory.maskit.partial_outputs import partial_outputs, triplet_posterior

    ch, p, S, d = inst
    pv = suppression_vector(ch, p)
    pri = E.prior_beliefs(ch)
    gains = set()
    for t1, i, t2, j, D, Fw, H in partial_outputs(ch, pv):
        for t in range(max(t1, 1), min(t2, ch.T) + 1):
            for s in sensitive_indices(ch, S):
                gains.add(triplet_posterior(t, s, (t1, i, t2, j), Fw, H, D) - pri[t - 1][s])
    level = E.privacy_level(ch, p, S)
    assert level == max(max(gains), 0)
    for g in sorted(gains):
        if 0 < g < 1:
            assert E.is_private(ch, p, S, g) == (level <= g), (g, level)


@given(instances(max_n=3, max_T=4))
def test_simulatable_posterior_is_the_conditional_of_corollary1(inst):
    """Corollary 1: Pr[X_t = s | X_t1 = c_i, X_t2 = c_j] by the Markov property, against the conditional computed by
    enumerating the input streams (t1 = 0: start; t2 = T + 1: end)."""
    ch, p, S, d = inst
    streams = E.input_streams(ch)
    T, n = ch.T, ch.n
    for t1 in range(0, T):
        for i in ([None] if t1 == 0 else range(n)):
            for t2 in range(t1 + 1, T + 2):
                for j in ([None] if t2 == T + 1 else range(n)):
                    cond = {x: px for x, px in streams.items() if (t1 == 0 or x[t1 - 1] == i) and (t2 == T + 1 or x[t2 - 1] == j)}
                    tot = sum(cond.values(), Q(0))
                    if tot == 0:
                        continue
                    for t in range(max(t1, 1), min(t2, T) + 1):
                        for s in range(n):
                            want = sum((px for x, px in cond.items() if x[t - 1] == s), Q(0)) / tot
                            assert E.simulatable_posterior(ch, t, s, t1, i, t2, j) == want
