"""Exact view distributions of Count and the simulators of Theorems 9 and 11 (Definition 5).

000_211156f2009240b4.txt §5.4.4 (Claims 9-14) and §5.4.6 (Claims 16-21) prove privacy by exhibiting,
for each (non-)participant p, an algorithm M' (the "ideal" noisy sum C, or C' without p's own share)
and a simulator R with ``V_p ~ R(M'(L_{U \\ (P_m ∪ {p})}), L_{P_m ∪ {p}})``. For tiny N and a small prime
p we compute both sides EXACTLY: every honest coin (noise share from a rational pmf, pad key
uniform on Z_p) is enumerated, the real participants of :func:`privclaims.theory.count.protocol.run_pad_count`
run on each tape, and :meth:`Transcript.view` is tallied with its exact probability. The simulator
side enumerates the law of M' (an exact convolution) and R's own coins and builds the view tuple the
same way. Equality of the two dictionaries is Definition 5 (b) on that instance.

The pad protocol is the ideal instance of Definition 9 (see :mod:`privclaims.theory.count.encryption`): the
thesis' Server 1 is the key server, Server 2 the proxy. Malicious users follow deterministic
strategies of their input and the previous releases (adaptive, as in Claims 16-21).
Noise shares use a rational pmf, e.g. :func:`rational_gaussian_pmf` (``w(x) ∝ q^{x^2}``, i.e. a
discrete Gaussian with ``e^{-1/(2 sigma^2)} = q`` truncated to ``|x| <= K``); the simulation identity
holds for any share law, which is what the proofs use.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import product
from typing import Any, Callable, Hashable

from privclaims.theory.count.model import CountParams
from privclaims.theory.count.protocol import (
    AVAILABLE, PROXY, SERVER, HonestUser, MaliciousUser, Message, TapeRandomness, Transcript, run_pad_count,
)
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import ONE, ZERO, Q, as_rational

Law = dict  # outcome -> exact probability


def rational_gaussian_pmf(q: object, K: int) -> dict[int, Any]:
    """``Pr[X = x] ∝ q^{x^2}`` on ``-K..K`` (q rational in (0, 1)): an exact rational share law."""
    qq = as_rational(q, "q")
    if not 0 < qq < 1:
        raise InvalidInput(f"q = {qq} must lie in (0, 1)")
    w = {x: qq ** (x * x) for x in range(-K, K + 1)}
    z = sum(w.values(), ZERO)
    return {x: v / z for x, v in w.items()}


def convolve(a: Law, b: Law) -> Law:
    out: Law = defaultdict(lambda: ZERO)
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] += p * q
    return dict(out)


def sum_law(share: Law, n: int) -> Law:
    """Law of the sum of n independent shares (Fact 1's discrete analogue: an exact convolution)."""
    out: Law = {0: ONE}
    for _ in range(n):
        out = convolve(out, share)
    return out


@dataclass(frozen=True)
class Scenario:
    """A tiny instance: honest users (bit per round, availability per round), malicious users with
    deterministic strategies, the prime p, rounds, and the share law."""

    honest: tuple  # (uid, bits tuple, availability tuple)
    malicious: tuple  # (uid, bits tuple, strategy)
    p: int
    rounds: int
    share: tuple  # ((x, prob), ...)
    t: Any

    @property
    def share_law(self) -> Law:
        return dict(self.share)

    def users(self) -> list:
        us = [HonestUser(uid, list(bs), list(av)) for uid, bs, av in self.honest]
        us += [MaliciousUser(uid, list(bs), strat) for uid, bs, strat in self.malicious]
        return us

    def params(self) -> CountParams:
        return CountParams(1, self.t, len(self.honest) + len(self.malicious))

    def available(self, rnd: int) -> list:
        return [uid for uid, _, av in self.honest if av[rnd] == AVAILABLE]


def protocol_view_law(sc: Scenario, who: Any, *, run: Callable = run_pad_count, **kw: Any) -> Law:
    """Exact law of ``Transcript.view(who)`` by enumerating every honest coin."""
    law: Law = defaultdict(lambda: ZERO)
    share = sc.share_law
    slots = [(uid, rnd) for rnd in range(sc.rounds) for uid in sc.available(rnd)]
    share_items = list(share.items())
    for shares in product(share_items, repeat=len(slots)):
        for keys in product(range(sc.p), repeat=len(slots)):
            w = ONE
            s_tape: dict = defaultdict(list)
            k_tape: dict = defaultdict(list)
            for (uid, _), (x, px), k in zip(slots, shares, keys):
                w *= px
                s_tape[uid].append(x)
                k_tape[uid].append(k)
            w /= Q(sc.p) ** len(slots)
            tr = run(sc.users(), sc.params(), sc.p, TapeRandomness(s_tape, k_tape), rounds=sc.rounds, **kw)
            law[tr.view(who)] += w
    return dict(law)


def centered(x: int, p: int) -> int:
    """``x mod p`` as the representative in ``(-p/2, p/2]`` (a sum of signed values read back from Z_p)."""
    x %= p
    return x - p if x > p // 2 else x


def ideal_law(sc: Scenario, exclude: Hashable | None = None) -> Law:
    """Law of M' = C (or C' without ``exclude``'s share and bit): per round
    ``sum_{l in U'_h, l != exclude} (b_l + share_l)``; rounds independent."""
    share = sc.share_law
    per_round = []
    for rnd in range(sc.rounds):
        members = [(uid, bs) for uid, bs, av in sc.honest if av[rnd] == AVAILABLE and uid != exclude]
        base = sum(bs[rnd] for _, bs in members)
        per_round.append({base + x: p for x, p in sum_law(share, len(members)).items()})
    law: Law = {(): ONE}
    for r in per_round:
        law = {k + (v,): p * q for k, p in law.items() for v, q in r.items()}
    return law


def simulate_view(sc: Scenario, who: Any, v: tuple, coins: dict) -> tuple:
    """The proofs' simulator R: rebuild ``who``'s view from M' outputs ``v`` (one per round), the
    malicious users' inputs (their strategies) and R's own coins (``coins[(uid, rnd)] = (x, k, m)``)."""
    p = sc.p
    tr = Transcript()
    mal = {uid: (bs, strat) for uid, bs, strat in sc.malicious}
    order = [uid for uid, _, _ in sc.honest] + [uid for uid, _, _ in sc.malicious]
    hon = {uid: (bs, av) for uid, bs, av in sc.honest}
    for rnd in range(sc.rounds):
        contrib = 0
        sent_k: dict = {}
        sent_m: dict = {}
        for uid in order:
            if uid in mal:
                bs, strat = mal[uid]
                pair = strat(bs[rnd], tuple(tr.releases))
                if pair is None:
                    continue
                k, m = pair
                if k is not None:
                    sent_k[uid] = int(k) % p
                    contrib -= int(k)
                if m is not None:
                    sent_m[uid] = int(m) % p
                    contrib += int(m)
            elif hon[uid][1][rnd] == AVAILABLE:
                x, k, m = coins[(uid, rnd)]
                if uid == who:  # honest available user u: its own share, key and message
                    b = hon[uid][0][rnd]
                    sent_k[uid], sent_m[uid] = k, (b + x + k) % p
                else:
                    sent_k[uid], sent_m[uid] = k, m
        own = 0
        if who in hon and hon[who][1][rnd] == AVAILABLE:
            own = hon[who][0][rnd] + coins[(who, rnd)][0]
        out = v[rnd] + own + contrib
        for uid in order:
            if uid in sent_k:
                tr.send(Message(uid, SERVER, "k", sent_k[uid], rnd))
            if uid in sent_m:
                tr.send(Message(uid, PROXY, "m", sent_m[uid], rnd))
        s = sum(sent_m.values()) % p
        if who == SERVER:  # s must be consistent with the released value and the keys it saw
            s = (out + sum(sent_k.values())) % p
        elif who == PROXY:
            pass  # s = sum of the (uniform) messages it saw; out comes from v
        tr.send(Message(PROXY, SERVER, "s", s, rnd))
        tr.releases.append(centered(out, p))
    # the order of messages in the real transcript: per round, users' k and m interleaved per user
    return tr.view(who)


def simulator_view_law(sc: Scenario, who: Any) -> Law:
    """Exact law of R(M'(...), L_{P_m ∪ {p}}) for participant ``who`` (None: non-participant;
    SERVER; PROXY; an honest uid; or a tuple of malicious uids).

    R's own coins: the server's simulator draws the honest users' keys uniformly; the proxy's draws
    the honest users' messages uniformly; user u's draws its share X_u and key k_u (Claim 11); the
    non-participant's and a malicious coalition's need none (honest messages are placeholders that
    never enter their views)."""
    honest_ids = [uid for uid, _, _ in sc.honest]
    exclude = who if who in honest_ids else None
    ideal = ideal_law(sc, exclude)
    slots = [(uid, rnd) for rnd in range(sc.rounds) for uid in sc.available(rnd)]
    share = list(sc.share_law.items())
    if who == SERVER or who == PROXY:
        coin_slots = slots
        choices = [[((0, k, 0) if who == SERVER else (0, 0, k), Q(1, sc.p)) for k in range(sc.p)] for _ in coin_slots]
    elif exclude is not None:
        coin_slots = [sl for sl in slots if sl[0] == exclude]
        choices = [[((x, k, 0), px / sc.p) for x, px in share for k in range(sc.p)] for _ in coin_slots]
    else:
        coin_slots, choices = [], []
    law: Law = defaultdict(lambda: ZERO)
    for v, pv in ideal.items():
        for pick in product(*choices):
            coins = {sl: (0, 0, 0) for sl in slots}
            w = pv
            for sl, (c, pc) in zip(coin_slots, pick):
                coins[sl] = c
                w *= pc
            law[simulate_view(sc, who, v, coins)] += w
    return dict(law)


def laws_equal(a: Law, b: Law) -> bool:
    keys = set(a) | set(b)
    return all(a.get(k, ZERO) == b.get(k, ZERO) for k in keys)


def normalised(law: Law) -> Law:
    z = sum(law.values(), ZERO)
    return {k: v / z for k, v in law.items()}


def restrict(log: dict, users: object) -> dict:
    """``L_{U'}`` (000 §2.2.1 "Notation"): the data of the users in U' only; users of U' that are not in
    U contribute nothing, i.e. ``L_{U'} = L_{U ∩ U'}``."""
    keep = set(users)
    return {u: d for u, d in log.items() if u in keep}
