"""Comparing a printed decimal (``"3.2e-3"``, ``"78.6"``) with a computed real, rigorously.

A printed number with d significant digits stands for the interval [v - u/2, v + u/2] (u one unit
in its last digit). :func:`rounds_to` decides whether the computed real (given as a function of an
mpmath context, enclosed with ``mpmath.iv``) lies in that interval; it never decides by a float.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Callable

import mpmath

from privclaims.theory.numbers import Q, enclose, to_interval


def rounding_interval(printed: str) -> tuple[Any, Any]:
    d = Decimal(printed)
    exp = d.as_tuple().exponent
    half = Q(1, 2) * Q(10) ** exp if exp >= 0 else Q(1, 2) / Q(10) ** (-exp)
    v = Q(str(d.normalize()) if "E" not in str(d.normalize()) else str(d))
    return v - half, v + half


def rounds_to(f: Callable[[Any], Any], printed: str, prec: int = 256) -> bool:
    """Does the real enclosed by ``f(iv)`` round to ``printed`` (to its number of digits)?"""
    lo, hi = rounding_interval(printed)

    def inside(k: Any) -> bool:
        v = f(k)
        return bool(v.a >= to_interval(lo, k).b and v.b < to_interval(hi, k).a)

    return enclose(inside, prec)


def approx(f: Callable[[Any], Any], digits: int = 3) -> str:
    """A short decimal of the computed value for the evidence (mp context, 40 digits)."""
    with mpmath.workdps(40):
        return mpmath.nstr(f(mpmath.mp), digits)
