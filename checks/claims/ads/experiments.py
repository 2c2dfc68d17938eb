"""§4.4 experiments (000_211156f2009240b4.txt; 002_9d55ef468949585c.txt §5) on the AOL substitute.

The Bing-for-mobile log is not public. :mod:`privclaims.theory.ads.aol` emulates a context-aware ad service on
``aol-top1000`` (time of day stands in for location; interest = most-clicked domain so far; ads = clicked domains).
Each claim lists its parts: a *shape* the authors draw from their figure (a direction, a comparison) is tested on the
emulation with a tolerance fixed in advance (``reproduced`` on ``aol-top1000``, or, when the emulation does not show it,
``unverifiable`` — another log cannot refute the authors' measurement); a *number* measured on the Bing log (a
precision, a count, a percentage) belongs to that log and is ``unverifiable`` here, our number shown beside it. One
suite of runs (1,000 random test events, like the paper) is computed per process and per reading of the support
threshold (:data:`~privclaims.checks.definitions.ads.SUPPORT_THRESHOLD`: minimum support 2 or 3) and shared by the
checks.
"""

from __future__ import annotations

import fcntl
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from privclaims.checks.claims.ads.common import by_dims
from privclaims.checks.definitions.ads import (ALWAYS_SHOW, CLIENT_RULE, EXPERIMENT_SETUP, SUPPORT_GE,
                                               SUPPORT_THRESHOLD)
from privclaims.checks.evidence import decide
from privclaims.checks.readings import Audit, NotApplicable, Quote
from privclaims.checks.registry import claim
from privclaims.checks.verdict import Outcome, Part, Reading, by_part, reproduced, unverifiable, verified
from privclaims.theory.ads.aol import load_service, query_level, sample_test_events
from privclaims.theory.cache import cache_dir, data_key, key_name, read_memo, write_memo
from privclaims.theory.numbers import Q

THRESHOLDS = (0.1, 0.2, 0.3, 0.4, 0.6, 0.8)
FIG44_THRESHOLDS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
LEVELS = ((0, 0, 0), (1, 1, 1), (2, 2, 1), (4, 2, 2))
CLIENT_ONLY = (5, 2, 0)  # only the query is sent
KS = (1, 2, 3, 5, 10, 20, 50)
MISSING = "the Bing-for-mobile log of §4.4.1 (proprietary) needed for the paper's exact numbers"


def _folder(ctx) -> str:
    return str(ctx.data("aol-top1000") / "user_search_logs")


def _cache_key(folder: str, seed: int, min_support: int) -> str:
    """The suite's memo name (:func:`privclaims.theory.cache.key_name`): the whole package's source, the data files
    (names, sizes, digests), the seed, the minimum support and the grids."""
    return key_name({"kind": "ads-aol-suite", "folder": folder, "seed": seed, "min_support": min_support,
                     "grids": [THRESHOLDS, FIG44_THRESHOLDS, LEVELS, KS], "data": data_key(folder, "*.txt")})


SUPPORTS = (2, 3)  # the minimum supports of the two readings of SUPPORT_THRESHOLD (>= 2, > 2)


def _suite_path(folder: str, seed: int, min_support: int) -> Path:
    base = cache_dir("privclaims-ads-cache")
    base.mkdir(parents=True, exist_ok=True)
    return base / f"privclaims-ads-aol-{_cache_key(folder, seed, min_support)}.pickle"


