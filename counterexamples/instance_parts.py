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
(:func:`auditing_reads`, below) compares the two on its first instances.

Which searches must declare is found, not remembered: within :func:`auditing_reads` every search (the hook
:func:`active_audit`, called by :func:`~privclaims.counterexamples.property_search.property_search`) hands its
property, on its first instances, each counted part in turn as a marker, and reports the parts no instance used
(:mod:`~privclaims.counterexamples.read_audit` runs it over a whole ledger).
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from privclaims.counterexamples.example_keys import example_key
from privclaims.counterexamples.vacuous import VACUOUS


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


class _Raised:
    """What the audit records for a property call that raised."""


class _ReadsAudit:
    """One search's audit (:func:`auditing_reads`): which counted parts of its first instances (a tuple's items, a
    dataclass's compared fields) the property used, and which values each part took."""

    def __init__(self, encoding: str, parts: ReadParts | None, first: int, by_projection: bool) -> None:
        self.encoding, self.first, self.audited = encoding, first, 0
        self.names: tuple[str, ...] | None = parts.names if parts else None
        self.never_used: set[int] | None = None
        self.values: dict[int, set[Any]] = {}
        self.not_audited = "it counts by a declared projection (argued, not checked)" if by_projection else None
        self.differs = 0  # instances whose result with every part differs from the result with the unread parts hidden
        self.looked = 0  # instances looked at: those audited and those outside the premise drawn before them

    def snapshot(self, x: Any) -> Any:
        """What to audit of ``x``, taken before the property runs (a dataclass's caches, filled by the run, could
        otherwise answer for a hidden field), or None when this search audits no more."""
        if self.audited >= self.first or self.not_audited:
            return None
        return copy.deepcopy(x) if dataclasses.is_dataclass(x) and not isinstance(x, type) else x

    def look(self, x: Any, result: Any, holds: Callable[[Any], Any], parts: ReadParts | None) -> None:
        if isinstance(x, tuple) and len(x) >= 2:
            names = self.names or tuple(f"part {i + 1} of {len(x)}" for i in range(len(x)))
            base = parts.masked(x) if parts else x
            values = list(x)

            def hidden(i: int, marker: Unread) -> Any:
                return base[:i] + (marker,) + base[i + 1:]

            if parts is not None:  # a use no marker records (type(x), x is y, ...) changes what the property computes
                try:
                    whole = holds(x)
                except Exception:  # noqa: BLE001 - the drawn instance fails where the masked one did not
                    whole = _Raised
                self.differs += not (whole is result or whole == result)
        elif dataclasses.is_dataclass(x) and not isinstance(x, type) and parts is None:
            names = tuple(f.name for f in dataclasses.fields(x) if f.compare)
            values = [getattr(x, n) for n in names]

            def hidden(i: int, marker: Unread) -> Any:
                y = copy.deepcopy(x)
                object.__setattr__(y, names[i], marker)  # (a frozen dataclass too: the copy is the audit's own)
                return y
        else:
            self.not_audited = f"its instances are {type(x).__name__}, neither tuples of parts nor dataclasses"
            return
        self.names = names
        unused = set()
        for i, name in enumerate(names):
            if parts is not None and name not in parts.read:
                continue
            self.values.setdefault(i, set()).add(example_key(values[i]))
            marker = Unread(name)
            try:
                same = holds(hidden(i, marker)) == result
            except Exception:  # noqa: BLE001 - any failure with the part hidden means the property needed it
                continue
            if same and not ReadParts.touched((marker,)):
                unused.add(i)
        self.audited += result is not VACUOUS  # (an instance outside the premise is looked at, and not counted)
        self.looked += 1
        self.never_used = unused if self.never_used is None else self.never_used & unused

    def finding(self) -> dict[str, Any] | None:
        """The parts never used that took more than one value (a part drawn constant inflates no count)."""
        varied = [i for i in sorted(self.never_used or ()) if len(self.values.get(i, ())) > 1]
        if not self.audited or not (varied or self.differs) or self.names is None:
            return None
        out = {"encoding": self.encoding, "audited": self.audited, "looked": self.looked, "parts": list(self.names),
               "counted_never_used": [self.names[i] for i in varied]}
        if self.differs:
            out["differs_on_the_drawn_instance"] = self.differs
        return out


@dataclass
class ReadsAuditRecord:
    """What :func:`auditing_reads` found: ``findings`` (a search counting parts its property never used, or whose
    declared property computes something else on the drawn instance: ``{"encoding", "audited", "looked", "parts",
    "counted_never_used"}``, and ``"differs_on_the_drawn_instance"`` (how many of the ``looked`` instances: those
    ``audited``, which met the premise, and those outside it drawn before them) when so), ``audited`` (how many
    searches it audited) and ``not_audited`` (``{"encoding", "why"}``: searches over instances that are neither tuples
    of parts nor dataclasses, or counting by a declared projection)."""

    findings: list[dict[str, Any]] = field(default_factory=list)
    audited: int = 0
    not_audited: list[dict[str, Any]] = field(default_factory=list)


_AUDITS: list[list[_ReadsAudit]] = []  # the open auditing_reads() blocks, innermost last
_AUDIT_FIRST: list[int] = []


def active_audit(encoding: str, parts: ReadParts | None, *, by_projection: bool) -> _ReadsAudit | None:
    """The audit of a search starting now (``encoding``, its declared ``parts``; ``by_projection``: it counts by a
    declared projection), inside :func:`auditing_reads`; None outside it."""
    if not _AUDITS:
        return None
    audit = _ReadsAudit(encoding, parts, _AUDIT_FIRST[-1], by_projection)
    _AUDITS[-1].append(audit)
    return audit


@contextlib.contextmanager
def auditing_reads(first: int = 15) -> Iterator[ReadsAuditRecord]:
    """Within the block, every property search also hands its property, on its first ``first`` instances that meet
    the premise (and those outside it drawn before them: a part the premise alone reads is read), each part it counts
    (a tuple's items, or those its :class:`ReadParts` declares read; a dataclass's compared fields) in turn as an
    :class:`Unread` marker. A part the property never used (same result, marker
    untouched, no error) on every audited instance, and that took more than one value there, is counted but not
    read. A search declaring :class:`ReadParts` is also run on each audited instance as drawn (every part): a result
    that differs from the one with the unread parts hidden means the property used a marker in a way it cannot record
    (``type(x)``, ``x is y``, ...), and is a finding (``differs_on_the_drawn_instance``). The :class:`ReadsAuditRecord`
    yielded is filled when the block ends. The audit calls the property more often, and never changes a search's
    result, count or bound."""
    audits: list[_ReadsAudit] = []
    record = ReadsAuditRecord()
    _AUDITS.append(audits)
    _AUDIT_FIRST.append(first)
    try:
        yield record
    finally:
        _AUDITS.pop()
        _AUDIT_FIRST.pop()
        for a in audits:
            if a.not_audited:
                record.not_audited.append({"encoding": a.encoding, "why": a.not_audited})
            elif a.audited:
                record.audited += 1
                f = a.finding()
                if f is not None:
                    record.findings.append(f)
