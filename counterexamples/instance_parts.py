"""What a property reads of a tuple instance, declared and enforced.

A search counts the distinct instances it tried (:mod:`~privclaims.counterexamples.example_keys`). When the strategy
draws parts the property never reads (a vector the check recomputes, a truth it never consults), instances that differ
only there are counted distinct, and the bound overstates what was tested. A property over a tuple instance
``(chain, p, S, δ)`` that reads only ``chain``, ``S`` and ``δ`` declares it::

    ReadParts(("chain", "p", "S", "δ"), read=("chain", "S", "δ"))

and the search then

* counts instances distinct by the parts read (:meth:`ReadParts.projection`), and its bound says in what;
* hands the property the instance with every other part replaced by an :class:`Unread` marker, which records a
  use of it (an attribute, an item, iteration, a comparison, arithmetic, truth, hashing, ``isinstance``, ``with``,
  item assignment) and raises :class:`UndeclaredRead`. A use the property swallows is still recorded, and the search
  raises after the call (:meth:`ReadParts.touched`). So the declaration is checked on every instance tried, not
  argued once.

Passing a marker along (into a tuple, to a function that leaves it alone) is not a read; ``repr`` and ``str`` are not
reads. What a marker cannot record: ``type(x)``, ``x is y``, ``id(x)``, ``callable(x)`` (True),
``isinstance(x, object)``, identity short-cuts (``x in [x]``, ``[x] == [x]``), and C functions that test a type and
raise :class:`TypeError` without looking further (``"".join([x])``, ``x in "abc"``, ``memoryview(x)``: silent only
where the property swallows the error). None of them can read the hidden value - the property never has it - so the
count by the parts read stays right for what the property computed; but a property branching on one of them computes
something else than it would on the drawn instance. The audit
(:func:`~privclaims.counterexamples.property_search.auditing_reads`) compares the two on its first instances.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class UndeclaredRead(RuntimeError):
    """A property used a part of its instance that its search declared unread."""


_OWN = frozenset({"_part", "_used", "_use"})


class Unread:
    """Stands for a part a property declared it does not read: any use is recorded and raises
    :class:`UndeclaredRead`."""

    __slots__ = ("_part", "_used")

    def __init__(self, part: str) -> None:
        object.__setattr__(self, "_part", part)
        object.__setattr__(self, "_used", [])

    def _use(self, how: str, *_: Any, **__: Any) -> Any:
        used = object.__getattribute__(self, "_used")
        part = object.__getattribute__(self, "_part")
        used.append(how)
        raise UndeclaredRead(f"the property used the part {part!r} of its instance ({how}), which its search declares "
                             "unread: declare it read (ReadParts(..., read=...)) or stop reading it")

    def __getattribute__(self, name: str) -> Any:
        if name in _OWN:
            return object.__getattribute__(self, name)
        return object.__getattribute__(self, "_use")(f"attribute {name}")  # isinstance() reads __class__ here

    def __setattr__(self, name: str, value: Any) -> None:
        self._use(f"setting {name}")

    def __delattr__(self, name: str) -> None:
        self._use(f"deleting {name}")

    def __repr__(self) -> str:
        return f"<unread {object.__getattribute__(self, '_part')}>"

    def __hash__(self) -> int:
        return self._use("hash")

    def __eq__(self, other: object) -> bool:
        return self._use("==")

    def __ne__(self, other: object) -> bool:
        return self._use("!=")

    def __bool__(self) -> bool:
        return self._use("truth")


def _operator(name: str) -> Any:
    def use(self: Unread, *args: Any, **kwargs: Any) -> Any:
        return self._use(name)

    use.__name__ = name
    return use


for _name in ("__lt__", "__le__", "__gt__", "__ge__", "__len__", "__iter__", "__getitem__", "__contains__",
              "__call__", "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
              "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__", "__rpow__",
              "__neg__", "__pos__", "__abs__", "__int__", "__float__", "__index__", "__round__", "__and__", "__rand__",
              "__or__", "__ror__", "__xor__", "__rxor__", "__invert__", "__array__", "__format__", "__reversed__",
              "__enter__", "__exit__", "__copy__", "__deepcopy__", "__reduce__", "__reduce_ex__", "__getstate__",
              "__setitem__", "__delitem__", "__divmod__", "__rdivmod__", "__lshift__", "__rlshift__", "__rshift__",
              "__rrshift__", "__matmul__", "__rmatmul__", "__trunc__", "__floor__", "__ceil__", "__complex__",
              "__bytes__", "__fspath__", "__length_hint__", "__buffer__"):
    setattr(Unread, _name, _operator(_name))
del _name


@dataclass(frozen=True)
class ReadParts:
    """The parts of a tuple instance a property reads: ``names`` names every part in order, ``read`` those it reads
    (at least one; the others are handed to it as :class:`Unread`)."""

    names: tuple[str, ...]
    read: tuple[str, ...]

    def __post_init__(self) -> None:
        if len(set(self.names)) != len(self.names):
            raise ValueError(f"ReadParts: part names repeat: {self.names}")
        unknown = [r for r in self.read if r not in self.names]
        if unknown or not self.read:
            raise ValueError(f"ReadParts: read={self.read} must name at least one of the parts {self.names}")
        if len(self.read) == len(self.names):
            raise ValueError(f"ReadParts: every part of {self.names} is read; declare nothing")

    @property
    def what(self) -> str:
        """The parts read, as the bound says them: "chain, S and δ"."""
        read = [n for n in self.names if n in self.read]
        return read[0] if len(read) == 1 else ", ".join(read[:-1]) + " and " + read[-1]

    def _check_shape(self, x: Any) -> None:
        if not isinstance(x, tuple) or len(x) != len(self.names):
            raise TypeError(f"ReadParts{self.names}: the instance is not a tuple of {len(self.names)} parts: {x!r}")

    def projection(self, x: Any) -> tuple[Any, ...]:
        """The parts of ``x`` the property reads (what instances are counted distinct by)."""
        self._check_shape(x)
        return tuple(v for n, v in zip(self.names, x) if n in self.read)

    def masked(self, x: Any) -> tuple[Any, ...]:
        """``x`` with every part not read replaced by a fresh :class:`Unread` marker."""
        self._check_shape(x)
        return tuple(v if n in self.read else Unread(n) for n, v in zip(self.names, x))

    @staticmethod
    def touched(masked: tuple[Any, ...]) -> list[str]:
        """The unread parts of ``masked`` the property used (each with how it was first used)."""
        out = []
        for v in masked:
            if type(v) is Unread:
                used = object.__getattribute__(v, "_used")
                if used:
                    out.append(f"{object.__getattribute__(v, '_part')} ({used[0]})")
        return out
