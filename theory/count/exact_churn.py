"""Figure 5.3's churn model (000_211156f2009240b4.txt §5.6.2; 002_9d55ef468949585c.txt §5.5), exactly.

A *phase* is one broadcast (server to all users, or all users to the server); each user is
unavailable in a phase independently with probability p. The figure is missing from the text, so
the model's free choices are fixed here and stated:

* Count: one user phase per query (users send their messages); it succeeds iff at least
  ``ceil((1 - t) N)`` users are available, otherwise it is repeated. Optimum: 1 phase.
* SHI-style (Shi et al.): setup = 1 phase that must reach ALL N users (the secrets must sum to a
  constant); aggregation = ``a = 1`` phase in which all N users must answer.
* RASTOGI-style (Rastogi-Nath): as SHI but aggregation takes ``a = 2`` phases (users send, then
  answer the server's decryption request); all N users must take part in both.
* A valid setup is reused by the next query; once a user misses an aggregation the setup is void:
  setups are retried until one reaches everybody, then the aggregation runs, and the pair is
  repeated until the aggregation also reaches everybody ("setup followed by aggregation must be
  repeated until they both run on the same stable set of users").

With ``u = (1-p)^N`` (everyone available in one phase) and ``A = u^a``, the expected cost from a
void setup to an answered query is ``C = (1/u + a) / A``, so the expected phases per query in steady
state are ``E = a + (1 - A) C`` - of order ``e^{(a+1) N p}``, exponential in N and in p. For Count
``E = 1 / Pr[Bin(N, 1-p) >= ceil((1-t) N)]``; exactly for N <= 2000, otherwise enclosed with
Hoeffding's bound ``Pr[fail] <= exp(-2 N (t - p)^2)`` (t > p).
"""

from __future__ import annotations

import math
from typing import Any

from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import ONE, ZERO, Q, as_rational, probability

AGGREGATION_PHASES = {"SHI": 1, "RASTOGI": 2}


def _np(n: int, p: object) -> tuple[int, Any]:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InvalidInput(f"N = {n!r} must be a positive integer")
    return n, probability(p, "p")


def setup_protocol_phases(protocol: str, n: int, p: object) -> Any:
    """Exact expected phases per query (steady state) of the SHI/RASTOGI-style protocols."""
    if protocol not in AGGREGATION_PHASES:
        raise InvalidInput(f"unknown protocol {protocol!r}; use {sorted(AGGREGATION_PHASES)}")
    n, p = _np(n, p)
    a = AGGREGATION_PHASES[protocol]
    u = (ONE - p) ** n
    if u == 0:
        raise InvalidInput("p = 1: no phase ever reaches all users")
    A = u ** a
    return a + (1 - A) * (1 / u + a) / A


def count_failure_probability(n: int, p: object, t: object) -> Any:
    """Exact ``Pr[fewer than ceil((1-t)N) of N users available]``."""
    n, p = _np(n, p)
    tt = as_rational(t, "t")
    need = math.ceil((1 - tt) * n)
    q = ONE - p
    total = ZERO
    term = q ** n  # k = n available
    for k in range(n, -1, -1):  # k available users
        if k < need:
            total += term
        if k == 0:
            break
        term = term * k / (n - k + 1) * p / q if q != 0 else ZERO
    return total


def count_phases(n: int, p: object, t: object, exact_limit: int = 2000) -> tuple[Any, Any]:
    """Enclosure ``(lo, hi)`` of Count's expected phases per query (equal when computed exactly)."""
    n, pp = _np(n, p)
    tt = as_rational(t, "t")
    if n <= exact_limit:
        e = 1 / (1 - count_failure_probability(n, pp, tt))
        return e, e
    if tt <= pp:
        raise InvalidInput("Hoeffding enclosure needs t > p")
    bound = math.exp(-2 * n * float(tt - pp) ** 2)
    return ONE, 1 / (1 - Q(bound) - Q(1, 10**12))


def seconds_per_day(p: object) -> Any:
    """Unavailability p as seconds per day (p x 86,400)."""
    return probability(p, "p") * 86400
