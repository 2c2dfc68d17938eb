"""Exact numbers: the one rational type, parsing, validation and rigorous decisions.

Every exact twin computes with :data:`Q`, an exact rational type. It is ``gmpy2.mpq`` when
gmpy2 is installed (measured ~3x faster than :class:`fractions.Fraction` on a belief
recursion; see ``benchmarks/foundation.py``) and :class:`fractions.Fraction` otherwise, or when
``PRIVCLAIMS_RATIONAL=fraction`` is set. Both are :class:`numbers.Rational`, compare and hash
consistently with each other and with ``int``.

Verdicts never depend on a float comparison. Quantities such as ``e^eps * q`` for rational
``eps`` are irrational (Lindemann: ``e^r`` is transcendental for rational ``r != 0``), so we
decide ``p <= e^eps * q`` with interval arithmetic (``mpmath.iv``), raising precision until the
interval excludes zero (:func:`rigorous_sign`). When ``e^eps`` is itself rational (``eps = ln r``,
see :class:`Epsilon`), the comparison is plain rational arithmetic.
"""

from __future__ import annotations

import math
import numbers
import os
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping

import mpmath

from privclaims.theory.errors import InvalidInput, UndecidedComparison

try:  # pragma: no cover - depends on the environment
    if os.environ.get("PRIVCLAIMS_RATIONAL", "").lower() == "fraction":
        raise ImportError("Fraction requested")
    import gmpy2

    Q: Any = gmpy2.mpq
    RATIONAL_BACKEND = "gmpy2.mpq"
except ImportError:  # pragma: no cover
    Q = Fraction
    RATIONAL_BACKEND = "fractions.Fraction"

ZERO = Q(0)
ONE = Q(1)

_RATIONAL_RE = re.compile(r"^\s*([+-]?\d+)\s*/\s*(\d+)\s*$")
_DECIMAL_RE = re.compile(r"^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$")


_EXACT_TYPES = frozenset({int, Fraction, Q})


def is_rational(x: object) -> bool:
    """True for ints and exact rationals (Fraction, mpq); False for floats and bools."""
    if type(x) in _EXACT_TYPES:  # the common exact types, without the ABC check (bool's type is bool: not here)
        return True
    return isinstance(x, numbers.Rational) and not isinstance(x, bool) or type(x).__name__ == "mpq"


DIGIT_LIMIT = 4300
"""A decimal's exponent and a numeral's digits are at most this (Python's own limit for ``int(str)``): ``1e-300``
is read, ``1e999999999`` (10^999999999, a gigabyte of digits) is refused instead of hanging."""


def _exact_decimal(d: Decimal, name: str) -> Any:
    if not d.is_finite():
        raise InvalidInput(f"{name}: expected a finite number, got {d}")
    sign, digits, exp = d.as_tuple()
    if abs(int(exp)) > DIGIT_LIMIT or len(digits) > DIGIT_LIMIT:
        raise InvalidInput(f"{name} = {str(d)[:30]}: more than {DIGIT_LIMIT} digits or an exponent beyond 10^±{DIGIT_LIMIT}")
    return Q(Fraction(d))


