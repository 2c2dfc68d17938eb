"""Theorem 1 twins: exact (rigorous intervals) vs fast (float64, conservative)."""

import mpmath
import pytest
from hypothesis import given, settings, strategies as st
from property_tests.fractions_strategy import fractions

from privclaims.theory.count import exact_privacy as ex
from privclaims.theory.count import fast_privacy as fa
from privclaims.theory.count.normal_tail import normal_sf
from privclaims.theory.numbers import Q

eps_s = fractions(Q(1, 100), 12).map(lambda f: Q(f.numerator, f.denominator))
delta_s = fractions(Q(1, 10**8), Q(99, 100)).map(lambda f: Q(f.numerator, f.denominator))


@given(st.floats(-8, 30))
def test_normal_sf_encloses_reference(x):
    mpmath.iv.prec = 80
    v = normal_sf(mpmath.iv.mpf(x), mpmath.iv)
    mpmath.mp.prec = 200
    ref = mpmath.ncdf(-mpmath.mpf(x))
    assert v.a <= ref <= v.b


@pytest.mark.parametrize("prec", [53, 80, 200])
@pytest.mark.parametrize("x", [0.0, 1e-9, 0.7, 2.0, 5.5, 12.0, 30.0, 50.0, 63.9])
def test_normal_tail_series_is_tight(x, prec):
    """Below MILLS_FROM, Q(-x) = (1 + erf(x / sqrt 2)) / 2 comes from the erf series: its enclosure contains mpmath's
    value and is tight, within 2^-(prec - 16) (the series' remainder is 2^-(prec + 8) of its sum; the rest is the
    rounding of ~x^2 interval operations), so a series cut short or summed loosely shows here."""
    old = mpmath.iv.prec
    mpmath.iv.prec = prec
    try:
        v = normal_sf(mpmath.iv.mpf(-x), mpmath.iv)
    finally:
        mpmath.iv.prec = old
    with mpmath.workprec(4 * prec):
        ref = mpmath.ncdf(mpmath.mpf(x))
        lo, hi = mpmath.mpf(v.a), mpmath.mpf(v.b)
        assert lo <= ref <= hi
        assert hi - lo <= mpmath.mpf(2) ** -(prec - 16)


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
@given(fractions(Q(1, 10), 1), delta_s)
def test_theorem1_holds_for_eps_at_most_1(e, d):
    assert ex.theorem1_holds(Q(e.numerator, e.denominator), d)


def test_breaks_for_large_eps():
    assert not ex.theorem1_holds(20, "1/10")


@settings(max_examples=25)
@given(fractions(Q(1, 10), 1), st.integers(1, 400))
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


# ------------------------------------------------------------------ the formulas, against the thesis's (000 §2.2.1, §5.5)


@pytest.mark.parametrize("eps,sigma2,s", [(Q(1, 2), Q(8), 1), (Q(1), Q(3), 2), (Q(2), Q(1, 2), 1), (Q(1, 10), Q(100), 3)])
def test_gaussian_breach_probability_is_theorem1s_formula(eps, sigma2, s):
    """Theorem 1's proof: the privacy loss is N(eta, 2 eta), eta = s^2/(2 sigma^2), so the least Omega_2 has
    B = Q((eps - eta)/sqrt(2 eta)) + Q((eps + eta)/sqrt(2 eta)); both twins against scipy's normal tail."""
    import math

    from scipy import stats

    eta = s * s / (2 * float(sigma2))
    want = stats.norm.sf((float(eps) - eta) / math.sqrt(2 * eta)) + stats.norm.sf((float(eps) + eta) / math.sqrt(2 * eta))
    iv = ex.breach_probability(eps, sigma2, s, mpmath.iv)
    assert float(iv.a) <= want * (1 + 1e-9) and want * (1 - 1e-9) <= float(iv.b)
    assert float(fa.breach_probability(eps, sigma2, s)) == pytest.approx(want, rel=1e-9)


@pytest.mark.parametrize("eps,delta", [(Q(1, 2), Q(1, 100)), (Q(1), Q(1, 10)), (Q(3), Q(1, 1000))])
def test_theorem1_breach_at_the_least_variance(eps, delta):
    """At sigma^2 = 2 s^2 ln(4/delta)/eps^2, eta = eps^2/(4 ln(4/delta)) for every s; both twins."""
    import math

    from scipy import stats

    eta = float(eps) ** 2 / (4 * math.log(4 / float(delta)))
    want = stats.norm.sf((float(eps) - eta) / math.sqrt(2 * eta)) + stats.norm.sf((float(eps) + eta) / math.sqrt(2 * eta))
    iv = ex.theorem1_breach(eps, delta, mpmath.iv)
    assert float(iv.a) <= want * (1 + 1e-9) and want * (1 - 1e-9) <= float(iv.b)
    assert float(fa.theorem1_breach(float(eps), float(delta))) == pytest.approx(want, rel=1e-9)


@pytest.mark.parametrize("eps,delta,s,grid", [(Q(1), Q(1, 100), 1, 1000), (Q(1, 2), Q(1, 10), 3, 1000), (Q(3, 2), Q(1, 2), 1, 7)])
def test_theorem1_variance_is_the_formula_rounded_up_to_the_grid(eps, delta, s, grid):
    """Theorem 1's least variance 2 s^2 ln(4/delta)/eps^2 (irrational) as the least multiple of 1/grid not below it."""
    from privclaims.theory.count.model import theorem1_sigma2

    got = theorem1_sigma2(eps, delta, s, grid)
    with mpmath.workdps(50):
        d = mpmath.mpf(int(delta.numerator)) / int(delta.denominator)
        e = mpmath.mpf(int(eps.numerator)) / int(eps.denominator)
        v = 2 * s * s * mpmath.log(4 / d) / e ** 2
        g = mpmath.mpf(int(got.numerator)) / int(got.denominator)
        assert got * grid == int(got * grid)
        assert g >= v > g - mpmath.mpf(1) / grid


