"""Evidence is the decision's own numbers (issue 21, item 4): a decision shows the value and bound it used, at the
precision it used, and a shown number that does not certify its flag is caught — in a unit test here, by the
ledger on every row it computes (the row becomes an error), and over the whole quick report."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import mpmath

import pytest

from privclaims.checks.evidence import (Decision, Enclosure, certifies, contradictions, decide, decide_enclosed,
                                        parse_shown)
from privclaims.checks.verdict import jsonable
from privclaims.theory.numbers import to_interval


def test_exact_decisions_cannot_disagree_with_their_numbers():
    d = decide(Fraction(297, 10**58), "<=", Fraction(335, 10**58))
    assert d.holds and contradictions(jsonable({"x": d})) == []
    assert not decide(Fraction(1, 2), "<", Fraction(1, 2)).holds
    assert decide(0.5, "==", Fraction(1, 2)).holds  # a float is its exact binary value


def test_the_issue_example_is_a_contradiction():
    """dp.text_thm1_omega1 printed, beside "holds: yes", the upper end 1.5e-26 of a low-precision enclosure
    against a bound of 3.4e-56: the shown numbers do not certify the decision."""
    shown = {"decision": {"value": {"interval": ["0", "1.5e-26"]}, "relation": "<=", "bound": "3.4e-56", "holds": True,
                          "method": "interval arithmetic, 53 bits"}}
    assert len(contradictions({"row": shown})) == 1
    fixed = {"decision": {"value": {"interval": ["2.97e-56", "2.98e-56"]}, "relation": "<=", "bound": "3.35e-56",
                          "holds": True, "method": "interval arithmetic, 256 bits"}}
    assert contradictions(fixed) == []


def test_enclosed_decisions_show_the_enclosure_that_decided():
    # e^-128 <= 2^-184 ? (e^-128 ~ 2.57e-56, 2^-184 ~ 4.1e-56): decided by an enclosure, shown as an interval
    d = decide_enclosed(lambda iv: iv.exp(-to_interval(128, iv)), "<=", Fraction(1, 2**184), what="e^-128")
    j = jsonable(d)["decision"]
    assert d.holds and "interval" in j["value"] and contradictions(jsonable(d)) == []
    lo, hi = (Fraction(Decimal(v)) for v in j["value"]["interval"])
    with mpmath.workdps(60):
        x = Fraction(str(mpmath.exp(-128)))
    assert lo < x < hi and hi - lo < x / 10**5  # an enclosure of e^-128, rounded outward, yet tight


@pytest.mark.parametrize("rel,holds_at_equal", [("<=", True), ("<", False), (">=", True), (">", False), ("==", True),
                                                 ("!=", False)])
def test_relations_at_equality(rel, holds_at_equal):
    assert certifies(Fraction(1, 3), rel, Fraction(1, 3), holds_at_equal)
    assert not certifies(Fraction(1, 3), rel, Fraction(1, 3), not holds_at_equal)


def test_an_enclosure_straddling_the_bound_certifies_nothing():
    e = Enclosure(Fraction(1, 3), Fraction(2, 3))
    assert not certifies(e, "<=", Fraction(1, 2), True) and not certifies(e, "<=", Fraction(1, 2), False)
    assert parse_shown({"interval": ["0.1", "0.2"]}) == Enclosure(Fraction(1, 10), Fraction(1, 5))


def test_a_hand_made_false_flag_is_refused_by_the_ledger():
    from privclaims.checks.project import papers
    from privclaims.checks.registry import Context
    from privclaims.checks.runner import run_one
    from dataclasses import replace

    from privclaims.checks.registry import ClaimCheck
    from privclaims.checks.verdict import verified

    proj = papers()
    bad = Decision(Fraction(2), "<=", Fraction(1), True)  # built by hand, flag contradicts the numbers
    chk = ClaimCheck("dp.def2", "exact", lambda ctx: verified(decision=bad), readings=proj.checks["dp.def2"].readings)
    row = run_one("dp.def2", Context(quick=True), replace(proj, checks={**proj.checks, "dp.def2": chk}, pin_cache={}))
    assert row["verdict"] == "error" and "contradicts its decision" in row["readings"][0]["why"]


def test_a_read_only_map_in_evidence_is_shown_as_a_mapping():
    """Evidence may hold read-only maps (theory's ReadOnlyMap, MappingProxyType): they render as JSON objects with
    every value converted, never as their repr."""
    from types import MappingProxyType

    from privclaims.theory.count.hierarchy import ReadOnlyMap
    from privclaims.theory.numbers import Q

    assert jsonable({"a": MappingProxyType({"p": Q(1, 3)}), "b": ReadOnlyMap({2: (Q(2), "x")})}) == \
        {"a": {"p": "1/3"}, "b": {"2": ["2", "x"]}}


def _search(status: str, bound: str, witness=None, verified_by_exact=None):
    from privclaims.counterexamples.harness import SearchResult

    return SearchResult(status, bound, "test encoding", witness, verified_by_exact)


def test_a_verified_bounded_outcome_needs_searches_that_searched_their_bound():
    """verified-bounded says "no counterexample up to the bound": a search it reports that found one (confirmed or
    not), or that did not finish the bound it claims, contradicts it; one that did not finish may be reported beside
    those that did when the bound names only those."""
    from privclaims.checks.evidence import search_contradictions
    from privclaims.checks.verdict import refuted, verified_bounded

    def flagged(outcome):
        return search_contradictions(jsonable({"verdict": outcome.verdict, "evidence": outcome.evidence}))

    done, also = _search("none-up-to-bound", "600 examples (seed 1)"), _search("none-up-to-bound", "n <= 4")
    assert flagged(verified_bounded(bound=done.bound, search=done)) == []
    assert flagged(verified_bounded(bound=f"a: {done.bound}; b: {also.bound}", searches={"a": done, "b": also})) == []
    for status, w, ok, says in (("witness", {"x": 1}, True, "found a counterexample"),
                                ("spurious", {"x": 1}, False, "re-verification refused"),
                                ("timeout", None, None, "did not search its whole bound (timeout)"),
                                ("unknown", None, None, "did not search its whole bound (unknown)")):
        r = _search(status, "500 examples (seed 2)", w, ok)
        one = flagged(verified_bounded(bound=r.bound, search=r))
        assert len(one) == 1 and says in one[0] and one[0].startswith("evidence.search"), one
        among = flagged(verified_bounded(bound=f"a: {done.bound}; b: {r.bound}", searches={"a": done, "b": r}))
        assert len(among) == 1 and "evidence.searches.b" in among[0], among  # the bound claims b's search
    late = _search("timeout", "500 examples (seed 2)")
    assert flagged(verified_bounded(bound=f"a: {done.bound}", searches={"a": done, "b": late})) == []  # named apart
    short = _search("timeout", "n <= 4")
    assert len(flagged(verified_bounded(bound="a: n <= 40; b: n <= 4", searches={"b": short}))) == 1
    assert flagged(verified_bounded(bound="1600 examples", search=_search("timeout", "600 examples"))) == []
    lost = _search("spurious", "90 examples (seed 4)", {"x": 2}, False)  # found something, named or not
    assert len(flagged(verified_bounded(bound=done.bound, search=done, other=lost))) == 1
    listed = flagged(verified_bounded(bound=done.bound, searches=[done, _search("witness", "n <= 2", {"x": 3}, True)]))
    assert len(listed) == 1 and "evidence.searches[1]" in listed[0]  # a search inside a list
    from privclaims.checks.claims.ads.common import summary

    assert "statistics" not in summary(late)  # the ads checks report searches without their statistics
    assert len(flagged(verified_bounded(bound=late.bound, search=summary(late)))) == 1
    other = {"verdict": "discrepancy", "evidence": {"search": _search("witness", "n <= 2", {"x": 3}, True).as_json()}}
    assert flagged(verified_bounded(bound=done.bound, search=done, others=[other], another=other)) == []  # answers for its own
    nested = refuted(witness={"x": 1}, search=_search("witness", "n <= 3", {"x": 1}, True))  # answers for its search
    assert flagged(verified_bounded(bound=done.bound, search=done, other_reading={"verdict": nested.verdict,
                                                                                  "evidence": nested.evidence})) == []
    assert search_contradictions(jsonable({"verdict": "refuted", "evidence": nested.evidence})) == []


def test_the_ledger_refuses_a_verified_bounded_row_its_search_does_not_certify():
    """A check that turns a timed-out search into verified-bounded (``verified_bounded(bound=r.bound, ...)`` without
    asking whether ``r`` searched its bound) gets an error row, not the verdict."""
    from dataclasses import replace

    from privclaims.checks.project import papers
    from privclaims.checks.registry import ClaimCheck, Context
    from privclaims.checks.runner import run_one
    from privclaims.checks.verdict import verified_bounded

    proj = papers()
    late = _search("timeout", "2000 examples (seed 3)")
    chk = ClaimCheck("dp.def2", "property", lambda ctx: verified_bounded(bound=late.bound, search=late),
                     readings=proj.checks["dp.def2"].readings)
    row = run_one("dp.def2", Context(quick=True), replace(proj, checks={**proj.checks, "dp.def2": chk}, pin_cache={}))
    assert row["verdict"] == "error" and "did not search its whole bound (timeout)" in row["readings"][0]["why"], row


def test_the_ledger_asks_of_every_reading_and_part():
    """The same refusal for a verified-bounded part of a by_part outcome (the rows the ledger builds per reading, per
    part) as for the claim's own outcome."""
    from dataclasses import replace

    from privclaims.checks.project import papers
    from privclaims.checks.registry import Context
    from privclaims.checks.runner import run_one
    from privclaims.checks.verdict import by_part, verified, verified_bounded

    proj = papers()
    real = proj.checks["querygen.text_related"]
    late = _search("unknown", "groups of <= 6 records")

    def check(ctx):
        names = [p.name for p in real.parts]
        return by_part({names[0]: verified(by_definition="k-anonymity"), names[1]: verified_bounded(bound=late.bound, search=late),
                        **{n: verified(note="planted") for n in names[2:]}})

    row = run_one("querygen.text_related", Context(quick=True),
                  replace(proj, checks={**proj.checks, "querygen.text_related": replace(real, fn=check)}, pin_cache={}))
    assert row["verdict"] == "error" and "did not search its whole bound (unknown)" in row["readings"][0]["why"], row


def test_property_verdict_refuses_a_search_that_stopped_short(monkeypatch):
    """``property_verdict`` (the papers' and users' property claims) gives ``error``, not ``verified-bounded``, when its
    search ends without a witness and without searching its bound."""
    from privclaims.checks.registry import Context
    from privclaims.checks.searched import property_verdict
    from privclaims.counterexamples import property_search as ps

    for status, says in (("timeout", "did not search its whole bound (timeout)"),
                         ("unknown", "did not search its whole bound (unknown)"),
                         ("spurious", "not confirmed by the exact twin")):
        monkeypatch.setattr(ps, "property_search", lambda *a, status=status, **k: _search(status, "100 examples", None,
                                                                                           False if status == "spurious" else None))
        out = property_verdict(Context(quick=True), "x", None, lambda i: True, examples=100, encoding="e",
                               model=("m", lambda w: []))
        assert out.verdict == "error" and says in out.evidence["reason"], (status, out)
    monkeypatch.setattr(ps, "property_search", lambda *a, **k: _search("none-up-to-bound", "100 examples"))
    out = property_verdict(Context(quick=True), "x", None, lambda i: True, examples=100, encoding="e", model=("m", lambda w: []))
    assert out.verdict == "verified-bounded" and out.evidence["bound"] == "100 examples"


def test_a_z3_model_the_exact_twin_refuses_is_an_error_not_an_undecided_case(monkeypatch):
    """zealous.prop9 counts a z3 encoding that is not unsat as undecided; one whose model the exact twin refuses
    (spurious) says the encoding or the twin is wrong, and the claim is an error."""
    from privclaims.checks.registry import Context
    from privclaims.checks.runner import run_one
    from privclaims.counterexamples import zealous_searches
    from privclaims.theory.numbers import Q

    real = zealous_searches.prop9_smt
    last = (4, Q(10))  # only the last encoding's model is refused: every encoding is looked at

    def smt(n, e):
        return _search("spurious", f"{n} outputs", {"x": 1}, False) if (n, e) == last else real(n, e)

    monkeypatch.setattr(zealous_searches, "prop9_smt", smt)
    row = run_one("zealous.prop9", Context(quick=True))
    assert row["verdict"] == "error" and "not confirmed by the exact twin" in str(row["evidence"]), row["evidence"]


@pytest.mark.parametrize("claimed,bound,named", [
    ("B1", "B1", True),
    ("a: 600 examples (seed 3); b: n <= 4", "600 examples (seed 3)", True),  # the ads verdict_of join
    ("a: 600 examples (seed 3); b: n <= 4", "n <= 4", True),
    ("150 examples (seed 7); z3: 2 inputs, 4 outputs", "4 outputs", True),  # dp.text_def3_delta0's join
    ("2000 examples (seed 3) + 4 fixed cases", "2000 examples (seed 3)", True),
    ("4 fixed cases + 2000 examples", "2000 examples", True),
    ("n = 3: z3 unsat, uniform attains the bound", "n = 3", True),
    ("all instances with |A|=4, k=3, plus the worked example", "all instances with |A|=4, k=3", True),
    ("(n <= 4)", "n <= 4", True),
    ("a:n <= 4;b:x", "n <= 4", True),
    ("n <= 4, m <= 2", "n <= 4", True),  # loud: a prefix of another bound counts as named
    ("1600 examples", "600 examples", False),
    ("n <= 40", "n <= 4", False),
    ("k_2 <= 4", "2 <= 4", False),
    ("e^eps = 2.5", "e^eps = 2", False),
    ("a: B1", "", False),
    ("a: B1", "B2", False),
    ("x600 examples; 600 examples", "600 examples", True),  # a later occurrence counts
])
def test_which_bounds_an_outcome_names(claimed, bound, named):
    from privclaims.checks.evidence import names_bound

    assert names_bound(claimed, bound) is named


def test_a_counterexample_the_exact_twin_refused_contradicts_any_decided_outcome():
    """A search whose witness the exact twin refused (spurious) means the twins disagree: reported beside a refuted,
    reproduced or unverifiable outcome it makes the row an error too; an error or not-checked outcome decides nothing."""
    from privclaims.checks.evidence import search_contradictions

    lost = _search("spurious", "90 examples (seed 4)", {"x": 2}, False)
    good = _search("witness", "n <= 3", {"x": 1}, True)
    for verdict in ("refuted", "reproduced", "unverifiable", "discrepancy", "verified"):
        doc = jsonable({"verdict": verdict, "evidence": {"witness": {"x": 1}, "searches": {"a": good, "b": lost}}})
        found = search_contradictions(doc)
        assert len(found) == 1 and "evidence.searches.b" in found[0] and "re-verification refused" in found[0], found
        assert search_contradictions(jsonable({"verdict": verdict, "evidence": {"search": good}})) == []
        unconfirmed = _search("witness", "n <= 3", {"x": 1}, False)  # a witness marked refused by the twin
        assert len(search_contradictions(jsonable({"verdict": verdict, "evidence": {"search": unconfirmed}}))) == 1
    for verdict in ("error", "not-checked"):
        assert search_contradictions(jsonable({"verdict": verdict, "evidence": {"search": lost}})) == []

    nested = {"verdict": "refuted", "evidence": {"witness": {"x": 2}, "search": lost}}  # answers for itself, once
    found = search_contradictions(jsonable({"verdict": "verified", "evidence": {"other_reading": nested}}))
    assert len(found) == 1 and found[0].startswith("evidence.other_reading.evidence.search: refuted"), found


def test_evidence_shared_by_readings_is_judged_when_one_reading_decides():
    """A claim whose readings share evidence (by_reading's keywords): one reading verified, another not checked, a
    search in the shared evidence that its re-verification refused: the row is an error, not the verified reading."""
    from dataclasses import replace

    from privclaims.checks.project import papers
    from privclaims.checks.registry import Context
    from privclaims.checks.runner import run_one
    from privclaims.checks.verdict import by_reading, not_checked, verified

    proj = papers()
    real = proj.checks["dp.text_def3_delta0"]
    lost = _search("spurious", "90 examples (seed 4)", {"x": 2}, False)

    def check(ctx):
        first, *rest = ctx.combinations  # four since the neighbour relation's two readings
        return by_reading({first: verified(note="planted"), **{c: not_checked("planted") for c in rest}}, search=lost)

    row = run_one("dp.text_def3_delta0", Context(quick=True),
                  replace(proj, checks={**proj.checks, "dp.text_def3_delta0": replace(real, fn=check)}, pin_cache={}))
    assert row["verdict"] == "error" and "re-verification refused" in row["readings"][0]["why"], row["readings"]


def test_dp_delta0_z3_model_refused_by_the_exact_twin_is_an_error(monkeypatch):
    """dp.text_def3_delta0 reported only the search that found its witness: a z3 model the exact twin refused beside
    a property search was dropped. It is now an error."""
    from privclaims.checks.claims import dp as dp_checks
    from privclaims.checks.registry import Context
    from privclaims.checks.runner import run_one

    monkeypatch.setattr(dp_checks, "_z3_delta0_search", lambda **k: _search("spurious", "2 inputs", {"x": 1}, False))
    row = run_one("dp.text_def3_delta0", Context(quick=True))
    assert row["verdict"] == "error" and "not confirmed by the exact twin" in str(row["evidence"]), row["evidence"]
