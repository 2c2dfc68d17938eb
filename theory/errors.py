"""The one error type for bad input, and the one type for undecidable comparisons."""

from __future__ import annotations


class InvalidInput(ValueError):
    """Bad input: the message names the offending value (and where it came from).

    Raised, never a wrong answer, for e.g. a row that does not sum to 1, a probability
    outside [0, 1], delta <= 0, an empty log, or a malformed log line (with its line number).
    """


class UndecidedComparison(ArithmeticError):
    """Interval arithmetic could not separate two quantities at the maximum precision tried."""
