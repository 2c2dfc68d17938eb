"""The ads door decides "Greedy is optimal here" for every tie rule (the documents print Algorithm 6's argmax with
no tie rule), and theory.ads.greedy_runs.revenue_range finds the least and greatest revenue any run reaches."""

from __future__ import annotations

from hypothesis import given, settings

from privclaims import ads
from privclaims.cli import main
from privclaims.counterexamples.ads_strategies import instance_and_k
from privclaims.theory.ads.exact import expected_revenue
from privclaims.theory.ads.greedy_runs import greedy_orders, revenue_range
from privclaims.theory.errors import InvalidInput

import pytest

# Four equally likely contexts; x covers c0, c1, y covers c1, c2, u covers c2, c3. Round 1 ties x, y, u (benefit
# 1/2 each). Lowest id: x, then u (1/2) -> revenue 1, optimal. Another tie rule: y first, then x or u adds 1/4 ->
# revenue 3/4 < 1: that run of the paper's Greedy is not optimal (and meets 1 - (1 - 1/2)^2 = 3/4 exactly).
TIE = {"contexts": ["c0", "c1", "c2", "c3"], "weights": ["1/4"] * 4,
       "ads": [{"name": "x", "ctr": ["1", "1", "0", "0"], "payment": "1"},
               {"name": "y", "ctr": ["0", "1", "1", "0"], "payment": "1"},
               {"name": "u", "ctr": ["0", "0", "1", "1"], "payment": "1"}]}


def test_optimal_only_under_the_lowest_id_is_not_optimal():
    r = ads.greedy(ads.load_instance(TIE), 2, optimum=True)
    assert r.greedy_ads == ("x", "u") and r.greedy_revenue == 1 and r.optimum_revenue == 1
    assert not r.holds  # was True: "Greedy is optimal on this instance"
    assert r.least_ads == ("y", "x") and r.least_revenue == ads.Q(3, 4) and r.ratio == ads.Q(3, 4) == r.bound
    assert r.tied_rounds == ((1, ("x", "y", "u")),)
    text = r.summary()
    assert "round 1 among x, y, u" in text and "NOT optimal under every tie rule: the run y, x earns 3/4" in text


def test_door_exit_status_on_the_tie_witness(tmp_path, capsys):
    import json

    f = tmp_path / "tie.json"
    f.write_text(json.dumps(TIE))
    assert main(["ads", "greedy", str(f), "--k", "2", "--optimum"]) == 1
    out = capsys.readouterr().out
    assert "Under another tie rule Greedy sends y, x" in out


def test_no_tie_keeps_the_run_and_its_verdict():
    d = {**TIE, "weights": ["2/5", "1/5", "1/5", "1/5"]}  # x (3/5) beats y and u (2/5), then u (2/5) beats y (1/5)
    r = ads.greedy(ads.load_instance(d), 2, optimum=True)
    assert r.tied_rounds == () and r.least_ads == r.greedy_ads == ("x", "u") and r.holds


@settings(max_examples=60, deadline=None)
@given(instance_and_k(max_ads=5, max_contexts=4, context_payments=True, threshold=True))
def test_revenue_range_is_every_run_s(ik):
    """Against the set-based enumeration of every order (greedy_orders, over the new ads)."""
    inst, k = ik
    revs = {o: expected_revenue(inst, o) for o in greedy_orders(inst, k)}
    rng = revenue_range(inst, k)
    assert rng.least == min(revs.values()) and rng.most == max(revs.values())
    assert rng.least_order in revs and revs[rng.least_order] == rng.least
    assert rng.most_order in revs and revs[rng.most_order] == rng.most


def test_revenue_range_refuses_beyond_its_work_limit():
    n = 6  # six ads on six contexts, each its own: every round ties all remaining ads
    d = {"contexts": [f"c{j}" for j in range(n)], "weights": [f"1/{n}"] * n,
         "ads": [{"name": f"a{i}", "ctr": ["1" if j == i else "0" for j in range(n)], "payment": "1"} for i in range(n)]}
    inst = ads.load_instance(d)
    assert revenue_range(inst, 3).least == ads.Q(1, 2)
    with pytest.raises(InvalidInput, match="benefit terms"):
        revenue_range(inst, 3, max_work=10 * n * n)
