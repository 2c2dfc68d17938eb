"""The ledger's command line.

Exit status: 0 iff every computed verdict equals its pin and none errored; 1 on drift or error;
2 on bad command-line input (one-line message on stderr), including a bad environment variable
(each is validated like the flag it stands for) and a selection of no claim.

``--list`` prints one line per claim (ID, area, method, pinned verdict, statement); ``--show ID``
prints one claim whole (running its check, or read from ``--from report.json``). On a terminal the
tables are rich; otherwise (CI logs, pipes) they are plain fixed-layout text, nothing truncated.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import multiprocessing as mp
import os
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

from privclaims.checks import pin_environment
from privclaims.checks.outcome_memo import RECORD_ENV, REPLAY_ENV
from privclaims.checks.project import PAPERS, Project, ProjectError, load_project, papers
from privclaims.checks.verdict import SKIP_MARK, VERDICTS

if TYPE_CHECKING:
    from privclaims.checks.registry import Context
# The registry, the runner and the report (numpy, mpmath, the checks) are imported where a run needs them, after the
# arguments are checked: a refused command line costs the interpreter, argparse and the project's files (~0.15 s of
# CPU instead of ~0.25 s; issue 25, the suite runs ~25 of them).

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


PROFILES = ("dev", "ci", "thorough")  # property_tests/conftest.py
RATIONAL_BACKENDS = ("", "fraction", "gmpy2")  # theory/numbers.py


def _folder(value: str, what: str, create: bool = False) -> Path:
    """An existing folder (``create``: or one whose parent exists, made here) that we may write to if creating."""
    if not value.strip():
        raise UsageError(f"{what} is empty; name a folder")
    p = Path(value)
    if create and not p.exists():
        if not p.parent.is_dir():
            raise UsageError(f"{what} {value!r}: folder {str(p.parent)!r} does not exist")
        try:
            p.mkdir()
        except OSError as e:
            raise UsageError(f"{what} {value!r} cannot be created: {e.strerror}") from None
    if not p.is_dir():
        raise UsageError(f"{what} {value!r} is not a folder")
    if create and not os.access(p, os.W_OK):
        raise UsageError(f"{what} {value!r} is not writable")
    return p


def check_environment(args: argparse.Namespace, env: Any = os.environ) -> None:
    """The environment variables the ledger reads, validated like the flags they stand for (a variable
    that a given flag overrides is not read, so not checked)."""
    if "PRIVCLAIMS_DATA" in env and args.data is None:
        _folder(env["PRIVCLAIMS_DATA"], "$PRIVCLAIMS_DATA (stands for --data)")
    if "PRIVCLAIMS_REPORTS" in env and args.reports is None:
        _folder(env["PRIVCLAIMS_REPORTS"], "$PRIVCLAIMS_REPORTS (stands for --reports)", create=True)
    if "PRIVCLAIMS_CACHE" in env:
        _folder(env["PRIVCLAIMS_CACHE"], "$PRIVCLAIMS_CACHE (the experiment cache)", create=True)
    for name, what in ((RECORD_ENV, "the folder the claims' outcomes are recorded in"),
                       (REPLAY_ENV, "the folder the claims' outcomes are replayed from")):
        if name in env:
            _folder(env[name], f"${name} ({what})", create=True)
    if env.get("HYPOTHESIS_PROFILE", "ci") not in PROFILES:
        raise UsageError(f"$HYPOTHESIS_PROFILE {env['HYPOTHESIS_PROFILE']!r} is not a profile; choose from {', '.join(PROFILES)}")
    if env.get("PRIVCLAIMS_RATIONAL", "").lower() not in RATIONAL_BACKENDS:
        raise UsageError(f"$PRIVCLAIMS_RATIONAL {env['PRIVCLAIMS_RATIONAL']!r} is not a rational backend; "
                         f"choose from {', '.join(repr(b) for b in RATIONAL_BACKENDS)}")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="privclaims ledger", description="Compute a verdict for every catalogued claim "
                                 "of a ledger project (default: the five papers' ledger shipped with privclaims).")
    ap.add_argument("--project", metavar="DIR", help="a ledger project: a folder with a privclaims.toml "
                    "(default: the papers' ledger)")
    ap.add_argument("--documents", metavar="DIR", help="the folder holding the project's documents (default: the "
                    "project's search path; for the papers $PRIVCLAIMS_DOCUMENTS, seeds/ beside $PRIVCLAIMS_DATA, "
                    "../shared/seeds)")
    ap.add_argument("--quick", action="store_true", help="skip long searches and data reproductions (<= 60 s)")
    ap.add_argument("--area", action="append", default=[], help="only this area (of the project's; see --list); repeatable")
    ap.add_argument("--claim", action="append", default=[], help="only this claim ID; repeatable")
    ap.add_argument("--json", dest="json_path", help="write the JSON report here")
    ap.add_argument("--markdown", dest="md_path", help="write the Markdown report here")
    ap.add_argument("--html", dest="html_path", help="write the HTML report here (one self-contained page: findings "
                    "first, filters by area and verdict, search, each claim expandable)")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="worker processes")
    ap.add_argument("--seed", type=int, default=20261121, help="seed of every randomised check")
    ap.add_argument("--data", help="folder holding aol-top1000/ and geolife/ (default: $PRIVCLAIMS_DATA or ../shared/data)")
    ap.add_argument("--verdict", action="append", default=[],
                    help=f"only claims pinned to this verdict ({'|'.join(VERDICTS)}); repeatable")
    ap.add_argument("--list", action="store_true",
                    help="list the selected claims (ID, area, method, pinned verdict, statement), run nothing")
    ap.add_argument("--show", action="append", default=[], metavar="ID",
                    help="print this claim whole (statement, readings, verdict, pin, full evidence); repeatable")
    ap.add_argument("--from", dest="from_path", metavar="REPORT.json",
                    help="with --show: read the claim from this JSON report instead of running its check")
    ap.add_argument("--reports", metavar="DIR",
                    help="write the reproductions' figures (PNG) here and link them from the Markdown report "
                         "(default: $PRIVCLAIMS_REPORTS; created if its parent exists)")
    ap.add_argument("--no-table", action="store_true", help="print only the summary")
    ap.add_argument("--no-safety", action="store_true",
                    help="skip the float-safety campaign (run by default unless --claim is given)")
    ap.add_argument("--repin", action="store_true",
                    help="write the pins of the selected claims from this run (full and --quick mode), with --reason")
    ap.add_argument("--reason", help="with --repin: why the pins change (recorded in each pin)")
    return ap.parse_args(argv)


def select(args: argparse.Namespace, project: Project) -> list[str]:
    cat = project.catalog
    for a in args.area:
        if a not in project.areas:
            raise UsageError(f"unknown area {a!r}; choose from {', '.join(project.areas)}")
    for c in args.claim:
        if c not in cat:
            raise UsageError(f"unknown claim ID {c!r} (see --list)")
    for v in args.verdict:
        if v not in VERDICTS:
            raise UsageError(f"unknown verdict {v!r}; choose from {', '.join(VERDICTS)}")
    if args.workers < 1:
        raise UsageError(f"--workers must be >= 1, got {args.workers}")
    if args.show:
        if args.list or args.area or args.claim or args.verdict:
            raise UsageError("--show ID takes no --list, --area, --claim or --verdict")
        for c in args.show:
            if c not in cat:
                raise UsageError(f"unknown claim ID {c!r} (see --list)")
        return list(args.show)
    if args.from_path:
        raise UsageError("--from is only read with --show ID")
    if args.repin and not (args.reason or "").strip():
        raise UsageError("--repin records why the pins change: give --reason \"...\"")
    if args.reason is not None and not args.repin:
        raise UsageError("--reason is only read with --repin")
    pins = _pins(project) if args.verdict else {}  # a filter by pinned verdict reads every pin
    ids = [c for c in cat if (not args.area or cat[c].area in args.area)]
    if args.claim:
        ids = [c for c in ids if c in args.claim] if args.area else [c for c in cat if c in args.claim]
    if args.verdict:
        ids = [c for c in ids if pins.get(c) in args.verdict]
    if not ids:
        asked = " ".join([*(f"--area {a}" for a in args.area), *(f"--claim {c}" for c in args.claim),
                          *(f"--verdict {v}" for v in args.verdict)])
        raise UsageError(f"no claim matches {asked}")
    return ids


def _pins(project: Project) -> dict[str, str]:
    from privclaims.checks.pins import pinned_verdicts

    return pinned_verdicts(project)


def _project(args: argparse.Namespace, files_only: bool = False) -> Project:
    """The project the arguments name; ``files_only``: its files alone (:meth:`Project.read`, nothing imported),
    so that bad input is refused before the checks' modules are imported."""
    try:
        folder = str(_folder(args.project, "--project").resolve()) if args.project is not None else str(PAPERS)
        documents = str(_folder(args.documents, "--documents")) if args.documents else None
        if files_only:
            return Project.read(folder, documents)
        if args.project is None and documents is None:
            return papers()
        return load_project(folder, documents)
    except ProjectError as e:
        raise UsageError(str(e)) from None


