"""Weak adversaries (001 §6), the experiment's segment posterior and the synthetic generator."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

from privclaims.counterexamples.maskit_strategies import instances
from privclaims.theory.errors import InvalidInput
from privclaims.theory.maskit import exact as E
from privclaims.theory.maskit.experiment import evaluate_user, segment_posterior
from privclaims.theory.maskit.model import markov_chain, suppression_vector
from privclaims.theory.maskit.synthetic import generate_days, routine_chain
from privclaims.theory.maskit.system import probabilistic_system
from privclaims.theory.maskit.weak import frequency_chain, label_distribution, mixture_max_breach, set_labelled, weak_prior
from privclaims.theory.numbers import Q


@given(instances(max_n=3, max_T=3))
def test_segment_posterior_matches_exact_partial(inst):
    ch, p, S, d = inst
    P = np.array([[float(v) for v in r] for r in suppression_vector(ch, p)])
    for t1, i, t2, j, D, Fw, H in E.partial_outputs(ch, suppression_vector(ch, p)):
        for t in range(t1 + 1, min(t2, ch.T + 1)):
            ex = E.partial_posterior(ch, p, t1, i, t2, j, t)
            fl = segment_posterior(ch, P, t1, i, t2, None if j == "end" else j, t)
            assert fl is not None and np.allclose(fl, np.array(ex, float), atol=1e-9)


def test_weak_adversary_helpers():
    ids = markov_chain(["1", "2"], ["1/2", "1/2"], [])
    M1 = set_labelled(ids, {"1": {"s", "y", "z"}, "2": {"x"}}, {"1": "s", "2": "x"})
    lam = label_distribution(M1, {"1": {"s": "1/3", "y": "1/3", "z": "1/3"}, "2": {"x": 1}})
    assert weak_prior(M1, lam, 1, "s") == Q(1, 6)
    with pytest.raises(InvalidInput, match="does not contain the true context"):
        set_labelled(ids, {"1": {"y"}, "2": {"x"}}, {"1": "s", "2": "x"})
    with pytest.raises(InvalidInput, match="outside"):
        label_distribution(M1, {"1": {"q": 1}, "2": {"x": 1}})
    with pytest.raises(InvalidInput, match="sum to 1"):
        ch = markov_chain(["s", "x"], ["1/2", "1/2"], [])
        mixture_max_breach([(Q(1, 2), probabilistic_system(ch, {"s": 1}))], ["s"])


def test_frequency_chain_keeps_marginals():
    ch, S = routine_chain(1, n=4, T=5, days=20)
    assert E.prior_beliefs(frequency_chain(ch)) == E.prior_beliefs(ch)


def test_generator_is_seeded_and_evaluation_runs():
    assert generate_days(3, 5, 6, 4) == generate_days(3, 5, 6, 4)
    days = generate_days(3, 5, 6, 12)
    ctx = [f"L{i}" for i in range(5)]
    tr = [[ctx[i] for i in d] for d in days[:6]]
    te = [[ctx[i] for i in d] for d in days[6:]]
    r = evaluate_user(tr, te, ctx, ["L1"], Q(1, 5), 4, np.random.default_rng(0))
    assert 0 <= r["probabilistic_utility"] <= 1 and 0 <= r["simulatable_utility"] <= 1
    assert r["mask_sensitive_utility"] >= 1 - r["sensitive_fraction"] - 1e-12


# --------------------------------------------------------------------------- operation counts (Table 3.2)


@pytest.mark.parametrize("seed", range(4))
def test_counted_greedy_search_is_the_fast_search(seed):
    """The experiment counts the probabilistic initialize with search.greedy_mondrian on the fast twin: it must make
    the same decisions as fast.greedy_mondrian (same vector, same ISPRIVATE calls), and the counter must see every call."""
    from privclaims.theory.maskit import fast as F
    from privclaims.theory.maskit.search import greedy_mondrian

    ch, S = routine_chain(seed, n=4, T=5, days=30)
    K, calls = F.greedy_mondrian(ch, S, Q(1, 10), 10)
    ops = E.OpCount()
    out = greedy_mondrian(ch, S, Q(1, 10), 10, twin=F, ops=ops)
    assert np.array_equal(K, np.array([[int(v * 10) for v in r] for r in out.p]))
    assert calls == out.is_private_calls == ops.is_private_calls and ops.beliefs > 0


@pytest.mark.parametrize("improved", [True, False], ids=["Algorithm 5", "Algorithm 4"])
@pytest.mark.parametrize("twin", ["exact", "fast"])
def test_simulatable_counter_counts_every_decision_as_if_unmemoised(improved, twin):
    """SimulatableCheck(ops=...) adds, on every call, the beliefs the twin's okayToRelease computes for that call -
    for Algorithm 5 (memoised on the last release) and Algorithm 4 (memoised on the output prefix), each twin; days
    that share prefixes make the memo answer most calls."""
    from privclaims.theory.maskit import fast as F
    from privclaims.theory.maskit.system import SimulatableCheck, maskit

    tw = F if twin == "fast" else E
    ch, S = routine_chain(3, n=4, T=6, days=30)
    ops = E.OpCount()
    chk = SimulatableCheck(ch, S, Q(1, 10), twin=tw, improved=improved, ops=ops)
    days = [[0, 1, 2, 1, 0, 3], [0, 0, 1, 2, 3, 3], [0, 1, 2, 1, 0, 3], [0, 1, 2, 2, 3, 1]]
    expected, decisions = 0, 0
    for x in days:
        out = maskit(ch, chk, x)
        for t in range(1, ch.T + 1):
            one = E.OpCount()
            tw.okay_to_release(ch, S, Q(1, 10), list(out[: t - 1]), improved=improved, ops=one)
            expected, decisions = expected + one.beliefs, decisions + 1
    assert chk.decisions == decisions and ops.beliefs == expected > 0
    assert len(chk.memo) < decisions  # the memo answered some calls, and still counted their work


def test_reach_table_mult_adds_counts_the_products_reach_table_makes(monkeypatch):
    """fast.reach_table_mult_adds (charged to the simulatable decisions in Table 3.2) = n^3 per n x n product the
    table's construction actually performs."""
    from privclaims.theory.maskit import fast as F

    ch, _ = routine_chain(1, n=4, T=6, days=30)
    products = []
    real = F.np.dot
    monkeypatch.setattr(F.np, "dot", lambda a, b: products.append(a.shape) or real(a, b))  # the n x n products
    F.reach_table(ch)
    assert len(products) > 0 and F.reach_table_mult_adds(ch) == len(products) * ch.n ** 3


