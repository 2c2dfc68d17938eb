"""Tables and figures for the ads notebook (``notebooks/02_ads.ipynb``).

Greedy against the optimum (000_211156f2009240b4.txt §4.3, Theorem 7; 002_9d55ef468949585c.txt §3.3),
exact on small random instances and on the tight construction of :func:`privclaims.theory.ads.coverage.tight_instance`;
and the §4.4 figures (precision / coverage against the CTR threshold, against k, and per generalisation
level) drawn from :meth:`privclaims.theory.ads.aol.AdService.evaluate` results. Presentation only: every number comes
from :mod:`privclaims.theory.ads.exact` or :mod:`privclaims.theory.ads.aol`.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from privclaims.theory.ads import exact as E
from privclaims.theory.ads.coverage import tight_instance
from privclaims.theory.ads.model import AdInstance, ad_instance
from privclaims.theory.numbers import Q


def random_instance(rng: np.random.Generator, n_ads: int, n_contexts: int, den: int = 8) -> AdInstance:
    """An instance with rational Pr[c|ĉ] (positive integer weights normalised) and CTRs ``i/den``."""
    w = rng.integers(1, den + 1, size=n_contexts)
    weights = [Q(int(x), int(w.sum())) for x in w]
    ctr = [[Q(int(rng.integers(0, den + 1)), den) for _ in range(n_contexts)] for _ in range(n_ads)]
    return ad_instance(weights, ctr)


def greedy_vs_optimum(rng: np.random.Generator, n: int, n_ads: int, n_contexts: int, k: int) -> list[dict[str, Any]]:
    """For ``n`` random instances: Greedy's revenue b(k), the brute-force optimum b*(k), their ratio and
    Theorem 7's bound ``1 − (1 − 1/k)^k`` (all exact rationals)."""
    bound = E.greedy_guarantee(k)
    rows = []
    for _ in range(n):
        inst = random_instance(rng, n_ads, n_contexts)
        g = E.greedy_run(inst, k).revenues[-1]
        o = E.optimum(inst, k)[1]
        rows.append({"greedy": g, "optimum": o, "ratio": (g / o) if o else Q(1), "bound": bound})
    return rows


def tight_ratios(ks: Sequence[int]) -> list[dict[str, Any]]:
    """Greedy / optimum on the tight construction for each k: equals ``1 − (1 − 1/k)^k`` exactly."""
    out = []
    for k in ks:
        inst, opt = tight_instance(k)
        g = E.greedy_run(inst, k).revenues[-1]
        o = E.expected_revenue(inst, opt)
        out.append({"k": k, "greedy": g, "optimum": o, "ratio": g / o, "bound": E.greedy_guarantee(k)})
    return out


def _pc(run: Mapping[int, Mapping[str, Any]], k: int) -> tuple[float, float]:
    p = run[k]["precision"]
    return (float("nan") if p is None else float(p)), float(run[k]["coverage"])


def plot_threshold_sweep(ax: Any, runs: Mapping[float, Mapping[int, Mapping[str, Any]]], k: int, title: str = "") -> None:
    """Figure 4.4 style: precision and coverage against the CTR threshold (``runs[threshold]`` = evaluate's result)."""
    ts = sorted(runs)
    pc = [_pc(runs[t], k) for t in ts]
    ax.plot(ts, [p for p, _ in pc], marker="o", ms=4, label="precision")
    ax.plot(ts, [c for _, c in pc], marker="s", ms=4, label="coverage")
    ax.set_xlabel("CTR threshold")
    ax.set_ylim(0, 1)
    ax.set_title(title or f"k = {k}", fontsize=9)
    ax.legend(fontsize=7)


def plot_k_sweep(ax: Any, run: Mapping[int, Mapping[str, Any]], title: str = "") -> None:
    """Figure 4.5 style: precision and coverage against the number k of ads sent."""
    ks = sorted(run)
    pc = [_pc(run, k) for k in ks]
    ax.plot(ks, [p for p, _ in pc], marker="o", ms=4, label="precision")
    ax.plot(ks, [c for _, c in pc], marker="s", ms=4, label="coverage")
    ax.set_xscale("log")
    ax.set_xlabel("k (ads sent)")
    ax.set_ylim(0, 1)
    if title:
        ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)


def plot_frontier(ax: Any, runs_by_level: Mapping[str, Mapping[float, Mapping[int, Mapping[str, Any]]]], k: int,
                  title: str = "") -> None:
    """Figure 4.6 style: one precision-coverage curve per generalisation level, over the CTR thresholds."""
    for (name, runs), mk in zip(runs_by_level.items(), "os^dv"):
        pts = [_pc(runs[t], k) for t in sorted(runs)]
        ax.plot([c for _, c in pts], [p for p, _ in pts], marker=mk, ms=4, label=name)
    ax.set_xlabel("coverage")
    ax.set_ylabel("precision")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_title(title or f"k = {k}", fontsize=9)
    ax.legend(fontsize=7)


def frequency_of_frequencies(items: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    """Figure 4.3 style: for each frequency f, the number of distinct items occurring exactly f times."""
    from collections import Counter

    ff = Counter(Counter(items).values())
    fs = np.array(sorted(ff), dtype=float)
    return fs, np.array([ff[int(f)] for f in fs], dtype=float)
