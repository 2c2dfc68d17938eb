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


def test_probabilistic_dp_at_its_exact_delta():
    """Definition 3 (000 §2.1): Pr[M(L) in Omega_2] <= delta (non-strict). A = {x: 1/4, y: 3/4}, B = {y: 1},
    eps = 1: x is in Omega_2 for (A, B) (1/4 > e q = 0); y is not (3/4 within [e^-1, e] of 1); so the least delta is 1/4."""
    mech = finite_mechanism({"A": {"x": Q(1, 4), "y": Q(3, 4)}, "B": {"y": Q(1)}}, [("A", "B")])
    assert exact.probabilistic_dp_delta(mech, 1)[0] == Q(1, 4)
    assert exact.is_probabilistically_private(mech, 1, Q(1, 4))
    assert not exact.is_probabilistically_private(mech, 1, Q(1, 5))
    assert exact.smallest_exp_epsilon(finite_mechanism({"A": {"x": Q(1, 2), "y": Q(1, 2)},
                                                        "B": {"x": Q(1, 4), "y": Q(3, 4)}}, [("A", "B")])) == 2


def test_indistinguishability_at_its_exact_delta():
    """Definition 4 is non-strict: with e^eps = 2, p(x) = 1/2, q(x) = 1/8 the worst set {x} gives
    1/2 - 2/8 = 1/4, so the mechanism is (ln 2, 1/4)-indistinguishable and not (ln 2, 1/4 - 10^-20)-indistinguishable."""
    mech = finite_mechanism({0: {"x": Q(1, 2), "y": Q(1, 2)}, 1: {"x": Q(1, 8), "y": Q(7, 8)}}, [(0, 1)])
    assert str(exact.indistinguishability_delta(mech, "ln(2)")[0]) == "1/4"
    assert exact.is_indistinguishable(mech, "ln(2)", Q(1, 4))
    assert exact.is_indistinguishable_by_subsets(mech, "ln(2)", Q(1, 4))
    assert not exact.is_indistinguishable(mech, "ln(2)", Q(1, 4) - Q(1, 10**20))


def test_probabilistic_dp_per_input_is_the_union_over_neighbours():
    """003's order (one split per input for all its neighbours): Omega_2 of L0 is the union of its pairs' breach
    sets. L0's two neighbours breach on disjoint outputs of mass 1/2 each: per input delta = 1, per pair 1/2."""
    mech = finite_mechanism({"L0": {"a": Q(1, 2), "b": Q(1, 2)},
                             "L1": {"a": Q(1, 2), "b": Q(1, 4), "c": Q(1, 4)},
                             "L2": {"a": Q(1, 4), "b": Q(1, 2), "d": Q(1, 4)}}, [("L0", "L1"), ("L0", "L2")])
    assert exact.probabilistic_dp_delta(mech, 0, "pair")[0] == Q(1, 2)
    d, w = exact.probabilistic_dp_delta(mech, 0, "input")
    assert d == 1 and w.L == "L0" and set(w.outputs) == {"a", "b", "c", "d"}


