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

A property with a premise (a theorem's hypothesis the generated instance may miss) declares it, ``premise="B is
eps2-DP"``, and its ``holds`` returns :data:`VACUOUS` on an instance outside it: such an instance holds trivially and
tests nothing, so the search counts the instances that met the premise (``premise_met``, ``premise_met_distinct``)
and the bound says so ("60 hypothesis examples, 58 distinct; the premise (…) met by 21, 20 distinct"). A search
whose premise no tried instance met, or that tried no instance at all (Hypothesis gave up), proves nothing and raises
:class:`VacuousSearch` (the check is an error, not a verified-bounded claim); ``VACUOUS`` from a search that declared
no premise is a :class:`TypeError`.

An instance is counted distinct by its whole value, so a strategy drawing parts the property never reads would count
instances that differ only there. A property that reads only part of its instance declares it, ``reads=("M' and δ",
projection)``: instances are then counted distinct by ``projection(instance)`` and the bound says so ("80 hypothesis
examples, 63 distinct in M' and δ (what the property reads)").
"""

from __future__ import annotations

import random
import time
from typing import Any, Callable

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis.errors import NoSuchExample, Unsatisfiable
from hypothesis.strategies import SearchStrategy

from privclaims.counterexamples.example_keys import example_key
from privclaims.counterexamples.harness import SearchResult


class _Vacuous:
    """The type of :data:`VACUOUS` (one object)."""

    def __repr__(self) -> str:
        return "VACUOUS"


VACUOUS = _Vacuous()
"""What a property returns on an instance that does not meet its declared premise (it holds, and tests nothing)."""


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
    strategy: SearchStrategy[Any],
    holds: Callable[[Any], Any],
    *,
    examples: int,
    seed: int,
    encoding: str,
    verify: Callable[[Any], bool] | None = None,
    describe: Callable[[Any], Any] = lambda w: w,
    premise: str | None = None,
    reads: tuple[str, Callable[[Any], Any]] | None = None,
) -> SearchResult:
    """Search ``examples`` generated instances for one where ``holds`` fails (then shrink it); ``holds`` returns a
    truth value, or :data:`VACUOUS` outside the declared ``premise``; ``reads`` (what, projection): the part of an
    instance ``holds`` reads, by which instances are counted distinct."""
    t0 = time.perf_counter()
    cfg = settings(
        max_examples=examples,
        database=None,
        deadline=None,
        phases=[Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )
    keys: set[Any] = set()
    met_keys: set[Any] = set()
    tally = {"tried": 0, "met": 0, "failed": False}

    def refutes(x: Any) -> bool:
        generating = not tally["failed"]  # after the first counterexample, Hypothesis only shrinks
        key = example_key(x if reads is None else reads[1](x)) if generating else None
        result = holds(x)
        if result is VACUOUS and premise is None:
            raise TypeError(f"the property returned VACUOUS but the search ({encoding}) declares no premise")
        if generating:
            tally["tried"] += 1
            keys.add(key)
            if result is not VACUOUS:
                tally["met"] += 1
                met_keys.add(key)
        failed = result is not VACUOUS and not result
        tally["failed"] = tally["failed"] or failed
        return failed

    def stats() -> dict[str, Any]:
        out: dict[str, Any] = {"examples": examples, "tried": tally["tried"], "distinct": len(keys)}
        if reads is not None:
            out["distinct_in"] = reads[0]
        if premise is not None:
            out.update(premise=premise, premise_met=tally["met"], premise_met_distinct=len(met_keys))
        return out

    def bound(found: bool) -> str:
        met = None if premise is None else (premise, tally["met"], len(met_keys))
        return searched_bound(examples, tally["tried"], len(keys), seed, found, met, reads and reads[0])

    try:
        w = find(strategy, refutes, settings=cfg, random=random.Random(seed))
    except (NoSuchExample, Unsatisfiable):
        if not tally["tried"] or (premise is not None and not tally["met"]):
            what = "Hypothesis generated no instance" if not tally["tried"] else "no instance met the premise"
            raise VacuousSearch(f"{bound(False)}: {what}, so the search ({encoding}) verified nothing") from None
        return SearchResult("none-up-to-bound", bound(False), encoding, statistics=stats(),
                            seconds=time.perf_counter() - t0)
    ok = True if verify is None else bool(verify(w))
    return SearchResult("witness" if ok else "spurious", bound(True), encoding, describe(w), ok, stats(),
                        time.perf_counter() - t0)
