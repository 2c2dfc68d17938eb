"""The documents' ad-delivery model as validators (000_211156f2009240b4.txt §4.2-4.3, 002_9d55ef468949585c.txt §2-3).

A witness refuting an ads claim counts only inside this model:

* an **instance** for a generalised context ĉ: finitely many leaf contexts c → ĉ with ``Pr[c|ĉ]`` (non-negative,
  summing to 1), at least one ad, ``CTR(a|c)`` in [0, 1], payments ``p_a ≥ 0`` — one per ad (§4.2.1), or one per ad
  and context (the advertisers' bids of §4.3.2) — and optionally a CTR threshold τ in [0, 1] (§4.3.2);
* a **number of ads** k with ``1 ≤ k ≤ |𝒜|`` ("the server selects some k ads A ⊂ 𝒜"), and a price α ≥ 0 of one
  ad in the alternative objective Eq. (4.3);
* a **context hierarchy**: a rooted tree whose leaves are the exact contexts, with a prior over the leaves.

:func:`per_ad_realisation` shows that the two payment models have the same value matrices
``v(a, c) = p·CTR_τ(a|c)``: ``p_a = max_c v(a, c)`` and ``CTR = v/p_a`` realise any non-negative matrix with one
payment per ad.
"""

from __future__ import annotations

from typing import Any, Hashable, Mapping

from privclaims.theory.ads.model import AdInstance, ad_instance
from privclaims.theory.numbers import ZERO, Q

PAYMENT_MODELS = ("per-ad", "per-context")


def instance_problems(inst: Any, payments: str = "per-context") -> list[str]:
    """What keeps ``inst`` from being an instance of the model with ``payments`` = ``"per-ad"`` (one payment per
    ad, §4.2.1) or ``"per-context"`` (a payment per ad and context, §4.3.2); empty: it is one."""
    if payments not in PAYMENT_MODELS:
        raise ValueError(f"payments must be one of {PAYMENT_MODELS}, got {payments!r}")
    if not isinstance(inst, AdInstance):
        return [f"not an ad instance: {type(inst).__name__}"]
    out = []
    if inst.n_contexts == 0 or inst.n_ads == 0:
        out.append(f"{inst.n_ads} ads and {inst.n_contexts} contexts: the model has at least one of each")
    if any(w < 0 for w in inst.weights) or sum(inst.weights, ZERO) != 1:
        out.append(f"Pr[c|ĉ] = {[str(w) for w in inst.weights]} is not a distribution")
    for a, row in enumerate(inst.ctr):
        if len(row) != inst.n_contexts or any(not 0 <= x <= 1 for x in row):
            out.append(f"CTR row of ad {a} is not in [0, 1]^{inst.n_contexts}")
    for a, row in enumerate(inst.payments):
        if len(row) != inst.n_contexts or any(x < 0 for x in row):
            out.append(f"payments of ad {a} are not non-negative")
        elif payments == "per-ad" and len(set(row)) > 1:
            out.append(f"ad {a} has context-dependent payments {[str(x) for x in row]}: the per-ad model has one p_a")
    if inst.threshold is not None and not 0 <= inst.threshold <= 1:
        out.append(f"CTR threshold {inst.threshold} is outside [0, 1]")
    return out


def k_problems(inst: AdInstance, k: Any) -> list[str]:
    """``k`` must be an integer with 1 ≤ k ≤ |𝒜| (the server sends k of the ads)."""
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= inst.n_ads:
        return [f"k = {k!r} is not an integer in 1..|𝒜| = {inst.n_ads}"]
    return []


def alpha_problems(alpha: Any) -> list[str]:
    """The price α of one ad in Eq. (4.3) is a non-negative number."""
    try:
        ok = Q(alpha) >= 0
    except (TypeError, ValueError):
        ok = False
    return [] if ok else [f"α = {alpha!r} is not a non-negative number"]


def hierarchy_problems(parent: Mapping[Hashable, Hashable | None], prior: Mapping[Hashable, Any] | None = None) -> list[str]:
    """A rooted tree (one root, every node reaches it) whose leaves carry the prior (a distribution)."""
    out = []
    roots = [v for v, p in parent.items() if p is None]
    if len(roots) != 1:
        out.append(f"{len(roots)} roots: a hierarchy has exactly one")
    for v in parent:
        seen, x = set(), v
        while x is not None:
            if x in seen or x not in parent:
                out.append(f"node {v!r} does not reach the root")
                break
            seen.add(x)
            x = parent[x]
    if prior is not None:
        leaves = {v for v in parent if not any(p == v for p in parent.values())}
        if set(prior) - leaves:
            out.append(f"prior on non-leaves {sorted(map(str, set(prior) - leaves))}")
        if any(Q(x) < 0 for x in prior.values()) or sum((Q(x) for x in prior.values()), ZERO) != 1:
            out.append("the prior is not a distribution over the leaves")
    return out


def per_ad_realisation(inst: AdInstance) -> AdInstance:
    """An instance with one payment per ad, no threshold and the same contexts, weights and values
    ``v(a, c)`` as ``inst``: ``p_a = max_c v(a, c)`` (1 when the row is 0) and ``CTR(a|c) = v(a, c)/p_a``."""
    vals = inst.values()
    pays, ctrs = [], []
    for row in vals:
        p = max(row)
        pays.append(p if p > 0 else Q(1))
        ctrs.append([v / pays[-1] for v in row])
    return ad_instance(list(inst.weights), ctrs, pays, contexts=list(inst.contexts))
