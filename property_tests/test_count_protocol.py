"""Protocol runs: correctness, robustness, message counts, exact view laws."""

import random

import pytest
from hypothesis import given, settings, strategies as st

from privclaims.theory.count import exact_release, fast_release
from privclaims.theory.count.encryption import OneTimePad, PaillierScheme, definition9_violations
from privclaims.theory.count.model import CountParams
from privclaims.theory.count.protocol import (
    AVAILABLE, DROP_AFTER, DROP_BEFORE, DROP_DURING, PROXY, SERVER, HonestUser, MaliciousUser, ProtocolAborted,
    SampledRandomness, run_pad_count, run_thesis_count,
)
from privclaims.theory.count.views import Scenario, laws_equal, protocol_view_law, rational_gaussian_pmf, simulator_view_law


@pytest.fixture(scope="module")
def scheme():
    return PaillierScheme(256)


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(0, 1), min_size=4, max_size=9), st.integers(0, 10**6))
def test_thesis_release_is_sum(scheme, bs, seed):
    P = CountParams(6, "1/4", len(bs))
    us = [HonestUser(i, b) for i, b in enumerate(bs)]
    tr = run_thesis_count(us, P, scheme, SampledRandomness(P.share_variance, seed))
    assert tr.releases == [sum(u.b + u.last_share for u in us)]
    assert tr.count() == len(bs) + 1


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from([AVAILABLE, DROP_AFTER, DROP_BEFORE, DROP_DURING]), min_size=6, max_size=10), st.integers(0, 10**6))
def test_pad_protocol_robust(avail, seed):
    P = CountParams(6, "1/2", len(avail))
    us = [HonestUser(i, i % 2, a) for i, a in enumerate(avail)]
    senders = [u for u in us if u.availability in (AVAILABLE, DROP_AFTER)]
    try:
        tr = run_pad_count(us, P, 10007, SampledRandomness(P.share_variance, seed))
    except ProtocolAborted as exc:
        assert len(senders) < P.min_messages and not exc.transcript.releases
        return
    assert len(senders) >= P.min_messages
    assert tr.releases == [sum(u.b + u.last_share for u in senders)]
    assert tr.count() == 2 * len(senders) + 1


def test_without_two_phase_commit_a_mid_drop_garbles_the_sum():
    P = CountParams(6, "1/4", 6)
    avail = [AVAILABLE] * 5 + [DROP_DURING]
    wrong = 0
    for seed in range(20):
        us = [HonestUser(i, 1, a) for i, a in enumerate(avail)]
        tr = run_pad_count(us, P, 10007, SampledRandomness(P.share_variance, seed), two_phase_commit=False)
        wrong += tr.releases[0] != sum(u.b + u.last_share for u in us[:5])
    assert wrong >= 18  # the orphan key k_6 is subtracted


def test_one_time_pad_definition9():
    assert definition9_violations(5) == []
    assert OneTimePad(7).centered(6) == -1


def test_views_equal_simulator_tiny():
    share = tuple(rational_gaussian_pmf("1/2", 1).items())
    A = (AVAILABLE,)
    sc = Scenario((("u1", (1,), A), ("u2", (0,), A)), (("z", (1,), lambda b, prev: (2, b)),), 5, 1, share, "1/2")
    for who in (None, SERVER, PROXY, "u1", ("z",)):
        assert laws_equal(protocol_view_law(sc, who), simulator_view_law(sc, who))


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 1), min_size=1, max_size=4), st.data())
def test_release_law_exact_vs_fast(bs, data):
    avail = data.draw(st.lists(st.booleans(), min_size=len(bs), max_size=len(bs)))
    share = rational_gaussian_pmf("1/3", 2)
    p = data.draw(st.sampled_from([None, 7, 11]))
    a = exact_release.release_law(bs, avail, share, p=p)
    b = fast_release.release_law(bs, avail, share, p=p)
    assert set(a) == set(b)
    assert all(abs(float(a[k]) - b[k]) < 1e-12 for k in a)
    assert sum(a.values()) == 1


def test_paillier_protocol_shares_law(scheme):
    """Shares drawn in runs of 000 Protocol 1 (Paillier) are N_Z(0, sigma^2/((1-t)N - 1)) (chi-square, false alarm
    1e-6) and Server 1's release is the sum of the bits and the shares."""
    from fractions import Fraction

    from property_tests.laws import ALPHA, chi_square_ok, gaussian_pmf

    n_users, rounds = 6, 400
    params = CountParams(n_users=n_users, sigma2=Fraction(8), t=Fraction(1, 3))
    assert params.share_variance == Fraction(8) / (Fraction(2, 3) * 6 - 1)
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
    ok, p = chi_square_ok(shares, gaussian_pmf(float(params.share_variance)))
    assert ok, f"Paillier protocol shares: chi-square p = {p:.3g} < {ALPHA}"


def test_a_view_claims_bound_names_exactly_the_instances_compared(monkeypatch):
    """helper-85: the simulator claims' bound text ('N <= .., p in {..}') is built from the rows compared; a
    derivation naming a p no instance used (count.claim20 said p in {5, 7} while every two-round instance had p = 5)
    was caught only by the full ledger's pins."""
    from privclaims.checks.claims.count import protocol as pc
    from privclaims.checks.registry import Context

    rows = [{"honest": 2, "malicious": 1, "p": 5, "equal": True}, {"honest": 1, "malicious": 1, "p": 7, "equal": True}]
    monkeypatch.setattr(pc.S, "compare", lambda scen, who: (True, rows[:1]))
    assert "(N <= 3, p in {5}, share law" in pc._views_claim(Context(quick=True), None, None, "x").evidence["bound"]
    monkeypatch.setattr(pc.S, "compare", lambda scen, who: (True, rows))
    out = pc._views_claim(Context(quick=True), None, None, "x")
    assert out.verdict == "verified-bounded" and "(N <= 3, p in {5, 7}, share law" in out.evidence["bound"]
