"""Parameter theory of ZEALOUS (000_211156f2009240b4.txt §6.3.2-§6.6; 003_755c7aa10ef74058.txt §3-§6).

Every formula is written once, generic in an mpmath context ``ctx`` (``mpmath.mp`` for numbers,
``mpmath.iv`` for rigorous enclosures used by the checks). ``log`` is the natural logarithm.

* Theorem 13 [Korolova et al.] (eps', delta')-indistinguishability if lambda >= 2m/eps' (6.1),
  tau = 1 (6.2), tau' >= m (1 - log(2 delta'/m)/eps') (6.3); solved for delta':
  ``delta' = (m/2) exp(eps' (1 - tau'/m))``.
* Theorem 14 (eps, delta)-probabilistic DP if lambda >= 2m/eps (6.4) and
  ``tau' - tau >= max(-lambda ln(2 - 2 e^{-1/lambda}), -lambda ln(2 delta tau/(U m)))`` (6.5);
  solved for delta: ``delta = U m/(2 tau) e^{-(tau'-tau)/lambda}``.
* Proposition 12: tau = ceil(2m/eps) minimises tau'.
* Theorem 12: the domain-size bound ``U m (2 e^{2 eps (tau+xi)/m}/(c (tau+xi)) + 1/(tau - xi + 1))``.
* Theorem 15: inaccuracy ``#{d: f_d > tau+xi} * 1/2 e^{-2 xi/lambda}`` and accuracy ``1 - 1/2 e^{-xi/lambda}``.
"""

from __future__ import annotations

from typing import Any

import mpmath

from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q, as_rational, in_open_unit, positive, to_interval
from privclaims.theory.zealous.model import contributions


def _num(ctx: Any, x: object) -> Any:
    """An exact rational as a number (mp) or a tight enclosure (iv) of the context."""
    q = as_rational(x)
    if ctx is mpmath.iv:
        return to_interval(q, ctx)
    return ctx.mpf(int(q.numerator)) / int(q.denominator)


# ------------------------------------------------------------------ Theorem 13


def thm13_min_tau_prime(m: object, eps_prime: object, delta_prime: object, ctx: Any = mpmath.mp) -> Any:
    """(6.3): m (1 - log(2 delta'/m)/eps')."""
    mm = _num(ctx, contributions(m))
    e, d = _num(ctx, positive(eps_prime, "eps'")), _num(ctx, in_open_unit(delta_prime, "delta'"))
    return mm * (1 - ctx.log(2 * d / mm) / e)


def thm13_delta_prime(m: object, eps_prime: object, tau_prime: object, ctx: Any = mpmath.mp) -> Any:
    """delta' at equality in (6.3): (m/2) exp(eps' (1 - tau'/m))."""
    mm = _num(ctx, contributions(m))
    e, tp = _num(ctx, positive(eps_prime, "eps'")), _num(ctx, positive(tau_prime, "tau'"))
    return mm / 2 * ctx.exp(e * (1 - tp / mm))


def thm13_delta_prime_in_base(m: object, exp_eps_prime: object, tau_prime: object, base: object,
                              ctx: Any = mpmath.mp) -> Any:
    """delta' at equality in (6.3) with its log read in base b: (m/2) b^{eps' (1 - tau'/m)}, eps' = ln(e^eps') given by
    the rational e^eps' (> 1); base b = e is :func:`thm13_delta_prime`."""
    mm, tp = _num(ctx, contributions(m)), _num(ctx, positive(tau_prime, "tau'"))
    e = ctx.log(_num(ctx, _above_one(exp_eps_prime, "e^eps'")))
    return mm / 2 * ctx.exp(ctx.log(_num(ctx, _above_one(base, "base"))) * e * (1 - tp / mm))


def _above_one(x: object, name: str) -> Any:
    q = positive(x, name)
    if q <= 1:
        raise InvalidInput(f"{name} = {x!r} must be > 1")
    return q


# ------------------------------------------------------------------ Theorem 14


