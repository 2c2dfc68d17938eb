"""GeoLife traces as daily context streams (the public substitute for Reality Mining in
000_211156f2009240b4.txt §3.7; data under ``<data>/geolife/``, never committed).

* Location contexts: a day (Beijing time, GMT+8) is cut into ``T`` equal slots; a slot's context is
  the most frequent grid cell (``cell`` degrees) among its GPS points; slots without points carry the
  previous slot's context forward (the first observed context is carried backward), since GeoLife
  only records trips. Days with fewer than ``min_slots`` observed slots are dropped.
* Transport-mode contexts: from ``labels.txt`` (start, end, mode); a slot takes the mode covering
  most of it, or ``"still"`` when no labelled trip overlaps it.
* Contexts are the ``k`` most frequent cells of the *training* half plus ``"other"``.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from datetime import datetime, timedelta
from functools import lru_cache
from pathlib import Path

from privclaims.theory.errors import InvalidInput
from privclaims.theory.validate import existing_path, file_identity, finite_float, integer, text_lines

TZ = timedelta(hours=8)


PLT_TIME_FORMAT = "%Y-%m-%d %H:%M:%S"
_FIXED_WIDTH = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2} (?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]")


def parse_plt_time(text: str) -> datetime:
    """``datetime.strptime(text, PLT_TIME_FORMAT)``, results and errors: a zero-padded ASCII timestamp with hour
    00-23 and minutes, seconds 00-59 (every GeoLife line) is read by the C ``datetime.fromisoformat``, which on that
    pattern gives strptime's datetime (property_tests/test_maskit_model.py); anything else - and any date
    fromisoformat refuses (February 30) - goes to strptime itself, so an error is strptime's error (Python 3.14's
    fromisoformat reads hour 24 as the next day: the pattern excludes it)."""
    if _FIXED_WIDTH.fullmatch(text):
        try:
            return datetime.fromisoformat(text)
        except ValueError:
            pass
    return datetime.strptime(text, PLT_TIME_FORMAT)


def read_plt(path: Path) -> list[tuple[datetime, float, float]]:
    """Points of one GeoLife .plt file (6 header lines, then lat,lon,0,alt,days,date,time); memoised per process on
    the file's path and content digest (:func:`privclaims.theory.validate.file_identity`; the experiments
    read each file once per sweep)."""
    path = existing_path(path, "path (GeoLife .plt)", "file")
    return list(_read_plt(str(path), file_identity(path)))


@lru_cache(maxsize=4096)
def _read_plt(path: str, identity: tuple) -> tuple[tuple[datetime, float, float], ...]:
    out = []
    for ln, line in text_lines(Path(path)):
        if ln <= 6 or not line.strip():
            continue
        parts = line.strip().split(",")
        if len(parts) < 7:
            raise InvalidInput(f"{path}:{ln}: malformed GeoLife line {line.strip()!r} (expected 7 fields)")
        try:
            lat, lon = float(parts[0]), float(parts[1])
            ts = parse_plt_time(parts[5] + " " + parts[6])
        except ValueError as e:
            raise InvalidInput(f"{path}:{ln}: malformed GeoLife line {line.strip()!r} ({e})") from None
        if not (-90 <= lat <= 90 and -180 <= lon <= 180):  # also rejects nan / inf
            raise InvalidInput(f"{path}:{ln}: latitude/longitude ({parts[0]}, {parts[1]}) outside [-90, 90] x [-180, 180]")
        out.append((ts + TZ, lat, lon))
    return tuple(out)


def _slot(ts: datetime, T: int) -> int:
    return min(T - 1, (ts.hour * 60 + ts.minute) * T // (24 * 60))


def _fill(day: list) -> list:
    first = next((c for c in day if c is not None), None)
    out, cur = [], first
    for c in day:
        cur = c if c is not None else cur
        out.append(cur)
    return out


def location_days(user_dir: Path, T: int = 12, cell: float = 0.01, min_slots: int = 2) -> list[tuple[str, list]]:
    """[(date, [cell label per slot])] in chronological order; memoised per process on the parameters and the
    identity (path and content digest) of every trajectory file (the sweeps read each user once per δ)."""
    user_dir = existing_path(user_dir, "user_dir (GeoLife user)", "dir")
    T = integer(T, "T (slots per day)", lo=1)
    min_slots = integer(min_slots, "min_slots", lo=1)
    cell = finite_float(cell, "cell (degrees)", lo=0, lo_open=True)
    traj = Path(user_dir) / "Trajectory"
    if not traj.is_dir():
        raise InvalidInput(f"{user_dir}: no Trajectory folder")
    # each file as read_plt names it (its errors and messages unchanged), with its identity
    files = tuple((str(f), file_identity(existing_path(f, "path (GeoLife .plt)", "file")))
                  for f in sorted(traj.glob("*.plt")))
    return [(date, list(slots)) for date, slots in _location_days(files, T, cell, min_slots)]


@lru_cache(maxsize=256)
def _location_days(files: tuple[tuple[str, tuple], ...], T: int, cell: float, min_slots: int
                   ) -> tuple[tuple[str, tuple], ...]:
    votes: dict = defaultdict(lambda: defaultdict(Counter))
    for path, _identity in files:
        for ts, lat, lon in read_plt(Path(path)):
            label = f"{round(lat / cell)}_{round(lon / cell)}"
            votes[ts.date().isoformat()][_slot(ts, T)][label] += 1
    days = []
    for date in sorted(votes):
        raw = [votes[date][s].most_common(1)[0][0] if votes[date][s] else None for s in range(T)]
        if sum(c is not None for c in raw) >= min_slots:
            days.append((date, tuple(_fill(raw))))
    return tuple(days)


def mode_days(user_dir: Path, T: int = 12) -> list[tuple[str, list]]:
    """[(date, [transport mode per slot])] from labels.txt (unlabelled slots are "still")."""
    user_dir = existing_path(user_dir, "user_dir (GeoLife user)", "dir")
    T = integer(T, "T (slots per day)", lo=1)
    path = Path(user_dir) / "labels.txt"
    if not path.exists():
        raise InvalidInput(f"{user_dir}: no labels.txt")
    cover: dict = defaultdict(lambda: defaultdict(Counter))
    for ln, line in text_lines(path):
        if ln == 1 or not line.strip():
            continue
        parts = line.split("\t")
        if len(parts) != 3:
            raise InvalidInput(f"{path}:{ln}: malformed label line {line.strip()!r}")
        try:
            a = datetime.strptime(parts[0], "%Y/%m/%d %H:%M:%S") + TZ
            b = datetime.strptime(parts[1], "%Y/%m/%d %H:%M:%S") + TZ
        except ValueError as e:
            raise InvalidInput(f"{path}:{ln}: {e}") from None
        step = timedelta(minutes=5)
        while a < b:
            cover[a.date().isoformat()][_slot(a, T)][parts[2].strip()] += 1
            a += step
    days = []
    for date in sorted(cover):
        days.append((date, [cover[date][s].most_common(1)[0][0] if cover[date][s] else "still" for s in range(T)]))
    return days


def split_half(days: list[tuple[str, list]], k: int = 6) -> tuple[list[tuple], list[tuple], list[str]]:
    """First half of the days for training, second for evaluation; contexts = top-k training labels + "other"."""
    if len(days) < 2:
        raise InvalidInput(f"need at least 2 days, got {len(days)}")
    h = len(days) // 2
    train, test = [d for _, d in days[:h]], [d for _, d in days[h:]]
    freq = Counter(c for d in train for c in d)
    top = [c for c, _ in freq.most_common(k)]
    contexts = top + (["other"] if any(c not in top for d in train + test for c in d) else [])
    m = lambda d: tuple(c if c in top else "other" for c in d)
    return [m(d) for d in train], [m(d) for d in test], contexts
