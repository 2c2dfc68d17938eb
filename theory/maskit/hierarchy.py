"""Generalisation along a cut of a context hierarchy (000_211156f2009240b4.txt §2.2.2, Theorem 2).

A hierarchy is a rooted tree whose leaves are the n contexts. A *cut* is a set of nodes such that
every leaf has exactly one ancestor-or-self on the cut. Generalising a context to its ancestor on
the cut is a deterministic one-step system; with the uniform prior 1/n (the theorem's adversary
knows the system and nothing else), Definition 6 is checked literally with
:mod:`privclaims.theory.dp.delta_privacy`.
"""

from __future__ import annotations

from typing import Hashable, Iterable, Mapping, Sequence

from privclaims.theory.dp.delta_privacy import FiniteSystem, finite_system, max_breach
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import ONE, Q


def leaves_below(tree: Mapping[Hashable, Sequence[Hashable]], node: Hashable) -> list[Hashable]:
    kids = tree.get(node, ())
    if not kids:
        return [node]
    out: list[Hashable] = []
    for k in kids:
        out.extend(leaves_below(tree, k))
    return out


def cut_map(tree: Mapping[Hashable, Sequence[Hashable]], root: Hashable, cut: Iterable[Hashable]) -> dict:
    """leaf -> its unique ancestor-or-self on the cut (InvalidInput if the cut is not a cut)."""
    cut = list(cut)
    m: dict = {}
    for c in cut:
        for leaf in leaves_below(tree, c):
            if leaf in m:
                raise InvalidInput(f"leaf {leaf!r} lies below two cut nodes {m[leaf]!r} and {c!r}")
            m[leaf] = c
    missing = [leaf for leaf in leaves_below(tree, root) if leaf not in m]
    if missing:
        raise InvalidInput(f"leaves {missing!r} have no ancestor on the cut")
    return m


def generalisation_system(tree: Mapping[Hashable, Sequence[Hashable]], root: Hashable, cut: Iterable[Hashable]) -> FiniteSystem:
    """Uniform prior over leaves, output = cut ancestor (T = 1)."""
    m = cut_map(tree, root, cut)
    n = len(m)
    return finite_system({(leaf,): Q(1, n) for leaf in m}, {(leaf,): {m[leaf]: ONE} for leaf in m})


def theorem2_bound(tree: Mapping[Hashable, Sequence[Hashable]], root: Hashable, cut: Iterable[Hashable], S: Iterable[Hashable]):
    """(ℓ, 1/ℓ - 1/n): ℓ the fewest leaves below a cut node that has a sensitive leaf below it."""
    m = cut_map(tree, root, cut)
    S = set(S)
    if not S or not S <= set(m):
        raise InvalidInput(f"sensitive contexts {sorted(S, key=repr)!r} must be a non-empty set of leaves")
    ell = min(len(leaves_below(tree, c)) for c in set(m.values()) if set(leaves_below(tree, c)) & S)
    return ell, Q(1, ell) - Q(1, len(m))


def generalisation_breach(tree, root, cut, S):
    return max_breach(generalisation_system(tree, root, cut), S)
