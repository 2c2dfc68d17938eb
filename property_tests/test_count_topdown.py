"""Estimates/TopDown twins, hierarchy validation, churn twins, the AOL reader on synthetic files."""

import random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from privclaims.theory.count import exact_churn, fast_churn, fast_topdown
from privclaims.theory.count.aol import read_user_log
from privclaims.theory.count.hierarchy import Entry, Hierarchy, ReadOnlyMap, complete_tree, validate_log
from privclaims.theory.count.exact_topdown import estimates, limit_contributions, proposition8_bound
from privclaims.theory.errors import InvalidInput


@st.composite
def instances(draw):
    h = complete_tree(draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    leaves = h.leaves()
    n = draw(st.integers(1, 6))
    log = [Entry(u, draw(st.sampled_from(leaves)), draw(st.sampled_from("ab")), draw(st.booleans()))
           for u in range(n) for _ in range(draw(st.integers(1, 3)))]
    return h, log


@settings(max_examples=40, deadline=None)
@given(instances(), st.integers(0, 4), st.integers(1, 3), st.sampled_from([None, 0, 1, 2]))
def test_exact_vs_fast_estimates(inst, ms, m, dl):
    h, log = inst
    noise = lambda key: (hash(repr(key)) % 7 - 3) / 2
    a = estimates(log, h, ms, m, noise, depth_limit=dl)
    b = fast_topdown.estimates(log, h, ms, m, noise, depth_limit=dl)
    assert a.calls == b.calls and a.expanded == b.expanded
    for k, v in a.ctr.items():
        assert (v is None) == (b.ctr[k] is None)
        if v is not None:
            assert abs(float(v) - b.ctr[k]) < 1e-9


@settings(max_examples=40, deadline=None)
@given(instances(), st.integers(1, 3))
def test_limit_contributions(inst, m):
    _, log = inst
    lim = limit_contributions(log, m)
    per = {}
    for e in lim:
        per[e.user] = per.get(e.user, 0) + 1
    assert all(v <= m for v in per.values())
    assert set(lim) <= set(log)


def test_hierarchy_errors():
    with pytest.raises(InvalidInput, match="does not reach the root"):
        Hierarchy({"a": "b", "b": "a"}, "r")
    h = complete_tree(2, 2)
    with pytest.raises(InvalidInput, match="unknown context"):
        validate_log([Entry(0, "nowhere", "a", True)], h)
    with pytest.raises(InvalidInput, match="empty"):
        validate_log([], h)
    with pytest.raises(InvalidInput):
        limit_contributions([], 0)


def test_read_only_map_reads_like_its_dict():
    """ReadOnlyMap's membership test and get are its dict's (issue 25): a missing key is not in it and get gives the
    default (the bidders' get(v, ()) of both topdown twins reads an AOL node with no bidder so), a present key with a
    falsy value is in it, and an unhashable key raises TypeError as the dict does."""
    d = {"a": ("x",), None: 0, 1: ()}
    m = ReadOnlyMap(d)
    for k in ("a", None, 1, True, 1.0, "b", 2, ()):
        assert (k in m) == (k in d) and (k not in m) == (k not in d)
        assert m.get(k) == d.get(k) and m.get(k, ()) == d.get(k, ()) and m.get(k, default="z") == d.get(k, "z")
    assert "b" not in m and m.get("b", ()) == () and m.get("b") is None and None in m and m.get(None, 5) == 0
    with pytest.raises(TypeError):
        m.get([])
    with pytest.raises(TypeError):
        m.__contains__([])


def test_prop8_bound_positive():
    assert proposition8_bound(complete_tree(2, 3), 2, 10, 2, 4) == 4 * 3 * 10 * 2 / 4


@pytest.mark.parametrize("proto", ["SHI", "RASTOGI"])
@pytest.mark.parametrize("n,p", [(10, "1/100"), (100, "1/100"), (1000, "1/1000")])
def test_churn_twins_agree(proto, n, p):
    e = float(exact_churn.setup_protocol_phases(proto, n, p))
    f = fast_churn.setup_protocol_phases(proto, n, float(eval(p + ".0")), 4000, np.random.default_rng(0))
    assert abs(f - e) / e < 0.2


def test_churn_bad_input():
    with pytest.raises(InvalidInput):
        exact_churn.setup_protocol_phases("PAXOS", 10, "1/10")
    with pytest.raises(InvalidInput):
        exact_churn.setup_protocol_phases("SHI", 0, "1/10")
    with pytest.raises(InvalidInput):
        exact_churn.setup_protocol_phases("SHI", 10, "3/2")


def test_aol_reader(tmp_path):
    f = tmp_path / "42.txt"
    f.write_text("cheap shoes\t2006-03-01 10:00:00\nhttp://www.shoes.com/\nhttp://a.org/x\n\nnothing\t2006-03-01 11:00:00\n\n")
    ev = read_user_log(f)
    assert [(e.query, e.domain) for e in ev] == [("cheap shoes", "www.shoes.com"), ("cheap shoes", "a.org"), ("nothing", None)]
    bad = tmp_path / "7.txt"
    bad.write_text("http://orphan.com/\n")
    with pytest.raises(InvalidInput, match="7.txt:1"):
        read_user_log(bad)


def test_topdown_expands_only_above_min_support():
    """Algorithm 8 (000 §5.5): "if count_v > min_support then" (strict), CTR^(a|v) = clicks_{a,v}/(clicks_{a,v} +
    no_clicks_{a,v}) (the ad's own impressions, not the node's count: two ads share node x), every entry counted at
    every node of its path (root included); both twins."""
    from fractions import Fraction

    h = Hierarchy({"x": "r", "y": "r"}, "r")
    log = [Entry(0, "x", "a", True), Entry(1, "x", "a", False), Entry(2, "x", "b", False), Entry(3, "y", "a", True)]
    for twin in (estimates, fast_topdown.estimates):
        res = twin(log, h, min_support=3, m=1)  # zero noise: count_r = 4, count_x = 3, count_y = 1
        assert res.counts == {"r": 4, "x": 3, "y": 1}
        assert res.expanded == ["r"]  # x has count = min_support: not expanded
        assert float(res.ctr[("a", "r")]) == pytest.approx(2 / 3, rel=1e-15) and res.ctr[("b", "r")] == 0
        res2 = twin(log, h, min_support=2, m=1)
        assert res2.expanded == ["r", "x"] and res2.ctr[("a", "x")] == Fraction(1, 2)


def test_fast_topdown_does_not_expand_within_rounding_of_min_support():
    """The fast twin expands a node only when its noisy count exceeds min_support by more than the rounding margin
    (fewer releases): a count of min_support (1 + 2^-45) is expanded by the exact twin (rational noise, strictly
    above) and not by the fast one; a count clearly above is expanded by both."""
    from fractions import Fraction

    h = Hierarchy({"x": "r"}, "r")
    log = [Entry(u, "x", "a", u % 2 == 0) for u in range(3)]
    tiny = lambda key: 3 * 2.0 ** -45 if key == ("count", "r") else 0.0  # noqa: E731
    assert estimates(log, h, 3, 1, noise=lambda k: Fraction(tiny(k))).expanded == ["r"]
    assert fast_topdown.estimates(log, h, 3, 1, noise=tiny).expanded == []
    clear = lambda key: 1e-6 if key == ("count", "r") else 0.0  # noqa: E731
    assert fast_topdown.estimates(log, h, 3, 1, noise=clear).expanded == ["r"]


def test_aol_estimates_noise_has_counts_variance():
    """run_estimates adds to every count Count's total noise N·σ²/((1 − t)N − 1) with σ² of Corollary 2: the sample
    variance of (noisy − exact) counts over seeds matches it (a scale bug, e.g. the variance used as the standard
    deviation, is a factor ~30 off). Review of the dp/count net: such a plant was caught by no test, only by the full
    ledger's fig5_2a/b pins."""
    import math
    import statistics
    from privclaims.theory.count import aol
    events = [aol.Event(f"u{i}", q, d) for i in range(40)
              for q, d in ((f"w{i % 4} x{i % 7}", f"d{i % 5}.com"), (f"w{(i + 1) % 4} y", f"d{(i + 2) % 5}.com"))]
    em = aol.build(events, n_ads=5, per_context=2, seed=0)
    exact = aol.run_estimates(em, None, 0.0, m=4, min_support=-1e9, delta=0.02, depth_limit=1, seed=0)
    t = 0.5
    n = em.n_train_users
    var = n * aol.corollary2_sigma2(1.0, 0.02, 2, 4) / ((1 - t) * n - 1)
    diffs = []
    for seed in range(40):
        res = aol.run_estimates(em, 1.0, t, m=4, min_support=-1e9, delta=0.02, depth_limit=1, seed=seed)
        diffs += [res.counts[v] - exact.counts[v] for v in exact.counts]
    assert len(diffs) >= 200
    ratio = statistics.pvariance(diffs, mu=0.0) / var
    assert 0.7 < ratio < 1.4, (ratio, len(diffs), math.sqrt(var))


def test_fast_estimates_release_float64_tallies_and_refuse_a_non_boolean_click():
    """The fast twin's released values keep their types: every noisy count and the CTR of an ad with a kept entry
    are numpy float64 (a tally plus noise), the CTR of a bidding ad without any kept entry a Python float (noise
    only). A click flag that is not True or False is InvalidInput (the counts add 1 per True)."""
    h = complete_tree(2, 2)
    leaf = h.leaves()[0]
    log = [Entry(u, leaf, "a", u % 2 == 0) for u in range(6)]
    bids = {v: ["a", "ghost"] for v in h.nodes}  # "ghost" bids everywhere but has no entry
    res = fast_topdown.estimates(log, h, 0, 3, lambda key: 0.5, bids=bids)
    assert res.counts and all(type(c) is np.float64 for c in res.counts.values())
    assert {type(x) for (a, _), x in res.ctr.items() if a == "a"} == {np.float64}
    assert {type(x) for (a, _), x in res.ctr.items() if a == "ghost"} == {float}
    for flag in (1, [1], "no", None, np.True_):
        with pytest.raises(InvalidInput, match="clicked"):
            fast_topdown.estimates([Entry("u", leaf, "a", flag)], h, 0, 3)
        with pytest.raises(InvalidInput, match="clicked"):
            estimates([Entry("u", leaf, "a", flag)], h, 0, 3)


def test_aol_runs_share_their_prepared_input_and_release_the_same():
    """run_estimates memoises Algorithm 7's input step per emulation on (m, seed) (issue 25: a figure's runs differ
    only in their noise). Every run, memo hit or miss, releases what TopDown on a fresh preparation releases (pickled
    equal, types included), each (m, seed) keeps its own, and a bool m is still refused after m = 1 was run."""
    import pickle

    from privclaims.theory.count import aol, exact_topdown

    em = _small_emulation()

    def fresh(eps, t, m, seed):
        fresh_em = aol.Emulation(em.hierarchy, tuple(em.train), em.test, em.n_train_users, em.ads, em.bids)
        return aol.run_estimates(fresh_em, eps, t, m=m, min_support=2, delta=0.02, depth_limit=1, seed=seed)

    runs = [(None, 0.0, 2, 0), (1.0, 0.0, 2, 0), (1.0, 0.5, 2, 0), (0.5, 0.0, 1, 1), (1.0, 0.25, 2, 1), (1.0, 0.0, 1, 0)]
    for eps, t, m, seed in runs * 2:
        got = aol.run_estimates(em, eps, t, m=m, min_support=2, delta=0.02, depth_limit=1, seed=seed)
        assert pickle.dumps(got) == pickle.dumps(fresh(eps, t, m, seed)), (eps, t, m, seed)
    keys = [(2, 0), (1, 1), (2, 1), (1, 0)]
    memo = [aol.prepared(em, m, seed) for m, seed in keys]
    assert all(aol.prepared(em, m, seed) is p for (m, seed), p in zip(keys, memo))  # kept, one per (m, seed)
    assert len({id(p) for p in memo}) == 4 and [(p.m, p.seed) for p in memo] == keys
    exact_none = exact_topdown.estimates(list(em.train), em.hierarchy, 2, 2, depth_limit=1, bids=em.bids, seed=0)
    fast_none = aol.run_estimates(em, None, 0.0, m=2, min_support=2, depth_limit=1, seed=0)
    assert {v: float(c) for v, c in exact_none.counts.items()} == {v: float(c) for v, c in fast_none.counts.items()}
    with pytest.raises(InvalidInput, match="contribution bound"):
        aol.run_estimates(em, None, 0.0, m=True, min_support=2, depth_limit=1, seed=0)


def _small_emulation():
    from privclaims.theory.count import aol

    events = [aol.Event(f"u{i}", q, d) for i in range(60)
              for q, d in ((f"w{i % 4} x{i % 7}", f"d{i % 5}.com"), (f"w{(i + 1) % 4} y", f"d{(i + 2) % 5}.com"),
                           (f"w{i % 3} z{i % 2}", None), (f"w{i % 4} x{i % 7}", f"d{(i + 1) % 5}.com"))]
    return aol.build(events, n_ads=5, per_context=2, seed=0)


@pytest.mark.parametrize("block", [1, 3])
def test_aol_noise_drawn_in_blocks_is_one_draw_per_key_in_walk_order(monkeypatch, block):
    """run_estimates draws its Gaussian noise NOISE_BLOCK values at a time (issue 25) and serves them in draw order:
    a run equals the run drawing one value per new key (NOISE_BLOCK = 1: Generator.normal one value at a time), and
    refilling often (NOISE_BLOCK = 3) changes nothing; pickled equal, types included."""
    import pickle

    from privclaims.theory.count import aol

    em = _small_emulation()
    runs = [(1.0, 0.0, 0), (0.5, 0.25, 1), (1.0, 0.5, 3)]
    want = [pickle.dumps(aol.run_estimates(em, e, t, m=2, min_support=2, delta=0.02, depth_limit=1, seed=s))
            for e, t, s in runs]
    monkeypatch.setattr(aol, "NOISE_BLOCK", block)
    got = [pickle.dumps(aol.run_estimates(em, e, t, m=2, min_support=2, delta=0.02, depth_limit=1, seed=s))
           for e, t, s in runs]
    assert got == want
    assert aol.run_estimates(em, 1.0, 0.0, m=2, min_support=2, depth_limit=1, seed=0).calls > 3 * block


def test_aol_precision_coverage_is_its_definition():
    """precision_coverage against the definition written out: each test entry's pick is the best ad (highest CTR,
    lowest id on ties) of the deepest node on its leaf's path that has one; at threshold θ the shown picks are those
    with CTR >= θ, coverage = shown / all test entries, precision = clicked among shown (NaN if none). Thresholds at
    the CTRs themselves (where >= and > differ), between them and above them all."""
    import math

    from privclaims.theory.count import aol

    em = _small_emulation()
    for eps, seed in ((None, 0), (1.0, 0), (1.0, 2)):
        res = aol.run_estimates(em, eps, 0.0, m=2, min_support=2, delta=0.02, depth_limit=1, seed=seed)
        best = {}
        for (a, v), c in sorted(res.ctr.items(), key=lambda kv: repr(kv[0])):
            if c is not None and (v not in best or (-c, a) < (-best[v][1], best[v][0])):
                best[v] = (a, c)
        picks = [(next((best[v] for v in reversed(em.hierarchy.path(leaf)) if v in best), None), clicked)
                 for leaf, clicked in em.test]
        ctrs = sorted({p[1] for p, _ in picks if p is not None})
        thetas = sorted({0.0, 1.0, *ctrs, *((a + b) / 2 for a, b in zip(ctrs, ctrs[1:])), (ctrs[-1] + 0.01) if ctrs else 0.5})
        got = aol.precision_coverage(em, res, thetas)
        for (th, prec, cov), want_th in zip(got, thetas):
            shown = [(p, d) for p, d in picks if p is not None and p[1] >= want_th]
            assert th == want_th and cov == len(shown) / len(picks)
            want_prec = sum(p[0] == d for p, d in shown) / len(shown) if shown else float("nan")
            assert (math.isnan(prec) and math.isnan(want_prec)) or prec == want_prec
        assert any(0 < c < 1 for _, _, c in got) and len(ctrs) >= 2


def test_aol_emulation_is_read_only_under_its_memo():
    """The prepared-input memo of run_estimates is keyed on the emulation object, so the emulation cannot change
    under it: fields cannot be reassigned, and the bidders, the hierarchy's parent and children maps, the test
    entries and the ads are read-only (a changed bidder list would otherwise be silently ignored by a memo hit)."""
    import dataclasses

    from privclaims.theory.count import aol

    em = _small_emulation()
    aol.run_estimates(em, 1.0, 0.0, m=2, min_support=2, delta=0.02, depth_limit=1, seed=0)
    node = next(v for v in em.bids if em.bids[v])
    with pytest.raises(dataclasses.FrozenInstanceError):
        em.bids = {}
    with pytest.raises(TypeError):
        em.bids[node] = ()
    with pytest.raises((TypeError, AttributeError)):
        em.bids[node].append("x")
    with pytest.raises(TypeError):
        em.hierarchy.parent["new"] = em.hierarchy.root
    with pytest.raises(TypeError):
        em.hierarchy.children[em.hierarchy.root] = ()
    with pytest.raises((TypeError, AttributeError)):
        em.hierarchy.children[em.hierarchy.root].append("new")
    with pytest.raises((TypeError, AttributeError)):
        em.test.append(("q:x", "d0.com"))
    with pytest.raises((TypeError, AttributeError)):
        em.ads.append("d9.com")


def test_aol_emulation_pickles_and_copies():
    """Review finding: the read-only maps must not make an emulation unpicklable (a spawned worker or a cache would
    break): it pickles and deep-copies, and the copy runs the same."""
    import copy
    import pickle

    from privclaims.theory.count import aol

    em = _small_emulation()
    for other in (pickle.loads(pickle.dumps(em)), copy.deepcopy(em)):
        assert dict(other.bids) == dict(em.bids) and dict(other.hierarchy.parent) == dict(em.hierarchy.parent)
        run = [pickle.dumps(aol.run_estimates(x, 1.0, 0.0, m=2, min_support=2, delta=0.02, depth_limit=1, seed=1))
               for x in (em, other)]
        assert run[0] == run[1]
        with pytest.raises(TypeError):
            other.bids["w:x"] = ()


def test_aol_precision_coverage_edge_cases():
    """Review finding: a pick found only at the root, a leaf with no pick (it still counts in coverage's
    denominator), exact CTRs compared exactly (1/20 is below the float 0.05, equal to the rational 1/20), and an unknown
    test context refused."""
    from fractions import Fraction
    from types import SimpleNamespace

    from privclaims.theory.count import aol
    from privclaims.theory.count.hierarchy import Hierarchy

    root = "*"
    h = Hierarchy({"w:a": root, "w:b": root, "q:a x": "w:a", "q:b y": "w:b"}, root)
    em = aol.Emulation(h, (), (("q:a x", "ad2"), ("q:b y", "ad1"), ("q:b y", "ad9")), 1, ("ad1", "ad2"), {})
    res = SimpleNamespace(ctr={("ad1", root): 0.5, ("ad2", "w:a"): 0.25, ("ad3", "w:a"): None})
    import math

    got = aol.precision_coverage(em, res, [0.0, 0.3, 0.6])  # the b leaves' pick is the root's ad1 (CTR 0.5)
    assert got[:2] == [(0.0, 2 / 3, 1.0), (0.3, 0.5, 2 / 3)] and got[2][0] == 0.6 and math.isnan(got[2][1]) and got[2][2] == 0
    no_root = SimpleNamespace(ctr={("ad2", "w:a"): Fraction(1, 20)})  # the b leaves have no pick
    assert aol.precision_coverage(em, no_root, [0.0])[0] == (0.0, 1.0, 1 / 3)
    (th, prec, cov), = aol.precision_coverage(em, no_root, [0.05])  # the float 0.05 is above 1/20: not shown
    assert th == 0.05 and math.isnan(prec) and cov == 0.0
    assert aol.precision_coverage(em, SimpleNamespace(ctr={("ad2", "w:a"): Fraction(1, 20)}), [Fraction(1, 20)])[0][1:] == (1.0, 1 / 3)
    with pytest.raises(InvalidInput, match="unknown context"):
        aol.precision_coverage(aol.Emulation(h, (), (("q:zzz", "ad1"),), 1, (), {}), res, [0.0])


def test_a_hierarchy_is_read_only_once_built():
    """A Hierarchy keeps a private copy of its parent map and tuples of children: changing the map it was built from,
    or the hierarchy itself, cannot change a tree a run has checked (a cycle added later would go unnoticed)."""
    import dataclasses

    from privclaims.theory.count.hierarchy import Hierarchy

    parent = {"a": "r", "b": "r", "a1": "a"}
    h = Hierarchy(parent, "r")
    parent["b"] = "a1"  # the caller's dict changes after the build
    assert h.parent["b"] == "r" and h.children["r"] == ("a", "b") and h.children["a"] == ("a1",)
    with pytest.raises(TypeError):
        h.parent["c"] = "r"
    with pytest.raises(TypeError):
        h.children["r"] = ()
    with pytest.raises(AttributeError):
        h.children["r"].append("c")
    with pytest.raises(dataclasses.FrozenInstanceError):
        h.root = "a"
    assert Hierarchy({"a": "r", "b": "r", "a1": "a"}, "r") == h
