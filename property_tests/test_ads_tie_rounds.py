"""revenue_range and maximisers_along (theory/ads/greedy_runs.py) checked against a brute-force enumeration of
every run of Algorithm 6 (any maximiser among the new ads), on instances with ties in every round and with
zero-benefit rounds (k above the number of ads that add anything)."""

from __future__ import annotations

import random
from fractions import Fraction

from privclaims import ads
from privclaims.theory.ads.greedy_runs import maximisers_along, revenue_range
from privclaims.theory.ads.model import ad_instance

# x covers c0, c1; y covers c1, c2; u covers c2, c3 (four contexts of weight 1/4)
TIE = ad_instance(["1/4"] * 4, [["1", "1", "0", "0"], ["0", "1", "1", "0"], ["0", "0", "1", "1"]])


def _rev(inst, A):
    vals = inst.values()
    return sum((w * max((vals[a][j] for a in A), default=0) for j, w in enumerate(inst.weights)), Fraction(0))


def _runs(inst, k):
    """Every run: each round adds any new ad of largest benefit (no state merging)."""
    out = []

    def rec(order):
        if len(order) == k:
            out.append(order)
            return
        base = _rev(inst, order)
        b = {a: _rev(inst, order + (a,)) - base for a in range(inst.n_ads) if a not in order}
        best = max(b.values())
        for a, v in b.items():
            if v == best:
                rec(order + (a,))

    rec(())
    return out


def _maximisers(inst, order):
    res = []
    for l in range(len(order)):
        base = _rev(inst, order[:l])
        b = {a: _rev(inst, order[:l] + (a,)) - base for a in range(inst.n_ads) if a not in order[:l]}
        best = max(b.values())
        res.append(tuple(a for a, v in b.items() if v == best))
    return res


def test_zero_benefit_round_ties_only_the_unchosen_ads():
    # order x, u, y: round 1 ties all three (1/2), round 2 only u (1/2 > 1/4), round 3 only y is left (benefit 0)
    assert maximisers_along(TIE, (0, 2, 1)) == [(0, 1, 2), (2,), (1,)]
    r = ads.greedy(TIE, 3)
    assert r.greedy_ads == ("0", "2", "1") and r.tied_rounds == ((1, ("0", "1", "2")),)


def test_states_are_merged_by_per_context_best_values():
    # six ads, each alone on one of six equally likely contexts: every round ties every new ad; the runs reach
    # C(6, l) distinct sets after l rounds, though 6 * 5 * ... orders lead there
    n = 6
    inst = ad_instance([Fraction(1, n)] * n, [[1 if j == i else 0 for j in range(n)] for i in range(n)])
    rng = revenue_range(inst, 3)
    assert rng.states == 1 + 6 + 15 + 20 and rng.least == rng.most == Fraction(1, 2)


def test_range_and_tied_rounds_against_every_run():
    rnd = random.Random(7)
    for _ in range(150):
        n, m = rnd.randint(1, 5), rnd.randint(1, 3)
        w = [rnd.choice([0, 1, 1, 2]) for _ in range(m)]
        w[0] += sum(w) == 0
        ctr = [[Fraction(rnd.choice([0, 0, 1, 2]), 2) for _ in range(m)] for _ in range(n)]
        pay = [[rnd.choice([0, 1, 2]) for _ in range(m)] for _ in range(n)] if rnd.random() < 0.5 else None
        inst = ad_instance([Fraction(x, sum(w)) for x in w], ctr, pay)
        k = rnd.randint(1, n)
        runs = _runs(inst, k)
        revs = {o: _rev(inst, o) for o in runs}
        rng = revenue_range(inst, k)
        assert (rng.least, rng.most) == (min(revs.values()), max(revs.values()))
        assert revs.get(rng.least_order) == rng.least and revs.get(rng.most_order) == rng.most
        for o in runs[:4]:
            assert maximisers_along(inst, o) == _maximisers(inst, o)
