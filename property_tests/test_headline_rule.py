"""The headline rule (checks/verdict.py): the ledger derives a claim's verdict from its readings."""

import pytest

from privclaims.checks.registry import ClaimCheck, Context
from privclaims.checks.runner import adjudicate
from privclaims.checks.verdict import (Outcome, Reading, by_reading, headline, in_model, refuted, verified,
                                       verified_bounded)


@pytest.mark.parametrize("per,want", [
    (["verified"], "verified"),
    (["verified", "verified-bounded"], "verified-bounded"),
    (["verified-bounded", "reproduced"], "reproduced"),
    (["refuted"], "refuted"),
    (["refuted", "refuted"], "refuted"),
    (["verified", "refuted"], "reading-dependent"),
    (["verified-bounded", "discrepancy"], "reading-dependent"),
    (["discrepancy", "discrepancy"], "discrepancy"),
    (["refuted", "discrepancy"], "reading-dependent"),
    (["verified", "unverifiable"], "unverifiable"),
    (["refuted", "unverifiable"], "unverifiable"),
    (["verified", "error"], "error"),
    (["refuted", "not-checked"], "not-checked"),
])
def test_headline(per, want):
    assert headline(per) == want


def test_headline_rejects_empty_and_nested():
    with pytest.raises(ValueError):
        headline([])
    with pytest.raises(ValueError):
        headline(["reading-dependent"])


R1 = Reading("per-pair", "the split is chosen per neighbour pair", "000 §2.2 Definition 3")
R2 = Reading("per-input", "the split is chosen per input", "003 §3 Definition 3")


def _project_with(readings):
    """The papers' project with zealous.cor3's check replaced (a copy: the loaded project is not touched)."""
    from dataclasses import replace

    from privclaims.checks.project import papers

    proj = papers()
    chk = ClaimCheck("zealous.cor3", "exact", lambda ctx: None, readings=readings)
    return replace(proj, checks={**proj.checks, "zealous.cor3": chk}, pin_cache={})


def test_runner_derives_reading_dependent():
    proj = _project_with((R1, R2))
    out = by_reading({"per-pair": refuted(witness={"x": 1}, model=in_model("the papers' model")),
                      "per-input": verified(note="holds")}, why="w")
    verdict, rows = adjudicate(proj, "zealous.cor3", out)
    assert verdict == "reading-dependent"
    assert [r["verdict"] for r in rows] == ["refuted", "verified"]
    assert rows[0]["evidence"]["witness"] == {"x": 1} and rows[0]["source"].startswith("000")


def test_runner_rejects_reading_name_mismatch():
    proj = _project_with((R1, R2))
    verdict, _ = adjudicate(proj, "zealous.cor3", by_reading({"per-pair": verified()}))
    assert verdict == "error"
    verdict, _ = adjudicate(proj, "zealous.cor3", verified_bounded("n <= 3"))
    assert verdict == "error"


def test_undeclared_check_has_the_catalog_reading():
    from privclaims.checks.project import papers

    proj = papers()
    undeclared = sorted(cid for cid, c in proj.checks.items() if not c.readings and not c.rests_on)
    assert undeclared, "no check without declared readings left to test the default on"
    verdict, rows = adjudicate(proj, undeclared[0], Outcome("verified"))
    assert verdict == "verified"
    assert len(rows) == 1 and rows[0]["name"] == "as stated" and rows[0]["source"]


def test_because_attaches_why():
    assert refuted(witness=1).because("w").why == "w"
    _ = Context()
