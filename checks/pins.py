"""Pins hold what was computed, not only the verdict (issue 23).

One JSON file per claim, ``<pins>/<area>/<label>.json`` (a snapshot per claim, like pytest-regressions' data
files: a re-pin touches only the claims it names, and a review reads one small diff per claim)::

    {"id": "zealous.table6_2", "verdict": "discrepancy",
     "readings": {"as stated": "discrepancy"},
     "values": {...},          # the decisive values of the full run: the verdict, each reading's verdict and
                               # evidence (parts included) and the shared evidence, as the JSON report has them
     "values_quick": "same",   # the --quick run's, when it differs ("same": equal; null: not run in --quick)
     "reason": "why the claim is pinned as it is (the last re-pin's reason)"}

Values are exact (rationals as "p/q", integers, strings, witnesses) or floats; floats are compared at a stated
relative precision, :data:`FLOAT_REL`. Values that legitimately vary are excluded **by rule**
(:func:`decisive`): every key containing ``seconds`` (timings and ratios of timings), and the paths of figures
and traceback lines. A run whose verdict or any pinned value moves is drift: :func:`compare` lists exactly what
moved, path by path. Re-pinning is explicit (``privclaims ledger --repin --reason "..."``) and records its reason.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from privclaims.checks.project import ProjectError, explain
from privclaims.checks.verdict import VERDICTS

FLOAT_REL = 1e-9  # floats of the evidence agree with their pins to 9 significant digits
VOLATILE_EXACT = ("figure", "figures", "traceback", "data_dir")


def is_volatile(key: str) -> bool:
    """Keys whose values legitimately vary between runs (by rule, never by hand)."""
    k = key.lower()
    return "seconds" in k or k in VOLATILE_EXACT or k.endswith("_path") or k.endswith("_png")


def decisive(x: Any) -> Any:
    """``x`` without its volatile keys, recursively."""
    if isinstance(x, dict):
        return {k: decisive(v) for k, v in x.items() if not is_volatile(str(k))}
    if isinstance(x, list):
        return [decisive(v) for v in x]
    return x


def values_of(row: dict[str, Any]) -> dict[str, Any]:
    """The decisive values of a report row: verdict, per-combination verdicts/evidence/parts, shared evidence."""
    readings = {}
    for r in row.get("readings") or []:
        entry: dict[str, Any] = {"verdict": r.get("verdict")}
        if "evidence" in r:
            entry["evidence"] = decisive(r["evidence"])
        if r.get("parts"):
            entry["parts"] = {p["name"]: {"verdict": p.get("verdict"), "evidence": decisive(p.get("evidence") or {})}
                              for p in r["parts"]}
        readings[r["name"]] = entry
    return {"verdict": row["verdict"], "readings": readings, "evidence": decisive(row.get("evidence") or {})}


def diff(pinned: Any, computed: Any, path: str = "") -> list[str]:
    """What moved from ``pinned`` to ``computed``, one line per leaf (floats within :data:`FLOAT_REL` agree)."""
    here = path or "(root)"
    if isinstance(pinned, dict) and isinstance(computed, dict):
        out = []
        for k in dict.fromkeys([*pinned, *computed]):
            p = f"{path}.{k}" if path else str(k)
            if k not in computed:
                out.append(f"{p}: pinned {_short(pinned[k])}, now absent")
            elif k not in pinned:
                out.append(f"{p}: not pinned, now {_short(computed[k])}")
            else:
                out += diff(pinned[k], computed[k], p)
        return out
    if isinstance(pinned, list) and isinstance(computed, list):
        if len(pinned) != len(computed):
            return [f"{here}: pinned {len(pinned)} entries, now {len(computed)}"] + [
                line for i, (a, b) in enumerate(zip(pinned, computed)) for line in diff(a, b, f"{path}[{i}]")][:20]
        return [line for i, (a, b) in enumerate(zip(pinned, computed)) for line in diff(a, b, f"{path}[{i}]")]
    if isinstance(pinned, float) and isinstance(computed, (int, float)) and not isinstance(computed, bool) \
            or isinstance(computed, float) and isinstance(pinned, (int, float)) and not isinstance(pinned, bool):
        if math.isclose(float(pinned), float(computed), rel_tol=FLOAT_REL, abs_tol=0.0) or pinned == computed:
            return []
        return [f"{here}: pinned {pinned!r}, now {computed!r}"]
    if pinned == computed and type(pinned) is type(computed):
        return []
    return [f"{here}: pinned {_short(pinned)}, now {_short(computed)}"]


def _short(x: Any, room: int = 160) -> str:
    s = json.dumps(x, ensure_ascii=False)
    return s if len(s) <= room else s[: room - 1] + "…"


# ------------------------------------------------------------------------------------------- files


def pin_path(project: Any, claim_id: str) -> Path:
    area, _, label = claim_id.partition(".")
    return project.pins_dir / area / f"{label}.json"


_MEND = "; mend the file, or delete it and re-pin the claim (privclaims ledger --repin --claim ID --reason ...)"


class PinFile(BaseModel):
    """A pin file's schema (the keys :func:`write_pin` writes; an unknown key is refused)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    id: str = Field(min_length=3)
    verdict: Literal[VERDICTS]  # type: ignore[valid-type]
    readings: dict[str, Literal[VERDICTS]]  # type: ignore[valid-type]
    values: dict[str, Any] | None
    values_quick: Literal["same"] | dict[str, Any] | None
    reason: str


