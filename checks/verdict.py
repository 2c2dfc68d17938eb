"""Verdicts and their evidence.

A check returns an :class:`Outcome`: one of :data:`VERDICTS` and a JSON-serialisable evidence
dict (exact values as ``"p/q"`` strings via :func:`jsonable`). Timings belong only under keys
ending in ``seconds`` (the report is otherwise byte-identical for a given seed).

**Readings.** A claim is tested under one or more :class:`Reading` s, declared with the check
(``@claim(..., readings=(Reading(...), ...))``). A check whose claim has one reading returns that
reading's Outcome; a check with several returns :func:`by_reading` — one Outcome per reading — and the
ledger (not the check) derives the headline verdict with :func:`headline`:

- ``verified`` / ``verified-bounded`` / ``reproduced``: that verdict under every reading (the weakest of
  them when they differ: verified > verified-bounded > reproduced);
- ``refuted``: refuted under every reading, each with its witness;
- ``reading-dependent``: holds (verified, verified-bounded, reproduced) under at least one reading and is
  refuted or a discrepancy under another; also refuted under one reading and a discrepancy under another
  (under a discrepancy reading the *intended* statement holds and only its printed form is wrong, so the
  claim is not false under every reading);
- ``discrepancy``: a discrepancy under every reading (a misprint, or the documents contradict each other);
- otherwise ``unverifiable`` (some reading undecided), ``not-checked`` (skipped) or ``error``.

The readings of a claim are the combinations of the readings of the definitions it rests on and its own
(:mod:`privclaims.checks.readings`); ``by_reading`` is keyed by those combinations (or their keys).

**Parts.** A statement that asserts several things (a direction *and* a size, "for both settings", "similar to
X") declares its :class:`Part` s (``@claim(..., parts=(Part(...), ...))``); under each reading the check returns
:func:`by_part` — one Outcome per part — and the reading's verdict is their conjunction (:func:`conjoin`): every
part must hold; a refuted part refutes the statement; a part that cannot be decided leaves it unverifiable.
"""

from __future__ import annotations

import json
import math
import numbers
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from privclaims.checks.readings import Combination, Reading  # noqa: F401 (Reading: re-exported for the checks)

VERDICTS = (
    "verified",  # exact on the stated instance, or a symbolic proof
    "verified-bounded",  # exhaustive / SMT up to a stated bound, or N property examples, no counterexample
    "refuted",  # exact witness, under every reading the documents support
    "reading-dependent",  # holds under at least one supported reading, fails under another
    "discrepancy",  # the paper's number differs from the recomputation (both shown)
    "reproduced",  # experiment on substitute data, shape and tolerance stated
    "unverifiable",  # what is missing is said exactly
    "not-checked",
    "error",
)


HOLDS = ("verified", "verified-bounded", "reproduced")  # strongest first
NEEDS_WHY = ("refuted", "reading-dependent", "discrepancy", "reproduced", "unverifiable")
"""Verdicts a reader is owed a reason for, in words (README: every verdict other than verified / verified-bounded
carries a plain-words why; the runner composes or demands it)."""
FAILS = ("refuted", "discrepancy")


@dataclass
class Outcome:
    """A verdict with its evidence; ``why`` is the plain-words paragraph (required for every verdict
    other than verified / verified-bounded / not-checked / error); ``per_reading`` is set by
    :func:`by_reading` and then ``verdict`` is the headline the ledger derives from it."""

    verdict: str
    evidence: dict[str, Any] = field(default_factory=dict)
    why: str | None = None
    per_reading: dict[str, "Outcome"] | None = None
    per_part: dict[str, "Outcome"] | None = None

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {self.verdict!r}")

    def because(self, why: str) -> "Outcome":
        """Attach the plain-words *why* (returns self, for ``return refuted(...).because("...")``)."""
        self.why = why
        return self


def headline(verdicts: list[str]) -> str:
    """The headline verdict of a claim from its per-reading verdicts (the rule in the module docstring)."""
    vs = list(verdicts)
    if not vs:
        raise ValueError("a claim needs at least one reading")
    for v in vs:
        if v not in VERDICTS or v == "reading-dependent":
            raise ValueError(f"not a per-reading verdict: {v!r}")
    if "error" in vs:
        return "error"
    if "not-checked" in vs:
        return "not-checked"
    holds = [v for v in vs if v in HOLDS]
    fails = [v for v in vs if v in FAILS]
    if len(holds) == len(vs):
        return max(holds, key=HOLDS.index)  # the weakest
    if len(fails) == len(vs):
        return "refuted" if all(v == "refuted" for v in fails) else (
            "discrepancy" if all(v == "discrepancy" for v in fails) else "reading-dependent")
    if holds and fails:
        return "reading-dependent"
    return "unverifiable"


