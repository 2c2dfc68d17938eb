"""Fast twins err only toward privacy: the float-safety campaign (counterexamples/float_safety.py) and
regression tests for the three unsafe float decisions it found (fixed conservatively)."""

from __future__ import annotations

import math
import os

import mpmath
import numpy as np
import pytest

from privclaims.counterexamples import float_safety as fs
from privclaims.theory.numbers import Q, rigorous_sign, to_interval

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")


@pytest.mark.parametrize("kind", list(fs.KINDS))
def test_no_unsafe_disagreement(kind):
    """Every decision kind, with boundary instances: the fast twin never releases what exact suppresses."""
    r = fs.campaign("quick" if PROFILE == "dev" else PROFILE, seed=11, kinds=[kind])[0]
    assert r.instances > 0 and r.boundary > 0
    assert r.unsafe == 0, r.witnesses
    assert r.extra_suppressions <= r.exact_private


def test_campaign_detects_an_unsafe_twin():
    """The campaign can fail: a plain float comparison at huge counts is caught as unsafe."""
    from privclaims.theory.zealous import exact

    g = Q(1, 1024)
    c, K = 761062272103337282, -38308
    tau_prime = Q("194831941658454334615/256")
    naive = float(c) + float(g) * K > float(tau_prime)
    assert naive and not exact.survives(c, K, g, tau_prime)


def test_zealous_survives_is_conservative_at_huge_counts():
    """Regression (float_safety kind zealous.release): counts beyond 2^53 no longer publish an item whose
    exact noisy count is <= tau'."""
    from privclaims.theory.zealous import exact, fast

    g = Q(1, 1024)
    for c, K, tp in [(761062272103337282, -38308, Q("194831941658454334615/256")),
                     (1000845412249038929, -17670, Q("1024865702143015845627/1024"))]:
        assert not exact.survives(c, K, g, tp)
        assert not bool(fast.survives(np.array([c]), np.array([K]), g, [tp])[0])
    # ordinary counts: exactly the exact decision
    cs, ks = np.arange(1, 200), np.arange(-99, 100)
    tp = Q(100)
    assert [bool(x) for x in fast.survives(cs, ks, g, tp)] == [exact.survives(int(c), int(k), g, tp) for c, k in zip(cs, ks)]


def test_zealous_params_tau_prime_never_below_theorem14():
    """Regression (float_safety kind zealous.tau_prime): delta built so Theorem 14's least tau' lies a
    hair above 19807/500; ceil(float(tau') * 1000) returned 19807/500, below the bound."""
    from privclaims.theory.zealous.experiments import zealous_params
    from privclaims.theory.zealous.parameters import prop12_tau, thm14_min_tau_prime

    U, m, eps = 8446197, 1, Q(7, 5)
    delta = Q("38786837451497498742108506867245331316513786197471/5000000000000000000000000000000000000000000000000000000")
    tp = zealous_params(U, m, eps, delta).tau_prime
    tau = prop12_tau(m, eps)
    assert rigorous_sign(lambda c: to_interval(tp, c) - thm14_min_tau_prime(U, m, eps, delta, tau, c)) >= 0
    assert tp > Q(19807, 500)


def test_theorem1_float_sigma2_rounds_up():
    """Regression (float_safety kind count.sigma2): the float variance is >= 2 s^2 ln(4/delta)/eps^2."""
    from privclaims.theory.count.model import theorem1_sigma2_float

    for eps, delta, s in [(7.78, 0.359677, 4.0), (8.71, 0.11119, 2.0), (5.57, 0.368254, 4.0)]:
        got = Q(theorem1_sigma2_float(eps, delta, s))
        e, d, sv = Q(eps), Q(delta), Q(s)
        assert rigorous_sign(lambda c: to_interval(got, c) - 2 * to_interval(sv * sv, c) * c.log(4 / to_interval(d, c)) / to_interval(e * e, c)) >= 0


def test_round_up_margin():
    from privclaims.theory.floats import round_up

    for x in (1e-300, 1.0, 3.7e12, math.pi):
        assert round_up(x) > x


def test_safety_section_shape():
    res = fs.campaign("quick", 3, ["dp.pure", "querygen.g_min"], size=50)
    sec = fs.safety_section(res, 3, "quick")
    assert sec["unsafe_total"] == 0
    assert [k["kind"] for k in sec["kinds"]] == ["dp.pure", "querygen.g_min"]
    for k in sec["kinds"]:
        assert {"instances", "boundary", "unsafe", "extra_suppressions", "extra_suppression_rate"} <= set(k)


def test_mpmath_precision_restored():
    from privclaims.theory.zealous.experiments import zealous_params

    before = mpmath.iv.prec
    zealous_params(1000, 2, 1)
    assert mpmath.iv.prec == before
