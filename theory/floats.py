"""Conservative float decisions shared by every fast twin.

A fast twin computes in float64. Where a privacy decision compares two computed quantities
``x <= y`` and rounding could flip it, the fast twin must err toward privacy: report "private"
(or "release") only when ``x <= y`` holds with a margin that covers the accumulated rounding
error. :data:`RELATIVE_MARGIN` is that margin: ``2^-40``, i.e. ~2^13 ulps, generous for the
short sums and products (at most a few thousand terms) the fast twins evaluate.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

RELATIVE_MARGIN = 2.0 ** -40
ABSOLUTE_MARGIN = 2.0 ** -60
UNDERFLOW_FLOOR = 2.0 ** -900
_FLOAT_SCALARS = frozenset({float, np.float64})
"""A float64 probability below this may have lost its relative accuracy to underflow (the normal range
ends at 2^-1022, and a product of probabilities can pass through subnormals or reach 0 while its exact
value is positive). A fast twin that divides by such a value, or reads "is it positive?" off it, must
decide from the exact zero pattern instead and, where that says positive, fall back to the cautious
answer. Dividing a numerator with absolute error ~2^-1074 (times the few thousand operations a fast
twin performs) by a value >= 2^-900 leaves an error far below :data:`RELATIVE_MARGIN`."""


def certainly_le(x: np.ndarray | float, y: np.ndarray | float, scale: np.ndarray | float = 1.0) -> np.ndarray | bool:
    """Elementwise: is ``x <= y`` beyond doubt, given quantities of magnitude ``scale``?

    False where the two are within rounding of each other; callers treat False as "suppress".
    """
    if type(x) in _FLOAT_SCALARS and type(y) in _FLOAT_SCALARS and type(scale) in _FLOAT_SCALARS and scale == scale:
        # the same IEEE operations on scalars without numpy's per-call overhead (a NaN x or y gives False either way)
        return np.bool_(x <= y - (RELATIVE_MARGIN * max(abs(x), abs(y), abs(scale)) + ABSOLUTE_MARGIN))
    mag = np.maximum(np.maximum(np.abs(x), np.abs(y)), np.abs(scale))
    return x <= y - (RELATIVE_MARGIN * mag + ABSOLUTE_MARGIN)


def round_up(x: np.ndarray | float) -> np.ndarray | float:
    """A float certainly >= the real value that ``x`` approximates (a privacy parameter such as a
    noise variance computed in float64 must never come out below its formula): ``x`` plus the margin."""
    return x + (RELATIVE_MARGIN * np.abs(x) + ABSOLUTE_MARGIN)


def upper_bound(x: float, scale: float = 1.0) -> Fraction:
    """The exact rational ``x + RELATIVE_MARGIN·max(|x|, |scale|) + ABSOLUTE_MARGIN``: what the float decisions assume
    the real value that ``x`` approximates (a quantity of magnitude ``scale``) is at most - :func:`certainly_le`'s
    margin, added in exact arithmetic. A float twin's privacy level is shown as this bound, never as ``x`` itself,
    which may sit below the real value (a gain that is a difference of probabilities near 1 keeps only the absolute
    accuracy of those probabilities)."""
    if not math.isfinite(x) or not math.isfinite(scale):
        raise ValueError(f"upper_bound({x!r}, {scale!r}): finite floats only")
    return (Fraction(x) + Fraction(RELATIVE_MARGIN) * max(abs(Fraction(x)), abs(Fraction(scale)))
            + Fraction(ABSOLUTE_MARGIN))


def possibly_gt(x: np.ndarray | float, y: np.ndarray | float, scale: np.ndarray | float = 1.0) -> np.ndarray | bool:
    """The complement of :func:`certainly_le`: ``x > y`` cannot be ruled out."""
    le = certainly_le(x, y, scale)
    return np.bool_(not le) if type(le) is np.bool_ else np.logical_not(le)


def probability_float(x: object) -> float:
    """``float(x)`` for an exact probability, but strictly inside (0, 1) when x is: the float nearest
    below 1 or the smallest positive float where rounding would reach 1 or 0. Whether a probability is
    0, 1 or in between decides which events are possible; rounding must not change that."""
    f = float(x)
    if f == 1.0 and x != 1:
        return float(np.nextafter(1.0, 0.0))
    if f == 0.0 and x != 0:
        return float(np.nextafter(0.0, 1.0))
    return f


def max_keeping_nan(a: float, b: float) -> float:
    """max(a, b) that keeps a NaN from either side: Python's ``max(a, nan)`` returns ``a``, which would hide a NaN
    gain from the test that makes a fast twin's decision conservative (a NaN gain suppresses)."""
    return b if (b != b or b > a) else a
