"""The wheel smoke test (issue 26): the built wheel works on its own.

Builds the sdist and the wheel (``python -m build``) from a clean copy of the working tree, checks the wheel's contents (:func:`wheel_problems`: one
top-level name, ``privclaims``; the catalogue, pins and examples inside; no development-only code), installs the
wheel into a new virtual environment outside the repository and, from a folder outside it with no
``PRIVCLAIMS_*`` variable set, runs what a user runs:

* ``privclaims --version``; that no top-level ``theory``, ``checks``, ``counterexamples``, ``examples`` or
  ``benchmarks`` module is importable;
* ``python -m privclaims.examples`` (the README's example inputs, installed as package data, copied to
  ``./examples``), then every command of the README's *Check your own instance* section (its printed lines and
  exit status) and every Python block of it;
* ``privclaims ledger --list`` and ``privclaims ledger --quick`` (every computed verdict equals its pin; the data
  sets and the seed texts absent, which the ledger says in one line each), ``privclaims ledger --show
  querygen.ex_eq3``, and, when ``../shared/seeds`` is beside the repository, the quick querygen ledger with the seed
  texts found by ``--documents`` and as ``seeds/`` beside ``$PRIVCLAIMS_DATA`` (its quotes checked against them).

Run from the repository: ``python3 property_tests/wheel_smoke.py [--python PY] [--keep]``. ``--python`` builds
with PY (it needs ``build``, in the ``test`` extra; default: the repository's ``.venv/bin/python``); the venv is
made from the interpreter running this script. Exit status 0 when every step passes, 1 otherwise (each failure
printed with its output). Standard library only: it runs before anything is installed.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

if __package__:  # imported by the tests
    from .readme_examples import ROOT, blocks, commands, missing_lines
else:  # run as a script, before anything is installed
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from readme_examples import ROOT, blocks, commands, missing_lines

DEV_ONLY = ("benchmarks", "property_tests", "notebooks", "privclaims/counterexamples/mutants")
NEEDED = ("privclaims/checks/catalog.json", "privclaims/checks/expected/", "privclaims/examples/chain4.json",
          "privclaims/checks/quotes/", "privclaims/theory/maskit/exact.py", "privclaims/cli.py")
TOP_LEVEL_NAMES = ("theory", "checks", "counterexamples", "examples", "benchmarks", "property_tests")


def wheel_problems(wheel: Path) -> list[str]:
    """What is wrong with the wheel's contents: a top-level name other than ``privclaims`` (``top_level.txt`` and
    the files themselves), development-only code inside, or a needed data file missing."""
    with zipfile.ZipFile(wheel) as z:
        files = z.namelist()
        info = next(f for f in files if f.endswith(".dist-info/top_level.txt"))
        top = z.read(info).decode().split()
    out = []
    if top != ["privclaims"]:
        out.append(f"top_level.txt lists {top}, not only privclaims")
    roots = {f.split("/")[0] for f in files if not f.split("/")[0].endswith((".dist-info", ".data"))}
    if roots != {"privclaims"}:
        out.append(f"the wheel holds top-level folders {sorted(roots)}")
    out += [f"development-only file in the wheel: {f}" for f in files if f.startswith(DEV_ONLY)][:5]
    out += [f"missing from the wheel: {n}" for n in NEEDED if not any(f.startswith(n) for f in files)]
    return out


class Smoke:
    """The steps run so far; each is a check with a name, passed or failed with its output."""

    def __init__(self) -> None:
        self.passed: list[str] = []
        self.failed: list[str] = []

    def check(self, name: str, ok: bool, detail: str = "") -> bool:
        (self.passed if ok else self.failed).append(name)
        print(f"{'ok  ' if ok else 'FAIL'} {name}" + ("" if ok or not detail else f"\n{detail.rstrip()}\n"), flush=True)
        return ok

    def run(self, name: str, argv: list[str], *, cwd: Path, env: dict, code: int = 0, expect: list[str] = (),
            timeout: int = 900) -> subprocess.CompletedProcess | None:
        t0 = time.perf_counter()
        try:
            r = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            self.check(name, False, f"timed out after {timeout} s")
            return None
        out = r.stdout + r.stderr
        want = missing_lines(list(expect), r.stdout)
        ok = r.returncode == code and want is None
        why = (f"exit {r.returncode}, expected {code}" if r.returncode != code
               else f"line not in the output (in order): {want!r}")
        self.check(f"{name} ({time.perf_counter() - t0:.1f} s)", ok, "" if ok else f"{why}\n--- output:\n{out[-4000:]}")
        return r


def clean_copy(dest: Path) -> Path:
    """The working tree's files that git tracks or would track (not ignored), copied to ``dest``: what a fresh
    checkout with these changes holds. Building from it keeps an old ``*.egg-info/SOURCES.txt`` of the working
    tree (which setuptools reads and extends) from adding files the configuration no longer ships."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split("\0")
    for f in filter(None, files):
        if (ROOT / f).is_file():
            (dest / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / f, dest / f)
    return dest