def main(argv: list[str] | None = None) -> int:
    """The ledger (``privclaims ledger ...``; ``privclaims show ID`` is ``main(["--show", ID, ...])``). It sets
    ``$HYPOTHESIS_NO_PLUGINS=1`` in this process's environment unless set
    (:mod:`privclaims.counterexamples.hypothesis_plugins`): a caller's later subprocesses inherit it; and it raises
    the collector's youngest threshold (:mod:`privclaims.checks.garbage_collector`) for the rest of the process."""
    from privclaims.checks.garbage_collector import fewer_young_collections
    from privclaims.counterexamples.hypothesis_plugins import without_third_party_plugins

    without_third_party_plugins()  # before any check imports Hypothesis; the ledger's workers inherit it
    fewer_young_collections()  # the ledger's forked workers keep it
    try:
        return _main(argv)
    except BrokenPipeError:  # the reader went away (``| head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _main(argv: list[str] | None) -> int:
    try:
        args = parse_args(argv)
        check_environment(args)
        # the papers' ledger (shipped whole) is checked on its files, every argument before any check module is
        # imported; a user's project is imported first, so a module that fails to import is the error reported
        files = _project(args, files_only=args.project is None)
        ids = select(args, files)
        json_path = _writable(args.json_path) if args.json_path else None
        md_path = _writable(args.md_path) if args.md_path else None
        html_path = _writable(args.html_path) if args.html_path else None
        data_dir = _folder(args.data, "--data") if args.data is not None else files.data_dir()
        if args.list and (args.reports or args.json_path or args.md_path or args.html_path or args.from_path):
            raise UsageError("--list runs nothing: it takes no --reports, --json, --markdown, --html or --from")
        reports = args.reports if args.reports is not None else os.environ.get("PRIVCLAIMS_REPORTS")
        reports_dir = _folder(reports, "--reports", create=True).resolve() if reports is not None else None
        report_doc = _read_report(args.from_path) if args.from_path else None
        project = files if args.project is not None else _project(args)
        if not args.list and not args.repin:  # a broken pin is refused before anything runs (--verdict reads
            from privclaims.checks.pins import read_pin  # every pin in select; --list reads the selected ones;

            for cid in ids:  # --repin replaces the selected claims' pins, broken ones too)
                read_pin(project, cid)
        environment = None if args.list or args.from_path else pin_environment.summary(project)  # (--from: no run)
        if args.repin:  # pins of two library environments are refused before anything runs
            mixed = pin_environment.repin_problem(project, ids, environment)
            if mixed:
                raise UsageError(mixed)
    except (UsageError, ProjectError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except SystemExit as e:  # argparse
        return 2 if e.code else 0

    if args.list:
        return _list(ids, project)
    from rich.console import Console

    from privclaims.checks.registry import Context
    from privclaims.checks.report import summary, summary_line, to_json, to_markdown
    from privclaims.checks.runner import drift

    extra = {"reports_dir": str(reports_dir)} if reports_dir else {}
    ctx = Context(seed=args.seed, quick=args.quick, data_dir=data_dir, profile=os.environ.get("HYPOTHESIS_PROFILE", "ci"),
                  extra=extra)
    if args.show:
        return _show(ids, ctx, report_doc, project, environment)

    out = Console(soft_wrap=True)
    out.print(f"privclaims ledger: {project.name}: {len(ids)} claims, seed {args.seed}, "
              f"{'quick' if args.quick else 'full'} mode, data {data_dir or 'absent'}, {args.workers} worker(s)")
    for line in environment["differences"]:
        out.print(f"environment: {line} (the pins' versions: {pin_environment.environment_path(project)})", markup=False)
    if args.repin:
        return _repin(ids, ctx, args, project, out, environment["differences"])
    papers_ledger = project.root == papers().root
    want_safety = not (args.no_safety or args.claim or not papers_ledger)
    t0 = time.perf_counter()
    with _beside(want_safety and args.workers > 1, _safety_section, args.quick, ctx.profile, args.seed, args.area) as side:
        rows = _run_with_progress(ids, ctx, args.workers, out, project)
        elapsed = time.perf_counter() - t0
        section = side.result() if side is not None else None
    bad = drift(rows)
    quotes = _quotes(ids, project, rows)
    if not args.no_table:
        _print_tables(rows, out, project)
    safety = _safety(args, ctx, out, section) if want_safety else None
    run: dict[str, Any] = {"project": project.name, "seed": args.seed, "quick": args.quick,
                           "data_dir": str(data_dir) if data_dir else None, "drift": [r["id"] for r in bad],
                           "quotes": quotes, "environment": environment}
    if json_path:
        json_path.write_text(to_json(rows, run, safety), encoding="utf-8")
    if md_path:
        md_path.write_text(to_markdown(rows, run, safety, base=md_path.resolve().parent, areas=project.areas),
                           encoding="utf-8")
    if html_path:
        from privclaims.checks.html import to_html

        html_path.write_text(to_html(rows, run, safety, areas=project.areas), encoding="utf-8")
    out.print("summary: " + ", ".join(f"{k}: {v}" for k, v in summary(rows).items()) + f"  ({elapsed:.1f} s)")
    replayed = [r["id"] for r in rows if r.get("replayed")]
    if replayed:
        out.print(f"replayed: {len(replayed)} claim outcome(s) read back from ${REPLAY_ENV} ({os.environ.get(REPLAY_ENV)}), "
                  "not computed in this run", markup=False)
    if quotes["checked"]:
        out.print(f"quotes: those of {quotes['count']} claim(s) checked against the documents, "
                  f"{len(quotes['problems'])} problem(s)")
    else:
        out.print(f"quotes: not checked ({quotes['reason']})")
    if bad or quotes["problems"]:
        if bad:
            out.print(f"[bold red]{len(bad)} claim(s) differ from their pin or errored:[/]")
        for r in bad:
            out.print(f"  {r['id']}: computed {r['verdict']}, pinned {r['expected']}: {summary_line(r)}", markup=False)
            for line in (r.get("pin") or {}).get("moved", [])[:40]:
                out.print(f"      moved: {line}", markup=False)
        for line in quotes["problems"]:
            out.print(f"  quote: {line}", markup=False)
        if bad and pin_environment.drift_note(environment):
            out.print(pin_environment.drift_note(environment), style="bold red", markup=False)
        return 1
    if safety and (safety["unsafe_total"] or not safety.get("noise", {}).get("attack_defeated", True)):
        out.print(f"[bold red]float safety: {safety['unsafe_total']} unsafe fast-twin decision(s); "
                  f"noise attack defeated: {safety.get('noise', {}).get('attack_defeated')}[/]")
        return 1
    out.print("[green]all computed verdicts match their pins[/]")
    return 0


@contextmanager
def _beside(wanted: bool, fn: Callable[..., Any], *args: Any) -> Iterator[cf.Future | None]:
    """``fn(*args)`` in a process of its own while the block runs (the block's claims keep the ledger's workers;
    the process's result is the same as computing ``fn`` here, after them); None when not ``wanted``."""
    if not wanted:
        yield None
        return
    with cf.ProcessPoolExecutor(max_workers=1, mp_context=mp.get_context("fork")) as pool:
        yield pool.submit(fn, *args)


def _safety_kinds(area: list[str] | None) -> tuple[list[str], bool]:
    """The decision kinds of the selected areas, and whether Mironov's noise attack concerns them (an area with
    Laplace noise: zealous, dp)."""
    from privclaims.counterexamples.float_safety import KINDS

    return [k for k in KINDS if not area or k.split(".")[0] in area], not area or bool({"zealous", "dp"} & set(area))


def _safety_section(quick: bool, profile: str, seed: int, area: list[str] | None) -> dict[str, Any]:
    """The float-safety campaign's report section (quick: a few hundred instances per kind; full: the hypothesis
    profile's size), restricted to the decision kinds of the selected areas (:func:`_safety_kinds`)."""
    from privclaims.counterexamples.float_safety import campaign, safety_section

    kinds, noise = _safety_kinds(area)
    profile = "quick" if quick else profile
    return safety_section(campaign(profile, seed, kinds) if kinds else [], seed, profile, noise=noise)


def _safety(args: argparse.Namespace, ctx: Context, console: Any, sec: dict[str, Any] | None = None) -> dict[str, Any]:
    """The float-safety section (``sec`` when it was computed beside the claims, else computed here) and its table.
    Nothing is printed when nothing of it concerns the selection (the report's section then lists no kind)."""
    kinds, noise = _safety_kinds(args.area)
    if sec is None:
        sec = _safety_section(args.quick, ctx.profile, args.seed, args.area)
    profile = sec["profile"]
    if not kinds and not noise:
        return sec
    if not args.no_table and kinds:
        cols = ("kind", "instances", "boundary", "unsafe", "extra supp.", "rate", "rate off boundary", "s")
        _table_out(console, f"float safety: fast vs exact twins (profile {profile})", cols,
                   [[r["kind"], r["instances"], r["boundary"], r["unsafe"], r["extra_suppressions"],
                     f"{r['extra_suppression_rate']:.2%}", f"{r['extra_suppression_rate_off_boundary']:.2%}",
                     f"{r['seconds']:.1f}"] for r in sec["kinds"]],
                   styles={3: lambda v: "bold red" if v else "green"})
    from privclaims.checks.report import noise_line

    console.print(f"float safety: {sum(r['instances'] for r in sec['kinds'])} instances, {len(kinds)} decision kinds, "
                  f"{sec['unsafe_total']} unsafe")
    if noise:
        console.print(noise_line(sec["noise"]), markup=False)
    return sec


def _run_with_progress(ids: list[str], ctx: Context, workers: int, console: Any,
                       project: Project | None = None) -> list[dict[str, Any]]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from privclaims.checks.runner import run_claims

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True, disable=not console.is_terminal) as prog:
        task = prog.add_task("checking", total=len(ids))

        def done(row: dict[str, Any]) -> None:
            prog.update(task, advance=1, description=f"checked {row['id']}")

        return run_claims(ids, ctx, workers=workers, on_done=done, project=project)


