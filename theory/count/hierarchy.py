"""Context hierarchies and context-driven ad logs (000_211156f2009240b4.txt §5.5.2; 002 §4.4).

A hierarchy is a rooted tree over (generalised) contexts: leaves are exact contexts. Level 0 is the
root; ``height`` is the number of levels (the thesis' proof of Corollary 2 sums over levels
``l = 0 .. height(H) - 1``); ``branch`` is the largest number of children. An ad-log entry is one
impression ``(user, leaf context, ad, clicked)``.
"""

from __future__ import annotations

from collections import abc
from dataclasses import dataclass, field
from typing import Hashable, Iterable, Mapping

from privclaims.theory.errors import InvalidInput


class ReadOnlyMap(abc.Mapping):
    """A read-only mapping over a private copy of ``data`` (no item assignment, no mutating methods); it pickles and
    deep-copies like the dict it copies, unlike ``types.MappingProxyType``."""

    __slots__ = ("_data",)

    def __init__(self, data: Mapping = ()) -> None:
        object.__setattr__(self, "_data", dict(data))

    def __getitem__(self, key: Hashable) -> object:
        return self._data[key]

    def __contains__(self, key: object) -> bool:  # the dict's own test (abc.Mapping's goes through a raised KeyError)
        return key in self._data

    def get(self, key: Hashable, default: object = None) -> object:  # the dict's own lookup, as above
        return self._data.get(key, default)

    def __iter__(self):
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"ReadOnlyMap({self._data!r})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a ReadOnlyMap cannot be changed")

    def __reduce__(self):
        return (ReadOnlyMap, (self._data,))


@dataclass(frozen=True)
class Entry:
    user: Hashable
    context: Hashable
    ad: Hashable
    clicked: bool


@dataclass(frozen=True)
class Hierarchy:
    """``parent[node]`` for every non-root node; the root is the only node without a parent. Read-only once built:
    ``parent`` is kept as a private copy and ``children[node]`` is a tuple (sorted by repr), so a tree a run has
    checked cannot change under it."""

    parent: Mapping[Hashable, Hashable]
    root: Hashable
    children: Mapping = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "parent", ReadOnlyMap(self.parent))
        children: dict = {self.root: []}
        for node, par in self.parent.items():
            if node == self.root:
                raise InvalidInput(f"the root {self.root!r} cannot have a parent")
            children.setdefault(par, []).append(node)
            children.setdefault(node, [])
        for node in self.parent:  # every node must reach the root without a cycle
            seen, cur = set(), node
            while cur != self.root:
                if cur in seen or cur not in self.parent:
                    raise InvalidInput(f"node {node!r} does not reach the root {self.root!r} (cycle or dangling parent {cur!r})")
                seen.add(cur)
                cur = self.parent[cur]
        object.__setattr__(self, "children", ReadOnlyMap({k: tuple(sorted(c, key=repr)) for k, c in children.items()}))

    def path(self, node: Hashable) -> list:
        """Nodes from the root down to ``node``."""
        if node != self.root and node not in self.parent:
            raise InvalidInput(f"unknown context {node!r}")
        out = [node]
        while out[-1] != self.root:
            out.append(self.parent[out[-1]])
        return out[::-1]

    def depth(self, node: Hashable) -> int:
        return len(self.path(node)) - 1

    @property
    def nodes(self) -> list:
        return list(self.children)

    @property
    def height(self) -> int:
        return 1 + max(self.depth(n) for n in self.nodes)

    @property
    def branch(self) -> int:
        return max(len(c) for c in self.children.values())

    def leaves(self) -> list:
        return [n for n, c in self.children.items() if not c]


def complete_tree(branch: int, height: int) -> Hierarchy:
    """The complete ``branch``-ary tree with ``height`` levels (nodes are tuples of child indices)."""
    parent = {}
    frontier = [()]
    for _ in range(height - 1):
        nxt = []
        for node in frontier:
            for i in range(branch):
                parent[node + (i,)] = node
                nxt.append(node + (i,))
        frontier = nxt
    return Hierarchy(parent, ())


def validate_log(log: Iterable[Entry], h: Hierarchy) -> list[Entry]:
    """The log as a list, each entry an :class:`Entry` at a node of ``h`` with a bool click flag; else
    :class:`~privclaims.theory.errors.InvalidInput` naming the first bad entry and its rule (read lazily: a source
    is not read past its first bad entry)."""
    out = []
    for i, e in enumerate(log):
        if not isinstance(e, Entry):
            raise InvalidInput(f"log[{i}] = {e!r} is not an Entry")
        if e.context not in h.children:
            raise InvalidInput(f"log[{i}]: unknown context {e.context!r}")
        if type(e.clicked) is not bool:  # a count of clicks adds 1 for True; 1, [1] or "no" is not a click flag
            raise InvalidInput(f"log[{i}].clicked = {e.clicked!r} must be True or False")
        out.append(e)
    if not out:
        raise InvalidInput("empty ad log")
    return out
