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

from privclaims.theory.numbers import Q, upper_rational
from privclaims.theory.zealous import fast
from privclaims.theory.zealous.anonymity import adar_k_query, query_users, sessions
from privclaims.theory.zealous.histograms import histogram, select_items, user_items
from privclaims.theory.zealous.loaders import load_user_dir
from privclaims.theory.zealous.model import SearchLog, ZealousParams
from privclaims.theory.zealous.parameters import prop12_tau, thm14_min_tau_prime

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
        """The full histogram (cached: callers must not mutate it)."""
        key = ("original", kind)
        if key not in self.items:
            self.items[key] = histogram(self.user_items(kind))
        return self.items[key]

    def selected(self, kind: str, m: int) -> Counter:
        key = ("selected", kind, m)
        if key not in self.items:
            self.items[key] = histogram(select_items(self.user_items(kind), m, self.seed))
        return self.items[key]

    def zealous(self, kind: str, m: int, eps: object, run: int = 0) -> dict[Hashable, float]:
        """ZEALOUS's release (seeded, so deterministic: cached per (kind, m, eps, run))."""
        key = ("zealous", kind, m, Q(eps), run)
        if key not in self.items:
            self.items[key] = fast.zealous(self.selected(kind, m), zealous_params(self.U, m, eps), seed=self.seed * 1000 + run)
        return self.items[key]

    def adar(self, k: int, kind: str) -> Counter:
        key = ("adar", k, kind)
        if key not in self.items:
            if ("adar_log", k) not in self.items:
                if "adar_parts" not in self.items:  # sessions and query users do not depend on k
                    self.items["adar_parts"] = (sessions(self.log), query_users(self.log))
                self.items[("adar_log", k)] = adar_k_query(self.log, k, seed=self.seed, parts=self.items["adar_parts"])
            self.items[key] = histogram(user_items(self.items[("adar_log", k)], kind))
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
    # items missing from the sanitized histogram contribute |c - 0| = c: start from the sum of all counts and
    # correct only the (few) released items, instead of a pass over every original item per call
    pos = [c for c in original.values() if c > 0]
    total = float(sum(pos))
    for k, v in sanitized.items():
        c = original.get(k, 0)
        if c > 0:
            total += abs(c - f * max(v, 0.0)) - c
    return total / len(pos)


def loglog_slope(hist: dict) -> float:
    """Least-squares slope of log(#items with count c) against log c (power-law shape)."""
    cc = Counter(int(round(v)) for v in hist.values() if v >= 1)
    xs = np.log([c for c in cc]); ys = np.log([cc[c] for c in cc])
    if len(xs) < 2:
        return float("nan")
    return float(np.polyfit(xs, ys, 1)[0])


# ------------------------------------------------------------------ Figures 6.2, 6.3 (top-j coverage and precision)


def top_j_curves(ex: Experiment, kind: str, m: int, eps: object, js: tuple[int, ...]) -> dict[str, dict[int, float]]:
    """Figures 6.2/6.3's four rows for one (kind, m, eps): per j, the average L1 distance and the KL divergence
    of the top-j relative frequencies (precision, lower is better) and the top-j coverage, the fraction of the top-j
    original items that ZEALOUS publishes (:func:`privclaims.theory.zealous.utility.top_j_coverage`; the figures' third and
    fourth rows plot what it misses, 1 minus it)."""
    from privclaims.theory.zealous.utility import top_j, top_j_coverage, top_j_precision

    key = ("top", kind, max(js))
    if key not in ex.items:  # the top-J original items once: top_j of it equals top_j of the whole for j <= J
        o = ex.original(kind)
        ex.items[key] = {d: o[d] for d in top_j(o, max(js))}
    o, z = ex.items[key], ex.zealous(kind, m, eps)
    out: dict[str, dict[int, float]] = {"L1": {}, "KL": {}, "coverage": {}}
    for j in js:
        l1, kl = top_j_precision(o, z, j)
        out["L1"][j], out["KL"][j] = l1, kl
        out["coverage"][j] = top_j_coverage(o, z, j)
    return out


# ------------------------------------------------------------------ Figure 6.6 (index caching)


def proxy_posting_lengths(ex: Experiment) -> dict[str, int]:
    """The stand-in for posting-list lengths (the paper's document collection is not available): for each
    keyword, the number of distinct urls clicked after queries containing it (at least 1)."""
    key = ("posting_lengths",)
    if key not in ex.items:
        from collections import defaultdict

        urls: dict[str, set] = defaultdict(set)
        for h in ex.log.histories.values():
            for e in h:
                for w in e.query.split():
                    urls[w].update(e.clicks)
        ex.items[key] = {w: max(1, len(u)) for w, u in urls.items()}
    return ex.items[key]


CACHE_MEMORY_FRACTION = 0.05  # memory = 5% of all proxy postings (8 bytes each); the paper's 1 GB has no analogue


def caching_hit_probability(ex: Experiment, hist: dict, memory_fraction: float = CACHE_MEMORY_FRACTION) -> float:
    """Figure 6.6's utility: the hit probability, under the original keyword workload, of the Baeza-Yates greedy
    cache built from ``hist`` (keyword frequencies of the original, k-anonymous or ZEALOUS histogram)."""
    from privclaims.theory.zealous.applications import hit_probability

    return hit_probability(cached_keywords(ex, hist, memory_fraction), ex.original("keywords"))


def cached_keywords(ex: Experiment, hist: dict, memory_fraction: float = CACHE_MEMORY_FRACTION) -> list:
    """The keywords whose posting lists the greedy cache built from ``hist`` holds."""
    from privclaims.theory.zealous.applications import cache_posting_lists

    plen = proxy_posting_lengths(ex)
    return cache_posting_lists(hist, plen, int(memory_fraction * sum(plen.values()) * 8), truncate=200_000)


# ------------------------------------------------------------------ Figures 6.7, 6.8 (query substitution)


def substitution_quality(ex: Experiment, sanitized_pairs: dict, j: int, top_queries: int = 100_000) -> dict[str, float | None]:
    """§6.7.3's metrics of the top-j substitutions from ``sanitized_pairs`` against the original log's, for the
    ``top_queries`` most frequent original queries (the paper's 100,000): coverage averaged over the queries the
    original log gives substitutions for, precision / recall / NDCG / MAP (as printed) over the queries the
    sanitized log gives substitutions for (None when it gives none). The generator is the stand-in of
    :mod:`privclaims.theory.zealous.applications` (candidates ranked by query-pair count), not Jones et al.'s."""
    from privclaims.theory.zealous.applications import map_as_printed, ndcg, precision, recall, substitutions

    key = ("orig_substitutions", j, top_queries)
    if key not in ex.items:
        orig = substitutions(ex.original("query_pairs"), j)
        top = set(q for q, _ in ex.original("queries").most_common(top_queries))
        ex.items[key] = {q: v for q, v in orig.items() if q in top}
    orig = ex.items[key]
    san = substitutions(sanitized_pairs, j)
    cov = sum(1 for q in orig if q in san) / len(orig) if orig else 0.0
    both = [q for q in san if q in orig]
    avg = lambda f: sum(f(orig[q], san[q]) for q in both) / len(both) if both else None
    return {"coverage": cov, "precision": avg(precision), "recall": avg(recall), "NDCG": avg(ndcg), "MAP_as_printed": avg(map_as_printed)}
