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


@pytest.mark.parametrize("cpu,target,cores,floor,need,verdict", [
    (440.0, 150.0, 2, "220 s", "300 CPU s", "140 s over"), (290.0, 150.0, 2, "145 s", "300 CPU s", "met"),
    (300.0, 150.0, 2, "150 s", "300 CPU s", "met"), (250.0, 100.0, 2, "125 s", "200 CPU s", "50 s over"),
    (250.0, 100.0, 4, "62 s", "400 CPU s", "met"),
])
def test_cpu_floor_is_the_cpu_shared_over_the_cores(cpu, target, cores, floor, need, verdict):
    """The suite benchmarks' CPU line: cpu / cores is the least wall time; the target needs cpu <= target * cores."""
    from benchmarks.suite import cpu_floor

    line = cpu_floor(cpu, target, cores)
    assert f"beats {floor} of wall time" in line and f"at most {need}" in line and line.endswith(f"({verdict})")


def test_timed_counts_the_cpu_of_the_run_and_its_children():
    """A run that burns ~0.3 s of CPU in a child process of its own shows at least that much CPU (and its wall time)."""
    from benchmarks.suite import _timed

    code = ("import subprocess, sys; subprocess.run([sys.executable, '-c', "
            "'import time\\nt = time.process_time()\\nwhile time.process_time() - t < 0.3: pass'])")
    wall, cpu, r = _timed(["-c", code], {})
    assert r.returncode == 0 and cpu >= 0.3 and wall >= 0.3


def test_the_tests_benchmark_notes_pytests_count_line_not_the_example_counts_after_it():
    from benchmarks.suite import _pytest_summary

    out = ("....\n===== 1383 passed, 8 skipped, 52 warnings in 213.05s (0:03:33) =====\n"
           "===== generated examples (HYPOTHESIS_PROFILE=ci) =====\nproperty_tests/x.py::t: {'tried': 40}\n")
    assert _pytest_summary(out) == "1383 passed, 8 skipped, 52 warnings in 213.05s (0:03:33)"
    assert _pytest_summary("1 failed, 2 passed in 3.10s\nx: {}") == "1 failed, 2 passed in 3.10s"
    assert _pytest_summary("no summary here\nlast") == "last"
