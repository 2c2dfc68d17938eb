"""The evaluation of 000_211156f2009240b4.txt §3.7 on substitute data.

For one user: learn M by counting on the first half of the days (``learn_chain``), then on each
day of the second half run MaskSensitive, the probabilistic check (greedy MONDRIAN search on the
grid d, fast conservative ISPRIVATE), the simulatable check (Algorithm 5, fast twin) and the
hybrid (the check with the larger analytic utility, Theorem 6). Measures as in §3.7.1:

* utility = fraction of released states in the evaluation half;
* MaskSensitive's breaches: a suppressed sensitive state x_t = s is breached if
  ``Pr[X_t = s | o] - Pr[X_t = s] > δ``; the posterior is computed on the segment between the
  nearest releases (Proposition 3), so an evaluation day that the learned chain deems impossible
  elsewhere still gets a posterior where its segment is possible (segments of probability 0 are
  counted separately).
* cost (Table 3.2): wall-clock seconds (informational: machine- and load-dependent) and operation
  counts, which are deterministic: the probabilistic initialize's ISPRIVATE calls, beliefs and
  multiply-adds (the greedy search of ``search.greedy_mondrian`` on the fast twin, counted by
  ``OpCount``), the beliefs each simulatable okayToRelease decision computes, and the multiply-adds
  of the reach table (``fast.reach_table``) those decisions read.
"""

from __future__ import annotations

import time
from typing import Any, Sequence

import numpy as np

from privclaims.theory.maskit import exact as E
from privclaims.theory.maskit import fast as F
from privclaims.theory.maskit.model import MarkovChain, learn_chain, sensitive_indices
from privclaims.theory.maskit.search import greedy_mondrian
from privclaims.theory.maskit.system import SimulatableCheck, maskit


def segment_posterior(chain: MarkovChain, P: np.ndarray, t1: int, i: int | None, t2: int, j: int | None, t: int) -> np.ndarray | None:
    """Pr[X_t = . | o_t1 = c_i, ⊥..⊥, o_t2 = c_j] (t1 = 0 start, t2 = T+1 end) in floats; None if impossible."""
    init, steps = F.float_chain(chain)
    T, n = chain.T, chain.n
    if t1 == 0:
        f = init * P[0]
        tau0 = 1
    else:
        f = np.zeros(n)
        f[i] = 1.0
        tau0 = t1
    fwd = {tau0: f}
    for tau in range(tau0 + 1, t2 if t2 <= T else T + 1):
        fwd[tau] = (fwd[tau - 1] @ steps[tau - 2]) * P[tau - 1]
    last = T if t2 == T + 1 else t2 - 1
    # backward from `last` down to t
    hb = {last: (np.ones(n) if t2 == T + 1 else steps[t2 - 2][:, j].copy())}
    for tau in range(last - 1, t - 1, -1):
        hb[tau] = steps[tau - 1] @ (P[tau] * hb[tau + 1])
    joint = fwd[t] * hb[t]
    tot = joint.sum()
    if tot <= 0:
        return None
    return joint / tot


def _breaches(chain: MarkovChain, P: np.ndarray, days: list, outputs: list, sens: Sequence[int], pri: np.ndarray, dl: float) -> int:
    """Suppressed sensitive states whose posterior (segment between the nearest releases, emissions P;
    all-ones P for a simulatable check, whose ⊥ carries no information) exceeds the prior by > δ."""
    T = chain.T
    count = 0
    for x, o in zip(days, outputs):
        for t in range(1, T + 1):
            if o[t - 1] is not None or x[t - 1] not in sens:
                continue
            t1 = max([k for k in range(1, t) if o[k - 1] is not None], default=0)
            t2 = min([k for k in range(t + 1, T + 1) if o[k - 1] is not None], default=T + 1)
            post = segment_posterior(chain, P, t1, o[t1 - 1] if t1 else None, t2, o[t2 - 1] if t2 <= T else None, t)
            if post is not None and post[x[t - 1]] - pri[t - 1][x[t - 1]] > dl + 1e-9:
                count += 1
    return count


