"""MaskIt on your own context model: is a suppression policy δ-private, find a good one, filter streams
(000_211156f2009240b4.txt ch. 3 = 001_eb11505ae1399b83.txt §2-§5).

**The model.** A user's day is a stream ``X_1..X_T`` of contexts (e.g. home, office, hospital) drawn
from a time-inhomogeneous Markov chain: ``initial[j] = Pr[X_1 = c_j]`` and ``steps[t-2][i][j] =
Pr[X_t = c_j | X_{t-1} = c_i]`` for t = 2..T (so ``T = 1 + len(steps)``). The adversary knows the chain.

**The output.** A system releases a stream ``o_1..o_T`` in which each context is either released or
replaced by the suppression symbol ⊥.

**δ-privacy** (thesis Definition 6 = 001 Definition 1): for every output o of positive probability,
every time t and every sensitive context s,  ``Pr[X_t = s | o] - Pr[X_t = s] <= δ`` — the posterior
belief may exceed the prior by at most δ.

**What you can ask:**

* :func:`check` — a *probabilistic* policy ``p`` (``p[t][c]`` = probability of suppressing context c at
  time t; a policy file ``{"p": {"hospital": "1"}}`` means "always suppress hospital") is δ-private
  iff its largest gain ``max_o,t,s Pr[X_t=s|o] - Pr[X_t=s]`` is <= δ. Computed exactly by Algorithm 3
  (only the partial outputs ``o_t1, ⊥, ..., ⊥, o_t2`` of Lemma 4 — polynomial in T and the number of
  contexts, never all outputs). Without a policy, the naive *MaskSensitive* policy (suppress exactly
  the sensitive contexts) is checked — it usually leaks. A failure comes with the breaching output
  written as a stream with ⊥ (:attr:`Breach.stream`).
* :func:`search` — the MONDRIAN-style greedy search over policies on the grid {0, 1/d, ..., 1}
  (thesis §3.4.3), each candidate decided by the exact check; the result is re-checked exactly.
* :func:`filter_streams` — run the system (Algorithm 1) on your streams with the *simulatable* check
  (Algorithms 4/5: release c at t iff no possible continuation could breach; deterministic and
  δ-private by construction), the *probabilistic* check (your policy or the searched one, sampled), or
  the *hybrid* (the check with the larger exact expected utility, thesis Theorem 6).

**Chain file format (JSON)**, probabilities as exact strings, each row summing to 1::

    {"contexts": ["home", "office", "gym", "hospital"],
     "initial": ["1/2", "1/4", "1/8", "1/8"],
     "steps": [[["1/2","1/4","1/8","1/8"], ...one row per context...], ...one matrix per t = 2..T...]}

**Streams (CSV)**: one stream per line, T context labels separated by commas.

**What comes back**: :class:`PolicyCheck` (``holds``, ``max_gain``, ``privacy_level`` = the least δ
the policy meets, ``utility`` = expected released contexts per day, ``breach``), :class:`SearchResult`
(the policy ``p`` and its exact ``recheck``), :class:`FilterResult` (the released streams). Each has
``summary()`` (plain words, the witness when it fails) and ``as_json()``; exact values are rationals.
Gains print with decimals rounded *up*. Bad input raises :class:`privclaims.theory.errors.InvalidInput` naming the
value and the rule: ``sensitive`` must be a list of context names (a bare string is refused), outputs and
streams have T context indices in [0, n), δ lies in (0, 1), ``grid`` in [1, 64], seeds in [0, 2^63).
Algorithm 3 is polynomial but its exact rationals grow with T: the check is refused above about
T^3 n^2 = 5·10^7 steps (``fast=True`` / ``--fast`` then runs the float twin, more cautious) and the search
above T^4 n^3 grid = 5·10^7 (a smaller ``grid`` helps); ``optimum=True`` (``--optimum``) searches all grid
policies, at most 4,096. A stream the chain gives probability 0 is refused.

Example::

    >>> from privclaims import maskit
    >>> chain = maskit.load_chain("examples/chain4.json")
    >>> r = maskit.check(chain, sensitive=["hospital"], delta="1/10")   # MaskSensitive
    >>> r.holds, r.breach.stream
    (False, ...)

The exact algorithms are :mod:`privclaims.theory.maskit.exact` (``max_breach``, ``utility``, ``okay_to_release``,
``simulatable_utility``) and :mod:`privclaims.theory.maskit.search`; this module only reads, calls and renders.
"""

