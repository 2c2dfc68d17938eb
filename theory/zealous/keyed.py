"""ZEALOUS's randomness keyed by identities (000_211156f2009240b4.txt §6.4, Figure 6.1): one seed, one release.

Every random choice is a function of (seed, user, item) or (seed, kind, item) only, never of the order
in which an engine meets the rows or of how a distributed engine partitions them:

* Step 1 (:func:`selection_key`): user u keeps the m distinct items with the smallest key
  ``md5(seed ␟ u ␟ item)`` (ties, which need an md5 collision, go to the smaller item). Ordering a
  set by independent uniform keys and keeping the first m is a uniformly random m-subset, and the
  key depends on identities and the seed, never on counts: "not based on the data".
* Step 4 (:func:`item_noise`): item k's noise ``g·K`` is drawn by the exact discrete-Laplace sampler
  of :mod:`privclaims.theory.noise.laplace` from a bit source seeded by ``sha256(seed ␟ kind ␟ item)``.
* Steps 3 and 5 (:func:`release_keyed`) are exact rational comparisons
  (:func:`privclaims.theory.zealous.exact.survives`).

Every engine (python, DuckDB, Dask) calls these functions or, for Step 1 in SQL, the same key
(``duck.histogram_sql``).
"""

from __future__ import annotations

import hashlib
import heapq
from typing import Any, Hashable, Iterable, Mapping

from privclaims.theory.errors import InvalidInput
from privclaims.theory.noise.laplace import BitSource, laplace_on_grid
from privclaims.theory.numbers import Q
from privclaims.theory.zealous.exact import DEFAULT_GRANULARITY, survives
from privclaims.theory.zealous.items import ItemKind, item_text
from privclaims.theory.zealous.model import ZealousParams, contributions, user_counts

SEP = "\x1f"  # ASCII unit separator: never part of a log field's key prefix

try:  # CPython's own md5: the same digests as OpenSSL's, at about half the cost per call on short keys
    from _md5 import md5 as _md5
except ImportError:  # pragma: no cover - a Python built without it
    _md5 = hashlib.md5


def selection_key(seed: int, user: str, item: str) -> str:
    """Step 1's key of (user, item): the md5 hex digest of ``seed ␟ user ␟ item`` (UTF-8); DuckDB's
    ``md5(CAST(seed AS VARCHAR) || chr(31) || user || chr(31) || item)`` is the same string."""
    return hashlib.md5(f"{int(seed)}{SEP}{user}{SEP}{item}".encode("utf-8")).hexdigest()


def select_keyed(items: Mapping[str, Iterable[Hashable]], m: object, seed: int) -> dict[str, list[str]]:
    """Step 1, counter-based: per user the ``min(m, |items|)`` distinct non-empty item texts with the
    smallest keys (:func:`selection_key`, compared as md5 digests: bytes order is hex order; ties by text)."""
    mm = contributions(m)
    out = {}
    for user, its in items.items():
        prefix = f"{int(seed)}{SEP}{user}{SEP}".encode("utf-8")
        keyed = [(_md5(prefix + t.encode("utf-8")).digest(), t)
                 for t in {k if k.__class__ is str else item_text(k) for k in its} if t]
        out[user] = [t for _, t in (heapq.nsmallest(mm, keyed) if len(keyed) > mm else sorted(keyed))]
    return out


def item_seed(seed: int, kind: ItemKind | str, item: str) -> int:
    """The 64-bit seed of item ``item``'s noise: sha256 of ``seed ␟ kind ␟ item`` (the kind's name)."""
    name = ItemKind.of(kind).name
    return int.from_bytes(hashlib.sha256(f"{int(seed)}{SEP}{name}{SEP}{item}".encode("utf-8")).digest()[:8], "little")


def item_noise(params: ZealousParams, seed: int, kind: ItemKind | str, item: str,
               granularity: Any = DEFAULT_GRANULARITY) -> Any:
    """Step 4's noise of one item: exact grid Laplace ``g·K`` (a rational), keyed by (seed, kind, item)."""
    return laplace_on_grid(params.lam, granularity, BitSource(item_seed(seed, kind, item)))


def release_keyed(hist: Mapping[str, int], params: ZealousParams, seed: int, kind: ItemKind | str,
                  granularity: Any = DEFAULT_GRANULARITY) -> dict[str, Any]:
    """Steps 3-6 on a Step-2 histogram ``{item text: users}``: ``{item: noisy count}`` (rationals)."""
    kind = ItemKind.of(kind)
    if params.lam is None:
        raise InvalidInput("params: sampling needs a rational lambda (ZealousParams.of(m, lam, tau, tau'))")
    out = {}
    for k, c in sorted(user_counts(hist).items()):
        if c < params.tau:
            continue
        noise = item_noise(params, seed, kind, k, granularity)
        if survives(c, noise / Q(granularity), granularity, params.tau_prime):
            out[k] = Q(c) + noise
    return out


__all__ = ["SEP", "selection_key", "select_keyed", "item_seed", "item_noise", "release_keyed"]
