"""Mutation campaign over ``theory/`` (issue 13): how much regression do the tests and the ledger catch?

Each mutant of :mod:`privclaims.counterexamples.mutants.catalogue` is a small textual patch (``old`` -> ``new``,
``old`` occurring exactly once in its file). The campaign copies the repository once to a temporary
directory (without ``.venv``/``.git``), and for each mutant patches the copy, runs the nets, and
restores the file; the working tree is never touched. The copy imports its own code: every net runs
with ``cwd=copy``, ``PYTHONPATH=copy`` and ``PYTHONDONTWRITEBYTECODE=1`` (no stale ``.pyc`` after a
restore), and :func:`verify_isolation` checks, before any mutant, that ``privclaims.theory`` is imported from
the copy and that a deliberately broken ``theory/__init__.py`` in the copy makes ``import privclaims.theory``
fail. The installed package maps ``privclaims.theory`` (``.checks``, ``.counterexamples``) onto the top-level
folders; the copy gets symlinks ``privclaims/theory -> ../theory`` (and the two others) so that, with
``PYTHONPATH=copy``, the whole ``privclaims`` package resolves inside the copy before the editable install's
mapping is consulted.

Nets, in order, per mutant:

1. **tests** — the area's property tests (``property_tests/test_<area>_*.py`` for the mutant's area
   and its ledger areas) plus every test file importing the mutated module (computed from the import
   lines), run with ``pytest -x``; the first failing test is recorded.
2. **ledger** — ``python -m privclaims ledger --quick --area A ... --json`` restricted to the ledger areas; each
   claim whose verdict drifts from its pin (or errors) is recorded, and a float-safety failure (exit 1
   without drift) too.
3. **full ledger** (``--full`` only) — the full ledger of the same areas, run for every mutant that the
   first two nets did not kill (CPU is scarce: 2 cores shared; a mutant already killed stays killed
   whatever the full ledger says, so the killed/survived outcome equals running all three nets on every
   mutant; only the full ledger's drift list of already-killed mutants is not recorded: a record
   without ``"full_ledger"`` means "not needed").

A mutant is *killed* when some net fails (a net that exceeds its time limit counts as killed, and is
marked ``timeout``), *survived* when all pass, *error* when a net cannot run (pytest usage/internal
error). A patch whose ``old`` no longer occurs exactly once is a *catalogue error* (reported, never
skipped silently). The score is killed / (non-equivalent mutants that ran).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterable, Sequence

from privclaims.counterexamples.mutants.catalogue import BY_ID, CATALOGUE, Mutant

ROOT = Path(__file__).resolve().parents[2]
IGNORE = shutil.ignore_patterns(".venv", ".git", "__pycache__", ".hypothesis", ".pytest_cache", "*.egg-info",
                                "notebooks", "ledger*.json", "ledger*.md")
TEST_TIMEOUT = 240
HYPOTHESIS_SEED = 0  # the test net is deterministic: hypothesis draws the same examples on every run
LEDGER_TIMEOUT = 240
# Heavy or whole-project test files a per-mutant net never runs (they run every area's ledger or notebook).
EXCLUDED_TESTS = ("test_notebooks.py", "test_determinism.py", "test_ledger.py", "test_mutants.py")


# ------------------------------------------------------------------------------------- catalogue


def catalogue_errors(root: Path = ROOT, mutants: Iterable[Mutant] = CATALOGUE) -> list[str]:
    """Every reason a mutant cannot be applied cleanly to ``root`` (empty list: all apply)."""
    errs: list[str] = []
    seen: set[str] = set()
    for m in mutants:
        if m.id in seen:
            errs.append(f"{m.id}: duplicate id")
        seen.add(m.id)
        if m.old == m.new:
            errs.append(f"{m.id}: new text equals old text")
        f = root / m.file
        if not f.is_file():
            errs.append(f"{m.id}: {m.file} does not exist")
            continue
        n = f.read_text(encoding="utf-8").count(m.old)
        if n != 1:
            errs.append(f"{m.id}: old text occurs {n} times in {m.file} (must be exactly once)")
    return errs


def apply(root: Path, m: Mutant) -> str:
    """Patch ``root/m.file``; returns the original text (for :func:`restore`). Raises ValueError."""
    f = root / m.file
    text = f.read_text(encoding="utf-8")
    n = text.count(m.old)
    if n != 1:
        raise ValueError(f"{m.id}: old text occurs {n} times in {m.file}")
    f.write_text(text.replace(m.old, m.new), encoding="utf-8")
    return text


def restore(root: Path, m: Mutant, original: str) -> None:
    (root / m.file).write_text(original, encoding="utf-8")


# ------------------------------------------------------------------------------------- the copy


MAPPED = ("theory", "checks", "counterexamples")  # installed as privclaims.<name> (pyproject/setup.py)


def make_copy(dest: Path, root: Path = ROOT) -> Path:
    copy = dest / "tree"
    shutil.copytree(root, copy, ignore=IGNORE)
    for name in MAPPED:
        (copy / "privclaims" / name).symlink_to(Path("..") / name, target_is_directory=True)
    return copy


def net_env(copy: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(copy)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.setdefault("HYPOTHESIS_PROFILE", "dev")
    return env


def verify_isolation(copy: Path) -> dict[str, Any]:
    """The copy's code is what the nets import: ``privclaims.theory`` resolves inside the copy, and a broken
    ``theory/__init__.py`` in the copy (a deliberately broken mutant) makes ``import privclaims.theory`` fail."""
    probe = [sys.executable, "-c", "import privclaims.theory, privclaims.checks; print(privclaims.theory.__file__); "
             "print(privclaims.checks.__file__)"]
    r = subprocess.run(probe, cwd=copy, env=net_env(copy), capture_output=True, text=True, timeout=120)
    files = r.stdout.split()
    resolved = r.returncode == 0 and len(files) == 2 and all(Path(x).resolve().is_relative_to(copy.resolve()) for x in files)
    broken = Mutant("isolation-probe", "numbers", "validation", "theory/__init__.py", "", "", "probe")
    init = copy / "theory/__init__.py"
    original = init.read_text(encoding="utf-8")
    init.write_text(original + "\nraise RuntimeError('mutant isolation probe')\n", encoding="utf-8")
    try:
        r2 = subprocess.run(probe, cwd=copy, env=net_env(copy), capture_output=True, text=True, timeout=120)
    finally:
        restore(copy, broken, original)
    ok = resolved and r2.returncode != 0 and "mutant isolation probe" in r2.stderr
    return {"ok": ok, "imports_from_copy": resolved, "broken_copy_fails": r2.returncode != 0, "files": files}


# ------------------------------------------------------------------------------------- nets


def module_name(file: str) -> str:
    """The import name of a repository file: ``theory/zealous/exact.py`` -> ``privclaims.theory.zealous.exact``."""
    p = Path(file).with_suffix("")
    parts = list(p.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    if parts[0] in MAPPED:
        parts = ["privclaims", *parts]
    return ".".join(parts)


def _imports(text: str, module: str) -> bool:
    pkg, _, leaf = module.rpartition(".")
    if re.search(rf"(^|\s)(from|import)\s+{re.escape(module)}(\s|$|\.|,)", text, re.M):
        return True
    pat = rf"^\s*from\s+{re.escape(pkg)}\s+import\s+(\([^)]*\)|[^\n]*)"
    return any(re.search(rf"\b{re.escape(leaf)}\b", g.group(1)) for g in re.finditer(pat, text, re.M))


def relevant_tests(m: Mutant, root: Path = ROOT) -> list[str]:
    """The area property tests of the mutant's areas plus every test file importing the mutated module."""
    tests = sorted((root / "property_tests").glob("test_*.py"))
    areas = {m.area, *m.ledger_areas} - {"noise", "numbers"}
    mod = module_name(m.file)
    out = []
    for t in tests:
        if t.name in EXCLUDED_TESTS:
            continue
        by_area = any(t.name.startswith(f"test_{a}_") for a in areas)
        if by_area or _imports(t.read_text(encoding="utf-8"), mod):
            out.append(f"property_tests/{t.name}")
    return out


