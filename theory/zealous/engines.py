"""ZEALOUS Steps 1-6 on three engines — ``python``, ``duckdb`` and ``dask`` — with one release law.

000_211156f2009240b4.txt §6.4, Figure 6.1 (= 003_755c7aa10ef74058.txt §4): select up to m distinct
items per user "not based on the data", count users per item, drop counts < tau, add Lap(lambda),
publish the items whose noisy count is > tau'.

**One seed, one release, whatever the engine.** The randomness is *counter-based*: it is a function
of (seed, user, item) and (seed, kind, item) only, never of the order in which an engine meets the
rows or of how a distributed engine partitions them:

* Step 1 (:func:`selection_key`): user u keeps the m distinct items with the smallest key
  ``md5(seed ␟ u ␟ item)`` (ties, which need an md5 collision, go to the smaller item). Ordering a
  set by independent uniform keys and keeping the first m is a uniformly random m-subset, and the
  key depends on identities and the seed, never on counts: "not based on the data".
* Step 4 (:func:`item_noise`): item k's noise ``g·K`` is drawn by the exact discrete-Laplace sampler
  of :mod:`privclaims.theory.noise.laplace` from a bit source seeded by ``sha256(seed ␟ kind ␟ item)``.
* Steps 3 and 5 are exact rational comparisons (:func:`privclaims.theory.zealous.exact.survives`).

Items are text: keywords, queries, clicked urls, and query pairs written ``"q1<TAB>q2"``.

The ``duckdb`` engine runs the item extraction and selection SQL of :mod:`privclaims.theory.zealous.duck` on the
whole log; the ``dask`` engine (:mod:`privclaims.theory.zealous.dask_engine`) shuffles the rows by user and runs
the *same* SQL on each partition, then sums the per-item counts; the ``python`` engine uses
:func:`privclaims.theory.zealous.histograms.user_items`. A test asserts identical releases on all three.
"""

from __future__ import annotations

import hashlib
import heapq
from collections import Counter
from pathlib import Path
from typing import Any, Hashable, Iterable, Mapping

from privclaims.theory.errors import InvalidInput
from privclaims.theory.noise.laplace import BitSource, laplace_on_grid
from privclaims.theory.numbers import Q
from privclaims.theory.zealous.exact import DEFAULT_GRANULARITY, survives
from privclaims.theory.zealous.histograms import DEFAULT_SESSION_GAP, user_items
from privclaims.theory.zealous.model import SearchLog, ZealousParams, contributions, item_kind, user_counts

ENGINES = ("python", "duckdb", "dask")
SEP = "\x1f"  # ASCII unit separator: never part of an AOL field

try:  # CPython's own md5: the same digests as OpenSSL's, at about half the cost per call on short keys
    from _md5 import md5 as _md5
except ImportError:  # pragma: no cover - a Python built without it
    _md5 = hashlib.md5


def item_text(item: Hashable) -> str:
    """The text form of an item (query pairs ``(q1, q2)`` become ``"q1<TAB>q2"``, as in the SQL)."""
    if isinstance(item, tuple):
        return "\t".join(item)
    return str(item)


def selection_key(seed: int, user: str, item: str) -> str:
    """Step 1's key of (user, item): the md5 hex digest of ``seed ␟ user ␟ item`` (UTF-8); DuckDB's
    ``md5(CAST(seed AS VARCHAR) || chr(31) || user || chr(31) || item)`` is the same string."""
    return hashlib.md5(f"{int(seed)}{SEP}{user}{SEP}{item}".encode("utf-8")).hexdigest()


def select_keyed(items: Mapping[str, Iterable[Hashable]], m: object, seed: int) -> dict[str, list[str]]:
    """Step 1, counter-based: per user the ``min(m, |items|)`` distinct items with the smallest keys
    (:func:`selection_key`, compared as md5 digests: bytes order is hex order)."""
    mm = contributions(m)
    out = {}
    for user, its in items.items():
        prefix = f"{int(seed)}{SEP}{user}{SEP}".encode("utf-8")
        keyed = [(_md5(prefix + t.encode("utf-8")).digest(), t)
                 for t in {k if k.__class__ is str else item_text(k) for k in its} if t]
        out[user] = [t for _, t in (heapq.nsmallest(mm, keyed) if len(keyed) > mm else sorted(keyed))]
    return out


