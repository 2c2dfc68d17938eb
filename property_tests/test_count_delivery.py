"""Released TopDown statistics feed the ads area's Greedy (privclaims.theory.count.delivery)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from privclaims.theory.ads import exact as ads_exact
from privclaims.theory.count.delivery import backed_off_ctr, delivery_instance
from privclaims.theory.count.exact_topdown import estimates, true_counts
from privclaims.theory.count.hierarchy import Entry, Hierarchy
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q

H = Hierarchy({"park": "root", "mall": "root", "run": "park", "skate": "park", "shop": "mall"}, "root")


def _log(rows):
    return [Entry(u, c, a, bool(k)) for u, c, a, k in rows]


LOG = _log([(u, c, a, (u + i) % 3 == 0) for u in range(12) for i, (c, a) in
            enumerate([("run", "shoes"), ("skate", "boards"), ("shop", "shoes"), ("run", "boards")])])


def test_noiseless_release_gives_the_true_ctrs_and_context_shares():
    res = estimates(LOG, H, min_support=0, m=10)
    inst = delivery_instance(res, H, "park", ["shoes", "boards"])
    cnt, clk, nclk = true_counts(LOG, H)
    for j, c in enumerate(inst.contexts):
        assert inst.weights[j] == Q(cnt[c], cnt["run"] + cnt["skate"])
        for a, ad in enumerate(["shoes", "boards"]):
            x, y = clk.get((ad, c), 0), nclk.get((ad, c), 0)
            want = Q(x, x + y) if x + y else backed_off_ctr(res, H, ad, "park")
            assert inst.ctr[a][j] == want
    chosen = ads_exact.greedy(inst, 1)  # for k = 1 Greedy is optimal
    assert ads_exact.expected_revenue(inst, chosen) == ads_exact.optimum(inst, 1)[1]


def test_unexpanded_contexts_back_off_to_their_ancestor():
    res = estimates(LOG, H, min_support=1000, m=10)  # only the root is counted, nothing expanded
    assert backed_off_ctr(res, H, "shoes", "run") == 0
    res = estimates(LOG, H, min_support=0, m=10, depth_limit=1)  # root and park/mall, not the leaves
    assert backed_off_ctr(res, H, "shoes", "run") == res.ctr[("shoes", "park")]


@given(st.lists(st.integers(-5, 5), min_size=12, max_size=12))
def test_noisy_release_still_gives_a_valid_instance(noise_values):
    it = iter(noise_values * 10)
    cache = {}

    def noise(key):
        return cache.setdefault(key, next(it))

    res = estimates(LOG, H, min_support=0, m=10, noise=noise)
    inst = delivery_instance(res, H, "park", ["shoes", "boards"], threshold="1/10")
    assert sum(inst.weights) == 1 and all(0 <= x <= 1 for row in inst.ctr for x in row)
    assert len(ads_exact.greedy(inst, 2)) == 2


def test_bad_delivery_requests():
    res = estimates(LOG, H, min_support=0, m=10)
    with pytest.raises(InvalidInput, match="unknown generalised context"):
        delivery_instance(res, H, "moon", ["shoes"])
    with pytest.raises(InvalidInput, match="no contexts below"):
        delivery_instance(res, H, "run", ["shoes"])
    with pytest.raises(InvalidInput, match="no ads"):
        delivery_instance(res, H, "park", [])
