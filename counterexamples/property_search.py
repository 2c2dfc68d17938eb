"""Hypothesis as a bounded counterexample search (used by the ledger's ``property`` checks).

``property_search(strategy, holds, examples=N, seed=S)`` generates ``N`` instances; the first one
where ``holds`` is False is shrunk to a minimal instance and returned (re-verified by ``verify``,
the exact twin, when given). ``None`` found means "no counterexample in N examples": the
``verified-bounded`` evidence.
"""

from __future__ import annotations

import random
import time
from typing import Any, Callable

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis.errors import NoSuchExample, Unsatisfiable
from hypothesis.strategies import SearchStrategy

from privclaims.counterexamples.harness import SearchResult


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
    bound = f"{examples} hypothesis examples (seed {seed})"
    try:
        w = find(strategy, lambda x: not holds(x), settings=cfg, random=random.Random(seed))
    except (NoSuchExample, Unsatisfiable):
        return SearchResult("none-up-to-bound", bound, encoding, statistics={"examples": examples},
                            seconds=time.perf_counter() - t0)
    ok = True if verify is None else bool(verify(w))
    return SearchResult("witness" if ok else "spurious", bound, encoding, describe(w), ok,
                        {"examples": examples}, time.perf_counter() - t0)
