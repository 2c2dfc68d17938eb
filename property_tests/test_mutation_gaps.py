"""Tests that close the gaps the mutation campaign (counterexamples/mutants) showed, each for the right reason.

* ZEALOUS Step 5 (000_211156f2009240b4.txt §6.4, Figure 6.1: "delete the pairs with c~_k <= tau'"): the
  exact twin's release SAMPLER is compared with the exact release law of the grid-noise mechanism.
  With granularity g = lambda the noise is K ~ discrete Laplace of scale 1 and the event
  c + K = tau' has probability (1 - r)/(1 + r) ~ 0.46 (r = e^{-1}), so a ">=" for ">" moves the
  release probability of an item with c = tau' from r/(1+r) ~ 0.27 to 1/(1+r) ~ 0.73.
  Exact two-sided binomial tests, false-alarm probability ALPHA = 1e-6 in all (Bonferroni over items),
  fixed seeds.
* The parameter formulas against the papers' printed formulas, evaluated independently in floats:
  (6.3) tau' >= m (1 - log(2 delta'/m)/eps'), (6.4) lambda = 2m/eps, (6.5)
  tau' - tau >= max(-lambda ln(2 - 2e^{-1/lambda}), -lambda ln(2 delta/(U m/tau))) (000, lines 2499-2515;
  003 Eq. 5) and Proposition 12's tau = ceil(2m/eps).
* Count's share variance sigma^2/((1 - t) N - 1) and ceil((1 - t) N) (000 §5.4, Protocol 1).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
from scipy import stats

from privclaims.theory.count.model import CountParams
from privclaims.theory.zealous import exact as zexact
from privclaims.theory.zealous.experiments import zealous_params
from privclaims.theory.zealous.model import ZealousParams
from privclaims.theory.zealous.parameters import prop12_tau, thm13_min_tau_prime, thm14_min_tau_prime

ALPHA = 1e-6


def grid_release_probability(c: int, tau_prime: int, scale_steps: float) -> float:
    """Pr[c + K > tau'] for K ~ discrete Laplace of scale ``scale_steps`` (granularity 1), summed from the pmf."""
    r = math.exp(-1.0 / scale_steps)
    pmf = lambda k: (1 - r) / (1 + r) * r ** abs(k)  # noqa: E731
    return sum(pmf(k) for k in range(tau_prime - c + 1, tau_prime - c + 400))


def test_exact_twin_release_sampler_matches_the_exact_release_law():
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
        pv = stats.binomtest(released[k], n, p).pvalue
        assert pv >= ALPHA / (len(hist) - 1), (
            f"item {k} (count {c}): released {released[k]}/{n}, Step 5 law Pr[c + K > tau'] = {p:.4f}, p = {pv:.3g}")


def test_fast_twin_vectorised_sampler_matches_the_release_law():
    """privclaims.theory.zealous.fast.zealous_counts (Steps 3-5 on a count array, numpy noise G1 - G2): per count level,
    the share released equals Pr[c + K > tau'] (0 below tau; tau itself is kept by Step 3)."""
    import numpy as np

    from privclaims.theory.zealous import fast as zfast

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
        pv = stats.binomtest(k, n, p).pvalue
        assert pv >= ALPHA / 3, f"count {c}: released {k}/{n}, law {p:.4f}, p = {pv:.3g}"


def test_step5_decision_is_strict():
    """The exact Step-5 predicate itself: c + g*steps > tau' (equality deletes)."""
    assert not zexact.survives(5, 0, Fraction(1), 5)
    assert zexact.survives(5, 1, Fraction(1, 2), Fraction(9, 2))
    assert not zexact.survives(4, 2, Fraction(1, 2), 5)


def test_exact_release_probability_against_the_continuous_laplace_tail():
    """Pr[c + eta > tau'] for eta ~ Lap(lambda): 1/2 e^{-(tau'-c)/lambda} (c <= tau'), else 1 - 1/2 e^{-(c-tau')/lambda};
    0 below tau (Step 3 deletes c < tau, keeps c = tau)."""
    rho = Fraction(1, 3)
    params = ZealousParams.of(1, None, 2, 5, rho=rho)
    lam = -1 / math.log(1 / 3)
    for c in range(0, 10):
        want = 0.0 if c < 2 else (0.5 * math.exp(-(5 - c) / lam) if c <= 5 else 1 - 0.5 * math.exp(-(c - 5) / lam))
        assert float(zexact.release_probability(c, params)) == pytest.approx(want, rel=1e-12, abs=1e-15)


def _paper_65(U: int, m: int, eps: float, delta: float, tau: float) -> float:
    lam = 2 * m / eps
    return tau + max(-lam * math.log(2 - 2 * math.exp(-1 / lam)), -lam * math.log(2 * delta / (U * m / tau)))


@pytest.mark.parametrize("U,m,eps,delta,tau", [(1000, 1, 1, 1e-3, 2), (100000, 5, 2, 1e-5, 5), (50, 2, Fraction(1, 2), 1e-2, 8),
                                               (10, 40, 1, 0.2, 80)])
def test_theorem14_tau_prime_is_the_paper_formula(U, m, eps, delta, tau):
    got = float(thm14_min_tau_prime(U, m, Fraction(eps), Fraction(delta), tau))
    assert got == pytest.approx(_paper_65(U, m, float(eps), float(delta), tau), rel=1e-9)


def test_theorem14_first_term_binds_for_small_lambda():
    """With 2 delta tau/(U m) > 1 the first term of (6.5) is the max (lambda = 2 > 1/ln 2, so it is > 0)."""
    got = float(thm14_min_tau_prime(1, 1, Fraction(1), Fraction(3, 4), 1))
    lam = 2.0
    assert got == pytest.approx(1 - lam * math.log(2 - 2 * math.exp(-1 / lam)), rel=1e-9)
    assert got > 1.4


@pytest.mark.parametrize("m,eps,delta", [(1, 1, 1e-3), (5, 2, 1e-5), (20, 0.5, 0.25)])
def test_theorem13_tau_prime_is_the_paper_formula(m, eps, delta):
    got = float(thm13_min_tau_prime(m, Fraction(eps), Fraction(delta)))
    assert got == pytest.approx(m * (1 - math.log(2 * delta / m) / eps), rel=1e-9)


@pytest.mark.parametrize("m,eps,want", [(1, Fraction(1), 2), (5, Fraction(2), 5), (3, Fraction(7, 10), 9), (4, Fraction(3), 3)])
def test_proposition12_tau(m, eps, want):
    assert prop12_tau(m, eps) == want == math.ceil(2 * m / eps)


@pytest.mark.parametrize("U,m,eps", [(1000, 1, 1), (657426, 5, Fraction(1, 2)), (1000, 20, 2)])
def test_experiment_parameters_follow_64_and_65(U, m, eps):
    p = zealous_params(U, m, eps)
    assert p.lam == 2 * Fraction(m) / Fraction(eps)  # (6.4) at equality
    assert p.tau == math.ceil(2 * m / Fraction(eps))  # Proposition 12
    least = _paper_65(U, m, float(eps), 1e-3, float(p.tau))
    assert least - 1e-9 <= float(p.tau_prime) <= least + 1 / 1000 + 1e-9


def test_count_share_variance_and_quorum_formulas():
    p = CountParams(n_users=10, sigma2=Fraction(12), t=Fraction(3, 10))
    assert p.share_denominator == Fraction(7) - 1
    assert p.share_variance == Fraction(12) / 6
    assert p.total_variance(6) == 12  # (1 - t) N - 1 honest shares already reach sigma^2
    assert p.min_messages == 7
    q = CountParams(n_users=7, sigma2=Fraction(1), t=Fraction(1, 2))
    assert q.min_messages == 4  # ceil(3.5)
    assert q.share_variance == Fraction(1) / Fraction(5, 2)


def test_topdown_expands_only_above_min_support():
    """Algorithm 8 (000 §5.5): "if count_v > min_support then" (strict), CTR = clicks/(clicks + no_clicks),
    every entry counted at every node of its path (root included)."""
    from privclaims.theory.count.exact_topdown import estimates
    from privclaims.theory.count.hierarchy import Entry, Hierarchy

    h = Hierarchy({"x": "r", "y": "r"}, "r")
    log = [Entry(0, "x", "a", True), Entry(1, "x", "a", False), Entry(2, "x", "a", False), Entry(3, "y", "a", True)]
    res = estimates(log, h, min_support=3, m=1)  # zero noise: count_r = 4, count_x = 3, count_y = 1
    assert res.counts == {"r": 4, "x": 3, "y": 1}
    assert res.expanded == ["r"]  # x has count = min_support: not expanded
    assert res.ctr[("a", "r")] == Fraction(2, 4)
    res2 = estimates(log, h, min_support=2, m=1)
    assert res2.expanded == ["r", "x"] and res2.ctr[("a", "x")] == Fraction(1, 3)


def test_ads_boundaries_follow_the_thesis():
    """000 §4.3: the CTR is set to zero "whenever it is below" the threshold (a CTR equal to it is kept);
    Greedy'' (Theorem 8) runs Greedy "for as long as E[Revenue(A)] - alpha |A| is increasing" (benefit > alpha);
    E[Revenue(A|c^)] = sum_j Pr[c_j|c^] max_a p_a CTR(a|c_j); the client's ties go to the lowest ad id."""
    from privclaims.theory.ads import exact as ads

    from privclaims.theory.ads.model import ad_instance

    inst = ad_instance([Fraction(1, 4), Fraction(3, 4)], [[Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 2), Fraction(1, 4)]],
                       threshold=Fraction(1, 2))
    assert inst.effective_ctr(0, 0) == Fraction(1, 2) and inst.effective_ctr(1, 1) == 0
    assert ads.expected_revenue(inst, [1]) == Fraction(1, 4) * Fraction(1, 2)
    assert ads.client_choice(inst, [0, 1], inst.contexts[0]) == 0
    assert ads.greedy_double_prime(inst, Fraction(1, 2)).ads == ()  # benefit of ad 0 is 1/2 = alpha: not added
    assert ads.greedy_double_prime(inst, Fraction(1, 3)).ads == (0,)


