"""Exhaustive search for Example 3's phenomenon (000_211156f2009240b4.txt §3.4.2): privacy(p) is
neither convex nor concave in the suppression vector p.

Bounded template (stated in the result): T <= 2, contexts {u, v, s} with s sensitive, every row
uniform over a non-empty subset of successors (the figures' convention), Θ = 1/2, p and q in
{0, 1} on the positive-prior states with the sensitive states fixed at 1 (otherwise releasing s
makes privacy jump and the witness is trivial). A witness is screened with the fast twin and
counts only after the exact twin confirms ``privacy(Θp + (1-Θ)q) > (privacy(p) + privacy(q))/2``
(non-convex) or ``<`` (non-concave, i.e. -privacy not convex).
"""

from __future__ import annotations

from itertools import combinations, product
from typing import Iterator

from privclaims.counterexamples.harness import SearchResult, exhaustive_search
from privclaims.theory.maskit import exact as E
from privclaims.theory.maskit import fast as F
from privclaims.theory.maskit.model import markov_chain
from privclaims.theory.maskit.search import coordinates, vector_from
from privclaims.theory.numbers import ONE, Q, ZERO

LABELS = ("u", "v", "s")
S = ["s"]


def _uniform_rows() -> list[list]:
    rows = []
    for k in range(1, 4):
        for sub in combinations(range(3), k):
            rows.append([Q(1, k) if j in sub else ZERO for j in range(3)])
    return rows


def candidates() -> Iterator[tuple]:
    rows = _uniform_rows()
    for T in (1, 2):
        for init in rows:
            for mats in product(rows, repeat=3 * (T - 1)):
                steps = [list(mats[3 * k: 3 * k + 3]) for k in range(T - 1)]
                ch = markov_chain(LABELS, init, steps)
                coords = coordinates(ch)
                free = [c for c in coords if ch.contexts[c[1]] != "s"]
                if not free or len(free) == len(coords):
                    continue  # no choice, or no sensitive state with positive prior
                for a in product((ZERO, ONE), repeat=len(free)):
                    for b in product((ZERO, ONE), repeat=len(free)):
                        if a < b:
                            yield ch, coords, free, a, b


def _vectors(ch, coords, free, a, b):
    def full(vals):
        m = dict(zip(free, vals))
        return vector_from(ch, coords, [m.get(c, ONE) for c in coords])

    return full(a), full(b), full([(x + y) / 2 for x, y in zip(a, b)])


def _gap(cand, twin) -> tuple:
    ch, coords, free, a, b = cand
    p, q, m = _vectors(ch, coords, free, a, b)
    lp, lq, lm = (twin.privacy_level(ch, v, S) for v in (p, q, m))
    return lm, (lp + lq) / 2


def convexity_witness(kind: str, time_limit: float = 60.0) -> SearchResult:
    """kind = "convex": find privacy(mix) > average; kind = "concave": find privacy(mix) < average."""
    sign = 1 if kind == "convex" else -1

    def screen(c) -> bool:
        lm, avg = _gap(c, F)
        return sign * (lm - avg) > 1e-9

    def verify(c) -> bool:
        lm, avg = _gap(c, E)
        return sign * (lm - avg) > 0

    def describe(c):
        ch, coords, free, a, b = c
        lm, avg = _gap(c, E)
        p, q, m = _vectors(ch, coords, free, a, b)
        return {"T": ch.T, "initial": list(ch.initial), "steps": [[list(r) for r in s] for s in ch.steps],
                "contexts": list(ch.contexts), "p": p, "q": q, "theta": "1/2",
                "privacy_p": E.privacy_level(ch, p, S), "privacy_q": E.privacy_level(ch, q, S),
                "privacy_mixture": lm, "average": avg}

    return exhaustive_search(candidates(), screen, verify=verify, describe=describe, time_limit=time_limit,
                             bound="T <= 2, contexts {u, v, s}, uniform rows over subsets, p, q in {0,1} off s, s fixed at 1, Θ = 1/2",
                             encoding="enumeration in increasing T; fast-twin screen, exact-twin confirmation")
