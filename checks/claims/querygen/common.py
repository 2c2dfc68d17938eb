"""What the querygen checks share: the source file name, the one-reading declaration, a query's printable
form, the quick/full example counts and the Table 1 instances."""

from __future__ import annotations

from typing import Any

from privclaims.checks.definitions.querygen import BEST_FIT, MORE_THAN_TWO
from privclaims.checks.registry import Context
from privclaims.checks.verdict import Reading
from privclaims.theory.numbers import Q
from privclaims.theory.querygen.model import STAR, PrivacyRequirement, is_star, strictly_above
from privclaims.theory.querygen.table1 import table1


SRC = "004_66621c1b9afebedf.txt"


def one_reading(meaning: str, source: str, name: str = "as stated") -> tuple[Reading, ...]:
    """The declaration of a claim the documents give one reading of (004 has no second version)."""
    return (Reading(name, "The documents give one reading: " + meaning, source),)


def query_list(query) -> list:
    """A query as evidence shows it: its values, ``"*"`` for "don't care"."""
    return ["*" if is_star(v) else v for v in query]


def example_count(ctx: Context, quick_n: int, full_n: int) -> int:
    """How many generated examples a property search runs: ``quick_n`` in the quick ledger, ``full_n`` in the full one."""
    return quick_n if ctx.quick else full_n


def table1_instances():
    """Every Table 1 instance ``(table, query, target, G_min)``: each target, each query built from a tuple with any
    subset of its other values, ``G_min`` in {1, 5/4, ..., 3}."""
    t = table1()
    levels = [Q(j, 4) for j in range(4, 13)]
    for target in range(t.m):
        for row in t.rows:
            for mask in range(1 << t.m):
                q = tuple(STAR if (i == target or not mask >> i & 1) else row[i] for i in range(t.m))
                for g in levels:
                    yield t, q, target, g


MODEL_NAME = ("004 §2, §4, §5: auxiliary information (a non-empty multiset of tuples over finite domains), a query with "
              "the target omitted that matches a tuple, G_min ≥ 1")


def fit_choice(step: str | None) -> str:
    """The twins' ``choice`` for a reading of Best-Fit's step (definitions BEST_FIT_CHOICE): ``"fit"`` for the best
    fit, ``"local-min"`` for the local minimum as printed (and for claims that do not rest on it: ``None``)."""
    return "fit" if step == BEST_FIT.name else "local-min"


def brute_ties(rule: str | None) -> str:
    """The twins' ``ties`` for a reading of Brute-Force's tie rule (definitions BRUTE_TIES): ``"more-than-two"`` for
    the literal reading (a tie of exactly two keeps the first combination in bitmask order), ``"two-or-more"`` for a
    random pick whenever two or more tie (and for claims that do not rest on it: ``None``)."""
    return "more-than-two" if rule == MORE_THAN_TWO.name else "two-or-more"


def strategy_readings(strategy: str, step: str | None, tie: str | None) -> dict[str, str]:
    """The twins' keyword arguments running ``strategy`` under a reading of Best-Fit's step (BEST_FIT_CHOICE, used
    by Best-Fit only) and of Brute-Force's tie rule (BRUTE_TIES, used by Brute-Force only)."""
    return {"choice": fit_choice(step) if strategy == "best_fit" else "local-min", "ties": brute_ties(tie)}


def requirement(t, target, g_min, comparison: str) -> PrivacyRequirement:
    """(a, G_min) under a reading of the comparison (:data:`~privclaims.checks.definitions.querygen.PRIV_REQ`): '≥' as
    defined, or '>' as the gloss says (on this table, '>' is '≥' at G_min + 1/(N·den(G_min)))."""
    from privclaims.checks.definitions.querygen import GE

    req = PrivacyRequirement(target, g_min)
    return req if comparison == GE.name else strictly_above(t, req)


def qg_model(t, q, target, g_min, minimal: str) -> dict[str, Any]:
    """``in_model`` for a (table, query, requirement) witness (:mod:`privclaims.theory.querygen.models`)."""
    from privclaims.checks.verdict import in_model
    from privclaims.theory.querygen.models import witness_problems

    return in_model(MODEL_NAME, witness_problems(t, q, t.attr_index(target), g_min), minimal=minimal)
