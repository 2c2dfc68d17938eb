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

import os
from pathlib import Path
from typing import Any, Sequence

from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q
from privclaims.theory.zealous import databases, duck, loaders, sources
from privclaims.theory.zealous.exact import DEFAULT_GRANULARITY
from privclaims.theory.zealous.items import ItemKind
from privclaims.theory.zealous.keyed import release_keyed
from privclaims.theory.validate import existing_path, finite_float
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


BLOCKSIZE = "64MB"  # the bytes of text one partition reads (read_rows): a block of an AOL file, a group of user files


def file_groups(sizes: Sequence[int], blocksize: int) -> list[range]:
    """Files of ``sizes`` bytes, in order, cut into consecutive groups (ranges of their indices) of about
    ``blocksize`` bytes: a group is closed before the file that would take it past ``blocksize``, so a group holds
    more than ``blocksize`` bytes only when it is one file, and no group is empty."""
    groups: list[range] = []
    start, size = 0, 0
    for i, n in enumerate(sizes):
        if i > start and size + n > blocksize:
            groups.append(range(start, i))
            start, size = i, 0
        size += n
    if len(sizes) > start:
        groups.append(range(start, len(sizes)))
    return groups


def read_rows(source: SearchLog | str | Path, blocksize: str | None = None) -> Any:
    """The log as a ``dask.dataframe`` of (user, query, t, click) rows, partitioned by ``blocksize`` (default
    :data:`BLOCKSIZE`): an AOL file in blocks of that many bytes, a per-user folder in groups of whole files of about
    that many bytes (:func:`file_groups`). A partition costs its tasks and one DuckDB query per item kind, whatever its
    size: the 1,000-user AOL subset (26 MB) read fifty files to a partition took twice the CPU of one partition."""
    import dask.bag as db
    import dask.dataframe as dd
    from dask import delayed
    from dask.utils import parse_bytes

    blocksize = BLOCKSIZE if blocksize is None else blocksize

    fmt = sources.source_format(source)
    if fmt == "log":
        df = rows_frame(sources.log_rows(checked_log(source)))
        return dd.from_pandas(df, npartitions=max(1, min(8, len(df) // 5000 + 1)))
    if fmt == "parquet":
        return dd.read_parquet(str(source)).map_partitions(_parquet_frame, str(source), meta=rows_frame([]))
    if fmt == "user_dir":
        files = sorted(str(p) for p in Path(source).glob("*.txt"))
        groups = file_groups([os.path.getsize(f) for f in files], parse_bytes(blocksize))
        parts = [delayed(_user_files_frame)(files[g.start:g.stop]) for g in groups]
        return dd.from_delayed(parts, meta=rows_frame([]))
    path = existing_path(source, "path (AOL-format log)", "file")
    with path.open("rb") as fh:
        first = fh.readline().decode("utf-8", errors="replace")
    loaders.check_aol_header(first.rstrip("\n").removesuffix("\r"), path)
    lines = db.read_text(str(path), blocksize=blocksize, linedelimiter="\n", encoding="utf-8").to_delayed()
    parts = [delayed(_aol_lines_frame)(part, str(path), k == 0) for k, part in enumerate(lines)]
    return dd.from_delayed(parts, meta=rows_frame([]))


def _partition_histogram(pdf: Any, kind: ItemKind, m: int, seed: int) -> Any:
    """Steps 1-2 on one partition (whole users) with the DuckDB engine's SQL, over the partition's rows as the table
    ``log`` (the DuckDB engine's column types), on this thread's piece connection (:func:`_on_piece`: opened once per
    worker thread, not once per partition and kind)."""
    import pandas as pd

    if len(pdf) == 0:
        return pd.DataFrame({"item": pd.Series(dtype=object), "c": pd.Series(dtype="int64")})
    sql = ("WITH log AS (SELECT CAST(user AS VARCHAR) AS user, CAST(query AS VARCHAR) AS query, CAST(t AS BIGINT) AS t, "
           "CAST(click AS VARCHAR) AS click FROM {src}) " + duck.histogram_sql(kind.sql("log"), m, seed))
    return _on_piece(pdf, sql).astype({"c": "int64"})


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

    return _histogram(read_rows(source), ItemKind.of(kind, session_gap), contributions(m), seed, npartitions,
                      whole_users(source))


def whole_users(source: SearchLog | str | Path) -> bool:
    """Does :func:`read_rows` put every user's rows in one partition? A per-user folder does (a partition is a group
    of whole files, a file is one user's log); a log, a TSV file (cut into byte blocks) or a Parquet file may not."""
    return sources.source_format(source) == "user_dir"


def _histogram(rows: Any, kind: ItemKind, m: int, seed: int, npartitions: int | None = None,
               grouped: bool = False) -> Any:
    """Steps 1-2 on ``rows``: shuffled on the user first unless ``grouped`` (each user's rows already in one partition,
    :func:`whole_users`) and no other partition count is asked for."""
    import pandas as pd

    if grouped and npartitions is None:
        by_user = rows
    else:
        by_user = rows.shuffle(on="user", npartitions=npartitions or rows.npartitions)
    meta = pd.DataFrame({"item": pd.Series(dtype=object), "c": pd.Series(dtype="int64")})
    parts = by_user.map_partitions(_partition_histogram, kind, m, int(seed), meta=meta)
    return parts.groupby("item").c.sum().reset_index()


def compute(frame: Any, rows: Any, source: Any, scheduler: Any = None) -> Any:
    """Compute ``frame`` and the number of ``rows`` of the log on ``scheduler`` (:func:`client_for`); a log
    without rows is InvalidInput, and so is a file that is not UTF-8 (as for the Python readers)."""
    return compute_all([frame], rows, source, scheduler)[0]


def compute_all(frames: list[Any], rows: Any, source: Any, scheduler: Any = None) -> list[Any]:
    """:func:`compute` for several frames built on the same ``rows``, in one computation: the tasks they share (the
    reading of the source, each partition once) run once."""
    import dask

    n = rows.map_partitions(len).sum()
    client = client_for(scheduler)
    try:
        *out, count = client.compute([*frames, n], sync=True) if client is not None else dask.compute(*frames, n)
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{source}: not UTF-8 text ({exc.reason} at byte {exc.start} of a block)") from None
    if int(count) == 0:
        raise InvalidInput("empty search log: no user has any entry")
    return out


def histogram_dict(source: SearchLog | str | Path, kind: ItemKind | str, m: object, seed: int, *,
                   session_gap: int | None = None, scheduler: Any = None) -> dict[str, int]:
    """Steps 1-2 on Dask as ``{item text: users}``."""
    rows = read_rows(source)
    df = compute(_histogram(rows, ItemKind.of(kind, session_gap), contributions(m), seed, grouped=whole_users(source)),
                 rows, source, scheduler)
    return {str(k): int(c) for k, c in zip(df["item"], df["c"])}


def publish_dask(source: SearchLog | str | Path, kind: ItemKind | str, params: ZealousParams, seed: int, *,
                 session_gap: int | None = None, scheduler: Any = None,
                 granularity: Any = DEFAULT_GRANULARITY, npartitions: int | None = None) -> dict[str, Any]:
    """ZEALOUS Steps 1-6 on Dask: ``{item text: noisy count}`` (rationals), equal to the other engines'."""
    k = ItemKind.of(kind, session_gap)
    return publish_dask_kinds(source, (k,), params, seed, scheduler=scheduler, granularity=granularity,
                              npartitions=npartitions)[k]


def publish_dask_kinds(source: SearchLog | str | Path, kinds: Sequence[ItemKind], params: ZealousParams, seed: int, *,
                       scheduler: Any = None, granularity: Any = DEFAULT_GRANULARITY,
                       npartitions: int | None = None) -> dict[ItemKind, dict[str, Any]]:
    """:func:`publish_dask` for each of ``kinds`` (built with :meth:`ItemKind.of`) of one log, in one computation: the
    source is read once (one graph of rows under every kind's histogram), each kind released as on its own."""
    import pandas as pd

    if params.lam is None:
        raise InvalidInput("params: sampling needs a rational lambda (ZealousParams.of(m, lam, tau, tau'))")
    rows = read_rows(source)
    meta = pd.DataFrame({"item": pd.Series(dtype=object), "noisy": pd.Series(dtype=object)})
    released = [_histogram(rows, k, params.m, seed, npartitions, whole_users(source)).map_partitions(
        _partition_release, params, int(seed), k, granularity, meta=meta) for k in kinds]
    frames = compute_all(released, rows, source, scheduler)
    return {k: {item: Q(v) for item, v in sorted(zip(df["item"], df["noisy"]))} for k, df in zip(kinds, frames)}


def _partition_pair_histogram(pdf: Any, m: int, seed: int) -> Any:
    """Steps 1-2 on one partition of integer (user, item) pairs (whole users), with DuckDB's SQL."""
    return _on_piece(pdf, duck.pair_histogram_sql("{src}", m, seed)).astype({"item": "int64", "c": "int64"})


PIECE_MEMORY = "512MB"  # DuckDB's memory per task on a worker (it spills to disk beyond)


def _set_up_piece_database(con: Any) -> None:
    con.execute("SET threads = 1")
    con.execute("SET enable_progress_bar = false")
    con.execute(f"SET memory_limit = '{PIECE_MEMORY}'")


PIECES = databases.PerThreadDatabase(_set_up_piece_database)  # one in-process DuckDB per worker thread


def piece_connection() -> Any:
    """This thread's DuckDB for pieces (one thread: the workers are the parallelism; memory at most
    :data:`PIECE_MEMORY`), opened once per thread and process (:mod:`privclaims.theory.zealous.databases`: opening one
    costs ~11 ms, more than a small piece's query; a forked child opens its own and never destroys its parent's)."""
    return PIECES.get()


def _on_piece(piece: Any, sql: str, variables: dict | None = None, **frames: Any) -> Any:
    """``sql`` with ``{src}`` standing for one piece of a pairs table, on this thread's DuckDB (:func:`piece_connection`):
    a pandas partition, or ``(parquet file, first row, end row)`` read by DuckDB itself (row groups outside the range
    are skipped). ``variables``: DuckDB variables set first (name -> (SQL type, value)); ``frames``: more pandas
    frames, registered by name. Whatever the call registers or sets is removed before it returns, so no piece
    sees another's frames or variables (a variable not set reads NULL, as on a new connection). A fatal or internal
    DuckDB error drops the connection (:func:`_drop_piece_connection`) before it is raised."""
    import duckdb

    con = piece_connection()
    names = list(frames)
    if isinstance(piece, tuple):
        path, a, b = piece
        src = (f"(SELECT user, item FROM read_parquet('{str(path).replace(chr(39), chr(39) * 2)}', file_row_number = true) "
               f"WHERE file_row_number >= {int(a)} AND file_row_number < {int(b)})")
    else:
        names.append("piece_frame")
        src = "piece_frame"
    try:
        if not isinstance(piece, tuple):
            con.register("piece_frame", piece)
        for name, frame in frames.items():
            con.register(name, frame)
        for name, (sql_type, value) in (variables or {}).items():
            con.execute(f"SET VARIABLE {name} = ?::{sql_type}", [value])
        return con.execute(sql.replace("{src}", src)).fetchdf()
    except (duckdb.FatalException, duckdb.InternalException):
        _drop_piece_connection(con)  # DuckDB invalidates a database after these: the next piece opens a new one
        raise
    finally:
        if PIECES.current() is con:
            try:
                for name in names:
                    con.unregister(name)
                for name in variables or {}:
                    con.execute(f"RESET VARIABLE {name}")
            except (duckdb.FatalException, duckdb.InternalException):
                _drop_piece_connection(con)  # invalidated during the cleanup: dropped too (raised, with the query's
                raise  # own error, if any, as its __context__)


def _drop_piece_connection(con: Any) -> None:
    """Forget this thread's piece connection ``con`` (closed if it still can be): after a fatal or internal error
    DuckDB refuses every further query on that database, so keeping it would fail every later piece of this worker
    thread."""
    PIECES.drop(con)


def parquet_pieces(path: str | Path, rows_per_piece: int = 6_000_000) -> list[tuple[str, int, int]]:
    """A Parquet file or folder of ``*.parquet`` files as ``(file, first row, end row)`` pieces of about
    ``rows_per_piece`` rows (DuckDB skips the row groups outside a piece's range). A piece is one task of each
    pass; its memory is DuckDB's streaming (at most :data:`PIECE_MEMORY`) and the rows it keeps. Fewer, larger
    pieces build the rest pass's anti-join table fewer times."""
    p = Path(path)
    files = sorted(p.glob("*.parquet")) if p.is_dir() else [p]
    pieces = []
    with databases.session() as con:  # metadata only: this thread's engine database
        for f in files:
            n = con.execute("SELECT coalesce(sum(num_rows), 0) FROM parquet_file_metadata(?)", [str(f)]).fetchone()[0]
            pieces += [(str(f), a, min(a + rows_per_piece, n)) for a in range(0, n, rows_per_piece)]
    return pieces


SAMPLE = 16384  # the users estimate keeps about this many distinct user hashes per piece


PAIRS = "(SELECT user::BIGINT AS user, item::BIGINT AS item FROM {src})"
"""One piece's (user, item) pairs as BIGINT: DuckDB's hash of a value depends on its integer type (a negative
INTEGER and the same BIGINT hash differently), so every pass keys the same BIGINT values — the keys of
:func:`privclaims.theory.zealous.duck.pair_histogram_sql` on a BIGINT table."""


def piece_stats(piece: Any) -> tuple[int, int, Any]:
    """``(rows, c, the distinct hash(user) below c)`` of one piece, ``c = 2^64 min(1, SAMPLE / rows)``: a
    distinct-sampling sketch (merged by :func:`estimated_users`)."""
    import numpy as np

    rows = piece[2] - piece[1] if isinstance(piece, tuple) else len(piece)
    c = 2 ** 64 if rows <= SAMPLE else (2 ** 64 // rows) * SAMPLE
    h = _on_piece(piece, f"SELECT DISTINCT hash(user) AS h FROM {PAIRS}"
                         + ("" if c >= 2 ** 64 else f" WHERE hash(user) < {c}::UBIGINT"))["h"]
    return rows, c, h.to_numpy(np.uint64)


def estimated_users(stats: list) -> tuple[int, float]:
    """``(rows, distinct users)`` from the pieces' :func:`piece_stats`: with c the least of their cuts, the
    distinct user hashes below c, scaled by 2^64 / c (exact when c = 2^64: every user hash kept)."""
    import numpy as np

    rows = sum(r for r, _, _ in stats)
    c = min((c for _, c, _ in stats), default=2 ** 64)
    h = np.unique(np.concatenate([x for _, _, x in stats])) if stats else np.zeros(0, dtype=np.uint64)
    kept = int(np.count_nonzero(h < np.uint64(c))) if c < 2 ** 64 else len(h)
    return rows, kept * (2.0 ** 64 / c)


def _candidate_cut(stats: list, m: int) -> int | None:
    """The hash cut leaving about 2m candidate rows per user (None: every row; speed only)."""
    rows, users = estimated_users(stats)
    f = 1.0 if not rows else min(1.0, 2 * m * users / rows)
    return int(f * 2 ** 64) if f < 1 else None


def _buckets(frame: Any, b: int) -> tuple:
    """``frame`` split into b frames by ``user % b`` (every user in one of them)."""
    k = frame["user"].to_numpy() % b
    return tuple(frame[k == i] for i in range(b))


def _piece_candidates(piece: Any, seed: int, cut: int | None, b: int) -> tuple:
    """The candidate pairs of one piece: ``(user, item, h)`` with the Step-1 key ``h = hash(user, item, seed)``
    (:func:`privclaims.theory.zealous.duck.pair_histogram_sql`'s key) below ``cut`` (None: every row), in b
    buckets by user."""
    key = f"hash(user, item, {int(seed)})"
    out = _on_piece(piece, f"SELECT user, item, {key} AS h FROM {PAIRS}"
                           + ("" if cut is None else f" WHERE {key} < {int(cut)}::UBIGINT"))
    return _buckets(out.astype({"user": "int64", "item": "int64", "h": "uint64"}), b)


def _bucket_selection(frames: list, m: int) -> tuple:
    """All candidates of the users of one bucket: ``(histogram (item, c) of the users with at least m distinct
    candidates — their m with the smallest (h, item) —, those users)``."""
    import pandas as pd

    cand = pd.concat(frames, ignore_index=True)
    sel = _on_piece(cand, "SELECT user, item FROM (SELECT user, item, count(*) OVER (PARTITION BY user) AS k FROM "
                          "(SELECT DISTINCT user, item FROM (SELECT user, item, dense_rank() OVER (PARTITION BY user "
                          f"ORDER BY h, item) AS r FROM {{src}}) WHERE r <= {int(m)})) WHERE k >= {int(m)}")
    hist = _on_piece(sel, "SELECT item, count(*) AS c FROM {src} GROUP BY item")
    return hist.astype({"item": "int64", "c": "int64"}), sel["user"].unique()


BITMAP_USERS = 2 ** 27  # done users given as a bitmap (16 MB at most) when every id is in [0, 2^27)


def _done_users(done: list) -> tuple[str, Any]:
    """The users done in step 2 as the rest pass tests them: ``("bits", bitmap bytes, bit u set for user u)``
    when every id is in [0, :data:`BITMAP_USERS`) (one bit read per row), else ``("ids", array)`` (an anti-join)."""
    import numpy as np

    users = np.concatenate(done).astype(np.int64) if done else np.zeros(0, dtype=np.int64)
    if len(users) and users.min() >= 0 and users.max() < BITMAP_USERS:
        bits = np.zeros(int(users.max()) + 1, dtype=bool)
        bits[users] = True
        return "bits", (len(bits), np.packbits(bits).tobytes())
    return "ids", users


def _piece_rest(piece: Any, done: tuple[str, Any], b: int) -> tuple:
    """The (user, item) rows of one piece whose user is not done (:func:`_done_users`), in b buckets."""
    import pandas as pd

    how, users = done
    if how == "bits":
        n, packed = users
        out = _on_piece(piece, f"SELECT user, item FROM {PAIRS} WHERE CASE WHEN user >= 0 AND user < " f"{int(n)} THEN "
                               "get_bit(getvariable('done_bits'), user::INTEGER) = 0 ELSE true END",
                        variables={"done_bits": ("BLOB::BIT", packed)})
    else:
        out = _on_piece(piece, f"SELECT user, item FROM {PAIRS} ANTI JOIN done_users USING (user)",
                        done_users=pd.DataFrame({"user": users}))
    return _buckets(out.astype({"user": "int64", "item": "int64"}), b)


def _bucket_histogram(frames: list, m: int, seed: int) -> Any:
    import pandas as pd

    return _partition_pair_histogram(pd.concat(frames, ignore_index=True), m, seed)


def _sum_histograms(frames: list) -> Any:
    import pandas as pd

    both = pd.concat(frames, ignore_index=True)
    return both.groupby("item", as_index=False)["c"].sum().astype({"item": "int64", "c": "int64"})


def pair_histogram_dask(pairs: Any, m: object, seed: int, npartitions: int | None = None,
                        fraction: float | None = None) -> Any:
    """The selected histogram ``(item, c)`` of integer (user, item) pairs — a dask DataFrame, or a Parquet file
    or folder (read in pieces by DuckDB on the workers, :func:`parquet_pieces`) — the same counts as
    :func:`privclaims.theory.zealous.duck.pair_histogram_counts` on the whole table, by DuckDB's candidate plan
    (:func:`privclaims.theory.zealous.duck.pair_histogram_sql`) spread over the cluster as one task graph:

    1. each piece keeps its candidate rows, ``hash(user, item, seed) < fraction · 2^64``, in ``npartitions``
       buckets by user;
    2. per bucket, its candidates from every piece (about 2m per user); each user with at least m distinct
       candidates keeps the m with the smallest (hash, item) — every other item has a larger key, so these are
       its Step-1 selection — and is counted;
    3. the other users (fewer than m distinct candidates, or none; a few per cent of the users) are selected on
       all their rows: each piece drops the rows of the users done in step 2 (one bit read per row when the ids
       fit a bitmap, else an anti-join: :func:`_done_users`), buckets the rest by user, and each bucket is
       ranked in full (:func:`_partition_pair_histogram`);
    4. counts per item are summed.

    Only the candidates and the rows of the few users of step 3 move between workers, not the whole log.
    ``fraction``: default about 2m candidates per user (from the rows and an estimate of the users,
    :func:`estimated_users`, one more cheap pass); any value in (0, 1] gives the same histogram.
    ``npartitions``: the buckets (default one per 4 pieces, at least 2). Returns a lazy one-partition frame."""
    import dask
    import dask.dataframe as dd
    import pandas as pd

    mm = contributions(m)
    pieces = parquet_pieces(pairs) if isinstance(pairs, (str, Path)) else pairs.to_delayed()
    b = int(npartitions or max(2, len(pieces) // 4))
    if fraction is None:
        cut = dask.delayed(_candidate_cut)([dask.delayed(piece_stats)(p) for p in pieces], mm)
    else:
        f = finite_float(fraction, "fraction", lo=0, hi=1)
        cut = int(f * 2 ** 64) if f < 1 else None
    cand = [dask.delayed(_piece_candidates, nout=b)(p, int(seed), cut, b) for p in pieces]
    sel = [dask.delayed(_bucket_selection, nout=2)([c[k] for c in cand], mm) for k in range(b)]
    done = dask.delayed(_done_users)([s[1] for s in sel])
    rest = [dask.delayed(_piece_rest, nout=b)(p, done, b) for p in pieces]
    hists = [s[0] for s in sel] + [dask.delayed(_bucket_histogram)([r[k] for r in rest], mm, int(seed)) for k in range(b)]
    meta = pd.DataFrame({"item": pd.Series(dtype="int64"), "c": pd.Series(dtype="int64")})
    return dd.from_delayed([dask.delayed(_sum_histograms)(hists)], meta=meta, verify_meta=False)
