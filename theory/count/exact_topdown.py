"""Algorithms 7 (Estimates) and 8 (TopDown) of 000_211156f2009240b4.txt §5.5.3 - the exact twin.

Estimates keeps at most m entries per user (the first m of a seeded shuffle), then TopDown walks
the hierarchy from the root: ``count_v = Count(#entries below v)`` is released; if
``count_v > min_support`` then for every ad a bidding on v, ``clicks_{a,v}`` and ``no_clicks_{a,v}``
are two Count calls and ``CTR^(a|v) = clicks / (clicks + no_clicks)`` is released; then TopDown
recurses on v's children (up to ``depth_limit`` levels below the root, the experiments' limit).

``noise(key)`` returns the noise added to the count named ``key`` (``("count", v)``,
``("clicks", a, v)``, ``("no_clicks", a, v)``): :func:`zero_noise` gives the "exact counting
procedure" of Proposition 8. Exact arithmetic (:data:`privclaims.theory.numbers.Q`) throughout; the fast
twin :mod:`privclaims.theory.count.fast_topdown` has the same signature.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterable, Mapping

from privclaims.theory.count.hierarchy import Entry, Hierarchy, validate_log
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q, ZERO


@dataclass
class EstimatesResult:
    counts: dict = field(default_factory=dict)  # v -> released noisy count
    ctr: dict = field(default_factory=dict)  # (a, v) -> released CTR^ (None if clicks + no_clicks == 0)
    calls: int = 0  # number of Count invocations
    expanded: list = field(default_factory=list)  # nodes whose count exceeded min_support


def zero_noise(key: Any) -> int:
    return 0


def limit_contributions(log: Iterable[Entry], m: int, seed: int = 0) -> list[Entry]:
    """Algorithm 7's first step: keep at most m entries per user (a seeded random choice)."""
    if isinstance(m, bool) or not isinstance(m, int) or m < 1:
        raise InvalidInput(f"contribution bound m = {m!r} must be a positive integer")
    by_user: dict = defaultdict(list)
    for e in log:
        by_user[e.user].append(e)
    rng = random.Random(seed)
    out = []
    for u in sorted(by_user, key=repr):
        es = list(by_user[u])
        rng.shuffle(es)
        out.extend(es[:m])
    return out


def default_bids(log: Iterable[Entry], h: Hierarchy) -> dict:
    """Ads bidding on v: the ads with an impression below v."""
    bids: dict = defaultdict(set)
    for e in log:
        for v in h.path(e.context):
            bids[v].add(e.ad)
    return bids


def true_counts(log: Iterable[Entry], h: Hierarchy) -> tuple[dict, dict, dict]:
    """Exact ``count_v``, ``clicks_{a,v}``, ``no_clicks_{a,v}`` for every node and ad."""
    cnt: dict = defaultdict(int)
    clk: dict = defaultdict(int)
    nclk: dict = defaultdict(int)
    for e in log:
        for v in h.path(e.context):
            cnt[v] += 1
            if e.clicked:
                clk[(e.ad, v)] += 1
            else:
                nclk[(e.ad, v)] += 1
    return cnt, clk, nclk


def prepared_entries(log: Iterable[Entry], h: Hierarchy, m: int, seed: int,
                     bids: Mapping[Hashable, Iterable[Hashable]] | None) -> tuple[list[Entry], Mapping]:
    """The input step both twins share: validate the log, keep at most m entries per user
    (Algorithm 7), and default the bidders to the ads with an impression below each node."""
    entries = limit_contributions(validate_log(log, h), m, seed)
    return entries, (default_bids(entries, h) if bids is None else bids)


@dataclass(frozen=True)
class Prepared:
    """Algorithm 7's input step done once (:func:`prepare`): the kept entries (at most m per user, seeded), the
    bidders per node and the exact tallies ``count_v``, ``clicks_{a,v}``, ``no_clicks_{a,v}`` of the kept entries.
    TopDown (:func:`topdown`, and the fast twin's) reads it; runs that differ only in their noise share one."""

    hierarchy: Hierarchy
    m: int
    seed: int
    entries: tuple
    bids: Mapping
    counts: Mapping
    clicks: Mapping
    no_clicks: Mapping
    ads: frozenset  # the ads of the kept entries


def prepare(log: Iterable[Entry], h: Hierarchy, m: int, seed: int = 0,
            bids: Mapping[Hashable, Iterable[Hashable]] | None = None) -> Prepared:
    """:func:`prepared_entries` and :func:`true_counts` of the kept entries."""
    entries, bids = prepared_entries(log, h, m, seed, bids)
    cnt, clk, nclk = true_counts(entries, h)
    return Prepared(h, m, seed, tuple(entries), bids, cnt, clk, nclk, frozenset(e.ad for e in entries))


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
    """Algorithm 7 then Algorithm 8, exactly."""
    return topdown(prepare(log, h, m, seed, bids), min_support, noise, depth_limit)


def topdown(prep: Prepared, min_support: object, noise: Callable[[Any], Any] = zero_noise,
            depth_limit: int | None = None) -> EstimatesResult:
    """Algorithm 8 (TopDown), exactly, on a prepared input (:func:`prepare`)."""
    h, bids, cnt, clk, nclk = prep.hierarchy, prep.bids, prep.counts, prep.clicks, prep.no_clicks
    ms = Q(min_support)
    res = EstimatesResult()
    stack = [h.root]
    while stack:
        v = stack.pop()
        c = Q(cnt.get(v, 0)) + Q(noise(("count", v)))
        res.calls += 1
        res.counts[v] = c
        if not c > ms:
            continue
        res.expanded.append(v)
        for a in sorted(bids.get(v, ()), key=repr):
            x = Q(clk.get((a, v), 0)) + Q(noise(("clicks", a, v)))
            y = Q(nclk.get((a, v), 0)) + Q(noise(("no_clicks", a, v)))
            res.calls += 2
            res.ctr[(a, v)] = None if x + y == 0 else x / (x + y)
        if depth_limit is None or h.depth(v) < depth_limit:
            stack.extend(reversed(h.children[v]))
    return res


def proposition8_bound(h: Hierarchy, b: int, n_users: int, m: int, min_support: object) -> Any:
    """``(b + branch(H)) * height(H) * N * m / min_support`` (exact)."""
    return Q(b + h.branch) * h.height * n_users * m / Q(min_support)


def contribution_sq_norm(entries: Iterable[Entry], h: Hierarchy, depth_limit: int | None = None) -> int:
    """Squared L2 norm of the change of ALL node/click/no-click counts when one user's entries
    are deleted (counts are linear, so it is the user's own contribution vector)."""
    cnt, clk, nclk = true_counts(list(entries), h)
    keep = (lambda v: True) if depth_limit is None else (lambda v: h.depth(v) <= depth_limit)
    return sum(x * x for v, x in cnt.items() if keep(v)) + sum(
        x * x for (a, v), x in list(clk.items()) + list(nclk.items()) if keep(v)
    )


__all__ = ["EstimatesResult", "Prepared", "prepare", "topdown", "zero_noise", "limit_contributions", "default_bids", "true_counts", "estimates",
           "proposition8_bound", "contribution_sq_norm", "ZERO"]