def _first_failure(out: str) -> str | None:
    for line in out.splitlines():
        if line.startswith(("FAILED ", "ERROR ")):
            return line.split(" - ")[0].split(" ", 1)[1]
    return None


def run_tests(copy: Path, tests: Sequence[str], timeout: int = TEST_TIMEOUT) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-rfE", "--no-header",
           "-o", "addopts=", f"--hypothesis-seed={HYPOTHESIS_SEED}", *tests]
    t0 = time.perf_counter()
    try:
        r = subprocess.run(cmd, cwd=copy, env=net_env(copy), capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "seconds": round(time.perf_counter() - t0, 1), "first_failure": None}
    secs = round(time.perf_counter() - t0, 1)
    if r.returncode == 0:
        status = "pass"
    elif r.returncode in (1, 2):  # failures / collection error (the mutant broke an import)
        status = "fail"
    else:
        status = "error"
    tail = (r.stdout + r.stderr).strip().splitlines()[-3:]
    return {"status": status, "seconds": secs, "first_failure": _first_failure(r.stdout), "returncode": r.returncode,
            "tail": tail if status != "pass" else []}


def run_ledger(copy: Path, areas: Sequence[str], quick: bool, out_json: Path, timeout: int = LEDGER_TIMEOUT) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "privclaims", "ledger", "--workers", "1", "--no-table", "--json", str(out_json)]
    for a in areas:
        cmd += ["--area", a]
    if quick:
        cmd.append("--quick")
    t0 = time.perf_counter()
    if out_json.exists():
        out_json.unlink()
    try:
        r = subprocess.run(cmd, cwd=copy, env=net_env(copy), capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "seconds": round(time.perf_counter() - t0, 1), "drift": []}
    secs = round(time.perf_counter() - t0, 1)
    drift: list[dict[str, str]] = []
    unsafe = None
    if out_json.exists():
        rep = json.loads(out_json.read_text(encoding="utf-8"))
        for c in rep["claims"]:
            if c["id"] in rep["run"]["drift"]:
                drift.append({"id": c["id"], "verdict": c["verdict"], "pinned": c["expected"]})
        if rep.get("safety"):
            unsafe = rep["safety"].get("unsafe_total")
    if r.returncode == 0:
        status = "pass"
    elif r.returncode == 1:
        status = "fail"
    else:
        status = "error"
    res: dict[str, Any] = {"status": status, "seconds": secs, "drift": drift, "unsafe_float_decisions": unsafe}
    if status != "pass" and not drift:
        res["tail"] = (r.stdout + r.stderr).strip().splitlines()[-4:]
    return res


