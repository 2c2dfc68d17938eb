"""One Hypothesis generation for several searches of the same instances: a check that searches one strategy under each
of its readings, with the same seed and budget, draws the instances once.

``property_search(strategy, holds, examples=N, seed=S)`` runs ``hypothesis.find`` with the search's fixed settings
(generate and shrink phases, no database, no deadline, health checks off; ``find`` reports one bug) and
``random.Random(S)``. While the property fails on no instance, what Hypothesis draws next depends on the strategy,
the seed and the choices drawn so far, not on what the property computes (the search calls no ``target``, no
``assume``, draws nothing inside the property; Hypothesis' time limits apply only after a failure), with one
exception: Hypothesis mixes literals of the local modules loaded in the process into text, bytes, float and integer
draws of magnitude 100 or more, so a property that imports a module can change what a later search of such a strategy
draws. The ledger's strategies draw none of those (``test_property_search_counts.py`` holds them to it), and a
shared strategy must not either. Generating the instances is most of a search's cost (a querygen search of 300
instances: 0.6 s of drawing, 0.2 s of the property).

``draws = SharedDraws(strategy)`` is handed to :func:`~privclaims.counterexamples.property_search.property_search` in
place of the strategy:

* the first search of a seed and budget runs Hypothesis and, when no instance refuted its property, keeps a copy of
  each instance it drew (taken before its property saw it), in order;
* a later search of the same seed and budget hands its property a fresh deep copy of each kept instance in turn,
  with the global random states seeded as Hypothesis seeds them for each example - every count, the bound and the
  read checks (and the read audit) as in a search that drew them;
* where that property fails on a kept instance, or raises (Hypothesis counts an exception as a failure), the search
  runs Hypothesis after all, so the counterexample is shrunk as before: the instances before it are Hypothesis' draws
  again, compared with the kept ones (a different draw, or fewer, raises :class:`DrawsDiffer` when the search ends:
  the premise above is broken) and not handed to the property a second time (its own side effects, a check's
  tallies, see each instance once, as in an unshared search); at the failing one the search answers as the property
  did, raising its exception again if it raised.

What is shared is the pure result of drawing (the strategy's instances for a seed and budget), never a property's
outcome; a ``SharedDraws`` lives as long as the check that made it. A property that mutates its instance changes only
its own copy.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis.strategies import SearchStrategy


class DrawsDiffer(RuntimeError):
    """Hypothesis drew, for a search of a shared strategy, an instance other than the one the first search of the same
    seed and budget drew at that rank: drawing depended on more than the strategy, the seed and the draws before."""


class SharedDraws:
    """``strategy`` whose instances, drawn for one seed and budget by a search that found no counterexample, later
    searches of that seed and budget read back (module docstring)."""

    def __init__(self, strategy: SearchStrategy[Any]):
        if not isinstance(strategy, SearchStrategy):
            raise TypeError(f"SharedDraws wraps a Hypothesis strategy, not a {type(strategy).__name__}")
        self.strategy = strategy
        self._kept: dict[tuple[int, int], tuple[Any, ...]] = {}

    def kept(self, seed: int, examples: int) -> tuple[Any, ...] | None:
        """The instances the first unrefuted search of ``seed`` and ``examples`` drew, in order (as drawn: hand a
        property :meth:`copy_of` one), or None when no such search has run."""
        return self._kept.get((seed, examples))

    def keep(self, seed: int, examples: int, drawn: list[Any]) -> None:
        """Keep ``drawn``, copies of the instances an unrefuted search drew (taken before its property saw them)."""
        self._kept.setdefault((seed, examples), tuple(drawn))

    @staticmethod
    def copy_of(instance: Any) -> Any:
        """A copy no property shares: what a property is handed, and what is kept (before any property saw it)."""
        return copy.deepcopy(instance)

    def __repr__(self) -> str:
        return f"SharedDraws({self.strategy!r})"
