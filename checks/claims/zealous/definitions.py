"""Definitions as exact checkers (k-anonymity variants, search-log histograms, utility measures, applications)."""

from __future__ import annotations

import random
from itertools import product

from privclaims.checks.claims.dp import checker_bug
from privclaims.checks.definitions.dp import K_ANON_LOGS, K_ANONYMITY
from privclaims.checks.readings import Audit
from privclaims.checks.registry import claim
from privclaims.checks.verdict import by_reading, discrepancy, refuted, verified, verified_bounded
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


# ------------------------------------------------------------------------------------------------ zealous definitions
# (the dp.* checks above belong to the dp area; the zealous ones below rest on checks/definitions/zealous.py)

import math  # noqa: E402

from privclaims.checks.definitions.zealous import (  # noqa: E402
    C_ACCURACY,
    CACHING,
    FREQUENT,
    INACCURACY,
    ITEM_HISTOGRAM,
    QUERY_SUBSTITUTION,
    SEARCH_LOG,
    SESSIONS,
    TOP_J,
    VERY,
)
from privclaims.checks.evidence import decide  # noqa: E402
from privclaims.checks.readings import Rejected  # noqa: E402
from privclaims.checks.verdict import Outcome, Part, in_model  # noqa: E402
from privclaims.theory.zealous.models import log_problems  # noqa: E402
from privclaims.checks.claims.zealous.common import by_parts  # noqa: E402
from privclaims.theory.zealous.readings import inaccuracy_literal_very, top_j_kl_reverse  # noqa: E402

STRICT_DEF10, VERY_DEF10 = (r.name for r in INACCURACY.readings)
LOG_MODEL = f"search logs of {SRC} §6.2.1 (users with histories of entries <USER-ID, QUERY, TIME, CLICKS>)"
WHOLE_HISTORY = 10 ** 9  # the largest session gap allowed (31 years): no two entries of the log are further apart


def strict(c) -> bool:
    """Whether the combination reads Definition 10 with its printed strict inequalities."""
    return c[INACCURACY] == STRICT_DEF10


# the two printed definitions of 'frequent' (the FREQUENT definition's readings), as relations of count to τ
PRINTED_FREQUENT = {"§6.2.1 count exceeds τ": ">", "§6.2.3 frequency at least τ": ">="}
SEARCHLOG_PARTS = (
    Part("contains", "a user history contains keyword k iff some entry's query has k among its keywords"),
    Part("users per item", "the histogram of an item kind counts the users whose history contains the item"),
    Part("query pairs", "a query pair is two subsequent queries of one user within one session (any fixed partition)"),
    Part("frequent", "an item is frequent if its count exceeds a threshold τ, as the other definition of the documents "
                     "says too"),
)


@claim("zealous.def_searchlog", method="exact", rests_on=(SEARCH_LOG, SESSIONS, ITEM_HISTOGRAM, FREQUENT),
       parts=SEARCHLOG_PARTS, audit=Audit(
           "Re-derived by hand on the check's two-user log: honda is in both histories (count 2 although u1 has it twice), "
           "'honda accord' in one (posed twice by u1), h1 clicked by both; the pair (free mp3, honda civic) is 2 hours "
           "apart, a pair only when the whole history is one session. 'Frequent' is defined twice: §6.2.1 'count exceeds "
           "τ', §6.2.3 “frequency at least τ” (Step 3 keeps counts >= τ); an item of count exactly τ is frequent under "
           "one and not the other, whichever the documents meant."))