def item_seed(seed: int, kind: str, item: str) -> int:
    """The 64-bit seed of item ``item``'s noise: sha256 of ``seed ␟ kind ␟ item``."""
    return int.from_bytes(hashlib.sha256(f"{int(seed)}{SEP}{kind}{SEP}{item}".encode("utf-8")).digest()[:8], "little")


def item_noise(params: ZealousParams, seed: int, kind: str, item: str, granularity: Any = DEFAULT_GRANULARITY) -> Any:
    """Step 4's noise of one item: exact grid Laplace ``g·K`` (a rational), keyed by (seed, kind, item)."""
    return laplace_on_grid(params.lam, granularity, BitSource(item_seed(seed, kind, item)))


def release_keyed(hist: Mapping[str, int], params: ZealousParams, seed: int, kind: str,
                  granularity: Any = DEFAULT_GRANULARITY) -> dict[str, Any]:
    """Steps 3-6 on a Step-2 histogram ``{item text: users}``: ``{item: noisy count}`` (rationals)."""
    item_kind(kind)
    if params.lam is None:
        raise InvalidInput("params: sampling needs a rational lambda (ZealousParams.of(m, lam, tau, tau'))")
    out = {}
    for k, c in sorted(user_counts(hist).items()):
        if c < params.tau:
            continue
        noise = item_noise(params, seed, kind, k, granularity)
        if survives(c, noise / Q(granularity), granularity, params.tau_prime):
            out[k] = Q(c) + noise
    return out


def source_format(source: SearchLog | str | Path) -> str:
    """``"log"`` (in memory), ``"parquet"`` (a ``.parquet`` file or a folder of them), ``"user_dir"`` (a folder
    of ``<AnonID>.txt`` files) or ``"aol"`` (an AOL-format TSV file); InvalidInput for a missing path."""
    if isinstance(source, SearchLog):
        return "log"
    if not isinstance(source, (str, Path)):
        raise InvalidInput(f"source = {source!r}: give a SearchLog or a path")
    p = Path(source)
    if not p.exists():
        raise InvalidInput(f"source = {str(p)!r} does not exist")
    if p.is_dir():
        if any(p.glob("*.parquet")):
            return "parquet"
        if any(p.glob("*.txt")):
            return "user_dir"
        raise InvalidInput(f"source = {str(p)!r} is a folder with neither <AnonID>.txt files nor .parquet files")
    return "parquet" if p.suffix == ".parquet" else "aol"


def load_source(source: SearchLog | str | Path) -> SearchLog:
    """A :class:`SearchLog` from any source :func:`source_format` knows (Parquet via pandas)."""
    from privclaims.theory.zealous import loaders

    fmt = source_format(source)
    if fmt == "log":
        return source  # type: ignore[return-value]
    if fmt == "user_dir":
        return loaders.load_user_dir(source)
    if fmt == "aol":
        return loaders.load_aol(source)
    return log_from_rows(read_parquet_rows(source))


def read_parquet_rows(path: str | Path) -> "Any":
    """The (user, query, t, click) rows of a Parquet file or folder, as a pandas DataFrame."""
    import pandas as pd

    df = pd.read_parquet(path)
    missing = {"user", "query", "t", "click"} - set(df.columns)
    if missing:
        raise InvalidInput(f"{path}: Parquet log lacks column(s) {sorted(missing)} (need user, query, t, click)")
    return df


def log_rows(log: SearchLog) -> list[tuple[str, str, int, str | None]]:
    """(user, query, t, click) rows: one per clicked url, or one for a click-less query."""
    return [(u, e.query, e.time, c) for u, h in log.histories.items() for e in h for c in (e.clicks or (None,))]