@pytest.mark.parametrize("eps,sigma2,s", [(Fraction(1, 2), Fraction(8), 1), (Fraction(1), Fraction(3), 2), (Fraction(2), Fraction(1, 2), 1),
                                          (Fraction(1, 10), Fraction(100), 3)])
def test_gaussian_breach_probability_is_theorem1s_formula(eps, sigma2, s):
    """000 §2.2.1 (Theorem 1's proof): the privacy loss is N(eta, 2 eta), eta = s^2/(2 sigma^2), so
    B = Q((eps - eta)/sqrt(2 eta)) + Q((eps + eta)/sqrt(2 eta)); both twins against scipy's normal tail."""
    from privclaims.theory.count import exact_privacy, fast_privacy

    eta = s * s / (2 * float(sigma2))
    want = stats.norm.sf((float(eps) - eta) / math.sqrt(2 * eta)) + stats.norm.sf((float(eps) + eta) / math.sqrt(2 * eta))
    iv = exact_privacy.breach_probability(eps, sigma2, s, mpmath.iv)
    assert float(iv.a) <= want * (1 + 1e-9) and want * (1 - 1e-9) <= float(iv.b)
    assert float(fast_privacy.breach_probability(eps, sigma2, s)) == pytest.approx(want, rel=1e-9)