from __future__ import annotations

import csv
import difflib
import io
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, Hashable, Iterable, Mapping, Sequence

import numpy as np

from privclaims.theory.errors import InvalidInput
from privclaims.theory.validate import refuse_byte_order_mark
from privclaims.theory.floats import upper_bound
from privclaims.theory.maskit import exact as _exact
from privclaims.theory.maskit import fast as _fast
from privclaims.theory.maskit import search as _search
from privclaims.theory.maskit import system as _system
from privclaims.theory.numbers import Q
from privclaims.theory.maskit.model import (
    MarkovChain,
    check_output,
    check_delta,
    mask_sensitive_vector,
    markov_chain,
    sensitive_indices,
    suppression_vector,
)

from privclaims._common import (Floats, as_path, guard, check_choice, check_flag, check_floats, check_int, check_seed,
                                decimal, expect, shown)
from privclaims import formats
from privclaims._common import exact, exact_and_decimal, exact_or_decimal, number_json, progress, read_distribution, read_rational

__all__ = ["Floats", "MarkovChain", "Breach", "PolicyCheck", "SearchResult", "FilterResult", "BOT", "load_chain", "load_policy",
           "load_streams", "check", "search", "filter_streams", "CHECKS"]

BOT = "⊥"
ANY = "·"
CHECKS = ("simulatable", "probabilistic", "hybrid")


# ------------------------------------------------------------------------------------------ formats


def load_chain(source: str | Path | Mapping[str, Any], *, floats: Floats | None = None) -> MarkovChain:
    """Read the chain format (:class:`privclaims.formats.Chain`; a path or a parsed dict) into a validated chain."""
    floats = check_floats(floats)
    c = formats.parse("chain", source, floats)
    ctx, n = c.contexts, len(c.contexts)
    if len(c.initial) != n:
        raise InvalidInput(f"chain JSON: initial has {len(c.initial)} probabilities, expected one per context (n = {n})")
    init = read_distribution(c.initial, "chain JSON: initial", floats)
    steps = []
    for k, m in enumerate(c.steps):
        where = f"chain JSON: steps[{k}] (t = {k + 2})"
        if len(m) != n or any(len(r) != n for r in m):
            shape = f"{len(m)} rows of " + "/".join(sorted({str(len(r)) for r in m}) or ["0"])
            raise InvalidInput(f"{where} is {shape} entries, expected an n x n matrix (n = {n} contexts: one row "
                               "per context c_i, one entry per context c_j)")
        steps.append([read_distribution(r, f"{where} row {ctx[i]!r}", floats) for i, r in enumerate(m)])
    return markov_chain(ctx, init, steps)


def load_policy(source: str | Path | Mapping[str, Any], chain: MarkovChain, *,
                floats: Floats | None = None) -> tuple[tuple[Any, ...], ...]:
    """Read a suppression policy (:class:`privclaims.formats.Policy`): ``{"p": {"hospital": "1", "gym": "1/2"}}``
    (same at every t; unnamed contexts 0) or ``{"p": [[p_1^1, ..., p_n^1], ..., [p_1^T, ..., p_n^T]]}``.
    Returns ``p[t-1][i]``."""
    floats = check_floats(floats)
    _chain(chain)
    p = formats.parse("policy", source, floats).p
    if isinstance(p, Mapping):
        for c in p:
            if c not in chain.contexts:
                close = difflib.get_close_matches(c, [str(x) for x in chain.contexts], n=1)
                raise InvalidInput(f"policy JSON: p names the unknown context {c!r}"
                                   + (f" (did you mean {close[0]!r}?)" if close else "")
                                   + f"; the chain has {', '.join(map(str, chain.contexts))}")
        return suppression_vector(chain, {c: read_rational(v, f"policy JSON: p[{c!r}]", floats) for c, v in p.items()})
    if len(p) != chain.T or any(len(row) != chain.n for row in p):
        raise InvalidInput(f"policy JSON: p is a {len(p)} x {'/'.join(sorted({str(len(r)) for r in p}) or ['0'])} matrix, "
                           f"expected T x n = {chain.T} x {chain.n} (one row per time t, one entry per context)")
    return suppression_vector(chain, [[read_rational(v, f"policy JSON: p[{t}][{i}] (t = {t + 1}, context "
                                                        f"{chain.contexts[i]!r})", floats) for i, v in enumerate(row)]
                                      for t, row in enumerate(p)])


