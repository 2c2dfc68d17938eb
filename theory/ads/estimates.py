"""Statistics the framework needs (000_211156f2009240b4.txt §4.4.1 "Click-Through-Rates", §5.5) and
the experiments' metrics (§4.4.1 "Metrics").

* ``Pr[c] = #reports of c / #reports``;
* ``CTR(a|c) = #clicks on a in c / #views of a in c``;
* back-off for rare contexts: use the first generalisation (along the context hierarchy's chain)
  with at least ``min_support`` clicks;
* precision = clicked displayed ads / displayed ads; coverage = contexts with a displayed ad / contexts.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Hashable, Iterable, Sequence

from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q


def context_prior(reports: Iterable[Hashable]) -> dict[Hashable, Any]:
    """``Pr[c]`` as the fraction of reported contexts equal to ``c``."""
    cnt = Counter(reports)
    total = sum(cnt.values())
    if total == 0:
        raise InvalidInput("context_prior: no reported contexts (empty log)")
    return {c: Q(n, total) for c, n in cnt.items()}


def click_through_rates(events: Iterable[tuple[Hashable, Hashable, bool]]) -> dict[tuple[Hashable, Hashable], Any]:
    """``CTR(a|c)`` from (context, ad, clicked) view events: clicks / views per (c, a)."""
    views, clicks = Counter(), Counter()
    n = 0
    for i, ev in enumerate(events):
        try:
            c, a, clicked = ev
        except (TypeError, ValueError):
            raise InvalidInput(f"event {i}: expected (context, ad, clicked), got {ev!r}") from None
        if not isinstance(clicked, bool):
            raise InvalidInput(f"event {i}: clicked = {clicked!r} must be a bool")
        views[(c, a)] += 1
        clicks[(c, a)] += clicked
        n += 1
    if n == 0:
        raise InvalidInput("click_through_rates: no view events (empty log)")
    return {key: Q(clicks[key], v) for key, v in views.items()}


def backoff_context(context: Hashable, chain: Sequence[Callable[[Hashable], Hashable]],
                    support: Callable[[Hashable], int], min_support: int) -> tuple[int, Hashable] | None:
    """The first generalisation ``chain[i](context)`` with ``support >= min_support`` (level i, context),
    or None. ``chain[0]`` is usually the identity."""
    if isinstance(min_support, bool) or not isinstance(min_support, int) or min_support < 0:
        raise InvalidInput(f"min_support = {min_support!r} must be a non-negative integer")
    for i, g in enumerate(chain):
        c = g(context)
        if support(c) >= min_support:
            return i, c
    return None


def precision_coverage(outcomes: Sequence[tuple[Hashable | None, Hashable]]) -> tuple[Any, Any]:
    """From (displayed ad or None, clicked ad) per test context: ``(precision, coverage)`` as exact
    rationals (precision None when nothing was displayed)."""
    if not outcomes:
        raise InvalidInput("precision_coverage: no test contexts")
    shown = [(d, c) for d, c in outcomes if d is not None]
    cov = Q(len(shown), len(outcomes))
    prec = Q(sum(1 for d, c in shown if d == c), len(shown)) if shown else None
    return prec, cov
