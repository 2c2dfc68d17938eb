"""``built_once`` (counterexamples/strategies.py): one strategy object per factory and arguments, and the same draws as
a strategy built afresh at each draw - so the ledger's bounded searches try the very examples they tried before."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st

from privclaims.counterexamples import ads_strategies, maskit_strategies, querygen_strategies
from privclaims.counterexamples import strategies as shared
from privclaims.counterexamples.strategies import built_once


def test_one_object_per_factory_and_arguments():
    assert built_once(st.sampled_from, (1, 2, 3)) is built_once(st.sampled_from, (1, 2, 3))
    assert built_once(maskit_strategies.chains, 3, 3, max_den=4) is built_once(maskit_strategies.chains, 3, 3, max_den=4)
    assert built_once(st.sampled_from, (1, 2, 3)) is not built_once(st.sampled_from, (1, 2))
    assert built_once(maskit_strategies.chains, 3, 3, max_den=4) is not built_once(maskit_strategies.chains, 3, 3, max_den=2)
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


def _afresh(factory, *args, **kwargs):
    return factory(*args, **kwargs)


# Each composite that draws from built_once strategies, with arguments that reach those draws.
COMPOSITES = {
    "maskit.instances": lambda: maskit_strategies.instances(),
    "maskit.single_raises": lambda: maskit_strategies.single_raises(),
    "maskit.weak_generalisations": lambda: maskit_strategies.weak_generalisations(),
    "maskit.cut_hierarchies": lambda: maskit_strategies.cut_hierarchies(),
    "maskit.float_hard_instances": lambda: maskit_strategies.float_hard_instances(),
    "maskit.underflow_chains": lambda: maskit_strategies.underflow_chains(),
    "ads.instance_and_k": lambda: ads_strategies.instance_and_k(dyadic=True),
    "ads.hierarchy_instances": lambda: ads_strategies.hierarchy_instances(),
    "querygen.instances": lambda: querygen_strategies.instances(),
}


@pytest.mark.parametrize("name", sorted(COMPOSITES))
def test_same_examples_as_strategies_built_afresh(name, monkeypatch):
    kept = _examples(COMPOSITES[name]())
    for module in (maskit_strategies, ads_strategies, querygen_strategies, shared):
        monkeypatch.setattr(module, "built_once", _afresh, raising=False)
    fresh = _examples(COMPOSITES[name]())
    assert len(kept) == 60 and len(set(kept)) > 30  # many distinct examples: the comparison is not vacuous
    assert kept == fresh
