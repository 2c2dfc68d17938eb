"""One key per example *value*: how a bounded search counts the distinct instances it tried.

Hypothesis never replays a choice sequence, but different choice sequences can give equal values (two draws of a
distribution normalised to the same weights, a list drawn as a set, a filtered retry): "N examples" can be fewer
distinct instances. :func:`example_key` maps equal examples to equal keys, and is the same in every process:

* numbers, strings, ``None`` and bytes are keyed with their type, so ``1``, ``True``, ``Fraction(1)`` and
  ``Q(1)`` are four keys (the exact and the float twins are fed differently typed instances); floats by their bits,
  so ``-0.0`` and ``0.0`` are two keys (they compare equal; a search distinguishes them);
* tuples and lists keep their order; sets, frozensets and mappings do not (their items are sorted by their keys'
  ``repr``, so a set of strings is keyed the same whatever ``PYTHONHASHSEED`` is);
* a dataclass is keyed by its class and its compared fields (``field(compare=False)`` is a cache, not the value);
* numpy arrays by dtype, shape and bytes; an object of a Python class with an empty ``__dict__`` and no slots (a
  marker such as a wildcard) by its class.

Anything else is refused (:class:`TypeError`), never keyed by a ``repr`` that could hold an address and make every
example distinct.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from privclaims.theory.numbers import Q

try:  # gmpy2's integers, where Q is gmpy2.mpq (theory/numbers.py)
    from gmpy2 import mpz as _mpz

    _INTEGERS: tuple[type, ...] = (type(_mpz(0)),)
except ImportError:  # pragma: no cover - depends on the environment
    _INTEGERS = ()

_ATOMS = (type(None), bool, int, float, str, bytes, Fraction, type(Q(0))) + _INTEGERS


def _name(t: type) -> str:
    return f"{t.__module__}.{t.__qualname__}"


def _sorted(keys: list[Any]) -> tuple[Any, ...]:
    return tuple(sorted(keys, key=repr))


def example_key(x: Any) -> Any:
    """A hashable key, equal for equal examples and the same in every process (see the module's docstring)."""
    if isinstance(x, _ATOMS):
        return (_name(type(x)), x) if not isinstance(x, float) else (_name(type(x)), x.hex())
    if isinstance(x, (tuple, list)):
        return (_name(type(x)), tuple(example_key(v) for v in x))
    if isinstance(x, (set, frozenset)):
        return (_name(type(x)), _sorted([example_key(v) for v in x]))
    if isinstance(x, Mapping):
        return (_name(type(x)), _sorted([(example_key(k), example_key(v)) for k, v in x.items()]))
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return (_name(type(x)), tuple((f.name, example_key(getattr(x, f.name))) for f in dataclasses.fields(x)
                                      if f.compare))
    import numpy as np

    if isinstance(x, np.ndarray):
        return (_name(type(x)), x.dtype.str, x.shape, x.tobytes())
    if isinstance(x, np.generic):
        return (_name(type(x)), x.dtype.str, x.tobytes())
    if isinstance(getattr(x, "__dict__", None), dict) and not x.__dict__ and not getattr(type(x), "__slots__", ()):
        return (_name(type(x)),)  # a stateless marker (not a C type, whose value has no __dict__)
    raise TypeError(f"example_key: no key for a {_name(type(x))} (numbers, strings, containers, dataclasses, numpy "
                    f"arrays and stateless markers are keyed: draw one of those)")
