"""Verdicts and their evidence.

A check returns an :class:`Outcome`: one of :data:`VERDICTS` and a JSON-serialisable evidence
dict (exact values as ``"p/q"`` strings via :func:`jsonable`). Timings belong only under keys
ending in ``seconds`` (the report is otherwise byte-identical for a given seed).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

VERDICTS = (
    "verified",  # exact on the stated instance, or a symbolic proof
    "verified-bounded",  # exhaustive / SMT up to a stated bound, or N property examples, no counterexample
    "refuted",  # exact witness
    "discrepancy",  # the paper's number differs from the recomputation (both shown)
    "reproduced",  # experiment on substitute data, shape and tolerance stated
    "unverifiable",  # what is missing is said exactly
    "not-checked",
    "error",
)


@dataclass
class Outcome:
    verdict: str
    evidence: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {self.verdict!r}")


def jsonable(x: Any) -> Any:
    """Recursively convert to JSON types: rationals -> "p/q", numpy scalars -> Python, sets sorted."""
    if x is None or isinstance(x, (bool, str)):
        return x
    if isinstance(x, int):
        return x
    if isinstance(x, float):
        return x if math.isfinite(x) else str(x)
    if isinstance(x, numbers.Rational) or type(x).__name__ == "mpq":
        f = Fraction(int(x.numerator), int(x.denominator))
        return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"
    if hasattr(x, "as_json"):
        return jsonable(x.as_json())
    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if isinstance(x, (set, frozenset)):
        return sorted((jsonable(v) for v in x), key=repr)
    if hasattr(x, "item") and callable(x.item):  # numpy scalar
        return jsonable(x.item())
    if hasattr(x, "tolist"):
        return jsonable(x.tolist())
    return str(x)


def verified(**evidence: Any) -> Outcome:
    return Outcome("verified", evidence)


def verified_bounded(bound: str, **evidence: Any) -> Outcome:
    """No counterexample up to ``bound`` (say what was searched: sizes, N examples, solver)."""
    return Outcome("verified-bounded", {"bound": bound, **evidence})


def refuted(witness: Any, **evidence: Any) -> Outcome:
    """An exact witness that the exact twin re-verified."""
    return Outcome("refuted", {"witness": witness, **evidence})


def discrepancy(paper: Any, computed: Any, **evidence: Any) -> Outcome:
    return Outcome("discrepancy", {"paper": paper, "computed": computed, **evidence})


def reproduced(shape: str, **evidence: Any) -> Outcome:
    return Outcome("reproduced", {"shape": shape, **evidence})


def unverifiable(missing: str, **evidence: Any) -> Outcome:
    return Outcome("unverifiable", {"missing": missing, **evidence})


def not_checked(reason: str, **evidence: Any) -> Outcome:
    return Outcome("not-checked", {"reason": reason, **evidence})


def compare_exact(paper: Any, computed: Any, **evidence: Any) -> Outcome:
    """``verified`` if the paper's exact value equals the recomputation, else ``discrepancy``."""
    if paper == computed:
        return verified(paper=paper, computed=computed, **evidence)
    return discrepancy(paper=paper, computed=computed, **evidence)


def compare_all(pairs: dict[str, tuple[Any, Any]], **evidence: Any) -> Outcome:
    """Several (paper, computed) pairs by name: ``verified`` iff all equal, else ``discrepancy``
    listing the ones that differ."""
    differ = {k: {"paper": p, "computed": c} for k, (p, c) in pairs.items() if p != c}
    values = {k: {"paper": p, "computed": c} for k, (p, c) in pairs.items()}
    if differ:
        return Outcome("discrepancy", {"differ": differ, "values": values, **evidence})
    return verified(values=values, **evidence)
