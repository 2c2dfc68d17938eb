"""Theorem 14 for the grid Laplace noise the ZEALOUS release draws (theory/zealous/grid_noise.py).

The door certified τ′ = 15.451 for U = 2, m = 1, ε = 1, δ = 3/5000 by (6.5), which is about Lap(λ); the release adds
g K (g = 1/1024, K discrete Laplace of scale λ/g), whose tail is larger there: an item of count τ = 2 (both users) is
published with probability 0.00060006 > δ, and that output is impossible from the neighbour with one user.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privclaims import zealous
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import enclose
from privclaims.theory.zealous import grid_noise

G = Fraction(1, 1024)


def _publish_probability_lower(lam: Fraction, count: int, tau_prime: Fraction, terms: int = 400_000) -> mpmath.mpf:
    """A lower bound on Pr[count + g K > τ′], summing the discrete Laplace pmf (1-r)/(1+r) r^|k| term by term at 40
    digits (an independent computation: no closed form)."""
    with mpmath.workdps(40):
        t = mpmath.mpf(lam.numerator) / lam.denominator / (mpmath.mpf(G.numerator) / G.denominator)
        r = mpmath.exp(-1 / t)
        k0 = int(mpmath.floor((tau_prime - count) / G)) + 1
        c = (1 - r) / (1 + r)
        total, term = mpmath.mpf(0), c * r ** k0
        for _ in range(terms):
            total += term
            term *= r
        return total


def test_helper_witness_is_no_longer_certified():
    p = zealous.params(2, 1, 1, "3/5000", tau_prime="15.451")
    assert p.meets_65 and not p.grid_holds and not p.holds  # (6.5) alone would certify it
    breach = _publish_probability_lower(Fraction(2), 2, Fraction(15451, 1000))
    assert breach > mpmath.mpf(3) / 5000  # the release's δ at this τ′ is above the target
    q = zealous.params(2, 1, 1, "3/5000")
    assert q.holds and q.tau_prime == Fraction(7911, 512) == q.tau_prime_grid
    assert _publish_probability_lower(Fraction(2), 2, q.tau_prime, terms=10) < mpmath.mpf(3) / 5000 * (1 - mpmath.mpf(10) ** -6)


@pytest.mark.parametrize("x", [Fraction(0), Fraction(13451, 1000), Fraction(-3, 7), Fraction(5, 1024), Fraction(-2)])
def test_grid_tail_against_the_summed_pmf(x):
    lam = Fraction(3, 2)
    v = enclose(lambda c: grid_noise.grid_tail(x, lam, G, c), 128)
    with mpmath.workdps(40):
        t = mpmath.mpf(lam.numerator) / lam.denominator * 1024
        r = mpmath.exp(-1 / t)
        c = (1 - r) / (1 + r)
        n = int(mpmath.floor(x / G))
        # Σ_{k > n} c r^|k|: the terms with k < 0 one by one, then the geometric series of k >= max(n + 1, 0)
        ref = mpmath.fsum(c * r ** (-k) for k in range(n + 1, 0)) + c * r ** max(n + 1, 0) / (1 - r)
        assert mpmath.mpf(v.a) <= ref * (1 + mpmath.mpf(10) ** -25) and ref <= mpmath.mpf(v.b) * (1 + mpmath.mpf(10) ** -25)


@settings(max_examples=60, deadline=None)
@given(U=st.integers(1, 5000), m=st.integers(1, 4), eps=st.sampled_from([Fraction(1, 2), Fraction(1), Fraction(2), Fraction(5)]),
       d=st.fractions(Fraction(1, 10**9), Fraction(1, 2)))
def test_least_grid_tau_prime_is_least_and_matches_an_independent_formula(U, m, eps, d):
    lam = 2 * Fraction(m) / eps
    tau = -(-2 * m // eps) if isinstance(eps, int) else int(-(-(2 * m) // eps))
    least = grid_noise.least_tau_prime(U, m, d, tau, lam, G)
    assert grid_noise.holds(U, m, d, tau, lam, least, G)
    assert (least - tau) % G == 0
    assert not grid_noise.holds(U, m, d, tau, lam, least - G, G)
    with mpmath.workdps(60):  # k* = max(1, ceil((λ/g) ln(1/(B(1+r))))), B = min(δτ/(Um), 1 - e^(-1/λ))
        L, g = mpmath.mpf(lam.numerator) / lam.denominator, mpmath.mpf(1) / 1024
        B = min(mpmath.mpf(d.numerator) / d.denominator * tau / (U * m), -mpmath.expm1(-1 / L))
        k = max(1, int(mpmath.ceil(L / g * mpmath.log(1 / (B * (1 + mpmath.exp(-g / L)))))))
    assert least == tau + G * (k - 1)


def test_a_grid_that_splits_a_count_is_refused():
    with pytest.raises(InvalidInput, match="1/g must be an integer"):
        grid_noise.least_tau_prime(10, 1, "1/10", 2, 2, Fraction(3, 1024))


def test_door_default_meets_both_and_reports_the_grid_bound():
    p = zealous.params(1000, 1, 1, "1/1000")
    assert p.holds and p.meets_65 and p.grid_holds and p.tau_prime == Fraction(26859, 1000)
    assert p.tau_prime_grid == Fraction(27503, 1024) and p.as_json()["tau_prime_grid"]["exact"] == "27503/1024"


def test_unpublished_ratio_over_one_count_is_at_most_e_to_one_over_lambda():
    """Case (i)'s unpublished item: Pr[η <= y + 1] / Pr[η <= y] <= e^{1/λ} for the grid noise at every y (log-concavity;
    the module docstring's third use of the noise), checked at 40 digits on a sweep through both tails."""
    lam = Fraction(3, 2)
    with mpmath.workdps(40):
        bound = mpmath.exp(mpmath.mpf(2) / 3)
        for i in range(-200, 201):
            y = Fraction(i * 37, 200)
            lo_y = enclose(lambda c: 1 - grid_noise.grid_tail(y, lam, G, c), 160)
            hi_y1 = enclose(lambda c: 1 - grid_noise.grid_tail(y + 1, lam, G, c), 160)
            assert mpmath.mpf(hi_y1.b) <= bound * mpmath.mpf(lo_y.a) * (1 + mpmath.mpf(10) ** -30), y


