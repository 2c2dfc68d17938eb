"""Argument validation at the boundary of every public function: the one place for the shared rules.

Each validator returns the cleaned value or raises :class:`privclaims.theory.errors.InvalidInput` whose
one-line message names the argument, the value given and the rule it breaks (issue 16). The exact
rational readers (:func:`privclaims.theory.numbers.as_rational`, :func:`~privclaims.theory.numbers.probability`,
:func:`~privclaims.theory.numbers.positive`) live in :mod:`privclaims.theory.numbers`; this module adds what is not about
rationals: integers and indices, times ``1..T``, choices, types, finite floats, float64's exact
integer range, paths, guards on exponential enumerations, and the clipping of a fast twin's
numeric output into its domain.

Rules (``n`` integers are Python ``int`` or numpy integers; ``bool`` is never a number):

* :func:`integer` - ``lo <= x <= hi`` for an integer ``x``;
* :func:`time_step` - ``1 <= t <= T`` (a negative or zero t is refused, never read from the end);
* :func:`index` - ``0 <= i < n``;
* :func:`exponential_size` - refuse an enumeration of ``size`` items when ``size > limit``,
  naming the polynomial alternative, before any work is done;
* :func:`float_exact_int` - ``|x| <= 2^53``, beyond which float64 cannot represent every integer
  (a fast twin refuses to add noise to a count it cannot represent);
* :func:`clip_unit` - a float estimate of a quantity in [0, 1], clipped into [0, 1] (a δ or a
  probability estimated as 1.0000000000009 is reported as 1, which is still an upper bound).
"""

from __future__ import annotations

import hashlib
import math
import numbers
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from privclaims.theory.errors import InvalidInput

#: Enumerations larger than this are refused up front (about a second of exact work per million).
ENUMERATION_LIMIT = 1 << 20

#: float64 represents every integer of absolute value at most 2^53, and not all beyond.
FLOAT_EXACT_INT = 1 << 53


def _show(x: object) -> str:
    s = repr(x)
    return s if len(s) <= 60 else s[:57] + "..."


def integer(x: object, name: str, *, lo: int | None = None, hi: int | None = None) -> int:
    """An ``int`` (numpy integers accepted; bools, floats and strings refused) with ``lo <= x <= hi``."""
    if isinstance(x, bool) or not isinstance(x, numbers.Integral):
        raise InvalidInput(f"{name} = {_show(x)} must be an integer (got {type(x).__name__})")
    v = int(x)
    if lo is not None and v < lo:
        raise InvalidInput(f"{name} = {v} must be >= {lo}")
    if hi is not None and v > hi:
        raise InvalidInput(f"{name} = {v} must be <= {hi}")
    return v


def time_step(t: object, T: int, name: str = "t", *, lo: int = 1) -> int:
    """A time ``lo <= t <= T`` (times count from 1; 0 or a negative t is refused, never wrapped)."""
    if isinstance(t, bool) or not isinstance(t, numbers.Integral):
        raise InvalidInput(f"{name} = {_show(t)} must be an integer time in {lo}..{T} (got {type(t).__name__})")
    v = int(t)
    if not lo <= v <= T:
        raise InvalidInput(f"{name} = {v} is outside the times {lo}..{T} (T = {T})")
    return v


def index(i: object, n: int, name: str) -> int:
    """An index ``0 <= i < n``."""
    if isinstance(i, bool) or not isinstance(i, numbers.Integral):
        raise InvalidInput(f"{name} = {_show(i)} must be an integer index in 0..{n - 1} (got {type(i).__name__})")
    v = int(i)
    if not 0 <= v < n:
        raise InvalidInput(f"{name} = {v} is out of range 0..{n - 1}")
    return v


def choice(x: object, options: Sequence[Any], name: str) -> Any:
    """One of ``options``."""
    try:
        ok = x in options
    except TypeError:
        ok = False
    if not ok:
        raise InvalidInput(f"{name} = {_show(x)} must be one of {', '.join(repr(o) for o in options)}")
    return x


