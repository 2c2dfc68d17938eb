"""``built_once`` (counterexamples/strategies.py): one strategy object per factory and arguments, and the same draws as
the composites as written before it - so the ledger's bounded searches try the very examples they tried before."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st

from privclaims.counterexamples import ads_strategies, maskit_strategies, querygen_strategies
from privclaims.counterexamples import strategies as shared
from privclaims.counterexamples.strategies import built_once
from privclaims.theory.maskit.model import markov_chain
from privclaims.theory.maskit.weak import set_labelled
from privclaims.theory.numbers import Q
from privclaims.theory.querygen.model import STAR, make_query


def test_one_object_per_factory_and_arguments():
    assert built_once(st.sampled_from, (1, 2, 3)) is built_once(st.sampled_from, (1, 2, 3))
    assert built_once(maskit_strategies.chains, 3, 3, max_den=4) is built_once(maskit_strategies.chains, 3, 3, max_den=4)
    assert built_once(st.sampled_from, (1, 2, 3)) is not built_once(st.sampled_from, (1, 2))
    assert built_once(maskit_strategies.chains, 3, 3, max_den=4) is not built_once(maskit_strategies.chains, 3, 3, max_den=2)
    assert built_once(st.sampled_from, (1, 2)) is not built_once(st.sampled_from, (Q(1), Q(2)))  # equal, other types
    assert built_once(st.integers, 1, 3) is not built_once(st.integers, True, 3)
    with pytest.raises(TypeError, match="unhashable"):
        built_once(st.sampled_from, [1, 2, 3])  # a list is refused, never rebuilt silently at each draw


def _examples(strategy, n: int = 60) -> list[str]:
    """The first ``n`` examples hypothesis generates from ``strategy`` for a fixed seed, as their reprs."""
    seen: list[str] = []

    def record(x) -> bool:
        seen.append(repr(x))
        return False

    cfg = settings(max_examples=n, database=None, deadline=None, phases=[Phase.generate],
                   suppress_health_check=list(HealthCheck))
    with pytest.raises(Exception):  # NoSuchExample: nothing satisfies ``record``
        find(strategy, record, settings=cfg, random=random.Random(5))
    return seen


# The composites as they were written before built_once (9e626ff^), each building its strategies at every draw; the
# inner composites they call are unchanged. Comparing with these (not with built_once swapped for a plain call) also
# catches an argument changed while a call was rewritten.
@st.composite
def _maskit_instances(draw, max_n=3, max_T=3, d=3, max_den=4):
    ch = draw(maskit_strategies.chains(max_n, max_T, max_den=max_den))
    p = draw(maskit_strategies.grid_vectors(ch, d))
    k = draw(st.integers(1, ch.n))
    S = draw(st.permutations(list(ch.contexts)))[:k]
    return ch, p, sorted(S), Q(draw(st.integers(1, 11)), 12)


@st.composite
def _nudged(draw, n):
    d = list(draw(shared.distributions(n, 3)))
    if draw(st.booleans()):
        a = draw(st.sampled_from([i for i in range(n) if d[i] > 0]))
        b = draw(st.integers(0, n - 1))
        e = draw(st.sampled_from(maskit_strategies.TINY_MOVES))
        if a != b and d[a] > e:
            d[a] -= e
            d[b] += e
    return d


@st.composite
def _float_hard(draw, max_n=4, max_T=5):
    n, T = draw(st.integers(2, max_n)), draw(st.integers(1, max_T))
    init = draw(_nudged(n))
    if draw(st.booleans()):
        m = [draw(_nudged(n)) for _ in range(n)]
        if draw(st.booleans()):
            sw = [1, 0] + list(range(2, n))
            m = [[(m[i][j] + m[sw[i]][sw[j]]) / 2 for j in range(n)] for i in range(n)]
            init = [(init[i] + init[sw[i]]) / 2 for i in range(n)]
        steps = [m] * (T - 1)
    else:
        steps = [[draw(_nudged(n)) for _ in range(n)] for _ in range(T - 1)]
    ch = markov_chain([f"c{i}" for i in range(n)], init, steps)
    hard = maskit_strategies.HARD_P
    p = ([[draw(st.sampled_from(hard))] * n for _ in range(T)] if draw(st.booleans())
         else [[draw(st.sampled_from(hard)) for _ in range(n)] for _ in range(T)])
    sens = tuple(sorted(draw(st.sets(st.integers(0, n - 1), min_size=1))))
    if draw(st.booleans()):
        p = [[Q(1) if i in sens else v for i, v in enumerate(row)] for row in p]
    return ch, p, sens


@st.composite
def _underflow(draw, max_n=3, max_T=4, near_certificate=False):
    ch = draw(maskit_strategies.chains(max_n, max_T, min_T=2))
    masses = (maskit_strategies.certificate_masses(ch.T) if near_certificate
              else [Q(1, 10 ** k) for k in maskit_strategies.TINY_EXPONENTS])

    def tiny(row):
        if not draw(st.booleans()):
            return list(row)
        src = draw(st.sampled_from([j for j, x in enumerate(row) if x > 0]))
        dst = draw(st.sampled_from([j for j in range(len(row)) if j != src]))
        return maskit_strategies.shift_mass(list(row), src, dst, draw(st.sampled_from(masses)))

    return markov_chain(ch.contexts, tiny(ch.initial), [[tiny(r) for r in m] for m in ch.steps])


@st.composite
def _weak(draw, max_n=3, max_T=3):
    labels = maskit_strategies.WEAK_LABELS
    ids = draw(maskit_strategies.chains(max_n=max_n, max_T=max_T))
    truth = {a: draw(st.sampled_from(labels)) for a in ids.contexts}
    Pi = {a: {truth[a]} | set(draw(st.lists(st.sampled_from(labels), max_size=2))) for a in ids.contexts}
    lam = {a: dict(zip(sorted(Pi[a]), draw(shared.distributions(len(Pi[a]), 4)))) for a in ids.contexts}
    return set_labelled(ids, Pi, truth), truth, lam, Q(draw(st.integers(1, 11)), 12)


@st.composite
def _instance_and_k(draw, max_ads=5, max_contexts=4, **kw):
    inst = draw(ads_strategies.ad_instances(max_ads=max_ads, max_contexts=max_contexts, **kw))
    return inst, draw(st.integers(1, inst.n_ads))


@st.composite
def _hierarchy_instances(draw, max_leaves=5, max_ads=4):
    parent = draw(ads_strategies.trees(max_leaves))
    leaves = [v for v in parent if not any(p == v for p in parent.values())]
    wts = draw(st.lists(st.integers(1, 5), min_size=len(leaves), max_size=len(leaves)))
    prior = {c: Q(w, sum(wts)) for c, w in zip(leaves, wts)}
    m = draw(st.integers(1, max_ads))
    ctr = {c: [Q(draw(st.integers(0, 4)), 4) for _ in range(m)] for c in leaves}
    pay = {c: [Q(draw(st.integers(0, 2)), 2) for _ in range(m)] for c in leaves}
    return parent, prior, ctr, pay, draw(st.sampled_from(sorted(parent)))


@st.composite
def _querygen_instances(draw, **kw):
    t = draw(querygen_strategies.tables(**kw))
    target = draw(st.integers(0, t.m - 1))
    q = [STAR if i == target or draw(st.booleans()) is False else draw(st.sampled_from(t.domains[i]))
         for i in range(t.m)]
    return t, make_query(t, q), target, Fraction(draw(st.integers(4, 12)), 4)


# name -> (the composite now, the composite as written before), with arguments that reach every rewritten draw
COMPOSITES = {
    "maskit.instances": (lambda: maskit_strategies.instances(max_T=4, d=2, max_den=2),
                         lambda: _maskit_instances(max_T=4, d=2, max_den=2)),
    "maskit.float_hard_instances": (maskit_strategies.float_hard_instances, _float_hard),
    "maskit.underflow_chains": (maskit_strategies.underflow_chains, _underflow),
    "maskit.underflow_chains near": (lambda: maskit_strategies.underflow_chains(max_T=5, near_certificate=True),
                                     lambda: _underflow(max_T=5, near_certificate=True)),
    "maskit.weak_generalisations": (maskit_strategies.weak_generalisations, _weak),
    "ads.instance_and_k": (lambda: ads_strategies.instance_and_k(dyadic=True, threshold=True),
                           lambda: _instance_and_k(dyadic=True, threshold=True)),
    "ads.hierarchy_instances": (lambda: ads_strategies.hierarchy_instances(max_leaves=5, max_ads=3),
                                lambda: _hierarchy_instances(max_leaves=5, max_ads=3)),
    "querygen.instances": (querygen_strategies.instances, _querygen_instances),
}


@pytest.mark.parametrize("name", sorted(COMPOSITES))
def test_same_examples_as_the_composites_written_before(name):
    now, before = COMPOSITES[name]
    kept = _examples(now())
    assert len(kept) == 60 and len(set(kept)) > 30  # many distinct examples: the comparison is not vacuous
    assert kept == _examples(before())
