"""Running checks: in-process or on a pool of worker processes, each with a hard timeout.

The ledger, not the check, decides what a claim owes and what its outcome means (issues 12, 21):

- **readings**: the claim owes an outcome for every combination of the readings of the definitions it rests on
  and its own readings, except those excused by a quoted :class:`~privclaims.checks.readings.NotApplicable`;
  a missing or unknown combination is an ``error``; the headline is :func:`~privclaims.checks.verdict.headline`
  of the combinations' verdicts;
- **parts**: a claim that declares parts owes, under each combination, one outcome per part; the combination's
  verdict is their conjunction (:func:`~privclaims.checks.verdict.conjoin`), the parts shown and judged even when
  one is undecided; parts returned for a claim that declares none (whatever they conclude), parts or readings nested
  in a part or a reading, and parts beside readings are an ``error`` (their evidence would leave the report
  unjudged);
- **every claim** (whether or not it declares ``rests_on``) obeys the structural rules of :func:`structural_problems`:
  a reproduction lists its parts, each on a real data set; a refutation's witness is validated against the
  documents' model;
- **bounds**: a ``verified-bounded`` reading or part whose evidence (or the evidence enclosing it) states no
  ``bound`` is an ``error``: a bounded verdict says what was searched;
- **evidence**: a :class:`~privclaims.checks.evidence.Decision` whose shown numbers do not certify its flag, a
  ``verified-bounded`` outcome its own searches do not certify, or a decided outcome reporting a counterexample its
  re-verification refused, makes the claim an ``error`` (:func:`~privclaims.checks.evidence.contradictions`; the
  evidence shared by a claim's readings and parts is judged as decided whenever one of them is);
- **pins**: the verdict and the decisive values are compared with the claim's pin (:mod:`privclaims.checks.pins`).
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing as mp
import signal
import time
import traceback
from dataclasses import asdict, replace
from typing import Any, Callable, Iterable, Mapping

from privclaims.checks import outcome_memo
from privclaims.checks.evidence import UNDECIDED, contradictions
from privclaims.checks.pins import compare, read_pin
from privclaims.checks.project import Project, papers
from privclaims.checks.readings import AS_STATED_MEANING, Combination, combinations
from privclaims.checks.registry import ClaimCheck, Context, DataMissing
from privclaims.checks.verdict import (
    HOLDS, NEEDS_WHY, SAME_UNDER, SKIP_MARK, Outcome, conjoin, copied_dimensions, headline, jsonable, not_checked,
    outcome_content, reading_outcome_json, same_under_problem,
)


class _Timeout(BaseException):
    """A check's time limit (``timeout=`` seconds, SIGALRM). A BaseException, so that no ``except Exception`` on the
    way - a check's, a property's, or the read audit's calls of a property - can swallow it and let the check run on
    past its limit."""


def _alarm(signum: int, frame: Any) -> None:
    raise _Timeout()


def skip_reason(chk: ClaimCheck | None, ctx: Context) -> str | None:
    """Why a claim is not computed in this run (None: it is)."""
    if chk is None:
        return None
    if ctx.quick and not chk.quick:
        return "skipped in --quick mode (long search or data reproduction)"
    try:
        for name in chk.needs_data:
            ctx.data(name)
        for name in chk.needs_documents:
            ctx.document(name)
    except DataMissing as e:
        return f"skipped: {e}"
    return None


def owed_combinations(project: Project, claim_id: str) -> tuple[list[Combination], list[Combination]]:
    """The combinations the claim owes an outcome for, and those excused (not applicable)."""
    chk = project.checks.get(claim_id)
    return combinations(project.claim_definitions(claim_id), project.own_readings(claim_id),
                        chk.not_applicable if chk else ())


def _call(chk: ClaimCheck, ctx: Context) -> Outcome:
    use_alarm = hasattr(signal, "SIGALRM")
    if use_alarm:
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(chk.timeout)
    try:
        out = chk.fn(ctx)
        if not isinstance(out, Outcome):
            out = Outcome("error", {"error": f"check returned {type(out).__name__}, not an Outcome"})
        elif SKIP_MARK in out.evidence:  # the runner's mark of a skip: honoured, it would exempt the row from its pin
            out = Outcome("error", {"error": f"the check's evidence has the key {SKIP_MARK!r}, which marks a claim the "
                                             "runner skipped (data or documents absent: raise DataMissing, or call "
                                             "ctx.data / ctx.document) and exempts it from its pin; name it otherwise"})
    except _Timeout:
        out = Outcome("error", {"error": f"timed out after {chk.timeout} s"})
    except DataMissing as e:
        out = not_checked(f"skipped: {e}", **{SKIP_MARK: True})
    except Exception as e:  # noqa: BLE001 - an error is a verdict
        tb = traceback.format_exc().strip().splitlines()[-6:]
        out = Outcome("error", {"error": f"{type(e).__name__}: {e}", "traceback": tb})
    finally:
        if use_alarm:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
    return out


def _said(x: dict[str, Any]) -> str | None:
    """What an outcome (a reading or a part row) says of itself: its why, else what is missing to decide it."""
    return (x.get("why") or "").strip() or ((x.get("evidence") or {}).get("missing") or "").strip() or None


def explained(verdict: str, why: str | None, rows: list[dict[str, Any]], evidence: dict[str, Any]) -> str | None:
    """The claim's why: the check's own, else one composed from what decided it - each reading with the headline's
    verdict (or, for reading-dependent, each reading that fails), by its why or by the parts with its verdict
    (``name: why``, or what is missing), else the evidence's ``missing``. None when nothing says why."""
    if (why or "").strip() or verdict not in NEEDS_WHY:
        return why
    deciding = [r for r in rows if r["verdict"] == verdict or (verdict == "reading-dependent" and r["verdict"] not in HOLDS)]
    bits: list[str] = []
    for r in deciding:
        own = _said(r)
        if own is None:
            parts = [f"{p['name']}: {_said(p)}" for p in r.get("parts") or [] if p["verdict"] == r["verdict"] and _said(p)]
            own = "; ".join(parts) or None
        if own is not None:
            bits.append(own if len(rows) == 1 else f"under {r['name']!r}: {own}")
    if not bits and (evidence.get("missing") or "").strip():
        bits.append(evidence["missing"].strip())
    text = " | ".join(dict.fromkeys(bits))
    return text or None


