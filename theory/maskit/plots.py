"""Tables and matplotlib drawings for the MaskIt notebook (notebooks/01_maskit.ipynb).

Nothing here computes a result: the functions lay out what the checks (``checks/claims/maskit``) and
the experiments (:mod:`privclaims.theory.maskit.experiment`) computed, in the style of the figures of
000_211156f2009240b4.txt §3.7 (Figures 3.5-3.9; the figures themselves are missing from the text,
so only their axes and the numbers the prose quotes are known).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping, Sequence

import pandas as pd

CHECKS = (
    ("mask_sensitive_utility", "MaskSensitive"),
    ("probabilistic_utility", "probabilistic"),
    ("simulatable_utility", "simulatable"),
    ("hybrid_utility", "hybrid"),
)


def as_float(v: Any) -> float:
    """A number as evidence carries it (float, int, rational, or the JSON string "p/q") as a float."""
    return float(Fraction(str(v))) if isinstance(v, str) else float(v)


def paper_vs_ours(values: Mapping[str, Mapping[str, Any]]) -> pd.DataFrame:
    """One row per stated number: ``{"name": {"paper": p, "computed": c}}`` (the ``values`` evidence
    of :func:`privclaims.checks.verdict.compare_all`) -> columns quantity / paper / ours / equal."""
    rows = [{"quantity": k, "paper": v["paper"], "ours": v["computed"], "equal": v["paper"] == v["computed"]}
            for k, v in values.items()]
    return pd.DataFrame(rows, columns=["quantity", "paper", "ours", "equal"])


def utility_bars(ax: Any, summaries: Mapping[str, Mapping[str, float]], paper: Mapping[str, float] | None = None) -> Any:
    """Figure 3.5 style: for each data set (a key of ``summaries``, values from
    :func:`privclaims.theory.maskit.experiment.summary`) one bar per check (fraction of released states);
    ``paper`` adds the thesis' numbers as a hatched group."""
    groups = dict(summaries)
    if paper:
        groups = {"paper (Reality Mining)": paper, **groups}
    width = 0.8 / len(CHECKS)
    for j, (key, label) in enumerate(CHECKS):
        xs = [g + (j - (len(CHECKS) - 1) / 2) * width for g in range(len(groups))]
        ys = [as_float(s.get(key, float("nan"))) for s in groups.values()]
        ax.bar(xs, ys, width, label=label)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(list(groups))
    ax.set_ylabel("fraction of released states")
    ax.set_ylim(0, 1)
    ax.legend(fontsize="small")
    return ax


def per_user_utilities(ax: Any, rows: Sequence[Mapping[str, Any]]) -> Any:
    """Figure 3.6 style: per user, the released fraction of the probabilistic and the simulatable
    check (users sorted by the difference), and the hybrid's pick as a marker."""
    rows = sorted((r for r in rows if "skipped" not in r), key=lambda r: r["simulatable_utility"] - r["probabilistic_utility"])
    xs = range(len(rows))
    ax.plot(xs, [r["probabilistic_utility"] for r in rows], "o-", label="probabilistic")
    ax.plot(xs, [r["simulatable_utility"] for r in rows], "s-", label="simulatable")
    ax.plot(xs, [r["hybrid_utility"] for r in rows], "k+", markersize=12, label="hybrid (pick)")
    ax.set_xlabel("user (sorted by simulatable - probabilistic)")
    ax.set_ylabel("fraction of released states")
    ax.legend(fontsize="small")
    return ax


def tradeoff_lines(ax: Any, rows: Sequence[Mapping[str, Any]], x: str, *, label: str = "", keys: Sequence[str] | None = None,
                   style: str = "o-") -> Any:
    """Figures 3.7-3.9 style: utility of each check against ``x`` (δ, or the number of sensitive
    contexts); ``rows`` as in the evidence of maskit.fig3_7 / fig3_8 / fig3_9."""
    names = dict(CHECKS)
    keys = keys or [k for k, _ in CHECKS if rows and k in rows[0]]
    xs = [as_float(r[x]) for r in rows]
    for k in keys:
        ax.plot(xs, [as_float(r[k]) for r in rows], style, label=f"{label}{names[k]}")
    ax.set_xlabel(x)
    ax.set_ylabel("fraction of released states")
    ax.legend(fontsize="small")
    return ax
