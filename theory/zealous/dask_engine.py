"""ZEALOUS on Dask: the histogram, the per-user selection and the release on a ``dask.distributed``
cluster (a ``LocalCluster`` in tests, any scheduler address in production).

Plan (000_211156f2009240b4.txt §6.4, Figure 6.1):

1. read the log as partitioned (user, query, t, click) rows — :func:`read_rows` takes an AOL TSV file
   (lines parsed by :func:`privclaims.theory.zealous.loaders.aol_row`, the Python reader's own line
   parser), a per-user folder of ``<AnonID>.txt`` files (the Python reader per file), Parquet (checked by
   :func:`privclaims.theory.zealous.sources.read_parquet_rows`' rules) or an in-memory log;
2. shuffle the rows by user, so that each user's whole history is in one partition;
3. on each partition, Steps 1-2 with the *same* SQL as the DuckDB engine
   (:meth:`privclaims.theory.zealous.items.ItemKind.sql` and :func:`privclaims.theory.zealous.duck.histogram_sql`),
   run by an in-process DuckDB on the partition's pandas frame;
4. sum the per-item counts across partitions (Step 2 is a sum over users);
5. Steps 3-5 on the workers with :func:`privclaims.theory.zealous.keyed.release_keyed` (the function every
   engine calls; exact rationals sent back as ``"p/q"`` strings).

Since every random choice is keyed by (seed, user, item) or (seed, kind, item), the release does not
depend on the number of partitions or workers: it equals the ``python`` and ``duckdb`` engines'.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q
from privclaims.theory.zealous import duck, loaders, sources
from privclaims.theory.zealous.exact import DEFAULT_GRANULARITY
from privclaims.theory.zealous.items import ItemKind
from privclaims.theory.zealous.keyed import release_keyed
from privclaims.theory.validate import existing_path
from privclaims.theory.zealous.model import Entry, SearchLog, ZealousParams, checked_log, contributions

ROW_META = {"user": "object", "query": "object", "t": "int64", "click": "object"}


def rows_frame(rows: Any) -> Any:
    """A pandas frame of (user, query, t, click) rows with the dtypes of :data:`ROW_META` (text as object)."""
    import pandas as pd

    df = rows if isinstance(rows, pd.DataFrame) else pd.DataFrame(list(rows), columns=list(ROW_META))
    return df.astype(ROW_META)


def client_for(scheduler: Any) -> Any:
    """A ``distributed.Client`` for ``scheduler`` (a Client, an address string, or None: the current
    client if any, else None — dask's local threaded scheduler)."""
    if scheduler is None:
        try:
            from distributed import get_client

            return get_client()
        except (ImportError, ValueError):
            return None
    if isinstance(scheduler, str):
        from distributed import Client

        return Client(scheduler)
    return scheduler


def _aol_lines_frame(lines: list[str], path: str, header: bool) -> Any:
    """AOL lines (``header``: the first is the file's header line) -> (user, query, t, click) rows, each line
    parsed by the Python reader's :func:`~privclaims.theory.zealous.loaders.aol_row` and the rows checked by
    :func:`~privclaims.theory.zealous.model.checked_log` (a bad line raises their InvalidInput)."""
    log = SearchLog()
    for line in list(lines)[1 if header else 0:]:
        line = line[:-1] if line.endswith("\n") else line
        line = line[:-1] if line.endswith("\r") else line
        row = loaders.aol_row(line, f"{path}: line {line[:60]!r}")
        if row is not None:
            user, query, t, url = row
            log.histories.setdefault(user, []).append(Entry(query, t, (url,) if url else ()))
    if log.histories:
        checked_log(log)
    return rows_frame(sources.log_rows(log))


def _user_files_frame(paths: list[str]) -> Any:
    log = SearchLog({Path(p).stem: sorted(loaders.load_user_file(p), key=lambda e: e.time) for p in paths})
    log = SearchLog({u: h for u, h in log.histories.items() if h})
    if log.histories:
        checked_log(log)
    return rows_frame(sources.log_rows(log))


def _parquet_frame(pdf: Any, path: str) -> Any:
    """A Parquet partition checked like the Python reader's (:func:`privclaims.theory.zealous.sources.parquet_frame`
    and :func:`privclaims.theory.zealous.model.checked_log`; an invalid one raises their InvalidInput)."""
    pdf = sources.parquet_frame(pdf, path)
    if len(pdf):
        sources.log_from_rows(pdf)
    return rows_frame(pdf)


def read_rows(source: SearchLog | str | Path, blocksize: str = "64MB", files_per_partition: int = 50) -> Any:
    """The log as a ``dask.dataframe`` of (user, query, t, click) rows, partitioned."""
    import dask.bag as db
    import dask.dataframe as dd
    from dask import delayed

    fmt = sources.source_format(source)
    if fmt == "log":
        df = rows_frame(sources.log_rows(checked_log(source)))
        return dd.from_pandas(df, npartitions=max(1, min(8, len(df) // 5000 + 1)))
    if fmt == "parquet":
        return dd.read_parquet(str(source)).map_partitions(_parquet_frame, str(source), meta=rows_frame([]))
    if fmt == "user_dir":
        files = sorted(str(p) for p in Path(source).glob("*.txt"))
        parts = [delayed(_user_files_frame)(files[i:i + files_per_partition])
                 for i in range(0, len(files), files_per_partition)]
        return dd.from_delayed(parts, meta=rows_frame([]))
    path = existing_path(source, "path (AOL-format log)", "file")
    with path.open("rb") as fh:
        first = fh.readline().decode("utf-8", errors="replace")
    loaders.check_aol_header(first.rstrip("\n").removesuffix("\r"), path)
    lines = db.read_text(str(path), blocksize=blocksize, linedelimiter="\n", encoding="utf-8").to_delayed()
    parts = [delayed(_aol_lines_frame)(part, str(path), k == 0) for k, part in enumerate(lines)]
    return dd.from_delayed(parts, meta=rows_frame([]))


def _partition_histogram(pdf: Any, kind: ItemKind, m: int, seed: int) -> Any:
    """Steps 1-2 on one partition (whole users) with the DuckDB engine's SQL."""
    import duckdb
    import pandas as pd

    if len(pdf) == 0:
        return pd.DataFrame({"item": pd.Series(dtype=object), "c": pd.Series(dtype="int64")})
    con = duckdb.connect()
    con.execute("SET threads = 1")
    con.register("log_rows", pdf)
    con.execute("CREATE TABLE log AS SELECT CAST(user AS VARCHAR) AS user, CAST(query AS VARCHAR) AS query, "
                "CAST(t AS BIGINT) AS t, CAST(click AS VARCHAR) AS click FROM log_rows")
    out = con.execute(duck.histogram_sql(kind.sql("log"), m, seed)).fetchdf()
    con.close()
    return out.astype({"c": "int64"})


def _partition_release(pdf: Any, params: ZealousParams, seed: int, kind: ItemKind, granularity: Any) -> Any:
    """Steps 3-5 on one partition of the histogram with :func:`~privclaims.theory.zealous.keyed.release_keyed`:
    ``(item, noisy count as "p/q")`` of the published items."""
    import pandas as pd

    out = release_keyed({k: int(c) for k, c in zip(pdf["item"], pdf["c"])}, params, seed, kind, granularity)
    return pd.DataFrame({"item": pd.Series(list(out), dtype=object),
                         "noisy": pd.Series([str(v) for v in out.values()], dtype=object)})


def histogram_dask(source: SearchLog | str | Path, kind: ItemKind | str, m: object, seed: int,
                   session_gap: int | None = None, npartitions: int | None = None) -> Any:
    """Steps 1-2 as a lazy dask DataFrame ``(item, c)``, one row per item."""
    import pandas as pd

    return _histogram(read_rows(source), ItemKind.of(kind, session_gap), contributions(m), seed, npartitions)


def _histogram(rows: Any, kind: ItemKind, m: int, seed: int, npartitions: int | None = None) -> Any:
    import pandas as pd

    by_user = rows.shuffle(on="user", npartitions=npartitions or rows.npartitions)
    meta = pd.DataFrame({"item": pd.Series(dtype=object), "c": pd.Series(dtype="int64")})
    parts = by_user.map_partitions(_partition_histogram, kind, m, int(seed), meta=meta)
    return parts.groupby("item").c.sum().reset_index()


def compute(frame: Any, rows: Any, source: Any, scheduler: Any = None) -> Any:
    """Compute ``frame`` and the number of ``rows`` of the log on ``scheduler`` (:func:`client_for`); a log
    without rows is InvalidInput, and so is a file that is not UTF-8 (as for the Python readers)."""
    import dask

    n = rows.map_partitions(len).sum()
    client = client_for(scheduler)
    try:
        out, count = client.compute([frame, n], sync=True) if client is not None else dask.compute(frame, n)
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{source}: not UTF-8 text ({exc.reason} at byte {exc.start} of a block)") from None
    if int(count) == 0:
        raise InvalidInput("empty search log: no user has any entry")
    return out


def histogram_dict(source: SearchLog | str | Path, kind: ItemKind | str, m: object, seed: int, *,
                   session_gap: int | None = None, scheduler: Any = None) -> dict[str, int]:
    """Steps 1-2 on Dask as ``{item text: users}``."""
    rows = read_rows(source)
    df = compute(_histogram(rows, ItemKind.of(kind, session_gap), contributions(m), seed), rows, source, scheduler)
    return {str(k): int(c) for k, c in zip(df["item"], df["c"])}


def publish_dask(source: SearchLog | str | Path, kind: ItemKind | str, params: ZealousParams, seed: int, *,
                 session_gap: int | None = None, scheduler: Any = None,
                 granularity: Any = DEFAULT_GRANULARITY, npartitions: int | None = None) -> dict[str, Any]:
    """ZEALOUS Steps 1-6 on Dask: ``{item text: noisy count}`` (rationals), equal to the other engines'."""
    import pandas as pd

    if params.lam is None:
        raise InvalidInput("params: sampling needs a rational lambda (ZealousParams.of(m, lam, tau, tau'))")
    k = ItemKind.of(kind, session_gap)
    rows = read_rows(source)
    hist = _histogram(rows, k, params.m, seed, npartitions)
    meta = pd.DataFrame({"item": pd.Series(dtype=object), "noisy": pd.Series(dtype=object)})
    released = hist.map_partitions(_partition_release, params, int(seed), k, granularity, meta=meta)
    df = compute(released, rows, source, scheduler)
    return {k: Q(v) for k, v in sorted(zip(df["item"], df["noisy"]))}


def _partition_pair_histogram(pdf: Any, m: int, seed: int) -> Any:
    """Steps 1-2 on one partition of integer (user, item) pairs (whole users), with DuckDB's SQL."""
    import duckdb

    from privclaims.theory.zealous.duck import pair_histogram_sql

    con = duckdb.connect()
    con.execute("SET threads = 1")
    con.register("part", pdf)
    out = con.execute(pair_histogram_sql("part", m, seed)).fetchdf()
    con.close()
    return out.astype({"item": "int64", "c": "int64"})


def pair_histogram_dask(pairs: Any, m: object, seed: int, npartitions: int | None = None) -> Any:
    """The selected histogram ``(item, c)`` of a dask DataFrame of integer (user, item) pairs — the same
    counts as :func:`privclaims.theory.zealous.duck.pair_histogram_counts` on the whole table."""
    import pandas as pd

    mm = contributions(m)
    by_user = pairs.shuffle(on="user", npartitions=npartitions or pairs.npartitions)
    meta = pd.DataFrame({"item": pd.Series(dtype="int64"), "c": pd.Series(dtype="int64")})
    parts = by_user.map_partitions(_partition_pair_histogram, mm, int(seed), meta=meta)
    return parts.groupby("item").c.sum().reset_index()
