"""Count's release with the noise it really adds — a sum of discrete Gaussian shares — decided rigorously.

Theorem 1 (000_211156f2009240b4.txt §2.2.1) is about *Gaussian* noise of variance ``σ²``. The protocol
as run (000 §5.4 footnote 1: "we would use a discretized version of Gaussian noise"; 002_9d55ef468949585c.txt
§4.2.1) has each user add an exact discrete Gaussian share ``X_i ~ N_Z(0, s²)``, ``s² = σ² / ((1 - t) N - 1)``.
``s²`` is the share's *parameter*, not its variance: ``Var[N_Z(0, s²)] < s²``, and for small ``s²`` far less
(:func:`privclaims.theory.noise.discrete_gaussian.discrete_gaussian_variance`: 0.3 % of ``s²`` at ``s² = 0.053``),
and the sum of ``k`` shares is not Gaussian — so Theorem 1 at ``σ²`` does not decide the release. This module
decides Definition 3 for the release ``c + S``, ``S = X_1 + ... + X_k``, against the neighbours ``c ± 1``:
the breach probability ``Pr[c + S ∈ Ω2]``, ``Ω2 = {o : |ln(Pr[c + S = o] / Pr[c ± 1 + S = o])| > ε}``, per pair
(the larger of the two neighbours; equal by symmetry of S) and per input (one Ω2 for both neighbours: the union).

**The law of S, enclosed.** ``T`` is S's law computed by binary powering of the share pmf restricted to
``[-K, K]``, every intermediate law restricted to ``[-W, W]``: ``0 <= T <= Pr[S = ·]`` pointwise, and
``1 - mass(T) <= E``, where ``E`` adds ``k Pr[|X| > K]`` and, for each restriction of a sum of j shares,
``Pr[|S_j| > W]`` (by induction: ``1 - mass(trunc(A * B)) <= (1 - mass A) + (1 - mass B) + dropped``).
Both tails come from sub-Gaussianity: ``E[e^{λX}] <= e^{λ² s² / 2}`` for ``X ~ N_Z(0, s²)`` (Canonne, Kamath,
Steinke 2020: ``E[e^{λX}] = e^{λ²s²/2} Σ_x e^{-(x - λs²)²/(2s²)} / Σ_x e^{-x²/(2s²)}`` and, by Poisson summation,
a shifted theta sum never exceeds the centred one), so ``Pr[|S_j| >= a] <= 2 e^{-a² / (2 j s²)}``.
Because ``Pr[S = ·] - T >= 0`` everywhere and sums to at most E, **any** set of outputs has
``Pr[S ∈ A] <= T(A) + E``, and the mass outside the window is at most E.

The share pmf is computed in ``mpmath.iv`` (normaliser: the window's sum plus the tail bound
``Σ_{x > K} w^{x²} <= w^{(K+1)²} / (1 - w^{2K+2})``, ``w = e^{-1/(2s²)}``), then carried in float64 with a
rigorous running error: each vector ``C`` satisfies ``T(1 - rel) - abs <= C <= T(1 + rel) + abs`` pointwise.
A convolution of nonnegative vectors (``numpy.convolve``, m-term dot products in any order) has relative error
at most ``γ_m = m u / (1 - m u)``, ``u = 2^-53``, plus ``m 2^-1074`` of underflow; the operands' errors
propagate as ``rel' = (1 + rel_a)(1 + rel_b)(1 + γ_m) - 1``, ``abs' = (abs_a (1 + rel_b) + abs_b (1 + rel_a) +
m abs_a abs_b)(1 + γ_m) + m 2^-1074`` (each operand's mass is at most 1). The window W and the share cut K are
chosen so that ``E <= δ 2^-30``; the few float operations after the enclosure (a handful of roundings, each at
most u) are covered by the relative slack :data:`MARGIN` = 2^-40, and a value below :data:`TINY` = 2^-1020 is
never trusted as a divisor. Decisions compare exact rationals (the floats read exactly) with δ.

So the result is an interval ``[lower, upper]`` for each breach probability: ``upper`` counts every output that
*might* breach (its T upper end, plus E once), ``lower`` every output that certainly does. Private means
``upper <= δ``; not private means ``lower > δ``; otherwise undecided (never certified). The exponential
part is sized first: windows wider than :data:`WINDOW_LIMIT` integers raise :class:`InvalidInput`.
The float twin is :func:`privclaims.theory.count.fast_release.discrete_total_noise_breach` (plain float64,
numeric only); tests check it against these bounds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from privclaims.theory.count.model import positive_sigma2, privacy_eps_delta
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q, as_rational, rational_str, to_interval
from privclaims.theory.validate import integer

U = 2.0**-53
MARGIN = 2.0**-40
TINY = 2.0**-1020
NORMAL = 2.0**-1022
LEAST_DELTA = Fraction(1, 2**1000)
"""The float64 enclosure resolves breach probabilities down to about 2^-1030; a smaller δ is refused."""
UNDERFLOW = 2.0**-1074
WINDOW_LIMIT = 65_537
"""Widest window ``[-W, W]`` (integers) of the sum's law; a direct convolution of two such vectors takes ~0.5 s here."""
BUDGET_BITS = 30
"""The truncation mass E is at most ``δ 2^-BUDGET_BITS``."""
_PREC = 96


