"""Recording and replaying claims' outcomes: a check's :class:`~privclaims.checks.verdict.Outcome`, memoised on disk
under a key naming what it is computed from (and what the key cannot see: below), so that a run can read back what
another process computed.

A check is a pure function of its claim, the run's seed, mode and hypothesis profile, the reading combinations and
parts it is owed, the code, the data sets it reads and the documents (the determinism tests hold every quick check to
this: same seed, same report, whatever the processes). Its outcome is stored under
:func:`~privclaims.theory.cache.key_name` of :func:`outcome_key` - which adds the source of **every** module of the
package on disk (:func:`~privclaims.theory.cache.code_key`) and the runtime (Python, machine architecture, the numeric,
search and data libraries, rational backend: :func:`~privclaims.theory.cache.runtime_key`) - in

* ``$PRIVCLAIMS_RECORD_OUTCOMES`` (a folder): every outcome computed is stored there; nothing is read back;
* ``$PRIVCLAIMS_REPLAY_OUTCOMES`` (a folder): an outcome stored there under the same key is read instead of computed
  (the report row then says ``"replayed": true``); one not found is computed and stored.

Neither is set by default: the ledger computes every claim unless told. The test suite sets them for its own runs
only (``property_tests/conftest.py``): its fresh quick-ledger runs record, and the runs that only re-display those
claims (the notebooks, the console-table test) replay.

Nothing is stored for an outcome with an error anywhere in it, for a check that ran to its time limit (the alarm
fired, even if the check caught it), a skip, a check that asked :meth:`~privclaims.checks.registry.Context.data` for a
data set it does not declare (``needs_data``: only declared data are in the key), a run that draws figures (a reports
folder: a side effect a replay would not have), a context with ``extra`` settings, or a project other than the
papers' own (a user's checks live outside the package whose source the key holds).

Not seen by the key: code patched in memory (a replay returns what the source on disk computed), data read other than
through ``ctx.data``, another machine's floating point. Folders are never pruned, and replaying unpickles their files
(a folder only its user can write).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from privclaims.checks.project import PAPERS, Project
from privclaims.checks.verdict import SKIP_MARK, Outcome
from privclaims.theory.cache import data_key, key_name, read_memo, write_memo

if TYPE_CHECKING:  # annotations only: the ledger's command line reads this module's settings before numpy is needed
    from privclaims.checks.registry import ClaimCheck, Context

RECORD_ENV = "PRIVCLAIMS_RECORD_OUTCOMES"
REPLAY_ENV = "PRIVCLAIMS_REPLAY_OUTCOMES"
VARIABLES = (RECORD_ENV, REPLAY_ENV)
"""Both settings: what a run that must compute every claim removes from its environment (the suite's conftest, the
mutation campaign's nets, the benchmarks)."""


def folders(environ: Any = os.environ) -> tuple[Path | None, Path | None]:
    """``(record folder, replay folder)`` named by :data:`RECORD_ENV` and :data:`REPLAY_ENV` (None when unset or
    empty)."""
    return tuple(Path(environ[k]) if environ.get(k) else None for k in (RECORD_ENV, REPLAY_ENV))  # type: ignore[return-value]


def outcome_key(project: Project, claim_id: str, chk: ClaimCheck, ctx: Context) -> dict[str, Any] | None:
    """What the outcome of ``chk`` under ``ctx`` (the context the runner calls it with: combinations and parts set)
    is a function of, besides the code and the runtime; None when it is not memoised (see the module docstring).
    The data sets are those the check declares (their file digests, :func:`~privclaims.theory.cache.data_key`); the
    documents are every document file of the folder the check reads them from (``ctx.documents_dir``: the caller's,
    else the project's), by digest, with the catalogue's entry."""
    if project.root.resolve() != PAPERS or ctx.extra or ctx.reports_dir() is not None:
        return None
    entry = project.catalog[claim_id]
    docs = ctx.documents_dir
    return {
        "kind": "claim-outcome", "claim": claim_id, "seed": ctx.seed, "quick": ctx.quick, "profile": ctx.profile,
        "combinations": [c.key for c in ctx.combinations], "parts": [p.name for p in ctx.parts],
        "entry": [entry.area, entry.source, entry.kind, entry.statement],
        "data": {name: data_key(ctx.data_dir / name) if ctx.data_dir else [] for name in chk.needs_data},
        "documents": {name: data_key(docs / name) if docs else [] for name in project.config.documents.files},
    }


def _path(folder: Path, key: dict[str, Any]) -> Path:
    return folder / (key_name(key) + ".pkl")


def stored_outcome(folder: Path, key: dict[str, Any]) -> Outcome | None:
    """The outcome stored in ``folder`` under ``key``, or None (none stored, or one that does not read back)."""
    found, value = read_memo(_path(folder, key))
    return value if found and isinstance(value, Outcome) else None


def storable(out: Outcome, chk: ClaimCheck, ctx: Context) -> bool:
    """Whether ``out`` may be stored: no error anywhere in it (its headline, its readings', its parts'), not a skip,
    and every data set the check read (:attr:`~privclaims.checks.registry.Context.data_read`) declared."""
    outcomes = [out, *(out.per_reading or {}).values()]
    outcomes += [p for o in list(outcomes) for p in (o.per_part or {}).values()]
    if any(o.verdict == "error" for o in outcomes) or (out.evidence or {}).get(SKIP_MARK):
        return False
    return set(ctx.data_read) <= set(chk.needs_data)


def computed_or_replayed(project: Project, claim_id: str, chk: ClaimCheck, ctx: Context,
                         compute: Callable[[], Outcome]) -> tuple[Outcome, bool]:
    """The check's outcome and whether it was replayed: the one stored in the replay folder under its key, if any
    (:func:`folders`), else ``compute()`` (the runner's timed call of the check), stored in the record and replay
    folders that are set - unless it ran to its time limit (``chk.timeout``): the alarm fired then, even if the check
    caught it (a broad ``except Exception``) and returned something else than the error it would have been."""
    record_to, replay_from = folders()
    key = outcome_key(project, claim_id, chk, ctx) if record_to or replay_from else None
    if key is not None and replay_from is not None:
        out = stored_outcome(replay_from, key)
        if out is not None:
            return out, True
    t0 = time.perf_counter()
    out = compute()
    if key is not None and time.perf_counter() - t0 < chk.timeout:
        for folder in dict.fromkeys(f for f in (record_to, replay_from) if f is not None):
            record(folder, key, out, chk, ctx)
    return out, False


def record(folder: Path, key: dict[str, Any], out: Outcome, chk: ClaimCheck, ctx: Context) -> bool:
    """Store ``out`` in ``folder`` under ``key`` if :func:`storable`; whether it was stored (an outcome that does not
    pickle, or a folder that cannot be written, is not)."""
    if not storable(out, chk, ctx):
        return False
    try:
        return write_memo(_path(folder, key), out)
    except Exception:  # noqa: BLE001 - an outcome holding something unpicklable is computed again next time
        return False


__all__ = ["RECORD_ENV", "REPLAY_ENV", "VARIABLES", "computed_or_replayed", "folders", "outcome_key", "record", "storable",
           "stored_outcome"]
