"""Item sets per user, per-user selection of up to m items, and user-count histograms.

000_211156f2009240b4.txt §6.2.1: the keyword histogram records for each keyword k the number of
users c_k whose history contains k; queries, clicks and query pairs analogously. A query pair is
two subsequent queries of one user in one session. The items of each kind are defined once, for
every engine, in :mod:`privclaims.theory.zealous.items` (:class:`~privclaims.theory.zealous.items.ItemKind`:
sessions cut at ``session_gap`` seconds, default 30 minutes; keywords split at Unicode white space).

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

from privclaims.theory.zealous.items import DEFAULT_SESSION_GAP, ItemKind
from privclaims.theory.zealous.model import SearchLog, contributions, non_empty

__all__ = ["DEFAULT_SESSION_GAP", "user_items", "select_items", "histogram", "item_histogram", "average_items_per_user"]


def user_items(log: SearchLog, kind: ItemKind | str, session_gap: int | None = None) -> dict[str, set[Hashable]]:
    """For each user, the set of distinct items of ``kind`` in the history (:meth:`ItemKind.items`)."""
    k = ItemKind.of(kind, session_gap)
    non_empty(log)
    return {u: k.items(h) for u, h in log.histories.items()}


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


def item_histogram(log: SearchLog, kind: ItemKind | str, session_gap: int | None = None) -> Counter:
    """The full (unselected) user-count histogram of ``kind``."""
    return histogram(user_items(log, kind, session_gap))


def average_items_per_user(log: SearchLog, kind: ItemKind | str, session_gap: int | None = None) -> float:
    """Table 6.4's statistic: mean number of distinct items of ``kind`` per user."""
    items = user_items(log, kind, session_gap)
    return sum(len(s) for s in items.values()) / len(items)
