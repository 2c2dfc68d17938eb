"""Bad input to Count: clear errors, and the protocol aborts rather than releasing."""

import pytest
from hypothesis import given, strategies as st
from property_tests.fractions_strategy import fractions

from privclaims.theory.count.encryption import PaillierScheme
from privclaims.theory.count.model import CountParams, bits
from privclaims.theory.count.protocol import (
    AVAILABLE, DROP_BEFORE, PROXY, SERVER2, HonestUser, MaliciousUser, Message, ProtocolAborted, SampledRandomness,
    run_pad_count, run_thesis_count,
)
from privclaims.theory.errors import InvalidInput


@pytest.fixture(scope="module")
def scheme():
    return PaillierScheme(256)


@pytest.mark.parametrize("t", ["1", "-1/10", "3/2"])
def test_t_outside_unit_interval(t):
    with pytest.raises(InvalidInput, match="t = "):
        CountParams(4, t, 10)


@pytest.mark.parametrize("n,t", [(1, "0"), (2, "1/2"), (4, "3/4")])
def test_share_denominator_not_positive(n, t):
    with pytest.raises(InvalidInput, match=r"\(1 - t\) N - 1"):
        CountParams(4, t, n)


@pytest.mark.parametrize("s2", ["0", "-1"])
def test_sigma2_not_positive(s2):
    with pytest.raises(InvalidInput, match="sigma"):
        CountParams(s2, 0, 10)


@pytest.mark.parametrize("b", [2, -1, 0.5, True])
def test_non_bit(b):
    with pytest.raises(InvalidInput, match="not a bit"):
        bits([0, b])
    with pytest.raises(InvalidInput):
        HonestUser(0, b)


@given(st.integers(2, 60), fractions(0, 1).filter(lambda t: t < 1))
def test_share_variance_and_min_messages(n, t):
    try:
        P = CountParams(5, t, n)
    except InvalidInput:
        assert (1 - t) * n - 1 <= 0
        return
    assert P.share_variance * P.share_denominator == P.sigma2
    assert P.min_messages >= (1 - t) * n > P.min_messages - 1
    assert P.total_variance(P.min_messages - 1) >= P.sigma2


def _users(n, avail=AVAILABLE):
    return [HonestUser(i, i % 2, avail) for i in range(n)]


def test_ciphertext_under_other_key_aborts(scheme):
    other = PaillierScheme(256)
    P = CountParams(4, "1/4", 6)
    us = _users(5) + [MaliciousUser(5, 1, lambda b, prev: other.encrypt(b), raw=True)]
    with pytest.raises(ProtocolAborted, match="another public key") as exc:
        run_thesis_count(us, P, scheme, SampledRandomness(P.share_variance, 0))
    assert exc.value.transcript.releases == []


def test_unknown_user_aborts_both_protocols(scheme):
    P = CountParams(4, "1/4", 6)
    with pytest.raises(ProtocolAborted, match="unknown user") as exc:
        run_thesis_count(_users(6), P, scheme, SampledRandomness(P.share_variance, 0),
                         extra_messages=[Message("mallory", SERVER2, "m", scheme.encrypt(1))])
    assert exc.value.transcript.releases == []
    with pytest.raises(ProtocolAborted, match="unknown user"):
        run_pad_count(_users(6), P, 101, SampledRandomness(P.share_variance, 0), extra_messages=[Message("mallory", PROXY, "m", 3)])


def test_duplicate_message_aborts():
    P = CountParams(4, "1/4", 6)
    with pytest.raises(ProtocolAborted, match="second message"):
        run_pad_count(_users(6), P, 101, SampledRandomness(P.share_variance, 0), extra_messages=[Message(0, PROXY, "m", 3)])


def test_too_few_messages_aborts(scheme):
    P = CountParams(4, "1/4", 8)  # needs 6 messages
    us = _users(5) + [HonestUser(i, 0, DROP_BEFORE) for i in range(5, 8)]
    with pytest.raises(ProtocolAborted, match="fewer than") as exc:
        run_thesis_count(us, P, scheme, SampledRandomness(P.share_variance, 0))
    assert exc.value.transcript.releases == []


def test_user_count_must_match_N():
    with pytest.raises(InvalidInput, match="N = "):
        run_pad_count(_users(3), CountParams(4, 0, 5), 101, SampledRandomness(1, 0))


def test_modulus_must_be_prime():
    with pytest.raises(InvalidInput, match="not prime"):
        run_pad_count(_users(5), CountParams(4, 0, 5), 100, SampledRandomness(1, 0))


def test_count_share_variance_and_quorum_formulas():
    """000 §5.4 Protocol 1: each share has variance sigma^2/((1 - t) N - 1), the servers release with at least
    ceil((1 - t) N) messages, and (1 - t) N - 1 honest shares already reach sigma^2 (one share may be known)."""
    from fractions import Fraction

    p = CountParams(n_users=10, sigma2=Fraction(12), t=Fraction(3, 10))
    assert p.share_denominator == Fraction(7) - 1
    assert p.share_variance == Fraction(12) / 6
    assert p.total_variance(6) == 12
    assert p.min_messages == 7
    q = CountParams(n_users=7, sigma2=Fraction(1), t=Fraction(1, 2))
    assert q.min_messages == 4  # ceil(3.5)
    assert q.share_variance == Fraction(1) / Fraction(5, 2)
