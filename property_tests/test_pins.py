"""Pins hold the decisive values (issue 23, item 1): a broken computation cannot keep its verdict, the diff says
exactly what moved, values that legitimately vary are excluded by rule, and re-pinning records its reason."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from privclaims.checks.pins import FLOAT_REL, compare, decisive, diff, read_pin, values_of, write_pin
from privclaims.checks.project import papers
from privclaims.checks.registry import Context
from privclaims.checks.runner import drift, run_one

ROOT = Path(__file__).resolve().parent.parent


def test_diff_names_each_moved_leaf():
    pinned = {"a": "1/3", "b": [1, 2, {"c": 0.5}], "d": "x"}
    computed = {"a": "1/3", "b": [1, 3, {"c": 0.5 * (1 + FLOAT_REL / 10)}], "e": "y"}
    assert diff(pinned, computed) == ["b[1]: pinned 2, now 3", 'd: pinned "x", now absent', 'e: not pinned, now "y"']
    assert diff({"f": 1.0}, {"f": 1.0 + 1e-6}) == ["f: pinned 1.0, now 1.000001"]
    assert diff({"f": "1"}, {"f": 1}) == ['f: pinned "1", now 1']  # an exact string is not an integer


def test_volatile_values_are_excluded_by_rule():
    ev = {"seconds": 1.2, "decision_seconds_ratio": 3.0, "figure": "/tmp/x.png", "traceback": ["..."],
          "rows": [{"t_seconds": 2, "delta": "1/10"}], "kept": 4}
    assert decisive(ev) == {"rows": [{"delta": "1/10"}], "kept": 4}


def _table6_2_row(monkeypatch=None, halve=False):
    import privclaims.checks.claims.zealous.numbers as N
    from privclaims.theory.numbers import Q

    if halve:  # (6.5) with lambda = m/eps instead of 2m/eps (eps enters tau' only through lambda = 2m/eps)
        real = N.thm14_min_tau_prime
        monkeypatch.setattr(N, "thm14_min_tau_prime",
                            lambda U, m, eps, delta, tau, ctx: real(U, m, 2 * Q(eps), delta, tau, ctx))
    proj = replace(papers(), pin_cache={})
    return run_one("zealous.table6_2", Context(quick=True), proj)


def test_halving_lambda_fails_table6_2_by_its_numbers(monkeypatch):
    """zealous.table6_2 is a discrepancy (the printed tau' are reproduced at delta = 1/1000, not at the caption's
    1/100). With lambda halved nothing is reproduced at any delta: the verdict label may stay 'discrepancy', but the
    pinned numbers move, so the claim drifts, and the diff names the moved values."""
    good = _table6_2_row()
    assert good["pin"]["moved"] == [] and not drift([good])
    bad = _table6_2_row(monkeypatch, halve=True)
    assert bad["verdict"] == good["verdict"] == "discrepancy"  # the label alone would not notice
    moved = bad["pin"]["moved"]
    assert drift([bad]) == [bad] and moved
    assert any(line.startswith("evidence.computed.tau=") for line in moved), moved
    assert any("reproduced_by" in line for line in moved), moved  # 'delta = 1/1000' no longer reproduces them


def test_the_cli_prints_what_moved(tmp_path):
    """A pin edited by hand (one pinned number changed) fails the ledger with exit 1 and the moved value printed."""
    import shutil

    proj = tmp_path / "papers"
    shutil.copytree(papers().root, proj, ignore=shutil.ignore_patterns("__pycache__"))
    pin_file = proj / "expected" / "dp" / "def2.json"
    pin = json.loads(pin_file.read_text())
    ev = pin["values"]["readings"]["add or delete one user"]["evidence"]  # dp.def2's numbers are per reading
    ev["cases"] += 1
    pin_file.write_text(json.dumps(pin))
    r = subprocess.run([sys.executable, "-m", "privclaims", "ledger", "--project", str(proj), "--claim", "dp.def2",
                        "--no-table"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stdout + r.stderr
    assert f"moved: readings.add or delete one user.evidence.cases: pinned {ev['cases']}, now {ev['cases'] - 1}" \
        in r.stdout, r.stdout


def test_repin_records_its_reason_and_refuses_none(tmp_path):
    proj = replace(papers(), pin_cache={})
    row = run_one("dp.def2", Context(quick=False), proj)
    qrow = run_one("dp.def2", Context(quick=True), proj)
    with pytest.raises(ValueError, match="reason"):
        write_pin(proj, "dp.def2", row, qrow, " ")  # refused before anything is written
    r = subprocess.run([sys.executable, "-m", "privclaims", "ledger", "--repin", "--claim", "dp.def2"], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "--reason" in r.stderr


def test_every_pin_holds_values_for_the_modes_its_claim_runs_in():
    proj = papers()
    bad = []
    for cid, chk in proj.checks.items():
        pin = read_pin(proj, cid)
        if pin is None or not isinstance(pin.get("values"), dict) or not pin.get("reason"):
            bad.append(f"{cid}: no values or no reason")
        elif chk.quick and pin.get("values_quick") is None:
            bad.append(f"{cid}: runs in --quick but has no quick values")
        elif not chk.quick and pin.get("values_quick") is not None:
            bad.append(f"{cid}: pinned quick values for a claim --quick skips")
    assert not bad, bad


def test_values_of_a_row_are_what_compare_reads():
    proj = replace(papers(), pin_cache={})
    row = run_one("dp.def3", Context(quick=True), proj)
    pin = read_pin(proj, "dp.def3")
    assert compare(pin, row, quick=True) == []
    assert set(values_of(row)["readings"]) == {"per-pair split", "per-input split"}


BROKEN_PINS = {  # file text -> what the one-line error names
    '{"id": "dp.rating"}': "missing key 'verdict'",
    '{"id": "dp.rating", "verdict": "verified", "readings": {}, "values": null, "values_quick": null, "reason": "r", '
    '"extra": 1}': "unknown key 'extra'",
    '{"id": "dp.rating", "verdict": "verifyed", "readings": {}, "values": null, "values_quick": null, "reason": "r"}':
        "verdict: Input should be",
    '{"id": "dp.other", "verdict": "verified", "readings": {}, "values": null, "values_quick": null, "reason": "r"}':
        "id 'dp.other' is not 'dp.rating'",
    '{"id": "dp.rating", "verdict": "verified", "readings": {}, "values": "x", "values_quick": null, "reason": "r"}':
        "values",
    '{"id": "dp.rating", "verdict": "verified", "readings": {}, "values": null, "values_quick": "other", "reason": "r"}':
        "values_quick",
    '["dp.rating"]': "Input should be",
    '{"id": "dp.rating", ': "not JSON text",
    "\xff": "not JSON text",
}


@pytest.mark.parametrize("text", list(BROKEN_PINS), ids=range(len(BROKEN_PINS)))
def test_a_broken_pin_is_a_project_error_naming_its_file_and_rule(tmp_path, text):
    from types import SimpleNamespace

    from privclaims.checks.project import ProjectError

    pin = tmp_path / "dp" / "rating.json"
    pin.parent.mkdir()
    pin.write_bytes(text.encode("latin-1") if text == "\xff" else text.encode())
    with pytest.raises(ProjectError) as e:
        read_pin(SimpleNamespace(pins_dir=tmp_path, pin_cache={}), "dp.rating")
    assert str(pin) in str(e.value) and BROKEN_PINS[text] in str(e.value), str(e.value)


def test_the_cli_refuses_a_broken_pin_in_one_line_before_running(tmp_path):
    """A user's hand-edited pin: exit 2, one line naming the file and the rule, nothing run (no report written)."""
    import shutil

    proj = tmp_path / "draft"
    shutil.copytree(ROOT / "examples" / "my-draft", proj, ignore=shutil.ignore_patterns("__pycache__"))
    (proj / "pins" / "dp" / "rating.json").write_text('{"id": "a.wrong"}')
    report = tmp_path / "r.json"
    for extra in (["--no-table", "--json", str(report)], ["--verdict", "refuted"], ["--show", "dp.rating"]):
        r = subprocess.run([sys.executable, "-m", "privclaims", "ledger", "--project", str(proj), *extra],
                           cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert r.returncode == 2, (extra, r.stdout, r.stderr)
        assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert "rating.json" in r.stderr and "missing key 'verdict'" in r.stderr, r.stderr
    assert not report.exists()


def test_repin_replaces_a_broken_pin_and_list_names_it(tmp_path):
    """The way out of a broken pin is the re-pin itself: ``--repin`` replaces the selected claims' pins, broken ones
    too (and says so); ``--list`` shows the claim as ``broken-pin`` instead of refusing the whole list."""
    import json
    import shutil

    proj = tmp_path / "draft"
    shutil.copytree(ROOT / "examples" / "my-draft", proj, ignore=shutil.ignore_patterns("__pycache__"))
    good = json.loads((proj / "pins" / "dp" / "rating.json").read_text())
    (proj / "pins" / "dp" / "rating.json").write_text('{"id": "dp.rating", ')

    def cli(*extra):
        return subprocess.run([sys.executable, "-m", "privclaims", "ledger", "--project", str(proj), *extra],
                              cwd=ROOT, capture_output=True, text=True, timeout=300)

    listed = cli("--list")
    assert listed.returncode == 0, listed.stderr
    assert [x for x in listed.stdout.splitlines() if x.startswith("dp.rating ")][0].split()[3] == "broken-pin"
    assert cli("--claim", "dp.rating", "--no-table").returncode == 2  # a run still refuses it, before running
    r = cli("--claim", "dp.rating", "--repin", "--reason", "the file was truncated")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "replaced a broken pin" in r.stdout and "not JSON text" in r.stdout, r.stdout
    new = json.loads((proj / "pins" / "dp" / "rating.json").read_text())
    assert new["reason"] == "the file was truncated"
    assert {k: v for k, v in new.items() if k != "reason"} == {k: v for k, v in good.items() if k != "reason"}
    again = cli("--claim", "dp.rating", "--no-table")
    assert again.returncode in (0, 1) and "match their pins" in again.stdout, again.stdout + again.stderr


def test_a_failed_repin_leaves_the_broken_pin_refused_in_the_same_process(tmp_path, capsys):
    """--repin marks the broken pins it is replacing as absent while it runs; one it could not replace (the claim
    errored) is refused again by the next command in the same process, not taken for 'not pinned'."""
    import shutil

    from privclaims.checks.cli import main

    proj = tmp_path / "draft"
    shutil.copytree(ROOT / "examples" / "my-draft", proj, ignore=shutil.ignore_patterns("__pycache__"))
    (proj / "pins" / "dp" / "rating.json").write_text('{"id": "dp.rating", ')
    (proj / "rating.json").write_text("{}")  # the check's input is now bad: dp.rating errors, nothing is re-pinned
    args = ["--project", str(proj), "--claim", "dp.rating", "--workers", "1"]
    assert main([*args, "--repin", "--reason", "r"]) == 1
    assert "not re-pinned" in capsys.readouterr().out
    assert main([*args, "--no-table"]) == 2
    assert "not JSON text" in capsys.readouterr().err
