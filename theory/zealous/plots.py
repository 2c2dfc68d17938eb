"""Tabulating and plotting helpers for the ZEALOUS notebook (``notebooks/04_zealous.ipynb``).

Presentation only: every number comes from :mod:`privclaims.theory.zealous.experiments` /
:mod:`privclaims.theory.zealous.parameters`; these functions shape it into the form of the thesis's tables and
figures (000_211156f2009240b4.txt §6.6-6.7): Figure 6.4's count distributions on log-log axes,
Table 6.3's released items against m, Figure 6.5's average difference against eps and k.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Hashable, Mapping, Sequence

import numpy as np


def count_distribution(hist: Mapping[Hashable, float]) -> tuple[np.ndarray, np.ndarray]:
    """Figure 6.4's curve: for every count c >= 1 present in ``hist`` (noisy counts rounded to the
    nearest integer), the number of items with that count; both arrays sorted by c."""
    cc = Counter(int(round(v)) for v in hist.values() if v >= 1)
    cs = np.array(sorted(cc), dtype=float)
    return cs, np.array([cc[int(c)] for c in cs], dtype=float)


def plot_count_distributions(ax: Any, hists: Mapping[str, Mapping[Hashable, float]], title: str = "") -> None:
    """One log-log curve per named histogram (empty histograms are listed in the legend as 'none')."""
    for name, h in hists.items():
        cs, ns = count_distribution(h)
        if len(cs):
            ax.loglog(cs, ns, marker=".", ls="", ms=3, label=f"{name} ({len(h)} items)")
        else:
            ax.plot([], [], label=f"{name} (none released)")
    ax.set_xlabel("count")
    ax.set_ylabel("number of items")
    if title:
        ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)


def plot_series(ax: Any, x: Sequence[float], series: Mapping[str, Sequence[float]], *, xlabel: str, ylabel: str,
                title: str = "", logy: bool = False) -> None:
    """Lines ``series[name]`` against ``x`` (Table 6.3 against m, Figure 6.5 against eps or k).
    With ``logy``, zeros are drawn at the axis floor rather than dropped (an empty release stays visible)."""
    for (name, ys), mk in zip(series.items(), "os^dv<>px"):
        ys = np.asarray(ys, dtype=float)
        if logy:
            ys = np.where(ys > 0, ys, 0.5)
        ax.plot(list(x), ys, marker=mk, ms=4, label=name)
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)
