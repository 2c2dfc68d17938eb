"""Experiments: Figure 5.2 on an AOL emulation, the 1MB statement, Figure 5.3's churn model
(000_211156f2009240b4.txt §5.6; 002_9d55ef468949585c.txt §5.4-5.5)."""

from __future__ import annotations

import math

import numpy as np

from privclaims.checks.claims.ads.common import printed_figures
from privclaims.checks.readings import Audit
from privclaims.checks.registry import claim
from privclaims.checks.verdict import Part, Reading, by_part, discrepancy, reproduced, unverifiable
from privclaims.theory.count import aol
from privclaims.theory.count import exact_churn as ec
from privclaims.theory.count import fast_churn as fc
from privclaims.theory.numbers import Q

MIN_SUPPORT = 10  # TopDown's min_support is not stated in the text; chosen for the 800 training users
SEEDS = 5


def _emulation(path: str) -> aol.Emulation:
    return aol.emulation(path, n_ads=50, per_context=3, seed=0)


def _coverage(em, eps, t, seeds):
    covs, precs = [], []
    for s in range(seeds):
        res = aol.run_estimates(em, eps, t, m=4, min_support=MIN_SUPPORT, delta=0.02, depth_limit=1, seed=s)
        curve = aol.precision_coverage(em, res)
        covs.append(aol.coverage_at_precision(curve, 0.6))
        precs.append(max((p for _, p, c in curve if p == p and c >= 0.1), default=0.0))
    return float(np.mean(covs)), float(np.mean(precs)), res.calls


SETUP = ("AOL top-1000 users (800 train / 200 test), hierarchy root -> first word -> query, 50 ads (top clicked domains), "
         "3 bidders per context, m = 4, depth limit 1, delta = 0.02, min_support = 10, sigma^2 of Corollary 2, mean of 5 noise seeds")


AOL_SUBSTITUTE = ("The Bing-for-mobile log is proprietary; the one real substitute is the AOL emulation "
                  "(aol-top1000, " + SETUP + "), with the tolerance fixed in the check.")


@claim("count.fig5_2a", method="reproduction", quick=False, needs_data="aol-top1000", timeout=600, parts=(
    Part("privacy costs coverage", "coverage at precision 0.6 is larger with exact statistics (ε = ∞) than with ε = 1 and ε = 0.5",
         data="aol-top1000"),
    Part("ε = 1 vs 0.5 minor", "|coverage(ε = 1) − coverage(ε = 0.5)| at precision 0.6 is small",
         tolerance="≤ 0.1 absolute: half the printed private/non-private gap (0.3 − 0.1)", data="aol-top1000"),
    Part("printed values", "coverage at precision 0.6 is 0.3 at ε = ∞ and 0.1 with ε-DP statistics",
         tolerance="the Bing log's values; not comparable on another log"),
), rests_on=(), audit=Audit(
    "A figure on a proprietary log (Bing for mobile, 116,432 users). Its statement has three parts: a direction "
    "(privacy costs coverage), a size comparison (ε = 1 vs 0.5 minor) and the printed values 0.3 / 0.1. The first two "
    "are shapes tested on the one real substitute (the AOL emulation); the printed values belong to the Bing log and "
    "cannot be tested here, so the claim is unverifiable (it was 'reproduced' while ignoring that part)."), readings=(Reading(
    "shape of Figure 5.2(a)",
    "The documents give one reading: privacy costs coverage at precision 0.6 (ε = ∞ above ε = 1 and 0.5), and "
    "ε = 1 versus 0.5 changes utility little. " + AOL_SUBSTITUTE,
    "000_211156f2009240b4.txt §5.6.2 'Accuracy. Figure 5.2(a) shows how precision and coverage of our framework "
    "degrades when we increase the differential privacy guarantee'; 002_9d55ef468949585c.txt §5.4 Figure 7(a)"),))
