"""Reports: JSON (schema version 2, read by other tools: keep it stable) and Markdown for people.

The Markdown report puts findings first: a summary, then every refuted, reading-dependent and
discrepancy claim in full (statement, source, readings, paper beside ours, the whole witness, the
plain-words why), the figures, and per-area tables with one human summary per claim (each claim's
statement and full evidence in a collapsible block below its area's table). Nothing is truncated.
Rows may come from older reports without ``readings`` / ``why`` (both are optional here).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from privclaims.checks.pin_environment import environment_line
from privclaims.checks.render import block, details, figure_link, figures, inline, maybe_details, scalar, table
from privclaims.checks.verdict import SKIP_MARK, VERDICTS

FINDINGS = ("refuted", "reading-dependent", "discrepancy")

SCHEMA_VERSION = 3  # 2: per-claim "readings" and "why"; the verdict "reading-dependent". 3: "readings" are the
# combinations of the readings of the claim's "definitions" and its own ("choice"), with "parts"; per claim
# "definitions", "parts", "not_applicable", "audit", "pin" ({"moved": [...], "reason"}); run "project", "quotes".


def summary(rows: list[dict[str, Any]]) -> dict[str, int]:
    c = Counter(r["verdict"] for r in rows)
    return {v: c[v] for v in VERDICTS if c[v]}


def to_json(rows: list[dict[str, Any]], run: dict[str, Any], safety: dict[str, Any] | None = None) -> str:
    """``{"version": 3, "claims": [...], "summary": {verdict: count}, "run": {...}}``, plus (additive)
    ``"safety"``: the float-safety campaign's per-kind counts (counterexamples/float_safety.py)."""
    doc = {"version": SCHEMA_VERSION, "claims": rows, "summary": summary(rows), "run": run}
    if safety is not None:
        doc["safety"] = safety
    return json.dumps(doc, indent=1, ensure_ascii=False, sort_keys=False) + "\n"


SAFETY_COLUMNS = ("kind", "instances", "boundary", "unsafe", "extra_suppressions", "extra_suppression_rate",
                  "extra_suppression_rate_off_boundary")


def safety_markdown(safety: dict[str, Any]) -> list[str]:
    lines = ["", "## float safety (fast twins vs exact twins)", "",
             f"Seed {safety['seed']}, profile {safety['profile']}; unsafe disagreements in total: {safety['unsafe_total']}.", ""]
    if safety["kinds"]:
        lines += table(list(SAFETY_COLUMNS), [[k[c] for c in SAFETY_COLUMNS] for k in safety["kinds"]])
    if "noise" in safety:
        lines += ["", noise_line(safety["noise"])]
    return lines


def noise_line(noise: dict[str, Any]) -> str:
    nv, ex = noise["naive_float_laplace"], noise["exact_grid_laplace"]
    return (f"Mironov's attack: naive float Laplace outputs from c = 0 exclude c = 1 in {nv['exclude_neighbour']}/{nv['draws']} "
            f"draws (unbounded loss); exact grid Laplace worst ratio {ex['worst_ratio']} <= e^eps = {ex['e_eps']}: "
            f"{ex['ratio_le_e_eps']}; attack defeated: {noise['attack_defeated']}.")


def is_finding(row: dict[str, Any]) -> bool:
    return row["verdict"] in FINDINGS


def readings_of(row: dict[str, Any]) -> list[dict[str, Any]]:
    """The row's tested readings (rows of schema 1 had none: the catalogued statement, as stated)."""
    return row.get("readings") or [{"name": "as stated", "meaning": "the catalogued statement, read literally",
                                    "source": row.get("source", ""), "verdict": row["verdict"]}]


def why_of(row: dict[str, Any]) -> str | None:
    """The plain-words why: the row's, else the readings' own, else the evidence's note or reason."""
    if row.get("why"):
        return row["why"]
    per = [f"{r['name']}: {r['why']}" for r in readings_of(row) if r.get("why")]
    if per:
        return " ".join(per)
    ev = row.get("evidence") or {}
    for k in ("reason", "note"):
        if isinstance(ev.get(k), str):
            return ev[k]
    return None


