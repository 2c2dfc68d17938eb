"""The scalable path for big logs: DuckDB (embedded) for the histograms and the Step-1 selection.

Tables used:

* ``log(user, query, t, click)`` - one row per AOL line (``click`` NULL for a click-less query);
  :func:`load_aol_duckdb` reads the AOL format with DuckDB's CSV reader.
* ``pairs(user, item)`` - (user, item) rows of integer ids, e.g. a generated Zipf log.

Selection (Step 1) keeps, per user, the m distinct items with the smallest key
``md5(seed ␟ user ␟ item)`` (:func:`privclaims.theory.zealous.engines.selection_key`): a seeded uniformly random
m-subset per user that depends on identities and the seed only, never on counts ("not based on the
data", Figure 6.1's footnote), and the same on every engine. (It differs draw by draw from
:func:`privclaims.theory.zealous.histograms.select_items`' uniform sample.) Histograms count users per item.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import numpy as np

from privclaims.theory.errors import InvalidInput
from privclaims.theory.validate import finite_float
from privclaims.theory.zealous.histograms import DEFAULT_SESSION_GAP
from privclaims.theory.zealous.model import contributions, item_kind


def connect(threads: int = 2, memory_limit: str = "3GB") -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.execute(f"SET threads = {int(threads)}")
    con.execute(f"SET memory_limit = '{memory_limit}'")
    con.execute("SET preserve_insertion_order = false")
    return con


def load_aol_duckdb(con: duckdb.DuckDBPyConnection, path: str | Path) -> int:
    """Create table ``log`` from an AOL-format file; malformed lines raise InvalidInput naming file:line."""
    path = Path(path)
    try:
        con.execute(
            "CREATE OR REPLACE TABLE log AS SELECT AnonID AS user, Query AS query, "
            "epoch(QueryTime)::BIGINT AS t, NULLIF(ClickURL, '') AS click FROM read_csv(?, delim='\t', header=true, quote='', escape='', "
            "columns={'AnonID': 'VARCHAR', 'Query': 'VARCHAR', 'QueryTime': 'TIMESTAMP', 'ItemRank': 'INTEGER', 'ClickURL': 'VARCHAR'}, "
            "null_padding=false, strict_mode=true)",
            [str(path)],
        )
    except duckdb.Error as e:
        import re

        m = re.search(r"[Ll]ine:?\s*(\d+)", str(e))
        where = f"{path}:{m.group(1)}" if m else str(path)
        raise InvalidInput(f"{where}: malformed AOL line ({str(e).splitlines()[0]})") from None
    n = con.execute("SELECT count(*) FROM log").fetchone()[0]
    if n == 0:
        raise InvalidInput(f"{path}: empty search log")
    return n


def load_log_rows(con: duckdb.DuckDBPyConnection, log) -> int:
    """Table ``log`` from an in-memory :class:`SearchLog` (one row per click, or one per click-less query)."""
    from privclaims.theory.zealous.engines import log_rows

    rows = log_rows(log)
    if not rows:
        raise InvalidInput("empty search log")
    import pandas as pd

    frame = pd.DataFrame(rows, columns=["user", "query", "t", "click"]).astype(
        {"user": object, "query": object, "t": "int64", "click": object})
    con.register("log_frame", frame)
    con.execute("CREATE OR REPLACE TABLE log AS SELECT CAST(user AS VARCHAR) AS user, CAST(query AS VARCHAR) AS query, "
                "CAST(t AS BIGINT) AS t, CAST(click AS VARCHAR) AS click FROM log_frame")
    con.unregister("log_frame")
    return len(rows)


def load_source(con: duckdb.DuckDBPyConnection, source) -> int:
    """Table ``log`` from a SearchLog, an AOL TSV file, a per-user folder or Parquet (see
    :func:`privclaims.theory.zealous.engines.source_format`)."""
    from privclaims.theory.zealous.engines import load_source as load_log, source_format

    fmt = source_format(source)
    if fmt == "aol":
        return load_aol_duckdb(con, source)
    if fmt == "parquet":
        p = Path(source)
        pattern = str(p / "*.parquet") if p.is_dir() else str(p)
        con.execute("CREATE OR REPLACE TABLE log AS SELECT CAST(user AS VARCHAR) AS user, CAST(query AS VARCHAR) AS query, "
                    "CAST(t AS BIGINT) AS t, NULLIF(CAST(click AS VARCHAR), '') AS click FROM read_parquet(?)", [pattern])
        return con.execute("SELECT count(*) FROM log").fetchone()[0]
    return load_log_rows(con, load_log(source))


def _items_sql(kind: str, gap: int) -> str:
    item_kind(kind)
    if kind == "keywords":
        return "SELECT DISTINCT user, unnest(string_split(query, ' ')) AS item FROM (SELECT DISTINCT user, query FROM log)"
    if kind == "queries":
        return "SELECT DISTINCT user, query AS item FROM log"
    if kind == "clicks":
        return "SELECT DISTINCT user, click AS item FROM log WHERE click IS NOT NULL"
    return (
        "SELECT DISTINCT user, (pq || chr(9) || query) AS item FROM ("
        "SELECT user, query, t, lag(query) OVER w AS pq, lag(t) OVER w AS pt FROM (SELECT DISTINCT user, query, t FROM log) "
        "WINDOW w AS (PARTITION BY user ORDER BY t, query)) "
        f"WHERE pq IS NOT NULL AND t - pt <= {int(gap)}"
    )


def histogram_sql(source_sql: str, m: object | None, seed: int) -> str:
    """Users per item over ``source_sql`` (columns user, item), with the Step-1 selection if m is given."""
    if m is None:
        return f"SELECT item, count(*) AS c FROM ({source_sql}) WHERE item <> '' GROUP BY item"
    mm = contributions(m)
    return (
        f"SELECT item, count(*) AS c FROM (SELECT item, row_number() OVER (PARTITION BY user ORDER BY "
        f"md5(CAST({int(seed)} AS VARCHAR) || chr(31) || user || chr(31) || item), item) AS r "
        f"FROM ({source_sql}) WHERE item <> '') WHERE r <= {mm} GROUP BY item"
    )


def item_histogram_duckdb(con: duckdb.DuckDBPyConnection, kind: str, m: object | None = None, seed: int = 0,
                          session_gap: int = DEFAULT_SESSION_GAP) -> dict:
    """{item: users} from table ``log`` (all four kinds; query pairs as 'q1<TAB>q2')."""
    rows = con.execute(histogram_sql(_items_sql(kind, session_gap), m, seed)).fetchall()
    return dict(rows)


def pair_histogram_reference_sql(table: str, m: object, seed: int) -> str:
    """``(item, c)``: the selected histogram over ``table(user, item)`` of integer ids, the plan read off
    Step 1: per user, number the distinct items by ``(hash(user, item, seed), item)`` (DuckDB's 64-bit
    hash) and keep numbers <= m. The reference for :func:`pair_histogram_sql`; a user's rows must all
    be in ``table``."""
    mm = contributions(m)
    return (
        "SELECT item, count(*) AS c FROM (SELECT item, row_number() OVER (PARTITION BY user ORDER BY hash(user, item, "
        f"{int(seed)}), item) AS r FROM (SELECT DISTINCT user, item FROM {table})) WHERE r <= {mm} GROUP BY item"
    )


def pair_histogram_sql(table: str, m: object, seed: int, fraction: float = 1.0) -> str:
    """The same histogram as :func:`pair_histogram_reference_sql`, by a cheaper plan.

    * No DISTINCT over the whole table: ``dense_rank`` over the raw rows gives all copies of a
      user's item the same rank, and the distinct items ranks 1, 2, ... in key order, so the rows
      ranked <= m are the copies of the m selected items.
    * ``fraction`` < 1: only rows with ``hash < fraction * 2^64`` (the candidates) are ranked. A user
      with at least m distinct candidates has the same selection among them (every other item's key
      is larger); the users with fewer are ranked again on all their rows. Any fraction gives the
      same histogram; a small one ranks fewer rows, at the price of more users ranked twice.

    ``fraction`` outside [0, 1] (or not a finite real number) is InvalidInput.
    """
    mm = contributions(m)
    fraction = finite_float(fraction, "fraction (of the 64-bit hash range kept as candidates)", lo=0, hi=1)
    key = f"hash(user, item, {int(seed)})"
    rank = f"dense_rank() OVER (PARTITION BY user ORDER BY {key}, item)"
    if fraction >= 1:
        return (f"SELECT item, count(*) AS c FROM (SELECT DISTINCT user, item FROM (SELECT user, item, {rank} AS r "
                f"FROM {table}) WHERE r <= {mm}) GROUP BY item")
    cut = int(fraction * 2 ** 64)  # < 2^64: fraction < 1
    return (
        f"WITH cand AS (SELECT user, item, {key} AS h FROM {table} WHERE {key} < {cut}::UBIGINT), "
        f"sel AS (SELECT DISTINCT user, item FROM (SELECT user, item, dense_rank() OVER (PARTITION BY user ORDER BY h, item) "
        f"AS r FROM cand) WHERE r <= {mm}), "
        f"done AS (SELECT user FROM sel GROUP BY user HAVING count(*) >= {mm}), "
        f"rest AS (SELECT DISTINCT user, item FROM (SELECT user, item, {rank} AS r FROM "
        f"(SELECT * FROM {table} ANTI JOIN done USING (user))) WHERE r <= {mm}) "
        "SELECT item, count(*) AS c FROM (SELECT user, item FROM sel SEMI JOIN done USING (user) "
        "UNION ALL SELECT user, item FROM rest) GROUP BY item"
    )


def candidate_fraction(con: duckdb.DuckDBPyConnection, table: str, m: object) -> float:
    """A hash fraction leaving about 2m candidate rows per user in ``table`` (at most 1): few users
    then have fewer than m distinct candidates. Speed only: the histogram does not depend on it."""
    rows, users = con.execute(f"SELECT count(*), approx_count_distinct(user) FROM {table}").fetchone()
    return 1.0 if not rows else min(1.0, 2 * contributions(m) * users / rows)


def pair_histogram_counts(con: duckdb.DuckDBPyConnection, m: int, seed: int) -> np.ndarray:
    """Counts array of the selected histogram over table ``pairs(user, item)`` (integer ids), in item
    order (so that a release drawing noise by position does not depend on DuckDB's thread timing)."""
    sql = pair_histogram_sql("pairs", m, seed, candidate_fraction(con, "pairs", m))
    return con.execute(f"SELECT c FROM ({sql}) ORDER BY item").fetchnumpy()["c"].astype(np.float64)
