"""The scalable path for big logs: DuckDB (embedded) for the histograms and the Step-1 selection.

Tables used:

* ``log(user, query, t, click)`` - one row per clicked url (``click`` NULL for a click-less search), a temporary
  table (the connection's own: dropped with it);
  :func:`load_aol_duckdb` reads the AOL format with DuckDB's CSV reader.
* ``pairs(user, item)`` - (user, item) rows of integer ids, e.g. a generated Zipf log.

**The same log as the Python readers.** DuckDB's readers are fast paths: an AOL file is read whole-line
and checked in SQL by the rules of :func:`privclaims.theory.zealous.loaders.aol_row` (white space as
:data:`~privclaims.theory.zealous.items.WHITESPACE`); Parquet by the rules of
:func:`~privclaims.theory.zealous.model.checked_log`. Whenever a row is not plainly valid (or DuckDB's CSV
reader stops), the file is read by the Python reader instead, which gives the log or names the bad
line — so the table ``log`` always holds the rows of the log the ``python`` engine reads.

**The same items.** :func:`item_histogram_duckdb` runs :meth:`privclaims.theory.zealous.items.ItemKind.sql`,
the definition of the items in SQL next to its Python twin.

Selection (Step 1) keeps, per user, the m distinct items with the smallest key
``md5(seed ␟ user ␟ item)`` (:func:`privclaims.theory.zealous.keyed.selection_key`): a seeded uniformly random
m-subset per user that depends on identities and the seed only, never on counts ("not based on the
data", Figure 6.1's footnote), and the same on every engine. (It differs draw by draw from
:func:`privclaims.theory.zealous.histograms.select_items`' uniform sample.) Histograms count users per item.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import numpy as np

from privclaims.theory.validate import existing_path, finite_float
from privclaims.theory.zealous import databases, loaders, sources
from privclaims.theory.zealous.items import WHITESPACE, ItemKind, sql_blank, sql_strip
from privclaims.theory.zealous.model import TIME_LIMIT, contributions


def connect(threads: int = 2, memory_limit: str = "3GB") -> duckdb.DuckDBPyConnection:
    """A new in-memory database of the caller's own, with the engine's settings
    (:func:`privclaims.theory.zealous.databases.configure`); the engines use :func:`~privclaims.theory.zealous.databases.session`
    (a connection to this thread's database) instead."""
    con = duckdb.connect()
    databases.configure(con, threads, memory_limit)
    return con


_LINE_DELIM = "\x01"  # a line holding this byte is read by the Python reader (DuckDB would split it)
_TIME_RE = "[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}"
_NO_BREAK = "NOT regexp_matches({c}, '[\\t\\n\\r]')"


def _aol_rows_sql(path_param: str = "?") -> str:
    """SELECT the AOL lines after the header as ``(user, query, t, click, ok)``: ``ok`` is whether the line
    is valid by :func:`privclaims.theory.zealous.loaders.aol_row` (``t``, ``click`` meaningful only then)."""
    lines = (f"SELECT string_split(line, chr(9)) AS f FROM read_csv({path_param}, columns={{'line': 'VARCHAR'}}, "
             f"delim='{_LINE_DELIM}', header=false, skip=1, quote='', escape='', new_line='\\n', auto_detect=false, "
             "strict_mode=true, null_padding=false) WHERE line IS NOT NULL AND line <> ''")
    user, tt, rank, url = sql_strip("f[1]"), sql_strip("f[3]"), sql_strip("f[4]"), sql_strip("f[5]")
    ok = (f"(len(f) = 3 OR len(f) = 5) AND {user} <> '' AND NOT {sql_blank('f[2]')} "
          f"AND regexp_full_match({tt}, '{_TIME_RE}') AND try_strptime({tt}, '%Y-%m-%d %H:%M:%S') IS NOT NULL "
          f"AND substr({tt}, 1, 4) <> '0000' AND substr({tt}, 18, 2) < '60' "
          f"AND (len(f) = 3 OR (regexp_full_match({rank}, '[0-9]*') AND (({rank} = '') = ({url} = ''))))")
    return (f"SELECT {user} AS user, f[2] AS query, "
            f"CASE WHEN ok THEN epoch(strptime({tt}, '%Y-%m-%d %H:%M:%S'))::BIGINT END AS t, "
            f"CASE WHEN ok AND len(f) = 5 THEN NULLIF({url}, '') END AS click, ok "
            f"FROM (SELECT f, {ok} AS ok FROM ({lines}))")


def load_aol_duckdb(con: duckdb.DuckDBPyConnection, path: str | Path) -> int:
    """Create table ``log`` from an AOL-format file: the rows of
    :func:`privclaims.theory.zealous.loaders.load_aol` (a malformed line raises its InvalidInput naming file:line)."""
    path = existing_path(path, "path (AOL-format log)", "file")
    with path.open("rb") as fh:
        first = fh.readline()
    try:
        loaders.check_aol_header(first.decode("utf-8").rstrip("\n").removesuffix("\r"), path)
    except UnicodeDecodeError:
        return _load_via_python(con, path)
    try:
        con.execute(f"CREATE OR REPLACE TEMP TABLE aol_rows AS {_aol_rows_sql()}", [str(path)])
        plain = con.execute("SELECT bool_and(ok) FROM aol_rows").fetchone()[0]
    except duckdb.Error:
        plain = False
    if not plain:  # a line DuckDB cannot read plainly (or no line at all): the Python reader decides
        con.execute("DROP TABLE IF EXISTS aol_rows")
        return _load_via_python(con, path)
    con.execute("CREATE OR REPLACE TEMP TABLE log AS SELECT user, query, t, click FROM aol_rows")
    con.execute("DROP TABLE aol_rows")
    return con.execute("SELECT count(*) FROM log").fetchone()[0]


def _load_via_python(con: duckdb.DuckDBPyConnection, path: Path) -> int:
    """Table ``log`` from the Python AOL reader (which raises InvalidInput naming the first bad line)."""
    return load_log_rows(con, loaders.load_aol(path))


def load_log_rows(con: duckdb.DuckDBPyConnection, log) -> int:
    """Table ``log`` from an in-memory :class:`SearchLog` (one row per click, or one per click-less query)."""
    import pandas as pd

    rows = sources.log_rows(sources.load_source(log))
    frame = pd.DataFrame(rows, columns=["user", "query", "t", "click"]).astype(
        {"user": object, "query": object, "t": "int64", "click": object})
    con.register("log_frame", frame)
    con.execute("CREATE OR REPLACE TEMP TABLE log AS SELECT CAST(user AS VARCHAR) AS user, CAST(query AS VARCHAR) AS query, "
                "CAST(t AS BIGINT) AS t, CAST(click AS VARCHAR) AS click FROM log_frame")
    con.unregister("log_frame")
    return len(rows)


def _ws_literal() -> str:
    """:data:`~privclaims.theory.zealous.items.WHITESPACE` as a SQL string literal (it holds no quote; SQL
    literals take every other character as it is)."""
    assert "'" not in WHITESPACE and "\x00" not in WHITESPACE
    return f"'{WHITESPACE}'"


_KEPT_PARTS = "p[1:len(p) + 1 - list_position(list_reverse(list_transform(p, lambda x: ltrim(x, chr(10)) <> '')), true)]"
"""The blocks of a file, ``trim(content, chr(10))`` split at ``chr(10) || chr(10)``, computed from ``p``, the split of
``ltrim(content, chr(10))`` alone (issue 25, algorithm: DuckDB's ``rtrim`` decodes the whole text, 0.13 s per pass over
the AOL subset's 1,000 files, and the plan trimmed every file twice; ``ltrim`` stops at the first other character). The
text ends with k >= 0 newlines after its last block B (which ends with another character): splitting left to right,
k = 1 leaves ``B + chr(10)``, k >= 2 leaves B followed by parts made of newlines only (``""``, ``chr(10)``, ...), and no
part before B ends with a newline (a part ending with one would have met the separator a character earlier). So the
kept parts are those up to the last one holding another character (``ltrim(x, chr(10)) <> ''``: the first part does,
the text being neither empty nor newlines only - the plan's WHERE), and a kept part ending with a newline - the last one
alone - is right-trimmed. Equal to the old plan on the AOL subset (every block, in order), on the folders of
test_zealous_user_dir_duckdb and, in a reviewer's comparison, on 538,803 strings (all of length <= 7 over letters,
newline, tab, carriage return and space; random longer ones; runs of up to 11 newlines at either end)."""


def _user_dir_rows_sql() -> str:
    """SELECT the searches of the per-user files in ``read_text(?)`` (names joined from ``ud_names(path, user)``)
    as ``(user, query, tt, urls, ok)``, one row per block; ``ok``: the block is plain by
    :func:`privclaims.theory.zealous.loaders._plain_blocks` (a ``query<TAB>time`` line with a non-blank query
    and a time ``YYYY-MM-DD HH:MM:SS`` that :func:`~privclaims.theory.zealous.loaders.parse_times` decides, then
    url lines without a tab and without white space at either end; blocks separated by exactly one empty line,
    the file's empty lines at both ends dropped) and holds no carriage return (which the log's fields never do).
    White space is :data:`~privclaims.theory.zealous.items.WHITESPACE` (``trim(x, WHITESPACE)`` is Python's
    ``x.strip()``; ``left``/``right`` take code points)."""
    tt, ws = "h[2]", _ws_literal()
    url_ok = (f"u <> '' AND NOT contains(u, chr(9)) AND NOT contains(u, chr(13)) "
              f"AND NOT contains({ws}, left(u, 1)) AND NOT contains({ws}, right(u, 1))")
    blank = f"CASE WHEN contains({ws}, left(h[1], 1)) THEN trim(h[1], {ws}) = '' ELSE false END"  # trim only if needed
    ok = (f"len(h) = 2 AND NOT ({blank}) AND NOT contains(h[1], chr(13)) AND NOT contains(h[1], chr(65279)) "
          f"AND regexp_full_match({tt}, '{_TIME_RE}') AND try_strptime({tt}, '%Y-%m-%d %H:%M:%S') IS NOT NULL "
          f"AND substr({tt}, 1, 4) <> '0000' AND substr({tt}, 18, 2) < '60' "
          f"AND coalesce(list_bool_and(list_transform(urls, lambda u: {url_ok})), true)")
    blocks = (f"SELECT user, unnest(list_transform({_KEPT_PARTS}, lambda x: CASE WHEN suffix(x, chr(10)) THEN rtrim(x, chr(10)) "
              "ELSE x END)) AS b FROM (SELECT n.user, string_split(ltrim(f.content, chr(10)), chr(10) || chr(10)) AS p "
              "FROM read_text(?) f JOIN ud_names n ON f.filename = n.path WHERE ltrim(f.content, chr(10)) <> '')")
    heads = f"SELECT user, string_split(l[1], chr(9)) AS h, l[2:] AS urls FROM (SELECT user, string_split(b, chr(10)) AS l FROM ({blocks}))"
    return f"SELECT user, h[1] AS query, {tt} AS tt, urls, {ok} AS ok FROM ({heads})"


def load_user_dir_duckdb(con: duckdb.DuckDBPyConnection, directory: str | Path) -> int:
    """Create table ``log`` from a per-user folder (one ``<AnonID>.txt`` per user): the rows of
    :func:`privclaims.theory.zealous.loaders.load_user_dir`, read by DuckDB (``read_text``, on all threads).

    The same log as the Python reader: DuckDB reads a folder only if every file is plain by the rules of the
    Python reader's bulk path (:func:`_user_dir_rows_sql`) and every user name is a valid text field; then the
    Python reader's result is exactly those blocks (one entry per block, its urls as clicks). Any other folder
    (a file that is not valid UTF-8, a block the bulk path leaves to the line reader, no entry at all) is read
    by the Python reader, which reads it or raises its InvalidInput naming ``file:line``."""
    from privclaims.theory.zealous.model import LINE_BREAKS

    directory = existing_path(directory, "directory (per-user logs)", "dir")
    files = sorted(directory.glob("*.txt"))
    users = [f.stem for f in files]
    if not files or any(not u.strip() or any(c in u for c in LINE_BREAKS) for u in users):
        return _load_dir_via_python(con, directory)
    paths = [str(f) for f in files]
    try:
        con.execute("CREATE OR REPLACE TEMP TABLE ud_names AS SELECT unnest(?) AS path, unnest(?) AS user", [paths, users])
        con.execute(f"CREATE OR REPLACE TEMP TABLE ud_rows AS {_user_dir_rows_sql()}", [paths])
        plain, blocks = con.execute("SELECT coalesce(bool_and(ok), false), count(*) FROM ud_rows").fetchone()
        named = con.execute("SELECT count(*) FROM read_text(?) f JOIN ud_names n ON f.filename = n.path",
                            [paths]).fetchone()[0] == len(paths)  # every file read under its own name
    except duckdb.Error:
        plain = False
    if not (plain and named and blocks):
        con.execute("DROP TABLE IF EXISTS ud_rows")
        return _load_dir_via_python(con, directory)
    con.execute("CREATE OR REPLACE TEMP TABLE log AS SELECT user, query, epoch(strptime(tt, '%Y-%m-%d %H:%M:%S'))::BIGINT AS t, "
                "unnest(CASE WHEN len(urls) = 0 THEN [NULL::VARCHAR] ELSE urls END) AS click FROM ud_rows")
    con.execute("DROP TABLE ud_rows")
    con.execute("DROP TABLE ud_names")
    return con.execute("SELECT count(*) FROM log").fetchone()[0]


def _load_dir_via_python(con: duckdb.DuckDBPyConnection, directory: Path) -> int:
    """Table ``log`` from the Python per-user reader (which raises InvalidInput naming the first bad line)."""
    return load_log_rows(con, loaders.load_user_dir(directory))


def _parquet_plain(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether table ``log`` (read from Parquet) is valid by :func:`privclaims.theory.zealous.model.checked_log`'s
    rules, with the column types of :data:`privclaims.theory.zealous.sources.PARQUET_COLUMNS`."""
    types = dict(con.execute("SELECT column_name, data_type FROM (DESCRIBE raw_parquet)").fetchall())
    if set(types) != {"user", "query", "t", "click"} or any(types[c] != "VARCHAR" for c in ("user", "query", "click")) \
            or types["t"] not in ("BIGINT", "INTEGER", "SMALLINT", "TINYINT", "UBIGINT", "UINTEGER", "USMALLINT", "UTINYINT"):
        return False
    text_ok = " AND ".join(f"{c} IS NOT NULL AND NOT {sql_blank(c)} AND {_NO_BREAK.format(c=c)}" for c in ("user", "query"))
    click_ok = f"(click IS NULL OR click = '' OR (NOT {sql_blank('click')} AND {_NO_BREAK.format(c='click')}))"
    ok = con.execute(f"SELECT count(*) > 0 AND coalesce(bool_and({text_ok} AND {click_ok} AND t IS NOT NULL AND "
                     f"t > -{TIME_LIMIT} AND t < {TIME_LIMIT}), false) FROM raw_parquet").fetchone()[0]
    return bool(ok)


def load_source(con: duckdb.DuckDBPyConnection, source) -> int:
    """Table ``log`` from a SearchLog, an AOL TSV file, a per-user folder or Parquet (see
    :func:`privclaims.theory.zealous.sources.source_format`): the rows of the log the Python readers read."""
    fmt = sources.source_format(source)
    if fmt == "aol":
        return load_aol_duckdb(con, source)
    if fmt == "parquet":
        p = Path(source)
        pattern = str(p / "*.parquet") if p.is_dir() else str(p)
        try:
            con.execute("CREATE OR REPLACE TEMP TABLE raw_parquet AS SELECT * FROM read_parquet(?)", [pattern])
            plain = _parquet_plain(con)
        except duckdb.Error:
            plain = False
        if not plain:
            con.execute("DROP TABLE IF EXISTS raw_parquet")
            return load_log_rows(con, sources.load_source(source))
        con.execute("CREATE OR REPLACE TEMP TABLE log AS SELECT user, query, CAST(t AS BIGINT) AS t, NULLIF(click, '') AS click "
                    "FROM raw_parquet")
        con.execute("DROP TABLE raw_parquet")
        return con.execute("SELECT count(*) FROM log").fetchone()[0]
    if fmt == "user_dir":
        return load_user_dir_duckdb(con, source)
    return load_log_rows(con, source)  # an in-memory log: load_log_rows checks it (once)


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


def item_histogram_duckdb(con: duckdb.DuckDBPyConnection, kind: ItemKind | str, m: object | None = None, seed: int = 0,
                          session_gap: int | None = None) -> dict:
    """{item: users} from table ``log`` (all four kinds, :meth:`ItemKind.sql`; query pairs as 'q1<TAB>q2')."""
    rows = con.execute(histogram_sql(ItemKind.of(kind, session_gap).sql("log"), m, seed)).fetchall()
    return dict(rows)


def item_histograms_duckdb(con: duckdb.DuckDBPyConnection, kind: ItemKind | str, m: object, seed: int = 0,
                           session_gap: int | None = None) -> tuple[dict, dict]:
    """``(full, selected)``: :func:`item_histogram_duckdb` without and with the Step-1 selection (m, seed), from
    one table of the distinct (user, item) rows of ``kind`` (the items are extracted once, not per histogram)."""
    con.execute(f"CREATE OR REPLACE TEMP TABLE user_items AS {ItemKind.of(kind, session_gap).sql('log')}")
    full = dict(con.execute(histogram_sql("SELECT user, item FROM user_items", None, seed)).fetchall())
    selected = dict(con.execute(histogram_sql("SELECT user, item FROM user_items", m, seed)).fetchall())
    con.execute("DROP TABLE user_items")
    return full, selected


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