def load_streams(path: str | Path, chain: MarkovChain) -> list[tuple[int, ...]]:
    """Read streams (CSV, one stream of T context labels per line; blank lines and ``#`` lines skipped)."""
    _chain(chain)
    p = as_path(path, "stream file")
    if not p.is_file():
        raise InvalidInput(f"stream file {str(p)!r} does not exist or is not a file")
    out = []
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"stream file {str(p)!r} is not UTF-8 text (byte {exc.start})") from None
    refuse_byte_order_mark(text, f"stream file {str(p)!r}")
    if True:
        for lineno, row in enumerate(csv.reader(io.StringIO(text, newline="")), start=1):
            row = [c.strip() for c in row]
            if not row or not any(row) or row[0].startswith("#"):
                continue
            if len(row) != chain.T:
                raise InvalidInput(f"{p}:{lineno}: stream of length {len(row)}, the chain has T = {chain.T}")
            try:
                x = tuple(chain.index(c) for c in row)
                impossible(chain, x)
            except InvalidInput as exc:
                raise InvalidInput(f"{p}:{lineno}: {exc}") from None
            out.append(x)
    if not out:
        raise InvalidInput(f"{p}: no streams")
    return out


def impossible(chain: MarkovChain, x: Sequence[int]) -> None:
    """A day the chain gives probability 0 is refused (InvalidInput naming the step that is impossible):
    the system was built for the chain's days; filtering an impossible one would release it unchecked."""
    if _exact.joint_probability(chain, x) != 0:
        return
    c = [str(chain.contexts[i]) for i in x]
    if chain.initial[x[0]] == 0:
        why = f"Pr[X_1 = {c[0]}] = 0"
    else:
        t = next(t for t in range(2, chain.T + 1) if chain.steps[t - 2][x[t - 2]][x[t - 1]] == 0)
        why = f"Pr[X_{t} = {c[t - 1]} | X_{t - 1} = {c[t - 2]}] = 0"
    raise InvalidInput(f"the stream [{', '.join(c)}] has probability 0 under the chain ({why}): it is not a day of "
                       "this model; fix the chain or the stream")


def _chain(chain: Any) -> MarkovChain:
    return expect(chain, MarkovChain, "chain", "a Markov chain from maskit.load_chain(...)")


CHECK_WORK_LIMIT = 5 * 10**7
SEARCH_WORK_LIMIT = 5 * 10**7
FAST_WORK_LIMIT = 2 * 10**10
OPTIMUM_LIMIT = 4096
_FAST = ("pass --fast (maskit.check(..., fast=True): the float twin, polynomial and fast, more cautious: it says "
         "'private' only beyond rounding doubt), or check shorter windows of the day (fewer step matrices)")


def _work_guard(chain: MarkovChain, grid: int | None = None, fast: bool = False) -> None:
    """Algorithm 3 is polynomial but its exact rationals grow with T: the exact check costs about
    T^3 n^2 rational operations (T = 400, n = 2 took 18 s), the greedy search about T n grid times that.
    Refuse above the limits, naming the option that helps."""
    work = chain.T ** 3 * chain.n ** 2
    if fast:
        guard(work, FAST_WORK_LIMIT, f"the float check of a chain with T = {chain.T}, n = {chain.n} ",
              "check shorter windows of the day (fewer step matrices)", unit="steps (~T^3 n^2)")
    elif grid is None:
        guard(work, CHECK_WORK_LIMIT, f"the exact check of a chain with T = {chain.T}, n = {chain.n} ",
              _FAST, unit="steps (~T^3 n^2)")
    else:
        guard(work * chain.T * chain.n * grid, SEARCH_WORK_LIMIT,
              f"the exact greedy search on a chain with T = {chain.T}, n = {chain.n}, grid = {grid} ",
              "use a smaller --grid, or check shorter windows of the day (fewer step matrices)",
              unit="steps (~T^4 n^3 grid)")


