"""Float64 twin of :mod:`privclaims.theory.dp.exact` (same signatures), vectorised over outputs.

Decisions are conservative: ``is_*`` returns True only when rounding cannot have made a
non-private mechanism look private (:mod:`privclaims.theory.floats`). Values (deltas) are float estimates,
upper bounds clipped into [0, 1] (a δ is never reported above 1). Arguments are validated by the
same readers as the exact twin's (:mod:`privclaims.theory.dp.mechanism`), so both twins reject the same inputs.
"""

from __future__ import annotations

from typing import Any, Hashable

import numpy as np

from privclaims.theory.dp.mechanism import FiniteMechanism, check_delta, check_quantifier, checked
from privclaims.theory.floats import RELATIVE_MARGIN, certainly_le, possibly_gt
from privclaims.theory.numbers import Epsilon
from privclaims.theory.validate import clip_unit


def _arrays(mech: FiniteMechanism) -> tuple[dict[Hashable, int], np.ndarray]:
    checked(mech)
    idx = {L: i for i, L in enumerate(mech.inputs)}
    outs = mech.outputs
    P = np.array([[float(mech.pr(L, O)) for O in outs] for L in mech.inputs], dtype=np.float64)
    return idx, P


def _pairs(mech: FiniteMechanism, idx: dict[Hashable, int]) -> tuple[np.ndarray, np.ndarray]:
    a = np.array([idx[L] for L, _ in mech.pairs])
    b = np.array([idx[Lp] for _, Lp in mech.pairs])
    return a, b


def is_differentially_private(mech: FiniteMechanism, eps: object) -> bool:
    idx, P = _arrays(mech)
    a, b = _pairs(mech, idx)
    ee = np.exp(float(Epsilon.of(eps)))
    p, q = P[a], P[b]
    return bool(np.all((p == 0) | certainly_le(p, ee * q)))


def _breach_mask(P: np.ndarray, a: np.ndarray, b: np.ndarray, eps: object) -> np.ndarray:
    """Outputs that may breach, per ordered pair (conservatively: undecided counts as a breach)."""
    ee = np.exp(float(Epsilon.of(eps)))
    p, q = P[a], P[b]
    both_zero = (p == 0) & (q == 0)
    return ~both_zero & (possibly_gt(p, ee * q) | possibly_gt(q, ee * p))


def probabilistic_dp_delta(mech: FiniteMechanism, eps: object, quantifier: str = "pair") -> tuple[float, Any]:
    """Upper estimate of the least delta (breach mass, undecided outputs counted as breaches), clipped to <= 1."""
    check_quantifier(quantifier)
    idx, P = _arrays(mech)
    a, b = _pairs(mech, idx)
    mask = _breach_mask(P, a, b, eps)
    if quantifier == "pair":
        mass = (P[a] * mask).sum(axis=1)
    else:
        union = np.zeros_like(P, dtype=bool)
        np.logical_or.at(union, a, mask)
        mass = (P * union).sum(axis=1)
    return clip_unit(float(mass.max()) * (1 + RELATIVE_MARGIN)), None


def is_probabilistically_private(mech: FiniteMechanism, eps: object, delta: object, quantifier: str = "pair") -> bool:
    bound = float(check_delta(delta))
    d, _ = probabilistic_dp_delta(mech, eps, quantifier)
    return bool(certainly_le(d, bound))


def indistinguishability_delta(mech: FiniteMechanism, eps: object) -> tuple[float, Any]:
    """Upper estimate of the hockey-stick divergence (max over ordered pairs), clipped into [0, 1]."""
    idx, P = _arrays(mech)
    a, b = _pairs(mech, idx)
    ee = np.exp(float(Epsilon.of(eps)))
    h = np.clip(P[a] - ee * P[b], 0.0, None).sum(axis=1)
    return clip_unit(float(h.max())), None


def is_indistinguishable(mech: FiniteMechanism, eps: object, delta: object) -> bool:
    bound = float(check_delta(delta))
    h, _ = indistinguishability_delta(mech, eps)
    return bool(certainly_le(h, bound))