def test_table3_2_shape_fails_below_the_tolerance():
    """maskit.table3_2's shape is a real condition: it fails just below TABLE3_2_TOLERANCE simulatable decisions,
    and when a probabilistic decision is not cheaper than a simulatable one."""
    from privclaims.checks.claims.maskit.experiments import TABLE3_2_TOLERANCE, table3_2_shape

    m = {"probabilistic_initialize_isprivate_calls": 133, "simulatable_okay_to_release_work": 630.0,
         "probabilistic_okay_to_release_work": 1}
    assert table3_2_shape(dict(m, probabilistic_initialize_work=TABLE3_2_TOLERANCE * 630.0))
    assert not table3_2_shape(dict(m, probabilistic_initialize_work=TABLE3_2_TOLERANCE * 630.0 - 1))
    assert not table3_2_shape(dict(m, probabilistic_initialize_work=1e9, probabilistic_okay_to_release_work=630.0))


@settings(max_examples=40, deadline=None)
@given(instances(max_n=3, max_T=4))
def test_proposition3_holds_on_every_full_output(inst):
    """Proposition 3 (000 §3.4.5): on every full output (none skipped), Eq. 3.3's posterior = Alg. 3's partial posterior
    = the literal conditional on the partial output o_t1, ⊥..⊥, o_t2 (Bayes over every input stream)."""
    from privclaims.checks.claims.maskit.beliefs import prop3_holds

    assert prop3_holds(inst)


@settings(max_examples=40, deadline=None)
@given(instances(max_n=3, max_T=4))
def test_proposition5_holds_on_every_output_prefix(inst):
    """Proposition 5 (000 §3.5.1) for every prefix o_1..o_t' (t' = 1..T), MaskIt's simulatable check and arbitrary
    deterministic simulatable rules: the literal posterior = Pr[X_t = s | X_t1, X_t2] of the nearest releases."""
    from privclaims.checks.claims.maskit.beliefs import prop5_holds

    coverage: dict[str, int] = {}
    assert prop5_holds(inst, coverage)
    assert sorted(coverage) == [f"t'={k}" for k in range(1, inst[0].T + 1)] and all(coverage.values()), coverage


def test_proposition5_refuses_a_rule_that_reads_the_input(monkeypatch):
    """helper-85: a rule reading the current context (not simulatable, outside Proposition 5's model) made a
    'refuted' whose model said valid. prop5_holds now checks each system is simulatable (the streams sharing
    o_1..o_{t'-1} agree on releasing at t') and raises, naming the system and the prefix."""
    from privclaims.checks.claims.maskit import beliefs
    from privclaims.theory.maskit.figures import figure_3_2
    from privclaims.theory.numbers import Q

    ch = figure_3_2()
    assert beliefs.prop5_holds((ch, None, [ch.contexts[0]], Q(1, 2)))

    class ReadsInput:
        def initialize(self):
            return None

        def okay_to_release(self, i, t, prefix):
            return i == 0

    monkeypatch.setattr(beliefs, "_random_rules", lambda ch, k: iter([ReadsInput()]))
    with pytest.raises(ValueError, match=r"system 1 .* is not simulatable: streams with output prefix"):
        beliefs.prop5_holds((ch, None, [ch.contexts[0]], Q(1, 2)))
