"""Exact privacy verdicts for your own finite mechanism (000_211156f2009240b4.txt §2.2.1, Definitions 2-4;
003_755c7aa10ef74058.txt §2.2).

A *finite mechanism* ``M`` maps each input ``L`` (a database, a log, a user's bit ...) to an exact
output distribution ``Pr[M(L) = O]``; a neighbour relation says which inputs differ in one user.
For ordered neighbours ``(L, L')`` write ``p(O) = Pr[M(L)=O]``, ``q(O) = Pr[M(L')=O]``:

* **ε-differential privacy** (Definition 2): ``p(O) <= e^ε q(O)`` for all neighbours and outputs.
  The least ``e^ε`` is ``max p(O)/q(O)`` (infinite if some ``q(O) = 0 < p(O)``).
* **(ε,δ)-probabilistic DP** (Definition 3): the outputs split into Ω1, Ω2 with
  ``Pr[M(L) ∈ Ω2] <= δ`` and ``e^-ε q(O) <= p(O) <= e^ε q(O)`` on Ω1. The least δ is the largest
  mass of the *breaching* outputs. ``quantifier="pair"`` is the thesis's order (a split per pair);
  ``"input"`` is 003's (one split per input serving all its neighbours).
* **(ε,δ)-indistinguishability** (Definition 4): ``Pr[M(L) ∈ S] <= e^ε Pr[M(L') ∈ S] + δ`` for every
  set S. The least δ is the hockey-stick divergence ``Σ_O max(0, p(O) - e^ε q(O))``, attained by
  the set ``S = {O : p(O) > e^ε q(O)}`` (polynomial; no enumeration of the 2^|outputs| sets).

ε is exact: ``"ln(3)"`` (then ``e^ε = 3`` and every comparison is rational arithmetic) or a rational
such as ``"1/2"`` (comparisons with ``e^ε`` decided rigorously by interval arithmetic).

File format (JSON), probabilities as exact strings::

    {"inputs": {"yes": {"yes": "3/4", "no": "1/4"},
                "no":  {"yes": "1/4", "no": "3/4"}},
     "neighbours": [["yes", "no"]]}

Each input's row must sum to exactly 1; the neighbour relation is closed under symmetry.

Example::

    >>> from privclaims import dp
    >>> m = dp.load_mechanism("examples/randomized_response.json")
    >>> r = dp.check(m, epsilon="ln(3)", delta="1/10")
    >>> r.holds, r.dp.least
    (True, 'ln(3)')

**What comes back**: :class:`DPReport` (``holds``, one :class:`NotionVerdict` per notion with the exact
least parameter, its decimal rounded *up* — a user copying it never asks for less privacy — and the witness).
Every bad argument (a non-mechanism, ε < 0, δ outside [0, 1], an unknown notion or quantifier, a row not
summing to 1, a float without ``floats=dp.Floats(True)``) raises :class:`privclaims.theory.errors.InvalidInput`.

The exact checkers are :mod:`privclaims.theory.dp.exact`; this module only reads, calls and renders.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Hashable, Mapping

from privclaims.theory.dp import exact as _exact
from privclaims.theory.dp.mechanism import FiniteMechanism, finite_mechanism
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Epsilon, Q, as_rational, to_interval

from privclaims import formats
from privclaims._common import (Floats, check_choice, check_floats, check_int, decimal_up, enclosed_decimal_up, exact, expect,
                                guard, read_distribution, shown)
from privclaims.formats import label

__all__ = ["Floats", "FiniteMechanism", "NotionVerdict", "DPReport", "mechanism", "load_mechanism", "check", "NOTIONS"]

NOTIONS = ("dp", "pdp", "indist")


def mechanism(dist: Mapping[Hashable, Mapping[Hashable, Any]], neighbours: list[tuple[Hashable, Hashable]]) -> FiniteMechanism:
    """Validate and build a finite mechanism: ``dist[L][O] = Pr[M(L) = O]`` (exact values, each row
    summing to 1), ``neighbours`` = pairs of inputs differing in one user (made symmetric)."""
    if not isinstance(dist, Mapping) or not all(isinstance(r, Mapping) for r in dist.values()):
        raise InvalidInput(f"dist = {shown(dist)} must map each input L to a mapping output O -> Pr[M(L) = O]")
    if isinstance(neighbours, (str, bytes, Mapping)) or not isinstance(neighbours, (list, tuple)) or not all(
            isinstance(p, (list, tuple)) and len(p) == 2 for p in neighbours):
        raise InvalidInput(f"neighbours = {shown(neighbours)} must be a list of (input, input) pairs")
    return finite_mechanism(dist, neighbours)


def load_mechanism(source: str | Path | Mapping[str, Any], *, floats: Floats | None = None) -> FiniteMechanism:
    """Read the mechanism format (:data:`privclaims.formats.Mechanism`; a path or an already-parsed dict).
    A JSON number is the decimal written; with ``floats=Floats(True)`` a Python float is read as its
    shortest decimal and a row of numbers summing to 1 within 10^-9 is renormalised (``floats.largest_change``)."""
    floats = check_floats(floats)
    m = formats.parse("mechanism", source, floats)
    dist = {L: read_distribution(row, f"mechanism JSON: inputs[{json.dumps(L, ensure_ascii=False)}]", floats)
            for L, row in m.inputs.items()}
    return finite_mechanism(dist, [tuple(p) for p in m.neighbours])


@dataclass(frozen=True)
class NotionVerdict:
    """One definition's answer: does it hold (None: no threshold was given), the least parameter
    (exact text), its decimal value rounded up (never below the least parameter), and the witness in
    words (where the least value is attained)."""

    notion: str
    holds: bool | None
    least: str
    least_decimal: str
    witness: str
    witness_data: Mapping[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"notion": self.notion, "holds": self.holds, "least": self.least,
                "least_decimal": self.least_decimal, "witness": self.witness, "witness_data": dict(self.witness_data)}


@dataclass(frozen=True)
class DPReport:
    """The verdicts for one mechanism at one (ε, δ)."""

    epsilon: str
    delta: str | None
    dp: NotionVerdict | None
    pdp: NotionVerdict | None
    indist: NotionVerdict | None

    @property
    def verdicts(self) -> list[NotionVerdict]:
        return [v for v in (self.dp, self.pdp, self.indist) if v is not None]

    @property
    def holds(self) -> bool:
        """True iff every notion that was decided holds."""
        return all(v.holds is not False for v in self.verdicts)

    def summary(self) -> str:
        names = {"dp": "ε-differential privacy (Def. 2)", "pdp": "(ε,δ)-probabilistic DP (Def. 3)",
                 "indist": "(ε,δ)-indistinguishability (Def. 4)"}
        lines = [f"ε = {self.epsilon}" + (f", δ = {self.delta}" if self.delta else "")]
        for v in self.verdicts:
            word = {True: "HOLDS", False: "FAILS", None: "(no δ given)"}[v.holds]
            lines.append(f"{names[v.notion]}: {word}; least {'ε' if v.notion == 'dp' else 'δ'} = "
                         f"{v.least} ≈ {v.least_decimal}")
            if v.witness:
                lines.append(f"  {v.witness}")
        return "\n".join(lines)

    def as_json(self) -> dict[str, Any]:
        return {"epsilon": self.epsilon, "delta": self.delta, "holds": self.holds,
                "verdicts": [v.as_json() for v in self.verdicts]}


def _witness_json(wit: Any) -> dict[str, Any]:
    """A witness's inputs and outputs by their names (the strings of the mechanism file, no Python quotes)."""
    j = wit.as_json()
    return {**j, "L": label(wit.L), "L_prime": None if wit.L_prime is None else label(wit.L_prime),
            "outputs": [label(o) for o in wit.outputs]}


