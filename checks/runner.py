"""Running checks: in-process or on a pool of worker processes, each with a hard timeout."""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing as mp
import signal
import time
import traceback
from dataclasses import asdict
from typing import Any, Callable, Iterable

from checks.catalog import catalog, expected
from checks.registry import CHECKS, Context, DataMissing, load_all
from checks.verdict import Outcome, jsonable, not_checked


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
    return {
        "id": claim_id,
        "area": entry.area,
        "source": entry.source,
        "kind": entry.kind,
        "statement": entry.statement,
        "method": chk.method if chk else entry.check,
        "verdict": out.verdict,
        "expected": expected().get(claim_id),
        "evidence": jsonable(out.evidence),
        "seconds": round(seconds, 3),
    }


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
