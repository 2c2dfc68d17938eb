"""Goodness-of-fit helpers for the exact-law tests of the samplers (not a test module).

Each law test draws a fixed number of samples from a fixed seed and applies a test whose false-alarm probability
is stated: :data:`ALPHA` per test (chi-square with cells of expected count >= 5, tails pooled; exact two-sided
binomial tests, Bonferroni-split across the items a test checks). With the seeds fixed the outcome is
deterministic; a correct sampler fails a given seed with probability <= ALPHA. The reference laws here are written
from the papers' formulas, independently of the samplers' code.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from typing import Callable

from scipy import stats

ALPHA = 1e-6


def chi_square_ok(samples: list[int], pmf: dict[int, float], alpha: float = ALPHA) -> tuple[bool, float]:
    """Chi-square goodness of fit of integer ``samples`` to ``pmf`` (a law on Z given on a window;
    the mass outside the window and cells with expected count < 5 are pooled). Returns (pass, p-value)."""
    n = len(samples)
    counts = Counter(samples)
    obs, exp = [], []
    rest_obs, rest_exp = n, n * 1.0
    for x in sorted(pmf, key=lambda v: (abs(v), v)):
        e = n * pmf[x]
        if e >= 5:
            obs.append(counts.get(x, 0))
            exp.append(e)
            rest_obs -= counts.get(x, 0)
            rest_exp -= e
    obs.append(rest_obs)
    exp.append(max(rest_exp, 1e-12))
    chi2 = sum((o - e) ** 2 / e for o, e in zip(obs, exp))
    p = float(stats.chi2.sf(chi2, len(obs) - 1))
    return p >= alpha, p


def binomial_ok(k: int, n: int, p: float, alpha: float = ALPHA) -> tuple[bool, float]:
    """Exact two-sided binomial test of ``k`` successes in ``n`` draws against probability ``p``."""
    pv = float(stats.binomtest(k, n, p).pvalue)
    return pv >= alpha, pv


def laplace_pmf(t: float, window: int) -> dict[int, float]:
    """The discrete Laplace law of scale t: ``Pr[K = k] = (1 - r)/(1 + r) r^|k|``, ``r = e^{-1/t}``."""
    r = math.exp(-1.0 / t)
    return {k: (1 - r) / (1 + r) * r ** abs(k) for k in range(-window, window + 1)}


def gaussian_pmf(sigma2: float) -> dict[int, float]:
    """The discrete Gaussian N_Z(0, sigma^2): ``Pr[X = x] ∝ e^{-x^2/(2 sigma^2)}``, normalised over a window of
    +-(12 sigma + 12) (the mass beyond is below 1e-30)."""
    w = int(12 * math.sqrt(sigma2)) + 12
    raw = {x: math.exp(-x * x / (2 * sigma2)) for x in range(-w, w + 1)}
    z = sum(raw.values())
    return {x: v / z for x, v in raw.items()}


def grid_release_probability(c: int, tau_prime: int, scale_steps: float) -> float:
    """Pr[c + K > tau'] for K ~ discrete Laplace of scale ``scale_steps`` (granularity 1), summed from the pmf."""
    r = math.exp(-1.0 / scale_steps)
    return sum((1 - r) / (1 + r) * r ** abs(k) for k in range(tau_prime - c + 1, tau_prime - c + 400))


# ------------------------------------------------------------------ CKS 2020 Algorithms 1-3 on Fractions
# The textbook samplers, draw for draw (Algorithm 1 in the project's order for an integer gamma >= 2, see below): ``below(n)`` is the uniform source on {0..n-1} (``BitSource.below``,
# ``random.Random.randrange``) and Bernoulli(p) is ``below(p.denominator) < p.numerator`` for p in lowest terms (a
# Fraction always is). The samplers' tests check that theory/noise/cks.py (integers, no fractions built) makes
# exactly these draws: the same values and the same source state afterwards.


def cks_bernoulli_exp(g: Fraction, below: Callable[[int], int]) -> bool:
    """Algorithm 1: Bernoulli(e^-1) while g > 1, then Bernoulli(g/k) for k = 1, 2, ... until the first failure (an odd
    k: e^-g). For an integer g >= 2 the paper's text draws floor(g) Bernoulli(e^-1) and then Bernoulli(e^-0) (always
    1, one below(1) call); this draws g - 1 and a last Bernoulli(e^-1) as the final step: the same law, one uniform
    draw fewer - the order the project's samplers draw in (theory/noise/cks.py says so too).
    :func:`cks_bernoulli_exp_as_printed` is the text's order (test_zealous_noise.py replays one's draws to the other)."""
    while g > 1:
        if not cks_bernoulli_exp(Fraction(1), below):
            return False
        g -= 1
    return cks_bernoulli_exp_unit(g, below)


def cks_bernoulli_exp_unit(g: Fraction, below: Callable[[int], int]) -> bool:
    """Algorithm 1 for g in [0, 1]: Bernoulli(g/k) for k = 1, 2, ... until the first failure; an odd k has
    probability e^-g."""
    k = 1
    while below((g / k).denominator) < (g / k).numerator:
        k += 1
    return k % 2 == 1


def cks_bernoulli_exp_as_printed(g: Fraction, below: Callable[[int], int]) -> bool:
    """Algorithm 1 in the text's order: for g > 1, floor(g) draws of Bernoulli(e^-1), then Bernoulli(e^-(g - floor g))
    (for an integer g, Bernoulli(e^-0): always 1, after one below(1) call)."""
    if g > 1:
        whole = g.numerator // g.denominator
        for _ in range(whole):
            if not cks_bernoulli_exp(Fraction(1), below):
                return False
        g -= whole
    return cks_bernoulli_exp_unit(g, below)


def cks_discrete_laplace(scale: Fraction, below: Callable[[int], int]) -> int:
    """Algorithm 2 at scale s/t."""
    s, t = scale.numerator, scale.denominator
    while True:
        u = below(s)
        if not cks_bernoulli_exp(Fraction(u, s), below):
            continue
        v = 0
        while cks_bernoulli_exp(Fraction(1), below):
            v += 1
        y = (u + s * v) // t
        negative = below(2) == 1
        if not (negative and y == 0):
            return -y if negative else y


def cks_discrete_gaussian(sigma2: Fraction, below: Callable[[int], int]) -> int:
    """Algorithm 3: the discrete Laplace of scale t = floor(sigma) + 1, accepted with probability
    exp(-(|Y| - sigma^2/t)^2 / (2 sigma^2))."""
    t = math.isqrt(sigma2.numerator * sigma2.denominator) // sigma2.denominator + 1
    while True:
        y = cks_discrete_laplace(Fraction(t), below)
        if cks_bernoulli_exp((abs(y) - sigma2 / t) ** 2 / (2 * sigma2), below):
            return y
