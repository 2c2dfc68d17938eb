"""The ledger's command line.

Exit status: 0 iff every computed verdict equals its pin and none errored; 1 on drift or error;
2 on bad command-line input (one-line message on stderr).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

from checks.catalog import AREAS, catalog
from checks.registry import Context, default_data_dir, load_all
from checks.report import short_evidence, summary, to_json, to_markdown
from checks.runner import drift, run_claims

COLOURS = {
    "verified": "green",
    "verified-bounded": "green",
    "reproduced": "cyan",
    "refuted": "magenta",
    "discrepancy": "yellow",
    "reading-dependent": "yellow",
    "unverifiable": "blue",
    "not-checked": "dim",
    "error": "bold red",
}


class UsageError(Exception):
    pass


def _writable(path: str) -> Path:
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        raise UsageError(f"report path {path!r} is a directory")
    if not parent.is_dir():
        raise UsageError(f"report path {path!r}: folder {str(parent)!r} does not exist")
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise UsageError(f"report path {path!r} is not writable")
    return p


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m checks", description="Compute a verdict for every catalogued claim.")
    ap.add_argument("--quick", action="store_true", help="skip long searches and data reproductions (<= 60 s)")
    ap.add_argument("--area", action="append", default=[], help=f"only this area ({'|'.join(AREAS)}); repeatable")
    ap.add_argument("--claim", action="append", default=[], help="only this claim ID; repeatable")
    ap.add_argument("--json", dest="json_path", help="write the JSON report here")
    ap.add_argument("--markdown", dest="md_path", help="write the Markdown report here")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="worker processes")
    ap.add_argument("--seed", type=int, default=20261121, help="seed of every randomised check")
    ap.add_argument("--data", help="folder holding aol-top1000/ and geolife/ (default: $PRIVCLAIMS_DATA or ../shared/data)")
    ap.add_argument("--list", action="store_true", help="list the claim IDs and their pinned verdicts, run nothing")
    ap.add_argument("--no-table", action="store_true", help="print only the summary")
    ap.add_argument("--no-safety", action="store_true",
                    help="skip the float-safety campaign (run by default unless --claim is given)")
    return ap.parse_args(argv)


def select(args: argparse.Namespace) -> list[str]:
    cat = catalog()
    for a in args.area:
        if a not in AREAS:
            raise UsageError(f"unknown area {a!r}; choose from {', '.join(AREAS)}")
    for c in args.claim:
        if c not in cat:
            raise UsageError(f"unknown claim ID {c!r} (see --list)")
    if args.workers < 1:
        raise UsageError(f"--workers must be >= 1, got {args.workers}")
    ids = [c for c in cat if (not args.area or cat[c].area in args.area)]
    if args.claim:
        ids = [c for c in ids if c in args.claim] if args.area else [c for c in cat if c in args.claim]
    return ids


def main(argv: list[str] | None = None) -> int:
    from rich.console import Console

    err = Console(stderr=True)
    try:
        args = parse_args(argv)
        ids = select(args)
        json_path = _writable(args.json_path) if args.json_path else None
        md_path = _writable(args.md_path) if args.md_path else None
        data_dir = Path(args.data) if args.data else default_data_dir()
        if args.data and not data_dir.is_dir():
            raise UsageError(f"--data {args.data!r} is not a folder")
    except UsageError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except SystemExit as e:  # argparse
        return 2 if e.code else 0

    if args.list:
        from checks.catalog import expected

        for c in ids:
            print(f"{c}\t{expected().get(c)}")
        return 0

    load_all()
    ctx = Context(seed=args.seed, quick=args.quick, data_dir=data_dir, profile=os.environ.get("HYPOTHESIS_PROFILE", "ci"))
    out = Console()
    out.print(f"privclaims ledger: {len(ids)} claims, seed {args.seed}, {'quick' if args.quick else 'full'} mode, "
              f"data {data_dir or 'absent'}, {args.workers} worker(s)")
    t0 = time.perf_counter()
    rows = _run_with_progress(ids, ctx, args.workers, out)
    elapsed = time.perf_counter() - t0
    bad = drift(rows)
    if not args.no_table:
        _print_tables(rows, out)
    safety = None if args.no_safety or args.claim else _safety(args, ctx, out)
    run: dict[str, Any] = {"seed": args.seed, "quick": args.quick, "data_dir": str(data_dir) if data_dir else None,
                           "drift": [r["id"] for r in bad]}
    if json_path:
        json_path.write_text(to_json(rows, run, safety), encoding="utf-8")
    if md_path:
        md_path.write_text(to_markdown(rows, run, safety), encoding="utf-8")
    out.print("summary: " + ", ".join(f"{k}: {v}" for k, v in summary(rows).items()) + f"  ({elapsed:.1f} s)")
    if bad:
        out.print(f"[bold red]{len(bad)} claim(s) differ from their pinned verdict or errored:[/]")
        for r in bad:
            out.print(f"  {r['id']}: computed {r['verdict']}, pinned {r['expected']}  {short_evidence(r['evidence'], 160)}")
        return 1
    if safety and (safety["unsafe_total"] or not safety.get("noise", {}).get("attack_defeated", True)):
        out.print(f"[bold red]float safety: {safety['unsafe_total']} unsafe fast-twin decision(s); "
                  f"noise attack defeated: {safety.get('noise', {}).get('attack_defeated')}[/]")
        return 1
    out.print("[green]all computed verdicts match their pins[/]")
    return 0


def _safety(args: argparse.Namespace, ctx: Context, console: Any) -> dict[str, Any]:
    """The float-safety campaign (quick: a few hundred instances per kind; full: the hypothesis profile's size)."""
    from rich.table import Table

    from counterexamples.float_safety import KINDS, campaign, safety_section

    kinds = [k for k in KINDS if not args.area or k.split(".")[0] in args.area]
    profile = "quick" if args.quick else ctx.profile
    res = campaign(profile, args.seed, kinds)
    sec = safety_section(res, args.seed, profile)
    if not args.no_table and kinds:
        t = Table(title=f"float safety: fast vs exact twins (profile {profile})")
        for col in ("kind", "instances", "boundary", "unsafe", "extra supp.", "rate", "rate off boundary", "s"):
            t.add_column(col)
        for r in sec["kinds"]:
            t.add_row(r["kind"], str(r["instances"]), str(r["boundary"]),
                      f"[{'bold red' if r['unsafe'] else 'green'}]{r['unsafe']}[/]", str(r["extra_suppressions"]),
                      f"{r['extra_suppression_rate']:.2%}", f"{r['extra_suppression_rate_off_boundary']:.2%}", f"{r['seconds']:.1f}")
        console.print(t)
    from checks.report import noise_line

    console.print(f"float safety: {sum(r['instances'] for r in sec['kinds'])} instances, {len(kinds)} decision kinds, "
                  f"{sec['unsafe_total']} unsafe")
    console.print(noise_line(sec["noise"]))
    return sec


def _run_with_progress(ids: list[str], ctx: Context, workers: int, console: Any) -> list[dict[str, Any]]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True, disable=not console.is_terminal) as prog:
        task = prog.add_task("checking", total=len(ids))

        def done(row: dict[str, Any]) -> None:
            prog.update(task, advance=1, description=f"checked {row['id']}")

        return run_claims(ids, ctx, workers=workers, on_done=done)


def _print_tables(rows: list[dict[str, Any]], console: Any) -> None:
    from rich.table import Table

    for area in AREAS:
        sub = [r for r in rows if r["area"] == area]
        if not sub:
            continue
        t = Table(title=f"{area} ({len(sub)} claims)", show_lines=False, expand=False)
        for col in ("claim", "method", "verdict", "pinned", "s", "evidence"):
            t.add_column(col, overflow="fold" if col == "evidence" else "ellipsis", no_wrap=col != "evidence")
        for r in sub:
            v = r["verdict"]
            mark = "" if r["evidence"].get("skipped") or v == r["expected"] else " ≠"
            t.add_row(r["id"], r["method"], f"[{COLOURS.get(v, 'white')}]{v}[/]{mark}", str(r["expected"]),
                      f"{r['seconds']:.1f}", short_evidence(r["evidence"], 90))
        console.print(t)
