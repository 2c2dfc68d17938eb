"""Coverage reduction, tight instances, hierarchy levels, the cut, estimators and the AOL reader."""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privclaims.counterexamples.ads_strategies import trees
from privclaims.theory.ads import exact as E
from privclaims.theory.ads.fast import stored_positions
from privclaims.theory.ads.aol import AdService, build_events, domain, generalize, read_log_dir, read_user_file, sample_test_events
from privclaims.theory.ads.coverage import coverage_to_ads, covered, max_coverage, perturbed_tight_instance, tight_instance
from privclaims.theory.ads.estimates import backoff_context, click_through_rates, context_prior, precision_coverage
from privclaims.theory.ads.hierarchy import (PAPER_SEQUENCE, choose_cut, generalize_location, is_one_attribute_at_a_time,
                                  is_valid_cut, truncate_decimal)
from privclaims.theory.ads.model import ad_instance
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q


@given(st.integers(1, 4).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.frozensets(st.integers(0, n - 1)), min_size=1, max_size=4))))
def test_reduction_values_match_coverage(x):
    n, sets = x
    inst = coverage_to_ads(list(range(n)), sets)
    for k in range(1, len(sets) + 1):
        for A in itertools.combinations(range(len(sets)), k):
            assert E.expected_revenue(inst, A) == Q(covered(sets, A), n)
        assert E.optimum(inst, k)[1] == Q(max_coverage(sets, k)[1], n)


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_tight_instance_attains_bound(k):
    inst, opt = tight_instance(k)
    assert E.greedy_run(inst, k).revenues[-1] == 1 - (1 - Q(1, k)) ** k
    assert E.expected_revenue(inst, opt) == 1
    p, o = perturbed_tight_instance(k, Q(1, 100))
    assert E.greedy(p, k) == tuple(range(k))


def test_reduction_bad_input():
    with pytest.raises(InvalidInput, match="outside the universe"):
        coverage_to_ads([1, 2], [{3}])
    with pytest.raises(InvalidInput, match="empty universe"):
        coverage_to_ads([], [{1}])


def test_location_levels_and_sequence():
    assert generalize_location("61.22913", "-149.912044", 1) == ("61.2291", "-149.9120")
    assert generalize_location("61.22913", "-149.912044", 5) == ("61", "-149")
    assert truncate_decimal("-0.99", 0) == "0" or truncate_decimal("-0.99", 0) == "-0"
    assert is_one_attribute_at_a_time(PAPER_SEQUENCE)
    assert not is_one_attribute_at_a_time(((0, 0, 0), (1, 1, 0)))
    with pytest.raises(InvalidInput, match="location level"):
        generalize_location("1.0", "2.0", 6)
    with pytest.raises(InvalidInput, match="decimal"):
        truncate_decimal("north", 2)


@given(trees(6), st.integers(0, 63), st.integers(1, 3))
def test_cut_is_valid_when_it_exists(parent, mask, md):
    leaves = sorted(v for v in parent if not any(p == v for p in parent.values()))
    sens = {l for i, l in enumerate(leaves) if mask >> i & 1}
    cut = choose_cut(parent, sens, md, Q(1))
    if cut is not None:
        assert is_valid_cut(parent, cut, sens, md, Q(1))


def test_estimators():
    assert context_prior(["a", "b", "a"]) == {"a": Q(2, 3), "b": Q(1, 3)}
    assert click_through_rates([("c", 1, True), ("c", 1, False)]) == {("c", 1): Q(1, 2)}
    assert backoff_context("x", [lambda c: c, lambda c: "X"], {"x": 0, "X": 3}.__getitem__, 2) == (1, "X")
    assert precision_coverage([(1, 1), (None, 2)]) == (Q(1), Q(1, 2))
    with pytest.raises(InvalidInput, match="empty log"):
        context_prior([])
    with pytest.raises(InvalidInput, match="clicked"):
        click_through_rates([("c", 1, "yes")])