def _sensitive(chain: Any, sensitive: Any) -> list[Hashable]:
    """The sensitive contexts: a non-empty list of context names of the chain (a bare string is refused,
    it would be read letter by letter)."""
    _chain(chain)
    if isinstance(sensitive, (str, bytes)) or not isinstance(sensitive, (list, tuple, set, frozenset)) or not sensitive:
        raise InvalidInput(f"sensitive = {shown(sensitive)} must be a non-empty list of context names, e.g. ['hospital']")
    S = list(sensitive)
    for k, s in enumerate(S):
        if not isinstance(s, str):
            raise InvalidInput(f"sensitive context {shown(s)} must be a context name (text)")
        if s in S[:k]:
            raise InvalidInput(f"sensitive context {s!r} appears twice (names must be unique)")
    sensitive_indices(chain, S)
    return S


def _output(chain: MarkovChain, output: Any, name: str, allow_bot: bool = True) -> None:
    """``output``: T entries, each a context index in [0, n) (or None = ⊥ when ``allow_bot``)."""
    _chain(chain)
    try:
        out = check_output(chain, output)
    except InvalidInput as exc:
        raise InvalidInput(f"{name}: {exc}") from None
    if not allow_bot and None in out:
        raise InvalidInput(f"{name} = {shown(output)}: a stream to filter has a context at every t (no None)")


def render_stream(chain: MarkovChain, output: Sequence[int | None]) -> str:
    """An output as text: context names, ⊥ for a suppressed position. ``output`` has T entries, each a
    context index in [0, n) or None."""
    _output(chain, output, "output")
    return ", ".join(BOT if o is None else str(chain.contexts[o]) for o in output)


# ------------------------------------------------------------------------------------------ check


@dataclass(frozen=True)
class Breach:
    """Where the largest gain is attained.

    ``stream`` is the breaching output as a stream of length T: the context released at t1, ⊥ for
    t1 < t < t2, the context released at t2, and ``·`` ("anything") elsewhere — by the Markov
    property the posterior at t only depends on the releases around it (Lemma 4). ``t`` and
    ``sensitive`` say which belief jumps; ``gain = Pr[X_t = s | o] - Pr[X_t = s]``.
    """

    gain: Any
    stream: str
    t: int
    sensitive: str
    prior: Any
    posterior: Any

    def as_json(self) -> dict[str, Any]:
        return {"gain": number_json(self.gain, "up"), "output": self.stream, "t": self.t, "sensitive": self.sensitive,
                "prior": number_json(self.prior), "posterior": number_json(self.posterior)}

    def words(self) -> str:
        return (f"after the output [{self.stream}] the belief that the user is at {self.sensitive!r} at t = {self.t} "
                f"rises from {exact_or_decimal(self.prior)} to {exact_or_decimal(self.posterior)} (gain "
                f"{exact_and_decimal(self.gain, 'up')})")


def _breach(chain: MarkovChain, b: Any, prior: Any = None) -> Breach:
    """The witness of an exact breach ``b`` (an exact gain; for the float twin, its candidate confirmed by
    :func:`privclaims.theory.maskit.exact.confirmed_breach`, which gives the exact prior), with its exact prior
    and posterior."""
    cells = [ANY] * chain.T
    if prior is None:
        prior = _exact.prior_beliefs(chain)[b.t - 1][chain.index(b.s)]
    if b.output == ("release",):  # the fast twin's "s itself released at t" (posterior 1)
        cells[b.t - 1] = str(b.s)
        return Breach(Q(1) - prior, ", ".join(cells), b.t, str(b.s), prior, Q(1))
    t1, i, t2, j = b.output
    if t1 >= 1:
        cells[t1 - 1] = str(chain.contexts[i])
    for t in range(t1 + 1, t2):
        if 1 <= t <= chain.T:
            cells[t - 1] = BOT
    if t2 <= chain.T:
        cells[t2 - 1] = str(chain.contexts[j])
    return Breach(b.gain, ", ".join(cells), b.t, str(b.s), prior, prior + b.gain)


