"""A reading is never covered silently (checks/verdict.py ``same_under_evidence``): when one computed outcome serves
several readings of a definition — one Outcome given for several combinations to ``by_reading`` (one object, or
equal ones: ``outcome_content``), or a dimension ``by_dims`` does not vary — the check must say why, per definition, and the reason is in the claim's
evidence; an undeclared copy, a declaration for a dimension computed per reading, or a blank reason is a check error."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from privclaims.checks.claims.ads.common import by_dims
from privclaims.checks.readings import Definition, Reading, combinations
from privclaims.checks.verdict import SAME_UNDER, by_reading, copied_dimensions, verified

ORDER = Definition("order", "a quantifier order", readings=(Reading("per pair", "one split per pair", "doc §1"),
                                                            Reading("per input", "one split per input", "doc §1")))
TIES = Definition("ties", "a tie rule", readings=(Reading("first", "keep the first", "doc §2"),
                                                  Reading("random", "uniformly at random", "doc §2")))
ONE = Definition("one", "one reading only", readings=(Reading("only", "as printed", "doc §3"),))


def _combos(*defs):
    return combinations(defs, (Reading("as stated", "the statement", "doc"),))[0]


def test_one_outcome_for_two_readings_needs_a_reason():
    cs = _combos(ORDER, ONE)
    shared = verified(x=1)
    with pytest.raises(ValueError, match=r"\['order'\] without a reason"):
        by_reading({c: shared for c in cs})
    out = by_reading({c: shared for c in cs}, same_under={ORDER: "both orders agree on this instance: see x"})
    assert out.evidence[SAME_UNDER] == {"order": "both orders agree on this instance: see x"}
    assert out.verdict == "verified"


def test_outcomes_computed_per_reading_need_none_and_refuse_a_stale_one():
    cs = _combos(ORDER, TIES)
    out = by_reading({c: verified(x=cs.index(c)) for c in cs})  # each shows what its combination decided
    assert SAME_UNDER not in out.evidence
    with pytest.raises(ValueError, match=r"declares \['ties'\], but the outcome is computed per reading"):
        by_reading({c: verified(x=cs.index(c)) for c in cs}, same_under={TIES: "a reason"})


def test_equal_outcomes_are_one_outcome_whatever_the_objects():
    """A fresh Outcome per combination that shows the same verdict, why, evidence and parts is one outcome to a
    reader: the readings it serves need a reason as a shared object does; a difference anywhere (a part's evidence)
    makes them two."""
    from privclaims.checks.verdict import by_part, outcome_content

    cs = _combos(ORDER, TIES)
    with pytest.raises(ValueError, match=r"\['order', 'ties'\] without a reason"):
        by_reading({c: verified(x=1) for c in cs})
    with pytest.raises(ValueError, match=r"\['ties'\] without a reason"):
        by_reading({c: verified(x=1, order=len(c[ORDER])) for c in cs})  # computed per order (8, 9)
    parted = {c: by_part({"p": verified(y=len(c[TIES]))}, x=1) for c in cs}  # equal but for one part's evidence
    assert len({outcome_content(o) for o in parted.values()}) == 2
    with pytest.raises(ValueError, match=r"\['order'\] without a reason"):
        by_reading(parted)
    assert outcome_content(verified(x=1)) != outcome_content(verified(x=1).because("a why"))


def test_only_the_dimensions_that_differ_within_a_shared_outcome_are_copied():
    cs = _combos(ORDER, TIES)
    per_order = {r.name: verified(order=len(r.name)) for r in ORDER.readings}  # shared across TIES only
    assert copied_dimensions([[c for c in cs if c[ORDER] == name] for name in per_order]) == {"ties"}
    with pytest.raises(ValueError, match=r"\['ties'\] without a reason"):
        by_reading({c: per_order[c[ORDER]] for c in cs})
    with pytest.raises(ValueError, match=r"no reason for \['ties'\]"):
        by_reading({c: per_order[c[ORDER]] for c in cs}, same_under={"ties": "  "})
    out = by_reading({c: per_order[c[ORDER]] for c in cs}, same_under={"ties": "the rule never meets a tie here"})
    assert out.evidence[SAME_UNDER] == {"ties": "the rule never meets a tie here"}


def test_by_dims_declares_every_dimension_it_does_not_vary():
    ctx = SimpleNamespace(combinations=tuple(_combos(ORDER, TIES)))
    calls = []

    def compute(order, *others):
        calls.append(order)
        return verified(order=len(order), others=[len(o) for o in others])  # computed from the readings

    with pytest.raises(ValueError, match=r"\['ties'\] without a reason"):
        by_dims(ctx, (ORDER,), compute)
    calls.clear()
    out = by_dims(ctx, (ORDER,), compute, same_under={TIES: "no instance has a tie"}, note="shared evidence")
    assert calls == ["per pair", "per input"]  # once per reading of the varied dimension
    assert out.evidence == {"note": "shared evidence", SAME_UNDER: {"ties": "no instance has a tie"}}
    assert set(out.per_reading) == {c.key for c in ctx.combinations}
    calls.clear()
    out = by_dims(ctx, (ORDER, TIES), compute)  # every dimension varied: nothing to declare
    assert len(calls) == 4
    assert SAME_UNDER not in out.evidence
    with pytest.raises(ValueError, match="computed per reading"):
        by_dims(ctx, (ORDER, TIES), compute, same_under={TIES: "stale"})


def test_the_runner_catches_a_copy_keyed_by_reading_names():
    """A check keyed by reading names (no Combination to inspect in by_reading) that gives one Outcome object to both
    of its own readings is an error in the ledger unless it declares the claim dimension; a skip may be shared."""
    from dataclasses import replace

    from privclaims.checks.project import papers
    from privclaims.checks.registry import ClaimCheck
    from privclaims.checks.runner import adjudicate
    from privclaims.checks.verdict import not_checked

    own = (Reading("per-pair", "one split per pair", "000 §2.2"), Reading("per-input", "one split per input", "003 §3"))
    proj = papers()
    proj = replace(proj, checks={**proj.checks, "zealous.cor3": ClaimCheck("zealous.cor3", "exact", lambda ctx: None,
                                                                             readings=own)}, pin_cache={})
    from privclaims.checks.verdict import discrepancy, refuted

    for shared in (verified(x=1), refuted(witness={"x": 1}).because("w"),
                   discrepancy(paper="1", computed="2").because("w")):  # any computed verdict, not only 'verified'
        verdict, rows = adjudicate(proj, "zealous.cor3", by_reading({"per-pair": shared, "per-input": shared}))
        assert verdict == "error" and "['claim'] without a reason" in rows[0]["why"], shared.verdict
    shared = verified(x=1)
    verdict, _ = adjudicate(proj, "zealous.cor3", by_reading({"per-pair": shared, "per-input": shared},
                                                             same_under={"claim": "both splits exist here: see x"}))
    assert verdict == "verified"
    assert adjudicate(proj, "zealous.cor3", by_reading({"per-pair": verified(x=1), "per-input": verified(x=2)}))[0] == \
        "verified"
    verdict, rows = adjudicate(proj, "zealous.cor3", by_reading({"per-pair": verified(x=1), "per-input": verified(x=1)}))
    assert verdict == "error" and "['claim'] without a reason" in rows[0]["why"]  # equal objects: one outcome
    verdict, rows = adjudicate(proj, "zealous.cor3", by_reading({"per-pair": verified(x=1), "per-input": verified(x=2)},
                                                                same_under={"claim": "stale: computed per reading"}))
    assert verdict == "error" and "declares ['claim'], but the outcome is computed per reading" in rows[0]["why"]
    skip = not_checked("skipped: no data", skipped=True)
    assert adjudicate(proj, "zealous.cor3", by_reading({"per-pair": skip, "per-input": skip}))[0] == "not-checked"


def test_a_copy_is_seen_in_any_member_of_a_larger_group():
    """Three dimensions, one outcome for all eight combinations: every dimension differs somewhere in the group, the
    third only after the group's second member."""
    third = Definition("third", "a third choice", readings=(Reading("a", "a", "doc §4"), Reading("b", "b", "doc §4")))
    cs = _combos(ORDER, TIES, third)
    assert copied_dimensions([cs]) == {"order", "ties", "third"}
    assert copied_dimensions([[cs[0], cs[2]]]) == {"ties"}  # first and third members differ in 'ties' only
    assert copied_dimensions([[cs[0], cs[2], cs[4]]]) == {"ties", "order"}
    with pytest.raises(ValueError, match=r"\['order', 'third', 'ties'\] without a reason"):
        by_reading(dict.fromkeys(cs, verified()))


def test_by_dims_sees_one_object_returned_for_several_keys():
    ctx = SimpleNamespace(combinations=tuple(_combos(ORDER, TIES)))
    once = verified(x=1)
    with pytest.raises(ValueError, match=r"\['order'\] without a reason"):
        by_dims(ctx, (ORDER,), lambda order: once, same_under={TIES: "no ties"})
    out = by_dims(ctx, (ORDER,), lambda order: once, same_under={TIES: "no ties", ORDER: "one instance, both orders"})
    assert set(out.evidence[SAME_UNDER]) == {"ties", "order"}


def test_an_error_or_a_skip_may_be_shared_undeclared():
    """Equal error outcomes (a perturbed theory function failing the same way under every reading) or skips are not a
    copy that needs a reason: the ledger reports the error itself; a computed outcome shared beside them still does."""
    from privclaims.checks.verdict import Outcome, not_checked

    cs = _combos(ORDER, TIES)
    assert by_reading({c: Outcome("error", {"error": "RuntimeError: boom"}) for c in cs}).verdict == "error"
    assert by_reading({c: not_checked("skipped: no data", skipped=True) for c in cs}).verdict == "not-checked"
    mixed = {c: (Outcome("error", {"error": "boom"}) if c[ORDER] == "per pair" else verified(x=1)) for c in cs}
    with pytest.raises(ValueError, match=r"\['ties'\] without a reason"):
        by_reading(mixed)
