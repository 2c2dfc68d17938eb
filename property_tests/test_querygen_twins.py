"""Query generalizer (004_66621c1b9afebedf.txt): exact vs fast twins, invariants, bad input."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q, rigorous_sign, to_interval
from privclaims.theory.querygen import exact, fast
from privclaims.theory.querygen.model import (
    STAR, PrivacyRequirement, STRATEGIES, g_min_from_l, is_star, make_query, make_table, strictly_above,
    validate_request,
)
from privclaims.counterexamples.querygen_strategies import instances, tables
from privclaims.theory.querygen.table1 import eq3_query, table1


def test_eq3_on_table1():
    t = table1()
    q = eq3_query(t)
    assert exact.matching_rows(t, q) == [2, 3, 11]
    assert exact.guessing_entropy(t, q, "Income") == Q(4, 3)
    assert fast.guessing_entropy(t, q, "Income") == pytest.approx(4 / 3)
    assert exact.traffic_overhead(t, q) == fast.traffic_overhead(t, q) == 3


@given(instances())
def test_strategies_agree_exact_vs_fast(inst):
    t, q, target, g_min = inst
    req = PrivacyRequirement(target, g_min)
    for s in STRATEGIES:
        a = exact.generalize(t, q, req, s, seed=7)
        b = fast.generalize(t, q, req, s, seed=7)
        assert a == b, (s, a, b)


@given(instances())
def test_best_fit_step_readings_agree_exact_vs_fast_and_are_admissible(inst):
    """Under each reading of Best-Fit's step the twins agree, and the run (ties: lowest position) ends at a final
    that models.greedy_finals admits under that reading; the readings differ only when a single removal meets G_min."""
    from privclaims.theory.querygen.model import FIT_CHOICES
    from privclaims.theory.querygen.models import greedy_finals

    t, q, target, g_min = inst
    req = PrivacyRequirement(target, g_min)
    for choice in FIT_CHOICES:
        a = exact.generalize(t, q, req, "best_fit", choice=choice)
        b = fast.generalize_levels(t, q, target, [g_min], ("best_fit",), choice=choice)[("best_fit", Q(g_min))]
        assert a == b == fast.best_fit(t, q, req, choice=choice), (choice, a, b)
        finals = greedy_finals(t, q, req, "best_fit", choice)
        assert finals.get(a.query) == a.satisfied, (choice, a, finals)


@given(instances(), st.integers(0, 50))
def test_brute_force_tie_readings_agree_exact_vs_fast(inst, seed):
    """Under each reading of Brute-Force's tie rule the twins agree and return an Eq. (4) optimum; under
    'more-than-two' a tie of exactly two keeps the first combination in bitmask order, whatever the seed."""
    from privclaims.theory.querygen.model import TIE_RULES

    t, q, target, g_min = inst
    req = PrivacyRequirement(target, g_min)
    for ties in TIE_RULES:
        a = exact.generalize(t, q, req, "brute_force", seed=seed, ties=ties)
        b = fast.generalize_levels(t, q, target, [g_min], ("brute_force",), seed=seed, ties=ties)[("brute_force",
                                                                                                   Q(g_min))]
        assert a == b == fast.brute_force(t, q, req, seed=seed, ties=ties), (ties, a, b)
        lo, argmins = exact.optimum(t, q, req)
        if a.satisfied and a.removed:
            assert a.query in argmins
            if ties == "more-than-two" and len(argmins) == 2:
                assert a == exact.brute_force(t, q, req, seed=seed + 1, ties=ties)


def test_tie_of_exactly_two_differs_only_in_its_rule():
    """Two tied optima: 'two-or-more' picks each for some seed, 'more-than-two' always the first (bitmask order);
    three tied optima are a random pick under both."""
    from privclaims.theory.querygen.model import pick_tie

    assert {pick_tie(["a", "b"], s) for s in range(40)} == {"a", "b"}
    assert {pick_tie(["a", "b"], s, "more-than-two") for s in range(40)} == {"a"}
    for ties in ("two-or-more", "more-than-two"):
        assert {pick_tie(["a", "b", "c"], s, ties) for s in range(60)} == {"a", "b", "c"}


@given(instances())
def test_strategy_outputs_are_sound(inst):
    """Q̂ generalises Q; satisfied ⇔ G(Q̂) ≥ G_min; the reported G and traffic are those of Q̂."""
    t, q, target, g_min = inst
    req = PrivacyRequirement(target, g_min)
    for s in STRATEGIES:
        r = exact.generalize(t, q, req, s, seed=1)
        assert all(is_star(w) or w == v for v, w in zip(q, r.query))
        g = exact.guessing_entropy(t, r.query, target)
        assert g == r.guessing_entropy
        assert r.traffic == exact.traffic_overhead(t, r.query) >= exact.traffic_overhead(t, q)
        assert r.satisfied == (r.traffic > 0 and g >= req.g_min)
        if not r.satisfied:
            assert all(is_star(v) for v in r.query)


@given(instances())
def test_brute_force_attains_eq4_optimum(inst):
    t, q, target, g_min = inst
    req = PrivacyRequirement(target, g_min)
    if exact.is_privacy_preserving(t, q, req):
        return
    lo, argmins = exact.optimum(t, q, req)
    r = exact.brute_force(t, q, req, seed=3)
    if lo is None:
        assert not r.satisfied
    else:
        assert r.satisfied and r.guessing_entropy == lo and r.query in argmins


@given(instances())
def test_lattice_matches_scans(inst):
    t, q, target, _ = inst
    fixed, num, n = fast.lattice(t, q, target)
    for mask in range(1 << len(fixed)):
        cand = tuple(STAR if i in [fixed[j] for j in range(len(fixed)) if mask >> j & 1] else v
                     for i, v in enumerate(q))
        rows = exact.matching_rows(t, cand)
        e_num, e_n = exact.guessing_numerator(list(exact.value_counts(t, rows, target).values()))
        assert (int(num[mask]), int(n[mask])) == (e_num, e_n)


@given(instances(), st.integers(0, 3))
def test_strictly_above_is_strict(inst, shift):
    """strictly_above(req) keeps exactly the queries with G > G_min, on G_min at and between attainable G."""
    t, q, target, g_min = inst
    g = g_min + Q(shift, 7 * 4)  # 7 does not divide a 4-bounded denominator: G_min strictly between values too
    ok = exact.is_privacy_preserving(t, q, strictly_above(t, PrivacyRequirement(target, g)))
    assert ok == (exact.traffic_overhead(t, q) > 0 and exact.guessing_entropy(t, q, target) > g)


@given(st.lists(st.integers(1, 9), min_size=1, max_size=6))
def test_guessing_entropy_is_optimal_guess_order(counts):
    """Massey: guessing in decreasing order of likelihood minimises the expected number of guesses."""
    n = sum(counts)
    g = exact.guessing_entropy_of_counts(counts)
    for perm in itertools.permutations(counts):
        assert g <= sum((Q(c, n) * i for i, c in enumerate(perm, start=1)), Q(0))
    assert 1 <= g <= Q(len(counts) + 1, 2)
    assert fast.guessing_entropy_of_counts(counts) == pytest.approx(float(g))


@given(st.lists(st.integers(1, 9), min_size=1, max_size=5))
def test_shannon_exact_interval_fast_agree(counts):
    h = exact.shannon_entropy_of_counts(counts)
    hf = fast.shannon_entropy_of_counts(counts)
    assert float(h) == pytest.approx(hf, abs=1e-12)
    lo = Fraction(hf).limit_denominator(10**6) - Fraction(1, 10**4)
    assert rigorous_sign(lambda iv: exact.shannon_entropy_interval(counts, iv) - to_interval(Q(lo), iv)) > 0


def test_shannon_ignores_zero_counts_and_takes_large_ones():
    """A zero count is a value that does not occur (0 log 0 = 0): the same H as without it; counts that made sympy's
    simplify fail or run for minutes give the exact value (Eq. (1) in mpmath at 50 digits, within 1e-40)."""
    import mpmath
    import sympy

    assert exact.shannon_entropy_of_counts([2, 1, 0]) == exact.shannon_entropy_of_counts([0, 2, 1])
    assert str(exact.shannon_entropy_of_counts([2, 1, 0])) == "-2/3 + log(3)/log(2)"
    assert fast.shannon_entropy_of_counts([2, 1, 0]) == fast.shannon_entropy_of_counts([2, 1])
    # the interval too (kept, a zero count gave [-inf, +inf]: a reviewer's plant that got past the nets)
    assert rigorous_sign(lambda iv: exact.shannon_entropy_interval([0, 2, 1, 0], iv) - to_interval(Q(918, 1000), iv)) > 0
    assert rigorous_sign(lambda iv: exact.shannon_entropy_interval([0, 2, 1, 0], iv) - to_interval(Q(919, 1000), iv)) < 0
    with mpmath.workdps(50):
        for counts in ([10**6, 1], [35, 38, 46, 0, 24, 50, 47, 32, 8, 33, 49]):
            n = sum(counts)
            ref = -mpmath.fsum(mpmath.mpf(c) / n * mpmath.log(mpmath.mpf(c) / n, 2) for c in counts if c)
            h = exact.shannon_entropy_of_counts(counts)
            assert not h.has(sympy.Float) and abs(mpmath.mpf(str(sympy.N(h, 60))) - ref) < mpmath.mpf(10) ** -40


def test_empty_match_is_zero_and_not_private():
    t = make_table(("a", "b"), [(0, 0), (1, 0)], {"a": [0, 1], "b": [0, 1]})
    q = make_query(t, {"b": 1})
    assert exact.guessing_entropy(t, q, "a") == 0 and fast.guessing_entropy(t, q, "a") == 0.0
    req = PrivacyRequirement("a", 1)
    assert not exact.is_privacy_preserving(t, q, req) and not fast.is_privacy_preserving(t, q, req)
    r = exact.worst_fit(t, q, req)
    assert r.satisfied and r.traffic == 2


def test_unreachable_requirement_returns_all_star_unsatisfied():
    t = table1()
    req = PrivacyRequirement("Income", 5)
    for s in STRATEGIES:
        for twin in (exact, fast):
            r = twin.generalize(t, eq3_query(t), req, s)
            assert not r.satisfied and all(is_star(v) for v in r.query) and r.traffic == 12


@pytest.mark.parametrize("bad, msg", [
    (lambda t: make_query(t, {"Weight": "x"}), "unknown attribute 'Weight'"),
    (lambda t: make_query(t, {"Race": "Martian"}), "'Martian' is not in the domain"),
    (lambda t: PrivacyRequirement("Income", "1/2"), "G_min = 1/2 < 1"),
    (lambda t: make_table(("a",), []), "empty"),
    (lambda t: validate_request(t, {"Income": "$40k"}, PrivacyRequirement("Income", 2)), "target attribute 'Income'"),
    (lambda t: exact.guessing_entropy(t, {"Race": "Black"}, "Height"), "unknown attribute 'Height'"),
    (lambda t: make_table(("a", "b"), [(1,)]), "row 0 has 1 values"),
    (lambda t: make_table(("a",), [(5,)], {"a": [1, 2]}), "value 5 is not in the domain"),
    (lambda t: exact.generalize(t, eq3_query(t), PrivacyRequirement("Income", 2), "greedy"), "unknown strategy"),
    (lambda t: g_min_from_l("5/2"), "integer"),
    (lambda t: exact.generalize(t, eq3_query(t), PrivacyRequirement("Income", 2), "best_fit", choice="tight"),
     "choice = 'tight'"),
    (lambda t: fast.generalize(t, eq3_query(t), PrivacyRequirement("Income", 2), "worst_fit", choice="fit"),
     "only Best-Fit's step"),
    (lambda t: PrivacyRequirement("Income", 1.5), "float"),
    (lambda t: exact.generalize(t, eq3_query(t), PrivacyRequirement("Income", 2), "brute_force", ties="three"),
     "ties = 'three'"),
    (lambda t: fast.generalize_levels(t, eq3_query(t), "Income", [2], ("brute_force",), ties="any"), "ties = 'any'"),
])
def test_bad_input(bad, msg):
    with pytest.raises(InvalidInput, match=msg.replace("$", r"\$").replace("(", r"\(")):
        bad(table1())


def test_fast_rejects_target_in_query_too():
    t = table1()
    with pytest.raises(InvalidInput, match="target attribute"):
        fast.generalize(t, {"Income": "$40k"}, PrivacyRequirement("Income", 2), "worst_fit")


def test_l_translation():
    assert g_min_from_l(25) == 13 and g_min_from_l(1) == 1


@given(tables())
def test_all_star_query_matches_everything(t):
    q = (STAR,) * t.m
    assert exact.traffic_overhead(t, q) == fast.traffic_overhead(t, q) == t.n_rows


@given(st.lists(st.integers(0, 9), min_size=0, max_size=7))
def test_pairwise_form_of_eq2(counts):
    assert exact.guessing_numerator_pairwise(counts) == exact.guessing_numerator(counts)


@given(instances())
def test_fast_decision_exact_at_the_boundary(inst):
    """G_min set exactly to G(Q): both twins must call Q privacy-preserving (no float rounding)."""
    t, q, target, _ = inst
    g = exact.guessing_entropy(t, q, target)
    if g >= 1:
        for g_min in (g, g + Q(1, 10**12)):
            req = PrivacyRequirement(target, g_min)
            assert exact.is_privacy_preserving(t, q, req) == fast.is_privacy_preserving(t, q, req) == (g_min == g)


@given(instances(), st.integers(0, 50), st.sampled_from(("local-min", "fit")), st.sampled_from(("two-or-more", "more-than-two")))
def test_generalize_levels_equals_generalize_at_every_level(inst, seed, choice, ties):
    """The experiments' shared inner loop (one lattice, each G_min-independent choice sequence once, each level its
    prefix) returns, for every strategy and level, exactly what a separate :func:`fast.generalize` returns."""
    t, q, target, g_min = inst
    levels = sorted({Q(1), Q(g_min), Q(g_min) + Q(1, 3), Q(g_min) * 2, Q(5, 2), Q(7)})
    out = fast.generalize_levels(t, q, target, levels, STRATEGIES, seed=seed, choice=choice, ties=ties)
    assert set(out) == {(s, g) for s in STRATEGIES for g in levels}
    for s in STRATEGIES:
        for g in levels:
            one = fast.generalize(t, q, PrivacyRequirement(target, g), s, seed=seed,
                                  choice=choice if s == "best_fit" else "local-min", ties=ties)
            assert out[(s, g)] == one, (s, g, out[(s, g)], one)


@given(instances(), st.integers(0, 50))
def test_generalize_levels_by_reading_equals_each_reading_on_its_own(inst, seed):
    """Every reading pair of the shared computation is what generalize_levels returns under that pair alone (same keys
    in the same order, equal answers), and the experiments' means under each pair equal run() under it."""
    from privclaims.theory.querygen import experiments

    t, q, target, g_min = inst
    levels = sorted({Q(1), Q(g_min), Q(g_min) + Q(1, 3), Q(5, 2)})
    choices, ties = ("local-min", "fit"), ("two-or-more", "more-than-two")
    both = fast.generalize_levels_by_reading(t, q, target, levels, STRATEGIES, seed=seed, choices=choices, ties=ties)
    assert list(both) == [(c, r) for c in choices for r in ties]
    for (c, r), out in both.items():
        alone = fast.generalize_levels(t, q, target, levels, STRATEGIES, seed=seed, choice=c, ties=r)
        assert list(out.items()) == list(alone.items()), (c, r)
    queries = [tuple(row) for row in t.rows[:3]]
    runs = experiments.run_by_reading(t, queries, [target], seed=seed, levels={target: levels}, choices=choices, ties=ties)
    for (c, r), res in runs.items():
        assert res == experiments.run(t, queries, [target], seed=seed, levels={target: levels}, choice=c, ties=r), (c, r)


