"""Hypothesis as a bounded counterexample search (used by the ledger's ``property`` checks).

``property_search(strategy, holds, examples=N, seed=S)`` generates up to ``N`` instances; the first one
where ``holds`` is False is shrunk to a minimal instance and returned (re-verified by ``verify``,
the exact twin, when given). ``None`` found means "no counterexample in the instances tried": the
``verified-bounded`` evidence.

The evidence says what was searched, not only what was asked: ``statistics`` holds the budget (``examples``),
the instances generated before the first counterexample or the end (``tried``; fewer than the budget when
Hypothesis stops early, e.g. on a space it has exhausted) and how many of them were distinct values
(``distinct``, by :func:`~privclaims.counterexamples.example_keys.example_key`: different draws can give equal
instances). The shrinking phase's calls are not counted. The bound reads, e.g., "200 hypothesis examples, 155
distinct (seed S)".

A property returns a truth value (:func:`is_truth_value`: a bool, or an object with a truth value of its own such as a
Decision); anything else (None from a forgotten ``return``, a report object whose ``.holds`` was forgotten, a list
of problems) raises TypeError: the check is an error, not a search that could never fail or never hold.

A property with a premise (a theorem's hypothesis the generated instance may miss) declares it, ``premise="B is
eps2-DP"``, and its ``holds`` returns :data:`VACUOUS` on an instance outside it: such an instance holds trivially and
tests nothing, so the search counts the instances that met the premise (``premise_met``, ``premise_met_distinct``)
and the bound says so ("60 hypothesis examples, 58 distinct; the premise (…) met by 21, 20 distinct"). A search
whose premise no tried instance met, or that tried no instance at all (Hypothesis gave up), proves nothing and raises
:class:`VacuousSearch` (the check is an error, not a verified-bounded claim); ``VACUOUS`` from a search that declared
no premise is a :class:`TypeError`.

An instance is counted distinct by its whole value, so a strategy drawing parts the property never reads would count
instances that differ only there. A property that reads only some parts of a tuple instance declares them,
``reads=ReadParts(("M'", "truth", "λ", "δ"), read=("M'", "δ"))`` (:mod:`~privclaims.counterexamples.instance_parts`):
instances are then counted distinct by the parts read, the bound says so ("80 hypothesis examples, 63 distinct in M'
and δ (what the property reads)"), and the property is handed each instance with the other parts replaced by markers
that raise :class:`~privclaims.counterexamples.instance_parts.UndeclaredRead` when used, so the declaration is checked
on every instance. Where what is read is not a set of parts (a sub-instance), ``reads=(what, projection)`` counts by
``projection(instance)``; that declaration is argued, and checked only where it merges: every instance counted under a
key already counted must give the property's outcome (holds, fails, vacuous) of the first, or the search raises
:class:`CountedAsOne`. That check holds for every search (for whole values too: a property that is not a function of
its instance is found where a value repeats), so no count merges instances the property was seen to tell apart.

A check that searches one strategy under several readings, with one seed and budget, passes a
:class:`~privclaims.counterexamples.shared_draws.SharedDraws` instead of the strategy: the instances are drawn once and
read back by the later searches (the argument, and what is checked, are in that module).

Which searches should declare is found by :func:`~privclaims.counterexamples.instance_parts.auditing_reads` (run over
the whole ledger by :mod:`~privclaims.counterexamples.read_audit`): on the first instances of every search that does
not count by a projection, it hands the property each counted part (a tuple's items, a dataclass's compared fields)
in turn as a marker, and lists the parts no audited instance used and that took more than one value.
"""

from __future__ import annotations

import numbers
import random
import time
from typing import Any, Callable

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis.errors import NoSuchExample, Unsatisfiable
from hypothesis.internal.entropy import deterministic_PRNG  # (internal: what Hypothesis wraps each example in)
from hypothesis.strategies import SearchStrategy

from privclaims.counterexamples.example_keys import example_key
from privclaims.counterexamples.harness import SearchResult
from privclaims.counterexamples.instance_parts import ReadParts, UndeclaredRead, active_audit
from privclaims.counterexamples.shared_draws import DrawsDiffer, SharedDraws
from privclaims.counterexamples.vacuous import VACUOUS  # (its own module: importable without Hypothesis)


