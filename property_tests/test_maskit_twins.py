"""Exact vs fast twins of privclaims.theory.maskit: beliefs agree within 1e-9; fast privacy decisions are
conservative (never release what exact arithmetic suppresses), including at the exact boundary
posterior - prior = δ."""

from __future__ import annotations

import numpy as np
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
