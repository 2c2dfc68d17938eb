"""ZEALOUS (000_211156f2009240b4.txt §6.4, Figure 6.1; 003_755c7aa10ef74058.txt §4), exact twin.

Input: a search log S, positive numbers m, lambda, tau, tau'.

1. for each user u select a set s_u of up to m distinct items (not based on the data);
2. histogram (k, c_k), c_k = number of users with k in s_u;
3. delete the pairs with c_k < tau;
4. c~_k = c_k + eta_k, eta_k ~ Lap(lambda) (density e^{-|x|/lambda} / (2 lambda));
5. delete the pairs with c~_k <= tau';
6. publish the remaining items and their noisy counts.

Exact analysis (continuous Laplace, as in the paper): an item of count c >= tau survives Step 5
with probability ``Pr[c + eta > tau'] = 1/2 e^{-(tau'-c)/lambda}`` if c <= tau' and
``1 - 1/2 e^{-(c-tau')/lambda}`` otherwise. With ``rho = e^{-1/lambda}`` rational, an integer tau and a
rational tau' for which ``rho^{tau'-c}`` is rational (an integer tau', or rho a perfect power, e.g. rho = 16/81
and tau' = tau - 1/4), these are rationals (``1/2 rho^{tau'-c}``), so the distribution of the released *set*
(a post-processing of the output) is an exact finite mechanism (:func:`release_distribution`).

Sampling (:func:`zealous`) uses the exact grid-Laplace sampler of :mod:`privclaims.theory.noise.laplace`.
"""

from __future__ import annotations

from itertools import product
from typing import Any, Hashable, Mapping

from privclaims.theory.errors import InvalidInput
from privclaims.theory.noise.laplace import BitSource, laplace_on_grid
from privclaims.theory.numbers import ONE, Q, ZERO, rational_str
from privclaims.theory.zealous.histograms import histogram, select_items, user_items
from privclaims.theory.validate import integer
from privclaims.theory.zealous.model import SearchLog, ZealousParams, check_run, integer_threshold, user_counts
from privclaims.theory.zealous.models import rational_power

DEFAULT_GRANULARITY = Q(1, 1024)


def _rho(params: ZealousParams) -> Any:
    if params.rho is None:
        raise InvalidInput("the exact twin needs rho = e^{-1/lambda} rational (ZealousParams.of(..., rho=...))")
    return params.rho


def laplace_tail_above(x: Any, rho: Any) -> Any:
    """Pr[eta > x] for eta ~ Lap(lambda), rho = e^{-1/lambda}: 1/2 rho^x (x >= 0), 1 - 1/2 rho^{-x}; x an integer, or a
    rational for which rho^|x| is rational (:class:`InvalidInput` otherwise: the exact twin has no irrational numbers)."""
    q = Q(x)
    if q.denominator == 1:
        k = int(q)
        return rho ** k / 2 if k >= 0 else 1 - rho ** (-k) / 2
    p = rational_power(rho, abs(q))
    if p is None:
        raise InvalidInput(f"x = {rational_str(q)} with rho = {rational_str(Q(rho))}: rho^|x| is irrational; the exact twin "
                           "needs rho^|x| rational (rho a perfect power of the exponent's denominator)")
    return p / 2 if q >= 0 else 1 - p / 2


def release_probability(count: int, params: ZealousParams) -> Any:
    """Pr[item of Step-2 count ``count`` is published] (0 when count < tau); tau an integer, tau' a rational with
    rho^{tau' - count} rational (:func:`laplace_tail_above`)."""
    check_run(params, 0, 1)
    count = integer(count, "count", lo=0)
    tau = integer_threshold(params.tau, "tau")
    tp = Q(params.tau_prime)
    if count < tau:
        return ZERO
    return laplace_tail_above(tp - count, _rho(params))


def release_distribution(hist: Mapping[Hashable, int], params: ZealousParams) -> dict[frozenset, Any]:
    """Exact distribution of the published item set (Steps 3-5) for a small histogram."""
    probs = {k: release_probability(c, params) for k, c in sorted(user_counts(hist).items(), key=lambda kv: repr(kv[0]))}
    sure = [k for k, p in probs.items() if p == ONE]
    random_items = [(k, p) for k, p in probs.items() if ZERO < p < ONE]
    if len(random_items) > 16:
        raise InvalidInput(f"{len(random_items)} uncertain items: the exact release distribution is for small logs")
    out: dict[frozenset, Any] = {}
    for bits in product((False, True), repeat=len(random_items)):
        pr = ONE
        chosen = list(sure)
        for (k, p), b in zip(random_items, bits):
            pr *= p if b else 1 - p
            if b:
                chosen.append(k)
        out[frozenset(chosen)] = out.get(frozenset(chosen), ZERO) + pr
    return out


def survives(count: int, steps: int, granularity: Any, tau_prime: Any) -> bool:
    """Step 5 for one item: is the noisy count ``count + granularity * steps`` > tau'? (exact)"""
    return Q(count) + Q(granularity) * steps > Q(tau_prime)


def zealous(hist: Mapping[Hashable, int], params: ZealousParams, seed: int, granularity: Any = DEFAULT_GRANULARITY) -> dict[Hashable, Any]:
    """Steps 3-6 on a Step-2 histogram, grid-Laplace noise sampled exactly; noisy counts are rationals."""
    check_run(params, seed, granularity)
    if params.lam is None:
        raise InvalidInput("sampling needs a rational lambda")
    bits = BitSource(seed)
    hist = user_counts(hist)
    out = {}
    for k in sorted(hist, key=repr):
        c = hist[k]
        if c < params.tau:
            continue
        noisy = Q(c) + laplace_on_grid(params.lam, granularity, bits)
        if survives(c, (noisy - c) / granularity, granularity, params.tau_prime):
            out[k] = noisy
    return out


def zealous_log(log: SearchLog, kind: str, params: ZealousParams, seed: int, session_gap: int = 1800) -> dict[Hashable, Any]:
    """Steps 1-6 on a search log for one item kind."""
    selected = select_items(user_items(log, kind, session_gap), params.m, seed)
    return zealous(histogram(selected), params, seed)