@pytest.mark.parametrize("eps,delta", [(Fraction(1, 2), Fraction(1, 100)), (Fraction(1), Fraction(1, 10)), (Fraction(3), Fraction(1, 1000))])
def test_theorem1_breach_at_the_least_variance(eps, delta):
    """At sigma^2 = 2 s^2 ln(4/delta)/eps^2, eta = eps^2/(4 ln(4/delta)) for every s."""
    from privclaims.theory.count import exact_privacy

    eta = float(eps) ** 2 / (4 * math.log(4 / float(delta)))
    want = stats.norm.sf((float(eps) - eta) / math.sqrt(2 * eta)) + stats.norm.sf((float(eps) + eta) / math.sqrt(2 * eta))
    iv = exact_privacy.theorem1_breach(eps, delta, mpmath.iv)
    assert float(iv.a) <= want * (1 + 1e-9) and want * (1 - 1e-9) <= float(iv.b)


def test_maskit_privacy_at_its_exact_level():
    """Definition 6 (000 §3.3): delta-privacy means posterior - prior <= delta (non-strict). Two i.i.d. uniform
    contexts h, s; s always suppressed, h with probability 1/2: after a suppression Pr[s | ⊥] = (1/2)/(1/2 + 1/4)
    = 2/3, so the largest gain is 2/3 - 1/2 = 1/6 (a release reveals h, gain <= 0)."""
    from privclaims.theory.maskit import exact as E
    from privclaims.theory.maskit import fast as F
    from privclaims.theory.maskit.model import markov_chain

    half = Fraction(1, 2)
    ch = markov_chain(["h", "s"], [half, half], [[[half, half], [half, half]]] * 2)
    p = {"s": 1, "h": half}
    assert E.privacy_level(ch, p, ["s"]) == Fraction(1, 6)
    assert E.is_private(ch, p, ["s"], Fraction(1, 6)) and not E.is_private(ch, p, ["s"], Fraction(1, 7))
    assert E.prior_beliefs(ch) == [[half, half]] * 3
    assert F.is_private(ch, p, ["s"], Fraction(1, 5)) and not F.is_private(ch, p, ["s"], Fraction(1, 7))
    assert F.utility(ch, p) == pytest.approx(3 * half * half)  # only h is released, half of the time


