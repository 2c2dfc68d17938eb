"""``python -m privclaims.counterexamples.mutants [--quick|--full] [--mutant ID ...] [--json P] [--markdown P]``.

Exit status 0 when every non-equivalent mutant that ran was killed and the catalogue applies cleanly."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from privclaims.counterexamples.mutants import campaign, catalogue_errors, to_markdown
from privclaims.counterexamples.mutants.catalogue import BY_ID, CATALOGUE


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m privclaims.counterexamples.mutants", description=__doc__)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="area tests (-x) + the --quick ledger (default)")
    mode.add_argument("--full", action="store_true", help="area tests (-x) + the full ledger of the affected areas")
    ap.add_argument("--mutant", action="append", default=[], help="only this mutant id (repeatable)")
    ap.add_argument("--json", dest="json_path", help="write the JSON record here")
    ap.add_argument("--markdown", dest="md_path", help="write the Markdown record here")
    ap.add_argument("--after", metavar="RECORD", help="re-run the mutants RECORD (a JSON record) did not kill on the "
                    "current tree and add the outcomes to it as 'after_gaps' (written to --json/--markdown)")
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

    def progress(rec: dict) -> None:
        t, lg = rec.get("tests", {}), rec.get("ledger", {})
        drift = ",".join(d["id"] for d in lg.get("drift", []))
        print(f"{rec['id']:32s} {rec['status']:15s} tests {t.get('status', '-')} {t.get('seconds', '')}s "
              f"{t.get('first_failure') or ''}  ledger {lg.get('status', '-')} {lg.get('seconds', '')}s {drift}", flush=True)

    if args.after:
        from privclaims.counterexamples.mutants import rerun_survivors

        rep = rerun_survivors(json.loads(Path(args.after).read_text(encoding="utf-8")), quick=not args.full, progress=progress)
    else:
        rep = campaign(args.mutant or None, quick=not args.full, progress=progress,
                       partial=Path(args.json_path) if args.json_path else None)
    if args.json_path:
        Path(args.json_path).write_text(json.dumps(rep, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if args.md_path:
        Path(args.md_path).write_text(to_markdown(rep), encoding="utf-8")
    s = rep.get("after_gaps", rep)["score"]
    print(f"score: killed {s['killed']}/{s['non_equivalent_ran']} non-equivalent ({s['score']}); equivalent {s['equivalent']}; "
          f"survivors {s['survived']}; errors {s['errors']}; catalogue errors {rep['catalogue_errors']}; {rep['seconds']} s")
    return 0 if not s["survived"] and not s["errors"] and not rep["catalogue_errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