def as_rational(x: object, name: str = "value", *, allow_float: bool = False) -> Any:
    """Convert ``x`` to :data:`Q` exactly.

    Accepts ints, Fractions, mpq, :class:`~decimal.Decimal` (a JSON number read with ``parse_float=Decimal``)
    and strings ``"p/q"``, ``"3"``, ``"0.25"``, ``"1e-3"`` (decimals are read exactly: ``"0.1"`` is 1/10;
    exponents and digit counts up to :data:`DIGIT_LIMIT`). Floats are refused unless ``allow_float`` (then
    converted exactly, ``0.1`` becoming 3602879701896397/36028797018963968), because a float typed by a
    user rarely means its binary value.
    """
    if type(x) is Q:  # already exact and of the one rational type: Q(x) would be an equal copy (immutable)
        return x
    if isinstance(x, bool):
        raise InvalidInput(f"{name}: expected a number, got the bool {x!r}")
    if type(x) is Fraction and type(x.numerator) is not int:  # Fraction(mpq) keeps mpz parts, which mpq(x) refuses
        return Q(int(x.numerator), int(x.denominator))
    if is_rational(x):  # another type's rational (a numpy integer: mpq refuses it) by its numerator and denominator
        return Q(x) if type(x) in _EXACT_TYPES or type(x).__name__ == "mpq" else Q(int(x.numerator), int(x.denominator))
    if isinstance(x, Decimal):
        return _exact_decimal(x, name)
    if isinstance(x, numbers.Real) and hasattr(x, "as_integer_ratio"):  # float, and numpy's floats of any width
        if not math.isfinite(x):
            raise InvalidInput(f"{name}: expected a finite number, got {x!r}")
        if not allow_float:
            raise InvalidInput(
                f"{name}: got the float {x!r}; give an exact value such as '{Fraction(float(x)).limit_denominator(10**6)}'"
            )
        return Q(*x.as_integer_ratio())
    if isinstance(x, str):
        m = _RATIONAL_RE.match(x)
        if m:
            if len(m.group(1)) > DIGIT_LIMIT or len(m.group(2)) > DIGIT_LIMIT:
                raise InvalidInput(f"{name} = {x[:30]!r}...: more than {DIGIT_LIMIT} digits")
            den = int(m.group(2))
            if den == 0:
                raise InvalidInput(f"{name}: zero denominator in {x!r}")
            return Q(int(m.group(1)), den)
        if _DECIMAL_RE.match(x):
            return _exact_decimal(Decimal(x.strip()), name)
        raise InvalidInput(f"{name}: cannot read {x!r} as an exact rational (use 'p/q' or a decimal)")
    raise InvalidInput(f"{name}: expected a rational number, got {type(x).__name__} {x!r}")


def to_float(x: object, name: str = "value") -> float:
    """``float`` of an exactly-read number (accepts the same inputs as :func:`as_rational`, and floats)."""
    if isinstance(x, float):
        if not math.isfinite(x):
            raise InvalidInput(f"{name}: expected a finite number, got {x!r}")
        return x
    return float(as_rational(x, name))


def _int_text(n: int) -> str:
    """All decimal digits of an integer of any size (``str`` refuses more than 4,300 of them, which made the
    exact result of a valid input a traceback)."""
    return str(n) if n.bit_length() < 14_000 else str(Decimal(n))  # an integral Decimal prints every digit


def rational_str(q: object) -> str:
    """``"p/q"`` (or ``"p"`` for integers): the JSON form of an exact rational, of any size."""
    f = Fraction(int(q.numerator), int(q.denominator))  # type: ignore[attr-defined]
    return _int_text(f.numerator) if f.denominator == 1 else f"{_int_text(f.numerator)}/{_int_text(f.denominator)}"


def probability(x: object, name: str = "probability") -> Any:
    """An exact rational in [0, 1], or :class:`InvalidInput` naming it."""
    q = as_rational(x, name)
    if q < 0 or q > 1:
        raise InvalidInput(f"{name} = {rational_str(q)} is outside [0, 1]")
    return q


def positive(x: object, name: str = "value") -> Any:
    """An exact rational > 0."""
    q = as_rational(x, name)
    if q <= 0:
        raise InvalidInput(f"{name} = {rational_str(q)} must be > 0")
    return q


def in_open_unit(x: object, name: str = "delta") -> Any:
    """An exact rational in (0, 1) (e.g. the delta of delta-privacy)."""
    q = as_rational(x, name)
    if q <= 0 or q >= 1:
        raise InvalidInput(f"{name} = {rational_str(q)} must lie in (0, 1)")
    return q


def distribution(weights: Mapping[Any, object] | Iterable[object], name: str = "distribution") -> Any:
    """Validate an exact probability distribution; returns the same container shape with Q values.

    Every entry must be in [0, 1] and the entries must sum to exactly 1.
    """
    if isinstance(weights, Mapping):
        out = {k: probability(v, f"{name}[{k!r}]") for k, v in weights.items()}
        values = list(out.values())
    else:
        out = [probability(v, f"{name}[{i}]") for i, v in enumerate(weights)]
        values = out
    if not values:
        raise InvalidInput(f"{name} is empty")
    total = sum(values, ZERO)
    if total != 1:
        raise InvalidInput(f"{name} sums to {rational_str(total)}, not 1")
    return out


# --------------------------------------------------------------------------- rigorous decisions


def to_interval(q: object, ctx: Any = None) -> Any:
    """Enclose an exact rational in an mpmath interval at the context's current precision."""
    ctx = ctx or mpmath.iv
    r = Q(q)
    return ctx.mpf(int(r.numerator)) / ctx.mpf(int(r.denominator))


