"""The claims catalog, copied into the project (``catalog.json``; see its "source" field)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

AREAS = ("dp", "maskit", "ads", "count", "zealous", "querygen")


@dataclass(frozen=True)
class CatalogEntry:
    id: str
    area: str
    source: str
    kind: str
    statement: str
    check: str  # the catalog's suggested check type


@lru_cache(maxsize=1)
def catalog() -> dict[str, CatalogEntry]:
    """Claim ID -> entry, in catalog order."""
    data = json.loads(resources.files("checks").joinpath("catalog.json").read_text(encoding="utf-8"))
    return {row["id"]: CatalogEntry(**row) for row in data["claims"]}


@lru_cache(maxsize=1)
def expected() -> dict[str, str]:
    """Pinned verdicts: ``checks/expected/<area>.json`` (one file per area, so areas change independently)."""
    pins: dict[str, str] = {}
    folder = resources.files("checks").joinpath("expected")
    for area in AREAS:
        pins.update(json.loads(folder.joinpath(f"{area}.json").read_text(encoding="utf-8")))
    return pins
