"""Pins and drift as tests (issue 24, item 2): ``pytest --privclaims DIR`` turns each claim of a ledger project into
a test item.

A ledger project is a folder with a ``privclaims.toml`` (:mod:`privclaims.checks.project`). With this plugin
(installed as the ``pytest11`` entry point ``privclaims``), ``pytest --privclaims DIR`` collects the project's
``privclaims.toml`` as a file whose items are its claims, in catalogue order, named by claim ID
(``DIR/privclaims.toml::draft.rr``; ``-k draft.rr`` or ``-k zealous`` selects by ID or area). An item runs the
claim's check exactly as ``privclaims ledger --project DIR`` does (:func:`privclaims.checks.runner.run_one`) and

- **passes** when the computed verdict and the decisive values equal the claim's pin
  (:func:`privclaims.checks.pins.compare`: nothing moved) and its quotes occur verbatim in the project's
  documents (checked when the documents are found);
- **fails** otherwise, naming the claim, the pinned and the computed verdict, the check's *why*, what moved
  (the pins module's diff, path by path), and the quote problems — or, for a claim without a pin, saying so;
- **is skipped**, with the ledger's reason, when a data set it needs is absent, or with ``--privclaims-quick``
  when the claim is not part of the ``--quick`` ledger (its pin then compares the quick run's values).

``--privclaims`` is repeatable. Given without test paths, it runs only the projects' claims (``pytest
--privclaims DIR`` is the ledger as a test run); with paths (``pytest tests/ --privclaims DIR``) it runs both.
Items carry the marker ``privclaims`` (``-m privclaims`` / ``-m "not privclaims"``).

Nothing of the ledger is imported unless ``--privclaims`` is given (the plugin is loaded in every pytest run).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

CONFIG_NAME = "privclaims.toml"  # = privclaims.checks.project.CONFIG_NAME (not imported: see the docstring)
MARKER = "privclaims"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("privclaims", "privclaims claims ledger")
    group.addoption("--privclaims", action="append", default=[], metavar="DIR",
                    help="a ledger project (a folder with a privclaims.toml): each of its claims becomes a test "
                         "that passes when the computed verdict and values equal the claim's pin; repeatable")
    group.addoption("--privclaims-quick", action="store_true", default=False,
                    help="run the projects' claims as the ledger's --quick does (long searches and data "
                         "reproductions skipped; pins compared with their --quick values)")


def _project_dirs(config: pytest.Config) -> list[Path]:
    """The folders named by ``--privclaims`` (a folder, or its privclaims.toml), resolved; bad ones refused."""
    out = []
    for value in config.getoption("privclaims"):
        p = Path(value)
        folder = p.parent if p.name == CONFIG_NAME else p
        if not (folder / CONFIG_NAME).is_file():
            raise pytest.UsageError(f"--privclaims {value!r}: no {CONFIG_NAME} there "
                                    "(a ledger project is a folder with one)")
        out.append(folder.resolve())
    return list(dict.fromkeys(out))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{MARKER}: a claim of a ledger project (pytest --privclaims DIR)")
    dirs = _project_dirs(config)
    config.stash[_DIRS] = dirs
    if not dirs:
        return
    tomls = [str(d / CONFIG_NAME) for d in dirs]
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        config.args = tomls  # no test paths given: the ledger alone
        return
    given = [Path(config.invocation_params.dir, a.split("::")[0]).resolve() for a in config.args]
    config.args = list(config.args) + [t for t, d in zip(tomls, dirs)
                                       if not any(d == g or g in d.parents for g in given)]


_DIRS = pytest.StashKey[list]()


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.name == CONFIG_NAME and file_path.parent.resolve() in parent.config.stash.get(_DIRS, []):
        return LedgerFile.from_parent(parent, path=file_path)
    return None


class LedgerFile(pytest.File):
    """A project's ``privclaims.toml``: one item per catalogued claim."""

    def collect(self) -> Any:
        from privclaims.checks import pin_environment
        from privclaims.checks.project import load_project

        project = load_project(str(self.path.parent.resolve()))
        pin_environment.pinned(project)  # a broken environment.json is the project's error, before any claim runs
        for cid in project.catalog:
            item = ClaimItem.from_parent(self, name=cid)
            item.add_marker(MARKER)
            item.extra_keyword_matches.add(project.catalog[cid].area)
            yield item

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        from privclaims.checks.project import ProjectError

        if isinstance(excinfo.value, ProjectError):
            return f"ledger project {self.path.parent}: {excinfo.value}"
        return super().repr_failure(excinfo)


