"""Validation of MaskIt's inputs (clear errors naming the value), learning by counting, the
GeoLife loaders on small synthetic fixtures, and the search/weak/hierarchy helpers."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privclaims.counterexamples.maskit_strategies import chains, instances
from privclaims.theory.errors import InvalidInput
from privclaims.theory.maskit import exact as E
from privclaims.theory.maskit import fast as F
from privclaims.theory.maskit.data import location_days, mode_days, read_plt, split_half
from privclaims.theory.maskit.figures import figure_3_2, figure_3_3
from privclaims.theory.maskit.hierarchy import cut_map, generalisation_breach, theorem2_bound
from privclaims.theory.maskit.model import learn_chain, markov_chain, suppression_vector
from privclaims.theory.maskit.search import greedy_mondrian, optimal_exhaustive, optimal_monotone
from privclaims.theory.maskit.system import maskit, sample_traces, SimulatableCheck
from privclaims.theory.numbers import Q


def test_bad_rows_and_parameters():
    with pytest.raises(InvalidInput, match="sums to 5/6"):
        markov_chain(["a", "b"], ["1/2", "1/2"], [[["1/2", "1/3"], ["1", "0"]]])
    with pytest.raises(InvalidInput, match="outside"):
        markov_chain(["a", "b"], ["-1/2", "3/2"], [])
    with pytest.raises(InvalidInput, match="float"):
        markov_chain(["a", "b"], [0.5, 0.5], [])
    with pytest.raises(InvalidInput, match="reserved"):
        markov_chain(["start", "b"], ["1/2", "1/2"], [])
    ch = figure_3_2()
    with pytest.raises(InvalidInput, match="delta"):
        E.is_private(ch, {"s": 1}, ["s"], 0)
    with pytest.raises(InvalidInput, match="delta"):
        F.is_private(ch, {"s": 1}, ["s"], 1)
    with pytest.raises(InvalidInput, match="empty"):
        E.is_private(ch, {"s": 1}, [], "1/4")
    with pytest.raises(InvalidInput, match="unknown context 'q'"):
        E.is_private(ch, {"s": 1}, ["q"], "1/4")
    with pytest.raises(InvalidInput, match="outside"):
        suppression_vector(ch, {"s": "3/2"})
    with pytest.raises(InvalidInput, match="probability 0"):
        E.forward_backward(ch, {"s": 1, "x": 0}, (0,))
    with pytest.raises(InvalidInput, match="length"):
        maskit(ch, SimulatableCheck(ch, ["s"], "1/4"), (0, 1))


def test_learning_by_counting_and_unseen_policy():
    traces = [("a", "b"), ("a", "a"), ("b", "b"), ("a", "b")]
    ch = learn_chain(traces, ["a", "b", "c"], 2)
    assert ch.initial == (Q(3, 4), Q(1, 4), Q(0))
    assert ch.steps[0][0] == (Q(1, 3), Q(2, 3), Q(0))
    assert ch.steps[0][2] == (Q(1, 4), Q(3, 4), Q(0))  # unseen row: marginal of X_2
    assert learn_chain(traces, ["a", "b", "c"], 2, unseen="stay").steps[0][2] == (Q(0), Q(0), Q(1))
    with pytest.raises(InvalidInput, match="unknown context 'z' at t = 2"):
        learn_chain([("a", "z")], ["a", "b"], 2)
    with pytest.raises(InvalidInput, match="length 1"):
        learn_chain([("a",)], ["a", "b"], 2)
    with pytest.raises(InvalidInput, match="no traces"):
        learn_chain([], ["a"], 1)


@given(chains(max_n=3, max_T=3))
def test_sampled_traces_are_possible(ch):
    for x in sample_traces(ch, 5, np.random.default_rng(0)):
        assert E.joint_probability(ch, x) > 0


@given(instances(max_n=3, max_T=2, d=2))
def test_searches(inst):
    ch, p, S, d = inst
    g = greedy_mondrian(ch, S, d, 2)
    a, b = optimal_exhaustive(ch, S, d, 2), optimal_monotone(ch, S, d, 2)
    assert a.utility == b.utility >= g.utility
    assert E.is_private(ch, g.p, S, d) and E.is_private(ch, b.p, S, d)


def test_hierarchy_cut():
    tree = {"root": ["A", "B"], "A": ["a1", "a2"], "B": ["b1", "b2", "b3"]}
    assert cut_map(tree, "root", ["A", "B"])["b2"] == "B"
    assert theorem2_bound(tree, "root", ["A", "B"], ["a1"]) == (2, Q(1, 2) - Q(1, 5))
    assert generalisation_breach(tree, "root", ["A", "B"], ["a1"]).gain == Q(3, 10)
    with pytest.raises(InvalidInput, match="no ancestor"):
        cut_map(tree, "root", ["A"])


def _write_plt(path, rows):
    head = "Geolife trajectory\nWGS 84\nAltitude is in Feet\nReserved 3\n0,2,255,My Track,0,0,2,8421376\n0\n"
    path.write_text(head + "".join(f"{lat},{lon},0,100,0,{d},{t}\n" for lat, lon, d, t in rows))


def test_geolife_loaders(tmp_path):
    u = tmp_path / "000"
    (u / "Trajectory").mkdir(parents=True)
    rows = []
    for day in ("2008-10-23", "2008-10-24", "2008-10-25", "2008-10-26"):
        rows += [(39.90, 116.30, day, "01:00:00"), (39.90, 116.30, day, "02:00:00"), (39.95, 116.40, day, "05:00:00")]
    _write_plt(u / "Trajectory" / "a.plt", rows)
    (u / "labels.txt").write_text("Start Time\tEnd Time\tTransportation Mode\n2008/10/23 01:00:00\t2008/10/23 03:00:00\tbus\n")
    days = location_days(u, T=12)
    assert len(days) == 4 and all(len(d) == 12 for _, d in days)
    tr, te, ctx = split_half(days, k=2)
    assert len(tr) == 2 and set(c for d in tr for c in d) <= set(ctx)
    modes = mode_days(u, T=12)
    assert "bus" in modes[0][1] and "still" in modes[0][1]
    bad = tmp_path / "bad.plt"
    bad.write_text("h\nh\nh\nh\nh\nh\n39.9,116.3\n")
    with pytest.raises(InvalidInput, match="bad.plt:7"):
        read_plt(bad)


def _parses_like_strptime(text: str) -> None:
    """parse_plt_time(text) is strptime's datetime, or raises ValueError exactly where strptime does."""
    from datetime import datetime

    from privclaims.theory.maskit.data import PLT_TIME_FORMAT, parse_plt_time

    try:
        want = datetime.strptime(text, PLT_TIME_FORMAT)
    except ValueError:
        with pytest.raises(ValueError):
            parse_plt_time(text)
        return
    assert parse_plt_time(text) == want