@dataclass(frozen=True)
class PolicyCheck:
    """Answer of :func:`check`: ``holds`` iff ``max_gain <= delta``; ``privacy_level = max(0, max_gain)``
    is the least δ the policy satisfies; ``utility`` = expected number of released contexts per day
    (Σ_t Σ_i Pr[X_t = c_i](1 - p_i^t)). With ``fast`` (the float twin) ``max_gain`` and ``utility`` are
    float values read exactly, ``holds`` is True only when the gain is below δ beyond rounding doubt, and what is shown
    (the summary, ``as_json()``'s ``max_gain``, ``privacy_level``) is :attr:`gain_bound`, never below the gain."""

    policy: str
    delta: Any
    max_gain: Any
    utility: Any
    T: int
    breach: Breach | None
    fast: bool = False

    @property
    def holds(self) -> bool:
        if self.fast:  # certainly_le's rule, decided exactly against δ itself (float(δ) may lie above δ: δ = 1/10)
            return self.gain_bound <= self.delta
        return self.max_gain <= self.delta

    @property
    def refuted(self) -> bool:
        """Not δ-private, with an exact witness. Exact: whenever it does not hold. Float twin: only when its
        candidate breach was confirmed exactly; otherwise "not private" means "not certified by the float twin"."""
        return not self.holds and self.breach is not None

    @property
    def gain_bound(self) -> Any:
        """The largest gain as shown: exact, or (float twin) its float value plus the margin the float decisions allow
        for rounding at the magnitude of probabilities (:func:`~privclaims.theory.floats.upper_bound`, scale 1), so that
        a number shown or copied is never below the gain: the float value itself may sit below it (a gain of
        3/(10^13 + 3) computed as ≈ 2.99983e-13; found by helper-75)."""
        return Q(upper_bound(float(self.max_gain))) if self.fast else self.max_gain

    @property
    def privacy_level(self) -> Any:
        g = self.gain_bound
        return g if g > 0 else g * 0

    def summary(self) -> str:
        verdict = "is" if self.holds else "is NOT" if self.refuted else "is NOT certified"
        how = " (float twin, --fast: values ≈, the verdict cautious)" if self.fast else ""
        gain = f"at most ≈ {decimal(self.gain_bound, rounding='up')}" if self.fast else \
            exact_and_decimal(self.max_gain, "up")
        util = f"≈ {decimal(self.utility)}" if self.fast else exact_and_decimal(self.utility)
        s = [f"The {self.policy} policy {verdict} δ-private for δ = {exact(self.delta)}{how}: the largest gain "
             f"Pr[X_t=s|o] - Pr[X_t=s] is {gain}.",
             f"Expected released contexts per day: {util} of T = {self.T}."]
        if self.refuted:
            s.append(("Witness (confirmed in exact arithmetic): " if self.fast else "Witness: ") + self.breach.words() + ".")
        elif not self.holds:
            s.append("The float twin could not certify it: its largest gain is within rounding doubt of δ, or its "
                     "candidate output is no breach in exact arithmetic (a cautious bound where floats underflow), or "
                     "too large to confirm exactly. Run without --fast for the exact verdict.")
        return "\n".join(s)

    def as_json(self) -> dict[str, Any]:
        return {"policy": self.policy, "holds": self.holds, "refuted": self.refuted, "fast": self.fast,
                "delta": number_json(self.delta),
                "max_gain": number_json(self.gain_bound, "up"), "privacy_level": number_json(self.privacy_level, "up"),
                "utility": number_json(self.utility), "T": self.T,
                "breach": None if self.breach is None else self.breach.as_json()}


