"""Search logs and ZEALOUS parameters: the one place where input is validated.

Thesis 000_211156f2009240b4.txt §6.2.1 (= 003_755c7aa10ef74058.txt §2.1): a search log has the
schema <USER-ID, QUERY, TIME, CLICKS>; a query is a set of keywords, CLICKS a list of urls; a
user history is all entries of one user. Items are keywords, queries, clicks or query pairs (two
subsequent queries of one user in one session).

ZEALOUS (§6.4, Figure 6.1) takes positive numbers m, lambda, tau, tau'. Validation here raises
:class:`privclaims.theory.errors.InvalidInput` naming the value: m <= 0 (or not an integer), lambda <= 0,
tau <= 0, tau' < tau, eps <= 0, delta outside (0, 1), an empty log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Hashable, Mapping

from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q, as_rational, in_open_unit, positive, rational_str

if TYPE_CHECKING:  # numpy is imported where an array is made
    import numpy as np

ITEM_KINDS = ("keywords", "queries", "clicks", "query_pairs")


@dataclass(frozen=True)
class Entry:
    """One search-log entry: a query string, its time (seconds since the epoch), the clicked urls."""

    query: str
    time: int
    clicks: tuple[str, ...] = ()


@dataclass
class SearchLog:
    """``histories[user] = [Entry, ...]`` in time order."""

    histories: dict[str, list[Entry]] = field(default_factory=dict)

    @property
    def users(self) -> list[str]:
        return list(self.histories)

    def __len__(self) -> int:
        return sum(len(h) for h in self.histories.values())


def non_empty(log: SearchLog) -> SearchLog:
    """The log itself, or InvalidInput for a log without any entry."""
    if not log.histories or len(log) == 0:
        raise InvalidInput("empty search log: no user has any entry")
    return log


LINE_BREAKS = ("\t", "\n", "\r")  # the characters no log field may hold (a field never spans a tab or a line)
TIME_LIMIT = 1 << 62


def _text_field(x: object, what: str, where: str) -> str:
    """A text field of a log: a ``str``, not blank, without tab or line break, valid as UTF-8."""
    if not isinstance(x, str):
        raise InvalidInput(f"{where}: {what} = {x!r:.60} must be text (got {type(x).__name__})")
    if not x.strip():
        raise InvalidInput(f"{where}: blank {what} {x!r} (it must contain a non-space character)")
    for c in LINE_BREAKS:
        if c in x:
            raise InvalidInput(f"{where}: {what} {x!r:.60} contains {c!r} (a log field never holds a tab or a line break)")
    try:
        x.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidInput(f"{where}: {what} {x!r:.60} is not valid Unicode text ({exc.reason})") from None
    return x


_QUERY_OF, _TIME_OF, _CLICKS_OF = (attrgetter(a) for a in ("query", "time", "clicks"))


def _plainly_valid(histories: dict) -> bool:
    """Whether every field passes :func:`checked_log`'s rules, decided for all fields at once (a handful of
    C-speed passes instead of a Python loop over the fields): histories are lists or tuples of
    :class:`Entry` exactly, times ``int`` exactly within the limits, clicks tuples, and every user, query and
    url a ``str`` exactly that :meth:`str.strip` leaves non-empty; then the fields joined hold a tab or a line
    break, or fail to encode as UTF-8 (a lone surrogate), exactly when one of them does. False sends the
    caller to the field-by-field loop, which names the first bad field (or accepts a subclass)."""
    hists = list(histories.values())
    if not set(map(type, hists)) <= {list, tuple}:
        return False
    entries = list(chain.from_iterable(hists))
    if set(map(type, entries)) != {Entry}:
        return False
    times = list(map(_TIME_OF, entries))
    clicks = list(map(_CLICKS_OF, entries))
    if set(map(type, times)) != {int} or min(times) <= -TIME_LIMIT or max(times) >= TIME_LIMIT \
            or set(map(type, clicks)) != {tuple}:
        return False
    texts = list(histories)
    texts += map(_QUERY_OF, entries)
    texts += chain.from_iterable(clicks)
    if set(map(type, texts)) != {str} or not all(map(str.strip, texts)):
        return False
    joined = "".join(texts)
    if any(c in joined for c in LINE_BREAKS):
        return False
    try:
        joined.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def checked_log(log: object) -> SearchLog:
    """The door of every engine: ``log`` must be a :class:`SearchLog` with at least one entry whose users,
    queries and clicked urls are texts that are not blank and hold no tab or line break (the fields of
    the log formats), and whose times are integers (seconds) in (-2^62, 2^62). The loaders produce such
    logs; an in-memory log is checked here, so that every engine reads the same log."""
    if not isinstance(log, SearchLog):
        raise InvalidInput(f"log = {log!r:.60} must be a SearchLog (or a path; see zealous.load_log)")
    if not isinstance(log.histories, dict):
        raise InvalidInput(f"log.histories = {log.histories!r:.60} must be a dict user -> list of entries")
    if _plainly_valid(log.histories):
        return non_empty(log)
    for user, hist in log.histories.items():  # some field is off (or of a subclass): find it and name it
        _text_field(user, "user", "log")
        if not isinstance(hist, (list, tuple)):
            raise InvalidInput(f"log: the history of user {user!r:.40} must be a list of Entry (got {type(hist).__name__})")
        for k, e in enumerate(hist):
            where = f"log: user {user!r:.40}, entry {k}"
            if not isinstance(e, Entry):
                raise InvalidInput(f"{where} = {e!r:.60} must be an Entry(query, time, clicks)")
            _text_field(e.query, "query", where)
            if isinstance(e.time, bool) or not isinstance(e.time, int) or not -TIME_LIMIT < e.time < TIME_LIMIT:
                raise InvalidInput(f"{where}: time = {e.time!r:.40} must be an integer number of seconds in (-2^62, 2^62)")
            if not isinstance(e.clicks, tuple):
                raise InvalidInput(f"{where}: clicks = {e.clicks!r:.60} must be a tuple of urls")
            for url in e.clicks:
                _text_field(url, "clicked url", where)
    return non_empty(log)


def user_counts(hist: Mapping[Hashable, object]) -> dict[Hashable, int]:
    """A Step-2 histogram: every count a non-negative integer (a number of users), else InvalidInput."""
    import numbers

    if not isinstance(hist, Mapping):
        raise InvalidInput(f"histogram = {hist!r} must be a mapping item -> number of users")
    out = {}
    for k, c in hist.items():
        if isinstance(c, bool) or not isinstance(c, numbers.Integral):
            if isinstance(c, float) and c.is_integer():
                c = int(c)
            else:
                raise InvalidInput(f"count of item {k!r} = {c!r} is not an integer number of users")
        if c < 0:
            raise InvalidInput(f"count of item {k!r} = {c} is negative")
        out[k] = int(c)
    return out


def count_array(counts: object) -> "np.ndarray":
    """A numpy array of Step-2 counts: finite, non-negative, integral (InvalidInput names the first bad one)."""
    import numpy as np

    a = np.asarray(counts, dtype=np.float64)
    bad = ~np.isfinite(a) | (a < 0) | (a != np.floor(a))
    if bad.any():
        i = int(np.argmax(bad))
        raise InvalidInput(f"count[{i}] = {a.ravel()[i]!r} is not a non-negative integer number of users")
    return a


def item_kind(kind: str) -> str:
    if kind not in ITEM_KINDS:
        raise InvalidInput(f"unknown item kind {kind!r}; use one of {ITEM_KINDS}")
    return kind


def contributions(m: object) -> int:
    """m, the maximum number of items per user: a positive integer."""
    if isinstance(m, bool) or not isinstance(m, int):
        try:
            q = as_rational(m, "m")
        except InvalidInput:
            raise InvalidInput(f"m = {m!r} must be a positive integer") from None
        if q.denominator != 1:
            raise InvalidInput(f"m = {rational_str(q)} must be a positive integer")
        m = int(q)
    if m <= 0:
        raise InvalidInput(f"m = {m} must be a positive integer (m <= 0)")
    return m


@dataclass(frozen=True)
class ZealousParams:
    """m, lambda (noise scale), tau (first threshold), tau' (second threshold): positive numbers (Figure 6.1), in no
    fixed order — (6.5) allows tau' < tau when both of its terms are negative.

    For the exact twin the noise scale may be given through ``rho = e^{-1/lambda}`` (a rational in
    (0, 1)) so that every Laplace tail ``1/2 e^{-x/lambda} = 1/2 rho^x`` at integer x is rational.
    Exactly one of lambda and rho is given: a rational pair can never satisfy rho = e^{-1/lambda}.
    """

    m: int
    lam: Any  # rational lambda, or None when rho is given
    tau: Any
    tau_prime: Any
    rho: Any = None  # e^{-1/lambda}, rational, optional

    @classmethod
    def of(cls, m: object, lam: object, tau: object, tau_prime: object, *, rho: object = None) -> "ZealousParams":
        mm = contributions(m)
        if rho is not None:
            r = as_rational(rho, "rho = e^{-1/lambda}")
            if not 0 < r < 1:
                raise InvalidInput(f"rho = e^(-1/lambda) = {rational_str(r)} must lie in (0, 1) (lambda > 0)")
            if lam is not None:
                # rho = e^{-1/lambda} is transcendental for every rational lambda > 0 (Lindemann), so a
                # rational lambda and a rational rho always describe two different mechanisms.
                raise InvalidInput(
                    f"lambda = {lam!r} and rho = {rho!r} both given: rho must be e^(-1/lambda), which no rational "
                    "pair satisfies; give lambda (fast twin) or rho (exact twin), not both")
            lam_q = None
        else:
            r = None
            if lam is None:
                raise InvalidInput("give lambda (or rho = e^{-1/lambda})")
            lam_q = positive(lam, "lambda")
        t = positive(tau, "tau")
        tp = positive(tau_prime, "tau'")  # no order between tau and tau': Figure 6.1 takes "positive numbers"
        return cls(mm, lam_q, t, tp, r)

    @property
    def lam_float(self) -> float:
        import math

        if self.lam is not None:
            return float(self.lam)
        return -1.0 / math.log(float(self.rho))


def check_run(params: object, seed: object, granularity: object) -> tuple["ZealousParams", int, Any]:
    """A ZEALOUS run's boundary (both twins): built params, an integer seed >= 0, a granularity > 0."""
    from privclaims.theory.validate import instance, integer

    instance(params, ZealousParams, "params", "(build it with ZealousParams.of)")
    g = as_rational(granularity, "granularity", allow_float=True)
    if g <= 0:
        raise InvalidInput(f"granularity = {rational_str(g)} must be > 0")
    return params, integer(seed, "seed", lo=0), g


def privacy_target(eps: object, delta: object) -> tuple[Any, Any]:
    """(eps, delta) with eps > 0 and delta in (0, 1)."""
    return positive(eps, "eps"), in_open_unit(delta, "delta")


def integer_threshold(x: Any, name: str) -> int:
    """An integer-valued threshold (the exact twin needs integer tau, tau')."""
    q = Q(x)
    if q.denominator != 1:
        raise InvalidInput(f"{name} = {rational_str(q)}: the exact twin needs an integer threshold")
    return int(q)
