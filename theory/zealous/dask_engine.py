"""ZEALOUS on Dask: the histogram, the per-user selection and the release on a ``dask.distributed``
cluster (a ``LocalCluster`` in tests, any scheduler address in production).

Plan (000_211156f2009240b4.txt §6.4, Figure 6.1):

1. read the log as partitioned (user, query, t, click) rows — :func:`read_rows` takes an AOL TSV file
   (or a glob of them), a per-user folder of ``<AnonID>.txt`` files, or Parquet;
2. shuffle the rows by user, so that each user's whole history is in one partition;
3. on each partition, Steps 1-2 with the *same* SQL as the DuckDB engine
   (:func:`privclaims.theory.zealous.duck.histogram_sql`: item extraction, counter-based selection), run by an
   in-process DuckDB on the partition's pandas frame;
4. sum the per-item counts across partitions (Step 2 is a sum over users);
5. Steps 3-5 on the workers: keep c ≥ tau, add each item's counter-based exact noise
   (:func:`privclaims.theory.zealous.engines.item_noise`), keep noisy counts > tau' (exact rationals, sent back
   as ``"p/q"`` strings).

Since every random choice is keyed by (seed, user, item) or (seed, kind, item), the release does not
depend on the number of partitions or workers: it equals the ``python`` and ``duckdb`` engines'.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q
from privclaims.theory.zealous.exact import DEFAULT_GRANULARITY, survives
from privclaims.theory.zealous.histograms import DEFAULT_SESSION_GAP
from privclaims.theory.zealous.model import SearchLog, ZealousParams, contributions, item_kind

ROW_META = {"user": "object", "query": "object", "t": "int64", "click": "object"}
AOL_COLUMNS = ["AnonID", "Query", "QueryTime", "ItemRank", "ClickURL"]


def rows_frame(rows: Any) -> Any:
    """A pandas frame of (user, query, t, click) rows with the dtypes of :data:`ROW_META` (text as object)."""
    import pandas as pd

    df = rows if isinstance(rows, pd.DataFrame) else pd.DataFrame(list(rows), columns=list(ROW_META))
    return df.astype(ROW_META)


def _client(scheduler: Any):
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


def _aol_frame(pdf: Any) -> Any:
    """AOL columns -> (user, query, t, click), t in seconds since the epoch (UTC)."""
    import pandas as pd

    t = pd.to_datetime(pdf["QueryTime"], format="%Y-%m-%d %H:%M:%S", errors="coerce")
    if t.isna().any():
        bad = pdf["QueryTime"][t.isna()].iloc[0]
        raise InvalidInput(f"malformed time {bad!r} (expected YYYY-MM-DD HH:MM:SS)")
    click = pdf["ClickURL"].where(pdf["ClickURL"].notna() & (pdf["ClickURL"] != ""), None)
    return rows_frame(pd.DataFrame({"user": pdf["AnonID"].astype(str), "query": pdf["Query"].fillna("").astype(str),
                                    "t": (t - pd.Timestamp(0)) // pd.Timedelta(seconds=1), "click": click.astype(object)}))


def _user_files_frame(paths: list[str]) -> Any:
    import pandas as pd

    from privclaims.theory.zealous.engines import log_rows
    from privclaims.theory.zealous.loaders import load_user_file

    log = SearchLog({Path(p).stem: sorted(load_user_file(p), key=lambda e: e.time) for p in paths})
    return rows_frame(log_rows(log))


def read_rows(source: SearchLog | str | Path, blocksize: str = "64MB", files_per_partition: int = 50) -> Any:
    """The log as a ``dask.dataframe`` of (user, query, t, click) rows, partitioned."""
    import dask.dataframe as dd
    import pandas as pd

    from privclaims.theory.zealous.engines import log_rows, source_format

    fmt = source_format(source)
    if fmt == "log":
        df = rows_frame(log_rows(source))
        return dd.from_pandas(df, npartitions=max(1, min(8, len(df) // 5000 + 1)))
    if fmt == "parquet":
        return dd.read_parquet(str(source), columns=list(ROW_META)).map_partitions(rows_frame, meta=rows_frame([]))
    if fmt == "user_dir":
        from dask import delayed

        files = sorted(str(p) for p in Path(source).glob("*.txt"))
        parts = [delayed(_user_files_frame)(files[i:i + files_per_partition])
                 for i in range(0, len(files), files_per_partition)]
        return dd.from_delayed(parts, meta=rows_frame([]))
    raw = dd.read_csv(str(source), sep="\t", header=0, names=AOL_COLUMNS, quoting=3, blocksize=blocksize,
                      dtype={"AnonID": str, "Query": str, "QueryTime": str, "ItemRank": "float64", "ClickURL": str},
                      keep_default_na=False, na_values={"ItemRank": [""]})
    return raw.map_partitions(_aol_frame, meta=rows_frame([]))


def _partition_histogram(pdf: Any, kind: str, m: int, seed: int, gap: int) -> Any:
    """Steps 1-2 on one partition (whole users) with the DuckDB engine's SQL."""
    import duckdb
    import pandas as pd

    from privclaims.theory.zealous.duck import _items_sql, histogram_sql

    if len(pdf) == 0:
        return pd.DataFrame({"item": pd.Series(dtype=object), "c": pd.Series(dtype="int64")})
    con = duckdb.connect()
    con.execute("SET threads = 1")
    con.register("log_rows", pdf)
    con.execute("CREATE TABLE log AS SELECT CAST(user AS VARCHAR) AS user, CAST(query AS VARCHAR) AS query, "
                "CAST(t AS BIGINT) AS t, CAST(click AS VARCHAR) AS click FROM log_rows")
    out = con.execute(histogram_sql(_items_sql(kind, gap), m, seed)).fetchdf()
    con.close()
    return out.astype({"c": "int64"})


