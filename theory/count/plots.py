"""Tables and matplotlib drawings for the count notebook (notebooks/03_count.ipynb).

They lay out what the twins compute, in the style of 000_211156f2009240b4.txt §5.6 (Figure 5.2:
precision against coverage of the CTR estimates; Figure 5.3: the cost of churn) and of Theorem 1
(§2.2.1). The exact numbers come from the checks (dp.thm1's grid),
:mod:`privclaims.theory.count.exact_churn` and :mod:`privclaims.theory.count.views`; float curves from the fast twins.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from privclaims.theory.count import exact_churn as ec
from privclaims.theory.count import fast_churn as fc
from privclaims.theory.count import fast_privacy as fa
from privclaims.theory.numbers import Q


def breach_curves(ax: Any, deltas: Sequence[str], eps: np.ndarray) -> Any:
    """B(ε, δ)/δ against ε (fast twin) at Theorem 1's least variance; the theorem holds below 1."""
    for d in deltas:
        ax.plot(eps, fa.theorem1_breach(eps, np.full_like(eps, float(Q(d)))) / float(Q(d)), label=f"δ = {d}")
    ax.axhline(1.0, color="k", lw=0.8, ls="--")
    ax.axvline(1.0, color="grey", lw=0.8, ls=":")
    ax.set_yscale("log")
    ax.set_xlabel("ε")
    ax.set_ylabel("breach probability / δ")
    ax.legend(fontsize="small")
    return ax


def law_table(real: Mapping[Any, Any], simulated: Mapping[Any, Any], top: int = 8) -> pd.DataFrame:
    """The ``top`` most likely views of two exact view laws side by side (rationals as "p/q")."""
    keys = sorted(set(real) | set(simulated), key=lambda k: (-max(real.get(k, 0), simulated.get(k, 0)), repr(k)))
    rows = [{"view": repr(k), "Pr[real view]": str(real.get(k, 0)), "Pr[simulator]": str(simulated.get(k, 0)),
             "equal": real.get(k, 0) == simulated.get(k, 0)} for k in keys[:top]]
    return pd.DataFrame(rows)


def precision_coverage(ax: Any, curves: Mapping[str, Sequence[tuple[float, float, float]]]) -> Any:
    """Figure 5.2 style: precision against coverage, one line per setting (points over the CTR
    threshold θ, from :func:`privclaims.theory.count.aol.precision_coverage`)."""
    for label, curve in curves.items():
        pts = [(c, p) for _, p, c in curve if p == p]
        ax.plot([c for c, _ in pts], [p for _, p in pts], "o-", markersize=3, label=label)
    ax.axhline(0.6, color="grey", lw=0.8, ls=":")
    ax.set_xlabel("coverage")
    ax.set_ylabel("precision")
    ax.legend(fontsize="small")
    return ax


def churn_table(ns: Sequence[int], ps: Sequence[str], t: object = Q(1, 4), queries: int = 1000,
                rng: np.random.Generator | None = None) -> pd.DataFrame:
    """Figure 5.3's model: expected phases per query (exact) and a simulated average (fast twin) for
    the SHI- and RASTOGI-style protocols and Count (upper end of its enclosure) over N x p."""
    rng = rng or np.random.default_rng(0)
    rows = []
    for n in ns:
        for p in ps:
            pf = float(Q(p))
            for proto in ec.AGGREGATION_PHASES:
                rows.append({"protocol": proto, "N": n, "p": p, "exact": float(ec.setup_protocol_phases(proto, n, p)),
                             "simulated": fc.setup_protocol_phases(proto, n, pf, queries, rng)})
            rows.append({"protocol": "Count", "N": n, "p": p, "exact": float(ec.count_phases(n, p, t)[1]),
                         "simulated": fc.count_phases(n, pf, float(Q(t)), queries, rng)})
    return pd.DataFrame(rows)


def churn_curves(ax: Any, table: pd.DataFrame, n: int) -> Any:
    """Expected phases per query against p at fixed N (log-log): exact lines, simulated markers."""
    sub = table[table["N"] == n]
    for proto, g in sub.groupby("protocol", sort=False):
        ps = [float(Q(p)) for p in g["p"]]
        line, = ax.plot(ps, g["exact"], "-", label=f"{proto} (exact)")
        ax.plot(ps, g["simulated"], "x", color=line.get_color())
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("p (unavailability per phase)")
    ax.set_ylabel("phases per query")
    ax.set_title(f"N = {n}")
    ax.legend(fontsize="small")
    return ax


def average_curves(curves: Sequence[Sequence[tuple[float, float, float]]]) -> list[tuple[float, float, float]]:
    """Mean precision and coverage per threshold θ over several noise seeds (precision averaged over
    the seeds where it is defined, i.e. something is covered)."""
    out = []
    for pts in zip(*curves):
        th = pts[0][0]
        precs = [p for _, p, _ in pts if p == p]
        out.append((th, float(np.mean(precs)) if precs else float("nan"), float(np.mean([c for _, _, c in pts]))))
    return out
