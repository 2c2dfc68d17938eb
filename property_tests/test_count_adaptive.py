"""Estimates' adaptive output as a finite mechanism (theory/count/exact_adaptive.py), for count.cor2."""

import random

import pytest

from theory.count.exact_adaptive import (count_only, estimates_mechanism, gaussian_tail_bound,
                                         truncated_discrete_gaussian, untruncated_delta_bound)
from theory.count.exact_topdown import estimates
from theory.count.hierarchy import Entry, complete_tree
from theory.dp import exact as dpx
from theory.errors import InvalidInput
from theory.numbers import ONE, Epsilon, Q


def _chain_logs():
    h = complete_tree(1, 2)
    leaf = h.leaves()[0]
    users = [Entry(f"u{i}", leaf, "a", i % 2 == 1) for i in range(3)]
    return h, {f"L{k}": users[:k] for k in (1, 2, 3)}


def test_truncated_law_is_a_symmetric_distribution_and_the_tail_bound_holds():
    w, K = Q(7, 10), 4
    pmf = truncated_discrete_gaussian(w, K)
    assert sum(pmf.values()) == ONE and all(pmf[x] == pmf[-x] for x in pmf)
    assert pmf[0] > pmf[1] > pmf[2]
    # the true tail Pr[|X| > K] of the untruncated law is below the bound (long partial sums: both
    # the tail and the normaliser are under-counted only by terms far smaller than the gap)
    tail = 2 * sum(w ** (x * x) for x in range(K + 1, 40)) / sum(w ** (x * x) for x in range(-40, 41))
    assert tail <= gaussian_tail_bound(w, K) < 4 * tail


def test_every_output_is_what_estimates_releases_with_that_noise():
    h, logs = _chain_logs()
    pmf = truncated_discrete_gaussian(Q(1, 2), 2)
    mech = estimates_mechanism(logs, [("L1", "L2"), ("L2", "L3")], h, 1, 1, pmf, {})
    rng = random.Random(5)
    for _ in range(30):
        draws = {("count", v): rng.choice(list(pmf)) for v in h.nodes}
        res = estimates(logs["L2"], h, 1, 1, noise=lambda k: draws[k], bids={})
        out = (tuple(sorted(res.counts.items(), key=repr)), ())
        p = ONE
        for v in res.counts:
            p *= pmf[draws[("count", v)]]
        assert mech.pr("L2", out) == p  # exactly the calls Estimates made, each with its noise
    assert count_only(mech)


def test_adaptive_release_fails_at_small_sigma_and_holds_at_large():
    """The decision can fail: tiny noise (w = 1/100) breaches far beyond delta = 1/2; w = 49/50 does not."""
    h, logs = _chain_logs()
    eps = Epsilon.from_exp(Q(27, 10))
    for w, K, private in [(Q(1, 100), 2, False), (Q(49, 50), 14, True)]:
        mech = estimates_mechanism(logs, [("L1", "L2"), ("L2", "L3")], h, 1, 1, truncated_discrete_gaussian(w, K), {})
        for q in ("pair", "input"):
            d, _ = dpx.probabilistic_dp_delta(mech, eps, q)
            assert (untruncated_delta_bound(mech, d, w, K, 2) <= Q(1, 2)) is private


def test_ctr_outputs_are_refused_by_the_transfer_bound():
    h, logs = _chain_logs()
    pmf = truncated_discrete_gaussian(Q(1, 2), 1)
    mech = estimates_mechanism({"L1": logs["L1"], "L2": logs["L2"]}, [("L1", "L2")], h, 0, 1, pmf, {h.root: ["a"]})
    assert not count_only(mech)
    with pytest.raises(InvalidInput, match="count-only"):
        untruncated_delta_bound(mech, 0, Q(1, 2), 1, 2)


@pytest.mark.parametrize("bad", [0, 1, Q(3, 2), -1])
def test_base_outside_the_unit_interval_is_refused(bad):
    with pytest.raises(InvalidInput, match="w ="):
        truncated_discrete_gaussian(bad, 3)


@pytest.mark.parametrize("bad", [
    dict(logs=[]), dict(logs="L"), dict(pmf={}), dict(pmf={0.5: Q(1)}), dict(pmf={0: Q(1, 2)}), dict(bids=None),
])
def test_estimates_mechanism_refuses_bad_input(bad):
    h, logs = _chain_logs()
    args = dict(logs=logs, neighbours=[("L1", "L2")], h=h, min_support=1, m=1, pmf={0: ONE}, bids={})
    args.update(bad)
    with pytest.raises(InvalidInput):
        estimates_mechanism(**args)
