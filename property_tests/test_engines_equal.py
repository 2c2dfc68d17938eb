"""ZEALOUS's engines are equal on every valid log, and equal to the thesis's definitions (issue 22, item 2).

Hypothesis generates search logs as rows (user, query, time, clicked url or none) — any row order, ties
in time, duplicate rows, users with one row, searches without clicks, Unicode and Unicode white space,
and sometimes a blank query (an invalid log) — writes each log in every input format (in memory, AOL
TSV with the layout's freedoms drawn: white space around AnonID, QueryTime, ItemRank and ClickURL, CRLF line
ends, 3-field rows for searches without a click, blank lines; a per-user folder; Parquet as a folder of two
files that split users between them, so that Dask reads two partitions and must bring each user together)
and asserts:

* valid log: the ``python``, ``duckdb`` and ``dask`` engines give the same selected histogram and the
  same release from every format, and the histogram is the one computed here directly from the rows by
  000_211156f2009240b4.txt §6.2.1 (= 003_755c7aa10ef74058.txt §2.1): a user's history is the set of
  searches (time, query) with their clicks; keywords are the white-space separated tokens of the queries;
  a query pair is two subsequent searches (time order, then query text) at most 30 minutes apart;
  Step 1 keeps the m items with the smallest md5(seed ␟ user ␟ item);
* invalid log: every engine refuses it with InvalidInput, from every format; and a valid log whose AOL
  file has one malformed line (a time that is not a time — year 0000, 30 February, 24:00, second 60 —,
  an ItemRank without ClickURL, a blank AnonID, four fields) is refused by every engine.

The number of generated logs is printed at the end of the run (``generated examples``); the ``ci``
profile runs a few dozen, ``thorough`` many more.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from datetime import datetime, timezone

import dask
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from property_tests.conftest import PROFILE
from privclaims.theory.errors import InvalidInput
from privclaims.theory.zealous import engines
from privclaims.theory.zealous.model import Entry, SearchLog, ZealousParams

KINDS = ("keywords", "queries", "clicks", "query_pairs")
GAP = 30 * 60
BASE = 1_141_000_000  # 2006-02-27
USERS = ["1", "2", "3", "ü", "user 5"]
QUERIES = ["a", "b", "a b", "b a", "a  b", "a\u00a0b", " a", "a\u3000", "ü", "😀 a", "-", "a\x1fb", "ﬁ b", "x\u2028y"]
BLANK = ["", " ", "\u3000", "\t"]
URLS = ["http://a", "http://b", "u ü"]
OFFSETS = [0, 1, 2, 1799, 1800, 1801, 1802, 3601, 86400]

_row = st.tuples(st.sampled_from(USERS), st.sampled_from(QUERIES), st.sampled_from(OFFSETS),
                 st.one_of(st.none(), st.sampled_from(URLS)))


@st.composite
def logs(draw):
    """(rows, valid): rows in a random order with duplicates; ``valid`` False when a blank query was put in."""
    rows = draw(st.lists(_row, min_size=1, max_size=14))
    rows += [rows[i % len(rows)] for i in draw(st.lists(st.integers(0, 30), max_size=4))]  # duplicate rows
    if draw(st.integers(0, 5)) == 5:  # hypothesis favours 0: a blank query in about one log of six
        k = draw(st.integers(0, len(rows) - 1))
        u, _, t, c = rows[k]
        rows[k] = (u, draw(st.sampled_from(BLANK)), t, c)
    rows = draw(st.permutations(rows))
    return rows, all(q.strip() for _, q, _, _ in rows)


# ------------------------------------------------------------------------ the definitions, directly


def direct_items(rows, kind: str) -> dict[str, set[str]]:
    """Each user's items, read off the thesis on the rows (no code of theory/zealous/)."""
    searches: dict[str, dict[tuple[int, str], set[str]]] = {}
    for u, q, t, c in rows:
        searches.setdefault(u, {}).setdefault((BASE + t, q), set()).update([c] if c else [])
    out = {}
    for u, s in searches.items():
        if kind == "keywords":
            its = {w for (_, q) in s for w in q.split()}
        elif kind == "queries":
            its = {q for (_, q) in s}
        elif kind == "clicks":
            its = set().union(*s.values())
        else:
            order = sorted(s)
            its = {f"{a}\t{b}" for (ta, a), (tb, b) in zip(order, order[1:]) if tb - ta <= GAP}
        out[u] = its - {""}
    return out


def direct_selected_histogram(rows, kind: str, m: int, seed: int) -> Counter:
    """Step 1 (the m items with the smallest md5 key, then the item text) and Step 2 (users per item)."""
    c: Counter = Counter()
    for u, its in direct_items(rows, kind).items():
        key = lambda item: (hashlib.md5(f"{seed}\x1f{u}\x1f{item}".encode()).hexdigest(), item)  # noqa: E731
        c.update(sorted(its, key=key)[:m])
    return c


