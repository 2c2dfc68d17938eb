"""Searches that share their draws (``counterexamples/shared_draws.py``): a search of a :class:`SharedDraws` is the
search of its strategy - the same instances handed to the property, in the same order, the same counts, bound and
witness - with the drawing done once per seed and budget.

Each test compares a shared search with an unshared one of the same strategy, seed and budget (so the premise the
sharing rests on, that drawing does not depend on the property while it holds, is tested on the strategies the ledger
shares: querygen's instances and dp's mechanisms, and on a small one)."""

from __future__ import annotations

import pytest
from hypothesis import strategies as st

from privclaims.counterexamples.instance_parts import ReadParts
from privclaims.counterexamples.property_search import VACUOUS, VacuousSearch, property_search
from privclaims.counterexamples.shared_draws import DrawsDiffer, SharedDraws


def logged(holds):
    """``holds`` and the list of every instance it is called with, in order (the property's own side effect)."""
    log = []

    def h(x):
        log.append(repr(x))
        return holds(x)

    return h, log


def counting(strategy):
    """``strategy`` and a list that grows by one at each instance it draws."""
    drawn = []
    return strategy.map(lambda x: drawn.append(1) or x), drawn


def search(strategy, holds, **kw):
    return property_search(strategy, holds, **{"examples": 60, "seed": 5, "encoding": "e", **kw})


def same(a, b):
    """Two search results equal in all but their time."""
    return (a.status, a.bound, a.encoding, repr(a.witness), a.verified_by_exact, a.statistics) == \
        (b.status, b.bound, b.encoding, repr(b.witness), b.verified_by_exact, b.statistics)


def querygen_instances():
    from privclaims.counterexamples.querygen_strategies import instances

    return instances()


def dp_cases():
    from privclaims.counterexamples.strategies import exp_epsilons, finite_mechanisms

    return st.tuples(finite_mechanisms(), exp_epsilons())


def small_lists():
    return st.lists(st.integers(0, 9), max_size=4)


STRATEGIES = {"querygen instances": querygen_instances, "dp mechanisms": dp_cases, "small lists": small_lists}


def sometimes_false(x) -> bool:
    """A property failing on a few instances of every strategy above (a function of the value alone, the same in every
    process: a digest of its example key)."""
    import hashlib

    from privclaims.counterexamples.example_keys import example_key

    return int(hashlib.sha256(repr(example_key(x)).encode()).hexdigest(), 16) % 11 != 3


@pytest.mark.parametrize("name", STRATEGIES)
def test_a_second_search_reads_the_first_ones_draws_and_equals_an_unshared_search(name):
    make = STRATEGIES[name]
    strategy, drawn = counting(make())
    shared = SharedDraws(strategy)
    first, first_log = logged(lambda x: True)
    second, second_log = logged(lambda x: len(repr(x)) > 0)
    a = search(shared, first)
    n = len(drawn)
    b = search(shared, second)
    assert len(drawn) == n  # the second search drew nothing
    alone, alone_log = logged(lambda x: len(repr(x)) > 0)
    c = search(make(), alone)
    assert a.exhausted and same(b, c) and same(a, c)
    assert second_log == alone_log == first_log  # the same instances, in the same order, each handed once


@pytest.mark.parametrize("name", STRATEGIES)
def test_a_counterexample_among_the_kept_instances_is_shrunk_as_in_an_unshared_search(name):
    """The property fails on a kept instance: Hypothesis draws again and shrinks; the property sees the instances
    before the counterexample once (its log equals an unshared search's, the shrinking calls included)."""
    make = STRATEGIES[name]
    shared = SharedDraws(make())
    search(shared, lambda x: True)
    holds, log = logged(sometimes_false)
    b = search(shared, holds)
    alone, alone_log = logged(sometimes_false)
    c = search(make(), alone)
    assert c.status == "witness" and same(b, c)
    assert log == alone_log


def test_premise_and_read_parts_count_alike_when_shared():
    strategy = st.tuples(st.integers(0, 5), st.integers(0, 1000))
    kw = {"premise": "t[0] even", "reads": ReadParts(("a", "b"), read=("a",)), "examples": 80}
    shared = SharedDraws(strategy)
    search(shared, lambda t: True, examples=80)  # drawn by a search counting whole instances
    b = search(shared, lambda t: VACUOUS if t[0] % 2 else True, **kw)
    c = search(strategy, lambda t: VACUOUS if t[0] % 2 else True, **kw)
    assert same(b, c) and b.statistics["distinct"] <= 6 < b.statistics["premise_met"] + 6


def test_an_undeclared_read_is_found_in_a_shared_search_too():
    from privclaims.counterexamples.instance_parts import UndeclaredRead

    shared = SharedDraws(st.tuples(st.integers(0, 5), st.integers(0, 5)))
    search(shared, lambda t: True)
    with pytest.raises(UndeclaredRead):
        search(shared, lambda t: t[1] >= 0, reads=ReadParts(("a", "b"), read=("a",)))


def test_a_property_mutating_its_instance_changes_only_its_own_copy():
    shared = SharedDraws(st.lists(st.integers(0, 9), max_size=4))
    for _ in range(2):  # the search that draws, then one that reads back: each leaves 99 in what it was handed
        search(shared, lambda xs: xs.append(99) is None)
    holds, log = logged(lambda xs: 99 not in xs)
    b = search(shared, holds)
    assert b.exhausted and log and all("99" not in x for x in log)


