"""``fractions``: Hypothesis' ``st.fractions`` drawn the same way, without building and validating a strategy per example.

``hypothesis.strategies.fractions(min_value, max_value, max_denominator=D)`` draws a denominator ``d`` (an integer
>= 1, at most D when given) and then, through ``flatmap``, a new ``builds(Fraction, integers(lo, hi), just(d'))`` whose
integer bounds are the ones ``d`` allows; Hypothesis validates each such strategy when it is drawn, which was ~19% of
``test_hostile_generated.py``'s CPU and ~6 CPU s of a suite run (py-spy; issue 25). Here the same two integer choices
are drawn in a composite: the denominator, then the numerator in the same bounds (Hypothesis' ``dm_func`` algebra:
``lo = d * min.numerator * max.denominator / g``, ``hi = d * max.numerator * min.denominator / g``, scaled denominator
``d * min.denominator * max.denominator / g`` with ``g`` their gcd; a one-sided bound scales by its own denominator),
the result reduced to at most D by ``limit_denominator`` when D is given. The values are those of ``st.fractions``
(the same set, bounds included); ``test_fractions_strategy.py`` checks the bounds' algebra and that a seeded run of
each draws the very same sequence of values.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st


def _bounds(lo: Fraction | None, hi: Fraction | None, denom: int) -> tuple[int | None, int | None, int]:
    """Hypothesis' ``dm_func`` algebra: the numerator's bounds and the scaled denominator for a drawn ``denom``."""
    if lo is None and hi is None:
        return None, None, denom
    if lo is None:
        return None, denom * hi.numerator, denom * hi.denominator
    if hi is None:
        return denom * lo.numerator, None, denom * lo.denominator
    low, high, scale = lo.numerator * hi.denominator, hi.numerator * lo.denominator, lo.denominator * hi.denominator
    div = math.gcd(scale, math.gcd(low, high))
    return denom * low // div, denom * high // div, denom * (scale // div)


def fractions(min_value: Any = None, max_value: Any = None, *, max_denominator: int | None = None
              ) -> st.SearchStrategy[Fraction]:
    """Fractions in ``[min_value, max_value]`` (either side open when None), denominators at most ``max_denominator``:
    the arguments and values of ``hypothesis.strategies.fractions``, whose own checks run first."""
    st.fractions(min_value, max_value, max_denominator=max_denominator).validate()  # its argument errors, unchanged
    lo = None if min_value is None else Fraction(min_value)
    hi = None if max_value is None else Fraction(max_value)
    if lo is not None and lo == hi:
        return st.just(lo)
    denominators = st.integers(min_value=1) if max_denominator is None else st.integers(1, max_denominator)

    @st.composite
    def drawn(draw: Any) -> Fraction:
        a, b, d = _bounds(lo, hi, draw(denominators))
        f = Fraction(draw(st.integers(min_value=a, max_value=b)), d)
        return f if max_denominator is None else f.limit_denominator(max_denominator)

    return drawn()
