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


def searched_bound(examples: int, tried: int, distinct: int, seed: int, found: bool = False) -> str:
    """The bound a search states: its budget, how many instances it tried (when not all of them: the counterexample's
    rank, or Hypothesis stopping early) and how many of those were distinct."""
    if found:
        asked = f"{examples} hypothesis examples asked, a counterexample at example {tried}"
    elif tried == examples:
        asked = f"{examples} hypothesis examples"
    else:
        asked = f"{examples} hypothesis examples asked, {tried} tried (Hypothesis stopped early)"
    return f"{asked}, {distinct} distinct (seed {seed})"


def property_search(
    strategy: SearchStrategy[Any],
    holds: Callable[[Any], bool],
    *,
    examples: int,
    seed: int,
    encoding: str,
    verify: Callable[[Any], bool] | None = None,
    describe: Callable[[Any], Any] = lambda w: w,
) -> SearchResult:
    """Search ``examples`` generated instances for one where ``holds`` fails (then shrink it)."""
    t0 = time.perf_counter()
    cfg = settings(
        max_examples=examples,
        database=None,
        deadline=None,
        phases=[Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )
    keys: set[Any] = set()
    tally = {"tried": 0, "failed": False}

    def refutes(x: Any) -> bool:
        generating = not tally["failed"]  # after the first counterexample, Hypothesis only shrinks
        if generating:
            tally["tried"] += 1
            keys.add(example_key(x))
        failed = not holds(x)
        tally["failed"] = tally["failed"] or failed
        return failed

    def stats() -> dict[str, int]:
        return {"examples": examples, "tried": tally["tried"], "distinct": len(keys)}

    try:
        w = find(strategy, refutes, settings=cfg, random=random.Random(seed))
    except (NoSuchExample, Unsatisfiable):
        return SearchResult("none-up-to-bound", searched_bound(examples, tally["tried"], len(keys), seed), encoding,
                            statistics=stats(), seconds=time.perf_counter() - t0)
    ok = True if verify is None else bool(verify(w))
    return SearchResult("witness" if ok else "spurious",
                        searched_bound(examples, tally["tried"], len(keys), seed, found=True),
                        encoding, describe(w), ok, stats(), time.perf_counter() - t0)
