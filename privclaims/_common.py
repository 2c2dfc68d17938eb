"""Shared plumbing of the public API: exact renderings, format parsing, size guards, progress.

Nothing here is privacy math; it reads user files into the validated objects of ``theory/`` and
renders exact results. Every problem with an input raises :class:`privclaims.theory.errors.InvalidInput`
with a message naming the file/field, the offending value and the rule it breaks.
"""

from __future__ import annotations

import contextlib
import json
import math
import sys
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from privclaims.theory.errors import InvalidInput, UndecidedComparison
from privclaims.theory.numbers import Q, as_rational, enclosure_bounds, is_rational, rational_str

__all__ = [
    "InvalidInput", "exact", "readable", "decimal", "magnitude", "decimal_up", "enclosed_decimal_up", "number_json", "jsonable", "Floats",
    "read_rational", "read_distribution", "guard", "shown", "expect", "as_path", "check_choice", "check_flag",
    "check_seed", "check_int", "check_floats", "progress", "progress_bar",
]

DIGITS = 6


def exact(q: Any) -> str:
    """The exact rational as ``"p/q"`` (or ``"p"``), of any size."""
    return rational_str(q)


SCIENTIFIC_BELOW = Fraction(1, 10**4)
"""Non-zero values of smaller magnitude print in scientific notation (``3.2e-12``, ``1e-300``): never
rounded to a fixed number of places, which showed δ = 10^-300 as 0.00000001."""

SCIENTIFIC_FROM = 10**21
"""Values of at least this magnitude print in scientific notation too (``1.5e+7818``, not 7,819 digits)."""


