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


def test_a_run_under_other_versions_says_so_and_a_partial_repin_is_refused(tmp_path):
    """The example project with its pins' environment edited (numpy 1.0.0): a run prints the difference, records it
    in the JSON report and, on drift, says the moved pin may be the library's; re-pinning one claim is refused
    (exit 2, nothing written); re-pinning every claim records the installed versions."""
    proj = tmp_path / "draft"
    shutil.copytree(ROOT / "examples" / "my-draft", proj, ignore=shutil.ignore_patterns("__pycache__"))
    env_file = proj / "pins" / pe.FILE_NAME
    old = {**json.loads(env_file.read_text()), "numpy": "1.0.0"}
    env_file.write_text(json.dumps(old))
    want = f"numpy: pins 1.0.0, installed {pe.installed()['numpy']}"

    def cli(*extra):
        return subprocess.run([sys.executable, "-m", "privclaims", "ledger", "--project", str(proj), "--workers", "1",
                               *extra], cwd=ROOT, capture_output=True, text=True, timeout=300)

    r = cli("--claim", "dp.rr", "--no-table", "--json", str(tmp_path / "r.json"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"environment: {want}" in r.stdout and "may be theirs" not in r.stdout
    assert json.loads((tmp_path / "r.json").read_text())["run"]["environment"]["differences"] == [want]

    pin = proj / "pins" / "dp" / "rr.json"
    kept = pin.read_text()
    moved = json.loads(kept)
    moved["values"]["moved"] = 1
    pin.write_text(json.dumps(moved))
    r = cli("--claim", "dp.rr", "--no-table")
    assert r.returncode == 1 and "a moved pin may be theirs, not the project's" in r.stdout and want in r.stdout, r.stdout
    pin.write_text(kept)

    before = {p: p.read_text() for p in (proj / "pins").rglob("*.json")}
    r = cli("--claim", "dp.rr", "--repin", "--reason", "one claim")
    assert r.returncode == 2 and "re-pin every claim" in r.stdout and want in r.stdout, r.stdout + r.stderr
    assert {p: p.read_text() for p in (proj / "pins").rglob("*.json")} == before

    r = cli("--repin", "--reason", "every claim, under the installed versions")
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(env_file.read_text()) == pe.installed() and "recorded the pins' library versions" in r.stdout
    assert "environment:" not in cli("--claim", "dp.rr", "--no-table").stdout