def fig5_2a(ctx):
    em = _emulation(str(ctx.data("aol-top1000")))
    rows = {}
    for eps in (None, 1.0, 0.5):
        cov, prec, calls = _coverage(em, eps, 0.0, 1 if eps is None else SEEDS)
        rows["inf" if eps is None else str(eps)] = {"coverage_at_precision_0.6": round(cov, 4), "best_precision_at_coverage_0.1": round(prec, 4)}
    c_inf, c1, c05 = (rows[k]["coverage_at_precision_0.6"] for k in ("inf", "1.0", "0.5"))
    price = c_inf > c1 and c_inf > c05
    minor = abs(c1 - c05) <= 0.1
    ev = dict(setup=SETUP, ours=rows, paper={"coverage_at_precision_0.6": {"inf": 0.3, "private": 0.1}, "eps_1_vs_0.5": "minor effect"},
              privacy_costs_coverage=price, eps_effect_minor=minor)
    parts = {
        "privacy costs coverage": (reproduced(shape="coverage at precision 0.6: eps = inf above eps = 1 and 0.5", coverage=rows)
                                   if price else unverifiable("the Bing log; on the AOL emulation privacy does not cost coverage", coverage=rows).because(
                                       "On the AOL emulation coverage at precision 0.6 does not drop with privacy; the Bing log is not available.")),
        "ε = 1 vs 0.5 minor": (reproduced(shape="|coverage(eps 1) - coverage(eps 0.5)| <= 0.1", difference=round(abs(c1 - c05), 4))
                                if minor else unverifiable("the Bing log; on the AOL emulation the difference exceeds 0.1",
                                                           difference=round(abs(c1 - c05), 4)).because(
                                    "On the AOL emulation ε = 1 vs 0.5 moves coverage by more than the tolerance; the Bing log is not available.")),
        "printed values": unverifiable("the Bing log the values 0.3 and 0.1 were measured on", ours={"inf": c_inf, "1.0": c1}).because(
            f"The printed coverages (0.3 at ε = ∞, 0.1 private) are the Bing log's; on the AOL emulation they are {c_inf} and "
            f"{c1}, which says nothing about the Bing values."),
    }
    return by_part(parts, missing="the Bing log the printed coverages 0.3 / 0.1 were measured on", **ev)


FIG5_2B_TOL = 0.1
FIG5_2B_TOL_WHY = ("≤ 0.1 absolute on each, fixed from the paper's printed numbers: the text prints none for Figure 5.2(b); "
                   "its only printed values for this figure are 5.2(a)'s coverage 0.3 (ε = ∞) vs 0.1 (private), a gap the "
                   "text calls 'much higher', and half that gap is the tolerance count.fig5_2a fixed for 'minor effect'")


@claim("count.fig5_2b", method="reproduction", quick=False, needs_data="aol-top1000", timeout=600, parts=(
    Part("t has only a mild effect", "at ε = 1, coverage at precision 0.6 and best precision at coverage 0.1 change "
         "little from t = 0 to each t in {0.25, 0.5, 0.75}", tolerance=FIG5_2B_TOL_WHY, data="aol-top1000"),
    Part("t = 0.75 ≈ t = 0 at ε = 1", "coverage at precision 0.6 and best precision at coverage 0.1 barely change from t = 0 to t = 0.75",
         tolerance=FIG5_2B_TOL_WHY, data="aol-top1000"),
), rests_on=(), audit=Audit(
    "A figure on a proprietary log, stated in two sentences: “t has only a mild effect” (over the t the figure varies) "
    "and “(t=0.75) the utility is almost the same as when all users are available and honest”. The first "
    "audit tested only the second, with an absolute tolerance 0.1 justified by our own numbers ('a quarter of the "
    "coverage lost to privacy on the same data, 0.52 → 0.11') — chosen after seeing them. Review (dp/count): the "
    "tolerance is now fixed from the paper's printed numbers (half of Figure 5.2(a)'s printed gap 0.3 − 0.1, the value "
    "count.fig5_2a uses for 'minor'), and both sentences are parts. On the AOL emulation t = 0.5 moves coverage at "
    "precision 0.6 from 0.114 to 0.231 (beyond 0.1) and t = 0.75 halves it (0.114 → 0.052, within 0.1 absolute but a "
    "factor 2.2, close to the factor 3 the text calls 'much higher'); coverage is not even monotone in t (seed noise of "
    "5 runs), so the substitute data do not show the figure's shape and the claim is unverifiable (the Bing log is "
    "not available; a substitute cannot refute)."), readings=(Reading(
    "shape of Figure 5.2(b)",
    "The documents give one reading: at ε = 1, t has only a mild effect on utility, and t = 0.75 gives almost the same "
    "utility as t = 0. " + AOL_SUBSTITUTE,
    "000_211156f2009240b4.txt §5.6.2 Robustness. ... the parameter t has only a mild effect. Even when 75% of the "
    "users could be unavailable or malicious ...; 002_9d55ef468949585c.txt §5.5 Figure 7(b)"),))
