"""Fewer young-generation collections in the processes that run checks and searches (issue 25).

CPython's cyclic collector examines its youngest generation every time the tracked allocations exceed the
deallocations by a threshold (``gc.get_threshold()[0]``, 700 by default), its middle one every 10 of those and the
oldest every 10 of those (and only when the objects pending there exceed a quarter of the long-lived ones). The
searches allocate many short-lived tracked objects (Hypothesis' choice sequences and spans, the exact twins'
rationals and tuples), so at 700 the collector ran ~10,000 times in each of the suite's pytest workers and took ~10%
of a ``--quick`` ledger's CPU time (0.95 s of 9.7 s, measured with ``gc.callbacks``), almost all of it finding
nothing to free. At :data:`YOUNG_THRESHOLD` it ran half as long (0.5 s); 5,000 and 50,000 measured the same.

The collector does the same work per collection and frees every unreachable cycle as before, only later: a cycle
waits for at most :data:`YOUNG_THRESHOLD` net allocations of tracked objects instead of 700 (a few MB at most).
Nothing a check computes depends on when a cycle is freed.

:func:`fewer_young_collections` is called by the ledger's command line (its pool workers are forked from it and
keep the setting) and by the test suite's ``property_tests/conftest.py`` (each xdist worker imports it); the
Python API leaves a user's process as it is.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 10_000
"""The youngest generation's threshold set by :func:`fewer_young_collections` (CPython's default: 700)."""


def fewer_young_collections() -> tuple[int, ...]:
    """Raise the youngest generation's threshold to :data:`YOUNG_THRESHOLD` when it is lower (a higher one set
    before is kept; the older generations' thresholds are kept); returns the thresholds now in force."""
    young, *older = gc.get_threshold()
    if young < YOUNG_THRESHOLD:
        gc.set_threshold(YOUNG_THRESHOLD, *older)
    return gc.get_threshold()
