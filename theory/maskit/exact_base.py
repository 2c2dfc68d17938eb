"""The rational base of MaskIt's exact twin: the vector-matrix product with its operation count, and the
priors of Proposition 1.

Sources: 000_211156f2009240b4.txt §3.3-§3.4.5 (= 001_eb11505ae1399b83.txt §3-§4).

* :class:`OpCount` - the instrumentation of the complexity claims (beliefs, multiply-adds, cache skips).
* :func:`vec_mat` - ``v A`` in rationals, counting ``n^2`` multiply-adds per product.
* :func:`prior_beliefs` - Proposition 1: ``Pr[X_t = c_i] = (A^(1) ... A^(t))_i``, memoised on the chain.

Both :mod:`privclaims.theory.maskit.exact` and :mod:`privclaims.theory.maskit.partial_outputs` (and through it the float
filter of Algorithm 3) stand on these; :mod:`privclaims.theory.maskit.exact` re-exports them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from privclaims.theory.maskit.model import MarkovChain
from privclaims.theory.numbers import ZERO


@dataclass
class OpCount:
    """Instrumentation for the complexity claims: beliefs computed and multiply-adds performed."""

    beliefs: int = 0
    mult_adds: int = 0
    skipped_by_cache: int = 0
    is_private_calls: int = 0


def prior_beliefs(chain: MarkovChain) -> list[list[Any]]:
    """Proposition 1: row ``t - 1`` is the distribution of X_t (t = 1..T)."""
    memo = chain.memo_get("exact.prior")
    if memo is not None:
        return memo
    rows = [list(chain.initial)]
    for t in range(2, chain.T + 1):
        prev = rows[-1]
        rows.append(vec_mat(prev, chain.steps[t - 2]))
    chain.memo_set("exact.prior", rows)
    return rows


def vec_mat(v: Sequence[Any], m: Sequence[Sequence[Any]], ops: OpCount | None = None) -> list[Any]:
    """``v m`` for a vector v and a matrix m of rationals (zero entries skipped); ``ops`` counts ``len(v) · n``
    multiply-adds, the dense count of the complexity claims."""
    n = len(m[0]) if m else 0
    out = [ZERO] * n
    for i, vi in enumerate(v):
        if vi:
            row = m[i]
            for j in range(n):
                if row[j]:
                    out[j] += vi * row[j]
    if ops is not None:
        ops.mult_adds += len(v) * n
    return out