def _locked_suite(folder: str, seed: int, min_support: int, wait: bool) -> dict[str, Any] | None:
    """The suite from the experiment cache, computed and stored here if absent, under its file lock; without ``wait``,
    None at once when another process holds the lock."""
    path = _suite_path(folder, seed, min_support)
    with open(str(path) + ".lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            return None
        try:
            found, memo = read_memo(path)  # an unreadable suite file is recomputed (theory/cache.py)
            if found:
                return memo
            # the default reading's call keeps the two-argument form (property_tests patch it with that signature)
            out = _compute_suite(folder, seed) if min_support == 2 else _compute_suite(folder, seed, min_support)
            write_memo(path, out)
            return out
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@lru_cache(maxsize=4)
def _suite(folder: str, seed: int, min_support: int = 2) -> dict[str, Any]:
    """The runs, computed once per machine: the ledger's worker processes share a result file in the
    experiment cache (:func:`privclaims.theory.cache.cache_dir`: $PRIVCLAIMS_CACHE or <temp dir>/privclaims-ads-cache;
    guarded by a lock; keyed by code, data and seed, so never stale). While another process computes this reading's
    suite, the other reading's (which the ledger's other AOL claims need) is computed here if nobody has, instead of
    waiting idle; then this one is read."""
    out = _locked_suite(folder, seed, min_support, wait=False)
    if out is not None:
        return out
    for other in SUPPORTS:
        if other != min_support and min_support in SUPPORTS and not _suite_path(folder, seed, other).exists():
            _locked_suite(folder, seed, other, wait=False)
    return _locked_suite(folder, seed, min_support, wait=True)


def _compute_suite(folder: str, seed: int, min_support: int = 2) -> dict[str, Any]:
    svc = load_service(folder, min_support)
    tests = sample_test_events(svc.ev, 1000, seed)
    runs: dict[tuple, dict] = {}
    for lv in LEVELS + (CLIENT_ONLY,):
        for t in THRESHOLDS:
            runs[(lv, t)] = svc.evaluate(tests, lv, t, KS)
    for t in FIG44_THRESHOLDS:  # the finer grid of the CTR-threshold sweep at (4,2,2)
        runs[((4, 2, 2), t)] = svc.evaluate(tests, (4, 2, 2), t, KS)
    ev = svc.ev
    return {"runs": runs, "events": len(ev.leaves), "train": ev.n_train, "users": ev.users, "ads": len(ev.ad_names),
            "tests": len(tests), "queries": ev.queries}


def suite(ctx, support_reading: str = SUPPORT_GE.name) -> dict[str, Any]:
    """The runs under a reading of "enough click data": minimum support 2 (≥ 2) or 3 (> 2; supports are integers)."""
    return _suite(_folder(ctx), ctx.int_seed("ads.aol.tests"), 2 if support_reading == SUPPORT_GE.name else 3)


def _r(x: float | None) -> float | None:
    return None if x is None else round(float(x), 4)


def _point(run: dict, k: int) -> dict[str, Any]:
    return {"precision": _r(run[k]["precision"]), "coverage": _r(run[k]["coverage"])}


def coverage_at(runs: dict, level: tuple, k: int, target: float) -> float:
    """Largest coverage over the CTR thresholds whose precision reaches ``target`` (0 if none)."""
    pts = [runs[(level, t)][k] for t in THRESHOLDS]
    return max((p["coverage"] for p in pts if p["precision"] is not None and p["precision"] >= target), default=0.0)


SETUP = ("AOL top-1000 users, one event per click, first 90% by time train; contexts (time-of-day, most-clicked domain, "
         "query) with levels (0..5, 0..2, 0..2); CTR back-off along the paper's chain with the reading's minimum support; "
         "1,000 random test events; Greedy (fast twin) on the server, client shows the best sent ad with CTR >= threshold "
         "(nothing otherwise)")
AOL = ("aol-top1000",)
MISSING = "the Bing-for-mobile log of §4.4.1 (proprietary), on which this number was measured"
T, P = "000_211156f2009240b4.txt", "002_9d55ef468949585c.txt"

EXPERIMENT_DEFS = (EXPERIMENT_SETUP, SUPPORT_THRESHOLD, CLIENT_RULE)
SHOWN_IF_RELEVANT = NotApplicable(
    CLIENT_RULE, ALWAYS_SHOW.name,
    "in the experiments an ad below the CTR threshold is not displayed (the coverage metric counts contexts without a "
    "displayed ad), so the client abstains",
    (Quote(T, "§4.4.2 'Effect of CTR Threshold'", "For a high value of the CTR threshold, an ad will be shown only if it "
           "is highly relevant."),))
EXPERIMENT_AUDIT = ("Our emulation is not the authors' system: the numbers it produces belong to the AOL log. The parts "
                    "that are shapes (directions, comparisons) are tested with the tolerance written in the part; the "
                    "parts that are numbers measured on the Bing log are unverifiable, ours shown beside them. Both "
                    "readings of the support threshold (minimum 2, or more than 2) are run.")


def aol_claim(claim_id: str, method: str, name: str, meaning: str, source: str, parts: tuple[Part, ...],
              audit: str, rests_on: tuple = EXPERIMENT_DEFS):
    """``@claim`` for a claim measured on the authors' Bing log and re-run on the AOL emulation."""
    na = (SHOWN_IF_RELEVANT,) if CLIENT_RULE in rests_on else ()
    return claim(claim_id, method=method, quick=False, needs_data="aol-top1000", timeout=600, rests_on=rests_on,
                 not_applicable=na, parts=parts, audit=Audit(audit), readings=(Reading(
                     name, "The documents give one reading: " + meaning, source),))


def shape(ok: bool, what: str, **ev: Any) -> Outcome:
    """A shape part: reproduced on the AOL emulation, or unverifiable when the emulation does not show it."""
    if ok:
        return reproduced(shape=what, data="aol-top1000", **ev)
    return unverifiable(missing="the authors' log: the AOL emulation does not show this shape, which does not refute "
                                "a measurement on another log", shape_reproduced=False, **ev).because(
        f"On the AOL emulation the shape '{what}' is not seen within the fixed tolerance; a different log cannot "
        "refute the authors' measurement.")


def bing_number(paper: Any, ours: Any, **ev: Any) -> Outcome:
    """A number measured on the Bing log: unverifiable here, ours beside it."""
    return unverifiable(missing=MISSING, paper=paper, ours_on_aol=ours, **ev).because(
        f"The documents print {paper}, a number measured on the proprietary Bing log; the AOL emulation is another "
        f"system and gives {ours}, which can neither confirm nor refute it.")


FIG43_PARTS = (
    Part("power law", "the query frequency distribution has a power-law shape (log-log straight)",
         "log-log fit of #queries with frequency f (f ≤ 100): R² ≥ 0.9 and slope < 0", AOL),
    Part("100,000 singletons", "roughly 100,000 queries appear only once in the authors' data", "a count of the Bing log"),
    Part("an order of magnitude", "generalising queries to the categories of the businesses they refer to cuts the "
                                  "queries seen once by an order of magnitude", "factor within 10^(1 ± 0.5)"),
)


@aol_claim("ads.fig4_3", "reproduction", 'shape of Figure 4.3',
           'query frequencies follow a power law, about 100,000 queries appear once, and generalising queries cuts those by about an order of magnitude.',
           "000_211156f2009240b4.txt §4.4.1: roughly 100,000 queries appear only once each in our data ... if we generalize queries to the categories of the businesses ... we can reduce this number by an order of magnitude; 002_9d55ef468949585c.txt §5.1",
           FIG43_PARTS, EXPERIMENT_AUDIT + " Query counts do not depend on the support threshold or the client. AOL has "
           "no business categories: the first word of a query stands in for the category, so the reduction part is "
           "illustrated, not tested.", rests_on=(EXPERIMENT_SETUP,))
def fig4_3(ctx):
    s = suite(ctx)
    counts = {lvl: Counter(query_level(q, lvl) for q in s["queries"]) for lvl in (0, 1)}
    single = {lvl: sum(1 for v in c.values() if v == 1) for lvl, c in counts.items()}
    ff = Counter(counts[0].values())
    f = np.array([x for x in range(1, 101) if ff[x] > 0], dtype=float)
    n = np.array([ff[int(x)] for x in f], dtype=float)
    slope, icpt = np.polyfit(np.log(f), np.log(n), 1)
    pred = slope * np.log(f) + icpt
    r2 = float(1 - np.sum((np.log(n) - pred) ** 2) / np.sum((np.log(n) - np.log(n).mean()) ** 2))
    factor = Q(single[0], max(1, single[1]))
    r2_ok, slope_ok = decide(r2, ">=", Q(9, 10), "log-log R²"), decide(float(slope), "<", 0, "log-log slope")
    first_word = {"singletons": single[0], "singleton_first_words": single[1], "factor": factor,
                  "within 10^(1±0.5)": decide(factor, ">=", Q(31622, 10000), "factor ≥ 10^0.5 (rounded down)")}
    missing_cat = unverifiable(missing="business categories: the AOL log has none", illustration_first_word=first_word).because(
        "The claim generalises queries to the categories of the businesses they refer to; AOL has no business "
        f"categories. Generalising to a query's first word instead cuts the singletons by {float(factor):.2f} (shown as "
        "an illustration only).")

    def compute(_setup: str):
        return by_part({FIG43_PARTS[0]: shape(r2_ok.holds and slope_ok.holds, "power-law query frequencies",
                                              r2=r2_ok, slope=slope_ok),
                        FIG43_PARTS[1]: bing_number("≈100,000 queries seen once", f"{single[0]} (of {len(counts[0])} "
                                                    "distinct queries in the AOL top-1000 log)"),
                        FIG43_PARTS[2]: missing_cat})

    return by_dims(ctx, (EXPERIMENT_SETUP,), compute, why="The claim has three parts. The power-law shape of the query frequencies is tested on the AOL log (see its part); the ≈100,000 queries seen once is a count of the authors' Bing log, and the order-of-magnitude reduction is obtained by generalising queries to business categories, which AOL does not have. The claim as a whole is therefore unverifiable here.",
                   substitute={k: s[k] for k in ("events", "train", "users", "ads", "tests")}, setup=SETUP)


FIG44_PARTS = (
    Part("trade-off", "raising the CTR threshold raises precision and lowers coverage",
         "precision non-decreasing in the threshold up to 0.02 and overall increasing; coverage non-increasing; (4,2,2), "
         "k = 10", AOL),
    Part("0.48 and 0.47", "precision 0.48 and coverage 0.47 are achieved simultaneously (the authors' log)",
         "numbers of the Bing log"),
    Part("footnote", "precisions and coverages close to 0.5 are considered high and are higher than reported for other "
                     "personalisation techniques [107]", "a cited comparison"),
)


@aol_claim("ads.fig4_4", "reproduction", 'shape of Figure 4.4',
           "raising the CTR threshold raises precision and lowers coverage (precision 0.48 with coverage 0.47 on the authors' log).",
           "000_211156f2009240b4.txt §4.4.2 'Effect of CTR Threshold. The CTR threshold trades off precision and coverage'; 002_9d55ef468949585c.txt §5.2 Figure 4",
           FIG44_PARTS, EXPERIMENT_AUDIT)
def fig4_4(ctx):
    def compute(_setup: str, support: str, _client: str):
        runs = suite(ctx, support)["runs"]
        pts = [(t, runs[((4, 2, 2), t)][10]) for t in FIG44_THRESHOLDS]
        prec = [p["precision"] for _, p in pts]
        cov = [p["coverage"] for _, p in pts]
        prec_up = all(a is not None and b is not None and b >= a - 0.02 for a, b in zip(prec, prec[1:])) and prec[-1] > prec[0]
        cov_down = all(b <= a for a, b in zip(cov, cov[1:])) and cov[-1] < cov[0]
        best = max(pts, key=lambda tp: min(tp[1]["precision"] or 0, tp[1]["coverage"]))
        by_t = {str(t): {"precision": _r(p["precision"]), "coverage": _r(p["coverage"])} for t, p in pts}
        return by_part({
            FIG44_PARTS[0]: shape(prec_up and cov_down, "raising the CTR threshold raises precision and lowers coverage",
                                  ours_by_threshold=by_t),
            FIG44_PARTS[1]: bing_number("precision 0.48 with coverage 0.47", f"at best precision {_r(best[1]['precision'])} "
                                        f"with coverage {_r(best[1]['coverage'])} (threshold {best[0]})"),
            FIG44_PARTS[2]: unverifiable(missing="the cited comparison [107]").because(
                "The footnote compares with other personalisation techniques reported in a cited paper; nothing here "
                "can recompute that comparison.")})

    return by_dims(ctx, (EXPERIMENT_SETUP, SUPPORT_THRESHOLD, CLIENT_RULE), compute, why="The direction of the trade-off (precision up, coverage down as the threshold rises) is tested on the AOL emulation (see its part); the 0.48/0.47 point is a measurement on the authors' Bing log and the footnote compares with a cited paper, so the claim as a whole is unverifiable here.", setup=SETUP)


def _diminishing(xs: list[float], ks: list[int]) -> bool:
    """Non-decreasing with non-increasing gain per added ad between the k grid points."""
    rates = [(b - a) / (k2 - k1) for a, b, k1, k2 in zip(xs, xs[1:], ks, ks[1:])]
    return all(r >= 0 for r in rates) and all(r2 <= r1 + 1e-12 for r1, r2 in zip(rates, rates[1:]))


FIG45_PARTS = (
    Part("coverage", "coverage improves with k, with diminishing returns",
         "non-decreasing in k, gain per added ad non-increasing over k = 1, 5, 10, 20, 50; (4,2,2), threshold 0.3", AOL),
    Part("precision", "precision improves with k, with diminishing returns",
         "non-decreasing in k, gain per added ad non-increasing over k = 1, 5, 10, 20, 50; (4,2,2), threshold 0.3", AOL),
)


@aol_claim("ads.fig4_5", "reproduction", 'shape of Figure 4.5',
           'precision and coverage improve with k, with diminishing returns.',
           "000_211156f2009240b4.txt §4.4.2 Effect of Communication Complexity ... We expect both to improve with increasing k ... increasing k has diminishing returns; 002_9d55ef468949585c.txt §5.2 Figure 5",
           FIG45_PARTS, EXPERIMENT_AUDIT + " The figure's threshold is not stated; the default 0.3 decides, threshold 0 "
           "is shown. With Greedy's prefix property the sent sets grow with k, so coverage cannot fall; precision can.")
def fig4_5(ctx):
    ks = [1, 5, 10, 20, 50]

    def compute(_setup: str, support: str, _client: str):
        runs = suite(ctx, support)["runs"]
        out = {}
        for t in (0.3, 0.0):
            run = runs[((4, 2, 2), t)]
            out[str(t)] = {"by_k": {k: _point(run, k) for k in ks},
                           "coverage": _diminishing([run[k]["coverage"] for k in ks], ks),
                           "precision": _diminishing([run[k]["precision"] or 0.0 for k in ks], ks)}
        d = out["0.3"]
        return by_part({FIG45_PARTS[0]: shape(d["coverage"], "coverage grows with k, diminishing returns", ours=out),
                        FIG45_PARTS[1]: shape(d["precision"], "precision grows with k, diminishing returns",
                                              precision_by_k={k: v["precision"] for k, v in d["by_k"].items()})})

    return by_dims(ctx, (EXPERIMENT_SETUP, SUPPORT_THRESHOLD, CLIENT_RULE), compute, why="Both shapes are tested on the AOL emulation at the default threshold 0.3 (see the parts); a shape the emulation does not show leaves the claim unverifiable, since another log cannot refute the authors' measurement.", setup=SETUP)


FIG46_PARTS = (
    Part("more specific is better", "precision and coverage increase as more specific context is sent",
         "coverage reachable at precision 0.5/0.6/0.7/0.8 (over thresholds, k = 10) non-increasing from (0,0,0) to "
         "(4,2,2) up to 0.02", AOL),
    Part("(1,1,1) close to (0,0,0)", "limited privacy (1,1,1) is very close to no privacy (0,0,0)",
         "coverage at each precision target within 0.05", AOL),
    Part("k = 50 helps (4,2,2)", "a larger k improves what the private level (4,2,2) reaches",
         "coverage at each precision target with k = 50 never below k = 10", AOL),
    Part("0.85 and 0.3", "with k = 10, (4,2,2) does not reach precision 0.85 with coverage 0.3; with k = 50 it does",
         "numbers of the Bing log"),
)


@aol_claim("ads.fig4_6", "reproduction", 'shape of Figure 4.6',
           'precision and coverage grow with more specific contexts, (1,1,1) is very close to (0,0,0), and k = 50 lets (4,2,2) reach what k = 10 cannot.',
           "000_211156f2009240b4.txt §4.4.2 'Effect of Information Disclosure' and 'Trading-off Constraints'; 002_9d55ef468949585c.txt §5.2 Figure 6",
           FIG46_PARTS, EXPERIMENT_AUDIT)
def fig4_6(ctx):
    targets = (0.5, 0.6, 0.7, 0.8)

    def compute(_setup: str, support: str, _client: str):
        runs = suite(ctx, support)["runs"]
        frontier = {str(lv): {str(p): _r(coverage_at(runs, lv, 10, p)) for p in targets} for lv in LEVELS}
        monotone = all(coverage_at(runs, a, 10, p) >= coverage_at(runs, b, 10, p) - 0.02
                       for a, b in zip(LEVELS, LEVELS[1:]) for p in targets)
        close = max(abs(coverage_at(runs, (0, 0, 0), 10, p) - coverage_at(runs, (1, 1, 1), 10, p)) for p in targets)
        k50 = {str(p): {"k=10": _r(coverage_at(runs, (4, 2, 2), 10, p)), "k=50": _r(coverage_at(runs, (4, 2, 2), 50, p))}
               for p in targets + (0.85,)}
        helps = all(coverage_at(runs, (4, 2, 2), 50, p) >= coverage_at(runs, (4, 2, 2), 10, p) for p in targets + (0.85,))
        point = {f"k={k}": _r(coverage_at(runs, (4, 2, 2), k, 0.85)) for k in (10, 50)}
        return by_part({
            FIG46_PARTS[0]: shape(monotone, "more specific contexts reach at least as much coverage at each precision",
                                  ours_coverage_at_precision_k10=frontier),
            FIG46_PARTS[1]: shape(close <= 0.05, "(1,1,1) close to (0,0,0)",
                                  max_gap=decide(close, "<=", Q(5, 100), "largest coverage gap (0,0,0) vs (1,1,1)")),
            FIG46_PARTS[2]: shape(helps, "k = 50 never below k = 10 at (4,2,2)", k50_vs_k10_at_422=k50),
            FIG46_PARTS[3]: bing_number("(4,2,2) reaches precision 0.85 with coverage 0.3 at k = 50 but not at k = 10",
                                        f"coverage at precision 0.85: {point}")})

    return by_dims(ctx, (EXPERIMENT_SETUP, SUPPORT_THRESHOLD, CLIENT_RULE), compute, why="The three shapes are tested on the AOL emulation (see the parts); the 0.85/0.3 example is a measurement on the authors' Bing log, so the claim as a whole is unverifiable here.", setup=SETUP)


SERVERONLY_PARTS = (
    Part("5 ads beat 1", "sending 5 ads and letting the client pick gives a higher precision than server-only (1 ad)",
         "precision at k = 5 > at k = 1; (4,2,2), threshold 0.3", AOL),
    Part("0.12 and 35%", "server-only precision is 0.12 and 5 ads raise it by 35%", "numbers of the Bing log"),
)


@aol_claim("ads.text_serveronly", "reproduction", 'numbers of §4.4.3',
           'server-only delivery (one ad) has precision 0.12, and sending 5 ads raises it by 35%.',
           "000_211156f2009240b4.txt §4.4.3 Server-only Personalization ... this strategy gives a precision of 0.12 ... the precision rises by 35%; 002_9d55ef468949585c.txt §5.3",
           SERVERONLY_PARTS, EXPERIMENT_AUDIT + " The two documents print the same two numbers.")
def text_serveronly(ctx):
    def compute(_setup: str, support: str, _client: str):
        runs = suite(ctx, support)["runs"]
        ours = {}
        for t in (0.3, 0.0):
            r = runs[((4, 2, 2), t)]
            ours[str(t)] = {"k=1": _r(r[1]["precision"]), "k=5": _r(r[5]["precision"]),
                            "relative_gain": _r(r[5]["precision"] / r[1]["precision"] - 1) if r[1]["precision"] else None}
        r = runs[((4, 2, 2), 0.3)]
        up = decide(r[5]["precision"], ">", r[1]["precision"], "precision with 5 ads > with 1 (threshold 0.3)")
        return by_part({SERVERONLY_PARTS[0]: shape(up.holds, "5 ads beat 1 in precision", precision=up, ours=ours),
                        SERVERONLY_PARTS[1]: bing_number("precision 0.12, +35% with 5 ads",
                                                         f"precision {ours['0.3']['k=1']}, gain {ours['0.3']['relative_gain']} "
                                                         "at threshold 0.3")})

    return by_dims(ctx, (EXPERIMENT_SETUP, SUPPORT_THRESHOLD, CLIENT_RULE), compute, why="That five ads beat one in precision is tested on the AOL emulation (see its part); 0.12 and +35% are measurements on the authors' Bing log, so the claim is unverifiable here.", setup=SETUP)


CLIENTONLY_PARTS = (
    Part("framework beats client-only", "at a target precision of 0.75 the framework with (1,1,1) reaches a higher "
                                        "coverage than client-only personalisation (only the query sent)",
         "coverage at precision ≥ 0.75 over thresholds, k = 10: (1,1,1) > client-only", AOL),
    Part("0.2 and 0.4", "client-only coverage 0.2, framework (1,1,1) coverage 0.4", "numbers of the Bing log"),
    Part("2×", "002: 0.4 against 0.2 is “an increase of $2\\times$”", "exact arithmetic on the printed numbers"),
)


@aol_claim("ads.text_clientonly", "reproduction+exact", 'numbers of §4.4.3',
           "at target precision 0.75 client-only personalisation reaches coverage 0.2 and the framework with (1,1,1) 0.4, “an increase of $2\\times$” (002).",
           "000_211156f2009240b4.txt §4.4.3 Client-only Personalization ... for a target precision of 0.75, the client-side strategy can achieve coverage of 0.2, while our ...; 002_9d55ef468949585c.txt §5.3 an increase of 2×",
           CLIENTONLY_PARTS, EXPERIMENT_AUDIT + " The '2×' is re-derived exactly: 4/10 ÷ 2/10 = 2.")
def text_clientonly(ctx):
    ratio = decide(Q(4, 10) / Q(2, 10), "==", 2, "0.4 / 0.2 (printed coverages)")

    def compute(_setup: str, support: str, _client: str):
        runs = suite(ctx, support)["runs"]
        ours = {"client_only_(5,2,0)": coverage_at(runs, CLIENT_ONLY, 10, 0.75),
                "framework_(1,1,1)": coverage_at(runs, (1, 1, 1), 10, 0.75)}
        beats = decide(ours["framework_(1,1,1)"], ">", ours["client_only_(5,2,0)"],
                       "coverage at precision 0.75: (1,1,1) > client-only")
        two = verified(ratio=ratio) if ratio.holds else Outcome("discrepancy", {"ratio": ratio},
                                                                 "002's '2×' does not match its printed coverages.")
        return by_part({CLIENTONLY_PARTS[0]: shape(beats.holds, "the framework beats client-only at precision 0.75",
                                                   coverage=beats),
                        CLIENTONLY_PARTS[1]: bing_number("coverage 0.2 (client-only) and 0.4 ((1,1,1))",
                                                         {k: _r(v) for k, v in ours.items()}),
                        CLIENTONLY_PARTS[2]: two})

    return by_dims(ctx, (EXPERIMENT_SETUP, SUPPORT_THRESHOLD, CLIENT_RULE), compute, why="The printed 0.4 and 0.2 do give 002's '2×' (exact). Whether the framework beats client-only is tested on the AOL emulation (see its part); the coverages themselves are measurements on the authors' Bing log, so the claim is unverifiable here.", setup=SETUP,
                   note="in the emulation the exact query is the strongest attribute, so sending only the query already "
                        "does about as well as (1,1,1)")