def _round_div(num: int, den: int, rounding: str) -> int:
    """``num / den`` (den > 0) rounded to an integer: half away from zero, up (towards +infinity) or down."""
    if rounding == "up":
        return -((-num) // den)
    if rounding == "down":
        return num // den
    n, r = divmod(abs(num), den)
    if 2 * r >= den:
        n += 1
    return -n if num < 0 else n


def _round(f: Fraction, rounding: str) -> int:
    """``f`` rounded to an integer: half away from zero, up (towards +infinity) or down."""
    return _round_div(f.numerator, f.denominator, rounding)


def _exponent(p: int, q: int) -> int:
    """``floor(log10(p / q))`` for positive integers, by integer comparisons only (no digit strings)."""
    e = int((p.bit_length() - q.bit_length()) * 0.30102999566398120)  # within 1 of the answer
    while (p if e >= 0 else p * 10 ** -e) < (q * 10**e if e >= 0 else q):
        e -= 1
    while (p if e + 1 >= 0 else p * 10 ** -(e + 1)) >= (q * 10 ** (e + 1) if e + 1 >= 0 else q):
        e += 1
    return e


def _scientific(f: Fraction, digits: int, rounding: str) -> str:
    """``f`` (non-zero) as ``m.mmmmme-N`` (``m.mmmmme+N`` when large) with ``digits`` significant digits,
    rounded as asked; integer arithmetic only, so a value of any size prints."""
    p, q = f.numerator, f.denominator
    e = _exponent(abs(p), q)
    k = digits - 1 - e  # n = f * 10^k rounded has `digits` digits
    n = _round_div(p * 10**k, q, rounding) if k >= 0 else _round_div(p, q * 10 ** -k, rounding)
    if abs(n) >= 10**digits:  # rounding carried into a new digit: 9.999995e-5 -> 1e-4
        n, e = _round_div(n, 10, rounding), e + 1
    m = str(abs(n))
    mant = (m[0] + ("." + m[1:]).rstrip("0")).rstrip(".")
    return f"{'-' if n < 0 else ''}{mant}e{'+' if e > 0 else ''}{e}"


def decimal(q: Any, digits: int = DIGITS, rounding: str = "half") -> str:
    """A decimal rendering of an exact rational at its true magnitude: ``digits`` places for values of
    magnitude in [max(10^-4, 10^-digits), 10^21), and ``digits`` significant digits in scientific notation
    outside (``1e-300``, ``3.2e-12``, ``1.5e+7818``; with 3 places 0.0004 is ``4e-4``, never ``0``, and 0.0001
    rounded up is ``1e-4``, never ``0.001``): a non-zero value never prints as 0 or at another magnitude. ``rounding``: ``"half"`` (half away from zero, for values that are not
    privacy thresholds), ``"up"`` (towards +infinity: for a least δ, least ε, largest gain or breach
    probability, so that a user who copies the decimal never asks for less privacy than the exact value
    needs) or ``"down"`` (towards -infinity)."""
    if rounding not in ("half", "up", "down"):
        raise InvalidInput(f"rounding = {rounding!r}: choose from half, up, down")
    f = Fraction(int(q.numerator), int(q.denominator))
    if f != 0 and (abs(f) < max(SCIENTIFIC_BELOW, Fraction(1, 10**max(digits, 0))) or abs(f) >= SCIENTIFIC_FROM):
        return _scientific(f, max(digits, 1), rounding)
    n = _round(f * 10**digits, rounding)
    sign = "-" if n < 0 else ""
    s = str(abs(n)).rjust(digits + 1, "0")
    out = f"{sign}{s[:-digits]}.{s[-digits:]}".rstrip("0").rstrip(".") if digits else f"{sign}{s}"
    return "0" if out in ("", "-0") else out


def readable(q: Any, width: int = 30) -> str:
    """The exact value when it is short (``1/1000``), else its decimal at the true magnitude (``1e-300``,
    prefixed ``≈`` when the decimal is not exact)."""
    e = exact(q)
    if len(e) <= width:
        return e
    d = decimal(q)
    return d if Q(as_rational(d)) == Q(q) else f"≈ {d}"


EXACT_WIDTH = 40
"""A line of a report prints an exact rational whole up to this many characters; a longer one (at ε = 1e-4000, λ has
4,004 digits) prints as its rounded decimal and its size, and the JSON report keeps it whole."""


_ROUNDED = {"half": "rounded", "up": "rounded up", "down": "rounded down"}


def exact_or_decimal(q: Any, rounding: str = "half", digits: int = 8, width: int = EXACT_WIDTH) -> str:
    """The exact rational (``"p/q"``) when its text is at most ``width`` characters, else its decimal rounded as asked
    and the exact value's size: ``"6e+4000 (rounded up; exact: 4,001 characters, in --json)"``. ``"up"`` for a
    parameter, a bound or a privacy loss a user may copy (never on the less private side of the exact value)."""
    e = exact(q)
    if len(e) <= width:
        return e
    return f"{decimal(q, digits, rounding)} ({_ROUNDED[rounding]}; exact: {len(e):,} characters, in --json)"


def exact_and_decimal(q: Any, rounding: str = "half", digits: int = DIGITS, width: int = EXACT_WIDTH) -> str:
    """``"p/q ≈ d"``: the exact rational and its decimal rounded as asked; a long one as :func:`exact_or_decimal`."""
    e = exact(q)
    return f"{e} ≈ {decimal(q, digits, rounding)}" if len(e) <= width else exact_or_decimal(q, rounding, digits, width)


def magnitude(q: Any) -> str:
    """:func:`decimal` with the default digits (a value shown for reading, at its true magnitude)."""
    return decimal(q, DIGITS)


def decimal_up(q: Any, digits: int = DIGITS) -> str:
    """:func:`decimal` rounded towards +infinity (the safe side for a least δ / ε or a leak)."""
    return decimal(q, digits, "up")


ENCLOSURE_EXPONENT = 2**20
"""Enclosure ends are kept exactly down to 2^-(2^20 + 1) ≈ 7.4·10^-315654 and up to 2^(2^20) in magnitude (the
default 2^±4096 showed a δ of 10^-3000 as 9.57e-1234, and refused a δ′ of 10^7818 as an internal error)."""


ENCLOSURE_MAX_PREC = 1 << 14
"""The largest precision (bits) :func:`enclosed_decimal_up` refines to."""


def _is_widened_upper_end(up: Any) -> bool:
    """Whether ``up`` is ``2^-ENCLOSURE_EXPONENT``, the end :func:`enclosure_bounds` widens a smaller upper end to.
    Compared by its parts: the number itself has a 2^20-bit denominator, and building it with ``2**`` took ~3 ms a
    call (issue 25: most of what a property search of ``dp.check`` spent on each drawn mechanism)."""
    d = up.denominator  # the bit length first: comparing with the 2^20-bit 1 << ENCLOSURE_EXPONENT converts it (mpq)
    return up.numerator == 1 and d.bit_length() == ENCLOSURE_EXPONENT + 1 and d == 1 << ENCLOSURE_EXPONENT


def enclosed_decimal_up(f: Callable[[Any], Any], digits: int = DIGITS, at_most: Any = None) -> str:
    """The decimal, rounded up (as :func:`decimal_up`), of an irrational real given as an ``mpmath.iv``
    enclosure ``f``: the enclosure is refined (256, 1024, ... up to 2^14 bits) until both its ends round up to
    the same decimal, which is then the real's decimal rounded up, exactly; if 2^14 bits do not separate them,
    the upper end's (never below the real value, one unit of the last digit above at most). When the upper end
    was widened to 2^-(2^20) (the value is below 2^-(2^20 + 1)) it says ``< 2^-1048576``. ``at_most`` caps it at a
    known upper limit (1 for a probability: the enclosure of a probability near 1 can poke above)."""
    prec = 256
    while True:  # the upper end alone can be far off (1 - erf(x) at 256 bits bounded a breach probability of
        try:     # 6.04e-303 by 5.65e-74) or just above a rounding boundary the real is below (1.00001e-3000)
            lo, up = enclosure_bounds(f, prec, ENCLOSURE_EXPONENT)
        except UndecidedComparison:  # an end not finite (cancellation at this precision) or beyond 2^(2^20)
            if prec >= ENCLOSURE_MAX_PREC:
                raise
            prec *= 4
            continue
        if at_most is not None:
            lo, up = min(lo, Q(at_most)), min(up, Q(at_most))
        if lo != up and _is_widened_upper_end(up):  # the end was widened to 2^-ENCLOSURE_EXPONENT: the value is smaller
            return f"< 2^-{ENCLOSURE_EXPONENT}"
        shown = decimal_up(up, digits)
        if prec >= ENCLOSURE_MAX_PREC or decimal_up(lo, digits) == shown:
            return shown
        prec *= 4


def number_json(q: Any, rounding: str = "half") -> dict[str, str] | None:
    """``{"exact": "1/3", "decimal": "0.333333"}`` (None stays None); ``rounding`` as in :func:`decimal`."""
    if q is None:
        return None
    return {"exact": exact(q), "decimal": decimal(q, DIGITS, rounding)}


def jsonable(x: Any) -> Any:
    """Recursively turn results into plain JSON values: exact rationals as ``"p/q"`` strings,
    tuples as lists, mapping keys as strings, anything else unknown via ``str``."""
    if x is None or isinstance(x, (bool, str)):
        return x
    if isinstance(x, int):
        return x
    if isinstance(x, float):
        return x
    if is_rational(x):
        return exact(x)
    if isinstance(x, Mapping):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple, set, frozenset)):
        return [jsonable(v) for v in x]
    if hasattr(x, "as_json"):
        return jsonable(x.as_json())
    return str(x)


