"""§4.4 experiments (000_211156f2009240b4.txt; 002_9d55ef468949585c.txt §5) on the AOL substitute.

The Bing-for-mobile log is not public. :mod:`privclaims.theory.ads.aol` emulates a context-aware ad service on
``aol-top1000`` (time of day stands in for location; interest = most-clicked domain so far; ads =
clicked domains). Shapes are compared with the paper's statements; the paper's exact numbers are
``unverifiable`` (our numbers are printed beside them). One suite of runs (1,000 random test
events, like the paper) is computed per process and shared by the checks.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import pickle
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

import privclaims.theory.ads.aol as aol_module
import privclaims.theory.ads.fast as fast_module

from privclaims.checks.claims.ads.common import printed_figures
from privclaims.checks.registry import claim
from privclaims.checks.verdict import Outcome, Reading, discrepancy, reproduced, unverifiable
from privclaims.theory.ads.aol import load_service, query_level, sample_test_events
from privclaims.theory.cache import cache_dir

THRESHOLDS = (0.1, 0.2, 0.3, 0.4, 0.6, 0.8)
FIG44_THRESHOLDS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
LEVELS = ((0, 0, 0), (1, 1, 1), (2, 2, 1), (4, 2, 2))
CLIENT_ONLY = (5, 2, 0)  # only the query is sent
KS = (1, 2, 3, 5, 10, 20, 50)
MISSING = "the Bing-for-mobile log of §4.4.1 (proprietary) needed for the paper's exact numbers"


def _folder(ctx) -> str:
    return str(ctx.data("aol-top1000") / "user_search_logs")


def _cache_key(folder: str, seed: int) -> str:
    """Hash of the code that produces the suite, the data files (names, sizes, mtimes) and the seed."""
    h = hashlib.sha256(f"{folder}:{seed}:{THRESHOLDS}:{FIG44_THRESHOLDS}:{LEVELS}:{KS}".encode())
    for mod in (aol_module, fast_module, Path(__file__)):
        h.update(Path(getattr(mod, "__file__", mod)).read_bytes())
    for f in sorted(Path(folder).glob("*.txt")):
        st = f.stat()
        h.update(f"{f.name}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.hexdigest()[:24]


@lru_cache(maxsize=4)
def _suite(folder: str, seed: int) -> dict[str, Any]:
    """The runs, computed once per machine: the ledger's worker processes share a result file in the
    experiment cache (:func:`privclaims.theory.cache.cache_dir`: $PRIVCLAIMS_CACHE or <temp dir>/privclaims-ads-cache;
    guarded by a lock; keyed by code, data and seed, so never stale)."""
    base = cache_dir("privclaims-ads-cache")
    base.mkdir(parents=True, exist_ok=True)
    path = base / f"privclaims-ads-aol-{_cache_key(folder, seed)}.pickle"
    with open(str(path) + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if path.exists():
                with open(path, "rb") as fh:
                    return pickle.load(fh)
            out = _compute_suite(folder, seed)
            tmp = path.with_suffix(".tmp")
            with open(tmp, "wb") as fh:
                pickle.dump(out, fh)
            os.replace(tmp, path)
            return out
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _compute_suite(folder: str, seed: int) -> dict[str, Any]:
    svc = load_service(folder)
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


def suite(ctx) -> dict[str, Any]:
    return _suite(_folder(ctx), ctx.int_seed("ads.aol.tests"))


def _r(x: float | None) -> float | None:
    return None if x is None else round(float(x), 4)


def _point(run: dict, k: int) -> dict[str, Any]:
    return {"precision": _r(run[k]["precision"]), "coverage": _r(run[k]["coverage"])}


def coverage_at(runs: dict, level: tuple, k: int, target: float) -> float:
    """Largest coverage over the CTR thresholds whose precision reaches ``target`` (0 if none)."""
    pts = [runs[(level, t)][k] for t in THRESHOLDS]
    return max((p["coverage"] for p in pts if p["precision"] is not None and p["precision"] >= target), default=0.0)


SETUP = ("AOL top-1000 users, one event per click, first 90% by time train; contexts (time-of-day, most-clicked domain, "
         "query) with levels (0..5, 0..2, 0..2); CTR back-off along the paper's chain with support >= 2; "
         "1,000 random test events; Greedy (fast twin) on the server, client shows the best sent ad with CTR >= threshold")


AOL_NOTE = ("The Bing-for-mobile log is proprietary; the one real substitute is the AOL emulation (aol-top1000), "
            "tolerances fixed in the check.")


def aol_claim(claim_id: str, method: str, name: str, meaning: str, source: str):
    """``@claim`` for a claim measured on the authors' Bing log and re-run on the AOL emulation: one reading
    (``meaning``, what the documents say), the substitute named."""
    return claim(claim_id, method=method, quick=False, needs_data="aol-top1000", timeout=600, readings=(Reading(
        name, "The documents give one reading: " + meaning + " " + AOL_NOTE, source),))


@aol_claim("ads.fig4_3", "reproduction", 'shape of Figure 4.3',
           'query frequencies follow a power law, and generalising queries cuts the queries seen once by about an order of magnitude.',
           "000_211156f2009240b4.txt §4.4.1: roughly 100,000 queries appear only once each in our data ... if we generalize queries to the categories of the businesses ... we can reduce this number by an order of magnitude; 002_9d55ef468949585c.txt §5.1")
def fig4_3(ctx):
    s = suite(ctx)
    counts = {lvl: Counter(query_level(q, lvl) for q in s["queries"]) for lvl in (0, 1)}
    single = {lvl: sum(1 for v in c.values() if v == 1) for lvl, c in counts.items()}
    ff = Counter(counts[0].values())
    f = np.array([x for x in range(1, 101) if ff[x] > 0], dtype=float)
    n = np.array([ff[int(x)] for x in f], dtype=float)
    slope, icpt = np.polyfit(np.log(f), np.log(n), 1)
    pred = slope * np.log(f) + icpt
    r2 = 1 - np.sum((np.log(n) - pred) ** 2) / np.sum((np.log(n) - np.log(n).mean()) ** 2)
    factor = single[0] / max(1, single[1])
    ok = r2 >= 0.9 and slope < 0 and 10 ** 0.5 <= factor <= 10 ** 1.5
    ev = dict(paper={"singleton_queries": "≈100,000", "after generalisation": "an order of magnitude fewer"},
              ours={"distinct_queries": len(counts[0]), "singleton_queries": single[0],
                    "distinct_first_words": len(counts[1]), "singleton_first_words": single[1],
                    "reduction_factor": _r(factor), "power_law_slope": _r(slope), "power_law_r2": _r(r2)},
              tolerance="power law: log-log fit of #queries with frequency f (f <= 100) has R² >= 0.9; 'order of "
                        "magnitude': reduction factor within 10^(1±0.5)",
              generalisation="query Level-1 = first word (the paper uses the clicked business' category, not in AOL)",
              substitute={k: s[k] for k in ("events", "train", "users", "ads", "tests")}, setup=SETUP)
    if ok:
        return reproduced(shape="power-law query frequencies; generalising queries cuts singletons by ~10×", **ev).because(
            f"On the AOL log the query frequencies fit a power law (log-log R² = {_r(r2)}, slope {_r(slope)}) and "
            f"generalising a query to its first word cuts the queries seen once by a factor {_r(factor)} (tolerance "
            "10^(1±0.5)); the paper's ≈100,000 singletons are a Bing number.")
    return unverifiable(missing=MISSING, shape_reproduced=False, **ev).because(
        f"On the AOL log the power-law fit (R² = {_r(r2)}) or the singleton reduction factor ({_r(factor)}) misses the "
        "fixed tolerance, and the Bing log is not available.")


@aol_claim("ads.fig4_4", "reproduction", 'shape of Figure 4.4',
           "raising the CTR threshold raises precision and lowers coverage (precision 0.48 with coverage 0.47 on the authors' log).",
           "000_211156f2009240b4.txt §4.4.2 'Effect of CTR Threshold. The CTR threshold trades off precision and coverage'; 002_9d55ef468949585c.txt §5.2 Figure 4")
def fig4_4(ctx):
    s = suite(ctx)
    pts = [(t, s["runs"][((4, 2, 2), t)][10]) for t in FIG44_THRESHOLDS]
    prec = [p["precision"] for _, p in pts]
    cov = [p["coverage"] for _, p in pts]
    prec_up = all(a is not None and b is not None and b >= a - 0.02 for a, b in zip(prec, prec[1:])) and prec[-1] > prec[0]
    cov_down = all(b <= a for a, b in zip(cov, cov[1:])) and cov[-1] < cov[0]
    best = max(pts, key=lambda tp: min(tp[1]["precision"] or 0, tp[1]["coverage"]))
    ev = dict(paper={"precision": 0.48, "coverage": 0.47, "setting": "(4,2,2), k = 10"},
              ours_by_threshold={str(t): {"precision": _r(p["precision"]), "coverage": _r(p["coverage"])} for t, p in pts},
              ours_best_balanced={"threshold": best[0], "precision": _r(best[1]["precision"]),
                                  "coverage": _r(best[1]["coverage"])},
              tolerance="precision non-decreasing in the threshold up to 0.02 and overall increasing; coverage non-increasing",
              exact_numbers="unverifiable: " + MISSING, setup=SETUP)
    if prec_up and cov_down:
        return reproduced(shape="raising the CTR threshold raises precision and lowers coverage", **ev).because(
            "On the AOL emulation ((4,2,2), k = 10) precision rises and coverage falls as the CTR threshold goes from 0 "
            "to 0.8, within the fixed tolerance; the paper's 0.48 / 0.47 point is a Bing number.")
    return unverifiable(missing=MISSING, shape_reproduced=False, **ev).because(
        "On the AOL emulation the threshold sweep does not show precision rising and coverage falling within the fixed "
        "tolerance, and the Bing log is not available.")


def _diminishing(xs: list[float], ks: list[int]) -> bool:
    """Non-decreasing with non-increasing gain per added ad between the k grid points."""
    rates = [(b - a) / (k2 - k1) for a, b, k1, k2 in zip(xs, xs[1:], ks, ks[1:])]
    return all(r >= 0 for r in rates) and all(r2 <= r1 + 1e-12 for r1, r2 in zip(rates, rates[1:]))


@aol_claim("ads.fig4_5", "reproduction", 'shape of Figure 4.5',
           'precision and coverage improve with k, with diminishing returns.',
           "000_211156f2009240b4.txt §4.4.2 Effect of Communication Complexity ... We expect both to improve with increasing k ... increasing k has diminishing returns; 002_9d55ef468949585c.txt §5.2 Figure 5")
def fig4_5(ctx):
    s = suite(ctx)
    ks = [1, 5, 10, 20, 50]
    out = {}
    for t in (0.3, 0.0):
        run = s["runs"][((4, 2, 2), t)]
        p = [run[k]["precision"] or 0.0 for k in ks]
        c = [run[k]["coverage"] for k in ks]
        out[str(t)] = {"by_k": {k: _point(run, k) for k in ks}, "coverage_diminishing": _diminishing(c, ks),
                       "precision_diminishing": _diminishing(p, ks)}
    d = out["0.3"]
    ev = dict(ours=out, paper="precision and coverage increase with k, with diminishing returns (Figure 4.5)",
              tolerance="values non-decreasing in k and gain per added ad non-increasing over k = 1, 5, 10, 20, 50",
              verdict_on="the default threshold 0.3 (§4.4.1); the figure's threshold is not stated, threshold 0 shown too",
              setup=SETUP)
    if d["coverage_diminishing"] and d["precision_diminishing"]:
        return reproduced(shape="precision and coverage grow with k with diminishing returns", **ev)
    return unverifiable(missing=MISSING, shape_reproduced=False, **{"partial": "coverage: " + ("yes" if d["coverage_diminishing"] else "no") + ", precision: "
                                + ("yes" if d["precision_diminishing"] else "no") + " at threshold 0.3"}, **ev).because(
        "Figure 4.5 says precision and coverage both grow with k with diminishing returns. On the AOL emulation at the "
        "default threshold 0.3, coverage " + ("does" if d["coverage_diminishing"] else "does not") + " and precision "
        + ("does" if d["precision_diminishing"] else "does not") + " (precision at k = 1, 5, 10, 20, 50: "
        + ", ".join(str(v["precision"]) for v in d["by_k"].values()) + "): the real substitute does not show the whole "
        "shape, and the Bing log is not available, so the claim is neither reproduced nor refuted.")


@aol_claim("ads.fig4_6", "reproduction", 'shape of Figure 4.6',
           'precision and coverage grow with more specific contexts, (1,1,1) is very close to (0,0,0), and k = 50 lets (4,2,2) reach what k = 10 cannot.',
           "000_211156f2009240b4.txt §4.4.2 'Effect of Information Disclosure' and 'Trading-off Constraints'; 002_9d55ef468949585c.txt §5.2 Figure 6")
def fig4_6(ctx):
    runs = suite(ctx)["runs"]
    targets = (0.5, 0.6, 0.7, 0.8)
    frontier = {str(lv): {str(p): _r(coverage_at(runs, lv, 10, p)) for p in targets} for lv in LEVELS}
    monotone = all(coverage_at(runs, a, 10, p) >= coverage_at(runs, b, 10, p) - 0.02
                   for a, b in zip(LEVELS, LEVELS[1:]) for p in targets)
    close = max(abs(coverage_at(runs, (0, 0, 0), 10, p) - coverage_at(runs, (1, 1, 1), 10, p)) for p in targets)
    k50 = {str(p): {"k=10": _r(coverage_at(runs, (4, 2, 2), 10, p)), "k=50": _r(coverage_at(runs, (4, 2, 2), 50, p))}
           for p in targets + (0.85,)}
    k50_helps = all(coverage_at(runs, (4, 2, 2), 50, p) >= coverage_at(runs, (4, 2, 2), 10, p) for p in targets + (0.85,))
    paper_point = {"k=10": coverage_at(runs, (4, 2, 2), 10, 0.85) >= 0.3, "k=50": coverage_at(runs, (4, 2, 2), 50, 0.85) >= 0.3}
    ev = dict(ours_coverage_at_precision_k10=frontier, max_gap_000_vs_111=_r(close), k50_vs_k10_at_422=k50,
              ours_reaches_precision_085_coverage_03=paper_point,
              paper={"(4,2,2) precision>=0.85 & coverage>=0.3": {"k=10": False, "k=50": True},
                     "(1,1,1) vs (0,0,0)": "very close"},
              tolerance="coverage reachable at each precision target (over thresholds) non-increasing from (0,0,0) to "
                        "(4,2,2) up to 0.02; (0,0,0) and (1,1,1) within 0.05; k = 50 never below k = 10",
              setup=SETUP)
    if monotone and close <= 0.05 and k50_helps:
        return reproduced(shape="more specific contexts reach at least as much coverage at each precision; (1,1,1) ≈ (0,0,0); "
                                "k = 50 improves (4,2,2)", exact_numbers="unverifiable: " + MISSING, **ev).because(
            f"On the AOL emulation the coverage reachable at precision 0.5-0.8 does not grow as contexts are generalised "
            f"(tolerance 0.02), (1,1,1) is within {_r(close)} of (0,0,0) (tolerance 0.05), and k = 50 never does worse "
            "than k = 10 at (4,2,2); the paper's 0.85 / 0.3 point is a Bing number.")
    return unverifiable(missing=MISSING, shape_reproduced=False,
                        parts={"monotone_in_specificity": monotone, "111_close_to_000": close <= 0.05,
                               "k50_improves": k50_helps}, **ev).because(
        "On the AOL emulation part of Figure 4.6's shape fails within the fixed tolerances (see parts), and the Bing "
        "log is not available.")


@aol_claim("ads.text_serveronly", "reproduction", 'numbers of §4.4.3',
           'server-only delivery (one ad) has precision 0.12, and sending 5 ads raises it by 35%.',
           "000_211156f2009240b4.txt §4.4.3 Server-only Personalization ... this strategy gives a precision of 0.12 ... the precision rises by 35%; 002_9d55ef468949585c.txt §5.3")
def text_serveronly(ctx):
    runs = suite(ctx)["runs"]
    ours = {}
    for t in (0.3, 0.0):
        r = runs[((4, 2, 2), t)]
        p1, p5 = r[1]["precision"], r[5]["precision"]
        ours[str(t)] = {"k=1": _r(p1), "k=5": _r(p5), "relative_gain": _r(p5 / p1 - 1) if p1 else None}
    return printed_figures(
        {"000_211156f2009240b4.txt §4.4.3": {"server_only_precision": "0.12", "gain_with_5_ads": "35%"},
         "002_9d55ef468949585c.txt §5.3": {"server_only_precision": "0.12", "gain_with_5_ads": "35%"}},
        missing=MISSING, ours_at_422=ours, shape_k5_above_k1={t: (v["relative_gain"] or 0) > 0 for t, v in ours.items()},
        setup=SETUP,
        why="The claim is two numbers measured on the Bing log (precision 0.12 with one ad, +35% with five), which is "
            f"not available. On the AOL emulation the gain of 5 ads over 1 is {ours['0.3']['relative_gain']} at "
            f"threshold 0.3 and {ours['0.0']['relative_gain']} at threshold 0, shown for comparison; no tolerance on "
            "the numbers was fixed in advance, so they decide nothing.")


@aol_claim("ads.text_clientonly", "reproduction+exact", 'numbers of §4.4.3',
           "at target precision 0.75 client-only personalisation reaches coverage 0.2 and the framework with (1,1,1) 0.4, 'an increase of 2×' (002).",
           "000_211156f2009240b4.txt §4.4.3 Client-only Personalization ... for a target precision of 0.75, the client-side strategy can achieve coverage of 0.2, while our ...; 002_9d55ef468949585c.txt §5.3 an increase of 2×")
def text_clientonly(ctx):
    runs = suite(ctx)["runs"]
    from privclaims.theory.numbers import Q

    ratio = Q(4, 10) / Q(2, 10)
    ours = {"client_only_(5,2,0)": _r(coverage_at(runs, CLIENT_ONLY, 10, 0.75)),
            "framework_(1,1,1)": _r(coverage_at(runs, (1, 1, 1), 10, 0.75))}
    ours_ratio = (ours["framework_(1,1,1)"] / ours["client_only_(5,2,0)"]) if ours["client_only_(5,2,0)"] else None
    if ratio != 2:
        return discrepancy(paper="an increase of 2× (002)", computed=ratio, numbers={"client_only": "0.2", "framework": "0.4"}).because(
            f"002 calls the coverage gain 'an increase of 2×', but the printed coverages 0.4 and 0.2 give {ratio}.")
    return unverifiable(missing=MISSING, paper={"client_only_coverage": 0.2, "framework_111_coverage": 0.4,
                                                "stated_increase": "2×"},
                        paper_ratio_exact=ratio, paper_ratio_matches_2x=ratio == 2,
                        ours_coverage_at_precision_075_k10=ours, ours_ratio=_r(ours_ratio),
                        note="in the emulation the exact query is the strongest attribute, so sending only the query "
                             "already does as well as (1,1,1); the paper's 2× advantage is not seen on AOL",
                        setup=SETUP).because(
        "The printed coverages 0.4 and 0.2 agree with 002's 'increase of 2×', but they were measured on the Bing log, "
        f"which is not available. On the AOL emulation the framework at (1,1,1) reaches {ours['framework_(1,1,1)']} "
        f"and client-only {ours['client_only_(5,2,0)']} (ratio {_r(ours_ratio)}): the exact query, which client-only "
        "sends, is the strongest attribute there, so the substitute cannot show the advantage either way.")
