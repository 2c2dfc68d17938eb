"""The query generalizer on your own table (004_66621c1b9afebedf.txt §3-§5).

A client asks a provider a query ``Q = (v_1, ..., v_m)`` over the attributes of a table (``*`` =
any value). An adversary who sees Q and knows the table (the auxiliary information) guesses the
client's secret *target attribute* a among the values of the tuples matching Q. Its **guessing
entropy** (Eq. 1) is

    G(Q, a) = Σ_i i · p_(i)      (p_(1) >= p_(2) >= ... the value frequencies among matching tuples),

the expected number of guesses. The privacy requirement ``(a, G_min)`` asks ``G(Q̂, a) >= G_min`` as §4 defines
"privacy-preserving"; the sentence after it says the adversary must guess "more than G_min times on average",
``G > G_min``. The two differ exactly at ``G = G_min``: a result there is marked (``at_equality``), and
``strict=True`` runs every strategy for ``G > G_min``
(:func:`privclaims.theory.querygen.model.strictly_above`). The client *generalises* Q to Q̂ by replacing fixed
values with ``*`` (§4):

* **brute** (Brute-Force) — of all 2^k generalisations of the k fixed values, the one with the least
  G subject to G >= G_min (exponential: refused above 2^20 candidates; use best);
* **best** (Best-Fit) / **worst** (Worst-Fit) — remove one value at a time, the one giving the least
  / greatest G, until G >= G_min (polynomial: at most k² evaluations);
* **random** (Random-Fit) — remove uniformly random values (seeded) until G >= G_min.

The **traffic** is the number of tuples matching Q̂ (what the provider sends back).

**Table format (CSV)**: a header row of attribute names, then one tuple per row (values as text).

Example::

    >>> from privclaims import querygen
    >>> t = querygen.load_table("examples/patients.csv")
    >>> r = querygen.generalize(t, {"zip": "13053", "sex": "F"}, target="disease", g_min="3/2")
    >>> r.holds
    True

**What comes back**: :class:`GeneralizeReport` (the original G and one :class:`QueryResult` per strategy:
Q̂, the removed attributes, G exact and as a decimal rounded *down* — never above the real privacy —,
the traffic and whether G_min is met). Bad arguments (a non-table, a query that is not a mapping of
attribute names to values of the table, an unknown target or strategy, a seed outside [0, 2^63)) raise
:class:`privclaims.theory.errors.InvalidInput`; Brute-Force is refused above 2^20 candidates, naming Best-Fit.

Exact twin: :mod:`privclaims.theory.querygen.exact` (G as an exact fraction num/N).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from privclaims.theory.errors import InvalidInput
from privclaims.theory.validate import refuse_byte_order_mark
from privclaims.theory.querygen import exact as _exact
from privclaims.theory.querygen.model import (AuxTable, Generalization, PrivacyRequirement, fixed_positions, is_star,
                                               make_table, strictly_above, validate_request)

from privclaims._common import (as_path, check_choice, check_flag, check_seed, exact, exact_and_decimal,
                                exact_or_decimal, expect, guard, number_json, shown)

__all__ = ["AuxTable", "QueryResult", "GeneralizeReport", "load_table", "parse_query", "generalize", "STRATEGIES"]

STRATEGIES = {"brute": "brute_force", "best": "best_fit", "worst": "worst_fit", "random": "random_fit"}
BRUTE_LIMIT = 1 << 20


def load_table(path: str | Path) -> AuxTable:
    """Read a CSV table (header row = attribute names)."""
    p = as_path(path, "table file")
    if not p.is_file():
        raise InvalidInput(f"table file {str(p)!r} does not exist or is not a file")
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"table file {str(p)!r} is not UTF-8 text (byte {exc.start})") from None
    refuse_byte_order_mark(text, f"table file {str(p)!r}")
    # a blank line is skipped; a line of separators only (",,") is a row of empty cells, refused below
    reader = csv.reader(io.StringIO(text, newline=""))
    lines = [(reader.line_num, [c.strip() for c in r]) for r in reader if r and not (len(r) == 1 and not r[0].strip())]
    if not lines:
        raise InvalidInput(f"{p}: empty table (no header row)")
    (_, header), body = lines[0], lines[1:]
    seen: set[str] = set()
    for a in header:
        if not a:
            raise InvalidInput(f"{p}:1: an empty attribute name in the header {header!r}")
        if a in seen:
            raise InvalidInput(f"{p}:1: attribute {a!r} appears twice in the header (names must be unique)")
        seen.add(a)
    for k, r in body:
        if len(r) != len(header):
            raise InvalidInput(f"{p}:{k}: {len(r)} values, the header has {len(header)} attributes")
        for a, v in zip(header, r):
            if not v:
                raise InvalidInput(f"{p}:{k}: attribute {a!r} has no value (an empty cell is not a value of its "
                                   "domain: it would count as one more guessable value; drop the row or give the value)")
    return make_table(header, [r for _, r in body])


def parse_query(text: str) -> dict[str, str]:
    """``"zip=13053,sex=F"`` -> ``{"zip": "13053", "sex": "F"}`` (unnamed attributes are ``*``)."""
    if not isinstance(text, str):
        raise InvalidInput(f"query text = {shown(text)} must be a string such as 'zip=13053,sex=F'")
    out: dict[str, str] = {}
    for part in (x.strip() for x in text.split(",")):
        if not part:
            continue
        if "=" not in part:
            raise InvalidInput(f"query part {part!r} is not attribute=value")
        a, v = (s.strip() for s in part.split("=", 1))
        if not a:
            raise InvalidInput(f"query part {part!r} names no attribute (expected attribute=value)")
        if a in out:
            raise InvalidInput(f"query names attribute {a!r} twice")
        out[a] = v
    if not out:
        raise InvalidInput(f"query {text!r} fixes no attribute")
    return out


@dataclass(frozen=True)
class QueryResult:
    """One strategy's generalised query Q̂, G(Q̂, a) exact, the traffic and whether it meets the requirement
    (G >= G_min, or G > G_min under ``strict``); ``at_equality``: G = G_min exactly (met as §4 defines it, not as
    'more than G_min')."""

    strategy: str
    query: str
    removed: tuple[str, ...]
    g: Any
    traffic: int
    holds: bool
    evaluations: int
    at_equality: bool = False

    def as_json(self) -> dict[str, Any]:
        return {"strategy": self.strategy, "query": self.query, "removed": list(self.removed), "G": number_json(self.g, "down"),
                "traffic": self.traffic, "holds": self.holds, "at_equality": self.at_equality,
                "evaluations": self.evaluations}


@dataclass(frozen=True)
class GeneralizeReport:
    """The original query's G and the strategies' answers; ``holds`` iff every strategy met G_min.
    ``original_traffic``: the tuples the original query matches; with none, Eq. (2)'s frequencies are undefined and G
    is shown as undefined (such a query does not meet G_min: ``theory.querygen.exact.meets_g_min`` needs a match, so
    the strategies generalise it)."""

    target: str
    g_min: Any
    original: str
    original_g: Any
    results: tuple[QueryResult, ...]
    skipped: tuple[tuple[str, str], ...] = ()
    strict: bool = False
    original_traffic: int | None = None

    @property
    def original_matches_nothing(self) -> bool:
        return self.original_traffic == 0

    @property
    def holds(self) -> bool:
        return all(r.holds for r in self.results)

    def summary(self) -> str:
        rel = ">" if self.strict else ">="
        g = (f"undefined: Q matches no tuple of the table (Eq. (2) needs the target's frequencies among matching "
             f"tuples; such a query does not meet G_min, so it is generalised)" if self.original_matches_nothing
             else exact_and_decimal(self.original_g, "down"))
        s = [f"Query {self.original}: G(Q, {self.target}) = {g}; required G {rel} G_min = {exact_or_decimal(self.g_min, 'up')}."]
        for r in self.results:
            verdict = "meets G_min" if r.holds else "does NOT meet G_min"
            if r.at_equality:
                verdict += (" at equality only (G = G_min: '>=' as §4 defines it, not 'more than G_min' as §4 then "
                            "says; --strict asks that)") if r.holds else " (G = G_min: not more than G_min)"
            s.append(f"  {r.strategy}: Q̂ = {r.query}, G = {exact_and_decimal(r.g, 'down')}, traffic {r.traffic} tuples "
                     f"— {verdict}" + (f" (removed {', '.join(r.removed)})" if r.removed else ""))
        for name, why in self.skipped:
            s.append(f"  {name}: skipped — {why}")
        if not self.holds:
            for r in self.results:
                if not r.holds:
                    s.append(f"Witness ({r.strategy}): it stops at Q̂ = {r.query} with G = {exact(r.g)} "
                             f"{'<=' if self.strict else '<'} G_min = {exact(self.g_min)}"
                             + (" — nothing is left to remove" if r.query == "(all *)" else ""))
        return "\n".join(s)

    def as_json(self) -> dict[str, Any]:
        return {"holds": self.holds, "target": self.target, "G_min": number_json(self.g_min, "up"),
                "requirement": "G > G_min" if self.strict else "G >= G_min", "query": self.original,
                "G": None if self.original_matches_nothing else number_json(self.original_g, "down"),
                "traffic": self.original_traffic, "results": [r.as_json() for r in self.results],
                "skipped": [{"strategy": n, "why": w} for n, w in self.skipped]}


def _words(table: AuxTable, q: tuple) -> str:
    parts = [f"{a}={v}" for a, v in zip(table.attributes, q) if not is_star(v)]
    return "(" + (", ".join(parts) if parts else "all *") + ")"


def generalize(table: AuxTable, query: Mapping[str, Any], target: str, g_min: object, strategy: str = "best",
               *, seed: int = 0, strict: bool = False) -> GeneralizeReport:
    """Generalise ``query`` until the target's guessing entropy reaches ``g_min`` (strategy brute, best,
    worst, random or all); ``strict``: until it exceeds ``g_min``."""
    expect(table, AuxTable, "table", "a table from querygen.load_table(...)")
    check_choice(strategy, tuple(STRATEGIES) + ("all",), "strategy")
    check_seed(seed)
    check_flag(strict, "strict")
    if not isinstance(query, Mapping):
        raise InvalidInput(f"query = {shown(query)} must be a mapping attribute -> value (querygen.parse_query)")
    for a, v in query.items():
        if not isinstance(a, str) or not isinstance(v, (str, int)) or isinstance(v, bool):
            raise InvalidInput(f"query[{shown(a)}] = {shown(v)}: attribute names and values must be text")
    if not isinstance(target, str):
        raise InvalidInput(f"target = {shown(target)} must be an attribute name (text)")
    req = PrivacyRequirement(target, g_min)
    q, t = validate_request(table, query, req)
    run_req = strictly_above(table, req) if strict else req  # G > G_min as G >= G_min + 1/(N den(G_min))
    names = list(STRATEGIES) if strategy == "all" else [strategy]
    skipped = []
    if "brute" in names:
        k = len(fixed_positions(q))
        if strategy == "all" and 1 << k > BRUTE_LIMIT:  # run what fits, say why Brute-Force did not
            names.remove("brute")
            skipped.append(("brute", f"Brute-Force would enumerate 2^{k} = {1 << k:,} generalisations (limit "
                                     f"{BRUTE_LIMIT:,}); the other strategies are polynomial"))
        else:
            guard(1 << k, BRUTE_LIMIT, "Brute-Force", "use --strategy best (Best-Fit, at most k^2 evaluations)")
    og = _exact.guessing_entropy(table, q, t)
    out = []
    for name in names:
        g: Generalization = _exact.generalize(table, q, run_req, STRATEGIES[name], seed=seed)
        out.append(QueryResult(name, _words(table, g.query), tuple(table.attributes[i] for i in g.removed),
                               g.guessing_entropy, g.traffic, g.satisfied, g.evaluations,
                               g.traffic > 0 and g.guessing_entropy == req.g_min))
    return GeneralizeReport(table.attributes[t], req.g_min, _words(table, q), og, tuple(out), tuple(skipped), strict,
                            _exact.traffic_overhead(table, q))
