"""Float64 twin of :func:`privclaims.theory.count.exact_topdown.estimates` (same signature): counts are tallied once
with numpy (``np.add.at`` over the entries' ancestor paths) and TopDown compares in float64.
A count within rounding of min_support is treated as not exceeding it (conservative: fewer
releases), via :func:`privclaims.theory.floats.certainly_le`."""

from __future__ import annotations

from typing import Any, Callable, Hashable, Iterable, Mapping

import numpy as np

from privclaims.theory.count.hierarchy import Entry, Hierarchy
from privclaims.theory.count.exact_topdown import EstimatesResult, prepared_entries, zero_noise
from privclaims.theory.floats import certainly_le


def estimates(
    log: Iterable[Entry],
    h: Hierarchy,
    min_support: object,
    m: int,
    noise: Callable[[Any], Any] = zero_noise,
    depth_limit: int | None = None,
    bids: Mapping[Hashable, Iterable[Hashable]] | None = None,
    seed: int = 0,
) -> EstimatesResult:
    entries, bids = prepared_entries(log, h, m, seed, bids)
    node_ix = {v: i for i, v in enumerate(h.nodes)}
    ads = sorted({e.ad for e in entries}, key=repr)
    ad_ix = {a: i for i, a in enumerate(ads)}
    rows, ad_col, clicked = [], [], []
    for e in entries:
        for v in h.path(e.context):
            rows.append(node_ix[v])
            ad_col.append(ad_ix[e.ad])
            clicked.append(e.clicked)
    rows_a, ad_a, clk_a = np.array(rows, int), np.array(ad_col, int), np.array(clicked, bool)
    cnt = np.bincount(rows_a, minlength=len(node_ix)).astype(float)
    clk = np.zeros((len(node_ix), max(1, len(ads))))
    nclk = np.zeros_like(clk)
    np.add.at(clk, (rows_a[clk_a], ad_a[clk_a]), 1.0)
    np.add.at(nclk, (rows_a[~clk_a], ad_a[~clk_a]), 1.0)
    ms = float(min_support)
    res = EstimatesResult()
    stack = [h.root]
    while stack:
        v = stack.pop()
        c = cnt[node_ix[v]] + float(noise(("count", v)))
        res.calls += 1
        res.counts[v] = c
        if not (certainly_le(ms, c, max(abs(ms), 1.0)) and c != ms):
            continue
        res.expanded.append(v)
        for a in sorted(bids.get(v, ()), key=repr):
            j = ad_ix.get(a)
            x = (clk[node_ix[v], j] if j is not None else 0.0) + float(noise(("clicks", a, v)))
            y = (nclk[node_ix[v], j] if j is not None else 0.0) + float(noise(("no_clicks", a, v)))
            res.calls += 2
            res.ctr[(a, v)] = None if x + y == 0 else x / (x + y)
        if depth_limit is None or h.depth(v) < depth_limit:
            stack.extend(reversed(h.children[v]))
    return res
