"""Hypothesis generators of small auxiliary tables and queries (tests and bounded searches).

A drawn instance is ``(table, query, target, g_min)``: a table with 2–4 attributes over domains of
size 1–3 and 1–12 tuples, a query with the target set to ``*``, and ``G_min`` a rational in
``[1, 3]`` with denominator ≤ 4 (where G values of such tables live).
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from privclaims.counterexamples.strategies import built_once
from privclaims.theory.querygen.model import STAR, make_query, make_table


@st.composite
def tables(draw: st.DrawFn, max_attrs: int = 4, max_dom: int = 3, max_rows: int = 12):
    m = draw(st.integers(2, max_attrs))
    doms = [draw(st.integers(1, max_dom)) for _ in range(m)]
    rows = draw(st.lists(st.tuples(*[st.integers(0, d - 1) for d in doms]), min_size=1, max_size=max_rows))
    names = tuple(f"a{i}" for i in range(m))
    return make_table(names, rows, {a: range(d) for a, d in zip(names, doms)})


@st.composite
def instances(draw: st.DrawFn, **kw):
    t = draw(built_once(tables, **kw))
    target = draw(st.integers(0, t.m - 1))
    q = [STAR if i == target or draw(st.booleans()) is False else draw(built_once(st.sampled_from, tuple(t.domains[i])))
         for i in range(t.m)]
    g_min = Fraction(draw(st.integers(4, 12)), 4)
    return t, make_query(t, q), target, g_min


INSTANCE_PARTS = ("table", "query", "target", "G_min")
"""The parts of an :func:`instances` draw."""