SKIP_MARK = "skipped"
"""The evidence key by which the runner marks a claim it skipped (:func:`~privclaims.checks.runner.skip_reason`, or
:class:`~privclaims.checks.registry.DataMissing` raised in the check): such a row is not compared with its pin and is
no drift. Only the runner sets it; a check's own evidence carrying it is an error (the runner's ``_call``)."""

SAME_UNDER = "same_under_every_reading"  # the claim-level evidence key naming the readings an outcome did not vary with


def outcome_content(o: Outcome, naming: Combination | None = None) -> str:
    """What an outcome shows - verdict, why, evidence and each part's verdict, why and evidence - as one JSON text:
    two outcomes with the same content are one outcome to a reader, whether or not they are one object (the ledger
    groups combinations by this, :func:`copied_dimensions`). ``naming``: the combination the outcome was given for;
    a value that is only its name (its key, a chosen reading's name, or the combination itself as a map) is read as
    "this reading": an outcome computed once and labelled ``reading=c.key`` per combination is still one outcome."""
    names = set() if naming is None else {naming.key, *(v for _, v in naming.choice)}
    label = None if naming is None else jsonable(dict(naming.choice))

    def blind(x: Any) -> Any:
        if label is not None and x == label:
            return "<this reading>"
        if isinstance(x, str):
            return "<this reading>" if x in names else x
        if isinstance(x, dict):  # a key that only names the reading is a label too ({c["split"]: True})
            return {("<this reading>" if isinstance(k, str) and k in names else k): blind(v) for k, v in x.items()}
        if isinstance(x, list):
            return [blind(v) for v in x]
        return x

    parts = {str(k): [p.verdict, blind(p.why), blind(jsonable(p.evidence))] for k, p in (o.per_part or {}).items()}
    return json.dumps([o.verdict, blind(o.why), blind(jsonable(o.evidence)), parts], sort_keys=True, default=str)


def copied_dimensions(groups: Any) -> set[str]:
    """The dimensions (definition ids, ``"claim"``) along which one computed outcome serves several combinations:
    ``groups`` are lists of :class:`~privclaims.checks.readings.Combination` s that share one computation."""
    out: set[str] = set()
    for g in groups:
        for other in g[1:]:
            out |= {k for (k, v), (_, w) in zip(g[0].choice, other.choice) if v != w}
    return out


def same_under_problem(copied: set[str], declared: dict[str, str], copied_at_all: set[str] | None = None) -> str | None:
    """What is wrong with the declarations ``declared`` (dimension id -> reason) for an outcome copied along ``copied``
    (None: nothing): a copied dimension without a reason, a declared one not copied at all (``copied_at_all``, default
    ``copied``: the runner lets a shared skip or error go undeclared but still counts it as a copy), a blank reason."""
    missing = sorted(copied - set(declared))
    stale = sorted(set(declared) - (copied if copied_at_all is None else copied_at_all))
    blank = sorted(k for k, v in declared.items() if not str(v).strip())
    if missing:
        return (f"one outcome (one object, or equal ones: the same verdict, why, evidence and parts, up to values that only "
                f"name their reading) serves several "
                f"readings of {missing} without a reason: compute per reading and show in the evidence what each "
                "reading decided, or declare same_under={definition: why its readings cannot change the outcome}")
    if stale:
        return f"same_under declares {stale}, but the outcome is computed per reading of them"
    return f"same_under gives no reason for {blank}" if blank else None


def same_under_evidence(copied: set[str], same_under: dict[Any, str] | None,
                        copied_at_all: set[str] | None = None) -> dict[str, str]:
    """The reasons, per dimension, why one outcome serves every reading of it — exactly the ``copied`` dimensions
    must be declared in ``same_under`` (keys: a Definition, its id, or ``"claim"``; values: the reason, in words
    that point to the quote or the computation that makes the readings agree; ``copied_at_all`` as in
    :func:`same_under_problem`). Anything
    :func:`same_under_problem` finds raises ValueError (a check's design error: the runner reports it as an error
    verdict)."""
    declared = {getattr(k, "id", k): v for k, v in (same_under or {}).items()}
    problem = same_under_problem(copied, declared, copied_at_all)
    if problem:
        raise ValueError(problem)
    return dict(sorted(declared.items()))


