"""Your own claims, checked like the papers' (issue 24): the ledger's public door.

A ledger project is a folder with a ``privclaims.toml`` naming its documents, its catalogue of claims, its
pins and its check modules (see :mod:`privclaims.checks.project`). A check module uses only this module::

    from privclaims import dp
    from privclaims.ledger import Definition, Quote, Reading, claim, decide, refuted, verified

    DRAFT = "draft.md"
    RR = Definition("rr-privacy", "ε-DP of randomized response", readings=(
        Reading("as defined", "Pr[M(x) = o] <= e^ε Pr[M(x') = o] for all x, x', o", f"{DRAFT} §2",
                quotes=[Quote(DRAFT, "§2", "randomized response with p = 3/4 is ln(3)-differentially private")]),))

    @claim("mine.rr", method="exact", rests_on=(RR,))
    def rr(ctx):
        m = dp.load_mechanism("rr.json")
        r = dp.check(m, epsilon="ln(3)")
        return verified(decision=decide(...)) if r.holds else refuted(witness=r.witness, model=...)

A claim about every instance of a family (every p, every chain...) is checked by a bounded counterexample search:
``property_verdict(ctx, name, strategy, holds, examples=N, encoding=..., model=(name, validator))`` draws up to
``N`` instances from a Hypothesis strategy (seeded by the run's seed and ``name``, so the pin holds its counts) and
returns ``verified-bounded`` with the bound ("200 hypothesis examples, 180 distinct (seed S)"), or ``refuted`` with
the shrunk instance validated against your model (``validator(instance)`` lists its problems). ``holds`` returns
``VACUOUS`` on an instance outside a declared ``premise=``; ``reads=ReadParts(parts, read=...)`` declares the parts
of a tuple instance it reads (checked on every instance; instances are counted distinct by them). Importing this
module does not import Hypothesis: import ``hypothesis.strategies`` inside the check, as the papers' checks do. Draw
integers bounded inside (-100, 100) and build the instance from them: Hypothesis mixes the literals of every local
module loaded (strings, floats, larger integers) into its other draws, so a pin would depend on what ran before
(``rr_every_p`` in ``examples/my-draft/checks.py`` draws p = a/q this way).

``privclaims ledger --project DIR`` runs it (``--quick``, ``--claim``, ``--json``, ``--markdown``, ``--html``,
``--show``, ``--list``, ``--repin --reason``), and ``pytest --privclaims DIR`` turns its pins into tests.
Everything here is re-exported from ``privclaims.checks`` (the papers' ledger is a project like any other), and
``ReadParts``/``VACUOUS`` from ``privclaims.counterexamples`` (the modules the papers' searches use; neither imports
Hypothesis).
"""

from __future__ import annotations

from typing import Any

from privclaims.checks.evidence import Decision, Enclosure, contradictions, decide, decide_enclosed
from privclaims.checks.project import Project, ProjectError, load_project
from privclaims.checks.readings import Audit, Combination, Definition, NotApplicable, Quote, Reading, Rejected
from privclaims.checks.registry import Context, claim
from privclaims.checks.runner import drift, run_claims
from privclaims.checks.searched import property_verdict
from privclaims.checks.verdict import (VERDICTS, Outcome, Part, by_part, by_reading, compare_all, compare_exact,
                                       discrepancy, in_model, not_checked, refuted, reproduced, unverifiable,
                                       verified, verified_bounded)
from privclaims.counterexamples.instance_parts import ReadParts
from privclaims.counterexamples.vacuous import VACUOUS

__all__ = [
    "Audit", "Combination", "Context", "Decision", "Definition", "Enclosure", "NotApplicable", "Outcome", "Part",
    "Project", "ProjectError", "Quote", "ReadParts", "Reading", "Rejected", "VACUOUS", "VERDICTS", "by_part",
    "by_reading", "claim", "compare_all", "compare_exact", "contradictions", "decide", "decide_enclosed",
    "discrepancy", "drift", "in_model", "load_project", "not_checked", "property_verdict", "refuted", "reproduced",
    "run", "unverifiable", "verified", "verified_bounded",
]


def run(project: str | Project, claims: list[str] | None = None, *, quick: bool = False, seed: int = 20261121,
        data: str | None = None, workers: int = 1) -> list[dict[str, Any]]:
    """Run a project's claims (all, or ``claims``) and return the report rows (each with its ``pin``)."""
    from pathlib import Path

    proj = project if isinstance(project, Project) else load_project(str(Path(project).resolve()))
    ids = list(claims) if claims is not None else list(proj.catalog)
    unknown = [c for c in ids if c not in proj.catalog]
    if unknown:
        raise ProjectError(f"not claims of {proj.name!r}: {unknown}")
    data_dir = Path(data) if data else proj.data_dir()
    return run_claims(ids, Context(seed=seed, quick=quick, data_dir=data_dir), workers=workers, project=proj)