def test_another_seed_or_budget_draws_afresh():
    strategy, drawn = counting(small_lists())
    shared = SharedDraws(strategy)
    search(shared, lambda x: True)
    n = len(drawn)
    a = search(shared, lambda x: True, seed=6)
    assert len(drawn) > n
    m = len(drawn)
    b = search(shared, lambda x: True, examples=30)
    assert len(drawn) > m
    assert same(a, search(small_lists(), lambda x: True, seed=6))
    assert same(b, search(small_lists(), lambda x: True, examples=30))


def test_a_refuted_search_keeps_nothing():
    strategy, drawn = counting(small_lists())
    shared = SharedDraws(strategy)
    assert search(shared, sometimes_false).status == "witness"
    assert shared.kept(5, 60) is None
    n = len(drawn)
    assert search(shared, lambda x: True).exhausted and len(drawn) > n


def test_a_redraw_that_differs_from_the_kept_instances_is_an_error():
    """If drawing depended on more than the strategy, seed and earlier draws, the redraw after a counterexample among
    the kept instances would differ from them: the search says so instead of shrinking something else."""
    shared = SharedDraws(st.integers(0, 1000))
    shared.keep(5, 60, [1001, 1002, 1003])  # not what integers(0, 1000) draws
    with pytest.raises(DrawsDiffer, match="drew"):
        search(shared, lambda x: x != 1002)


def test_a_redraw_ending_before_the_kept_counterexample_is_an_error():
    shared = SharedDraws(st.sampled_from([0]))
    shared.keep(5, 60, [0, 0, 7])  # Hypothesis draws 0 once and stops: it never reaches the third
    with pytest.raises(DrawsDiffer, match="fewer"):
        search(shared, lambda x: x != 7)


def test_a_vacuous_shared_search_is_vacuous_and_its_bound_names_what_is_read():
    """(Also a mend: the vacuous search's message once put its reason where the bound names what is read.)"""
    shared = SharedDraws(st.tuples(st.integers(0, 3), st.integers(0, 3)))
    kw = {"premise": "never", "reads": ReadParts(("a", "b"), read=("a",))}
    for _ in range(2):  # drawn, then read back
        with pytest.raises(VacuousSearch, match=r"distinct in a \(what the property reads\).*no instance met the prem"):
            search(shared, lambda t: VACUOUS, **kw)


def test_shared_draws_wraps_a_strategy_only():
    with pytest.raises(TypeError, match="strategy"):
        SharedDraws([1, 2, 3])


def test_a_property_mutating_a_part_of_its_instance_changes_only_its_own_copy():
    """The copies are deep: a property appending to a list inside its instance leaves the kept instance as drawn."""
    shared = SharedDraws(st.tuples(st.lists(st.integers(0, 9), max_size=3)))
    for _ in range(2):
        search(shared, lambda t: t[0].append(99) is None)
    holds, log = logged(lambda t: 99 not in t[0])
    assert search(shared, holds).exhausted and log and all("99" not in x for x in log)


def test_a_property_sees_the_global_random_states_it_sees_under_hypothesis():
    """Hypothesis runs each example with the global random states seeded (and restores them after): a property
    reading ``random`` or numpy's global generator gets the same numbers on a kept instance."""
    import random

    import numpy as np

    shared = SharedDraws(small_lists())
    search(shared, lambda x: True)
    numbers, unshared = [], []
    search(shared, lambda x: numbers.append((random.random(), np.random.random())) is None)
    search(small_lists(), lambda x: unshared.append((random.random(), np.random.random())) is None)
    assert numbers == unshared and len(numbers) == 60 and len(set(numbers)) == 1  # seeded alike at each example


@pytest.mark.parametrize("name", STRATEGIES)
def test_a_property_raising_on_a_kept_instance_raises_as_in_an_unshared_search(name):
    """Hypothesis counts an exception as a failure and shrinks it: the shared search raises the same exception, on
    the same shrunk instance, after the same calls of the property."""
    make = STRATEGIES[name]

    def raising(x):
        if not sometimes_false(x):
            raise ValueError(f"bad {x!r}")
        return True

    shared = SharedDraws(make())
    search(shared, lambda x: True)
    holds, log = logged(raising)
    with pytest.raises(ValueError) as got:
        search(shared, holds)
    alone, alone_log = logged(raising)
    with pytest.raises(ValueError) as want:
        search(make(), alone)
    assert str(got.value) == str(want.value) and log == alone_log


def test_the_read_audit_audits_searches_that_read_back_kept_instances():
    """Each search of a shared strategy is audited, the ones handed kept instances too."""
    from privclaims.counterexamples.instance_parts import auditing_reads

    shared = SharedDraws(st.tuples(st.integers(0, 5), st.integers(0, 5)))
    with auditing_reads(first=5) as record:
        for _ in range(2):
            search(shared, lambda t: t[0] >= 0)  # never reads t[1], which varies
    assert record.audited == 2 and len(record.findings) == 2
    assert all(f["counted_never_used"] for f in record.findings)
