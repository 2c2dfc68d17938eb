"""From released statistics to ad delivery: the CTR estimates of Estimates/TopDown (Algorithms 7-8,
000_211156f2009240b4.txt §5.5; 002_9d55ef468949585c.txt §4) feed the server's ad selection of
000 §4.3 / 002 §3 (``privclaims.theory.ads``).

For a generalised context ``ĉ`` (a node of the hierarchy) the server needs, for each context ``c``
below it, ``Pr[c | ĉ]`` and ``CTR(a | c)``. From a TopDown release:

* ``Pr[c | ĉ]`` = released count of ``c`` / sum of the released counts of ``ĉ``'s children
  (noisy counts are clipped at 0; when every child's count is 0 the children are weighted equally);
* ``CTR(a | c)`` = the released estimate at the deepest node on the path root → ``c`` where one was
  released for ``a`` (TopDown only expands nodes above ``min_support``; deeper contexts back off
  to their ancestors), clipped into [0, 1]; 0 when ``a`` has no estimate on the path.

Everything stays exact (the release's counts and CTRs are rationals); the result is a validated
:class:`privclaims.theory.ads.model.AdInstance`, ready for ``privclaims.theory.ads.exact.greedy``.
"""

from __future__ import annotations

from typing import Any, Hashable, Sequence

from privclaims.theory.ads.model import AdInstance, ad_instance
from privclaims.theory.count.exact_topdown import EstimatesResult
from privclaims.theory.count.hierarchy import Hierarchy
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import ONE, ZERO, Q


def _clip01(x: Any) -> Any:
    return min(max(Q(x), ZERO), ONE)


def backed_off_ctr(res: EstimatesResult, h: Hierarchy, ad: Hashable, context: Hashable) -> Any:
    """The released CTR of ``ad`` at the deepest node on the path to ``context`` that has one (or 0)."""
    best = None
    for v in h.path(context):
        est = res.ctr.get((ad, v))
        if est is not None:
            best = est
    return ZERO if best is None else _clip01(best)


def delivery_instance(res: EstimatesResult, h: Hierarchy, generalized: Hashable, ads: Sequence[Hashable],
                      payments: Sequence[object] | None = None, threshold: object = None) -> AdInstance:
    """The ad-selection instance for ``generalized`` (its children are the contexts) from a release."""
    if generalized not in h.children:
        raise InvalidInput(f"unknown generalised context {generalized!r}")
    contexts = list(h.children[generalized])
    if not contexts:
        raise InvalidInput(f"generalised context {generalized!r} has no contexts below it")
    if not ads:
        raise InvalidInput("no ads to deliver")
    counts = [max(Q(res.counts.get(c, ZERO)), ZERO) for c in contexts]
    total = sum(counts, ZERO)
    weights = [c / total for c in counts] if total > 0 else [Q(1, len(contexts))] * len(contexts)
    ctr = [[backed_off_ctr(res, h, a, c) for c in contexts] for a in ads]
    return ad_instance(weights, ctr, payments, threshold=threshold, contexts=contexts, names=list(ads))