# ------------------------------------------------------------------------ the log in every format


def _ts(t: int) -> str:
    return datetime.fromtimestamp(BASE + t, tz=timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def in_memory(rows) -> SearchLog:
    log = SearchLog()
    for u, q, t, c in rows:
        log.histories.setdefault(u, []).append(Entry(q, BASE + t, (c,) if c else ()))
    return log


PADS = ["", " ", "  ", "\u00a0", "\x0b", "\u3000"]
"""White space the AOL layout ignores around AnonID, QueryTime, ItemRank and ClickURL (never around a query,
which is read as written)."""


@st.composite
def aol_layouts(draw):
    """How the AOL file of a log is written: pads around the fields that are read without them, the line end,
    3-field rows for click-less searches, blank lines between rows."""
    return {"pad": draw(st.lists(st.sampled_from(PADS), min_size=8, max_size=8)),
            "crlf": draw(st.booleans()), "short": draw(st.booleans()), "blank": draw(st.booleans())}


def aol_text(rows, layout=None, bad: str | None = None) -> str:
    """The AOL TSV of ``rows`` in ``layout`` (default: plain); ``bad`` replaces the last line (a malformed one)."""
    lay = layout or {"pad": [""] * 8, "crlf": False, "short": False, "blank": False}
    end = "\r\n" if lay["crlf"] else "\n"
    lines = []
    for r, (u, q, t, c) in enumerate(rows):
        p = lay["pad"][r % 8:] + lay["pad"][:r % 8]  # rotated per row: one user's rows are padded differently
        head = f"{p[0]}{u}{p[1]}\t{q}\t{p[2]}{_ts(t)}{p[3]}"
        if c:
            lines.append(f"{head}\t{p[4]}1{p[5]}\t{p[6]}{c}{p[7]}")
        else:
            lines.append(head if lay["short"] else f"{head}\t{p[4]}{p[5]}\t{p[6]}{p[7]}")
        if lay["blank"]:
            lines.append("")
    if bad is not None:
        lines[-1] = bad
    return "AnonID\tQuery\tQueryTime\tItemRank\tClickURL" + end + "".join(line + end for line in lines)


def write_parquet_folder(rows, folder):
    """Parquet as a folder of two files, rows (and so users) split between them by position."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema([("user", pa.string()), ("query", pa.string()), ("t", pa.int64()), ("click", pa.string())])
    folder.mkdir()
    for k in range(2):
        part = rows[k::2] or rows[:0]
        cols = list(zip(*[(u, q, BASE + t, c) for u, q, t, c in part])) or [[], [], [], []]
        pq.write_table(pa.table([pa.array(list(col), type=f.type) for col, f in zip(cols, schema)], schema=schema),
                       folder / f"part{k}.parquet")
    return folder


def write_formats(rows, folder, layout=None) -> dict[str, object]:
    aol = folder / "log.tsv"
    aol.write_bytes(aol_text(rows, layout).encode("utf-8"))
    per_user = folder / "users"
    per_user.mkdir()
    by_user: dict[str, list[str]] = {}
    for u, q, t, c in rows:
        by_user.setdefault(u, []).append("\n".join([f"{q}\t{_ts(t)}", *([c] if c else [])]))
    for u, blocks in by_user.items():
        (per_user / f"{u}.txt").write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    parquet = write_parquet_folder(rows, folder / "parquet")
    return {"memory": in_memory(rows), "aol": aol, "user_dir": per_user, "parquet": parquet}


def _outcome(call):
    """The call's result, or a marker for InvalidInput (the messages of the readers may differ)."""
    try:
        return call()
    except InvalidInput as exc:
        return ("InvalidInput", type(exc).__name__)


EXAMPLES = {"dev": 12, "ci": 20, "thorough": 1000}.get(PROFILE, 20)
FORMATS = ("memory", "aol", "user_dir", "parquet")


def test_engines_equal_on_generated_logs(tmp_path_factory, record_property):
    """Per generated log: python and duckdb on all four formats, dask (slower) on Parquet and on one drawn
    format, and the full release (Steps 1-6) of all three engines on the drawn format."""
    seen = Counter()

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
    @given(log=logs(), kind=st.sampled_from(KINDS), m=st.integers(1, 3), seed=st.integers(0, 3),
           drawn=st.sampled_from(FORMATS), layout=aol_layouts())
    def check(log, kind, m, seed, drawn, layout):
        rows, valid = log
        seen["logs"] += 1
        seen["valid" if valid else "invalid"] += 1
        sources = write_formats(rows, tmp_path_factory.mktemp("log"), layout)
        want = direct_selected_histogram(rows, kind, m, seed) if valid else ("InvalidInput", "InvalidInput")
        with dask.config.set(scheduler="sync"):
            for fmt, src in sources.items():  # dask on Parquet always: two files, two partitions to bring together
                for engine in engines.ENGINES if fmt in (drawn, "parquet") else ("python", "duckdb"):
                    got = _outcome(lambda: engines.selected_histogram(src, kind, m, seed, engine))
                    assert got == want, (fmt, engine, kind, rows)
                    seen["histograms"] += 1
            params = ZealousParams.of(m, 1, 1, 1)
            releases = {e: _outcome(lambda: engines.publish(sources[drawn], kind, params, seed, e)) for e in engines.ENGINES}
        assert releases["duckdb"] == releases["python"] == releases["dask"], (drawn, kind, rows)
        seen["releases"] += 3
        if valid:
            full = direct_selected_histogram(rows, kind, 10**6, seed)  # m above every user's items: all items
            assert engines.selected_histogram(sources["memory"], kind, 10**6, seed, "duckdb") == full

    check()
    record_property("examples", dict(seen))
    assert seen["valid"] > 0 and seen["histograms"] > 0


BAD_LINES = ["1\tq\t0000-01-01 00:00:00\t\t", "1\tq\t2006-02-30 08:00:00\t\t", "1\tq\t2006-03-01 24:00:00\t\t",
             "1\tq\t2006-03-01 08:00:60\t\t", "1\tq\t2006-03-01 08:00:00\t1\t", "1\tq\t2006-03-01 08:00:00\t\thttp://a",
             " \tq\t2006-03-01 08:00:00\t\t", "1\tq\t2006-03-01 08:00:00\t1", "1\tq\t2006-03-01 08:00:00\tx\thttp://a"]


def test_a_malformed_aol_line_is_refused_by_every_engine(tmp_path_factory, record_property):
    """A valid log with one malformed AOL line: no engine answers (DuckDB's fast reader must defer to the Python
    reader's verdict, Dask parses with its line parser)."""
    seen = Counter()

    @settings(max_examples=max(3, EXAMPLES // 2), deadline=None, suppress_health_check=list(HealthCheck))
    @given(log=logs(), bad=st.sampled_from(BAD_LINES), layout=aol_layouts())
    def check(log, bad, layout):
        rows, valid = log
        if not valid:
            return
        f = tmp_path_factory.mktemp("bad") / "log.tsv"
        f.write_bytes(aol_text(rows, layout, bad).encode("utf-8"))
        with dask.config.set(scheduler="sync"):
            for engine in engines.ENGINES:
                with pytest.raises(InvalidInput):
                    engines.selected_histogram(f, "queries", 2, 0, engine)
                seen[engine] += 1

    check()
    record_property("examples", dict(seen))


@pytest.mark.parametrize("kind", KINDS)
def test_the_issue_22_log(kind, tmp_path):
    """The small valid log that made the engines disagree: a query with a no-break space (a keyword
    separator in Python only), two searches in the same second (query pairs ordered by row order in
    Python, by query text in SQL) and a repeated row of that second."""
    rows = [("u", "b", 0, None), ("u", "a\u00a0b", 0, None), ("u", "b", 0, None), ("u", "c", 60, "http://a"),
            ("v", "a b", 5, None)]
    want = direct_selected_histogram(rows, kind, 3, 1)
    for fmt, src in write_formats(rows, tmp_path).items():
        for engine in ("python", "duckdb"):
            assert engines.selected_histogram(src, kind, 3, 1, engine) == want, (fmt, engine)


def test_whitespace_is_pythons():
    from privclaims.theory.zealous.items import WHITESPACE

    assert WHITESPACE == "".join(c for c in map(chr, range(0x110000)) if c.isspace())


def test_only_a_per_user_folder_skips_the_shuffle(tmp_path):
    """Dask shuffles rows on the user unless every partition holds whole users: a per-user folder (one file per user,
    a partition = whole files) skips the shuffle and publishes what the Python engine does; a TSV file, a Parquet
    folder or a log in memory is shuffled."""
    from privclaims.theory.zealous.dask_engine import histogram_dask, whole_users

    rows = [(f"u{u}", f"q{(u * 7 + k) % 5}", 60 * k + u, f"http://www.c{k % 3}.com" if k % 2 else "")
            for u in range(130) for k in range(4)]  # 130 user files: 3 partitions of whole users
    src = write_formats(rows, tmp_path)
    params = ZealousParams.of(2, 1, 3, 6)
    for fmt, source in src.items():
        assert whole_users(source) == (fmt == "user_dir"), fmt
        frame = histogram_dask(source, "queries", 2, 5)
        assert any("shuffle" in str(k) for k in frame.__dask_graph__()) == (fmt != "user_dir"), fmt
        with dask.config.set(scheduler="sync"):
            assert engines.publish(source, "queries", params, seed=3, engine="dask") == \
                engines.publish(src["memory"], "queries", params, seed=3, engine="python"), fmt
