"""``maskit check --fast``: the float twin answers "private" only beyond rounding doubt, and its "NOT δ-private"
prints a witness only when the witness is one in exact arithmetic (:func:`privclaims.theory.maskit.exact.confirmed_breach`).

Before, the float twin's candidate was printed as the witness with its float gain, and its prior as the float's exact
value: where a normaliser underflows the float twin's gain is a cautious bound (1 - prior), not a gain any output
attains, so the door said "NOT δ-private" with "after the output [⊥] the belief ... rises from 1e-300 to ≈ 1" while
that output's posterior is exactly 1/2 and the policy is 3/5-private; within rounding doubt of δ it printed a
"witness" whose gain was below δ."""

from __future__ import annotations

from hypothesis import given, settings

from privclaims import maskit
from privclaims.counterexamples.maskit_strategies import instances
from privclaims.theory.maskit.model import suppression_vector
from privclaims.theory.numbers import Q

TINY = Q(1, 10**300)


def _underflow():
    """s and x of prior 10^-300 each, suppressed always; y released: ⊥ (probability 2·10^-300, below the fast twin's
    underflow floor) gives Pr[s | ⊥] = 1/2."""
    chain = maskit.load_chain({"contexts": ["s", "x", "y"], "initial": [str(TINY), str(TINY), str(1 - 2 * TINY)],
                               "steps": []})
    return chain, maskit.load_policy({"p": {"s": "1", "x": "1"}}, chain)


def test_an_underflow_bound_is_not_printed_as_a_witness():
    chain, p = _underflow()
    exact = maskit.check(chain, ["s"], "3/5", p)
    assert exact.holds and exact.max_gain == Q(1, 2) - TINY
    fast = maskit.check(chain, ["s"], "3/5", p, fast=True)
    assert not fast.holds  # cautious: the float twin cannot divide by 2e-300
    assert fast.breach is None and not fast.refuted
    out = fast.summary()
    assert "Witness" not in out and "NOT certified" in out and "without --fast" in out
    assert fast.as_json()["breach"] is None and fast.as_json()["refuted"] is False


def _near():
    chain = maskit.load_chain({"contexts": ["c0", "c1"], "initial": ["1", "0"],
                               "steps": [[["3/10000000000003", "10000000000000/10000000000003"], ["2/5", "3/5"]]]})
    return chain, maskit.load_policy({"p": [["1", "1/3"], ["1/3", "1/3"]]}, chain)


def test_within_rounding_doubt_no_witness_below_delta():
    """Largest gain 3/(10^13 + 3) < δ = 3·10^-13: exact holds; the float twin (≈ 2.99983e-13) cannot certify it and
    must not print that output as a breach."""
    chain, p = _near()
    assert maskit.check(chain, ["c1"], "3e-13", p).holds
    fast = maskit.check(chain, ["c1"], "3e-13", p, fast=True)
    assert not fast.holds and fast.breach is None and "Witness" not in fast.summary()


def test_the_largest_gain_shown_is_never_below_the_gain():
    """The float twin computes the gain 3/(10^13 + 3) ≈ 2.99999999999991e-13 as ≈ 2.99983e-13 (a difference of two
    probabilities near 1): shown as such, "rounded up", it was below the gain; the bound shown adds the float
    decisions' margin at the scale of probabilities (found by helper-75)."""
    chain, p = _near()
    fast = maskit.check(chain, ["c1"], "3e-13", p, fast=True)
    g = Q(3, 10**13 + 3)
    assert fast.max_gain < g <= fast.gain_bound == fast.privacy_level
    assert Q(fast.as_json()["max_gain"]["exact"]) >= g and Q(fast.as_json()["privacy_level"]["exact"]) >= g
    assert "is at most ≈ 1.20948e-12" in fast.summary()  # 1351/2^52 + 2^-40 + 2^-60


def test_a_confirmed_witness_carries_exact_numbers():
    """At δ = 2.99983e-13 the breach is real; its prior is 10^13/(10^13 + 3), not the float's 4503599627369145/2^52."""
    chain, p = _near()
    fast = maskit.check(chain, ["c1"], "2.99983e-13", p, fast=True)
    assert fast.refuted and fast.breach.prior == Q(10**13, 10**13 + 3) and fast.breach.gain == Q(3, 10**13 + 3)
    assert "Witness (confirmed in exact arithmetic)" in fast.summary()


@settings(max_examples=40, deadline=None)
@given(instances(max_n=3, max_T=3))
def test_a_fast_refutation_is_an_exact_one(inst):
    ch, p, S, d = inst
    fast = maskit.check(ch, S, d, suppression_vector(ch, p), fast=True)
    exact = maskit.check(ch, S, d, suppression_vector(ch, p))
    if fast.holds:  # and what it shows is consistent with it: the bound shown is at most δ
        assert exact.holds and fast.privacy_level <= d
    # what the float twin shows as its largest gain and privacy level is never below the exact gain
    assert fast.gain_bound >= exact.max_gain and fast.privacy_level >= exact.privacy_level
    assert Q(fast.as_json()["max_gain"]["exact"]) >= exact.max_gain
    if fast.refuted:  # a real gain of some output: above δ, at most the exact maximum
        b = fast.breach
        assert not exact.holds and d < b.gain <= exact.max_gain and b.posterior - b.prior == b.gain
