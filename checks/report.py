"""Reports: JSON (schema version 1, read by other tools: keep it stable) and Markdown."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from checks.catalog import AREAS
from checks.verdict import VERDICTS

SCHEMA_VERSION = 2  # 2: per-claim "readings" and "why"; the verdict "reading-dependent"


def summary(rows: list[dict[str, Any]]) -> dict[str, int]:
    c = Counter(r["verdict"] for r in rows)
    return {v: c[v] for v in VERDICTS if c[v]}


def to_json(rows: list[dict[str, Any]], run: dict[str, Any], safety: dict[str, Any] | None = None) -> str:
    """``{"version": 2, "claims": [...], "summary": {verdict: count}, "run": {...}}``, plus (additive)
    ``"safety"``: the float-safety campaign's per-kind counts (counterexamples/float_safety.py)."""
    doc = {"version": SCHEMA_VERSION, "claims": rows, "summary": summary(rows), "run": run}
    if safety is not None:
        doc["safety"] = safety
    return json.dumps(doc, indent=1, ensure_ascii=False, sort_keys=False) + "\n"


def short_evidence(ev: dict[str, Any], width: int = 110) -> str:
    s = json.dumps(ev, ensure_ascii=False, separators=(",", ":"))
    return s if len(s) <= width else s[: width - 1] + "…"


SAFETY_COLUMNS = ("kind", "instances", "boundary", "unsafe", "extra_suppressions", "extra_suppression_rate",
                  "extra_suppression_rate_off_boundary")


def safety_markdown(safety: dict[str, Any]) -> list[str]:
    lines = ["", "## float safety (fast twins vs exact twins)", "",
             f"Seed {safety['seed']}, profile {safety['profile']}; unsafe disagreements in total: {safety['unsafe_total']}.", "",
             "| " + " | ".join(SAFETY_COLUMNS) + " |", "|" + "---|" * len(SAFETY_COLUMNS)]
    for k in safety["kinds"]:
        lines.append("| " + " | ".join(str(k[c]) for c in SAFETY_COLUMNS) + " |")
    if "noise" in safety:
        lines += ["", noise_line(safety["noise"])]
    return lines


def noise_line(noise: dict[str, Any]) -> str:
    nv, ex = noise["naive_float_laplace"], noise["exact_grid_laplace"]
    return (f"Mironov's attack: naive float Laplace outputs from c = 0 exclude c = 1 in {nv['exclude_neighbour']}/{nv['draws']} "
            f"draws (unbounded loss); exact grid Laplace worst ratio {ex['worst_ratio']} <= e^eps = {ex['e_eps']}: "
            f"{ex['ratio_le_e_eps']}; attack defeated: {noise['attack_defeated']}.")


def to_markdown(rows: list[dict[str, Any]], run: dict[str, Any], safety: dict[str, Any] | None = None) -> str:
    lines = ["# privclaims ledger", ""]
    lines.append(f"Seed {run.get('seed')}, mode {'quick' if run.get('quick') else 'full'}, data {run.get('data_dir')}.")
    lines.append("")
    lines.append("| verdict | count |")
    lines.append("|---|---|")
    for v, n in summary(rows).items():
        lines.append(f"| {v} | {n} |")
    for area in AREAS:
        sub = [r for r in rows if r["area"] == area]
        if not sub:
            continue
        lines += ["", f"## {area}", "", "| id | verdict | pinned | method | evidence |", "|---|---|---|---|---|"]
        for r in sub:
            ev = short_evidence(r["evidence"], 300).replace("|", "\\|")
            lines.append(f"| `{r['id']}` | {r['verdict']} | {r['expected']} | {r['method']} | {ev} |")
    if safety is not None:
        lines += safety_markdown(safety)
    return "\n".join(lines) + "\n"