def def_searchlog(ctx):
    """Histograms count users (not occurrences); query pairs are consecutive queries within a session, under a 30-minute
    partition and under one session per history (the documents leave the partition open); 'frequent' against its two
    printed definitions."""
    log = SearchLog({
        "u1": [Entry("honda accord", T0, ("h1",)), Entry("honda accord", T0 + 5, ("h1",)), Entry("certified car", T0 + 60)],
        "u2": [Entry("free mp3", T0), Entry("honda civic", T0 + 7200, ("h1",))],
    })
    kw, q, cl = (item_histogram(log, k) for k in ("keywords", "queries", "clicks"))
    qp30, qp_all = item_histogram(log, "query_pairs"), item_histogram(log, "query_pairs", WHOLE_HISTORY)
    checks = {
        "contains": {"kw[certified]": decide(kw["certified"], "==", 1), "kw[mp3]": decide(kw["mp3"], "==", 1),
                     "kw[civic]": decide(kw["civic"], "==", 1)},
        "users per item": {"kw[honda]": decide(kw["honda"], "==", 2), "q[honda accord]": decide(q["honda accord"], "==", 1),
                           "clicks[h1]": decide(cl["h1"], "==", 2)},
        "query pairs": {"30 min: (honda accord, certified car)": decide(qp30[("honda accord", "certified car")], "==", 1),
                        "30 min: (free mp3, honda civic), 2 h apart": decide(qp30[("free mp3", "honda civic")], "==", 0),
                        "one session per history: (free mp3, honda civic)": decide(qp_all[("free mp3", "honda civic")], "==", 1)},
    }
    per = {}
    for c in ctx.combinations:
        parts = {}
        for name, ds in checks.items():
            bad = {k: d for k, d in ds.items() if not d.holds}
            parts[name] = verified(values=ds) if not bad else refuted(
                witness={"log": {u: [e.query for e in h] for u, h in log.histories.items()}, "differ": bad},
                model=in_model(LOG_MODEL, [])).because(f"Our histograms disagree with the definition on {sorted(bad)}.")
        tau = 3  # an item whose count equals the threshold, under each printed definition of 'frequent'
        at_tau = {where: decide(tau, rel, tau, f"count = τ is frequent ({where})") for where, rel in PRINTED_FREQUENT.items()}
        agree = len({d.holds for d in at_tau.values()}) == 1
        parts["frequent"] = verified(at_tau=at_tau) if agree else discrepancy(
            paper={where: f"frequent iff count {rel} τ" for where, rel in PRINTED_FREQUENT.items()},
            computed=at_tau, reading=c[FREQUENT]).because(
            f"Read as '{c[FREQUENT]}', the documents' other definition of the same word contradicts it: §6.2.1 calls an "
            "item frequent if its count exceeds τ, §6.2.3 if its frequency is at least τ (and Step 3 keeps counts >= τ), "
            "so an item whose count equals τ is frequent under one and infrequent under the other. The intended notion "
            "(items whose count reaches the threshold) is clear; the two printed inequalities disagree.")
        per[c] = by_parts(parts)
    return by_reading(per, why=(
        "The search-log definitions hold on the check's log (histograms count users; query pairs stay inside a session, "
        "under a 30-minute partition and under one session per history), but the documents define 'frequent' twice with "
        "different inequalities (§6.2.1: count exceeds τ; §6.2.3: frequency at least τ), whichever is meant."),
        session_gap_seconds_rule="30 min (the project's convention) and one session per history",
                      source=f"{SRC} §6.2.1; §6.2.3")


@claim("zealous.text_verydef", method="exact+exhaustive", rests_on=(VERY,), audit=Audit(
    "A definition check: very_frequent / very_infrequent against the set comprehensions f >= τ + ξ, f <= τ - ξ on every "
    "f in 0..12, τ in 1..6, ξ in 0..3 (both documents print the same non-strict inequalities)."))
def text_verydef(ctx):
    """very_frequent / very_infrequent against their literal definitions on all f in 0..12, tau in 1..6, xi in 0..3."""
    n = 0
    for tau, xi in product(range(1, 7), range(0, 4)):
        freqs = {f: f for f in range(13)}
        n += 1
        vf, vi = very_frequent(freqs, tau, xi), very_infrequent(freqs, tau, xi)
        if vf != {f for f in range(13) if f >= tau + xi} or vi != {f for f in range(13) if f <= tau - xi}:
            return checker_bug("very_frequent / very_infrequent disagree with §6.2.3", tau=tau, xi=xi)
    return verified(settings=n, source=f"{SRC} §6.2.3",
                    note="Definition 10 uses the strict f < tau - xi / f > tau + xi (see zealous.text_baseline)")