def test_float_variances_are_never_below_their_formulas():
    """Theorem 1's float sigma^2 (simulations) and Corollary 2's 6 height(H) m^2 log(4/delta)/eps^2 (the AOL
    experiments, 000 §5.5.3) are rounded UP: never below the formula (a plain float evaluation lands below it about
    half of the time), and within 2^-38 of it."""
    import math

    from privclaims.theory.count.aol import corollary2_sigma2
    from privclaims.theory.count.model import theorem1_sigma2_float

    rng = __import__("random").Random(3)
    for _ in range(200):
        eps, delta, s = rng.uniform(0.05, 3), rng.uniform(1e-6, 0.9), rng.choice([1.0, 2.0, 0.7])
        h, m = rng.randint(1, 4), rng.randint(1, 6)
        with mpmath.workdps(40):
            e, d = mpmath.mpf(eps), mpmath.mpf(delta)
            for got, want in ((theorem1_sigma2_float(eps, delta, s), 2 * mpmath.mpf(s) ** 2 * mpmath.log(4 / d) / e ** 2),
                              (corollary2_sigma2(eps, delta, h, m), 6 * h * m * m * mpmath.log(4 / d) / e ** 2)):
                assert mpmath.mpf(got) >= want, (eps, delta, s, h, m, got)
                assert mpmath.mpf(got) <= want * (1 + mpmath.mpf(2) ** -38)
    assert math.isfinite(theorem1_sigma2_float(1.0, 0.5))


@pytest.mark.parametrize("eps,sigma2,s", [(Q(1), Q(4), 1), (Q(1, 2), Q(30), 2)])
def test_per_input_breaches_are_their_closed_forms(eps, sigma2, s):
    """Definition 3 per input (003's order) for the Gaussian mechanism: +-Delta neighbours give
    2 Q(eps sigma/s - s/(2 sigma)); d orthogonal directions give 1 - (1 - 2Q(...))^d (the coordinates are independent)."""
    import math

    from scipy import stats

    from privclaims.theory.count.per_input import axis_union_breach, two_sided_breach

    sg = math.sqrt(float(sigma2))
    p = 2 * stats.norm.sf(float(eps) * sg / s - s / (2 * sg))
    with mpmath.workprec(120):
        two = two_sided_breach(eps, sigma2, s, mpmath.iv)
        assert float(two.a) <= p * (1 + 1e-9) and p * (1 - 1e-9) <= float(two.b)
        for d in (1, 3, 10):
            u = axis_union_breach(eps, sigma2, s, d, mpmath.iv)
            want = 1 - (1 - p) ** d
            assert float(u.a) <= want * (1 + 1e-9) and want * (1 - 1e-9) <= float(u.b)


# ------------------------------------------------------------------ the fast twin's margins (float ties suppress)


def _crossing(f, lo: float, hi: float) -> tuple[float, float]:
    """Adjacent floats (a, b) with f(a) <= 0 < f(b), by bisection from f(lo) <= 0 < f(hi)."""
    import numpy as np

    assert f(lo) <= 0 < f(hi)
    while np.nextafter(lo, hi) < hi:
        mid = lo + (hi - lo) / 2
        if mid in (lo, hi):
            break
        if f(mid) <= 0:
            lo = mid
        else:
            hi = mid
    return lo, hi


def test_fast_theorem1_decision_suppresses_within_rounding_of_delta():
    """fast.theorem1_holds is True only when the float breach is below delta by more than the rounding margin: at the
    largest float eps with B(eps) <= delta (B within a few ulps of delta) it answers False, whatever the bare float
    comparison says; away from the crossing it agrees with the exact twin."""
    d = 0.1
    e, _ = _crossing(lambda x: float(fa.theorem1_breach(x, d)) - d, 4.0, 8.0)
    b = float(fa.theorem1_breach(e, d))
    assert b <= d and d - b < d * 2.0 ** -42  # a float tie: the bare comparison b <= d says "holds"
    assert not fa.theorem1_holds(e, d)
    assert fa.theorem1_holds(e * 0.99, d) and ex.theorem1_holds(Q(e * 0.99), Q(1, 10))


def test_fast_gaussian_privacy_decision_suppresses_within_rounding_of_delta():
    """fast.is_probabilistically_private at the least float sigma^2 whose breach is <= delta (within a few ulps):
    not private (the margin), while a variance 1% larger is private for both twins."""
    eps, d = 1.0, 0.05
    _, sigma2 = _crossing(lambda x: d - float(fa.breach_probability(eps, x, 1.0)), 0.5, 50.0)
    b = float(fa.breach_probability(eps, sigma2, 1.0))
    assert b <= d and d - b < d * 2.0 ** -40
    assert not fa.is_probabilistically_private(eps, d, sigma2)
    assert fa.is_probabilistically_private(eps, d, sigma2 * 1.01)
    assert ex.is_probabilistically_private(Q(1), Q(1, 20), Q(sigma2 * 1.01))