def evaluate_user(train: Sequence[Sequence], test: Sequence[Sequence], contexts: Sequence, S: Sequence, delta: Any,
                  d: int, rng: np.random.Generator) -> dict:
    """All measures of §3.7 for one user (see the module docstring)."""
    T = len(train[0])
    chain = learn_chain(train, contexts, T)
    sens = sensitive_indices(chain, S)
    idx = {c: k for k, c in enumerate(contexts)}
    days = [[idx[c] for c in day] for day in test]
    pri = F.prior_beliefs(chain)
    dl = float(delta)
    n_states = T * len(days)
    # MaskSensitive and its breaches
    mask = np.zeros((T, chain.n))
    mask[:, list(sens)] = 1.0
    supp_sens = breached = off_model = 0
    for x in days:
        o = [None if xi in sens else xi for xi in x]
        for t in range(1, T + 1):
            if o[t - 1] is not None:
                continue
            supp_sens += 1
            t1 = max([k for k in range(1, t) if o[k - 1] is not None], default=0)
            t2 = min([k for k in range(t + 1, T + 1) if o[k - 1] is not None], default=T + 1)
            post = segment_posterior(chain, mask, t1, o[t1 - 1] if t1 else None, t2, o[t2 - 1] if t2 <= T else None, t)
            if post is None:
                off_model += 1
                continue
            s = x[t - 1]
            if post[s] - pri[t - 1][s] > dl:
                breached += 1
    # probabilistic check
    init_ops = E.OpCount()
    t0 = time.perf_counter()
    # = F.greedy_mondrian, with its work counted (the search's cache saves work, not counts: F.max_breach)
    search = greedy_mondrian(chain, S, delta, d, twin=F, ops=init_ops, cache=E.PassedCache())
    init_seconds = time.perf_counter() - t0
    K, calls = np.array([[int(v * d) for v in row] for row in search.p], dtype=np.int64), search.is_private_calls
    P = K / d
    prob_outputs = [[xi if rng.random() >= P[t][xi] else None for t, xi in enumerate(x)] for x in days]
    rel_prob = sum(v is not None for o in prob_outputs for v in o)
    u_prob = F.utility_released_fraction(chain, K, d)
    # simulatable check
    sim_ops = E.OpCount()
    chk = SimulatableCheck(chain, S, delta, twin=F, ops=sim_ops)
    t0 = time.perf_counter()
    sim_outputs = [maskit(chain, chk, x) for x in days]
    rel_sim = sum(v is not None for o in sim_outputs for v in o)
    sim_seconds = (time.perf_counter() - t0) / max(1, n_states)
    u_sim = F.simulatable_utility(chain, S, delta) / T
    prob_breaches = _breaches(chain, P, days, prob_outputs, sens, pri, dl)
    sim_breaches = _breaches(chain, np.ones((T, chain.n)), days, sim_outputs, sens, pri, dl)
    pick = "probabilistic" if u_prob > u_sim else "simulatable"
    test_prob, test_sim = rel_prob / n_states, rel_sim / n_states
    actual_better = "probabilistic" if test_prob > test_sim else "simulatable"
    return {
        "n": chain.n, "T": T, "train_days": len(train), "test_days": len(days),
        "mask_sensitive_utility": 1 - supp_sens / n_states,
        "sensitive_fraction": supp_sens / n_states,
        "breached_fraction_of_suppressed_sensitive": (breached / supp_sens) if supp_sens else 0.0,
        "off_model_segments": off_model,
        "probabilistic_utility": test_prob, "probabilistic_expected": u_prob,
        "simulatable_utility": test_sim, "simulatable_expected": u_sim,
        "hybrid_pick": pick, "hybrid_utility": test_prob if pick == "probabilistic" else test_sim,
        "hybrid_correct": pick == actual_better or abs(test_prob - test_sim) < 1e-12,
        "probabilistic_breaches": prob_breaches, "simulatable_breaches": sim_breaches,
        "isprivate_calls": calls, "probabilistic_init_seconds": init_seconds, "simulatable_decision_seconds": sim_seconds,
        # operation counts (deterministic): the probabilistic initialize (all ISPRIVATE calls of the greedy search) and
        # the simulatable okayToRelease decisions (beliefs each decision computes, Algorithm 5)
        "probabilistic_init_beliefs": init_ops.beliefs, "probabilistic_init_mult_adds": init_ops.mult_adds,
        "simulatable_decisions": chk.decisions, "simulatable_decision_beliefs": sim_ops.beliefs,
        "simulatable_reach_mult_adds": F.reach_table_mult_adds(chain),  # the table its decisions read, built once per chain
    }


# --------------------------------------------------------------------------- populations (cached)

from pathlib import Path

from privclaims.theory.cache import data_key, memoised
from privclaims.theory.maskit.synthetic import generate_days
from privclaims.theory.numbers import Q


def cached(key: dict, compute):
    """Memoise a MaskIt experiment on disk (:func:`privclaims.theory.cache.memoised` in
    ``privclaims-maskit-cache``: keyed by the parameters, the whole package's source and, for GeoLife, the data files'
    :func:`~privclaims.theory.cache.data_key`; deterministic results; timings are re-used)."""
    if "root" in key:
        key = {**key, "data": data_key(key["root"])}
    return memoised("privclaims-maskit-cache", key, compute)


