"""k-anonymity (Definition 1) and its search-log variants (000_211156f2009240b4.txt §2.1, §2.1.2;
003_755c7aa10ef74058.txt §2.2), as exact checkers and reference algorithms.

* Definition 1: a release is k-anonymous if the data of every individual is indistinguishable
  from the data of at least k - 1 other individuals. :func:`is_k_anonymous` reads
  "indistinguishable" as "equal published data"; it is validated against the literal reading
  (:func:`is_k_anonymous_literal`, pairwise comparison).
* Adar's k-query anonymity: partition the log into sessions, discard queries associated with
  fewer than k different user-ids, replace the user-id of each session by a random number.
* Motwani-Nabar k-session anonymity: add/delete keywords until every session has the same keyword
  set as at least k - 1 other sessions, then random ids. (Reference instance: sessions sorted by
  keyword set, grouped in runs of >= k, each group's keywords replaced by their intersection.)
* He-Naughton k-keyword anonymity: generalise keywords to prefixes until each generalised keyword
  is part of at least k search histories, publish the histogram of generalised keywords.

The §6.3.1 attack: these guarantees count user-IDs, not individuals; an attacker with k - 1
accounts can make a victim's rare query "k-anonymous" (:func:`sybil_attack`).
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from typing import Hashable, Mapping

from privclaims.theory.errors import InvalidInput
from privclaims.theory.zealous.items import DEFAULT_SESSION_GAP, check_session_gap
from privclaims.theory.zealous.model import Entry, SearchLog, non_empty


def _k(k: object) -> int:
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InvalidInput(f"k = {k!r} must be a positive integer")
    return k


def is_k_anonymous(release: Mapping[Hashable, Hashable], k: int) -> bool:
    """Definition 1: every individual's published data equals that of >= k - 1 others."""
    _k(k)
    counts = Counter(release.values())
    return all(counts[v] >= k for v in release.values())


def is_k_anonymous_literal(release: Mapping[Hashable, Hashable], k: int) -> bool:
    """Definition 1 read literally: for each individual, count the other individuals with equal data."""
    _k(k)
    people = list(release)
    return all(sum(1 for q in people if q != p and release[q] == release[p]) >= k - 1 for p in people)


def sessions(log: SearchLog, gap: int = DEFAULT_SESSION_GAP) -> list[tuple[str, list[Entry]]]:
    """(user, entries) per session: a new session starts after more than ``gap`` seconds (an integer in
    [0, 10^9], :func:`privclaims.theory.zealous.items.check_session_gap`)."""
    gap = check_session_gap(gap)
    out: list[tuple[str, list[Entry]]] = []
    for user, hist in non_empty(log).histories.items():
        cur: list[Entry] = []
        for e in hist:
            if cur and e.time - cur[-1].time > gap:
                out.append((user, cur))
                cur = []
            cur.append(e)
        if cur:
            out.append((user, cur))
    return out


def query_users(log: SearchLog) -> dict[str, set[str]]:
    qu: dict[str, set[str]] = defaultdict(set)
    for user, hist in log.histories.items():
        for e in hist:
            qu[e.query].add(user)
    return qu


def adar_k_query(log: SearchLog, k: int, seed: int, gap: int = DEFAULT_SESSION_GAP,
                 parts: tuple[list, dict] | None = None) -> SearchLog:
    """Adar's algorithm: sessions, drop queries of < k distinct user-ids, random id per session.

    ``parts``: ``(sessions(log, gap), query_users(log))`` when the caller already has them (they do not depend
    on k; an experiment over a grid of k computes them once)."""
    _k(k)
    sess, qu = parts if parts is not None else (sessions(log, gap), query_users(log))
    rng = random.Random(seed)
    out = SearchLog()
    for _, ents in sess:
        kept = [e for e in ents if len(qu[e.query]) >= k]
        if kept:
            rid = f"r{rng.getrandbits(48):012x}"
            while rid in out.histories:
                rid = f"r{rng.getrandbits(48):012x}"
            out.histories[rid] = kept
    return out


def is_k_query_anonymous(original: SearchLog, release: SearchLog, k: int) -> bool:
    """Every published query was posed by >= k distinct user-ids of the original, and no original id survives."""
    _k(k)
    qu = query_users(original)
    if set(release.histories) & set(original.histories):
        return False
    return all(len(qu.get(e.query, ())) >= k for h in release.histories.values() for e in h)


def k_session_anonymize(log: SearchLog, k: int, gap: int = DEFAULT_SESSION_GAP) -> list[frozenset[str]]:
    """Keyword sets of sessions made k-session anonymous (deletion-only reference instance)."""
    _k(k)
    sets = sorted((frozenset(w for e in ents for w in e.query.split()) for _, ents in sessions(log, gap)), key=lambda s: sorted(s))
    if len(sets) < k:
        raise InvalidInput(f"{len(sets)} sessions cannot be made {k}-session anonymous (need >= k)")
    groups = [sets[i:i + k] for i in range(0, len(sets), k)]
    if len(groups) > 1 and len(groups[-1]) < k:
        groups[-2].extend(groups.pop())
    out = []
    for g in groups:
        common = frozenset.intersection(*g)
        out.extend([common] * len(g))
    return out


def is_k_session_anonymous(session_sets: list[frozenset[str]], k: int) -> bool:
    return is_k_anonymous(dict(enumerate(session_sets)), k)


def k_keyword_anonymize(log: SearchLog, k: int) -> Counter:
    """He-Naughton: each keyword generalised to its longest prefix contained in >= k histories."""
    _k(k)
    users_kw = {u: {w for e in h for w in e.query.split()} for u, h in non_empty(log).histories.items()}
    prefix_users: dict[str, set[str]] = defaultdict(set)
    for u, kws in users_kw.items():
        for w in kws:
            for i in range(1, len(w) + 1):
                prefix_users[w[:i]].add(u)
    hist: Counter = Counter()
    for u, kws in users_kw.items():
        gen = set()
        for w in kws:
            for i in range(len(w), 0, -1):
                if len(prefix_users[w[:i]]) >= k:
                    gen.add(w[:i])
                    break
        hist.update(gen)
    return hist


def is_k_keyword_anonymous(log: SearchLog, hist: Mapping[str, int], k: int) -> bool:
    """Each published generalised keyword is a prefix of a keyword in >= k histories."""
    users_kw = {u: {w for e in h for w in e.query.split()} for u, h in log.histories.items()}
    return all(sum(1 for kws in users_kw.values() if any(w.startswith(p) for w in kws)) >= k for p in hist)


def sybil_attack(log: SearchLog, victim_query: str, k: int, t0: int) -> SearchLog:
    """The attacker's k - 1 fake accounts each pose ``victim_query`` once (§6.3.1)."""
    out = SearchLog({u: list(h) for u, h in log.histories.items()})
    for i in range(k - 1):
        out.histories[f"sybil{i}"] = [Entry(victim_query, t0 + i)]
    return out
