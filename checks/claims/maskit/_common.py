"""Shared helpers of the maskit checks: property searches with a stated bound, rational printing."""

from __future__ import annotations

from typing import Any, Callable

from checks.registry import Context
from checks.verdict import Outcome, refuted, verified_bounded
from counterexamples.property_search import property_search
from theory.maskit.model import MarkovChain


def examples(ctx: Context, full: int, quick: int | None = None) -> int:
    return quick if (ctx.quick and quick is not None) else full


def describe_chain(ch: MarkovChain) -> dict:
    return {"contexts": list(ch.contexts), "initial": list(ch.initial), "steps": [[list(r) for r in m] for m in ch.steps]}


def describe(x: Any) -> Any:
    if isinstance(x, MarkovChain):
        return describe_chain(x)
    if isinstance(x, tuple):
        return [describe(v) for v in x]
    return x


def property_verdict(ctx: Context, name: str, strategy: Any, holds: Callable[[Any], bool], *, n: int,
                     encoding: str, verify: Callable[[Any], bool] | None = None, **evidence: Any) -> Outcome:
    """verified-bounded after ``n`` hypothesis examples without a counterexample, else refuted with
    the shrunk instance (re-verified by ``verify`` = the exact twin, when given)."""
    res = property_search(strategy, holds, examples=n, seed=ctx.int_seed(name), encoding=encoding,
                          verify=verify, describe=lambda w: describe(w))
    if res.found:
        return refuted(witness=res.witness, search=res.as_json(), **evidence)
    if res.status == "spurious":
        return Outcome("error", {"reason": "counterexample not confirmed by the exact twin", "search": res.as_json()})
    return verified_bounded(bound=res.bound, encoding=encoding, **evidence)
