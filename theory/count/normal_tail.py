"""Rigorous enclosures of the standard-normal tail ``Q(x) = Pr[Z >= x] = erfc(x / sqrt 2) / 2``.

``mpmath.iv`` has no working ``erfc`` (``mpmath.iv.erfc`` raises), so we bound it ourselves.
For ``y >= 0`` (Abramowitz-Stegun 7.1.6)::

    erf(y) = (2 / sqrt(pi)) e^{-y^2} sum_{n >= 0} 2^n y^{2n+1} / (1 * 3 * ... * (2n+1)).

All terms are positive and the ratio of term n + 1 to term n is ``r_n = 2 y^2 / (2n + 3)``, decreasing in n. Once
``r_n <= 1/2`` (i.e. ``n >= 2 y^2 - 3/2``; the loop waits for ``n >= 2 y^2`` with y^2 read off the upper end of its
enclosure) the remainder after term n is at most ``term_n * r_n / (1 - r_n) <= term_n``. We sum in interval
arithmetic until, past that point, the term is below ``2^-(prec+8)`` of the sum, then add the interval
``[0, term_n]`` for the remainder: the result encloses erf(y) rigorously.
``Q(x) = (1 - erf(x/sqrt 2)) / 2`` for ``x >= 0`` and ``(1 + erf(|x|/sqrt 2)) / 2`` for ``x < 0``;
the cancellation in ``1 - erf`` for large x is handled by the caller raising the precision
(:func:`privclaims.theory.numbers.rigorous_sign` quadruples it until the decision is certain).

Q is decreasing, so for an interval argument ``[a, b]``: ``Q([a, b]) subset [Q(b).lo, Q(a).hi]``.
"""

from __future__ import annotations

from typing import Any

from mpmath.libmp import from_int, mpf_le, mpi_add, mpi_div, mpi_mul, round_ceiling, round_floor


MILLS_FROM = 64
"""From |x| >= 64 on, Q(x) is enclosed by the Mills-ratio bounds ``phi(x) x / (x^2 + 1) <= Q(x) <= phi(x) / x``
(x > 0; Gordon 1941) instead of the series, whose length grows like x^2 (a huge argument ran for ever): the
relative width ``1 / (x^2 + 1) < 2^-12`` only matters for a δ below ``Q(64) < 10^-890``."""


_ERF_MEMO: dict[tuple, Any] = {}
_ERF_MEMO_MAX = 200_000


def _erf_nonneg_point(y: Any, ctx: Any) -> Any:
    """Enclosure of erf(y) for a (thin) interval y >= 0; memoised on (context, its precision, y's endpoints) - a pure
    function of those (the enclosures of one decision recur, e.g. cor2 asks 1,413 distinct points 4,176 times)."""
    key = (ctx, ctx.prec, y.a, y.b)
    hit = _ERF_MEMO.get(key)
    if hit is None:
        if len(_ERF_MEMO) >= _ERF_MEMO_MAX:
            _ERF_MEMO.clear()
        hit = _ERF_MEMO[key] = _erf_series(y, ctx)
    return hit


def _erf_series(y: Any, ctx: Any) -> Any:
    """The series of the module docstring, in ``ctx``'s interval arithmetic at its precision. The loop calls mpmath's
    interval primitives (``mpmath.libmp``) on endpoint pairs, the very calls ``ivmpf``'s operators make for
    ``term * 2 * y2 / (2n + 1)``, ``total + term`` and ``term.b <= (total.a * eps).a``, without re-wrapping each
    intermediate in an ``ivmpf`` (each step gives the interval the operator gives, bit for bit; ~2.4x faster per call,
    most of it in the loop's ~2 y^2 terms)."""
    prec = ctx.prec
    y2 = y * y
    y2_hi = float(y2.b)
    eps = (ctx.mpf(2) ** (-(prec + 8)))._mpi_
    two = ctx.convert(2)._mpi_
    yy = y2._mpi_
    term = total = y._mpi_
    n = 0
    while True:
        n += 1
        k = 2 * n + 1
        term = mpi_div(mpi_mul(mpi_mul(term, two, prec), yy, prec), (from_int(k, prec, round_floor),
                                                                    from_int(k, prec, round_ceiling)), prec)
        total = mpi_add(total, term, prec)
        if n >= 2 * y2_hi and mpf_le(term[1], mpi_mul((total[0], total[0]), eps, prec)[0]):  # r_n <= 1/2 from here
            break
    total = ctx.make_mpf(total) + ctx.mpf([0, ctx.make_mpf((term[1], term[1]))])
    return 2 / ctx.sqrt(ctx.pi) * ctx.exp(-y2) * total


def normal_sf(x: Any, ctx: Any) -> Any:
    """Enclosure of ``Q(x) = Pr[Z >= x]`` for an interval ``x`` (mpmath.iv at its precision)."""
    x = ctx.mpf(x)
    lo_arg, hi_arg = ctx.mpf(x.a), ctx.mpf(x.b)

    def at(point: Any) -> Any:
        if abs(point.a) >= MILLS_FROM:
            z = abs(point)
            phi = ctx.exp(-z * z / 2) / ctx.sqrt(2 * ctx.pi)
            tail = ctx.mpf([(phi * z / (z * z + 1)).a, (phi / z).b])  # Mills-ratio bounds on Q(z)
            return tail if point.a > 0 else 1 - tail
        if point.a >= 0:
            e = _erf_nonneg_point(point / ctx.sqrt(2), ctx)
            return (1 - e) / 2
        e = _erf_nonneg_point(-point / ctx.sqrt(2), ctx)
        return (1 + e) / 2

    q_hi = at(lo_arg)  # Q decreasing: largest at the lower end
    q_lo = at(hi_arg)
    lo = max(q_lo.a, 0)
    return ctx.mpf([lo, q_hi.b])


def normal_sf_float(x: float) -> float:
    """``Q(x)`` in float64 (scipy), for fast twins."""
    from scipy.special import ndtr

    return float(ndtr(-x))
