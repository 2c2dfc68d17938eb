"""ZEALOUS on your own search log: its parameters and a sanitized histogram
(000_211156f2009240b4.txt ch. 6, Figure 6.1; 003_755c7aa10ef74058.txt §4-§5).

**ZEALOUS** (Figure 6.1), for a log of U users and positive m, λ, τ, τ′:

1. each user keeps up to m distinct items (queries, keywords, clicks or query pairs), chosen without
   looking at the data (seeded random selection);
2. histogram: ``c_k`` = number of users whose selection contains item k;
3. drop items with ``c_k < τ``;
4. add Laplace noise: ``c~_k = c_k + η_k``, ``η_k ~ Lap(λ)``;
5. drop items with ``c~_k <= τ′``;
6. publish the remaining items with their noisy counts.

**Parameters** (:func:`params`): for a target (ε, δ)-probabilistic differential privacy (Definition 3),
Theorem 14 asks ``λ >= 2m/ε`` (6.4) and
``τ′ - τ >= max(-λ ln(2 - 2e^{-1/λ}), -λ ln(2δτ/(U m)))`` (6.5); Proposition 12: ``τ = ⌈2m/ε⌉``
minimises τ′. We take ``λ = 2m/ε`` (exact), that τ, and the larger of the least τ′ of (6.5) rounded *up* to a
multiple of 1/1000 from a rigorous enclosure (never below the bound) and the least τ′ for which the release's grid
noise meets the same conditions (:mod:`privclaims.theory.zealous.grid_noise`; either may lie below τ). For comparison we also report
the (ε′, δ′)-indistinguishability (Definition 4) that Theorem 13 [Korolova et al.] certifies with the
same noise and second threshold: ``ε′ = 2m/λ = ε`` and ``δ′ = (m/2) e^{ε′(1 - τ′/m)}`` (6.3 at
equality) — shown as the theorem's value only, never as a guarantee: the theorem is stated for τ = 1 and the
ledger refutes it as printed (``zealous.thm13``).

**Log formats** (:func:`load_log`): the AOL 2006 TSV (header ``AnonID Query QueryTime ItemRank
ClickURL``, one row per query or click, time ``YYYY-MM-DD HH:MM:SS``), or a folder in the per-user
layout (one file per user: blocks ``query<TAB>time`` then clicked urls, blank-line separated).
Malformed lines are reported as ``file:line``.

**What comes back**: :class:`ParamsResult` (λ, τ, τ′ exact; τ′'s bound, the achieved δ and δ′ as decimals
rounded *up* from rigorous enclosures, τ′ to 3 places rounded up) and :class:`PublishResult` (the released
items with their exact noisy counts, why none were, and whether the release is certified: τ′ computed for a public
bound ``max_users`` on the log's users and meeting Theorem 14 with the grid noise). Bad arguments (U or m not a positive integer,
ε <= 0, δ outside (0, 1), an unknown kind or engine, a seed outside [0, 2^63), a missing log) raise
:class:`privclaims.theory.errors.InvalidInput`.

Example::

    >>> from privclaims import zealous
    >>> p = zealous.params(users=1000, m=1, epsilon=1, delta="1/1000")
    >>> p.tau, p.tau_prime_decimal
    (2, ...)

The formulas are :mod:`privclaims.theory.zealous.parameters`; the release is :mod:`privclaims.theory.zealous.engines`
(exact discrete-Laplace noise on a 1/1024 grid; no float noise). Every random choice is keyed by
(seed, user, item) and (seed, kind, item), so the ``python``, ``duckdb`` and ``dask`` engines publish the
same items with the same noisy counts for the same seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Hashable, Mapping

from privclaims.theory.errors import InvalidInput, UndecidedComparison
from privclaims.theory.numbers import Q, positive, rigorous_sign, to_interval
from privclaims.theory.zealous import engines as _engines
from privclaims.theory.zealous import grid_noise as _grid
from privclaims.theory.zealous.exact import DEFAULT_GRANULARITY as RELEASE_GRANULARITY
from privclaims.theory.zealous.loaders import load_aol, load_user_dir
from privclaims.theory.zealous.model import ITEM_KINDS, SearchLog, ZealousParams, contributions, privacy_target
from privclaims.theory.zealous.items import ItemKind
from privclaims.theory.zealous.parameters import (least_tau_prime, prop12_tau, thm13_delta_prime, thm14_delta,
                                                  thm14_min_tau_prime_at)

from privclaims._common import (as_path, check_choice, check_seed, decimal, enclosed_decimal_up, exact_and_decimal,
                                exact, exact_or_decimal, magnitude, number_json, readable)

__all__ = ["ParamsResult", "PublishResult", "params", "load_log", "publish", "ITEM_KINDS", "ENGINES"]

ENGINES = _engines.ENGINES


@dataclass(frozen=True)
class ParamsResult:
    """λ, τ, τ′ for (U, m, ε, δ), exact, plus the bound τ′ must meet and the indistinguishability levels.

    ``lam`` and ``tau`` are the given ones or Theorem 14's λ = 2m/ε and Proposition 12's τ = ⌈2m/ε⌉;
    ``tau_prime`` is the τ′ used (the given one, or the least one meeting (6.5) for this λ and τ - rounded up to
    1/1000 - and the same two conditions for the grid Laplace noise the release draws, ``tau_prime_grid``: see
    :mod:`privclaims.theory.zealous.grid_noise`); ``holds`` is True iff λ >= 2m/ε (6.4), τ′ meets (6.5) and the grid
    conditions (``grid_holds``), each decided rigorously; ``delta_achieved`` is the δ that (6.5)'s second term gives
    at this τ′ (Theorem 14 solved for δ)."""

    users: int
    m: int
    epsilon: Any
    delta: Any
    lam: Any
    tau: Any  # an int when integral
    tau_prime: Any
    tau_prime_bound: str
    holds: bool
    delta_achieved: str
    eps_prime: Any
    delta_prime: str
    tau_prime_given: bool
    lam_given: bool = False
    tau_given: bool = False
    tau_prime_grid: Any = None
    grid_holds: bool = True
    meets_65: bool = True

    @property
    def lam_needed(self) -> Any:
        """Theorem 14's (6.4): λ >= 2m/ε."""
        return 2 * Q(self.m) / self.epsilon

    @property
    def tau_prime_decimal(self) -> str:
        return decimal(self.tau_prime, 3, "up")

    def summary(self) -> str:
        lam_note = f"   (given; (6.4) needs λ >= 2m/ε = {exact_or_decimal(self.lam_needed, 'up')})" if self.lam_given else ""
        tau_note = "   (given)" if self.tau_given else "   (Proposition 12)"
        s = [f"ZEALOUS for U = {self.users} users, m = {self.m}, target ({readable(self.epsilon)}, {readable(self.delta)})-"
             "probabilistic DP (Theorem 14):",
             (f"  λ  = {exact_and_decimal(self.lam, 'up')}" if self.lam_given else
              f"  λ  = 2m/ε = {exact_and_decimal(self.lam, 'up')}") + lam_note,
             (f"  τ  = {exact_or_decimal(self.tau, 'up')}" if self.tau_given else
              f"  τ  = ⌈2m/ε⌉ = {exact_or_decimal(self.tau, 'up')}") + tau_note,
             f"  τ′ = {exact_and_decimal(self.tau_prime, 'up', 3)}"
             + ("   (given)" if self.tau_prime_given else "   (least value meeting (6.5), rounded up to 1/1000, and "
                                                           "the grid noise's conditions below)"),
             f"  (6.5) needs τ′ >= {self.tau_prime_bound}; at this τ′ the second term gives δ {_is(self.delta_achieved)}",
             f"  the release's Laplace noise on a {exact(RELEASE_GRANULARITY)} grid has a tail up to 2/(1 + e^(-g/λ)) "
             f"times Lap(λ)'s: (6.5)'s conditions for it need τ′ >= {exact_and_decimal(self.tau_prime_grid, 'up', 8)}",
             f"  Theorem 13's (6.3) with the same λ and τ′ would give (ε′, δ′)-indistinguishability with ε′ = "
             f"{exact_or_decimal(self.eps_prime, 'up')}, δ′ {_is(self.delta_prime)} — {THM13_CAVEAT}"]
        if self.lam < self.lam_needed:
            s.append(f"λ = {exact_or_decimal(self.lam)} is BELOW 2m/ε = {exact_or_decimal(self.lam_needed, 'up')}: this "
                     "ZEALOUS is not certified "
                     f"({readable(self.epsilon)}, {readable(self.delta)})-probabilistically DP by Theorem 14.")
        else:
            if not self.meets_65:
                s.append(f"τ′ = {exact_or_decimal(self.tau_prime)} is BELOW the bound {self.tau_prime_bound}: this "
                         f"ZEALOUS is not certified ({readable(self.epsilon)}, {readable(self.delta)})-probabilistically "
                         "DP by Theorem 14.")
            if not self.grid_holds:
                s.append(f"τ′ = {exact_or_decimal(self.tau_prime)} is BELOW {readable(self.tau_prime_grid)}, what the "
                         f"release's grid noise needs: its release is not certified ({readable(self.epsilon)}, "
                         f"{readable(self.delta)})-"
                         "probabilistically DP (Theorem 14's argument with the grid's tail).")
        return "\n".join(s)

    def as_json(self) -> dict[str, Any]:
        return {"holds": self.holds, "U": self.users, "m": self.m, "epsilon": number_json(self.epsilon),
                "delta": number_json(self.delta), "lambda": number_json(self.lam), "lambda_given": self.lam_given,
                "lambda_needed": number_json(self.lam_needed), "tau": number_json(self.tau), "tau_given": self.tau_given,
                "tau_prime": number_json(self.tau_prime, "up"), "tau_prime_given": self.tau_prime_given,
                "tau_prime_bound": self.tau_prime_bound, "delta_achieved": self.delta_achieved,
                "release_granularity": number_json(RELEASE_GRANULARITY),
                "tau_prime_grid": number_json(self.tau_prime_grid, "up"), "grid_holds": self.grid_holds,
                "eps_prime": number_json(self.eps_prime), "delta_prime": self.delta_prime,
                "delta_prime_note": THM13_CAVEAT}


