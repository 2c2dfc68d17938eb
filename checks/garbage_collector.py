"""Fewer collections in the processes that run checks and searches (issue 25).

CPython's cyclic collector examines its youngest generation whenever the tracked allocations exceed the deallocations
by ``gc.get_threshold()[0]`` (700 by default), the middle one every ``[1]`` (10) young collections and the oldest every
``[2]`` (10) middle ones, and then only when the objects pending there exceed a quarter of the long-lived ones. The
older generations are counted in young collections, so raising the youngest threshold to :data:`YOUNG_THRESHOLD`
makes every older collection ~14 times rarer per allocation too. That is where the time went: in a ``--quick`` ledger
the collector took ~10% of the CPU time at 700 (1.02-1.15 s of 9.7-10.1 s, ``gc.callbacks``), ~0.8 s of it in ten
full collections over the whole heap (the imported modules, Hypothesis' and the twins' caches); at 10,000 it took
0.52-0.54 s, its young collections costing more (0.17 -> 0.32 s) and its full ones far fewer. 5,000 measured about the
same as 10,000; 50,000 as much as 700 (each young collection then examines many more objects).

The same objects are freed as before, and nothing a check computes depends on when a cycle is freed (the same
``--quick`` report at 700, 5,000, 10,000 and 50,000, and the same full-mode count and MaskIt areas at 700 and 10,000,
timings aside). Unreachable cycles are freed later: a young one after up to :data:`YOUNG_THRESHOLD` net allocations of
tracked objects instead of 700; one promoted before it became unreachable at a middle or full collection, up to ~14
times later than at 700. That costs memory: a ``--quick`` ledger's peak resident size rose from ~276 MB to ~285 MB
(+3%).

:func:`fewer_young_collections` is called by the ledger's command line (``privclaims ledger``, and ``checks.cli.main``
or ``privclaims.cli.main`` called in-process: for the rest of that process; the ledger's pool workers are forked from it
and keep the setting), by the test suite's ``property_tests/conftest.py`` (each xdist worker imports it) and, for the
notebook tests' kernels, by ``property_tests/test_notebooks.py``. The Python API (``privclaims.ledger.run``,
``run_claims``) leaves a user's process as it is.

**At exit** (:func:`no_final_collection`, called by the test suite's processes only: ``property_tests/conftest.py``
in the controller and each xdist worker, and the notebook tests' kernels). When a process ends, CPython runs the
collector over the whole heap while it tears down the modules: ~0.7 s of a process holding the AOL subset's
emulations, 0.54 s of a ``--quick`` ledger's; a suite run's controller waited ~2.7 s after its workers' exit
handlers, ~0.4 s with this. ``gc.freeze()`` registered at exit leaves the heap out of those passes. It runs after the
exit handlers registered after it and before those registered before it (atexit runs the last-registered first).
Objects outside reference cycles are still freed as the modules are cleared, but what is reachable only through a
cycle is not - every class is one, so a buffered file kept in a class attribute is never flushed: the ledger's
command line, which a user may call in their own process, does not use it.
"""

from __future__ import annotations

import atexit
import gc

YOUNG_THRESHOLD = 10_000
"""The youngest generation's threshold set by :func:`fewer_young_collections` (CPython's default: 700; the README's
performance section states this value)."""


def fewer_young_collections() -> tuple[int, ...]:
    """Raise the youngest generation's threshold to :data:`YOUNG_THRESHOLD` when it is lower (a higher one set
    before is kept; the older generations' thresholds are kept); returns the thresholds now in force."""
    young, *older = gc.get_threshold()
    if young < YOUNG_THRESHOLD:
        gc.set_threshold(YOUNG_THRESHOLD, *older)
    return gc.get_threshold()


_FROZEN_AT_EXIT: list[bool] = []  # registered in this process (once)


def no_final_collection() -> bool:
    """Register ``gc.freeze()`` to run at this process's exit (once per process; it runs after the atexit handlers
    registered later, before those registered earlier). For processes whose files are all closed before exit (the
    test suite's): see the module docstring. True when it registered it now."""
    if _FROZEN_AT_EXIT:
        return False
    atexit.register(gc.freeze)
    _FROZEN_AT_EXIT.append(True)
    return True
