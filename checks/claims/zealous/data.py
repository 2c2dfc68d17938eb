"""§6.6-6.7 experiments and the AOL statements, on the substitute AOL top-1000-users subset.

The paper's log (500,000 users) is not public. On the 1,000-user substitute, ZEALOUS at the paper's
parameters (delta = 0.001, eps <= 10) publishes almost nothing: the largest selected count is far
below tau' (evidence ``max_selected_count`` vs ``tau_prime``). Statements about the original log itself
are tested directly here; the figure statements of §6.6.2-§6.7 are shapes with stated tolerances in
:mod:`privclaims.checks.claims.zealous.figures`.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timezone

from privclaims.checks.registry import claim
from privclaims.checks.verdict import discrepancy
from privclaims.checks.verdict import reproduced as _reproduced
from privclaims.checks.verdict import unverifiable as _unverifiable
from privclaims.checks.claims.zealous.numbers import DOMAIN_SIZES, M_GRID, TABLE_6_3A, TABLE_6_3B, TABLE_6_4
from privclaims.theory.numbers import Q
from privclaims.theory.zealous import fast
from privclaims.theory.zealous.experiments import (
    DELTA,
    aol_experiment,
    loglog_slope,
    partition_selection_threshold,
    release_table,
    zealous_params,
)

DATA = "aol-top1000"
KINDS = ("keywords", "queries", "clicks", "query_pairs")
# the same sentence in both documents: 'The only release of a search log happened in <year> by AOL'
AOL_RELEASE_YEAR = {"000_211156f2009240b4.txt §6.1": 2007, "003_755c7aa10ef74058.txt §1": 2006}
SUB = "AOL top-1000-users subset (aol-top1000/user_search_logs)"


def substitute_unverifiable(missing, **evidence):
    """An unverifiable outcome whose why says what is missing and what the substitute shows."""
    return _unverifiable(missing=missing, **evidence).because(
        "The claim describes the paper's own search log (500,000 users of a major search engine, one month) or results computed on it. "
        f"Missing: {missing}. The only real substitute is the {SUB} with {{U}} users; the evidence holds what it gives, which neither "
        "confirms nor contradicts the printed numbers or curves at that scale, so the claim is left undecided.".replace("{U}", "1,000"))


def substitute_reproduced(shape, **evidence):
    """A reproduced outcome (real substitute data only) whose why names the shape and the substitute."""
    return _reproduced(shape=shape, **evidence).because(
        f"The claim's shape ({shape}) holds on the only real substitute data set we have, the {SUB}; the paper's own log is not "
        "available, so its exact numbers are not compared, only the shape with the tolerance fixed in the check.")


def aol_substitute(ctx):
    """The ZEALOUS experiment on the AOL top-1000 substitute (seed 0), cached: what every reproduction here reads."""
    return aol_experiment(str(ctx.data(DATA) / "user_search_logs"), 0)


def _release_table(ex, eps):
    return release_table(ex, eps, KINDS, M_GRID)


def _gap(ex, eps, kinds=KINDS, ms=M_GRID):
    return {f"{k},m={m}": {"max_selected_count": max(ex.selected(k, m).values()), "tau_prime": float(zealous_params(ex.U, m, eps).tau_prime)}
            for k in kinds for m in ms}


@claim("zealous.text_aol", method="reproduction", needs_data=DATA, quick=False)
def text_aol(ctx):
    ex = aol_substitute(ctx)
    ts = [e.time for h in ex.log.histories.values() for e in h]
    first, last = (datetime.fromtimestamp(x, tz=timezone.utc).date().isoformat() for x in (min(ts), max(ts)))
    ev = dict(subset_users=ex.U, subset_queries=len(ex.log), subset_first_day=first, subset_last_day=last,
              span_days=(max(ts) - min(ts)) // 86400, printed_release_year=AOL_RELEASE_YEAR)
    years = set(AOL_RELEASE_YEAR.values())
    too_early = {doc: y for doc, y in AOL_RELEASE_YEAR.items() if y < int(last[:4])}
    if len(years) > 1 or too_early:
        return discrepancy(paper=AOL_RELEASE_YEAR, computed={"query_years_of_the_log": sorted({first[:4], last[:4]}), "release_before_last_query": too_early},
                           **ev).because(
            "The two documents print different years for AOL's release of its search log (the thesis 2007, the ZEALOUS paper 2006, "
            "same sentence otherwise): they contradict each other. The AOL log itself (our 1,000-user subset) holds queries "
            f"from {first} to {last}, consistent with both years; the 650,000 users cannot be checked on the subset.")
    return substitute_unverifiable(missing="the full AOL release (650,000 users); the subset holds 1,000 users", **ev)


@claim("zealous.text_data", method="reproduction", needs_data=DATA, quick=False)
def text_data(ctx):
    """Beside the substitute's counts, the printed numbers' internal consistency: a log holds at most as many distinct
    items of a kind as item occurrences, U * (average items per user of Table 6.4), the average rounded (so < avg + 1/2)."""
    ex = aol_substitute(ctx)
    paper = {"users": 500_000, "keywords": "~1M", "queries": "~3M", "query_pairs": "~3M", "clicks": "~4.5M", "delta": "0.001"}
    consistency = {k: {"distinct_printed": DOMAIN_SIZES[k], "occurrences_at_most": int((Q(2 * TABLE_6_4[k] + 1, 2)) * paper["users"])}
                   for k in KINDS}
    bad = {k: v for k, v in consistency.items() if v["distinct_printed"] > v["occurrences_at_most"]}
    ev = dict(substitute=SUB, users=ex.U, distinct={k: len(ex.original(k)) for k in KINDS}, paper=paper,
              distinct_vs_occurrences=consistency, source="000_211156f2009240b4.txt §6.6 'Data.' and Table 6.4")
    if bad:
        return discrepancy(paper=paper, computed=bad, **ev).because(
            "The text's distinct-item counts exceed the item occurrences that 500,000 users with Table 6.4's average items per "
            f"user can hold ({sorted(bad)}): the printed log description and Table 6.4 contradict each other.")
    return substitute_unverifiable(missing="the paper's one-month log of 500,000 users from a major search engine "
                                   "(its printed sizes agree with Table 6.4: distinct items <= users x average items per user)", **ev)


@claim("zealous.table6_3", method="reproduction", needs_data=DATA, quick=False)
def table6_3(ctx):
    """ZEALOUS (delta = 0.001, tau by Prop. 12, tau' by Thm 14) for m in 1,4,8,20,40, eps = 1 and eps = 20;
    plus the modern anchor: Laplace partition selection's threshold and retained items for the same (eps, delta, m)."""
    ex = aol_substitute(ctx)
    ours = {eps: _release_table(ex, eps) for eps in (1, 20)}
    anchor = {}
    for eps in (1, 5, 20):
        for m in (1, 4):
            h = ex.selected("keywords", m)
            T = partition_selection_threshold(m, eps)
            params = zealous_params(ex.U, m, eps)
            keys = sorted(h, key=repr)  # a fixed order: the noise vector is drawn in it (list(h) follows set order, hash-seeded)
            import numpy as np

            counts = np.array([h[k] for k in keys], dtype=float)
            rng = np.random.default_rng(ctx.int_seed(f"ps{eps}{m}"))
            noisy = counts + fast.sample_noise(len(keys), 2 * m / eps, 1 / 1024, rng)
            anchor[f"eps={eps},m={m}"] = {"zealous_tau_prime": float(params.tau_prime), "partition_selection_T": round(T, 3),
                                          "zealous_kept_keywords": len(ex.zealous("keywords", m, eps)),
                                          "partition_selection_kept_keywords": int((noisy > T).sum())}
    consistency = table6_3_consistency()
    ev = dict(ours_eps_1=ours[1], ours_eps_20=ours[20], gap_eps_1=_gap(ex, 1, ("keywords",)),
              paper={"distinct": {k: list(v) for k, v in TABLE_6_3A.items()}, "total_x1000": {k: list(v) for k, v in TABLE_6_3B.items()}},
              table_consistency=consistency, anchor_partition_selection=anchor,
              anchor_note="the partition-selection threshold does not grow with U; it keeps at least as many items wherever T < tau'")
    if consistency["smallest_consistent_eps"] is None:
        return discrepancy(paper="Table 6.3 (A) distinct and (B) total released counts", computed=consistency, **ev).because(
            "Every count ZEALOUS releases exceeds tau' (Step 5), so a cell's total divided by its number of distinct items must exceed "
            "tau' of Theorem 14 at the thesis's U = 500,000 and delta = 0.001. For no eps of the grid does every cell of Table 6.3 "
            "satisfy this: the printed table contradicts the printed algorithm and parameters.")
    return substitute_unverifiable(
        missing="the paper's 500,000-user log; on the 1,000-user substitute tau' exceeds almost every selected count "
                f"(the printed table itself is consistent with Theorem 14 only for eps >= {consistency['smallest_consistent_eps']} "
                "of the grid; the thesis does not say which eps it used)", **ev)


def table6_3_consistency(U=500_000, eps_grid=(Q(1, 4), Q(1, 2), 1, 2, 3, 4, 5, 10, 20, 50, 100)):
    """Table 6.3's internal consistency with Theorem 14: each released noisy count is > tau'(U, m, eps), so in every
    cell total / distinct > tau' (total printed x 10^3, rounded: at most (T + 1/2) * 1000). Returns, per m, the largest
    average the table allows and tau' on the eps grid, and the smallest grid eps for which every cell is consistent."""
    rows, ok_eps = {}, []
    for eps in eps_grid:
        ok = True
        for i, m in enumerate(M_GRID):
            cap = min(Q(2 * TABLE_6_3B[k][i] + 1, 2) * 1000 / TABLE_6_3A[k][i] for k in KINDS)
            tp = zealous_params(U, m, eps).tau_prime
            rows.setdefault(f"m={m}", {"largest_average_allowed": float(cap)})[f"tau_prime_eps={eps}"] = float(tp)
            ok = ok and cap > tp
        if ok:
            ok_eps.append(eps)
    return {"U": U, "delta": float(DELTA), "per_m": rows, "consistent_eps": [str(e) for e in ok_eps],
            "smallest_consistent_eps": str(min(ok_eps)) if ok_eps else None}


@claim("zealous.table6_4", method="reproduction", needs_data=DATA, quick=False)
def table6_4(ctx):
    ex = aol_substitute(ctx)
    ours = {k: round(ex.avg_items(k), 1) for k in KINDS}
    paper = {"keywords": 56, "queries": 20, "clicks": 14, "query_pairs": 7}
    same_order = sorted(ours, key=ours.get) == sorted(paper, key=paper.get)
    if same_order:
        return substitute_reproduced(shape="ordering keywords > queries > clicks > query pairs of the per-user averages", ours=ours, paper=paper,
                          tolerance="ordering only: the subset holds the 1,000 heaviest AOL users")
    return substitute_unverifiable(missing="the paper's log; the substitute (1,000 heaviest AOL users) has other averages and another ordering",
                        ours=ours, paper=paper)


@claim("zealous.fig6_4", method="reproduction", needs_data=DATA, quick=False)
def fig6_4(ctx):
    """Statements about the original log, tested on the substitute: power-law shape (negative log-log slope of
    the count distribution), and #clicks with count 1 vs #keywords with count 1 (an order of magnitude);
    cutoffs: k-anonymous counts >= k, ZEALOUS counts > tau' (eps = 5, m = 1)."""
    ex = aol_substitute(ctx)
    orig = {k: ex.original(k) for k in KINDS}
    slopes = {k: round(loglog_slope(orig[k]), 3) for k in KINDS}
    ones = {k: sum(1 for v in orig[k].values() if v == 1) for k in KINDS}
    adar = {k: ex.adar(10, k) for k in ("keywords", "queries")}
    z = {k: ex.zealous(k, 1, 5) for k in KINDS}
    tp = float(zealous_params(ex.U, 1, 5).tau_prime)
    cut_ok = all(min(h.values(), default=10) >= 10 for h in adar.values()) and all(min(v.values(), default=tp + 1) > tp for v in z.values())
    ratio = ones["clicks"] / ones["keywords"]
    ev = {"loglog_slopes_original": slopes, "count_one_items": ones, "clicks_over_keywords_count_one": round(ratio, 2),
          "cutoffs_hold": cut_ok, "zealous_released": {k: len(v) for k, v in z.items()}, "tau_prime": tp, "paper_ratio": ">= 10"}
    if ctx.reports_dir() is not None:
        ev["figure"] = ctx.save_figure(_fig6_4(orig, adar, z), "zealous_fig6_4.png")
    if all(s < 0 for s in slopes.values()) and cut_ok and ratio >= 10:
        return substitute_reproduced(shape="power law, cutoffs, count-one clicks >= 10x count-one keywords", **ev)
    return substitute_unverifiable(missing="the paper's log: on the substitute the count-one ratio of clicks to keywords is "
                        f"{ratio:.2f}, not an order of magnitude (power-law slopes and cutoffs as stated)", **ev)


def _fig6_4(orig, adar, z):
    """Figure 6.4's panels on the substitute: count distributions (log-log) of the original histogram, the
    10-anonymous one and ZEALOUS's (eps = 5, m = 1), per kind of item."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from privclaims.theory.zealous.plots import plot_count_distributions

    fig, axes = plt.subplots(1, len(KINDS), figsize=(4 * len(KINDS), 3.4))
    for ax, k in zip(axes, KINDS):
        hists = {"original": orig[k], **({"k = 10 (Adar)": adar[k]} if k in adar else {}), "ZEALOUS eps = 5, m = 1": z[k]}
        plot_count_distributions(ax, hists, title=f"{k} (AOL top-1000 substitute)")
    fig.suptitle("Fig. 6.4 style: count distributions, original vs anonymised", fontsize=10)
    fig.tight_layout()
    return fig