def _random_dist(rng, items, outs=4):
    sets = [frozenset(x for x in items if rng.random() < 0.5) for _ in range(outs)]
    w = [rng.randint(1, 5) for _ in sets]
    tot = sum(w)
    d = {}
    for s, x in zip(sets, w):
        d[s] = d.get(s, ZERO) + Q(x, tot)
    return d


@claim("zealous.def10", method="exact+property", rests_on=(INACCURACY,), audit=Audit(
    "A definition check, per reading: the literal expectation of |wrong items| equals the rewritten sum (linearity of "
    "expectation: each item is wrong with probability Pr[d in A(S)] or 1 - Pr[d in A(S)]), with the strict inequalities "
    "in both forms or the non-strict ones in both; random exact output distributions over 6 items."))
def def10(ctx):
    """Definition 10: the expectation of |wrong items| (literal) equals the rewritten sum (exact rationals), under each
    reading of its inequalities."""
    n = 300
    per = {}
    for c in ctx.combinations:
        rng = random.Random(ctx.int_seed("def10"))
        literal = inaccuracy_literal if strict(c) else inaccuracy_literal_very
        rewritten = inaccuracy if strict(c) else inaccuracy_very
        bad = None
        equal, sum_literal, sum_rewritten, counted = 0, ZERO, ZERO, 0
        for _ in range(n):
            items = list(range(6))
            freqs = {d: rng.randint(0, 10) for d in items}
            dist = _random_dist(rng, items)
            tau, xi = rng.randint(1, 8), rng.randint(0, 3)
            lit, rew = literal(dist, freqs, tau, xi, items), rewritten(marginals(dist), freqs, tau, xi, items)
            # the items this reading's sums range over: f < tau - xi or f > tau + xi (strict), <= / >= (non-strict)
            counted += sum(1 for f in freqs.values() if ((f < tau - xi or f > tau + xi) if strict(c)
                                                          else (f <= tau - xi or f >= tau + xi)))
            sum_literal, sum_rewritten = sum_literal + lit, sum_rewritten + rew
            if rew != lit:
                bad = {"freqs": freqs, "dist": dist, "tau": tau, "xi": xi, "expectation": lit, "rewritten_sum": rew}
                break
            equal += 1
        # what this reading decided: on how many instances the two forms agree, and their totals over the instances
        # (the totals and the items counted differ between the readings exactly by the items at f = tau +- xi)
        decided = dict(
            instances_equal=decide(equal, "==", n, "instances where the rewritten sum equals E[|wrong items|]"),
            totals=decide(sum_rewritten, "==", sum_literal, "the rewritten sums, summed over the instances, = the "
                                                             "expectations summed"),
            items_in_the_sums=counted)
        per[c] = (verified_bounded(bound=f"{n} random exact output distributions over 6 items", **decided) if bad is None
                  else refuted(witness=bad, model=in_model("an algorithm's output distribution over a finite item domain", []),
                               **decided).because(f"Under {c[INACCURACY]} the printed rewriting of Definition 10 (the sum) differs "
                                         "from the expectation it rewrites on this output distribution (exact)."))
    return by_reading(per, source=f"{SRC} §6.2.3 Definition 10")


BASELINE_PARTS = (
    Part("total", "the always-empty algorithm's inaccuracy equals the number of items with frequency at least τ + ξ"),
    Part("inability to filter", "its inability to filter out the very-infrequent items is 0"),
    Part("inability to retain", "its inability to retain equals the number of very-frequent items (f >= τ + ξ)"),
)


