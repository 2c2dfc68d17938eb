"""The mutation campaign's own machinery (counterexamples/mutants, issues 13 and 23).

These tests are never a kill: the campaign keeps them out of every net (``NEVER_COUNTS``).
:func:`test_every_mutant_applies_cleanly` fails whenever a catalogued line changes - a maintenance signal: refresh
the patch that ``catalogue_errors()`` names (or the guard it names, when a test was renamed).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from privclaims.counterexamples.mutants import (NEVER_COUNTS, ROOT, Worker, apply, area_test_files, broader_test_files,
                                                catalogue_errors, is_area_file, make_copy, merge_rerun, module_name,
                                                never_counts, planted, restore, run_area_nets, run_pytest, score,
                                                survivors, to_markdown, verify_isolation)
from privclaims.counterexamples.mutants.catalogue import BY_ID, CATALOGUE, LEDGER_AREAS, SHARED_AREAS, Mutant

KINDS = {"comparison", "off-by-one", "constant", "normalisation", "transpose", "tie-break", "rounding", "sampler",
         "validation", "neighbours"}


def test_every_mutant_applies_cleanly():
    """Every patch applies to the working tree (its old text occurs exactly once) and names existing guards."""
    assert catalogue_errors() == []
    assert len(CATALOGUE) >= 110
    assert {m.area for m in CATALOGUE} == set(LEDGER_AREAS) | set(SHARED_AREAS)
    assert {m.kind for m in CATALOGUE} == KINDS
    for m in CATALOGUE:
        assert m.description and m.file.startswith("theory/"), m.id
        assert m.equivalent is None or len(m.equivalent) > 20, m.id
        assert (m.area in SHARED_AREAS) == bool(m.uses), f"{m.id}: a shared module's mutant names the areas using it"
        assert set(m.uses) <= set(LEDGER_AREAS), m.id
        if m.equivalent is None:
            assert m.guards and m.why, f"{m.id}: which test is meant to kill it, and why"


def test_a_changed_catalogued_line_is_a_catalogue_error(tmp_path):
    (tmp_path / "theory").mkdir()
    (tmp_path / "property_tests").mkdir()
    (tmp_path / "theory/x.py").write_text("a = 1\na = 1\n")
    (tmp_path / "property_tests/test_x.py").write_text("def test_a():\n    pass\n")
    twice = Mutant("twice", "dp", "constant", "theory/x.py", "a = 1", "a = 2", "occurs twice")
    gone = Mutant("gone", "dp", "constant", "theory/x.py", "b = 1", "b = 2", "no longer occurs")
    renamed = Mutant("renamed", "dp", "constant", "theory/x.py", "a = 1\na = 1", "a = 2", "guard renamed",
                     guards=("property_tests/test_x.py::test_b",), why="w")
    kept = Mutant("kept", "dp", "constant", "theory/x.py", "a = 1\na = 1", "a = 2", "guard kept",
                  guards=("property_tests/test_x.py::test_a[1]",), why="w")
    errs = catalogue_errors(tmp_path, [twice, gone, renamed, kept])
    assert len(errs) == 3 and "2 times" in errs[0] and "0 times" in errs[1] and "test_b does not exist" in errs[2]
    with pytest.raises(ValueError):
        apply(tmp_path, twice)


def test_apply_and_restore_roundtrip(tmp_path):
    copy = make_copy(tmp_path)
    m = BY_ID["querygen-ldiv"]
    before = (copy / m.file).read_text()
    original = apply(copy, m)
    assert m.new in (copy / m.file).read_text()
    restore(copy, m, original)
    assert (copy / m.file).read_text() == before == (ROOT / m.file).read_text()
    with pytest.raises(RuntimeError), planted(copy, m):
        assert m.new in (copy / m.file).read_text()
        raise RuntimeError("a net crashed")
    assert (copy / m.file).read_text() == before


def test_area_nets_are_exactly_the_area_files():
    """area-quick = the area's own test files (test_<A>_*.py, test_<A>.py, test_audit_<A>.py), not every file importing
    the module; a shared module's mutant adds the files of the areas using it; the broader net is the rest."""
    assert is_area_file("test_zealous_core.py", "zealous") and is_area_file("test_audit_dp.py", "dp")
    assert is_area_file("test_numbers.py", "numbers") and not is_area_file("test_numbers.py", "num")
    assert not is_area_file("test_float_safety.py", "floats") and not is_area_file("test_dpx.py", "dp")
    zealous = area_test_files(["zealous"])
    assert zealous == sorted(f"property_tests/{p.name}" for p in (ROOT / "property_tests").glob("test_*.py")
                             if p.name.startswith("test_zealous_") or p.name == "test_audit_zealous.py")
    m = BY_ID["laplace-grid-unscaled"]
    assert m.net_areas == ("noise", "zealous") and m.ledger_areas == ("zealous",)
    assert set(area_test_files(m.net_areas)) == set(zealous) | set(area_test_files(["noise"]))
    both = BY_ID["laplace-zero-reject"]  # the shared CKS core: both samplers' areas
    assert both.net_areas == ("noise", "zealous", "count") and both.ledger_areas == ("zealous", "count")
    assert set(area_test_files(both.net_areas)) == set(zealous) | set(area_test_files(["noise", "count"]))
    broader = broader_test_files(BY_ID["dp-ratio-inverted"])
    assert broader and not set(broader) & set(area_test_files(["dp"]))
    assert "property_tests/test_mutants.py" not in broader and module_name("theory/dp/exact.py") == "privclaims.theory.dp.exact"