def _table_out(console: Any, title: str, header: tuple[str, ...], rows: list[list[Any]],
               styles: dict[int, Any] | None = None, wide: int | None = None, whole: tuple[int, ...] = (0,)) -> None:
    """A table: rich on a terminal (columns ``whole`` never shrink, the others fold, ``wide`` keeps at least
    30 characters), else plain text in a fixed layout with every cell whole (CI logs, pipes)."""
    if not console.is_terminal:
        from privclaims.checks.render import table

        print(f"\n{title}")
        print("\n".join(table(list(header), [[str(c) for c in r] for r in rows], md=False)), flush=True)
        return
    from rich.markup import escape
    from rich.table import Table

    t = Table(title=title, show_lines=False, expand=False)
    for j, col in enumerate(header):
        t.add_column(col, overflow="fold", no_wrap=j in whole, min_width=30 if j == wide else
                     max([len(col), *(len(str(r[j])) for r in rows)]) if j in whole else None)
    for r in rows:
        cells = []
        for j, c in enumerate(r):
            style = (styles or {}).get(j)
            text = escape(str(c))
            cells.append(f"[{style(c)}]{text}[/]" if style else text)
        t.add_row(*cells)
    console.print(t)


def _print_tables(rows: list[dict[str, Any]], console: Any, project: Project) -> None:
    from privclaims.checks.report import summary_line, verdict_cell

    for area in project.areas:
        sub = [r for r in rows if r["area"] == area]
        if sub:
            _table_out(console, f"{area} ({len(sub)} claims)", ("claim", "method", "verdict", "pinned", "s", "summary"),
                       [[r["id"], r["method"], verdict_cell(r), r["expected"], f"{r['seconds']:.1f}", summary_line(r)]
                        for r in sub],
                       styles={2: lambda v: COLOURS.get(v.split(" ")[0], "white")}, wide=5, whole=(0, 2, 3))


