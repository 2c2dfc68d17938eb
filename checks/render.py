"""Evidence for people: Markdown blocks, inline values and one-line summaries, never truncated.

Evidence is arbitrary nested JSON (what :func:`privclaims.checks.verdict.jsonable` produces): dicts, lists,
strings, numbers, booleans and None, with exact rationals as ``"p/q"`` strings. The renderer is generic:

- a string ``"p/q"`` becomes ``p/q (≈ d)`` with d the quotient to 6 significant digits (exact value first);
- a dict becomes a bullet list of its simple entries, its complex entries under a bold label naming
  their path (``witness › table``), so nesting is flat enough for any Markdown viewer;
- a list of dicts becomes a table (one column per key, in order of first appearance), a 2-D list of
  scalars a matrix table with numbered rows and columns, a dict of flat dicts a table keyed by the
  outer keys, a list of scalars one inline line;
- in table cells nested values are written inline (``[a, b]``, ``{k: v; …}``) — in full.

Nothing is ever shortened: the Markdown report puts long blocks in ``<details>`` instead.
``md=False`` gives the same text without Markdown escapes (the console).
"""

from __future__ import annotations

import re
from decimal import Decimal, localcontext
from pathlib import Path
from typing import Any, Iterator

RATIONAL = re.compile(r"^-?\d+/\d+$")
_NEEDS_ESCAPE = re.compile(r"([*`~])|\\(?=[!-/:-@\[-`{-~])|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])|<(?=[A-Za-z/!?])")
FLAT_DICT_ITEMS = 6  # a dict of at most this many scalars is written inline
TABLE_COLUMNS = 12  # a list of dicts with more distinct keys is written item by item
DETAILS_LINES = 30  # blocks longer than this go in <details> in the report


def decimal_of(p: int, q: int) -> str:
    """p/q to 6 significant digits (any size: decimal arithmetic, not float)."""
    with localcontext() as c:
        c.prec = 6
        d = Decimal(p) / Decimal(q)
    s = format(d, "g")
    return s.replace("E", "e")


def _esc(s: str, md: bool, cell: bool) -> str:
    if md:
        s = _NEEDS_ESCAPE.sub(lambda m: "&lt;" if m.group(0) == "<" else "\\" + m.group(0), s)
        if cell:
            s = s.replace("|", "\\|")
        return s.replace("\r\n", "\n").replace("\n", "<br>" if cell else " ")
    return s.replace("\r\n", "\n").replace("\n", " ") if cell else s


def label(k: Any, md: bool = True, cell: bool = False) -> str:
    """A dict key as written: verbatim (escaped), with no decimal beside it even when it reads as p/q."""
    return _esc(str(k), md, cell)


def scalar(x: Any, md: bool = True, cell: bool = False) -> str:
    """One JSON scalar in words: rationals with a decimal beside, booleans yes/no, None as "none"."""
    if x is None:
        return "none"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, (int, float)):
        return repr(x)
    s = str(x)
    if RATIONAL.match(s):
        p, q = (int(t) for t in s.split("/"))
        return s if q == 0 else f"{s} (≈ {decimal_of(p, q)})"
    return _esc(s, md, cell)


def is_scalar(x: Any) -> bool:
    return not isinstance(x, (dict, list))


def _is_simple(x: Any) -> bool:
    """Written on one line: a scalar, a list of scalars, or a small dict of scalars."""
    if is_scalar(x):
        return True
    if isinstance(x, list):
        return all(is_scalar(v) for v in x) or (_is_matrix(x) and len(x[0]) == 1)
    return len(x) <= FLAT_DICT_ITEMS and all(is_scalar(v) for v in x.values())


def inline(x: Any, md: bool = True, cell: bool = False) -> str:
    """Any JSON value on one line, in full."""
    if isinstance(x, dict):
        return "{" + "; ".join(f"{label(k, md, cell)}: {inline(v, md, cell)}" for k, v in x.items()) + "}"
    if isinstance(x, list):
        return "[" + ", ".join(inline(v, md, cell) for v in x) + "]"
    return scalar(x, md, cell)


def table(header: list[str], rows: list[list[Any]], md: bool = True, header_is_data: bool = False,
          row_labels: bool = False) -> list[str]:
    """A table; its header cells are labels (dict keys, verbatim), or with ``header_is_data`` values of the evidence
    (a spelled table's list of names, written as :func:`scalar` writes a value: a name reading as p/q gets its
    decimal); with ``row_labels`` each row's first cell is a label too (a dict of dicts: the outer keys)."""
    head = [scalar(h, md, True) if header_is_data else _esc(h, md, True) for h in header]
    body = [[label(v, md, True) if row_labels and j == 0 else inline(v, md, True) for j, v in enumerate(r)] for r in rows]
    cells = [head] + body
    if md:
        out = ["| " + " | ".join(cells[0]) + " |", "|" + "---|" * len(header)]
        return out + ["| " + " | ".join(r) + " |" for r in cells[1:]]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    fmt = lambda r: "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()  # noqa: E731
    rule = ["-" * w for w in widths[:-1]] + ["-" * min(widths[-1], max(len(head[-1]), 40))]
    return [fmt(cells[0]), fmt(rule)] + [fmt(r) for r in cells[1:]]


