"""Experiments: Figure 5.2 on an AOL emulation, the 1MB statement, Figure 5.3's churn model
(000_211156f2009240b4.txt §5.6; 002_9d55ef468949585c.txt §5.4-5.5)."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from checks.registry import claim
from checks.verdict import refuted, reproduced, unverifiable, verified
from theory.count import aol
from theory.count import exact_churn as ec
from theory.count import fast_churn as fc
from theory.numbers import Q

MIN_SUPPORT = 10  # TopDown's min_support is not stated in the text; chosen for the 800 training users
SEEDS = 5


@lru_cache(maxsize=2)
def _emulation(path: str) -> aol.Emulation:
    return aol.build(aol.read_aol(path), n_ads=50, per_context=3, seed=0)


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


@claim("count.fig5_2a", method="reproduction", quick=False, needs_data="aol-top1000", timeout=600)
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
    if price and minor:
        return reproduced(shape="coverage at precision 0.6: non-private > private; |eps 1 - eps 0.5| <= 0.1", **ev)
    return unverifiable(missing="the Bing log (116,432 users); on the 800-user AOL emulation the shape differs", **ev)


@claim("count.fig5_2b", method="reproduction", quick=False, needs_data="aol-top1000", timeout=600)
def fig5_2b(ctx):
    em = _emulation(str(ctx.data("aol-top1000")))
    rows = {}
    for t in (0.0, 0.25, 0.5, 0.75):
        cov, prec, _ = _coverage(em, 1.0, t, SEEDS)
        rows[str(t)] = {"coverage_at_precision_0.6": round(cov, 4), "best_precision_at_coverage_0.1": round(prec, 4),
                        "noise_variance_factor_N_over_(1-t)N-1": round(em.n_train_users / ((1 - t) * em.n_train_users - 1), 4)}
    p0, p75 = rows["0.0"]["best_precision_at_coverage_0.1"], rows["0.75"]["best_precision_at_coverage_0.1"]
    c0, c75 = rows["0.0"]["coverage_at_precision_0.6"], rows["0.75"]["coverage_at_precision_0.6"]
    mild = abs(c0 - c75) <= 0.1 and abs(p0 - p75) <= 0.1
    ev = dict(setup=SETUP, ours=rows, paper="t = 0.75 almost the same utility as t = 0 (eps = 1)")
    if mild:
        return reproduced(shape="eps = 1: |coverage(t=0.75) - coverage(t=0)| <= 0.1 and same for best precision", **ev)
    return unverifiable(missing="the Bing log; on the 800-user AOL emulation t = 0.75 (4x noise variance) changes utility by more than 0.1", **ev)


@claim("count.text_1mb", method="reproduction", quick=False, needs_data="aol-top1000", timeout=600)
def text_1mb(ctx):
    """Every user takes part in every Count call (sending an encryption of 0 when she has nothing to
    count); a 2048-bit Paillier ciphertext is 4096 bits = 512 bytes. Batching per hierarchy level with
    depth limit 1 gives two batches (levels 0 and 1)."""
    em = _emulation(str(ctx.data("aol-top1000")))
    res = aol.run_estimates(em, 1.0, 0.0, m=4, min_support=MIN_SUPPORT, seed=0)
    levels = sorted({em.hierarchy.depth(v) for v in res.counts})
    mb = res.calls * 512 / 1e6
    return unverifiable(missing="the Bing hierarchy and ad set: bytes scale with the number of Count calls, which depends on them",
                        ours={"count_calls": res.calls, "megabytes_per_user_2048bit_paillier": round(mb, 2), "batches_one_per_level": len(levels)},
                        paper={"megabytes_per_user": 1, "batches": 2})


@claim("count.text_exp_params", method="reproduction")
def text_exp_params(ctx):
    return unverifiable(missing="the Bing for mobile log (116,432 users, one month) is not public; 000 says delta = 0.02, 002 says delta = 0.01",
                        emulation_parameters=SETUP)


GRID_N = (10, 100, 1000, 10000)
GRID_P = ("1/100000", "1/10000", "1/1000", "1/100")


@claim("count.fig5_3", method="statistical+exact", quick=False)
def fig5_3(ctx):
    """The churn model of theory.count.exact_churn (exact expectations) beside 1000 seeded simulated queries
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
              impractical_points=imp)
    if agree and growth and count_flat and secs < 10:
        return reproduced(shape="SHI/RASTOGI phases per query grow as e^{(a+1) N p} (exponential in N and p), Count stays ~1; "
                                "exact and simulated within 25%", **ev,
                          note="at p = 1e-4, N = 10^4 the model gives 7.4 (SHI) and 32 (RASTOGI) phases vs optimum 1 and 2; "
                               "'impractical' holds clearly only for larger N p (the figure's fixed N/p per panel is not in the text)")
    return refuted(witness={"agree": agree, "growth": growth, "count_flat": count_flat}, **ev)


@claim("count.text_previous", method="exact")
def text_previous(ctx):
    return unverifiable(missing="the cited protocols (Dwork et al. [23], Rastogi-Nath [89], Shi et al. [93], Ács-Castelluccia) are not in the corpus; "
                                "their message counts cannot be recomputed. Our stand-in model (count.fig5_3) takes the stated behaviour as an assumption.",
                        model_messages_per_aggregation_phase="N (linear)")
