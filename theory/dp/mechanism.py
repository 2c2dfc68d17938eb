"""Finite mechanisms: an exact output distribution for each input, and a neighbour relation.

A mechanism ``M`` over a finite set of inputs (logs) maps each input ``L`` to a distribution
``Pr[M(L) = O]`` over a finite output space. Neighbouring inputs differ in one user's data; the
relation is symmetric, so we store its symmetric closure as ordered pairs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Hashable, Iterable, Mapping

from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import ZERO, distribution


@dataclass(frozen=True)
class FiniteMechanism:
    """``dist[L][O] = Pr[M(L) = O]`` (exact), ``pairs`` = ordered neighbouring pairs (L, L')."""

    dist: Mapping[Hashable, Mapping[Hashable, Any]]
    pairs: tuple[tuple[Hashable, Hashable], ...]

    @property
    def inputs(self) -> list[Hashable]:
        return list(self.dist)

    @property
    def outputs(self) -> list[Hashable]:
        seen: dict[Hashable, None] = {}
        for d in self.dist.values():
            for o in d:
                seen.setdefault(o, None)
        return list(seen)

    def pr(self, L: Hashable, O: Hashable) -> Any:
        """Pr[M(L) = O] (zero for outputs L never produces)."""
        return self.dist[L].get(O, ZERO)

    def neighbours_of(self, L: Hashable) -> list[Hashable]:
        return [b for a, b in self.pairs if a == L]

    def as_json(self) -> dict[str, Any]:
        """Inputs and outputs by ``repr``; probabilities as exact ``"p/q"`` strings."""
        from privclaims.theory.numbers import rational_str

        return {
            "dist": {repr(L): {repr(O): rational_str(p) for O, p in d.items()} for L, d in self.dist.items()},
            "neighbours": [[repr(a), repr(b)] for a, b in self.pairs],
        }


def finite_mechanism(
    dist: Mapping[Hashable, Mapping[Hashable, object]],
    neighbours: Iterable[tuple[Hashable, Hashable]],
) -> FiniteMechanism:
    """Validate and build a :class:`FiniteMechanism`.

    Each ``dist[L]`` must be an exact distribution (entries in [0, 1] summing to 1); every
    neighbour must be a known input and differ from its partner. The neighbour relation is
    closed under symmetry.
    """
    if not dist:
        raise InvalidInput("mechanism has no inputs")
    clean = {L: distribution(d, f"Pr[M({L!r}) = .]") for L, d in dist.items()}
    pairs: dict[tuple[Hashable, Hashable], None] = {}
    for pair in neighbours:
        try:
            a, b = pair
        except (TypeError, ValueError):
            raise InvalidInput(f"neighbour {pair!r} is not a pair of inputs") from None
        for x in (a, b):
            if x not in clean:
                raise InvalidInput(f"neighbour pair {pair!r} names the unknown input {x!r}")
        if a == b:
            raise InvalidInput(f"input {a!r} cannot neighbour itself")
        pairs.setdefault((a, b), None)
        pairs.setdefault((b, a), None)
    if not pairs:
        raise InvalidInput("mechanism has no neighbouring inputs")
    return FiniteMechanism(clean, tuple(pairs))


# ------------------------------------------------------------- the checkers' boundary (both twins)


def checked(mech: object) -> FiniteMechanism:
    """``mech`` must be a :class:`FiniteMechanism` (built, hence validated, by :func:`finite_mechanism`)."""
    from privclaims.theory.validate import instance

    return instance(mech, FiniteMechanism, "mech", "(build it with finite_mechanism)")


def check_quantifier(quantifier: object) -> str:
    """Definition 3's quantifier order: ``"pair"`` (000, a split per ordered pair) or ``"input"`` (003)."""
    from privclaims.theory.validate import choice

    return choice(quantifier, ("pair", "input"), "quantifier ('pair' = 000's order, 'input' = 003's)")


def check_delta(delta: object) -> Any:
    """δ of Definitions 3-4: an exact rational in [0, 1]."""
    from privclaims.theory.numbers import probability

    return probability(delta, "delta")


def check_inputs(mech: object, *inputs: Hashable) -> FiniteMechanism:
    """Each of ``inputs`` must be an input of ``mech``."""
    m = checked(mech)
    for L in inputs:
        try:
            known = L in m.dist
        except TypeError:
            known = False
        if not known:
            raise InvalidInput(f"input {L!r} is not an input of mech (inputs: {m.inputs[:5]!r}{'...' if len(m.inputs) > 5 else ''})")
    return m
