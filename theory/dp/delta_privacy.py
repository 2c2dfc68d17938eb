"""Definition 6 of 000_211156f2009240b4.txt §2.2.2 (= 001_eb11505ae1399b83.txt Definition 1).

A system ``A`` maps an input stream ``x = (x_1..x_T)`` to an output stream ``o``. With the
adversary's prior ``Pr[x]`` over inputs, ``A`` preserves delta-privacy if for every output ``o``
with ``Pr[o] > 0``, every time ``t`` and every sensitive context ``s``:

    Pr[X_t = s | o] - Pr[X_t = s] <= delta.

This module is the generic, enumerative reference (finite input and output sets given
explicitly); MaskIt's Markov-chain algorithms (``privclaims.theory.maskit``) are checked against it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Hashable, Iterable, Mapping, Sequence

from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import ZERO, as_rational, distribution, rational_str


@dataclass(frozen=True)
class FiniteSystem:
    """``prior[x] = Pr[x]`` over input streams (tuples of equal length T), ``channel[x][o] = Pr[A(x) = o]``."""

    prior: Mapping[tuple, Any]
    channel: Mapping[tuple, Mapping[Hashable, Any]]
    horizon: int

    def output_probability(self, o: Hashable) -> Any:
        return sum((px * self.channel[x].get(o, ZERO) for x, px in self.prior.items()), ZERO)

    def as_json(self) -> dict[str, Any]:
        return {
            "prior": {repr(x): rational_str(p) for x, p in self.prior.items()},
            "channel": {repr(x): {repr(o): rational_str(p) for o, p in row.items()} for x, row in self.channel.items()},
        }

    def outputs(self) -> list[Hashable]:
        seen: dict[Hashable, None] = {}
        for x, px in self.prior.items():
            if px > 0:
                for o, po in self.channel[x].items():
                    if po > 0:
                        seen.setdefault(o, None)
        return list(seen)


def finite_system(prior: Mapping[Sequence, object], channel: Mapping[Sequence, Mapping[Hashable, object]]) -> FiniteSystem:
    """Validate: prior and each channel row are exact distributions; streams have one length."""
    pr = distribution({tuple(x): v for x, v in prior.items()}, "prior")
    lengths = {len(x) for x in pr}
    if len(lengths) != 1:
        raise InvalidInput(f"input streams have different lengths {sorted(lengths)}")
    ch = {}
    for x in pr:
        if x not in {tuple(k) for k in channel}:
            raise InvalidInput(f"channel has no output distribution for input {x!r}")
    for x, row in channel.items():
        x = tuple(x)
        if x not in pr:
            raise InvalidInput(f"channel names input {x!r} that has no prior probability")
        ch[x] = distribution(row, f"Pr[A({x!r}) = .]")
    return FiniteSystem(pr, ch, lengths.pop())


def prior_belief(system: FiniteSystem, t: int, s: Hashable) -> Any:
    """Pr[X_t = s] (t is 1-based)."""
    _check_t(system, t)
    return sum((px for x, px in system.prior.items() if x[t - 1] == s), ZERO)


def posterior_belief(system: FiniteSystem, o: Hashable, t: int, s: Hashable) -> Any:
    """Pr[X_t = s | o] for an output of non-zero probability."""
    _check_t(system, t)
    po = system.output_probability(o)
    if po == 0:
        raise InvalidInput(f"output {o!r} has probability 0; its posterior is undefined")
    joint = sum((px * system.channel[x].get(o, ZERO) for x, px in system.prior.items() if x[t - 1] == s), ZERO)
    return joint / po


def _check_t(system: FiniteSystem, t: int) -> None:
    if not 1 <= t <= system.horizon:
        raise InvalidInput(f"time t = {t} outside 1..{system.horizon}")


@dataclass(frozen=True)
class Breach:
    """The largest ``posterior - prior`` and where it is attained.

    ``output`` is an output o of the system for :func:`max_breach` here. MaskIt's Algorithm 3
    (:func:`privclaims.theory.maskit.exact.max_breach`) stores the partial output ``(t1, i, t2, j)`` instead:
    context index i released at t1 (t1 = 0 is "start"), ⊥ at every t1 < t < t2, context index j
    released at t2 (t2 = T + 1 with j = "end"); :func:`privclaims.maskit.check` writes it as a stream
    with ⊥. ``t`` and ``s`` name the belief Pr[X_t = s | o] that jumps by ``gain``.
    """

    gain: Any
    output: Hashable
    t: int
    s: Hashable

    def as_json(self) -> dict[str, Any]:
        return {"gain": rational_str(self.gain), "output": repr(self.output), "t": self.t, "s": repr(self.s)}


def max_breach(system: FiniteSystem, sensitive: Iterable[Hashable]) -> Breach:
    """max over outputs o (Pr[o] > 0), times t and s in S of Pr[X_t = s | o] - Pr[X_t = s]."""
    S = list(sensitive)
    if not S:
        raise InvalidInput("the set of sensitive contexts is empty")
    best: Breach | None = None
    for o in system.outputs():
        for t in range(1, system.horizon + 1):
            for s in S:
                g = posterior_belief(system, o, t, s) - prior_belief(system, t, s)
                if best is None or g > best.gain:
                    best = Breach(g, o, t, s)
    assert best is not None
    return best


def is_delta_private(system: FiniteSystem, sensitive: Iterable[Hashable], delta: object) -> bool:
    """Definition 6: posterior - prior <= delta everywhere (delta in (0, 1))."""
    d = as_rational(delta, "delta")
    if d <= 0 or d >= 1:
        raise InvalidInput(f"delta = {rational_str(d)} must lie in (0, 1)")
    return max_breach(system, sensitive).gain <= d


def _event_probability(system: FiniteSystem, event: Any, o: Hashable | None = None) -> Any:
    """Pr[event(x)] (o is None) or Pr[event(x) | o]."""
    if o is None:
        return sum((px for x, px in system.prior.items() if event(x)), ZERO)
    po = system.output_probability(o)
    if po == 0:
        raise InvalidInput(f"output {o!r} has probability 0; its posterior is undefined")
    joint = sum((px * system.channel[x].get(o, ZERO) for x, px in system.prior.items() if event(x)), ZERO)
    return joint / po


def set_belief(system: FiniteSystem, t: int, contexts: Iterable[Hashable], o: Hashable | None = None) -> Any:
    """Pr[X_t in S'] (prior, ``o`` None) or Pr[X_t in S' | o] (posterior)."""
    _check_t(system, t)
    Sp = set(contexts)
    return _event_probability(system, lambda x: x[t - 1] in Sp, o)


def window_belief(system: FiniteSystem, window: Iterable[int], s: Hashable, o: Hashable | None = None) -> Any:
    """Pr[X_t = s for some t in the window] (prior) or the same conditioned on ``o`` (posterior)."""
    W = list(window)
    for t in W:
        _check_t(system, t)
    return _event_probability(system, lambda x: any(x[t - 1] == s for t in W), o)
