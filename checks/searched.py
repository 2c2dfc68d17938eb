"""A claim decided by a bounded counterexample search (Hypothesis), as an outcome: the one place where a search's
result becomes a verdict, for the papers' checks (maskit's ``property_verdict`` passes its defaults) and for a
project's own (:mod:`privclaims.ledger` exports it).

Nothing here imports Hypothesis at import: the search (:mod:`~privclaims.counterexamples.property_search`) is imported
when a check runs, so the ledger starts without it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from privclaims.checks.registry import Context
from privclaims.checks.verdict import Outcome, in_model, refuted, verified_bounded

if TYPE_CHECKING:
    from privclaims.counterexamples.instance_parts import ReadParts

SHRUNK = "the instance hypothesis shrank to"


def property_verdict(ctx: Context, name: str, strategy: Any, holds: Callable[[Any], Any], *, examples: int,
                     encoding: str, model: tuple[str, Callable[[Any], list[str]]],
                     verify: Callable[[Any], bool] | None = None, describe: Callable[[Any], Any] = lambda w: w,
                     premise: str | None = None, reads: ReadParts | tuple[str, Callable[[Any], Any]] | None = None,
                     minimal: str = SHRUNK, **evidence: Any) -> Outcome:
    """``verified-bounded`` after up to ``examples`` instances drawn from ``strategy`` (seeded by the run's seed and
    ``name``) without a counterexample: the bound states how many were tried and distinct, and with ``premise`` how
    many met it (``holds`` returns ``VACUOUS`` outside it). Else ``refuted`` with the shrunk instance (shown by
    ``describe``; re-verified by ``verify``, the exact twin, when given: an unconfirmed one is an ``error``) and its
    validation against ``model`` = (the model's name, a validator returning the instance's problems: none means the
    witness is inside the model), minimal in the sense ``minimal`` says. ``reads``: what ``holds`` reads of an
    instance (:class:`~privclaims.counterexamples.instance_parts.ReadParts`, or (what, projection)): instances are
    counted distinct by it. ``evidence`` goes into the outcome either way. A search that stopped short of its bound
    without a witness (any status but ``none-up-to-bound``) is an ``error``, never ``verified-bounded``."""
    from privclaims.counterexamples.property_search import property_search

    raw: dict[str, Any] = {}
    res = property_search(strategy, holds, examples=examples, seed=ctx.int_seed(name), encoding=encoding,
                          verify=verify, describe=lambda w: (raw.__setitem__("w", w), describe(w))[1], premise=premise,
                          reads=reads)
    if res.found:
        return refuted(witness=res.witness, search=res.as_json(),
                       model=in_model(model[0], model[1](raw["w"]), minimal=minimal), **evidence)
    if res.status == "spurious":
        return Outcome("error", {"reason": "counterexample not confirmed by the exact twin", "search": res.as_json()})
    if not res.exhausted:  # a search that stopped short of its bound certifies nothing up to it
        return Outcome("error", {"reason": f"the search did not search its whole bound ({res.status})",
                                 "search": res.as_json()})
    return verified_bounded(bound=res.bound, encoding=encoding, **evidence)