WORK_LIMIT = 2 * 10**5
"""dp check costs about (ordered neighbour pairs) x (outputs) exact comparisons per notion, about 10^4 a second
with a rational ε (each p <= e^ε q decided in interval arithmetic) and about 10^6 a second with ε = ln(r);
400 inputs x 400 outputs with all pairs neighbours (~2·10^8) ran silently for minutes."""


def _dp(mech: FiniteMechanism, eps: Epsilon) -> NotionVerdict:
    r = _exact.smallest_exp_epsilon(mech)
    viol = _exact.dp_violations(mech, eps)
    if r is None:
        least, least_dec = "infinite", "inf"
    else:
        least = "0" if r == 1 else f"ln({exact(r)})"
        least_dec = "0" if r == 1 else enclosed_decimal_up(lambda c: c.log(to_interval(r, c)))
    if viol:
        L, Lp, O = viol[0]
        p, q = mech.pr(L, O), mech.pr(Lp, O)
        w = (f"witness: inputs {L!r} and {Lp!r}, output {O!r}: Pr[M({L!r})={O!r}] = {exact(p)} > "
             f"e^ε · Pr[M({Lp!r})={O!r}] = e^({eps}) · {exact(q)}")
        data = {"L": label(L), "L_prime": label(Lp), "output": label(O), "p": exact(p), "q": exact(q)}
        return NotionVerdict("dp", False, least, least_dec, w, data)
    return NotionVerdict("dp", True, least, least_dec, "")


