"""Registering a claim check: ``@claim("maskit.ex1", method="exact")``.

A check is a function ``fn(ctx: Context) -> Outcome`` that *computes* its verdict. Area modules
live in ``checks/claims/`` (a module or a package per area) and are discovered automatically.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from privclaims.checks.catalog import catalog
from privclaims.checks.quotes import attach
from privclaims.checks.verdict import Outcome, Reading

METHODS = ("exact", "smt", "property", "numeric", "reproduction", "statistical", "symbolic", "exhaustive", "measured")


class DataMissing(Exception):
    """Raised by :meth:`Context.data` when a data set is absent: the claim is skipped, not failed."""


@dataclass
class Context:
    """What a check may use: the run's seed, the mode and where the public data sets are."""

    seed: int = 20261121
    quick: bool = False
    data_dir: Path | None = None
    profile: str = "ci"
    extra: dict = field(default_factory=dict)

    def rng(self, name: str) -> np.random.Generator:
        """A generator seeded from the run seed and ``name`` (stable across runs and processes)."""
        h = int.from_bytes(hashlib.sha256(f"{self.seed}:{name}".encode()).digest()[:8], "little")
        return np.random.default_rng(h)

    def int_seed(self, name: str) -> int:
        return int.from_bytes(hashlib.sha256(f"{self.seed}:{name}".encode()).digest()[:4], "little")

    def reports_dir(self) -> Path | None:
        """Where reproductions write their figures: ``--reports DIR`` (``extra["reports_dir"]``), else
        ``$PRIVCLAIMS_REPORTS``; None when neither names a folder (then no figure is drawn)."""
        d = self.extra.get("reports_dir") or os.environ.get("PRIVCLAIMS_REPORTS")
        return Path(d) if d and Path(d).is_dir() else None

    def save_figure(self, fig: Any, name: str) -> str | None:
        """Write a matplotlib figure as ``name`` (a .png) under :meth:`reports_dir` and close it; the path to
        record in the evidence under ``"figure"`` (the Markdown report embeds it), or None if no folder."""
        import matplotlib.pyplot as plt

        d = self.reports_dir()
        path = None if d is None else str(d / name)
        if path is not None:
            fig.savefig(path, dpi=110)
        plt.close(fig)
        return path

    def data(self, name: str) -> Path:
        """Path of a data set below the data directory (``aol-top1000``, ``geolife``...)."""
        if self.data_dir is None or not (self.data_dir / name).exists():
            raise DataMissing(f"data set {name!r} not found under {self.data_dir}")
        return self.data_dir / name


@dataclass(frozen=True)
class ClaimCheck:
    id: str
    method: str
    fn: Callable[[Context], Outcome]
    quick: bool = True  # part of --quick (must stay within its budget on 2 cores)
    needs_data: tuple[str, ...] = ()  # data sets under --data; absent -> skipped, not failed
    timeout: int = 900  # seconds; exceeding it is an error
    readings: tuple[Reading, ...] = ()  # declared readings; () = the documents give one reading

    def tested_readings(self) -> tuple[Reading, ...]:
        """The declared readings, or the single reading "as stated" sourced from the catalog."""
        return tuple(attach(self.id, r) for r in self.readings) if self.readings else (default_reading(self.id),)


def default_reading(claim_id: str) -> Reading:
    """The reading of a claim whose check declares none: the documents give one reading, the
    catalogued statement, at the catalogued source."""
    entry = catalog()[claim_id]
    return attach(claim_id, Reading(name="as stated",
                                    meaning="the documents give one reading: the catalogued statement, read literally",
                                    source=entry.source))


CHECKS: dict[str, ClaimCheck] = {}


def claim(
    claim_id: str,
    method: str,
    *,
    quick: bool = True,
    needs_data: tuple[str, ...] | str = (),
    timeout: int = 900,
    readings: tuple[Reading, ...] | list[Reading] = (),
) -> Callable[[Callable[[Context], Outcome]], Callable[[Context], Outcome]]:
    """Decorator registering ``fn`` as the check of ``claim_id`` (which must be in the catalog).

    ``readings``: the readings of the claim the check tests (see :mod:`privclaims.checks.verdict`). With more than
    one, ``fn`` returns :func:`privclaims.checks.verdict.by_reading` keyed by the readings' names."""
    if claim_id not in catalog():
        raise KeyError(f"{claim_id!r} is not a catalog claim ID")
    for m in method.split("+"):
        if m not in METHODS:
            raise ValueError(f"{claim_id}: unknown method {m!r}; use {METHODS}")
    if isinstance(needs_data, str):
        needs_data = (needs_data,)
    readings = tuple(readings)
    names = [r.name for r in readings]
    if len(set(names)) != len(names) or not all(isinstance(r, Reading) for r in readings):
        raise ValueError(f"{claim_id}: readings must be Reading objects with distinct names, got {names}")

    def deco(fn: Callable[[Context], Outcome]) -> Callable[[Context], Outcome]:
        if claim_id in CHECKS:
            raise KeyError(f"{claim_id!r} registered twice ({CHECKS[claim_id].fn.__module__} and {fn.__module__})")
        CHECKS[claim_id] = ClaimCheck(claim_id, method, fn, quick, tuple(needs_data), timeout, readings)
        return fn

    return deco


_loaded = False


def load_all() -> dict[str, ClaimCheck]:
    """Import every module below ``privclaims.checks.claims`` (registering their checks)."""
    global _loaded
    if not _loaded:
        import privclaims.checks.claims as pkg

        for info in pkgutil.walk_packages(pkg.__path__, prefix="privclaims.checks.claims."):
            importlib.import_module(info.name)
        _loaded = True
    return CHECKS


def default_data_dir() -> Path | None:
    """``$PRIVCLAIMS_DATA``, else ``../shared/data`` beside the project, else None."""
    env = os.environ.get("PRIVCLAIMS_DATA")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent.parent
    cand = here.parent / "shared" / "data"
    return cand if cand.exists() else None


def default_seeds_dir() -> Path | None:
    """The seed texts (000_....txt ... 004_....txt) by the rule of :func:`default_data_dir`: ``seeds/`` beside
    ``$PRIVCLAIMS_DATA``, else ``../shared/seeds`` beside the project, else None."""
    env = os.environ.get("PRIVCLAIMS_DATA")
    here = Path(__file__).resolve().parent.parent
    for cand in ([Path(env).parent / "seeds"] if env else []) + [here.parent / "shared" / "seeds"]:
        if cand.is_dir():
            return cand
    return None
