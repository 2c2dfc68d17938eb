"""Theorem 1 twins: exact (rigorous intervals) vs fast (float64, conservative)."""

import mpmath
import pytest
from hypothesis import given, settings, strategies as st

from privclaims.theory.count import exact_privacy as ex
from privclaims.theory.count import fast_privacy as fa
from privclaims.theory.count.normal_tail import normal_sf
from privclaims.theory.numbers import Q

eps_s = st.fractions(Q(1, 100), 12).map(lambda f: Q(f.numerator, f.denominator))
delta_s = st.fractions(Q(1, 10**8), Q(99, 100)).map(lambda f: Q(f.numerator, f.denominator))


@given(st.floats(-8, 30))
def test_normal_sf_encloses_reference(x):
    mpmath.iv.prec = 80
    v = normal_sf(mpmath.iv.mpf(x), mpmath.iv)
    mpmath.mp.prec = 200
    ref = mpmath.ncdf(-mpmath.mpf(x))
    assert v.a <= ref <= v.b


@settings(max_examples=40)
@given(eps_s, delta_s)
def test_breach_exact_vs_fast(e, d):
    mpmath.iv.prec = 80
    iv = ex.theorem1_breach(e, d, mpmath.iv)
    f = float(fa.theorem1_breach(float(e), float(d)))
    assert float(iv.a) - 1e-12 <= f <= float(iv.b) + 1e-12


@settings(max_examples=30)
@given(eps_s, delta_s)
def test_fast_decision_is_conservative(e, d):
    if fa.theorem1_holds(float(e), float(d)):
        assert ex.theorem1_holds(e, d)


@settings(max_examples=25)
@given(st.fractions(Q(1, 10), 1), delta_s)
def test_theorem1_holds_for_eps_at_most_1(e, d):
    assert ex.theorem1_holds(Q(e.numerator, e.denominator), d)


def test_breaks_for_large_eps():
    assert not ex.theorem1_holds(20, "1/10")


@settings(max_examples=25)
@given(st.fractions(Q(1, 10), 1), st.integers(1, 400))
def test_omega1_tail_below_proof_bound(e, s2):
    e = Q(e.numerator, e.denominator)
    mpmath.iv.prec = 80
    z = float(e) * s2 ** 0.5 - 1 / (2 * s2 ** 0.5)
    if z <= 0.1:
        return
    outside = ex.omega1_outside_probability(e, s2, 1, mpmath.iv)
    bound = ex.proof_bound(e, s2, 1, mpmath.iv)
    assert outside.a <= bound.b


@pytest.mark.parametrize("x", [10, 63.5, 64, 65, 200, -80, 10**6])
def test_normal_tail_encloses_q_also_beyond_the_series(x):
    """Q(x) for |x| >= 64 comes from the Mills-ratio bounds (the series took ~x^2 terms: ε = 10^12 hung)."""
    old = mpmath.iv.prec
    mpmath.iv.prec = 128
    try:
        v = normal_sf(mpmath.iv.mpf(x), mpmath.iv)
    finally:
        mpmath.iv.prec = old
    with mpmath.workdps(80):
        q = mpmath.erfc(mpmath.mpf(x) / mpmath.sqrt(2)) / 2
        assert mpmath.mpf(v.a) <= q <= mpmath.mpf(v.b)
        if abs(x) >= 64 and x > 0:
            assert (mpmath.mpf(v.b) - mpmath.mpf(v.a)) / q < mpmath.mpf(1) / 1000
