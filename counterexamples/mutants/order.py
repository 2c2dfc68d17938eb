"""The mutation campaign's pytest plugin (``-p privclaims.counterexamples.mutants.order``), loaded only by its nets.

* ``$PRIVCLAIMS_MUTANTS_ORDER`` names a JSON file ``{"first": [...], "skip": [...], "durations": {nodeid: s}}``:
  the tests named in ``first`` (a mutant's guards) run first, in that order; those in ``skip`` (guards already run
  by the previous invocation of the same net) are deselected; the others run by their baseline duration, shortest
  first (unknown ones last). A name matches a test's node id exactly or as its parametrised family
  (``file::test`` matches ``file::test[...]``). Reordering changes no outcome (the tests are independent and every
  hypothesis test draws from the fixed ``--hypothesis-seed``): with ``-x`` it only finds a failing test sooner.
* ``$PRIVCLAIMS_MUTANTS_DURATIONS`` names a JSON file to which each test's duration (setup + call + teardown, in
  seconds) is written at the end of the session (the baseline run records the order of the later runs).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

ORDER_ENV = "PRIVCLAIMS_MUTANTS_ORDER"
DURATIONS_ENV = "PRIVCLAIMS_MUTANTS_DURATIONS"

_durations: dict[str, float] = {}


def matches(name: str, nodeid: str) -> bool:
    """Does the test name ``name`` (``path::test`` or ``path::test[param]``) name the test ``nodeid``?"""
    return nodeid == name or nodeid.startswith(name + "[")


def pytest_collection_modifyitems(session: Any, config: Any, items: list) -> None:
    spec = os.environ.get(ORDER_ENV)
    if not spec:
        return
    order = json.loads(Path(spec).read_text(encoding="utf-8"))
    first, skip, dur = order.get("first", []), order.get("skip", []), order.get("durations", {})
    kept, dropped = [], []
    for item in items:
        (dropped if any(matches(s, item.nodeid) for s in skip) else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)

    def key(pair: tuple[int, Any]) -> tuple:
        pos, item = pair
        rank = next((k for k, g in enumerate(first) if matches(g, item.nodeid)), None)
        if rank is not None:
            return (0, rank, 0.0, pos)
        return (1, 0, dur.get(item.nodeid, float("inf")), pos)

    items[:] = [item for _, item in sorted(enumerate(kept), key=key)]


def pytest_runtest_logreport(report: Any) -> None:
    if os.environ.get(DURATIONS_ENV):
        _durations[report.nodeid] = _durations.get(report.nodeid, 0.0) + float(report.duration)


def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    out = os.environ.get(DURATIONS_ENV)
    if out:
        Path(out).write_text(json.dumps({k: round(v, 4) for k, v in _durations.items()}, indent=0), encoding="utf-8")
