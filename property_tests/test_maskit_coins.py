"""The probabilistic check's coin (Algorithm 2/3 okayToRelease: "with probability p_i^t' return false") must have
the law the door certified: the exact re-check of a policy p certifies the system that suppresses c_i at t' with
probability exactly p_i^t' (or more: Theorem 3). A float coin ``rng.random() >= float(p)`` suppresses with
probability ``float(p)`` rounded to 2^-53, which is below p for e.g. p = 2/3; at a policy on the boundary the run
then breaches δ: two contexts s, x of prior 1/2, suppress s always and x with 2/3, δ = 1/10 (gain exactly 1/10,
certified), while the float coin suppresses x with 6004799503160661/2^53 < 2/3 and the gain of ⊥ is
1/10 + 1.3e-17 > δ."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from privclaims import maskit
from privclaims.theory.maskit.model import markov_chain
from privclaims.theory.maskit.system import ProbabilisticCheck, suppress_coin

STEP = 2**53  # numpy's Generator.random() returns k / 2^53


class Draws:
    """A stand-in for numpy's Generator: ``random()`` returns the given k / 2^53, in order."""

    def __init__(self, *ks: int) -> None:
        self.ks = list(ks)
        self.calls = 0

    def random(self) -> float:
        self.calls += 1
        return self.ks.pop(0) / STEP


def _chain():
    return markov_chain(["s", "x"], ["1/2", "1/2"], [])


def test_a_draw_below_p_suppresses_even_where_float_p_rounds_down():
    """U in [float(2/3), float(2/3) + 2^-106) lies below 2/3: the coin must suppress x (the float coin released)."""
    k = int(Fraction(2, 3) * STEP)  # float(2/3) = k / 2^53 < 2/3
    assert Fraction(float(Fraction(2, 3))) == Fraction(k, STEP)
    chk = ProbabilisticCheck(_chain(), {"s": "1", "x": "2/3"}, Draws(k, 0))
    assert chk.okay_to_release(1, 1, ()) is False


def test_a_draw_above_p_releases_where_float_p_rounds_up_to_the_cell():
    """U in [k/2^53 + (2^53 - 1)/2^106, (k + 1)/2^53) with k = floor(2^53/3) lies above 1/3: release (the float
    coin suppressed: float(1/3) > k/2^53)."""
    k = int(Fraction(1, 3) * STEP)
    assert Fraction(k, STEP) < Fraction(1, 3) < Fraction(k + 1, STEP)
    assert Fraction(k, STEP) < Fraction(float(Fraction(1, 3)))
    chk = ProbabilisticCheck(_chain(), {"s": "1", "x": "1/3"}, Draws(k, STEP - 1))
    assert chk.okay_to_release(1, 1, ()) is True


@pytest.mark.parametrize("p", [Fraction(2, 3), Fraction(1, 3), Fraction(1, 10**30), 1 - Fraction(1, 10**30),
                               Fraction(1, 2), Fraction(0), Fraction(1)])
def test_the_coin_has_law_exactly_p(p):
    """Suppress iff U < p for U uniform in [0, 1), read 53 bits at a time: the first draw k decides alone
    unless its cell [k, k + 1) / 2^53 holds p inside, and then only further draws decide."""
    k0 = int(p * STEP)  # the cell holding p (p = 1: none)
    for k in {0, max(k0 - 1, 0), k0, min(k0 + 1, STEP - 1), STEP - 1}:
        if k >= STEP:
            continue
        straddles = Fraction(k, STEP) < p < Fraction(k + 1, STEP)
        if straddles:
            lo, hi = Draws(k, 0, 0, 0), Draws(k, STEP - 1, STEP - 1, STEP - 1)
            assert suppress_coin(p, lo) is True and suppress_coin(p, hi) is False
        else:
            draws = Draws(k)
            assert suppress_coin(p, draws) is (Fraction(k + 1, STEP) <= p)
            assert draws.calls == 1


def test_the_numpy_generator_draws_on_the_2_to_53_grid():
    """The coin reads rng.random() as k / 2^53: numpy's Generator draws exactly there."""
    rng = np.random.default_rng(7)
    assert all((rng.random() * STEP).is_integer() for _ in range(1000))


def test_the_filter_door_keeps_its_seeded_releases():
    """The exact coin agrees with the float one except on a draw's cell holding p: the README's outputs stand."""
    chain = maskit.load_chain({"contexts": ["s", "x"], "initial": ["1/2", "1/2"], "steps": []})
    r = maskit.filter_streams(chain, [(1,)] * 40, ["s"], "1/10", "probabilistic",
                             maskit.load_policy({"p": {"s": "1", "x": "2/3"}}, chain), seed=3)
    rng = np.random.default_rng(3)
    want = ["x" if rng.random() >= 2 / 3 else "⊥" for _ in range(40)]
    assert list(r.released) == want and r.holds
