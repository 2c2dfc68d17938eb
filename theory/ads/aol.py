"""A context-aware ad service emulated on the AOL subset (substitute for the Bing log of
000_211156f2009240b4.txt §4.4 / 002_9d55ef468949585c.txt §5, which is not public).

Minimal per-user-file reader (the full ZEALOUS loaders live elsewhere): each file
``<user-id>.txt`` holds blocks separated by blank lines; a block is ``query<TAB>YYYY-MM-DD HH:MM:SS``
followed by zero or more clicked URLs, one a line.

Emulation (stated choices, not the paper's data):

* an *event* is one click: (user, time, query, clicked domain); ads = clicked domains ("www." dropped);
* users with fewer than 3 clicks are dropped; the first 90 % of events by time train, the rest test;
* context attributes, each with a generalisation chain (Level-i is a function of Level-(i−1)):
  time of day (the location stand-in) L0 10-minute slot, L1 hour, L2 3-hour block, L3 6-hour block,
  L4 12-hour half, L5 any; interest = the user's most-clicked domain so far, L1 its top-level
  domain, L2 any; query L0 normalised query, L1 first word, L2 first letter;
* ``CTR(a|c)`` = fraction of training events in context ``c`` that clicked ``a`` (every event is a
  view of the context's ads); rare contexts back off along :data:`theory.ads.hierarchy.PAPER_SEQUENCE`
  to the first level with at least ``min_support`` events (§4.4.1);
* the server runs Greedy (fast twin) for ĉ on the leaves below it (leaves with the same back-off
  context merged: identical columns); the client shows the sent ad with the highest CTR in its exact
  context if that CTR passes the threshold, else nothing.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np
import scipy.sparse as sp

from theory.ads.fast import SparseAdInstance, greedy_run
from theory.ads.hierarchy import PAPER_SEQUENCE
from theory.errors import InvalidInput

_TIME_RE = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")


@dataclass(frozen=True)
class Search:
    """One query block of a user file."""

    user: str
    query: str
    time: str
    urls: tuple[str, ...]


def read_user_file(path: Path | str) -> list[Search]:
    """Parse one per-user file; malformed lines raise InvalidInput naming ``file:line``."""
    path = Path(path)
    user = path.stem
    out: list[Search] = []
    cur: list[Any] | None = None
    with open(path, encoding="utf-8", errors="replace") as fh:
        for lineno, raw in enumerate(fh, 1):
            line = raw.rstrip("\n").rstrip("\r")
            if not line.strip():
                if cur is not None:
                    out.append(Search(user, cur[0], cur[1], tuple(cur[2])))
                    cur = None
                continue
            if "\t" in line:
                if cur is not None:
                    out.append(Search(user, cur[0], cur[1], tuple(cur[2])))
                q, _, t = line.rpartition("\t")
                if not _TIME_RE.match(t.strip()):
                    raise InvalidInput(f"{path}:{lineno}: malformed timestamp {t!r}")
                cur = [q, t.strip(), []]
            elif cur is not None and re.match(r"^[a-z][a-z0-9+.-]*://", line.strip(), re.I):
                cur[2].append(line.strip())
            else:
                raise InvalidInput(f"{path}:{lineno}: expected 'query<TAB>time' or a URL, got {line[:60]!r}")
    if cur is not None:
        out.append(Search(user, cur[0], cur[1], tuple(cur[2])))
    return out


def read_log_dir(folder: Path | str) -> list[Search]:
    """All ``*.txt`` user files below ``folder`` (sorted by file name); InvalidInput if none."""
    folder = Path(folder)
    files = sorted(folder.glob("*.txt"))
    if not files:
        raise InvalidInput(f"no user files (*.txt) in {folder}")
    out: list[Search] = []
    for f in files:
        out.extend(read_user_file(f))
    if not out:
        raise InvalidInput(f"empty log in {folder}")
    return out


def domain(url: str) -> str:
    host = re.sub(r"^[a-z][a-z0-9+.-]*://", "", url.strip(), flags=re.I).split("/")[0].split(":")[0].lower()
    return host[4:] if host.startswith("www.") else host


def normalize_query(q: str) -> str:
    return " ".join(q.lower().split())


# --------------------------------------------------------------------------- attribute hierarchies

TIME_DIVISORS = (10, 60, 180, 360, 720, 24 * 60)  # minutes per bucket at Level-0..5
MAX_LEVELS = (5, 2, 2)


def time_level(minute: int, level: int) -> int:
    return minute // TIME_DIVISORS[level]


def interest_level(top: str, level: int) -> str:
    if level >= 2:
        return "*"
    if level == 1:
        return top.rsplit(".", 1)[-1] if "." in top else top
    return top


def query_level(q: str, level: int) -> str:
    if level == 0:
        return q
    first = q.split(" ", 1)[0] if q else ""
    return first if level == 1 else first[:1]


def generalize(leaf: tuple[int, str, str], level: tuple[int, int, int]) -> tuple:
    """The level-(x, y, z) context of a leaf (minute of day, interest, query)."""
    x, y, z = level
    if not (0 <= x <= 5 and 0 <= y <= 2 and 0 <= z <= 2):
        raise InvalidInput(f"level {level} outside (0..5, 0..2, 0..2)")
    m, top, q = leaf
    return (level, time_level(m, x), interest_level(top, y), query_level(q, z))


@dataclass
class Events:
    """Click events in time order, split into training and test."""

    leaves: list[tuple[int, str, str]]
    ads: list[int]  # ad index of the clicked domain
    ad_names: list[str]
    n_train: int
    users: int
    queries: list[str] = field(default_factory=list)


def build_events(searches: Iterable[Search], min_clicks: int = 3, train_fraction: float = 0.9) -> Events:
    """Events (one per click), the users' running interest, the 90/10 time split."""
    by_user: dict[str, int] = Counter()
    rows = []
    for s in searches:
        for u in s.urls:
            rows.append((s.time, s.user, normalize_query(s.query), domain(u)))
            by_user[s.user] += 1
    rows = [r for r in rows if by_user[r[1]] >= min_clicks]
    if not rows:
        raise InvalidInput("no click events left after filtering users with < 3 clicks")
    rows.sort()
    history: dict[str, Counter] = defaultdict(Counter)
    top_of: dict[str, str] = {}  # the user's most-clicked domain so far (ties: smallest name)
    ad_index: dict[str, int] = {}
    leaves, ads, queries = [], [], []
    for t, user, q, d in rows:
        h = history[user]
        top = top_of.get(user, "none")
        minute = int(t[11:13]) * 60 + int(t[14:16])
        leaves.append((minute, top, q))
        ads.append(ad_index.setdefault(d, len(ad_index)))
        queries.append(q)
        h[d] += 1
        if top == "none" or (-h[d], d) < (-h[top], top):  # counts only grow: only d can overtake
            top_of[user] = d
    names = [None] * len(ad_index)
    for d, i in ad_index.items():
        names[i] = d
    return Events(leaves, ads, names, int(len(rows) * train_fraction), len({r[1] for r in rows}), queries)


