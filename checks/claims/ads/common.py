"""Helpers shared by the ads checks: running a property search and turning it into a verdict."""

from __future__ import annotations

from typing import Any, Callable

from privclaims.checks.verdict import Outcome, discrepancy, refuted, unverifiable, verified_bounded
from privclaims.counterexamples.ads_strategies import describe_instance
from privclaims.counterexamples.harness import SearchResult
from privclaims.counterexamples.property_search import property_search


def search(ctx: Any, name: str, strategy: Any, holds: Callable[[Any], bool], examples: int,
           encoding: str) -> SearchResult:
    """``property_search`` with the run's seed for ``name``; witnesses re-verified by ``holds``."""
    return property_search(strategy, holds, examples=examples, seed=ctx.int_seed(name), encoding=encoding,
                           verify=lambda x: not holds(x), describe=describe_instance)


def summary(r: SearchResult) -> dict[str, Any]:
    """A search's JSON without solver statistics (memory use varies between runs)."""
    return {"status": r.status, "bound": r.bound, "encoding": r.encoding, "witness": r.witness,
            "verified_by_exact": r.verified_by_exact}


def verdict_of(results: dict[str, SearchResult], **evidence: Any) -> Outcome:
    """``refuted`` with the first confirmed witness, else ``verified-bounded`` listing every bound.

    A search that timed out or stayed undecided is reported in the evidence and does not count
    toward the bound."""
    for name, r in results.items():
        if r.found:
            return refuted(witness=r.witness, search=name, searches={k: summary(v) for k, v in results.items()},
                           **evidence)
    done = [f"{name}: {r.bound}" for name, r in results.items() if r.exhausted]
    if not done:
        return Outcome("error", {"error": "no search completed", "searches": {k: summary(v) for k, v in results.items()}})
    return verified_bounded(bound="; ".join(done), searches={k: summary(v) for k, v in results.items()}, **evidence)


def examples(ctx: Any, quick: int, full: int) -> int:
    return quick if ctx.quick else full


def printed_figures(printed: dict[str, dict[str, Any]], missing: str, why: str, **evidence: Any) -> Outcome:
    """A figure the documents print but that cannot be recomputed here (a cited report, a proprietary log):
    what can still be computed is the documents' internal consistency. ``printed`` maps each source (file
    and section) to the values it prints, by name. A name printed with different values by two sources is a
    ``discrepancy`` (the documents contradict each other); otherwise the figure is ``unverifiable``
    (``missing`` says what is missing, ``why`` says it in plain words)."""
    names = sorted({n for v in printed.values() for n in v})
    differ = {n: {src: v[n] for src, v in printed.items() if n in v} for n in names}
    differ = {n: by_src for n, by_src in differ.items() if len(set(map(str, by_src.values()))) > 1}
    if differ:
        said = "; ".join(f"{n}: " + ", ".join(f"{src} prints {val}" for src, val in by_src.items())
                         for n, by_src in differ.items())
        return discrepancy(paper=differ, computed="the documents print different values", printed=printed,
                           missing=missing, **evidence).because(
            f"The documents contradict each other on a printed figure ({said}). {why}")
    return unverifiable(missing=missing, printed=printed, documents_agree=names, **evidence).because(
        why + " The documents that print the figure agree on it (" + ", ".join(names) + ").")