THM13_CAVEAT = ("not a guarantee: Theorem 13 is stated for τ = 1, and the ledger refutes it as printed "
                "(privclaims show zealous.thm13)")
"""Why Theorem 13's δ′ is shown for comparison only: the claims ledger finds (6.3)'s δ′ too small (zealous.thm13,
refuted with an exact witness), and with τ > 1 an item of count τ is published with probability
½e^{-(τ′-τ)/λ} from a log whose neighbour cannot publish it at all."""


def _is(text: str) -> str:
    """``= x`` for a decimal, or the bound itself (``< 2^-1048576``) when the value is below every shown one."""
    return text if text.startswith("<") else f"= {text}"


def params(users: int, m: object, epsilon: object, delta: object, tau_prime: object = None, *, lam: object = None,
           tau: object = None) -> ParamsResult:
    """λ, τ, τ′ of ZEALOUS for U users, m items per user and target (ε, δ) (Theorem 14, Proposition 12).
    ``lam`` (λ > 0) and ``tau`` (a positive integer) default to 2m/ε and ⌈2m/ε⌉; ``tau_prime`` to the least τ′ of
    (6.5) for them. A given value is checked: λ < 2m/ε or τ′ below (6.5) makes ``holds`` False."""
    if isinstance(users, bool) or not isinstance(users, int) or users < 1:
        raise InvalidInput(f"users U = {users!r} must be a positive integer")
    mm = contributions(m)
    e, d = privacy_target(epsilon, delta)
    lam_q = 2 * Q(mm) / e if lam is None else positive(lam, "lambda")
    tau_q = prop12_tau(mm, e) if tau is None else positive(tau, "tau")
    if Q(tau_q).denominator != 1:  # counts are integers: a threshold tau acts as its ceiling, which (6.5) must use
        raise InvalidInput(f"tau τ = {tau!r} must be an integer: an item's count is an integer, so the threshold τ acts "
                           "as ⌈τ⌉, and Theorem 14's bound (6.5) counts the items whose count is exactly τ")
    tau_q = int(tau_q)
    try:
        tp_grid = _grid.least_tau_prime(users, mm, d, tau_q, lam_q, RELEASE_GRANULARITY)
        tp = max(least_tau_prime(users, mm, d, tau_q, lam_q), tp_grid) if tau_prime is None else \
            ZealousParams.of(mm, lam_q, tau_q, tau_prime).tau_prime
        grid_ok = _grid.holds(users, mm, d, tau_q, lam_q, tp, RELEASE_GRANULARITY)
        bound = enclosed_decimal_up(lambda c: thm14_min_tau_prime_at(users, mm, d, tau_q, lam_q, c), 8)
        meets = rigorous_sign(lambda c: to_interval(tp, c) - thm14_min_tau_prime_at(users, mm, d, tau_q, lam_q, c)) >= 0
        achieved = enclosed_decimal_up(lambda c: thm14_delta(users, mm, tau_q, lam_q, tp, c), 8)
        eps_prime = 2 * Q(mm) / lam_q
        dprime = enclosed_decimal_up(lambda c: thm13_delta_prime(mm, eps_prime, tp, c), 8)
    except UndecidedComparison as exc:  # a number of (6.5) beyond what is enclosed: name the inputs, not the interval
        raise InvalidInput(f"epsilon ε = {readable(e)}, delta δ = {readable(d)}, lambda λ = {magnitude(lam_q)}, "
                           f"tau′ = {'(least)' if tau_prime is None else repr(tau_prime)}: Theorem 14's numbers for these "
                           f"are beyond what is computed exactly ({exc}); use values nearer 1") from exc
    holds = meets and grid_ok and lam_q >= 2 * Q(mm) / e
    return ParamsResult(users, mm, e, d, lam_q, tau_q, tp, bound, holds, achieved, eps_prime, dprime,
                        tau_prime is not None, lam is not None, tau is not None, tp_grid, grid_ok, meets)