def _baseline_parts(freqs: dict, tau, xi, strict_reading: bool) -> dict[str, tuple]:
    """(computed, claimed) per part of the claim for the always-empty algorithm on ``freqs`` (exact rationals; the
    empty output has probability 1), Definition 10 read strictly or with the very-(in)frequent items."""
    empty = {frozenset(): Q(1)}
    items = tuple(freqs)
    total = (inaccuracy_literal if strict_reading else inaccuracy_literal_very)(empty, freqs, tau, xi, items)
    marg = marginals(empty)  # Pr[d in A(S)] per item: none is ever output
    filt = sum((marg.get(d, ZERO) for d, f in freqs.items()
                if (f < tau - xi if strict_reading else f <= tau - xi)), ZERO)
    retain = sum((1 - marg.get(d, ZERO) for d, f in freqs.items()
                  if (f > tau + xi if strict_reading else f >= tau + xi)), ZERO)
    very_freq = sum(1 for f in freqs.values() if f >= tau + xi)  # the text's very-frequent items (both documents)
    return {"total": (total, very_freq), "inability to filter": (filt, 0), "inability to retain": (retain, very_freq)}


BASELINE_HALVES = tuple(Q(k, 2) for k in range(1, 9))  # τ and ξ searched for the smallest witness: 1/2, 1, ..., 4


def _smallest_baseline_witness(part: str, strict_reading: bool, integer: bool = False) -> dict | None:
    """The smallest search log (users, then distinct items, then τ, then ξ; τ, ξ > 0 in :data:`BASELINE_HALVES`, or
    integers with ``integer``) on which ``part`` of the claim fails under the reading, built as a §6.2.1 log (user j
    poses item d once iff j < f_d), its frequencies re-read from the log's query histogram, validated against the
    model, with how many (log, τ, ξ) of each smaller size were searched."""
    params = [x for x in BASELINE_HALVES if not integer or x.denominator == 1]
    below: dict[str, int] = {}
    for users in range(1, 5):
        for k in range(1, 4):
            key = f"{users} user(s), {k} item(s)"
            for fs in product(range(users + 1), repeat=k):
                if max(fs) != users or list(fs) != sorted(fs, reverse=True):
                    continue  # every user holds an item; items in decreasing frequency (the order is immaterial)
                for tau, xi in product(params, params):
                    freqs = dict(zip("abc", fs))
                    got, want = _baseline_parts(freqs, tau, xi, strict_reading)[part]
                    if got == want:
                        below[key] = below.get(key, 0) + 1
                        continue
                    log = SearchLog({f"u{j + 1}": [Entry(d, T0) for d, f in freqs.items() if j < f]
                                     for j in range(users)})
                    hist = item_histogram(log, "queries")
                    read = {d: hist.get(d, 0) for d in freqs}
                    again = _baseline_parts(read, tau, xi, strict_reading)[part]
                    histories = tuple(frozenset(e.query for e in h) for h in log.histories.values())
                    return {"log": {u: [e.query for e in h] for u, h in log.histories.items()}, "freqs": read,
                            "tau": tau, "xi": xi, "computed": again[0], "claimed": again[1],
                            "verified_by_exact": read == freqs and again == (got, want) and got != want,
                            "log_problems": log_problems(histories), "size": key,
                            "searched_below": dict(below)}
    return None


@claim("zealous.text_baseline", method="exact+exhaustive", rests_on=(INACCURACY, VERY), parts=BASELINE_PARTS, audit=Audit(
    "Re-derived: the empty output misses every item Definition 10 calls frequent-wrong, i.e. f > τ + ξ (strict) or f >= "
    "τ + ξ (non-strict), and outputs nothing. So the total and the inability to retain equal the number of items with f "
    ">= τ + ξ exactly under the non-strict reading, and fall short by the items at exactly τ + ξ under the strict one; the "
    "inability to filter is 0 under both. Under the strict reading the statement is false (refuted for that reading, "
    "not a discrepancy: which inequality holds is the reading, and the statement is false under this one). The smallest "
    "witness: one user posing one item a, f_a = 1, τ = ξ = 1/2 (with integer τ, ξ: two users, τ = ξ = 1). Exhaustive on "
    "3 items, counts 0..6, integer τ 1..4, ξ 0..2; the witness by a search of logs smallest first (users, items)."))
