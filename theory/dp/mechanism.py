"""Finite mechanisms: an exact output distribution for each input, and a neighbour relation.

A mechanism ``M`` over a finite set of inputs (logs) maps each input ``L`` to a distribution
``Pr[M(L) = O]`` over a finite output space. Neighbouring inputs differ in one user's data; the
relation is symmetric, so we store its symmetric closure as ordered pairs.
"""

from __future__ import annotations

import itertools
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


# ------------------------------------------------------------- logs of users and the neighbour relation's readings
# 000 Definitions 2 and 4 quantify over logs "differing in the data of a single user", glossed as "changing/omitting
# the complete data of a single user"; Definition 3 says "adding or deleting". A log here is a tuple of (user, data)
# pairs sorted by user, one pair per user with data (a user with an empty history is absent). The two relations:
#   "add-delete": L' is L with one user's pair added or removed;
#   "replace":    L and L' differ in one user's data, absence being the empty history (so it contains "add-delete").

NEIGHBOUR_RELATIONS = ("add-delete", "replace")
_ABSENT = object()  # a user's data in a log without that user (compared unequal to any data)


def _as_log(L: object) -> dict:
    """The mapping user -> data of a log, or InvalidInput naming what is wrong."""
    if not isinstance(L, tuple):
        raise InvalidInput(f"log {L!r} is not a tuple of (user, data) pairs")
    users: dict = {}
    for entry in L:
        if not (isinstance(entry, tuple) and len(entry) == 2):
            raise InvalidInput(f"log {L!r}: entry {entry!r} is not a (user, data) pair")
        u, d = entry
        if u in users:
            raise InvalidInput(f"log {L!r}: user {u!r} has two entries (one history per user)")
        users[u] = d
    if list(users) != sorted(users, key=repr):
        raise InvalidInput(f"log {L!r}: entries not sorted by user (a log has one spelling)")
    return users


def log_of(users: Mapping[Hashable, Hashable]) -> tuple:
    """The log (sorted (user, data) pairs) of a mapping user -> data."""
    return tuple(sorted(users.items(), key=lambda kv: repr(kv[0])))


def all_logs(users: Iterable[Hashable], values: Iterable[Hashable]) -> list[tuple]:
    """Every log over ``users``: each user absent (empty history) or holding one of ``values``."""
    us, vs = list(users), list(values)
    out = []
    for pick in itertools.product([None, *vs], repeat=len(us)):
        out.append(log_of({u: v for u, v in zip(us, pick) if v is not None}))
    return out


def are_neighbours(L: object, Lp: object, relation: str) -> bool:
    """Whether logs ``L`` and ``Lp`` are neighbours under ``relation`` (one of :data:`NEIGHBOUR_RELATIONS`)."""
    from privclaims.theory.validate import choice

    relation = choice(relation, NEIGHBOUR_RELATIONS, "relation")
    a, b = _as_log(L), _as_log(Lp)
    differ = [u for u in set(a) | set(b) if a.get(u, _ABSENT) != b.get(u, _ABSENT)]
    if len(differ) != 1:
        return False
    u = differ[0]
    return relation == "replace" or (u in a) != (u in b)


def neighbouring_logs(logs: Iterable[object], relation: str) -> list[tuple[tuple, tuple]]:
    """The neighbouring pairs (each unordered pair once, in the order of ``logs``) among ``logs`` under ``relation``."""
    ls = list(logs)
    return [(ls[i], ls[j]) for i in range(len(ls)) for j in range(i + 1, len(ls)) if are_neighbours(ls[i], ls[j], relation)]


def log_mechanism_problems(mech: object, relation: str) -> list[str]:
    """What makes ``mech`` not a mechanism on logs under ``relation``: an input that is not a log, or a neighbour
    pair that the relation does not give, or a pair of its inputs the relation gives that it lacks (empty: inside)."""
    m = checked(mech)
    problems = []
    for L in m.inputs:
        try:
            _as_log(L)
        except InvalidInput as e:
            problems.append(str(e))
    if problems:
        return problems
    want = {(a, b) for a, b in neighbouring_logs(m.inputs, relation)}
    want |= {(b, a) for a, b in want}
    have = set(m.pairs)
    problems += [f"pair {p!r} is not neighbouring under {relation!r}" for p in sorted(have - want, key=repr)]
    problems += [f"neighbours {p!r} under {relation!r} are not a pair of the mechanism" for p in sorted(want - have, key=repr)]
    return problems
