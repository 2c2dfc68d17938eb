"""Bulk construction without the cyclic garbage collector's repeated passes.

Building a few hundred thousand long-lived objects (a search log's entries) triggers CPython's
generational collector again and again, and each full pass walks every object built so far: on the
AOL subset that was a third of the load time. The objects built under :func:`gc_paused` hold no
reference cycles (strings, ints, tuples, frozen entries), so reference counting frees them; the
collector's state is restored on exit (left off if it was off).

Limits (a reviewer's): cyclic garbage made during the block waits for the collector's next pass after it (a memo's
unpickling that builds temporary cycles peaks higher; the project's own ``__reduce__`` methods make none). The
collector is one switch per process: a block in one thread can end while another thread's is still running (that
one then finishes with the collector on: slower, not wrong), and a ``gc.disable()`` another thread calls meanwhile is
undone at the block's end. The project's runners use processes, not threads.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def gc_paused() -> Iterator[None]:
    """Disable the cyclic collector for the block; re-enable it afterwards iff it was enabled."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
