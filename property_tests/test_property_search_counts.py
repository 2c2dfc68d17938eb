"""A bounded search says what it searched: the instances it tried and how many were distinct
(``counterexamples/property_search.py``, ``counterexamples/example_keys.py``).

Each count is checked against a log kept by the property itself, independently of the search's own tally."""

from __future__ import annotations

import dataclasses
import datetime
import re
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import strategies as st

from privclaims.counterexamples.example_keys import example_key
from privclaims.counterexamples.property_search import VACUOUS, VacuousSearch, property_search
from privclaims.theory.numbers import Q
from property_tests.conftest import ROOT


def logged(holds):
    """``holds`` and the list of every instance it is called with, in order."""
    log = []

    def h(x):
        log.append(x)
        return holds(x)

    return h, log


def test_a_search_that_holds_counts_every_instance_and_the_distinct_ones():
    # 31^2 pairs, more than the budget, drawn as their sums mod 7: many draws, at most seven instances
    strategy = st.tuples(st.integers(0, 30), st.integers(0, 30)).map(lambda t: [Q(t[0] + t[1]) % 7])  # new objects
    holds, log = logged(lambda s: True)
    res = property_search(strategy, holds, examples=60, seed=3, encoding="pairs")
    distinct = len({str(v) for v in log})
    assert res.exhausted and len(log) == 60
    assert distinct <= 7  # the count is not the budget again
    assert res.statistics == {"examples": 60, "tried": 60, "distinct": distinct}
    assert res.bound == f"60 hypothesis examples, {distinct} distinct (seed 3)"


def test_a_property_reading_part_of_its_instance_counts_distinct_instances_by_that_part():
    """``reads=(what, projection)``: instances equal in what the property reads count once, whatever else was drawn;
    the premise's distinct count likewise, and the bound names what was counted."""
    holds, log = logged(lambda t: VACUOUS if t[0] % 2 else True)
    pairs = st.tuples(st.integers(0, 5), st.integers(0, 1000))
    res = property_search(pairs, holds, examples=80, seed=2, encoding="t", premise="t[0] even",
                          reads=("the first number", lambda t: t[0]))
    firsts, met = {t[0] for t in log}, {t[0] for t in log if t[0] % 2 == 0}
    assert len(log) == 80 and len({tuple(t) for t in log}) > len(firsts)  # the whole pairs would count more
    assert res.statistics == {"examples": 80, "tried": 80, "distinct": len(firsts), "distinct_in": "the first number",
                              "premise": "t[0] even", "premise_met": sum(t[0] % 2 == 0 for t in log),
                              "premise_met_distinct": len(met)}
    assert res.bound.startswith(f"80 hypothesis examples, {len(firsts)} distinct in the first number (what the "
                                "property reads); the premise (t[0] even) met by")


def test_a_search_stopped_early_says_so():
    holds, log = logged(lambda n: True)
    res = property_search(st.integers(0, 3), holds, examples=100, seed=1, encoding="n")
    assert res.exhausted and sorted(log) == [0, 1, 2, 3]
    assert res.statistics == {"examples": 100, "tried": 4, "distinct": 4}
    assert res.bound == "100 hypothesis examples asked, 4 tried (Hypothesis stopped early), 4 distinct (seed 1)"


def test_a_found_counterexample_counts_the_instances_up_to_it_not_the_shrinking():
    holds, log = logged(lambda n: n < 500)
    res = property_search(st.integers(0, 1000), holds, examples=300, seed=1, encoding="n < 500")
    first = next(i for i, n in enumerate(log) if n >= 500) + 1
    assert res.found and res.witness == 500
    assert len(log) > first  # shrinking called the property again; those calls are not counted
    assert res.statistics == {"examples": 300, "tried": first, "distinct": len(set(log[:first]))}
    assert res.bound == f"300 hypothesis examples asked, the first counterexample at example {first} (then shrunk), " \
                        f"{len(set(log[:first]))} distinct (seed 1)"


