"""004_66621c1b9afebedf.txt's model as validators, and its small instances in increasing size.

A witness refuting a querygen claim counts only inside this model (§2, §4, §5):

* **auxiliary information**: a non-empty multiset of tuples over m attributes, each value in its attribute's finite
  domain (:class:`~privclaims.theory.querygen.model.AuxTable`);
* a **query** (v_1, ..., v_m), v_i ∈ D_i ∪ {*}, with the target's value omitted (*), matching at least one tuple
  (the querier's own: §5 takes the provider's database identical to the auxiliary information);
* a **requirement** (a, G_min) with G_min ≥ 1 (a guessing entropy is at least 1).

:func:`greedy_finals` gives every final query a greedy strategy can reach under the readings of §4: any tie rule for
Best-/Worst-Fit, every removal order for Random-Fit, and Best-Fit's step read as the local minimum or as the best
fit (:data:`~privclaims.theory.querygen.model.FIT_CHOICES`). :func:`small_instances` enumerates tables (multisets of rows)
and queries in increasing size, for minimality searches.
"""

from __future__ import annotations

import itertools
from typing import Any, Iterator

from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q
from privclaims.theory.querygen import exact
from privclaims.theory.querygen.model import (STAR, AuxTable, PrivacyRequirement, best_fit_step,
                                              fixed_positions, is_star, make_table, remove)


def table_problems(t: Any) -> list[str]:
    """What keeps ``t`` from being auxiliary information (empty: it is)."""
    if not isinstance(t, AuxTable):
        return [f"not a table: {type(t).__name__}"]
    out = []
    if t.m < 1 or t.n_rows < 1:
        out.append(f"{t.n_rows} tuples over {t.m} attributes: the model has at least one of each")
    for k, r in enumerate(t.rows):
        if len(r) != t.m or any(v not in t.domains[i] for i, v in enumerate(r)):
            out.append(f"tuple {k} is not in D_1 × ... × D_m")
    return out


def query_problems(t: AuxTable, q: Any, target: int) -> list[str]:
    """What keeps ``q`` from being a user's query for ``target`` on ``t`` (empty: it is one)."""
    if len(q) != t.m:
        return [f"the query has {len(q)} values for {t.m} attributes"]
    out = [f"value {v!r} of attribute {t.attributes[i]!r} is neither * nor in its domain"
           for i, v in enumerate(q) if not is_star(v) and v not in t.domains[i]]
    if not is_star(q[target]):
        out.append(f"the target {t.attributes[target]!r} is fixed in the query (its value is omitted, §5)")
    if not out and exact.traffic_overhead(t, q) == 0:
        out.append("the query matches no tuple (a user's query matches her own)")
    return out


def witness_problems(t: Any, q: Any, target: int, g_min: Any) -> list[str]:
    """Table, query and requirement together (empty: a witness inside the model)."""
    out = table_problems(t)
    if out:
        return out
    out = query_problems(t, q, target)
    if Q(g_min) < 1:
        out.append(f"G_min = {g_min} < 1 (a guessing entropy is at least 1)")
    return out


def greedy_finals(t: AuxTable, q: tuple, req: PrivacyRequirement, strategy: str,
                  choice: str = "local-min") -> dict[tuple, bool]:
    """Every final Q̂ of ``strategy`` (``best_fit``, ``worst_fit`` under any tie rule; ``random_fit`` under every
    removal order) with whether it meets ``req``; and whether any run met a tie (key ``"ties"``: not a query).
    ``choice`` reads Best-Fit's step (:func:`best_fit_step`); the other strategies have one reading."""
    if choice != "local-min" and strategy != "best_fit":
        raise InvalidInput(f"choice = {choice!r} for {strategy!r}: only Best-Fit's step has the 'fit' reading")
    target = t.attr_index(req.attribute)

    def g(x):
        return exact.guessing_entropy(t, x, target) if exact.traffic_overhead(t, x) else Q(0)

    def ok(x):
        return exact.is_privacy_preserving(t, x, req)

    finals: dict[Any, bool] = {}
    ties = False
    stack = [q]
    seen = set()
    while stack:
        cur = stack.pop()
        if cur in seen:
            continue
        seen.add(cur)
        fixed = fixed_positions(cur)
        if ok(cur) or not fixed:
            finals[cur] = ok(cur)
            continue
        if strategy == "random_fit":
            nxt = [remove(cur, [i]) for i in fixed]
        else:
            vals = {i: g(remove(cur, [i])) for i in fixed}
            if strategy == "worst_fit":
                nxt = [remove(cur, [i]) for i, v in vals.items() if v == max(vals.values())]
            else:
                nxt = [remove(cur, [i]) for i in best_fit_step(vals, lambda i: ok(remove(cur, [i])), choice)]
            ties |= len(nxt) > 1
        stack.extend(nxt)
    finals["ties"] = ties
    return finals


def canonical_instances(m: int, n_rows: int, d: int) -> Iterator[tuple[AuxTable, tuple]]:
    """Every (table, query) of ``n_rows`` tuples over ``a0`` (the target, exactly ``d`` distinct values 0..d−1) and
    ``a1..a{m-1}``, up to the symmetries that leave every guessing entropy unchanged: a non-target value enters G only
    through whether a tuple agrees with the query on it, so each non-target column is 1 (agrees with the query) or 0,
    the query is (*, 1, .., 1), and the target's values are named 0..d−1. Tables are multisets (rows sorted); the query
    matches at least one tuple. Together over d = 1..n_rows these are all instances of that size."""
    for rows in canonical_rows(m, n_rows, d):
        yield canonical_table(m, d, rows), (STAR,) + (1,) * (m - 1)


def canonical_rows(m: int, n_rows: int, d: int) -> Iterator[tuple[tuple[int, ...], ...]]:
    """The rows of :func:`canonical_instances`' tables, in the same order, without building the tables (a search
    that reads only the rows builds the table of the one it reports with :func:`canonical_table`)."""
    types = [(v,) + bits for v in range(d) for bits in itertools.product((0, 1), repeat=m - 1)]
    for rows in itertools.combinations_with_replacement(types, n_rows):
        if len({r[0] for r in rows}) < d or not any(all(r[1:]) for r in rows):
            continue
        yield rows


def canonical_table(m: int, d: int, rows: tuple[tuple[int, ...], ...]) -> AuxTable:
    """The table of :func:`canonical_instances` with these rows (validated by ``make_table``)."""
    names = tuple(f"a{i}" for i in range(m))
    return make_table(names, rows, {a: range(d) if i == 0 else (0, 1) for i, a in enumerate(names)})


def small_instances(m: int, n_rows: int, d: int) -> Iterator[tuple[AuxTable, tuple]]:
    """Every table of ``n_rows`` tuples (a multiset, rows sorted) over attributes ``a0`` (the target) .. ``a{m-1}``
    with values 0..d−1, and every query with the target omitted and every other attribute fixed to a value of one of
    its tuples (so it matches that tuple)."""
    names = tuple(f"a{i}" for i in range(m))
    types = list(itertools.product(range(d), repeat=m))
    for rows in itertools.combinations_with_replacement(types, n_rows):
        t = make_table(names, rows, {a: range(d) for a in names})
        for q in sorted({(STAR,) + r[1:] for r in rows}, key=repr):
            yield t, q
