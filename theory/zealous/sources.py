"""Where a search log comes from — in memory, an AOL TSV file, a per-user folder, Parquet — and its rows.

Every engine reads a source through this module (``duck`` and ``dask_engine`` add their own fast
readers, which either give exactly these rows or defer to the Python readers here):

* :func:`source_format` names the format of a source; :func:`load_source` reads any of them into a
  :class:`~privclaims.theory.zealous.model.SearchLog` with the loaders of
  :mod:`privclaims.theory.zealous.loaders` (the reference readers);
* :func:`log_rows` / :func:`log_from_rows` convert between a log and its ``(user, query, t, click)``
  rows (one row per clicked url, one row with ``click`` None for a click-less search);
* :data:`PARQUET_COLUMNS`: the Parquet format's columns and types (``user``, ``query``, ``click`` text —
  ``click`` may be null —, ``t`` an integer number of seconds since the epoch).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from privclaims.theory.errors import InvalidInput
from privclaims.theory.zealous.model import Entry, SearchLog, checked_log

PARQUET_COLUMNS = {"user": "text", "query": "text", "t": "integer (seconds since 1970-01-01 UTC)",
                   "click": "text or null"}


def source_format(source: SearchLog | str | Path) -> str:
    """``"log"`` (in memory), ``"parquet"`` (a ``.parquet`` file or a folder of them), ``"user_dir"`` (a folder
    of ``<AnonID>.txt`` files) or ``"aol"`` (an AOL-format TSV file); InvalidInput for a missing path."""
    if isinstance(source, SearchLog):
        return "log"
    if not isinstance(source, (str, Path)) or (isinstance(source, str) and not source.strip()):
        raise InvalidInput(f"source = {source!r:.60}: give a SearchLog or a path")
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
    """A checked :class:`SearchLog` from any source :func:`source_format` knows (Parquet via pandas)."""
    from privclaims.theory.zealous import loaders

    fmt = source_format(source)
    if fmt == "log":
        return checked_log(source)
    if fmt == "user_dir":
        return loaders.load_user_dir(source)
    if fmt == "aol":
        return loaders.load_aol(source)
    return log_from_rows(read_parquet_rows(source))


def read_parquet_rows(path: str | Path) -> Any:
    """The (user, query, t, click) rows of a Parquet file or folder, as a pandas DataFrame checked by
    :func:`parquet_frame`."""
    import pandas as pd

    try:
        df = pd.read_parquet(path)
    except Exception as exc:  # noqa: BLE001 - pyarrow raises many types for a broken file
        raise InvalidInput(f"{path}: not a readable Parquet log ({type(exc).__name__}: {str(exc).splitlines()[0][:120]})") from None
    return parquet_frame(df, path)


def parquet_frame(df: Any, path: object) -> Any:
    """A Parquet log's frame with exactly the columns and types of :data:`PARQUET_COLUMNS` (anything else
    is InvalidInput naming the column): the columns in that order."""
    import pandas as pd

    missing = set(PARQUET_COLUMNS) - set(df.columns)
    if missing:
        raise InvalidInput(f"{path}: Parquet log lacks column(s) {sorted(missing)} (need user, query, t, click)")
    extra = set(df.columns) - set(PARQUET_COLUMNS)
    if extra:
        raise InvalidInput(f"{path}: Parquet log has unknown column(s) {sorted(extra)} (allowed: user, query, t, click)")
    if not pd.api.types.is_integer_dtype(df["t"]):
        raise InvalidInput(f"{path}: column t has type {df['t'].dtype}, expected integer seconds since the epoch")
    for col in ("user", "query", "click"):
        if col != "click" and df[col].isna().any():
            raise InvalidInput(f"{path}: column {col} has a null value")
        bad = [v for v in (df[col].dropna() if col == "click" else df[col]) if not isinstance(v, str)][:1]
        if bad:
            raise InvalidInput(f"{path}: column {col} holds {bad[0]!r:.40} ({type(bad[0]).__name__}), expected text")
    return df[list(PARQUET_COLUMNS)]


def log_rows(log: SearchLog) -> list[tuple[str, str, int, str | None]]:
    """(user, query, t, click) rows: one per clicked url, or one for a click-less query."""
    return [(u, e.query, e.time, c) for u, h in log.histories.items() for e in h for c in (e.clicks or (None,))]


def log_from_rows(df: Any) -> SearchLog:
    """The inverse of :func:`log_rows` (rows of one (user, query, t) merge into one entry), checked."""
    log = SearchLog()
    for (user, t, query), grp in df.sort_values(["user", "t", "query"], kind="stable").groupby(
            ["user", "t", "query"], sort=False):
        clicks = tuple(c for c in grp["click"] if isinstance(c, str) and c)
        log.histories.setdefault(str(user), []).append(Entry(str(query), int(t), clicks))
    return checked_log(log)


__all__ = ["PARQUET_COLUMNS", "source_format", "load_source", "read_parquet_rows", "parquet_frame", "log_rows", "log_from_rows"]
