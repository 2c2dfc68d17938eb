"""Running checks: in-process or on a pool of worker processes, each with a hard timeout."""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing as mp
import signal
import time
import traceback
from dataclasses import asdict
from typing import Any, Callable, Iterable

from privclaims.checks.catalog import catalog, expected
from privclaims.checks.registry import CHECKS, Context, DataMissing, default_reading, load_all
from privclaims.checks.verdict import Outcome, headline, jsonable, not_checked, reading_outcome_json


class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Timeout()


def skip_reason(claim_id: str, ctx: Context) -> str | None:
    """Why a claim is not computed in this run (None: it is)."""
    chk = CHECKS.get(claim_id)
    if chk is None:
        return None
    if ctx.quick and not chk.quick:
        return "skipped in --quick mode (long search or data reproduction)"
    for name in chk.needs_data:
        try:
            ctx.data(name)
        except DataMissing as e:
            return f"skipped: {e}"
    return None


def run_one(claim_id: str, ctx: Context) -> dict[str, Any]:
    """Compute one claim's row of the report (never raises)."""
    load_all()
    entry = catalog()[claim_id]
    chk = CHECKS.get(claim_id)
    t0 = time.perf_counter()
    skipped = skip_reason(claim_id, ctx)
    if chk is None:
        out = not_checked("no check implemented yet")
    elif skipped:
        out = not_checked(skipped, skipped=True)
    else:
        use_alarm = hasattr(signal, "SIGALRM")
        if use_alarm:
            old = signal.signal(signal.SIGALRM, _alarm)
            signal.alarm(chk.timeout)
        try:
            out = chk.fn(ctx)
            if not isinstance(out, Outcome):
                out = Outcome("error", {"error": f"check returned {type(out).__name__}, not an Outcome"})
        except _Timeout:
            out = Outcome("error", {"error": f"timed out after {chk.timeout} s"})
        except DataMissing as e:
            out = not_checked(f"skipped: {e}", skipped=True)
        except Exception as e:  # noqa: BLE001 - an error is a verdict
            tb = traceback.format_exc().strip().splitlines()[-6:]
            out = Outcome("error", {"error": f"{type(e).__name__}: {e}", "traceback": tb})
        finally:
            if use_alarm:
                signal.alarm(0)
                signal.signal(signal.SIGALRM, old)
    seconds = time.perf_counter() - t0
    verdict, readings = adjudicate(claim_id, out)
    return {
        "id": claim_id,
        "area": entry.area,
        "source": entry.source,
        "kind": entry.kind,
        "statement": entry.statement,
        "method": chk.method if chk else entry.check,
        "verdict": verdict,
        "expected": expected().get(claim_id),
        "readings": readings,
        "why": out.why,
        "evidence": jsonable(out.evidence),
        "seconds": round(seconds, 3),
    }


def adjudicate(claim_id: str, out: Outcome) -> tuple[str, list[dict[str, Any]]]:
    """The headline rule, applied by the ledger: each tested reading with its own verdict, and the
    headline verdict derived from them by :func:`privclaims.checks.verdict.headline` (never taken from the check).

    A check of a claim with several declared readings must return one outcome per reading
    (:func:`privclaims.checks.verdict.by_reading`); a skipped or failed check counts for every reading."""
    chk = CHECKS.get(claim_id)
    declared = chk.tested_readings() if chk else (default_reading(claim_id),)
    explicit = bool(chk and chk.readings)
    if out.per_reading is None:
        if len(declared) > 1 and out.verdict not in ("not-checked", "error"):
            err = f"check declares {len(declared)} readings but returned one outcome (use by_reading)"
            return "error", [dict(r.as_json(), declared=explicit, verdict="error", why=err) for r in declared]
        per = {r.name: Outcome(out.verdict, {}, out.why) for r in declared}
    else:
        per = out.per_reading
        if set(per) != {r.name for r in declared}:
            err = f"outcomes for readings {sorted(per)} but the check declares {[r.name for r in declared]}"
            return "error", [dict(r.as_json(), declared=explicit, verdict="error", why=err) for r in declared]
    rows = []
    for r in declared:
        o = per[r.name]
        row = dict(r.as_json(), declared=explicit, verdict=o.verdict)
        if out.per_reading is not None:
            row.update(reading_outcome_json(o))
        rows.append(row)
    return headline([row["verdict"] for row in rows]), rows


def _worker(args: tuple[str, dict]) -> dict[str, Any]:
    claim_id, ctx_fields = args
    return run_one(claim_id, Context(**ctx_fields))


def run_claims(
    ids: Iterable[str],
    ctx: Context,
    workers: int = 1,
    on_done: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Run the given claims; rows come back in the order of ``ids``."""
    load_all()
    ids = list(ids)
    rows: dict[str, dict[str, Any]] = {}
    if workers <= 1 or len(ids) <= 1:
        for cid in ids:
            rows[cid] = run_one(cid, ctx)
            if on_done:
                on_done(rows[cid])
    else:
        # Long checks first, so the pool is not left waiting on one at the end.
        order = sorted(ids, key=lambda c: (CHECKS[c].quick if c in CHECKS else True))
        fields = asdict(ctx)
        with cf.ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("fork")) as pool:
            futs = {pool.submit(_worker, (cid, fields)): cid for cid in order}
            for fut in cf.as_completed(futs):
                cid = futs[fut]
                try:
                    rows[cid] = fut.result()
                except Exception as e:  # a crashed worker is an error verdict for its claim
                    rows[cid] = {**run_one_stub(cid), "evidence": {"error": f"worker failed: {type(e).__name__}: {e}"}}
                if on_done:
                    on_done(rows[cid])
    return [rows[c] for c in ids]


def run_one_stub(claim_id: str) -> dict[str, Any]:
    entry = catalog()[claim_id]
    return {
        "id": claim_id,
        "area": entry.area,
        "source": entry.source,
        "kind": entry.kind,
        "statement": entry.statement,
        "method": entry.check,
        "verdict": "error",
        "expected": expected().get(claim_id),
        "readings": [dict(default_reading(claim_id).as_json(), declared=False, verdict="error")],
        "why": None,
        "evidence": {},
        "seconds": 0.0,
    }


def drift(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows whose computed verdict differs from the pin (skipped rows excluded), or that errored."""
    bad = []
    for r in rows:
        if r["evidence"].get("skipped"):
            continue
        if r["verdict"] == "error" or r["verdict"] != r["expected"]:
            bad.append(r)
    return bad