def _write_log(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_aol_reader_and_service(tmp_path):
    blocks = []
    for day in range(1, 29):
        for h, (q, url) in enumerate([("pizza near me", "http://www.dominos.com/"), ("news", "http://cnn.com/x")]):
            blocks.append(f"{q}\t2006-03-{day:02d} {10 + h:02d}:0{day % 6}:00\n{url}\n")
    blocks.append("no click query\t2006-03-29 10:00:00\n")
    _write_log(tmp_path, "1.txt", "\n".join(blocks))
    _write_log(tmp_path, "2.txt", "\n".join(blocks[:20]))
    s = read_user_file(tmp_path / "1.txt")
    assert len(s) == 57 and s[0].urls == ("http://www.dominos.com/",) and s[-1].urls == ()
    assert domain("http://www.dominos.com/a?b") == "dominos.com"
    ev = build_events(read_log_dir(tmp_path))
    assert len(ev.leaves) == 56 + 20 and ev.users == 2
    svc = AdService(ev)
    tests = sample_test_events(ev, 5, seed=1)
    res = svc.evaluate(tests, (4, 2, 2), 0.3, (1, 2))
    assert 0 <= res[1]["coverage"] <= 1 and res[2]["coverage"] >= res[1]["coverage"]
    assert generalize((600, "cnn.com", "pizza near me"), (1, 1, 1)) == ((1, 1, 1), 10, "com", "pizza")


def _random_aol_events(folder, seed=5, n_sites=5, users=6, blocks=40):
    """A small random AOL-format log (few words and sites: shared contexts, ties and back-off at every level)."""
    rng = np.random.default_rng(seed)
    words = ["pizza", "news", "pizza hut", "weather", "nba scores", "pie"]
    sites = ["http://www.a.com/", "http://b.org/x", "http://c.com/", "http://www.d.net/", "http://e.com/"]
    sites += [f"http://s{i}.{'com' if i % 2 else 'org'}/" for i in range(n_sites - len(sites))]
    for u in range(users):
        text = [f"{words[rng.integers(6)]}\t2006-03-{rng.integers(1, 29):02d} {rng.integers(24):02d}:"
                f"{rng.integers(60):02d}:00\n" + "".join(sites[rng.integers(n_sites)] + "\n" for _ in range(rng.integers(1, 3)))
                for _ in range(blocks)]
        _write_log(folder, f"{u}.txt", "\n".join(text))
    return build_events(read_log_dir(folder))


def _tuple_definition(ev, min_support=2):
    """The service's statistics on context tuples (:func:`generalize`), as §4.4.1 defines them: training
    counts and clicks per context of PAPER_SEQUENCE, and the back-off context of a leaf."""
    from collections import Counter, defaultdict

    count, clicks = Counter(), defaultdict(Counter)
    for leaf, a in zip(ev.leaves[:ev.n_train], ev.ads[:ev.n_train]):
        for lv in PAPER_SEQUENCE:
            count[generalize(leaf, lv)] += 1
            clicks[generalize(leaf, lv)][a] += 1

    def backoff(leaf):
        return next((g for lv in PAPER_SEQUENCE if count.get(g := generalize(leaf, lv), 0) >= min_support), None)

    return count, clicks, backoff


def test_aol_service_codes_match_the_tuple_definition(tmp_path):
    """The integer-coded service equals the definition on context tuples (:func:`generalize`): per event the
    back-off context's CTR vector, and per ĉ the back-off columns below it (first-occurrence order, counts)."""
    from collections import Counter, defaultdict

    ev = _random_aol_events(tmp_path)
    svc = AdService(ev)
    n = ev.n_train
    count, clicks, backoff = _tuple_definition(ev)
    assert len({backoff(leaf)[0] for leaf in ev.leaves}) >= 5  # back-off at several levels

    for i, leaf in enumerate(ev.leaves):
        b = backoff(leaf)
        ids, v = svc.ctr_vector(i)
        want = sorted(clicks[b]) if b is not None else []
        assert ids.tolist() == want and v.tolist() == [clicks[b][a] / count[b] for a in want]
    col_ctr = {}
    for i, leaf in enumerate(ev.leaves[:n]):
        if (b := backoff(leaf)) is not None:
            col_ctr[b] = svc.ctr_vector(i)
    for level in ((0, 0, 0), (1, 1, 1), (4, 2, 2), (5, 2, 0)):
        acc = defaultdict(Counter)
        for leaf, m in Counter(ev.leaves[:n]).items():
            if (b := backoff(leaf)) is not None:
                acc[generalize(leaf, level)][b] += m
        keys = svc.keys(level)
        seen = set()
        for i, leaf in enumerate(ev.leaves[:n]):
            chat = generalize(leaf, level)
            if chat not in acc or chat in seen:
                continue
            seen.add(chat)
            cols, cnt = svc._below_of(int(keys[i]), level)
            assert cnt.tolist() == list(acc[chat].values())
            for c, b in zip(cols.tolist(), acc[chat]):
                lo, hi = svc.B.indptr[c], svc.B.indptr[c + 1]
                assert svc.B.indices[lo:hi].tolist() == col_ctr[b][0].tolist()
                assert svc.B.data[lo:hi].tolist() == col_ctr[b][1].tolist()
        assert len(seen) == len(acc)


@pytest.mark.parametrize("min_support", [2, 3])
def test_aol_service_evaluation_matches_the_definition(tmp_path, min_support):
    """Server and client of the integer-coded service against the definition on context tuples, per event:
    ĉ (generalised further when no training leaf lies below it), Greedy's positive-benefit order for ĉ by the
    *exact* twin on the rational instance (Pr[c|ĉ] = training counts, CTRs of the back-off contexts, CTRs
    below the threshold zeroed), the client's pick for every prefix, and the precision/coverage counts."""
    from collections import Counter, defaultdict

    ev = _random_aol_events(tmp_path, seed=3, n_sites=14, users=8, blocks=60)
    svc = AdService(ev, min_support)
    count, clicks, backoff = _tuple_definition(ev, min_support)
    below: dict = {}

    def below_of(lv):
        if lv not in below:
            below[lv] = defaultdict(Counter)
            for leaf in ev.leaves[:ev.n_train]:
                if (b := backoff(leaf)) is not None:
                    below[lv][generalize(leaf, lv)][b] += 1
        return below[lv]

    def server_context(leaf, level):
        more = [lv for lv in PAPER_SEQUENCE + ((5, 2, 2),) if all(x >= y for x, y in zip(lv, level))]
        return next((g for lv in [level] + more if (g := generalize(leaf, lv)) in below_of(lv)), None)

    @functools.lru_cache(maxsize=None)  # the definition's order is a pure function of (ĉ, τ, k); events share ĉ
    def server_order(chat, tau, k):
        acc = below_of(chat[0])[chat]
        ctr = {b: {a: Q(c, count[b]) for a, c in clicks[b].items() if Q(c, count[b]) >= tau} for b in acc}
        ads = sorted({a for b in acc for a in ctr[b]})
        if not ads:
            return ()
        inst = ad_instance([Q(m, sum(acc.values())) for m in acc.values()], [[ctr[b].get(a, 0) for b in acc] for a in ads])
        run = E.greedy_run(inst, min(k, len(ads)))
        return tuple(ads[i] for i, g in zip(run.order, run.benefits) if g > 0)

    def client_pick(leaf, sent, tau):
        b = backoff(leaf)
        ctr = {a: Q(clicks[b][a], count[b]) for a in sent if b is not None and clicks[b][a]}
        ok = [a for a in sent if a in ctr and ctr[a] >= tau]
        return min(ok, key=lambda a: (-ctr[a], a)) if ok else None

    ks, events, orders = (1, 2, 3, 5, 10), range(len(ev.leaves)), Counter()
    for level in ((0, 0, 0), (1, 1, 1), (2, 2, 1), (4, 2, 2), (5, 2, 0)):
        for t in (0.0, 0.1, 0.3, 0.5):
            tau, res = Q(str(t)), {k: [0, 0] for k in ks}
            for i in events:
                leaf = ev.leaves[i]
                chat, lv = svc.server_context(i, level)
                g = server_context(leaf, level)
                order = svc.server_order(chat, lv, t, max(ks))
                assert order == (server_order(g, tau, max(ks)) if g is not None else ())
                orders[len(order)] += 1
                for k in ks:
                    pick = client_pick(leaf, order[:k], tau)
                    assert svc.client_pick(i, order[:k], t) == pick
                    res[k][0] += pick is not None
                    res[k][1] += pick is not None and pick == ev.ads[i]
            got = svc.evaluate(list(events), level, t, ks)
            assert {k: [got[k]["shown"], got[k]["hits"]] for k in ks} == res
    assert min(orders) == 0 and max(orders) >= 4 and sum(v for n, v in orders.items() if n >= 2) > len(ev.leaves)


@pytest.mark.parametrize("min_support", [1, 2])
def test_server_order_memo_equals_a_fresh_run_at_every_stored_ctr(tmp_path, min_support):
    """server_order's memo (keyed on how many of ĉ's stored CTRs lie below the threshold) returns what a fresh
    Greedy run returns, for thresholds exactly at each stored CTR (where >= vs > would differ), between them, at 0
    and above them all - asked in ascending, then descending order so that memo hits cross thresholds."""
    ev = _random_aol_events(tmp_path, seed=3, n_sites=14, users=8, blocks=60)
    svc = AdService(ev, min_support)
    checked = exact_hits = 0
    for level in ((0, 0, 0), (2, 2, 1), (4, 2, 2), (5, 2, 0)):
        seen = set()
        for i in range(len(ev.leaves)):
            chat, lv = svc.server_context(i, level)
            below = svc._below_of(chat, lv)
            if below is None or (chat, lv) in seen or len(seen) >= 12:
                continue
            seen.add((chat, lv))
            pos, _ = stored_positions(svc.B.indptr, below[0])
            vals = sorted(set(svc.B.data[pos].tolist()))
            ts = sorted({0.0, *vals, *((a + b) / 2 for a, b in zip(vals, vals[1:])), vals[-1] + 0.01} if vals else {0.0})
            for t in ts + ts[::-1]:
                for k in (1, 10):
                    assert svc.server_order(chat, lv, t, k) == svc.server_order_uncached(chat, lv, t, k), (chat, lv, t, k)
                    checked += 1
                    exact_hits += t in vals
    assert checked > 300 and exact_hits > 100, (checked, exact_hits)


def test_aol_reader_errors(tmp_path):
    _write_log(tmp_path, "3.txt", "query\tnot a time\n")
    with pytest.raises(InvalidInput, match=r"3.txt:1: malformed time"):
        read_user_file(tmp_path / "3.txt")
    _write_log(tmp_path, "4.txt", "just text\n")
    with pytest.raises(InvalidInput, match=r"4.txt:1"):
        read_user_file(tmp_path / "4.txt")
    with pytest.raises(InvalidInput, match="no user files"):
        read_log_dir(tmp_path / "nowhere")


def test_z3_encodings_are_satisfiable_where_expected():
    """The z3 encodings can produce models: the worst ratio at (3 ads, 3 contexts, k = 2) is the bound."""
    from privclaims.counterexamples.ads_greedy_z3 import ratio_bound, search_lemmas, worst_ratio

    w = worst_ratio(3, 3, 2)
    assert w["worst_ratio"] == ratio_bound(2) == w["exact_twin_ratio_on_witness"]
    assert search_lemmas(3, 2, 2, "thm7").exhausted


@pytest.mark.data
def test_aol_reader_on_real_files():
    from property_tests.conftest import data_dir

    d = data_dir()
    folder = None if d is None else d / "aol-top1000" / "user_search_logs"
    if folder is None or not folder.exists():
        pytest.skip("aol-top1000 not available")
    files = sorted(folder.glob("*.txt"))[:5]
    for f in files:
        searches = read_user_file(f)
        assert searches and all(s.user == f.stem and len(s.time) == 19 for s in searches)


def test_ads_suite_cache_honours_privclaims_cache(tmp_path, monkeypatch):
    """The AOL suite's result file goes to ``$PRIVCLAIMS_CACHE`` (the experiment cache of the README), and a
    second call reads it back instead of recomputing."""
    import privclaims.checks.claims.ads.experiments as X

    logs, cache = tmp_path / "logs", tmp_path / "cache"
    logs.mkdir()
    _write_log(logs, "1.txt", "q\t2006-03-01 10:00:00\n")
    monkeypatch.setenv("PRIVCLAIMS_CACHE", str(cache))
    monkeypatch.setattr(X, "_compute_suite", lambda folder, seed: {"seed": seed})
    assert X._suite.__wrapped__(str(logs), 3) == {"seed": 3}
    assert len(list(cache.glob("*.pickle"))) == 1

    def fail(folder, seed):
        raise AssertionError("recomputed despite the cache")

    monkeypatch.setattr(X, "_compute_suite", fail)
    assert X._suite.__wrapped__(str(logs), 3) == {"seed": 3}


def test_a_suite_another_process_computes_is_waited_on_while_the_other_reading_is_computed(tmp_path, monkeypatch):
    """While another process holds reading 2's lock, _suite(reading 2) computes reading 3 (if nobody has) instead of
    idling, then waits and reads reading 2 as the other process stored it; each suite is computed once."""
    import fcntl
    import pickle
    import threading
    import time

    import privclaims.checks.claims.ads.experiments as X

    logs, cache = tmp_path / "logs", tmp_path / "cache"
    logs.mkdir()
    _write_log(logs, "1.txt", "q\t2006-03-01 10:00:00\n")
    monkeypatch.setenv("PRIVCLAIMS_CACHE", str(cache))
    calls: list[int] = []
    monkeypatch.setattr(X, "_compute_suite", lambda folder, seed, min_support=2: calls.append(min_support) or
                        {"support": min_support, "by": "this process"})
    path2, out = X._suite_path(str(logs), 3, 2), []
    with open(str(path2) + ".lock", "w") as lock:  # "another process" computing reading 2
        fcntl.flock(lock, fcntl.LOCK_EX)
        worker = threading.Thread(target=lambda: out.append(X._suite.__wrapped__(str(logs), 3, 2)))
        worker.start()
        for _ in range(500):
            if calls:
                break
            time.sleep(0.01)
        assert calls == [3] and not out  # reading 3 computed, reading 2 still awaited
        path2.write_bytes(pickle.dumps({"support": 2, "by": "the other process"}))
        fcntl.flock(lock, fcntl.LOCK_UN)
    worker.join(10)
    assert out == [{"support": 2, "by": "the other process"}] and calls == [3]
    assert X._suite.__wrapped__(str(logs), 3, 3) == {"support": 3, "by": "this process"} and calls == [3]


def test_greedy_guarantee_is_the_submodular_bound():
    """Greedy's factor for k ads (000 §4.3 after Nemhauser et al.): 1 - (1 - 1/k)^k: 1 for k = 1, 3/4 for k = 2,
    19/27 for k = 3, decreasing towards 1 - 1/e; the tight instance attains it exactly."""
    from privclaims.theory.ads.coverage import tight_instance
    from privclaims.theory.ads.exact import expected_revenue, greedy, greedy_guarantee

    assert [greedy_guarantee(k) for k in (1, 2, 3)] == [1, Q(3, 4), Q(19, 27)]
    assert all(greedy_guarantee(k) > greedy_guarantee(k + 1) > 1 - 1 / 2.7182818284590452 for k in range(1, 8))
    inst, opt = tight_instance(3)
    assert expected_revenue(inst, greedy(inst, 3)) / expected_revenue(inst, opt) == greedy_guarantee(3)


def test_domain_reads_any_case_of_the_scheme_and_host():
    from privclaims.theory.ads.aol import domain

    for url in ("HTTP://www.X.com/a", "http://www.x.com", "Https://X.COM:8080/b?c", "ftp://www.x.com"):
        assert domain(url) == "x.com", url


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.data())
def test_hierarchy_instances_are_what_they_say(data):
    """The generator of ads.def_erev's searches (counterexamples/ads_strategies.py; moved there from the check module
    in issue 25): a tree, a prior over its leaves, CTRs on the quarter grid and payments on the half grid per leaf
    for the same ads (every payment 1 with payments=False), and ĉ one of the tree's nodes."""
    from privclaims.counterexamples.ads_strategies import hierarchy_instances

    payments = data.draw(st.booleans())
    parent, prior, ctr, pay, c_hat = data.draw(hierarchy_instances(payments=payments))
    leaves = [v for v in parent if not any(p == v for p in parent.values())]
    assert set(prior) == set(ctr) == set(pay) == set(leaves) and sum(prior.values()) == 1
    m = {len(v) for v in ctr.values()} | {len(v) for v in pay.values()}
    assert len(m) == 1 and 1 <= m.pop() <= 4
    assert all(x in {Q(k, 4) for k in range(5)} for v in ctr.values() for x in v)
    assert all(x in ({Q(0), Q(1, 2), Q(1)} if payments else {Q(1)}) for v in pay.values() for x in v)
    assert c_hat in parent


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_the_benefit_table_is_the_benefit_of_every_pair(data):
    """theory.ads.exact.benefit_table (Fact 3's exhaustive check reads it): entry [mask(A)][mask(A')] is
    benefit(inst, A, A') and subset_revenues[mask(A)] is expected_revenue(inst, A), for every pair of ad sets."""
    from privclaims.counterexamples.ads_strategies import ad_instances
    from privclaims.theory.ads import exact as E

    inst = data.draw(ad_instances(max_ads=4, max_contexts=3))
    m = inst.n_ads
    sets = [[a for a in range(m) if b >> a & 1] for b in range(1 << m)]
    er = E.subset_revenues(inst)
    assert er == [E.expected_revenue(inst, A) for A in sets]
    table = E.benefit_table(inst)
    assert all(table[b][a] == E.benefit(inst, sets[b], sets[a]) for b in range(1 << m) for a in range(1 << m))