def text_baseline(ctx):
    """The always-empty algorithm under each reading of Definition 10, on every frequency vector over 3 items with counts
    0..6 and tau in 1..4, xi in 0..2 (exact rationals; the empty output has probability 1); a part that fails under a
    reading is refuted for it with the smallest witness (a search log, smallest first, validated and re-read)."""
    bound = "every (frequency vector, tau, xi): 3 items, counts 0..6, tau 1..4, xi 0..2"
    per = {}
    for c in ctx.combinations:
        failing = {p.name: 0 for p in BASELINE_PARTS}
        n = 0
        for tau, xi in product(range(1, 5), (1, 2, 0)):
            for fs in product(range(7), repeat=3):
                n += 1
                for name, (got, want) in _baseline_parts(dict(zip("abc", fs)), tau, xi, strict(c)).items():
                    failing[name] += got != want
        parts = {}
        for p in BASELINE_PARTS:
            if not failing[p.name]:
                parts[p.name] = verified_bounded(bound=bound, instances=n)
                continue
            w = _smallest_baseline_witness(p.name, strict(c))
            w_int = _smallest_baseline_witness(p.name, strict(c), integer=True)
            if w is None or not w["verified_by_exact"] or w["log_problems"]:
                return Outcome("error", {"error": f"{p.name}: the exhaustive search fails it under {c[INACCURACY]} but "
                                                  "no validated smallest log does", "witness": w})
            minimal = f"{w['size']}; searched below: " + (", ".join(f"{k}: {v}" for k, v in w["searched_below"].items())
                                                         or "nothing smaller")
            at = [d for d, f in w["freqs"].items() if f == w["tau"] + w["xi"]]
            parts[p.name] = refuted(
                witness={k: v for k, v in w.items() if k not in ("searched_below", "log_problems")},
                model=in_model(LOG_MODEL, w["log_problems"], minimal=minimal),
                smallest_with_integer_tau_xi={k: v for k, v in (w_int or {}).items()
                                              if k not in ("searched_below", "log_problems")},
                instances_failing=decide(failing[p.name], "==", 0, f"instances of the exhaustive bound where {p.asserts}"),
            ).because(
                f"Read as {c[INACCURACY]} ({'f > τ + ξ' if strict(c) else 'f >= τ + ξ'} for the frequent-wrong items), "
                f"the {p.name} of the always-empty algorithm is {w['computed']}, not the text's {w['claimed']}, on the "
                f"log {w['log']} with τ = {w['tau']}, ξ = {w['xi']}: item(s) {at} have frequency exactly τ + ξ"
                f" ({failing[p.name]} of the {n} instances of the exhaustive bound fail too).")
        per[c] = by_parts(parts)
    held = [r.name for r in INACCURACY.readings if all(o.verdict != "refuted" for o in per_of(per, r).values())]
    fails = [r.name for r in INACCURACY.readings if r.name not in held]
    return by_reading(per, why=(f"The sentence “the Baseline Algorithm has an inaccuracy equal to the number of items with "
                                f"frequency at least $\\tau + \\xi$” holds under {', '.join(held) or 'no reading'}"
                                + (f" and is false under {', '.join(fails)}: Definition 10's printed strict inequality "
                                   "does not count the items exactly at τ + ξ, which the sentence counts (witnesses "
                                   "per part)" if fails else "") + "."), source=f"{SRC} §6.2.3")


def per_of(per: dict, reading) -> dict:
    """The outcomes of ``per`` (combinations → outcomes) whose INACCURACY reading is ``reading``."""
    return {c: o for c, o in per.items() if c[INACCURACY] == reading.name}


@claim("zealous.def11", method="exact+exhaustive", rests_on=(C_ACCURACY, VERY), audit=Audit(
    "A definition check: is_c_accurate against the literal 'min over inputs and very-frequent items of the release "
    "probability >= c' on 300 random instances (3 inputs, 4 items)."))
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
            return checker_bug("is_c_accurate disagrees with Definition 11", inputs=inputs, c=c)
    return verified(instances=300, source=f"{SRC} §6.2.3 Definition 11")


