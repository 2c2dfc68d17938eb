"""The README's *Check your own instance* examples, read from README.md (standard library only: the wheel smoke
test reads them too, from a clean environment without pytest).

A console block's ``$ privclaims ...`` line is a command, the lines after it must occur in its output in that
order, and ``[exit N]`` is its exit status; Python blocks are run as they are (they assert)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def section(readme: Path = ROOT / "README.md") -> str:
    """The text of the README's "Check your own instance" section."""
    text = readme.read_text(encoding="utf-8")
    start = text.index("## Check your own instance")
    end = text.index("\n## ", start + 5)
    return text[start:end]


def blocks(lang: str) -> list[str]:
    """The section's fenced blocks of language ``lang`` (``console``, ``python``)."""
    return re.findall(rf"```{lang}\n(.*?)```", section(), flags=re.S)


def commands() -> list[tuple[str, list[str], int]]:
    """``(command, expected output lines, exit status)`` for every ``$`` line of the section's console blocks."""
    return console_commands(blocks("console"))


def console_commands(console_blocks: list[str]) -> list[tuple[str, list[str], int]]:
    """``(command, expected output lines, exit status)`` of each ``$`` line of README console blocks."""
    out = []
    for block in console_blocks:
        cmd, expect = None, []
        for line in block.splitlines():
            if line.startswith("$ "):
                cmd, expect = line[2:], []
            elif m := re.fullmatch(r"\[exit (\d)\]", line.strip()):
                out.append((cmd, expect, int(m.group(1))))
                cmd = None
            elif cmd is not None:
                expect.append(line)
    return out


def missing_lines(expect: list[str], output: str) -> str | None:
    """The first expected line that does not occur in ``output`` in order (None when all do)."""
    lines = output.splitlines()
    pos = 0
    for want in expect:
        for k in range(pos, len(lines)):
            if lines[k] == want:
                pos = k + 1
                break
        else:
            return want
    return None
