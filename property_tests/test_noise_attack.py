"""Mironov (2012): naive float Laplace leaks the true count through the low bits of its outputs; the exact
grid sampler of privclaims.theory.noise.laplace gives the attack no advantage beyond eps (exact output laws)."""

from __future__ import annotations

from privclaims.counterexamples.mironov import attack_summary, exact_grid_ratio_bound, exact_sampler_support, naive_attack
from privclaims.theory.noise.laplace import discrete_laplace_pmf
from privclaims.theory.numbers import Q


def test_naive_float_laplace_has_unbounded_privacy_loss():
    """Outputs reachable from c = 0 but not from c + 1: Pr[y | c+1] = 0 < Pr[y | c], an infinite ratio."""
    r = naive_attack(0.0, 1.0, 200, seed=3)
    assert r["consistent_with_truth"] == 200
    assert r["exclude_neighbour"] > 50


def test_exact_grid_laplace_ratio_is_at_most_e_eps():
    """Exact pmfs of c + gK and c + 1 + gK: every output's ratio within [e^-eps, e^eps], e^eps = r^-G, attained."""
    for r, G in [(Q(9, 10), 8), (Q(1, 2), 1), (Q(99, 100), 16), (Q(3, 7), 3)]:
        res = exact_grid_ratio_bound(r, G, 3 * G + 5)
        assert res["ratio_le_e_eps"] and res["attained"], res


def test_grid_pmf_is_a_distribution_and_sampler_support_is_input_independent():
    r = Q(4, 5)
    total = sum(discrete_laplace_pmf(k, r) for k in range(-400, 401))
    assert 1 - total < Q(1, 10 ** 30) and total <= 1
    s = exact_sampler_support(1, Q(1, 4), 60, seed=2)
    assert s["reachable_from_both"] == s["draws"]


def test_attack_summary_in_the_ledger():
    s = attack_summary(20261121, draws=100)
    assert s["attack_defeated"] is True
