"""Mironov's attack (2012) on naive float Laplace noise, and why the exact grid sampler defeats it.

The attack: a noisy count ``y = c + lam * S * ln(U)`` computed in float64 takes only a sparse,
c-dependent set of double values. Given ``y`` and two neighbouring candidates ``c``, ``c + 1``, the
attacker checks whether ``y`` is reachable from each (:func:`privclaims.theory.noise.laplace.naive_output_possible`).
An output reachable from ``c`` but not from ``c + 1`` has likelihood ratio ``Pr[y | c] / Pr[y | c+1] = inf``:
the privacy loss is unbounded, not ``1/lam``.

Our sampler (:func:`privclaims.theory.noise.laplace.laplace_on_grid`) publishes ``c + g K`` with K exactly
discrete-Laplace: ``Pr[K = k] = (1 - r)/(1 + r) r^|k|``, ``r = e^{-g/lam}``. For integer c and
``g = 1/G`` every output lies on the grid ``gZ`` whichever c is true, and shifting c by one moves K by
G steps, so ``Pr[y | c] / Pr[y | c+1] = r^{|k| - |k - G|}`` lies in ``[r^G, r^{-G}] = [e^{-1/lam}, e^{1/lam}]``
for every y: the attack gains nothing beyond ``eps = 1/lam``. :func:`exact_grid_ratio_bound` proves this
exactly for a rational ``r`` (then ``e^eps := r^{-G}`` is rational and every comparison is exact).
"""

from __future__ import annotations

import random
from typing import Any

from privclaims.theory.noise.laplace import BitSource, discrete_laplace_pmf, laplace_on_grid, naive_float_laplace, naive_output_possible
from privclaims.theory.numbers import Q, rational_str


def naive_attack(c: float, lam: float, draws: int, seed: int) -> dict[str, Any]:
    """Draw ``draws`` naive outputs from true count c; count those that rule out the neighbour c + 1."""
    rng = random.Random(seed)
    ys = [naive_float_laplace(c, lam, rng) for _ in range(draws)]
    consistent = sum(naive_output_possible(y, c, lam) for y in ys)
    excluded = sum(not naive_output_possible(y, c + 1, lam) for y in ys)
    return {"draws": draws, "consistent_with_truth": consistent, "exclude_neighbour": excluded,
            "exclude_fraction": round(excluded / draws, 4)}


def exact_grid_ratio_bound(r: object, G: int, window: int) -> dict[str, Any]:
    """Exact worst ratio ``Pr[c + gK = y] / Pr[c + 1 + gK = y]`` over the grid outputs y with |k| <= window
    (beyond, ``|k| - |k - G| = +-G`` is constant), against ``e^eps = r^{-G}``."""
    rr = Q(r)
    bound = rr ** (-G)
    worst = Q(0)
    for k in range(-window, window + 1):  # y = c + k/G = (c + 1) + (k - G)/G
        p, q = discrete_laplace_pmf(k, rr), discrete_laplace_pmf(k - G, rr)
        worst = max(worst, p / q, q / p)
    return {"r": rational_str(rr), "G": G, "window": window, "worst_ratio": rational_str(worst),
            "e_eps": rational_str(bound), "ratio_le_e_eps": bool(worst <= bound), "attained": bool(worst == bound)}


def exact_sampler_support(lam: object, g: object, draws: int, seed: int) -> dict[str, Any]:
    """Draws from the exact sampler at c = 0: every output is also a grid point reachable from c = 1."""
    bits = BitSource(seed)
    gq = Q(g)
    outs = [laplace_on_grid(lam, gq, bits) for _ in range(draws)]
    on_grid = sum(1 for y in outs if (Q(y) / gq).denominator == 1 and ((Q(y) - 1) / gq).denominator == 1)
    return {"draws": draws, "reachable_from_both": on_grid}


def attack_summary(seed: int, draws: int = 200) -> dict[str, Any]:
    naive = naive_attack(0.0, 1.0, draws, seed)
    exact = exact_grid_ratio_bound(Q(9, 10), 8, 40)
    support = exact_sampler_support(1, Q(1, 8), min(draws, 100), seed)
    return {"naive_float_laplace": naive, "exact_grid_laplace": exact, "exact_sampler_support": support,
            "attack_defeated": bool(naive["exclude_neighbour"] > 0 and exact["ratio_le_e_eps"]
                                    and support["reachable_from_both"] == support["draws"])}