KANON_ATTACK_PARTS = (
    Part("k-query", "Adar's k-query anonymity counts user-ids: k - 1 fake accounts make a victim's rare query published, "
                    "indistinguishable only from the fakes"),
    Part("k-session", "Motwani-Nabar k-session anonymity: k - 1 fake sessions with the victim's keywords make its session "
                      "published intact"),
    Part("k-keyword", "He-Naughton k-keyword anonymity: k - 1 fake accounts make the victim's rare keyword published"),
)


@claim("zealous.text_kanon_attack", method="exact", rests_on=(K_ANONYMITY, K_ANON_LOGS, SEARCH_LOG), parts=KANON_ATTACK_PARTS, audit=Audit(
    "Re-derived by hand for each of the three variants the sentence names (k = 3): the victim's rare query/keywords are "
    "suppressed (or generalised away) before the attack; the attacker's 2 accounts each pose the same query, after which "
    "the anonymised output contains it and every id or session sharing it is the victim's or the attacker's: 1 + "
    "attacker individuals instead of k."))
def text_kanon_attack(ctx):
    """The §6.3.1 attack on each k-anonymity variant the sentence names, k = 3: the victim's rare query is suppressed
    (k-query), intersected away (k-session) or generalised away (k-keyword); after the attacker's 2 fake accounts pose
    it, it is published - "k-anonymous" over user-ids, over individuals only the victim and the attacker."""
    k = 3
    rare = "rare disease clinic lilburn"
    log = SearchLog({"victim": [Entry(rare, T0)], "a": [Entry("news", T0)], "b": [Entry("news", T0 + 1)],
                     "c": [Entry("news", T0 + 2)]})
    attacked = sybil_attack(log, rare, k, T0 + 100)
    owner = {u: ("attacker" if u.startswith("sybil") else u) for u in attacked.histories}
    rare_kw = frozenset(rare.split())
    out = {}
    # k-query (Adar)
    before = {e.query for h in adar_k_query(log, k, seed=1).histories.values() for e in h}
    after = {e.query for h in adar_k_query(attacked, k, seed=1).histories.values() for e in h}
    posers = {owner[u] for u, h in attacked.histories.items() if any(e.query == rare for e in h)}
    out["k-query"] = {"published_before": rare in before, "published_after": rare in after,
                      "k_query_anonymous_after": is_k_query_anonymous(attacked, adar_k_query(attacked, k, seed=1), k),
                      "individuals_behind_it": sorted(posers)}
    # k-session (Motwani-Nabar)
    sets_before, sets_after = k_session_anonymize(log, k), k_session_anonymize(attacked, k)
    out["k-session"] = {"published_before": rare_kw in sets_before, "published_after": rare_kw in sets_after,
                        "k_session_anonymous_after": is_k_session_anonymous(sets_after, k),
                        "individuals_behind_it": sorted(posers)}
    # k-keyword (He-Naughton)
    h_before, h_after = k_keyword_anonymize(log, k), k_keyword_anonymize(attacked, k)
    out["k-keyword"] = {"published_before": "lilburn" in h_before, "published_after": "lilburn" in h_after,
                        "k_keyword_anonymous_after": is_k_keyword_anonymous(attacked, h_after, k),
                        "individuals_behind_it": sorted(posers)}
    parts = {}
    for p in KANON_ATTACK_PARTS:
        o = out[p.name]
        anon = next(v for key, v in o.items() if key.endswith("anonymous_after"))
        ok = not o["published_before"] and o["published_after"] and anon
        d = decide(len(o["individuals_behind_it"]), "<", k, "individuals behind the published item < k")
        parts[p.name] = (verified(decision=d, **o) if ok and d.holds else refuted(
            witness=o, model=in_model(LOG_MODEL, [])).because(
            f"The {p.name} anonymiser does not publish the victim's item after the attack, or not with fewer than k "
            "individuals behind it."))
    return by_parts(parts, k=k, victim_query=rare, source=f"{SRC} §6.3.1")


