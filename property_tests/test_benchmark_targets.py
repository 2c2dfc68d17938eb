"""benchmarks.target_note: a benchmark's notes say whether this run met its target (computed, never fixed)."""

from __future__ import annotations

import pytest

from benchmarks import target_note


@pytest.mark.parametrize("measured,bound,at_least,word", [
    (0.78, 1, True, "MISSED"), (1.0, 1, True, "met"), (1.3, 1, True, "met"),
    (6.4, 6, False, "MISSED"), (6.0, 6, False, "met"), (0.57, 1.5, False, "met"),
])
def test_target_note_says_met_or_missed(measured, bound, at_least, word):
    note = target_note("ratio", measured, bound, at_least=at_least)
    assert note.split(": ")[1].startswith(word)
    assert ("ratio >= " if at_least else "ratio <= ") + f"{bound:g}" in note and f"{measured:.3g}" in note


@pytest.mark.parametrize("kw,met", [
    (dict(value=2.0), None),
    (dict(value=2.0, target=2.0), True), (dict(value=2.1, target=2.0), False),
    (dict(value=1.0, baseline=3.0, ratio_target=3.0), True), (dict(value=1.0, baseline=2.9, ratio_target=3.0), False),
    (dict(value=1.0, ratio_target=3.0), False),  # no baseline: a ratio target cannot be met
    (dict(value=1.0, target=2.0, baseline=1.0, ratio_target=3.0), False),
])
def test_measurement_met_is_every_target(kw, met):
    from benchmarks import Measurement

    assert Measurement(unit="s", **kw).met is met


def test_plain_output_off_a_terminal_names_every_target(capsys, monkeypatch):
    """``python -m benchmarks`` in a pipe prints one block per benchmark with its target and whether it was met."""
    import benchmarks
    from benchmarks import Measurement, __main__ as cli

    monkeypatch.setattr(benchmarks, "BENCHMARKS", {"x.one": ("x", lambda: Measurement(
        0.5, "s", target=1.0, baseline=2.0, ratio_target=3.0, notes="n"))})
    monkeypatch.setattr(cli, "load_all", lambda: benchmarks.BENCHMARKS)
    assert cli.main([]) == 0
    out = capsys.readouterr().out
    assert "x.one [x]: 0.5 s; target 1; baseline 2; ratio 4; ratio_target 3; met yes" in out and "    n" in out


@pytest.mark.parametrize("cpu,target,cores,floor,budget,fit", [
    (440.0, 150.0, 2, "220 s", "300 CPU s", "140 CPU s over budget"), (290.0, 150.0, 2, "145 s", "300 CPU s", "within budget"),
    (300.0, 150.0, 2, "150 s", "300 CPU s", "within budget"), (300.4, 150.0, 2, "151 s", "300 CPU s", "1 CPU s over budget"),
    (250.0, 100.0, 2, "125 s", "200 CPU s", "50 CPU s over budget"), (250.0, 100.0, 4, "63 s", "400 CPU s", "within budget"),
])
def test_cpu_floor_is_the_cpu_shared_over_the_processes(cpu, target, cores, floor, budget, fit):
    """The suite benchmarks' CPU line: cpu / cores (rounded up) is the least wall time; the target's budget is
    target * cores CPU seconds; an overage is rounded up, never shown as 0."""
    from benchmarks.suite import cpu_floor

    line = cpu_floor(cpu, target, cores)
    assert f"beats {floor} of wall time" in line and f"at most {budget}" in line and line.endswith(f"({fit})")


def test_cpu_floor_counts_the_runs_parallelism_at_most_the_usable_cores(monkeypatch):
    from benchmarks import suite

    monkeypatch.setattr(suite, "usable_cores", lambda: 8)
    assert "2 at a time" in suite.cpu_floor(100.0, 10.0)  # the runs use two processes: 8 cores do not lower the floor
    monkeypatch.setattr(suite, "usable_cores", lambda: 1)
    assert "1 at a time" in suite.cpu_floor(100.0, 10.0)


def test_timed_counts_the_cpu_of_the_run_and_its_children():
    """A run that burns ~0.3 s of CPU in a child process of its own shows at least that much CPU (and its wall time);
    a run that does nothing shows little (the count starts at the run)."""
    from benchmarks.suite import _timed

    code = ("import subprocess, sys; subprocess.run([sys.executable, '-c', "
            "'import time\\nt = time.process_time()\\nwhile time.process_time() - t < 0.3: pass'])")
    wall, cpu, r = _timed(["-c", code], {})
    assert r.returncode == 0 and cpu >= 0.3 and wall >= 0.3
    wall, cpu, r = _timed(["-c", "pass"], {})
    assert r.returncode == 0 and cpu < 0.25


