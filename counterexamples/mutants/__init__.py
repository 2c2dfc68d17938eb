"""Mutation campaign over ``theory/`` (issues 13 and 23): which net catches each planted bug, and how fast?

Each mutant of :mod:`privclaims.counterexamples.mutants.catalogue` is a small textual patch (``old`` -> ``new``,
``old`` occurring exactly once in its file). The campaign copies the repository once per worker to a temporary
directory (without ``.venv``/``.git``), and for each mutant patches that copy, runs the nets and restores the file;
the working tree is never touched. The copy imports its own code: every net runs with ``cwd=copy``,
``PYTHONPATH=copy`` and ``PYTHONDONTWRITEBYTECODE=1`` (no stale ``.pyc`` after a restore), and
:func:`verify_isolation` checks, before any mutant, that ``privclaims.theory`` is imported from the copy and that a
deliberately broken ``theory/__init__.py`` in the copy makes ``import privclaims.theory`` fail (the copy gets
symlinks ``privclaims/theory -> ../theory`` and the two others, so that the whole ``privclaims`` package resolves
inside the copy before the editable install's mapping is consulted). Every net run gets a fresh, empty
``$PRIVCLAIMS_CACHE`` and hypothesis example database (no result computed under another mutant is ever reused),
the data and seed texts of the working tree (``$PRIVCLAIMS_DATA``, ``$PRIVCLAIMS_DOCUMENTS``), the hypothesis
profile of ``$HYPOTHESIS_PROFILE`` (default ``dev``) and ``--hypothesis-seed=0``.

The nets of a mutant (its *net areas*: its area and, for a shared module, the areas using it, :attr:`Mutant.net_areas`):

* **area-quick** - ``pytest`` on the area test files (``property_tests/test_<A>_*.py``, ``test_<A>.py`` and
  ``test_audit_<A>.py`` for each net area A; :func:`area_test_files`) with ``-x``, then
  ``privclaims ledger --quick --area A ...`` (the ledger areas among them; float safety of those areas included);
* **area-full** - the same tests, then the full ledger of those areas;
* **whole** - the whole suite (``pytest -n 2 property_tests``) and the full ledger of every area.

Order inside a net changes no outcome, only how soon a failure is found: the mutant's guards (the tests written
to catch it, :attr:`Mutant.guards`) run first in their own ``pytest`` invocation, then the rest of the area tests,
shortest first by the baseline's durations (the plugin :mod:`privclaims.counterexamples.mutants.order`), then the
ledger. A net is killed when a part fails (a part that exceeds its time limit counts as killed, marked
``timeout``); the first failure is what killed it. The nets nest: a test failure of the area net kills all three;
otherwise the quick and the full ledger are both run (``--full``); the whole net contains the area-full net (the
same tests and seeds, and the full ledger of every area contains the area's), so it is run only for the mutants
the area-full net did not kill. For a mutant the area-quick net does not kill, the *broader* net - the other test
files importing the mutated module - is run and recorded separately (it is no area net).

What never counts as a kill (:data:`NEVER_COUNTS`): ``test_mutants.py`` (the campaign's own machinery; it fails
whenever a catalogued line changes, a maintenance signal) and the float-safety campaign's self-test; the whole
net deselects them. A patch whose ``old`` no longer occurs exactly once is a *catalogue error*, reported and
never run. Before any mutant, each area's nets run on the unmutated copy (the *baseline*): they must pass (a red
baseline makes that area's outcomes errors, never kills), and their times are the nets' times in the record.

Scores, per net: killed / non-equivalent mutants that ran. ``--quick`` runs the area-quick nets only (2 workers by
default); ``--full`` adds the area-full and whole nets.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from privclaims.checks.outcome_memo import VARIABLES as OUTCOME_VARIABLES
from privclaims.counterexamples.mutants.catalogue import BY_ID, CATALOGUE, LEDGER_AREAS, Mutant
from privclaims.counterexamples.mutants.order import DURATIONS_ENV, ORDER_ENV

ROOT = Path(__file__).resolve().parents[2]
IGNORE = shutil.ignore_patterns(".venv", ".git", "__pycache__", ".hypothesis", ".pytest_cache", "*.egg-info",
                                "notebooks", "ledger*.json", "ledger*.md", "mutants_*.json", "mutants_*.md")
HYPOTHESIS_SEED = 0  # every net is deterministic: hypothesis draws the same examples on every run
NETS = ("area_quick", "area_full", "whole")
SLOW_AREAS = ("zealous", "ads")  # their area tests take minutes (AOL engines and services)
NEVER_COUNTS = {
    "property_tests/test_mutants.py":
        "the campaign's own machinery: it fails whenever a catalogued line changes (a maintenance signal)",
    "property_tests/test_float_safety.py::test_campaign_detects_an_unsafe_twin":
        "the float-safety campaign's self-test (its planted instance happens to be an exact Step-5 tie), not a test "
        "of the code",
}
# Whole-project test files the broader net never runs (they run every area's ledger or notebook; the whole net has them).
HEAVY_TESTS = ("test_notebooks.py", "test_determinism.py", "test_ledger.py", "test_mutants.py")


def _limit(baseline_seconds: float | None, floor: float = 300.0) -> float:
    """A part's time limit: generous (the machine is shared), only meant to stop a hang."""
    return max(floor, 5 * (baseline_seconds or 0.0) + 120)


# ------------------------------------------------------------------------------------- catalogue


def _guard_ok(root: Path, guard: str) -> bool:
    if guard.startswith("claim:"):
        catalog = json.loads((root / "checks/catalog.json").read_text(encoding="utf-8"))
        return any(c["id"] == guard[len("claim:"):] for c in catalog["claims"])
    path, _, name = guard.partition("::")
    f = root / path
    fn = name.split("[")[0]
    return bool(fn) and f.is_file() and re.search(rf"^def {re.escape(fn)}\(", f.read_text(encoding="utf-8"), re.M) is not None


