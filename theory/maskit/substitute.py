"""Variants of the experiments of 000_211156f2009240b4.txt §3.7 / 001_eb11505ae1399b83.txt §7 on GeoLife (the public
substitute for Reality Mining) that :mod:`privclaims.theory.maskit.experiment` runs only on synthetic users.

**Home as the sensitive context** (Figure 3.7, right; 001 Figure 6); GeoLife has no home label.

A user's home is inferred from the *training* half of her days, as the location she occupies most at night: the
most frequent context other than "other" in the slots that lie within 0:00-6:00 or 22:00-24:00 (Beijing time; for
the default T = 12 two-hour slots: slots 0, 1, 2 and 11). Everything else is the location experiment of
:func:`privclaims.theory.maskit.experiment.geolife_population` with S = {home}.

**Set-labelled adversaries** (001 Figure 7): a sensitive location hidden among g state IDs whose set labels contain it,
the check run at the figure's δ on each GeoLife user (Theorem 7 then guarantees δ·μ against the weak adversary).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q

NIGHT_HOURS = (0, 6, 22, 24)  # [0, 6) and [22, 24)


def night_slots(T: int) -> list[int]:
    """The slots of a T-slot day that lie entirely within the night hours."""
    a, b, c, d = NIGHT_HOURS
    out = []
    for s in range(T):
        lo, hi = 24 * s / T, 24 * (s + 1) / T
        if (a <= lo and hi <= b) or (c <= lo and hi <= d):
            out.append(s)
    if not out:
        raise InvalidInput(f"T = {T} has no slot inside the night hours {NIGHT_HOURS}")
    return out


def infer_home(train: Sequence[Sequence[Any]], T: int) -> Any:
    """The most frequent context other than "other" in the night slots of the training days (ties: first seen)."""
    slots = night_slots(T)
    votes = Counter(day[s] for day in train for s in slots if day[s] != "other")
    if not votes:
        raise InvalidInput("no night-time location other than 'other' in the training days")
    return votes.most_common(1)[0][0]


def geolife_home_population(root: Path, seed: int, delta: Any = Q(1, 10), d: int = 10, T: int = 12, k: int = 6) -> list[dict]:
    """Evaluate every GeoLife user under ``root`` with S = {inferred home} (location contexts)."""
    from privclaims.theory.maskit.data import location_days, split_half
    from privclaims.theory.maskit.experiment import cached, evaluate_user

    def compute() -> list[dict]:
        out = []
        for u, udir in enumerate(sorted(p for p in Path(root).iterdir() if p.is_dir())):
            try:
                tr, te, ctxs = split_half(location_days(udir, T), k)
                home = infer_home(tr, T)
            except InvalidInput as e:  # a user without usable days is reported, not fatal
                out.append({"user": udir.name, "skipped": str(e)})
                continue
            r = evaluate_user(tr, te, ctxs, [home], delta, d, np.random.default_rng([seed, u]))
            r["user"], r["S"] = udir.name, [home]
            out.append(r)
        return out

    return cached({"kind": "geolife-home", "root": str(root), "seed": seed, "delta": str(delta),
                   "d": d, "T": T, "k": k}, compute)


def geolife_weak_population(root: Path, seed: int, delta: Any = Q(1, 10), d: int = 10, T: int = 12, k: int = 6,
                            gs: Sequence[int] = (1, 2, 3)) -> list[dict]:
    """001 Figure 7 on GeoLife: per g in ``gs``, a sensitive label hidden among g state IDs whose set labels contain it
    (the g first of a random order of the user's training contexts other than "other"); by Theorem 7 the check runs on
    the ID chain with S' = those IDs, here at the figure's δ (caption: "δ = 0.1 · # Sensitive Contexts" is the resulting
    guarantee, δ·μ). Returns the mean utilities over the users and, per user, μ = max_t |{a ∈ S' : Pr[X'_t = a] > 0}|."""
    from privclaims.theory.maskit import fast as F
    from privclaims.theory.maskit.data import location_days, split_half
    from privclaims.theory.maskit.experiment import cached, evaluate_user, summary
    from privclaims.theory.maskit.model import learn_chain

    def compute() -> list[dict]:
        rows = []
        for g in gs:
            per, mus = [], []
            for u, udir in enumerate(sorted(p for p in Path(root).iterdir() if p.is_dir())):
                try:
                    tr, te, ctxs = split_half(location_days(udir, T), k)
                except InvalidInput:
                    continue
                rng = np.random.default_rng([seed, u])
                seen = sorted({c for dd in tr for c in dd if c != "other"})
                if len(seen) < max(gs):
                    continue
                S_ids = [str(c) for c in rng.permutation(seen)[:g]]
                pri = F.prior_beliefs(learn_chain(tr, ctxs, T))
                idx = [ctxs.index(a) for a in S_ids]
                mus.append(int(max(sum(pri[t][i] > 0 for i in idx) for t in range(T))))
                per.append(evaluate_user(tr, te, ctxs, S_ids, delta, d, rng))
            s = summary(per)
            rows.append({"g_ids_per_sensitive_label": g, "check_delta": Q(delta), "mu_per_user": mus, "users": s["users"],
                         **{key: s.get(key) for key in ("hybrid_utility", "probabilistic_utility", "simulatable_utility")}})
        return rows

    return cached({"kind": "geolife-weak", "root": str(root), "seed": seed, "delta": str(delta),
                   "d": d, "T": T, "k": k, "gs": list(gs)}, compute)