def run_one(claim_id: str, ctx: Context, project: Project | None = None) -> dict[str, Any]:
    """Compute one claim's row of the report (never raises)."""
    project = project or papers()
    entry = project.catalog[claim_id]
    chk = project.checks.get(claim_id)
    t0 = time.perf_counter()
    ctx = replace(ctx, documents_dir=ctx.documents_dir or project.documents_dir(), data_read=[])
    owed, excused = owed_combinations(project, claim_id)
    skipped = skip_reason(chk, ctx)
    replay = False
    if chk is None:
        out = not_checked("no check implemented yet")
    elif skipped:
        out = not_checked(skipped, **{SKIP_MARK: True})
    else:
        cctx = replace(ctx, combinations=tuple(owed), parts=chk.parts)
        out, replay = outcome_memo.computed_or_replayed(project, claim_id, chk, cctx, lambda: _call(chk, cctx))
    seconds = time.perf_counter() - t0
    verdict, rows = adjudicate(project, claim_id, out, owed)
    shared = out.verdict if out.verdict not in UNDECIDED else next(  # shared evidence serves the decided readings too
        (r["verdict"] for r in rows if r["verdict"] not in UNDECIDED), out.verdict)
    contradicted = contradictions({"verdict": shared, "evidence": jsonable(out.evidence), "readings": rows})
    if contradicted:  # a shown number that does not certify its decision flag: the ledger refuses the row
        verdict = "error"
        rows = [dict(r, verdict="error", why="evidence contradicts its decision: " + "; ".join(contradicted))
                for r in rows]
    why = explained(verdict, out.why, rows, jsonable(out.evidence))
    if verdict in NEEDS_WHY and not why:  # a verdict a reader must be told the reason of, with none given
        verdict = "error"
        why = (f"the check's outcome ({headline([r['verdict'] for r in rows])}) says nowhere why: give the Outcome a "
               "why, each deciding part or reading a why, or an unverifiable one what is missing")
        rows = [dict(r, verdict="error", why=why) for r in rows]
    row = {
        "id": claim_id,
        "area": entry.area,
        "source": entry.source,
        "kind": entry.kind,
        "statement": entry.statement,
        "method": chk.method if chk else entry.check,
        "verdict": verdict,
        "expected": None,
        "definitions": [d.as_json() for d in project.claim_definitions(claim_id)],
        "rests_on_declared": bool(chk and chk.rests_on is not None),
        "parts": [p.as_json() for p in chk.parts] if chk else [],
        "readings": rows,
        "not_applicable": [dict(na.as_json(), combinations=[c.key for c in excused if c[na.definition] == na.reading])
                           for na in (chk.not_applicable if chk else ())],
        "audit": chk.audit.as_json() if chk and chk.audit else None,
        "why": why,
        "evidence": jsonable(out.evidence),
        "seconds": round(seconds, 3),
    }
    if replay:
        row["replayed"] = True
    attach_pin(project, row, ctx.quick)
    return row


