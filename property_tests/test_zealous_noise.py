"""ZEALOUS's noise and its samplers against their exact laws (000_211156f2009240b4.txt §6.4, Figure 6.1).

The grid Laplace noise (theory/noise/laplace.py, CKS 2020 Algorithms 1-2): ``eta = g K`` with
``Pr[K = k] = (1 - r)/(1 + r) r^|k|``, ``r = e^{-g/lambda}`` (scale lambda/g in grid steps). Every sampler that
draws it is tested against that law: the discrete Laplace sampler itself, Bernoulli(e^-gamma) and the exact
Bernoulli(p) it stands on, the grid scale, the tail and pmf formulas of the analysis, and the three ZEALOUS
samplers (the exact twin's, the fast twin's release path, the vectorised benchmark path) through the share of
items they release at each count: Step 3 keeps c >= tau ("delete the pairs with c_k < tau"), Step 5 publishes
iff c + eta > tau' ("delete the pairs with c~_k <= tau'"), so an item is published with probability 0 below tau
and Pr[c + eta > tau'] from tau on. Statistical tests and their false-alarm probabilities: property_tests/laws.py.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import numpy as np
import pytest

from privclaims.theory.noise import cks, laplace
from privclaims.theory.zealous import exact as zexact
from privclaims.theory.zealous import fast as zfast
from privclaims.theory.zealous.model import ZealousParams
from property_tests.laws import (ALPHA, binomial_ok, chi_square_ok, cks_bernoulli_exp, cks_bernoulli_exp_as_printed,
                                 cks_discrete_laplace, grid_release_probability, laplace_pmf)

# The samplers loop until a random draw ends them: a bug that makes the ending draw impossible (e.g. `<=` for `<` in
# Bernoulli(g/k) at g = 0) would loop for ever. Each test here takes well under a second (the file ~2 s); a hang fails
# in two minutes, by SIGALRM (nothing here sets it): the hung test fails with its traceback and the run goes on,
# where the thread method of the suite's default ends the worker (xdist gives up after 4 crashes per worker).
pytestmark = pytest.mark.timeout(120, method="signal")


def step_release_probability(c: int, tau_prime: int, lam: Fraction, g: Fraction) -> float:
    """Pr[c + g K > tau'] for K of scale lambda/g: K > (tau' - c)/g, an integer here."""
    x = (Fraction(tau_prime) - c) / g
    assert x.denominator == 1
    r = math.exp(-float(g / lam))
    pmf = lambda k: (1 - r) / (1 + r) * r ** abs(k)  # noqa: E731
    return sum(pmf(k) for k in range(int(x) + 1, int(x) + 600))


# ------------------------------------------------------------------------------------- the discrete Laplace sampler


@pytest.mark.parametrize("scale", [Fraction(1), Fraction(3, 2), Fraction(5, 2)])
def test_discrete_laplace_law(scale):
    """CKS Algorithm 2 at integer and non-integer scales: the uniform part U on {0..s-1}, the geometric part of ratio
    e^-1, the division by t', the sign and the rejection of (negative, 0) together give exactly this law."""
    bits = laplace.BitSource(20261123)
    xs = [laplace.discrete_laplace(scale, bits) for _ in range(12000)]
    ok, p = chi_square_ok(xs, laplace_pmf(float(scale), 60))
    assert ok, f"discrete Laplace of scale {scale}: chi-square p = {p:.3g} < {ALPHA}"


def test_grid_laplace_scale_is_lambda_over_g():
    """laplace_on_grid(lam, g) = g K with K discrete Laplace of scale lam/g (here 4): on the grid, of that law."""
    bits = laplace.BitSource(7)
    lam, g = Fraction(1), Fraction(1, 4)
    ks = [laplace.laplace_on_grid(lam, g, bits) / g for _ in range(8000)]
    assert all(k.denominator == 1 for k in ks)
    ok, p = chi_square_ok([int(k) for k in ks], laplace_pmf(float(lam / g), 200))
    assert ok, f"grid Laplace: chi-square p = {p:.3g}"