def test_a_premise_counts_the_instances_that_met_it():
    holds, log = logged(lambda n: VACUOUS if n % 3 else True)
    sums = st.tuples(st.integers(0, 30), st.integers(0, 30)).map(lambda t: Q((t[0] + t[1]) % 12))  # repeated values
    res = property_search(sums, holds, examples=80, seed=5, encoding="n", premise="3 divides n")
    met = [n for n in log if n % 3 == 0]
    assert res.exhausted and len(log) == 80 and 0 < len(met) < 80
    assert res.statistics == {"examples": 80, "tried": 80, "distinct": len(set(log)), "premise": "3 divides n",
                              "premise_met": len(met), "premise_met_distinct": len(set(met))}
    assert res.bound == (f"80 hypothesis examples, {len(set(log))} distinct; the premise (3 divides n) met by "
                         f"{len(met)}, {len(set(met))} distinct (seed 5)")


def test_a_premise_every_instance_met_is_still_stated():
    res = property_search(st.integers(0, 1000), lambda n: True, examples=40, seed=5, encoding="n", premise="n >= 0")
    assert res.statistics["premise_met"] == res.statistics["tried"] == 40
    assert res.bound.endswith(f"; the premise (n >= 0) met by 40, {res.statistics['premise_met_distinct']} distinct "
                              f"(seed 5)")


def test_a_vacuous_instance_is_never_a_counterexample_even_while_shrinking():
    holds, log = logged(lambda n: VACUOUS if n % 2 else n < 500)
    res = property_search(st.integers(0, 1000), holds, examples=300, seed=1, encoding="n < 500", premise="n even")
    first = next(i for i, n in enumerate(log) if n >= 500 and n % 2 == 0) + 1
    met = [n for n in log[:first] if n % 2 == 0]
    assert res.found and res.witness == 500  # 499 and 501 are vacuous: not failures
    assert (res.statistics["tried"], res.statistics["premise_met"]) == (first, len(met))


def test_a_search_no_instance_of_which_met_the_premise_verified_nothing():
    with pytest.raises(VacuousSearch, match=r"premise \(n > 10\) met by 0"):
        property_search(st.integers(0, 10), lambda n: VACUOUS, examples=50, seed=1, encoding="n", premise="n > 10")


def test_vacuous_needs_a_declared_premise():
    with pytest.raises(TypeError, match="declares no premise"):
        property_search(st.integers(0, 10), lambda n: VACUOUS if n > 5 else True, examples=50, seed=1, encoding="n")


@dataclasses.dataclass(frozen=True)
class Cached:
    value: tuple
    cache: dict = dataclasses.field(default_factory=dict, compare=False)


class Marker:
    pass


class Opaque:
    def __init__(self, v):
        self.v = v


def test_example_keys_are_equal_for_equal_values_only():
    key = example_key
    assert len({key(1), key(True), key(Fraction(1)), key(Q(1)), key(1.0)}) == 5  # typed
    assert key({"a": 1, "b": Q(1, 2)}) == key({"b": Q(1, 2), "a": 1})  # a mapping has no order
    assert key([1, 2]) != key([2, 1]) and key([1, 2]) != key((1, 2))  # a sequence has one, and a type
    assert key({3, 1}) == key({1, 3}) and key({1, 3}) != key(frozenset({1, 3}))
    assert key(Cached((1,), {"filled": 1})) == key(Cached((1,)))  # compare=False is a cache
    assert key(Cached((1,))) != key(Cached((Q(1),)))
    assert key(0.1) != key(0.1 + 2 ** -56) and key(float("nan")) == key(float("nan"))
    assert key(np.array([1, 2])) != key(np.array([[1, 2]])) and key(np.array([1.0])) != key(np.array([1]))
    assert key(Marker()) == key(Marker())
    with pytest.raises(TypeError, match="Opaque"):  # never a repr holding an address
        key(Opaque(1))
    assert key(-0.0) != key(0.0)  # (equal, but a search may tell them apart: keyed by their bits)
    import gmpy2

    assert key(gmpy2.mpz(3)) != key(gmpy2.mpz(5)) and key(gmpy2.mpz(3)) != key(3)
    for c_value in (Decimal("1.5"), datetime.date(2006, 3, 1), range(3)):  # no __dict__: refused, never keyed by class
        with pytest.raises(TypeError):
            key(c_value)


