"""Distribution tests of the exact samplers against their exact laws (issue 13).

Each test draws a fixed number of samples from a fixed seed and applies a goodness-of-fit test whose
false-alarm probability is stated: ALPHA = 1e-6 per test (chi-square with cells of expected count >= 5,
tails pooled; exact two-sided binomial tests Bonferroni-split across the items tested). With the seeds
fixed the outcome is deterministic; a correct sampler fails a given seed with probability <= ALPHA.

* grid / discrete Laplace (theory/noise/laplace.py): ``Pr[K = k] = (1 - r)/(1 + r) r^{|k|}``, ``r = e^{-1/t}``;
* Bernoulli(e^{-gamma}) of both samplers: exact binomial test;
* discrete Gaussian (theory/noise/discrete_gaussian.py): ``Pr[X = x] ∝ e^{-x^2/(2 sigma^2)}``;
* the Paillier protocol's noise shares (theory/count/protocol.py, 000 Protocol 1): every share drawn in a
  run of the protocol is N_Z(0, sigma^2/((1 - t) N - 1)), and Server 1's release is sum b_i + sum r_i.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction

import pytest
from scipy import stats

from privclaims.theory.count.encryption import PaillierScheme
from privclaims.theory.count.model import CountParams
from privclaims.theory.count.protocol import HonestUser, SampledRandomness, run_thesis_count
from privclaims.theory.noise import discrete_gaussian as dg
from privclaims.theory.noise import laplace

ALPHA = 1e-6


def chi_square_ok(samples: list[int], pmf: dict[int, float], alpha: float = ALPHA) -> tuple[bool, float]:
    """Chi-square goodness of fit of integer ``samples`` to ``pmf`` (a law on Z given on a window;
    the mass outside the window and cells with expected count < 5 are pooled). Returns (pass, p-value)."""
    n = len(samples)
    counts = Counter(samples)
    cells, obs, exp = [], [], []
    rest_obs, rest_exp = n, n * 1.0
    for x in sorted(pmf, key=lambda v: (abs(v), v)):
        e = n * pmf[x]
        if e >= 5:
            cells.append(x)
            obs.append(counts.get(x, 0))
            exp.append(e)
            rest_obs -= counts.get(x, 0)
            rest_exp -= e
    obs.append(rest_obs)
    exp.append(max(rest_exp, 1e-12))
    chi2 = sum((o - e) ** 2 / e for o, e in zip(obs, exp))
    p = float(stats.chi2.sf(chi2, len(obs) - 1))
    return p >= alpha, p


def laplace_pmf(t: float, window: int) -> dict[int, float]:
    r = math.exp(-1.0 / t)
    return {k: (1 - r) / (1 + r) * r ** abs(k) for k in range(-window, window + 1)}


@pytest.mark.parametrize("scale", [Fraction(1), Fraction(3, 2), Fraction(5, 2)])
def test_discrete_laplace_law(scale):
    bits = laplace.BitSource(20261123)
    xs = [laplace.discrete_laplace(scale, bits) for _ in range(12000)]
    ok, p = chi_square_ok(xs, laplace_pmf(float(scale), 60))
    assert ok, f"discrete Laplace of scale {scale}: chi-square p = {p:.3g} < {ALPHA}"


def test_grid_laplace_scale_is_lambda_over_g():
    """laplace_on_grid(lam, g) = g K with K discrete Laplace of scale lam/g (here 4)."""
    bits = laplace.BitSource(7)
    lam, g = Fraction(1), Fraction(1, 4)
    ks = [laplace.laplace_on_grid(lam, g, bits) / g for _ in range(8000)]
    assert all(k.denominator == 1 for k in ks)
    ok, p = chi_square_ok([int(k) for k in ks], laplace_pmf(float(lam / g), 200))
    assert ok, f"grid Laplace: chi-square p = {p:.3g}"


def test_grid_tail_and_pmf_agree_with_the_law():
    """The exact formulas used by the analysis: Pr[K > x] = r^{x+1}/(1+r) is the sum of the pmf."""
    r = Fraction(1, 3)
    for x in range(0, 6):
        tail = sum((laplace.discrete_laplace_pmf(k, r) for k in range(x + 1, 200)), Fraction(0))
        assert abs(laplace.grid_tail_probability(x, r) - tail) < Fraction(1, 10 ** 40)
    assert laplace.discrete_laplace_pmf(-2, r) == laplace.discrete_laplace_pmf(2, r)
    assert sum((laplace.discrete_laplace_pmf(k, r) for k in range(-200, 201)), Fraction(0)) > 1 - Fraction(1, 10 ** 40)


@pytest.mark.parametrize("gamma", [Fraction(1, 3), Fraction(1), Fraction(5, 2)])
def test_bernoulli_exp_binomial(gamma):
    n = 6000
    a = sum(laplace.bernoulli_exp(gamma, laplace.BitSource(100 + i)) for i in range(n))
    rng = random.Random(5)
    b = sum(dg.bernoulli_exp_neg(gamma, rng) for _ in range(n))
    p = math.exp(-float(gamma))
    for name, k in (("laplace.bernoulli_exp", a), ("discrete_gaussian.bernoulli_exp_neg", b)):
        pv = stats.binomtest(k, n, p).pvalue
        assert pv >= ALPHA / 2, f"{name}({gamma}): {k}/{n} successes, expected {p:.4f}, p = {pv:.3g}"


def dgauss_pmf(sigma2: float) -> dict[int, float]:
    return dg.discrete_gaussian_pmf_float(sigma2, int(12 * math.sqrt(sigma2)) + 12)


@pytest.mark.parametrize("sigma2", [Fraction(1, 2), Fraction(2), Fraction(9, 4), Fraction(25)])
def test_discrete_gaussian_law(sigma2):
    rng = random.Random(20261123)
    xs = [dg.discrete_gaussian(sigma2, rng) for _ in range(10000)]
    ok, p = chi_square_ok(xs, dgauss_pmf(float(sigma2)))
    assert ok, f"discrete Gaussian sigma^2 = {sigma2}: chi-square p = {p:.3g} < {ALPHA}"


def test_paillier_protocol_shares_law():
    """Shares drawn in runs of 000 Protocol 1 (Paillier) are N_Z(0, sigma^2/((1-t)N - 1)) and the
    release is the sum of the bits and the shares."""
    n_users, rounds = 6, 400
    params = CountParams(n_users=n_users, sigma2=Fraction(8), t=Fraction(1, 3))
    assert params.share_variance == Fraction(8) / (Fraction(2, 3) * 6 - 1)
    scheme = PaillierScheme(n_length=256)
    rnd = SampledRandomness(params.share_variance, seed=11)
    users = [HonestUser(i, [i % 2] * rounds) for i in range(n_users)]
    shares: list[int] = []

    class Recording(SampledRandomness):
        def share(self, uid):
            r = rnd.share(uid)
            shares.append(r)
            return r

    tr = run_thesis_count(users, params, scheme, Recording(params.share_variance), rounds=rounds)
    per_round = [shares[i * n_users:(i + 1) * n_users] for i in range(rounds)]
    assert tr.releases == [sum(u.b[0] for u in users) + sum(s) for s in per_round]
    ok, p = chi_square_ok(shares, dgauss_pmf(float(params.share_variance)))
    assert ok, f"Paillier protocol shares: chi-square p = {p:.3g} < {ALPHA}"
