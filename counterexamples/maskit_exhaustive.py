"""Bounded exhaustive searches over MaskIt instances (a proof up to the stated bound).

Template: contexts {a, b} (n = 2), T <= T_max, every transition row uniform over a non-empty
subset of the contexts (the figures' convention), every non-empty sensitive set S, suppression
probabilities on a grid. The counterexample predicate is evaluated with the exact twin, so a
reported witness needs no further confirmation beyond re-running it (done by ``verify``).
"""

from __future__ import annotations

from itertools import combinations, product
from typing import Any, Callable, Iterator

from privclaims.counterexamples.harness import SearchResult, exhaustive_search
from privclaims.theory.maskit.model import MarkovChain, markov_chain
from privclaims.theory.maskit.search import coordinates, vector_from
from privclaims.theory.numbers import ZERO, Q

LABELS = ("a", "b")


def _rows(n: int) -> list[list[Any]]:
    out = []
    for k in range(1, n + 1):
        for sub in combinations(range(n), k):
            out.append([Q(1, k) if j in sub else ZERO for j in range(n)])
    return out


def template_chains(T_max: int, n: int = 2) -> Iterator[MarkovChain]:
    rows = _rows(n)
    labels = [f"c{i}" for i in range(n)] if n != 2 else list(LABELS)
    for T in range(1, T_max + 1):
        for init in rows:
            for mats in product(rows, repeat=n * (T - 1)):
                yield markov_chain(labels, init, [list(mats[n * k: n * k + n]) for k in range(T - 1)])


def sensitive_sets(ch: MarkovChain) -> list[list[str]]:
    return [list(c) for k in range(1, ch.n + 1) for c in combinations(ch.contexts, k)]


def grid_vectors(ch: MarkovChain, values: list[Any]) -> Iterator[tuple[tuple, list[list[Any]]]]:
    coords = coordinates(ch)
    for vals in product(values, repeat=len(coords)):
        yield vals, vector_from(ch, coords, vals)


def bounded(candidates: Iterator[Any], is_counterexample: Callable[[Any], bool], bound: str, encoding: str,
            describe: Callable[[Any], Any] = lambda w: w, time_limit: float | None = None) -> SearchResult:
    return exhaustive_search(candidates, is_counterexample, verify=is_counterexample, describe=describe,
                             bound=bound, encoding=encoding, time_limit=time_limit)


def describe_instance(c: tuple) -> dict:
    ch = c[0]
    return {"contexts": list(ch.contexts), "initial": list(ch.initial), "steps": [[list(r) for r in m] for m in ch.steps],
            "rest": [x for x in c[1:]]}


def vector_instances(T_max: int, values: list[Any], n: int = 2) -> Iterator[tuple]:
    """(chain, S, p) over the template."""
    for ch in template_chains(T_max, n):
        for S in sensitive_sets(ch):
            for _, p in grid_vectors(ch, values):
                yield ch, S, p


def dominated_pairs(T_max: int, values: list[Any], n: int = 2) -> Iterator[tuple]:
    """(chain, S, p, q) with p ⪯ q over the template."""
    for ch in template_chains(T_max, n):
        vecs = list(grid_vectors(ch, values))
        for S in sensitive_sets(ch):
            for va, p in vecs:
                for vb, q in vecs:
                    if all(x <= y for x, y in zip(va, vb)):
                        yield ch, S, p, q


def delta_instances(T_max: int, deltas: list[Any], n: int = 2) -> Iterator[tuple]:
    for ch in template_chains(T_max, n):
        for S in sensitive_sets(ch):
            for d in deltas:
                yield ch, S, d