@dataclass(frozen=True)
class Enclosed:
    """A float64 vector ``C`` on ``[-W, W]`` (index ``x + W``) with ``T(1 - rel) - abs <= C <= T(1 + rel) + abs``
    for the exact vector T it stands for; ``lost`` bounds ``1 - mass(T)`` below the true law's mass 1."""

    values: np.ndarray
    rel: float
    abs: float
    lost: float

    @property
    def half_width(self) -> int:
        return (len(self.values) - 1) // 2


def _up(x: Any) -> float:
    """A float ``>= x`` (mpmath number, interval end or float)."""
    f = float(x)
    return math.nextafter(f, math.inf) if f < math.inf else f


def _sub_gaussian_tail(a: int, variance_proxy: Any) -> float:
    """A float ``>= 2 e^{-a² / (2 v)}`` (``Pr[|Y| >= a]`` for Y sub-Gaussian with proxy v), ``v`` rational > 0."""
    iv = mpmath.iv
    old, iv.prec = iv.prec, _PREC
    try:
        return _up((2 * iv.exp(-iv.mpf(a) ** 2 / (2 * to_interval(variance_proxy, iv)))).b)
    finally:
        iv.prec = old


def _least_cut(variance_proxy: Any, log_inverse_budget: float) -> int:
    """An integer ``c >= 0`` (about the least) with ``2 e^{-(c + 1)² / (2 v)} <= budget``, ``ln(1/budget)`` given (checked
    rigorously by :func:`_sub_gaussian_tail` after a guess). The guess ``(c + 1)² >= 2 v (ln(1/budget) + ln 2)`` is
    computed in exact rationals (``float(v)`` overflows above 1.8e308) and made 2^-20 larger, so that the check below
    passes at once: from a float guess, a ``c`` beyond 2^53 is short by far more than one step and the loop ran for
    hours (sigma² = 1e50)."""
    v = Fraction(int(variance_proxy.numerator), int(variance_proxy.denominator))
    need = 2 * v * (Fraction(log_inverse_budget) + Fraction(math.log(2))) * Fraction(2**20 + 1, 2**20)
    c = max(0, math.isqrt(-(-need.numerator // need.denominator)) - 1)
    budget = math.exp(-log_inverse_budget)
    while _sub_gaussian_tail(c + 1, variance_proxy) > budget * (1 - MARGIN):
        c += 1
    return c


def share_pmf(share_sigma2: object, K: int) -> Enclosed:
    """``Pr[X = x]`` for ``X ~ N_Z(0, s²)``, ``|x| <= K``, enclosed (``lost`` = a bound on ``Pr[|X| > K]``)."""
    s2 = positive_sigma2(share_sigma2)
    K = integer(K, "K", lo=0)
    iv = mpmath.iv
    old, iv.prec = iv.prec, _PREC
    try:
        w = iv.exp(-1 / (2 * to_interval(s2, iv)))
        w2 = w * w
        weights, v, r = [iv.mpf(1)], iv.mpf(1), w  # w^{x²} by w^{(x+1)²} = w^{x²} w^{2x+1}
        for _ in range(K):
            v = v * r
            r = r * w2
            weights.append(v)
        tail = weights[-1] * r / (1 - w ** (2 * K + 2))  # Σ_{x > K} w^{x²} <= w^{(K+1)²} / (1 - w^{2K+2})
        z = weights[0] + 2 * (iv.fsum(weights[1:]) if K else 0) + 2 * tail
        rel = 0.0
        half = np.empty(K + 1)
        for x, wx in enumerate(weights):
            p = wx / z
            lo, hi = float(p.a), float(p.b)
            half[x] = 0.5 * (lo + hi)
            if lo >= NORMAL:
                rel = max(rel, (hi - lo) / lo)
        pmf_tail = 2 * tail / z
        lost = _up(pmf_tail.b)
    finally:
        iv.prec = old
    values = np.concatenate([half[:0:-1], half])
    # the float midpoint of an interval of relative width rel is within rel (+ two roundings) of the exact value;
    # an entry below the normal range (2^-1022) is within a few subnormal steps of it
    return Enclosed(values, rel + 4 * U, 4 * UNDERFLOW, lost)


def _gamma(m: int) -> float:
    return m * U / (1 - m * U)


def convolve(a: Enclosed, b: Enclosed, W: int, dropped: float) -> Enclosed:
    """``trunc_W(a * b)`` with its error carried; ``dropped`` bounds the exact mass cut off outside ``[-W, W]``."""
    full = np.convolve(a.values, b.values)
    centre = a.half_width + b.half_width
    lo, hi = max(0, centre - W), min(len(full), centre + W + 1)
    out = np.zeros(2 * min(W, centre) + 1)
    out[:] = full[lo:hi]
    m = min(len(a.values), len(b.values))
    g = _gamma(m)
    rel = (1 + a.rel) * (1 + b.rel) * (1 + g) - 1
    abs_ = (a.abs * (1 + b.rel) + b.abs * (1 + a.rel) + m * a.abs * b.abs) * (1 + g) + m * UNDERFLOW
    return Enclosed(out, rel * (1 + MARGIN), abs_ * (1 + MARGIN), (a.lost + b.lost + dropped) * (1 + MARGIN))


@dataclass(frozen=True)
class SumLaw:
    """The law of ``S = X_1 + ... + X_k`` enclosed on ``[-W, W]`` (see the module docstring)."""

    law: Enclosed
    shares: int
    share_sigma2: Any
    K: int

    @property
    def W(self) -> int:
        return self.law.half_width

    def lower(self) -> np.ndarray:
        """Pointwise lower bounds of ``Pr[S = x]``, ``x = -W..W``."""
        e = self.law
        return np.maximum(0.0, (e.values - e.abs) * (1 - e.rel - MARGIN))

    def upper_of_T(self) -> np.ndarray:
        """Pointwise upper bounds of T (add :attr:`lost` once for any set of outputs)."""
        e = self.law
        return (e.values + e.abs) * (1 + e.rel + MARGIN)

    @property
    def lost(self) -> float:
        return self.law.lost


def window_for(share_sigma2: object, shares: int, delta: object) -> tuple[int, int]:
    """``(K, W)``: the share cut and the window that make ``E <= δ 2^-30`` (no work done)."""
    s2 = positive_sigma2(share_sigma2)
    k = integer(shares, "shares", lo=1)
    _, d = privacy_eps_delta(1, delta)
    steps = 2 * k.bit_length()
    log_inv = math.log(int(d.denominator)) - math.log(int(d.numerator))  # ln(1/δ) (math.log takes big ints)
    log_inv += BUDGET_BITS * math.log(2) + math.log(2 * (steps + 1))
    K = _least_cut(s2, log_inv + math.log(k))
    W = _least_cut(k * s2, log_inv)
    return min(K, W), W


def sum_law(share_sigma2: object, shares: int, delta: object) -> SumLaw:
    """The law of the sum of ``shares`` independent ``N_Z(0, share_sigma2)`` shares, enclosed on a window chosen
    for δ. Raises :class:`InvalidInput` when the window is wider than :data:`WINDOW_LIMIT`."""
    s2 = positive_sigma2(share_sigma2)
    k = integer(shares, "shares", lo=1)
    _, d = privacy_eps_delta(1, delta)
    if d < LEAST_DELTA:
        raise InvalidInput(f"delta = {rational_str(d)} is below 2^-1000: the float64 enclosure of the summed shares' law "
                           "cannot resolve breach probabilities that small")
    K, W = window_for(s2, k, d)
    if 2 * W + 1 > WINDOW_LIMIT:
        raise InvalidInput(
            f"sigma² = {rational_str(k * s2)} (the sum of {k} discrete Gaussian shares N_Z(0, {rational_str(s2)})) needs "
            f"a window of {2 * W + 1} integers to decide its privacy exactly at delta = {rational_str(as_rational(delta, 'delta'))}; "
            f"at most {WINDOW_LIMIT} (use a larger epsilon or delta, or a smaller sigma²)")
    base = share_pmf(s2, K)
    result: Enclosed | None = None
    n_base, n_result = 1, 0
    j = k
    while True:
        if j & 1:
            if result is None:
                result, n_result = base, n_base
            else:
                n_result += n_base
                result = convolve(result, base, W, _sub_gaussian_tail(W + 1, n_result * s2))
        j >>= 1
        if not j:
            break
        n_base *= 2
        base = convolve(base, base, W, _sub_gaussian_tail(W + 1, n_base * s2))
    assert result is not None
    if result.half_width < W:  # pad to the full window (a short law is exactly 0 beyond its support)
        pad = W - result.half_width
        result = Enclosed(np.pad(result.values, pad), result.rel, result.abs, result.lost)
    if result.rel > 2.0**-21:  # MARGIN covers rel²/(1 - rel) (and a few roundings) in 1/(1 - rel) <= 1 + rel + MARGIN
        raise InvalidInput(f"shares = {k}: the float enclosure's relative error {result.rel:.3g} is too wide to decide")
    return SumLaw(result, k, s2, K)


@dataclass(frozen=True)
class BreachBounds:
    """Rigorous bounds (exact rationals read from floats) on the breach probability of ``c + S`` against ``c ± 1``."""

    per_pair: tuple[Any, Any]
    per_input: tuple[Any, Any]
    shares: int
    share_sigma2: Any
    window: int

    def decide(self, delta: object) -> dict[str, bool | None]:
        """:func:`decided` per quantifier order (``"pair"``, ``"input"``)."""
        _, d = privacy_eps_delta(1, delta)
        return {"pair": decided(self.per_pair, d), "input": decided(self.per_input, d)}


def decided(bounds: tuple[Any, Any], delta: Any) -> bool | None:
    """``True`` (upper <= δ), ``False`` (lower > δ) or ``None`` (undecided: never certified) for a breach interval."""
    lo, hi = bounds
    return True if hi <= delta else (False if lo > delta else None)


def _exp_bounds(eps: Any) -> tuple[float, float]:
    iv = mpmath.iv
    old, iv.prec = iv.prec, _PREC
    try:
        e = iv.exp(to_interval(eps, iv))
    finally:
        iv.prec = old
    lo = float(e.a)
    lo = math.nextafter(lo, 0) if lo < math.inf else float(np.finfo(float).max)
    return lo, _up(e.b)


def breach_bounds(eps: object, share_sigma2: object, shares: int, delta: object) -> BreachBounds:
    """Bounds on Definition 3's breach probability of the count released with ``shares`` summed shares."""
    e, _ = privacy_eps_delta(eps, delta)
    law = sum_law(share_sigma2, shares, delta)  # refuses a delta below LEAST_DELTA and a window too wide
    lo, up = law.lower(), law.upper_of_T() + law.lost * (1 + MARGIN)
    e_lo, e_hi = _exp_bounds(e)
    n = len(lo)
    possibly, certainly = {}, {}
    for d in (1, -1):
        # neighbour's value at x - d (index i - d); outside the window it is unknown (lower 0, upper lost)
        lo_n = np.zeros(n)
        up_n = np.full(n, law.lost * (1 + MARGIN))
        if d == 1:
            lo_n[1:], up_n[1:] = lo[:-1], up[:-1]
        else:
            lo_n[:-1], up_n[:-1] = lo[1:], up[1:]
        with np.errstate(over="ignore", invalid="ignore"):  # inf * 0 is nan, and nan compares False: never 'sure'
            safe = (up <= e_lo * lo_n * (1 - MARGIN)) & (up_n <= e_lo * lo * (1 - MARGIN)) & (lo >= TINY) & (lo_n >= TINY)
            sure = (lo >= TINY) & ((lo > e_hi * up_n * (1 + MARGIN)) | ((lo_n >= TINY) & (lo_n > e_hi * up * (1 + MARGIN))))
        possibly[d], certainly[d] = ~safe, sure
    if law.shares == 1:
        # One share: Pr[X = x] / Pr[X = x - d] = e^{-(2x - d) / (2 s²)} exactly, so x breaches iff |2x - d| > 2 s² ε,
        # an integer against a rational: decided exactly, ties included (s² = 1/2, ε = 1: ratio e^{±1} at x = 0, 1,
        # which no float comparison can place). Lower ends still count only normal floats (>= TINY).
        m = math.floor(Fraction(2 * law.share_sigma2 * e))
        xs = np.arange(-law.W, law.W + 1, dtype=np.int64)
        for d in (1, -1):
            exact = np.abs(2 * xs - d) > m
            possibly[d], certainly[d] = exact, exact & (lo >= TINY)

    upper_T = law.upper_of_T()

    def upper(mask: np.ndarray) -> Any:  # the T upper ends of every output that might breach, plus E once
        return Q(Fraction(_up(math.fsum(upper_T[mask]) * (1 + MARGIN) + n * 4 * UNDERFLOW))) + Q(Fraction(law.lost))

    def lower(mask: np.ndarray) -> Any:  # the lower ends (each >= TINY: normal floats) of every certain breach
        return Q(Fraction(math.nextafter(math.fsum(lo[mask]) * (1 - MARGIN), 0)))

    pair = (max(lower(certainly[1]), lower(certainly[-1])), min(Q(1), max(upper(possibly[1]), upper(possibly[-1]))))
    inp = (lower(certainly[1] | certainly[-1]), min(Q(1), upper(possibly[1] | possibly[-1])))
    return BreachBounds(pair, inp, law.shares, law.share_sigma2, law.W)


__all__ = ["Enclosed", "SumLaw", "BreachBounds", "decided", "share_pmf", "convolve", "sum_law", "window_for", "breach_bounds",
           "WINDOW_LIMIT", "MARGIN", "TINY", "LEAST_DELTA"]
