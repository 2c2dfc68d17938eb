"""A seeded generator of daily routines (the substitute for the Reality Mining traces of
000_211156f2009240b4.txt §3.7, which are not public).

A user has ``n`` places: 0 = home, 1 = work, the rest are "other" places with user-specific
popularity. A day has ``T`` equally spaced steps. The user sleeps at home, may commute to work on
workdays (probability ``p_work``), may go out for lunch or in the evening, and keeps the previous
place with a persistence probability; weekends mix home and other places. Everything is drawn from
``numpy.random.default_rng(seed)``, so the traces (and the chains learned from them) are
reproducible.
"""

from __future__ import annotations

import numpy as np

from privclaims.theory.maskit.model import MarkovChain, learn_chain


def generate_days(seed: int, n: int = 8, T: int = 24, days: int = 60) -> list[tuple[int, ...]]:
    rng = np.random.default_rng(seed)
    n = max(n, 3)
    pop = rng.dirichlet(np.ones(n - 2) * 0.7)  # popularity of the "other" places
    persist = rng.uniform(0.5, 0.85)
    p_work = rng.uniform(0.6, 0.95)
    wake = int(rng.integers(int(0.25 * T), int(0.4 * T) + 1))
    home_at = int(rng.integers(int(0.7 * T), int(0.85 * T) + 1))
    out = []
    for day in range(days):
        weekend = day % 7 in (5, 6)
        works = (not weekend) and rng.random() < p_work
        trace = []
        cur = 0
        for t in range(T):
            if t < wake or t >= min(T - 1, home_at + int(rng.integers(0, 3))):
                want = 0
            elif works and wake + 1 <= t < home_at - 1:
                want = 1 if rng.random() > 0.15 else 2 + int(rng.choice(n - 2, p=pop))
            else:
                want = 2 + int(rng.choice(n - 2, p=pop)) if rng.random() < 0.6 else 0
            if t > 0 and rng.random() < persist and not (t < wake or t == T - 1):
                want = cur if rng.random() < 0.5 else want
            cur = want
            trace.append(cur)
        out.append(tuple(trace))
    return out


def routine_chain(seed: int, n: int = 8, T: int = 24, days: int = 60, n_sensitive: int = 1) -> tuple[MarkovChain, list[str]]:
    """A chain learned (by counting, ``learn_chain``) from a synthetic user's days, and S = random
    places other than home among those visited."""
    traces = generate_days(seed, n, T, days)
    contexts = [f"L{i}" for i in range(max(n, 3))]
    ch = learn_chain([[contexts[i] for i in tr] for tr in traces], contexts, T)
    rng = np.random.default_rng(seed + 1)
    seen = sorted({i for tr in traces for i in tr if i != 0})
    k = min(n_sensitive, len(seen))
    S = [contexts[i] for i in rng.choice(seen, size=k, replace=False)]
    return ch, S
