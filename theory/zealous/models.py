"""The documents' model of thesis ch. 6 (000_211156f2009240b4.txt; 003_755c7aa10ef74058.txt) as validators.

A witness against a claim of ch. 6 counts only inside the model the documents state (issue 21, item 3):

* a **search log** (§6.2.1, §6.2.3, Example 6 ``S in D^U``): U >= 1 users, each with one history; for the
  theory a history is a set of items of a domain D, at most m of them (what ZEALOUS's Step 1 selects);
* **neighbouring logs**: the same U users, exactly one user's history replaced by another history (the proof of
  Theorem 14: "S and S' differ in the search history of a single user ... |Delta| <= 2m");
* an **algorithm on search logs** (Definitions 2-4, 10, 11): a randomized map from logs to outputs; a finite
  mechanism is inside the model when its inputs are logs of the model and its pairs are neighbouring logs;
* **ZEALOUS's parameters** (Figure 6.1, Theorems 13-14): positive m (an integer), lambda, tau, tau' with tau' >= tau;
  tau an integer under the integer reading of "positive numbers", any positive real under the real one;
* the **premises** of Theorems 13 and 14 ((6.1)-(6.3), (6.4)-(6.5)), decided exactly or with rigorous intervals.

Every function returns the list of problems found (empty: inside the model) and never raises on a bad witness.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Hashable, Iterable, Sequence

from privclaims.theory.numbers import Q, as_rational, rigorous_sign, to_interval


def _int_root(n: int, k: int) -> int | None:
    """The integer k-th root of n >= 0 when n is a perfect k-th power, else None."""
    if n < 0:
        return None
    lo, hi = 0, 1
    while hi ** k <= n:
        hi *= 2
    while lo < hi:
        mid = (lo + hi) // 2
        if mid ** k < n:
            lo = mid + 1
        else:
            hi = mid
    return lo if lo ** k == n else None


def rational_power(base: object, exponent: object) -> Any:
    """``base ** exponent`` for a positive rational base and a rational exponent when the result is rational (a perfect
    power), else None: e.g. (1/9)^(1/2) = 1/3, (1/2)^(1/2) -> None."""
    b, e = Fraction(as_rational(base)), Fraction(as_rational(exponent))
    if b <= 0:
        return None
    num, den = _int_root(b.numerator, e.denominator), _int_root(b.denominator, e.denominator)
    if num is None or den is None:
        return None
    return Q(num, den) ** e.numerator


# ----------------------------------------------------------------------------------------- logs


def log_problems(log: Any, m: int | None = None, domain: Iterable[Hashable] | None = None) -> list[str]:
    """A finite log (a tuple of U >= 1 histories, each a frozenset of items) inside the model: every history a set of
    at most ``m`` items of ``domain`` (when given)."""
    if not isinstance(log, tuple) or not log:
        return [f"a log is a non-empty tuple of user histories, got {log!r}"]
    dom = None if domain is None else set(domain)
    bad = []
    for u, h in enumerate(log):
        if not isinstance(h, frozenset):
            bad.append(f"user {u}'s history {h!r} is not a set of items")
            continue
        if m is not None and len(h) > m:
            bad.append(f"user {u} holds {len(h)} > m = {m} items")
        if dom is not None and not h <= dom:
            bad.append(f"user {u} holds items outside the domain: {sorted(map(repr, h - dom))}")
    return bad


def neighbour_problems(a: Any, b: Any, m: int | None = None, domain: Iterable[Hashable] | None = None) -> list[str]:
    """Two logs inside the model that are neighbours: the same number of users, exactly one history differs."""
    bad = log_problems(a, m, domain) + log_problems(b, m, domain)
    if bad:
        return bad
    if len(a) != len(b):
        return [f"neighbouring logs have the same U users: {len(a)} against {len(b)}"]
    differ = sum(x != y for x, y in zip(a, b))
    return [] if differ == 1 else [f"{differ} users' histories differ (neighbours differ in exactly one)"]


def mechanism_problems(mech: Any, m: int | None = None, domain: Iterable[Hashable] | None = None) -> list[str]:
    """A finite mechanism (``privclaims.theory.dp.mechanism.FiniteMechanism``) is an algorithm on search logs of the
    model: every input a log of the model, every pair of its neighbour relation a pair of neighbouring logs."""
    dom = None if domain is None else tuple(domain)
    bad = []
    for L in mech.inputs:
        bad += log_problems(L, m, dom)
    for a, b in mech.pairs:
        bad += [f"pair ({a!r}, {b!r}): {p}" for p in neighbour_problems(a, b, m, dom)]
    return bad[:10]


def a_hat_problems(mech: Any, histories: Sequence[Hashable], users: int) -> list[str]:
    """Example 6's model: inputs are all of D^U (D a finite domain of histories, here opaque values), pairs differ in
    one user's history, and the output on S is uniform over D minus S_1."""
    from itertools import product

    want = {tuple(t) for t in product(histories, repeat=users)}
    bad = [] if set(mech.inputs) == want else ["the inputs are not all of D^U"]
    for a, b in mech.pairs:
        if len(a) != users or sum(x != y for x, y in zip(a, b)) != 1:
            bad.append(f"pair ({a!r}, {b!r}) does not differ in exactly one user's history")
    n = len(histories)
    for L in mech.inputs:
        d = mech.dist[L]
        if set(d) != set(histories) - {L[0]} or any(p != Q(1, n - 1) for p in d.values()):
            bad.append(f"on {L!r} the output is not uniform over D minus the first user's history")
    return bad[:10]