def _first(row: dict[str, Any], key: str) -> Any:
    """``key`` of the row's evidence, else of the first reading (then part) whose evidence has it: a headline derived
    from readings or parts says what the deciding reading or part says."""
    ev = row.get("evidence") or {}
    if ev.get(key):
        return ev[key]
    for r in readings_of(row):
        if r.get("verdict") == row["verdict"] or row["verdict"] not in ("reading-dependent",):
            for src in [r.get("evidence") or {}] + [p.get("evidence") or {} for p in r.get("parts") or []
                                                     if p.get("verdict") == row["verdict"]]:
                if src.get(key):
                    return src[key]
    return None


def summary_line(row: dict[str, Any], md: bool = False) -> str:
    """One human sentence about a claim's outcome (no JSON, nothing cut)."""
    v, ev = row["verdict"], row.get("evidence") or {}
    f = lambda x: inline(x, md, cell=md)  # noqa: E731
    if v == "reading-dependent":
        return "; ".join(f"{r['name']}: {r['verdict']}" for r in readings_of(row))
    if v == "error":
        return f"error: {f(ev.get('error') or why_of(row) or 'no message')}"  # the ledger's own errors say why in the rows
    if v == "not-checked":
        return f(ev.get("reason", "not checked"))
    if v == "unverifiable":
        return f"missing: {f(_first(row, 'missing') or 'not stated')}"
    if v == "reproduced":
        return f"reproduced: {f(_first(row, 'shape') or 'see evidence')}"
    if v == "verified-bounded":
        return f"no counterexample up to: {f(_first(row, 'bound') or 'see evidence')}"
    if "paper" in ev and "computed" in ev:
        pc = f"paper {f(ev['paper'])}; ours {f(ev['computed'])}"
        if len(pc) > 240:
            pc = "paper and ours are tabulated in the evidence"
        if v == "verified":
            return f"exact: {pc}" if ev["paper"] != ev["computed"] else f"exact: paper = ours = {f(ev['computed'])}"
        return pc if v == "discrepancy" else f"{v}: {pc}"
    if v == "verified":
        if isinstance(ev.get("values"), dict):
            return f"exact: {len(ev['values'])} printed value(s) recomputed, all equal"
        return "exact: " + (f(why_of(row)) if why_of(row) else "holds on the stated instance")
    if v == "refuted":
        why = why_of(row)
        return "witness found" + (f": {f(why)}" if why else " (the witness is in the evidence)")
    return f(why_of(row) or v)


def verdict_cell(row: dict[str, Any]) -> str:
    mark = "" if (row.get("evidence") or {}).get(SKIP_MARK) or row["verdict"] == row.get("expected") else " ≠ pin"
    return f"{row['verdict']}{mark}"


def _paper_vs_ours(ev: dict[str, Any]) -> list[str]:
    if "paper" not in ev or "computed" not in ev:
        return []
    p, c = ev["paper"], ev["computed"]
    if isinstance(p, dict) and isinstance(c, dict) and set(p) & set(c):
        lines = table(["", "paper", "ours"], [[k, p.get(k, ""), c.get(k, "")] for k in dict.fromkeys([*p, *c])])
    else:
        lines = table(["paper", "ours"], [[p, c]])
    return ["**Paper beside ours:**", "", *lines, ""]


def witness_keys(ev: dict[str, Any]) -> list[str]:
    """The evidence's witnesses: ``"witness"`` and any key naming one (``"equality_witness"``), when set."""
    return [k for k, v in ev.items()
            if "witness" in k.lower() and not isinstance(v, bool) and v not in (None, "", [], {})]


