"""Exhaustive search for a violation of Proposition 8's count bound (000_211156f2009240b4.txt §5.5.3).

Instances: complete trees (branch 1..2, height 2..3), b ads bidding on every node, N users each
with m entries on the first leaf (one ad each, cycling), min_support 1..N*m; TopDown with exact
counts (Algorithm 8 literally: one Count for count_v, TWO per bidding ad - clicks and no_clicks).
A witness has more Count calls than ``(b + branch(H)) height(H) N m / min_support``; it is
re-verified by the fast twin.
"""

from __future__ import annotations

from itertools import product
from typing import Any, Iterator

from privclaims.counterexamples.harness import SearchResult, exhaustive_search
from privclaims.theory.count import fast_topdown
from privclaims.theory.count.hierarchy import Entry, complete_tree
from privclaims.theory.count.exact_topdown import estimates, proposition8_bound


def instance(branch: int, height: int, b: int, n: int, m: int, ms: int) -> tuple:
    h = complete_tree(branch, height)
    leaf = h.leaves()[0]
    ads = [f"a{i}" for i in range(b)]
    log = [Entry(u, leaf, ads[(u * m + j) % b], (u + j) % 2 == 0) for u in range(n) for j in range(m)]
    bids = {v: ads for v in h.nodes}
    return h, log, bids


def calls(branch: int, height: int, b: int, n: int, m: int, ms: int, twin: Any = estimates) -> int:
    h, log, bids = instance(branch, height, b, n, m, ms)
    return twin(log, h, ms, m, bids=bids).calls


def candidates(branches: tuple[int, ...] = (1, 2)) -> Iterator[tuple]:
    for height, branch, b, n, m in product((2, 3), branches, (1, 2, 3), range(1, 7), (1, 2)):
        for ms in range(1, n * m + 1):
            yield (branch, height, b, n, m, ms)


def violates(c: tuple) -> bool:
    branch, height, b, n, m, ms = c
    h, _, _ = instance(*c)
    return calls(*c) > proposition8_bound(h, b, n, m, ms)


def search(branches: tuple[int, ...] = (1, 2)) -> SearchResult:
    """Exhaustive search over :func:`candidates` (``branches``: the trees' fan-outs; ``(2,)`` keeps
    only hierarchies that generalise, excluding the degenerate chain)."""
    def verify(c: tuple) -> bool:
        h, _, _ = instance(*c)
        return calls(*c, twin=fast_topdown.estimates) > proposition8_bound(h, c[2], c[3], c[4], c[5])

    def describe(c: tuple) -> dict:
        branch, height, b, n, m, ms = c
        h, _, _ = instance(*c)
        return {"branch": branch, "height": height, "b": b, "N": n, "m": m, "min_support": ms,
                "count_calls": calls(*c), "bound": proposition8_bound(h, b, n, m, ms)}

    return exhaustive_search(candidates(branches), violates,
                             bound=f"complete trees branch in {list(branches)}, height <= 3, b <= 3, N <= 6, m <= 2",
                             encoding="Algorithm 8 with exact counts", verify=verify, describe=describe)


def corrected_bound(h, b: int, n: int, m: int, ms) -> object:
    """What Algorithm 8 can actually issue: the root's count, then per expanded node (at most
    N m / min_support per level) two calls per bidding ad and one per child:
    ``1 + (2 b + branch(H)) height(H) N m / min_support``."""
    from privclaims.theory.numbers import Q

    return 1 + Q(2 * b + h.branch) * h.height * n * m / Q(ms)


def corrected_bound_search(examples: int, seed: int):
    """Hypothesis search (random trees, logs, bids, min_support) for a violation of :func:`corrected_bound`."""
    from hypothesis import strategies as st

    from privclaims.counterexamples.property_search import property_search
    from privclaims.counterexamples.strategies import built_once

    @st.composite
    def inst(draw):
        h = complete_tree(draw(st.integers(1, 3)), draw(st.integers(1, 4)))
        leaves = h.leaves()
        b = draw(st.integers(1, 3))
        ads = [f"a{i}" for i in range(b)]
        n, m = draw(st.integers(1, 6)), draw(st.integers(1, 3))
        log = [Entry(u, draw(built_once(st.sampled_from, tuple(leaves))), draw(built_once(st.sampled_from, tuple(ads))), draw(st.booleans()))
               for u in range(n) for _ in range(m)]
        return h, log, b, n, m, draw(st.integers(1, 6))

    def holds(x):
        h, log, b, n, m, ms = x
        bids = {v: [f"a{i}" for i in range(b)] for v in h.nodes}
        return estimates(log, h, ms, m, bids=bids).calls <= corrected_bound(h, b, n, m, ms)

    return property_search(inst(), holds, examples=examples, seed=seed, encoding="Algorithm 8, exact counts, random instances")


if __name__ == "__main__":  # pragma: no cover
    print(search().as_json())