def attach_pin(project: Project, row: dict[str, Any], quick: bool) -> None:
    """``row["expected"]`` (the pinned verdict) and ``row["pin"]``: what moved from the pin (empty: nothing). A
    broken pin file raises :class:`~privclaims.checks.project.ProjectError` (``--repin`` marks the pins it replaces
    as absent first)."""
    pin = read_pin(project, row["id"])
    row["expected"] = pin["verdict"] if pin else None
    skipped = (row.get("evidence") or {}).get(SKIP_MARK)
    row["pin"] = {"moved": [] if skipped else compare(pin, row, quick), "reason": pin.get("reason") if pin else None}


def _error_rows(owed: list[Combination], msg: str) -> tuple[str, list[dict[str, Any]]]:
    return "error", [_combination_row(c, "error", msg) for c in owed]


def _combination_row(c: Combination, verdict: str, why: str | None = None) -> dict[str, Any]:
    rs = c.readings
    if len(rs) > 1 and rs[-1].meaning == AS_STATED_MEANING:  # the claim's sentence has no reading of its own
        rs = rs[:-1]
    return {"name": c.key, "choice": c.as_json(),
            "meaning": " AND ".join(r.meaning for r in rs) if len(rs) > 1 else rs[0].meaning,
            "source": "; ".join(dict.fromkeys(r.source for r in rs)),
            "quotes": [q.as_json() for r in rs for q in r.quotes],
            "verdict": verdict, **({"why": why} if why else {})}


def outcomes_in_evidence(out: Outcome, at: str = "evidence") -> list[str]:
    """Where an :class:`Outcome` sits inside evidence (of the outcome, its readings or its parts): such an outcome's
    verdict, searches and witness would reach the report only as ``str()`` text, unjudged."""
    found: list[str] = []

    def walk(x: Any, path: str) -> None:
        if isinstance(x, Outcome):
            found.append(path)
        elif isinstance(x, Mapping):
            for k, v in x.items():
                walk(v, f"{path}.{k}")
        elif isinstance(x, (list, tuple, set, frozenset)):
            for i, v in enumerate(x):
                walk(v, f"{path}[{i}]")

    walk(out.evidence, at)
    for kind, inner in (("reading", out.per_reading), ("part", out.per_part)):
        for name, o in (inner or {}).items():
            if isinstance(o, Outcome):
                found.extend(outcomes_in_evidence(o, f"{kind} {name!r}.evidence"))
    return found


