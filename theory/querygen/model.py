"""The query generalizer's data model and its input validation (the one place for it).

Source: ``004_66621c1b9afebedf.txt`` (Oh, Kim, Obi), §2 and §4.

* **Auxiliary information** (§2): a table of tuples ``t`` over ``m`` attributes ``a_1..a_m``; each
  attribute ``a_i`` has a *finite* domain ``D_i`` and ``t.a_i ∈ D_i``  (:class:`AuxTable`).
* **Query** (§2): an ordered list ``Q = (v_1, ..., v_m)`` with ``v_i ∈ D_i ∪ {*}``, ``*`` meaning
  "don't care" (:data:`STAR`); a tuple *matches* ``Q`` iff ``t.a_i = v_i`` for every ``v_i ≠ *``.
* **Privacy requirement** (§4): ``(a, G_min)``: ``Q`` is privacy-preserving for ``a`` iff
  ``G(Q, a) ≥ G_min`` (:class:`PrivacyRequirement`). ``G_min ≥ 1`` (a guessing entropy is ≥ 1
  whenever it is defined), and the target ``a`` must be ``*`` in the query (a query that states
  the secret protects nothing).
* **Best-Fit's step** (§4 strategy 2) has two readings (:data:`FIT_CHOICES`, :func:`best_fit_step`): the local
  minimum as printed, or the best fit (least G among single removals that already meet G_min); both twins take it.
* **Brute-Force's tie rule** (§4 strategy 1) has two readings (:data:`TIE_RULES`, :func:`pick_tie`): a random pick
  whenever two or more combinations tie, or (literally "more than two") only when three or more do; both twins take it.
* **ℓ-diversity translation** (§6): ``(a, l)`` becomes ``(a, (l + 1)/2)`` (:func:`g_min_from_l`).

Defined behaviour at the edges (the paper leaves both open):

* A query matching **no** tuple: ``G`` and ``H`` are the empty sums of Eq. (1)/(2), i.e. ``0``;
  since ``G_min ≥ 1`` such a query is never privacy-preserving, so the strategies keep generalising
  (the all-``*`` query matches the whole, non-empty table).
* **No generalisation reaches ``G_min``**: every strategy returns a :class:`Generalization` with
  ``satisfied=False`` and the fully generalised query (every value ``*``), which states nothing
  about the user; callers must treat ``satisfied=False`` as "the requirement cannot be met".
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterable, Mapping, Sequence

from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q, as_rational, rational_str


class _Star:
    """The "don't care" value ``*`` (a singleton; also accepted as the string ``"*"``)."""

    _inst = None

    def __new__(cls) -> "_Star":
        if cls._inst is None:
            cls._inst = super().__new__(cls)
        return cls._inst

    def __repr__(self) -> str:
        return "*"

    def __reduce__(self) -> Any:
        return (_Star, ())


STAR: Any = _Star()


def is_star(v: object) -> bool:
    return v is STAR or (isinstance(v, str) and v == "*")


@dataclass(frozen=True)
class AuxTable:
    """Auxiliary information: ``rows`` over ``attributes`` with finite ``domains`` (ordered tuples)."""

    attributes: tuple[str, ...]
    domains: tuple[tuple[Hashable, ...], ...]
    rows: tuple[tuple[Hashable, ...], ...]
    _index: dict = field(default_factory=dict, init=False, compare=False, repr=False)  # replace() gives a new dict

    @property
    def m(self) -> int:
        return len(self.attributes)

    @property
    def n_rows(self) -> int:
        return len(self.rows)

    def attr_index(self, attribute: str | int) -> int:
        """Position of an attribute given by name or index (:class:`InvalidInput` if unknown)."""
        if isinstance(attribute, int) and not isinstance(attribute, bool):
            if 0 <= attribute < self.m:
                return attribute
            raise InvalidInput(f"attribute index {attribute} outside [0, {self.m})")
        try:
            return self.attributes.index(attribute)  # type: ignore[arg-type]
        except ValueError:
            raise InvalidInput(f"unknown attribute {attribute!r}; known: {list(self.attributes)}") from None

    def derived(self, name: str, compute: Callable[[], Any]) -> Any:
        """A value computed from this (immutable) table once and kept with it, e.g. the fast twin's matrix of domain
        codes: ``compute()`` the first time ``name`` is asked for, the same object afterwards."""
        key = ("derived", name)  # apart from value_code's per-attribute keys
        if key not in self._index:
            self._index[key] = compute()
        return self._index[key]

    def value_code(self, i: int, value: Hashable) -> int:
        """Index of ``value`` in ``D_i``."""
        codes = self._index.get(i)
        if codes is None:
            codes = {v: c for c, v in enumerate(self.domains[i])}
            self._index[i] = codes
        try:
            return codes[value]
        except (KeyError, TypeError):
            raise InvalidInput(
                f"value {value!r} is not in the domain of attribute {self.attributes[i]!r}") from None


def make_table(attributes: Sequence[str], rows: Iterable[Sequence[Hashable]],
               domains: Mapping[str, Iterable[Hashable]] | None = None) -> AuxTable:
    """Validate and build an :class:`AuxTable`.

    ``domains`` defaults to the values observed per attribute (sorted by ``repr`` when unorderable).
    Raises :class:`InvalidInput` for: no attributes, a repeated attribute name, an empty table,
    a row of the wrong length, a value outside the given domain, ``*`` used as a data value.
    """
    attributes = tuple(attributes)
    if not attributes:
        raise InvalidInput("auxiliary table has no attributes")
    if len(set(attributes)) != len(attributes):
        raise InvalidInput(f"repeated attribute name in {list(attributes)}")
    rows = tuple(tuple(r) for r in rows)
    if not rows:
        raise InvalidInput("auxiliary table is empty (no tuples)")
    m = len(attributes)
    for k, r in enumerate(rows):
        if len(r) != m:
            raise InvalidInput(f"row {k} has {len(r)} values, expected {m} ({list(attributes)})")
        for i, v in enumerate(r):
            if is_star(v):
                raise InvalidInput(f"row {k}: '*' is not a data value (attribute {attributes[i]!r})")
            if v is None or (isinstance(v, float) and v != v):
                raise InvalidInput(f"row {k}: value {v!r} (attribute {attributes[i]!r}) is missing: a NaN or None "
                                   "cell can never be matched by a query; drop the row or give the value")
            try:
                hash(v)
            except TypeError:
                raise InvalidInput(f"row {k}: value {v!r} (attribute {attributes[i]!r}) is not hashable") from None
    if domains is None:
        doms = []
        for i in range(m):
            vals = set(r[i] for r in rows)
            try:
                doms.append(tuple(sorted(vals)))
            except TypeError:
                doms.append(tuple(sorted(vals, key=repr)))
    else:
        unknown = set(domains) - set(attributes)
        if unknown:
            raise InvalidInput(f"domain given for unknown attribute(s) {sorted(unknown)}")
        doms = []
        for i, a in enumerate(attributes):
            if a not in domains:
                raise InvalidInput(f"no domain given for attribute {a!r}")
            d = tuple(dict.fromkeys(domains[a]))
            if not d:
                raise InvalidInput(f"domain of attribute {a!r} is empty")
            doms.append(d)
        for k, r in enumerate(rows):
            for i, v in enumerate(r):
                if v not in doms[i]:
                    raise InvalidInput(f"row {k}: value {v!r} is not in the domain of attribute {attributes[i]!r}")
    return AuxTable(attributes, tuple(doms), rows)


def make_query(table: AuxTable, values: Sequence[Hashable] | Mapping[str, Hashable]) -> tuple:
    """A validated query ``(v_1, ..., v_m)``: a full list (``"*"`` / :data:`STAR` for don't care) or a
    mapping ``{attribute: value}`` (unnamed attributes are ``*``). Unknown attribute or value → error."""
    if isinstance(values, Mapping):
        q = [STAR] * table.m
        for a, v in values.items():
            q[table.attr_index(a)] = v
    else:
        q = list(values)
        if len(q) != table.m:
            raise InvalidInput(f"query has {len(q)} values, the table has {table.m} attributes {list(table.attributes)}")
    out = []
    for i, v in enumerate(q):
        if is_star(v):
            out.append(STAR)
        else:
            table.value_code(i, v)  # raises on an unknown value
            out.append(v)
    return tuple(out)


@dataclass(frozen=True)
class PrivacyRequirement:
    """``(a, G_min)`` of §4: the target attribute (name or index) and the least guessing entropy (≥ 1)."""

    attribute: str | int
    g_min: Any

    def __post_init__(self) -> None:
        g = as_rational(self.g_min, "G_min")
        if g < 1:
            raise InvalidInput(f"G_min = {rational_str(g)} < 1: a guessing entropy is at least 1, use G_min >= 1")
        object.__setattr__(self, "g_min", g)


def strictly_above(table: AuxTable, req: PrivacyRequirement) -> PrivacyRequirement:
    """The requirement ``G(Q, a) > G_min`` (§4's gloss 'more than G_min times on average') as a ``≥``
    requirement on ``table``: G(Q, a) = Σ i·c_i / M with M ≤ N = table.n_rows matching tuples, so G − G_min,
    when positive, is at least 1/(M·den(G_min)) ≥ 1/(N·den(G_min)); hence on this table
    ``G > G_min ⇔ G ≥ G_min + 1/(N·den(G_min))``."""
    if not isinstance(table, AuxTable):
        raise InvalidInput(f"table = {table!r} must be an AuxTable (make_table)")
    g = req.g_min
    return PrivacyRequirement(req.attribute, g + Q(1, max(table.n_rows, 1) * g.denominator))


def g_min_from_l(l: object) -> Any:
    """§6: the ℓ-diversity requirement ``(a, l)`` is translated into ``G_min = (l + 1)/2``."""
    lq = as_rational(l, "l")
    if lq < 1 or lq.denominator != 1:
        raise InvalidInput(f"l = {rational_str(lq)} must be an integer >= 1")
    return (lq + 1) / 2


def validate_request(table: AuxTable, query: Sequence[Hashable] | Mapping[str, Hashable],
                     req: PrivacyRequirement) -> tuple[tuple, int]:
    """Validate a (table, query, requirement) triple; returns ``(query, target index)``.

    The target attribute must be known and must be ``*`` in the query."""
    from privclaims.theory.validate import instance

    instance(table, AuxTable, "table", "(build it with make_table)")
    instance(req, PrivacyRequirement, "req", "(a PrivacyRequirement(attribute, g_min))")
    q = make_query(table, query)
    t = table.attr_index(req.attribute)
    if not is_star(q[t]):
        raise InvalidInput(
            f"target attribute {table.attributes[t]!r} is fixed to {q[t]!r} in the query: "
            "the query would state the secret; set it to '*'")
    return q, t


def fixed_positions(query: Sequence[Hashable]) -> tuple[int, ...]:
    """Indices ``i`` with ``v_i ≠ *``."""
    return tuple(i for i, v in enumerate(query) if not is_star(v))


def remove(query: Sequence[Hashable], positions: Iterable[int]) -> tuple:
    """The generalisation of ``query`` with ``v_i`` replaced by ``*`` for ``i`` in ``positions``."""
    pos = set(positions)
    return tuple(STAR if i in pos else v for i, v in enumerate(query))


def all_star(m: int) -> tuple:
    return (STAR,) * m


# ---------------------------------------------------------------- shared randomness of the twins


def random_removal_order(fixed: Sequence[int], seed: int) -> list[int]:
    """Random-Fit's choices: at each step a uniformly random remaining ``v_i ≠ *`` is removed; the
    sequence of choices is a uniformly random permutation of the fixed positions (seeded)."""
    return random.Random(seed).sample(list(fixed), len(fixed))


TIE_RULES = ("two-or-more", "more-than-two")


def check_ties(ties: str) -> str:
    """``ties`` reads Brute-Force's tie rule (:data:`TIE_RULES`, :func:`pick_tie`)."""
    if ties not in TIE_RULES:
        raise InvalidInput(f"ties = {ties!r}: use one of {TIE_RULES}")
    return ties


def pick_tie(candidates: Sequence[Any], seed: int, ties: str = "two-or-more") -> Any:
    """Brute-Force's tie rule (§4 strategy 1, "If more than two combinations have an identical entropy value, one of
    them is randomly selected"), read by ``ties``: ``"two-or-more"`` — one of the equally good combinations,
    uniformly at random (seeded), whenever two or more tie; ``"more-than-two"`` (literally) — uniformly at random
    when three or more tie, while a tie of exactly two, which that reading leaves open, keeps the first in the
    canonical order (one of the ways it allows). ``candidates`` must be in a canonical order so both twins pick the
    same one."""
    check_ties(ties)
    if len(candidates) == 1 or (len(candidates) == 2 and ties == "more-than-two"):
        return candidates[0]
    return random.Random(seed).choice(list(candidates))


@dataclass(frozen=True)
class Generalization:
    """A strategy's answer: the generalised query ``Q̂``, ``G(Q̂, a)`` as ``num/den`` (den = N, the
    number of matching tuples), whether ``G ≥ G_min`` holds, and counters of the work done."""

    strategy: str
    query: tuple
    removed: tuple[int, ...]  # positions set to * (in removal order for the greedy strategies)
    g_num: int
    n_match: int
    satisfied: bool
    evaluations: int  # guessing-entropy evaluations performed

    @property
    def guessing_entropy(self) -> Any:
        return Q(self.g_num, self.n_match) if self.n_match else Q(0)

    @property
    def traffic(self) -> int:
        """Traffic overhead (§5): number of tuples of the provider's database (= the table) matching Q̂."""
        return self.n_match

    def as_json(self) -> dict[str, Any]:
        return {"strategy": self.strategy, "query": [repr(v) if v is STAR else v for v in self.query],
                "removed": list(self.removed), "G": rational_str(self.guessing_entropy), "traffic": self.n_match,
                "satisfied": self.satisfied, "evaluations": self.evaluations}


STRATEGIES = ("brute_force", "best_fit", "worst_fit", "random_fit")


FIT_CHOICES = ("local-min", "fit")


def best_fit_step(vals: dict[Any, Any], meets: Any, choice: str = "local-min") -> list[Any]:
    """Best-Fit's admissible removals from the single-removal entropies ``vals`` (removal → G of the query without
    it): ``"local-min"`` — those of least G (§4 strategy 2, "to minimize the G(Q̂, a) locally"); ``"fit"`` — among the
    removals whose query already meets the requirement (``meets(removal)``) those of least G, and when none does,
    those of least G overall (the query of least G "while staying over G_min", §4)."""
    check_choice("best_fit", choice)
    pool = {i: v for i, v in vals.items() if meets(i)} if choice == "fit" else {}
    pool = pool or vals
    best = min(pool.values())
    return [i for i, v in pool.items() if v == best]


def check_strategy(name: str) -> str:
    if name not in STRATEGIES:
        raise InvalidInput(f"unknown strategy {name!r}; choose from {STRATEGIES}")
    return name


def check_choice(strategy: str, choice: str) -> str:
    """``choice`` reads Best-Fit's step (:data:`FIT_CHOICES`); the other strategies have one reading, "local-min"."""
    if choice not in FIT_CHOICES:
        raise InvalidInput(f"choice = {choice!r}: use one of {FIT_CHOICES}")
    if choice != "local-min" and strategy != "best_fit":
        raise InvalidInput(f"choice = {choice!r} for {strategy!r}: only Best-Fit's step has the 'fit' reading")
    return choice
