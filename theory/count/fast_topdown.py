"""Float64 twin of :func:`privclaims.theory.count.exact_topdown.estimates` (same signature): the true counts are the
exact twin's integer tallies (:func:`~privclaims.theory.count.exact_topdown.true_counts`, one pass over the kept
entries' ancestor paths, only the nodes and (ad, node) pairs that occur), read as float64 (exact: integers below 2^53),
and TopDown adds the noise and compares in float64. A count within rounding of min_support is treated as not
exceeding it (conservative: fewer releases), via :func:`privclaims.theory.floats.certainly_le`."""

from __future__ import annotations

from typing import Any, Callable, Hashable, Iterable, Mapping

import numpy as np

from privclaims.theory.count.hierarchy import Entry, Hierarchy
from privclaims.theory.count.exact_topdown import EstimatesResult, Prepared, prepare, zero_noise
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
    return topdown(prepare(log, h, m, seed, bids), min_support, noise, depth_limit)


def topdown(prep: Prepared, min_support: object, noise: Callable[[Any], Any] = zero_noise,
            depth_limit: int | None = None) -> EstimatesResult:
    """TopDown in float64 on a prepared input (:func:`~privclaims.theory.count.exact_topdown.prepare`), the exact
    twin's :func:`~privclaims.theory.count.exact_topdown.topdown` signature."""
    h, bids, cnt, clk, nclk, ads = prep.hierarchy, prep.bids, prep.counts, prep.clicks, prep.no_clicks, prep.ads
    ms = float(min_support)
    res = EstimatesResult()
    stack = [(h.root, 0)]  # (node, its depth): a child is one level below its parent
    while stack:
        v, depth = stack.pop()
        c = np.float64(cnt.get(v, 0)) + float(noise(("count", v)))
        res.calls += 1
        res.counts[v] = c
        if not (certainly_le(ms, c, max(abs(ms), 1.0)) and c != ms):
            continue
        res.expanded.append(v)
        for a in sorted(bids.get(v, ()), key=repr):
            seen = a in ads  # the types released so far: 0.0 for an ad with no kept entry, else an np.float64 tally
            x = (np.float64(clk.get((a, v), 0)) if seen else 0.0) + float(noise(("clicks", a, v)))
            y = (np.float64(nclk.get((a, v), 0)) if seen else 0.0) + float(noise(("no_clicks", a, v)))
            res.calls += 2
            res.ctr[(a, v)] = None if x + y == 0 else x / (x + y)
        if depth_limit is None or depth < depth_limit:
            stack.extend((child, depth + 1) for child in reversed(h.children[v]))
    return res
