"""Shared by the zealous checks: the documents' names, Definition 3's quantifier per reading combination, the model
name of ch. 6, and the data set of the reproductions."""

from __future__ import annotations

from typing import Any

from privclaims.checks.definitions.dp import PER_PAIR, PROB_DP
from privclaims.checks.definitions.zealous import THRESHOLDS

SRC = "000_211156f2009240b4.txt"
SRC_P = "003_755c7aa10ef74058.txt"
DATA = "aol-top1000"
LOG_MODEL = (f"search logs of {SRC} §6.2 / §6.5 (S in D^U: U users, each a set of <= m items of D; neighbours "
             "replace one user's history)")


def split_of(c: Any) -> str:
    """The quantifier argument of :func:`privclaims.theory.dp.exact.probabilistic_dp_delta` for a combination's
    reading of Definition 3: ``"pair"`` (a split per neighbouring pair) or ``"input"`` (one split per input)."""
    return "pair" if c[PROB_DP] == PER_PAIR.name else "input"


def real_tau(c: Any) -> bool:
    """Whether the combination reads ZEALOUS's τ as any positive real (else: a positive integer)."""
    return c[THRESHOLDS] == "real tau"


def by_parts(parts: dict, why: str | None = None, **evidence: Any) -> Any:
    """:func:`privclaims.checks.verdict.by_part`, with what the runner reads at the combination's level: the witness
    and model of the first refuted part (the combination is refuted through that part's witness), what the undecided parts
    miss (when nothing is refuted or a discrepancy), and, when no ``why`` is given, the whys of the parts that do not hold,
    each under its part's name."""
    from privclaims.checks.verdict import HOLDS, by_part

    refuted_parts = [o for o in parts.values() if o.verdict == "refuted" and "model" in o.evidence]
    if refuted_parts:
        evidence.setdefault("witness", refuted_parts[0].evidence.get("witness"))
        evidence.setdefault("model", refuted_parts[0].evidence["model"])
    undecided = [f"{name}: {o.evidence['missing']}" for name, o in parts.items()
                 if o.verdict == "unverifiable" and o.evidence.get("missing")]
    if undecided and not any(o.verdict in ("refuted", "discrepancy") for o in parts.values()):
        evidence.setdefault("missing", "; ".join(undecided))
    if why is None:
        failing = [f"{name}: {o.why}" for name, o in parts.items() if o.verdict not in HOLDS and o.why]
        why = " ".join(f"[{f}]" for f in failing) or None
    return by_part(parts, why, **evidence)
