"""Shared helpers of the maskit checks: property searches with a stated bound, rational printing."""

from __future__ import annotations

from typing import Any, Callable

from checks.registry import Context
from checks.verdict import Outcome, Reading, refuted, verified_bounded
from counterexamples.property_search import property_search
from theory.maskit.model import MarkovChain


S000, S001 = "000_211156f2009240b4.txt", "001_eb11505ae1399b83.txt"

# Definition 6 (thesis ch. 3) = Definition 1 (001 §2). Both documents read the same way on every point we
# checked: the gain is a DIFFERENCE posterior - prior (not a ratio), against the prior at the same time t,
# with "<=" (not "<": Example 1 calls a gain of exactly 1/6 "δ = 1/6-privacy"), and the adversary knows the
# chain M and the system A (the probabilistic vector / the simulatable rule). The one difference: 001
# quantifies over inputs with Pr[x] > 0 only; the thesis over all inputs - but Pr[X_t = s | o] is only
# defined for outputs o of positive probability, which both readings (and our ISPRIVATE) require, so the
# two coincide on every instance.
DEF6_SOURCE = (f"{S000} §3.2 Definition 6: 'for all possible outputs o (Pr[A(x) = o] > 0), for all times t and all sensitive "
               f"contexts s in S: Pr[X_t = s | o] - Pr[X_t = s] <= δ' and Example 1: prior 1/2, posterior 2/3 'gives δ = 1/6-privacy'; "
               f"{S001} §2 Definition 1 (same inequality, inputs 'sampled from the Markov chain M with non-zero probability'); "
               f"adversary knowing the system: {S000} §3.1 'adversaries knowing temporal correlations and also the system making this decision'")
DEF6_MEANING = ("δ-privacy means posterior minus prior <= δ (a difference, prior at the same time t, non-strict), for every output "
                "of positive probability, every t and every sensitive s, against an adversary who knows the chain and the system")


def one_reading(meaning: str, source: str, name: str = "as stated") -> tuple[Reading, ...]:
    """The single reading of a claim whose documents give one: ``meaning`` is prefixed with the phrase the
    ledger's readers look for."""
    return (Reading(name, "The documents give one reading: " + meaning, source),)


def def6_reading(meaning: str, source: str) -> tuple[Reading, ...]:
    """One reading of a claim about δ-privacy: the claim's own statement, with Definition 6 read as above."""
    return one_reading(f"{meaning} (with {DEF6_MEANING})", f"{source}; Definition 6: {DEF6_SOURCE}")


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