def load_log(path: str | Path) -> SearchLog:
    """An AOL-format TSV file, or a folder in the per-user layout."""
    p = as_path(path, "search log")
    if p.is_dir():
        return load_user_dir(p)
    if not p.is_file():
        raise InvalidInput(f"search log {str(p)!r} does not exist")
    return load_aol(p)


@dataclass(frozen=True)
class PublishResult:
    """The sanitized histogram: released items with their exact noisy counts, and why (not)."""

    kind: str
    params: ParamsResult
    released: Mapping[Hashable, Any]
    distinct_items: int
    above_tau: int
    top_count: int
    seed: int
    engine: str
    log_users: int = 0
    max_users: int | None = None

    @property
    def certified(self) -> bool:
        """True iff τ′ was computed for a public bound on the users (``max_users``, not the log's own count) and the
        parameters meet Theorem 14 with the release's grid noise (``params.holds``)."""
        return self.max_users is not None and self.params.holds

    def why_not_certified(self) -> str:
        if self.certified:
            return ""
        if self.max_users is None:
            return (f"τ′ was computed from this log's own number of users (U = {self.log_users}), so the thresholds depend "
                    "on the data: a neighbouring log (one user more or less) gets another τ′, and an item whose noisy count "
                    "falls between the two is published by one and never by the other - Theorem 14 covers a fixed τ′; "
                    "pass --max-users, a public bound on the number of users")
        return "the parameters do not meet Theorem 14 with the release's grid noise (see the parameters' summary)"

    @property
    def holds(self) -> bool:
        """True iff at least one item was released and the release is certified (:attr:`certified`)."""
        return bool(self.released) and self.certified

    def why_none(self) -> str:
        if self.released:
            return ""
        tp = decimal(self.params.tau_prime, 3, "up")
        if self.top_count < self.params.tau:
            return (f"τ = {self.params.tau} but the most frequent item has {self.top_count} users: every item is "
                    f"dropped at Step 3 (and τ′ = {tp})")
        return (f"τ′ = {tp} but the most frequent item has {self.top_count} users: none of the {self.above_tau} "
                "items kept at Step 3 got noise lifting it above τ′")

    def tsv(self) -> str:
        """The released histogram as TSV, one column per part of an item (a query pair is two queries)
        and the noisy count: the header has as many columns as every row."""
        head = "query1\tquery2" if self.kind == "query_pairs" else {"queries": "query", "keywords": "keyword",
                                                                      "clicks": "url"}[self.kind]
        lines = [f"{head}\tnoisy_count"]
        for k, v in sorted(self.released.items(), key=lambda kv: (-kv[1], str(kv[0]))):
            lines.append(f"{k}\t{decimal(v, 4)}")
        return "\n".join(lines)

    def summary(self) -> str:
        s = [f"ZEALOUS on {self.kind} ({self.engine} engine, seed {self.seed}): released {len(self.released)} of "
             f"{self.distinct_items} distinct items (λ = {decimal(self.params.lam)}, τ = {self.params.tau}, "
             f"τ′ = {decimal(self.params.tau_prime, 3, 'up')}; the most frequent item has {self.top_count} users)."]
        if self.released:
            s.append(self.tsv())
        else:
            s.append("Nothing released: " + self.why_none() + ".")
        if self.certified:
            s.append(f"Certified ({readable(self.params.epsilon)}, {readable(self.params.delta)})-probabilistically DP: the "
                     f"released items and noisy counts, for neighbouring logs of at most {self.max_users} users each "
                     f"(Theorem 14 with the grid noise). Not covered: the exact counts shown here (this log's "
                     f"{self.log_users} users, {self.distinct_items} distinct items, {self.above_tau} kept at Step 3, "
                     f"the most frequent item's {self.top_count} users) and the refusal of a log of more than "
                     f"{self.max_users} users - publish the released items alone.")
        else:
            s.append("NOT certified: " + self.why_not_certified() + ".")
        return "\n".join(s)

    def as_json(self) -> dict[str, Any]:
        return {"holds": self.holds, "kind": self.kind, "engine": self.engine, "seed": self.seed,
                "params": self.params.as_json(), "distinct_items": self.distinct_items, "above_tau": self.above_tau,
                "top_count": self.top_count,
                "released": [{"item": str(k), "noisy_count": number_json(v)} for k, v in self.released.items()],
                "why_none": self.why_none() or None, "log_users": self.log_users, "max_users": self.max_users,
                "certified": self.certified, "why_not_certified": self.why_not_certified() or None,
                "certified_covers": "released only: log_users, distinct_items, above_tau, top_count and why_none are exact "
                                    "counts of the log, not private"}