def enclose(f: Callable[[Any], Any], prec: int = 256) -> Any:
    """``f(mpmath.iv)`` evaluated at ``prec`` bits, the context's precision restored afterwards."""
    old = mpmath.iv.prec
    mpmath.iv.prec = prec
    try:
        return f(mpmath.iv)
    finally:
        mpmath.iv.prec = old


FLOAT_FILTER_MARGIN = 1e-9


def float_filter_sign_of_diff(p: Fraction, q: Fraction, eps: Fraction) -> int | None:
    """The sign of ``p - e^eps q`` from floats when they decide it with certainty, else None (then decide rigorously).

    With ``|eps| <= 700``, ``p`` zero or a normal float in ``(1e-300, 1e300)`` and so ``q`` and ``e^eps q``: ``float`` of a
    rational is correctly rounded (relative error <= 2^-53), ``float(eps)`` is off by <= |eps| 2^-53 (a factor
    e^{±|eps| 2^-53} on e^eps), ``math.exp`` and the product add <= 2 ulps: each of ``a = float(p)`` and
    ``b = exp(float(eps)) float(q)`` is within a relative (|eps| + 5) 2^-52 < 1e-12 of its true value, so
    ``|(a - b) - (p - e^eps q)| < 1.01e-12 (|a| + |b|)`` and a float difference beyond ``1e-9 (|a| + |b|)`` has the
    true sign. Property-tested against :func:`rigorous_sign` (property_tests/test_numbers_float_filter.py)."""
    if abs(eps) > 700:
        return None
    try:
        a, qf = float(p), float(q)
    except OverflowError:  # beyond the float range: decide rigorously
        return None
    return _decided_by_floats(p, a, qf, math.exp(float(eps)))


def _decided_by_floats(p: Any, a: float, qf: float, factor: float) -> int | None:
    """The two filters' last step: the sign of ``a - factor qf`` (a = float(p)) when every float is normal (or a and p
    both zero) and the difference exceeds the margin, else None."""
    if (a == 0) != (p == 0) or (a != 0 and not 1e-300 < abs(a) < 1e300) or not 1e-300 < abs(qf) < 1e300:
        return None
    b = factor * qf
    if not 1e-300 < abs(b) < 1e300:
        return None
    d = a - b
    if abs(d) > FLOAT_FILTER_MARGIN * (abs(a) + abs(b)):
        return 1 if d > 0 else -1
    return None


def float_filter_sign_of_rational_diff(p: Fraction, q: Fraction, r: Fraction) -> int | None:
    """The sign of ``p - r q`` (all three rational) from floats when they decide it with certainty, else None (then
    decide exactly). With ``p`` zero or a normal float in ``(1e-300, 1e300)`` and so ``q``, ``r`` and ``r q``: ``float``
    of a rational is within one ulp (a relative 2^-52: correctly rounded for Fraction, at worst truncated by GMP) and
    the product is correctly rounded, so ``a = float(p)`` is within a relative 2^-52 of p and ``b = float(r) float(q)``
    within a relative 2.6 2^-52 of r q; then ``|(a - b) - (p - r q)| < 1e-15 (|a| + |b|)`` and a float difference
    beyond ``1e-9 (|a| + |b|)`` has the true sign. The exact difference of rationals with thousands
    of digits costs tens of microseconds; the floats, one. Property-tested against the exact sign
    (property_tests/test_numbers_float_filter.py)."""
    try:
        a, qf, rf = float(p), float(q), float(r)
    except OverflowError:  # beyond the float range: decide exactly
        return None
    return _decided_by_floats(p, a, qf, rf) if 1e-300 < abs(rf) < 1e300 else None


def rigorous_sign(f: Callable[[Any], Any], *, start_prec: int = 64, max_prec: int = 1 << 14) -> int:
    """The sign (-1, 0, +1) of the real number that ``f(iv)`` encloses.

    ``f`` receives ``mpmath.iv`` and must build its result with interval operations only
    (``to_interval`` for rationals). Precision is raised 4x at a time until the interval excludes
    0; an interval that is exactly ``[0, 0]`` means 0. Raises :class:`UndecidedComparison` if the
    interval still straddles 0 at ``max_prec`` bits (for a true zero with irrational parts, decide
    symbolically instead).
    """
    ctx = mpmath.iv
    old = ctx.prec
    prec = start_prec
    try:
        while prec <= max_prec:
            ctx.prec = prec
            v = f(ctx)
            lo, hi = v.a, v.b
            if lo > 0:
                return 1
            if hi < 0:
                return -1
            if lo == 0 and hi == 0:
                return 0
            prec *= 4
    finally:
        ctx.prec = old
    raise UndecidedComparison(f"interval still contains 0 at {max_prec} bits: [{lo}, {hi}]")


