"""Item sets per user, per-user selection of up to m items, and user-count histograms.

000_211156f2009240b4.txt §6.2.1: the keyword histogram records for each keyword k the number of
users c_k whose history contains k; queries, clicks and query pairs analogously. A query pair is
two subsequent queries of one user in one session; sessions are cut where two consecutive entries
of a user are more than ``session_gap`` seconds apart (default 30 minutes, the usual convention;
the thesis leaves the partitioning open). Keywords are the whitespace-separated tokens of a query.

ZEALOUS Step 1 selects "a set s_u of up to m distinct items from u's history ... not based on the
data; random selection is one candidate": :func:`select_items` draws a uniformly random subset
of size min(m, |items_u|), seeded per user from (seed, user id) only.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from itertools import chain
from typing import Hashable, Iterable, Mapping

from privclaims.theory.zealous.model import SearchLog, contributions, item_kind, non_empty

DEFAULT_SESSION_GAP = 30 * 60


def user_items(log: SearchLog, kind: str, session_gap: int = DEFAULT_SESSION_GAP) -> dict[str, set[Hashable]]:
    """For each user, the set of distinct items of ``kind`` in the history."""
    item_kind(kind)
    non_empty(log)
    if kind == "keywords":  # the tokens of the user's queries joined by a space: the union of their splits
        return {u: set(" ".join([e.query for e in h]).split()) for u, h in log.histories.items()}
    if kind == "queries":
        return {u: {e.query for e in h} for u, h in log.histories.items()}
    if kind == "clicks":
        return {u: {c for e in h for c in e.clicks} for u, h in log.histories.items()}
    return {u: {(a.query, b.query) for a, b in zip(h, h[1:]) if b.time - a.time <= session_gap}
            for u, h in log.histories.items()}


def _user_rng(seed: int, user: str) -> random.Random:
    h = hashlib.sha256(f"{seed}:{user}".encode()).digest()
    return random.Random(int.from_bytes(h[:8], "little"))


def select_items(items: Mapping[str, Iterable[Hashable]], m: object, seed: int) -> dict[str, list[Hashable]]:
    """Step 1: per user a uniformly random subset of min(m, |items|) distinct items (seeded)."""
    mm = contributions(m)
    out = {}
    for user, its in items.items():
        pool = set(its)
        try:
            pool = sorted(pool)  # homogeneous items (str, or tuples of str): fast native order
        except TypeError:
            pool = sorted(pool, key=repr)
        if len(pool) > mm:
            pool = _user_rng(seed, user).sample(pool, mm)
        out[user] = pool
    return out


def histogram(selected: Mapping[str, Iterable[Hashable]]) -> Counter:
    """Step 2: c_k = number of users whose (selected) item set contains k."""
    return Counter(chain.from_iterable(its if isinstance(its, (set, frozenset)) else set(its) for its in selected.values()))


def item_histogram(log: SearchLog, kind: str, session_gap: int = DEFAULT_SESSION_GAP) -> Counter:
    """The full (unselected) user-count histogram of ``kind``."""
    return histogram(user_items(log, kind, session_gap))


def average_items_per_user(log: SearchLog, kind: str, session_gap: int = DEFAULT_SESSION_GAP) -> float:
    """Table 6.4's statistic: mean number of distinct items of ``kind`` per user."""
    items = user_items(log, kind, session_gap)
    return sum(len(s) for s in items.values()) / len(items)