def test_copy_imports_its_own_code(tmp_path):
    iso = verify_isolation(make_copy(tmp_path))
    assert iso["ok"], iso


def test_the_maintenance_signal_never_counts(tmp_path):
    """A failing test_mutants.py (or the float-safety self-test) is no kill; any other failing test is."""
    assert never_counts("property_tests/test_mutants.py::test_every_mutant_applies_cleanly")
    assert never_counts("property_tests/test_float_safety.py::test_campaign_detects_an_unsafe_twin")
    assert never_counts("property_tests/test_float_safety.py::test_no_unsafe_disagreement[x]") is None
    assert set(NEVER_COUNTS) == {"property_tests/test_mutants.py",
                                 "property_tests/test_float_safety.py::test_campaign_detects_an_unsafe_twin"}
    (tmp_path / "property_tests").mkdir()
    (tmp_path / "property_tests/test_mutants.py").write_text("def test_signal():\n    assert False\n")
    (tmp_path / "property_tests/test_real.py").write_text("def test_ok():\n    pass\n")
    r = run_pytest(tmp_path, ["property_tests"], tmp_path / "s1", exitfirst=False)
    assert r["status"] == "pass" and r["not_counted"] == ["property_tests/test_mutants.py::test_signal"], r
    (tmp_path / "property_tests/test_real.py").write_text("def test_ok():\n    assert 1 == 2\n")
    r = run_pytest(tmp_path, ["property_tests"], tmp_path / "s2", exitfirst=False)
    assert r["status"] == "fail" and r["failures"] == ["property_tests/test_real.py::test_ok"], r


def test_a_hung_test_is_a_kill_named_as_such(tmp_path):
    """A mutant that makes a test loop for ever (a sampler whose ending draw became impossible) is ended by
    pytest-timeout's thread method, which prints its banner and exits the run without a failure line: a kill, recorded
    as a hang, not as a collection error."""
    (tmp_path / "property_tests").mkdir()
    (tmp_path / "property_tests/test_loop.py").write_text(
        "import pytest\n\n@pytest.mark.timeout(0.5, method='thread')\ndef test_loop():\n    while True:\n        pass\n")
    r = run_pytest(tmp_path, ["property_tests"], tmp_path / "s")
    assert r["status"] == "fail" and r.get("hung") is True and r["failures"] == [], r
    (tmp_path / "property_tests/test_loop.py").write_text("def test_ends():\n    assert 1 == 2\n")
    r = run_pytest(tmp_path, ["property_tests"], tmp_path / "s2")
    assert r["status"] == "fail" and "hung" not in r, r


def test_one_mutant_through_its_area_quick_net(tmp_path):
    """A mutant planted in a worker's copy: its guard runs first and kills it; the copy is restored afterwards."""
    w = Worker(tmp_path, 0)
    assert w.isolation["ok"], w.isolation
    m = BY_ID["dp-subsets-ge"]
    before = (w.copy / m.file).read_text()
    rec = run_area_nets(w, m, False, {"durations": {}})
    assert (w.copy / m.file).read_text() == before
    net = rec["nets"]["area_quick"]
    assert net["status"] == "killed" and net["guard"], rec
    assert rec["tests"]["parts"][0]["part"] == "guards" and Path(w.copy).is_dir()


def test_a_rerun_of_the_survivors_keeps_the_first_pass_visible():
    """The merged record: the re-run rows replace the first pass's, scores are recomputed, the first pass stays in
    ``before``; a re-run of a mutant the first pass never ran is refused."""
    def rec(i: str, status: str, eq: str | None = None) -> dict:
        return {"id": i, "area": "dp", "kind": "constant", "file": "theory/x.py", "description": "d", "equivalent": eq,
                "status": status, "nets": {"area_quick": {"status": status, "by": None}}}
    first = {"mode": "quick", "seconds": 10.0, "scores": {}, "catalogue_errors": [], "net_seconds": {},
             "mutants": [rec("a", "killed"), rec("b", "survived"), rec("c", "survived", "argued"), rec("d", "error")]}
    first["scores"] = {"area_quick": score(first["mutants"], "area_quick")}
    assert survivors(first) == ["b", "d"]
    rerun = {"mode": "quick", "seconds": 3.0, "isolation": [], "catalogue_errors": [], "net_seconds": {},
             "mutants": [rec("b", "killed"), rec("d", "survived")]}
    rep = merge_rerun(first, rerun, "first pass")
    assert [r["id"] for r in rep["mutants"]] == ["a", "b", "c", "d"] and rep["mutants"][1]["rerun"]
    assert rep["scores"]["area_quick"]["killed"] == 2 and rep["scores"]["area_quick"]["survived"] == ["d"]
    assert rep["before"]["mutants"]["b"]["status"] == "survived" and rep["before"]["score"]["killed"] == 1
    assert "first pass" in to_markdown({**rep, "workers": 2, "baseline_seconds": 1.0, "hypothesis_profile": "dev",
                                        "hypothesis_seed": 0, "complete": True, "never_counts": {}})
    again = merge_rerun(rep, {**rerun, "mutants": [rec("d", "killed")]}, "second")
    assert again["scores"]["area_quick"]["survived"] == [] and len(again["reruns"]) == 2
    assert again["before"] == rep["before"]  # the first pass stays the "before", not the first merge
    with pytest.raises(ValueError):
        merge_rerun(first, {**rerun, "mutants": [rec("z", "killed")]}, "x")
