"""Query generalizer benchmarks (``004_66621c1b9afebedf.txt`` §5 scale).

A synthetic table of the paper's size and shape: 66,270 rows × 6 attributes with the paper's group
counts (Loan Amount 236, Income 206, Denial Reason 9, County 14, Race 7, Gender 4), values drawn from
Zipf-like (skewed, as §5's Fig. 3(a)) distributions. Workload of the issue: 100 random queries (§5
generator) × 10 G_min levels × 4 strategies for one target, fast twin; target ≤ 5 s. The exact twin
runs the same workload on a few queries side by side; its per-query time gives the ratio.
"""

from __future__ import annotations

import time

import numpy as np

from benchmarks import Measurement, benchmark
from privclaims.theory.querygen import exact, experiments, fast
from privclaims.theory.querygen.hmda import PAPER_ATTRIBUTES, PAPER_GROUPS, PAPER_ROWS
from privclaims.theory.querygen.model import STRATEGIES, PrivacyRequirement, make_table


def paper_sized_table(seed: int = 0):
    rng = np.random.default_rng(seed)
    cols = []
    for d in PAPER_GROUPS:
        w = 1.0 / np.arange(1, d + 1) ** 1.1
        cols.append(rng.choice(d, size=PAPER_ROWS, p=w / w.sum()))
    rows = map(tuple, np.stack(cols, axis=1).tolist())
    return make_table(PAPER_ATTRIBUTES, rows, {a: range(d) for a, d in zip(PAPER_ATTRIBUTES, PAPER_GROUPS)})


def _workload(twin, table, queries, target: int, levels) -> float:
    t0 = time.perf_counter()
    if twin is fast:
        for k, q in enumerate(queries):
            fast.generalize_levels(table, experiments.for_target(q, target), target, levels, STRATEGIES, seed=k)
    else:
        for k, q in enumerate(queries):
            qq = experiments.for_target(q, target)
            for g in levels:
                for s in STRATEGIES:
                    exact.generalize(table, qq, PrivacyRequirement(target, g), s, seed=k)
    return time.perf_counter() - t0


@benchmark("querygen.strategies_66k", "querygen")
def strategies_66k() -> Measurement:
    table = paper_sized_table()
    fast.encode(table)  # one-off encoding, outside the timed region (the table is static)
    queries = experiments.random_queries(table, 100, np.random.default_rng(1))
    target = 0
    levels = experiments.g_min_levels(table, target)
    t_fast = min(_workload(fast, table, queries, target, levels) for _ in range(3))
    n_exact = 2
    t_exact = _workload(exact, table, queries[:n_exact], target, levels) * len(queries) / n_exact
    return Measurement(t_fast, "s", target=5.0, baseline=t_exact,
                       notes=f"{PAPER_ROWS} rows x 6 attrs, 100 queries x 10 G_min x 4 strategies (target Loan Amount); "
                             f"exact twin timed on {n_exact} queries and scaled x{len(queries) // n_exact}")


@benchmark("querygen.strategies_66k_all_targets", "querygen")
def strategies_66k_all_targets() -> Measurement:
    table = paper_sized_table()
    fast.encode(table)
    queries = experiments.random_queries(table, 100, np.random.default_rng(1))
    t0 = time.perf_counter()
    for target in range(table.m):
        _workload(fast, table, queries, target, experiments.g_min_levels(table, target))
    return Measurement(time.perf_counter() - t0, "s", target=None,
                       notes="the full §5 experiment: six targets x 100 queries x 10 levels x 4 strategies (fast twin)")
