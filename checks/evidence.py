"""Evidence that agrees with its decision (issue 21, item 4).

A check that decides ``value R bound`` (R one of ``<= < >= > == !=``) records the decision as a
:class:`Decision`: the value and the bound *the decision used*, at the precision it used — an exact rational,
a float (read as its exact binary value), or a rigorous enclosure (:class:`Enclosure`, shown as an interval) —
and the outcome. In the JSON report a decision is ``{"decision": {"value": v, "relation": R, "bound": b,
"holds": bool, "method": str}}`` with ``v``/``b`` either ``"p/q"`` / an integer / a float, or
``{"interval": ["lo", "hi"]}`` with decimal ends rounded outward (an enclosure is never shown narrower than
it is). :func:`contradictions` walks a whole report and lists every decision whose shown numbers do not
certify its ``holds`` flag (``property_tests/test_evidence_agrees.py`` runs it over the report), and every
``verified-bounded`` outcome whose own searches do not certify it (:func:`search_contradictions`): a bounded search
certifies "no counterexample up to its bound" only when it searched the whole bound and found nothing; and every
decided outcome that reports a counterexample the exact twin refused (the twins disagree).

Build decisions with :func:`decide` (exact values: the flag is computed here, from the shown numbers, so the
two cannot disagree), :func:`decide_enclosed` (an irrational quantity against a bound: the enclosure is tightened
until it decides, and the enclosure shown is the one that decided) or :func:`decide_between` (two irrational
quantities, both shown as the enclosures that decided).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal, localcontext
from fractions import Fraction
from typing import Any, Callable, Iterator

from privclaims.theory.numbers import enclosure_bounds

RELATIONS = ("<=", "<", ">=", ">", "==", "!=")
EXPONENT_LIMIT = 1 << 20  # enclosure ends are exact dyadics with |exponent| <= 2^20


def _frac(x: Any) -> Fraction:
    if isinstance(x, bool):
        raise TypeError(f"a boolean is not a number: {x!r}")
    if isinstance(x, float):
        if not math.isfinite(x):
            raise ValueError(f"not a finite number: {x!r}")
        return Fraction(x)
    if isinstance(x, numbers.Rational) or type(x).__name__ == "mpq":
        return Fraction(int(x.numerator), int(x.denominator))
    if isinstance(x, int):
        return Fraction(x)
    raise TypeError(f"not an exact number: {x!r}")


@dataclass(frozen=True)
class Enclosure:
    """A rigorous enclosure ``lo <= x <= hi`` of a real number x (exact rational ends) and how it was obtained."""

    lo: Fraction
    hi: Fraction
    how: str = ""

    def __post_init__(self) -> None:
        lo, hi = _frac(self.lo), _frac(self.hi)
        if lo > hi:
            raise ValueError(f"empty enclosure [{lo}, {hi}]")
        object.__setattr__(self, "lo", lo)
        object.__setattr__(self, "hi", hi)

    @classmethod
    def of(cls, f: Callable[[Any], Any], prec: int = 128) -> "Enclosure":
        """``f(mpmath.iv)`` enclosed at ``prec`` bits (:func:`privclaims.theory.numbers.enclosure_bounds`; ends are
        kept exactly down to 2^-(2^20), so tails as small as e^-700000 still have their own enclosure)."""
        lo, hi = enclosure_bounds(f, prec, max_exponent=EXPONENT_LIMIT)
        return cls(lo, hi, f"interval arithmetic, {prec} bits")


def _bounds(x: Any) -> tuple[Fraction, Fraction]:
    if isinstance(x, Enclosure):
        return x.lo, x.hi
    v = _frac(x)
    return v, v


def certifies(value: Any, relation: str, bound: Any, holds: bool) -> bool:
    """Whether the numbers ``value`` and ``bound`` (exact, floats or enclosures) certify ``holds`` for
    ``value relation bound``: for every point of each enclosure the relation is ``holds``."""
    (vl, vh), (bl, bh) = _bounds(value), _bounds(bound)
    if relation not in RELATIONS:
        raise ValueError(f"unknown relation {relation!r}; use {RELATIONS}")
    if relation == "<=":
        return vh <= bl if holds else vl > bh
    if relation == "<":
        return vh < bl if holds else vl >= bh
    if relation == ">=":
        return vl >= bh if holds else vh < bl
    if relation == ">":
        return vl > bh if holds else vh <= bl
    exact_equal = vl == vh == bl == bh
    apart = vh < bl or vl > bh
    if relation == "==":
        return exact_equal if holds else apart
    return apart if holds else exact_equal


def _digits_down(x: Fraction, digits: int) -> str:
    return _decimal(x, digits, ROUND_FLOOR)


def _digits_up(x: Fraction, digits: int) -> str:
    return _decimal(x, digits, ROUND_CEILING)


def _decimal(x: Fraction, digits: int, rounding: str) -> str:
    with localcontext() as c:
        c.prec, c.rounding = digits, rounding
        d = Decimal(x.numerator) / Decimal(x.denominator)
    return format(d, "g").replace("E", "e")


def shown(x: Any, digits: int) -> Any:
    """A number as the report shows it: exact as ``"p/q"``/int, a float as itself, an enclosure as an interval
    of decimals rounded outward to ``digits`` significant digits (still an enclosure)."""
    if isinstance(x, Enclosure):
        if x.lo == x.hi:
            return shown(x.lo, digits)
        return {"interval": [_digits_down(x.lo, digits), _digits_up(x.hi, digits)]}
    if isinstance(x, float):
        return x
    f = _frac(x)
    return f.numerator if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def parse_shown(x: Any) -> Any:
    """The inverse of :func:`shown`, for reading a report: an exact Fraction, a float, or an Enclosure."""
    if isinstance(x, dict) and set(x) == {"interval"}:
        lo, hi = x["interval"]
        return Enclosure(Fraction(Decimal(lo)), Fraction(Decimal(hi)))
    if isinstance(x, bool):
        raise TypeError("a boolean is not a number")
    if isinstance(x, (int, float)):
        return x
    if isinstance(x, str):
        return Fraction(x) if "/" in x else Fraction(Decimal(x))
    raise TypeError(f"not a shown number: {x!r}")


@dataclass(frozen=True)
class Decision:
    """``value relation bound`` and whether it ``holds``, with the numbers the decision used (``method`` says
    how: "exact", "interval arithmetic, 256 bits", "float64 with margin 2^-40" ...)."""

    value: Any
    relation: str
    bound: Any
    holds: bool
    method: str = "exact"
    what: str = ""

    def __post_init__(self) -> None:
        if self.relation not in RELATIONS:
            raise ValueError(f"unknown relation {self.relation!r}; use {RELATIONS}")
        if not isinstance(self.holds, bool):
            raise TypeError(f"Decision.holds must be a bool, got {self.holds!r}")

    def __bool__(self) -> bool:
        return self.holds

    def as_json(self) -> dict[str, Any]:
        digits = 6
        while digits < 60:  # enough digits that the shown interval still certifies the decision
            v, b = shown(self.value, digits), shown(self.bound, digits)
            if certifies(parse_shown(v), self.relation, parse_shown(b), self.holds):
                break
            digits *= 2
        d: dict[str, Any] = {"value": v, "relation": self.relation, "bound": b, "holds": self.holds,
                             "method": self.method}
        if isinstance(self.value, Enclosure) and self.value.how:
            d["value_method"] = self.value.how
        if self.what:
            d["what"] = self.what
        return {"decision": d}


def decide(value: Any, relation: str, bound: Any, what: str = "") -> Decision:
    """An exact decision: ``holds`` computed from the exact numbers themselves (floats are read exactly)."""
    if isinstance(value, Enclosure) or isinstance(bound, Enclosure):
        raise TypeError("decide() takes exact numbers; use decide_enclosed() for an enclosure")
    return Decision(value, relation, bound, certifies(value, relation, bound, True), "exact", what)


def decide_enclosed(f: Callable[[Any], Any], relation: str, bound: Any, what: str = "",
                    start_prec: int = 64, max_prec: int = 1 << 14) -> Decision:
    """Decide ``x relation bound`` for the real x that ``f(mpmath.iv)`` encloses, raising the precision until
    the enclosure decides it; the Decision shows that enclosure. Raises ``UndecidedComparison`` at ``max_prec``."""
    from privclaims.theory.errors import UndecidedComparison

    prec = start_prec
    while prec <= max_prec:
        e = Enclosure.of(f, prec)
        for holds in (True, False):
            if certifies(e, relation, bound, holds):
                return Decision(e, relation, bound, holds, f"interval arithmetic, {prec} bits", what)
        prec *= 4
    raise UndecidedComparison(f"{what or 'value'} {relation} {bound}: undecided at {max_prec} bits")


def decide_between(f: Callable[[Any], Any], relation: str, g: Callable[[Any], Any], what: str = "",
                   start_prec: int = 64, max_prec: int = 1 << 14) -> Decision:
    """Decide ``x relation y`` for the reals that ``f(mpmath.iv)`` and ``g(mpmath.iv)`` enclose, raising the
    precision until the two enclosures decide it; the Decision shows both (the ones that decided) as intervals.
    Raises ``UndecidedComparison`` at ``max_prec`` (e.g. when x = y)."""
    from privclaims.theory.errors import UndecidedComparison

    prec = start_prec
    while prec <= max_prec:
        a, b = Enclosure.of(f, prec), Enclosure.of(g, prec)
        for holds in (True, False):
            if certifies(a, relation, b, holds):
                return Decision(a, relation, b, holds, f"interval arithmetic, {prec} bits", what)
        prec *= 4
    raise UndecidedComparison(f"{what or 'value'} {relation} the bound: undecided at {max_prec} bits")


def decisions(doc: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every decision of a JSON document (a report, a row, evidence), with its path."""
    if isinstance(doc, dict):
        d = doc.get("decision")
        if isinstance(d, dict) and {"value", "relation", "bound", "holds"} <= set(d):
            yield path, d
        for k, v in doc.items():
            yield from decisions(v, f"{path}.{k}" if path else str(k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from decisions(v, f"{path}[{i}]")


SEARCH_KEYS = frozenset({"status", "bound", "encoding", "witness", "verified_by_exact"})
"""The keys of a search result in a report (``SearchResult.as_json``, or a summary of it without its statistics)."""
SEARCHED_WHOLE_BOUND = "none-up-to-bound"  # the one status that certifies "no counterexample up to the bound"


def reported_searches(evidence: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every search result an outcome's JSON ``evidence`` reports, with its path; not those of an outcome nested in it
    (a dict with its own ``verdict``, which answers for its own searches)."""
    if isinstance(evidence, dict):
        if SEARCH_KEYS <= set(evidence) and isinstance(evidence.get("status"), str):
            yield path, evidence
            return
        inner = ((v, f"{path}.{k}" if path else str(k)) for k, v in evidence.items())
    elif isinstance(evidence, list):
        inner = ((v, f"{path}[{i}]") for i, v in enumerate(evidence))
    else:
        return
    for v, where in inner:
        if not (isinstance(v, dict) and "verdict" in v):
            yield from reported_searches(v, where)


def names_bound(claimed: str, bound: str) -> bool:
    """Whether an outcome's bound ``claimed`` names a search's ``bound``: ``bound`` occurs in it with no letter, digit,
    ``_`` or ``.`` touching either end (``"600 examples"`` is not named by ``"1600 examples"``, nor ``"n <= 4"`` by
    ``"n <= 40"``), whatever joins it to the rest (``"a: B1; b: B2"``, ``"B1; z3: 2 inputs, B2"``, ``"B + 4 fixed
    cases"``, ``"B, plus the worked example"``). It errs loud: a search whose bound is a whole prefix or suffix of
    another's (``"n <= 4"`` in ``"n <= 4, m <= 2"``) counts as named, so the row is an error to look at, never a
    verdict that hides the search."""
    if not bound:
        return False
    at = claimed.find(bound)
    while at >= 0:
        end = at + len(bound)
        before, after = claimed[at - 1:at], claimed[end:end + 1]
        if not _word_char(before) and not _word_char(after):
            return True
        at = claimed.find(bound, at + 1)
    return False


def _word_char(c: str) -> bool:
    return bool(c) and (c.isalnum() or c in "_.")


UNDECIDED = ("error", "not-checked")  # outcomes that decide nothing: no search can contradict them


def search_contradictions(doc: Any, path: str = "") -> list[str]:
    """The outcomes of a JSON document (a report, a row, an outcome: any dict with ``verdict`` and ``evidence``) that a
    search they report contradicts, each as a line saying why:

    * any decided outcome (not ``error`` or ``not-checked``) reporting a search whose counterexample the exact twin
      refused (``spurious``): the twins disagree, so no verdict stands on that computation (a witness counts only
      after the exact twin re-verifies it);
    * a ``verified-bounded`` outcome reporting a search that found a confirmed counterexample, or one that did not
      search its whole bound (timed out, unknown) whose bound the outcome claims (its ``bound`` names it,
      :func:`names_bound`). A search that did not complete may be reported beside the ones that did, as long as the
      outcome's bound names only those. A search of another statement that found a counterexample belongs in an
      outcome of its own (a dict with its ``verdict``, which answers for it), not in the evidence of a
      verified-bounded one."""
    bad: list[str] = []
    if isinstance(doc, dict):
        verdict, evidence = doc.get("verdict"), doc.get("evidence")
        if isinstance(verdict, str) and verdict not in UNDECIDED and isinstance(evidence, dict):
            claimed = str(evidence.get("bound", ""))
            for where, r in reported_searches(evidence):
                at = f"{path}.evidence.{where}" if path else f"evidence.{where}"
                if r["status"] == "spurious" or (r["status"] == "witness" and r.get("verified_by_exact") is False):
                    bad.append(f"{at}: {verdict}, but this search found a counterexample its re-verification refused "
                               f"(the exact twin, or the property run again, disagrees: {r.get('witness')!r:.200})")
                elif verdict != "verified-bounded":
                    continue
                elif r["status"] == "witness":
                    bad.append(f"{at}: verified-bounded, but this search found a counterexample "
                               f"({r.get('witness')!r:.200})")
                elif r["status"] != SEARCHED_WHOLE_BOUND and names_bound(claimed, str(r["bound"])):
                    bad.append(f"{at}: verified-bounded up to {claimed!r}, but this search of {r['bound']!r} did not "
                               f"search its whole bound ({r['status']})")
        for k, v in doc.items():
            bad += search_contradictions(v, f"{path}.{k}" if path else str(k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            bad += search_contradictions(v, f"{path}[{i}]")
    return bad


def contradictions(doc: Any) -> list[str]:
    """The decisions of ``doc`` whose shown numbers do not certify their flag, and its outcomes that a search they
    report contradicts (:func:`search_contradictions`), each as a line saying why."""
    bad = search_contradictions(doc)
    for path, d in decisions(doc):
        try:
            ok = certifies(parse_shown(d["value"]), d["relation"], parse_shown(d["bound"]), bool(d["holds"]))
        except (TypeError, ValueError, ArithmeticError) as e:
            bad.append(f"{path}: unreadable decision {d!r} ({e})")
            continue
        if not ok or not isinstance(d["holds"], bool):
            bad.append(f"{path}: shows {d['value']} {d['relation']} {d['bound']} but says holds = {d['holds']}")
    return bad
