"""(alpha, beta)-accuracy of CTR estimates (002_9d55ef468949585c.txt Appendix A.2, Eqs. (5)-(6)).

``CTR^ = clicks / (clicks + no_clicks)`` computed from noisy counts ``clicks = c + X``,
``no_clicks = n + Y`` is alpha-accurate when::

    (c - alpha) / (c + n + 2 alpha) <= CTR^ <= (c + alpha) / (c + n - 2 alpha)

and (alpha, beta)-accurate when this holds with probability at least beta. The appendix claims
beta <= 1 - 3/(2 pi alpha) * tau * exp(-alpha^2 / (2 tau^2)) suffices, tau^2 = N sigma^2/((1-t)N - 1)
being the variance of each count's total noise (all N users honest).
"""

from __future__ import annotations

from typing import Any

from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q, as_rational


def accuracy_interval(c: object, n: object, alpha: object) -> tuple[Any, Any]:
    """The interval ``[(c - alpha)/(c + n + 2 alpha), (c + alpha)/(c + n - 2 alpha)]`` (needs c + n > 2 alpha)."""
    c, n, a = (as_rational(v, k) for v, k in ((c, "clicks_true"), (n, "no_clicks_true"), (alpha, "alpha")))
    if a <= 0:
        raise InvalidInput(f"alpha = {a} must be > 0")
    if c < 0 or n < 0:
        raise InvalidInput("true counts must be >= 0")
    if c + n <= 2 * a:
        raise InvalidInput(f"c + n = {c + n} must exceed 2 alpha = {2 * a}")
    return (c - a) / (c + n + 2 * a), (c + a) / (c + n - 2 * a)


def is_accurate(ctr: object, c: object, n: object, alpha: object) -> bool:
    """Eqs. (5)-(6) for one released CTR^ (None - undefined - is not accurate)."""
    if ctr is None:
        return False
    lo, hi = accuracy_interval(c, n, alpha)
    x = as_rational(ctr, "ctr")
    return lo <= x <= hi


def noisy_ctr(c: object, n: object, x: object, y: object) -> Any:
    c, n, x, y = (Q(as_rational(v, "v")) for v in (c, n, x, y))
    return None if c + n + x + y == 0 else (c + x) / (c + n + x + y)


def claimed_failure_bound(alpha: Any, tau: Any, ctx: Any) -> Any:
    """The appendix' ``3/(2 pi alpha) tau exp(-alpha^2/(2 tau^2))`` (interval)."""
    return 3 / (2 * ctx.pi * alpha) * tau * ctx.exp(-alpha * alpha / (2 * tau * tau))
