"""The float filter in front of Epsilon.sign_of_diff: where it answers, it answers what the rigorous interval
computation answers; it defers (None) near ties and outside the normal float range."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st
from property_tests.fractions_strategy import fractions

from privclaims.theory.numbers import float_filter_sign_of_diff, rigorous_sign, to_interval

RATIONALS = fractions(min_value=Fraction(-10**6), max_value=Fraction(10**6), max_denominator=10**12)
EPS = fractions(min_value=Fraction(-800), max_value=Fraction(800), max_denominator=10**6).filter(lambda e: e != 0)


def _rigorous(p: Fraction, q: Fraction, eps: Fraction) -> int:
    return rigorous_sign(lambda c: to_interval(p, c) - c.exp(to_interval(eps, c)) * to_interval(q, c))


@given(RATIONALS, RATIONALS.filter(lambda q: q != 0), EPS)
def test_the_filter_agrees_with_the_rigorous_sign_wherever_it_answers(p, q, eps):
    fast = float_filter_sign_of_diff(p, q, eps)
    assert fast is None or fast == _rigorous(p, q, eps)


@given(RATIONALS.filter(lambda q: q != 0), EPS, st.integers(-40, 40))
def test_near_ties_defer_or_agree(q, eps, k):
    """p = (a rational within 2^k / 10^15 of e^eps q): a tie to the float's precision is never decided wrongly."""
    import mpmath

    mpmath.mp.prec = 200
    v = mpmath.mp.exp(mpmath.mpf(eps.numerator) / eps.denominator) * mpmath.mpf(q.numerator) / q.denominator
    sign, man, exp, _ = v._mpf_  # exact: (-1)^sign man 2^exp
    target = (-1) ** sign * Fraction(int(man)) * Fraction(2) ** int(exp)
    p = target + target * Fraction(k, 10**15)
    mpmath.mp.prec = 53
    fast = float_filter_sign_of_diff(p, q, eps)
    assert fast is None or fast == _rigorous(p, q, eps)
    if k == 0:
        assert fast is None  # within 1e-9 relative: deferred to the rigorous computation


def test_the_filter_defers_outside_its_range():
    assert float_filter_sign_of_diff(Fraction(1), Fraction(1), Fraction(701)) is None
    assert float_filter_sign_of_diff(Fraction(1, 10**400), Fraction(1), Fraction(1)) is None
    assert float_filter_sign_of_diff(Fraction(1), Fraction(10**400), Fraction(1)) is None
    assert float_filter_sign_of_diff(Fraction(3), Fraction(1), Fraction(1)) == 1  # 3 > e
    assert float_filter_sign_of_diff(Fraction(2), Fraction(1), Fraction(1)) == -1  # 2 < e


BIG = st.builds(lambda n, k, d: Fraction(n, d) * Fraction(3, 7) ** k, st.integers(-10**30, 10**30),
                st.integers(-600, 600), st.integers(1, 10**30))


@given(st.one_of(RATIONALS, BIG), st.one_of(RATIONALS, BIG).filter(lambda q: q != 0),
       st.one_of(RATIONALS, BIG).filter(lambda r: r > 0))
def test_the_rational_filter_agrees_with_the_exact_sign_wherever_it_answers(p, q, r):
    """Rationals of thousands of bits (3/7 to the ±600th) and ordinary ones, in Fraction and in the rational type Q."""
    from privclaims.theory.numbers import Q, float_filter_sign_of_rational_diff

    d = p - r * q
    exact = (d > 0) - (d < 0)
    for conv in (Fraction, Q):
        fast = float_filter_sign_of_rational_diff(conv(p), conv(q), conv(r))
        assert fast is None or fast == exact


@given(RATIONALS.filter(lambda q: q != 0), fractions(min_value=Fraction(1, 10**6), max_value=Fraction(10**6)),
       st.integers(-40, 40))
def test_the_rational_filter_defers_on_near_ties(q, r, k):
    """p = r q (1 + k / 10^15): within 1e-9 relative the filter defers; beyond, it agrees."""
    from privclaims.theory.numbers import float_filter_sign_of_rational_diff

    p = r * q * (1 + Fraction(k, 10**15))
    fast = float_filter_sign_of_rational_diff(p, q, r)
    assert fast is None
    far = r * q * (1 + Fraction(k or 1, 10**6))
    d = far - r * q
    assert float_filter_sign_of_rational_diff(far, q, r) == (d > 0) - (d < 0)


def test_the_rational_filter_defers_on_exact_ties():
    """p = r q exactly (the floats may still differ in the last bit): never a sign, always the exact path."""
    from privclaims.theory.numbers import Q, float_filter_sign_of_rational_diff

    for p, q, r in ((Fraction(3, 5), Fraction(1, 5), Fraction(3)), (Fraction(1, 3), Fraction(1, 7), Fraction(7, 3)),
                    (Fraction(10**40 + 1, 3**80), Fraction(1, 3**80), Fraction(10**40 + 1))):
        for conv in (Fraction, Q):
            assert float_filter_sign_of_rational_diff(conv(p), conv(q), conv(r)) is None, (p, q, r)