@given(st.one_of(st.text(alphabet="0123456789", min_size=14, max_size=14),
                 st.datetimes().map(lambda t: t.strftime("%Y%m%d%H%M%S")).filter(lambda x: len(x) == 14)))
def test_plt_time_parser_is_strptime_on_every_fixed_width_timestamp(digits):
    """parse_plt_time reads a zero-padded ASCII timestamp with datetime.fromisoformat; on that width it gives
    strptime's datetime, or raises ValueError exactly where strptime does (month 13, February 30, hour 24, ...)."""
    d = digits
    _parses_like_strptime(f"{d[:4]}-{d[4:6]}-{d[6:8]} {d[8:10]}:{d[10:12]}:{d[12:14]}")


@pytest.mark.parametrize("text", ["2008-1-3 2:5:4", "2008-10-23 02:53:04.5", "2008-10-23T02:53:04", " 2008-10-23 02:53:04"])
def test_plt_time_parser_off_the_fixed_width_is_strptime(text):
    _parses_like_strptime(text)


# ------------------------------------------------------------------ the generators the ledger's checks draw from
# (counterexamples/maskit_strategies.py; moved there from the check modules in issue 25): what each says it draws


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.data())
def test_dominating_pairs_and_single_raises_stay_on_their_grid(data):
    from privclaims.counterexamples.maskit_strategies import dominating_pairs, single_raises

    grid = data.draw(st.sampled_from([2, 3, 4]))
    ch, p, q, S, delta = data.draw(dominating_pairs(grid=grid))
    on_grid = {Q(k, grid) for k in range(grid + 1)}
    assert all(x in on_grid for row in p + q for x in row)
    assert all(b >= a for rp, rq in zip(p, q) for a, b in zip(rp, rq))  # q ⪰ p
    ch, p, q, S, (t, i) = data.draw(single_raises(grid=grid))
    diff = [(tt, ii) for tt, (rp, rq) in enumerate(zip(p, q), 1) for ii, (a, b) in enumerate(zip(rp, rq)) if a != b]
    assert diff == [(t, i)] and q[t - 1][i] > p[t - 1][i] and q[t - 1][i] in on_grid and p[t - 1][i] in on_grid
    thirds = {Q(k, 3) for k in range(4)}  # the checks' default grid, which their encodings state: {0, 1/3, 2/3, 1}
    for strat in (dominating_pairs(), single_raises()):
        _, p, q, _, _ = data.draw(strat)
        assert all(x in thirds for row in p + q for x in row)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.data())
