"""The two applications of 000_211156f2009240b4.txt §6.2.3 / §6.7 (003 §2.3.2, §7).

Index caching (Baeza-Yates formulation, §6.7.2): each keyword's score is its frequency in the log
divided by the length of its posting list; posting lists (truncated to ``truncate`` documents,
``bytes_per_posting`` bytes each) are added greedily by decreasing score while they fit in
``memory`` bytes (a list that does not fit is skipped and the next one tried). Utility is the
hit probability: the probability, under the keyword workload (a distribution over keywords),
that a keyword's posting list is cached.

Query substitution (§6.7.3): for a query q, the top-j substitutions from the sanitized log
q'_0..q'_{j-1} are compared with those from the original q_0..q_{j-1}:

* Precision(q) = |{q_i} n {q'_i}| / |{q'_i}|, Recall(q) = |{q_i} n {q'_i}| / |{q_i}|;
* MAP(q) as printed: sum_{i<j} (i+1) / (rank of q_i in [q'] + 1), the rank being 0 when q_i is
  absent and i' when q_i = q'_{i'} (:func:`map_as_printed`);
* NDCG: DCG of the sanitized list with graded relevance rel(q) = j - (rank of q in the original
  list) (0 if absent), normalised by the DCG of the original list (Chakrabarti et al. give the
  general form; this grading is our stated choice).

Substitutions (a stand-in for Jones et al.'s phrase-based generator, stated as such): the
candidates for q are the queries q2 of query pairs (q, q2), q2 != q, ranked by pair count.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Hashable, Mapping, Sequence

from privclaims.theory.errors import InvalidInput


def cache_posting_lists(freq: Mapping[Hashable, float], posting_len: Mapping[Hashable, int], memory: int,
                        bytes_per_posting: int = 8, truncate: int = 200_000) -> list[Hashable]:
    """Greedy Baeza-Yates caching: keywords by decreasing freq/posting_len, while they fit."""
    if memory <= 0:
        raise InvalidInput(f"memory = {memory} bytes must be positive")
    cands = [k for k in freq if freq[k] > 0 and posting_len.get(k, 0) > 0]
    cands.sort(key=lambda k: (-freq[k] / posting_len[k], repr(k)))
    used, out = 0, []
    for k in cands:
        size = min(posting_len[k], truncate) * bytes_per_posting
        if used + size <= memory:
            out.append(k)
            used += size
    return out


def hit_probability(cached: Sequence[Hashable], workload: Mapping[Hashable, float]) -> float:
    """Pr[a workload keyword has its posting list cached]."""
    total = sum(workload.values())
    if total <= 0:
        raise InvalidInput("the keyword workload is empty")
    s = set(cached)
    return sum(v for k, v in workload.items() if k in s) / total


def substitutions(pair_counts: Mapping[tuple, float], j: int) -> dict[Hashable, list[Hashable]]:
    """Top-j follow-up queries per query from query-pair counts (ties by repr)."""
    by_q: dict[Hashable, list[tuple[float, Hashable]]] = defaultdict(list)
    for (a, b), c in pair_counts.items():
        if a != b and c > 0:
            by_q[a].append((c, b))
    return {q: [b for _, b in sorted(v, key=lambda t: (-t[0], repr(t[1])))[:j]] for q, v in by_q.items()}


def precision(orig: Sequence[Hashable], san: Sequence[Hashable]) -> float:
    return len(set(orig) & set(san)) / len(set(san)) if san else 0.0


def recall(orig: Sequence[Hashable], san: Sequence[Hashable]) -> float:
    return len(set(orig) & set(san)) / len(set(orig)) if orig else 0.0


def map_as_printed(orig: Sequence[Hashable], san: Sequence[Hashable]) -> float:
    """sum_{i} (i+1)/(rank of q_i in san + 1), rank 0 if absent (000 §6.7.3, literally)."""
    pos = {q: i for i, q in enumerate(san)}
    return sum((i + 1) / (pos.get(q, 0) + 1) for i, q in enumerate(orig))


def ndcg(orig: Sequence[Hashable], san: Sequence[Hashable]) -> float:
    j = len(orig)
    rel = {q: j - i for i, q in enumerate(orig)}
    dcg = sum(rel.get(q, 0) / math.log2(i + 2) for i, q in enumerate(san))
    ideal = sum(rel[q] / math.log2(i + 2) for i, q in enumerate(orig))
    return dcg / ideal if ideal else 0.0