class AdService:
    """Training statistics and the server/client of the emulated ad service."""

    def __init__(self, ev: Events, min_support: int = 2):
        if isinstance(min_support, bool) or not isinstance(min_support, int) or min_support < 1:
            raise InvalidInput(f"min_support = {min_support!r} must be a positive integer")
        self.ev = ev
        self.min_support = min_support
        self.count: dict[tuple, int] = Counter()
        self.clicks: dict[tuple, Counter] = defaultdict(Counter)
        for leaf, a in zip(ev.leaves[: ev.n_train], ev.ads[: ev.n_train]):
            for lv in PAPER_SEQUENCE:
                g = generalize(leaf, lv)
                self.count[g] += 1
                self.clicks[g][a] += 1
        self.train_leaves = Counter(ev.leaves[: ev.n_train])
        self._backoff: dict[tuple, tuple | None] = {}
        self._vec: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        self._below: dict[tuple, dict[tuple, tuple[np.ndarray, np.ndarray]]] = {}
        self._results: dict[tuple, dict] = {}
        # one CSC column per back-off context of a training leaf: CTR(a | b) for all ads a
        targets = sorted({b for leaf in self.train_leaves if (b := self.backoff(leaf)) is not None}, key=repr)
        self.col_of = {b: j for j, b in enumerate(targets)}
        indptr, indices, data = [0], [], []
        for b in targets:
            ids, v = self.ctr_vector(b)
            indices.append(ids)
            data.append(v)
            indptr.append(indptr[-1] + ids.size)
        self.B = sp.csc_matrix((np.concatenate(data), np.concatenate(indices), np.array(indptr)),
                               shape=(len(ev.ad_names), len(targets)))

    def backoff(self, leaf: tuple[int, str, str]) -> tuple | None:
        """First context along PAPER_SEQUENCE with >= min_support training events."""
        if leaf not in self._backoff:
            self._backoff[leaf] = next((g for lv in PAPER_SEQUENCE
                                        if self.count.get(g := generalize(leaf, lv), 0) >= self.min_support), None)
        return self._backoff[leaf]

    def ctr_vector(self, ctx: tuple) -> tuple[np.ndarray, np.ndarray]:
        """(ad ids ascending, CTR values) of a back-off context."""
        if ctx not in self._vec:
            cl = self.clicks[ctx]
            ids = np.array(sorted(cl), dtype=np.int64)
            self._vec[ctx] = (ids, np.array([cl[i] for i in ids], dtype=np.float64) / self.count[ctx])
        return self._vec[ctx]

    def leaves_below(self, level: tuple[int, int, int]) -> dict[tuple, tuple[np.ndarray, np.ndarray]]:
        """ĉ -> (back-off columns, #training events) over the training leaves c -> ĉ (leaves with the
        same back-off context share a column: identical CTR vectors)."""
        if level not in self._below:
            acc: dict[tuple, Counter] = defaultdict(Counter)
            for leaf, n in self.train_leaves.items():
                b = self.backoff(leaf)
                if b is not None:
                    acc[generalize(leaf, level)][self.col_of[b]] += n
            self._below[level] = {c: (np.fromiter(cnt.keys(), np.int64, len(cnt)),
                                      np.fromiter(cnt.values(), np.float64, len(cnt))) for c, cnt in acc.items()}
        return self._below[level]

    def server_context(self, leaf: tuple[int, str, str], level: tuple[int, int, int]) -> tuple[tuple, tuple]:
        """ĉ at ``level``; if no training leaf lies below it, the server generalises ĉ further along
        the hierarchy (levels of PAPER_SEQUENCE, then the root, that are at least as general), which
        uses only what ĉ reveals."""
        chat = generalize(leaf, level)
        if chat in self.leaves_below(level):
            return chat, level
        for lv in PAPER_SEQUENCE + ((5, 2, 2),):
            if all(x >= y for x, y in zip(lv, level)):
                g = generalize(leaf, lv)
                if g in self.leaves_below(lv):
                    return g, lv
        return chat, level

    def server_order(self, chat: tuple, level: tuple[int, int, int], threshold: float, k: int) -> tuple[int, ...]:
        """Greedy's first ``k`` ads with positive benefit for ĉ (CTRs below the threshold zeroed)."""
        below = self.leaves_below(level).get(chat)
        if below is None:
            return ()
        cols, cnt = below
        V = self.B[:, cols].tocsr()
        if threshold > 0:
            V.data[V.data < threshold] = 0.0
            V.eliminate_zeros()
        rows = np.flatnonzero(np.diff(V.indptr))
        if rows.size == 0:
            return ()
        V = V[rows]
        run = greedy_run(SparseAdInstance(cnt / cnt.sum(), V), min(k, rows.size))
        return tuple(int(rows[a]) for a, b in zip(run.order, run.benefits) if b > 0)

    def client_pick(self, leaf: tuple[int, str, str], sent: Sequence[int], threshold: float) -> int | None:
        """The sent ad with the highest CTR (>= threshold) in the exact context; lowest id on ties."""
        b = self.backoff(leaf)
        if b is None or not sent:
            return None
        ids, v = self.ctr_vector(b)
        best, pick = 0.0, None
        for a in sorted(sent):
            p = int(np.searchsorted(ids, a))
            if p < ids.size and ids[p] == a and v[p] >= threshold and v[p] > best:
                best, pick = v[p], a
        return pick

    def evaluate(self, test_idx: Sequence[int], level: tuple[int, int, int], threshold: float,
                 ks: Sequence[int] = (1, 2, 3, 5, 10, 20, 50)) -> dict[int, dict[str, Any]]:
        """Precision and coverage for each k (Greedy's prefix property: one run with max(ks));
        memoised per (tests, level, threshold, ks)."""
        key = (tuple(test_idx), tuple(level), float(threshold), tuple(ks))
        if key in self._results:
            return self._results[key]
        kmax = max(ks)
        cache: dict[tuple, tuple[int, ...]] = {}
        res = {k: {"shown": 0, "hits": 0} for k in ks}
        for i in test_idx:
            leaf = self.ev.leaves[i]
            chat, lv = self.server_context(leaf, level)
            if chat not in cache:
                cache[chat] = self.server_order(chat, lv, threshold, kmax)
            order = cache[chat]
            for k in ks:
                pick = self.client_pick(leaf, order[:k], threshold)
                if pick is not None:
                    res[k]["shown"] += 1
                    res[k]["hits"] += pick == self.ev.ads[i]
        n = len(test_idx)
        out = {k: {"precision": (r["hits"] / r["shown"]) if r["shown"] else None, "coverage": r["shown"] / n,
                   "shown": r["shown"], "hits": r["hits"], "n": n, "greedy_runs": len(cache)} for k, r in res.items()}
        self._results[key] = out
        return out


def sample_test_events(ev: Events, n: int, seed: int) -> list[int]:
    """``n`` random test events (the paper averages over 1,000 random test contexts)."""
    rng = np.random.default_rng(seed)
    idx = np.arange(ev.n_train, len(ev.leaves))
    return sorted(int(i) for i in rng.choice(idx, size=min(n, idx.size), replace=False))


@lru_cache(maxsize=2)
def load_service(folder: str, min_support: int = 2) -> AdService:
    """Read the AOL subset and train the emulated service (cached per process)."""
    return AdService(build_events(read_log_dir(folder)), min_support)
