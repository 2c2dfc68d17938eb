"""Small search logs as finite mechanisms, for exact privacy analysis with :mod:`privclaims.theory.dp.exact`.

A log of U users over an item domain D (each history a set of at most m items, so ZEALOUS Step 1
selects everything and is deterministic) is a tuple of U frozensets. Neighbours differ in exactly
one user's history (000_211156f2009240b4.txt §2.2.1). The output is the *published item set*
(Step 6 without the noisy counts); its distribution is exact when rho = e^{-1/lambda} is rational.

Also: Example 6's algorithm A-hat (uniform history other than the first user's) and
neighbour relations of the finer differential-privacy variants of 003 §2.2.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, product
from typing import Any, Callable, Hashable, Iterable, Sequence

from privclaims.theory.dp.mechanism import FiniteMechanism, finite_mechanism
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q
from privclaims.theory.zealous import exact
from privclaims.theory.zealous.model import ZealousParams

Log = tuple  # tuple of frozensets


def small_domain(m: int) -> tuple[str, ...]:
    """2m items (at least 2): the smallest domain on which one user's change moves 2m counts (|Delta| = 2m)."""
    return tuple("abcdefghij"[: max(2, 2 * m)])


def histories(domain: Sequence[Hashable], m: int, *, allow_empty: bool = True) -> list[frozenset]:
    lo = 0 if allow_empty else 1
    return [frozenset(c) for r in range(lo, m + 1) for c in combinations(domain, r)]


def all_logs(domain: Sequence[Hashable], users: int, m: int, *, allow_empty: bool = True) -> list[Log]:
    if users <= 0:
        raise InvalidInput(f"U = {users} users: a log needs at least one user")
    return [tuple(h) for h in product(histories(domain, m, allow_empty=allow_empty), repeat=users)]


def user_neighbours(logs: Iterable[Log]) -> list[tuple[Log, Log]]:
    """Pairs of logs differing in exactly one user's history."""
    logs = list(logs)
    return [(a, b) for i, a in enumerate(logs) for b in logs[i + 1:] if sum(x != y for x, y in zip(a, b)) == 1]


def counts(log: Log) -> Counter:
    c: Counter = Counter()
    for h in log:
        c.update(h)
    return c


def zealous_mechanism(domain: Sequence[Hashable], users: int, params: ZealousParams, *, neighbours: Callable[[list[Log]], list] = user_neighbours) -> FiniteMechanism:
    """ZEALOUS (published set) on every log of ``users`` users over ``domain`` (histories of <= m items)."""
    logs = all_logs(domain, users, params.m)
    dist = {L: exact.release_distribution(dict(counts(L)), params) for L in logs}
    return finite_mechanism(dist, neighbours(logs))


def step4_mechanism(domain: Sequence[Hashable], users: int, params: ZealousParams) -> FiniteMechanism:
    """The output after Step 4, coarsened to its item set: the items of count >= tau (deterministic)."""
    logs = all_logs(domain, users, params.m)
    dist = {L: {frozenset(k for k, c in counts(L).items() if c >= params.tau): Q(1)} for L in logs}
    return finite_mechanism(dist, user_neighbours(logs))


def a_hat_mechanism(domain: Sequence[Hashable], users: int) -> FiniteMechanism:
    """Example 6: output a uniformly random history of D other than the first user's."""
    if len(domain) < 2:
        raise InvalidInput(f"|D| = {len(domain)}: A-hat needs at least two histories")
    logs = [tuple(t) for t in product(domain, repeat=users)]
    n = len(domain)
    dist = {L: {d: Q(1, n - 1) for d in domain if d != L[0]} for L in logs}
    return finite_mechanism(dist, user_neighbours(logs))


def least_exp_eps(dist: dict, pairs: list[tuple[Log, Log]]) -> Any:
    """max Pr[M(L)=O]/Pr[M(L')=O] over the given ordered/unordered pairs (None = infinite)."""
    best = Q(1)
    for a, b in pairs:
        for L, Lp in ((a, b), (b, a)):
            for O, p in dist[L].items():
                if p == 0:
                    continue
                q = dist[Lp].get(O, 0)
                if q == 0:
                    return None
                best = max(best, p / q)
    return best


def noisy_threshold_distribution(c: Counter, domain: Sequence[Hashable], rho: Any, tau_prime: int) -> dict:
    """Published set of Steps 2, 4, 5 without Step 3 (every domain item noised): full support."""
    from itertools import product as _p

    probs = [(d, exact.laplace_tail_above(tau_prime - c.get(d, 0), rho)) for d in domain]
    out: dict = {}
    for bits in _p((False, True), repeat=len(probs)):
        pr = Q(1)
        for (d, p), b in zip(probs, bits):
            pr *= p if b else 1 - p
        out[frozenset(d for (d, _), b in zip(probs, bits) if b)] = pr
    return out
