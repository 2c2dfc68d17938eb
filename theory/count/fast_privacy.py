"""Float64 twin of :mod:`privclaims.theory.count.exact_privacy` (same names and signatures; ``ctx`` ignored).

Decisions are conservative (:func:`privclaims.theory.floats.certainly_le`): where rounding cannot separate
the breach probability from delta, the mechanism is reported NOT private.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from privclaims.theory.errors import InvalidInput
from privclaims.theory.floats import certainly_le
from privclaims.theory.numbers import to_float


def _scalars(**named: object) -> None:
    """The exact twin's ranges on scalar arguments (floats allowed here): eps, sigma2, s > 0; delta in (0, 1)."""
    for name, x in named.items():
        if isinstance(x, np.ndarray):
            continue
        v = to_float(x, name)
        if name == "delta" and not 0 < v < 1:
            raise InvalidInput(f"delta = {v!r} must lie in (0, 1)")
        if name != "delta" and not v > 0:
            raise InvalidInput(f"{name} = {v!r} must be > 0")


def _q(x: Any) -> Any:
    from scipy.special import ndtr

    return ndtr(-np.asarray(x, dtype=float))


def breach_probability(eps: object, sigma2: object, s: object, ctx: Any = None) -> Any:
    _scalars(eps=eps, sigma2=sigma2, s=s)
    e, s2, sv = np.asarray(eps, float) if isinstance(eps, np.ndarray) else to_float(eps), to_float(sigma2), to_float(s)
    sigma = math.sqrt(s2)
    return _q(e * sigma / sv - sv / (2 * sigma)) + _q(e * sigma / sv + sv / (2 * sigma))


def theorem1_breach(eps: object, delta: object, ctx: Any = None) -> Any:
    _scalars(eps=eps, delta=delta)
    e = np.asarray(eps, float) if isinstance(eps, np.ndarray) else to_float(eps)
    d = np.asarray(delta, float) if isinstance(delta, np.ndarray) else to_float(delta)
    eta = e * e / (4 * np.log(4 / d))
    r = np.sqrt(2 * eta)
    return _q((e - eta) / r) + _q((e + eta) / r)


def theorem1_holds(eps: object, delta: object) -> Any:
    d = np.asarray(delta, float) if isinstance(delta, np.ndarray) else to_float(delta)
    return certainly_le(theorem1_breach(eps, delta), d, 1.0)


def is_probabilistically_private(eps: object, delta: object, sigma2: object, s: object = 1) -> Any:
    _scalars(eps=eps, delta=delta, sigma2=sigma2, s=s)
    return certainly_le(breach_probability(eps, sigma2, s), to_float(delta), 1.0)


def proof_bound(eps: object, sigma2: object, s: object, ctx: Any = None) -> float:
    e, s2, sv = to_float(eps), to_float(sigma2), to_float(s)
    sigma = math.sqrt(s2)
    z = e * sigma / sv - sv / (2 * sigma)
    return 2 * math.exp(-e * e * s2 / (2 * sv * sv) + e / 2 - sv * sv / (8 * s2)) / (z * math.sqrt(2 * math.pi))


def omega1_outside_probability(eps: object, sigma2: object, s: object, ctx: Any = None) -> float:
    e, s2, sv = to_float(eps), to_float(sigma2), to_float(s)
    sigma = math.sqrt(s2)
    z = e * sigma / sv
    return float(_q(z) + _q(z - sv / (2 * sigma)))
