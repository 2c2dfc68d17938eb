"""Integer codes of strings and the running most-clicked item per user, with numpy (for :func:`privclaims.theory.ads.aol
.build_events`, which reads some 4 * 10^5 clicks).

* :func:`codes`: ``values`` -> (distinct values in order of first occurrence, the code of each value): ``distinct[code[i]]
  == values[i]``.
* :func:`sorted_ranks`: the rank of each distinct string in Python's order of ``str`` (code points), so sorting rows by
  ranks sorts them as Python sorts the strings (numpy's fixed-width strings would drop trailing NULs).
* :func:`lexicographic_order`: the stable order of rows by a tuple of codes (major first), as ``np.lexsort`` gives it,
  with codes combined into fewer integer keys while their product stays below 2^62.
* :func:`running_top`: per row, the item its user clicked most in the rows before it (ties: the smallest rank), -1 for a
  user's first row. Counts only grow and only the clicked item's count changes, so after a user's row ``i`` the top is
  the item maximising ``(count, -rank)`` over that user's rows up to ``i``, each row weighed with its item's count up to
  and including it: a prefix maximum, taken per user.
"""

from __future__ import annotations

from typing import Hashable, Iterable, Sequence

import numpy as np


def codes(values: Iterable[Hashable]) -> tuple[list, np.ndarray]:
    """(distinct values in order of first occurrence, int64 code of each value)."""
    values = values if isinstance(values, list) else list(values)
    distinct = list(dict.fromkeys(values))
    index = dict(zip(distinct, range(len(distinct))))
    return distinct, np.fromiter(map(index.__getitem__, values), np.int64, len(values))


def sorted_ranks(distinct: Sequence[str]) -> np.ndarray:
    """``rank[i]`` = position of ``distinct[i]`` in ``sorted(distinct)`` (the values distinct)."""
    order = sorted(range(len(distinct)), key=distinct.__getitem__)
    rank = np.empty(len(distinct), np.int64)
    rank[np.asarray(order, np.int64)] = np.arange(len(distinct))
    return rank


def lexicographic_order(columns: Sequence[tuple[np.ndarray, int]]) -> np.ndarray:
    """The stable permutation sorting rows by ``(columns[0][0][i], columns[1][0][i], ...)``; each column is (codes in
    ``[0, size)``, size). ``key * size + code`` orders pairs as the pair itself does, so adjacent columns are folded into
    one key while the product of their sizes stays below 2^62 (no overflow)."""
    keys: list[np.ndarray] = []
    key, span = None, 1
    for code, size in columns:
        size = max(int(size), 1)
        if key is not None and span * size < 1 << 62:
            key, span = key * size + code, span * size
        else:
            if key is not None:
                keys.append(key)
            key, span = np.asarray(code, np.int64), size
    keys.append(key)
    return np.argsort(keys[0], kind="stable") if len(keys) == 1 else np.lexsort(keys[::-1])


def running_top(user: np.ndarray, item: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """Rows in order, row ``i`` a click of ``user[i]`` on ``item[i]`` (codes >= 0; ``rank[item]`` orders the items):
    per row, the item the user clicked most often in their earlier rows, the one of smallest rank among equals; -1 for
    the user's first row."""
    n = user.size
    top = np.full(n, -1, np.int64)
    if n == 0:
        return top
    by_user = np.argsort(user, kind="stable")  # each user's rows together, in row order
    u, it = user[by_user], item[by_user]
    n_items = int(rank.max()) + 1
    pair = u * n_items + rank[it]  # (user, item) -> one integer (ranks are a bijection of the items)
    by_pair = np.argsort(pair, kind="stable")
    sp = pair[by_pair]
    starts = np.flatnonzero(np.concatenate([[True], sp[1:] != sp[:-1]]))
    count = np.empty(n, np.int64)
    count[by_pair] = np.arange(n) - np.repeat(starts, np.diff(np.concatenate([starts, [n]])))  # earlier equal pairs
    key = (count + 1) * n_items + (n_items - 1 - rank[it])  # (count so far, -rank): larger is the better top
    uniq, dense = np.unique(key, return_inverse=True)
    first = np.concatenate([[True], u[1:] != u[:-1]])
    group = np.cumsum(first) - 1
    best = np.maximum.accumulate(group * uniq.size + dense.ravel())  # the prefix maximum, restarted per user
    best_rank = n_items - 1 - uniq[best - group * uniq.size] % n_items
    item_of_rank = np.empty(n_items, np.int64)
    item_of_rank[rank] = np.arange(rank.size)
    after = item_of_rank[best_rank]  # the top after each row
    before = np.concatenate([[-1], after[:-1]])
    before[first] = -1
    top[by_user] = before
    return top