def _list(ids: list[str], project: Project) -> int:
    """One line per claim: ID, area, method (the check's, else the catalog's suggestion), pinned verdict and
    the statement's first line (shortened only on a terminal, to its width). A broken pin file lists as
    ``broken-pin`` (a run refuses it, naming the rule; ``--repin`` replaces it)."""
    import shutil

    from privclaims.checks.pins import read_pin

    cat, checks_ = project.catalog, project.checks
    pins = {}
    for c in ids:
        try:
            pin = read_pin(project, c)
            pins[c] = pin["verdict"] if pin else None
        except ProjectError:
            pins[c] = "broken-pin"
    rows = [(c, cat[c].area, checks_[c].method if c in checks_ else f"({cat[c].check})", str(pins.get(c)),
             (cat[c].statement.splitlines() or [""])[0]) for c in ids]
    widths = [max(len(r[j]) for r in rows) for j in range(4)]
    tty = sys.stdout.isatty()
    room = shutil.get_terminal_size().columns - sum(widths) - 8
    for r in rows:
        stmt = r[4]
        if tty and len(stmt) > max(room, 20):
            stmt = stmt[: max(room, 20) - 1] + "…"
        print("  ".join(v.ljust(w) for v, w in zip(r, widths)) + "  " + stmt)
    return 0


