"""The example inputs of the README's *Check your own instance* section, installed with the package as
``privclaims.examples``: a finite mechanism (``randomized_response.json``), a 4-context chain (``chain4.json``),
context streams (``streams.csv``), a policy (``policy_hospital.json``), an ad instance (``ads_coverage.json``), an
AOL-format log (``aol_tiny.tsv``) and a table (``patients.csv``).

``python -m privclaims.examples [DIR]`` copies them into ``DIR`` (default ``examples``), so the README's commands
run as printed from DIR's parent folder; :func:`path` is one file's installed path.
"""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

from privclaims.theory.errors import InvalidInput

SUFFIXES = (".json", ".csv", ".tsv")


def names() -> list[str]:
    """The example files, by name."""
    return sorted(f.name for f in resources.files(__name__).iterdir() if f.name.endswith(SUFFIXES))


def path(name: str) -> Path:
    """The installed path of the example file ``name`` (one of :func:`names`)."""
    if name not in names():
        raise InvalidInput(f"example {name!r} does not exist; the examples are {', '.join(names())}")
    return Path(str(resources.files(__name__) / name))


def copy_to(folder: str | Path) -> list[Path]:
    """Copy every example into ``folder`` (created if needed). A file already there with the same content is
    left as it is; one with other content is never overwritten (InvalidInput, before anything is copied)."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise InvalidInput(f"folder {str(folder)!r} is a file; give a folder to copy the examples into")
    clash = [n for n in names() if (folder / n).exists() and (folder / n).read_bytes() != path(n).read_bytes()]
    if clash:
        raise InvalidInput(f"{', '.join(str(folder / n) for n in clash)} already exist(s) with other content; "
                           "not overwritten (give another folder)")
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for n in names():
        if not (folder / n).exists():
            shutil.copyfile(path(n), folder / n)
        out.append(folder / n)
    return out
