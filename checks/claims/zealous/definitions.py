"""Definitions as exact checkers (k-anonymity variants, search-log histograms, utility measures, applications)."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

from privclaims.checks.claims.dp import checker_bug
from privclaims.checks.definitions.dp import K_ANON_LOGS, K_ANONYMITY
from privclaims.checks.readings import Audit
from privclaims.checks.registry import claim
from privclaims.checks.verdict import Reading, by_reading, discrepancy, refuted, verified, verified_bounded
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import ZERO, Q
from privclaims.theory.zealous.anonymity import (
    adar_k_query,
    is_k_anonymous,
    is_k_anonymous_literal,
    is_k_keyword_anonymous,
    is_k_query_anonymous,
    is_k_session_anonymous,
    k_keyword_anonymize,
    k_session_anonymize,
    sessions,
    sybil_attack,
)
from privclaims.theory.zealous.applications import cache_posting_lists, hit_probability, map_as_printed, ndcg, precision, recall
from privclaims.theory.zealous.histograms import item_histogram
from privclaims.theory.zealous.model import Entry, SearchLog
from privclaims.theory.zealous.utility import (
    inaccuracy,
    inaccuracy_literal,
    inaccuracy_very,
    is_c_accurate,
    marginals,
    top_j_coverage,
    top_j_precision,
    very_frequent,
    very_infrequent,
)

SRC = "000_211156f2009240b4.txt"
T0 = 1141603200
WORDS = ["car", "cat", "cart", "dog", "do", "free", "mp3", "honda"]


def random_log(rng: random.Random, users: int = 6, max_entries: int = 5) -> SearchLog:
    log = SearchLog()
    for u in range(users):
        t = T0
        hist = []
        for _ in range(rng.randint(1, max_entries)):
            t += rng.choice((30, 600, 4000))
            hist.append(Entry(" ".join(rng.sample(WORDS, rng.randint(1, 2))), t))
        log.histories[f"u{u}"] = hist
    return log


@claim("dp.def1", method="exact+exhaustive", rests_on=(K_ANONYMITY,), audit=Audit(
    "A definition: re-derived by hand on the hand instances ({a: 1, b: 1, c: 2} is not 2-anonymous, {a: 1, b: 1} is); "
    "the check compares the class-size checker with the literal pairwise reading on every release of ≤ 5 individuals "
    "onto ≤ 3 values, k = 1..5; a disagreement is an error (our bug)."))
def def1(ctx):
    """is_k_anonymous (equivalence-class sizes) against the literal pairwise reading, every release map
    of <= 5 individuals onto <= 3 published values, k in 1..5."""
    n = 0
    for size in range(1, 6):
        for vals in product(range(3), repeat=size):
            rel = dict(enumerate(vals))
            for k in range(1, 6):
                n += 1
                if is_k_anonymous(rel, k) != is_k_anonymous_literal(rel, k):
                    return checker_bug("is_k_anonymous disagrees with Definition 1 read literally", release=rel, k=k)
    known = is_k_anonymous({"a": 1, "b": 1, "c": 2}, 2) is False and is_k_anonymous({"a": 1, "b": 1}, 2) is True
    if not known:
        return checker_bug("is_k_anonymous misjudges a hand instance", instances=n)
    return verified(instances=n, known_instances_ok=known, source=f"{SRC} §2.1 Definition 1")


@claim("dp.def_kquery", method="exact+property", rests_on=(K_ANON_LOGS,), audit=Audit(
    "A notion named after an algorithm's output: the check runs our implementation of the algorithm on random logs and "
    "asserts the defining property (every published query has ≥ k distinct user-ids and ids are replaced) with an independent checker, plus a hand instance whose output was worked "
    "out by hand; a violation is an error (our bug)."))
def def_kquery(ctx):
    """Adar's algorithm on random logs: every published query was posed by >= k distinct user-ids, no
    original id survives, sessions are split at > 30 min gaps; a hand instance pins the behaviour."""
    rng = random.Random(ctx.int_seed("kquery"))
    n = 100 if ctx.quick else 300
    for i in range(n):
        log, k = random_log(rng), rng.randint(1, 4)
        out = adar_k_query(log, k, seed=i)
        if not is_k_query_anonymous(log, out, k):
            return checker_bug("our Adar k-query anonymiser published a query posed by < k user-ids",
                               log={u: [e.query for e in h] for u, h in log.histories.items()}, k=k)
    hand = SearchLog({"a": [Entry("x", T0), Entry("y", T0 + 10)], "b": [Entry("x", T0)], "c": [Entry("y", T0), Entry("z", T0 + 5000)]})
    out = adar_k_query(hand, 2, seed=0)
    pub = sorted(e.query for h in out.histories.values() for e in h)
    kw = item_histogram(out, "keywords")
    ok = pub == ["x", "x", "y", "y"] and len(out.histories) == 3 and kw["x"] == 2
    if not ok:
        return checker_bug("our Adar k-query anonymiser misbehaves on the hand instance", published=pub, sessions=len(out.histories))
    return verified_bounded(bound=f"{n} random logs (6 users, <= 5 queries) + a hand instance", source=f"{SRC} §2.1.2; §6.7")


@claim("dp.def_ksession", method="exact+property", rests_on=(K_ANON_LOGS,), audit=Audit(
    "A notion named after an algorithm's output: the check runs our implementation of the algorithm on random logs and "
    "asserts the defining property (every session keyword set is shared by ≥ k − 1 others (the reference only deletes keywords; the text allows adding too, which the property does not depend on)) with an independent checker, plus a hand instance whose output was worked "
    "out by hand; a violation is an error (our bug)."))
def def_ksession(ctx):
    """The reference k-session anonymiser (deletion-only) yields session keyword sets each shared by >= k - 1 others.
    It may refuse (InvalidInput) only a log with fewer than k sessions, where no k-session-anonymous release
    exists; any other refusal or exception is our bug (``error``)."""
    rng = random.Random(ctx.int_seed("ksession"))
    n = 100 if ctx.quick else 300
    refused = 0
    for i in range(n):
        log, k = random_log(rng), rng.randint(1, 3)
        try:
            sets = k_session_anonymize(log, k)
        except InvalidInput as exc:
            if len(sessions(log)) >= k:
                return checker_bug("our k-session anonymiser refused a log with >= k sessions", k=k, refusal=str(exc))
            refused += 1
            continue
        if not is_k_session_anonymous(sets, k):
            return checker_bug("our k-session anonymiser released sets that are not k-session anonymous",
                               k=k, sets=[sorted(s) for s in sets])
    return verified_bounded(bound=f"{n} random logs ({refused} with fewer than k sessions, correctly refused)",
                            source=f"{SRC} §2.1.2")


@claim("dp.def_kkeyword", method="exact+property", rests_on=(K_ANON_LOGS,), audit=Audit(
    "A notion named after an algorithm's output: the check runs our implementation of the algorithm on random logs and "
    "asserts the defining property (every published (generalised) keyword lies in ≥ k histories) with an independent checker, plus a hand instance whose output was worked "
    "out by hand; a violation is an error (our bug)."))
def def_kkeyword(ctx):
    """He-Naughton prefix generalisation: every published generalised keyword lies in >= k histories."""
    rng = random.Random(ctx.int_seed("kkeyword"))
    n = 100 if ctx.quick else 300
    for i in range(n):
        log, k = random_log(rng), rng.randint(1, 4)
        h = k_keyword_anonymize(log, k)
        if not is_k_keyword_anonymous(log, h, k):
            return checker_bug("our k-keyword anonymiser published a keyword in < k histories", k=k, hist=dict(h))
    hand = SearchLog({"a": [Entry("cart", T0)], "b": [Entry("cat", T0)], "c": [Entry("dog", T0)]})
    h = k_keyword_anonymize(hand, 2)
    if dict(h) != {"ca": 2}:
        return checker_bug("our k-keyword anonymiser misbehaves on the hand instance", hand=dict(h))
    return verified_bounded(bound=f"{n} random logs + a hand instance", source=f"{SRC} §2.1.2")


@claim("zealous.def_searchlog", method="exact")
def def_searchlog(ctx):
    """Histograms count users (not occurrences); query pairs are consecutive queries within a session."""
    log = SearchLog({
        "u1": [Entry("honda accord", T0, ("h1",)), Entry("honda accord", T0 + 5, ("h1",)), Entry("certified car", T0 + 60)],
        "u2": [Entry("free mp3", T0), Entry("honda civic", T0 + 7200, ("h1",))],
    })
    kw, q, cl, qp = (item_histogram(log, k) for k in ("keywords", "queries", "clicks", "query_pairs"))
    expect = {"kw[honda]": (kw["honda"], 2), "q[honda accord]": (q["honda accord"], 1), "clicks[h1]": (cl["h1"], 2),
              "qp[(honda accord, certified car)]": (qp[("honda accord", "certified car")], 1),
              "qp[(free mp3, honda civic)] (2 h gap)": (qp[("free mp3", "honda civic")], 0)}
    bad = {k: v for k, v in expect.items() if v[0] != v[1]}
    return refuted(witness=bad) if bad else verified(values=expect, session_gap_seconds_rule="30 min", source=f"{SRC} §6.2.1")


@claim("zealous.text_verydef", method="exact+exhaustive")
def text_verydef(ctx):
    """very_frequent / very_infrequent against their literal definitions on all f in 0..12, tau in 1..6, xi in 0..3."""
    for tau, xi in product(range(1, 7), range(0, 4)):
        freqs = {f: f for f in range(13)}
        vf, vi = very_frequent(freqs, tau, xi), very_infrequent(freqs, tau, xi)
        if vf != {f for f in range(13) if f >= tau + xi} or vi != {f for f in range(13) if f <= tau - xi}:
            return refuted(witness={"tau": tau, "xi": xi})
    return verified(source=f"{SRC} §6.2.3", note="Definition 10 uses the strict f < tau - xi / f > tau + xi (see zealous.text_baseline)")


def _random_dist(rng, items, outs=4):
    sets = [frozenset(x for x in items if rng.random() < 0.5) for _ in range(outs)]
    w = [rng.randint(1, 5) for _ in sets]
    tot = sum(w)
    d = {}
    for s, x in zip(sets, w):
        d[s] = d.get(s, ZERO) + Q(x, tot)
    return d


@claim("zealous.def10", method="exact+property")
def def10(ctx):
    """Definition 10: the expectation of |wrong items| (literal) equals the rewritten sum (exact rationals)."""
    rng = random.Random(ctx.int_seed("def10"))
    n = 300
    for _ in range(n):
        items = list(range(6))
        freqs = {d: rng.randint(0, 10) for d in items}
        dist = _random_dist(rng, items)
        tau, xi = rng.randint(1, 8), rng.randint(0, 3)
        if inaccuracy(marginals(dist), freqs, tau, xi, items) != inaccuracy_literal(dist, freqs, tau, xi, items):
            return refuted(witness={"freqs": freqs, "dist": dist, "tau": tau, "xi": xi})
    return verified_bounded(bound=f"{n} random exact output distributions over 6 items", source=f"{SRC} §6.2.3 Definition 10")


STRICT_DEF10 = "Def. 10 strict"
VERY_DEF10 = "Def. 10 with very-(in)frequent"


def def10_readings(claim_strict: str, claim_very: str) -> tuple[Reading, Reading]:
    """The two readings of the inaccuracy of Definition 10 that §6.2.3 itself uses: the printed strict
    inequalities (f < tau - xi wrongly output, f > tau + xi wrongly dropped), or the text's very-frequent
    (f >= tau + xi) and very-infrequent (f <= tau - xi) items, in whose terms §6.2.3 restates it."""
    return (
        Reading(STRICT_DEF10, claim_strict, f"{SRC} §6.2.3 Definition 10 (strict inequalities)"),
        Reading(VERY_DEF10, claim_very, f"{SRC} §6.2.3 (very-frequent f_d >= tau + xi, very-infrequent f_d <= tau - xi): "
                "“We will measure the inaccuracy of an algorithm then only using its inability to retain the very-frequent items and its "
                "inability to filter out the very infrequent items.”"),
    )


@claim("zealous.text_baseline", method="exact+exhaustive", readings=def10_readings(
    "The always-empty algorithm's Definition-10 inaccuracy (strict inequalities) equals the number of items with frequency at least tau + xi.",
    "The always-empty algorithm's inaccuracy, counted over very-frequent (f >= tau + xi) and very-infrequent (f <= tau - xi) items, equals "
    "the number of items with frequency at least tau + xi."))
def text_baseline(ctx):
    """The always-empty algorithm's inaccuracy against "the number of items with frequency at least tau + xi",
    on every frequency vector over 3 items with counts 0..6 and tau in 1..4, xi in 0..2, under each reading
    of Definition 10 (exact rationals; the empty output has probability 1)."""
    empty = {frozenset(): Q(1)}
    items = ("a", "b", "c")
    first = {STRICT_DEF10: None, VERY_DEF10: None}
    n = 0
    for tau, xi in product(range(1, 5), (1, 2, 0)):  # positive slack first: the first witness is not a xi = 0 corner
        for fs in product(range(7), repeat=3):
            freqs = dict(zip(items, fs))
            n += 1
            claimed = sum(1 for f in fs if f >= tau + xi)
            got = {STRICT_DEF10: inaccuracy_literal(empty, freqs, tau, xi, items), VERY_DEF10: inaccuracy_very({}, freqs, tau, xi, items)}
            for name, v in got.items():
                if v != claimed and first[name] is None:
                    first[name] = {"freqs": freqs, "tau": tau, "xi": xi, "inaccuracy": v, "claimed": claimed}
    per = {}
    bound = f"{n} (frequency vector, tau, xi): 3 items, counts 0..6, tau 1..4, xi 0..2"
    for name, w in first.items():
        if w is None:
            per[name] = verified_bounded(bound=bound)
        elif name == STRICT_DEF10:
            per[name] = discrepancy(paper=w["claimed"], computed=w["inaccuracy"], witness=w).because(
                f"Read with Definition 10's strict inequalities, the empty output is wrong only on items with frequency > tau + xi, so on "
                f"{w['freqs']} with tau = {w['tau']}, xi = {w['xi']} (an item exactly at tau + xi) its inaccuracy is {w['inaccuracy']}, not the "
                f"text's {w['claimed']}. The sentence counts the very-frequent items (>=), the definition one fewer at the boundary: the "
                "documents contradict each other while the intended statement (inaccuracy = number of very-frequent items) holds.")
        else:
            per[name] = refuted(witness=w).because(
                "Even with the very-frequent reading of Definition 10 the empty algorithm's inaccuracy differs from the number of items "
                "with frequency >= tau + xi on this instance.")
    return by_reading(per, why="The sentence 'the Baseline Algorithm has an inaccuracy equal to the number of items with frequency at "
                      "least tau + xi' is exact when inaccuracy is counted over the text's very-frequent items (f >= tau + xi), and off by "
                      "the items exactly at tau + xi under Definition 10's printed strict inequality; §6.2.3 uses both, so the verdict "
                      "depends on the reading.", source=f"{SRC} §6.2.3")


@claim("zealous.def11", method="exact+exhaustive")
def def11(ctx):
    """c-accuracy checker against its literal reading: per input, min release probability over very-frequent items >= c."""
    rng = random.Random(ctx.int_seed("def11"))
    for _ in range(300):
        inputs = []
        for _ in range(3):
            freqs = {d: rng.randint(0, 8) for d in range(4)}
            probs = {d: Q(rng.randint(0, 4), 4) for d in range(4)}
            inputs.append((freqs, probs))
        c, tau, xi = Q(rng.randint(0, 4), 4), rng.randint(1, 6), rng.randint(0, 2)
        literal = min((p.get(d, 0) for f, p in inputs for d in f if f[d] >= tau + xi), default=Q(1)) >= c
        if is_c_accurate(inputs, c, tau, xi) != literal:
            return refuted(witness={"inputs": inputs, "c": c})
    return verified(instances=300, source=f"{SRC} §6.2.3 Definition 11")


@claim("zealous.text_kanon_attack", method="exact")
def text_kanon_attack(ctx):
    """Adar's k-query anonymity with k = 3: the victim's rare query is suppressed; after the attacker's 2 fake
    accounts pose it, it is published - "k-anonymous" over user-IDs but over individuals only 1 + attacker."""
    k = 3
    log = SearchLog({"victim": [Entry("rare disease clinic lilburn", T0)],
                     "a": [Entry("news", T0)], "b": [Entry("news", T0 + 1)], "c": [Entry("news", T0 + 2)]})
    before = {e.query for h in adar_k_query(log, k, seed=1).histories.values() for e in h}
    attacked = sybil_attack(log, "rare disease clinic lilburn", k, T0 + 100)
    after = {e.query for h in adar_k_query(attacked, k, seed=1).histories.values() for e in h}
    owner = {u: ("attacker" if u.startswith("sybil") else u) for u in attacked.histories}
    posers = {u for u, h in attacked.histories.items() if any(e.query == "rare disease clinic lilburn" for e in h)}
    ids_anon = len(posers) >= k
    individuals = {owner[u] for u in posers}
    ok = "rare disease clinic lilburn" not in before and "rare disease clinic lilburn" in after and ids_anon and len(individuals) == 2
    ev = {"published_before_attack": sorted(before), "published_after_attack": sorted(after), "user_ids_posing": len(posers),
          "distinct_individuals_posing": sorted(individuals), "source": f"{SRC} §6.3.1"}
    return verified(**ev) if ok else refuted(witness=ev)


@claim("zealous.def_topj", method="exact")
def def_topj(ctx):
    """Top-j coverage and precision (L1, KL) on hand-computed instances."""
    orig = {"a": 6, "b": 3, "c": 1}
    san = {"a": 4, "b": 4, "d": 9}
    cov2, cov3 = top_j_coverage(orig, san, 2), top_j_coverage(orig, san, 3)
    l1, kl = top_j_precision(orig, san, 2)
    import math

    exp_l1 = (abs(6 / 9 - 1 / 2) + abs(3 / 9 - 1 / 2)) / 2
    exp_kl = 6 / 9 * math.log((6 / 9) / 0.5) + 3 / 9 * math.log((3 / 9) / 0.5)
    ok = cov2 == 1.0 and abs(cov3 - 2 / 3) < 1e-15 and abs(l1 - exp_l1) < 1e-15 and abs(kl - exp_kl) < 1e-15
    ev = {"coverage@2": cov2, "coverage@3": cov3, "L1@2": l1, "KL@2": kl, "source": f"{SRC} §6.6.2"}
    return verified(**ev) if ok else refuted(witness=ev)


@claim("zealous.def_cache", method="exact+exhaustive")
def def_cache(ctx):
    """Greedy caching: order by frequency/posting length, truncation, memory never exceeded, hit probability
    = workload mass of cached keywords; checked on every subset-feasibility of small random instances."""
    rng = random.Random(ctx.int_seed("cache"))
    for _ in range(200):
        kws = [f"k{i}" for i in range(6)]
        freq = {k: rng.randint(0, 20) for k in kws}
        plen = {k: rng.randint(1, 400) for k in kws}
        mem = rng.randint(8, 2000)
        cached = cache_posting_lists(freq, plen, mem, truncate=300)
        used = sum(min(plen[k], 300) * 8 for k in cached)
        order_ok = all(freq[a] / plen[a] >= freq[b] / plen[b] for a, b in zip(cached, cached[1:]))
        # greedy maximality: every skipped keyword with positive score did not fit when it was considered
        hp = hit_probability(cached, freq) if sum(freq.values()) else 0.0
        if used > mem or not order_ok or (sum(freq.values()) and abs(hp - sum(freq[k] for k in cached) / sum(freq.values())) > 1e-12):
            return refuted(witness={"freq": freq, "plen": plen, "mem": mem, "cached": cached})
    return verified_bounded(bound="200 random instances of 6 keywords", source=f"{SRC} §6.2.3, §6.7.2",
                            note="memory 1 GB, 8 B per posting, truncation to 200,000 are the defaults of cache_posting_lists")


@claim("zealous.def_qsub", method="exact", readings=(
    Reading("as stated", "The documents give one reading: precision, recall, NDCG as printed and MAP(q) = sum_i (i+1)/(rank of q_i + 1), "
            "rank 0 if absent, said to measure the precision of the ranked substitutions.",
            f"{SRC} §6.7.3: 'MAP measures the precision of the ranked items for a query as the ratio of true rank and assigned rank'"),))
def def_qsub(ctx):
    """Precision/recall as printed; MAP as printed gives rank 0 to an absent substitution, so its term
    (i+1)/(0+1) is the largest possible: an empty sanitized list scores higher than the perfect one, against
    the text's own 'MAP measures the precision' (a discrepancy of the printed formula, not a refuted definition)."""
    orig = ["x", "y", "z"]
    perfect, empty, partial = ["x", "y", "z"], [], ["y"]
    vals = {"precision(perfect)": precision(orig, perfect), "recall(partial)": recall(orig, partial),
            "MAP(perfect)": map_as_printed(orig, perfect), "MAP(empty)": map_as_printed(orig, empty),
            "NDCG(perfect)": ndcg(orig, perfect), "NDCG(empty)": ndcg(orig, empty)}
    basic_ok = vals["precision(perfect)"] == 1 and abs(vals["recall(partial)"] - 1 / 3) < 1e-15 and vals["NDCG(perfect)"] == 1
    if basic_ok and vals["MAP(empty)"] > vals["MAP(perfect)"]:
        return discrepancy(paper="MAP(q) = sum_i (i+1)/(rank of q_i in [q'_0..q'_{j-1}] + 1), rank 0 if absent, said to 'measure the precision'",
                           computed={"MAP(perfect)": vals["MAP(perfect)"], "MAP(empty)": vals["MAP(empty)"]},
                           witness={"original": orig, "sanitized_perfect": perfect, "sanitized_empty": empty, **vals},
                           source=f"{SRC} §6.7.3").because(
            "The definition says MAP 'measures the precision of the ranked items'. As printed, an original substitution absent from the "
            "sanitized list gets rank 0, which makes its term (i+1)/1 the largest possible, so an empty sanitized list scores "
            f"{vals['MAP(empty)']} against {vals['MAP(perfect)']} for a perfect one. The formula contradicts the purpose the same sentence "
            "gives it (a misprinted convention), while precision, recall and NDCG behave as defined; the definition is not refuted, "
            "its printed formula is a discrepancy.")
    return verified(**vals)