def test_grid_tail_and_pmf_agree_with_the_law():
    """The exact formulas used by the analysis: the pmf (1 - r)/(1 + r) r^|k| sums to 1 and Pr[K > x] = r^{x+1}/(1+r)
    is the sum of the pmf beyond x."""
    r = Fraction(1, 3)
    for x in range(0, 6):
        tail = sum((laplace.discrete_laplace_pmf(k, r) for k in range(x + 1, 200)), Fraction(0))
        assert abs(laplace.grid_tail_probability(x, r) - tail) < Fraction(1, 10 ** 40)
    assert laplace.discrete_laplace_pmf(-2, r) == laplace.discrete_laplace_pmf(2, r) == Fraction(2, 4) / 9
    assert laplace.discrete_laplace_pmf(0, r) == Fraction(1, 2)
    assert sum((laplace.discrete_laplace_pmf(k, r) for k in range(-200, 201)), Fraction(0)) > 1 - Fraction(1, 10 ** 40)


@pytest.mark.parametrize("gamma", [Fraction(1, 3), Fraction(1), Fraction(5, 2)])
def test_bernoulli_exp_law(gamma):
    """CKS Algorithm 1: Bernoulli(e^-gamma) (an odd count k at the first failure), for gamma below, at and above 1."""
    n = 6000
    k = sum(laplace.bernoulli_exp(gamma, laplace.BitSource(100 + i)) for i in range(n))
    ok, pv = binomial_ok(k, n, math.exp(-float(gamma)))
    assert ok, f"bernoulli_exp({gamma}): {k}/{n} successes, expected {math.exp(-float(gamma)):.4f}, p = {pv:.3g}"


@pytest.mark.parametrize("scale", [Fraction(1), Fraction(1, 3), Fraction(7, 2), Fraction(10, 7), Fraction(1000, 3),
                                   Fraction(5, 1000), Fraction(2000)])
def test_the_samplers_draw_what_algorithms_1_and_2_draw(scale):
    """bernoulli_exp and discrete_laplace (on integers, without building fractions) draw, from the same seeded bits,
    exactly the values of CKS Algorithms 1-2 written on Fractions, and leave the bit source in the same state: the
    sampler is the textbook one, draw for draw (so are the seeded releases the pins hold)."""
    for seed in range(25):
        ours, theirs = laplace.BitSource(seed), laplace.BitSource(seed)
        ks = [laplace.discrete_laplace(scale, ours) for _ in range(40)]
        assert ks == [cks_discrete_laplace(scale, theirs.below) for _ in range(40)]
        assert {type(k) for k in ks} == {int}
        for g in (Fraction(0), Fraction(1), Fraction(3), Fraction(1, 9), Fraction(5, 2), Fraction(7, 3), scale):
            assert laplace.bernoulli_exp(g, ours) == cks_bernoulli_exp(g, theirs.below)
        assert ours._r.getstate() == theirs._r.getstate()


def test_algorithm_1_as_drawn_is_the_printed_one_less_a_sure_draw():
    """The printed Algorithm 1 draws, for an integer gamma >= 2, floor(gamma) Bernoulli(e^-1) and then Bernoulli(e^-0)
    (always 1, one below(1) call); the core draws gamma - 1 and a last Bernoulli(e^-1) as the final step. Replaying
    the printed run's uniform draws to the core (less that sure last draw when it is reached) gives the same decision
    and uses every draw, on every seed; for any other gamma the draws are the same."""
    for g in (Fraction(0), Fraction(1, 3), Fraction(1), Fraction(5, 2), Fraction(22, 7), Fraction(2), Fraction(3), Fraction(7)):
        for seed in range(200):
            r, calls = random.Random(seed), []

            def recorded(n):
                calls.append((n, r.randrange(n)))
                return calls[-1][1]

            printed = cks_bernoulli_exp_as_printed(g, recorded)
            if g > 1 and g.denominator == 1 and printed:  # reached the text's Bernoulli(e^-0)
                assert calls.pop() == (1, 0)
            tape = iter(calls)

            def replayed(n):
                m, x = next(tape)
                assert m == n, (g, seed)
                return x

            assert cks.bernoulli_exp(g.numerator, g.denominator, replayed) == printed, (g, seed)
            assert next(tape, None) is None, (g, seed)


@pytest.mark.parametrize("p", [Fraction(1, 2), Fraction(1, 3), Fraction(2, 5)])
def test_bit_source_bernoulli_is_exact(p):
    """BitSource.bernoulli(p) succeeds with probability exactly p: uniform on {0..den-1} below the numerator."""
    bits = laplace.BitSource(11)
    n = 6000
    k = sum(bits.bernoulli(p) for _ in range(n))
    ok, pv = binomial_ok(k, n, float(p))
    assert ok, f"bernoulli({p}): {k}/{n}, p = {pv:.3g}"
    assert not any(bits.bernoulli(Fraction(0)) for _ in range(200))


