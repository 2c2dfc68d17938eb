"""Hypothesis profiles: ``dev`` (default, fast), ``ci`` and ``thorough`` (long searches).

Select with ``HYPOTHESIS_PROFILE=dev|ci|thorough``. Failures print the seed and a reproduction
blob (``print_blob``); ``--hypothesis-seed=N`` replays a run.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

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