def enclosure_bounds(f: Callable[[Any], Any], prec: int = 128, max_exponent: int = 4096) -> tuple[Any, Any]:
    """Exact dyadic rationals ``(lo, hi)`` with ``lo <= x <= hi`` for the real number x that ``f(iv)``
    encloses, computed at ``prec`` bits (the ends of the interval, read exactly). Ends beyond
    ``2^max_exponent`` raise :class:`UndecidedComparison`; ends below ``2^-(max_exponent + 1)`` in magnitude (an
    end of ``bc`` bits and exponent ``e`` with ``bc + e < -max_exponent``) are widened to 0 or ``±2^-max_exponent``
    on the safe side, so the rationals stay of bounded size; ends from ``2^-(max_exponent + 1)`` up are kept exactly."""
    ctx = mpmath.iv
    old, ctx.prec = ctx.prec, prec
    try:
        v = f(ctx)
    finally:
        ctx.prec = old

    def end(t: tuple, upper: bool) -> Any:
        sign, man, e, bc = t
        if not man and e:  # mpmath's encoding of +-inf and nan
            raise UndecidedComparison(f"enclosure [{v.a}, {v.b}] is not finite")
        if not man:
            return Q(0)
        if bc + e > max_exponent:
            x = int(bc + e)  # at ε = 10^4000 an exponent of 13,000 bits: its digits would fill the user's error line
            shown = str(x) if x.bit_length() <= 64 else f"(an exponent of {x.bit_length():,} bits)"
            raise UndecidedComparison(f"enclosure end {'-' if sign else ''}2^{shown} is beyond 2^{max_exponent}")
        if bc + e < -max_exponent:  # |end| < 2^(bc+e) <= 2^-(max_exponent+1): widen to 0 or +-2^-max_exponent
            tiny = Q(1, 1 << max_exponent)  # built only here: 2^max_exponent has max_exponent + 1 bits (2^20 for evidence)
            if upper:
                return Q(0) if sign else tiny
            return -tiny if sign else Q(0)
        return (-1 if sign else 1) * Q(int(man)) * Q(2) ** int(e)

    lo, hi = v._mpi_
    return end(lo, False), end(hi, True)


