"""The pins record the library versions they were computed under (checks/pin_environment.py): a run under other
versions says which, beside any drift and in its reports; a re-pin of some claims under other versions is refused;
Hypothesis, whose draws the pins count, is installed at the pins' version."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tomllib

import pytest

from privclaims.checks import pin_environment as pe
from privclaims.checks.html import to_html
from privclaims.checks.project import ProjectError, papers
from privclaims.checks.report import to_markdown
from property_tests.conftest import ROOT

PROJECT_FILES = [ROOT / "checks" / "expected" / pe.FILE_NAME, ROOT / "examples" / "my-draft" / "pins" / pe.FILE_NAME]


def test_hypothesis_is_required_at_the_pins_version():
    """pyproject.toml requires exactly the Hypothesis the papers' pins (and the example project's) were computed
    under, and that is the one installed: a new Hypothesis release cannot move a pin on a fresh machine."""
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    (hyp,) = [d for d in deps if re.match(r"hypothesis\b", d)]
    m = re.fullmatch(r"hypothesis==(\S+)", hyp)
    assert m, f"{hyp!r}: Hypothesis is required at one version"
    for path in PROJECT_FILES:
        assert json.loads(path.read_text())["hypothesis"] == m.group(1), path
    assert pe.installed()["hypothesis"] == m.group(1)


def test_every_project_file_records_every_library():
    for path in PROJECT_FILES:
        assert set(json.loads(path.read_text())) == set(pe.LIBRARIES), path
    assert pe.pinned(papers()) == json.loads(PROJECT_FILES[0].read_text())


def test_differences_name_each_library_that_moved():
    now = pe.installed()
    assert pe.differences(None, now) == []  # a project recording no environment compares nothing
    assert pe.differences(dict(now), now) == []
    assert pe.differences({**now, "hypothesis": "6.170.16"}, {**now, "hypothesis": "6.170.17"}) == [
        "hypothesis: pins 6.170.16, installed 6.170.17"]  # a point release is a difference
    old = {**now, "numpy": "1.0.0", "duckdb": "0.1"}
    del old["scipy"]
    assert pe.differences(old, now) == [f"numpy: pins 1.0.0, installed {now['numpy']}",
                                        f"scipy: pins not recorded, installed {now['scipy']}",
                                        f"duckdb: pins 0.1, installed {now['duckdb']}"]
    env = {"installed": now, "pins": old, "differences": pe.differences(old, now)}
    assert "numpy: pins 1.0.0" in pe.drift_note(env) and pe.drift_note({**env, "differences": []}) is None
    line = pe.environment_line({"environment": env})
    assert line.startswith("Library versions differ from the pins': numpy: pins 1.0.0")
    assert pe.environment_line({"environment": {**env, "differences": []}}) is None and pe.environment_line({}) is None


def _reports(env):
    row = {"id": "dp.x", "area": "dp", "verdict": "verified", "expected": "verified", "method": "exact",
           "statement": "s", "source": "src", "evidence": {}, "seconds": 0.0}
    run = {"project": "t", "seed": 1, "quick": False, "data_dir": None, "drift": [], "environment": env}
    return to_markdown([row], run), to_html([row], run)


def test_the_reports_say_when_the_versions_differ():
    now = pe.installed()
    old = {**now, "numpy": "1.0.0"}
    md, page = _reports({"installed": now, "pins": old, "differences": pe.differences(old, now)})
    assert "Library versions differ from the pins': numpy: pins 1.0.0" in md
    assert "Library versions differ from the pins&#x27;: numpy: pins 1.0.0" in page  # (html.escape)
    md, page = _reports({"installed": now, "pins": now, "differences": []})
    assert "Library versions differ" not in md and "Library versions differ" not in page


@pytest.mark.parametrize("text, rule", [("[1]", "valid dictionary"), ('{"numpy": 2}', "valid string"),
                                        ('{"numpy": "2", "left-pad": "1"}', "left-pad"), ("{", "not JSON")])
def test_a_bad_environment_file_is_refused_naming_it(tmp_path, text, rule):
    from types import SimpleNamespace

    (tmp_path / pe.FILE_NAME).write_text(text)
    with pytest.raises(ProjectError, match=re.escape(str(tmp_path / pe.FILE_NAME))) as e:
        pe.pinned(SimpleNamespace(pins_dir=tmp_path))
    assert rule in str(e.value)


def _draft(tmp_path, **versions):
    """A copy of the example project whose pins' environment names ``versions`` instead (a key set to None: the file
    is removed), and a runner of the ledger on it."""
    proj = tmp_path / "draft"
    shutil.copytree(ROOT / "examples" / "my-draft", proj, ignore=shutil.ignore_patterns("__pycache__"))
    env_file = proj / "pins" / pe.FILE_NAME
    if None in versions.values():
        env_file.unlink()
    else:
        env_file.write_text(json.dumps({**json.loads(env_file.read_text()), **versions}))

    def cli(*extra):
        return subprocess.run([sys.executable, "-m", "privclaims", "ledger", "--project", str(proj), "--workers", "1",
                               *extra], cwd=ROOT, capture_output=True, text=True, timeout=300)

    return proj, env_file, cli


def _pin_files(proj):
    return {p: p.read_bytes() for p in sorted((proj / "pins").rglob("*.json"))}


def test_a_run_under_other_versions_says_so_and_a_partial_repin_is_refused(tmp_path):
    """The example project with its pins' environment edited (numpy 1.0.0, and a markup-like hypothesis version): a
    run prints each difference, records them in the JSON report and, on drift, says the moved pin may be the
    library's; re-pinning one claim, or one area, is refused before anything runs (exit 2, nothing written, the pip
    command of the pins' versions given); re-pinning every claim records the installed versions."""
    proj, env_file, cli = _draft(tmp_path, numpy="1.0.0", hypothesis="6.170[/x]")
    want = [f"numpy: pins 1.0.0, installed {pe.installed()['numpy']}",
            f"hypothesis: pins 6.170[/x], installed {pe.installed()['hypothesis']}"]  # (LIBRARIES' order)

    r = cli("--claim", "dp.rr", "--no-table", "--json", str(tmp_path / "r.json"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert all(f"environment: {w}" in r.stdout for w in want) and "may be theirs" not in r.stdout
    assert json.loads((tmp_path / "r.json").read_text())["run"]["environment"]["differences"] == want

    pin = proj / "pins" / "dp" / "rr.json"
    kept = pin.read_text()
    moved = json.loads(kept)
    moved["values"]["moved"] = 1
    pin.write_text(json.dumps(moved))
    r = cli("--claim", "dp.rr", "--no-table")
    assert r.returncode == 1 and "a moved pin may be theirs, not the project's" in r.stdout, r.stdout + r.stderr
    assert "6.170[/x]" in r.stdout.split("may be theirs")[0].splitlines()[-1]  # the note is plain text, not markup
    shown = cli("--show", "dp.rr")
    assert shown.returncode == 1 and "a moved pin may be theirs, not the project's" in shown.stdout, shown.stdout
    pin.write_text(kept)

    before = _pin_files(proj)
    for selection in (("--claim", "dp.rr"), ("--area", "dp"), ("--verdict", "verified")):
        r = cli(*selection, "--repin", "--reason", "some claims")
        assert r.returncode == 2 and r.stderr.startswith("error: the pins were computed under other library versions")
        assert "re-pin every claim" in r.stderr and "pip install 'numpy==1.0.0'" in r.stderr, r.stderr
        assert not r.stdout, r.stdout  # refused before the run's header
        assert _pin_files(proj) == before

    r = cli("--repin", "--reason", "every claim, under the installed versions")
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(env_file.read_text()) == pe.installed() and "recorded the pins' library versions" in r.stdout
    assert "environment:" not in cli("--claim", "dp.rr", "--no-table").stdout


def test_a_full_repin_under_other_versions_with_an_errored_claim_writes_nothing(tmp_path):
    """Every claim selected, one errors (its input is broken): under other versions none is re-pinned, since the
    others alone would leave pins of two environments."""
    proj, env_file, cli = _draft(tmp_path, numpy="1.0.0")
    (proj / "rating.json").write_text("{}")  # dp.rating's input: now refused, the claim errors
    before = _pin_files(proj)
    r = cli("--repin", "--reason", "every claim")
    assert r.returncode == 1 and "not re-pinned either" in r.stdout and "  pinned " not in r.stdout, r.stdout + r.stderr
    assert _pin_files(proj) == before


def test_a_project_recording_no_versions_compares_none(tmp_path):
    """Without environment.json: runs compare nothing, a partial re-pin writes no file (its pins would not be every
    claim's), a full one writes it."""
    proj, env_file, cli = _draft(tmp_path, numpy=None)
    r = cli("--claim", "dp.rr", "--no-table", "--json", str(tmp_path / "r.json"))
    assert r.returncode == 0 and "environment:" not in r.stdout, r.stdout + r.stderr
    assert json.loads((tmp_path / "r.json").read_text())["run"]["environment"] == {
        "installed": pe.installed(), "pins": None, "differences": []}
    assert cli("--claim", "dp.rr", "--repin", "--reason", "one").returncode == 0 and not env_file.exists()
    assert cli("--repin", "--reason", "all").returncode == 0 and json.loads(env_file.read_text()) == pe.installed()


def test_an_absent_library_is_recorded_as_absent(monkeypatch):
    monkeypatch.setattr(pe, "distribution_versions", lambda: {name: None if name == "duckdb" else "1" for name in pe.LIBRARIES})
    now = pe.installed()
    assert now["duckdb"] == "absent" and now["numpy"] == "1"
    assert pe.differences({**now, "duckdb": "2.0.1"}, now) == ["duckdb: pins 2.0.1, installed absent"]
    assert pe.install_command({**now, "duckdb": "2.0.1"}) == "pip install 'duckdb==2.0.1'"
    assert pe.install_command({**now, "duckdb": "2.0.1", "numpy": "absent", "scipy": "absent"}) == \
        "pip install 'duckdb==2.0.1' && pip uninstall 'numpy' 'scipy'"
    assert pe.install_command({**now, "numpy": "absent"}) == "pip uninstall 'numpy'"


def test_a_broken_environment_file_stops_a_run_in_one_line_but_not_a_report_reading(tmp_path):
    proj, env_file, cli = _draft(tmp_path)
    assert cli("--claim", "dp.rr", "--no-table", "--json", str(tmp_path / "r.json")).returncode == 0
    env_file.write_text('{"numpy": 2}')
    r = cli("--claim", "dp.rr", "--no-table")
    assert r.returncode == 2 and not r.stdout and len(r.stderr.splitlines()) == 1, r.stdout + r.stderr
    assert str(env_file) in r.stderr and "mend the file, or delete it" in r.stderr
    shown = cli("--show", "dp.rr", "--from", str(tmp_path / "r.json"))  # reads a report: no run, no pins' versions
    assert shown.returncode == 0 and "dp.rr" in shown.stdout, shown.stdout + shown.stderr