# ------------------------------------------------------------------------------------- the three ZEALOUS samplers


def test_exact_release_probability_against_the_continuous_laplace_tail():
    """Pr[c + eta > tau'] for eta ~ Lap(lambda): 1/2 e^{-(tau'-c)/lambda} (c <= tau'), else 1 - 1/2 e^{-(c-tau')/lambda};
    0 below tau (Step 3 deletes c < tau, keeps c = tau). Exact twin and fast twin."""
    rho = Fraction(1, 3)
    params = ZealousParams.of(1, None, 2, 5, rho=rho)
    lam = -1 / math.log(1 / 3)
    for c in range(0, 10):
        want = 0.0 if c < 2 else (0.5 * math.exp(-(5 - c) / lam) if c <= 5 else 1 - 0.5 * math.exp(-(c - 5) / lam))
        assert float(zexact.release_probability(c, params)) == pytest.approx(want, rel=1e-12, abs=1e-15)
        assert float(zfast.release_probability(c, params)) == pytest.approx(want, rel=1e-12, abs=1e-15)


def test_step5_decision_is_strict():
    """The exact Step-5 predicate itself: c + g*steps > tau' (equality deletes)."""
    assert not zexact.survives(5, 0, Fraction(1), 5)
    assert zexact.survives(5, 1, Fraction(1, 2), Fraction(9, 2))
    assert not zexact.survives(4, 2, Fraction(1, 2), 5)


def test_exact_twin_release_sampler_matches_the_exact_release_law():
    """With granularity g = lambda the noise is K of scale 1 and c + K = tau' has probability (1 - r)/(1 + r) ~ 0.46
    (r = e^-1), so a >= for > at Step 5 moves the release probability of an item at c = tau' from r/(1+r) ~ 0.27 to
    1/(1+r) ~ 0.73."""
    params = ZealousParams.of(1, 1, 2, 5)
    hist = {"below-tau": 1, "c=3": 3, "c=4": 4, "c=tau'": 5, "c=6": 6, "c=8": 8}
    n = 3000
    released = {k: 0 for k in hist}
    for seed in range(n):
        for k in zexact.zealous(hist, params, seed, granularity=Fraction(1)):
            released[k] += 1
    assert released["below-tau"] == 0  # Step 3 deletes c < tau
    for k, c in hist.items():
        if c < 2:
            continue
        p = grid_release_probability(c, 5, 1.0)
        ok, pv = binomial_ok(released[k], n, p, ALPHA / (len(hist) - 1))
        assert ok, f"item {k} (count {c}): released {released[k]}/{n}, Step 5 law Pr[c + K > tau'] = {p:.4f}, p = {pv:.3g}"


def test_fast_release_path_matches_the_release_law():
    """The fast twin's release path (fast.zealous, the experiments'): exact steps K of scale lambda/g added on the grid
    g (here g = 1/2, lambda = 1: scale 2 steps), each item published iff c + g K > tau'."""
    params = ZealousParams.of(1, 1, 2, 4)
    g = Fraction(1, 2)
    hist = {"c=1": 1, "c=2": 2, "c=3": 3, "c=4": 4, "c=6": 6}
    n = 2500
    released = {k: 0 for k in hist}
    for seed in range(n):
        for k in zfast.zealous(hist, params, seed, granularity=g):
            released[k] += 1
    assert released["c=1"] == 0
    for k, c in hist.items():
        if c < 2:
            continue
        p = step_release_probability(c, 4, Fraction(1), g)
        ok, pv = binomial_ok(released[k], n, p, ALPHA / 4)
        assert ok, f"{k}: released {released[k]}/{n}, law {p:.4f}, p = {pv:.3g}"


def test_fast_twin_vectorised_sampler_matches_the_release_law():
    """fast.zealous_counts (Steps 3-5 on a count array, numpy noise G1 - G2 with G ~ geometric from 0, ratio
    e^{-g/lambda}): per count level, the share released equals Pr[c + K > tau'] (0 below tau; tau itself is kept)."""
    params = ZealousParams.of(1, 1, 2, 3)
    n = 4000
    levels = (1, 2, 3, 5)
    counts = np.repeat(np.array(levels), n)
    idx, _ = zfast.zealous_counts(counts, params, seed=20261123, granularity=1.0)
    for j, c in enumerate(levels):
        k = int(np.sum((idx >= j * n) & (idx < (j + 1) * n)))
        if c < 2:
            assert k == 0
            continue
        p = grid_release_probability(c, 3, 1.0)
        ok, pv = binomial_ok(k, n, p, ALPHA / 3)
        assert ok, f"count {c}: released {k}/{n}, law {p:.4f}, p = {pv:.3g}"
    steps = zfast.sample_steps(20000, 2.0, 1.0, np.random.default_rng(5))
    ok, pv = chi_square_ok(steps.tolist(), laplace_pmf(2.0, 80))
    assert ok, f"sample_steps: chi-square p = {pv:.3g}"