def one_minus_exp_neg(y: Any, ctx: Any = mpmath.mp) -> Any:
    """``1 - e^{-y}`` for ``y > 0`` without losing it to cancellation. In intervals, ``e^{-y}`` is evaluated with
    ``log2(1/y)`` more bits than the context has (the subtraction cancels that many), so the result keeps the
    context's relative precision: at λ = 2·10^300 the direct ``1 - e^{-1/λ}`` at 128 bits was ``[0, 2^-127]`` and its
    logarithm unbounded (found by helper-70).

    For ``y >= prec + 2`` (the context's bits) the value lies in ``[1 - 2^-(prec+2), 1)``, since
    ``0 < e^{-y} <= 2^{-y}``; that interval is returned without evaluating ``e^{-y}``, whose exponent alone is a
    number of ``log10(y)`` digits (λ = 10^-4000: 3.6 s in ``mpf_pow_int`` for an end the context rounds to 1)."""
    if ctx is mpmath.mp:
        return -ctx.expm1(-y)
    if y.a >= ctx.prec + 2:
        return 1 - ctx.mpf([0, mpmath.ldexp(1, -(ctx.prec + 2))])
    extra = max(0, -int(mpmath.mag(y.a))) + 10
    old = ctx.prec
    ctx.prec = old + extra
    try:
        return 1 - ctx.exp(-y)
    finally:
        ctx.prec = old


def thm14_first_gap(lam: object, ctx: Any = mpmath.mp) -> Any:
    """-lambda ln(2 - 2 e^{-1/lambda}): the gap making case (ii) of the proof's ratio <= e^{1/lambda}."""
    L = _num(ctx, positive(lam, "lambda"))
    return -L * ctx.log(2 * one_minus_exp_neg(1 / L, ctx))


def thm14_second_gap(U: object, m: object, tau: object, lam: object, delta: object, ctx: Any = mpmath.mp) -> Any:
    """-lambda ln(2 delta/(U m/tau))."""
    L = _num(ctx, positive(lam, "lambda"))
    u, mm, t = _num(ctx, positive(U, "U")), _num(ctx, contributions(m)), _num(ctx, positive(tau, "tau"))
    d = _num(ctx, in_open_unit(delta, "delta"))
    return -L * ctx.log(2 * d / (u * mm / t))


def thm14_min_tau_prime(U: object, m: object, eps: object, delta: object, tau: object, ctx: Any = mpmath.mp) -> Any:
    """The least tau' of (6.5) with lambda = 2m/eps (6.4 at equality)."""
    lam = 2 * Q(contributions(m)) / positive(eps, "eps")
    return thm14_min_tau_prime_at(U, m, delta, tau, lam, ctx)


def thm14_min_tau_prime_at(U: object, m: object, delta: object, tau: object, lam: object, ctx: Any = mpmath.mp) -> Any:
    """The least tau' of (6.5) for a given lambda and tau: tau + max(first gap, second gap)."""
    t = _num(ctx, positive(tau, "tau"))
    a, b = thm14_first_gap(lam, ctx), thm14_second_gap(U, m, tau, lam, delta, ctx)
    return t + (max(a, b) if ctx is mpmath.mp else _iv_max(a, b))


def least_tau_prime(U: object, m: object, delta: object, tau: object, lam: object, grid: int = 1000) -> Any:
    """:func:`thm14_min_tau_prime_at` rounded up to a multiple of 1/grid from a rigorous enclosure (never below)."""
    from privclaims.theory.numbers import upper_rational

    # up to 2^(2^20): ε = 10^-4000 gives λ = 2·10^4000 and τ′ ≈ 10^4003, beyond the default 2^4096
    return upper_rational(lambda c: thm14_min_tau_prime_at(U, m, delta, tau, lam, c), grid, max_exponent=1 << 20)


def _iv_max(a: Any, b: Any) -> Any:
    return mpmath.iv.mpf([max(a.a, b.a), max(a.b, b.b)])


def thm14_delta(U: object, m: object, tau: object, lam: object, tau_prime: object, ctx: Any = mpmath.mp) -> Any:
    """delta at equality in the second term of (6.5): U m/(2 tau) e^{-(tau'-tau)/lambda}."""
    u, mm, t = _num(ctx, positive(U, "U")), _num(ctx, contributions(m)), _num(ctx, positive(tau, "tau"))
    L, tp = _num(ctx, positive(lam, "lambda")), _num(ctx, positive(tau_prime, "tau'"))
    return u * mm / (2 * t) * ctx.exp(-(tp - t) / L)


def thm14_first_condition_holds(lam: object, tau: object, tau_prime: object) -> bool:
    """tau' - tau >= -lambda ln(2 - 2e^{-1/lambda}), decided rigorously."""
    from privclaims.theory.numbers import rigorous_sign

    gap = as_rational(tau_prime) - as_rational(tau)
    return rigorous_sign(lambda c: to_interval(gap, c) - thm14_first_gap(lam, c)) >= 0


# ------------------------------------------------------------------ Proposition 12