def killing(statuses: Sequence[str]) -> bool:
    return any(s in ("fail", "timeout") for s in statuses)


def run_mutant(copy: Path, m: Mutant, quick: bool, work: Path) -> dict[str, Any]:
    rec: dict[str, Any] = {"id": m.id, "area": m.area, "kind": m.kind, "file": m.file, "description": m.description,
                           "equivalent": m.equivalent, "ledger_areas": list(m.ledger_areas)}
    try:
        original = apply(copy, m)
    except ValueError as e:
        rec.update(status="catalogue-error", reason=str(e))
        return rec
    try:
        tests = relevant_tests(m, copy)
        rec["test_files"] = tests
        rec["tests"] = run_tests(copy, tests)
        rec["ledger"] = run_ledger(copy, m.ledger_areas, True, work / f"{m.id}.json")
        nets = [rec["tests"]["status"], rec["ledger"]["status"]]
        if not quick and not killing(nets):
            rec["full_ledger"] = run_ledger(copy, m.ledger_areas, False, work / f"{m.id}.full.json")
            nets.append(rec["full_ledger"]["status"])
    finally:
        restore(copy, m, original)
    if killing(nets):
        rec["status"] = "killed"
        rec["killed_by"] = [n for n, s in zip(("tests", "ledger", "full_ledger"), nets) if s in ("fail", "timeout")]
    elif "error" in nets:
        rec["status"] = "error"
    else:
        rec["status"] = "survived"
    return rec


# ------------------------------------------------------------------------------------- campaign


