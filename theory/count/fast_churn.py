"""Monte-Carlo twin of :mod:`privclaims.theory.count.exact_churn`: 1000 seeded queries per (N, p), vectorised.

Per query the number of phases is drawn from the model's exact geometric structure (an all-N phase
succeeds with probability ``u = (1-p)^N``): a failed reuse of the setup costs ``a`` phases, then
``G ~ Geometric(A)`` setup+aggregation rounds follow, each needing ``Geometric(u)`` setup phases
(their sum drawn as ``G + NegBin(G, u)`` via the gamma-Poisson mixture) plus ``a`` aggregation phases.
Geometric draws use the inverse CDF in float64, so astronomically large counts stay finite.
"""

from __future__ import annotations

import math

import numpy as np

from privclaims.theory.count.exact_churn import AGGREGATION_PHASES
from privclaims.theory.errors import InvalidInput


def _geometric(prob: float, size: int, rng: np.random.Generator) -> np.ndarray:
    """Trials until the first success (>= 1), float64, for any prob in (0, 1]."""
    if prob >= 1.0:
        return np.ones(size)
    u = rng.random(size)
    return np.floor(np.log1p(-u) / math.log1p(-prob)) + 1.0


def setup_protocol_phases(protocol: str, n: int, p: float, queries: int = 1000, rng: np.random.Generator | None = None) -> float:
    """Average phases per query over ``queries`` simulated queries (steady state: setup valid at start)."""
    if protocol not in AGGREGATION_PHASES:
        raise InvalidInput(f"unknown protocol {protocol!r}")
    rng = rng or np.random.default_rng(0)
    a = AGGREGATION_PHASES[protocol]
    u = math.exp(n * math.log1p(-p))
    A = u**a
    fail = rng.random(queries) >= A
    g = _geometric(A, queries, rng)
    lam = rng.gamma(np.maximum(g, 1.0), (1.0 - u) / u) if u < 1 else np.zeros(queries)
    extra_setup = np.where(lam < 1e15, rng.poisson(np.minimum(lam, 1e15)), lam)
    cost = a + np.where(fail, g * (1 + a) + extra_setup, 0.0)
    return float(cost.mean())


def count_phases(n: int, p: float, t: float, queries: int = 1000, rng: np.random.Generator | None = None) -> float:
    rng = rng or np.random.default_rng(0)
    need = math.ceil((1 - t) * n)
    total = np.zeros(queries)
    pending = np.ones(queries, bool)
    while pending.any():
        total[pending] += 1
        ok = rng.binomial(n, 1 - p, size=int(pending.sum())) >= need
        idx = np.flatnonzero(pending)
        pending[idx[ok]] = False
    return float(total.mean())