def _read_report(path: str) -> dict[str, dict[str, Any]]:
    """The claims of a JSON report (schema 1 or 2), by ID."""
    import json

    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"--from {path!r} does not exist") from None
    except IsADirectoryError:
        raise UsageError(f"--from {path!r} is a directory") from None
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise UsageError(f"--from {path!r} is not a readable JSON report ({type(e).__name__})") from None
    claims_ = doc.get("claims") if isinstance(doc, dict) else None
    if not isinstance(claims_, list) or not all(isinstance(c, dict) and "id" in c and "verdict" in c for c in claims_):
        raise UsageError(f"--from {path!r} is not a ledger report (no list of claims with id and verdict)")
    return {c["id"]: c for c in claims_}


def _show(ids: list[str], ctx: Context, report: dict[str, dict[str, Any]] | None, project: Project,
          environment: dict[str, Any] | None = None) -> int:
    """Each claim whole, as Markdown text; exit 1 if one errored or differs from its pin (as the ledger), saying so
    when the pins were computed under other library versions (``environment``: :func:`pin_environment.summary`)."""
    from privclaims.checks.report import claim_markdown, markdown_text
    from privclaims.checks.runner import drift, run_one

    rows = []
    for cid in ids:
        if report is not None:
            if cid not in report:
                print(f"error: claim {cid!r} is not in the --from report", file=sys.stderr)
                return 2
            rows.append(report[cid])
        else:
            rows.append(run_one(cid, ctx, project))
    for r in rows:
        text = markdown_text(claim_markdown(r, level=2, fold=False, anchor=False))
        if sys.stdout.isatty():  # rendered; otherwise the Markdown source (CI logs, files, pipes)
            from rich.console import Console
            from rich.markdown import Markdown

            Console().print(Markdown(text))
        else:
            print(text, flush=True)
    bad = drift(rows)
    note = pin_environment.drift_note(environment) if bad and environment else None
    if note:
        print(note, flush=True)
    return 1 if bad else 0


