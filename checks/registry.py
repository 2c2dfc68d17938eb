"""Declaring a claim check: ``@claim("maskit.ex1", method="exact")``.

A check is a function ``fn(ctx: Context) -> Outcome`` that *computes* its verdict. The decorator records the
check in its own module; a ledger project (:mod:`privclaims.checks.project`) collects the checks of the modules
it lists (the papers' project: every module below ``checks/claims/``).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from privclaims.checks.project import CHECKS_ATTR, papers, read_document
from privclaims.checks.readings import Audit, Combination, Definition, NotApplicable, Reading
from privclaims.checks.verdict import Outcome, Part

METHODS = ("exact", "smt", "property", "numeric", "reproduction", "statistical", "symbolic", "exhaustive", "measured")


class DataMissing(Exception):
    """Raised by :meth:`Context.data` (a data set) or :meth:`Context.document` (a document's text) when it is
    absent: the claim is skipped, not failed."""


@dataclass
class Context:
    """What a check may use: the run's seed, the mode, where the public data sets are and where the run's
    project found its documents (set by the runner from the project: ``--documents`` included)."""

    seed: int = 20261121
    quick: bool = False
    data_dir: Path | None = None
    documents_dir: Path | None = None
    profile: str = field(default_factory=lambda: os.environ.get("HYPOTHESIS_PROFILE", "ci"))  # as the command line
    extra: dict = field(default_factory=dict)
    combinations: tuple[Combination, ...] = ()  # set by the runner: the reading combinations the claim is owed
    parts: tuple[Part, ...] = ()  # set by the runner: the claim's declared parts
    data_read: list[str] = field(default_factory=list, compare=False)  # set by the runner: the data sets the check
    # asked :meth:`data` for, in order (the outcome memo stores an outcome only if they are all declared)

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
        """Path of a data set below the data directory (``aol-top1000``, ``geolife``...); the name is noted in
        :attr:`data_read`."""
        self.data_read.append(name)
        if self.data_dir is None or not (self.data_dir / name).exists():
            raise DataMissing(f"data set {name!r} not found under {self.data_dir}")
        return self.data_dir / name

    def document(self, name: str) -> str:
        """The whitespace-normalised text of the project's document ``name`` (the file the quotes are checked
        against); :class:`DataMissing` when the documents are absent."""
        text = read_document(self.documents_dir, name)
        if text is None:
            raise DataMissing(f"document {name!r} not found (documents folder: {self.documents_dir})")
        return text


@dataclass(frozen=True)
class ClaimCheck:
    """A claim's check and what it declares: its method, budget, data, readings (its own), the definitions it
    rests on (their readings multiply its own: :mod:`privclaims.checks.readings`), readings that do not apply
    (with quotes), the parts of its statement, and its audit record."""

    id: str
    method: str
    fn: Callable[[Context], Outcome]
    quick: bool = True  # part of --quick (must stay within its budget on 2 cores)
    needs_data: tuple[str, ...] = ()  # data sets under --data; absent -> skipped, not failed
    needs_documents: tuple[str, ...] = ()  # documents whose text the check reads; absent -> skipped, not failed
    timeout: int = 900  # seconds; exceeding it is an error
    readings: tuple[Reading, ...] = ()  # the claim's own readings; () = its sentence has one
    rests_on: tuple[Any, ...] | None = None  # Definitions (or ids); None = not declared yet
    not_applicable: tuple[NotApplicable, ...] = ()
    parts: tuple[Part, ...] = ()
    audit: Audit | None = None


def claim(
    claim_id: str,
    method: str,
    *,
    quick: bool = True,
    needs_data: tuple[str, ...] | str = (),
    needs_documents: tuple[str, ...] | str = (),
    timeout: int = 900,
    readings: tuple[Reading, ...] | list[Reading] = (),
    rests_on: tuple[Any, ...] | list[Any] | None = None,
    not_applicable: tuple[NotApplicable, ...] | list[NotApplicable] = (),
    parts: tuple[Part, ...] | list[Part] = (),
    audit: Audit | None = None,
) -> Callable[[Callable[[Context], Outcome]], Callable[[Context], Outcome]]:
    """Decorator making ``fn`` the check of ``claim_id``; the project that lists the module collects it (the
    check is recorded in the module itself: there is no global registry).

    ``readings``: the claim's own readings (its sentence's ambiguities). ``rests_on``: the definitions the claim
    rests on (:class:`~privclaims.checks.readings.Definition` objects or ids; ``()`` = none); the check is owed
    an outcome for every combination in ``ctx.combinations`` and returns :func:`~privclaims.checks.verdict.by_reading`
    keyed by them when there are several. ``not_applicable``: readings of those definitions that do not apply
    to this claim, each with a quoted reason. ``parts``: the assertions of the statement (each outcome is then
    :func:`~privclaims.checks.verdict.by_part`). ``audit``: the audit record (issue 21)."""
    for m in method.split("+"):
        if m not in METHODS:
            raise ValueError(f"{claim_id}: unknown method {m!r}; use {METHODS}")
    if isinstance(needs_data, str):
        needs_data = (needs_data,)
    if isinstance(needs_documents, str):
        needs_documents = (needs_documents,)
    readings = tuple(readings)
    names = [r.name for r in readings]
    if len(set(names)) != len(names) or not all(isinstance(r, Reading) for r in readings):
        raise ValueError(f"{claim_id}: readings must be Reading objects with distinct names, got {names}")
    parts = tuple(parts)
    if len({p.name for p in parts}) != len(parts) or not all(isinstance(p, Part) for p in parts):
        raise ValueError(f"{claim_id}: parts must be Part objects with distinct names")
    if rests_on is not None:
        rests_on = tuple(rests_on)
        if not all(isinstance(d, (Definition, str)) for d in rests_on):
            raise ValueError(f"{claim_id}: rests_on takes Definitions or their ids, got {rests_on!r}")

    def deco(fn: Callable[[Context], Outcome]) -> Callable[[Context], Outcome]:
        registered = fn.__globals__.setdefault(CHECKS_ATTR, [])
        if any(c.id == claim_id for c in registered):
            raise KeyError(f"{claim_id!r} registered twice in {fn.__module__}")
        registered.append(ClaimCheck(claim_id, method, fn, quick, tuple(needs_data), tuple(needs_documents), timeout,
                                     readings, rests_on, tuple(not_applicable), parts, audit))
        return fn

    return deco


def load_all() -> dict[str, ClaimCheck]:
    """The checks of the papers' project (:func:`privclaims.checks.project.papers`), by claim ID."""
    return papers().checks


def default_data_dir() -> Path | None:
    """Where the papers' data sets are: ``$PRIVCLAIMS_DATA``, else ``../shared/data`` beside the repository, else
    None (the papers' project's ``[data] search``)."""
    return papers().data_dir()


def default_seeds_dir() -> Path | None:
    """Where the seed texts are: ``$PRIVCLAIMS_DOCUMENTS``, else ``seeds/`` beside ``$PRIVCLAIMS_DATA``, else
    ``../shared/seeds`` beside the repository, else None (the papers' project's ``[documents] search``)."""
    return papers().documents_dir()
