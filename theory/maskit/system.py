"""The MaskIt system (Algorithm 1 of 000_211156f2009240b4.txt §3.3 / 001_eb11505ae1399b83.txt §2.1),
its checks as objects, sampling from a chain, and the literal (enumerative) systems that
:mod:`privclaims.theory.dp.delta_privacy` checks against Definition 6.

    MASKIT(δ, M, S): initialize(δ, M, S); o = "start";
        for t = 1..T: c_i = current context; o_t = c_i if okayToRelease(c_i, t, o) else ⊥; o = o, o_t
        o = o, "end"
"""

from __future__ import annotations

from itertools import product
from typing import Any, Hashable, Iterable, Protocol, Sequence

import numpy as np

from privclaims.theory.dp.delta_privacy import FiniteSystem, finite_system
from privclaims.theory.errors import InvalidInput
from privclaims.theory.maskit import exact
from privclaims.theory.maskit.exact_base import OpCount
from privclaims.theory.maskit.model import MarkovChain, check_delta, sensitive_indices, suppression_vector
from privclaims.theory.numbers import ONE, ZERO

BOT_LABEL = "⊥"


class Check(Protocol):
    def initialize(self) -> None: ...

    def okay_to_release(self, i: int, t: int, prefix: Sequence[int | None]) -> bool: ...


DRAW_STEPS = 2**53  # numpy's Generator.random() returns k / 2^53, k uniform on {0, ..., 2^53 - 1}


def suppress_coin(p: Any, rng: Any) -> bool:
    """True with probability exactly p (a rational in [0, 1]): is U < p for U uniform on [0, 1)? U is read 53 bits
    at a time from ``rng.random()`` (each draw k / 2^53, exactly) until the cell of U read so far lies wholly below p
    (True) or at or above it (False); only a draw whose cell holds p inside asks for another (probability 2^-53),
    so the draws, and the seeded outputs, are those of ``rng.random() < float(p)`` except there. That float rule
    suppresses with probability ``float(p)`` on the 2^-53 grid, below p where it rounds down (p = 2/3): a policy
    certified exactly at δ would then be run with less suppression than certified and breach δ."""
    a, b = int(p.numerator), int(p.denominator)
    K, scale = 0, 1
    while True:
        u = rng.random()
        k = u * DRAW_STEPS
        if not (0 <= k < DRAW_STEPS and float(k).is_integer()):
            raise InvalidInput(f"rng.random() = {u!r} is not a draw k / 2^53 in [0, 1)")
        K, scale = K * DRAW_STEPS + int(k), scale * DRAW_STEPS
        if (K + 1) * b <= a * scale:  # the whole cell [K, K + 1) / scale lies below p
            return True
        if K * b >= a * scale:  # the whole cell lies at or above p
            return False


class ProbabilisticCheck:
    """okayToRelease(c_i, t', ·) returns false with probability p_i^{t'} (Algorithm 2/3), exactly
    (:func:`suppress_coin`): the law the exact re-check of p certifies."""

    def __init__(self, chain: MarkovChain, p: Any, rng: np.random.Generator) -> None:
        self.p = suppression_vector(chain, p)
        self.rng = rng

    def initialize(self) -> None:
        return None

    def okay_to_release(self, i: int, t: int, prefix: Sequence[int | None]) -> bool:
        return not suppress_coin(self.p[t - 1][i], self.rng)


class SimulatableCheck:
    """Algorithm 4/5 through a twin module (``exact`` or ``fast``); with Algorithm 5 the decision
    depends only on (last release, its time, t') - Claim 7 - so decisions are memoised on that key; with
    Algorithm 4 it is a function of the output prefix (the input is never read), memoised on the prefix.

    ``ops`` (optional, an OpCount): every okayToRelease call adds the work its decision computes
    (the algorithm's work for that call, as if it were not memoised) and counts one decision in
    ``decisions``; the memo only saves recomputing it."""

    def __init__(self, chain: MarkovChain, S: Iterable[Hashable], delta: object, twin: Any = exact, improved: bool = True,
                 ops: Any = None) -> None:
        self.chain, self.S, self.delta, self.twin, self.improved = chain, list(S), check_delta(delta), twin, improved
        sensitive_indices(chain, self.S)
        self.memo: dict = {}
        self.ops, self.decisions = ops, 0

    def initialize(self) -> None:
        return None

    def okay_to_release(self, i: int, t: int, prefix: Sequence[int | None]) -> bool:
        self.decisions += 1
        if self.improved:  # Claim 7: the decision depends on (last release, t') only
            rel = [(k, o) for k, o in enumerate(prefix, start=1) if o is not None]
            key: tuple = (rel[-1] if rel else (0, None), t)
        else:  # Algorithm 4 decides on the output prefix alone (never on the input i): a pure function of it
            key = ("prefix", tuple(prefix))
        if key not in self.memo:
            count = OpCount()
            self.memo[key] = (self.twin.okay_to_release(self.chain, self.S, self.delta, prefix,
                                                        improved=self.improved, ops=count), count)
        answer, count = self.memo[key]
        if self.ops is not None:  # the work of this call as if it were not memoised
            self.ops.beliefs += count.beliefs
            self.ops.mult_adds += count.mult_adds
            self.ops.skipped_by_cache += count.skipped_by_cache
            self.ops.is_private_calls += count.is_private_calls
        return answer