def test_the_tests_benchmark_notes_pytests_count_line_not_the_example_counts_after_it():
    from benchmarks.suite import _pytest_summary

    out = ("....\n===== 1383 passed, 8 skipped, 52 warnings in 213.05s (0:03:33) =====\n"
           "===== generated examples (HYPOTHESIS_PROFILE=ci) =====\nproperty_tests/x.py::t: {'tried': 40}\n")
    assert _pytest_summary(out) == "1383 passed, 8 skipped, 52 warnings in 213.05s (0:03:33)"
    assert _pytest_summary("1 failed, 2 passed in 3.10s\nx: {}") == "1 failed, 2 passed in 3.10s"
    for line in ("2 errors in 3.0s", "1 error in 3.01s", "8 skipped in 0.50s", "no tests ran in 0.01s",
                 "1 failed, 2 errors in 3.0s"):
        assert _pytest_summary(f"{line}\nafter: 1") == line
    assert _pytest_summary("Interrupted: 1 error during collection\nlast") == "last"
    assert _pytest_summary("no summary here\nlast") == "last"


def test_the_tests_benchmark_runs_readme_command_2_and_sees_its_count_line(tmp_path):
    """The benchmark runs README command 2 as written (pyproject's addopts already add -q; another -q would make pytest
    print no count line), and at that verbosity pytest's output has the count line _pytest_summary reads."""
    import subprocess
    import sys
    from pathlib import Path

    from benchmarks.suite import ROOT, TESTS_ARGS, _pytest_summary

    readme = (ROOT / "README.md").read_text()
    assert ".venv/bin/python " + " ".join(TESTS_ARGS) + "\n" in readme
    addopts = __import__("tomllib").loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["addopts"]
    quiet = addopts.split().count("-q") + [a for a in TESTS_ARGS].count("-q")
    (tmp_path / "test_one.py").write_text("def test_one():\n    assert True\n")
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *["-q"] * quiet, "test_one.py"],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0 and _pytest_summary(r.stdout).startswith("1 passed in "), r.stdout


def test_the_machine_speed_is_a_fixed_loops_cpu_time_printed_beside_the_suite_runs():
    """The suite benchmarks print the machine's speed before and after their run: the CPU time of the same loop, which
    grows with the loop (ten times the work takes longer) and appears in the notes with both values."""
    from benchmarks.suite import FIXED_LOOP, machine_speed, speed_note

    small, large = machine_speed(10**6), machine_speed(10**7)
    assert 0 < small < large
    note = speed_note(2.25, 3.125)
    assert "2.25 CPU s before" in note and "3.12 after" in note and "sum(range(3e8))" in note and FIXED_LOOP == 3 * 10**8


@pytest.mark.parametrize("name", ["ledger_full_cold", "tests_ci_profile"])
def test_each_suite_benchmark_reads_the_speed_before_and_after_its_run_and_prints_both(monkeypatch, name):
    """The machine speed is read once before the run and once after it, and both readings reach the notes."""
    import subprocess

    from benchmarks import suite

    calls: list[str] = []
    speeds = iter([2.25, 3.5])

    def speed():
        calls.append("speed")
        return next(speeds)

    def timed(args, env, drop=()):
        calls.append("run")
        return 1.0, 2.0, subprocess.CompletedProcess(args, 0, stdout="1 passed in 1.00s\n", stderr="")

    monkeypatch.setattr(suite, "machine_speed", speed)
    monkeypatch.setattr(suite, "_timed", timed)
    m = getattr(suite, name)()
    assert calls == ["speed", "run", "speed"]
    assert "2.25 CPU s before the run and 3.50 after" in m.notes


def test_a_benchmarked_run_never_records_or_replays_outcomes(monkeypatch, tmp_path):
    """A shell's recorded-outcome folders do not reach a benchmarked run (its ledger computes every claim), even when
    the benchmark names them itself."""
    from benchmarks.suite import _timed
    from privclaims.checks.outcome_memo import RECORD_ENV, REPLAY_ENV

    monkeypatch.setenv(RECORD_ENV, str(tmp_path / "r"))
    code = f"import os; print(sorted(k for k in os.environ if k in ({RECORD_ENV!r}, {REPLAY_ENV!r})))"
    _, _, r = _timed(["-c", code], {REPLAY_ENV: str(tmp_path / "p")})
    assert r.returncode == 0 and r.stdout.strip() == "[]"
