"""Bounded searches for the query generalizer (``004_66621c1b9afebedf.txt`` §4, §6, §7).

* :func:`search_nonmonotone` — exhaustive: a table and a query ``Q`` whose generalisation ``Q̂``
  (a value replaced by ``*``) has a *smaller* guessing entropy, ``G(Q̂, a) < G(Q, a)``. The
  strategies' stopping rule ("remove values until ``G ≥ G_min``") presumes the opposite.
* :func:`search_greedy_miss` — hypothesis as a bounded search: an instance where a greedy strategy
  (Best-/Worst-/Random-Fit) ends at the all-``*`` query unsatisfied although Brute-Force finds a
  generalisation with ``G ≥ G_min``.
* :func:`search_uniform_traffic` — exhaustive: two generalisations of one query, both with a
  *uniform* target distribution among their matches, the one with the larger ``G`` having the
  smaller traffic (against "under a uniform distribution traffic grows with guessing entropy").
* :func:`z3_guessing_bound` — z3: no sorted distribution on ``n`` values has ``Σ p_i·i > (n+1)/2``.

Every witness is re-verified with the exact twin (:mod:`privclaims.theory.querygen.exact`).
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any, Iterator

import z3
from hypothesis import strategies as st

from privclaims.counterexamples.harness import SearchResult, exhaustive_search, z3_search
from privclaims.counterexamples.property_search import VACUOUS, property_search
from privclaims.theory.numbers import Q
from privclaims.theory.querygen import exact, fast
from privclaims.counterexamples.querygen_strategies import instances
from privclaims.theory.querygen.model import STAR, PrivacyRequirement, make_query, make_table, remove


def bounded_compositions(total: int, parts: int, cap: int) -> Iterator[tuple[int, ...]]:
    """The tuples of ``parts`` integers in 0..``cap`` summing to ``total``, in increasing lexicographic order
    (the first part ascending, then the rest recursively)."""
    if parts == 0:
        if total == 0:
            yield ()
        return
    for first in range(max(0, total - cap * (parts - 1)), min(cap, total) + 1):
        for rest in bounded_compositions(total - first, parts - 1, cap):
            yield (first, *rest)


def multiplicities(n_types: int, max_count: int) -> Iterator[tuple[int, ...]]:
    """Every multiplicity vector in 0..max_count^n_types but the zero one, smallest total first and lexicographic
    within a total: ``sorted(product(range(max_count + 1), repeat=n_types), key=lambda c: (sum(c), c))[1:]``,
    generated lazily (a search that stops at its first witness does not order the 3^12 vectors first)."""
    for total in range(1, n_types * max_count + 1):
        yield from bounded_compositions(total, n_types, max_count)


def _multiset_tables(types: list[tuple], max_count: int, names: tuple[str, ...], domains: dict):
    """Tables whose rows are the tuple ``types`` with multiplicities 0..max_count, smallest first."""
    for counts in multiplicities(len(types), max_count):
        rows = [t for t, c in zip(types, counts) for _ in range(c)]
        yield make_table(names, rows, domains)


def _describe_table(t) -> dict[str, Any]:
    return {"attributes": list(t.attributes), "rows": [list(r) for r in t.rows]}


def search_nonmonotone(max_count: int = 3) -> SearchResult:
    names, doms = ("a", "b"), {"a": ["x", "y"], "b": [1, 2]}
    types = list(itertools.product(doms["a"], doms["b"]))

    def cands():
        for t in _multiset_tables(types, max_count, names, doms):
            for v in doms["b"]:
                yield t, make_query(t, {"b": v})

    def bad(c) -> bool:
        t, q = c
        g_q = exact.guessing_entropy(t, q, "a")
        return exact.traffic_overhead(t, q) > 0 and exact.guessing_entropy(t, remove(q, [1]), "a") < g_q

    def describe(c):
        t, q = c
        q_hat = remove(q, [1])
        return {"table": _describe_table(t), "target": "a", "Q": [repr(v) if v is STAR else v for v in q],
                "Q_hat": ["*", "*"], "G(Q)": exact.guessing_entropy(t, q, "a"),
                "G(Q_hat)": exact.guessing_entropy(t, q_hat, "a")}

    return exhaustive_search(cands(), bad, bound=f"tables over a∈{{x,y}}, b∈{{1,2}}, each tuple 0..{max_count} times",
                             encoding="exact twin: G(Q̂) < G(Q) for Q̂ = Q with b set to *", verify=bad,
                             describe=describe)


def _greedy_miss(strategy: str, seed: int):
    def holds(inst) -> bool:
        t, q, target, g_min = inst
        req = PrivacyRequirement(target, g_min)
        if fast.traffic_overhead(t, q) == 0:  # only queries that match a tuple (as in §5)
            return VACUOUS
        r = fast.generalize(t, q, req, strategy, seed=seed)
        return r.satisfied or not fast.brute_force(t, q, req, seed=seed).satisfied

    return holds


GREEDY_MISS_PREMISE = "Q matches a tuple of T (traffic overhead > 0, as in §5)"


def search_greedy_miss(strategy: str, *, examples: int, seed: int) -> SearchResult:
    holds = _greedy_miss(strategy, seed)

    def verify(inst) -> bool:
        t, q, target, g_min = inst
        req = PrivacyRequirement(target, g_min)
        return (exact.traffic_overhead(t, q) > 0 and not exact.generalize(t, q, req, strategy, seed=seed).satisfied
                and exact.brute_force(t, q, req, seed=seed).satisfied)

    def describe(inst):
        t, q, target, g_min = inst
        req = PrivacyRequirement(target, g_min)
        return {"table": _describe_table(t), "target": t.attributes[target],
                "Q": [repr(v) if v is STAR else v for v in q], "G_min": Q(g_min), "seed": seed,
                strategy: exact.generalize(t, q, req, strategy, seed=seed).as_json(),
                "brute_force": exact.brute_force(t, q, req, seed=seed).as_json()}

    return property_search(instances(max_attrs=5, max_dom=3, max_rows=16), holds, examples=examples, seed=seed,
                           encoding=f"{strategy} unsatisfied while Brute-Force satisfies G >= G_min",
                           verify=verify, describe=describe, premise=GREEDY_MISS_PREMISE)


_ABC_NAMES, _ABC_DOMS = ("a", "b", "c"), {"a": ["x", "y", "z"], "b": [1, 2], "c": [1, 2]}


def _uniform_match(t, q) -> bool:
    cnt = exact.value_counts(t, exact.matching_rows(t, q), 0)
    return len(cnt) >= 2 and len(set(cnt.values())) == 1


def _traffic_order_search(max_count: int, table_ok, compared, bound: str, encoding: str) -> SearchResult:
    """Tables over a∈{x,y,z}, b,c∈{1,2} (each tuple 0..max_count times) passing ``table_ok``; Q = (*, 1, 1).
    A witness has two generalisations g1, g2 of Q with ``compared(t, g)`` true, G1 > G2 and traffic1 < traffic2."""
    types = list(itertools.product(*_ABC_DOMS.values()))

    def gens(q):
        return [remove(q, s) for s in ([], [1], [2], [1, 2])]

    def cands():
        for t in _multiset_tables(types, max_count, _ABC_NAMES, _ABC_DOMS):
            q = make_query(t, ("*", 1, 1))
            if table_ok(t) and exact.traffic_overhead(t, q) > 0:
                yield t, q

    def bad(c) -> bool:
        t, q = c
        gs = [g for g in gens(q) if exact.traffic_overhead(t, g) and compared(t, g)]
        return any(exact.guessing_entropy(t, g1, 0) > exact.guessing_entropy(t, g2, 0)
                   and exact.traffic_overhead(t, g1) < exact.traffic_overhead(t, g2) for g1 in gs for g2 in gs)

    def describe(c):
        t, q = c
        return {"table": _describe_table(t), "target": "a",
                "generalisations": [{"Q": [repr(v) if v is STAR else v for v in g], "compared": compared(t, g),
                                     "G": exact.guessing_entropy(t, g, 0) if exact.traffic_overhead(t, g) else None,
                                     "traffic": exact.traffic_overhead(t, g)} for g in gens(q)]}

    return exhaustive_search(cands(), bad, bound=bound + f", each tuple 0..{max_count} times", encoding=encoding,
                             verify=bad, describe=describe)


def search_uniform_traffic(max_count: int = 2) -> SearchResult:
    """Two generalisations with uniform match sets (any multiplicities) ordered against 'traffic grows with G'."""
    return _traffic_order_search(max_count, lambda t: True, _uniform_match, "tables over a∈{x,y,z}, b,c∈{1,2}",
                                 "exact twin: two uniform generalisations of Q with G1 > G2 and traffic1 < traffic2")


def search_uniform_table_traffic(max_count: int = 2) -> SearchResult:
    """As :func:`search_uniform_traffic`, but the uniformity is of the target over the whole table (every
    value of a equally frequent, as a flat histogram like 004's Fig. 3(a) would be), and any two
    generalisations of Q = (*, 1, 1) are compared."""
    def flat(t) -> bool:
        cnt = exact.value_counts(t, range(t.n_rows), 0)
        return len(cnt) == 3 and len(set(cnt.values())) == 1

    return _traffic_order_search(max_count, flat, lambda t, g: True, "tables over a∈{x,y,z} (uniform a), b,c∈{1,2}",
                                 "exact twin: two generalisations of Q with G1 > G2 and traffic1 < traffic2")


def z3_guessing_bound(n: int, timeout_ms: int = 20_000) -> SearchResult:
    """Is there p_1 ≥ ... ≥ p_n ≥ 0, Σ p = 1, with Σ p_i·i > (n+1)/2?  (unsat: Lemma of Thm 6.1 for n)."""
    def build(s: z3.Solver):
        p = [z3.Real(f"p{i}") for i in range(1, n + 1)]
        s.add(p[-1] >= 0, z3.Sum(p) == 1)
        s.add(*[p[i] >= p[i + 1] for i in range(n - 1)])
        s.add(z3.Sum([p[i] * (i + 1) for i in range(n)]) > Fraction(n + 1, 2))
        return p

    def decode(model, p):
        from privclaims.counterexamples.harness import model_rational
        return [model_rational(model, x) for x in p]

    def verify(w) -> bool:
        return exact.guessing_entropy_of_distribution(w) > Q(n + 1, 2)

    return z3_search(build, decode, verify, bound=f"n = {n} values, real p_i",
                     encoding="LRA: sorted distribution with Σ p_i·i > (n+1)/2", timeout_ms=timeout_ms)


def search_l_diversity_disclosure(l: int = 3, max_size: int = 12) -> SearchResult:
    """A group with ≥ l distinct sensitive values whose most likely value has probability > 1/l."""
    def cands():
        for size in range(l, max_size + 1):
            for counts in itertools.combinations_with_replacement(range(1, size + 1), l):
                if sum(counts) == size:
                    yield counts

    def bad(counts) -> bool:
        return len(counts) >= l and Q(max(counts), sum(counts)) > Q(1, l)

    return exhaustive_search(cands(), bad, bound=f"groups of ≤ {max_size} records, l = {l}",
                             encoding="distinct l-diversity vs disclosure risk max_x p(x) ≤ 1/l", verify=bad,
                             describe=lambda c: {"counts": list(c), "l": l, "distinct_values": len(c),
                                                 "disclosure_risk": Q(max(c), sum(c)), "bound_1_over_l": Q(1, l)})


__all__ = ["search_nonmonotone", "search_greedy_miss", "search_uniform_traffic", "search_uniform_table_traffic", "z3_guessing_bound",
           "search_l_diversity_disclosure", "st"]
