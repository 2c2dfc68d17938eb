"""Hypothesis strategies for exact ad instances (shared by the ads checks and property_tests).

Values are dyadic (CTR and payments multiples of 1/4 or 1/8, weights multiples of 1/16) when
``dyadic=True``, so float64 sums are exact and the fast twin must reproduce the exact twin's
selections, ties included. Otherwise small-denominator rationals (ties and near-ties frequent).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from privclaims.counterexamples.strategies import built_once
from privclaims.theory.ads.model import AdInstance, ad_instance
from privclaims.theory.numbers import Q


# The strategies an instance is drawn from, built once (a strategy built per example is validated per example; the
# draws, and so the examples for a seed, are the same).
_CTR_DYADIC, _CTR = st.integers(0, 8), st.integers(0, 6)
_PAY_DYADIC, _PAY = st.integers(0, 4).map(lambda x: Q(x, 4)), st.integers(0, 3).map(lambda x: Q(x, 2))
_THRESHOLDS = st.sampled_from([None, Q(1, 4), Q(1, 2)])


def _weights(n: int, hi: int) -> Any:
    """``n`` weights in 0..hi, not all 0 (drawn through :func:`built_once`)."""
    return st.lists(st.integers(0, hi), min_size=n, max_size=n).filter(lambda w: sum(w) > 0)


@st.composite
def ad_instances(draw: Any, max_ads: int = 5, max_contexts: int = 4, dyadic: bool = False,
                 context_payments: bool = False, threshold: bool = False, min_ads: int = 1) -> AdInstance:
    m = draw(built_once(st.integers, min_ads, max_ads))
    n = draw(built_once(st.integers, 1, max_contexts))
    if dyadic:
        wts = list(draw(built_once(_weights, n, 4)))
        # normalise to a power-of-two total by padding the last weight
        total = 1
        while total < sum(wts):
            total *= 2
        wts[-1] += total - sum(wts)
        weights = [Q(x, total) for x in wts]
        ctr = [[Q(draw(_CTR_DYADIC), 8) for _ in range(n)] for _ in range(m)]
        pay_vals = _PAY_DYADIC
    else:
        wts = draw(built_once(_weights, n, 6))
        weights = [Q(x, sum(wts)) for x in wts]
        ctr = [[Q(draw(_CTR), 6) for _ in range(n)] for _ in range(m)]
        pay_vals = _PAY
    if context_payments:
        payments: Any = [[draw(pay_vals) for _ in range(n)] for _ in range(m)]
    else:
        payments = [draw(pay_vals) for _ in range(m)]
    th = draw(_THRESHOLDS) if threshold else None
    return ad_instance(weights, ctr, payments, threshold=th)


@st.composite
def instance_and_k(draw: Any, max_ads: int = 5, max_contexts: int = 4, **kw: Any) -> tuple[AdInstance, int]:
    inst = draw(built_once(ad_instances, max_ads=max_ads, max_contexts=max_contexts, **kw))
    return inst, draw(st.integers(1, inst.n_ads))


INSTANCE_AND_K_PARTS = ("instance", "k")
"""The parts of an :func:`instance_and_k` draw."""


@st.composite
def instance_and_alpha(draw: Any, max_ads: int = 5, max_contexts: int = 4, **kw: Any) -> tuple[AdInstance, Any]:
    inst = draw(built_once(ad_instances, max_ads=max_ads, max_contexts=max_contexts, **kw))
    return inst, Q(draw(st.integers(0, 8)), 16)


def describe_instance(x: Any) -> Any:
    """JSON form of an instance or a (instance, parameter) pair for a witness."""
    if isinstance(x, tuple):
        return {"instance": x[0].as_json(), "parameter": str(x[1])}
    return x.as_json()


@st.composite
def trees(draw: Any, max_leaves: int = 6) -> dict:
    """A random rooted tree ``parent`` map over leaves ``'l0'..`` and internal nodes ``'n0'..`` (root
    has parent None); every internal node has >= 2 children."""
    n = draw(st.integers(1, max_leaves))
    nodes = [f"l{i}" for i in range(n)]
    parent: dict = {v: None for v in nodes}
    frontier = list(nodes)
    t = 0
    while len(frontier) > 1:
        size = draw(st.integers(2, len(frontier)))
        start = draw(st.integers(0, len(frontier) - size))
        group = frontier[start:start + size]
        new = f"n{t}"
        t += 1
        parent[new] = None
        for g in group:
            parent[g] = new
        frontier = frontier[:start] + [new] + frontier[start + size:]
    return parent


@st.composite
def hierarchies_with_ctr(draw: Any, max_leaves: int = 5, max_ads: int = 4) -> tuple[dict, dict, dict, Any]:
    """(parent, prior over leaves, CTR vectors per leaf, a node ĉ with positive mass)."""
    parent = draw(built_once(trees, max_leaves))
    children = {v: [] for v in parent}
    for v, p in parent.items():
        if p is not None:
            children[p].append(v)
    leaves = [v for v in parent if not children[v]]
    wts = draw(st.lists(st.integers(1, 5), min_size=len(leaves), max_size=len(leaves)))
    prior = {c: Q(w, sum(wts)) for c, w in zip(leaves, wts)}
    m = draw(st.integers(1, max_ads))
    ctr = {c: [Q(draw(st.integers(0, 4)), 4) for _ in range(m)] for c in leaves}
    chat = draw(built_once(st.sampled_from, tuple(sorted(parent))))
    return parent, prior, ctr, chat


@st.composite
def hierarchy_instances(draw: Any, max_leaves: int = 5, max_ads: int = 4, payments: bool = True) -> tuple:
    """(parent, prior over leaves, CTR per leaf, payments per leaf, ĉ): a hierarchy with context-dependent bids, or
    with ``payments=False`` every payment 1, not drawn (a search of the pay-per-ad model then tries, and counts as
    distinct, only instances that differ in what that model reads)."""
    parent = draw(built_once(trees, max_leaves))
    leaves = [v for v in parent if not any(p == v for p in parent.values())]
    wts = draw(st.lists(st.integers(1, 5), min_size=len(leaves), max_size=len(leaves)))
    prior = {c: Q(w, sum(wts)) for c, w in zip(leaves, wts)}
    m = draw(st.integers(1, max_ads))
    ctr = {c: [Q(draw(st.integers(0, 4)), 4) for _ in range(m)] for c in leaves}
    pay = {c: [Q(draw(st.integers(0, 2)), 2) if payments else Q(1) for _ in range(m)] for c in leaves}
    return parent, prior, ctr, pay, draw(built_once(st.sampled_from, tuple(sorted(parent))))