def shown(x: Any, width: int = 60) -> str:
    """``repr(x)`` cut to ``width`` characters, for error messages."""
    r = repr(x)
    return r if len(r) <= width else r[: width - 3] + "..."


def expect(x: Any, cls: type | tuple[type, ...], name: str, how: str) -> Any:
    """``x`` if it is an instance of ``cls``; else :class:`InvalidInput` naming ``name``, the value and ``how``
    to make one."""
    if not isinstance(x, cls):
        raise InvalidInput(f"{name} = {shown(x)} (a {type(x).__name__}) must be {how}")
    return x


def as_path(x: Any, what: str) -> Path:
    """A file-system path from a ``str`` or ``os.PathLike``; anything else is an :class:`InvalidInput`."""
    if isinstance(x, Path):
        return x
    if isinstance(x, str) and x and "\0" not in x:
        return Path(x)
    raise InvalidInput(f"{what} path = {shown(x)} must be a non-empty string or pathlib.Path")


def check_choice(x: Any, choices: Sequence[str], name: str) -> str:
    """``x`` if it is one of ``choices`` (exact strings)."""
    if not isinstance(x, str) or x not in choices:
        raise InvalidInput(f"{name} = {shown(x)}: choose from {', '.join(choices)}")
    return x


def check_flag(x: Any, name: str) -> bool:
    """A yes/no argument must be a ``bool`` (a truthy string such as ``"no"`` is refused)."""
    if not isinstance(x, bool):
        raise InvalidInput(f"{name} = {shown(x)} must be True or False")
    return x