def _quotes(ids: list[str], project: Project, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Every quote of the selected claims checked against the project's documents (when they are found): the
    readings', definitions', not-applicable reasons' and audits' quotes, and the quotes in the computed rows' own
    texts (:func:`privclaims.checks.quoting.row_text_problems`)."""
    from privclaims.checks.quoting import claim_quote_problems, row_quote_problems

    if project.documents_dir() is None:
        return {"checked": False, "count": 0, "problems": [],
                "reason": f"the documents {', '.join(project.config.documents.files) or '(none listed)'} were not found "
                          "(--documents DIR or the project's search path)"}
    computed = {r["id"]: r for r in rows}
    problems: list[str] = []
    for cid in ids:
        problems += row_quote_problems(project, computed[cid]) if cid in computed else claim_quote_problems(project, cid)
    return {"checked": True, "count": len(ids), "problems": problems}


def _repin(ids: list[str], ctx: Context, args: argparse.Namespace, project: Project, console: Any,
           other_versions: list[str]) -> int:
    """Run the selected claims in full and in --quick mode and write their pins with the given reason
    (``other_versions``: how the installed library versions differ from the pins'; then every claim is selected)."""
    from dataclasses import replace

    from privclaims.checks.pins import read_pin, write_pin

    broken = {}
    for cid in ids:  # a broken pin is replaced: the runs compare against no pin (forked workers inherit the cache)
        try:
            read_pin(project, cid)
        except ProjectError as e:
            broken[cid] = str(e)
            project.pin_cache[cid] = None
    try:
        full = _run_with_progress(ids, replace(ctx, quick=False), args.workers, console, project)
        quick_ids = [c for c in ids if c in project.checks and project.checks[c].quick]
        quick = {r["id"]: r for r in _run_with_progress(quick_ids, replace(ctx, quick=True), args.workers, console,
                                                        project)}
        errors = [r["id"] for r in full if r["verdict"] == "error" or (r["evidence"] or {}).get(SKIP_MARK)]
        if errors:
            console.print(f"[bold red]not re-pinned: {len(errors)} claim(s) errored or were skipped: {', '.join(errors)}[/]")
        if errors and other_versions:  # the others alone would leave pins of two environments
            console.print("not re-pinned either: the other claims, whose pins were computed under other library "
                          f"versions ({'; '.join(other_versions)}), re-pin only together with these", markup=False)
            return 1
        for r in full:
            if r["id"] in errors:
                continue
            old = read_pin(project, r["id"])
            path = write_pin(project, r["id"], r, quick.get(r["id"]), args.reason)
            change = f"{old['verdict']} -> {r['verdict']}" if old and old["verdict"] != r["verdict"] else r["verdict"]
            was = f"; replaced a broken pin ({broken.pop(r['id'])})" if r["id"] in broken else ""
            console.print(f"  pinned {r['id']}: {change} ({path}){was}", markup=False)
        if not errors and set(project.catalog) <= set(ids):  # every claim: the pins now share this environment
            console.print(f"  recorded the pins' library versions ({pin_environment.write(project)})", markup=False)
    finally:  # a broken pin not replaced is broken again for whatever runs next in this process
        for cid in broken:
            project.pin_cache.pop(cid, None)
    return 1 if errors else 0
