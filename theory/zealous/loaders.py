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
import operator
import re
import time as _time
from functools import lru_cache
from pathlib import Path

import numpy as np

from privclaims.theory.errors import InvalidInput
from privclaims.theory.gcpause import gc_paused
from privclaims.theory.validate import existing_path, integer, text_lines
from privclaims.theory.zealous.model import Entry, SearchLog, checked_log
from privclaims.theory.zealous.urlhost import url_host

AOL_HEADER = ("AnonID", "Query", "QueryTime", "ItemRank", "ClickURL")


_DAYS: dict[str, int] = {}
_TIME = operator.attrgetter("time")
_QUERY = r"[^\S\t\n]*\S[^\t\n]*"  # no tab, a non-space character
_URL = r"\S(?:[^\t\n]*\S)?"  # no tab, no space at either end (nothing for strip() to remove)
# a plain block: (query, time, "\nurl\nurl..."), then an empty line or the end
_PLAIN_BLOCK = re.compile(rf"({_QUERY})\t([^\t\n]*)((?:\n{_URL})*)(?:\n\n|\Z)")


def blank_query(query: str, where: str) -> None:
    """A query that is empty or only spaces is refused (it would become one shared item of every kind)."""
    if not query.strip():
        raise InvalidInput(f"{where}: blank query {query!r} (a query must contain a non-space character)")


def clicked_host(url: str, where: str) -> str:
    """The site of a clicked URL as the log writes it, ``scheme://host...``: ``urlparse(url).netloc`` in lower case.
    The per-user reader takes any line of a block as a click (ZEALOUS's click items are the URL texts); the
    emulations that need the clicked site (ads, count: an ad is a clicked domain) refuse, naming ``where``, a click
    that does not start with a scheme and ``://`` or has no host name (``http://:8080/`` has a port only), and one that
    ``urlparse`` itself refuses (an unbalanced ``[`` or ``]``, a netloc that NFKC normalisation changes)."""
    try:
        host = _clicked_host(url)
    except ValueError as e:  # urlparse's refusal, named like the others
        raise InvalidInput(f"{where}: the click {url[:60]!r} is not a URL scheme://host ({e})") from None
    if host is None:
        raise InvalidInput(f"{where}: the click {url[:60]!r} is not a URL scheme://host (an ad is a clicked site)")
    return host


@lru_cache(maxsize=1 << 20)
def _clicked_host(url: str) -> str | None:
    """:func:`clicked_host` without the refusal (None), memoised: the log clicks the same URLs again and again.
    :func:`~privclaims.theory.zealous.urlhost.url_host`: ``urlparse(url).netloc`` lower-cased if ``url`` starts with
    ``scheme://`` and has a host name (a port or a user part alone is no host), without ``urlparse`` for plain URLs."""
    return url_host(url)


def _day(date: str) -> int:
    """``YYYY-MM-DD`` -> seconds since the epoch at 00:00 UTC (cached per distinct day); ValueError if invalid."""
    day = _DAYS.get(date)
    if day is None:
        day = calendar.timegm(_time.strptime(date, "%Y-%m-%d"))
        _DAYS[date] = day
    return day


def parse_time(text: str, where: str) -> int:
    """``YYYY-MM-DD HH:MM:SS`` (UTC; ASCII digits, a valid date, 00-23:00-59:00-59; white space around it
    is ignored) -> seconds since the epoch; InvalidInput naming ``where``.

    Fast path: the date part is parsed once per distinct day (cached), the clock by slicing.
    """
    s = text.strip()
    try:
        if len(s) != 19 or not s.isascii() or s[10] != " " or s[13] != ":" or s[16] != ":" or s[4] != "-" or s[7] != "-":
            raise ValueError
        if not (s[:4] + s[5:7] + s[8:10] + s[11:13] + s[14:16] + s[17:19]).isdigit():
            raise ValueError
        day = _day(s[:10])
        hh, mm, ss = int(s[11:13]), int(s[14:16]), int(s[17:19])
        if not (0 <= hh < 24 and 0 <= mm < 60 and 0 <= ss < 60):
            raise ValueError
        return day + 3600 * hh + 60 * mm + ss
    except ValueError:
        raise InvalidInput(f"{where}: malformed time {text!r} (expected YYYY-MM-DD HH:MM:SS)") from None


_CLOCK = np.array([3600, 60, 1])
_SEPARATORS = {4: "-", 7: "-", 10: " ", 13: ":", 16: ":"}