SEED_LIMIT = 2**63


def check_seed(x: Any, name: str = "seed") -> int:
    """A random seed: an integer in [0, 2^63) (so every run is reproducible)."""
    if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < SEED_LIMIT:
        raise InvalidInput(f"{name} = {shown(x)} must be an integer in [0, 2^63)")
    return x


def check_int(x: Any, name: str, lo: int, hi: int, why_hi: str = "") -> int:
    """An integer in [lo, hi]; above ``hi`` the message says ``why_hi``."""
    if isinstance(x, bool) or not isinstance(x, int):
        raise InvalidInput(f"{name} = {shown(x)} must be an integer in [{lo:,}, {hi:,}]")
    if not lo <= x <= hi:
        raise InvalidInput(f"{name} = {shown(x)} must be an integer in [{lo:,}, {hi:,}]" + (f" ({why_hi})" if why_hi else ""))
    return x


def check_floats(x: Any) -> "Floats | None":
    """The ``floats`` argument of the loaders: None (refuse floats) or a :class:`Floats`."""
    if x is not None and not isinstance(x, Floats):
        raise InvalidInput(f"floats = {shown(x)} must be None or privclaims.dp.Floats(allowed=True) (also in privclaims.maskit and privclaims.ads)")
    return x


FLOAT_SUM_TOLERANCE = Q(1, 10**9)
"""--floats renormalises a row only if its floats sum to 1 within this: float rounding, not a wrong row."""


@dataclass
class Floats:
    """The ``--floats`` policy for numbers that went through binary floating point.

    Whatever the policy, a JSON number is the decimal written (``0.51`` is 51/100) and a string such as
    ``"1/3"`` is exact. Off (default): every distribution must sum to exactly 1, and a Python float given
    to the API is refused. On: a Python float is read as its shortest decimal (``0.1`` is 1/10), and a
    distribution containing numbers (not strings) whose sum is within 10^-9 of 1 — the rounding of a
    program that printed floats — is renormalised to sum to exactly 1 (a row further off is an error);
    the largest change made is recorded and reported."""

    allowed: bool = False
    largest_change: Any = field(default_factory=lambda: Q(0))
    where: str = ""

    def __post_init__(self) -> None:
        check_flag(self.allowed, "Floats(allowed)")

    def note(self, before: Any, after: Any, where: str) -> None:
        ch = abs(Q(after) - Q(before))
        if ch > self.largest_change:
            self.largest_change, self.where = ch, where

    def as_json(self) -> dict[str, Any] | None:
        if not self.allowed:
            return None
        return {"largest_change": number_json(self.largest_change), "where": self.where}

    def words(self) -> str:
        if not self.allowed:
            return ""
        if self.largest_change == 0:
            return "--floats: every number was read as the decimal written and every distribution summed to 1; nothing changed."
        return (f"--floats: distributions renormalised to sum to 1; the largest change was "
                f"{magnitude(self.largest_change)} (at {self.where}).")