def fig5_2b(ctx):
    em = _emulation(str(ctx.data("aol-top1000")))
    rows = {}
    for t in (0.0, 0.25, 0.5, 0.75):
        cov, prec, _ = _coverage(em, 1.0, t, SEEDS)
        rows[str(t)] = {"coverage_at_precision_0.6": round(cov, 4), "best_precision_at_coverage_0.1": round(prec, 4),
                        "noise_variance_factor_N_over_(1-t)N-1": round(em.n_train_users / ((1 - t) * em.n_train_users - 1), 4)}
    c0, p0 = rows["0.0"]["coverage_at_precision_0.6"], rows["0.0"]["best_precision_at_coverage_0.1"]
    moves = {t: {"coverage_change": round(abs(r["coverage_at_precision_0.6"] - c0), 4),
                 "best_precision_change": round(abs(r["best_precision_at_coverage_0.1"] - p0), 4)}
             for t, r in rows.items() if t != "0.0"}
    within = {t: m["coverage_change"] <= FIG5_2B_TOL and m["best_precision_change"] <= FIG5_2B_TOL for t, m in moves.items()}
    ev = dict(setup=SETUP, ours=rows, changes_from_t_0=moves, tolerance=FIG5_2B_TOL,
              paper="t has only a mild effect; t = 0.75 almost the same utility as t = 0 (eps = 1)")

    def part(ts, name):
        bad = [t for t in ts if not within[t]]
        if not bad:
            return reproduced(shape=f"eps = 1: coverage and best precision move by <= {FIG5_2B_TOL} from t = 0 to t in {ts}",
                              changes={t: moves[t] for t in ts})
        t = bad[0]
        return unverifiable("the Bing log; on the AOL emulation t changes utility beyond the tolerance",
                            changes={t: moves[t] for t in ts}).because(
            f"{name}: on the AOL emulation, at ε = 1, t = {t} moves coverage at precision 0.6 from {c0} to "
            f"{rows[t]['coverage_at_precision_0.6']} and best precision from {p0} to "
            f"{rows[t]['best_precision_at_coverage_0.1']}, beyond the tolerance {FIG5_2B_TOL} fixed from the paper's "
            "printed gap; the Bing log the figure used is not available, so the claim can be neither reproduced nor "
            "refuted here.")
    parts = {"t has only a mild effect": part(["0.25", "0.5", "0.75"], "t has only a mild effect"),
             "t = 0.75 ≈ t = 0 at ε = 1": part(["0.75"], "t = 0.75 ≈ t = 0")}
    ok = all(within.values())
    return by_part(parts, why=(
        "Figure 5.2(b) says that at ε = 1 the fraction t of possibly unavailable or malicious users has only a mild "
        "effect, t = 0.75 giving almost the same utility as t = 0. On the AOL emulation (the one real substitute for the "
        "Bing log) " + ("every t in {0.25, 0.5, 0.75} stays within the tolerance 0.1 of t = 0 (fixed from Figure "
                        "5.2(a)'s printed gap)." if ok else
                        f"t = {next(t for t, w in within.items() if not w)} moves utility by more than the tolerance 0.1 "
                        "fixed from Figure 5.2(a)'s printed gap (coverage at precision 0.6 by "
                        f"{max(m['coverage_change'] for m in moves.values())} at most), so the substitute does not show "
                        "the figure's shape; without the Bing log the claim is neither reproduced nor refuted.")), **ev)


@claim("count.text_1mb", method="reproduction", quick=False, needs_data="aol-top1000", timeout=600, rests_on=(), audit=Audit("Depends on the Bing hierarchy and ad set (number of Count calls); the check shows the AOL emulation's value for scale and returns unverifiable."), readings=(Reading(
    "bytes per user on the authors' log",
    "The documents give one reading: on the Bing log a user sends about 1 MB in about two batches.",
    "000_211156f2009240b4.txt §5.6.2 and 002_9d55ef468949585c.txt §5.4 Efficiency. When we run Estimates on the "
    "log, a user has to send roughly 1MB on average ... participates in two batches"),))
