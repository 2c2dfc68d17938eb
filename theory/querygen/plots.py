"""Figures of ``004_66621c1b9afebedf.txt`` §5 drawn from :mod:`privclaims.theory.querygen.experiments` results.

* :func:`fig2_figure` - Fig. 2: mean traffic overhead against ``G_min`` per target attribute, the four
  strategies and the original query (dashed, the lower bound);
* :func:`fig3_figure` - Fig. 3: (a) histogram of the target's values, (b) scatter of ``G(Q, a)`` against
  the traffic overhead of random queries, with the Pearson coefficient in the title.

Both return a matplotlib ``Figure`` (shown inline in a notebook); :func:`plot_fig2` writes Fig. 2 to a PNG.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from privclaims.theory.querygen import exact, experiments
from privclaims.theory.querygen.model import STRATEGIES, AuxTable


def fig2_figure(results: dict[str, Any], title: str = "") -> Any:
    """Fig. 2 style: one panel per target of ``experiments.run``'s results."""
    import matplotlib.pyplot as plt

    names = list(results)
    cols = 3
    rows = math.ceil(len(names) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.3 * rows), squeeze=False)
    for ax, name in zip(axes.ravel(), names):
        r = results[name]
        x = [float(g) for g in r["levels"]]
        for s, mk in zip(STRATEGIES, "os^d"):
            ax.plot(x, r["traffic"][s], marker=mk, ms=3, label=s.replace("_", "-"))
        ax.axhline(r["original"], ls="--", color="k", lw=1, label="original")
        ax.set_title(f"a = [{name}]", fontsize=9)
        ax.set_xlabel("G_min")
        ax.set_ylabel("mean traffic (tuples)")
    for ax in axes.ravel()[len(names):]:
        ax.axis("off")
    axes.ravel()[0].legend(fontsize=7)
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def plot_fig2(results: dict[str, Any], path: str, title: str = "") -> None:
    """Fig. 2 style (see :func:`fig2_figure`), written to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = fig2_figure(results, title)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def target_histogram(table: AuxTable, target: int) -> tuple[list[Any], list[int]]:
    """Fig. 3(a): the target's values in domain order and how many tuples hold each."""
    counts = exact.value_counts(table, range(table.n_rows), target)
    values = [v for v in table.domains[target] if counts.get(v, 0) > 0]
    return values, [counts[v] for v in values]


def fig3_figure(table: AuxTable, target: int, queries: Sequence[tuple]) -> Any:
    """Fig. 3 style: (a) the target's histogram, (b) G(Q, target) against traffic for the queries."""
    import matplotlib.pyplot as plt

    values, counts = target_histogram(table, target)
    xs, ys = experiments.guess_traffic_pairs(table, target, queries)
    r = float(np.corrcoef(xs, ys)[0, 1]) if len(xs) > 1 else float("nan")
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 3.4))
    a.bar(range(len(values)), counts, width=1.0)
    step = max(1, len(values) // 8)
    a.set_xticks(range(0, len(values), step), [str(v) for v in values[::step]], fontsize=7)
    a.set_xlabel(table.attributes[target])
    a.set_ylabel("tuples")
    a.set_title(f"(a) histogram of [{table.attributes[target]}]", fontsize=9)
    b.scatter(xs, ys, s=4, alpha=0.4)
    b.set_xlabel(f"guessing entropy G(Q, [{table.attributes[target]}])")
    b.set_ylabel("traffic overhead (tuples)")
    b.set_title(f"(b) {len(xs)} queries, Pearson r = {r:.3f}", fontsize=9)
    fig.tight_layout()
    return fig