def user_env(venv: Path) -> dict:
    """A user's environment: the venv's bin first on PATH, no PRIVCLAIMS_* / PYTHON* / VIRTUAL_ENV variables."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PRIVCLAIMS_", "PYTHON", "HYPOTHESIS_")) and k != "VIRTUAL_ENV"}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return env


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="wheel_smoke", description=__doc__.split("\n\n")[0])
    default_py = ROOT / ".venv" / "bin" / "python"
    ap.add_argument("--python", default=str(default_py if default_py.exists() else sys.executable),
                    help="the interpreter that builds (needs the build package)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder (printed)")
    args = ap.parse_args(argv)

    tmp = Path(tempfile.mkdtemp(prefix="privclaims-wheel-smoke-"))
    assert ROOT not in tmp.parents, "the smoke test must run outside the repository"
    s = Smoke()
    try:
        dist, venv, work = tmp / "dist", tmp / "venv", tmp / "work"
        work.mkdir()
        src = clean_copy(tmp / "src")
        build_env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        if not s.run("python -m build (sdist and wheel)", [args.python, "-m", "build", "--outdir", str(dist), str(src)],
                     cwd=tmp, env=build_env):
            return 1
        wheels, sdists = sorted(dist.glob("*.whl")), sorted(dist.glob("*.tar.gz"))
        if not s.check("one sdist and one wheel built", len(wheels) == len(sdists) == 1, str(list(dist.iterdir()))):
            return 1
        wheel = wheels[0]
        problems = wheel_problems(wheel)
        s.check("wheel contents (top_level.txt = privclaims; data inside; no development-only code)", not problems,
                "\n".join(problems))
        version = wheel.name.split("-")[1]

        if not s.run("clean venv outside the repository", [sys.executable, "-m", "venv", str(venv)], cwd=tmp,
                     env=user_env(venv)):
            return 1
        env = user_env(venv)
        py, cli = str(venv / "bin" / "python"), str(venv / "bin" / "privclaims")
        if not s.run("pip install the wheel", [py, "-m", "pip", "install", "-q", str(wheel)], cwd=work, env=env,
                     timeout=1800):
            return 1
        s.run("privclaims --version", [cli, "--version"], cwd=work, env=env, expect=[f"privclaims {version}"])
        probe = ("import importlib.util as u; "
                 f"print('top-level:', [m for m in {TOP_LEVEL_NAMES!r} if u.find_spec(m)])")
        s.run("no top-level name but privclaims", [py, "-c", probe], cwd=work, env=env, expect=["top-level: []"])
        s.run("python -m privclaims.examples", [py, "-m", "privclaims.examples"], cwd=work, env=env)
        for cmd, expect, code in commands():
            argv_ = shlex.split(cmd)
            s.run(f"README: $ {cmd}", [cli if argv_[0] == "privclaims" else argv_[0], *argv_[1:]], cwd=work, env=env,
                  code=code, expect=expect)
        for k, code in enumerate(blocks("python"), 1):
            script = work / f"readme_block_{k}.py"
            script.write_text(code, encoding="utf-8")
            s.run(f"README: Python block {k}", [py, str(script)], cwd=work, env=env)
        s.run("privclaims ledger --list --area querygen", [cli, "ledger", "--list", "--area", "querygen"], cwd=work,
              env=env)
        r = s.run("privclaims ledger --quick (data absent)", [cli, "ledger", "--quick", "--json", "quick.json"], cwd=work,
                  env=env, expect=["all computed verdicts match their pins"])
        if r is not None and r.returncode == 0:
            rep = json.loads((work / "quick.json").read_text(encoding="utf-8"))
            first = r.stdout.splitlines()[0] if r.stdout else ""
            s.check("the ledger says in one line that the data sets are absent",
                    "data absent" in first and rep["run"]["data_dir"] is None and not rep["run"]["drift"],
                    f"first line: {first!r}; run: {rep['run']}")
            s.check("the ledger says in one line that the seed texts are absent",
                    any(line.startswith("quotes: not checked (the documents ") for line in r.stdout.splitlines())
                    and "Traceback" not in r.stdout + r.stderr, r.stdout[-2000:] + r.stderr[-2000:])
        seeds, data = ROOT.parent / "shared" / "seeds", ROOT.parent / "shared" / "data"
        found = "quotes: those of 35 claim(s) checked against the documents, 0 problem(s)"
        if seeds.is_dir():  # the seed texts, where a user keeps them: by the flag, and as seeds/ beside $PRIVCLAIMS_DATA
            s.run("privclaims ledger --quick --area querygen --documents SEEDS",
                  [cli, "ledger", "--quick", "--area", "querygen", "--documents", str(seeds)], cwd=work, env=env,
                  expect=[found])
            if data.is_dir():
                s.run("PRIVCLAIMS_DATA=DATA privclaims ledger --quick --area querygen (seeds/ beside it)",
                      [cli, "ledger", "--quick", "--area", "querygen"], cwd=work, env={**env, "PRIVCLAIMS_DATA": str(data)},
                      expect=[found])
        s.run("privclaims ledger --show querygen.ex_eq3", [cli, "ledger", "--show", "querygen.ex_eq3"], cwd=work,
              env=env)
    finally:
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"wheel-smoke: {len(s.passed)} passed, {len(s.failed)} failed")
    return 0 if not s.failed else 1


if __name__ == "__main__":
    raise SystemExit(main())