def text_1mb(ctx):
    """Every user takes part in every Count call (sending an encryption of 0 when she has nothing to
    count); a 2048-bit Paillier ciphertext is 4096 bits = 512 bytes. Batching per hierarchy level with
    depth limit 1 gives two batches (levels 0 and 1)."""
    em = _emulation(str(ctx.data("aol-top1000")))
    res = aol.run_estimates(em, 1.0, 0.0, m=4, min_support=MIN_SUPPORT, seed=0)
    levels = sorted({em.hierarchy.depth(v) for v in res.counts})
    mb = res.calls * 512 / 1e6
    return printed_figures(
        {"000_211156f2009240b4.txt §5.6.2": {"megabytes_per_user": "roughly 1MB", "batches": "two"},
         "002_9d55ef468949585c.txt §5.4": {"megabytes_per_user": "roughly 1MB", "batches": "two"}},
        missing="the Bing hierarchy and ad set: bytes scale with the number of Count calls, which depends on them",
        ours={"count_calls": res.calls, "megabytes_per_user_2048bit_paillier": round(mb, 2), "batches_one_per_level": len(levels)},
        why=f"The 1 MB per user depends on the number of Count calls on the Bing hierarchy and ad set, which are not "
            f"available. On the AOL emulation a user would send {round(mb, 2)} MB (2048-bit Paillier ciphertexts, one "
            f"per call) in {len(levels)} batch(es), shown for scale only.")


@claim("count.text_exp_params", method="reproduction", rests_on=(), audit=Audit('Re-derived by reading both documents: 000 §5.6.1 fixes δ = 0.02, 002 §5.4 δ = 0.01 for the same accuracy experiment (Figure 5.2(a) = Figure 7(a)); the other settings agree. A discrepancy between the documents; the setup itself cannot be re-run.'), readings=(Reading(
    "the experimental setup",
    "The documents give one reading: the experiments ran on the Bing log with the listed defaults; the two "
    "documents print different δ (0.02 vs 0.01).",
    "000_211156f2009240b4.txt §5.6.1 We fixed δ = 0.02 and the maximum number of contributions per user, m = 4; "
    "002_9d55ef468949585c.txt §5.4 'we fix the maximum number of contributions per user, m=4' and Accuracy. "
    "... We fixed δ=0.01"),))
def text_exp_params(ctx):
    """The setup cannot be re-run (the Bing log is not public); the two documents' printed settings of the
    same experiment (Figure 5.2(a) of 000 is Figure 7(a) of 002) must agree."""
    return printed_figures(
        {"000_211156f2009240b4.txt §5.6.1": {"delta": "0.02", "m": 4},
         "002_9d55ef468949585c.txt §5.4": {"delta": "0.01", "m": 4}},
        missing="the Bing for mobile log (116,432 users, one month) is not public, so the setup cannot be re-run",
        emulation_parameters=SETUP,
        why="The thesis fixes δ = 0.02 for its experiments ('We fixed δ = 0.02 and ... m = 4'); 002, for the same "
            "accuracy experiment, 'We fixed δ=0.01'. The Bing log is not public, so the setup cannot be re-run; our "
            "emulation uses δ = 0.02 as in the thesis.")


GRID_N = (10, 100, 1000, 10000)
GRID_P = ("1/100000", "1/10000", "1/1000", "1/100")


@claim("count.fig5_3", method="statistical+exact", quick=False, rests_on=(), audit=Audit("The cited protocols' phase rules are not in the corpus; our churn model assumes the stated behaviour, so it can only illustrate the figure; the “10 seconds a day” arithmetic (0.0001 × 86,400 s = 8.64 s) is checked exactly. Unverifiable."), readings=(Reading(
    "shape of Figure 5.3",
    "The documents give one reading: in a simulation of 1000 queries with per-phase unavailability p, SHI and "
    "RASTOGI's phases per query grow exponentially with N and p, Count's do not; p ≥ 0.0001 (“less than only 10 "
    "seconds a day”) or N ≥ 1000 makes them impractical.",
    "000_211156f2009240b4.txt §5.6.2 unlike our protocol, the costs for SHI and RASTOGI increase exponentially with "
    "N and p ... For p ≥ 0.0001 (corresponding to less than only 10 seconds a day); 002_9d55ef468949585c.txt §5.5"),))