def _partition_release(pdf: Any, params: ZealousParams, seed: int, kind: str, granularity: Any) -> Any:
    """Steps 3-5 on one partition of the histogram: ``(item, noisy count as "p/q")`` of the published items."""
    import pandas as pd

    from privclaims.theory.zealous.engines import item_noise

    items, noisy = [], []
    for k, c in zip(pdf["item"], pdf["c"]):
        c = int(c)
        if c < params.tau:
            continue
        noise = item_noise(params, seed, kind, k, granularity)
        if survives(c, noise / Q(granularity), granularity, params.tau_prime):
            items.append(k)
            noisy.append(str(Q(c) + noise))
    return pd.DataFrame({"item": pd.Series(items, dtype=object), "noisy": pd.Series(noisy, dtype=object)})


def histogram_dask(source: SearchLog | str | Path, kind: str, m: object, seed: int,
                   session_gap: int = DEFAULT_SESSION_GAP, npartitions: int | None = None) -> Any:
    """Steps 1-2 as a lazy dask DataFrame ``(item, c)``, one row per item."""
    import pandas as pd

    item_kind(kind)
    mm = contributions(m)
    rows = read_rows(source)
    by_user = rows.shuffle(on="user", npartitions=npartitions or rows.npartitions)
    meta = pd.DataFrame({"item": pd.Series(dtype=object), "c": pd.Series(dtype="int64")})
    parts = by_user.map_partitions(_partition_histogram, kind, mm, int(seed), int(session_gap), meta=meta)
    return parts.groupby("item").c.sum().reset_index()


def publish_dask(source: SearchLog | str | Path, kind: str, params: ZealousParams, seed: int, *,
                 session_gap: int = DEFAULT_SESSION_GAP, scheduler: Any = None,
                 granularity: Any = DEFAULT_GRANULARITY, npartitions: int | None = None) -> dict[str, Any]:
    """ZEALOUS Steps 1-6 on Dask: ``{item text: noisy count}`` (rationals), equal to the other engines'."""
    import pandas as pd

    if params.lam is None:
        raise InvalidInput("params: sampling needs a rational lambda (ZealousParams.of(m, lam, tau, tau'))")
    hist = histogram_dask(source, kind, params.m, seed, session_gap, npartitions)
    meta = pd.DataFrame({"item": pd.Series(dtype=object), "noisy": pd.Series(dtype=object)})
    released = hist.map_partitions(_partition_release, params, int(seed), kind, granularity, meta=meta)
    client = _client(scheduler)
    df = client.compute(released).result() if client is not None else released.compute()
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