def round_up_to_grid(x: object, grid: int) -> Any:
    """The least multiple of ``1/grid`` that is ``>= x`` (exact): ``ceil(x * grid) / grid``."""
    y = Q(x) * grid
    return Q(-((-y.numerator) // y.denominator), grid)


def round_down_to_grid(x: object, grid: int) -> Any:
    """The greatest multiple of ``1/grid`` that is ``<= x`` (exact): ``floor(x * grid) / grid``."""
    y = Q(x) * grid
    return Q(y.numerator // y.denominator, grid)


def upper_rational(f: Callable[[Any], Any], grid: int = 1000, prec: int = 128, max_exponent: int = 4096) -> Any:
    """A rational on the ``1/grid`` grid that is never below the real number ``f(iv)`` encloses: the
    enclosure's upper end rounded up to the grid (so a threshold rendered this way errs on the safe side).
    ``max_exponent`` as in :func:`enclosure_bounds`."""
    return round_up_to_grid(enclosure_bounds(f, prec, max_exponent)[1], grid)


def lower_rational(f: Callable[[Any], Any], grid: int = 1000, prec: int = 128) -> Any:
    """A rational on the ``1/grid`` grid that is never above the real number ``f(iv)`` encloses."""
    return round_down_to_grid(enclosure_bounds(f, prec)[0], grid)


def certainly_le(lhs: Callable[[Any], Any], rhs: Callable[[Any], Any], **kw: int) -> bool:
    """Decide ``lhs <= rhs`` rigorously (both given as interval-building functions of ``iv``)."""
    return rigorous_sign(lambda c: rhs(c) - lhs(c), **kw) >= 0


@dataclass(frozen=True)
class Epsilon:
    """An exact privacy parameter eps >= 0.

    Either ``eps`` itself is rational (``Epsilon(Q(1,2))``), or ``e^eps`` is
    (``Epsilon.from_exp(3)`` means eps = ln 3). Comparisons of the form ``p <= e^eps * q`` are then
    exact or rigorously decided; never by floats.
    """

    value: Any = None  # eps, when rational
    exp_value: Any = None  # e^eps, when rational

    def __post_init__(self) -> None:
        if (self.value is None) == (self.exp_value is None):
            raise InvalidInput("Epsilon: give exactly one of eps or e^eps")
        if self.value is not None:
            object.__setattr__(self, "value", as_rational(self.value, "eps"))
            if self.value < 0:
                raise InvalidInput(f"eps = {rational_str(self.value)} must be >= 0")
            if self.value == 0:  # e^0 = 1 is rational: keep both
                object.__setattr__(self, "exp_value", ONE)
        else:
            object.__setattr__(self, "exp_value", as_rational(self.exp_value, "e^eps"))
            if self.exp_value < 1:
                raise InvalidInput(f"e^eps = {rational_str(self.exp_value)} must be >= 1 (eps >= 0)")
            if self.exp_value == 1:
                object.__setattr__(self, "value", ZERO)

    @classmethod
    def of(cls, x: object) -> "Epsilon":
        """Read ``1/2``, ``"1/2"``, ``"ln(3)"``, ``"ln 3/2"`` or an :class:`Epsilon`."""
        if isinstance(x, Epsilon):
            return x
        if isinstance(x, str) and x.strip().startswith("ln"):
            inner = x.strip()[2:].strip().strip("()")
            return cls(exp_value=as_rational(inner, "e^eps"))
        return cls(value=as_rational(x, "eps"))

    @classmethod
    def from_exp(cls, r: object) -> "Epsilon":
        return cls(exp_value=r)

    @property
    def exp_is_rational(self) -> bool:
        return self.exp_value is not None

    def exp_interval(self, ctx: Any) -> Any:
        if self.exp_value is not None:
            return to_interval(self.exp_value, ctx)
        return ctx.exp(to_interval(self.value, ctx))

    def interval(self, ctx: Any) -> Any:
        if self.value is not None:
            return to_interval(self.value, ctx)
        return ctx.log(to_interval(self.exp_value, ctx))

    def sign_of_diff(self, p: object, q: object) -> int:
        """Sign of ``p - e^eps * q`` for exact rationals p, q: exact, or rigorous."""
        p, q = Q(p), Q(q)
        if self.exp_value is not None:
            fast = float_filter_sign_of_rational_diff(p, q, self.exp_value)
            if fast is not None:
                return fast
            d = p - self.exp_value * q
            return (d > 0) - (d < 0)
        if q == 0:
            return (p > 0) - (p < 0)
        # eps rational and != 0, q != 0: e^eps * q is irrational, so the sign is never 0.
        fast = float_filter_sign_of_diff(p, q, self.value)
        if fast is not None:
            return fast
        return rigorous_sign(lambda c: to_interval(p, c) - self.exp_interval(c) * to_interval(q, c))

    def __float__(self) -> float:
        if self.value is not None:
            return float(self.value)
        return math.log(float(self.exp_value))

    def __str__(self) -> str:
        if self.value is not None:
            return rational_str(self.value)
        return f"ln({rational_str(self.exp_value)})"


@dataclass(frozen=True)
class ExpLinear:
    """The exact real number ``a - e^eps * b`` (a, b rational): e.g. a hockey-stick divergence."""

    a: Any
    b: Any
    eps: Epsilon

    def sign_minus(self, delta: object) -> int:
        """Sign of ``(a - e^eps b) - delta``."""
        return self.eps.sign_of_diff(Q(self.a) - Q(delta), self.b)

    def le(self, delta: object) -> bool:
        return self.sign_minus(delta) <= 0

    def __float__(self) -> float:
        return float(self.a) - math.exp(float(self.eps)) * float(self.b)

    def __str__(self) -> str:
        if self.eps.exp_is_rational or Q(self.b) == 0:
            return rational_str(Q(self.a) - (Q(0) if Q(self.b) == 0 else self.eps.exp_value * Q(self.b)))
        return f"{rational_str(self.a)} - e^({self.eps})*{rational_str(self.b)}"
