"""ZEALOUS Steps 1-6 on three engines — ``python``, ``duckdb`` and ``dask`` — with one release law.

000_211156f2009240b4.txt §6.4, Figure 6.1 (= 003_755c7aa10ef74058.txt §4): select up to m distinct
items per user "not based on the data", count users per item, drop counts < tau, add Lap(lambda),
publish the items whose noisy count is > tau'.

**Equal by construction.** The engines differ only in where the counting runs; everything they decide
is defined once:

* the log: every source is read into the rows of the log the Python readers give
  (:mod:`privclaims.theory.zealous.sources`; DuckDB's and Dask's fast readers defer to them or use their
  line parser), and an in-memory log passes :func:`privclaims.theory.zealous.model.checked_log`;
* the items: :class:`privclaims.theory.zealous.items.ItemKind` (its Python definition for the ``python``
  engine, its SQL twin, built from the same constants, for ``duckdb`` and ``dask``);
* the randomness: :mod:`privclaims.theory.zealous.keyed` — Step 1's key ``md5(seed ␟ user ␟ item)``
  and Steps 3-6 (:func:`~privclaims.theory.zealous.keyed.release_keyed`, which every engine calls).

**Equal by test.** ``property_tests/test_engines_equal.py`` generates logs (any row order, ties in time,
duplicate rows, blank queries, users with one row, searches without clicks, Unicode) in every input
format and asserts the same release on all engines and the same items as a direct implementation of
the thesis's definitions.

Module order (no import circle): ``items`` → ``keyed`` → ``sources`` → ``duck`` → ``dask_engine`` → ``engines``.
"""

from __future__ import annotations

from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from privclaims.theory.errors import InvalidInput
from privclaims.theory.zealous import dask_engine, databases, duck
from privclaims.theory.zealous.exact import DEFAULT_GRANULARITY
from privclaims.theory.zealous.items import ItemKind, item_text
from privclaims.theory.zealous.keyed import SEP, item_noise, item_seed, release_keyed, select_keyed, selection_key
from privclaims.theory.zealous.model import SearchLog, ZealousParams
from privclaims.theory.zealous.sources import load_source, log_from_rows, log_rows, read_parquet_rows, source_format

ENGINES = ("python", "duckdb", "dask")
AUTO = "auto"
"""The default engine: ``duckdb`` for a path (it reads AOL files, per-user folders and Parquet itself, on all
threads), ``python`` for an in-memory :class:`SearchLog` (already read). Every engine gives the same release."""

__all__ = ["ENGINES", "SEP", "ItemKind", "item_text", "selection_key", "select_keyed", "item_seed", "item_noise",
           "release_keyed", "source_format", "load_source", "read_parquet_rows", "log_rows", "log_from_rows",
           "histogram_python", "histogram_duckdb", "selected_histogram", "selected_histogram_and_users", "publish",
           "publish_kinds",
           "check_engine", "resolve_engine", "AUTO"]


def check_engine(engine: object) -> str:
    """One of :data:`ENGINES`."""
    if not isinstance(engine, str) or engine not in ENGINES:
        raise InvalidInput(f"engine = {engine!r:.40}: use one of {ENGINES}")
    return engine


def resolve_engine(engine: object, source: object) -> str:
    """The engine that runs: ``engine`` itself, or for :data:`AUTO` the fastest one for ``source``."""
    if engine == AUTO:
        return "python" if isinstance(source, SearchLog) else "duckdb"
    return check_engine(engine)


def histogram_python(log: SearchLog, kind: ItemKind | str, m: object, seed: int,
                     session_gap: int | None = None) -> Counter:
    """Steps 1-2 in plain Python: the items (:meth:`ItemKind.texts`), keyed selection, users per item."""
    k = ItemKind.of(kind, session_gap)  # the kind first: a bad one is refused before the source is read
    return _python_histogram(load_source(log), k, m, seed)


def _python_histogram(log: SearchLog, k: ItemKind, m: object, seed: int) -> Counter:
    """:func:`histogram_python` of a log already checked (:func:`load_source`)."""
    c: Counter = Counter()
    for its in select_keyed({u: k.texts(h) for u, h in log.histories.items()}, m, seed).values():
        c.update(its)
    return c


def histogram_duckdb(source: SearchLog | str | Path, kind: ItemKind | str, m: object, seed: int,
                     session_gap: int | None = None, threads: int = 2) -> dict[str, int]:
    """Steps 1-2 in DuckDB over a :class:`SearchLog`, an AOL-format file, a per-user folder or Parquet."""
    k = ItemKind.of(kind, session_gap)
    return _duckdb_histograms(source, [k], m, seed, threads)[k]


def _duckdb_histograms(source: SearchLog | str | Path, kinds: list[ItemKind], m: object, seed: int,
                       threads: int = 2) -> dict[ItemKind, dict[str, int]]:
    """:func:`histogram_duckdb` of each of ``kinds`` from one table of the source (loaded once)."""
    with _loaded(source, threads) as con:
        return {k: duck.item_histogram_duckdb(con, k, m=m, seed=seed) for k in kinds}


