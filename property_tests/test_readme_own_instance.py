"""README "Check your own instance": every command and every Python block runs and shows what it says.

Console blocks: a ``$ privclaims ...`` line is a command; the lines after it must occur in its output
in that order; ``[exit N]`` is its exit status. Python blocks are executed (they assert)."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
from pathlib import Path

import pytest

from privclaims.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Check your own instance")
    end = text.index("\n## ", start + 5)
    return text[start:end]


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", _section(), flags=re.S)


def _commands() -> list[tuple[str, list[str], int]]:
    return console_commands(_blocks("console"))


def console_commands(blocks: list[str]) -> list[tuple[str, list[str], int]]:
    """(command, expected output lines, exit status) of each ``$`` line of README console blocks."""
    out = []
    for block in blocks:
        cmd, expect, code = None, [], None
        for line in block.splitlines():
            if line.startswith("$ "):
                cmd, expect = line[2:], []
            elif m := re.fullmatch(r"\[exit (\d)\]", line.strip()):
                out.append((cmd, expect, int(m.group(1))))
                cmd = None
            elif cmd is not None:
                expect.append(line)
    return out


def test_the_section_has_one_example_per_system():
    cmds = " ".join(c for c, _, _ in _commands())
    for system in ("dp", "maskit", "ads", "count", "zealous", "querygen"):
        assert f"privclaims {system} " in cmds, system
    assert len(_blocks("python")) >= 2


@pytest.mark.parametrize("cmd,expect,code", _commands(), ids=lambda x: x if isinstance(x, str) else None)
def test_readme_command(cmd, expect, code, monkeypatch):
    monkeypatch.chdir(ROOT)
    argv = shlex.split(cmd)
    assert argv[0] == "privclaims"
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = main(argv[1:])
    lines = buf.getvalue().splitlines()
    assert rc == code, buf.getvalue()
    pos = 0
    for want in expect:
        for k in range(pos, len(lines)):
            if lines[k] == want:
                pos = k + 1
                break
        else:
            raise AssertionError(f"README line not in the output (in order): {want!r}\n--- output:\n{buf.getvalue()}")


@pytest.mark.parametrize("code", _blocks("python"))
def test_readme_python_block(code, monkeypatch):
    monkeypatch.chdir(ROOT)
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, "README.md", "exec"), {"__name__": "readme"})