def _pdp(mech: FiniteMechanism, eps: Epsilon, delta: Any, quantifier: str) -> NotionVerdict:
    d, wit = _exact.probabilistic_dp_delta(mech, eps, quantifier)
    holds = None if delta is None else d <= delta
    outs = ", ".join(repr(o) for o in wit.outputs) or "none"
    who = f"inputs {wit.L!r} and {wit.L_prime!r}" if wit.L_prime is not None else f"input {wit.L!r} (all its neighbours)"
    w = f"largest breach at {who}: breaching outputs Ω2 = {{{outs}}} with Pr[M({wit.L!r}) ∈ Ω2] = {exact(d)}"
    return NotionVerdict("pdp", holds, exact(d), decimal_up(d), w, _witness_json(wit))


def _indist(mech: FiniteMechanism, eps: Epsilon, delta: Any) -> NotionVerdict:
    h, wit = _exact.indistinguishability_delta(mech, eps)
    holds = None if delta is None else h.le(delta)
    least = str(h)
    if eps.exp_is_rational:
        least_dec = decimal_up(Q(h.a) - eps.exp_value * Q(h.b))
    else:
        least_dec = enclosed_decimal_up(lambda c: to_interval(h.a, c) - eps.exp_interval(c) * to_interval(h.b, c))
    outs = ", ".join(repr(o) for o in wit.outputs) or "none"
    w = (f"worst set S = {{{outs}}} for inputs {wit.L!r}, {wit.L_prime!r}: "
         f"Pr[M({wit.L!r}) ∈ S] - e^ε Pr[M({wit.L_prime!r}) ∈ S] = {least}")
    return NotionVerdict("indist", holds, least, least_dec, w, _witness_json(wit))


def check(mech: FiniteMechanism, epsilon: object, delta: object = None, notion: str = "all",
          quantifier: str = "pair", *, max_work: int = WORK_LIMIT) -> DPReport:
    """Decide ε-DP, (ε,δ)-probabilistic DP and (ε,δ)-indistinguishability exactly.

    ``epsilon``: ``"ln(3)"``, ``"1/2"``, ... ; ``delta``: exact in [0, 1] (needed for ``pdp`` and
    ``indist``; with ``notion="all"`` and no δ, the least δ values are still reported).
    ``notion``: ``dp``, ``pdp``, ``indist`` or ``all``. ``max_work``: the size guard (ordered neighbour pairs
    times outputs times notions; default 2·10^5, about 20 s with a rational ε and well under a second with
    ε = ln(r)).
    """
    expect(mech, FiniteMechanism, "mech", "a mechanism from dp.mechanism(...) or dp.load_mechanism(...)")
    check_choice(notion, NOTIONS + ("all",), "notion")
    check_choice(quantifier, ("pair", "input"), "quantifier")
    check_int(max_work, "max_work", 1, 10**15)
    notions = 3 if notion == "all" else 1
    guard(len(mech.pairs) * len(mech.outputs) * notions, max_work,
          f"dp check of {len(mech.dist)} inputs, {len(mech.outputs)} outputs and {len(mech.pairs)} ordered neighbour pairs",
          "check one --notion, fewer neighbour pairs, or raise the guard with --max-work N (about 10^4 comparisons a "
          "second with a rational ε, 10^6 with ε = ln(r))",
          unit="comparisons (pairs x outputs x notions)")
    eps = Epsilon.of(epsilon)
    d = None
    if delta is not None:
        d = as_rational(delta, "delta")
        if d < 0 or d > 1:
            raise InvalidInput(f"delta = {exact(d)} is outside [0, 1]")
    elif notion in ("pdp", "indist"):
        raise InvalidInput(f"notion {notion!r} needs --delta")
    want = NOTIONS if notion == "all" else (notion,)
    return DPReport(
        str(eps), None if d is None else exact(d),
        _dp(mech, eps) if "dp" in want else None,
        _pdp(mech, eps, d, quantifier) if "pdp" in want else None,
        _indist(mech, eps, d) if "indist" in want else None,
    )
