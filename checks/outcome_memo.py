"""Recording and replaying claims' outcomes: a check's :class:`~privclaims.checks.verdict.Outcome`, memoised on disk
under a key naming everything it is a function of, so that a run can read back what another process computed.

A check is a pure function of its claim, the run's seed, mode and hypothesis profile, the reading combinations and
parts it is owed, the code, the data sets it reads and the documents (the determinism tests hold every quick check to
this: same seed, same report, whatever the processes). Its outcome is stored under
:func:`~privclaims.theory.cache.key_name` of :func:`outcome_key` - which adds the source of **every** module of the
package (:func:`~privclaims.theory.cache.code_key`) and the runtime (Python, numeric libraries, rational backend) - in

* ``$PRIVCLAIMS_RECORD_OUTCOMES`` (a folder): every outcome computed is stored there; nothing is read back;
* ``$PRIVCLAIMS_REPLAY_OUTCOMES`` (a folder): an outcome stored there under the same key is read instead of computed
  (the report row then says ``"replayed": true``); one not found is computed and stored.

Neither is set by default: the ledger computes every claim unless told. The test suite sets them for its own runs
only (``property_tests/conftest.py``): its fresh quick-ledger runs record, and the runs that only re-display those
claims (the notebooks, the console-table test) replay.

Nothing is stored for an outcome that is an error (a timeout among them) or a skip, for a check that read a data set
it does not declare (``needs_data``: only declared data are in the key), for a run that draws figures (a reports
folder: a side effect a replay would not have), for a context with ``extra`` settings, or for a project other than the
papers' own (a user's checks live outside the package whose source the key holds).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from privclaims.checks.project import PAPERS, Project
from privclaims.checks.registry import ClaimCheck, Context
from privclaims.checks.verdict import Outcome
from privclaims.theory.cache import data_key, key_name, read_memo, write_memo

RECORD_ENV = "PRIVCLAIMS_RECORD_OUTCOMES"
REPLAY_ENV = "PRIVCLAIMS_REPLAY_OUTCOMES"


def folders(environ: Any = os.environ) -> tuple[Path | None, Path | None]:
    """``(record folder, replay folder)`` named by :data:`RECORD_ENV` and :data:`REPLAY_ENV` (None when unset or
    empty)."""
    return tuple(Path(environ[k]) if environ.get(k) else None for k in (RECORD_ENV, REPLAY_ENV))  # type: ignore[return-value]


def outcome_key(project: Project, claim_id: str, chk: ClaimCheck, ctx: Context) -> dict[str, Any] | None:
    """What the outcome of ``chk`` under ``ctx`` (the context the runner calls it with: combinations and parts set)
    is a function of, besides the code and the runtime; None when it is not memoised (see the module docstring).
    The data sets are those the check declares (their file digests, :func:`~privclaims.theory.cache.data_key`); the
    documents are every document file of the project's documents folder (digests), with the catalogue's entry."""
    if project.root.resolve() != PAPERS or ctx.extra or ctx.reports_dir() is not None:
        return None
    entry = project.catalog[claim_id]
    docs = project.documents_dir()
    return {
        "kind": "claim-outcome", "claim": claim_id, "seed": ctx.seed, "quick": ctx.quick, "profile": ctx.profile,
        "combinations": [c.key for c in ctx.combinations], "parts": [p.name for p in ctx.parts],
        "entry": [entry.area, entry.source, entry.kind, entry.statement],
        "data": {name: data_key(ctx.data_dir / name) if ctx.data_dir else [] for name in chk.needs_data},
        "documents": {name: data_key(docs / name) if docs else [] for name in project.config.documents.files},
    }


def _path(folder: Path, key: dict[str, Any]) -> Path:
    return folder / (key_name(key) + ".pkl")


def replayed(folder: Path, key: dict[str, Any]) -> Outcome | None:
    """The outcome stored in ``folder`` under ``key``, or None (none stored, or one that does not read back)."""
    found, value = read_memo(_path(folder, key))
    return value if found and isinstance(value, Outcome) else None


def storable(out: Outcome, chk: ClaimCheck, ctx: Context) -> bool:
    """Whether ``out`` may be stored: no error anywhere in it (its headline, its readings', its parts'), not a skip,
    and every data set the check read (:attr:`~privclaims.checks.registry.Context.data_read`) declared."""
    outcomes = [out, *(out.per_reading or {}).values()]
    outcomes += [p for o in list(outcomes) for p in (o.per_part or {}).values()]
    if any(o.verdict == "error" for o in outcomes) or (out.evidence or {}).get("skipped"):
        return False
    return set(ctx.data_read) <= set(chk.needs_data)


def record(folder: Path, key: dict[str, Any], out: Outcome, chk: ClaimCheck, ctx: Context) -> bool:
    """Store ``out`` in ``folder`` under ``key`` if :func:`storable`; whether it was stored (an outcome that does not
    pickle, or a folder that cannot be written, is not)."""
    if not storable(out, chk, ctx):
        return False
    try:
        return write_memo(_path(folder, key), out)
    except Exception:  # noqa: BLE001 - an outcome holding something unpicklable is computed again next time
        return False


__all__ = ["RECORD_ENV", "REPLAY_ENV", "folders", "outcome_key", "record", "replayed", "storable"]