def test_least_grid_tau_prime_may_lie_below_tau():
    """U = 1, m = 1, ε = 4, δ = 9/10: λ = 1/2, τ = 1, B = min(9/10, 1 - e^-2) = 0.8647 > 1/(1 + r), so a τ′ below τ meets
    both conditions (Pr[g K > τ′ - τ] = 1 - r^{-⌊(τ′-τ)/g⌋}/(1 + r)). The least was reported as τ itself ('need τ′ >= 1'),
    while τ′ = 0.8 was certified (holds) in the same run."""
    lam = Fraction(1, 2)
    least = grid_noise.least_tau_prime(1, 1, Fraction(9, 10), 1, lam, G)
    assert least == Fraction(355, 1024)
    assert grid_noise.holds(1, 1, Fraction(9, 10), 1, lam, least, G)
    assert not grid_noise.holds(1, 1, Fraction(9, 10), 1, lam, least - G, G)
    with mpmath.workdps(40):  # independent: 1 - k <= (λ/g)(1/λ - ln(1 + r)), the largest 1 - k = 669
        t = mpmath.mpf(1024) / 2
        assert int(mpmath.floor(t * (2 - mpmath.log(1 + mpmath.exp(-1 / t))))) == 669
    assert least == 1 - 669 * G  # k* = 1 - 669, τ′ = τ + g (k* - 1)
    p = zealous.params(1, 1, 4, "9/10")
    assert p.holds and p.tau_prime_grid == least and p.tau_prime == Fraction(727, 1000)  # (6.5) now decides: 0.72613…