def catalogue_errors(root: Path = ROOT, mutants: Iterable[Mutant] = CATALOGUE) -> list[str]:
    """Every reason a mutant cannot be applied cleanly to ``root``, or names a guard that does not exist (empty: all fine)."""
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
        for g in m.guards:
            if not _guard_ok(root, g):
                errs.append(f"{m.id}: guard {g} does not exist")
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


@contextmanager
def planted(root: Path, m: Mutant) -> Iterator[None]:
    original = apply(root, m)
    try:
        yield
    finally:
        restore(root, m, original)


# ------------------------------------------------------------------------------------- the copy


MAPPED = ("theory", "checks", "counterexamples")  # installed as privclaims.<name> (pyproject/setup.py)


def make_copy(dest: Path, root: Path = ROOT) -> Path:
    copy = dest / "tree"
    shutil.copytree(root, copy, ignore=IGNORE)
    for name in MAPPED:
        (copy / "privclaims" / name).symlink_to(Path("..") / name, target_is_directory=True)
    return copy


def _beside(env_name: str, *parts: str) -> str | None:
    if os.environ.get(env_name):
        return os.environ[env_name]
    p = ROOT.parent.joinpath(*parts)
    return str(p) if p.is_dir() else None


DATA_DIR = _beside("PRIVCLAIMS_DATA", "shared", "data")
DOCUMENTS_DIR = _beside("PRIVCLAIMS_DOCUMENTS", "shared", "seeds")


def net_env(copy: Path, scratch: Path | None = None) -> dict[str, str]:
    """The environment of a net run in ``copy``; ``scratch`` (a fresh folder) holds its cache and example database."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(copy)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.setdefault("HYPOTHESIS_PROFILE", "dev")
    for name, value in (("PRIVCLAIMS_DATA", DATA_DIR), ("PRIVCLAIMS_DOCUMENTS", DOCUMENTS_DIR)):
        if value:
            env[name] = value
    if scratch is not None:
        env["PRIVCLAIMS_CACHE"] = str(scratch / "cache")
        env["HYPOTHESIS_STORAGE_DIRECTORY"] = str(scratch / "hypothesis")
    for k in (ORDER_ENV, DURATIONS_ENV, *OUTCOME_VARIABLES):  # a net computes every claim (no recorded outcome)
        env.pop(k, None)
    return env


def verify_isolation(copy: Path, runner: "Zygote | None" = None) -> dict[str, Any]:
    """The copy's code is what the nets import: ``privclaims.theory`` resolves inside the copy, and a broken
    ``theory/__init__.py`` in the copy (a deliberately broken mutant) makes ``import privclaims.theory`` fail - in a new
    interpreter and, with ``runner``, in a child of the worker's fork server (which re-imports from disk)."""
    code = ("import privclaims.theory, privclaims.checks; print(privclaims.theory.__file__); "
            "print(privclaims.checks.__file__)")

    def probe() -> tuple[int | None, str]:
        with tempfile.TemporaryDirectory() as tmp:
            r, text = _invoke(copy, ["-c", code], net_env(copy), Path(tmp), 300, runner)
        return r["rc"], text

    rc, text = probe()
    files = [x for x in text.split() if x.endswith(".py")]
    resolved = rc == 0 and len(files) == 2 and all(Path(x).resolve().is_relative_to(copy.resolve()) for x in files)
    init = copy / "theory/__init__.py"
    original = init.read_text(encoding="utf-8")
    init.write_text(original + "\nraise RuntimeError('mutant isolation probe')\n", encoding="utf-8")
    try:
        rc2, text2 = probe()
    finally:
        init.write_text(original, encoding="utf-8")
    ok = resolved and rc2 != 0 and "mutant isolation probe" in text2
    return {"ok": ok, "imports_from_copy": resolved, "broken_copy_fails": rc2 != 0, "files": files,
            "fork_server": runner is not None}


# ------------------------------------------------------------------------------------- which tests


def is_area_file(name: str, area: str) -> bool:
    """``test_<area>.py``, ``test_<area>_*.py`` or ``test_audit_<area>.py``."""
    stem = name[len("test_"):-len(".py")] if name.startswith("test_") and name.endswith(".py") else ""
    return stem == area or stem.startswith(area + "_") or stem == f"audit_{area}"


def area_test_files(areas: Sequence[str], root: Path = ROOT) -> list[str]:
    """The area nets' test files for ``areas`` (the definition of the area net, nothing imported-based)."""
    return [f"property_tests/{t.name}" for t in sorted((root / "property_tests").glob("test_*.py"))
            if any(is_area_file(t.name, a) for a in areas)]


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


def broader_test_files(m: Mutant, root: Path = ROOT) -> list[str]:
    """The test files importing the mutated module that are not in the mutant's area nets (nor whole-project heavy
    files): what an import-based net would add to the area net."""
    own = set(area_test_files(m.net_areas, root))
    mod = module_name(m.file)
    out = []
    for t in sorted((root / "property_tests").glob("test_*.py")):
        name = f"property_tests/{t.name}"
        if name in own or t.name in HEAVY_TESTS:
            continue
        if _imports(t.read_text(encoding="utf-8"), mod):
            out.append(name)
    return out


def never_counts(nodeid: str) -> str | None:
    """Why a failing test is no kill (None: it counts)."""
    for prefix, why in NEVER_COUNTS.items():
        if nodeid == prefix or nodeid.startswith(prefix + "::") or nodeid.startswith(prefix + "["):
            return why
    return None