def _outcome_md(ev: dict[str, Any], label: str, fold: bool = True) -> list[str]:
    """Paper vs ours, the witness (full, in the open) and the remaining evidence."""
    out = _paper_vs_ours(ev)
    shown = witness_keys(ev)
    for k in shown:
        name = "Witness" if k == "witness" else f"Witness ({k})"
        out += [f"**{name}{label}:**", "", *block(ev[k], k), ""]
    rest = {k: v for k, v in ev.items() if k not in ("paper", "computed", *shown)}
    if rest:
        out += maybe_details(f"Evidence{label}", block(rest)) if fold else [f"**Evidence{label}:**", "", *block(rest), ""]
    return out


def claim_markdown(row: dict[str, Any], level: int = 3, base: Path | None = None, fold: bool = True,
                   anchor: bool = True) -> list[str]:
    """One claim in full: statement, source, method, verdict and pin, readings, why, paper vs ours,
    witness, evidence and figures (the Findings section and ``--show``; ``fold=False``: no ``<details>``)."""
    h = "#" * level
    out = ([f'<a id="{row["id"]}"></a>', ""] if anchor else []) + [f"{h} `{row['id']}` — {row['verdict']}", ""]
    out += ["> " + scalar(line) if line else ">" for line in str(row.get("statement", "")).splitlines()] + [""]
    out += [f"- **Source:** {scalar(row.get('source', ''))}", f"- **Method:** {row.get('method')}",
            f"- **Verdict:** {row['verdict']} (pinned: {row.get('expected')})" + (
                "; replayed: read back from a recorded run (`$PRIVCLAIMS_REPLAY_OUTCOMES`), not computed in this one"
                if row.get("replayed") else ""), ""]
    out += definitions_md(row)
    rs = readings_of(row)
    out += ["**Readings tested:**", "", *table(["reading", "verdict", "meaning", "source"],
                                              [[r["name"], r.get("verdict", ""), r.get("meaning", ""), r.get("source", "")]
                                               for r in rs]), ""]
    out += quotes_md(row)
    out += extras_md(row)
    why = row.get("why")
    if why:
        out += [f"**Why:** {scalar(why)}", ""]
    elif not any(r.get("why") for r in rs):
        fallback = why_of(row)
        out += [f"**Why** (the evidence's note; the check states no why): {scalar(fallback)}" if fallback
                else "**Why:** the check states no plain-words explanation.", ""]
    per_reading = [r for r in rs if "evidence" in r or r.get("why") or r.get("parts")]
    for r in per_reading:
        out += [f"{h}# Reading “{scalar(r['name'])}” — {r.get('verdict')}", "", f"*{scalar(r.get('meaning', ''))}* "
                f"(source: {scalar(r.get('source', ''))})", ""]
        if r.get("why"):
            out += [f"**Why:** {scalar(r['why'])}", ""]
        out += parts_md(r)
        out += _outcome_md(r.get("evidence") or {}, f" under “{scalar(r['name'])}”", fold)
    ev = row.get("evidence") or {}
    if per_reading and ev:
        shared = block(ev)
        out += maybe_details("Evidence shared by the readings", shared) if fold else \
            ["**Evidence shared by the readings:**", "", *shared, ""]
    elif ev:
        out += _outcome_md(ev, "", fold)
    for png in dict.fromkeys(figures(row)):
        out += [f"![{row['id']}: {Path(png).name}]({figure_link(png, base)})", ""]
    return out


def definitions_md(row: dict[str, Any]) -> list[str]:
    """The definitions the claim rests on, each reading with its meaning (the combinations multiply them)."""
    defs = row.get("definitions") or []
    if not defs:
        declared = row.get("rests_on_declared")
        return ["**Definitions:** " + ("none: the claim rests on no definition with readings of its own."
                                       if declared else "not declared yet."), ""]
    out = ["**Definitions it rests on:**", ""]
    for d in defs:
        rs = d.get("readings") or []
        out.append(f"- `{d['id']}` — {scalar(d.get('name', ''))}: " + "; ".join(
            f"*{scalar(r['name'])}*: {scalar(r.get('meaning', ''))}" for r in rs))
    return out + [""]