def test_weak_generalisations_and_cut_hierarchies_are_what_they_say(data):
    from privclaims.counterexamples.maskit_strategies import WEAK_LABELS, cut_hierarchies, weak_generalisations

    for sensitive in (False, True):
        M1, truth, lam, delta = data.draw(weak_generalisations(sensitive=sensitive))
        for a in truth:
            assert truth[a] in WEAK_LABELS and truth[a] in M1.Pi[a] and M1.Pi[a] <= set(WEAK_LABELS)
            assert set(lam[a]) == set(M1.Pi[a]) and sum(lam[a].values()) == 1
        assert delta.denominator in (1, 2, 3, 4, 6, 12) and 0 < delta < 1
        assert not sensitive or M1.sensitive_ids(["s"])  # Theorem 7's searches: a sensitive ID, always
    tree, cut, S, n = data.draw(cut_hierarchies())
    leaves = [c for g in tree["root"] for c in tree[g]]
    assert 2 <= n <= 8 and sorted(leaves) == sorted(f"c{i}" for i in range(n))
    assert cut == ["root"] or cut == tree["root"]
    assert 1 <= len(S) <= 3 and set(S) <= set(leaves)


def test_cached_distribution_strategies_draw_what_fresh_ones_draw():
    """counterexamples.strategies.distributions returns one strategy object per arguments (issue 25: a strategy built
    per draw is validated per draw). Its draws are those of a freshly built strategy: the same examples, in the same
    order, for a derandomised run - and each is a distribution with the asked number of points, zeros as allowed."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from privclaims.counterexamples import strategies as S
    from privclaims.theory.numbers import ONE, Q

    assert S.distributions(3, 4) is S.distributions(3, 4) and S.distributions(3, 4) is not S.distributions(3, 5)

    def drawn(make):
        seen = []

        @settings(max_examples=120, derandomize=True, database=None, deadline=None,
                  suppress_health_check=list(HealthCheck))
        @given(st.tuples(st.integers(1, 4), st.integers(1, 6), st.booleans()).flatmap(lambda a: st.tuples(st.just(a), make(*a))))
        def run(x):
            seen.append(x)

        run()
        return seen

    @st.composite
    def as_before(draw, n, max_den, allow_zero):  # the strategy as it was built before the cache, written out
        weights = draw(st.lists(st.integers(0 if allow_zero else 1, max_den), min_size=n, max_size=n)
                       .filter(lambda w: sum(w) > 0))
        return [Q(w, sum(weights)) for w in weights]

    cached = drawn(S.distributions)
    assert cached == drawn(as_before)
    for (n, d, zeros), dist in cached:
        assert len(dist) == n and sum(dist) == ONE and (zeros or all(x > 0 for x in dist))


def test_a_chain_made_by_replace_derives_its_own():
    """``dataclasses.replace`` on a chain (other contexts or probabilities) starts with empty memo and index: it shared
    them once, so the new chain read the old one's prior and context positions."""
    import dataclasses

    from privclaims.theory.maskit.model import markov_chain

    ch = markov_chain(["a", "b"], [1, 0], [[[0, 1], [1, 0]]])
    assert ch.index("b") == 1
    ch.memo_set("probe", 1)
    other = dataclasses.replace(ch, contexts=("b", "a"))
    assert other.memo_get("probe") is None and other.index("b") == 0 and ch.index("b") == 1
    assert ch.memo_get("probe") == 1


