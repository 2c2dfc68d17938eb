"""Loading search logs: the original AOL release format and the per-user layout.

* AOL format (2006 release): tab-separated ``AnonID Query QueryTime ItemRank ClickURL`` with a
  header line; one row per (query, click) - a query without click has empty ItemRank/ClickURL,
  a query with several clicks repeats the query row. Rows of one user with the same query and
  time are merged into one :class:`Entry` with all clicked urls.
* Per-user layout (``aol-top1000/user_search_logs/<AnonID>.txt``): blocks separated by a blank
  line; a block is ``query<TAB>YYYY-MM-DD HH:MM:SS`` followed by zero or more clicked urls.

Malformed lines raise :class:`InvalidInput` naming ``file:line``: a line that is not UTF-8 (the
encoding tried is named), a blank query, a time that does not parse, missing fields. A missing
path, or a directory where a file is expected (and vice versa), is refused before reading.
"""

from __future__ import annotations

import calendar
import time as _time
from pathlib import Path
from typing import Iterable

from theory.errors import InvalidInput
from theory.validate import existing_path, integer, text_lines
from theory.zealous.model import Entry, SearchLog, non_empty

AOL_HEADER = ("AnonID", "Query", "QueryTime", "ItemRank", "ClickURL")


_DAYS: dict[str, int] = {}


def blank_query(query: str, where: str) -> None:
    """A query that is empty or only spaces is refused (it would become one shared item of every kind)."""
    if not query.strip():
        raise InvalidInput(f"{where}: blank query {query!r} (a query must contain a non-space character)")


def parse_time(text: str, where: str) -> int:
    """``YYYY-MM-DD HH:MM:SS`` (UTC) -> seconds since the epoch; InvalidInput naming ``where``.

    Fast path: the date part is parsed once per distinct day (cached), the clock by slicing.
    """
    s = text.strip()
    try:
        if len(s) != 19 or s[10] != " " or s[13] != ":" or s[16] != ":":
            raise ValueError
        day = _DAYS.get(s[:10])
        if day is None:
            day = calendar.timegm(_time.strptime(s[:10], "%Y-%m-%d"))
            _DAYS[s[:10]] = day
        hh, mm, ss = int(s[11:13]), int(s[14:16]), int(s[17:19])
        if not (0 <= hh < 24 and 0 <= mm < 60 and 0 <= ss < 62) or not (s[11:13] + s[14:16] + s[17:19]).isdigit():
            raise ValueError
        return day + 3600 * hh + 60 * mm + ss
    except ValueError:
        raise InvalidInput(f"{where}: malformed time {text!r} (expected YYYY-MM-DD HH:MM:SS)") from None


def load_aol(path: str | Path) -> SearchLog:
    """Read one AOL-format file (with header) into a :class:`SearchLog`."""
    path = existing_path(path, "path (AOL-format log)", "file")
    log = SearchLog()
    last: dict[str, Entry] = {}
    lines = text_lines(path)
    first = next(lines, (1, ""))[1]
    header = first.split("\t")
    if tuple(h.strip() for h in header) != AOL_HEADER:
        raise InvalidInput(f"{path}:1: expected the header {' '.join(AOL_HEADER)}, got {header!r}")
    for lineno, line in lines:
        if not line:
            continue
        parts = line.split("\t")
        if len(parts) not in (3, 5):
            raise InvalidInput(f"{path}:{lineno}: expected 5 tab-separated fields, got {len(parts)}")
        user, query, qtime = parts[0].strip(), parts[1], parts[2]
        if not user:
            raise InvalidInput(f"{path}:{lineno}: empty AnonID")
        blank_query(query, f"{path}:{lineno}")
        t = parse_time(qtime, f"{path}:{lineno}")
        rank, url = (parts[3].strip(), parts[4].strip()) if len(parts) == 5 else ("", "")
        if rank and not rank.isdigit():
            raise InvalidInput(f"{path}:{lineno}: ItemRank {rank!r} is not a number")
        if bool(rank) != bool(url):
            raise InvalidInput(f"{path}:{lineno}: ItemRank and ClickURL must both be present or both empty")
        hist = log.histories.setdefault(user, [])
        prev = last.get(user)
        if prev is not None and prev.query == query and prev.time == t:
            if url:
                merged = Entry(query, t, prev.clicks + (url,))
                hist[-1] = merged
                last[user] = merged
            continue
        e = Entry(query, t, (url,) if url else ())
        hist.append(e)
        last[user] = e
    return non_empty(log)


def load_user_file(path: str | Path, user: str | None = None) -> list[Entry]:
    """One per-user file: blocks of ``query<TAB>time`` then clicked urls, blank-line separated."""
    path = existing_path(path, "path (per-user log file)", "file")
    entries: list[Entry] = []
    cur_q: str | None = None
    cur_t = 0
    clicks: list[str] = []
    for lineno, line in text_lines(path):
        if not line.strip():
            if cur_q is not None:
                entries.append(Entry(cur_q, cur_t, tuple(clicks)))
                cur_q, clicks = None, []
            continue
        if cur_q is None:
            parts = line.split("\t")
            if len(parts) != 2:
                raise InvalidInput(f"{path}:{lineno}: expected 'query<TAB>time' to open a block, got {line[:60]!r}")
            blank_query(parts[0], f"{path}:{lineno}")
            cur_q, cur_t = parts[0], parse_time(parts[1], f"{path}:{lineno}")
        else:
            if "\t" in line:
                raise InvalidInput(f"{path}:{lineno}: a clicked url cannot contain a tab (missing blank line?)")
            clicks.append(line.strip())
    if cur_q is not None:
        entries.append(Entry(cur_q, cur_t, tuple(clicks)))
    return entries


def load_user_dir(directory: str | Path, limit: int | None = None) -> SearchLog:
    """The per-user layout: one ``<AnonID>.txt`` per user (sorted by name; ``limit`` users at most).

    A missing path, a file instead of a directory, a directory without any ``*.txt`` and a ``limit``
    that is not a positive integer are refused (InvalidInput), before reading anything.
    """
    directory = existing_path(directory, "directory (per-user logs)", "dir")
    if limit is not None:
        limit = integer(limit, "limit", lo=1)
    files: Iterable[Path] = sorted(directory.glob("*.txt"))
    if not files:
        raise InvalidInput(f"directory = {str(directory)!r} holds no <AnonID>.txt user log: empty search log")
    log = SearchLog()
    for i, f in enumerate(files):
        if limit is not None and i >= limit:
            break
        entries = load_user_file(f)
        if entries:
            log.histories[f.stem] = sorted(entries, key=lambda e: e.time)
    return non_empty(log)


def write_aol(log: SearchLog, path: str | Path) -> None:
    """Write a log in the AOL format (one row per click; a row without click for click-less queries)."""
    from datetime import datetime, timezone

    with Path(path).open("w", encoding="utf-8") as fh:
        fh.write("\t".join(AOL_HEADER) + "\n")
        for user, hist in log.histories.items():
            for e in hist:
                ts = datetime.fromtimestamp(e.time, tz=timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
                if not e.clicks:
                    fh.write(f"{user}\t{e.query}\t{ts}\t\t\n")
                for r, url in enumerate(e.clicks, start=1):
                    fh.write(f"{user}\t{e.query}\t{ts}\t{r}\t{url}\n")