def by_reading(outcomes: dict[Any, Outcome], why: str | None = None, same_under: dict[Any, str] | None = None,
               **evidence: Any) -> Outcome:
    """One Outcome per reading combination the claim owes (keys: :class:`~privclaims.checks.readings.Combination`
    s from ``ctx.combinations``, or their ``key`` strings — a claim with only its own readings and no ambiguous
    definition uses its readings' names); the headline verdict is derived by :func:`headline` (the runner
    re-derives it and checks the keys against what the claim owes). ``evidence`` is what the readings share.

    One Outcome given for several combinations - one object, or equal ones (:func:`outcome_content`: a reader cannot
    tell them apart) - is one outcome serving readings that differ in some dimensions: each such dimension needs its
    reason in ``same_under`` (:func:`same_under_evidence`), recorded in
    the claim's evidence under :data:`SAME_UNDER` — a reading is never covered silently (checked here for
    Combination keys, and by the runner, :func:`privclaims.checks.runner.adjudicate`, for any keys)."""
    if not outcomes:
        raise ValueError("by_reading needs at least one reading's outcome")
    per = {(k.key if isinstance(k, Combination) else k): o for k, o in outcomes.items()}
    if len(per) != len(outcomes):
        raise ValueError("by_reading got two outcomes for the same combination")
    groups: dict[str, list[Combination]] = {}
    for k, o in outcomes.items():
        if isinstance(k, Combination):
            groups.setdefault(outcome_content(o, k), []).append(k)
    keyed_by_name = not all(isinstance(k, Combination) for k in outcomes)  # the runner, knowing the combinations,
    if keyed_by_name:  # checks then that each copy by name is declared
        reasons = same_under_evidence({getattr(k, "id", k) for k in same_under or {}}, same_under)
    else:  # a skip or an error may be shared undeclared (as in the runner), but still counts as a copy
        computed = [g for g in groups.values() if outcomes[g[0]].verdict not in ("not-checked", "error")]
        reasons = same_under_evidence(copied_dimensions(computed), same_under, copied_dimensions(groups.values()))
    if reasons:
        evidence = {**evidence, SAME_UNDER: reasons}
    return Outcome(headline([o.verdict for o in per.values()]), dict(evidence), why, per)


@dataclass(frozen=True)
class Part:
    """One assertion of a statement: ``name`` (short), ``asserts`` (what must hold, in words, with the numbers it
    commits to), ``tolerance`` (fixed before looking: from the paper's own printed numbers where it prints them),
    and ``data``: the real data sets it is tested on for a reproduction (a part reproduced only on data we
    generated is unverifiable)."""

    name: str
    asserts: str
    tolerance: str = ""
    data: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.name.strip() or not self.asserts.strip():
            raise ValueError(f"Part needs a name and what it asserts: {self!r}")
        object.__setattr__(self, "data", (self.data,) if isinstance(self.data, str) else tuple(self.data))

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "asserts": self.asserts}
        if self.tolerance:
            out["tolerance"] = self.tolerance
        if self.data:
            out["data"] = list(self.data)
        return out


def conjoin(verdicts: list[str]) -> str:
    """The verdict of a statement from the verdicts of its parts (all must hold)."""
    vs = list(verdicts)
    if not vs:
        raise ValueError("a statement needs at least one part")
    for v in vs:
        if v not in VERDICTS or v == "reading-dependent":
            raise ValueError(f"not a part verdict: {v!r}")
    for v in ("error", "not-checked", "refuted", "discrepancy", "unverifiable"):
        if v in vs:
            return v
    return max(vs, key=HOLDS.index)  # every part holds: the weakest


def by_part(outcomes: dict[Any, Outcome], why: str | None = None, **evidence: Any) -> Outcome:
    """One Outcome per declared :class:`Part` (keys: the parts or their names); the verdict is :func:`conjoin` of
    theirs (the runner re-derives it and checks the names against the declaration)."""
    if not outcomes:
        raise ValueError("by_part needs at least one part's outcome")
    per = {(k.name if isinstance(k, Part) else k): o for k, o in outcomes.items()}
    if len(per) != len(outcomes):
        raise ValueError("by_part got two outcomes for the same part")
    return Outcome(conjoin([o.verdict for o in per.values()]), dict(evidence), why, None, per)


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
    if isinstance(x, Mapping):  # a dict, or a read-only map (theory's ReadOnlyMap, MappingProxyType)
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


