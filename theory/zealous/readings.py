"""Quantities that a second supported reading of a ch. 6 definition needs (000_211156f2009240b4.txt §6.2.3, §6.6.2;
003_755c7aa10ef74058.txt §2.3, §6.2), beside the first reading's in :mod:`privclaims.theory.zealous.utility`:

* Definition 10 read with the text's very-frequent (f_d >= tau + xi) and very-infrequent (f_d <= tau - xi) items,
  literally: the expected size of the set of wrong items ``{d in A(S): f_d <= tau - xi} u {d not in A(S): f_d >= tau + xi}``
  (:func:`inaccuracy_literal_very`; its rewritten sum is :func:`privclaims.theory.zealous.utility.inaccuracy_very`);
* the top-j KL divergence taken the other way, ``KL(q || p) = sum_d q_d ln(q_d / p_d)`` over the top-j original items,
  p the original and q the sanitized relative frequencies normalised over those items (a missing item, q_d = 0,
  contributes 0; undefined, None, when no top-j item is released) (:func:`top_j_kl_reverse`).
"""

from __future__ import annotations

import math
from typing import Any, Hashable, Iterable, Mapping

from privclaims.theory.numbers import ZERO
from privclaims.theory.zealous.utility import top_j, very_frequent, very_infrequent


def inaccuracy_literal_very(output_dist: Mapping[frozenset, Any], freqs: Mapping[Hashable, int], tau: object, xi: object,
                            domain: Iterable[Hashable] = ()) -> Any:
    """Definition 10 with the very-frequent / very-infrequent sets, literally: E|wrong items| over ``output_dist``."""
    items = set(freqs) | set(domain)
    for o in output_dist:
        items |= set(o)
    vf, vi = very_frequent(freqs, tau, xi), very_infrequent(freqs, tau, xi, items)
    total = ZERO
    for o, pr in output_dist.items():
        wrong = {d for d in o if d in vi} | {d for d in vf if d not in o}
        total += pr * len(wrong)
    return total


def top_j_kl_reverse(original: Mapping[Hashable, float], sanitized: Mapping[Hashable, float], j: int) -> float | None:
    """KL(sanitized || original) of the relative frequencies of the top-j original items (None: none released)."""
    top = top_j(original, j)
    so = sum(original[d] for d in top)
    ss = sum(max(sanitized.get(d, 0.0), 0.0) for d in top)
    if not top or ss <= 0:
        return None
    kl = 0.0
    for d in top:
        q = max(sanitized.get(d, 0.0), 0.0) / ss
        if q > 0:
            kl += q * math.log(q / (original[d] / so))
    return kl