def read_pin(project: Any, claim_id: str) -> dict[str, Any] | None:
    """The claim's pin (None: not pinned), read once per project; a file that is not JSON, breaks
    :class:`PinFile` or pins another claim is a :class:`~privclaims.checks.project.ProjectError` naming it."""
    if claim_id not in project.pin_cache:
        p = pin_path(project, claim_id)
        pin = None
        if p.is_file():
            try:
                pin = json.loads(p.read_text(encoding="utf-8"))
            except (ValueError, UnicodeDecodeError) as e:  # JSONDecodeError is a ValueError
                raise ProjectError(f"pin {p}: not JSON text ({e}){_MEND}") from None
            try:
                PinFile.model_validate(pin)
            except ValidationError as e:
                raise ProjectError(explain(e, f"pin {p}") + _MEND) from None
            if pin["id"] != claim_id:
                raise ProjectError(f"pin {p}: id {pin['id']!r} is not {claim_id!r} (a pin's file is its claim's, "
                                   f"<pins>/<area>/<label>.json){_MEND}")
        project.pin_cache[claim_id] = pin
    return project.pin_cache[claim_id]


def pinned_verdicts(project: Any) -> dict[str, str]:
    """Claim ID -> pinned verdict, for every pinned claim of the project (catalogue order)."""
    out = {}
    for cid in project.catalog:
        pin = read_pin(project, cid)
        if pin is not None:
            out[cid] = pin["verdict"]
    return out


def compare(pin: dict[str, Any] | None, row: dict[str, Any], quick: bool) -> list[str]:
    """Everything in ``row`` that differs from ``pin`` (empty: the row keeps its pin)."""
    if pin is None:
        return ["not pinned"]
    if row["verdict"] != pin["verdict"]:
        lines = [f"verdict: pinned {pin['verdict']}, now {row['verdict']}"]
    else:
        lines = []
    want = pin.get("values")
    if quick and pin.get("values_quick") != "same":
        want = pin.get("values_quick")
    if want is None:
        return lines + ["no pinned values for this mode (re-pin to record them)"]
    return lines + [line for line in diff(want, values_of(row)) if not line.startswith("verdict:")]


def write_pin(project: Any, claim_id: str, full: dict[str, Any], quick: dict[str, Any] | None, reason: str) -> Path:
    """Pin ``claim_id`` from its full-mode row and its quick-mode row (None: the claim is not run in --quick)."""
    if not reason or not reason.strip():
        raise ValueError("a re-pin records its reason: give --reason")
    values = values_of(full)
    vq: Any = None
    if quick is not None:
        q = values_of(quick)
        vq = "same" if not diff(values, q) else q
    pin = {"id": claim_id, "verdict": full["verdict"],
           "readings": {k: v["verdict"] for k, v in values["readings"].items()},
           "values": values, "values_quick": vq, "reason": reason.strip()}
    p = pin_path(project, claim_id)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(pin, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    project.pin_cache[claim_id] = pin
    return p
