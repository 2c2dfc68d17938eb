"""Hypothesis profiles: ``dev`` (default, fast), ``ci`` and ``thorough`` (long searches).

Select with ``HYPOTHESIS_PROFILE=dev|ci|thorough``. Failures print the seed and a reproduction
blob (``print_blob``); ``--hypothesis-seed=N`` replays a run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Verbosity, settings

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

_common = dict(print_blob=True, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("dev", max_examples=40, deadline=None, **_common)
settings.register_profile("ci", max_examples=150, deadline=None, **_common)
settings.register_profile("thorough", max_examples=5000, deadline=None, verbosity=Verbosity.normal, **_common)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")
settings.load_profile(PROFILE)


def data_dir() -> Path | None:
    from privclaims.checks.registry import default_data_dir

    return default_data_dir()


# ------------------------------------------------------------------ generated-example counts in the summary
# A test that generates inputs records ``record_property("examples", {...counts...})``; the counts reach
# the controlling process also under xdist (user_properties travel with the report) and are printed at the
# end of the run, so a CI log shows how many logs / mutations each profile really tried.

_EXAMPLE_COUNTS: dict[str, object] = {}


def pytest_runtest_logreport(report):
    if report.when == "call":
        for key, value in getattr(report, "user_properties", ()):
            if key == "examples":
                _EXAMPLE_COUNTS[report.nodeid] = value


def pytest_terminal_summary(terminalreporter):
    if _EXAMPLE_COUNTS:
        terminalreporter.section(f"generated examples (HYPOTHESIS_PROFILE={PROFILE})")
        for nodeid, counts in sorted(_EXAMPLE_COUNTS.items()):
            terminalreporter.write_line(f"{nodeid}: {counts}")


# ------------------------------------------------------------------ the --quick ledger, run once per worker count
# Sharing a fixture (issue 25): the pin check of the quick ledger (test_ledger) and the determinism tests read the
# same runs. They carry ``xdist_group("quick-ledger")`` (pyproject: ``--dist loadgroup``), so one xdist worker
# runs them all and this session fixture computes each run once.

QUICK_LEDGER_GROUP = "quick-ledger"


def _default_seed() -> int:
    from privclaims.checks.cli import parse_args

    return parse_args([]).seed


@dataclass(frozen=True)
class QuickLedgerRun:
    """``privclaims ledger --quick --seed S --workers W`` over every area, with its JSON, Markdown and HTML reports."""

    workers: int
    seed: int
    returncode: int
    stdout: str
    stderr: str
    json_path: Path
    md_path: Path
    html_path: Path

    def doc(self) -> dict:
        return json.loads(self.json_path.read_text())


@pytest.fixture(scope="session")
def quick_ledger(tmp_path_factory):
    """``quick_ledger(workers)``: the run with that many worker processes (computed on first use)."""
    runs: dict[int, QuickLedgerRun] = {}

    def run(workers: int) -> QuickLedgerRun:
        if workers not in runs:
            d = tmp_path_factory.mktemp(f"quick-ledger-w{workers}")
            seed = _default_seed()
            paths = d / "q.json", d / "q.md", d / "q.html"
            r = subprocess.run([sys.executable, "-m", "privclaims", "ledger", "--quick", "--seed", str(seed),
                                "--workers", str(workers), "--json", str(paths[0]), "--markdown", str(paths[1]),
                                "--html", str(paths[2]), "--no-table"],
                               cwd=ROOT, capture_output=True, text=True, timeout=1200)
            runs[workers] = QuickLedgerRun(workers, seed, r.returncode, r.stdout, r.stderr, *paths)
        return runs[workers]

    return run