def adjudicate(project: Project, claim_id: str, out: Outcome,
               owed: list[Combination] | None = None) -> tuple[str, list[dict[str, Any]]]:
    """The headline rule, applied by the ledger: each owed combination with its verdict (parts conjoined), the
    structural rules of every claim, and the headline derived by :func:`~privclaims.checks.verdict.headline`
    (never taken from the check)."""
    if owed is None:
        owed = owed_combinations(project, claim_id)[0]
    chk = project.checks.get(claim_id)
    keys = [c.key for c in owed]
    if out.per_reading is not None and out.per_part is not None:
        return _error_rows(owed, "the check returned readings and parts side by side (return by_reading of by_part "
                                 "outcomes)")
    hidden = outcomes_in_evidence(out)
    if hidden:
        return _error_rows(owed, f"an Outcome inside evidence ({', '.join(hidden[:5])}) would be shown as text and never "
                                 "judged: return it as a reading (by_reading) or a part (by_part), or put its numbers "
                                 "in the evidence")
    if out.per_reading is None:
        if len(owed) > 1 and out.verdict not in ("not-checked", "error"):
            return _error_rows(owed, f"the claim owes outcomes under {len(owed)} reading combinations {keys} but the "
                                     "check returned one (use by_reading over ctx.combinations)")
        per = {k: out for k in keys}  # one combination, or a skip / error that counts for every combination
        shared_is_reading = True
    else:
        per = out.per_reading
        shared_is_reading = False
        if set(per) != set(keys):
            missing, extra = [k for k in keys if k not in per], [k for k in per if k not in keys]
            return _error_rows(owed, f"outcomes missing for {missing} and given for unknown combinations {extra}; "
                                     f"the claim owes exactly {keys}")
        shared: dict[str, list[Combination]] = {}  # combinations grouped by the outcome they got (equal content)
        for c in owed:
            shared.setdefault(outcome_content(per[c.key], c), []).append(c)
        computed = [g for g in shared.values() if per[g[0].key].verdict not in ("not-checked", "error")]
        problem = same_under_problem(copied_dimensions(computed), dict(out.evidence.get(SAME_UNDER) or {}),
                                     copied_dimensions(shared.values()))  # a skip or an error may be shared undeclared
        if problem:  # by_reading checks its Combination keys; this catches every other way (names too)
            return _error_rows(owed, problem)
    rows = []
    unbounded: list[str] = []  # verified-bounded outcomes that state no bound
    for c in owed:
        o = per[c.key]
        verdict = o.verdict
        row = _combination_row(c, verdict)
        if not shared_is_reading:
            row.update(reading_outcome_json(o))
        if o.per_reading is not None:  # readings inside a reading: nothing below would show or judge them
            return _error_rows(owed, f"under {c.key!r} the check returned readings {sorted(o.per_reading)} inside a "
                                     "reading (return one by_reading over ctx.combinations)")
        if chk and not chk.parts and o.per_part is not None:  # whatever they conclude: an undecided part hid its neighbours
            return _error_rows(owed, f"under {c.key!r} the check returned parts {sorted(o.per_part)} but the claim "
                                     "declares none (declare parts= or return one outcome)")
        if chk and chk.parts and (o.per_part is not None or o.verdict not in ("not-checked", "error")):
            names = [p.name for p in chk.parts]  # parts returned are shown and judged even when one is undecided
            if o.per_part is None or set(o.per_part) != set(names):
                got = sorted(o.per_part) if o.per_part else "no parts"
                return _error_rows(owed, f"under {c.key!r} the check returned {got}; the claim's parts are {names} "
                                         "(use by_part)")
            nested = sorted(n for n, p in o.per_part.items() if p.per_part is not None or p.per_reading is not None)
            if nested:
                return _error_rows(owed, f"under {c.key!r} the parts {nested} returned parts or readings of their own "
                                         "(declare them as parts of the claim)")
            row["parts"] = [dict(p.as_json(), verdict=o.per_part[p.name].verdict, why=o.per_part[p.name].why,
                                 evidence=jsonable(o.per_part[p.name].evidence)) for p in chk.parts]
            verdict = conjoin([o.per_part[n].verdict for n in names])
            row["verdict"] = verdict
            unbounded += [f"part {n!r} under {c.key!r}{bound_given(o.per_part[n].evidence, o.evidence, out.evidence)}"
                          for n in names if o.per_part[n].verdict == "verified-bounded"
                          and not states_bound(o.per_part[n].evidence, o.evidence, out.evidence)]
        elif verdict == "verified-bounded" and not states_bound(o.evidence, out.evidence):
            unbounded.append(repr(c.key) + bound_given(o.evidence, out.evidence))
        rows.append(row)
    if unbounded:
        return _error_rows(owed, f"verified-bounded without saying what was searched ({', '.join(unbounded)}): a "
                                 "bounded verdict states its bound (verified_bounded(bound=...), property_verdict) in "
                                 "its evidence, its reading's or the claim's, as a non-blank text")
    if chk:  # not only audited claims (rests_on declared): a check that omits rests_on is held to them too
        problems = structural_problems(project, chk, rows, out)
        if problems:
            return "error", [dict(r, verdict="error", why="; ".join(problems)) for r in rows]
    return headline([r["verdict"] for r in rows]), rows


def states_bound(*evidence: Mapping[str, Any]) -> bool:
    """Whether one of the evidence dicts (an outcome's, then those enclosing it) states a bound: a non-blank ``bound``."""
    return any(isinstance(e, Mapping) and isinstance(e.get("bound"), str) and e["bound"].strip() for e in evidence)


def bound_given(*evidence: Mapping[str, Any]) -> str:
    """For the error :func:`states_bound` leads to: the first ``bound`` the evidence dicts hold that is not a text
    (``" (its bound=1000 is an int, not a text)"``), else ``""`` - a bound says in words what was searched."""
    for e in evidence:
        if isinstance(e, Mapping) and "bound" in e and not isinstance(e["bound"], str):
            return f" (its bound={e['bound']!r:.60} is {type(e['bound']).__name__}, not a text)"
    return ""