def is_truth_value(x: Any) -> bool:
    """Whether ``x``, returned by a property, says by itself whether the property holds: a bool (numpy's too), or an
    object whose class gives its own truth value (a Decision, a sympy boolean) - not None (a property that forgot
    its ``return`` would refute every instance), not a number, not a container (a list of problems is true when it
    is not empty; one whose class gives a __bool__ nearer than its __len__, a NamedTuple report, is a truth value) and not an object that is true only by Python's default (a report whose ``.holds`` was
    forgotten)."""
    if isinstance(x, bool):
        return True
    if x is None or isinstance(x, numbers.Number):
        return False
    nearest = {m: next((i for i, c in enumerate(type(x).__mro__) if c is not object and m in vars(c)), None)
               for m in ("__bool__", "__len__")}  # a container is a truth value only by a __bool__ nearer than its
    return nearest["__bool__"] is not None and (  # __len__ (a NamedTuple whose __bool__ returns .holds), not a list's
        nearest["__len__"] is None or nearest["__bool__"] < nearest["__len__"])  # emptiness nor an array's


class CountedAsOne(RuntimeError):
    """Two instances a search counts as one (equal in what its property is declared to read, or equal values) on which
    the property gave different outcomes: the count would merge instances the property tells apart."""


class VacuousSearch(RuntimeError):
    """The search tried no instance, or none that met the property's premise: it verified nothing."""


def searched_bound(examples: int, tried: int, distinct: int, seed: int, found: bool = False,
                   premise: tuple[str, int, int] | None = None, reads: str | None = None) -> str:
    """The bound a search states: its budget, how many instances it tried (when not all of them: the counterexample's
    rank, or Hypothesis stopping early), how many of those were distinct (``reads``: in what the property reads) and,
    for a property with a premise ``(text, met, met_distinct)``, how many met it."""
    if found:
        asked = f"{examples} hypothesis examples asked, the first counterexample at example {tried} (then shrunk)"
    elif tried == examples:
        asked = f"{examples} hypothesis examples"
    else:
        asked = f"{examples} hypothesis examples asked, {tried} tried (Hypothesis stopped early)"
    met = "" if premise is None else f"; the premise ({premise[0]}) met by {premise[1]}, {premise[2]} distinct"
    counted = "" if reads is None else f" in {reads} (what the property reads)"
    return f"{asked}, {distinct} distinct{counted}{met} (seed {seed})"