def test_distinct_counts_values_not_their_reprs():
    """Equal dicts built in other insertion orders print differently and are one instance; the key is taken before the
    property runs (a property that changes its instance does not make it another one)."""
    orders = st.permutations(["a", "b", "c", "d"]).map(lambda keys: {k: Q(len(k)) for k in keys})
    res = property_search(orders, lambda d: True, examples=30, seed=2, encoding="one dict in 24 orders")
    assert res.statistics == {"examples": 30, "tried": 24, "distinct": 1}  # 4! orders, then Hypothesis stops
    counter = iter(range(10 ** 6))
    residues = st.tuples(st.integers(0, 30), st.integers(0, 30)).map(lambda t: [(t[0] + t[1]) % 3])

    def grows(v):
        v.append(next(counter))
        return True

    res = property_search(residues, grows, examples=40, seed=2, encoding="three values, each changed by the property")
    assert (res.statistics["tried"], res.statistics["distinct"]) == (40, 3)


def test_a_search_that_generated_nothing_verified_nothing():
    with pytest.raises(VacuousSearch, match="generated no instance"):
        property_search(st.integers(0, 10).filter(lambda n: n > 10), lambda n: True, examples=20, seed=1, encoding="n")


def test_a_set_of_strings_has_one_key_whatever_the_hash_seed():
    code = ("from privclaims.counterexamples.example_keys import example_key as k; "
            "print(repr(k([{'ab', 'cd', 'ef', 'gh'}, {'x': frozenset({'p', 'q', 'r'})}])))")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": seed, "PATH": ""}).stdout for seed in ("1", "2", "3")}
    assert len(outs) == 1 and outs != {""}


SEEDED_BY_LITERALS = re.compile(r"\b(?:st|strategies)\.(text|characters|from_regex|binary|floats|complex_numbers|"
                                r"decimals|fractions|emails|dates|datetimes|times|timedeltas|uuids|ip_addresses)\b")


def test_the_ledgers_strategies_draw_nothing_hypothesis_seeds_with_loaded_literals():
    """Hypothesis mixes string, byte and float literals of every local module loaded in the process into those draws
    (and integers of magnitude >= 100), so a ledger search drawing them would try other instances, and state another
    distinct count, depending on which checks ran before it in its worker. The searches live in counterexamples/ and
    checks/; none may call such a strategy (the README's "A bound says what was searched")."""
    found = [f"{p.relative_to(ROOT)}:{i}: {m.group(0)}"
             for folder in ("counterexamples", "checks") for p in sorted((ROOT / folder).rglob("*.py"))
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             for m in SEEDED_BY_LITERALS.finditer(line)]
    assert not found


def _strategy_factories():
    """The counterexamples' strategies that take no argument (the others are drawn inside them)."""
    import importlib
    import inspect

    from hypothesis.strategies import SearchStrategy

    for name in ("strategies", "maskit_strategies", "ads_strategies", "querygen_strategies"):
        module = importlib.import_module(f"privclaims.counterexamples.{name}")
        for attr, obj in sorted(vars(module).items()):
            if attr.startswith("_") or inspect.isclass(obj) or getattr(obj, "__module__", None) != module.__name__:
                continue
            try:
                strategy = obj()
            except TypeError:  # takes arguments: a part of the composites below
                continue
            if isinstance(strategy, SearchStrategy):
                yield f"{name}.{attr}", strategy


def test_the_search_strategies_draw_only_choices_no_literal_can_enter(monkeypatch):
    """The dynamic half of the test above: every choice the counterexamples' strategies draw is offered to Hypothesis'
    pool of constants (``HypothesisProvider._maybe_draw_constant``, a private hook: if it goes, this test says so).
    Each must be an integer choice bounded inside (-100, 100), where no literal of a loaded module can be drawn."""
    from hypothesis.internal.conjecture import providers

    assert hasattr(providers.HypothesisProvider, "_maybe_draw_constant"), "Hypothesis moved its constants hook"
    offered = []
    real = providers.HypothesisProvider._maybe_draw_constant

    def spy(self, choice_type, constraints, **kw):
        offered.append((current[0], choice_type, constraints))
        return real(self, choice_type, constraints, **kw)

    monkeypatch.setattr(providers.HypothesisProvider, "_maybe_draw_constant", spy)
    current = [""]
    names = []
    for name, strategy in _strategy_factories():
        current[0] = name
        names.append(name)
        property_search(strategy, lambda x: True, examples=30, seed=0, encoding=name)
    assert len(names) >= 15 and {n for n, _, _ in offered} == set(names)  # every strategy drew, and was seen
    bad = {(n, t, str(c)) for n, t, c in offered
           if t != "integer" or c["min_value"] is None or c["max_value"] is None
           or c["min_value"] <= -100 or c["max_value"] >= 100}
    assert not bad
