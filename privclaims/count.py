"""Distributed counting with Gaussian noise shares, run end to end (000_211156f2009240b4.txt ch. 5, §5.4 Protocol 1
and Theorem 1; 002_9d55ef468949585c.txt §4.2).

N users each hold a bit ``b_i``; the servers should learn only ``Σ b_i + noise``. Each user draws an exact
discrete Gaussian noise share ``r_i ~ N_Z(0, s²)`` with parameter ``s² = σ² / ((1 - t) N - 1)`` and sends
``b_i + r_i`` hidden:

* **paillier** (thesis Protocol 1): ``E(b_i + r_i)`` under Server 1's Paillier key to Server 2, which
  multiplies the ciphertexts (adds the plaintexts) and forwards the sum; Server 1 decrypts and
  releases it;
* **pads** (002 Protocol 1): a one-time pad ``k_i`` to the server and ``b_i + r_i + k_i mod p`` to the
  proxy (two-phase commit); the server removes ``Σ k_i``.

If at most a fraction t of the users drop out, at least ``⌈(1 - t) N⌉`` shares arrive; with fewer messages, or a
message from an unknown user or twice from one, the protocol **aborts without release**.

**The privacy decision is for the noise the run really adds.** Theorem 1 (000 §2.2.1) is about Gaussian noise:
variance ``σ² >= 2 s² ln(4/δ) / ε²`` (sensitivity s = 1 for a count) gives (ε, δ)-probabilistic DP
(Definition 3), and σ² defaults to the least such value, rounded *up* to a multiple of 1/1000. But the shares
are discrete Gaussians, and ``s²`` is a share's parameter, not its variance: ``Var[N_Z(0, s²)] < s²``, far less
for small ``s²`` (0.3 % of it at ``s² = 0.053``, which many users and a small ε give), and a sum of them is not
Gaussian. So ``private`` decides Definition 3 for the release ``Σ b_i + r_1 + ... + r_k`` itself, against the
neighbours whose count differs by 1, under both quantifier orders the documents print (per pair and per input),
rigorously (:mod:`privclaims.theory.count.summed_shares`: the sum's law enclosed, every breaching output counted),
for both viewers: a participating user, who knows its own share (k - 1 unknown shares: Theorem 9's M′ for
Definition 5), and the server and the public (all k shares). Both are needed: for discrete shares the breach is
not monotone in k (N = 17, t = 0, ε = 4/5, δ = 1/100, σ² = 109/10: 0.00975 with 16 shares, 0.01218 with 17).
Theorem 1's breach at σ² (continuous noise) is shown beside it for comparison, never decided on.

Example::

    >>> from privclaims import count
    >>> r = count.run(users=20, dropout="1/10", epsilon="1/2", delta="1/100", protocol="pads", seed=1)
    >>> r.holds, r.aborted
    (True, False)

**What comes back**: :class:`CountResult` — messages, whether and why it aborted, the release and the true
count, σ², each share's parameter ``s²`` and its true variance, the variance of the released noise,
``private`` (the release's own noise, both quantifier orders, decided rigorously), the breach probabilities'
upper bounds as decimals rounded *up*, and Theorem 1's continuous-Gaussian breach for comparison; ``holds`` =
released and private. Paillier runs cost about
N (bits/2048)^3 encryptions of ~12 ms and are refused above 20,000 (use ``protocol="pads"``). Bad arguments (N outside
[2, 100000], t outside [0, 1), ε <= 0, δ outside (0, 1) or below 2^-1000, σ² <= 0 or too wide to decide (a window of
more than 65,537 integers), ``drop``/``ones`` outside [0, N], a prime too small for the release not to wrap, a
Paillier key outside [128, 8192] bits, a seed outside [0, 2^63)) raise :class:`privclaims.theory.errors.InvalidInput`.

The participants are :mod:`privclaims.theory.count.protocol`'s; σ² is :func:`privclaims.theory.count.model.theorem1_sigma2`; the
privacy decision is :mod:`privclaims.theory.count.summed_shares` (Theorem 1's breach: :mod:`privclaims.theory.count.exact_privacy`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from privclaims.theory.count import exact_privacy as _privacy
from privclaims.theory.count import protocol as _protocol
from privclaims.theory.count import summed_shares as _summed
from privclaims.theory.count.encryption import PaillierScheme
from privclaims.theory.count.model import CountParams, privacy_eps_delta
from privclaims.theory.count.model import theorem1_sigma2 as _theorem1_sigma2
from privclaims.theory.errors import InvalidInput
from privclaims.theory.noise.discrete_gaussian import discrete_gaussian_variance
from privclaims.theory.numbers import as_rational, enclosure_bounds

from privclaims._common import (ENCLOSURE_EXPONENT, check_choice, guard, check_int, check_seed, decimal, enclosed_decimal_up,
                                exact, exact_and_decimal, number_json, progress_bar)

__all__ = ["CountResult", "run", "theorem1_sigma2", "PROTOCOLS", "DEFAULT_PRIME"]

PROTOCOLS = ("paillier", "pads")
DEFAULT_PRIME = 2_147_483_647  # 2^31 - 1
MAX_USERS = 100_000
MIN_BITS, MAX_BITS = 128, 8192
PAILLIER_WORK_LIMIT = 20_000
"""Paillier runs are refused above N (bits/2048)^3 = 20,000 (one 2048-bit encryption takes ~12 ms here, so
about 4 minutes; N = 100,000 users at 8192 bits would take about a day)."""


class _ShowingProgress(PaillierScheme):
    """The thesis's Paillier scheme, advancing a progress bar at each user's encryption (2048-bit keys are slow)."""

    def __init__(self, bits: int, advance: Any) -> None:
        super().__init__(bits)
        self._advance = advance

    def encrypt(self, x: int) -> Any:
        c = super().encrypt(x)
        self._advance(1)
        return c


def theorem1_sigma2(epsilon: object, delta: object) -> Any:
    """Theorem 1's variance ``2 ln(4/δ)/ε²`` (s = 1), rounded up to a multiple of 1/1000 (exact rational);
    = :func:`privclaims.theory.count.model.theorem1_sigma2`."""
    return _theorem1_sigma2(epsilon, delta)


@dataclass(frozen=True)
class CountResult:
    """One run: who sent what, whether it aborted, the release, and the privacy decision."""

    protocol: str
    users: int
    dropped: int
    t: Any
    epsilon: Any
    delta: Any
    sigma2: Any
    share_sigma2: Any
    share_variance: tuple[Any, Any]
    min_messages: int
    messages: int
    aborted: bool
    abort_reason: str
    true_count: int | None
    release: int | None
    realised_variance: tuple[Any, Any]
    private: bool
    breach: str
    unknown_shares: int
    breach_per_pair: tuple[Any, Any]
    breach_per_input: tuple[Any, Any]
    theorem1_breach: str
    public_shares: int = 0
    public_per_pair: tuple[Any, Any] = (0, 0)
    public_per_input: tuple[Any, Any] = (0, 0)

    def _decide(self, pair: tuple[Any, Any], inp: tuple[Any, Any]) -> dict[str, bool | None]:
        return {"per pair": _summed.decided(pair, self.delta), "per input": _summed.decided(inp, self.delta)}

    @property
    def decided(self) -> dict[str, bool | None]:
        """Definition 3 for the noise a participating user does not know (the k - 1 other shares: Definition 5's M′,
        Theorem 9), per quantifier order: True, False, or None (undecided)."""
        return self._decide(self.breach_per_pair, self.breach_per_input)

    @property
    def decided_public(self) -> dict[str, bool | None]:
        """Definition 3 for the released count as the server and the public see it (all k shares)."""
        return self._decide(self.public_per_pair, self.public_per_input)

    @property
    def holds(self) -> bool:
        """True iff the protocol released and the noise gives (ε, δ)-probabilistic DP."""
        return not self.aborted and self.private

    def summary(self) -> str:
        v_lo, v_hi = self.share_variance
        s = [f"Count ({self.protocol}) with N = {self.users} users, dropout tolerance t = {exact(self.t)}, "
             f"{self.dropped} dropped; target ({exact(self.epsilon)}, {exact(self.delta)})-probabilistic DP.",
             f"σ² = {exact_and_decimal(self.sigma2, 'up')}; each share is N_Z(0, s²) with s² = "
             f"{exact_and_decimal(self.share_sigma2, 'up')}, whose variance is in "
             f"[{decimal(v_lo, 8, 'down')}, {decimal(v_hi, 8, 'up')}]; at least {self.min_messages} messages needed.",
             f"Point-to-point messages exchanged: {self.messages}."]
        if self.aborted:
            s.append(f"ABORTED without release: {self.abort_reason}")
        else:
            r_lo, r_hi = self.realised_variance
            s.append(f"Released {self.release} (true count {self.true_count}); variance of the total noise in "
                     f"[{decimal(r_lo, 8, 'down')}, {decimal(r_hi, 8, 'up')}].")
        words = {True: "<= δ", False: "> δ", None: "undecided at δ"}

        def shown(decided: dict[str, bool | None], bounds: tuple[tuple[Any, Any], ...]) -> str:
            return ", ".join(f"{name} {decimal(hi, 8, 'up')} ({words[ok]})"
                             for (name, ok), (_, hi) in zip(decided.items(), bounds))

        verdicts = list(self.decided.values()) + list(self.decided_public.values())
        end = (": private." if self.private else f": NOT private at δ = {exact(self.delta)}." if False in verdicts
               else f": not certified at δ = {exact(self.delta)} (undecided, never certified).")
        s.append(f"Breach probability Pr[M(L) ∈ Ω2], at most: for a participating user ({self.unknown_shares} noise "
                 f"shares it does not know; Definition 5) " + shown(self.decided, (self.breach_per_pair, self.breach_per_input))
                 + f"; for the server and the public (all {self.public_shares} shares) "
                 + shown(self.decided_public, (self.public_per_pair, self.public_per_input)) + end)
        s.append(f"(Theorem 1 for continuous Gaussian noise of variance σ² would give {self.theorem1_breach}, rounded up; "
                 "not the noise this protocol adds.)")
        return "\n".join(s)

    def as_json(self) -> dict[str, Any]:
        def pair(t: tuple[Any, Any]) -> dict[str, str]:  # decimals rounded outwards (the exact ends are long dyadics)
            return {"lower": decimal(t[0], 8, "down"), "upper": decimal(t[1], 8, "up")}

        return {"holds": self.holds, "protocol": self.protocol, "N": self.users, "dropped": self.dropped,
                "t": number_json(self.t), "epsilon": number_json(self.epsilon), "delta": number_json(self.delta),
                "sigma2": number_json(self.sigma2, "up"), "share_sigma2": number_json(self.share_sigma2, "up"),
                "share_variance": pair(self.share_variance),
                "min_messages": self.min_messages, "messages": self.messages, "aborted": self.aborted,
                "abort_reason": self.abort_reason or None, "true_count": self.true_count, "release": self.release,
                "realised_variance": None if self.aborted else pair(self.realised_variance), "private": self.private,
                "unknown_shares": self.unknown_shares, "breach_probability": self.breach,
                "breach_per_pair": pair(self.breach_per_pair), "breach_per_input": pair(self.breach_per_input),
                "decided": {k.replace(" ", "_"): v for k, v in self.decided.items()},
                "public_shares": self.public_shares, "public_breach_per_pair": pair(self.public_per_pair),
                "public_breach_per_input": pair(self.public_per_input),
                "decided_public": {k.replace(" ", "_"): v for k, v in self.decided_public.items()},
                "theorem1_continuous_breach": self.theorem1_breach}


def run(users: int, dropout: object, epsilon: object, delta: object, *, protocol: str = "paillier", bits: int = 2048,
        drop: int = 0, ones: int | None = None, sigma2: object = None, prime: int = DEFAULT_PRIME,
        seed: int = 0) -> CountResult:
    """Run Count end to end: ``users`` participants (the first ``ones`` hold b = 1, default half), the last
    ``drop`` of them drop out before sending. ``sigma2`` defaults to :func:`theorem1_sigma2`."""
    check_choice(protocol, PROTOCOLS, "protocol")
    check_int(bits, "bits", MIN_BITS, MAX_BITS, "Paillier key length")
    check_seed(seed)
    if isinstance(users, bool) or not isinstance(users, int) or not 2 <= users <= MAX_USERS:
        raise InvalidInput(f"users N = {users!r} must be an integer in [2, {MAX_USERS}]")
    if protocol == "paillier":
        guard(users * bits**3 // 2048**3, PAILLIER_WORK_LIMIT,
              f"Paillier with N = {users} users and {bits}-bit keys ",
              "use --protocol pads (the 002 protocol: one-time pads, no public-key encryption, the same release law and "
              "privacy decision) or shorter --bits", unit="2048-bit encryptions")
    e, d = privacy_eps_delta(epsilon, delta)
    s2 = theorem1_sigma2(e, d) if sigma2 is None else as_rational(sigma2, "sigma^2")
    params = CountParams(s2, dropout, users)
    ones = users // 2 if ones is None else ones
    check_int(ones, "ones", 0, users, f"at most N = {users} users hold b = 1")
    check_int(drop, "drop", 0, users, f"at most N = {users} users can drop out")
    people = [_protocol.HonestUser(f"u{i}", 1 if i < ones else 0,
                                   _protocol.DROP_BEFORE if i >= users - drop else _protocol.AVAILABLE)
              for i in range(users)]
    rnd = _protocol.SampledRandomness(params.share_variance, seed)
    tr = _protocol.Transcript()
    aborted, reason, release = False, "", None
    try:
        with progress_bar(users, f"Count ({protocol}): users sending") as advance:
            if protocol == "paillier":
                _protocol.run_thesis_count(people, params, _ShowingProgress(bits, advance), rnd, transcript=tr)
            else:
                _protocol.run_pad_count(people, params, prime, rnd, transcript=tr)
        release = tr.releases[0]
    except _protocol.ProtocolAborted as exc:
        aborted, reason = True, str(exc)
    sent = users - drop
    shares = params.min_messages if aborted else sent  # in the release (or, aborted, in the least one possible)
    bounds = _summed.breach_bounds(e, params.share_variance, shares - 1, d)  # a participant knows its own share
    public = _summed.breach_bounds(e, params.share_variance, shares, d)  # the server and the public know none
    if protocol == "pads" and prime <= 2 * (users + public.window + 1) + 1:
        raise InvalidInput(f"prime p = {prime} must exceed 2 (N + W + 1) + 1 = {2 * (users + public.window + 1) + 1} "
                           f"(N = {users} users, noise window W = {public.window}) so that the centred release does not wrap")
    verdicts = list(bounds.decide(d).values()) + list(public.decide(d).values())
    private = all(v is True for v in verdicts)  # both viewers, both quantifier orders (breach is not monotone in k)
    breach = decimal(max(bounds.per_pair[1], bounds.per_input[1], public.per_pair[1], public.per_input[1]), 8, "up")
    var = enclosure_bounds(lambda c: discrete_gaussian_variance(params.share_variance, c), 128, ENCLOSURE_EXPONENT)
    theorem1 = enclosed_decimal_up(lambda c: _privacy.breach_probability(e, s2, 1, c), 8, at_most=1)
    return CountResult(protocol, users, drop, params.t, e, d, s2, params.share_variance, var, params.min_messages,
                       tr.count(), aborted, reason, None if aborted else min(ones, sent),
                       release, (sent * var[0], sent * var[1]), private, breach, shares - 1, bounds.per_pair,
                       bounds.per_input, theorem1, shares, public.per_pair, public.per_input)