def parse_times(texts: list[str]) -> tuple[list[int], np.ndarray]:
    """:func:`parse_time` on many texts at once (numpy): ``(seconds, decided)``.

    ``decided[i]`` is True iff ``texts[i]`` is exactly ``YYYY-MM-DD HH:MM:SS`` in ASCII digits with a
    valid date and clock; there ``seconds[i] == parse_time(texts[i], ...)``. Every other text (spaces
    around it, other digits, an invalid value) is undecided: the caller leaves it to :func:`parse_time`,
    which parses or names the line.
    """
    n = len(texts)
    lens = np.fromiter(map(len, texts), dtype=np.int64, count=n)
    joined = "".join(texts)
    if (lens == 19).all() and joined.isascii():
        code = np.frombuffer(joined.encode("ascii"), dtype=np.uint8).reshape(n, 19)
    else:  # other lengths or non-ASCII: those rows stay undecided (no character maps to a digit there)
        wide = np.array(texts, dtype="U19").view(np.uint32).reshape(n, 19)
        code = np.minimum(wide, 255).astype(np.uint8)
    digit = code - np.uint8(ord("0"))  # wraps around below '0': one comparison tests 0 <= d <= 9
    ok = (lens == 19) & (np.delete(digit, list(_SEPARATORS), axis=1) <= 9).all(axis=1)
    for col, ch in _SEPARATORS.items():
        ok &= code[:, col] == ord(ch)
    pairs = digit[:, [11, 14, 17]].astype(np.int64) * 10 + digit[:, [12, 15, 18]]  # hh, mm, ss
    ok &= (pairs < np.array([24, 60, 60])).all(axis=1)
    ymd = np.where(ok, digit[:, [0, 1, 2, 3, 5, 6, 8, 9]].astype(np.int64) @ 10 ** np.arange(7, -1, -1), -1)
    dates, inv = np.unique(ymd, return_inverse=True)
    days = np.zeros(len(dates), dtype=np.int64)
    valid = np.zeros(len(dates), dtype=bool)
    for k, d in enumerate(dates.tolist()):
        if d >= 0:
            try:
                days[k] = _day(f"{d // 10000:04d}-{d // 100 % 100:02d}-{d % 100:02d}")
                valid[k] = True
            except ValueError:
                pass
    inv = inv.ravel()
    return (days[inv] + pairs @ _CLOCK).tolist(), ok & valid[inv]


def aol_row(line: str, where: str) -> tuple[str, str, int, str] | None:
    """One data line of the AOL format -> ``(user, query, time, url)`` (url ``""`` for a click-less row);
    None for an empty line. Fields: ``AnonID Query QueryTime [ItemRank ClickURL]`` separated by tabs (3 or
    5 of them); AnonID, ItemRank and ClickURL are read without surrounding white space, the query as
    written (not blank); ItemRank is ASCII digits, present exactly when ClickURL is."""
    if not line:
        return None
    parts = line.split("\t")
    if len(parts) not in (3, 5):
        raise InvalidInput(f"{where}: expected 5 tab-separated fields, got {len(parts)}")
    user, query, qtime = parts[0].strip(), parts[1], parts[2]
    if not user:
        raise InvalidInput(f"{where}: empty AnonID")
    blank_query(query, where)
    t = parse_time(qtime, where)
    rank, url = (parts[3].strip(), parts[4].strip()) if len(parts) == 5 else ("", "")
    if rank and not (rank.isascii() and rank.isdigit()):
        raise InvalidInput(f"{where}: ItemRank {rank!r} is not a number")
    if bool(rank) != bool(url):
        raise InvalidInput(f"{where}: ItemRank and ClickURL must both be present or both empty")
    return user, query, t, url


def check_aol_header(first: str, path: object) -> None:
    """Line 1 of an AOL-format file: the five column names (white space around each ignored)."""
    header = first.split("\t")
    if tuple(h.strip() for h in header) != AOL_HEADER:
        raise InvalidInput(f"{path}:1: expected the header {' '.join(AOL_HEADER)}, got {header!r}")


def load_aol(path: str | Path) -> SearchLog:
    """Read one AOL-format file (with header) into a :class:`SearchLog` (rows of one user with the same
    query and time in a row are one entry with all their clicks)."""
    path = existing_path(path, "path (AOL-format log)", "file")
    log = SearchLog()
    last: dict[str, Entry] = {}
    lines = text_lines(path)
    check_aol_header(next(lines, (1, ""))[1], path)
    for lineno, line in lines:
        row = aol_row(line, f"{path}:{lineno}")
        if row is None:
            continue
        user, query, t, url = row
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
    return checked_log(log)


