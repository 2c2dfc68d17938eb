"""Generalisation in the experiments (000_211156f2009240b4.txt §4.4.1; 002_9d55ef468949585c.txt §5.1)
and the privacy cut of 002 §2.1.

* Location ``Level-i`` (i = 0..5) keeps all, 4, 3, 2, 1, 0 decimal points of latitude and longitude
  (truncation toward zero of the decimal string, exact).
* The context hierarchy generalises one attribute at a time along :data:`PAPER_SEQUENCE`.
* A *cut* (002 §2.1): a set of hierarchy nodes such that every leaf has exactly one ancestor (or
  itself) on it; each cut node must have at least ``min_descendants`` leaves below it and a ratio
  ``#non-sensitive / #sensitive`` leaves of at least ``min_ratio`` (no sensitive leaf: ratio ∞).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any, Hashable, Iterable, Mapping, Sequence

from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q, as_rational

#: Location decimals kept at Level-0..5 (None = all).
LOCATION_DECIMALS: tuple[int | None, ...] = (None, 4, 3, 2, 1, 0)

#: (location, interest, query) levels, most specific first (§4.4.1 "Context Hierarchy").
PAPER_SEQUENCE: tuple[tuple[int, int, int], ...] = (
    (0, 0, 0), (0, 0, 1), (0, 1, 1), (1, 1, 1), (1, 2, 1), (2, 2, 1), (3, 2, 1), (3, 2, 2), (4, 2, 2),
)
#: Highest level per attribute (location 0..5, interest 0..2, query 0..2).
MAX_LEVELS = (5, 2, 2)


def truncate_decimal(x: str, keep: int | None) -> str:
    """Keep ``keep`` decimal points of the decimal string ``x`` (truncating toward zero)."""
    try:
        d = Decimal(x.strip())
    except (InvalidOperation, AttributeError):
        raise InvalidInput(f"cannot read the coordinate {x!r} as a decimal") from None
    if not d.is_finite():
        raise InvalidInput(f"coordinate {x!r} is not a finite decimal")
    if keep is None:
        return x.strip()
    if isinstance(keep, bool) or not isinstance(keep, int) or keep < 0:
        raise InvalidInput(f"decimals to keep = {keep!r} must be a non-negative integer")
    q = Decimal(1).scaleb(-keep)
    try:
        t = d.quantize(q, rounding="ROUND_DOWN")
    except InvalidOperation:
        raise InvalidInput(f"coordinate {x!r} is too large to truncate to {keep} decimals") from None
    return f"{t:.{keep}f}"


def generalize_location(lat: str, lon: str, level: int) -> tuple[str, str]:
    """Level-``level`` location of a (lat, lon) given as decimal strings."""
    if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= 5:
        raise InvalidInput(f"location level = {level!r} must be an integer in 0..5")
    keep = LOCATION_DECIMALS[level]
    return truncate_decimal(lat, keep), truncate_decimal(lon, keep)


def one_attribute_steps(seq: Sequence[tuple[int, ...]], max_levels: Sequence[int] = MAX_LEVELS) -> list[dict[str, Any]]:
    """For each step of a level sequence: which attribute changed and by how much; raises on a
    level outside its range."""
    out = []
    for x in seq:
        for i, (v, mx) in enumerate(zip(x, max_levels)):
            if not 0 <= v <= mx:
                raise InvalidInput(f"level {x}: attribute {i} level {v} outside 0..{mx}")
    for a, b in zip(seq, seq[1:]):
        diff = [j - i for i, j in zip(a, b)]
        out.append({"from": a, "to": b, "changed": [i for i, d in enumerate(diff) if d != 0], "delta": diff})
    return out


def is_one_attribute_at_a_time(seq: Sequence[tuple[int, ...]]) -> bool:
    """Every step raises exactly one attribute by exactly one level."""
    return all(len(s["changed"]) == 1 and sum(s["delta"]) == 1 for s in one_attribute_steps(seq))


# --------------------------------------------------------------------------- the cut of 002 §2.1


def leaf_sets(parent: Mapping[Hashable, Hashable | None]) -> dict[Hashable, set]:
    """Per node of the hierarchy given by ``parent`` (node → its parent, None at a root), the set of leaves below
    it (a leaf's own set is itself); a parent that is not a node is bad input."""
    children: dict[Hashable, list] = {v: [] for v in parent}
    for v, p in parent.items():
        if p is not None:
            if p not in parent:
                raise InvalidInput(f"parent {p!r} of {v!r} is not a node")
            children[p].append(v)
    leaves = {v for v in parent if not children[v]}
    out: dict[Hashable, set] = {v: set() for v in parent}
    for leaf in leaves:
        x, seen = leaf, set()
        while x is not None:
            if x in seen:
                raise InvalidInput(f"the hierarchy has a cycle through {x!r}")
            seen.add(x)
            out[x].add(leaf)
            x = parent[x]
    return out


def node_meets(leaves_below: set, sensitive: set, min_descendants: int, min_ratio: Any) -> bool:
    """(1) at least ``min_descendants`` leaves below and (2) non-sensitive/sensitive >= min_ratio."""
    s = len(leaves_below & sensitive)
    ns = len(leaves_below) - s
    if len(leaves_below) < min_descendants:
        return False
    return s == 0 or Q(ns, s) >= min_ratio


def is_valid_cut(parent: Mapping[Hashable, Hashable | None], cut: Iterable[Hashable], sensitive: Iterable[Hashable],
                 min_descendants: int, min_ratio: object) -> bool:
    """Every leaf has exactly one ancestor-or-self on the cut, and every cut node meets (1) and (2)."""
    below = leaf_sets(parent)
    cut = list(cut)
    sens = set(sensitive)
    r = as_rational(min_ratio, "min_ratio")
    leaves = below[[v for v, p in parent.items() if p is None][0]]
    cover = [sum(1 for v in cut if leaf in below[v]) for leaf in leaves]
    return all(c == 1 for c in cover) and all(node_meets(below[v], sens, min_descendants, r) for v in cut)


def choose_cut(parent: Mapping[Hashable, Hashable | None], sensitive: Iterable[Hashable],
               min_descendants: int, min_ratio: object) -> list[Hashable] | None:
    """The cut of 002 §2.1, as fine as possible: start from the root and replace a cut node by its
    children whenever all of them meet the requirement. None if even the root fails."""
    below = leaf_sets(parent)
    sens = set(sensitive)
    r = as_rational(min_ratio, "min_ratio")
    if isinstance(min_descendants, bool) or not isinstance(min_descendants, int) or min_descendants < 1:
        raise InvalidInput(f"min_descendants = {min_descendants!r} must be a positive integer")
    for s in sens:
        if s not in parent:
            raise InvalidInput(f"unknown sensitive context {s!r}")
    children: dict[Hashable, list] = {v: [] for v in parent}
    for v, p in parent.items():
        if p is not None:
            children[p].append(v)
    root = [v for v, p in parent.items() if p is None]
    if len(root) != 1:
        raise InvalidInput(f"a hierarchy needs exactly one root, found {root}")
    if not node_meets(below[root[0]], sens, min_descendants, r):
        return None
    cut, stack = [], [root[0]]
    while stack:
        v = stack.pop()
        kids = children[v]
        if kids and all(node_meets(below[c], sens, min_descendants, r) for c in kids):
            stack.extend(kids)
        else:
            cut.append(v)
    return sorted(cut, key=repr)


def generalize_to_cut(parent: Mapping[Hashable, Hashable | None], cut: Iterable[Hashable], leaf: Hashable) -> Hashable:
    """The unique ancestor-or-self of ``leaf`` on the cut."""
    cut = set(cut)
    x = leaf
    if x not in parent:
        raise InvalidInput(f"unknown context {leaf!r}")
    found = []
    while x is not None:
        if x in cut:
            found.append(x)
        x = parent[x]
    if len(found) != 1:
        raise InvalidInput(f"context {leaf!r} has {len(found)} ancestors on the cut")
    return found[0]
