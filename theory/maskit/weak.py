"""Weaker adversaries of 001_eb11505ae1399b83.txt §6 (paper only): set-labelled chains, frequency
knowledge, adversaries as mixtures of possible worlds.

* A *set-labelled generalisation* ``M'`` of ``M`` keeps M's state-ID chain and labels each state ID
  ``a`` with a set ``Π(a)`` of contexts containing its true context (Eqs. 9-10: the true context of
  an ID lies in its set; each context's state lies in exactly one ID).
* An adversary ``A_{M''}`` with ``M' ⪯ M'' ⪯ M`` knows the ID chain and a label distribution
  ``λ_a`` on ``Π''(a) ⊆ Π(a)``; its prior (Eq. 11) is ``Σ_a Pr[X'_t = a] λ_a(s)``.
* :func:`mixture_max_breach` - an adversary unsure which of several complete worlds (chain + system)
  is true: weights, and the joint posterior over worlds (Example 6).
* :func:`frequency_chain` - the chain of an adversary knowing only the per-time frequencies
  (independent X_t with the marginals of M).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Hashable, Iterable, Mapping, Sequence

from privclaims.theory.dp.delta_privacy import FiniteSystem
from privclaims.theory.errors import InvalidInput
from privclaims.theory.maskit import exact
from privclaims.theory.maskit.model import MarkovChain, markov_chain
from privclaims.theory.numbers import ZERO, as_rational, distribution


@dataclass(frozen=True)
class SetLabelled:
    """M' = (ID chain, Π): ``ids`` is a MarkovChain over state IDs, ``Pi[a]`` a frozenset of contexts."""

    ids: MarkovChain
    Pi: Mapping[Hashable, frozenset]

    def sensitive_ids(self, S: Iterable[Hashable]) -> list[Hashable]:
        """S' of Theorem 7: the IDs whose set contains a sensitive context."""
        S = set(S)
        return [a for a in self.ids.contexts if self.Pi[a] & S]

    def mu(self, S: Iterable[Hashable]) -> int:
        """μ = max_{s ∈ S, t} |{a : s ∈ Π(a), Pr[X'_t = a] > 0}| (Theorem 7)."""
        pri = exact.prior_beliefs(self.ids)
        return max(sum(1 for k, a in enumerate(self.ids.contexts) if s in self.Pi[a] and pri[t][k] > 0)
                   for s in set(S) for t in range(self.ids.T))


def set_labelled(ids: MarkovChain, Pi: Mapping[Hashable, Iterable[Hashable]], truth: Mapping[Hashable, Hashable] | None = None) -> SetLabelled:
    """Validate Π: every ID of the chain has a non-empty set; with ``truth`` (ID -> its context in M),
    the set must contain it (M' ⪯ M, Eq. 9)."""
    P = {}
    for a in ids.contexts:
        if a not in Pi or not list(Pi[a]):
            raise InvalidInput(f"state ID {a!r} has no set label Π({a!r})")
        P[a] = frozenset(Pi[a])
        if truth is not None and truth[a] not in P[a]:
            raise InvalidInput(f"Π({a!r}) = {sorted(P[a], key=repr)!r} does not contain the true context {truth[a]!r}")
    for a in Pi:
        ids.index(a)
    return SetLabelled(ids, P)


def label_distribution(M1: SetLabelled, lam: Mapping[Hashable, Mapping[Hashable, object]]) -> dict:
    """Validate an adversary's λ_a (exact distribution supported on Π(a)) for every ID."""
    out = {}
    for a in M1.ids.contexts:
        d = distribution(lam[a], f"λ[{a!r}]")
        for c, v in d.items():
            if v and c not in M1.Pi[a]:
                raise InvalidInput(f"λ[{a!r}] puts mass on {c!r} outside Π({a!r})")
        out[a] = d
    return out


def weak_prior(M1: SetLabelled, lam: Mapping, t: int, s: Hashable) -> Any:
    """Eq. (11): Σ_a Pr[X'_t = a] Pr[s | X'_t = a]."""
    pri = exact.prior_beliefs(M1.ids)
    return sum((pri[t - 1][k] * lam[a].get(s, ZERO) for k, a in enumerate(M1.ids.contexts)), ZERO)


def weak_max_breach_literal(M1: SetLabelled, lam: Mapping, system: FiniteSystem, S: Iterable[Hashable]) -> tuple[Any, Any]:
    """The literal Bayesian adversary A_{M''}: worlds are (ID stream x', label stream ℓ) with
    probability Pr[x'] Π_t λ_{x'_t}(ℓ_t); outputs depend on x' only (F runs on Π-transformed inputs,
    i.e. on IDs). Returns (max over o, t, s of posterior - prior, the maximiser)."""
    S = list(S)
    T = system.horizon
    best = (ZERO - 1, None)
    outs = system.outputs()
    for t in range(1, T + 1):
        for s in S:
            prior = sum((px * lam[x[t - 1]].get(s, ZERO) for x, px in system.prior.items()), ZERO)
            for o in outs:
                po = system.output_probability(o)
                joint = sum((px * system.channel[x].get(o, ZERO) * lam[x[t - 1]].get(s, ZERO) for x, px in system.prior.items()), ZERO)
                g = joint / po - prior
                if g > best[0]:
                    best = (g, (o, t, s))
    return best


def mixture_max_breach(worlds: Sequence[tuple[object, FiniteSystem]], S: Iterable[Hashable]) -> tuple[Any, Any, Any, Any]:
    """An adversary with weights over complete worlds (each a FiniteSystem over label streams):
    max over outputs o, t, s in S of Pr[X_t = s | o] - Pr[X_t = s] in the mixture.
    Returns (gain, output, t, s)."""
    ws = [(as_rational(w, "world weight"), sys) for w, sys in worlds]
    if sum((w for w, _ in ws), ZERO) != 1:
        raise InvalidInput("world weights must sum to 1")
    T = {sys.horizon for _, sys in ws}
    if len(T) != 1:
        raise InvalidInput(f"worlds have different horizons {sorted(T)}")
    T = T.pop()
    outs: dict = {}
    for _, sys in ws:
        for o in sys.outputs():
            outs.setdefault(o, None)
    best = (ZERO - 1, None, 0, None)
    for t in range(1, T + 1):
        for s in S:
            prior = sum((w * px for w, sys in ws for x, px in sys.prior.items() if x[t - 1] == s), ZERO)
            for o in outs:
                po = sum((w * sys.output_probability(o) for w, sys in ws), ZERO)
                joint = sum((w * px * sys.channel[x].get(o, ZERO) for w, sys in ws for x, px in sys.prior.items() if x[t - 1] == s), ZERO)
                g = joint / po - prior
                if g > best[0]:
                    best = (g, o, t, s)
    return best


def frequency_chain(chain: MarkovChain) -> MarkovChain:
    """The model of an adversary knowing only frequencies: X_t independent with M's marginals."""
    pri = exact.prior_beliefs(chain)
    steps = [[list(pri[t - 1]) for _ in range(chain.n)] for t in range(2, chain.T + 1)]
    return markov_chain(chain.contexts, list(pri[0]), steps)