def _is_number(v: Any) -> bool:
    """Written as a number (a JSON number or a Python float), not as a string or an integer."""
    return isinstance(v, (float, Decimal))


def read_rational(x: Any, where: str, floats: Floats | None = None) -> Any:
    """An exact rational from a JSON value: a string ``"p/q"``/decimal, an integer or a JSON number
    (:class:`~decimal.Decimal`, the decimal written); a Python float only with ``--floats`` (its shortest
    decimal)."""
    if isinstance(x, float):
        if floats is None or not floats.allowed:
            raise InvalidInput(
                f"{where}: got the float {x!r}; write it exactly as a string such as "
                f"\"{Fraction(x).limit_denominator(10**6)}\", or pass --floats to read floats as decimals")
        if not math.isfinite(x):
            raise InvalidInput(f"{where}: expected a finite number, got {x!r}")
        return as_rational(Decimal(repr(x)), where)
    return as_rational(x, where)


def read_distribution(values: Sequence[Any] | Mapping[Any, Any], where: str,
                      floats: Floats | None = None) -> Any:
    """An exact distribution (list or mapping): entries in [0, 1] summing to exactly 1. With
    ``--floats``, a row written with numbers whose sum is within 10^-9 of 1 is renormalised (the change
    recorded)."""
    if not isinstance(values, (list, tuple, Mapping)):
        raise InvalidInput(f"{where}: expected a list (or mapping) of probabilities, got {type(values).__name__} {values!r}")
    items = list(values.items()) if isinstance(values, Mapping) else list(enumerate(values))
    if not items:
        raise InvalidInput(f"{where}: empty distribution")
    had_number = any(_is_number(v) for _, v in items)
    q = [(k, read_rational(v, f"{where}[{json.dumps(k, ensure_ascii=False)}]", floats)) for k, v in items]
    for k, v in q:
        if v < 0 or v > 1:
            raise InvalidInput(f"{where}[{json.dumps(k, ensure_ascii=False)}] = {exact(v)} is outside [0, 1]")
    total = sum((v for _, v in q), Q(0))
    if total != 1:
        if had_number and floats is not None and floats.allowed and abs(total - 1) <= FLOAT_SUM_TOLERANCE:
            out = []
            for k, v in q:
                nv = v / total
                floats.note(v, nv, f"{where.split(' JSON: ', 1)[-1]}[{json.dumps(k, ensure_ascii=False)}]")
                out.append((k, nv))
            q = out
        else:
            hint = ""
            if had_number and abs(total - 1) <= FLOAT_SUM_TOLERANCE:
                hint = " (--floats renormalises a row of numbers whose sum is within 10^-9 of 1)"
            elif had_number and floats is not None and floats.allowed:
                hint = " (--floats renormalises only float rounding, |sum - 1| <= 10^-9)"
            raise InvalidInput(f"{where}: the probabilities sum to {exact(total)}, not 1{hint}")
    if isinstance(values, Mapping):
        return {k: v for k, v in q}
    return [v for _, v in q]


def guard(size: int, limit: int, what: str, alternative: str, unit: str = "cases") -> None:
    """Refuse work of ``size`` (an exponential enumeration's cases, or another stated cost ``unit``)
    above ``limit``, naming the polynomial or faster way."""
    if size > limit:
        verb = "would enumerate" if unit == "cases" else "would cost"
        raise InvalidInput(f"{what} {verb} {size:,} {unit} (limit {limit:,}); {alternative}")


@contextlib.contextmanager
def progress_bar(total: int | None, description: str) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on stderr when it is a terminal (silent otherwise); yields ``advance(n=1)``."""
    if not sys.stderr.isatty():
        yield lambda n=1: None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=total)
        yield lambda n=1: bar.advance(task, n)


def progress(items: Iterable[Any], total: int | None, description: str) -> Iterator[Any]:
    """Iterate with :func:`progress_bar`."""
    with progress_bar(total, description) as advance:
        for x in items:
            yield x
            advance(1)