@claim("zealous.def_topj", method="exact", rests_on=(TOP_J,), audit=Audit(
    "A definition check on a hand instance: original (a 6, b 3, c 1), sanitized (a 4, b 4, d 9); top-2 coverage 1, top-3 "
    "2/3, average L1 of (2/3, 1/3) against (1/2, 1/2) is 1/6, KL(p || q) = 2/3 ln(4/3) + 1/3 ln(2/3), KL(q || p) = 1/2 "
    "ln(3/4) + 1/2 ln(3/2) (each reading of the divergence's direction)."))
def def_topj(ctx):
    """Top-j coverage and precision (L1, KL) on hand-computed instances, the KL under each direction."""
    orig = {"a": 6, "b": 3, "c": 1}
    san = {"a": 4, "b": 4, "d": 9}
    cov2, cov3 = top_j_coverage(orig, san, 2), top_j_coverage(orig, san, 3)
    l1, kl = top_j_precision(orig, san, 2)
    kl_rev = top_j_kl_reverse(orig, san, 2)
    tol = 1e-15
    per = {}
    for c in ctx.combinations:
        forward = c[TOP_J] == TOP_J.readings[0].name
        want_kl = (2 / 3 * math.log(4 / 3) + 1 / 3 * math.log(2 / 3)) if forward else (0.5 * math.log(3 / 4) + 0.5 * math.log(3 / 2))
        got_kl = kl if forward else kl_rev
        ds = {"coverage@2": decide(cov2, "==", 1.0), "coverage@3 - 2/3": decide(abs(cov3 - 2 / 3), "<=", tol),
              "L1@2 - 1/6": decide(abs(l1 - 1 / 6), "<=", tol), "KL@2 - hand value": decide(abs(got_kl - want_kl), "<=", tol)}
        per[c] = (verified(values=ds, KL=got_kl) if all(d.holds for d in ds.values())
                  else checker_bug("top-j coverage/precision disagree with the hand values", values=ds))
    return by_reading(per, source=f"{SRC} §6.6.2")


@claim("zealous.def_cache", method="exact+exhaustive", rests_on=(CACHING,), audit=Audit(
    "A definition check on 200 random instances of 6 keywords: cached keywords in decreasing score order, never over the "
    "memory, every skipped keyword with a positive score too large for the memory left when its turn came (greedy "
    "bin packing), and the hit probability equal to the workload mass of the cached keywords.",
    rejected=(Rejected("stop at the first list that does not fit", "'greedy bin-packing strategy' places every list "
                       "that still fits",
                       ((SRC, "§6.7.2", r"Keywords are chosen using a greedy bin-packing strategy where we sequentially add "
                                        r"posting lists from the keywords with the highest score until the memory is filled."),)),)))
def def_cache(ctx):
    """Greedy caching: order by frequency/posting length, truncation, memory never exceeded, every skipped keyword did not
    fit when considered, hit probability = workload mass of cached keywords; small random instances."""
    rng = random.Random(ctx.int_seed("cache"))
    for _ in range(200):
        kws = [f"k{i}" for i in range(6)]
        freq = {k: rng.randint(0, 20) for k in kws}
        plen = {k: rng.randint(1, 400) for k in kws}
        mem = rng.randint(8, 2000)
        cached = cache_posting_lists(freq, plen, mem, truncate=300)
        size = {k: min(plen[k], 300) * 8 for k in kws}
        used = sum(size[k] for k in cached)
        order_ok = all(freq[a] / plen[a] >= freq[b] / plen[b] for a, b in zip(cached, cached[1:]))
        # greedy maximality: walking the keywords by score, a skipped positive-score keyword did not fit then
        room, maximal = mem, True
        for k in sorted((k for k in kws if freq[k] > 0), key=lambda k: (-freq[k] / plen[k], k)):
            if k in cached:
                room -= size[k]
            elif size[k] <= room:
                maximal = False
        hp = hit_probability(cached, freq) if sum(freq.values()) else 0.0
        if used > mem or not order_ok or not maximal or (sum(freq.values()) and abs(hp - sum(freq[k] for k in cached) / sum(freq.values())) > 1e-12):
            return checker_bug("the greedy cache breaks its definition", freq=freq, plen=plen, mem=mem, cached=cached)
    return verified_bounded(bound="200 random instances of 6 keywords", source=f"{SRC} §6.2.3, §6.7.2",
                            note="memory 1 GB, 8 B per posting, truncation to 200,000 are the defaults of cache_posting_lists")