@pytest.mark.parametrize("n_types,max_count", [(12, 2), (4, 3), (5, 2), (1, 1), (1, 0), (3, 0)])
def test_multiplicities_are_the_sorted_product_lazily(n_types, max_count):
    """The searches' table enumeration (counterexamples/querygen_search.py): generated lazily, the same vectors in the
    same order as sorting the whole product by (total, lexicographic), the zero vector left out."""
    import itertools

    from privclaims.counterexamples.querygen_search import bounded_compositions, multiplicities

    want = [c for c in sorted(itertools.product(range(max_count + 1), repeat=n_types), key=lambda c: (sum(c), c)) if sum(c)]
    assert list(multiplicities(n_types, max_count)) == want
    assert list(bounded_compositions(0, 0, 5)) == [()] and list(bounded_compositions(1, 0, 5)) == []
    assert list(bounded_compositions(7, 2, 3)) == []  # more than the parts can hold


def test_the_encoded_table_is_derived_once_and_read_only():
    """The fast twin's matrix of domain codes is computed once per table (``AuxTable.derived``), is read-only, holds
    each cell's code, and does not collide with the table's own value codes."""
    import numpy as np

    t = table1()
    first = fast.encode(t)
    assert fast.encode(t) is first and not first.flags.writeable
    assert first.tolist() == [[t.value_code(i, v) for i, v in enumerate(r)] for r in t.rows]
    calls = []
    assert t.derived("probe", lambda: calls.append(1) or 7) == 7 == t.derived("probe", lambda: calls.append(1) or 8)
    assert calls == [1]
    assert isinstance(fast.encode(t), np.ndarray) and t.value_code(0, t.rows[0][0]) == first[0, 0]
    # a table made from it by dataclasses.replace derives its own (it shared the memo once: the old rows' matrix)
    import dataclasses
    import pickle

    r = dataclasses.replace(t, rows=tuple(reversed(t.rows)))
    assert fast.encode(r).tolist() == [[r.value_code(i, v) for i, v in enumerate(row)] for row in r.rows]
    assert fast.encode(r).tolist() == first.tolist()[::-1] and fast.encode(t) is first
    back = pickle.loads(pickle.dumps(t))
    assert back == t and fast.encode(back).tolist() == first.tolist()
