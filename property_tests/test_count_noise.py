"""The exact discrete-Gaussian sampler (theory/noise/discrete_gaussian.py): Count's noise (000 §5.4, footnote 1).

Draw for draw against CKS 2020 Algorithms 1-3 written on Fractions (property_tests/laws.py), and exact-law tests: Bernoulli(e^-gamma) and the exact Bernoulli(p) it stands on, the discrete
Laplace proposal of integer scale t, and N_Z(0, sigma^2) itself against ``Pr[X = x] ∝ e^{-x^2/(2 sigma^2)}``, each
with a stated false-alarm probability (property_tests/laws.py).
"""

import math
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st
from property_tests.fractions_strategy import fractions

from property_tests.laws import (ALPHA, binomial_ok, chi_square_ok, cks_bernoulli_exp, cks_discrete_gaussian,
                                 cks_discrete_laplace, gaussian_pmf, laplace_pmf)

from privclaims.theory.errors import InvalidInput
from privclaims.theory.noise.discrete_gaussian import (
    bernoulli_exp_neg, discrete_gaussian, discrete_gaussian_pmf_float, discrete_laplace, floor_sqrt,
)

# The samplers loop until a random draw ends them (CKS Algorithms 1-3): a bug that makes the ending draw impossible would
# loop for ever. Each test here takes well under a second; a hang fails in two minutes, by SIGALRM (as in
# test_zealous_noise.py: the hung test fails with its traceback and the run goes on).
pytestmark = pytest.mark.timeout(120, method="signal")


@given(fractions(0, 10**6))
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


@pytest.mark.parametrize("gamma", [Fraction(1, 3), Fraction(1), Fraction(5, 2)])
def test_bernoulli_exp_neg_law(gamma):
    """Bernoulli(exp(-gamma)) below, at and above gamma = 1 (exact binomial test)."""
    rng = random.Random(5)
    n = 6000
    k = sum(bernoulli_exp_neg(gamma, rng) for _ in range(n))
    ok, pv = binomial_ok(k, n, math.exp(-float(gamma)))
    assert ok, f"bernoulli_exp_neg({gamma}): {k}/{n}, expected {math.exp(-float(gamma)):.4f}, p = {pv:.3g}"


@pytest.mark.parametrize("t", [1, 3])
def test_discrete_laplace_proposal_law(t):
    """The proposal Pr[Y = y] ∝ exp(-|y|/t) (CKS Algorithm 2 with s = 1): uniform part on {0..t-1}, geometric part of
    ratio e^-1, sign, (negative, 0) rejected."""
    rng = random.Random(17)
    ys = [discrete_laplace(t, rng) for _ in range(12000)]
    ok, p = chi_square_ok(ys, laplace_pmf(float(t), 80))
    assert ok, f"discrete Laplace proposal t = {t}: chi-square p = {p:.3g} < {ALPHA}"


@pytest.mark.parametrize("sigma2", [Fraction(1, 2), Fraction(2), Fraction(9, 4), Fraction(25)])
def test_discrete_gaussian_law(sigma2):
    """N_Z(0, sigma^2) by rejection from the discrete Laplace of t = floor(sigma) + 1, accepted with probability
    exp(-(|Y| - sigma^2/t)^2/(2 sigma^2)): exactly the discrete Gaussian (chi-square over the support)."""
    rng = random.Random(20261123)
    xs = [discrete_gaussian(sigma2, rng) for _ in range(10000)]
    ok, p = chi_square_ok(xs, gaussian_pmf(float(sigma2)))
    assert ok, f"discrete Gaussian sigma^2 = {sigma2}: chi-square p = {p:.3g} < {ALPHA}"


@pytest.mark.parametrize("sigma2", [Fraction(1, 3), Fraction(1), Fraction(5, 2), Fraction(49), Fraction(1000, 7),
                                    Fraction(123456, 11)])
def test_the_sampler_draws_what_algorithms_1_to_3_draw(sigma2):
    """discrete_gaussian, discrete_laplace and bernoulli_exp_neg (the shared integer core, theory/noise/cks.py) draw,
    from the same seeded random.Random, exactly the values of CKS Algorithms 1-3 written on Fractions, as Python ints,
    and leave it in the same state: the seeded noise shares the pins hold are the textbook sampler's."""
    t = floor_sqrt(sigma2) + 1
    for seed in range(12):
        ours, theirs = random.Random(seed), random.Random(seed)
        xs = [discrete_gaussian(sigma2, ours) for _ in range(25)]
        assert xs == [cks_discrete_gaussian(sigma2, theirs.randrange) for _ in range(25)]
        assert {type(x) for x in xs} == {int}  # Python ints (not the rational type's integers): pinned as numbers
        assert ([discrete_laplace(t, ours) for _ in range(10)]
                == [cks_discrete_laplace(Fraction(t), theirs.randrange) for _ in range(10)])
        for g in (Fraction(0), Fraction(1), Fraction(3), Fraction(1, 9), Fraction(22, 7), sigma2):
            assert bernoulli_exp_neg(g, ours) == cks_bernoulli_exp(g, theirs.randrange)
        assert ours.getstate() == theirs.getstate()
