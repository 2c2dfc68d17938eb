"""The §6.6-6.7 experiments, re-run on a substitute log (the AOL top-1000-users subset).

The paper's log (500,000 users, one month, a major search engine) is not public; the substitute
is ``aol-top1000/user_search_logs`` (1,000 heaviest AOL users, March-May 2006, ~318k queries).
Everything is parameterised; :class:`Experiment` caches the per-user item sets and histograms.

ZEALOUS settings follow the paper: delta = 0.001, lambda = 2m/eps, tau = ceil(2m/eps)
(Proposition 12), tau' = the least value of (6.5) (Theorem 14), U = number of users in the log.
The k-anonymous baseline is Adar's k-query anonymity (sessions cut at 30 minutes).

Modern anchor: Laplace partition selection for user-level (eps, delta)-DP with replace-one-user
neighbours and at most m partitions per user: noise Lap(2m/eps) on every count >= 1, threshold
``T = 1 + (2m/eps) ln(m/(2 delta))`` (a new partition of count 1 survives with probability
``1/2 e^{-(T-1) eps/(2m)}``, at most m of them: delta). Unlike tau', T does not grow with U.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Hashable

import numpy as np

from theory.numbers import Q, upper_rational
from theory.zealous import fast
from theory.zealous.anonymity import adar_k_query
from theory.zealous.histograms import histogram, select_items, user_items
from theory.zealous.loaders import load_user_dir
from theory.zealous.model import SearchLog, ZealousParams
from theory.zealous.parameters import prop12_tau, thm14_min_tau_prime

DELTA = Q(1, 1000)


def zealous_params(U: int, m: int, eps: object, delta: object = DELTA) -> ZealousParams:
    e = Q(eps) if not isinstance(eps, str) else Q(eps)
    tau = prop12_tau(m, e)
    # rounded up to 1/1000 from the enclosure's upper end: never below the theorem's bound (a float
    # ceil(float(tp) * 1000) fell below it near 1/1000 steps: float_safety kind ``zealous.tau_prime``)
    tp_q = upper_rational(lambda c: thm14_min_tau_prime(U, m, e, delta, tau, c), 1000)
    return ZealousParams.of(m, 2 * m / e, tau, tp_q)


def partition_selection_threshold(m: int, eps: object, delta: object = DELTA) -> float:
    e, d = float(Q(eps)), float(Q(delta))
    return 1 + (2 * m / e) * math.log(m / (2 * d))


@dataclass
class Experiment:
    log: SearchLog
    seed: int = 0
    items: dict = field(default_factory=dict)

    @property
    def U(self) -> int:
        return len(self.log.histories)

    def user_items(self, kind: str) -> dict:
        if kind not in self.items:
            self.items[kind] = user_items(self.log, kind)
        return self.items[kind]

    def original(self, kind: str) -> Counter:
        return histogram(self.user_items(kind))

    def selected(self, kind: str, m: int) -> Counter:
        return histogram(select_items(self.user_items(kind), m, self.seed))

    def zealous(self, kind: str, m: int, eps: object, run: int = 0) -> dict[Hashable, float]:
        return fast.zealous(self.selected(kind, m), zealous_params(self.U, m, eps), seed=self.seed * 1000 + run)

    def adar(self, k: int, kind: str) -> Counter:
        key = ("adar", k, kind)
        if key not in self.items:
            self.items[key] = histogram(user_items(adar_k_query(self.log, k, seed=self.seed), kind))
        return self.items[key]

    def avg_items(self, kind: str) -> float:
        its = self.user_items(kind)
        return sum(len(s) for s in its.values()) / len(its)


@lru_cache(maxsize=2)
def aol_experiment(path: str, seed: int = 0) -> Experiment:
    return Experiment(load_user_dir(Path(path)), seed)


def release_table(ex: Experiment, eps: object, kinds: tuple[str, ...] = ("keywords", "queries", "clicks", "query_pairs"),
                  ms: tuple[int, ...] = (1, 4, 8, 20, 40)) -> dict[str, dict[str, list[int]]]:
    """Table 6.3's form: per item kind, the number of distinct items ZEALOUS releases (A) and the sum of
    their released counts, rounded (B), for each m in ``ms`` at the given eps."""
    rows = {}
    for kind in kinds:
        distinct, total = [], []
        for m in ms:
            z = ex.zealous(kind, m, eps)
            distinct.append(len(z))
            total.append(round(sum(z.values())))
        rows[kind] = {"distinct": distinct, "total": total}
    return rows


def scaled_average_difference(original: Counter, sanitized: dict) -> float:
    """Figure 6.5's metric: scale sanitized counts to the original total, average |difference| over
    items with non-zero original count (missing items count 0)."""
    tot_o = sum(original.values())
    tot_s = sum(max(v, 0.0) for v in sanitized.values())
    f = tot_o / tot_s if tot_s > 0 else 0.0
    return float(np.mean([abs(c - f * max(sanitized.get(k, 0.0), 0.0)) for k, c in original.items() if c > 0]))


def loglog_slope(hist: dict) -> float:
    """Least-squares slope of log(#items with count c) against log c (power-law shape)."""
    cc = Counter(int(round(v)) for v in hist.values() if v >= 1)
    xs = np.log([c for c in cc]); ys = np.log([cc[c] for c in cc])
    if len(xs) < 2:
        return float("nan")
    return float(np.polyfit(xs, ys, 1)[0])
