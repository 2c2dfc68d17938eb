"""Utility measures (000_211156f2009240b4.txt §6.2.3, §6.6.2, §6.7; 003_755c7aa10ef74058.txt §2.3, §6.2, §7).

* very-frequent (f_d >= tau + xi) / very-infrequent (f_d <= tau - xi) items;
* Definition 10: (A, S)-inaccuracy with slack xi
  ``E|{d in A(S): f_d < tau - xi} u {d not in A(S): f_d > tau + xi}|``
  = ``sum_{f_d > tau+xi} (1 - Pr[d in A(S)]) + sum_{f_d < tau-xi} Pr[d in A(S)]``
  (:func:`inaccuracy` computes the rewritten form, :func:`inaccuracy_literal` the expectation
  over an explicit output distribution; :func:`inaccuracy_very` the non-strict reading with the
  very-frequent / very-infrequent sets);
* Definition 11: c-accuracy (every very-frequent item output with probability >= c);
* top-j coverage and precision (average L1 distance, KL divergence of relative frequencies).
"""

from __future__ import annotations

import math
from typing import Any, Hashable, Iterable, Mapping

from privclaims.theory.numbers import ZERO, as_rational


def very_frequent(freqs: Mapping[Hashable, int], tau: object, xi: object) -> set[Hashable]:
    t, x = as_rational(tau, "tau"), as_rational(xi, "xi")
    return {d for d, f in freqs.items() if f >= t + x}


def very_infrequent(freqs: Mapping[Hashable, int], tau: object, xi: object, domain: Iterable[Hashable] = ()) -> set[Hashable]:
    t, x = as_rational(tau, "tau"), as_rational(xi, "xi")
    items = set(freqs) | set(domain)
    return {d for d in items if freqs.get(d, 0) <= t - x}


def inaccuracy(release_prob: Mapping[Hashable, Any], freqs: Mapping[Hashable, int], tau: object, xi: object, domain: Iterable[Hashable] = ()) -> Any:
    """Definition 10, rewritten form (strict inequalities as printed)."""
    t, x = as_rational(tau, "tau"), as_rational(xi, "xi")
    items = set(freqs) | set(domain) | set(release_prob)
    total = ZERO
    for d in items:
        f, p = freqs.get(d, 0), release_prob.get(d, ZERO)
        if f > t + x:
            total += 1 - p
        elif f < t - x:
            total += p
    return total


def inaccuracy_very(release_prob: Mapping[Hashable, Any], freqs: Mapping[Hashable, int], tau: object, xi: object, domain: Iterable[Hashable] = ()) -> Any:
    """Definition 10 read with the text's very-frequent (f >= tau + xi) and very-infrequent (f <= tau - xi)
    items (§6.2.3: "the inability to retain the very-frequent items plus the inability to filter out the
    very-infrequent items"): ``sum_{f_d >= tau+xi} (1 - Pr[d in A(S)]) + sum_{f_d <= tau-xi} Pr[d in A(S)]``."""
    vf = very_frequent(freqs, tau, xi)
    vi = very_infrequent(freqs, tau, xi, set(domain) | set(release_prob))
    return sum((1 - release_prob.get(d, ZERO) for d in vf), ZERO) + sum((release_prob.get(d, ZERO) for d in vi), ZERO)


def inaccuracy_literal(output_dist: Mapping[frozenset, Any], freqs: Mapping[Hashable, int], tau: object, xi: object, domain: Iterable[Hashable] = ()) -> Any:
    """Definition 10 literally: the expected size of the set of wrong items."""
    t, x = as_rational(tau, "tau"), as_rational(xi, "xi")
    items = set(freqs) | set(domain)
    for o in output_dist:
        items |= set(o)
    total = ZERO
    for o, pr in output_dist.items():
        wrong = {d for d in o if freqs.get(d, 0) < t - x} | {d for d in items if d not in o and freqs.get(d, 0) > t + x}
        total += pr * len(wrong)
    return total


def marginals(output_dist: Mapping[frozenset, Any]) -> dict[Hashable, Any]:
    out: dict[Hashable, Any] = {}
    for o, pr in output_dist.items():
        for d in o:
            out[d] = out.get(d, ZERO) + pr
    return out


def is_c_accurate(release_probs_per_input: Iterable[tuple[Mapping[Hashable, int], Mapping[Hashable, Any]]], c: object, tau: object, xi: object) -> bool:
    """Definition 11 over the given inputs: each very-frequent item released w.p. >= c."""
    cc = as_rational(c, "c")
    return all(probs.get(d, ZERO) >= cc for freqs, probs in release_probs_per_input for d in very_frequent(freqs, tau, xi))


def top_j(freqs: Mapping[Hashable, float], j: int) -> list[Hashable]:
    """The j most frequent items (ties broken by item repr for determinism); ``heapq.nsmallest`` is documented
    equivalent to ``sorted(...)[:j]``, in O(n log j)."""
    import heapq

    return heapq.nsmallest(j, freqs, key=lambda d: (-freqs[d], repr(d)))


def top_j_coverage(original: Mapping[Hashable, float], sanitized: Mapping[Hashable, float], j: int) -> float:
    """Fraction of the top-j original items present in the sanitized histogram."""
    top = top_j(original, j)
    return sum(1 for d in top if d in sanitized) / len(top) if top else 0.0


def top_j_precision(original: Mapping[Hashable, float], sanitized: Mapping[Hashable, float], j: int) -> tuple[float, float]:
    """(average L1 distance, KL(original || sanitized)) of relative frequencies over the top-j items.

    Relative frequencies are normalised over the top-j items; a sanitized item missing gets
    frequency 0 (for KL, a floor of 1e-12 keeps the divergence finite and reports the loss).
    """
    top = top_j(original, j)
    so = sum(original[d] for d in top)
    ss = sum(max(sanitized.get(d, 0.0), 0.0) for d in top)
    l1 = kl = 0.0
    for d in top:
        p = original[d] / so
        q = max(sanitized.get(d, 0.0), 0.0) / ss if ss > 0 else 0.0
        l1 += abs(p - q)
        kl += p * math.log(p / max(q, 1e-12))
    return l1 / len(top), kl