def _synthetic_user(seed: int, u: int, n: int, T: int, days: int) -> tuple:
    """Synthetic user ``u``: ``(rng, contexts L0..L{n-1}, training days (first half), test days, the places other
    than home L0 seen in training)``; ``rng`` (seeded by (seed, u)) is the user's for what follows."""
    rng = np.random.default_rng([seed, u])
    idx = generate_days(seed * 1000 + u, n, T, days)
    ctxs = [f"L{i}" for i in range(n)]
    tr = [tuple(ctxs[i] for i in dd) for dd in idx[: days // 2]]
    te = [tuple(ctxs[i] for i in dd) for dd in idx[days // 2:]]
    return rng, ctxs, tr, te, sorted({c for dd in tr for c in dd if c != "L0"})


def synthetic_population(seed: int, users: int = 12, n: int = 8, T: int = 12, days: int = 120, n_sensitive: int = 3,
                         delta: Any = Q(1, 10), d: int = 10, home: bool = False) -> list[dict]:
    """Evaluate every synthetic user (first half of the days for training); S = ``n_sensitive`` random
    places other than home seen in training, or S = {home} with ``home=True``."""

    def compute():
        out = []
        for u in range(users):
            rng, ctxs, tr, te, seen = _synthetic_user(seed, u, n, T, days)
            S = ["L0"] if home else list(rng.choice(seen, size=min(n_sensitive, len(seen)), replace=False))
            r = evaluate_user(tr, te, ctxs, S, delta, d, rng)
            r["user"], r["S"] = u, S
            out.append(r)
        return out

    return cached({"kind": "synthetic", "seed": seed, "users": users, "n": n, "T": T, "days": days,
                   "k": n_sensitive, "delta": str(delta), "d": d, "home": home}, compute)


def geolife_population(root: Path, seed: int, n_sensitive: int = 1, delta: Any = Q(1, 10), d: int = 10, T: int = 12,
                       k: int = 6, modes: bool = False) -> list[dict]:
    """Evaluate every GeoLife user under ``root`` (location or transport-mode contexts)."""
    from privclaims.theory.maskit.data import location_days, mode_days, split_half

    def compute():
        out = []
        for u, udir in enumerate(sorted(p for p in Path(root).iterdir() if p.is_dir())):
            try:
                days = mode_days(udir, T) if modes else location_days(udir, T)
                tr, te, ctxs = split_half(days, k)
            except Exception as e:  # a user without usable days is reported, not fatal
                out.append({"user": udir.name, "skipped": str(e)})
                continue
            rng = np.random.default_rng([seed, u])
            seen = sorted({c for dd in tr for c in dd})
            S = list(rng.choice(seen, size=min(n_sensitive, len(seen)), replace=False))
            r = evaluate_user(tr, te, ctxs, S, delta, d, rng)
            r["user"], r["S"] = udir.name, S
            out.append(r)
        return out

    return cached({"kind": "geolife", "root": str(root), "seed": seed, "k_sens": n_sensitive, "delta": str(delta),
                   "d": d, "T": T, "k": k, "modes": modes}, compute)


def summary(rows: list[dict]) -> dict:
    rows = [r for r in rows if "skipped" not in r]
    if not rows:
        return {"users": 0}
    mean = lambda k: float(np.mean([r[k] for r in rows]))
    return {
        "users": len(rows),
        "mask_sensitive_utility": mean("mask_sensitive_utility"),
        "probabilistic_utility": mean("probabilistic_utility"),
        "simulatable_utility": mean("simulatable_utility"),
        "hybrid_utility": mean("hybrid_utility"),
        "sensitive_fraction": mean("sensitive_fraction"),
        "breached_fraction_of_suppressed_sensitive": float(
            sum(r["breached_fraction_of_suppressed_sensitive"] * r["sensitive_fraction"] for r in rows)
            / max(1e-12, sum(r["sensitive_fraction"] for r in rows))),
        "simulatable_better_users": sum(r["simulatable_utility"] > r["probabilistic_utility"] for r in rows),
        "probabilistic_better_users": sum(r["probabilistic_utility"] > r["simulatable_utility"] for r in rows),
        "hybrid_correct_fraction": mean("hybrid_correct"),
        "maskit_breaches": int(sum(r["probabilistic_breaches"] + r["simulatable_breaches"] for r in rows)),
    }


def weak_population(seed: int, users: int = 6, days: int = 80, n: int = 8, T: int = 12, delta: Any = Q(1, 10), d: int = 10) -> list[dict]:
    """p_fig7 (001 §7.2): adversaries knowing a set-labelled chain in which each sensitive place is
    hidden among g state IDs (Π(a) = {s, c_a} for g - 1 other places a). By Theorem 7 the check runs
    on the ID chain (= M's structure) with S' = the g IDs whose set contains s and δ/μ, μ = g."""

    def compute():
        rows = []
        for g in (1, 2, 3):
            per = []
            for u in range(users):
                rng, ctxs, tr, te, seen = _synthetic_user(seed, u, n, T, days)
                order = list(rng.permutation(seen))
                S_ids = order[:g]  # the sensitive place and g - 1 IDs whose set label also contains it
                per.append(evaluate_user(tr, te, ctxs, S_ids, Q(delta) / g, d, rng))
            s = summary(per)
            rows.append({"g_ids_per_sensitive_label": g, "effective_delta": Q(delta) / g,
                         **{k: s[k] for k in ("hybrid_utility", "probabilistic_utility", "simulatable_utility")}})
        return rows

    return cached({"kind": "weak", "seed": seed, "users": users, "days": days, "n": n, "T": T, "delta": str(delta), "d": d}, compute)