def publish(log: SearchLog | str | Path, kind: str, epsilon: object, delta: object, m: object, *, seed: int = 0,
            engine: str = "auto", lam: object = None, tau: object = None, tau_prime: object = None,
            session_gap: object = None, max_users: int | None = None) -> PublishResult:
    """Run ZEALOUS (Steps 1-6) on a log with the parameters of :func:`params` (U = ``max_users``, a public bound on the
    log's users - a log with more is refused; without it U = the log's own count, and the release is not
    :attr:`PublishResult.certified`: τ′ would depend on the data; ``lam``,
    ``tau``, ``tau_prime`` as there), on ``engine`` = ``"python"``, ``"duckdb"`` or ``"dask"`` (same seed,
    same release on each), or ``"auto"`` (the default: ``duckdb`` for a path, ``python`` for a log in memory;
    the result names the engine that ran). ``session_gap``: seconds that end a session (query pairs; default 1800)."""
    check_choice(kind, tuple(ITEM_KINDS), "kind")
    k = ItemKind.of(kind, session_gap)
    check_choice(engine, ENGINES + (_engines.AUTO,), "engine")
    check_seed(seed)
    mm = contributions(m)
    if not isinstance(log, SearchLog):
        log = as_path(log, "search log")
        if not log.is_dir() and not log.is_file():
            raise InvalidInput(f"search log {str(log)!r} does not exist")
    if max_users is not None and (isinstance(max_users, bool) or not isinstance(max_users, int) or max_users < 1):
        raise InvalidInput(f"max_users = {max_users!r} must be a positive integer (a public bound on the log's users)")
    hist, users, engine = _engines.selected_histogram_and_users(log, k, mm, seed, engine)
    if max_users is not None and users > max_users:
        raise InvalidInput(f"the log has {users} users, more than max_users = {max_users}: Theorem 14's τ′ for at most "
                           f"{max_users} users does not cover it (pass a larger public bound)")
    pr = params(users if max_users is None else max_users, mm, epsilon, delta, tau_prime, lam=lam, tau=tau)
    zp = ZealousParams.of(mm, pr.lam, pr.tau, pr.tau_prime)
    released = _engines.release_keyed(hist, zp, seed, k)
    top = max(hist.values(), default=0)
    return PublishResult(kind, pr, released, len(hist), sum(1 for c in hist.values() if c >= pr.tau), int(top),
                         seed, engine, users, max_users)
