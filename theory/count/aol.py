"""An AOL-based emulation of the experiments of 000_211156f2009240b4.txt §5.6 (Figure 5.2).

The Bing mobile log (116,432 users) is not public; we substitute the AOL top-1000-users logs
(``/work/shared/data/aol-top1000/user_search_logs/<user>.txt``: blocks ``query<TAB>time`` then an
optional clicked URL, separated by blank lines). Emulation choices (stated, not the paper's):

* context hierarchy: root -> first word of the query -> the full (lower-cased) query;
* ads: the ``n_ads`` most clicked domains; an event whose click is on an ad is a *click* impression
  of that ad; an event without such a click is a *view* (no click) of the most clicked ad of its
  first-word context (the ad "shown" there), when there is one;
* users split 80/20 (seeded) into training (Estimates) and test users;
* a test event (with a click on an ad) is *covered* at threshold theta if the deepest estimated node
  on its path has an ad with CTR^ >= theta; it is *correct* if that ad is the clicked one.
  coverage = covered / events, precision = correct / covered; we report the largest coverage with
  precision >= 0.6 (the paper's operating point) over a grid of theta.

Noise: each released count gets Count's total noise, the sum of the N training users' shares
``N(sigma^2 / ((1 - t) N - 1))``, i.e. ``N(0, N sigma^2 / ((1 - t) N - 1))`` (Fact 1), with Corollary
2's ``sigma^2 = 6 height m^2 ln(4/delta) / eps^2`` (height = depth_limit + 1 levels are counted).
"""

from __future__ import annotations

import math
import random
import weakref
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from privclaims.theory.cache import data_key, memoised
from privclaims.theory.count import fast_topdown
from privclaims.theory.count.exact_topdown import Prepared, prepare
from privclaims.theory.count.hierarchy import Entry, Hierarchy, ReadOnlyMap
from privclaims.theory.errors import InvalidInput
from privclaims.theory.gcpause import gc_paused
from privclaims.theory.validate import existing_path, file_identity, integer
from privclaims.theory.zealous.loaders import clicked_host, load_user_file

ROOT = "*"


@dataclass(frozen=True)
class Event:
    user: str
    query: str
    domain: str | None


def read_user_log(path: Path) -> list[Event]:
    """One user's file as events: a block (``query<TAB>time`` then zero or more clicked URLs) gives one click event
    per URL (its domain: :func:`~privclaims.theory.zealous.loaders.clicked_host`; a click without one is refused), or
    one event without click. Read by the one reader of the per-user layout,
    :func:`privclaims.theory.zealous.loaders.load_user_file` (its rules; a malformed line raises its InvalidInput
    naming ``file:line``); the query is lower-cased without surrounding spaces. Memoised per process on the file's
    path and content digest (:func:`privclaims.theory.validate.file_identity`)."""
    path = existing_path(path, "path (per-user log file)", "file")
    return list(_read_user_log(Path(path), file_identity(path)))


@lru_cache(maxsize=4096)
def _read_user_log(path: Path, identity: tuple) -> tuple[Event, ...]:
    user = path.stem
    events: list[Event] = []
    for e in load_user_file(path):
        query = e.query.strip().lower()
        for url in e.clicks:
            events.append(Event(user, query, clicked_host(url, f"{path}: query {e.query[:40]!r}")))
        if not e.clicks:
            events.append(Event(user, query, None))
    return tuple(events)


def read_aol(root: Path, max_users: int | None = None) -> list[Event]:
    """Every user file under ``root/user_search_logs`` (or ``root``); a missing root, a file, or no ``*.txt`` is refused."""
    root = existing_path(root, "root (AOL per-user logs)", "dir")
    if max_users is not None:
        max_users = integer(max_users, "max_users", lo=1)
    d = Path(root) / "user_search_logs" if (Path(root) / "user_search_logs").exists() else Path(root)
    files = sorted(d.glob("*.txt"))
    if not files:
        raise InvalidInput(f"no user log files under {d}")
    out: list[Event] = []
    with gc_paused():  # ~4 * 10^5 events without reference cycles (theory/gcpause.py)
        for p in files[:max_users]:
            out.extend(read_user_log(p))
    return out


def first_word(q: str) -> str:
    return q.split()[0] if q.split() else "-"


