"""Estimates' adaptive output as a finite mechanism (theory/count/exact_adaptive.py), for count.cor2."""

import random

import pytest

from privclaims.theory.count.exact_adaptive import (count_only, estimates_mechanism, gaussian_tail_bound, released_delta_bound,
                                         truncated_discrete_gaussian, untruncated_delta_bound)
from privclaims.theory.count.exact_topdown import estimates
from privclaims.theory.count.hierarchy import Entry, complete_tree
from privclaims.theory.dp import exact as dpx
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import ONE, Epsilon, Q


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


def _root_ad_logs():
    h = complete_tree(1, 1)
    users = [Entry(f"u{i}", h.root, "a", i % 2 == 1) for i in range(3)]
    return h, {f"L{k}": users[:k] for k in (1, 2, 3)}


@pytest.mark.parametrize("with_ctr", [False, True])
@pytest.mark.parametrize("q", ["pair", "input"])
def test_released_delta_bound_covers_a_wider_window(with_ctr, q):
    """The transfer theorem holds for any pair of windows K < K' (M_K' plays the untruncated M, with
    1 - q' <= keys x tail): the least delta of M_K' at eps never exceeds the bound computed from M_K.
    Run with CTR outputs (one bidding ad) and count-only, both quantifier orders; w = 4/5 makes the
    window K = 4 cut real mass, so the bound's tail term is exercised."""
    h, logs = _chain_logs() if not with_ctr else _root_ad_logs()
    bids = {h.root: ["a"]} if with_ctr else {}
    keys = len(h.nodes) * (3 if with_ctr else 1)
    eps, w = Q(4), Q(4, 5)
    small, wide = (estimates_mechanism(logs, [("L1", "L2"), ("L2", "L3")], h, 1, 1, truncated_discrete_gaussian(w, k), bids)
                   for k in (4, 7))
    assert count_only(small) is not with_ctr
    bound, d_small, _ = released_delta_bound(small, eps, Q(5, 4), w, 4, keys, q)
    d_wide, _ = dpx.probabilistic_dp_delta(wide, Epsilon.from_exp(eps), q)
    assert d_wide <= bound
    assert d_small < bound < 1  # the tail term is positive and the bound says something
    d_at_eps, _ = dpx.probabilistic_dp_delta(small, Epsilon.from_exp(eps), q)
    assert d_at_eps < d_wide  # the window really cuts privacy-relevant mass: a bound without the tail term is wrong
    if not with_ctr:  # the sharper count-only transfer (no eps slack) covers it too
        assert d_wide <= untruncated_delta_bound(small, d_at_eps, w, 4, keys)


def test_released_delta_bound_fails_at_small_sigma_with_ctrs():
    """The CTR decision can fail: w = 1/100 (sigma^2 ~ 0.11) breaches any delta below 1/2."""
    h, logs = _root_ad_logs()
    mech = estimates_mechanism(logs, [("L1", "L2"), ("L2", "L3")], h, 1, 1, truncated_discrete_gaussian(Q(1, 100), 2),
                               {h.root: ["a"]})
    bound, d_k, _ = released_delta_bound(mech, Q(27, 10), Q(11, 10), Q(1, 100), 2, 3, "pair")
    assert d_k > Q(1, 2) and bound >= d_k


@pytest.mark.parametrize("s", [1, Q(1, 2), Q(3)])
def test_released_delta_bound_refuses_a_bad_slack(s):
    h, logs = _chain_logs()
    mech = estimates_mechanism(logs, [("L1", "L2")], h, 1, 1, {0: ONE}, {})
    with pytest.raises(InvalidInput, match="s ="):
        released_delta_bound(mech, Q(27, 10), s, Q(1, 2), 1, 2)


@pytest.mark.parametrize("seed", range(4))
def test_outputs_follow_the_seeded_input_step_when_users_have_more_than_m_entries(seed):
    """Each user keeps m = 1 of its entries (Algorithm 7, seeded): the mechanism's outputs are Estimates' with the
    same seed, so which entry is kept decides which leaf's count is positive. Two leaves, three users with an entry
    under each; every output of 30 random noise draws has exactly the probability of its draws."""
    h = complete_tree(2, 2)
    a, b = sorted(h.leaves(), key=repr)
    log = [Entry(f"u{i}", leaf, "x", (i + j) % 2 == 0) for i in range(3) for j, leaf in enumerate((a, b))]
    pmf = truncated_discrete_gaussian(Q(1, 2), 1)
    mech = estimates_mechanism({"L": log, "L'": log[:4]}, [("L", "L'")], h, 1, 1, pmf, {}, seed=seed)
    rng = random.Random(seed)
    for _ in range(30):
        draws = {("count", v): rng.choice(list(pmf)) for v in h.nodes}
        res = estimates(log, h, 1, 1, noise=lambda k: draws[k], bids={}, seed=seed)
        out = (tuple(sorted(res.counts.items(), key=repr)), ())
        p = ONE
        for v in res.counts:
            p *= pmf[draws[("count", v)]]
        assert mech.pr("L", out) == p
    assert len(mech.outputs) > 3
