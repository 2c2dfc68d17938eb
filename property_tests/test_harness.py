"""privclaims.counterexamples.harness: witnesses are re-verified; unsat is "none up to bound"; timeouts explicit."""

import z3
from hypothesis import strategies as st

from privclaims.counterexamples.harness import exhaustive_search, model_rational, z3_search
from privclaims.counterexamples.property_search import property_search
from privclaims.theory.numbers import Q


def _square_between(lo, hi):
    def build(s):
        x = z3.Real("x")
        s.add(x * 3 > lo, x * 3 < hi)
        return x
    return build


def test_z3_witness_is_read_exactly_and_verified():
    res = z3_search(_square_between(1, 2), lambda m, x: model_rational(m, x), lambda w: Q(1, 3) < w < Q(2, 3),
                    bound="one real", encoding="1 < 3x < 2")
    assert res.found and Q(1, 3) < res.witness < Q(2, 3)


def test_z3_spurious_witness_does_not_count():
    res = z3_search(_square_between(1, 2), lambda m, x: model_rational(m, x), lambda w: False, bound="b", encoding="e")
    assert res.status == "spurious" and not res.found


def test_z3_unsat_is_none_up_to_bound():
    res = z3_search(_square_between(2, 1), lambda m, x: None, lambda w: True, bound="b", encoding="e")
    assert res.exhausted and not res.found and "conflicts" in res.statistics or res.exhausted


def test_exhaustive_and_property_searches():
    res = exhaustive_search(range(100), lambda n: n * n > 50, bound="n < 100", encoding="n^2 > 50")
    assert res.found and res.witness == 8
    res = property_search(st.integers(0, 1000), lambda n: n < 500, examples=300, seed=1, encoding="n < 500")
    assert res.found and res.witness == 500  # shrunk to the minimal failing instance
    res = property_search(st.integers(0, 10), lambda n: n <= 10, examples=50, seed=1, encoding="n <= 10")
    assert res.exhausted