def prop12_tau(m: object, eps: object) -> int:
    """ceil(2m/eps)."""
    v = 2 * Q(contributions(m)) / positive(eps, "eps")
    return int(-((-v.numerator) // v.denominator))


def argmin_tau(U: object, m: object, eps: object, delta: object, taus: range) -> list[int]:
    """The integers tau in ``taus`` minimising thm14_min_tau_prime (ties kept), decided rigorously."""
    from privclaims.theory.numbers import rigorous_sign
    from privclaims.theory.validate import integer

    if not isinstance(taus, range) or len(taus) == 0:
        raise InvalidInput(f"taus = {taus!r} must be a non-empty range of integer thresholds")
    integer(taus[0], "taus[0] (tau)", lo=1)
    best = [taus[0]]
    for t in taus[1:]:
        s = rigorous_sign(lambda c: thm14_min_tau_prime(U, m, eps, delta, t, c) - thm14_min_tau_prime(U, m, eps, delta, best[0], c))
        if s < 0:
            best = [t]
        elif s == 0:
            best.append(t)
    return best


# ------------------------------------------------------------------ Theorem 12


def thm12_domain_bound(U: object, m: object, c: object, tau: object, xi: object, eps: object, ctx: Any = mpmath.mp) -> Any:
    """U m (2 e^{2 eps (tau+xi)/m}/(c (tau+xi)) + 1/(tau - xi + 1))."""
    u, mm = _num(ctx, positive(U, "U")), _num(ctx, contributions(m))
    cc, t, x, e = (_num(ctx, positive(c, "c")), _num(ctx, positive(tau, "tau")), _num(ctx, as_rational(xi, "xi")), _num(ctx, positive(eps, "eps")))
    return u * mm * (2 * ctx.exp(2 * e * (t + x) / mm) / (cc * (t + x)) + 1 / (t - x + 1))


def thm12_infrequent_lower_bound(D: object, U: object, m: object, c: object, tau: object, xi: object, eps: object, ctx: Any = mpmath.mp) -> Any:
    """(|D| - U m/(tau - xi + 1)) c / e^{2 eps (tau+xi)/m}: the proof's inability-to-filter bound."""
    u, mm = _num(ctx, positive(U, "U")), _num(ctx, contributions(m))
    cc, t, x, e = (_num(ctx, positive(c, "c")), _num(ctx, positive(tau, "tau")), _num(ctx, as_rational(xi, "xi")), _num(ctx, positive(eps, "eps")))
    return (_num(ctx, D) - u * mm / (t - x + 1)) * cc / ctx.exp(2 * e * (t + x) / mm)


def group_privacy_domain_bound(U: object, m: object, c: object, tau: object, xi: object, eps: object, ctx: Any = mpmath.mp) -> Any:
    """The corrected Theorem-12 threshold via group privacy (S'_d changes tau + xi users, ratio e^{eps (tau+xi)}):
    |D| > U m/(tau - xi + 1) + U m e^{eps (tau+xi)}/(c (tau + xi)) makes the inability to filter exceed U m/(tau+xi)."""
    u, mm = _num(ctx, positive(U, "U")), _num(ctx, contributions(m))
    cc, t, x, e = (_num(ctx, positive(c, "c")), _num(ctx, positive(tau, "tau")), _num(ctx, as_rational(xi, "xi")), _num(ctx, positive(eps, "eps")))
    return u * mm / (t - x + 1) + u * mm * ctx.exp(e * (t + x)) / (cc * (t + x))


def query_pair_domain(vocabulary: int, max_keywords: int, *, ordered: bool = True) -> int:
    """|D| of consecutive query pairs: (number of queries)^2, queries = keyword sequences (or sets) of length 1..max."""
    if vocabulary <= 0 or max_keywords <= 0:
        raise InvalidInput(f"vocabulary = {vocabulary} and max_keywords = {max_keywords} must be positive")
    from math import comb

    nq = sum(vocabulary ** i if ordered else comb(vocabulary, i) for i in range(1, max_keywords + 1))
    return nq * nq


# ------------------------------------------------------------------ Theorem 15


def thm15_retain_probability(xi: object, lam: object, ctx: Any = mpmath.mp) -> Any:
    """1 - 1/2 e^{-xi/lambda}: Pr[Lap(lambda) noise >= -xi]."""
    x, L = _num(ctx, as_rational(xi, "xi")), _num(ctx, positive(lam, "lambda"))
    return 1 - ctx.exp(-x / L) / 2
