"""README "Check your own instance": every command and every Python block runs and shows what it says.

Console blocks: a ``$ privclaims ...`` line is a command; the lines after it must occur in its output
in that order; ``[exit N]`` is its exit status. Python blocks are executed (they assert)."""

from __future__ import annotations

import contextlib
import io
import shlex

import pytest

from privclaims.cli import main
from property_tests.readme_examples import ROOT, blocks as _blocks, commands as _commands, missing_lines


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
    assert rc == code, buf.getvalue()
    want = missing_lines(expect, buf.getvalue())
    assert want is None, f"README line not in the output (in order): {want!r}\n--- output:\n{buf.getvalue()}"


@pytest.mark.parametrize("code", _blocks("python"))
def test_readme_python_block(code, monkeypatch):
    monkeypatch.chdir(ROOT)
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, "README.md", "exec"), {"__name__": "readme"})
