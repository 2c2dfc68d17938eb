""":func:`privclaims.theory.maskit.exact.witness_belief` and :func:`~privclaims.theory.maskit.exact.confirmed_breach`
against their definitions (found by helper-77's planted bugs, which the door's tests let through): the belief
``Pr[X_t = c_s | output]`` of every partial output ``(t1, i, t2, j)`` - start (t1 = 0), end (j = END), t = t1, t2 or
strictly between - and the prior, both by enumerating every stream of small chains; None exactly where the output has
probability 0; and a candidate whose exact gain equals δ is no witness (δ-privacy is gain <= δ)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from privclaims import maskit
from privclaims.theory.maskit import exact
from privclaims.theory.maskit.model import markov_chain, suppression_vector
from privclaims.theory.maskit.partial_outputs import END
from privclaims.theory.dp.delta_privacy import Breach
from privclaims.theory.floats import upper_bound
from privclaims.theory.numbers import Q


def _enumerated(chain, p, output, t, s):
    """(Pr[X_t = s | output], Pr[X_t = s]) summing over every stream; the posterior is None where Pr[output] = 0."""
    t1, i, t2, j = output
    num = den = prior = Fraction(0)
    for x in itertools.product(range(chain.n), repeat=chain.T):
        w = Fraction(str(chain.initial[x[0]]))
        for tau in range(2, chain.T + 1):
            w *= Fraction(str(chain.steps[tau - 2][x[tau - 2]][x[tau - 1]]))
        prior += w if x[t - 1] == s else 0
        for tau in range(1, chain.T + 1):  # the output's emissions; other times unobserved
            q = Fraction(str(p[tau - 1][x[tau - 1]]))
            if tau == t1 or (tau == t2 and j != END):
                w *= (x[tau - 1] == (i if tau == t1 else j)) * (1 - q)
            elif t1 < tau < t2:
                w *= q
        den += w
        num += w if x[t - 1] == s else 0
    return (None if den == 0 else num / den), prior


def _chain(seed):
    rnd = random.Random(seed)
    n, T = (2, 3) if seed % 2 else (3, 2)

    def dist():
        w = [rnd.choice([0, 1, 1, 2, 3]) for _ in range(n)]
        w[rnd.randrange(n)] += 1
        return [Fraction(x, sum(w)) for x in w]

    chain = markov_chain([f"c{k}" for k in range(n)], dist(), [[dist() for _ in range(n)] for _ in range(T - 1)])
    p = [[rnd.choice([Fraction(0), Fraction(1), Fraction(1, 2), Fraction(1, 3), Fraction(3, 4)]) for _ in range(n)]
         for _ in range(T)]
    return chain, p


@pytest.mark.parametrize("seed", range(6))
def test_witness_belief_is_the_enumerated_belief_for_every_output_shape(seed):
    chain, p = _chain(seed)
    T, n = chain.T, chain.n
    for t1 in range(T + 1):
        for i in ([None] if t1 == 0 else range(n)):
            for t2 in range(t1 + 1, T + 2):
                for j in ([END] if t2 == T + 1 else range(n)):
                    for t in range(max(t1, 1), min(t2, T) + 1):
                        for s in range(n):
                            post, prior = _enumerated(chain, p, (t1, i, t2, j), t, s)
                            got = exact.witness_belief(chain, p, (t1, i, t2, j), t, s)
                            want = None if post is None or prior == 0 else (post, prior)
                            assert got == want, ((t1, i, t2, j), t, s)


def test_witness_belief_is_none_for_an_impossible_output_read_at_its_first_release():
    """a released at 1, ⊥ at 2, a at 3: a goes to b at 2 and b stays b, so the output has probability 0 - the belief
    at t = t1 = 1 must still see the whole output (D = 0), not only the steps up to t."""
    chain = markov_chain(["a", "b"], ["1/2", "1/2"], [[["0", "1"], ["0", "1"]], [["1/2", "1/2"], ["0", "1"]]])
    p = [["0", "0"], ["1/2", "1/2"], ["0", "0"]]
    assert exact.witness_belief(chain, p, (1, 0, 3, 0), 1, 0) is None
    assert exact.witness_belief(chain, p, (1, 0, 3, 1), 1, 0) == (1, Q(1, 2))


def test_a_gain_equal_to_delta_is_no_witness():
    """s, x of prior 1/2, suppress s always and x with 2/3: ⊥ gives Pr[s | ⊥] = 3/5, gain exactly 1/10. At δ = 1/10
    the policy is δ-private (gain <= δ); the float twin cannot certify it (within rounding doubt) and must not print
    that output as a breach."""
    chain = markov_chain(["s", "x"], ["1/2", "1/2"], [])
    p = suppression_vector(chain, {"s": "1", "x": "2/3"})
    candidate = Breach(0.1, (0, None, 2, END), 1, "s")
    assert exact.witness_belief(chain, p, candidate.output, 1, 0) == (Q(3, 5), Q(1, 2))
    assert exact.confirmed_breach(chain, p, candidate, "1/10") is None
    assert exact.confirmed_breach(chain, p, candidate, "99/1000")[0].gain == Q(1, 10)
    fast = maskit.check(chain, ["s"], "1/10", {"s": "1", "x": "2/3"}, fast=True)
    assert maskit.check(chain, ["s"], "1/10", {"s": "1", "x": "2/3"}).holds
    assert not fast.holds and not fast.refuted and fast.breach is None and "NOT certified" in fast.summary()


def test_upper_bound_adds_the_margin_at_the_scale_of_probabilities():
    """A gain computed as a difference of probabilities keeps their absolute accuracy: the bound of a tiny float gain
    adds 2^-40 (scale 1), not 2^-40 times the gain."""
    assert upper_bound(0.0) == Fraction(2) ** -40 + Fraction(2) ** -60
    assert upper_bound(3e-13) == Fraction(3e-13) + Fraction(2) ** -40 + Fraction(2) ** -60
    assert upper_bound(-0.5) == Fraction(-1, 2) + Fraction(2) ** -40 + Fraction(2) ** -60
    assert upper_bound(0.5, 4.0) == Fraction(1, 2) + Fraction(2) ** -38 + Fraction(2) ** -60