@dataclass(frozen=True, eq=False)
class Emulation:
    """The AOL emulation :func:`build` makes, read-only: :func:`run_estimates` memoises the prepared input of each
    (m, seed) on it (the runs of one figure differ only in their noise). Its fields cannot be reassigned, and
    :func:`build` gives it tuples and read-only mappings (the bidders; the Hierarchy is read-only itself), so a
    memoised input cannot go stale."""

    hierarchy: Hierarchy
    train: tuple[Entry, ...]
    test: Sequence[tuple[str, str]]  # (leaf context, clicked ad)
    n_train_users: int
    ads: Sequence[str]
    bids: Mapping[str, Sequence[str]]  # node -> ads bidding on it


def build(events: list[Event], n_ads: int = 50, per_context: int = 3, seed: int = 0) -> Emulation:
    """Ads = the n_ads most clicked domains; the ads bidding on a first-word context are its
    ``per_context`` most clicked ads in the training users' events (the root: the global top ones).
    Each training event is one impression of an ad drawn uniformly from its context's bidders,
    clicked iff the user clicked that ad's domain."""
    clicks = Counter(e.domain for e in events if e.domain)
    ads = [d for d, _ in clicks.most_common(n_ads)]
    ad_set = set(ads)
    users = sorted({e.user for e in events})
    rng = random.Random(seed)
    test_users = set(rng.sample(users, len(users) // 5))
    parent: dict = {}
    for e in events:
        fw = "w:" + first_word(e.query)
        parent[fw] = ROOT
        parent["q:" + e.query] = fw
    h = Hierarchy(parent, ROOT)  # read-only once built (Hierarchy keeps a private copy)
    cw = Counter((first_word(e.query), e.domain) for e in events if e.user not in test_users and e.domain in ad_set)
    bids: dict = {ROOT: ads[:per_context]}
    for (w, d), c in sorted(cw.items(), key=lambda kv: (-kv[1], kv[0])):
        lst = bids.setdefault("w:" + w, [])
        if len(lst) < per_context:
            lst.append(d)
    train, test = [], []
    for e in events:
        leaf = "q:" + e.query
        if e.user in test_users:
            if e.domain in ad_set:
                test.append((leaf, e.domain))
            continue
        shown = rng.choice(bids.get("w:" + first_word(e.query)) or bids[ROOT])
        train.append(Entry(e.user, leaf, shown, e.domain == shown))
    return Emulation(h, tuple(train), tuple(test), len(users) - len(test_users), tuple(ads),
                     ReadOnlyMap({v: tuple(a) for v, a in bids.items()}))


def corollary2_sigma2(eps: float, delta: float, height: int, m: int) -> float:
    from privclaims.theory.floats import round_up  # never below the formula (see theorem1_sigma2_float)

    return float(round_up(6 * height * m * m * math.log(4 / delta) / (eps * eps)))


NOISE_BLOCK = 4096  # Generator.normal(0, sd, n) gives the n values that n calls Generator.normal(0, sd) give, in order


def run_estimates(em: Emulation, eps: float | None, t: float, m: int = 4, min_support: float = 50, delta: float = 0.02,
                  depth_limit: int = 1, seed: int = 0):
    """Estimates on the training entries with Count's total noise (eps None: exact, non-private)."""
    if eps is None:
        noise = lambda key: 0.0
    else:
        n = em.n_train_users
        if not 0 <= t < 1 or (1 - t) * n - 1 <= 0:
            raise InvalidInput(f"t = {t} invalid for N = {n}")
        var = n * corollary2_sigma2(eps, delta, depth_limit + 1, m) / ((1 - t) * n - 1)
        sd = math.sqrt(var)
        cache: dict = {}
        rng = np.random.default_rng(seed)
        block: list[float] = []  # drawn NOISE_BLOCK at a time, served in draw order: the values of one draw per call

        def noise(key):
            if key not in cache:
                if not block:
                    block.extend(rng.normal(0.0, sd, NOISE_BLOCK).tolist()[::-1])
                cache[key] = block.pop()
            return cache[key]
    return fast_topdown.topdown(prepared(em, m, seed), min_support, noise, depth_limit)


def emulation(root: Path | str, n_ads: int = 50, per_context: int = 3, seed: int = 0) -> Emulation:
    """:func:`build` on :func:`read_aol` ``(root)``, memoised in the experiment cache (:mod:`privclaims.theory.cache`:
    keyed on the arguments, the package's source and every ``*.txt`` file under ``root``) and per process: the
    ledger's count checks and notebook 03 build the same emulation of the AOL subset."""
    root = existing_path(root, "root (AOL per-user logs)", "dir")
    n_ads, per_context, seed = (integer(n_ads, "n_ads", lo=1), integer(per_context, "per_context", lo=1),
                                integer(seed, "seed"))
    data = data_key(root, "*.txt")
    here = (str(root.resolve()), n_ads, per_context, seed, tuple(data))
    if here not in _EMULATIONS:
        key = {"kind": "count-aol-emulation", "root": here[0], "n_ads": n_ads, "per_context": per_context, "seed": seed,
               "data": data}
        if len(_EMULATIONS) >= 2:
            _EMULATIONS.clear()
        _EMULATIONS[here] = memoised("privclaims-count-cache", key,
                                     lambda: build(read_aol(root), n_ads, per_context, seed))
    return _EMULATIONS[here]


_EMULATIONS: dict[tuple, Emulation] = {}  # this process's emulations (two at most), by arguments and data files


_PREPARED: "weakref.WeakKeyDictionary[Emulation, dict[tuple[int, int], Prepared]]" = weakref.WeakKeyDictionary()


def prepared(em: Emulation, m: int, seed: int) -> Prepared:
    """Algorithm 7's input step on the training entries (:func:`~privclaims.theory.count.exact_topdown.prepare`),
    memoised per emulation on ``(m, seed)`` (a pure function of them: the emulation is read-only)."""
    if type(m) is not int or type(seed) is not int:  # prepare refuses or reads it; a bool must not hit 1's memo
        return prepare(em.train, em.hierarchy, m, seed, em.bids)
    memo = _PREPARED.setdefault(em, {})
    key = (m, seed)
    if key not in memo:
        memo[key] = prepare(em.train, em.hierarchy, m, seed, em.bids)
    return memo[key]


def precision_coverage(em: Emulation, res, thetas=None) -> list[tuple[float, float, float]]:
    """``(θ, precision, coverage)`` per threshold θ (default 0, 0.05, .., 1). Each node's best ad is the released CTR's
    argmax (lowest id on ties); a test entry's pick is the best ad of the deepest node on its leaf's path (leaf up to
    the root) that has one. At θ the shown picks are those with CTR >= θ: coverage = shown / test entries, precision
    = shown picks equal to the clicked ad / shown (NaN if none). CTRs are compared as given (exact or float)."""
    thetas = thetas if thetas is not None else [i / 20 for i in range(0, 21)]
    best_ad: dict = {}
    for (a, v), c in res.ctr.items():
        if c is None:
            continue
        if v not in best_ad or c > best_ad[v][1] or (c == best_ad[v][1] and a < best_ad[v][0]):
            best_ad[v] = (a, c)
    h = em.hierarchy
    ctr, hit = [], []  # per test entry with a pick: the picked ad's CTR and whether it is the clicked ad
    for leaf, clicked in em.test:
        if leaf != h.root and leaf not in h.parent:
            h.path(leaf)  # an unknown context: path's InvalidInput
        v = leaf  # the deepest node on the leaf's path (leaf up to the root) with a best ad
        while v not in best_ad and v != h.root:
            v = h.parent[v]
        if v in best_ad:
            ctr.append(best_ad[v][1])
            hit.append(best_ad[v][0] == clicked)
    exact = not all(type(c) in (float, np.float64) for c in ctr)  # exact CTRs (the exact twin's) compared exactly
    ctr_arr, hit_arr, n = np.asarray(ctr, dtype=object if exact else np.float64), np.asarray(hit, dtype=bool), len(em.test)
    out = []
    for th in thetas:
        shown = np.asarray(ctr_arr >= th, dtype=bool)
        k = int(shown.sum())
        out.append((th, int(hit_arr[shown].sum()) / k if k else float("nan"), k / max(1, n)))
    return out


def coverage_at_precision(curve, target: float = 0.6) -> float:
    ok = [cov for _, prec, cov in curve if prec == prec and prec >= target]
    return max(ok) if ok else 0.0