# ----------------------------------------------------------------------------------------- ZEALOUS's parameters


def parameter_problems(m: object, tau: object, tau_prime: object, *, lam: object = None, rho: object = None,
                       integer_tau: bool = True) -> list[str]:
    """ZEALOUS's input (Figure 6.1): m a positive integer; lambda > 0 (or rho = e^{-1/lambda} in (0, 1)); tau > 0, an
    integer under the integer reading; tau' >= tau."""
    bad = []
    if isinstance(m, bool) or not isinstance(m, int) or m < 1:
        bad.append(f"m = {m!r} is not a positive integer")
    if (lam is None) == (rho is None):
        bad.append("give lambda or rho = e^(-1/lambda), exactly one")
    if lam is not None and as_rational(lam) <= 0:
        bad.append(f"lambda = {lam} is not positive")
    if rho is not None and not 0 < as_rational(rho) < 1:
        bad.append(f"rho = {rho} is not in (0, 1)")
    t, tp = as_rational(tau), as_rational(tau_prime)
    if t <= 0:
        bad.append(f"tau = {t} is not positive")
    if integer_tau and t.denominator != 1:
        bad.append(f"tau = {t} is not an integer (integer reading)")
    if tp < t:
        bad.append(f"tau' = {tp} < tau = {t}")
    return bad


def _power_le(rho: Any, gap: Any, rhs: Any) -> bool:
    """rho^gap <= rhs, exactly when rho^gap is rational, else with rigorous intervals."""
    v = rational_power(rho, gap)
    if v is not None:
        return v <= rhs
    return rigorous_sign(lambda c: c.exp(to_interval(gap, c) * c.log(to_interval(rho, c))) - to_interval(rhs, c)) <= 0


def thm14_premise_problems(U: int, m: int, tau: object, tau_prime: object, rho: object, e_eps: object,
                           delta: object) -> list[str]:
    """Theorem 14's premises with rho = e^{-1/lambda}: (6.4) lambda >= 2m/eps, i.e. e^eps >= rho^{-2m}; (6.5)
    tau' - tau >= -lambda ln(2 - 2 rho), i.e. rho^{tau'-tau} <= 2 - 2 rho, and tau' - tau >= -lambda ln(2 delta tau/(U m)),
    i.e. rho^{tau'-tau} <= 2 delta tau/(U m); and 0 < delta < 1."""
    r, E, d = as_rational(rho), as_rational(e_eps), as_rational(delta)
    gap = as_rational(tau_prime) - as_rational(tau)
    bad = []
    if not 0 < d < 1:
        bad.append(f"delta = {d} is not in (0, 1)")
    if E < r ** (-2 * m):
        bad.append(f"(6.4) fails: e^eps = {E} < rho^(-2m) = {r ** (-2 * m)}")
    if not _power_le(r, gap, 2 - 2 * r):
        bad.append("(6.5) first term fails: rho^(tau'-tau) > 2 - 2 rho")
    if not _power_le(r, gap, 2 * d * as_rational(tau) / (U * m)):
        bad.append("(6.5) second term fails: rho^(tau'-tau) > 2 delta tau/(U m)")
    return bad


def thm13_premise_problems(m: int, tau: object, tau_prime: object, rho: object, e_eps_prime: object,
                           delta_prime: object) -> list[str]:
    """Theorem 13's premises with rho = e^{-1/lambda}: (6.1) e^{eps'} >= rho^{-2m}; (6.2) tau = 1; (6.3)
    tau' >= m (1 - ln(2 delta'/m)/eps'), i.e. 2 delta'/m >= e^{eps'(1 - tau'/m)}, exactly where rational, else
    rigorously; and 0 < delta' < 1."""
    r, E, d = as_rational(rho), as_rational(e_eps_prime), as_rational(delta_prime)
    bad = []
    if not 0 < d < 1:
        bad.append(f"delta' = {d} is not in (0, 1)")
    if E < r ** (-2 * m):
        bad.append(f"(6.1) fails: e^eps' = {E} < rho^(-2m) = {r ** (-2 * m)}")
    if as_rational(tau) != 1:
        bad.append(f"(6.2) fails: tau = {tau}")
    # (6.3) <=> ln(2 delta'/m)/eps' >= 1 - tau'/m <=> 2 delta'/m >= e^{eps' (1 - tau'/m)} (eps' > 0): exact when rational
    if E <= 1:
        bad.append(f"eps' = ln({E}) is not positive")
    elif not _power_le(E, 1 - as_rational(tau_prime) / m, 2 * d / m):
        bad.append("(6.3) fails: tau' < m (1 - ln(2 delta'/m)/eps')")
    return bad