def test_every_sampler_keeps_counts_equal_to_tau():
    """Step 3 deletes c < tau only: at c = tau = tau' an item is published with probability Pr[eta > 0], 1/2 for the
    continuous law and r/(1 + r) on the grid with g = lambda (r = e^-1), by every twin and sampler."""
    params = ZealousParams.of(1, 1, 2, 2)
    assert float(zexact.release_probability(2, ZealousParams.of(1, None, 2, 2, rho=Fraction(1, 3)))) == 0.5
    assert float(zfast.release_probability(2, params)) == 0.5
    r = math.exp(-1)
    p = r / (1 + r)
    n = 1500
    for name, draw in (("exact.zealous", lambda s: zexact.zealous({"a": 2}, params, s, granularity=Fraction(1))),
                       ("fast.zealous", lambda s: zfast.zealous({"a": 2}, params, s, granularity=Fraction(1)))):
        k = sum(1 for s in range(n) if "a" in draw(s))
        ok, pv = binomial_ok(k, n, p, ALPHA / 3)
        assert ok, f"{name}: an item at c = tau released {k}/{n} times, law {p:.4f}, p = {pv:.3g}"
    idx, _ = zfast.zealous_counts(np.full(n, 2), params, seed=3, granularity=1.0)
    ok, pv = binomial_ok(len(idx), n, p, ALPHA / 3)
    assert ok, f"zealous_counts: {len(idx)}/{n} at c = tau, law {p:.4f}, p = {pv:.3g}"


def test_tau_prime_may_equal_tau():
    """Figure 6.1 takes positive numbers with tau' >= tau (Theorem 14's gap may be 0): tau' = tau is valid input."""
    assert ZealousParams.of(1, 1, 2, 2).tau_prime == 2
    assert ZealousParams.of(3, None, Fraction(5, 2), Fraction(5, 2), rho=Fraction(1, 2)).tau == Fraction(5, 2)


def test_discrete_laplace_sampler_is_reproducible_and_sign_symmetric():
    """A seeded BitSource replays the same draws; K and -K are equally likely (the sign is a fair coin)."""
    a = [laplace.discrete_laplace(Fraction(2), laplace.BitSource(4)) for _ in range(5)]
    b = [laplace.discrete_laplace(Fraction(2), laplace.BitSource(4)) for _ in range(5)]
    assert a == b
    bits = laplace.BitSource(9)
    xs = [laplace.discrete_laplace(Fraction(2), bits) for _ in range(6000)]
    pos, neg = sum(1 for x in xs if x > 0), sum(1 for x in xs if x < 0)
    ok, pv = binomial_ok(pos, pos + neg, 0.5)
    assert ok, f"signs: {pos} positive, {neg} negative, p = {pv:.3g}"


def test_fast_step5_margin_never_publishes_what_exact_deletes():
    """fast.survives publishes only when tau' is below the float noisy count by more than the rounding margin. Beyond
    2^53 a count is not exact in float64 and c + g K can round above tau' although it is <= tau' exactly; the fast
    Step 5 must then delete, as the exact one does. At ordinary counts (exact in float, g dyadic) it decides exactly."""
    g = Fraction(1, 1024)
    c, k = 2 ** 60 + 129, -102400  # c + g K = 2^60 + 29 <= tau' = 2^60 + 30: the exact Step 5 deletes
    tp = Fraction(2 ** 60 + 30)
    assert not zexact.survives(c, k, g, tp)
    assert float(c) + float(g) * k > float(tp)  # in float64 the noisy count rounds to 2^60 + 256, tau' to 2^60
    assert not bool(zfast.survives(np.array([float(c)]), np.array([k]), g, [tp])[0])
    cs, ks = np.arange(1, 200), np.arange(-99, 100)
    assert [bool(x) for x in zfast.survives(cs, ks, g, Fraction(100))] == [
        zexact.survives(int(c), int(k), g, 100) for c, k in zip(cs, ks)]