def instance(x: object, cls: type | tuple[type, ...], name: str, hint: str = "") -> Any:
    """``x`` of type ``cls`` (a built object, not e.g. a dict or None)."""
    if not isinstance(x, cls):
        want = cls.__name__ if isinstance(cls, type) else " or ".join(c.__name__ for c in cls)
        raise InvalidInput(f"{name} = {_show(x)} must be a {want}{' ' + hint if hint else ''} (got {type(x).__name__})")
    return x


def finite_float(x: object, name: str, *, lo: float | None = None, hi: float | None = None,
                 lo_open: bool = False) -> float:
    """A finite real number (int or float; not NaN, not inf, not bool) in the given range, as float."""
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise InvalidInput(f"{name} = {_show(x)} must be a real number (got {type(x).__name__})")
    v = float(x)
    if not math.isfinite(v):
        raise InvalidInput(f"{name} = {v!r} must be finite")
    if lo is not None and (v <= lo if lo_open else v < lo):
        raise InvalidInput(f"{name} = {v!r} must be {'>' if lo_open else '>='} {lo}")
    if hi is not None and v > hi:
        raise InvalidInput(f"{name} = {v!r} must be <= {hi}")
    return v


def counts(values: Iterable[object], name: str = "counts") -> list[int]:
    """Non-negative integer counts (numpy integers and integral floats such as 3.0 accepted)."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise InvalidInput(f"{name} = {_show(values)} must be a sequence of counts")
    out = []
    for k, c in enumerate(values):
        if isinstance(c, float) and math.isfinite(c) and c.is_integer():
            c = int(c)
        out.append(integer(c, f"{name}[{k}]", lo=0))
    return out


def positive_counts(values: Iterable[object], name: str = "counts") -> list[int]:
    """:func:`counts` with the zeros dropped (a value no tuple has is not in the distribution: Eqs. (1) and (2) of the
    query generalizer's paper, in both twins)."""
    return [c for c in counts(values, name) if c]


def float_exact_int(x: object, name: str) -> int:
    """An integer count that float64 represents exactly (``|x| <= 2^53``)."""
    v = integer(x, name)
    if abs(v) > FLOAT_EXACT_INT:
        raise InvalidInput(
            f"{name} = {v} exceeds 2^53 = {FLOAT_EXACT_INT}, beyond which float64 cannot represent every integer; "
            "use the exact twin")
    return v


def float_exact_counts(values: object, name: str = "count") -> None:
    """Every count in ``values`` (a sequence or array) is at most 2^53 in absolute value, checked *before*
    any float64 conversion rounds it (a fast twin refuses to add noise to a count it cannot represent)."""
    import numpy as np

    arr = values if isinstance(values, np.ndarray) else np.asarray(list(values), dtype=object)
    if arr.dtype.kind in "iuf":
        big = np.abs(arr.astype(np.float64)) > FLOAT_EXACT_INT
        if arr.dtype.kind in "iu":
            big = np.abs(arr.astype(object)) > FLOAT_EXACT_INT
    else:
        big = np.array([isinstance(v, numbers.Real) and not isinstance(v, bool) and abs(v) > FLOAT_EXACT_INT
                        for v in arr.ravel()], dtype=bool)
    big = np.asarray(big, dtype=bool).ravel()
    if big.any():
        i = int(np.argmax(big))
        raise InvalidInput(
            f"{name}[{i}] = {arr.ravel()[i]!r} exceeds 2^53 = {FLOAT_EXACT_INT}, beyond which float64 cannot represent "
            "every integer: the fast twin refuses to add noise it cannot represent; use the exact twin")


def exponential_size(size: int, what: str, alternative: str, limit: int = ENUMERATION_LIMIT) -> None:
    """Refuse, before any work, an enumeration of ``size`` items when ``size > limit``."""
    if size > limit:
        raise InvalidInput(
            f"{what} would enumerate {size if size < 10 ** 15 else f'about 10^{len(str(size)) - 1}'} items "
            f"(limit {limit}); use {alternative} instead")


def randomness(rng: object, name: str, method: str) -> Any:
    """A source of randomness with the method the sampler calls (e.g. ``randrange`` or ``below``)."""
    if not callable(getattr(rng, method, None)):
        raise InvalidInput(f"{name} = {_show(rng)} must be a randomness source with a {method}() method "
                           f"(got {type(rng).__name__})")
    return rng


def clip_unit(x: float) -> float:
    """A float estimate of a quantity in [0, 1], clipped into [0, 1] (NaN stays NaN for the caller to see)."""
    return min(1.0, max(0.0, float(x)))


def file_identity(path: Path | str) -> tuple:
    """What a per-process memo of a file's parsed contents is keyed on: the resolved path and a BLAKE2b digest of the
    bytes (hashing is a small fraction of parsing), so any rewrite - whatever its size and times - is read again."""
    p = Path(path).resolve()
    return (str(p), hashlib.blake2b(p.read_bytes(), digest_size=20).hexdigest())


def existing_path(p: object, name: str, kind: str = "file") -> Path:
    """A path that exists and is a file (``kind="file"``) or a directory (``kind="dir"``)."""
    if not isinstance(p, (str, Path)) or (isinstance(p, str) and not p.strip()):
        raise InvalidInput(f"{name} = {_show(p)} must be a path (str or pathlib.Path)")
    path = Path(p)
    if not path.exists():
        raise InvalidInput(f"{name} = {str(path)!r} does not exist")
    if kind == "dir" and not path.is_dir():
        raise InvalidInput(f"{name} = {str(path)!r} is a file; expected a directory")
    if kind == "file" and path.is_dir():
        raise InvalidInput(f"{name} = {str(path)!r} is a directory; expected a file")
    return path


def refuse_byte_order_mark(text: str, where: str, encoding: str = "utf-8") -> str:
    """``text`` (a file's decoded text, or its first line), unless it starts with a byte-order mark (U+FEFF, what
    spreadsheet programs write at the start of "CSV UTF-8"): it would silently become part of the first query, label,
    header field or JSON value, so it is an :class:`InvalidInput` naming ``where``."""
    if text.startswith("\ufeff"):
        raise InvalidInput(f"{where}: the file starts with a byte-order mark (U+FEFF), which would become part of its "
                           f"first field; save it as {encoding} without BOM")
    return text


def text_lines(path: object, name: str = "path", encoding: str = "utf-8") -> Iterator[tuple[int, str]]:
    """``(line number, line without its line terminator)`` of a text file, decoded strictly.

    The path must exist and be a file (:func:`existing_path`). A line that is not valid ``encoding``
    raises :class:`InvalidInput` naming ``file:line``, the encoding tried and the offending bytes -
    never a silent U+FFFD replacement that would merge distinct queries or labels; so does a byte-order mark at
    the start (U+FEFF: it would silently become part of the first query, label or header field).
    """
    p = existing_path(path, name, "file")
    with p.open("rb") as fh:
        for lineno, raw in enumerate(fh, start=1):
            try:
                line = raw.decode(encoding)
            except UnicodeDecodeError as e:
                bad = raw[e.start:e.end + 3]
                raise InvalidInput(
                    f"{p}:{lineno}: bytes {bad!r} at column {e.start + 1} are not valid {encoding} "
                    f"(encoding tried: {encoding}); re-encode the file as {encoding}") from None
            if lineno == 1:
                refuse_byte_order_mark(line, f"{p}:1", encoding)
            if line.endswith("\n"):
                line = line[:-1]
            if line.endswith("\r"):
                line = line[:-1]
            yield lineno, line


__all__ = ["ENUMERATION_LIMIT", "FLOAT_EXACT_INT", "integer", "positive_counts", "time_step", "index", "choice", "instance",
           "finite_float", "counts", "float_exact_int", "float_exact_counts", "exponential_size", "randomness", "clip_unit", "existing_path",
           "file_identity", "text_lines"]