def structural_problems(project: Project, chk: ClaimCheck, rows: list[dict[str, Any]], out: Outcome) -> list[str]:
    """The rules every claim obeys by construction (issue 21, items 2-3; once only the audited ones, those declaring
    ``rests_on``, so a check of one's own that omitted it could refute with an unvalidated witness)."""
    bad = []
    real = set(project.real_data)
    for r in rows:
        if r["verdict"] == "reproduced" and not r.get("parts"):
            bad.append(f"under {r['name']!r}: a reproduction lists its parts, each with its data set (declare parts=)")
        for p in r.get("parts") or []:
            if p["verdict"] == "reproduced" and (not p.get("data") or not set(p["data"]) <= real):
                bad.append(f"part {p['name']!r} is reproduced on {p.get('data') or 'no data set'}; a reproduction needs "
                           f"real data ({sorted(real)}): a generator of ours can illustrate a shape, never reproduce it")
        if r["verdict"] == "refuted":
            evs = [r.get("evidence") if "evidence" in r else jsonable(out.evidence)]
            evs += [p.get("evidence") for p in r.get("parts") or [] if p["verdict"] == "refuted"]
            models = [(ev or {}).get("model") for ev in evs]
            if not any(isinstance(m, dict) and m.get("valid") is True and m.get("name") and not m.get("problems")
                       for m in models):  # a model saying valid while listing problems validates nothing
                bad.append(f"under {r['name']!r}: the witness is not validated against the documents' model "
                           "(refuted(..., model=in_model(name, problems)))")
    return bad


def _worker(args: tuple[str, dict]) -> dict[str, Any]:
    claim_id, ctx_fields = args
    return run_one(claim_id, Context(**ctx_fields), _ACTIVE)


_ACTIVE: Project | None = None  # the project of the pool's run (inherited by forked workers)


def run_claims(
    ids: Iterable[str],
    ctx: Context,
    workers: int = 1,
    on_done: Callable[[dict[str, Any]], None] | None = None,
    project: Project | None = None,
) -> list[dict[str, Any]]:
    """Run the given claims; rows come back in the order of ``ids``."""
    global _ACTIVE
    project = project or papers()
    ids = list(ids)
    rows: dict[str, dict[str, Any]] = {}
    if workers <= 1 or len(ids) <= 1:
        for cid in ids:
            rows[cid] = run_one(cid, ctx, project)
            if on_done:
                on_done(rows[cid])
    else:
        # Long checks first, so the pool is not left waiting on one at the end.
        order = sorted(ids, key=lambda c: (project.checks[c].quick if c in project.checks else True))
        fields = {k: v for k, v in asdict(ctx).items() if k not in ("combinations", "parts", "data_read")}
        _ACTIVE = project
        with cf.ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("fork")) as pool:
            futs = {pool.submit(_worker, (cid, fields)): cid for cid in order}
            for fut in cf.as_completed(futs):
                cid = futs[fut]
                try:
                    rows[cid] = fut.result()
                except Exception as e:  # a crashed worker is an error verdict for its claim
                    rows[cid] = error_row(project, cid, f"worker failed: {type(e).__name__}: {e}", ctx.quick)
                if on_done:
                    on_done(rows[cid])
    return [rows[c] for c in ids]


def error_row(project: Project, claim_id: str, error: str, quick: bool) -> dict[str, Any]:
    """The row of a claim whose run crashed outside its check."""
    out = Outcome("error", {"error": error})
    owed = owed_combinations(project, claim_id)[0]
    verdict, rows = adjudicate(project, claim_id, out, owed)
    entry = project.catalog[claim_id]
    row = {"id": claim_id, "area": entry.area, "source": entry.source, "kind": entry.kind, "statement": entry.statement,
           "method": entry.check, "verdict": verdict, "expected": None, "definitions": [], "parts": [],
           "readings": rows, "not_applicable": [], "audit": None, "why": None, "evidence": {"error": error},
           "seconds": 0.0}
    attach_pin(project, row, quick)
    return row


def drift(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows whose computed verdict or decisive values differ from the pin (skipped rows excluded), or that errored."""
    bad = []
    for r in rows:
        if (r.get("evidence") or {}).get(SKIP_MARK):
            continue
        if r["verdict"] == "error" or r["verdict"] != r.get("expected") or (r.get("pin") or {}).get("moved"):
            bad.append(r)
    return bad


__all__ = ["HOLDS", "adjudicate", "drift", "explained", "owed_combinations", "run_claims", "run_one", "skip_reason"]
