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

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from privclaims.counterexamples.hypothesis_plugins import without_third_party_plugins  # noqa: E402

without_third_party_plugins()  # before Hypothesis is imported here; the suite's notebook kernels and CLI runs inherit it
from privclaims.checks.garbage_collector import fewer_young_collections, no_final_collection  # noqa: E402

fewer_young_collections()  # in the controller and in each xdist worker (each imports this conftest)
no_final_collection()  # the same processes: their heaps are left out of the collector's passes at exit
from privclaims.checks.outcome_memo import RECORD_ENV, REPLAY_ENV, VARIABLES  # noqa: E402

for _name in VARIABLES:  # a shell's setting never reaches the suite: a test's own runs compute
    os.environ.pop(_name, None)  # (those told to below record or replay, in the session's folder only)
from hypothesis import HealthCheck, Verbosity, settings  # noqa: E402

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
# same runs, computed once per test session. Under xdist the runs live in the session's shared temporary folder
# (the parent of each worker's basetemp, pytest-xdist's documented pattern), each under its own file lock: a worker
# that needs several runs computes one nobody is computing first, then waits for the others.


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


def _compute_quick_ledger_run(folder: Path, workers: int) -> None:
    """Run the ledger into ``folder`` and record how it ended in ``run.json`` (a timeout too: it is not retried). Every
    claim is computed; the outcomes are recorded in the session's outcome folder (:func:`_outcomes_folder`)."""
    seed = _default_seed()
    paths = folder / "q.json", folder / "q.md", folder / "q.html"
    env = {**os.environ, RECORD_ENV: str(_outcomes_folder(folder.parent))}
    try:
        r = subprocess.run([sys.executable, "-m", "privclaims", "ledger", "--quick", "--seed", str(seed),
                            "--workers", str(workers), "--json", str(paths[0]), "--markdown", str(paths[1]),
                            "--html", str(paths[2]), "--no-table"],
                           cwd=ROOT, capture_output=True, text=True, timeout=1200, env=env)
        rec = {"seed": seed, "returncode": r.returncode, "stdout": r.stdout, "stderr": r.stderr}
    except subprocess.TimeoutExpired as e:
        rec = {"seed": seed, "returncode": None, "stdout": str(e.stdout or ""), "stderr": f"timed out: {e}"}
    (folder / "run.json").write_text(json.dumps(rec))


def _try_run(folder: Path, workers: int, wait: bool) -> QuickLedgerRun | None:
    """The run in ``folder``: computed here under the folder's lock unless done; without ``wait``, None at once
    when another worker holds the lock."""
    import fcntl

    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            return None
        try:
            if not (folder / "run.json").exists():
                _compute_quick_ledger_run(folder, workers)
            rec = json.loads((folder / "run.json").read_text())
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return QuickLedgerRun(workers, rec["seed"], rec["returncode"], rec["stdout"], rec["stderr"],
                          folder / "q.json", folder / "q.md", folder / "q.html")


def _shared_folder(tmp_path_factory) -> Path:
    """The session's folder: under xdist, the parent of each worker's basetemp (shared by the workers)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _outcomes_folder(shared: Path) -> Path:
    """Where the session's claim outcomes are recorded (:mod:`privclaims.checks.outcome_memo`)."""
    return shared / "claim-outcomes"


@pytest.fixture(scope="session")
def replay_outcomes(tmp_path_factory) -> dict[str, str]:
    """The environment (to add to a subprocess's or a notebook kernel's) under which a ledger run replays the claims'
    outcomes the session recorded (the quick-ledger runs below, or an earlier replaying run), computing and
    recording those not found. Sharing results (issue 25): for runs that re-display claims the session computes
    anyway - never for the runs whose computing is under test (the quick-ledger runs, the determinism tests)."""
    return {REPLAY_ENV: str(_outcomes_folder(_shared_folder(tmp_path_factory)))}


@pytest.fixture(scope="session")
def quick_ledger(tmp_path_factory):
    """``quick_ledger(w1, w2, ...)``: the runs with those numbers of worker processes, in that order (each computed
    once per session: a run nobody holds is taken and computed, while one another worker computes is left for later;
    only when every remaining run is held elsewhere does this worker wait)."""
    shared = _shared_folder(tmp_path_factory)

    def runs(*workers: int) -> list[QuickLedgerRun]:
        got: dict[int, QuickLedgerRun] = {}
        while len(got) < len(workers):
            todo = [w for w in workers if w not in got]
            for w in todo:
                r = _try_run(shared / f"quick-ledger-w{w}", w, wait=False)
                if r is not None:
                    got[w] = r
            if len(got) < len(workers) and all(w not in got for w in todo):  # all held elsewhere: wait for the first
                w = todo[0]
                got[w] = _try_run(shared / f"quick-ledger-w{w}", w, wait=True)
        return [got[w] for w in workers]

    return runs


# ------------------------------------------------------------------ the order tests are handed out (issue 25: scheduling)
# pytest-xdist hands the workers consecutive tests in collection order, a worker taking more as it frees up, so the run
# ends when the last tests collected end. Alphabetically those are test_zealous_user_dir_duckdb.py's two AOL and
# generated-folder comparisons (3-4 s each): one worker ran them while the other idled. That file is collected first
# instead, so the run ends with test_zealous_theory.py's short tests. Which tests run, and how, is unchanged; every
# file keeps its own order.
COLLECTED_FIRST = ("test_zealous_user_dir_duckdb.py",)


def pytest_collection_modifyitems(session, config, items):
    items.sort(key=lambda item: item.path.name not in COLLECTED_FIRST)  # stable: False (first) before True
    if PROFILE == "thorough":  # long searches run as long as they need: no per-test limit (pyproject's timeout)
        for item in items:
            item.add_marker(pytest.mark.timeout(0), append=False)  # nearest: it wins over a test's or a module's own