def log_from_rows(df: "Any") -> SearchLog:
    """The inverse of :func:`log_rows` (rows of one (user, query, t) merge into one entry)."""
    from privclaims.theory.zealous.model import Entry, non_empty

    log = SearchLog()
    for (user, t, query), grp in df.sort_values(["user", "t", "query"], kind="stable").groupby(
            ["user", "t", "query"], sort=False):
        clicks = tuple(c for c in grp["click"] if isinstance(c, str) and c)
        log.histories.setdefault(str(user), []).append(Entry(str(query), int(t), clicks))
    return non_empty(log)


def histogram_python(log: SearchLog, kind: str, m: object, seed: int, session_gap: int = DEFAULT_SESSION_GAP) -> Counter:
    """Steps 1-2 in plain Python: keyed selection, then users per item."""
    c: Counter = Counter()
    for its in select_keyed(user_items(log, kind, session_gap), m, seed).values():
        c.update(its)
    return c


def histogram_duckdb(source: SearchLog | str | Path, kind: str, m: object, seed: int,
                     session_gap: int = DEFAULT_SESSION_GAP, threads: int = 2) -> dict[str, int]:
    """Steps 1-2 in DuckDB over a :class:`SearchLog`, an AOL-format file or a Parquet file/folder."""
    from privclaims.theory.zealous import duck

    con = duck.connect(threads=threads)
    duck.load_source(con, source)
    return duck.item_histogram_duckdb(con, kind, m=m, seed=seed, session_gap=session_gap)


def selected_histogram(source: SearchLog | str | Path, kind: str, m: object, seed: int, engine: str = "python", *,
                       session_gap: int = DEFAULT_SESSION_GAP, scheduler: Any = None) -> dict[str, int]:
    """Steps 1-2 on ``engine``: ``{item text: users}`` after the counter-based selection (the same on
    every engine)."""
    item_kind(kind)
    if engine not in ENGINES:
        raise InvalidInput(f"engine = {engine!r}: use one of {ENGINES}")
    if engine == "python":
        return dict(histogram_python(load_source(source), kind, m, seed, session_gap))
    if engine == "duckdb":
        return histogram_duckdb(source, kind, m, seed, session_gap)
    from privclaims.theory.zealous.dask_engine import _client, histogram_dask

    hist = histogram_dask(source, kind, m, seed, session_gap)
    client = _client(scheduler)
    df = client.compute(hist).result() if client is not None else hist.compute()
    return {str(k): int(c) for k, c in zip(df["item"], df["c"])}


def publish(source: SearchLog | str | Path, kind: str, params: ZealousParams, seed: int, engine: str = "python", *,
            session_gap: int = DEFAULT_SESSION_GAP, scheduler: Any = None, granularity: Any = DEFAULT_GRANULARITY
            ) -> dict[str, Any]:
    """ZEALOUS Steps 1-6 for one item kind on ``engine``: ``{item text: noisy count}``.

    ``source``: a :class:`SearchLog`; for ``duckdb``/``dask`` also a path (AOL TSV file, per-user folder
    of ``<AnonID>.txt`` files, or Parquet with columns user, query, t, click). ``scheduler``: for
    ``dask``, a ``distributed.Client`` or a scheduler address (default: the current client, else a
    local threaded run)."""
    item_kind(kind)
    if engine not in ENGINES:
        raise InvalidInput(f"engine = {engine!r}: use one of {ENGINES}")
    if engine == "python":
        hist = histogram_python(load_source(source), kind, params.m, seed, session_gap)
    elif engine == "duckdb":
        hist = histogram_duckdb(source, kind, params.m, seed, session_gap)
    else:
        from privclaims.theory.zealous.dask_engine import publish_dask

        return publish_dask(source, kind, params, seed, session_gap=session_gap, scheduler=scheduler,
                            granularity=granularity)
    return release_keyed(hist, params, seed, kind, granularity)
