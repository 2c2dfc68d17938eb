"""``python -m privclaims.counterexamples.mutants [--quick|--full] [--mutant ID ...] [--area A ...] [--workers N]
[--json P] [--markdown P] [--before RECORD | --rerun-survivors-of RECORD]``.

``--quick`` (default): the area-quick nets of every mutant; ``--full``: the area-quick, area-full and whole nets.
Prints one line per mutant and the scores and the total time at the end. Exit status 0 when every non-equivalent
mutant that ran was killed by every net that ran, and the catalogue applies cleanly. ``--rerun-survivors-of R``
re-runs the area-quick survivors of the record R (or the ``--mutant`` ids) on the current tree and writes R's
record with their rows replaced, the scores recomputed and R's first-pass outcomes kept under "before"."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from privclaims.counterexamples.mutants import before_summary, campaign, catalogue_errors, merge_rerun, survivors, to_markdown
from privclaims.counterexamples.mutants.catalogue import BY_ID, CATALOGUE


QUICK_TARGET_SECONDS = 600  # issue 25: the area-quick nets of every mutant in at most 10 minutes


def main(argv: list[str] | None = None) -> int:
    from privclaims.counterexamples.hypothesis_plugins import without_third_party_plugins

    without_third_party_plugins()  # the nets' pytest runs inherit it
    ap = argparse.ArgumentParser(prog="python -m privclaims.counterexamples.mutants", description=__doc__)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="the area-quick nets only (default)")
    mode.add_argument("--full", action="store_true", help="the area-quick, area-full and whole nets")
    ap.add_argument("--mutant", action="append", default=[], help="only this mutant id (repeatable)")
    ap.add_argument("--area", action="append", default=[], help="only the mutants of this area (repeatable)")
    ap.add_argument("--workers", type=int, default=2, help="mutants run at once, each in its own copy (default 2)")
    ap.add_argument("--json", dest="json_path", help="write the JSON record here (rewritten after each mutant)")
    ap.add_argument("--markdown", dest="md_path", help="write the Markdown record here")
    ap.add_argument("--before", metavar="RECORD", help="keep the area-quick outcomes of this earlier JSON record (the "
                    "pass before the gaps were closed) in the new record, with --before-note")
    ap.add_argument("--before-note", default="The first pass, on the tests as they were before this round's new tests.")
    ap.add_argument("--rerun-survivors-of", metavar="RECORD", help="re-run the area-quick survivors of this JSON record "
                    "(or the --mutant ids) and write the merged record (first-pass outcomes kept, with --before-note)")
    ap.add_argument("--list", action="store_true", help="list the catalogue and check that every patch applies")
    args = ap.parse_args(argv)
    unknown = [i for i in args.mutant if i not in BY_ID]
    if unknown:
        print(f"error: unknown mutant id(s): {', '.join(unknown)}", file=sys.stderr)
        return 2
    if args.list:
        for m in CATALOGUE:
            print(f"{m.id}\t{m.area}\t{m.kind}\t{m.file}\t{'(equivalent) ' if m.equivalent else ''}{m.description}")
        errs = catalogue_errors()
        for e in errs:
            print(f"catalogue error: {e}", file=sys.stderr)
        return 1 if errs else 0
    ids = args.mutant or None
    if args.area:
        ids = [m.id for m in CATALOGUE if m.area in args.area and (not args.mutant or m.id in args.mutant)]

    def progress(rec: dict, net: str = "area") -> None:
        nets = rec.get("nets", {})
        cells = "  ".join(f"{n}: {v['status']}{' by ' + v['by'] if v.get('by') else ''}{' (guard)' if v.get('guard') else ''}"
                          for n, v in nets.items() if net == "area" or n == "whole")
        eq = " (equivalent)" if rec.get("equivalent") else ""
        print(f"{rec['id']:34s} {rec.get('status', ''):9s}{eq} {rec.get('seconds', '')}s  {cells or rec.get('reason', '')}", flush=True)

    first = None
    if args.rerun_survivors_of:
        first = json.loads(Path(args.rerun_survivors_of).read_text(encoding="utf-8"))
        ids = ids or survivors(first)
    before = None
    if args.before:
        before = before_summary(json.loads(Path(args.before).read_text(encoding="utf-8")), args.before_note)
    rep = campaign(ids, quick=not args.full, workers=args.workers, progress=progress,
                   partial=Path(args.json_path) if args.json_path and first is None else None, before=before)
    if first is not None:
        rep = merge_rerun(first, rep, args.before_note)
    if args.json_path:
        Path(args.json_path).write_text(json.dumps(rep, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if args.md_path:
        Path(args.md_path).write_text(to_markdown(rep), encoding="utf-8")
    failed = False
    for n, s in rep["scores"].items():
        print(f"{n}: killed {s['killed']}/{s['non_equivalent_ran']} non-equivalent ({s['score']}); equivalent {s['equivalent']}; "
              f"survivors {s['survived']}; errors {s['errors']}")
        failed |= bool(s["survived"] or s["errors"])
    for a, t in sorted(rep["net_seconds"].items()):
        print(f"net time {a}: {t}")
    print(f"catalogue errors {rep['catalogue_errors']}; baselines {rep['baseline_seconds']} s; "
          f"campaign total {rep['seconds']} s ({rep['seconds'] / 60:.1f} min, {rep['workers']} workers)")
    if not args.full and ids is None and first is None:  # the whole catalogue's --quick run: issue 25's target
        met = rep["seconds"] <= QUICK_TARGET_SECONDS
        print(f"target (issue 25): --quick over the whole catalogue <= {QUICK_TARGET_SECONDS / 60:.0f} min: "
              f"{rep['seconds'] / 60:.1f} min, {'met' if met else 'missed'}")
    return 0 if not failed and not rep["catalogue_errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