def test_fast_twin_at_float_ties_never_claims_privacy():
    """Probabilities that differ by 10^-20 round to the same float: the fast twin must still answer as cautiously as
    the exact one (its margins), and its delta values are upper bounds (rounded up, never below the exact delta)."""
    tiny = Q(1, 10**20)
    # p(x) = 1/3 + tiny > q(x) = 1/3 (floats equal): not 0-DP; both x and y breach Definition 3 (least delta 1)
    m1 = finite_mechanism({0: {"x": Q(1, 3) + tiny, "y": Q(2, 3) - tiny}, 1: {"x": Q(1, 3), "y": Q(2, 3)}}, [(0, 1)])
    assert not exact.is_differentially_private(m1, 0) and not fast.is_differentially_private(m1, 0)
    assert exact.probabilistic_dp_delta(m1, 0)[0] == 1 and fast.probabilistic_dp_delta(m1, 0)[0] == 1.0
    assert not fast.is_probabilistically_private(m1, 0, Q(1, 2))
    # least delta exactly 1/3 (float(1/3) < 1/3), no output near the bounds at e^eps = 2: the fast value is rounded up
    m2 = finite_mechanism({0: {"x": Q(1, 3), "y": Q(2, 3)}, 1: {"y": Q(2, 3), "z": Q(1, 3)}}, [(0, 1)])
    d_exact = exact.probabilistic_dp_delta(m2, "ln(2)")[0]
    d_fast = fast.probabilistic_dp_delta(m2, "ln(2)")[0]
    assert d_exact == Q(1, 3) and Q(d_fast) >= d_exact and d_fast < 0.34
    # hockey stick exactly 1/4; delta = 1/4 - tiny rounds to 0.25: not indistinguishable, by either twin
    m3 = finite_mechanism({0: {"x": Q(1, 2), "y": Q(1, 2)}, 1: {"x": Q(1, 4), "y": Q(3, 4)}}, [(0, 1)])
    assert not exact.is_indistinguishable(m3, 0, Q(1, 4) - tiny)
    assert not fast.is_indistinguishable(m3, 0, Q(1, 4) - tiny)


def test_neighbour_relation_is_symmetric():
    """Neighbouring inputs differ in one user's data, a symmetric relation (000 §2.2.1): the mechanism keeps both
    orders of every given pair, once each, and neighbours_of reads them both ways."""
    mech = finite_mechanism({0: {"a": 1}, 1: {"a": 1}, 2: {"a": 1}}, [(0, 1), (2, 1), (1, 0)])
    assert set(mech.pairs) == {(0, 1), (1, 0), (2, 1), (1, 2)} and len(mech.pairs) == 4
    assert sorted(mech.neighbours_of(1)) == [0, 2] and mech.neighbours_of(0) == [1] and mech.neighbours_of(2) == [1]


def test_breach_set_holds_both_bounds():
    """Definition 3's Omega_1 needs e^-eps q(O) <= p(O) <= e^eps q(O): with e^eps = 2, A = {x: 7/8, y: 1/8} and
    B = {x: 1/2, y: 1/2}, y breaches (A, B) by the lower bound only (1/8 < 1/4) and x by neither; (B, A) breaches on y
    by the upper bound (1/2 > 1/4). Least delta per pair: 1/2."""
    mech = finite_mechanism({"A": {"x": Q(7, 8), "y": Q(1, 8)}, "B": {"x": Q(1, 2), "y": Q(1, 2)}}, [("A", "B")])
    assert exact.breaching_outputs(mech, "A", "B", "ln(2)") == ["y"]
    assert exact.breaching_outputs(mech, "B", "A", "ln(2)") == ["y"]
    assert exact.probabilistic_dp_delta(mech, "ln(2)")[0] == Q(1, 2)


def test_finite_mechanisms_draw_every_size_and_the_constant_one_rarely():
    """The searches' generator reaches every input count and every output count 1..max_outputs (the one-output,
    constant, mechanism included) and nothing outside; it draws the constant mechanism about once in 16 (it was one
    draw in four, most of them repeats)."""
    import random

    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis.errors import NoSuchExample

    fast_find = settings(phases=[Phase.generate], max_examples=500, database=None, suppress_health_check=list(HealthCheck))
    for k in (2, 3):
        for m in (1, 2, 3, 4):
            mech = find(finite_mechanisms(max_outputs=4), lambda x: (len(x.inputs), len(x.outputs)) == (k, m),
                        settings=fast_find, random=random.Random(k * 10 + m))
            assert (len(mech.inputs), len(mech.outputs)) == (k, m)
    sizes: list[int] = []  # the output counts of 400 examples, as a ledger search draws them
    with pytest.raises(NoSuchExample):
        find(finite_mechanisms(max_outputs=4), lambda x: sizes.append(len(x.outputs)) and False,
             settings=settings(fast_find, max_examples=400), random=random.Random(0))
    assert len(sizes) == 400 and set(sizes) <= {1, 2, 3, 4}
    assert 0 < sizes.count(1) < len(sizes) / 8, sizes.count(1)
