"""privclaims.theory.dp: exact checkers vs the literal definitions, fast vs exact (conservative), bad input."""

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from privclaims.counterexamples.strategies import exp_epsilons, finite_mechanisms, finite_systems
from privclaims.theory.dp import exact, fast
from privclaims.theory.dp.delta_privacy import finite_system, is_delta_private, max_breach, posterior_belief, prior_belief
from privclaims.theory.dp.mechanism import finite_mechanism
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Epsilon, Q

deltas = st.sampled_from([Q(0), Q(1, 20), Q(1, 10), Q(1, 4), Q(1, 2), Q(1)])


@given(finite_mechanisms(max_outputs=4), exp_epsilons(), deltas)
def test_worst_set_equals_literal_subsets(mech, eps, delta):
    assert exact.is_indistinguishable(mech, eps, delta) == exact.is_indistinguishable_by_subsets(mech, eps, delta)


@given(finite_mechanisms(), exp_epsilons())
def test_delta_zero_pdp_is_pure_dp(mech, eps):
    for qf in ("pair", "input"):
        assert (exact.probabilistic_dp_delta(mech, eps, qf)[0] == 0) == exact.is_differentially_private(mech, eps)


@given(finite_mechanisms(), exp_epsilons())
def test_input_quantifier_is_at_least_pair_quantifier(mech, eps):
    # one split for all neighbours (003) can only need a larger Omega2 than a split per pair (000)
    assert exact.probabilistic_dp_delta(mech, eps, "input")[0] >= exact.probabilistic_dp_delta(mech, eps, "pair")[0]


@given(finite_mechanisms(), exp_epsilons(), deltas)
def test_fast_twin_never_claims_privacy_that_exact_denies(mech, eps, delta):
    if fast.is_differentially_private(mech, eps):
        assert exact.is_differentially_private(mech, eps)
    for qf in ("pair", "input"):
        if fast.is_probabilistically_private(mech, eps, delta, qf):
            assert exact.is_probabilistically_private(mech, eps, delta, qf)
    if fast.is_indistinguishable(mech, eps, delta):
        assert exact.is_indistinguishable(mech, eps, delta)


@given(finite_mechanisms(), exp_epsilons())
def test_fast_values_close_to_exact(mech, eps):
    d_exact = exact.indistinguishability_delta(mech, eps)[0]
    d_fast = fast.indistinguishability_delta(mech, eps)[0]
    assert abs(float(d_exact) - d_fast) <= 1e-9
    p_exact = exact.probabilistic_dp_delta(mech, eps)[0]
    p_fast = fast.probabilistic_dp_delta(mech, eps)[0]
    assert p_fast >= float(p_exact) - 1e-12  # fast counts undecided outputs as breaches: never smaller


def test_boundary_case_fast_suppresses_exact_releases():
    # p = 2q exactly with e^eps = 2: exact says private, fast cannot decide and must say "not private"
    mech = finite_mechanism({0: {"a": Q(2, 3), "b": Q(1, 3)}, 1: {"a": Q(1, 3), "b": Q(2, 3)}}, [(0, 1)])
    assert exact.is_differentially_private(mech, "ln(2)")
    assert not fast.is_differentially_private(mech, "ln(2)")


@given(finite_systems())
def test_delta_privacy_checker_matches_its_definition(sy):
    b = max_breach(sy, ["a"])
    gains = [posterior_belief(sy, o, t, "a") - prior_belief(sy, t, "a") for o in sy.outputs() for t in range(1, sy.horizon + 1)]
    assert b.gain == max(gains)
    assume(0 < b.gain < 1)
    assert is_delta_private(sy, ["a"], b.gain) and not is_delta_private(sy, ["a"], b.gain * Q(99, 100))


@pytest.mark.parametrize("dist,nbrs,msg", [
    ({0: {"a": "1/2", "b": "1/3"}, 1: {"a": 1}}, [(0, 1)], "sums to 5/6"),
    ({0: {"a": "3/2", "b": "-1/2"}, 1: {"a": 1}}, [(0, 1)], "outside"),
    ({0: {"a": 1}, 1: {"a": 1}}, [(0, 2)], "unknown input 2"),
    ({0: {"a": 1}}, [(0, 0)], "neighbour itself"),
    ({}, [], "no inputs"),
])
def test_bad_mechanisms_are_named(dist, nbrs, msg):
    with pytest.raises(InvalidInput, match=msg):
        finite_mechanism(dist, nbrs)


def test_bad_delta_and_systems():
    mech = finite_mechanism({0: {"a": 1}, 1: {"a": 1}}, [(0, 1)])
    with pytest.raises(InvalidInput, match="delta"):
        exact.is_indistinguishable(mech, "1", "2")
    with pytest.raises(InvalidInput, match="quantifier"):
        exact.probabilistic_dp_delta(mech, "1", "some")
    sy = finite_system({("a",): Q(1, 2), ("b",): Q(1, 2)}, {("a",): {0: 1}, ("b",): {0: 1}})
    with pytest.raises(InvalidInput, match=r"\(0, 1\)"):
        is_delta_private(sy, ["a"], 0)
    with pytest.raises(InvalidInput, match="empty"):
        max_breach(sy, [])
    with pytest.raises(InvalidInput, match="different lengths"):
        finite_system({("a",): Q(1, 2), ("a", "b"): Q(1, 2)}, {("a",): {0: 1}, ("a", "b"): {0: 1}})