QSUB_PARTS = (
    Part("precision", "Precision(q) = |{q_i} ∩ {q'_i}| / |{q'_i}|"),
    Part("recall", "Recall(q) = |{q_i} ∩ {q'_i}| / |{q_i}|"),
    Part("MAP", "MAP(q) = sum_i (i+1)/(rank of q_i in [q'] + 1), rank 0 when absent, “measures the precision of the ranked "
                "items”"),
    Part("NDCG", "NDCG rewards relevant substitutions ranked high (Chakrabarti et al.; 1 for the original list itself)"),
)


@claim("zealous.def_qsub", method="exact", rests_on=(QUERY_SUBSTITUTION,), parts=QSUB_PARTS, audit=Audit(
    "Re-derived by hand: original [x, y, z]; the perfect list scores MAP = 1/1 + 2/2 + 3/3 = 3 while the empty list "
    "gives every q_i rank 0, MAP = 1 + 2 + 3 = 6: the printed MAP rewards missing substitutions, against the purpose the "
    "same sentence states. Precision 1 for the perfect list, recall 1/3 for [y], NDCG 1 for the perfect list."))
def def_qsub(ctx):
    """Precision/recall as printed; MAP as printed gives rank 0 to an absent substitution, so its term (i+1)/(0+1) is the
    largest possible: an empty sanitized list scores higher than the perfect one, against the text's own 'MAP measures
    the precision' (a discrepancy of the printed formula, not a refuted definition)."""
    orig = ["x", "y", "z"]
    perfect, empty, partial = ["x", "y", "z"], [], ["y"]
    ds = {"precision": decide(precision(orig, perfect), "==", 1, "precision(perfect) == 1"),
          "recall": decide(abs(recall(orig, partial) - 1 / 3), "<=", 1e-15, "|recall([y]) - 1/3| <= 1e-15"),
          "NDCG": decide(ndcg(orig, perfect), "==", 1, "NDCG(perfect) == 1")}
    map_ok = decide(map_as_printed(orig, empty), "<=", map_as_printed(orig, perfect), "MAP(empty) <= MAP(perfect)")
    parts = {name: verified(decision=d) if d.holds else checker_bug(f"{name} disagrees with §6.7.3", decision=d)
             for name, d in ds.items()}
    parts["MAP"] = verified(decision=map_ok) if map_ok.holds else discrepancy(
        paper="MAP(q) = sum_i (i+1)/(rank of q_i in [q'_0..q'_{j-1}] + 1), rank 0 if absent, said to 'measure the precision'",
        computed={"MAP(perfect)": map_as_printed(orig, perfect), "MAP(empty)": map_as_printed(orig, empty)},
        witness={"original": orig, "sanitized_perfect": perfect, "sanitized_empty": empty}, decision=map_ok).because(
        "The definition says MAP “measures the precision of the ranked items”. As printed, an original substitution absent "
        "from the sanitized list gets rank 0, which makes its term (i+1)/1 the largest possible, so an empty sanitized list "
        f"scores {map_as_printed(orig, empty)} against {map_as_printed(orig, perfect)} for a perfect one. The formula "
        "contradicts the purpose the same sentence gives it (a misprinted convention), while precision, recall and NDCG "
        "behave as defined; the definition is not refuted, its printed formula is a discrepancy.")
    return by_parts(parts, source=f"{SRC} §6.7.3")
