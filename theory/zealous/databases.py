"""DuckDB databases kept per thread and process, safe across ``fork``.

Opening an in-memory DuckDB database costs ~11 ms of CPU (its catalogue of built-in functions is built anew each
time), more than the queries over a small log. A thread that queries again and again - a Dask worker thread's pieces
(:func:`privclaims.theory.zealous.dask_engine.piece_connection`), the DuckDB engine's calls (:func:`session`) - keeps
one database, opened on first use by that thread in that process.

**Across a fork.** A forked child never uses a database its parent opened, nor destroys one: destroying a database
joins its scheduler threads, which do not exist in the child - the child hung (``TaskSchedulerPool::RelaunchThreads``)
or crashed (SIGSEGV) as soon as it replaced an inherited connection, or when CPython cleared the thread-locals of the
parent's other threads. :data:`_OPENED` holds every database opened here (so a thread-local's cleanup cannot destroy
one), and in a child each gets one reference that is never released (not even at the child's exit).

**Threads that end.** The databases of threads that have ended are closed when a thread next opens one.
"""

from __future__ import annotations

import os
import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator

_OPENED: dict[int, tuple[threading.Thread, Any]] = {}  # id -> (opening thread, database): this process's open ones
_OPENED_LOCK = threading.Lock()  # threads opening databases at once sweep and register one at a time


def configure(con: Any, threads: int, memory_limit: str) -> None:
    """The DuckDB engine's settings on ``con``'s database: ``threads`` worker threads, ``memory_limit`` (it spills
    to disk beyond), insertion order not preserved (no query here reads it)."""
    con.execute(f"SET threads = {int(threads)}")
    con.execute(f"SET memory_limit = '{memory_limit}'")
    con.execute("SET preserve_insertion_order = false")


def open_registered() -> Any:
    """A new in-memory DuckDB database for the calling thread, registered in :data:`_OPENED` before anything else can
    happen (after closing the databases of threads that have ended)."""
    import duckdb

    with _OPENED_LOCK:
        ended = [key for key, (thread, _) in _OPENED.items() if not thread.is_alive()]
        ended = [_OPENED.pop(key)[1] for key in ended]
        con = duckdb.connect()
        _OPENED[id(con)] = (threading.current_thread(), con)
    for old in ended:
        close_quietly(old)
    return con


def forget(con: Any) -> None:
    """Unregister the database ``con`` and close it if it still can be (after a fatal or internal error DuckDB refuses
    every further query on a database, so it is dropped)."""
    with _OPENED_LOCK:
        _OPENED.pop(id(con), None)
    close_quietly(con)


def close_quietly(con: Any) -> None:
    """Close ``con``; an invalidated database may refuse even closing, and it is dropped either way."""
    try:
        con.close()
    except Exception:
        pass


def _keep_inherited() -> None:
    """In a forked child: each database inherited from the parent gets one reference that is never released, and the
    registry starts empty (the parent's lock may have been held by a thread the child does not have)."""
    import ctypes

    global _OPENED_LOCK
    _OPENED_LOCK = threading.Lock()
    for _, con in _OPENED.values():
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(con))
    _OPENED.clear()


os.register_at_fork(after_in_child=_keep_inherited)


class PerThreadDatabase:
    """One database per thread and process, opened (:func:`open_registered`) and set up by ``setup`` on a thread's
    first :meth:`get` in a process, kept until :meth:`drop`. The Dask pieces hold one
    (:data:`privclaims.theory.zealous.dask_engine.PIECES`), the DuckDB engine another (:data:`ENGINE`)."""

    def __init__(self, setup: Callable[[Any], None]) -> None:
        self._setup = setup
        self._local = threading.local()  # .held = (process id, database or None)

    def current(self) -> Any | None:
        """This thread's database in this process, if one is open (a forked child sees none)."""
        held = getattr(self._local, "held", None)
        return held[1] if held is not None and held[0] == os.getpid() else None

    def get(self) -> Any:
        """This thread's database, opened and set up now if none is open."""
        con = self.current()
        if con is None:
            con = open_registered()
            self._setup(con)
            self.hold(con)
        return con

    def hold(self, con: Any) -> None:
        """Make ``con`` this thread's database (the tests hold a stand-in to play an invalidated database)."""
        self._local.held = (os.getpid(), con)

    def drop(self, con: Any) -> None:
        """Forget ``con`` (this thread's database) and close it if it still can be (:func:`forget`): the next
        :meth:`get` opens a new one."""
        self._local.held = (os.getpid(), None)
        forget(con)


ENGINE = PerThreadDatabase(lambda con: None)  # the DuckDB engine's (session sets its settings per session)


def engine_database() -> Any:
    """This thread's database for :func:`session` (opened once per thread and process)."""
    return ENGINE.get()


REUSE_UP_TO_ROWS = 100_000  # a session that loaded more rows closes the database after it (close_engine_database)


def close_engine_database() -> None:
    """Close this thread's engine database (the next session opens a new one). After a big log: DuckDB frees its
    tables when a session ends, but the allocator keeps the memory (~200 MB after a 10^6-row log) for as long as the
    database lives, and reuse only pays for small logs, whose queries cost less than opening a database."""
    con = ENGINE.current()
    if con is not None:
        ENGINE.drop(con)


@contextmanager
def session(threads: int = 2, memory_limit: str = "3GB") -> Iterator[Any]:
    """A new connection to this thread's engine database (:func:`engine_database`) with the settings of
    :func:`configure`; its temporary tables, registered frames and variables are its own and are dropped when the
    block ends (the connection is closed). The settings are the database's: they hold for every session of the thread
    until the next one sets its own (a session inside another changes the outer one's). A fatal or internal DuckDB
    error drops the database: the next session opens a new one. A caller that loaded more than
    :data:`REUSE_UP_TO_ROWS` rows calls :func:`close_engine_database` after the block."""
    import duckdb

    db = engine_database()
    con = db.cursor()
    try:
        configure(con, threads, memory_limit)
        yield con
    except (duckdb.FatalException, duckdb.InternalException):
        ENGINE.drop(db)
        raise
    finally:
        close_quietly(con)