def _keys(dicts: list[dict[str, Any]]) -> list[str]:
    keys: dict[str, None] = {}
    for d in dicts:
        keys.update(dict.fromkeys(d))
    return list(keys)


def as_table(x: Any, md: bool = True, corner: str = "") -> list[str] | None:
    """``x`` as a table if it has a tabular shape (see the module docstring), else None."""
    if isinstance(x, list) and x:
        if all(isinstance(r, dict) and r for r in x):
            keys = _keys(x)
            if len(keys) <= TABLE_COLUMNS and all(_is_simple(v) for r in x for v in r.values()):
                return table(keys, [[r.get(k, "") for k in keys] for r in x], md)
        if _is_matrix(x) and len(x[0]) > 1:
            return table([corner or "#"] + [str(j) for j in range(len(x[0]))], [[i, *r] for i, r in enumerate(x)], md)
    if isinstance(x, dict) and _header_and_rows(x) is not None:
        head, rows = _header_and_rows(x)
        return [f"{_esc(head, md, False)} (columns) and {_esc(rows, md, False)} (rows):", ""] + \
            table(x[head], x[rows], md, header_is_data=True)
    if isinstance(x, dict) and len(x) >= 2 and all(isinstance(v, dict) and v for v in x.values()):
        keys = _keys(list(x.values()))
        if len(keys) <= TABLE_COLUMNS and all(_is_simple(w) for v in x.values() for w in v.values()):
            return table([corner] + keys, [[k, *(v.get(c, "") for c in keys)] for k, v in x.items()], md, row_labels=True)
    return None


def _is_matrix(x: Any) -> bool:
    return isinstance(x, list) and bool(x) and all(isinstance(r, list) and r for r in x) \
        and len({len(r) for r in x}) == 1 and all(is_scalar(v) for r in x for v in r)


def _header_and_rows(x: dict[str, Any]) -> tuple[str, str] | None:
    """A table spelled as a dict: exactly two entries, a list of names and a matrix with as many columns
    (``{"attributes": [...], "rows": [[...], ...]}``)."""
    if len(x) != 2:
        return None
    (k1, v1), (k2, v2) = x.items()
    for head, names, rows, mat in ((k1, v1, k2, v2), (k2, v2, k1, v1)):
        if isinstance(names, list) and names and all(isinstance(n, str) for n in names) and _is_matrix(mat) \
                and len(mat[0]) == len(names):
            return head, rows
    return None


def block(x: Any, path: str = "", md: bool = True) -> list[str]:
    """Any JSON value as Markdown lines (tables, bullets, labelled sub-blocks), in full."""
    tab = as_table(x, md, corner=path.rsplit(" › ", 1)[-1])
    if tab is not None:
        return tab
    if is_scalar(x) or (isinstance(x, list) and _is_simple(x)) or _is_matrix(x):  # (a one-column matrix)
        return [inline(x, md)]
    if isinstance(x, list):
        out: list[str] = []
        for i, v in enumerate(x):
            out += _sub(f"{path}[{i}]", v, md)
        return out
    if not x:
        return ["(empty)"]
    out, bullets = [], []
    for k, v in x.items():
        if _is_simple(v):
            bullets.append(f"- {_bold(str(k), md)}: {inline(v, md)}")
        else:
            if bullets:
                out += bullets + [""]
                bullets = []
            out += _sub(f"{path} › {k}" if path else str(k), v, md)
    return out + bullets


def _bold(s: str, md: bool) -> str:
    return f"**{_esc(s, md, False)}**" if md else s


def _sub(label: str, v: Any, md: bool) -> list[str]:
    return [f"{_bold(label, md)}:", ""] + block(v, label, md) + [""]


def details(summary: str, lines: list[str]) -> list[str]:
    """A collapsible block (GitHub, most Markdown viewers; an editor shows it as plain text)."""
    return ["<details>", f"<summary>{summary}</summary>", "", *lines, "", "</details>", ""]


def maybe_details(summary: str, lines: list[str]) -> list[str]:
    """``lines`` in the open when short, else in a ``<details>`` block titled ``summary``."""
    if len(lines) <= DETAILS_LINES:
        return [f"{summary}:", "", *lines, ""]
    return details(summary, lines)


def figures(x: Any) -> Iterator[str]:
    """Every string in the evidence that names a PNG file (a check records its figure's path)."""
    if isinstance(x, dict):
        for v in x.values():
            yield from figures(v)
    elif isinstance(x, list):
        for v in x:
            yield from figures(v)
    elif isinstance(x, str) and x.lower().endswith(".png") and "\n" not in x:
        yield x


def figure_link(png: str, base: Path | None) -> str:
    """The path of a figure relative to the folder of the report that shows it."""
    import os

    p = Path(png)
    if base is None or not p.is_absolute():
        return p.as_posix()
    try:
        return Path(os.path.relpath(p, base)).as_posix()
    except ValueError:  # another drive
        return p.as_posix()