def fig5_3(ctx):
    """The churn model of privclaims.theory.count.exact_churn (exact expectations) beside 1000 seeded simulated queries
    per (N, p) (fast twin). Exponential growth: ln E / (N ln(1/(1-p))) tends to a + 1 (setup + aggregation
    phases) once N p >= 1; Count stays at ~1 phase. 0.0001 x 86,400 s = 8.64 s < 10 s."""
    t = Q(1, 4)
    rows, agree, growth = [], True, True
    for proto in ("SHI", "RASTOGI"):
        a = ec.AGGREGATION_PHASES[proto]
        for n in GRID_N:
            prev = None
            for p in GRID_P:
                e = ec.setup_protocol_phases(proto, n, p)
                sim = fc.setup_protocol_phases(proto, n, float(Q(p)), 1000, ctx.rng(f"churn{proto}{n}{p}"))
                ef = float(e)
                rel = abs(sim - ef) / ef
                agree &= rel < 0.25
                rate = math.log(ef) / (n * -math.log1p(-float(Q(p))))
                if n * float(Q(p)) >= 10:
                    growth &= abs(rate - (a + 1)) / (a + 1) < 0.1
                if prev is not None:
                    growth &= ef > prev
                prev = ef
                rows.append({"protocol": proto, "N": n, "p": p, "exact": ef, "simulated": sim, "ln_growth_rate": round(rate, 4)})
    count_rows = []
    count_flat = True
    for n in GRID_N:
        for p in GRID_P:
            lo, hi = ec.count_phases(n, p, t)
            sim = fc.count_phases(n, float(Q(p)), float(t), 1000, ctx.rng(f"count{n}{p}"))
            count_flat &= float(hi) < 1.001
            count_rows.append({"N": n, "p": p, "exact_upper": float(hi), "simulated": sim})
    secs = ec.seconds_per_day("1/10000")
    imp = {r["protocol"] + f" N={r['N']} p={r['p']}": round(r["exact"], 2) for r in rows if r["N"] in (1000, 10000) and r["p"] in ("1/10000", "1/100")}
    ev = dict(model=ec.__doc__.split("\n\n")[1][:400], setup_protocols=rows, count=count_rows, unavailable_seconds_per_day_at_p_1e_4=secs,
              impractical_points=imp, model_illustrates_shape=agree and growth and count_flat)
    if secs >= 10:
        return discrepancy(paper="p >= 0.0001 is “less than only 10 seconds a day”", computed=secs, **ev).because(
            f"The text equates p = 0.0001 per phase with less than 10 seconds of unavailability a day; at one phase per "
            f"second that is {secs} seconds.")
    return unverifiable(
        missing="the phase rules of the cited protocols (RASTOGI [89], SHI [93]) are not in the corpus; our churn model "
                "encodes the stated behaviour (a setup phase after any unavailability), so it can illustrate the figure's "
                "shape but not reproduce it, and the figure's fixed N / p per panel is not in the text",
        **ev).because(
        "Figure 5.3 reports a simulation of the cited protocols under per-phase unavailability p. Their phase rules are "
        "not in the documents, and the stand-in model we wrote assumes the very behaviour the figure shows, so "
        "agreement would be by construction: the exponential growth of SHI/RASTOGI and Count's flat cost are "
        + ("illustrated by the model (exact and simulated twins agree within 25%)" if ev["model_illustrates_shape"]
           else "not even illustrated by the model") +
        f", and the 'less than 10 seconds a day' arithmetic checks ({secs} s). Nothing here is real data, so the "
        "verdict is unverifiable, not reproduced.")


@claim("count.text_previous", method="exact", rests_on=(), audit=Audit("Cites other papers' protocols, not in the corpus; only the two documents' summaries can be compared. Unverifiable."), readings=(Reading(
    "the cited protocols' costs",
    "The documents give one reading: Dwork et al. need messages quadratic in N; Rastogi et al. and Shi et al. "
    "linear, but a single unavailable user blocks further queries until a new setup.",
    "000_211156f2009240b4.txt §5.3 Early work by Dwork et al. [23] exchanges a large number of messages that is "
    "quadratic in the number of users ... Rastogi et al. [89] and Shi et al. [93] reduces the number of messages to "
    "be linear"),))
def text_previous(ctx):
    """The cited protocols are not in the corpus; the two documents' summaries of their message counts
    (000 §5.3, 002's related work) must agree."""
    return printed_figures(
        {"000_211156f2009240b4.txt §5.3": {"Dwork et al. messages": "quadratic in N", "Rastogi et al. messages": "linear in N",
                                           "Shi et al. messages": "linear in N"},
         "002_9d55ef468949585c.txt 'Privacy-Preserving Distributed Count Protocols'": {
             "Dwork et al. messages": "quadratic in N", "Rastogi et al. messages": "linear in N",
             "Shi et al. messages": "linear in N", "Ács et al. messages": "linear in N"}},
        missing="the cited protocols (Dwork et al. [23], Rastogi-Nath [89], Shi et al. [93], Ács-Castelluccia) are not in "
                "the corpus; their message counts cannot be recomputed. Our stand-in model (count.fig5_3) takes the stated "
                "behaviour as an assumption.",
        model_messages_per_aggregation_phase="N (linear)",
        why="The claim summarises other papers' protocols, which are not in the corpus; their message counts and setup "
            "behaviour cannot be recomputed, only assumed (as our churn model does).")