class ClaimDrift(Exception):
    """A claim whose computed verdict, values or quotes differ from its pin (the message says what moved)."""


class ClaimItem(pytest.Item):
    """One claim: run its check, compare with its pin."""

    def _project(self) -> Any:
        from privclaims.checks.project import load_project

        return load_project(str(self.path.parent.resolve()))

    def runtest(self) -> None:
        from privclaims.checks.registry import Context
        from privclaims.checks.runner import run_one, skip_reason

        project = self._project()
        ctx = Context(quick=self.config.getoption("privclaims_quick"), data_dir=project.data_dir(),
                      documents_dir=project.documents_dir())
        reason = skip_reason(project.checks.get(self.name), ctx)
        row = None if reason else run_one(self.name, ctx, project)
        if row is not None and (row.get("evidence") or {}).get("skipped"):  # a data set found missing by the check
            reason = row["evidence"].get("reason") or "skipped"
        if reason:  # reported at the claim's item, not at this line
            raise pytest.skip.Exception(f"{self.name}: {reason}", _use_item_location=True)
        self.user_properties.append(("verdict", row["verdict"]))
        problems = drift_lines(project, row, _shown(self.config, project.root))
        if problems:
            raise ClaimDrift("\n".join(problems))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        from privclaims.checks.project import ProjectError

        if isinstance(excinfo.value, ClaimDrift):
            return str(excinfo.value)
        if isinstance(excinfo.value, ProjectError):  # e.g. a broken pin file: its one line, no traceback
            return f"ledger project {self.path.parent}: {excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"claim {self.name}"


def _shown(config: pytest.Config, path: Path) -> str:
    """``path`` as the user would type it: relative to where pytest was invoked when below it."""
    try:
        return str(path.relative_to(config.invocation_params.dir.resolve()))
    except ValueError:
        return str(path)


def drift_lines(project: Any, row: dict[str, Any], root: str | None = None) -> list[str]:
    """Why ``row`` fails its pin, in lines (empty: it keeps its pin and its quotes are verbatim): the claim, the
    pinned and computed verdicts, the why, what moved, the quote problems and how to re-pin (``root``: the project
    folder as shown; default its absolute path)."""
    from privclaims.checks import pin_environment
    from privclaims.checks.pins import pin_path
    from privclaims.checks.quoting import row_quote_problems
    from privclaims.checks.report import summary_line, why_of

    cid = row["id"]
    moved = (row.get("pin") or {}).get("moved") or []
    quotes = row_quote_problems(project, row) if project.documents_dir() is not None else []
    if row["verdict"] != "error" and row["verdict"] == row.get("expected") and not moved and not quotes:
        return []
    pinned = row.get("expected")
    environment = pin_environment.summary(project)
    head = (f"claim {cid}: not pinned" if pinned is None else
            f"claim {cid} differs from its pin" if row["verdict"] != "error" else f"claim {cid} errored")
    lines = [head, f"  statement: {' '.join(str(row.get('statement', '')).split())}",
             f"  pinned verdict:   {pinned}", f"  computed verdict: {row['verdict']}",
             f"  summary: {summary_line(row)}"]
    why = why_of(row)
    if why:
        lines.append(f"  why: {' '.join(why.split())}")
    if pinned is not None and moved:
        lines.append(f"  moved from the pin ({Path(root or project.root) / pin_path(project, cid).relative_to(project.root)}):")
        lines += [f"    {m}" for m in moved]
        if (row.get("pin") or {}).get("reason"):
            lines.append(f"  the pin's reason: {row['pin']['reason']}")
        note = pin_environment.drift_note(environment)
        if note:
            lines.append(f"  {note}")
    if quotes:
        lines.append("  quotes not verbatim in the project's documents:")
        lines += [f"    {q}" for q in quotes]
    if row["verdict"] != "error" and (pinned is None or moved):
        if pinned is not None and environment["differences"]:
            lines.append(f"  if the change is intended: privclaims ledger --project {root or project.root} --repin "
                         "--reason \"...\" (every claim: under other library versions a partial re-pin is refused), "
                         f"or first {pin_environment.install_command(environment['pins'], environment['installed'])}")
        else:
            lines.append(f"  if the change is intended: privclaims ledger --project {root or project.root} --repin "
                         f"--claim {cid} --reason \"...\"")
    return lines
