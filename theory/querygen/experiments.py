"""The §5 simulation of ``004_66621c1b9afebedf.txt`` on a given table (fast twin; exact decisions).

* Random queries (§5): per attribute, a value with probability 2/3, ``*`` with probability 1/3; the
  target's value is then omitted. "Randomly selected attribute values in the given domain" is read
  two ways: ``mode="row"`` takes the values of a uniformly drawn tuple (the querier is in the
  auxiliary information, which §5 assumes identical to the provider's database) and ``mode="domain"``
  draws each value uniformly from ``D_i``. Table 2's first row (ratio exactly 1 at ``G_min = 1``)
  needs every original query to match a tuple, which only ``row`` guarantees; it is the default.
* For each target, ten ``G_min`` levels ``1, 1 + s, ..., 1 + 9s`` ("units adjusted", §5) with ``s``
  the largest multiple of 1/100 such that ``1 + 9s ≤ G(all-*, a)``.
* Traffic overhead of a strategy at a level: the mean, over the queries, of the number of tuples
  matching ``Q̂``; Table 2's ratio = Worst-Fit mean / original-query mean.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from privclaims.theory.numbers import Q
from privclaims.theory.querygen import fast
from privclaims.theory.querygen.model import STAR, STRATEGIES, AuxTable, all_star, make_query


def random_queries(table: AuxTable, n: int, rng: np.random.Generator, mode: str = "row") -> list[tuple]:
    """``n`` queries as §5 describes (see the module docstring for ``mode``)."""
    out = []
    for _ in range(n):
        if mode == "row":
            src = table.rows[int(rng.integers(table.n_rows))]
        elif mode == "domain":
            src = tuple(d[int(rng.integers(len(d)))] for d in table.domains)
        else:
            raise ValueError(f"mode must be 'row' or 'domain', got {mode!r}")
        keep = rng.integers(3, size=table.m) != 0  # value w.p. 2/3, '*' w.p. 1/3
        out.append(make_query(table, tuple(v if k else STAR for v, k in zip(src, keep))))
    return out


def for_target(query: Sequence[Any], target: int) -> tuple:
    """The query with the target attribute's value omitted."""
    return tuple(STAR if i == target else v for i, v in enumerate(query))


def g_min_levels(table: AuxTable, target: int, count: int = 10, reach: Any = 1) -> list[Any]:
    """``count`` levels ``1, 1 + s, ..., 1 + (count − 1)s``, ``s`` the largest multiple of 1/100 (at least
    1/100) with ``1 + (count − 1)s ≤ 1 + reach·(G(all-*, a) − 1)``: ``reach = 1`` runs up to G(all-*)."""
    _, num, n = fast.lattice(table, all_star(table.m), target)
    g_all = Q(int(num[0]), int(n[0]))
    step = Q(math.floor(Q(reach) * (g_all - 1) / (count - 1) * 100), 100)
    step = max(step, Q(1, 100))
    return [1 + j * step for j in range(count)]


def run(table: AuxTable, queries: Sequence[tuple], targets: Sequence[int] | None = None, *, seed: int = 0,
        levels: dict[int, list[Any]] | None = None, choice: str = "local-min", ties: str = "two-or-more"
        ) -> dict[str, Any]:
    """Mean traffic per (target, strategy, level), the original queries' mean, and counters; ``choice`` reads
    Best-Fit's step (:func:`~privclaims.theory.querygen.model.best_fit_step`), ``ties`` Brute-Force's tie rule
    (:func:`~privclaims.theory.querygen.model.pick_tie`)."""
    return run_by_reading(table, queries, targets, seed=seed, levels=levels, choices=(choice,),
                          ties=(ties,))[(choice, ties)]