def reading_outcome_json(o: Outcome) -> dict[str, Any]:
    return {"verdict": o.verdict, "why": o.why, "evidence": jsonable(o.evidence)}


def verified(**evidence: Any) -> Outcome:
    return Outcome("verified", evidence)


def verified_bounded(bound: str, **evidence: Any) -> Outcome:
    """No counterexample up to ``bound`` (say what was searched: sizes, N examples, solver)."""
    return Outcome("verified-bounded", {"bound": bound, **evidence})


def refuted(witness: Any, model: dict[str, Any] | None = None, **evidence: Any) -> Outcome:
    """An exact witness that the exact twin re-verified; ``model``: its validation against the documents' model
    (:func:`in_model`), which every refutation must carry (the runner's structural rules)."""
    return Outcome("refuted", {"witness": witness, **({"model": model} if model is not None else {}), **evidence})


def in_model(name: str, problems: Any = (), minimal: str | None = None) -> dict[str, Any]:
    """A witness validated against the documents' model ``name`` (say which, and where the documents state it):
    ``problems`` is what the model's validator found (empty: the witness is inside the model); ``minimal`` says
    in what sense it is minimal *inside that model* (what was searched below it)."""
    probs = list(problems)
    return {"name": name, "valid": not probs, "problems": probs, **({"minimal": minimal} if minimal else {})}


def discrepancy(paper: Any, computed: Any, **evidence: Any) -> Outcome:
    return Outcome("discrepancy", {"paper": paper, "computed": computed, **evidence})


def reproduced(shape: str, **evidence: Any) -> Outcome:
    return Outcome("reproduced", {"shape": shape, **evidence})


def unverifiable(missing: str, **evidence: Any) -> Outcome:
    return Outcome("unverifiable", {"missing": missing, **evidence})


def not_checked(reason: str, **evidence: Any) -> Outcome:
    return Outcome("not-checked", {"reason": reason, **evidence})


def _is_truth(x: Any) -> bool:
    """A truth value: Python's bool, numpy's (``np.True_`` is no ``bool``) or sympy's (``sympy.true``)."""
    if isinstance(x, bool):
        return True
    np, sp = sys.modules.get("numpy"), sys.modules.get("sympy")  # neither imported: x is neither's
    return bool(np is not None and isinstance(x, np.bool_)) or bool(
        sp is not None and isinstance(x, sp.logic.boolalg.BooleanAtom))


def same_value(paper: Any, computed: Any) -> bool:
    """Equal values, a truth value only to a truth value: Python's ``1 == True`` would verify a paper's number 1 against
    a computed comparison that came out true (found by helper-79). numpy's and sympy's truth values are truth values
    (``True`` vs ``np.True_`` is equal); lists, tuples and dicts are compared element by element by the same rule."""
    if _is_truth(paper) != _is_truth(computed):
        return False
    if isinstance(paper, (list, tuple)) and isinstance(computed, (list, tuple)) and type(paper) is type(computed):
        return len(paper) == len(computed) and all(same_value(p, c) for p, c in zip(paper, computed))
    if isinstance(paper, dict) and isinstance(computed, dict):
        return paper.keys() == computed.keys() and all(same_value(paper[k], computed[k]) for k in paper)
    return bool(paper == computed)


def compare_exact(paper: Any, computed: Any, **evidence: Any) -> Outcome:
    """``verified`` if the paper's exact value equals the recomputation (:func:`same_value`), else ``discrepancy``."""
    if same_value(paper, computed):
        return verified(paper=paper, computed=computed, **evidence)
    return discrepancy(paper=paper, computed=computed, **evidence)


def compare_all(pairs: dict[str, tuple[Any, Any]], **evidence: Any) -> Outcome:
    """Several (paper, computed) pairs by name: ``verified`` iff all equal, else ``discrepancy``
    listing the ones that differ."""
    differ = {k: {"paper": p, "computed": c} for k, (p, c) in pairs.items() if not same_value(p, c)}
    values = {k: {"paper": p, "computed": c} for k, (p, c) in pairs.items()}
    if differ:
        return Outcome("discrepancy", {"differ": differ, "values": values, **evidence})
    return verified(values=values, **evidence)
