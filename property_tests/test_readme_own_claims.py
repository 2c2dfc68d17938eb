"""README "Validate your own claims": every command of the section runs, in order, in a copy of ``examples/``, and
shows what the section says; the Python excerpt is verbatim from the example's checks.

Console blocks: a ``$ ...`` line is a command (``privclaims`` and ``pytest`` run with this interpreter, anything
else as written); the lines after it must occur in its output in that order, ``…`` standing for any text;
``[exit N]`` is its exit status."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from property_tests.readme_examples import console_commands

ROOT = Path(__file__).resolve().parents[1]
SECTION = "## Validate your own claims"


def _section() -> str:
    """The section's text, up to the next heading outside a code block (its console output has '## ' lines)."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    start = lines.index(SECTION)
    fenced = False
    for end in range(start + 1, len(lines)):
        fenced ^= lines[end].lstrip().startswith("```")
        if not fenced and lines[end].startswith("## "):
            break
    return "\n".join(lines[start:end]) + "\n"


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", _section(), flags=re.S)


def commands() -> list[tuple[str, list[str], int]]:
    return console_commands(_blocks("console"))


def _matches(line: str, want: str) -> bool:
    return re.fullmatch(".*".join(re.escape(p) for p in want.split("…")), line) is not None


def _argv(cmd: str) -> list[str]:
    argv = shlex.split(cmd)
    if argv[0] in ("privclaims", "pytest"):
        return [sys.executable, "-m", argv[0], *argv[1:]]
    return argv


def test_the_section_walks_through_run_report_drift_repin_and_pytest():
    cmds = [c for c, _, _ in commands()]
    assert cmds[0].startswith("privclaims ledger --project examples/my-draft")
    for flag in ("--list", "--html", "--show", "--repin", "--reason"):
        assert any(flag in c for c in cmds), flag
    assert any(c.startswith("pytest --privclaims") for c in cmds)
    assert [code for c, _, code in commands() if c.startswith("pytest")] == [0, 1]


def test_the_python_excerpt_is_the_example_s_own_code():
    checks = (ROOT / "examples" / "my-draft" / "checks.py").read_text(encoding="utf-8")
    for block in _blocks("python"):
        lines = [line[2:] if line.startswith("  ") else line for line in block.splitlines()]
        assert "\n".join(lines).strip() in checks


def test_every_command_of_the_section(tmp_path):
    shutil.copytree(ROOT / "examples", tmp_path / "examples", ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "PRIVCLAIMS_"))}
    for cmd, expect, code in commands():
        r = subprocess.run(_argv(cmd), cwd=tmp_path, capture_output=True, text=True, timeout=600, env=env)
        out = r.stdout + r.stderr
        assert r.returncode == code, f"$ {cmd}\n{out}"
        lines, pos = out.splitlines(), 0
        for want in expect:
            for k in range(pos, len(lines)):
                if _matches(lines[k], want):
                    pos = k + 1
                    break
            else:
                raise AssertionError(f"$ {cmd}\nREADME line not in the output (in order): {want!r}\n--- output:\n{out}")
    assert (tmp_path / "report.html").is_file()
