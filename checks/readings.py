"""Readings, and the definitions that own them (issue 21).

A *reading* is one way of understanding a sentence that the documents plainly support: a quantifier order, ``≥``
vs ``>``, what "uniform" commits to, which set an argmax ranges over, which model of a system applies. Readings
belong to **definitions** (:class:`Definition`): a definition, notion or convention of the documents declares its
readings once, with quotes, and every claim that rests on it (``@claim(..., rests_on=(DEF, ...))``) is evaluated
under every **combination** (:class:`Combination`) of the readings of its definitions — times the claim's own
readings, if the claim's sentence has some of its own — or records, for a reading, a quoted reason why it does not
apply to this claim (:class:`NotApplicable`). A reading found for one claim thus reaches every claim on the same
definition: the ledger reports an ``error`` for a claim whose check returns no outcome under a combination it owes.

A :class:`Quote` is a phrase copied verbatim from one of the project's documents; the ledger checks that it occurs
there (whitespace-normalised). Readings, definitions, not-applicable reasons and audit notes carry quotes.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Iterator, Mapping

OWN = "claim"  # the dimension of a claim's own readings in a combination
AS_STATED_MEANING = "the documents give one reading: the catalogued statement, read literally"


@dataclass(frozen=True)
class Quote:
    """``text`` copied verbatim from ``document`` (a file name of the project's documents), at ``where``
    (section, definition, line: for people)."""

    document: str
    where: str
    text: str

    def __post_init__(self) -> None:
        for f in ("document", "text"):
            if not isinstance(getattr(self, f), str) or not getattr(self, f).strip():
                raise ValueError(f"Quote.{f} must be a non-empty string, got {getattr(self, f)!r}")
        if not isinstance(self.where, str):
            raise ValueError(f"Quote.where must be a string, got {self.where!r}")

    def render(self) -> str:
        return f"{self.document} {self.where}: “{' '.join(self.text.split())}”".replace("  ", " ")

    def as_json(self) -> dict[str, str]:
        return {"document": self.document, "where": self.where, "text": self.text}


def as_quotes(quotes: Any) -> tuple[Quote, ...]:
    """Quotes given as Quote objects or ``(document, where, text)`` triples (the area tables' form)."""
    out = []
    for q in quotes or ():
        out.append(q if isinstance(q, Quote) else Quote(*q))
    return tuple(out)


@dataclass(frozen=True)
class Reading:
    """One way of reading a sentence that the documents support.

    ``name`` is short (``"per-pair split"``); ``meaning`` says what the sentence asserts under it; ``source`` is
    where the documents support it (file + section, and the phrase); ``quotes`` are the decisive phrases, verbatim.
    """

    name: str
    meaning: str
    source: str
    quotes: tuple[Quote, ...] = ()

    def __post_init__(self) -> None:
        for f in ("name", "meaning", "source"):
            if not isinstance(getattr(self, f), str) or not getattr(self, f).strip():
                raise ValueError(f"Reading.{f} must be a non-empty string, got {getattr(self, f)!r}")
        if " · " in self.name:
            raise ValueError(f"Reading.name may not contain ' · ' (it joins combination keys): {self.name!r}")
        object.__setattr__(self, "quotes", as_quotes(self.quotes))

    def with_quotes(self, quotes: Iterable[Any]) -> "Reading":
        return replace(self, quotes=self.quotes + as_quotes(quotes))

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "meaning": self.meaning, "source": self.source}
        if self.quotes:
            out["quotes"] = [q.as_json() for q in self.quotes]
        return out


@dataclass(frozen=True)
class Definition:
    """A definition, notion, convention or system model of the documents, with its supported readings.

    ``id`` is stable and short (``"prob-dp"``); ``readings`` are the readings the documents support (one when
    they give one: then it only documents how it is read). ``quotes``: where the documents define it."""

    id: str
    name: str
    readings: tuple[Reading, ...]
    quotes: tuple[Quote, ...] = ()
    note: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id.strip() or any(c in self.id for c in " |="):
            raise ValueError(f"Definition.id must be a non-empty word without spaces, '|' or '=': {self.id!r}")
        rs = tuple(self.readings)
        if not rs or not all(isinstance(r, Reading) for r in rs):
            raise ValueError(f"Definition {self.id!r} needs at least one Reading, got {rs!r}")
        names = [r.name for r in rs]
        if len(set(names)) != len(names):
            raise ValueError(f"Definition {self.id!r}: reading names must be distinct, got {names}")
        object.__setattr__(self, "readings", rs)
        object.__setattr__(self, "quotes", as_quotes(self.quotes))

    def reading(self, name: str) -> Reading:
        for r in self.readings:
            if r.name == name:
                return r
        raise KeyError(f"definition {self.id!r} has no reading {name!r}; it has {[r.name for r in self.readings]}")

    @property
    def ambiguous(self) -> bool:
        return len(self.readings) > 1

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "name": self.name, "readings": [r.as_json() for r in self.readings]}
        if self.quotes:
            out["quotes"] = [q.as_json() for q in self.quotes]
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True)
class NotApplicable:
    """For one claim: the reading ``reading`` of definition ``definition`` does not apply, because ``why`` —
    with the quote that decides it. Every combination containing that reading is then not evaluated."""

    definition: str
    reading: str
    why: str
    quotes: tuple[Quote, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.definition, Definition):
            object.__setattr__(self, "definition", self.definition.id)
        if not self.why.strip():
            raise ValueError("NotApplicable.why must say why the reading does not apply")
        object.__setattr__(self, "quotes", as_quotes(self.quotes))
        if not self.quotes:
            raise ValueError(f"NotApplicable({self.definition}/{self.reading}) needs the quote that decides it")

    def as_json(self) -> dict[str, Any]:
        return {"definition": self.definition, "reading": self.reading, "why": self.why,
                "quotes": [q.as_json() for q in self.quotes]}