# ------------------------------------------------------------------------------------- running a part of a net


def _failures(out: str) -> list[str]:
    fails = []
    for line in out.splitlines():
        if line.startswith(("FAILED ", "ERROR ")):
            fails.append(line.split(" - ")[0].split(" ", 1)[1].strip())
    return fails


class Zygote:
    """A worker's fork server (:mod:`privclaims.counterexamples.mutants.zygote`, started in the worker's copy): net
    parts run as forked children of one process that imported the heavy third-party modules once."""

    def __init__(self, copy: Path) -> None:
        env = net_env(copy)
        self.proc = subprocess.Popen([sys.executable, "-P", str(copy / "counterexamples/mutants/zygote.py")], cwd=copy,
                                     env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        if not line:
            raise RuntimeError("the campaign's fork server did not start")
        self.preloaded = json.loads(line)["preloaded"]

    def run(self, argv: list[str], cwd: Path, env: dict[str, str], out: Path, timeout: float) -> dict[str, Any]:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps({"argv": argv, "cwd": str(cwd), "env": env, "out": str(out), "timeout": timeout}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the campaign's fork server died")
        return json.loads(line)

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def _spawn(argv: list[str], cwd: Path, env: dict[str, str], out: Path, timeout: float) -> dict[str, Any]:
    """The same as :meth:`Zygote.run` without a fork server: a new interpreter (``python -m pytest`` / ``-m module``)."""
    cmd = [sys.executable, "-m", "pytest", *argv[1:]] if argv[0] == "pytest" else [sys.executable, *argv]  # -m / -c
    t0 = time.perf_counter()
    with open(out, "w", encoding="utf-8") as fh:
        p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=fh, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                             start_new_session=True)
        timed_out = False
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - t0 > timeout:
                timed_out = True
                os.killpg(p.pid, 9)
                pid, status, ru = os.wait4(p.pid, 0)
                break
            time.sleep(0.05)
        p.returncode = os.waitstatus_to_exitcode(status)
    return {"rc": None if timed_out else p.returncode, "timeout": timed_out, "seconds": round(time.perf_counter() - t0, 2),
            "cpu": round(ru.ru_utime + ru.ru_stime, 2)}


def _invoke(copy: Path, argv: list[str], env: dict[str, str], scratch: Path, timeout: float,
            runner: Zygote | None) -> tuple[dict[str, Any], str]:
    out = scratch / "output.txt"
    r = runner.run(argv, copy, env, out, timeout) if runner is not None else _spawn(argv, copy, env, out, timeout)
    text = out.read_text(encoding="utf-8", errors="replace") if out.exists() else ""
    return r, text


PYTEST_TIMEOUT_BANNER = re.compile(r"^\+{3,} Timeout \+{3,}$", re.M)  # what pytest-timeout prints before it ends a hung run


def run_pytest(copy: Path, tests: Sequence[str], scratch: Path, *, first: Sequence[str] = (), skip: Sequence[str] = (),
               durations: dict[str, float] | None = None, durations_out: Path | None = None, exitfirst: bool = True,
               workers: int = 1, deselect: Sequence[str] = (), ignore: Sequence[str] = (), timeout: float = 600,
               runner: Zygote | None = None) -> dict[str, Any]:
    """One ``pytest`` invocation in ``copy``: status ``pass`` / ``fail`` / ``timeout`` / ``error`` (pytest's usage or
    internal error, or nothing collected), the failing node ids (kills first, non-counting ones marked)."""
    scratch.mkdir(parents=True, exist_ok=True)
    env = net_env(copy, scratch)
    order = scratch / "order.json"
    order.write_text(json.dumps({"first": list(first), "skip": list(skip), "durations": durations or {}}), encoding="utf-8")
    env[ORDER_ENV] = str(order)
    if durations_out is not None:
        env[DURATIONS_ENV] = str(durations_out)
    args = ["-q", "-p", "no:cacheprovider", "-p", "privclaims.counterexamples.mutants.order", "-rfE", "--no-header",
            "-o", "addopts=", f"--hypothesis-seed={HYPOTHESIS_SEED}"]
    args += ["-x"] if exitfirst else []
    args += ["-n", str(workers)] if workers > 1 else ["-p", "no:xdist"]
    args += [a for d in deselect for a in ("--deselect", d)] + [f"--ignore={i}" for i in ignore]
    args += list(tests)
    r, text = _invoke(copy, ["pytest", *args], env, scratch, timeout, runner)
    if r["timeout"]:
        return {"status": "timeout", "seconds": r["seconds"], "cpu": r["cpu"], "failures": [], "limit": timeout}
    fails = _failures(text)
    counted = [f for f in fails if not never_counts(f)]
    rc = r["rc"]
    if rc == 0:
        status = "pass"
    elif rc in (1, 2) and (counted or not fails):  # failures, or a collection error (a broken import)
        status = "fail"
    elif rc == 1:
        status = "pass"  # only non-counting tests failed
    else:
        status = "error"  # 3 internal error, 4 usage error, 5 nothing collected, a signal
    res: dict[str, Any] = {"status": status, "seconds": r["seconds"], "cpu": r["cpu"], "failures": counted, "returncode": rc}
    if PYTEST_TIMEOUT_BANNER.search(text):  # pytest-timeout (thread method) ended the run: a test hung
        res["hung"] = True
    ignored = [f for f in fails if never_counts(f)]
    if ignored:
        res["not_counted"] = ignored
    if status != "pass":
        res["tail"] = text.strip().splitlines()[-4:]
    return res


def run_ledger(copy: Path, areas: Sequence[str], quick: bool, scratch: Path, timeout: float = 900,
               runner: Zygote | None = None) -> dict[str, Any]:
    """``privclaims ledger [--quick] --area A ...`` in ``copy``: ``pass`` / ``fail`` (a claim drifts from its pin, or
    the float-safety campaign of those areas finds an unsafe fast-twin decision) / ``timeout`` / ``error``."""
    scratch.mkdir(parents=True, exist_ok=True)
    out_json = scratch / "ledger.json"
    argv = ["-m", "privclaims", "ledger", "--workers", "1", "--no-table", "--json", str(out_json)]
    for a in areas:
        argv += ["--area", a]
    if quick:
        argv.append("--quick")
    r, text = _invoke(copy, argv, net_env(copy, scratch), scratch, timeout, runner)
    if r["timeout"]:
        return {"status": "timeout", "seconds": r["seconds"], "cpu": r["cpu"], "drift": [], "limit": timeout}
    secs, cpu = r["seconds"], r["cpu"]
    drift: list[dict[str, Any]] = []
    unsafe = None
    if out_json.exists():
        rep = json.loads(out_json.read_text(encoding="utf-8"))
        for c in rep["claims"]:
            if c["id"] in rep["run"]["drift"]:
                drift.append({"id": c["id"], "verdict": c["verdict"], "pinned": c["expected"],
                              "moved": ((c.get("pin") or {}).get("moved") or [])[:3]})
        if rep.get("safety"):
            unsafe = rep["safety"].get("unsafe_total")
    status = {0: "pass", 1: "fail"}.get(r["rc"], "error")
    res: dict[str, Any] = {"status": status, "seconds": secs, "cpu": cpu, "drift": drift, "unsafe_float_decisions": unsafe}
    if status != "pass" and not drift:
        res["tail"] = text.strip().splitlines()[-4:]
    return res


def killing(status: str | None) -> bool:
    return status in ("fail", "timeout")


def ledger_killer(lg: dict[str, Any]) -> str:
    if lg.get("status") == "timeout":
        return "ledger: timeout"
    if lg.get("drift"):
        d = lg["drift"][0]
        return f"claim:{d['id']} ({d['pinned']}→{d['verdict']}{', moved' if d.get('moved') else ''})"
    if lg.get("unsafe_float_decisions"):
        return f"ledger float safety: {lg['unsafe_float_decisions']} unsafe fast-twin decision(s)"
    return "ledger: run failure"


# ------------------------------------------------------------------------------------- one mutant


class Worker:
    """One worker's copy of the tree (reused for every mutant it runs) and its scratch folders."""

    def __init__(self, base: Path, k: int, fork_server: bool = True) -> None:
        self.base = base / f"worker{k}"
        self.base.mkdir(parents=True)
        self.copy = make_copy(self.base)
        self.zygote = Zygote(self.copy) if fork_server else None
        self.isolation = verify_isolation(self.copy, self.zygote)
        self._n = 0

    def close(self) -> None:
        if self.zygote is not None:
            self.zygote.close()

    def scratch(self) -> Path:
        self._n += 1
        p = self.base / f"run{self._n}"
        if p.exists():
            shutil.rmtree(p)
        return p

    def clean(self, p: Path) -> None:
        shutil.rmtree(p, ignore_errors=True)


def _guard_tests(m: Mutant, files: Sequence[str]) -> list[str]:
    return [g for g in m.guards if not g.startswith("claim:") and g.split("::")[0] in files]


def _guard_hit(m: Mutant, by: str | None) -> bool:
    if not by:
        return False
    for g in m.guards:
        if g.startswith("claim:") and by.startswith(g + " "):
            return True
        if not g.startswith("claim:") and (by == g or by.startswith(g + "[")):
            return True
    return False


def run_area_nets(w: Worker, m: Mutant, full: bool, baseline: dict[str, Any]) -> dict[str, Any]:
    """The area nets of one mutant (planted in ``w``'s copy): tests (guards first), quick ledger, full ledger (full)."""
    files = area_test_files(m.net_areas, w.copy)
    guards = _guard_tests(m, files)
    durations = baseline.get("durations", {})
    t_limit = _limit(baseline.get("tests_seconds"))
    rec: dict[str, Any] = {"test_files": files}
    parts: list[dict[str, Any]] = []
    with planted(w.copy, m):
        if guards:
            s = w.scratch()
            g = run_pytest(w.copy, guards, s, first=guards, timeout=t_limit, runner=w.zygote)
            w.clean(s)
            g["part"] = "guards"
            parts.append(g)
        if not parts or not killing(parts[-1]["status"]):
            s = w.scratch()
            r = run_pytest(w.copy, files, s, skip=guards, durations=durations, timeout=t_limit, runner=w.zygote)
            w.clean(s)
            r["part"] = "area tests"
            parts.append(r)
        tests = {"status": "fail" if any(killing(p["status"]) for p in parts) else
                 ("error" if any(p["status"] == "error" for p in parts) else "pass"),
                 "seconds": round(sum(p["seconds"] for p in parts), 1), "cpu": round(sum(p.get("cpu", 0) for p in parts), 1),
                 "parts": parts}
        if any(p["status"] == "timeout" for p in parts):
            tests["status"] = "timeout"
        failing = [p for p in parts if killing(p["status"])]
        if failing:
            f = failing[0]
            tests["killer"] = f["failures"][0] if f["failures"] else (
                f"{f['part']}: timeout" if f["status"] == "timeout" else
                f"{f['part']}: a test hung (stopped by pytest-timeout)" if f.get("hung") else f"{f['part']}: collection error")
        rec["tests"] = tests
        if not killing(tests["status"]) and m.ledger_areas:
            s = w.scratch()
            rec["quick_ledger"] = run_ledger(w.copy, m.ledger_areas, True, s, _limit(baseline.get("quick_ledger_seconds")),
                                             runner=w.zygote)
            w.clean(s)
            if full:
                s = w.scratch()
                rec["full_ledger"] = run_ledger(w.copy, m.ledger_areas, False, s, _limit(baseline.get("full_ledger_seconds")),
                                                runner=w.zygote)
                w.clean(s)
        nets = _area_verdicts(m, rec, full)
        rec["nets"] = nets
        if nets["area_quick"]["status"] != "killed" and not m.equivalent:
            broader = broader_test_files(m, w.copy)
            if broader:
                s = w.scratch()
                b = run_pytest(w.copy, broader, s, durations=durations, timeout=_limit(None, 900), runner=w.zygote)
                w.clean(s)
                b["files"] = broader
                rec["broader"] = b
    return rec


def _net(status_tests: str, ledger: dict[str, Any] | None, tests_killer: str | None) -> dict[str, Any]:
    if killing(status_tests):
        return {"status": "killed", "by": tests_killer}
    if ledger is not None and killing(ledger["status"]):
        return {"status": "killed", "by": ledger_killer(ledger)}
    if status_tests == "error" or (ledger is not None and ledger["status"] == "error"):
        return {"status": "error"}
    return {"status": "survived"}


def _area_verdicts(m: Mutant, rec: dict[str, Any], full: bool) -> dict[str, Any]:
    t = rec["tests"]
    nets = {"area_quick": _net(t["status"], rec.get("quick_ledger"), t.get("killer"))}
    if full:
        nets["area_full"] = _net(t["status"], rec.get("full_ledger"), t.get("killer"))
    for n in nets.values():
        n["guard"] = _guard_hit(m, n.get("by"))
    return nets


def run_whole_net(w: Worker, m: Mutant, baseline: dict[str, Any]) -> dict[str, Any]:
    """The whole suite (2 xdist workers, every failure collected; the non-counting tests deselected) and the full
    ledger of every area, on one mutant."""
    with planted(w.copy, m):
        s = w.scratch()
        t = run_pytest(w.copy, ["property_tests"], s, exitfirst=False, workers=2,
                       deselect=[k for k in NEVER_COUNTS if "::" in k],
                       ignore=[k for k in NEVER_COUNTS if "::" not in k], timeout=_limit(baseline.get("tests_seconds")),
                       runner=w.zygote)
        w.clean(s)
        s = w.scratch()
        lg = run_ledger(w.copy, LEDGER_AREAS, False, s, _limit(baseline.get("full_ledger_seconds")), runner=w.zygote)
        w.clean(s)
    net = _net(t["status"], lg, t["failures"][0] if t["failures"] else ("timeout" if t["status"] == "timeout" else None))
    net["guard"] = _guard_hit(m, net.get("by"))
    return {"tests": t, "full_ledger": lg, "net": net}


# ------------------------------------------------------------------------------------- baselines


def run_baseline(w: Worker, area: str, full: bool) -> dict[str, Any]:
    """One area's nets on the unmutated copy: they must pass; their durations order the later runs."""
    files = area_test_files([area], w.copy)
    s = w.scratch()
    out = s / "durations.json"
    t = run_pytest(w.copy, files, s, exitfirst=False, durations_out=out, timeout=3600, runner=w.zygote)
    durations = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
    w.clean(s)
    rec: dict[str, Any] = {"area": area, "test_files": files, "tests": t, "tests_seconds": t["seconds"],
                           "durations": durations}
    if area in LEDGER_AREAS:
        s = w.scratch()
        rec["quick_ledger"] = run_ledger(w.copy, [area], True, s, 3600, runner=w.zygote)
        rec["quick_ledger_seconds"] = rec["quick_ledger"]["seconds"]
        w.clean(s)
        if full:
            s = w.scratch()
            rec["full_ledger"] = run_ledger(w.copy, [area], False, s, 3600, runner=w.zygote)
            rec["full_ledger_seconds"] = rec["full_ledger"]["seconds"]
            w.clean(s)
    rec["green"] = all(rec[k]["status"] == "pass" for k in ("tests", "quick_ledger", "full_ledger") if k in rec)
    return rec


def run_whole_baseline(w: Worker) -> dict[str, Any]:
    s = w.scratch()
    t = run_pytest(w.copy, ["property_tests"], s, exitfirst=False, workers=2, deselect=[k for k in NEVER_COUNTS if "::" in k],
                   ignore=[k for k in NEVER_COUNTS if "::" not in k], timeout=7200, runner=w.zygote)
    w.clean(s)
    s = w.scratch()
    lg = run_ledger(w.copy, LEDGER_AREAS, False, s, 7200, runner=w.zygote)
    w.clean(s)
    return {"tests": t, "full_ledger": lg, "tests_seconds": t["seconds"], "full_ledger_seconds": lg["seconds"],
            "green": t["status"] == "pass" and lg["status"] == "pass"}


def _merged_baseline(base: dict[str, dict[str, Any]], areas: Sequence[str]) -> dict[str, Any]:
    parts = [base[a] for a in areas if a in base]
    out: dict[str, Any] = {"durations": {}, "green": all(p["green"] for p in parts)}
    for p in parts:
        out["durations"].update(p["durations"])
    for k in ("tests_seconds", "quick_ledger_seconds", "full_ledger_seconds"):
        out[k] = sum(p.get(k) or 0.0 for p in parts)
    return out


# ------------------------------------------------------------------------------------- campaign


def score(records: Sequence[dict[str, Any]], net: str) -> dict[str, Any]:
    """Killed / non-equivalent mutants that ran, for one net."""
    ran = [r for r in records if net in r.get("nets", {}) and r["nets"][net]["status"] in ("killed", "survived")]
    non_eq = [r for r in ran if not r.get("equivalent")]
    killed = [r for r in non_eq if r["nets"][net]["status"] == "killed"]
    return {
        "mutants": len(records),
        "equivalent": sum(1 for r in records if r.get("equivalent")),
        "non_equivalent_ran": len(non_eq),
        "killed": len(killed),
        "survived": [r["id"] for r in non_eq if r["nets"][net]["status"] == "survived"],
        "errors": [r["id"] for r in records if r.get("status") in ("error", "catalogue-error")
                   or r.get("nets", {}).get(net, {}).get("status") == "error"],
        "equivalent_killed": [r["id"] for r in ran if r.get("equivalent") and r["nets"][net]["status"] == "killed"],
        "killed_by_a_guard": sum(1 for r in killed if r["nets"][net].get("guard")),
        "score": round(len(killed) / len(non_eq), 4) if non_eq else None,
    }


def _mutant_record(m: Mutant) -> dict[str, Any]:
    return {"id": m.id, "area": m.area, "kind": m.kind, "file": m.file, "description": m.description,
            "equivalent": m.equivalent, "net_areas": list(m.net_areas), "ledger_areas": list(m.ledger_areas),
            "guards": list(m.guards), "why": m.why}


def campaign(ids: Sequence[str] | None = None, quick: bool = True, workers: int = 2, progress: Callable | None = None,
             partial: Path | None = None, before: dict[str, Any] | None = None) -> dict[str, Any]:
    """Run the nets on each mutant (``quick``: the area-quick nets; else all three), ``workers`` at a time; with
    ``partial`` the record so far is rewritten after each mutant."""
    full = not quick
    mutants = list(CATALOGUE) if ids is None else [BY_ID[i] for i in ids]
    t0 = time.perf_counter()
    lock = threading.Lock()
    records: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="privclaims-mutants-") as tmp:
        pool_workers: list[Worker] = []
        try:
            for k in range(max(1, workers)):
                pool_workers.append(Worker(Path(tmp), k))
            iso = [w.isolation for w in pool_workers]
            if not all(i["ok"] for i in iso):
                raise RuntimeError(f"a copy does not import its own code: {iso}")
            bad = catalogue_errors(pool_workers[0].copy, mutants)
            bad_ids = {e.split(":")[0] for e in bad if "guard" not in e}
            free: queue.Queue[Worker] = queue.Queue()
            for w in pool_workers:
                free.put(w)

            def on(fn: Callable[[Worker], Any]) -> Any:
                w = free.get()
                try:
                    return fn(w)
                finally:
                    free.put(w)

            # the slowest baselines first (two workers share them)
            areas = sorted({a for m in mutants for a in m.net_areas}, key=lambda a: (a not in SLOW_AREAS, a))
            t_base = time.perf_counter()
            with ThreadPoolExecutor(max_workers=len(pool_workers)) as ex:
                baseline = dict(zip(areas, ex.map(lambda a: on(lambda w: run_baseline(w, a, full)), areas)))
            base_seconds = round(time.perf_counter() - t_base, 1)

            def one(m: Mutant) -> dict[str, Any]:
                rec = _mutant_record(m)
                if m.id in bad_ids:
                    rec.update(status="catalogue-error", reason=[e for e in bad if e.startswith(m.id + ":")])
                    return rec
                b = _merged_baseline(baseline, m.net_areas)
                if not b["green"]:
                    rec.update(status="error", reason="baseline red for " + ", ".join(a for a in m.net_areas if not baseline[a]["green"]))
                    return rec
                t1 = time.perf_counter()
                rec.update(on(lambda w: run_area_nets(w, m, full, b)))
                rec["seconds"] = round(time.perf_counter() - t1, 1)
                rec["cpu"] = round(_cpu(rec), 1)
                rec["status"] = rec["nets"]["area_quick"]["status"]
                with lock:
                    records[m.id] = rec
                    if progress:
                        progress(rec)
                    if partial:
                        _write(partial, _report([records[x.id] for x in mutants if x.id in records], quick, iso, bad, t0,
                                                baseline, base_seconds, None, len(records) == len(mutants), before))
                return rec

            with ThreadPoolExecutor(max_workers=len(pool_workers)) as ex:
                done = list(ex.map(one, mutants))
            whole_base = run_whole_baseline(pool_workers[0]) if full else None
            for rec in done if full else ():
                if "nets" not in rec:
                    continue
                w = pool_workers[0]
                if rec["nets"]["area_full"]["status"] == "killed":
                    rec["nets"]["whole"] = {**rec["nets"]["area_full"], "inferred": "contains the area-full net that killed it"}
                elif rec.get("equivalent"):
                    rec["nets"]["whole"] = {"status": "not run", "reason": "argued equivalent (outside every score); its "
                                            "area nets ran as the check of the argument"}
                elif not whole_base["green"]:
                    rec["nets"]["whole"] = {"status": "error", "reason": "whole baseline red"}
                else:
                    wh = run_whole_net(w, BY_ID[rec["id"]], whole_base)
                    rec["whole"] = {"tests": wh["tests"], "full_ledger": wh["full_ledger"]}
                    rec["nets"]["whole"] = wh["net"]
                if progress:
                    progress(rec, net="whole")
        finally:
            for w in pool_workers:
                w.close()
        rep = _report(done, quick, iso, bad, t0, baseline, base_seconds, whole_base, True, before)
        if partial:
            _write(partial, rep)
        return rep


