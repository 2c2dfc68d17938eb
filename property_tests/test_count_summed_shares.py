"""The count release's own noise — a sum of discrete Gaussian shares — decided rigorously (theory/count/summed_shares.py).

helper-70's witness: with 1000 users at ε = 1/2, δ = 1/100 each share is N_Z(0, 0.053), of variance 0.00017, and the
count door certified the run private by Theorem 1 at σ² = 47.9 though the release equalled the true count.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from privclaims import count
from privclaims.theory.count import fast_release, summed_shares
from privclaims.theory.count.model import CountParams
from privclaims.theory.errors import InvalidInput
from privclaims.theory.noise.discrete_gaussian import discrete_gaussian_variance


def test_helper70_witness_is_not_certified():
    """Theorem 1 at σ² said private; the release's own noise (999 shares of variance 0.00017) breaches with
    probability above 0.99, decided rigorously (lower end > δ), and the release is the true count."""
    r = count.run(users=1000, dropout="1/10", epsilon="1/2", delta="1/100", protocol="pads", seed=1)
    assert not r.private and not r.holds and r.release == r.true_count
    assert r.decided == {"per pair": False, "per input": False}
    assert r.breach_per_pair[0] > Fraction(99, 100)
    assert r.share_variance[1] < r.share_sigma2 / 300  # the parameter is not the variance: 0.00017 against 0.053


def test_moderate_witness_breaches_above_delta():
    """N = 333, 33 dropped: the 299 shares' sum has variance 24.4, not the 48 of Theorem 1's σ² (helper-70)."""
    r = count.run(users=333, dropout="1/10", epsilon="1/2", delta="1/100", protocol="pads", drop=33)
    assert r.unknown_shares == 299 and not r.private
    assert Fraction(1577, 100000) < r.breach_per_pair[0] <= r.breach_per_pair[1] < Fraction(1578, 100000)
    assert Fraction(24, 1) < r.realised_variance[0] <= r.realised_variance[1] < Fraction(245, 10)


def test_readme_example_is_private_under_both_orders():
    r = count.run(users=20, dropout="1/10", epsilon="1/2", delta="1/100", protocol="pads", drop=2, seed=1)
    assert r.private and r.unknown_shares == 17 and r.decided == {"per pair": True, "per input": True}
    assert r.breach_per_pair[1] < r.breach_per_input[1] < Fraction(69, 100000)


# ------------------------------------------------------------------------ the enclosure against an independent law

def _reference_breach(share_sigma2: Fraction, k: int, eps: Fraction) -> tuple[mpmath.mpf, mpmath.mpf]:
    """Per pair and per input breach of c + S against c ± 1, from the law of S by direct mpmath convolution at 60
    digits over a support wide enough that the rest is below 1e-50 (a different computation from the module's)."""
    mp = mpmath.mp
    with mpmath.workdps(60):
        s2 = mp.mpf(share_sigma2.numerator) / share_sigma2.denominator
        K = int(mp.sqrt(2 * s2 * 130)) + 3
        w = [mp.exp(-mp.mpf(x * x) / (2 * s2)) for x in range(-K, K + 1)]
        z = mp.fsum(w)
        share = [v / z for v in w]
        law = [mp.mpf(1)]
        for _ in range(k):
            out = [mp.mpf(0)] * (len(law) + len(share) - 1)
            for i, a in enumerate(law):
                for j, b in enumerate(share):
                    out[i + j] += a * b
            law = out
        half = (len(law) - 1) // 2
        p = {x - half: v for x, v in enumerate(law)}
        e = mp.exp(mp.mpf(eps.numerator) / eps.denominator)

        def breaching(d: int) -> set[int]:
            out = set()
            for x, v in p.items():
                n = p.get(x - d, mp.mpf(0))
                if v > e * n or n > e * v:
                    out.add(x)
            return out

        b1, b2 = breaching(1), breaching(-1)
        pair = max(mp.fsum(p[x] for x in b1), mp.fsum(p[x] for x in b2))
        return pair, mp.fsum(p[x] for x in b1 | b2)


@pytest.mark.parametrize("share_sigma2,k,eps", [
    (Fraction(53, 1000), 3, Fraction(1, 2)), (Fraction(1, 5), 4, Fraction(1)), (Fraction(3, 10), 2, Fraction(1, 3)),
    (Fraction(1), 3, Fraction(2, 5)), (Fraction(5, 2), 2, Fraction(2)), (Fraction(7, 2), 1, Fraction(1, 4)),
    (Fraction(16, 100), 6, Fraction(3, 2)),
])
def test_bounds_enclose_an_independent_exact_law(share_sigma2, k, eps):
    """lower <= the 60-digit reference <= upper, per pair and per input; the bounds are tight (1e-9 relative),
    and the float twin (fast_release.discrete_total_noise_breach, per pair) lies within them too."""
    b = summed_shares.breach_bounds(eps, share_sigma2, k, Fraction(1, 10**6))
    _assert_enclosed(b, share_sigma2, k, eps)
    for lo, hi in (b.per_pair, b.per_input):
        assert hi - lo <= Fraction(1, 10**9) * max(hi, Fraction(1, 10**6))
    fast = fast_release.discrete_total_noise_breach(float(share_sigma2), k, float(eps))
    assert float(b.per_pair[0]) * (1 - 1e-12) <= fast <= float(b.per_pair[1]) * (1 + 1e-12)


def _assert_enclosed(b, share_sigma2, k, eps):
    ref_pair, ref_input = _reference_breach(share_sigma2, k, eps)
    with mpmath.workdps(60):
        for (lo, hi), ref in ((b.per_pair, ref_pair), (b.per_input, ref_input)):
            lo, hi = Fraction(lo), Fraction(hi)
            assert mpmath.mpf(lo.numerator) / lo.denominator <= ref + mpmath.mpf(10) ** -45
            assert ref <= mpmath.mpf(hi.numerator) / hi.denominator + mpmath.mpf(10) ** -45


def test_a_near_tie_is_left_undecided_not_guessed():
    """Three N_Z(0, 1) shares sum to nearly N_Z(0, 3), whose ratio Pr[S = -1] / Pr[S = -2] is e^{1/2} to 15 digits: at
    ε = 1/2 that output can be neither counted nor excluded from Ω2 in float64, so it is inside the upper bound and
    outside the lower one (the bounds still enclose the 60-digit reference)."""
    b = summed_shares.breach_bounds(Fraction(1, 2), Fraction(1), 3, Fraction(1, 10**6))
    _assert_enclosed(b, Fraction(1), 3, Fraction(1, 2))
    assert b.per_pair[1] - b.per_pair[0] > Fraction(1, 10)


def test_decisions_follow_the_bounds_and_delta():
    b = summed_shares.breach_bounds(Fraction(1, 3), Fraction(2), 3, Fraction(1, 100))
    lo, hi = b.per_pair
    assert 0 < lo < hi < b.per_input[0]  # per input counts the union of both neighbours' breaches
    assert b.decide(hi)["pair"] is True and b.decide(hi)["input"] is False
    assert b.decide(lo / 2)["pair"] is False
    assert b.decide((lo + hi) / 2)["pair"] is None  # inside the interval: undecided, never certified


def test_sub_gaussian_tail_behind_the_windows():
    """E[e^{λX}] <= e^{λ² s² / 2} for X ~ N_Z(0, s²) (the module's tail bounds rest on it), at 50 digits."""
    with mpmath.workdps(50):
        for s2 in (mpmath.mpf("0.05"), mpmath.mpf("0.3"), mpmath.mpf(1), mpmath.mpf(7)):
            xs = range(-int(40 * mpmath.sqrt(s2)) - 20, int(40 * mpmath.sqrt(s2)) + 21)
            z = mpmath.fsum(mpmath.exp(-x * x / (2 * s2)) for x in xs)
            for lam in (mpmath.mpf("0.1"), mpmath.mpf(1), mpmath.mpf(3), mpmath.mpf("0.37")):
                mgf = mpmath.fsum(mpmath.exp(lam * x - x * x / (2 * s2)) for x in xs) / z
                assert mgf <= mpmath.exp(lam * lam * s2 / 2) * (1 + mpmath.mpf(10) ** -45)  # equal to ~e^{-2π²s²}


@pytest.mark.parametrize("u", [Fraction(53, 1000), Fraction(16, 100), Fraction(1, 2), Fraction(999, 1000),
                               Fraction(1), Fraction(3, 2), Fraction(3), Fraction(40)])
def test_discrete_gaussian_variance_against_direct_sums(u):
    """Both forms (direct below 1, Poisson-dual from 1) enclose the 60-digit direct sum Σ x² w^{x²} / Σ w^{x²}."""
    with mpmath.workdps(60):
        uu = mpmath.mpf(u.numerator) / u.denominator
        xs = range(-int(40 * mpmath.sqrt(uu)) - 20, int(40 * mpmath.sqrt(uu)) + 21)
        w = [mpmath.exp(-x * x / (2 * uu)) for x in xs]
        direct = mpmath.fsum(x * x * v for x, v in zip(xs, w)) / mpmath.fsum(w)
    iv = mpmath.iv
    old, iv.prec = iv.prec, 150
    try:
        v = discrete_gaussian_variance(u, iv)
    finally:
        iv.prec = old
    with mpmath.workdps(60):
        lo, hi = mpmath.mpf(v.a), mpmath.mpf(v.b)
        assert lo <= direct * (1 + mpmath.mpf(10) ** -45) and direct <= hi * (1 + mpmath.mpf(10) ** -45)
        assert hi <= uu  # always below the parameter
        assert hi - lo < mpmath.mpf(10) ** -30 * uu


def test_too_wide_or_too_small_is_refused_naming_the_argument():
    with pytest.raises(InvalidInput, match=r"sigma² = .* needs a window of \d+ integers .* at most 65537"):
        count.run(users=20, dropout="1/10", epsilon="1/10000", delta="1/100", protocol="pads")
    with pytest.raises(InvalidInput, match="delta = .* below 2\\^-1000"):
        count.run(users=20, dropout="1/10", epsilon="1", delta="1e-302", protocol="pads")
    with pytest.raises(InvalidInput, match="prime p = 101 must exceed"):
        count.run(users=20, dropout="1/10", epsilon="1/2", delta="1/100", protocol="pads", prime=101)


def test_share_parameter_shown_with_its_variance():
    P = CountParams(count.theorem1_sigma2("1/2", "1/100"), "1/10", 1000)
    r = count.run(users=1000, dropout="1/10", epsilon="1/2", delta="1/100", protocol="pads", seed=2)
    assert r.share_sigma2 == P.share_variance and "each share is N_Z(0, s²) with s² = 11983/224750" in r.summary()
    j = r.as_json()
    assert j["share_variance"]["upper"].startswith("0.00016") and j["decided"] == {"per_pair": False, "per_input": False}


def test_private_means_under_both_quantifier_orders():
    """At δ = 6/10000 (σ² fixed at the README's 11983/250) the per-pair breach 0.00053895 is below δ and the per-input
    one 0.00068058 above it: Definition 3 has both orders in the documents, so the run is not certified."""
    r = count.run(users=20, dropout="1/10", epsilon="1/2", delta="6/10000", sigma2="11983/250", protocol="pads", drop=2,
                  seed=1)
    assert r.decided == {"per pair": True, "per input": False} and not r.private
    assert r.decided_public == {"per pair": True, "per input": True}  # the public's 18 shares would pass
    assert "per pair 0.00053895 (<= δ), per input 0.00068058 (> δ); for the server" in r.summary()
    assert r.summary().rstrip().splitlines()[-2].endswith(": NOT private at δ = 3/5000.")


def test_both_viewers_are_decided_breach_is_not_monotone_in_the_shares():
    """helper-72: N = 17, t = 0, ε = 4/5, δ = 1/100, σ² = 109/10 — a participant's 16 unknown shares give per-input
    breach 0.00975 <= δ, but the released count with all 17 shares 0.01218 > δ (more noise, larger breach: the sum of
    discrete shares is not Gaussian). Definition 5 (Theorem 9) holds; the published value is not (ε, δ)-private, and
    the door does not certify it."""
    r = count.run(users=17, dropout="0", epsilon="4/5", delta="1/100", sigma2="109/10", protocol="pads")
    assert r.unknown_shares == 16 and r.public_shares == 17
    assert r.decided == {"per pair": True, "per input": True}
    assert r.decided_public == {"per pair": True, "per input": False} and not r.private
    assert Fraction(1218, 100000) < r.public_per_input[0] and r.breach_per_input[1] < Fraction(976, 100000)


@pytest.mark.parametrize("kwargs", [
    {"users": 20, "dropout": "1/10", "epsilon": "1/2", "sigma2": "1e50"},  # hung: a float guess of W short by ~1e10 steps
    {"users": 20, "dropout": "1/10", "epsilon": "1e-20"},  # the same through Theorem 1's σ² ~ 1e41
    {"users": 10, "dropout": "0." + "8" + "9" * 40, "epsilon": "1/2"},  # (1 - t) N - 1 = 1e-40: s² ~ 5e41
    {"users": 20, "dropout": "1/10", "epsilon": "1e-300"},  # float(k s²) raised OverflowError (a traceback)
])
def test_huge_share_parameters_are_refused_at_once(kwargs):
    """Windows of 1e20 to 1e300 integers are refused by the window rule in well under a second, not after hours of
    one-step increments from a float guess, nor with an OverflowError from float(k s²)."""
    import time

    t0 = time.monotonic()
    with pytest.raises(InvalidInput, match=r"needs a window of \d+ integers"):
        count.run(delta="1/100", protocol="pads", **kwargs)
    assert time.monotonic() - t0 < 5


def test_least_cut_is_least_up_to_its_slack_for_huge_proxies():
    """The cut found from the exact-rational guess satisfies the tail rule and is within 2^-20 of the least one."""
    for v in (Fraction(10**50), Fraction(10**600, 7), Fraction(3, 10**6), Fraction(47932, 1000)):
        c = summed_shares._least_cut(v, 30.0)
        assert summed_shares._sub_gaussian_tail(c + 1, v) <= mpmath.exp(-30)
        assert c <= mpmath.sqrt(2 * v * (30 + mpmath.log(2)) * (1 + 2.0**-19)) + 1


def test_convolve_carries_the_mass_its_window_cuts():
    """Two N_Z(0, 4) shares cut to [-2, 2]: about 0.4 of the sum's mass lies outside, so ``lost`` must carry it
    (mass(T) + lost >= 1, T read from the float enclosure's upper ends)."""
    a = summed_shares.share_pmf(Fraction(4), 40)
    c = summed_shares.convolve(a, a, 2, summed_shares._sub_gaussian_tail(3, Fraction(8)))
    assert len(c.values) == 5
    t_upper = sum((v + c.abs) / (1 - c.rel) for v in c.values)
    assert t_upper < 0.7 and t_upper + c.lost >= 1


def test_the_truncation_mass_is_counted_where_it_matters():
    """k = 1, s² = 20, ε = 1/10, δ = 1/10: at this δ the window (W ~ 32) leaves ~1e-12 of the law outside, more than
    the float slack, so ``upper`` is below the exact breach unless E is added. Exact k = 1 law: the ratio against
    c + 1 at y is e^{-(2y - 1)/40}, so Ω2 = {|2y - 1| > 4} (odd, never a tie); per input also |2y + 1| > 4."""
    b = summed_shares.breach_bounds(Fraction(1, 10), Fraction(20), 1, Fraction(1, 10))
    with mpmath.workdps(60):
        w = lambda y: mpmath.exp(-mpmath.mpf(y * y) / 40)  # noqa: E731
        z = mpmath.nsum(w, [-mpmath.inf, mpmath.inf])
        rest = 2 * mpmath.nsum(w, [401, mpmath.inf]) / z
        plus = mpmath.fsum(w(y) for y in range(-400, 401) if abs(2 * y - 1) > 4) / z + rest
        union = mpmath.fsum(w(y) for y in range(-400, 401) if abs(2 * y - 1) > 4 or abs(2 * y + 1) > 4) / z + rest
        for (lo, hi), ref in ((b.per_pair, plus), (b.per_input, union)):
            lo, hi = Fraction(lo), Fraction(hi)
            assert mpmath.mpf(lo.numerator) / lo.denominator <= ref <= mpmath.mpf(hi.numerator) / hi.denominator
            assert hi - lo < Fraction(1, 10**8)


def test_one_share_ties_are_decided_exactly():
    """N = 2, t = 0, σ² = 1/2, ε = 1: one unknown share N_Z(0, 1/2), whose ratio against c + 1 is e^{-(2y - 1)} — exactly
    e^{±1} at y = 0, 1, ties that are not breaches (Definition 3's (2) is <=). Floats could not place them, the bound was
    1 and the door said NOT private at δ = 1/2; the exact breaches are 0.2283 (per pair) and 0.4359 (per input)."""
    with mpmath.workdps(60):
        w = lambda y: mpmath.exp(-mpmath.mpf(y * y))  # noqa: E731
        z = mpmath.nsum(w, [-mpmath.inf, mpmath.inf])
        pair, union = 1 - (w(0) + w(1)) / z, 1 - w(0) / z
    b = summed_shares.breach_bounds(Fraction(1), Fraction(1, 2), 1, Fraction(1, 2))
    for (lo, hi), ref in ((b.per_pair, pair), (b.per_input, union)):
        lo, hi = Fraction(lo), Fraction(hi)
        assert mpmath.mpf(lo.numerator) / lo.denominator <= ref <= mpmath.mpf(hi.numerator) / hi.denominator
        assert hi - lo < Fraction(1, 10**9)
    r = count.run(users=2, dropout="0", epsilon="1", delta="1/2", sigma2="1/2", protocol="pads")
    assert r.decided == {"per pair": True, "per input": True}  # the participant's one unknown share: certified
    assert r.decided_public["per input"] is False and not r.private  # the public's two shares: 0.595 > 1/2
