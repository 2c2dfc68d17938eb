"""Whole-project timings (issue 17): the full claims ledger with cold caches and the test suite, each run
as the README runs it, in a subprocess of this interpreter, on 2 workers.

* ``suite.ledger_full_cold``: ``python -m privclaims ledger --json … --markdown …`` (full mode, 2 workers) with every
  experiment cache empty: ``PRIVCLAIMS_CACHE`` and ``TMPDIR`` point into a fresh temporary folder, so the
  MaskIt, ads and ZEALOUS experiment caches are all recomputed. Target ≤ 100 s (issue 25; 240 s before). The run must end with
  every pin matched (exit 0), or the measurement fails.
* ``suite.tests_ci_profile``: ``python -m pytest -n 2`` with ``HYPOTHESIS_PROFILE=ci`` (what CI runs).
  Target ≤ 150 s (issue 25; 240 s before); it must pass.

Each also prints the run's CPU time (user + system of the run and every process it waited for: xdist workers,
notebook kernels, subprocesses, the ledger's forked workers) and what it implies on this machine (:func:`cpu_floor`):
no schedule on C cores beats CPU / C of wall time, and a wall-time target T needs the work itself at most T x C CPU
seconds. On a shared machine the wall time of one tree varies by ~5% from run to run; the CPU time shows whether a
change saved work.

Both are minutes long: select them with ``--area suite`` or leave them out with ``--area`` of the others.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import Measurement, benchmark

ROOT = Path(__file__).resolve().parent.parent


def _timed(args: list[str], env: dict[str, str]) -> tuple[float, float, subprocess.CompletedProcess]:
    """``(wall seconds, CPU seconds, result)`` of one run: the CPU time (user + system) of the process and every
    descendant it waited for (pytest's xdist workers, notebook kernels, ledger and CLI subprocesses, the ledger's
    forked workers)."""
    c0 = _children_cpu()
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, *args], cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True)
    return time.perf_counter() - t0, _children_cpu() - c0, r


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def cpu_floor(cpu: float, target: float, cores: int | None = None) -> str:
    """What a run's CPU time says about its wall-time target on this machine: with ``cores`` cores (default: this
    machine's), no schedule finishes ``cpu`` seconds of work in less than ``cpu / cores`` seconds of wall time, and
    meeting ``target`` needs the work itself at most ``target * cores`` CPU seconds. The CPU time varies less from run
    to run than the wall time on a shared machine, so it is the figure that shows whether a change saved work."""
    cores = cores or os.cpu_count() or 1
    need = target * cores
    return (f"CPU {cpu:.0f} s on {cores} cores: no schedule beats {cpu / cores:.0f} s of wall time; the {target:.0f} s "
            f"target needs at most {need:.0f} CPU s ({'met' if cpu <= need else f'{cpu - need:.0f} s over'})")


def _last_line(text: str) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def _pytest_summary(text: str) -> str:
    """pytest's closing count line ("1383 passed, 8 skipped, ... in 213.05s"; the suite's conftest prints its example
    counts after it), else the output's last line."""
    found = [ln.strip(" =") for ln in text.splitlines() if re.search(r"\d+ (passed|failed|errors?)\b.* in [\d.]+s", ln)]
    return found[-1] if found else _last_line(text)


@benchmark("suite.ledger_full_cold", "suite")
def ledger_full_cold() -> Measurement:
    with tempfile.TemporaryDirectory() as d:
        cache = Path(d) / "cache"
        cache.mkdir()
        secs, cpu, r = _timed(["-m", "privclaims", "ledger", "--workers", "2", "--json", str(Path(d) / "r.json"),
                          "--markdown", str(Path(d) / "r.md")], {"PRIVCLAIMS_CACHE": str(cache), "TMPDIR": d})
    if r.returncode != 0:
        raise AssertionError(f"ledger exited {r.returncode}: {_last_line(r.stdout)} {r.stderr[-500:]}")
    return Measurement(secs, "s", target=100.0,
                       notes=f"issue 25 target 100 s; full ledger, 2 workers, empty experiment caches (PRIVCLAIMS_CACHE and TMPDIR fresh); "
                             f"{_last_line(r.stdout)}; {cpu_floor(cpu, 100.0)}; was ~420 s before issue 17")


@benchmark("suite.tests_ci_profile", "suite")
def tests_ci_profile() -> Measurement:
    secs, cpu, r = _timed(["-m", "pytest", "-n", "2", "-q"], {"HYPOTHESIS_PROFILE": "ci"})
    if r.returncode != 0:
        raise AssertionError(f"pytest exited {r.returncode}: {_pytest_summary(r.stdout)}")
    return Measurement(secs, "s", target=150.0,
                       notes=f"issue 25 target 150 s; pytest -n 2, HYPOTHESIS_PROFILE=ci (what CI runs): {_pytest_summary(r.stdout)}; "
                             f"{cpu_floor(cpu, 150.0)}; was ~420 s contended before issue 17")