def read_user_file_lines(path: str | Path) -> list[Entry]:
    """One per-user file read line by line (the reference reader): blocks of ``query<TAB>time`` then
    clicked urls, blank-line separated; a malformed line raises InvalidInput naming ``file:line``."""
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


def _plain_blocks(path: Path) -> tuple[list[str], list[str], list[tuple[str, ...]]] | None:
    """(queries, time texts, clicks) of a per-user file in the plain layout, or None to defer to
    :func:`read_user_file_lines`.

    Plain: valid UTF-8 without a leading byte-order mark and, after dropping empty lines at both ends, tiled by
    :data:`_PLAIN_BLOCK`:
    blocks separated by exactly one empty line, a block being one ``query<TAB>time`` line with a
    non-blank query, then url lines without a tab and without spaces at either end (checked by
    length: the blocks found plus their separators make up the whole text). On such a file the line
    reader opens a block at each header, appends each url (unchanged by its strip()) and closes at
    each empty line: its result is exactly this. Anything else (a whitespace-only line, two empty
    lines, a stray tab, a padded url, bad UTF-8, ...) is left to the line reader, which reads it or
    names the bad line.
    """
    try:
        text = path.read_bytes().decode("utf-8").strip("\n")
    except (OSError, UnicodeDecodeError):
        return None
    if text.startswith("\ufeff"):  # a byte-order mark: the line reader refuses it
        return None
    blocks = _PLAIN_BLOCK.findall(text)
    queries, times, clicks = [q for q, _, _ in blocks], [t for _, t, _ in blocks], [c for _, _, c in blocks]
    if blocks and sum(map(len, queries)) + sum(map(len, times)) + sum(map(len, clicks)) + 3 * len(blocks) - 2 != len(text):
        return None
    if not blocks and text:
        return None
    return queries, times, [tuple(c[1:].split("\n")) if c else () for c in clicks]


def read_user_files(paths: list[Path]) -> list[list[Entry]]:
    """The entries of each per-user file, in file order, equal to :func:`read_user_file_lines` on each.

    Plain files (:func:`_plain_blocks`) are split in bulk and their times parsed at once
    (:func:`parse_times`); any other file, and any file with a time the bulk parser leaves undecided,
    goes through the line reader, so a malformed file is reported as before: the first one (in
    ``paths`` order) raises InvalidInput naming ``file:line``.
    """
    blocks = [_plain_blocks(p) for p in paths]
    stamps = [t for b in blocks if b is not None for t in b[1]]
    seconds, decided = parse_times(stamps)
    out: list[list[Entry]] = []
    k = 0
    for p, b in zip(paths, blocks):
        if b is not None:
            n = len(b[0])
            if decided[k:k + n].all():
                out.append(list(map(Entry, b[0], seconds[k:k + n], b[2])))
                k += n
                continue
            k += n
        out.append(read_user_file_lines(p))
    return out


def load_user_file(path: str | Path, user: str | None = None) -> list[Entry]:
    """One per-user file: blocks of ``query<TAB>time`` then clicked urls, blank-line separated."""
    return read_user_files([existing_path(path, "path (per-user log file)", "file")])[0]


def load_user_dir(directory: str | Path, limit: int | None = None) -> SearchLog:
    """The per-user layout: one ``<AnonID>.txt`` per user (sorted by name; ``limit`` users at most).

    A missing path, a file instead of a directory, a directory without any ``*.txt`` and a ``limit``
    that is not a positive integer are refused (InvalidInput), before reading anything.
    """
    directory = existing_path(directory, "directory (per-user logs)", "dir")
    if limit is not None:
        limit = integer(limit, "limit", lo=1)
    files = sorted(directory.glob("*.txt"))
    if not files:
        raise InvalidInput(f"directory = {str(directory)!r} holds no <AnonID>.txt user log: empty search log")
    files = files[:limit]
    log = SearchLog()
    with gc_paused():  # ~10^5 entries without reference cycles (theory/gcpause.py)
        for f, entries in zip(files, read_user_files(files)):
            if entries:
                log.histories[f.stem] = sorted(entries, key=_TIME)
    return checked_log(log)


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
