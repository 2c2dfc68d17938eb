"""Reports: JSON (schema version 1, read by other tools: keep it stable) and Markdown."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from checks.catalog import AREAS
from checks.verdict import VERDICTS

SCHEMA_VERSION = 1


def summary(rows: list[dict[str, Any]]) -> dict[str, int]:
    c = Counter(r["verdict"] for r in rows)
    return {v: c[v] for v in VERDICTS if c[v]}


def to_json(rows: list[dict[str, Any]], run: dict[str, Any]) -> str:
    """``{"version": 1, "claims": [...], "summary": {verdict: count}, "run": {...}}``."""
    doc = {"version": SCHEMA_VERSION, "claims": rows, "summary": summary(rows), "run": run}
    return json.dumps(doc, indent=1, ensure_ascii=False, sort_keys=False) + "\n"


def short_evidence(ev: dict[str, Any], width: int = 110) -> str:
    s = json.dumps(ev, ensure_ascii=False, separators=(",", ":"))
    return s if len(s) <= width else s[: width - 1] + "…"


def to_markdown(rows: list[dict[str, Any]], run: dict[str, Any]) -> str:
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
    return "\n".join(lines) + "\n"