def check(chain: MarkovChain, sensitive: Iterable[Hashable], delta: object, policy: Any = None, *,
          fast: bool = False) -> PolicyCheck:
    """Is the suppression policy ``policy`` (default: MaskSensitive) δ-private? Exact (Algorithm 3), or with
    ``fast=True`` the float twin (:func:`privclaims.theory.maskit.fast.max_breach`: for chains past the exact
    size guard; it reports "private" only when the float gain is below δ beyond rounding doubt)."""
    S = _sensitive(chain, sensitive)
    d = check_delta(delta)
    check_flag(fast, "fast")
    _work_guard(chain, fast=fast)
    if policy is None:
        p, name = mask_sensitive_vector(chain, S), "MaskSensitive (suppress exactly " + ", ".join(map(str, S)) + ")"
    else:
        p, name = suppression_vector(chain, policy), "given"
    if fast:
        b = _fast.max_breach(chain, p, S)
        res = PolicyCheck(name, d, Q(Fraction(b.gain)), Q(Fraction(_fast.utility(chain, p))), chain.T, None, True)
        confirmed = None if res.holds else _exact.confirmed_breach(chain, p, b, d)
        return res if confirmed is None else replace(res, breach=_breach(chain, *confirmed))
    b = _exact.max_breach(chain, p, S)
    return PolicyCheck(name, d, b.gain, _exact.utility(chain, p), chain.T, None if b.output is None else _breach(chain, b))


# ------------------------------------------------------------------------------------------ search


@dataclass(frozen=True)
class SearchResult:
    """The policy found by the greedy search (``p[t-1][i]``), its exact re-check and utility."""

    contexts: tuple[str, ...]
    p: tuple[tuple[Any, ...], ...]
    recheck: PolicyCheck
    candidates_checked: int
    method: str = "greedy"

    @property
    def holds(self) -> bool:
        """True iff the found policy is δ-private (exact re-check) and releases something (utility > 0)."""
        return self.recheck.holds and self.recheck.utility > 0

    def summary(self) -> str:
        rows = [f"  t = {t}: " + ", ".join(f"{c} {exact(v)}" for c, v in zip(self.contexts, row))
                for t, row in enumerate(self.p, start=1)]
        what = "Exhaustive search (the optimum on the grid; " if self.method == "exhaustive" else "Greedy search ("
        s = [f"{what}{self.candidates_checked} candidate policies decided exactly) found the suppression "
             "probabilities:", *rows, self.recheck.summary()]
        if self.recheck.utility == 0:
            s.append("No context can be released at all under δ-privacy on this grid (the policy suppresses everything).")
        return "\n".join(s)

    def as_json(self) -> dict[str, Any]:
        return {"holds": self.holds, "method": self.method, "contexts": list(self.contexts),
                "p": [[exact(v) for v in r] for r in self.p],
                "candidates_checked": self.candidates_checked, "recheck": self.recheck.as_json()}


def search(chain: MarkovChain, sensitive: Iterable[Hashable], delta: object, grid: int = 4, *,
           optimum: bool = False) -> SearchResult:
    """Greedy (MONDRIAN-style) search for a δ-private policy of high utility on the grid {0, 1/grid, ..., 1};
    with ``optimum=True`` the exhaustive search over all grid policies (the utility-maximal private one,
    thesis §3.4.2; refused above 4,096 candidate policies)."""
    S = _sensitive(chain, sensitive)
    check_delta(delta)
    check_flag(optimum, "optimum")
    if isinstance(grid, bool) or not isinstance(grid, int) or grid < 1 or grid > 64:
        raise InvalidInput(f"grid = {grid!r} must be an integer in [1, 64]")
    _work_guard(chain, grid)
    if optimum:
        k = len(_search.coordinates(chain))
        guard((grid + 1) ** k, OPTIMUM_LIMIT, f"the exhaustive search over {grid + 1}^{k} policies "
              f"(grid = {grid}, {k} coordinates (t, c) of positive prior)",
              "use a smaller --grid, or drop --optimum (the greedy search, re-checked exactly)", unit="policies")
        out = _search.optimal_exhaustive(chain, S, delta, grid)
    else:
        out = _search.greedy_mondrian(chain, S, delta, grid)
    p = suppression_vector(chain, out.p)
    rc = replace(check(chain, S, delta, p), policy="optimal" if optimum else "searched")
    return SearchResult(tuple(map(str, chain.contexts)), p, rc, out.is_private_calls, "exhaustive" if optimum else "greedy")


