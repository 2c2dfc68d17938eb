"""The mutation campaign's machinery (counterexamples/mutants, issue 13): the catalogue applies cleanly,
the copy imports its own patched code, and a sample of 3 mutants runs end to end (--quick nets)."""

from __future__ import annotations

from pathlib import Path

import pytest

from privclaims.counterexamples.mutants import (ROOT, apply, campaign, catalogue_errors, make_copy, module_name, relevant_tests,
                                     restore, run_mutant, verify_isolation)
from privclaims.counterexamples.mutants.catalogue import BY_ID, CATALOGUE, Mutant

AREAS = {"dp", "maskit", "ads", "count", "zealous", "querygen", "noise", "numbers"}
KINDS = {"comparison", "off-by-one", "constant", "normalisation", "transpose", "tie-break", "rounding", "sampler",
         "validation", "neighbours"}


def test_every_mutant_applies_cleanly():
    assert catalogue_errors() == []
    assert len(CATALOGUE) >= 40
    assert {m.area for m in CATALOGUE} == AREAS
    assert {m.kind for m in CATALOGUE} == KINDS
    assert all(m.description and m.file.startswith("theory/") for m in CATALOGUE)
    assert all(m.equivalent is None or len(m.equivalent) > 20 for m in CATALOGUE)


def test_a_stale_patch_is_a_catalogue_error(tmp_path):
    (tmp_path / "theory").mkdir()
    (tmp_path / "theory/x.py").write_text("a = 1\na = 1\n")
    twice = Mutant("twice", "dp", "constant", "theory/x.py", "a = 1", "a = 2", "occurs twice")
    gone = Mutant("gone", "dp", "constant", "theory/x.py", "b = 1", "b = 2", "no longer occurs")
    errs = catalogue_errors(tmp_path, [twice, gone])
    assert len(errs) == 2 and "2 times" in errs[0] and "0 times" in errs[1]
    with pytest.raises(ValueError):
        apply(tmp_path, twice)
    rec = run_mutant(tmp_path, gone, True, tmp_path)
    assert rec["status"] == "catalogue-error"


def test_apply_and_restore_roundtrip(tmp_path):
    copy = make_copy(tmp_path)
    m = BY_ID["querygen-ldiv"]
    before = (copy / m.file).read_text()
    original = apply(copy, m)
    assert m.new in (copy / m.file).read_text()
    restore(copy, m, original)
    assert (copy / m.file).read_text() == before == (ROOT / m.file).read_text()


def test_relevant_tests_follow_imports():
    assert module_name("theory/zealous/exact.py") == "privclaims.theory.zealous.exact"
    t = relevant_tests(BY_ID["laplace-zero-reject"])
    assert "property_tests/test_sampler_laws.py" in t and "property_tests/test_zealous_core.py" in t
    assert all(Path(ROOT / x).is_file() for x in t)


def test_copy_imports_its_own_code(tmp_path):
    iso = verify_isolation(make_copy(tmp_path))
    assert iso["ok"], iso


def test_sample_campaign_quick():
    """3 mutants with the --quick nets: two real bugs killed, one argued-equivalent mutant survives."""
    rep = campaign(["dp-neighbours-one-way", "count-otp-decrypt", "zealous-fast-tail-x0"], quick=True)
    st = {r["id"]: r["status"] for r in rep["mutants"]}
    assert st == {"dp-neighbours-one-way": "killed", "count-otp-decrypt": "killed", "zealous-fast-tail-x0": "survived"}, rep
    assert rep["score"]["score"] == 1.0 and rep["catalogue_errors"] == []
    killed = rep["mutants"][0]
    assert killed["tests"]["status"] == "fail" and killed["tests"]["first_failure"], killed["tests"]
    assert killed["ledger"]["drift"], killed["ledger"]