def _cpu(rec: dict[str, Any]) -> float:
    """CPU seconds of every net part recorded in ``rec`` (a mutant's or a baseline's)."""
    tot = 0.0
    for k in ("tests", "quick_ledger", "full_ledger", "broader"):
        part = rec.get(k)
        if isinstance(part, dict):
            tot += part.get("cpu") or 0.0
    return tot


def _write(path: Path, rep: dict[str, Any]) -> None:
    path.write_text(json.dumps(rep, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _report(records: list[dict[str, Any]], quick: bool, iso: list, bad: list[str], t0: float,
            baseline: dict[str, Any], base_seconds: float, whole_base: dict[str, Any] | None, complete: bool,
            before: dict[str, Any] | None) -> dict[str, Any]:
    nets = ("area_quick",) if quick else NETS
    times = {a: {"tests": b["tests_seconds"], "quick_ledger": b.get("quick_ledger_seconds"),
                 "full_ledger": b.get("full_ledger_seconds"), "green": b["green"],
                 "area_quick": round(b["tests_seconds"] + (b.get("quick_ledger_seconds") or 0), 1),
                 "area_full": round(b["tests_seconds"] + (b.get("full_ledger_seconds") or 0), 1)}
             for a, b in baseline.items()}
    base_record = {a: {k: v for k, v in b.items() if k != "durations"} for a, b in baseline.items()}
    rep: dict[str, Any] = {
        "version": 2, "mode": "quick" if quick else "full", "complete": complete, "isolation": iso,
        "catalogue_errors": bad, "hypothesis_profile": os.environ.get("HYPOTHESIS_PROFILE", "dev"),
        "hypothesis_seed": HYPOTHESIS_SEED, "workers": len(iso), "data": DATA_DIR, "documents": DOCUMENTS_DIR,
        "seconds": round(time.perf_counter() - t0, 1), "baseline_seconds": base_seconds,
        "cpu_seconds": round(sum(_cpu(b) for b in baseline.values()) + sum(r.get("cpu", 0.0) for r in records)
                             + (_cpu(whole_base) if whole_base else 0.0)
                             + sum(_cpu(r.get("whole", {})) for r in records), 1),
        "never_counts": NEVER_COUNTS, "net_seconds": times, "baseline": base_record,
        "scores": {n: score(records, n) for n in nets}, "mutants": records}
    if whole_base is not None:
        rep["whole_baseline"] = {k: v for k, v in whole_base.items()}
        rep["net_seconds"]["whole"] = round(whole_base["tests_seconds"] + whole_base["full_ledger_seconds"], 1)
    if before is not None:
        rep["before"] = before
    return rep


def before_summary(rep: dict[str, Any], note: str) -> dict[str, Any]:
    """The per-mutant area-quick outcome of an earlier record (the tests as they were then), kept in the new record
    so that every survivor of that pass stays visible."""
    return {"note": note, "mode": rep["mode"], "seconds": rep["seconds"], "score": rep["scores"]["area_quick"],
            "mutants": _quick_outcomes(rep["mutants"])}


def _quick_outcomes(records: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """{mutant id: its area-quick status and what killed it}."""
    return {r["id"]: {"status": r.get("nets", {}).get("area_quick", {}).get("status", r.get("status")),
                      "by": r.get("nets", {}).get("area_quick", {}).get("by")} for r in records}


def survivors(rep: dict[str, Any]) -> list[str]:
    """The non-equivalent mutants of a record that its area-quick net left alive or could not run."""
    return [r["id"] for r in rep["mutants"]
            if not r.get("equivalent") and r.get("nets", {}).get("area_quick", {}).get("status") != "killed"]


def merge_rerun(first: dict[str, Any], rerun: dict[str, Any], note: str) -> dict[str, Any]:
    """The record of a first pass whose survivors were re-run after the gaps were closed: each re-run mutant's entry
    replaces its earlier entry (marked ``rerun``), the scores are recomputed over the merged entries, and the first
    pass's per-mutant outcomes stay in ``before`` (every first-pass survivor stays visible; a record that already has
    a ``before`` keeps it). The first pass's net times and baselines stay the record's; each re-run's own are
    appended to ``reruns`` with ``note``. Mutants the first pass killed are not re-run unless named (an added test cannot revive a killed mutant;
    a patch refreshed to changed code is re-run by name); their rows stay the first pass's."""
    new = {r["id"]: {**r, "rerun": True} for r in rerun["mutants"]}
    missing = sorted(set(new) - {r["id"] for r in first["mutants"]})
    if missing:
        raise ValueError(f"re-run mutants absent from the first pass: {missing}")
    rep = dict(first)
    rep["mutants"] = [new.get(r["id"], r) for r in first["mutants"]]
    rep["scores"] = {n: score(rep["mutants"], n) for n in first["scores"]}
    rep["before"] = first.get("before") or before_summary(first, note)
    rep["reruns"] = list(first.get("reruns", [])) + [
        {"ids": list(new), "note": note, "outcomes": _quick_outcomes(rerun["mutants"]), "mode": rerun["mode"],
         "seconds": rerun["seconds"],
         "cpu_seconds": rerun.get("cpu_seconds"), "isolation": rerun["isolation"],
         "catalogue_errors": rerun["catalogue_errors"], "net_seconds": rerun["net_seconds"]}]
    rep["catalogue_errors"] = rerun["catalogue_errors"]
    return rep


# ------------------------------------------------------------------------------------- the Markdown record


def _cell(x: Any) -> str:
    return str(x if x is not None else "").replace("|", "\\|").replace("\n", " ")


def to_markdown(rep: dict[str, Any]) -> str:
    nets = list(rep["scores"])
    label = {"area_quick": "area-quick", "area_full": "area-full", "whole": "whole"}
    lines = [f"# Mutation campaign ({rep['mode']}{'' if rep['complete'] else ', incomplete'})", "",
             f"{len(rep['mutants'])} mutants, {rep['scores'][nets[0]]['equivalent']} argued equivalent; "
             f"{rep['workers']} workers, {rep['seconds']} s in all ({rep['baseline_seconds']} s of it the baselines); "
             f"hypothesis profile {rep['hypothesis_profile']}, seed {rep['hypothesis_seed']}.", "",
             "| net | killed / non-equivalent | score | survivors | killed by a guard |", "|---|---|---|---|---|"]
    for n in nets:
        s = rep["scores"][n]
        lines.append(f"| {label[n]} | {s['killed']} / {s['non_equivalent_ran']} | {s['score']} | "
                     f"{', '.join(f'`{x}`' for x in s['survived']) or 'none'} | {s['killed_by_a_guard']} |")
    errs = sorted({e for n in nets for e in rep["scores"][n]["errors"]})
    eqk = sorted({e for n in nets for e in rep["scores"][n]["equivalent_killed"]})
    lines += ["", f"Errors: {', '.join(errs) or 'none'}. Equivalent mutants a net failed on (the argument is wrong, or the net "
              f"pins a value that moves without a change of law, e.g. a seeded sample): {', '.join(eqk) or 'none'}. "
              f"Catalogue errors: {', '.join(rep['catalogue_errors']) or 'none'}.", "",
              "## Time each net takes (baseline, unmutated tree, seconds)", "",
              "| area | area tests | quick ledger | full ledger | area-quick net | area-full net | green |",
              "|---|---|---|---|---|---|---|"]
    for a, t in sorted(rep["net_seconds"].items()):
        if a == "whole":
            continue
        lines.append(f"| {a} | {t['tests']} | {_cell(t['quick_ledger'])} | {_cell(t['full_ledger'])} | {t['area_quick']} | "
                     f"{t['area_full'] if t['full_ledger'] is not None else ''} | {t['green']} |")
    if "whole" in rep["net_seconds"]:
        wb = rep["whole_baseline"]
        lines += ["", f"Whole net: the suite {wb['tests_seconds']} s (`pytest -n 2`) + the full ledger "
                      f"{wb['full_ledger_seconds']} s = {rep['net_seconds']['whole']} s (green: {wb['green']})."]
    lines += ["", "## Per area", "", "| area | mutants | " + " | ".join(f"{label[n]} killed" for n in nets) + " |",
              "|---|---|" + "---|" * len(nets)]
    by_area: dict[str, list] = {}
    for r in rep["mutants"]:
        by_area.setdefault(r["area"], []).append(r)
    for a, rs in sorted(by_area.items()):
        ne = [r for r in rs if not r.get("equivalent")]
        cells = [f"{sum(1 for r in ne if r.get('nets', {}).get(n, {}).get('status') == 'killed')} / {len(ne)}" for n in nets]
        lines.append(f"| {a} | {len(rs)} | " + " | ".join(cells) + " |")
    lines += ["", "## Mutants", "", "Killed by: the first failing test or drifting claim; ✓ a declared guard.", "",
              "| mutant | area | kind | " + " | ".join(label[n] for n in nets) + " | broader net | s |",
              "|---|---|---|" + "---|" * len(nets) + "---|---|"]
    for r in rep["mutants"]:
        cells = []
        for n in nets:
            v = r.get("nets", {}).get(n)
            if v is None:
                cells.append(r.get("status", ""))
                continue
            txt = v["status"] + (" (eq.)" if r.get("equivalent") else "")
            if v.get("by"):
                txt += f": {v['by']}" + (" ✓" if v.get("guard") else "")
            if v.get("inferred"):
                txt = "killed (area-full)"
            cells.append(_cell(txt))
        b = r.get("broader")
        bcell = "" if b is None else (f"{b['status']}" + (f": {b['failures'][0]}" if b.get("failures") else ""))
        lines.append(f"| `{r['id']}` | {r['area']} | {r['kind']} | " + " | ".join(cells) + f" | {_cell(bcell)} | {r.get('seconds', '')} |")
    if rep.get("before"):
        bf = rep["before"]
        s = bf["score"]
        lines += ["", "## Before the gaps were closed", "", bf["note"], "",
                  f"Area-quick nets then: killed {s['killed']} of {s['non_equivalent_ran']} non-equivalent (score {s['score']}). "
                  f"Survivors then: {', '.join(f'`{x}`' for x in s['survived']) or 'none'}."]
        for k, rr in enumerate(rep.get("reruns", []), start=1):
            outs = rr.get("outcomes", {})
            ids = ", ".join(f"`{x}`" + (f" {outs[x]['status']}" if x in outs else "") for x in rr["ids"])
            lines += ["", f"Re-run {k} ({rr['mode']} nets, {rr['seconds']} s): {ids or 'none'}"
                          + (f" ({rr['note']})" if k > 1 else "") + ". The rows above are the latest re-run's."]
        if rep.get("reruns"):
            lines += ["", "The mutants the first pass killed and no re-run names were not re-run: their rows are the first pass's, on "
                      "the tree of that pass."]
    lines += ["", "## Descriptions, guards and equivalence arguments", ""]
    for r in rep["mutants"]:
        eq = f" — **equivalent**: {r['equivalent']}" if r.get("equivalent") else ""
        why = f" — guards: {', '.join(f'`{g}`' for g in r['guards'])}: {r['why']}" if r.get("guards") else ""
        lines.append(f"- `{r['id']}` ({r['file']}): {r['description']}{eq}{why}")
    lines += ["", "## What never counts as a kill", ""] + [f"- `{k}`: {v}" for k, v in rep["never_counts"].items()]
    return "\n".join(lines) + "\n"