def _theorem7_setting(M1) -> bool:
    """Written out here: some ID whose set holds "s" has positive prior at some t (the chain's own recursion), i.e.
    M' has a sensitive ID and mu(S) > 0."""
    ch, prior = M1.ids, list(M1.ids.initial)
    reachable = set()
    for t in range(ch.T):
        reachable |= {a for a, p in zip(ch.contexts, prior) if p > 0}
        if t < ch.T - 1:
            prior = [sum((prior[i] * ch.steps[t][i][j] for i in range(len(prior))), Q(0)) for j in range(len(prior))]
    return any("s" in M1.Pi[a] for a in reachable)


def _find(strategy, condition):
    """An example meeting ``condition`` (existence only: found, not shrunk)."""
    from hypothesis import HealthCheck, Phase, find
    from hypothesis import settings as hsettings

    return find(strategy, condition, settings=hsettings(max_examples=3000, database=None, deadline=None,
                                                        phases=[Phase.generate],
                                                        suppress_health_check=list(HealthCheck)))


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.data())
def test_theorem7_searches_are_vacuous_exactly_outside_their_premise(data):
    """maskit/weak.py's Theorem 7 properties return VACUOUS exactly where F(delta/mu, M', S') is not defined (no
    sensitive ID, or mu(S) = 0), and a truth value (never an error) elsewhere."""
    from privclaims.checks.claims.maskit.weak import _weak_breach_within_delta
    from privclaims.counterexamples.maskit_strategies import weak_generalisations
    from privclaims.counterexamples.property_search import VACUOUS

    inst = data.draw(weak_generalisations(max_n=2, max_T=2))
    result = _weak_breach_within_delta("simulatable")(inst)
    assert (result is VACUOUS) == (not _theorem7_setting(inst[0]))
    assert result is VACUOUS or result in (True, False)


def test_theorem7_premise_edges_are_reached_and_decided():
    """The two ways out of the premise occur in the default draws - no ID's set holds s; s only in sets of IDs of
    prior 0 at every t (mu(S) = 0: F at delta/mu would divide by 0) - and each is VACUOUS, not an error."""
    from privclaims.checks.claims.maskit.weak import _weak_breach_within_delta
    from privclaims.counterexamples.maskit_strategies import weak_generalisations
    from privclaims.counterexamples.property_search import VACUOUS

    holds = _weak_breach_within_delta("probabilistic")
    none = _find(weak_generalisations(), lambda i: not i[0].sensitive_ids(["s"]))
    unreachable = _find(weak_generalisations(), lambda i: i[0].sensitive_ids(["s"]) and not _theorem7_setting(i[0]))
    assert holds(none) is VACUOUS and holds(unreachable) is VACUOUS


def test_sensitive_generalisations_reach_every_kind_of_sensitive_id():
    """weak_generalisations(sensitive=True) narrows nothing Theorem 7 needs: s as an ID's truth; s only in a set, with
    lambda_a(s) > 0 and a's truth another context; s given to each ID of a three-ID chain alone."""
    from privclaims.counterexamples.maskit_strategies import weak_generalisations

    strat = weak_generalisations(sensitive=True)
    _find(strat, lambda i: "s" in i[1].values())
    _find(strat, lambda i: "s" not in i[1].values() and any(i[2][a].get("s", 0) > 0 for a in i[1]))
    for k in range(3):
        _find(strat, lambda i, k=k: len(i[1]) == 3 and i[0].sensitive_ids(["s"]) == [i[0].ids.contexts[k]])