def quote_text(q: dict[str, Any]) -> str:
    """A quote of the JSON report as written: ``document where: “text”`` (whitespace normalised)."""
    return f"{q['document']} {q['where']}: “{' '.join(q['text'].split())}”".replace("  ", " ")


def quotes_md(row: dict[str, Any]) -> list[str]:
    """The quotes the claim's readings and definitions carry (each checked verbatim against its document), each once
    with the readings and definitions that cite it."""
    cited: dict[str, list[str]] = {}
    for d in row.get("definitions") or []:
        for q in d.get("quotes") or []:
            cited.setdefault(quote_text(q), []).append(f"definition `{d['id']}`")
    for r in readings_of(row):
        for q in r.get("quotes") or []:
            cited.setdefault(quote_text(q), []).append(f"*{scalar(r['name'])}*")
    if not cited:
        return []
    return ["**Quotes** (verbatim from the documents):", "",
            *(f"- {scalar(q)} — {', '.join(dict.fromkeys(by))}" for q, by in cited.items()), ""]


def extras_md(row: dict[str, Any]) -> list[str]:
    """Declared parts, readings that do not apply (with the quote), the audit note and what moved from the pin."""
    out: list[str] = []
    if row.get("parts"):
        out += ["**Parts of the statement** (every part must hold):", "",
                *table(["part", "asserts", "tolerance", "data"],
                       [[p["name"], p.get("asserts", ""), p.get("tolerance", ""), ", ".join(p.get("data") or [])]
                        for p in row["parts"]]), ""]
    for na in row.get("not_applicable") or []:
        qs = "; ".join(quote_text(q) for q in na.get("quotes", []))
        out += [f"- **Not applicable:** `{na['definition']}` / {scalar(na['reading'])} — {scalar(na['why'])} ({scalar(qs)})"]
    if row.get("not_applicable"):
        out.append("")
    audit = row.get("audit")
    if audit:
        out += [f"**Audit:** {scalar(audit.get('note', ''))}", ""]
        for rj in audit.get("rejected") or []:
            qs = "; ".join(quote_text(q) for q in rj.get("quotes", []))
            out += [f"- rejected reading *{scalar(rj['reading'])}*: {scalar(rj['why'])}" + (f" ({scalar(qs)})" if qs else "")]
        out.append("")
    moved = (row.get("pin") or {}).get("moved") or []
    if moved:
        out += ["**Moved from the pin:**", "", *(f"- {scalar(m)}" for m in moved), ""]
    return out


def parts_md(r: dict[str, Any]) -> list[str]:
    """A reading's parts: each part's verdict, data set and why."""
    ps = r.get("parts") or []
    if not ps:
        return []
    out = ["**Parts:**", "", *table(["part", "verdict", "data", "why"],
                                    [[p["name"], p.get("verdict", ""), ", ".join(p.get("data") or []), p.get("why") or ""]
                                     for p in ps]), ""]
    for p in ps:
        if p.get("evidence"):
            out += maybe_details(f"Evidence of part “{scalar(p['name'])}”", block(p["evidence"]))
    return out


def markdown_text(lines: list[str]) -> str:
    """Join lines, with at most one blank line in a row."""
    out: list[str] = []
    for line in lines:
        if line == "" and (not out or out[-1] == ""):
            continue
        out.append(line)
    return "\n".join(out).rstrip() + "\n"


def replayed_note(rows: list[dict[str, Any]]) -> str | None:
    """The reports' line on the claims whose outcome was replayed (``"replayed": true``,
    :mod:`privclaims.checks.outcome_memo`), None when none was."""
    n = sum(1 for r in rows if r.get("replayed"))
    return (f"{n} of them replayed: their outcomes were read back from a recorded run (`$PRIVCLAIMS_REPLAY_OUTCOMES`), "
            "not computed in this one.") if n else None


