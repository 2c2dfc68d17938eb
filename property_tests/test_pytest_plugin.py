"""The pytest plugin (issue 24, item 2): ``pytest --privclaims DIR`` makes each claim of a ledger project a test
that passes on its pin and fails naming the claim, the pinned and computed verdicts, the why and what moved.

This is also how the papers' pins are tested here (a few quick claims of each area; the whole papers' ledger runs
in CI as README command 1), and how the worked example ``examples/my-draft`` is tested: on its pins, and with a
pin edited by hand."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

# pytester's in-process runs drop the modules first imported during a run; everything the example's and the tiny
# projects' checks use is imported here first, so that only the projects' own modules come and go.
import privclaims.checks.pin_environment  # noqa: F401,E402
import privclaims.checks.pins  # noqa: F401,E402
import privclaims.checks.quoting  # noqa: F401,E402
import privclaims.checks.report  # noqa: F401,E402
import privclaims.checks.runner  # noqa: F401,E402
import privclaims.ledger  # noqa: F401,E402
from privclaims import ads, dp, maskit, zealous  # noqa: F401,E402

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent
PAPERS = ROOT / "checks"
EXAMPLE = ROOT / "examples" / "my-draft"
PAPERS_FEW = ("dp.def2", "maskit.ex1", "ads.prop6", "count.thm9", "zealous.table6_2", "querygen.table1")


def _copy_example(dest: Path) -> Path:
    shutil.copytree(EXAMPLE, dest, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def test_papers_pins_checked_through_the_plugin(pytester):
    """A few quick claims of each area of the papers' ledger, run as the plugin's test items, keep their pins (in a
    subprocess: the papers' checks import much that an in-process run would drop again)."""
    from privclaims.checks.project import papers

    assert set(PAPERS_FEW) <= set(papers().catalog)
    r = pytester.runpytest_subprocess("--privclaims", str(PAPERS), "--privclaims-quick", "-k", " or ".join(PAPERS_FEW),
                                      "-rs", "-p", "no:cacheprovider", timeout=600)
    outcomes = r.parseoutcomes()
    assert outcomes.get("failed", 0) == 0 and outcomes.get("error", 0) == 0, r.stdout.str()
    selected = len(papers().catalog) - outcomes["deselected"]
    assert selected >= len(PAPERS_FEW) and outcomes.get("passed", 0) + outcomes.get("skipped", 0) == selected
    assert outcomes.get("passed", 0) >= len(PAPERS_FEW) - 1, r.stdout.str()  # at most one skipped (data absent)


def test_the_example_passes_on_its_pins(pytester):
    r = pytester.runpytest("--privclaims", str(EXAMPLE), "-vv")
    r.assert_outcomes(passed=7)
    r.stdout.fnmatch_lines(["*examples/my-draft/privclaims.toml::dp.rating PASSED*",
                            "*privclaims.toml::maskit.hospital_only PASSED*"])


def test_the_ledger_runs_the_example(tmp_path):
    """``privclaims ledger --project examples/my-draft`` runs its seven claims; every verdict keeps its pin, the quotes
    are verbatim in draft.md, and the verdicts are the ones computed by hand (see examples/my-draft/README.md)."""
    out = tmp_path / "l.json"
    r = subprocess.run([sys.executable, "-m", "privclaims", "ledger", "--project", str(EXAMPLE), "--json", str(out),
                        "--no-table"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    doc = json.loads(out.read_text())
    assert {c["id"]: c["verdict"] for c in doc["claims"]} == {
        "dp.rr": "verified", "dp.rating": "reading-dependent", "maskit.hospital_only": "refuted",
        "maskit.policy": "verified", "ads.greedy": "verified", "zealous.tau_prime": "verified",
        "dp.rr_every_p": "verified-bounded"}
    assert doc["run"]["quotes"]["checked"] and doc["run"]["quotes"]["problems"] == []
    by_id = {c["id"]: c for c in doc["claims"]}
    assert by_id["maskit.policy"]["evidence"]["gain"]["decision"]["value"] == "332/1965"  # brute force over outputs
    assert by_id["maskit.hospital_only"]["evidence"]["gain"]["decision"]["value"] == "1761/2000"
    assert by_id["ads.greedy"]["evidence"]["ratio"]["decision"]["value"] == "23/25"  # (17/40 + 3/20) / (5/8)
    assert {r["name"]: r["verdict"] for r in by_id["dp.rating"]["readings"]} == {"per pair": "verified",
                                                                                 "per input": "refuted"}


def test_an_edited_pin_fails_naming_the_drift(pytester, tmp_path):
    """A pinned value and a pinned verdict edited by hand: the two claims fail, each naming the claim, the pinned and
    computed verdicts and what moved; the others pass."""
    proj = _copy_example(tmp_path / "draft")
    pin_file = proj / "pins" / "ads" / "greedy.json"
    pin = json.loads(pin_file.read_text())
    pin["values"]["evidence"]["optimum_revenue"] = "3/5"
    pin_file.write_text(json.dumps(pin))
    pin_file = proj / "pins" / "dp" / "rr.json"
    pin = json.loads(pin_file.read_text())
    pin["verdict"] = pin["values"]["verdict"] = "refuted"
    pin_file.write_text(json.dumps(pin))
    r = pytester.runpytest("--privclaims", str(proj))
    r.assert_outcomes(passed=5, failed=2)
    r.stdout.fnmatch_lines([
        "claim dp.rr differs from its pin", "  pinned verdict:   refuted", "  computed verdict: verified",
        "    verdict: pinned refuted, now verified",
        "claim ads.greedy differs from its pin", "  pinned verdict:   verified", "  computed verdict: verified",
        "  moved from the pin (*pins/ads/greedy.json):", '    evidence.optimum_revenue: pinned "3/5", now "5/8"',
        "*--repin --claim ads.greedy --reason*",
        "FAILED *privclaims.toml::dp.rr*", "FAILED *privclaims.toml::ads.greedy*"])


def test_a_moved_pin_under_other_library_versions_says_so(pytester, tmp_path):
    """The pins' environment names numpy 1.0.0: a claim whose pin moved says the move may be the library's; a claim
    that keeps its pin passes as before."""
    from privclaims.checks.pin_environment import FILE_NAME, installed

    proj = _copy_example(tmp_path / "draft")
    env_file = proj / "pins" / FILE_NAME
    env_file.write_text(json.dumps({**json.loads(env_file.read_text()), "numpy": "1.0.0"}))
    pin_file = proj / "pins" / "ads" / "greedy.json"
    pin = json.loads(pin_file.read_text())
    pin["values"]["evidence"]["optimum_revenue"] = "3/5"
    pin_file.write_text(json.dumps(pin))
    r = pytester.runpytest("--privclaims", str(proj))
    r.assert_outcomes(passed=6, failed=1)
    r.stdout.fnmatch_lines(["claim ads.greedy differs from its pin", "  the pins were computed under other library "
                            f"versions (numpy: pins 1.0.0, installed {installed()['numpy']}): a moved pin may be theirs, "
                            "not the project's",
                            "  if the change is intended: privclaims ledger --project * --repin --reason * (every claim: "
                            "under other library versions a partial re-pin is refused), or first pip install 'numpy==1.0.0'"])


def test_a_broken_environment_file_is_the_projects_error_in_one_line(pytester, tmp_path):
    from privclaims.checks.pin_environment import FILE_NAME

    proj = _copy_example(tmp_path / "draft")
    (proj / "pins" / FILE_NAME).write_text('{"numpy": 2}')
    r = pytester.runpytest("--privclaims", str(proj))
    r.assert_outcomes(errors=1)
    r.stdout.fnmatch_lines([f"ledger project {proj}: {proj / 'pins' / FILE_NAME}*mend the file, or delete it*"])


def test_a_quote_off_the_document_fails(pytester, tmp_path):
    proj = _copy_example(tmp_path / "draft")
    doc = proj / "draft.md"
    doc.write_text(doc.read_text().replace("its outputs split into", "its outputs are split into"))
    r = pytester.runpytest("--privclaims", str(proj), "-k", "dp.rating")
    r.assert_outcomes(failed=1, deselected=6)
    r.stdout.fnmatch_lines(["  quotes not verbatim in the project's documents:", "*not verbatim in draft.md*"])


TINY = {
    "privclaims.toml": """
        [ledger]
        name = "tiny"
        catalog = "claims.toml"
        pins = "pins"
        checks = ["checks.py"]
        [data]
        search = ["$PRIVCLAIMS_TINY_DATA_UNSET"]
    """,
    "claims.toml": """
        [[claims]]
        id = "t.quick"
        area = "t"
        source = "nowhere"
        statement = "one plus one is two"
        [[claims]]
        id = "t.long"
        area = "t"
        source = "nowhere"
        statement = "a long search finds nothing"
        [[claims]]
        id = "t.data"
        area = "t"
        source = "nowhere"
        statement = "the census says so"
    """,
    "checks.py": """
        from privclaims.ledger import claim, decide, verified

        @claim("t.quick", method="exact", rests_on=())
        def quick(ctx):
            return verified(sum=decide(1 + 1, "==", 2))

        @claim("t.long", method="exhaustive", rests_on=(), quick=False)
        def long(ctx):
            return verified(sum=decide(2, "==", 2))

        @claim("t.data", method="exact", rests_on=(), needs_data="census-2020")
        def data(ctx):
            ctx.data("census-2020")
            return verified()
    """,
}


def _tiny(root: Path, pins: bool = True) -> Path:
    root.mkdir()
    for name, text in TINY.items():
        (root / name).write_text(textwrap.dedent(text))
    if pins:
        from privclaims.checks.pins import write_pin
        from privclaims.checks.project import Project
        from privclaims.checks.registry import Context
        from privclaims.checks.runner import run_one

        proj = Project.load(root)
        for cid in ("t.quick", "t.long"):
            full, quick = (run_one(cid, Context(quick=q), proj) for q in (False, True))
            write_pin(proj, cid, full, quick if cid == "t.quick" else None, "tiny project of the plugin's tests")
    return root


def test_quick_mode_and_absent_data_skip_with_the_reason(pytester, tmp_path, monkeypatch):
    monkeypatch.delenv("PRIVCLAIMS_TINY_DATA_UNSET", raising=False)
    proj = _tiny(tmp_path / "tiny")
    r = pytester.runpytest("--privclaims", str(proj), "--privclaims-quick", "-rs")
    r.assert_outcomes(passed=1, skipped=2)
    r.stdout.fnmatch_lines(["*t.long*skipped in --quick mode*", "*t.data*data set 'census-2020' not found*"])
    r = pytester.runpytest("--privclaims", str(proj), "-rs")
    r.assert_outcomes(passed=2, skipped=1)


def test_an_unpinned_claim_fails_saying_so(pytester, tmp_path):
    proj = _tiny(tmp_path / "tiny", pins=False)
    r = pytester.runpytest("--privclaims", str(proj), "-k", "t.quick")
    r.assert_outcomes(failed=1, deselected=2)
    r.stdout.fnmatch_lines(["claim t.quick: not pinned", "  pinned verdict:   None", "*--repin --claim t.quick*"])


def test_given_paths_run_beside_the_claims_and_a_bad_folder_is_refused(pytester, tmp_path):
    proj = _tiny(tmp_path / "tiny")
    pytester.makepyfile(test_mine="def test_mine():\n    assert True\n")
    r = pytester.runpytest("test_mine.py", "--privclaims", str(proj), "-m", "privclaims", "-k", "not t.data")
    r.assert_outcomes(passed=2, deselected=2)  # the claims only (-m privclaims): test_mine and t.data deselected
    r = pytester.runpytest("test_mine.py", "--privclaims", str(proj), "-k", "mine or t.quick")
    r.assert_outcomes(passed=2, deselected=2)
    r = pytester.runpytest("--privclaims", str(tmp_path))
    assert r.ret == pytest.ExitCode.USAGE_ERROR
    r.stderr.fnmatch_lines(["*--privclaims*no privclaims.toml there*"])


def test_a_broken_pin_fails_its_claim_in_one_line(pytester, tmp_path):
    """A pin file that breaks the pin schema fails its own claim with one line naming the file and the rule
    (no traceback); the other claims run."""
    proj = _copy_example(tmp_path / "draft")
    (proj / "pins" / "dp" / "rating.json").write_text('{"id": "dp.rating", "verdict": "verified"}')
    r = pytester.runpytest("--privclaims", str(proj))
    r.assert_outcomes(passed=6, failed=1)
    r.stdout.fnmatch_lines(["ledger project *: pin *rating.json: missing key 'readings'*"])
    r.stdout.no_fnmatch_line("*Traceback*")
    r.stdout.no_fnmatch_line("*pins.py:*")