# ------------------------------------------------------------------------------------------ filter


@dataclass(frozen=True)
class FilterResult:
    """Released streams. ``guarantee`` is the exact privacy level of the check used (for the
    probabilistic check: its policy's re-check; the simulatable check is δ-private by construction)."""

    check: str
    streams: tuple[str, ...]
    released: tuple[str, ...]
    released_count: int
    total: int
    guarantee: PolicyCheck | None
    expected_utility: Mapping[str, Any]

    @property
    def holds(self) -> bool:
        return self.guarantee is None or self.guarantee.holds

    def summary(self) -> str:
        s = [f"{self.check} check: released {self.released_count} of {self.total} contexts."]
        s += [f"  {a}  ->  {b}" for a, b in zip(self.streams, self.released)]
        for k, v in self.expected_utility.items():
            s.append(f"expected released per day ({k}): {exact(v)} ≈ {decimal(v)}")
        if self.guarantee is not None:
            s.append(self.guarantee.summary())
        return "\n".join(s)

    def as_json(self) -> dict[str, Any]:
        return {"check": self.check, "holds": self.holds, "streams": list(self.streams),
                "released": list(self.released), "released_count": self.released_count, "total": self.total,
                "expected_utility": {k: number_json(v) for k, v in self.expected_utility.items()},
                "guarantee": None if self.guarantee is None else self.guarantee.as_json()}


def filter_streams(chain: MarkovChain, streams: Sequence[Sequence[int]], sensitive: Iterable[Hashable], delta: object,
                   check_name: str = "simulatable", policy: Any = None, *, grid: int = 4, seed: int = 0) -> FilterResult:
    """Algorithm 1 on each stream (context indices) with the chosen check; ⊥ marks a suppression."""
    S = _sensitive(chain, sensitive)
    check_choice(check_name, CHECKS, "check_name")
    d = check_delta(delta)
    check_int(grid, "grid", 1, 64)
    check_seed(seed)
    _work_guard(chain, grid if check_name != "simulatable" and policy is None else None)
    if policy is not None:
        suppression_vector(chain, policy)
    if isinstance(streams, (str, bytes)) or not isinstance(streams, Sequence) or not streams:
        raise InvalidInput(f"streams = {shown(streams)} must be a non-empty list of streams (context indices)")
    for k, x in enumerate(streams):
        _output(chain, x, f"streams[{k}]", allow_bot=False)
        try:
            impossible(chain, x)
        except InvalidInput as exc:
            raise InvalidInput(f"streams[{k}]: {exc}") from None
    util: dict[str, Any] = {}
    p = None
    if check_name in ("probabilistic", "hybrid"):
        p = suppression_vector(chain, policy) if policy is not None else search(chain, S, d, grid).p
        util["probabilistic"] = _exact.utility(chain, p)
    if check_name in ("simulatable", "hybrid"):
        util["simulatable"] = _exact.simulatable_utility(chain, S, d)
    used = check_name
    if check_name == "hybrid":
        used = _exact.hybrid_pick(util["probabilistic"], util["simulatable"])
    guarantee = None
    if used == "probabilistic":
        guarantee = replace(check(chain, S, d, p), policy="given" if policy is not None else "searched")
        chk: Any = _system.ProbabilisticCheck(chain, p, np.random.default_rng(seed))
    else:
        chk = _system.SimulatableCheck(chain, S, d)
    outs = [_system.maskit(chain, chk, x) for x in progress(streams, len(streams), "filtering streams")]
    name = used if check_name != "hybrid" else f"hybrid (picked {used})"
    return FilterResult(name, tuple(render_stream(chain, x) for x in streams),
                        tuple(render_stream(chain, o) for o in outs),
                        sum(o is not None for out in outs for o in out), sum(len(x) for x in streams), guarantee, util)