def to_markdown(rows: list[dict[str, Any]], run: dict[str, Any], safety: dict[str, Any] | None = None,
                base: Path | None = None, areas: tuple[str, ...] | None = None) -> str:
    """The Markdown report (``base``: the folder it is written to, for figure links; ``areas``: their order)."""
    lines = ["# privclaims ledger", "",
             f"Seed {run.get('seed')}, mode {'quick' if run.get('quick') else 'full'}, data {run.get('data_dir')}. "
             f"{len(rows)} claims.", ""]
    note = replayed_note(rows)
    if note:
        lines += [note, ""]
    lines += ["## Summary", "", "| verdict | claims |", "|---|---|"]
    lines += [f"| {v} | {n} |" for v, n in summary(rows).items()]
    order = list(areas or ()) + [r["area"] for r in rows]
    areas = [a for a in dict.fromkeys(order) if any(r["area"] == a for r in rows)]
    present = list(summary(rows))
    lines += ["", "| area | " + " | ".join(present) + " |", "|---|" + "---|" * len(present)]
    for a in areas:
        c = Counter(r["verdict"] for r in rows if r["area"] == a)
        lines.append(f"| [{a}](#area-{a}) | " + " | ".join(str(c[v]) for v in present) + " |")
    drift = run.get("drift") or []
    lines += ["", (f"**{len(drift)} claim(s) differ from their pinned verdict or errored:** "
                   + ", ".join(f"`{d}`" for d in drift)) if drift else "Every computed verdict equals its pin.", ""]
    versions = environment_line(run)
    if versions:
        lines += [f"**{scalar(versions)}**", ""]
    found = [r for r in rows if is_finding(r)]
    lines += ["## Findings", "",
              f"{len(found)} claim(s) refuted, reading-dependent or in discrepancy with our exact recomputation, "
              "each with its statement, source, the readings tested, the paper's value beside ours, the full "
              "witness and why. Exact rationals are printed p/q with a decimal beside.", ""]
    for v in FINDINGS:
        for r in found:
            if r["verdict"] == v:
                lines += claim_markdown(r, 3, base) + ["---", ""]
    pngs = [(r, p) for r in rows for p in dict.fromkeys(figures(r.get("evidence") or {}))]
    if pngs:
        lines += ["## Figures", "", "Figures drawn by the reproductions (`--reports DIR`), with the claim they reproduce.", ""]
        for r, p in pngs:
            paper = {k: v for k, v in (r.get("evidence") or {}).items() if k.startswith("paper")}
            lines += [f"### `{r['id']}` — {r['verdict']}", "", f"> {scalar(r.get('statement', ''))}", "",
                      f"![{r['id']}]({figure_link(p, base)})", "", f"Ours: {summary_line(r, md=True)}", ""]
            lines += ["The paper's side:", "", *block(paper), ""] if paper else []
    for a in areas:
        sub = [r for r in rows if r["area"] == a]
        lines += [f'<a id="area-{a}"></a>', "", f"## {a} ({len(sub)} claims)", "",
                  "| claim | verdict | pinned | method | summary |", "|---|---|---|---|---|"]
        for r in sub:
            cid = f"[`{r['id']}`](#{r['id']})" if is_finding(r) else f"`{r['id']}`"
            lines.append(f"| {cid} | {verdict_cell(r)} | {r.get('expected')} | {r.get('method')} | "
                         f"{summary_line(r, md=True)} |")
        body: list[str] = []
        for r in sub:
            if is_finding(r):
                body += [f"**`{r['id']}`** — {r['verdict']}: see [Findings](#{r['id']}).", ""]
                continue
            body += [f"**`{r['id']}`** — {r['verdict']} (pinned {r.get('expected')}), {scalar(r.get('source', ''))}", "",
                     f"> {scalar(r.get('statement', ''))}", ""]
            if r.get("why"):
                body += [f"Why: {scalar(r['why'])}", ""]
            body += block(r.get("evidence") or {}) + [""]
        lines += [""] + details(f"Statements and full evidence of the {len(sub)} {a} claims", body)
    if safety is not None and (safety["kinds"] or "noise" in safety):
        lines += safety_markdown(safety)
    return markdown_text(lines)