def test_probabilistic_dp_at_its_exact_delta():
    """Definition 3 (000 §2.1): Pr[M(L) in Omega_2] <= delta (non-strict). A = {x: 1/4, y: 3/4}, B = {y: 1},
    eps = 1: x is in Omega_2 for (A, B) (1/4 > e q = 0); y is not (3/4 within [e^-1, e] of 1); so the least delta is 1/4."""
    from privclaims.theory.dp import exact as D
    from privclaims.theory.dp.mechanism import finite_mechanism

    mech = finite_mechanism({"A": {"x": Fraction(1, 4), "y": Fraction(3, 4)}, "B": {"y": Fraction(1)}}, [("A", "B")])
    assert D.probabilistic_dp_delta(mech, 1)[0] == Fraction(1, 4)
    assert D.is_probabilistically_private(mech, 1, Fraction(1, 4))
    assert not D.is_probabilistically_private(mech, 1, Fraction(1, 5))
    assert D.smallest_exp_epsilon(finite_mechanism({"A": {"x": Fraction(1, 2), "y": Fraction(1, 2)},
                                                    "B": {"x": Fraction(1, 4), "y": Fraction(3, 4)}}, [("A", "B")])) == 2


def test_numbers_certainly_le_is_non_strict():
    """privclaims.theory.numbers.certainly_le decides lhs <= rhs: true at exact equality (a [0, 0] difference; a non-dyadic
    tie such as 1/3 vs 1/3 is undecidable by intervals and raises UndecidedComparison by design)."""
    from privclaims.theory.numbers import certainly_le, to_interval

    third, quarter = Fraction(1, 3), Fraction(3, 4)
    assert certainly_le(lambda c: to_interval(quarter, c), lambda c: to_interval(quarter, c))  # dyadic: exact intervals
    assert certainly_le(lambda c: to_interval(third, c), lambda c: to_interval(Fraction(1, 2), c))
    assert not certainly_le(lambda c: to_interval(Fraction(1, 2), c), lambda c: to_interval(third, c))
    assert certainly_le(lambda c: c.log(to_interval(3, c)), lambda c: to_interval(Fraction(11, 10), c))