@dataclass(frozen=True)
class Rejected:
    """A reading that was considered for a claim and rejected (it is not supported), with the deciding quote."""

    reading: str
    why: str
    quotes: tuple[Quote, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "quotes", as_quotes(self.quotes))

    def as_json(self) -> dict[str, Any]:
        return {"reading": self.reading, "why": self.why, "quotes": [q.as_json() for q in self.quotes]}


@dataclass(frozen=True)
class Audit:
    """A claim's audit record: how its verdict was re-derived independently from the source text, and the
    readings considered and rejected (issue 21, item 5)."""

    note: str
    rejected: tuple[Rejected, ...] = ()

    def __post_init__(self) -> None:
        if not self.note.strip():
            raise ValueError("Audit.note must say what was re-derived and how")
        object.__setattr__(self, "rejected", tuple(self.rejected))

    def as_json(self) -> dict[str, Any]:
        return {"note": self.note, "rejected": [r.as_json() for r in self.rejected]}


@dataclass(frozen=True)
class Combination(Mapping[str, str]):
    """One reading per dimension: per definition the claim rests on (by id), and ``"claim"`` for the claim's
    own readings. ``c[DEF]`` / ``c["prob-dp"]`` is the chosen reading's name, :meth:`reading` the Reading.
    ``key`` names the combination in the report: the chosen names of the dimensions that vary, joined by
    ``" · "`` (``"as stated"`` when nothing varies)."""

    choice: tuple[tuple[str, str], ...]
    readings: tuple[Reading, ...] = field(compare=False, repr=False)
    varying: tuple[str, ...] = field(compare=False, repr=False, default=())

    def __getitem__(self, dim: Any) -> str:
        d = dim.id if isinstance(dim, Definition) else dim
        for k, v in self.choice:
            if k == d:
                return v
        raise KeyError(f"this claim does not rest on {d!r}; its dimensions are {[k for k, _ in self.choice]}")

    def __iter__(self) -> Iterator[str]:
        return (k for k, _ in self.choice)

    def __len__(self) -> int:
        return len(self.choice)

    def reading(self, dim: Any) -> Reading:
        d = dim.id if isinstance(dim, Definition) else dim
        for (k, _), r in zip(self.choice, self.readings):
            if k == d:
                return r
        raise KeyError(d)

    @property
    def own(self) -> Reading:
        """The claim's own reading (the catalogued statement "as stated" when it declares none)."""
        return self.reading(OWN)

    @property
    def key(self) -> str:
        names = [v for k, v in self.choice if k in self.varying]
        return " · ".join(names) if names else self.own.name

    def as_json(self) -> dict[str, str]:
        return dict(self.choice)


def combinations(definitions: Iterable[Definition], own: tuple[Reading, ...],
                 not_applicable: Iterable[NotApplicable] = ()) -> tuple[list[Combination], list[Combination]]:
    """Every combination of the definitions' readings and the claim's own readings, split into those owed an
    outcome and those excused by a :class:`NotApplicable` (in product order)."""
    defs = list(definitions)
    dims: list[tuple[str, tuple[Reading, ...]]] = [(d.id, d.readings) for d in defs] + [(OWN, tuple(own))]
    varying = tuple(k for k, rs in dims if len(rs) > 1)
    na = {(n.definition, n.reading) for n in not_applicable}
    known = {(d.id, r.name) for d in defs for r in d.readings}
    unknown = na - known
    if unknown:
        raise ValueError(f"not_applicable names readings the claim's definitions do not have: {sorted(unknown)}")
    owed, excused = [], []
    for pick in itertools.product(*(rs for _, rs in dims)):
        c = Combination(tuple((k, r.name) for (k, _), r in zip(dims, pick)), tuple(pick), varying)
        (excused if any((k, v) in na for k, v in c.choice) else owed).append(c)
    if not owed:
        raise ValueError(f"not_applicable excuses every combination of the claim's readings ({[c.key for c in excused]}): "
                         "it would owe no outcome; a claim no reading applies to is not a claim of these documents")
    keys = [c.key for c in owed + excused]
    if len(set(keys)) != len(keys):
        raise ValueError(f"two combinations share a key (reading names repeat across definitions): {keys}")
    return owed, excused