@contextmanager
def _loaded(source: SearchLog | str | Path, threads: int = 2) -> Iterator[Any]:
    """A :func:`~privclaims.theory.zealous.databases.session` with the table ``log`` loaded from ``source``; a log of
    more than :data:`~privclaims.theory.zealous.databases.REUSE_UP_TO_ROWS` rows closes this thread's database after
    the block (:func:`~privclaims.theory.zealous.databases.close_engine_database`)."""
    with databases.session(threads=threads) as con:
        rows = duck.load_source(con, source)
        yield con
    if rows > databases.REUSE_UP_TO_ROWS:
        databases.close_engine_database()


def selected_histogram(source: SearchLog | str | Path, kind: ItemKind | str, m: object, seed: int, engine: str = "python",
                       *, session_gap: int | None = None, scheduler: Any = None) -> dict[str, int]:
    """Steps 1-2 on ``engine``: ``{item text: users}`` after the counter-based selection (the same on
    every engine)."""
    k = ItemKind.of(kind, session_gap)
    check_engine(engine)
    if engine == "python":
        return dict(histogram_python(source, k, m, seed))
    if engine == "duckdb":
        return histogram_duckdb(source, k, m, seed)
    return dask_engine.histogram_dict(source, k, m, seed, scheduler=scheduler)


def selected_histogram_and_users(source: SearchLog | str | Path, kind: ItemKind | str, m: object, seed: int,
                                 engine: str = AUTO, *, session_gap: int | None = None,
                                 scheduler: Any = None) -> tuple[dict[str, int], int, str]:
    """``(histogram, U, engine)``: Steps 1-2 as :func:`selected_histogram`, the number U of users with at least
    one entry, and the engine that ran (``engine``, or the one :data:`AUTO` chose). The source is read once, by
    that engine (DuckDB reads a path itself: ``U`` is then its count of distinct users)."""
    k = ItemKind.of(kind, session_gap)
    engine = resolve_engine(engine, source)
    if engine == "duckdb":
        with _loaded(source) as con:
            users = con.execute("SELECT count(DISTINCT user) FROM log").fetchone()[0]
            return duck.item_histogram_duckdb(con, k, m=m, seed=seed), users, engine
    log = load_source(source)
    return selected_histogram(log, k, m, seed, engine, scheduler=scheduler), len(log.histories), engine


def publish(source: SearchLog | str | Path, kind: ItemKind | str, params: ZealousParams, seed: int, engine: str = "python",
            *, session_gap: int | None = None, scheduler: Any = None, granularity: Any = DEFAULT_GRANULARITY
            ) -> dict[str, Any]:
    """ZEALOUS Steps 1-6 for one item kind on ``engine``: ``{item text: noisy count}``.

    ``source``: a :class:`SearchLog`, or a path (AOL TSV file, per-user folder of ``<AnonID>.txt`` files,
    or Parquet with columns user, query, t, click). ``scheduler``: for ``dask``, a ``distributed.Client``
    or a scheduler address (default: the current client, else a local threaded run)."""
    k = ItemKind.of(kind, session_gap)
    return publish_kinds(source, (k,), params, seed, engine, scheduler=scheduler, granularity=granularity)[k.name]


def publish_kinds(source: SearchLog | str | Path, kinds: Any, params: ZealousParams, seed: int, engine: str = "python",
                  *, session_gap: int | None = None, scheduler: Any = None, granularity: Any = DEFAULT_GRANULARITY
                  ) -> dict[str, dict[str, Any]]:
    """:func:`publish` for several item kinds of one log (``{kind name: release}``, each release the one
    :func:`publish` gives for that kind alone), the source read once: ``python`` checks one log, ``duckdb`` loads one
    table, ``dask`` computes every kind's release in one graph over one reading of the source. ``kinds``: a non-empty
    list or tuple of distinct kinds (names or :class:`ItemKind`; ``session_gap`` applies to the names)."""
    if isinstance(kinds, (str, ItemKind)) or not isinstance(kinds, (list, tuple)):
        raise InvalidInput(f"kinds = {kinds!r:.60}: give a list of item kinds, e.g. ['queries', 'clicks']")
    ks = [ItemKind.of(kind, session_gap) for kind in kinds]
    names = [k.name for k in ks]
    if not ks or len(set(names)) < len(names):
        shown = [f"{k.name} (session gap {k.session_gap} s)" if k.name == "query_pairs" else k.name for k in ks]
        raise InvalidInput(f"kinds = {shown}: give each item kind once, at least one")
    check_engine(engine)
    if engine == "dask":
        out = dask_engine.publish_dask_kinds(source, ks, params, seed, scheduler=scheduler, granularity=granularity)
    elif engine == "duckdb":
        hists = _duckdb_histograms(source, ks, params.m, seed)
        out = {k: release_keyed(hists[k], params, seed, k, granularity) for k in ks}
    else:
        log = load_source(source)
        out = {k: release_keyed(dict(_python_histogram(log, k, params.m, seed)), params, seed, k, granularity) for k in ks}
    return {k.name: out[k] for k in ks}
