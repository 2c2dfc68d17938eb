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
    data = json.loads(resources.files("privclaims.checks").joinpath("catalog.json").read_text(encoding="utf-8"))
    return {row["id"]: CatalogEntry(**row) for row in data["claims"]}


@lru_cache(maxsize=1)
def expected() -> dict[str, str]:
    """Pinned verdicts from every ``checks/expected/*.json`` (one file per area; a claim of one area
    may be pinned in the file of the area whose code checks it). Each ID is pinned exactly once."""
    pins: dict[str, str] = {}
    folder = resources.files("privclaims.checks").joinpath("expected")
    for f in sorted(folder.iterdir(), key=lambda x: x.name):
        if not f.name.endswith(".json"):
            continue
        for cid, verdict in json.loads(f.read_text(encoding="utf-8")).items():
            if cid in pins:
                raise ValueError(f"{cid} is pinned twice (second time in expected/{f.name})")
            pins[cid] = verdict
    return pins