class MaskSensitive:
    """The naive system: suppress exactly the sensitive contexts (000 §3.7.1)."""

    def __init__(self, chain: MarkovChain, S: Iterable[Hashable]) -> None:
        self.sens = set(sensitive_indices(chain, S))

    def initialize(self) -> None:
        return None

    def okay_to_release(self, i: int, t: int, prefix: Sequence[int | None]) -> bool:
        return i not in self.sens


def maskit(chain: MarkovChain, check: Check, inputs: Sequence[int]) -> tuple[int | None, ...]:
    """Algorithm 1: the output o_1..o_T (None = ⊥; "start"/"end" implicit) for one day's input."""
    if len(inputs) != chain.T:
        raise InvalidInput(f"input stream of length {len(inputs)}, expected T = {chain.T}")
    check.initialize()
    out: list[int | None] = []
    for t, c in enumerate(inputs, start=1):
        if not (isinstance(c, (int, np.integer)) and 0 <= c < chain.n):
            raise InvalidInput(f"input entry {c!r} at t = {t} is not a context index of the chain")
        out.append(int(c) if check.okay_to_release(int(c), t, tuple(out)) else None)
    return tuple(out)


def sample_traces(chain: MarkovChain, m: int, rng: np.random.Generator) -> list[tuple[int, ...]]:
    """m input streams drawn from M (float sampling; only for Monte-Carlo estimates)."""
    from privclaims.theory.maskit.fast import float_chain

    init, steps = float_chain(chain)
    cum0 = np.cumsum(init)
    cums = np.cumsum(steps, axis=2) if len(steps) else steps
    out = []
    for _ in range(m):
        x = [int(min(np.searchsorted(cum0, rng.random(), side="right"), chain.n - 1))]
        for t in range(2, chain.T + 1):
            row = cums[t - 2][x[-1]]
            x.append(int(min(np.searchsorted(row, rng.random() * row[-1], side="right"), chain.n - 1)))
        out.append(tuple(x))
    return out


def _label(chain: MarkovChain, o: Sequence[int | None]) -> tuple:
    return tuple(BOT_LABEL if v is None else chain.contexts[v] for v in o)


def probabilistic_system(chain: MarkovChain, p: Any) -> FiniteSystem:
    """The literal system of Definition 6 for the probabilistic check: every input stream and the
    exact distribution of its outputs (each position released w.p. 1 - p_i^t, independently)."""
    p = suppression_vector(chain, p)
    prior, channel = {}, {}
    for x, px in exact.input_streams(chain).items():
        lab = tuple(chain.contexts[i] for i in x)
        prior[lab] = px
        dist: dict[tuple, Any] = {}
        for mask in product((False, True), repeat=chain.T):
            pr = ONE
            for t, (i, sup) in enumerate(zip(x, mask), start=1):
                pr *= p[t - 1][i] if sup else ONE - p[t - 1][i]
            if pr:
                o = _label(chain, [None if sup else i for i, sup in zip(x, mask)])
                dist[o] = dist.get(o, ZERO) + pr
        channel[lab] = dist
    return finite_system(prior, channel)


def deterministic_system(chain: MarkovChain, check: Check) -> FiniteSystem:
    """The literal system for a deterministic check (simulatable, MaskSensitive): Pr[o | x] ∈ {0, 1}."""
    prior, channel = {}, {}
    for x, px in exact.input_streams(chain).items():
        lab = tuple(chain.contexts[i] for i in x)
        prior[lab] = px
        channel[lab] = {_label(chain, maskit(chain, check, x)): ONE}
    return finite_system(prior, channel)


def expected_releases(chain: MarkovChain, check: Check) -> Any:
    """Σ_x Pr[x] · |{t : o_t ≠ ⊥}| by enumerating every input (deterministic checks)."""
    return sum((px * sum(o is not None for o in maskit(chain, check, x)) for x, px in exact.input_streams(chain).items()), ZERO)