def test_the_benefit_table_refuses_an_exponential_size_first():
    from privclaims.theory.ads import exact as E
    from privclaims.theory.ads.model import ad_instance

    big = ad_instance([1], [[Q(1, 2)] for _ in range(E.BENEFIT_TABLE_MAX_ADS + 1)])
    with pytest.raises(InvalidInput, match="2\\^13 entries"):
        E.subset_revenues(big)


@pytest.mark.parametrize("min_support", [1, 2])
def test_instance_rows_are_the_thresholded_columns_in_canonical_form(tmp_path, min_support):
    """_instance_rows (the instance Greedy sees) = B[:, cols] with the CTRs below the threshold dropped and the empty
    rows removed, entry for entry, with sorted column indices in every row (the order the benefits are summed in)."""
    import scipy.sparse as sp

    ev = _random_aol_events(tmp_path, seed=3, n_sites=14, users=8, blocks=60)
    svc = AdService(ev, min_support)
    checked = 0
    for level in ((0, 0, 0), (2, 2, 1), (5, 2, 0)):
        for i in range(0, len(ev.leaves), 7):
            chat, lv = svc.server_context(i, level)
            below = svc._below_of(chat, lv)
            if below is None:
                continue
            for t in (0.0, 0.2, 0.5):
                rows, V = svc._instance_rows(below[0], t)
                full = sp.csr_matrix(svc.B[:, below[0]])
                full.data[full.data < t] = 0
                full.eliminate_zeros()
                keep = np.flatnonzero(np.diff(full.indptr))
                want = full[keep]
                want.sort_indices()
                assert rows.tolist() == keep.tolist() and V.has_sorted_indices
                assert (V.indptr.tolist(), V.indices.tolist(), V.data.tolist()) == \
                    (want.indptr.tolist(), want.indices.tolist(), want.data.tolist())
                checked += 1
    assert checked > 30


def test_a_wrong_per_ad_twin_is_an_error_not_a_counterexample(monkeypatch):
    """value_only (checks/claims/ads/common.py) serves both payment readings by building each instance's per-ad
    realisation: a realisation with other values is our bug, so it raises (the check errors) instead of returning
    False, which a search would report as a refutation of the claim."""
    from privclaims.checks.claims.ads.common import value_only
    from privclaims.theory.ads import models

    inst = ad_instance(["1/2", "1/2"], [["1/3", "1"], ["1/4", "0"]], [["2", "1"], ["1", "0"]])
    prop = value_only(lambda x: True)
    assert prop(inst) is True and prop((inst, 2)) is True
    right = models.per_ad_realisation
    monkeypatch.setattr(models, "per_ad_realisation",
                        lambda i: ad_instance(list(i.weights), [[v / 2 for v in row] for row in right(i).ctr],
                                              [[p for p in row] for row in right(i).payments]))
    with pytest.raises(RuntimeError, match="values differ"):
        value_only(lambda x: True)(inst)
