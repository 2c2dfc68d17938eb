"""A context-aware ad service emulated on the AOL subset (substitute for the Bing log of
000_211156f2009240b4.txt §4.4 / 002_9d55ef468949585c.txt §5, which is not public).

The per-user files (``<user-id>.txt``: blocks separated by blank lines, a block being ``query<TAB>YYYY-MM-DD
HH:MM:SS`` followed by zero or more clicked URLs, one a line) are read by the one reader of that layout,
:mod:`privclaims.theory.zealous.loaders`, so every area accepts and refuses the same files.

Emulation (stated choices, not the paper's data):

* an *event* is one click: (user, time, query, clicked domain); ads = clicked domains ("www." dropped);
* users with fewer than 3 clicks are dropped; the first 90 % of events by time train, the rest test;
* context attributes, each with a generalisation chain (Level-i is a function of Level-(i−1)):
  time of day (the location stand-in) L0 10-minute slot, L1 hour, L2 3-hour block, L3 6-hour block,
  L4 12-hour half, L5 any; interest = the user's most-clicked domain so far, L1 its top-level
  domain, L2 any; query L0 normalised query, L1 first word, L2 first letter;
* ``CTR(a|c)`` = fraction of training events in context ``c`` that clicked ``a`` (every event is a
  view of the context's ads); rare contexts back off along :data:`privclaims.theory.ads.hierarchy.PAPER_SEQUENCE`
  to the first level with at least ``min_support`` events (§4.4.1);
* the server runs Greedy (fast twin) for ĉ on the leaves below it (leaves with the same back-off
  context merged: identical columns); the client shows the sent ad with the highest CTR in its exact
  context if that CTR passes the threshold, else nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain, repeat
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

import numpy as np

from privclaims.theory.ads.fast import SparseAdInstance, greedy_run, stored_positions
from privclaims.theory.ads.hierarchy import PAPER_SEQUENCE
from privclaims.theory.ads.running import codes, lexicographic_order, running_top, sorted_ranks
from privclaims.theory.cache import data_key, memoised
from privclaims.theory.errors import InvalidInput
from privclaims.theory.gcpause import gc_paused
from privclaims.theory.numbers import Q, as_rational, probability
from privclaims.theory.validate import integer
from privclaims.theory.zealous.loaders import clicked_host, load_user_file, parse_times, read_user_files
from privclaims.theory.zealous.model import Entry
from privclaims.theory.zealous.urlhost import NETLOC_END, SCHEME, url_host

if TYPE_CHECKING:  # scipy.sparse is imported where a matrix is built
    import scipy.sparse as sp

_URLS, _USER, _QUERY_OF, _TIME_OF, _CLICKS = map(attrgetter, ("urls", "user", "query", "time", "clicks"))


@dataclass(frozen=True)
class Search:
    """One query block of a user file."""

    user: str
    query: str
    time: str
    urls: tuple[str, ...]


def read_user_file(path: Path | str) -> list[Search]:
    """One per-user file as :class:`Search` blocks, in file order. Read by the one reader of the per-user layout,
    :func:`privclaims.theory.zealous.loaders.load_user_file` (its rules for what a file may hold; a malformed line
    raises its InvalidInput naming ``file:line``); ``time`` is the block's time written back as
    ``YYYY-MM-DD HH:MM:SS`` (UTC)."""
    return _searches([Path(path)], [load_user_file(path)])


def read_log_dir(folder: Path | str) -> list[Search]:
    """All ``*.txt`` user files below ``folder`` (sorted by file name), read like :func:`read_user_file`;
    InvalidInput if there is none or no file holds a search."""
    folder = Path(folder)
    files = sorted(folder.glob("*.txt"))
    if not files:
        raise InvalidInput(f"no user files (*.txt) in {folder}")
    with gc_paused():  # ~3 * 10^5 searches without reference cycles (theory/gcpause.py)
        out = _searches(files, read_user_files(files))
    if not out:
        raise InvalidInput(f"empty log in {folder}")
    return out


def _searches(paths: Sequence[Path], entries: Sequence[Sequence[Entry]]) -> list[Search]:
    """The entries of each user file ``paths[i]`` as Searches, the times (seconds since the epoch, UTC) written as
    ``YYYY-MM-DD HH:MM:SS`` all at once (numpy's ISO 8601 text of ``datetime64[s]``, its ``T`` a space). A click
    without a site (:func:`~privclaims.theory.zealous.loaders.clicked_host`) is refused: an ad is a clicked domain.
    Each distinct URL is looked at once, in order of first click (whether a click has a site depends on its URL only,
    so the first URL without one is the first such click); only then are the clicks walked to name where it is."""
    clicks = chain.from_iterable(map(_CLICKS, chain.from_iterable(entries)))
    try:
        every_click_has_a_site = all(map(url_host, dict.fromkeys(clicks)))  # a site is a non-empty string
    except ValueError:  # urlparse refuses a click (an unbalanced bracket): clicked_host names it below
        every_click_has_a_site = False
    if not every_click_has_a_site:
        for path, es in zip(paths, entries):
            for e in es:
                for url in e.clicks:
                    clicked_host(url, f"{path}: query {e.query[:40]!r}")
    seconds = np.fromiter(map(_TIME_OF, chain.from_iterable(entries)), np.int64)
    if not len(seconds):
        return []
    texts = np.char.replace(np.datetime_as_string(seconds.astype("datetime64[s]"), unit="s"), "T", " ").tolist()
    out: list[Search] = []
    k = 0
    for path, es in zip(paths, entries):
        user = path.stem
        out.extend(map(Search, repeat(user, len(es)), map(_QUERY_OF, es), texts[k:k + len(es)], map(_CLICKS, es)))
        k += len(es)
    return out


def domain(url: str) -> str:
    """The ad a click names: the host of ``url`` in lower case without a leading ``www.`` - the text after
    ``scheme://`` up to the first ``/``, ``?`` or ``#``, after its last ``@`` (a user part), up to a ``:`` (a port), a
    bracketed IPv6 address kept whole (``http://[::1]/`` and ``http://[::2]/`` are two ads, not one ``[``)."""
    netloc = NETLOC_END.split(SCHEME.sub("", url.strip()), maxsplit=1)[0]
    host = netloc.rpartition("@")[2]
    host = (host[:host.index("]") + 1] if host.startswith("[") and "]" in host else host.split(":")[0]).lower()
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


def build_events(searches: Iterable[Search], min_clicks: int = 3, train_fraction: object = Q(9, 10)) -> Events:
    """Events (one per click), the users' running interest, the 90/10 time split.

    The events are the rows ``(time, user, normalize_query(query), domain(url))``, one per click, of the users with at
    least ``min_clicks`` clicks, sorted as Python sorts these tuples (:func:`_time_keys`; the other strings by their
    ranks in Python's order, :func:`~privclaims.theory.ads.running.sorted_ranks`); an event's leaf is (minute of day
    ``int(time[11:13]) * 60 + int(time[14:16])``, its user's most-clicked domain in the events before it - ties: the
    smallest name, ``"none"`` at the first, :func:`~privclaims.theory.ads.running.running_top` -, query); ad ids
    number the domains in order of first click. Each distinct query and URL is normalised or parsed once.
    The first ``floor(train_fraction * events)`` events are the training ones. ``min_clicks`` must be an integer >= 0
    and ``train_fraction`` a number in [0, 1], read exactly (a string ``"7/10"`` or ``"0.7"`` is 7/10, a float its
    binary value: :func:`~privclaims.theory.numbers.as_rational`); else InvalidInput naming it, as for searches without
    any clicked URL or no user left with ``min_clicks`` clicks."""
    min_clicks = integer(min_clicks, "min_clicks", lo=0)
    split = probability(as_rational(train_fraction, "train_fraction", allow_float=True), "train_fraction")
    clicked = [s for s in searches if s.urls]
    if not clicked:
        raise InvalidInput("no click events: no search has a clicked URL")
    n_urls = np.fromiter(map(len, map(_URLS, clicked)), np.int64, len(clicked))
    user_names, user = codes(map(_USER, clicked))
    raw, raw_code = codes(map(_QUERY_OF, clicked))
    query_names, query_of_raw = codes(map(normalize_query, raw))
    time, n_times, minute_of = _time_keys(list(map(_TIME_OF, clicked)))
    url_names, url = codes(chain.from_iterable(map(_URLS, clicked)))
    domain_names, domain_of_url = codes(map(domain, url_names))
    by_user = np.bincount(user, weights=n_urls, minlength=len(user_names))  # float64 sums of counts: exact below 2^53
    keep = np.repeat(by_user[user] >= min_clicks, n_urls)
    if not keep.any():
        raise InvalidInput(f"no click events left after filtering users with < {min_clicks} clicks")
    user, query, time = (np.repeat(a, n_urls)[keep] for a in (user, query_of_raw[raw_code], time))
    dom = domain_of_url[url[keep]]
    rank = sorted_ranks(domain_names)
    order = lexicographic_order([(time, n_times), (sorted_ranks(user_names)[user], len(user_names)),
                                 (sorted_ranks(query_names)[query], len(query_names)), (rank[dom], len(domain_names))])
    user, query, time, dom = user[order], query[order], time[order], dom[order]
    top = running_top(user, dom, rank)
    ad_of, first = np.unique(dom, return_index=True)
    ad_of = ad_of[np.argsort(first)]  # the domains in order of first click
    ad_id = np.empty(len(domain_names), np.int64)
    ad_id[ad_of] = np.arange(ad_of.size)
    tops = np.array(domain_names + ["none"], dtype=object)[top].tolist()  # -1: "none"
    queries = np.array(query_names, dtype=object)[query].tolist()
    names = np.array(domain_names, dtype=object)[ad_of].tolist()
    leaves = list(zip(minute_of(time).tolist(), tops, queries))
    users = int(np.count_nonzero(np.bincount(user, minlength=len(user_names))))
    n_train = len(leaves) * int(split.numerator) // int(split.denominator)  # floor, exactly
    return Events(leaves, ad_id[dom].tolist(), names, n_train, users, queries)


def _time_keys(texts: list[str]) -> tuple[np.ndarray, int, Callable[[np.ndarray], np.ndarray]]:
    """Per time text: (a key ordered and equal as the texts are, the number of keys, a function giving the minute of
    the day ``int(t[11:13]) * 60 + int(t[14:16])`` of the text behind each key of an array of keys in time order).

    When :func:`~privclaims.theory.zealous.loaders.parse_times` decides every text (exactly ``YYYY-MM-DD HH:MM:SS``,
    a valid date and clock), the text order is the order of the seconds (fixed-width digits) and the minute is
    ``seconds mod 86400 // 60``. Otherwise the keys are the ranks of the distinct texts in Python's order and the
    minutes are read from the texts, each distinct one once, in time order (the first that ``int`` refuses raises)."""
    seconds, decided = parse_times(texts)
    if decided.all():
        distinct, key = np.unique(np.asarray(seconds, np.int64), return_inverse=True)
        return key.ravel(), distinct.size, lambda keys: distinct[keys] % 86400 // 60
    names, code = codes(texts)
    rank = sorted_ranks(names)
    by_rank = np.empty(len(names), np.int64)
    by_rank[rank] = np.arange(len(names))

    def minutes(keys: np.ndarray) -> np.ndarray:
        used = np.flatnonzero(np.bincount(keys, minlength=len(names)))  # keys = ranks: ascending is time order
        minute = np.zeros(len(names), np.int64)
        minute[used] = [int(t[11:13]) * 60 + int(t[14:16]) for t in map(names.__getitem__, by_rank[used].tolist())]
        return minute[keys]

    return rank[code], len(names), minutes


def _codes(values: Sequence[str], level_fn, levels: int) -> list[np.ndarray]:
    """Integer codes of ``level_fn(v, l)`` for l = 0..levels, one array per level: equal codes iff equal
    generalised strings (each distinct string generalised once)."""
    distinct, per_value = codes(values)
    out = []
    for lvl in range(levels + 1):
        ids: dict[str, int] = {}
        table = np.fromiter((ids.setdefault(level_fn(v, lvl), len(ids)) for v in distinct), np.int64, len(distinct))
        out.append(table[per_value])
    return out


class AdService:
    """Training statistics and the server/client of the emulated ad service.

    Contexts are integer codes: per event and level (x, y, z) the key
    ``(time_level(m, x) · |interest_y| + interest code) · |query_z| + query code``, equal iff
    :func:`generalize` gives equal contexts. Counts and CTRs are grouped with ``np.unique`` (the same
    integers a dict of tuples would hold, so the same floats)."""

    def __init__(self, ev: Events, min_support: int = 2):
        import scipy.sparse as sp

        if isinstance(min_support, bool) or not isinstance(min_support, int) or min_support < 1:
            raise InvalidInput(f"min_support = {min_support!r} must be a positive integer")
        self.ev = ev
        self.min_support = min_support
        n, n_ads = ev.n_train, len(ev.ad_names)
        self._minute = np.fromiter((leaf[0] for leaf in ev.leaves), np.int64, len(ev.leaves))
        self._interest = _codes([leaf[1] for leaf in ev.leaves], interest_level, 2)
        self._query = _codes([leaf[2] for leaf in ev.leaves], query_level, 2)
        self._ads = np.asarray(ev.ads, dtype=np.int64)
        self._keys: dict[tuple[int, int, int], np.ndarray] = {}
        self._below: dict[tuple, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}
        self._results: dict[tuple, dict] = {}
        self._orders: dict[tuple, tuple[int, ...]] = {}  # server_order's memo (see there)
        self._contexts: dict[tuple, tuple[int, tuple]] = {}  # server_context's memo
        self._stored: dict[tuple, np.ndarray] = {}  # per (ĉ, level): the sorted stored CTRs of its columns
        # back-off: per event, the first level of PAPER_SEQUENCE whose context has >= min_support training events
        bo_level = np.full(len(ev.leaves), -1, dtype=np.int64)
        bo_key = np.zeros(len(ev.leaves), dtype=np.int64)
        for li, lv in enumerate(PAPER_SEQUENCE):
            k = self.keys(lv)
            uniq, cnt = np.unique(k[:n], return_counts=True)
            pos = np.minimum(np.searchsorted(uniq, k), max(uniq.size - 1, 0))
            support = np.where(uniq[pos] == k, cnt[pos], 0) if uniq.size else np.zeros_like(k)
            hit = (bo_level < 0) & (support >= min_support)
            bo_level[hit], bo_key[hit] = li, k[hit]
        # one CSC column per back-off context (of any event): CTR(a | b) for all ads a, ids ascending
        has = bo_level >= 0
        width = max(int(self.keys(lv).max()) + 1 for lv in PAPER_SEQUENCE)
        bo_code = np.where(has, bo_level * width + bo_key, -1)
        targets, col = np.unique(bo_code[has], return_inverse=True)
        self.col = np.full(len(ev.leaves), -1, dtype=np.int64)
        self.col[has] = col.ravel()
        indptr, indices, data = [], [], []  # per level: column lengths, ad ids, CTRs
        t_level, t_key = targets // width, targets % width
        for li, lv in enumerate(PAPER_SEQUENCE):
            mine = np.flatnonzero(t_level == li)
            if mine.size == 0:
                continue
            k = self.keys(lv)[:n]
            sel = np.isin(k, t_key[mine])  # training events in a back-off context of this level
            uk, kinv = np.unique(k[sel], return_inverse=True)
            ctx_n = np.bincount(kinv.ravel(), minlength=uk.size)  # training events per context
            pair, pair_n = np.unique(kinv.ravel() * n_ads + self._ads[:n][sel], return_counts=True)
            pk, pa = pair // n_ads, pair % n_ads  # sorted by context, then ad id
            start = np.searchsorted(pk, np.arange(uk.size + 1))
            g = np.searchsorted(uk, t_key[mine])  # targets ascending: the columns in order, each its context's pairs
            pos, lens = stored_positions(start, g)
            indices.append(pa[pos])
            data.append(pair_n[pos].astype(np.float64) / np.repeat(ctx_n[g], lens))
            indptr.append(lens)
        self.B = sp.csc_matrix((np.concatenate(data) if data else np.zeros(0),
                                np.concatenate(indices) if indices else np.zeros(0, np.int64),
                                np.concatenate([[0], np.cumsum(np.concatenate(indptr))]) if indptr else np.zeros(1, np.int64)),
                               shape=(n_ads, targets.size))

    def keys(self, level: tuple[int, int, int]) -> np.ndarray:
        """Per event, the integer code of its level-(x, y, z) context."""
        if level not in self._keys:
            x, y, z = level
            if not (0 <= x <= 5 and 0 <= y <= 2 and 0 <= z <= 2):
                raise InvalidInput(f"level {level} outside (0..5, 0..2, 0..2)")
            i, q = self._interest[y], self._query[z]
            ni, nq = int(i.max()) + 1, int(q.max()) + 1
            self._keys[level] = (time_level(self._minute, x) * ni + i) * nq + q
        return self._keys[level]

    def ctr_vector(self, event: int) -> tuple[np.ndarray, np.ndarray]:
        """(ad ids ascending, CTR values) of the back-off context of event ``event`` (empty if none)."""
        c = int(self.col[event])
        if c < 0:
            return np.zeros(0, np.int64), np.zeros(0)
        lo, hi = self.B.indptr[c], self.B.indptr[c + 1]
        return self.B.indices[lo:hi], self.B.data[lo:hi]

    def leaves_below(self, level: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """ĉ -> (back-off columns, #training events) over the training events below ĉ (events with the same
        back-off context share a column: identical CTR vectors), columns in order of first occurrence.
        Returned grouped: (ĉ keys ascending, group starts, columns, counts)."""
        if level not in self._below:
            n = self.ev.n_train
            k, c = self.keys(level)[:n], self.col[:n]
            ok = c >= 0
            uk, kinv = np.unique(k[ok], return_inverse=True)
            kinv = kinv.ravel()
            pair = kinv * (int(self.B.shape[1]) + 1) + c[ok]
            up, first, cnt = np.unique(pair, return_index=True, return_counts=True)
            grp = up // (int(self.B.shape[1]) + 1)
            order = np.lexsort((first, grp))
            grp, cols, cnt = grp[order], (up % (int(self.B.shape[1]) + 1))[order], cnt[order]
            starts = np.concatenate([np.searchsorted(grp, np.arange(uk.size)), [grp.size]])
            self._below[level] = (uk, starts, cols, cnt.astype(np.float64))
        return self._below[level]

    def _below_of(self, key: int, level: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray] | None:
        uk, starts, cols, cnt = self.leaves_below(level)
        g = int(np.searchsorted(uk, key))
        if g == uk.size or uk[g] != key:
            return None
        return cols[starts[g]:starts[g + 1]], cnt[starts[g]:starts[g + 1]]

    def server_context(self, event: int, level: tuple[int, int, int]) -> tuple[int, tuple]:
        """ĉ (as a key) at ``level``; if no training leaf lies below it, the server generalises ĉ further along
        the hierarchy (levels of PAPER_SEQUENCE, then the root, that are at least as general), which
        uses only what ĉ reveals. Memoised per (event, level): a pure function of the trained service, which every
        threshold of a sweep asks again."""
        if type(event) is not int or type(level) is not tuple:  # other types: no memo, as before (errors included)
            return self._server_context_uncached(event, level)
        key = (event, level)
        if key not in self._contexts:
            self._contexts[key] = self._server_context_uncached(event, level)
        return self._contexts[key]

    def _server_context_uncached(self, event: int, level: tuple[int, int, int]) -> tuple[int, tuple]:
        """:meth:`server_context` computed afresh."""
        chat = int(self.keys(level)[event])
        if self._below_of(chat, level) is not None:
            return chat, level
        for lv in PAPER_SEQUENCE + ((5, 2, 2),):
            if all(x >= y for x, y in zip(lv, level)):
                g = int(self.keys(lv)[event])
                if self._below_of(g, lv) is not None:
                    return g, lv
        return chat, level

    def server_order(self, chat: int, level: tuple[int, int, int], threshold: float, k: int) -> tuple[int, ...]:
        """Greedy's first ``k`` ads with positive benefit for ĉ (CTRs below the threshold zeroed)."""
        below = self._below_of(chat, level)
        if below is None:
            return ()
        cols, cnt = below
        # Memoised on (ĉ, level, k, how many stored CTRs of ĉ's columns fall below the threshold): the instance
        # Greedy sees keeps exactly the stored entries >= threshold, so two thresholds with the same count give
        # the same instance, entry for entry, and the same run (a pure result; the sweeps' thresholds share it).
        if (chat, level) not in self._stored:
            pos, _ = stored_positions(self.B.indptr, cols)
            self._stored[(chat, level)] = np.sort(self.B.data[pos])
        n_below = int(np.searchsorted(self._stored[(chat, level)], threshold, side="left")) if threshold > 0 else 0
        key = (chat, level, k, n_below)
        if key not in self._orders:
            self._orders[key] = self.server_order_uncached(chat, level, threshold, k)
        return self._orders[key]

    def server_order_uncached(self, chat: int, level: tuple[int, int, int], threshold: float, k: int) -> tuple[int, ...]:
        """:meth:`server_order` computed afresh: Greedy on ĉ's instance with the CTRs below the threshold dropped."""
        below = self._below_of(chat, level)
        if below is None:
            return ()
        cols, cnt = below
        rows, V = self._instance_rows(cols, threshold)
        if rows.size == 0:
            return ()
        run = greedy_run(SparseAdInstance(cnt / cnt.sum(), V), min(k, rows.size))
        return tuple(int(rows[a]) for a, b in zip(run.order, run.benefits) if b > 0)

    def _instance_rows(self, cols: np.ndarray, threshold: float) -> tuple[np.ndarray, sp.csr_matrix]:
        """The ads with a CTR >= ``threshold`` in some column of ``cols`` (ascending) and their CSR rows over
        ``cols`` (CTRs below the threshold dropped; column j of the result = ``cols[j]``, indices sorted):
        ``B[:, cols]`` thresholded, restricted to its non-empty rows, built from the stored entries only."""
        import scipy.sparse as sp

        B = self.B
        pos, lens = stored_positions(B.indptr, cols)
        ad, val = B.indices[pos], B.data[pos]
        j = np.repeat(np.arange(cols.size), lens)
        if threshold > 0:
            keep = val >= threshold
            ad, val, j = ad[keep], val[keep], j[keep]
        order = np.lexsort((j, ad))  # by ad, then column (one sort: each (ad, column) is stored once)
        ad = ad[order]
        first = np.flatnonzero(np.concatenate([[True], ad[1:] != ad[:-1]])) if ad.size else np.zeros(0, np.int64)
        rows = ad[first]
        indptr = np.concatenate([first, [ad.size]])
        return rows, sp.csr_matrix((val[order], j[order], indptr), shape=(rows.size, cols.size))

    def client_pick(self, event: int, sent: Sequence[int], threshold: float) -> int | None:
        """The sent ad with the highest CTR (>= threshold) in the event's exact (back-off) context; lowest id
        on ties."""
        return self._client_picks(event, sent, threshold, (len(sent),))[0]

    def _client_picks(self, event: int, order: Sequence[int], threshold: float, ks: Sequence[int]) -> list[int | None]:
        """:meth:`client_pick` for each prefix ``order[:k]``, ``k`` in ``ks``: the largest CTR > 0 and >=
        ``threshold`` in the back-off context, the lowest ad id among equal CTRs (None if none)."""
        ids, v = self.ctr_vector(event)
        out: list[int | None] = []
        if not order or ids.size == 0:
            return [None] * len(ks)
        a = np.asarray(order, dtype=np.int64)
        p = np.minimum(np.searchsorted(ids, a), ids.size - 1)
        ctr = np.where(ids[p] == a, v[p], 0.0).tolist()
        for k in ks:
            best, pick = 0.0, None
            for c, ad in zip(ctr[:k], order[:k]):
                if c >= threshold and (c > best or (c == best and pick is not None and ad < pick)):
                    best, pick = c, ad
            out.append(pick)
        return out

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
            chat, lv = self.server_context(i, level)
            if (chat, lv) not in cache:
                cache[(chat, lv)] = self.server_order(chat, lv, threshold, kmax)
            order = cache[(chat, lv)]
            for k, pick in zip(ks, self._client_picks(i, order, threshold, ks)):
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
def load_events(folder: str) -> Events:
    """The AOL subset's events: :func:`build_events` of :func:`read_log_dir`, memoised in the experiment cache
    (:mod:`privclaims.theory.cache`: keyed on the folder, the package's source and its ``*.txt`` files) and per process
    (every reading of the minimum support trains on the same ones; AdService only reads them)."""
    return memoised("privclaims-ads-cache", {"kind": "ads-aol-events", "folder": folder, "data": data_key(folder, "*.txt")},
                    lambda: build_events(read_log_dir(folder)))


@lru_cache(maxsize=2)
def load_service(folder: str, min_support: int = 2) -> AdService:
    """Read the AOL subset and train the emulated service (cached per process)."""
    return AdService(load_events(folder), min_support)
