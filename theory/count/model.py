"""Parameters of Count(sigma^2, t) (000_211156f2009240b4.txt §5.4, Protocol 1), validated in one place.

Each of the N users adds a noise share of variance ``sigma^2 / ((1 - t) N - 1)``; with at least
``(1 - t) N`` honest available users, the total noise variance is at least
``((1 - t) N - 1) * sigma^2 / ((1 - t) N - 1) = sigma^2`` even when one honest user's share is
known to the adversary (that user itself). Bad parameters raise :class:`InvalidInput`:
``t`` outside [0, 1), ``(1 - t) N - 1 <= 0``, ``sigma^2 <= 0``, a non-bit input to a bit count.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable

from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q, as_rational, rational_str, to_interval, upper_rational


@dataclass(frozen=True)
class CountParams:
    """``Count(sigma2, t)`` for ``n_users`` users (exact rationals)."""

    sigma2: Any
    t: Any
    n_users: int

    def __post_init__(self) -> None:
        s2 = as_rational(self.sigma2, "sigma^2")
        t = as_rational(self.t, "t")
        if s2 <= 0:
            raise InvalidInput(f"sigma^2 = {rational_str(s2)} must be > 0")
        if t < 0 or t >= 1:
            raise InvalidInput(f"t = {rational_str(t)} must lie in [0, 1)")
        if isinstance(self.n_users, bool) or not isinstance(self.n_users, int) or self.n_users < 1:
            raise InvalidInput(f"number of users N = {self.n_users!r} must be a positive integer")
        denom = (1 - t) * self.n_users - 1
        if denom <= 0:
            raise InvalidInput(
                f"(1 - t) N - 1 = {rational_str(denom)} must be > 0 (t = {rational_str(t)}, N = {self.n_users})"
            )
        object.__setattr__(self, "sigma2", s2)
        object.__setattr__(self, "t", t)

    @property
    def share_denominator(self) -> Any:
        """``(1 - t) N - 1``."""
        return (1 - self.t) * self.n_users - 1

    @property
    def share_variance(self) -> Any:
        """Variance of each user's noise share, ``sigma^2 / ((1 - t) N - 1)`` (exact)."""
        return self.sigma2 / self.share_denominator

    @property
    def min_messages(self) -> int:
        """Fewest messages with which the protocol may release: ``ceil((1 - t) N)``."""
        x = (1 - self.t) * self.n_users
        return int(-((-x.numerator) // x.denominator))

    def total_variance(self, n_shares: int) -> Any:
        """Variance of the sum of ``n_shares`` independent shares (Fact 1)."""
        return n_shares * self.share_variance


def bits(values: Iterable[object], name: str = "b") -> list[int]:
    """Validate the private inputs of a bit count: each must be 0 or 1."""
    out = []
    for i, v in enumerate(values):
        if isinstance(v, bool) or v not in (0, 1) or (isinstance(v, float) and not v.is_integer()):
            raise InvalidInput(f"{name}[{i}] = {v!r} is not a bit (0 or 1)")
        out.append(int(v))
    return out


def positive_sigma2(x: object) -> Any:
    s2 = as_rational(x, "sigma^2")
    if s2 <= 0:
        raise InvalidInput(f"sigma^2 = {rational_str(s2)} must be > 0")
    return s2


def privacy_eps_delta(eps: object, delta: object) -> tuple[Any, Any]:
    """Validate (eps, delta): eps > 0 rational, delta in (0, 1)."""
    e = as_rational(eps, "eps")
    d = as_rational(delta, "delta")
    if e <= 0:
        raise InvalidInput(f"eps = {rational_str(e)} must be > 0")
    if d <= 0 or d >= 1:
        raise InvalidInput(f"delta = {rational_str(d)} must lie in (0, 1)")
    return e, d


def theorem1_sigma2_float(eps: float, delta: float, s: float = 1.0) -> float:
    """``2 s^2 ln(4/delta) / eps^2`` (Theorem 1's least variance), as a float for simulations,
    rounded UP by the margin of :func:`privclaims.theory.floats.round_up` (a plain float evaluation lands below the
    exact variance about half of the time; counterexamples/float_safety.py kind ``count.sigma2``)."""
    from privclaims.theory.floats import round_up

    for name, v in (("eps", eps), ("s", s)):
        if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
            raise InvalidInput(f"{name} = {v!r} must be a finite number > 0")
    if not (isinstance(delta, (int, float)) and 0 < delta < 1):
        raise InvalidInput(f"delta = {delta!r} must lie in (0, 1)")
    return float(round_up(2 * s * s * math.log(4 / delta) / (eps * eps)))


def theorem1_sigma2(eps: object, delta: object, s: object = 1, grid: int = 1000) -> Any:
    """Theorem 1's least variance ``sigma^2 = 2 s^2 ln(4/delta) / eps^2`` (000_211156f2009240b4.txt §2.2.1;
    002_9d55ef468949585c.txt Prop. 4.2) as an exact rational: it is irrational, so the upper end of a
    rigorous 128-bit enclosure is rounded UP to a multiple of ``1/grid`` (never below the theorem's
    variance, so the noise is never too small)."""
    e, d = privacy_eps_delta(eps, delta)
    sv = as_rational(s, "sensitivity s")
    if sv <= 0:
        raise InvalidInput(f"sensitivity s = {rational_str(sv)} must be > 0")
    if isinstance(grid, bool) or not isinstance(grid, int) or not 1 <= grid <= 10**12:
        raise InvalidInput(f"grid = {grid!r} must be an integer in [1, 10^12]")
    return upper_rational(lambda c: 2 * to_interval(sv * sv, c) * c.log(4 / to_interval(d, c)) / to_interval(e * e, c),
                          grid)


def prime_modulus(p: int) -> int:
    """Validate the modulus p of the 002 protocol (a prime > 2)."""
    if isinstance(p, bool) or not isinstance(p, int) or p < 3:
        raise InvalidInput(f"modulus p = {p!r} must be a prime >= 3")
    if any(p % d == 0 for d in range(2, math.isqrt(p) + 1)):
        raise InvalidInput(f"modulus p = {p} is not prime")
    return p


__all__ = ["CountParams", "bits", "positive_sigma2", "privacy_eps_delta", "theorem1_sigma2", "theorem1_sigma2_float", "prime_modulus", "Q"]
