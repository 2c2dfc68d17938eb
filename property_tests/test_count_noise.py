"""The exact discrete-Gaussian sampler (theory/noise/discrete_gaussian.py)."""

import math
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from privclaims.theory.errors import InvalidInput
from privclaims.theory.noise.discrete_gaussian import (
    bernoulli_exp_neg, discrete_gaussian, discrete_gaussian_pmf_float, discrete_laplace, floor_sqrt,
)


@given(st.fractions(0, 10**6))
def test_floor_sqrt(q):
    r = floor_sqrt(Fraction(q))
    assert r * r <= q < (r + 1) ** 2


def test_bernoulli_exp_frequency():
    rng = random.Random(1)
    for g in (Fraction(1, 3), Fraction(2), Fraction(7, 2)):
        n = 20000
        k = sum(bernoulli_exp_neg(g, rng) for _ in range(n))
        p = math.exp(-float(g))
        assert abs(k / n - p) < 5 * math.sqrt(p * (1 - p) / n)


def test_discrete_gaussian_matches_pmf():
    rng = random.Random(7)
    s2 = Fraction(3, 2)
    n = 20000
    xs = [discrete_gaussian(s2, rng) for _ in range(n)]
    pmf = discrete_gaussian_pmf_float(1.5, 4)
    for x in range(-3, 4):
        f = xs.count(x) / n
        assert abs(f - pmf[x]) < 5 * math.sqrt(pmf[x] * (1 - pmf[x]) / n)


def test_discrete_laplace_symmetric():
    rng = random.Random(3)
    xs = [discrete_laplace(2, rng) for _ in range(10000)]
    assert abs(sum(xs) / len(xs)) < 0.2


@pytest.mark.parametrize("bad", ["0", "-2"])
def test_bad_sigma2(bad):
    with pytest.raises(InvalidInput):
        discrete_gaussian(bad, random.Random(0))


def test_bad_laplace_scale():
    with pytest.raises(InvalidInput):
        discrete_laplace(0, random.Random(0))
