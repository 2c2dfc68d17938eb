"""Count as participants exchanging explicit, recorded messages.

Two constructions:

* :func:`run_thesis_count` - 000_211156f2009240b4.txt §5.4 Protocol 1: user i samples a noise share
  r_i, sends ``m_i = E(b_i + r_i)`` (Paillier) to Server 2; Server 2 sums the messages and forwards
  ``S`` to Server 1; Server 1 releases ``D(S)``.
* :func:`run_pad_count` - 002_9d55ef468949585c.txt §4.2.1 Protocol 1: user i draws a key
  ``k_i in {0..p-1}`` and a share r_i, and atomically (two-phase commit) sends k_i to the *server*
  and ``m_i = b_i + r_i + k_i mod p`` to the *proxy*; the proxy forwards ``s = sum m_i mod p``; the
  server releases ``s - sum k_i mod p`` (centred in (-p/2, p/2]). The paper writes ``|r_i|``; the
  literal reading is available as ``absolute_noise=True`` (see ``count.p_protocol1``).

Both abort - raising :class:`ProtocolAborted` (an :class:`InvalidInput`), with the transcript and
no release - when fewer than ``ceil((1 - t) N)`` messages arrive, when a message comes from an
unknown user or twice from one user, or (Paillier) when a ciphertext is under another key.

Randomness is injected (:class:`Randomness`): :class:`SampledRandomness` draws shares with the exact
discrete-Gaussian sampler; :mod:`privclaims.theory.count.views` replays fixed tapes to enumerate view laws.
Views (Definition 5, "Notation"): :meth:`Transcript.view` - every message a participant sent or
received, plus the public release; a non-participant's view is the release alone.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterable, Sequence

from privclaims.theory.count.encryption import OneTimePad, PaillierScheme
from privclaims.theory.count.model import CountParams, bits, positive_sigma2
from privclaims.theory.errors import InvalidInput
from privclaims.theory.noise.discrete_gaussian import discrete_gaussian
from privclaims.theory.validate import instance, integer

SERVER1, SERVER2 = "server1", "server2"  # thesis names
SERVER, PROXY = "server", "proxy"  # 002 names
PUBLIC = "public"

AVAILABLE, DROP_BEFORE, DROP_AFTER, DROP_DURING = "available", "drop-before-sending", "drop-after-sending", "drop-during-2pc"
AVAILABILITY = (AVAILABLE, DROP_BEFORE, DROP_AFTER, DROP_DURING)


@dataclass(frozen=True)
class Message:
    sender: Hashable
    receiver: Hashable
    kind: str
    payload: Any
    round: int = 0


class ProtocolAborted(InvalidInput):
    """The protocol stopped before release; ``transcript`` holds what was exchanged."""

    def __init__(self, msg: str, transcript: "Transcript") -> None:
        super().__init__(msg)
        self.transcript = transcript


@dataclass
class Transcript:
    messages: list[Message] = field(default_factory=list)
    releases: list[Any] = field(default_factory=list)

    def send(self, m: Message) -> Message:
        self.messages.append(m)
        return m

    def view(self, who: Hashable | Iterable[Hashable] | None) -> tuple:
        """Messages sent or received by ``who`` (a participant or a coalition), then the releases.
        ``who=None`` is a non-participant: the releases only."""
        group = set() if who is None else ({who} if isinstance(who, (str, int)) else set(who))
        msgs = tuple((m.round, m.sender, m.receiver, m.kind, m.payload) for m in self.messages if m.sender in group or m.receiver in group)
        return msgs + (("release", tuple(self.releases)),)

    def count(self, kinds: Iterable[str] | None = None) -> int:
        """Number of point-to-point messages (of the given kinds)."""
        ks = None if kinds is None else set(kinds)
        return sum(1 for m in self.messages if ks is None or m.kind in ks)


# ----------------------------------------------------------------------------- randomness


class Randomness:
    """Where participants draw their coins."""

    def share(self, uid: Hashable) -> int:  # noise share r_i
        raise NotImplementedError

    def key(self, uid: Hashable, p: int) -> int:  # one-time pad key k_i
        raise NotImplementedError


class SampledRandomness(Randomness):
    """Exact discrete-Gaussian shares ``N_Z(0, share_sigma2)`` and uniform keys, from a seed. ``share_sigma2`` is the
    discrete Gaussian's parameter; the share's variance is below it (far below for small values:
    :func:`privclaims.theory.noise.discrete_gaussian.discrete_gaussian_variance`), so the sum of the shares is not the
    Gaussian of Theorem 1 — :mod:`privclaims.theory.count.summed_shares` decides the privacy of the sum itself."""

    def __init__(self, share_sigma2: Any, seed: int = 0) -> None:
        positive_sigma2(share_sigma2)
        integer(seed, "seed")
        self.share_sigma2 = share_sigma2
        self.rng = random.Random(seed)

    def share(self, uid: Hashable) -> int:
        return discrete_gaussian(self.share_sigma2, self.rng)

    def key(self, uid: Hashable, p: int) -> int:
        return self.rng.randrange(p)


class TapeRandomness(Randomness):
    """Replays fixed values: ``shares[uid]`` and ``keys[uid]`` (lists consumed in order per user)."""

    def __init__(self, shares: dict, keys: dict | None = None) -> None:
        self.shares = {u: list(v) for u, v in shares.items()}
        self.keys = {u: list(v) for u, v in (keys or {}).items()}

    def share(self, uid: Hashable) -> int:
        return self.shares[uid].pop(0)

    def key(self, uid: Hashable, p: int) -> int:
        return self.keys[uid].pop(0)


# ----------------------------------------------------------------------------- users


@dataclass
class HonestUser:
    """An honest user with private value ``b`` (a bit, unless ``real=True``) and an availability."""

    uid: Hashable
    b: int
    availability: str = AVAILABLE
    real: bool = False

    def __post_init__(self) -> None:
        if not self.real:
            if isinstance(self.b, (list, tuple)):
                self.b = bits(self.b, f"b[{self.uid!r}]")
            else:
                self.b = bits([self.b], f"b[{self.uid!r}]")[0]
        for a in self.availability if isinstance(self.availability, list) else [self.availability]:
            if a not in AVAILABILITY:
                raise InvalidInput(f"user {self.uid!r}: unknown availability {a!r}; use {AVAILABILITY}")
        self.last_share: int | None = None
        self.last_key: int | None = None


@dataclass
class MaliciousUser:
    """A malicious user: ``strategy(b, previous_releases) -> value`` (any plaintext integer, or for
    the pad protocol a pair ``(k, m)`` with ``None`` meaning "not sent"); ``raw`` strategies return a
    ciphertext object directly (thesis protocol), e.g. one under another key."""

    uid: Hashable
    b: int
    strategy: Callable[[int, tuple], Any]
    raw: bool = False


# ----------------------------------------------------------------------------- thesis protocol


def _availability(u: HonestUser, rnd: int) -> str:
    return u.availability[rnd] if isinstance(u.availability, list) else u.availability


def _check_users(users: Sequence[Any], params: CountParams, rounds: int = 1) -> dict:
    """The run's boundary: built params, a list of HonestUser / MaliciousUser, rounds >= 1, and per-round
    values and availabilities (lists) covering every round."""
    instance(params, CountParams, "params", "(build it with CountParams(sigma2, t, n_users))")
    if isinstance(users, (str, bytes)) or not isinstance(users, Sequence):
        raise InvalidInput(f"users = {users!r} must be a list of HonestUser / MaliciousUser")
    for u in users:
        instance(u, (HonestUser, MaliciousUser), "user")
    rounds = integer(rounds, "rounds", lo=1)
    for u in users:
        for what in ("b", "availability"):
            v = getattr(u, what, None)
            if isinstance(v, (list, tuple)) and len(v) < rounds:
                raise InvalidInput(f"user {u.uid!r}: {what} has {len(v)} per-round values, fewer than rounds = {rounds}")
    ids = [u.uid for u in users]
    if len(set(ids)) != len(ids):
        raise InvalidInput(f"duplicate user ids in {ids}")
    if len(ids) != params.n_users:
        raise InvalidInput(f"{len(ids)} users given but N = {params.n_users}")
    return {u.uid: u for u in users}


def _aggregate_checks(received: list[Message], registered: set, params: CountParams, tr: Transcript, who: str) -> None:
    seen = set()
    for m in received:
        if m.sender not in registered:
            raise ProtocolAborted(f"{who}: message from unknown user {m.sender!r}; aborting without release", tr)
        if m.sender in seen:
            raise ProtocolAborted(f"{who}: second message from user {m.sender!r}; aborting without release", tr)
        seen.add(m.sender)
    if len(received) < params.min_messages:
        raise ProtocolAborted(
            f"{who}: only {len(received)} messages, fewer than (1 - t) N = {params.min_messages}; aborting before release", tr
        )


def run_thesis_count(
    users: Sequence[Any],
    params: CountParams,
    scheme: PaillierScheme,
    randomness: Randomness,
    *,
    extra_messages: Sequence[Message] = (),
    rounds: int = 1,
    transcript: Transcript | None = None,
    server2_forward: Callable[[list[Any]], Any] | None = None,
) -> Transcript:
    """000 Protocol 1 over ``rounds`` sequential queries (user values ``b`` may be per-round lists).

    ``server2_forward`` models a corrupted Server 2 (Theorem 10): it receives the checked
    ciphertexts and returns what is forwarded to Server 1 instead of their sum."""
    roster = _check_users(users, params, rounds)
    tr = transcript or Transcript()
    for rnd in range(rounds):
        received: list[Message] = []
        for u in users:
            b = u.b[rnd] if isinstance(u.b, (list, tuple)) else u.b
            if isinstance(u, HonestUser):
                if _availability(u, rnd) == DROP_BEFORE:
                    continue
                r = randomness.share(u.uid)
                u.last_share = r
                received.append(tr.send(Message(u.uid, SERVER2, "m", scheme.encrypt(b + r), rnd)))
            else:
                v = u.strategy(b, tuple(tr.releases))
                if v is None:
                    continue
                c = v if u.raw else scheme.encrypt(int(v))
                received.append(tr.send(Message(u.uid, SERVER2, "m", c, rnd)))
        for m in extra_messages:
            received.append(tr.send(m))
        _aggregate_checks(received, set(roster), params, tr, "Server 2")
        total = None
        for m in received:
            try:
                c = scheme.check(m.payload, f"message of {m.sender!r}")
            except InvalidInput as exc:
                raise ProtocolAborted(f"Server 2: {exc}; aborting without release", tr) from exc
            total = c if total is None else scheme.add(total, c)
        if server2_forward is not None:
            total = server2_forward([m.payload for m in received])
        tr.send(Message(SERVER2, SERVER1, "S", total, rnd))
        tr.releases.append(scheme.decrypt(total))
    return tr


# ----------------------------------------------------------------------------- 002 protocol


def run_pad_count(
    users: Sequence[Any],
    params: CountParams,
    p: int,
    randomness: Randomness,
    *,
    two_phase_commit: bool = True,
    absolute_noise: bool = False,
    extra_messages: Sequence[Message] = (),
    rounds: int = 1,
    transcript: Transcript | None = None,
) -> Transcript:
    """002 Protocol 1 (one-time pads mod the prime p) over ``rounds`` sequential queries."""
    otp = OneTimePad(p)
    roster = _check_users(users, params, rounds)
    tr = transcript or Transcript()
    for rnd in range(rounds):
        to_server: list[Message] = []
        to_proxy: list[Message] = []
        for u in users:
            b = u.b[rnd] if isinstance(u.b, (list, tuple)) else u.b
            if isinstance(u, HonestUser):
                avail = _availability(u, rnd)
                if avail == DROP_BEFORE:
                    continue
                k = randomness.key(u.uid, p)
                r = randomness.share(u.uid)
                u.last_share, u.last_key = r, k
                noise = abs(r) if absolute_noise else r
                if avail == DROP_DURING and two_phase_commit:
                    continue  # 2PC: the commit fails, neither message is delivered
                to_server.append(tr.send(Message(u.uid, SERVER, "k", k, rnd)))
                if avail == DROP_DURING:
                    continue  # without 2PC the key arrived but m_i never does
                to_proxy.append(tr.send(Message(u.uid, PROXY, "m", otp.encrypt(b + noise, k), rnd)))
            else:
                pair = u.strategy(b, tuple(tr.releases))
                if pair is None:
                    continue
                k, m = pair
                if k is not None:
                    to_server.append(tr.send(Message(u.uid, SERVER, "k", int(k) % p, rnd)))
                if m is not None:
                    to_proxy.append(tr.send(Message(u.uid, PROXY, "m", int(m) % p, rnd)))
        for m in extra_messages:
            (to_proxy if m.receiver == PROXY else to_server).append(tr.send(m))
        _aggregate_checks(to_proxy, set(roster), params, tr, "proxy")
        _aggregate_checks(to_server, set(roster), params, tr, "server")
        s = 0
        for m in to_proxy:
            s = otp.add(s, m.payload)
        tr.send(Message(PROXY, SERVER, "s", s, rnd))
        keys = sum(m.payload for m in to_server)
        tr.releases.append(otp.centered(otp.decrypt(s, keys % p)))
    return tr


__all__ = [
    "Message", "Transcript", "ProtocolAborted", "Randomness", "SampledRandomness", "TapeRandomness",
    "HonestUser", "MaliciousUser", "run_thesis_count", "run_pad_count",
    "SERVER1", "SERVER2", "SERVER", "PROXY", "AVAILABLE", "DROP_BEFORE", "DROP_AFTER", "DROP_DURING",
]