def property_search(
    strategy: SearchStrategy[Any] | SharedDraws,
    holds: Callable[[Any], Any],
    *,
    examples: int,
    seed: int,
    encoding: str,
    verify: Callable[[Any], bool] | None = None,
    describe: Callable[[Any], Any] = lambda w: w,
    premise: str | None = None,
    reads: ReadParts | tuple[str, Callable[[Any], Any]] | None = None,
) -> SearchResult:
    """Search ``examples`` generated instances for one where ``holds`` fails (then shrink it); ``holds`` returns a
    truth value, or :data:`VACUOUS` outside the declared ``premise``; ``reads``: the parts of an instance ``holds``
    reads (:class:`ReadParts`, checked on every instance), or (what, projection) the part it reads; instances are
    counted distinct by it. ``strategy`` may be a :class:`SharedDraws`: the instances of one seed and budget are then
    drawn once for all the searches that share it."""
    t0 = time.perf_counter()
    cfg = settings(
        max_examples=examples,
        database=None,
        deadline=None,
        phases=[Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )
    keys: dict[Any, Any] = {}  # each distinct key, with the outcome of the first instance counted under it
    met_keys: set[Any] = set()
    tally = {"tried": 0, "met": 0, "failed": False}
    parts = reads if isinstance(reads, ReadParts) else None
    what, projection = (None, None) if reads is None else (reads.what, reads.projection) if parts else reads
    audit = active_audit(encoding, parts, by_projection=projection is not None and parts is None)
    shared = strategy if isinstance(strategy, SharedDraws) else None
    kept = None if shared is None else shared.kept(seed, examples)
    drawn: list[Any] | None = [] if shared is not None and kept is None else None  # copies, kept when none refutes
    redrawn: list[Any] = []  # after a kept instance refuted: the kept ones up to it, which Hypothesis draws again
    raised: list[Exception] = []  # what refuting it raised, if it raised (raised again where Hypothesis draws it)
    diverged: list[tuple[Any, Any]] = []  # (drawn, kept) where Hypothesis drew something else than a kept instance

    def checked(x: Any) -> Any:
        if parts is None:
            return holds(x)
        masked = parts.masked(x)
        result = holds(masked)
        used = parts.touched(masked)
        if used:
            raise UndeclaredRead(f"the property of the search ({encoding}) used the unread part(s) {', '.join(used)}; "
                                 f"its reads= declares it reads {what} only")
        return result

    def refutes(x: Any) -> bool:
        if redrawn:  # Hypothesis draws the kept instances again, up to the one that refuted: counted once already
            if diverged or example_key(x) != example_key(redrawn[0]):
                diverged[:] = diverged or [(x, redrawn[0])]  # raised after find (inside it, it would be shrunk)
                return False
            del redrawn[0]
            if redrawn:
                return False
            if raised:  # the property (or the search's own checks) raised on it: so here, as where it was drawn
                raise raised[0]
            return True  # the counterexample
        generating = not tally["failed"]  # after the first counterexample, Hypothesis only shrinks
        if drawn is not None and generating:
            drawn.append(SharedDraws.copy_of(x))
        key = example_key(x if projection is None else projection(x)) if generating else None
        audited = audit.snapshot(x) if audit is not None and generating else None
        result = checked(x)
        if audited is not None:
            audit.look(audited, result, holds, parts)
        if result is VACUOUS and premise is None:
            raise TypeError(f"the property returned VACUOUS but the search ({encoding}) declares no premise")
        if result is not VACUOUS and not is_truth_value(result):
            raise TypeError(f"the property of the search ({encoding}) returned {type(result).__name__} {result!r:.120}, "
                            "not a truth value (a bool, or an object with a truth value of its own, e.g. a Decision): "
                            "None, a number, a list or an object true by Python's default says nothing of the property "
                            "(a forgotten return would refute every instance, a forgotten .holds none)")
        if generating:
            tally["tried"] += 1
            outcome = "vacuous" if result is VACUOUS else bool(result)
            if keys.setdefault(key, outcome) != outcome:
                raise CountedAsOne(f"the search ({encoding}) counts two instances as one ({what or 'equal values'}) "
                                   f"on which its property gave {keys[key]} and {outcome}: it reads more than "
                                   "that, or is not a function of its instance")
            if result is not VACUOUS:
                tally["met"] += 1
                met_keys.add(key)
        failed = result is not VACUOUS and not result
        tally["failed"] = tally["failed"] or failed
        return failed

    def stats() -> dict[str, Any]:
        out: dict[str, Any] = {"examples": examples, "tried": tally["tried"], "distinct": len(keys)}
        if what is not None:
            out["distinct_in"] = what
        if premise is not None:
            out.update(premise=premise, premise_met=tally["met"], premise_met_distinct=len(met_keys))
        return out

    def bound(found: bool) -> str:
        met = None if premise is None else (premise, tally["met"], len(met_keys))
        return searched_bound(examples, tally["tried"], len(keys), seed, found, met, what)

    def none_found() -> SearchResult:
        if not tally["tried"] or (premise is not None and not tally["met"]):
            why = "Hypothesis generated no instance" if not tally["tried"] else "no instance met the premise"
            raise VacuousSearch(f"{bound(False)}: {why}, so the search ({encoding}) verified nothing") from None
        return SearchResult("none-up-to-bound", bound(False), encoding, statistics=stats(),
                            seconds=time.perf_counter() - t0)

    if kept is not None:
        for rank, instance in enumerate(kept, 1):
            try:
                with deterministic_PRNG():  # the global random states a property sees under Hypothesis
                    failed = refutes(SharedDraws.copy_of(instance))
            except Exception as e:  # Hypothesis counts an exception as a failure, and shrinks it
                raised.append(e)
                failed = True
            if failed:
                redrawn.extend(kept[:rank])  # Hypothesis draws them again, then shrinks the last one
                break
        else:
            return none_found()
    try:
        w = find(strategy if shared is None else shared.strategy, refutes, settings=cfg, random=random.Random(seed))
    except (NoSuchExample, Unsatisfiable):
        if diverged:
            raise DrawsDiffer(f"the search ({encoding}) drew {diverged[0][0]!r} where the search it shares its draws "
                              f"with (seed {seed}, {examples} examples) drew {diverged[0][1]!r}") from None
        if redrawn:
            raise DrawsDiffer(f"the search ({encoding}) drew fewer instances than the search it shares its draws with "
                              f"(seed {seed}, {examples} examples)") from None
        if drawn is not None:
            shared.keep(seed, examples, drawn)  # type: ignore[union-attr]
        return none_found()
    ok = True if verify is None else bool(verify(w))
    return SearchResult("witness" if ok else "spurious", bound(True), encoding, describe(w), ok, stats(),
                        time.perf_counter() - t0)