@pytest.mark.parametrize("lam", ["1e-300", "1e-4000"])
def test_least_grid_tau_prime_below_tau_at_a_tiny_lambda(lam):
    """λ tiny: case (ii)'s bound 1 - e^{-1/λ} is all but 1 and (6.8)'s does not bind (δτ/(Um) >= 1): the least τ′ is
    τ - (1 - g) (1 - k <= 1/g - (λ/g) ln(1 + r), whose floor is 1/g - 1 though 1/g - y is beyond any enclosure; there
    the tail and the bound differ by less than 2^-(2^20), so holds() itself is not decided at the least τ′)."""
    least = grid_noise.least_tau_prime(1, 1, Fraction(9, 10), 2, lam, G)
    assert least == 2 - 1 + G
    p = zealous.params(1, 1, 1, "9/10", lam=lam)
    assert p.tau_prime_grid == least and p.grid_holds and p.tau_prime == 2  # (6.5), just below τ, rounded up


def test_case_ii_decides_when_it_binds():
    """U = 1, m = 1, ε = 1, δ = 9/20: δτ/(Um) = 9/10 but 1 - e^{-1/2} = 0.3935 is the binding bound. A τ′ meeting (6.8)
    alone is not certified, and the least τ′ is case (ii)'s (a plant dropping case (ii) from holds or from the least
    τ′ fails here, not only by chance in the property test)."""
    lam, d = Fraction(2), Fraction(9, 20)
    least = grid_noise.least_tau_prime(1, 1, d, 2, lam, G)
    with mpmath.workdps(40):
        t = mpmath.mpf(2048)
        B2 = -mpmath.expm1(-mpmath.mpf(1) / 2)
        k2 = int(mpmath.ceil(t * mpmath.log(1 / (B2 * (1 + mpmath.exp(-1 / t))))))
        k1 = max(1, int(mpmath.ceil(t * mpmath.log(1 / (mpmath.mpf(9) / 10 * (1 + mpmath.exp(-1 / t)))))))
    assert k2 > k1 and least == 2 + G * (k2 - 1)
    only_68 = 2 + G * (k1 - 1)
    assert not grid_noise.holds(1, 1, d, 2, lam, only_68, G) and not grid_noise.holds(1, 1, d, 2, lam, least - G, G)
    assert grid_noise.holds(1, 1, d, 2, lam, least, G)


def _log(tmp_path, name, users):
    rows = "".join(f"{u}\t{q}\t2006-03-01 08:00:{u % 60:02d}\t\t\n" for u, q in users)
    p = tmp_path / name
    p.write_text("AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n" + rows)
    return p


def test_tau_prime_from_the_logs_own_user_count_is_not_certified(tmp_path):
    """helper-73: publish took U from the log, so τ′ depended on the data — 20 users (19 searching "a") gave τ′ = 19.035,
    the same log plus one user 19.132; "a"'s noisy count falls between them with probability 0.0234 > δ = 1/1000, an
    output the 21-user log never produces. Without a public bound the release is now NOT certified; with one, both logs
    get the same τ′ and are certified; a log with more users than the bound is refused."""
    s20 = _log(tmp_path, "s20.tsv", [(u, "a") for u in range(1, 20)] + [(20, "b")])
    s21 = _log(tmp_path, "s21.tsv", [(u, "a") for u in range(1, 20)] + [(20, "b"), (21, "z")])
    a, b = (zealous.publish(x, "queries", 1, "1/1000", 1, seed=1, engine="python") for x in (s20, s21))
    assert a.params.tau_prime != b.params.tau_prime and not a.certified and not b.certified and not a.holds
    assert "depend on the data" in a.why_not_certified() and "NOT certified" in a.summary()
    a, b = (zealous.publish(x, "queries", 1, "1/1000", 1, seed=1, engine="python", max_users=21) for x in (s20, s21))
    assert a.params.tau_prime == b.params.tau_prime and a.certified and b.certified
    with pytest.raises(InvalidInput, match="the log has 21 users, more than max_users = 20"):
        zealous.publish(s21, "queries", 1, "1/1000", 1, seed=1, engine="python", max_users=20)