def score(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    ran = [r for r in records if r["status"] in ("killed", "survived", "error")]
    non_eq = [r for r in ran if not r.get("equivalent")]
    killed = [r for r in non_eq if r["status"] == "killed"]
    return {
        "mutants": len(records),
        "equivalent": sum(1 for r in records if r.get("equivalent")),
        "non_equivalent_ran": len(non_eq),
        "killed": len(killed),
        "survived": [r["id"] for r in non_eq if r["status"] == "survived"],
        "errors": [r["id"] for r in records if r["status"] in ("error", "catalogue-error")],
        "equivalent_killed": [r["id"] for r in ran if r.get("equivalent") and r["status"] == "killed"],
        "score": round(len(killed) / len(non_eq), 4) if non_eq else None,
    }


def campaign(ids: Sequence[str] | None = None, quick: bool = True, progress: Any = None,
             partial: Path | None = None) -> dict[str, Any]:
    """Run the nets on each mutant; with ``partial`` the record so far is rewritten after each mutant."""
    mutants = list(CATALOGUE) if ids is None else [BY_ID[i] for i in ids]
    t0 = time.perf_counter()
    records: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="privclaims-mutants-") as tmp:
        work = Path(tmp)
        copy = make_copy(work)
        iso = verify_isolation(copy)
        if not iso["ok"]:
            raise RuntimeError(f"the copy does not import its own code: {iso}")
        bad = catalogue_errors(copy, mutants)
        for m in mutants:
            rec = run_mutant(copy, m, quick, work)
            records.append(rec)
            if progress:
                progress(rec)
            if partial:
                rep = _report(records, quick, iso, bad, t0, complete=len(records) == len(mutants))
                partial.write_text(json.dumps(rep, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return _report(records, quick, iso, bad, t0, complete=True)


def _report(records: list[dict[str, Any]], quick: bool, iso: dict[str, Any], bad: list[str], t0: float,
            complete: bool) -> dict[str, Any]:
    return {"version": 1, "mode": "quick" if quick else "full", "complete": complete, "isolation": iso,
            "catalogue_errors": bad, "hypothesis_profile": os.environ.get("HYPOTHESIS_PROFILE", "dev"),
            "seconds": round(time.perf_counter() - t0, 1), "score": score(records), "mutants": records}


def rerun_survivors(rep: dict[str, Any], quick: bool, progress: Any = None) -> dict[str, Any]:
    """Close-the-gaps pass: run again, on the current tree (with the tests added since), every mutant the
    record did not kill, and store the outcomes under ``rep["after_gaps"]`` (the first pass is kept as
    it was, so every survivor of the first pass stays visible)."""
    ids = [r["id"] for r in rep["mutants"] if r["status"] != "killed"]
    again = campaign(ids, quick=quick, progress=progress)
    first_killed = [r for r in rep["mutants"] if r["status"] == "killed"]
    merged = first_killed + again["mutants"]
    rep["after_gaps"] = {"mode": again["mode"], "seconds": again["seconds"], "isolation": again["isolation"],
                         "catalogue_errors": again["catalogue_errors"], "mutants": again["mutants"],
                         "score": score(merged)}
    return rep


def to_markdown(rep: dict[str, Any]) -> str:
    s = rep["score"]
    lines = [f"# Mutation campaign ({rep['mode']})", "",
             f"{s['mutants']} mutants, {s['equivalent']} argued equivalent; killed {s['killed']} of "
             f"{s['non_equivalent_ran']} non-equivalent (score {s['score']}); {rep['seconds']} s in all.", "",
             f"Survivors: {', '.join(s['survived']) or 'none'}. Errors: {', '.join(s['errors']) or 'none'}.", "",
             "| mutant | area | kind | status | first failing test | drifting claims (quick; full) | tests s | quick ledger s | full ledger s |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rep["mutants"]:
        t, lg, fl = r.get("tests", {}), r.get("ledger", {}), r.get("full_ledger", {})
        parts = []
        for net in (lg, fl):
            d = ", ".join(f"{x['id']} ({x['pinned']}→{x['verdict']})" for x in net.get("drift", []))
            if net.get("status") in ("fail", "timeout") and not d:
                d = "timeout" if net.get("status") == "timeout" else "float-safety / run failure"
            parts.append(d)
        drift = parts[0] + (f"; full: {parts[1]}" if parts[1] else "")
        status = r["status"] + (" (equivalent)" if r.get("equivalent") else "")
        ff = t.get("first_failure") or ("timeout" if t.get("status") == "timeout" else "")
        lines.append(f"| `{r['id']}` | {r['area']} | {r['kind']} | {status} | {ff} | {drift} | "
                     f"{t.get('seconds', '')} | {lg.get('seconds', '')} | {fl.get('seconds', '')} |")
    if rep.get("after_gaps"):
        a = rep["after_gaps"]
        sa = a["score"]
        lines += ["", "## After closing the gaps", "",
                  f"The mutants the first pass did not kill, run again on the tree with the new tests "
                  f"({a['mode']} nets, {a['seconds']} s): killed {sa['killed']} of {sa['non_equivalent_ran']} "
                  f"non-equivalent in all (score {sa['score']}). Survivors: {', '.join(sa['survived']) or 'none'}.", "",
                  "| mutant | status | first failing test | drifting claims (quick) |", "|---|---|---|---|"]
        for r in a["mutants"]:
            t, lg = r.get("tests", {}), r.get("ledger", {})
            d = ", ".join(x["id"] for x in lg.get("drift", []))
            status = r["status"] + (" (equivalent)" if r.get("equivalent") else "")
            lines.append(f"| `{r['id']}` | {status} | {t.get('first_failure') or ''} | {d} |")
    lines += ["", "## Descriptions and equivalence arguments", ""]
    for r in rep["mutants"]:
        eq = f" — equivalent: {r['equivalent']}" if r.get("equivalent") else ""
        lines.append(f"- `{r['id']}` ({r['file']}): {r['description']}{eq}")
    return "\n".join(lines) + "\n"
