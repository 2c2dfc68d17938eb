"""``python -m privclaims.counterexamples.read_audit [--project P] [--claim ID ...] [--quick] [--first N] [--workers N]
[--json PATH]``: which property searches count parts of their instances that their property never reads.

A search's bound states how many distinct instances it tried; an instance is counted by the parts its property reads
(:mod:`~privclaims.counterexamples.instance_parts`, all parts unless the search declares ``reads=``). This runs every
selected claim's check under :func:`~privclaims.counterexamples.instance_parts.auditing_reads`: on the first ``N``
instances of each search, each counted part (a tuple's items, a dataclass's compared fields) is handed to the property
as a marker that records any use, and a part no audited instance used, and that took more than one value, is
reported; so is a search declaring ``reads=ReadParts`` whose property gives another result on an instance as drawn than
with its unread parts hidden (a use the markers cannot record). Searches it cannot audit (instances of another kind,
counting by a declared projection) are listed, and so are claims whose check was skipped or ended in an error (their
searches were not all audited). Every claim is computed: recorded outcomes (``$PRIVCLAIMS_REPLAY_OUTCOMES``) are
neither read nor written. Exit status 1 when a search counts such a part (declare what its property reads, or draw
without the part) or a check ended in an error, 0 otherwise. The checks' verdicts and pins are not touched; the audit
only calls the properties more often.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Any


def audited_claim(claim_id: str, quick: bool, first: int, project_dir: str | None) -> dict[str, Any]:
    """One claim's check run under the audit: its findings and the searches not audited (each with the claim's ID),
    and how many searches were audited."""
    from privclaims.checks.project import load_project, papers
    from privclaims.checks.registry import Context
    from privclaims.checks.runner import run_one
    from privclaims.counterexamples.instance_parts import auditing_reads

    project = load_project(project_dir) if project_dir else papers()
    with auditing_reads(first) as record:
        row = run_one(claim_id, replace(Context(quick=quick), data_dir=project.data_dir()), project)
    not_audited = [dict(f, claim=claim_id) for f in record.not_audited]
    if row["verdict"] in ("error", "not-checked"):
        reason = (row.get("evidence") or {}).get("reason") or row.get("why") or ""
        not_audited.append({"claim": claim_id, "encoding": "(the whole check)", "error": row["verdict"] == "error",
                            "why": f"its check ended {row['verdict']}: {str(reason)[:200]}"})
    return {"findings": [dict(f, claim=claim_id) for f in record.findings], "audited": record.audited,
            "not_audited": not_audited}


def _compute_every_claim() -> None:
    """A worker's initializer: no recorded outcome is replayed (a replayed check runs no search) or recorded (an
    outcome computed under the audit is not the ledger's)."""
    import os

    from privclaims.checks.outcome_memo import VARIABLES

    for name in VARIABLES:
        os.environ.pop(name, None)


def _checked_claims(project: Any, selected: list[str]) -> list[str]:
    """The selected claims that have a check (any method: a reproduction or a table may run a property search)."""
    ids = selected or sorted(project.checks)
    unknown = [i for i in ids if i not in project.catalog]
    if unknown:
        raise SystemExit(f"error: unknown claim id(s): {', '.join(unknown)}")
    return [i for i in ids if i in project.checks]


def main(argv: list[str] | None = None) -> int:
    from privclaims.checks.project import load_project, papers

    ap = argparse.ArgumentParser(prog="python -m privclaims.counterexamples.read_audit", description=__doc__)
    ap.add_argument("--project", help="a project folder (default: the papers' ledger)")
    ap.add_argument("--claim", action="append", default=[], help="only this claim (repeatable)")
    ap.add_argument("--quick", action="store_true", help="the checks' quick budgets (the claims --quick runs)")
    ap.add_argument("--first", type=int, default=15, help="instances meeting the premise audited per search (default "
                    "15; those outside it drawn before them are looked at too, up to the search's budget)")
    ap.add_argument("--workers", type=int, default=2, help="claims run at once (default 2)")
    ap.add_argument("--json", dest="json_path", help="write the findings here")
    args = ap.parse_args(argv)
    if args.first < 1 or args.workers < 1:
        ap.error(f"--first ({args.first}) and --workers ({args.workers}) must be at least 1")
    project = load_project(args.project) if args.project else papers()
    ids = _checked_claims(project, args.claim)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    findings: list[dict[str, Any]] = []
    not_audited: list[dict[str, Any]] = []
    audited = 0
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True, disable=not console.is_terminal) as prog, \
            ProcessPoolExecutor(args.workers, initializer=_compute_every_claim) as pool:
        task = prog.add_task("auditing", total=len(ids))
        futures = {i: pool.submit(audited_claim, i, args.quick, args.first, args.project) for i in ids}
        for cid, fut in futures.items():
            one = fut.result()
            findings.extend(one["findings"])
            not_audited.extend(one["not_audited"])
            audited += one["audited"]
            prog.update(task, advance=1, description=f"audited {cid}")
    for f in findings:
        if f["counted_never_used"]:
            print(f"{f['claim']}: counts {', '.join(f['counted_never_used'])} of ({', '.join(f['parts'])}), never read "
                  f"in {f['audited']} instances: {f['encoding'][:100]}")
        if f.get("differs_on_the_drawn_instance"):
            print(f"{f['claim']}: the property's result on {f['differs_on_the_drawn_instance']} of {f['looked']} "
                  f"instances looked at, as drawn, differs from its result with the unread parts hidden: "
                  f"{f['encoding'][:100]}")
    for f in not_audited:
        print(f"not audited: {f['claim']}: {f['why']}: {f['encoding'][:100]}")
    print(f"{len(ids)} claims run ({'quick' if args.quick else 'full'} budgets): {audited} searches audited (first "
          f"{args.first} instances each), {len(not_audited)} not audited; {len(findings)} search(es) count parts their "
          "property does not read or compute otherwise on the drawn instance")
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as fh:
            json.dump({"claims": ids, "first": args.first, "quick": args.quick, "audited": audited,
                       "findings": findings, "not_audited": not_audited}, fh, indent=1, ensure_ascii=False)
    return 1 if findings or any(f.get("error") for f in not_audited) else 0


if __name__ == "__main__":
    sys.exit(main())
