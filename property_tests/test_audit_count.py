"""Audit of the count claims (issue 21, item 5): decisive numbers recomputed from the seed texts with independent
small code (mpmath quadrature and closed forms) and compared with the ledger's theory code."""

from __future__ import annotations

import mpmath as mp

from privclaims.theory.count import exact_privacy as ex
from privclaims.theory.count import per_input as pi
from privclaims.theory.count.model import CountParams
from privclaims.theory.numbers import enclose, upper_rational



mp.mp.dps = 40  # module-level: the independent values at 40 digits (another module may have set less)


import pytest as _pytest


@_pytest.fixture(autouse=True)
def _forty_digits():
    with mp.workdps(40):
        yield


def _Q(x):
    return mp.erfc(x / mp.sqrt(2)) / 2


def _inside(iv, x, rel=mp.mpf("1e-20")):
    """x (an mpmath value at 40 digits) lies in the enclosure iv up to x's own rounding."""
    tol = abs(x) * rel
    lo, hi = (mp.mpf(e) for e in iv._mpi_)
    return bool(lo - tol <= x <= hi + tol)


def _cor2_union(eps, s2, k):
    """Pr[exists j <= k: |X_0 + X_j| > eps s2 - 1], X_i ~ N(0, s2) independent, by quadrature over X_0."""
    s = mp.sqrt(s2)
    T = eps * s2 - 1
    f = lambda x: mp.npdf(x, 0, s) * (mp.ncdf((T - x) / s) - mp.ncdf((-T - x) / s)) ** k
    return 1 - mp.quad(f, [-mp.inf, -T, 0, T, mp.inf])


def test_cor2_per_input_witness_is_sound_and_above_delta():
    s2 = upper_rational(lambda c: 6 * c.log(8), 10**6)
    s2m = mp.mpf(int(s2.numerator)) / int(s2.denominator)
    exact56 = _cor2_union(1, s2m, 2 * 56)
    lower = enclose(lambda c: pi.shared_axis_union_lower("1", s2, 2 * 56, c, cells=130, width="1/25"), 64)
    assert lower.b <= exact56  # the rigorous bound is a lower bound
    assert lower.a > mp.mpf(1) / 2  # and it decides
    assert _cor2_union(1, s2m, 2 * 53) > mp.mpf(1) / 2 > _cor2_union(1, s2m, 2 * 52)  # quadrature threshold: 53 ads


def test_cor2_per_pair_direction_far_below_delta():
    """One direction (|Delta|^2 = 2) at the corollary's sigma^2 = 6 ln 8 (eps = 1, delta = 1/2): per pair far below 1/2."""
    s2 = 6 * mp.log(8)
    eta = mp.mpf(2) / (2 * s2)
    b = _Q((1 - eta) / mp.sqrt(2 * eta)) + _Q((1 + eta) / mp.sqrt(2 * eta))
    assert b < mp.mpf("0.02")


def test_thm10_fewest_users():
    """One share of variance sigma^2/(N - 1) (t = 0), sigma^2 = 2 ln 200: private per pair at N = 2, not at N = 3."""
    s2 = 2 * mp.log(200)
    vals = {}
    for n in (2, 3):
        sg = mp.sqrt(s2 / (n - 1))
        vals[n] = _Q(sg - 1 / (2 * sg)) + _Q(sg + 1 / (2 * sg))
    assert vals[2] <= mp.mpf(1) / 50 < vals[3]


def test_prop8_prob_values_at_two_users():
    """N = 2, t = 0, sigma^2 = 4, gap 1: Count's tail Q(1/sqrt 8) ~ 0.362 against the statement's 0.704 and the proof's
    0.352: the proof's expression fails."""
    tail = _Q(1 / mp.sqrt(8))
    stmt = mp.exp(-mp.mpf(1) / 8) * 2 / mp.sqrt(2 * mp.pi)
    proof = mp.exp(-mp.mpf(1) / 8) / mp.sqrt(2 * mp.pi)
    assert proof < tail < stmt
    from privclaims.checks.claims.count.topdown import _prop8_tail_row
    row = _prop8_tail_row(2, "0", "4", 1)
    assert row["the proof's expression (without σ)"]["bound_holds"] is False
    assert row["the statement's expression (with σ)"]["bound_holds"] is True
    d = row["the proof's expression (without σ)"]["exact_tail_vs_printed"]
    assert float(d.value.lo) <= float(tail) <= float(d.value.hi)


def test_a2_claimed_bound_below_one_tail_pair():
    claimed = 3 * 10 / (2 * mp.pi * 30) * mp.exp(-mp.mpf(900) / 200)
    assert abs(claimed - mp.mpf("0.0017681")) < mp.mpf("1e-6") and 2 * _Q(3) > claimed


def test_claims15_17_per_input_witness():
    from privclaims.checks.claims.count.protocol import _c_input_witness
    w, problems, _ = _c_input_witness(lambda P: P.min_messages - 1, "C'")
    assert not problems
    # independent: variance exactly sigma^2 (99 shares of sigma^2/99), fewest d with 1 - (1 - 2Q(sigma - 1/(2 sigma)))^d > 1/10
    s2 = w["sigma2"]
    sg = mp.sqrt(mp.mpf(int(s2.numerator)) / int(s2.denominator))
    p = 2 * _Q(sg - 1 / (2 * sg))
    d = 1
    while 1 - (1 - p) ** d <= mp.mpf(1) / 10:
        d += 1
    assert w["sums"] == d == 10