def run_by_reading(table: AuxTable, queries: Sequence[tuple], targets: Sequence[int] | None = None, *, seed: int = 0,
                   levels: dict[int, list[Any]] | None = None, choices: Sequence[str] = ("local-min",),
                   ties: Sequence[str] = ("two-or-more",)) -> dict[tuple[str, str], dict[str, Any]]:
    """:func:`run` under every pair of readings at once, ``{(choice, tie): run(..., choice=choice, ties=tie)}``: each
    query's generalisations come from :func:`~privclaims.theory.querygen.fast.generalize_levels_by_reading`, so
    what a reading does not change is computed once (one result dict per pair, nothing shared between them)."""
    targets = list(range(table.m)) if targets is None else list(targets)
    combos = [(c, tie) for c in dict.fromkeys(choices) for tie in dict.fromkeys(ties)]
    res: dict[tuple[str, str], dict[str, Any]] = {combo: {} for combo in combos}
    for t in targets:
        lv = (levels or {}).get(t) or g_min_levels(table, t)
        qs = [for_target(q, t) for q in queries]
        orig = [fast.traffic_overhead(table, q) for q in qs]
        traffic = {combo: {s: np.zeros(len(lv)) for s in STRATEGIES} for combo in combos}
        removed = {combo: {s: np.zeros(len(lv)) for s in STRATEGIES} for combo in combos}
        unsat = {combo: {s: [0] * len(lv) for s in STRATEGIES} for combo in combos}
        for k, q in enumerate(qs):
            outs = fast.generalize_levels_by_reading(table, q, t, lv, STRATEGIES, seed=seed * 1_000_003 + k,
                                                     choices=choices, ties=ties)
            for combo in combos:
                out = outs[combo]
                for s in STRATEGIES:
                    for j, g in enumerate(lv):
                        r = out[(s, Q(g))]
                        traffic[combo][s][j] += r.traffic
                        removed[combo][s][j] += len(r.removed)
                        unsat[combo][s][j] += not r.satisfied
        nq = len(qs)
        mean_orig = float(np.mean(orig))
        for combo in combos:
            res[combo][table.attributes[t]] = {
                "levels": list(lv),
                "original": mean_orig,
                "traffic": {s: (traffic[combo][s] / nq).tolist() for s in STRATEGIES},
                "ratio": {s: (traffic[combo][s] / nq / mean_orig).tolist() for s in STRATEGIES},
                "removed": {s: (removed[combo][s] / nq).tolist() for s in STRATEGIES},
                "unsatisfied": unsat[combo],
                "empty_original_queries": sum(o == 0 for o in orig),
            }
    return res


def guess_traffic_pairs(table: AuxTable, target: int, queries: Sequence[tuple]) -> tuple[list[float], list[float]]:
    """(G(Q, a), traffic(Q)) for the queries (target value omitted) that match a tuple (Fig. 3(b))."""
    xs, ys = [], []
    for q in queries:
        q = for_target(q, target)
        _, num, n = fast.lattice(table, q, target)
        if n[0]:
            xs.append(num[0] / n[0])
            ys.append(float(n[0]))
    return xs, ys


def pearson(table: AuxTable, target: int, queries: Sequence[tuple]) -> tuple[float, int]:
    """Pearson correlation of (G(Q, a), traffic(Q)) over the queries that match a tuple (Fig. 3(b))."""
    xs, ys = guess_traffic_pairs(table, target, queries)
    return float(np.corrcoef(xs, ys)[0, 1]), len(xs)


def table2_markdown(results: dict[str, Any], strategy: str = "worst_fit") -> str:
    """Table 2's form: per target, the G_min levels and the strategy/original traffic ratio."""
    names = list(results)
    head = "| " + " | ".join(f"{a} G_min | ratio" for a in names) + " |"
    sep = "|" + "---|---|" * len(names)
    lines = [f"Traffic overhead ratio of {strategy} and original", "", head, sep]
    for j in range(len(results[names[0]]["levels"])):
        cells = []
        for a in names:
            g = results[a]["levels"][j]
            cells.append(f"{float(g):.2f} | {results[a]['ratio'][strategy][j]:.4f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
