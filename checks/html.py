"""The ledger's report as one self-contained HTML page a reviewer browses (``privclaims ledger --html PATH``).

Built from the same report rows as the Markdown report (:mod:`privclaims.checks.report`): each claim's body is
:func:`~privclaims.checks.report.claim_markdown` — statement, source, definitions and readings, quotes, parts,
why, paper beside ours, witness, evidence, what moved from the pin, figures — rendered to HTML with markdown-it
(a dependency of rich). The page needs no network: the styles and the script are inline, and every figure a
reproduction drew (a PNG named in the evidence) is embedded as a ``data:`` URI.

Layout: the run and its summary (verdicts per area), what differs from the pins and the quote problems, then the
**findings** (refuted, reading-dependent, discrepancy) and the other claims by area, each claim a collapsible
``<details class="claim">`` carrying ``data-area``, ``data-verdict``, ``data-finding`` and ``data-drift``.
Filters by area and verdict, a search box (over ID, statement, source, verdict, summary and why) and "only
claims off their pin" hide claims; the counts of shown claims and shown findings follow (``#shown-count``,
``#findings-count``). A ``#area=...&verdict=...&q=...`` fragment presets the filters (a link to a view).
"""

from __future__ import annotations

import base64
import html
from collections import Counter
from pathlib import Path
from typing import Any

from privclaims.checks.pin_environment import environment_line
from privclaims.checks.report import (FINDINGS, claim_markdown, is_finding, replayed_note, safety_markdown, summary,
                                      summary_line, verdict_cell, why_of)

COLOURS = {  # the console's colours (checks/cli.py), as CSS
    "verified": "#1a7f37", "verified-bounded": "#2da44e", "reproduced": "#0a7ea4", "refuted": "#a2199b",
    "discrepancy": "#9a6700", "reading-dependent": "#bc4c00", "unverifiable": "#0550ae", "not-checked": "#6e7781",
    "error": "#cf222e",
}


def _markdown_renderer() -> Any:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    default_image = md.renderer.rules["image"]

    def image(tokens: Any, idx: int, options: Any, env: Any) -> str:
        tok = tokens[idx]
        src = tok.attrGet("src") or ""
        tok.attrSet("src", data_uri(src) or src)
        return default_image(tokens, idx, options, env)

    md.renderer.rules["image"] = image
    return md


def data_uri(png: str) -> str | None:
    """A PNG file as a ``data:`` URI (None when the file is absent)."""
    p = Path(png)
    if not p.is_file():
        return None
    return "data:image/png;base64," + base64.b64encode(p.read_bytes()).decode("ascii")


def _attr(s: Any) -> str:
    return html.escape(str(s), quote=True)


def _searchable(row: dict[str, Any]) -> str:
    parts = [row["id"], row.get("statement", ""), row.get("source", ""), row["verdict"], summary_line(row),
             why_of(row) or ""]
    return " ".join(" ".join(str(p).split()) for p in parts).lower()


def claim_html(row: dict[str, Any], md: Any, drift: set[str]) -> str:
    """One claim: a collapsible card whose summary line says ID, verdict (≠ pin when it differs), area and the
    one-line summary, and whose body is the claim in full (the Markdown report's)."""
    body = md.render("\n".join(claim_markdown(row, level=3, base=None, fold=True, anchor=False)))
    v = row["verdict"]
    off = row["id"] in drift
    return (f'<details class="claim" id="claim-{_attr(row["id"])}" data-id="{_attr(row["id"])}" '
            f'data-area="{_attr(row["area"])}" data-verdict="{_attr(v)}" data-finding="{int(is_finding(row))}" '
            f'data-drift="{int(off)}" data-search="{_attr(_searchable(row))}">'
            f'<summary><code class="id">{html.escape(row["id"])}</code> '
            f'<span class="badge" style="background:{COLOURS.get(v, "#444")}">{html.escape(verdict_cell(row))}</span> '
            f'<span class="area">{html.escape(row["area"])}</span> '
            f'<span class="line">{html.escape(summary_line(row))}</span></summary>'
            f'<div class="body">{body}</div></details>')


def to_html(rows: list[dict[str, Any]], run: dict[str, Any], safety: dict[str, Any] | None = None,
            areas: tuple[str, ...] | None = None) -> str:
    """The HTML report (see the module docstring)."""
    md = _markdown_renderer()
    drift = set(run.get("drift") or [])
    order = list(areas or ()) + [r["area"] for r in rows]
    areas_ = [a for a in dict.fromkeys(order) if any(r["area"] == a for r in rows)]
    present = list(summary(rows))
    found = [r for v in FINDINGS for r in rows if r["verdict"] == v]
    title = f"privclaims ledger — {run.get('project') or 'claims'}"

    head = [f"<h1>{html.escape(title)}</h1>",
            f'<p class="run">Seed {_attr(run.get("seed"))}, {"quick" if run.get("quick") else "full"} mode, data '
            f'{html.escape(str(run.get("data_dir") or "absent"))}. {len(rows)} claims.</p>']
    note = replayed_note(rows)
    if note:
        head.append(f'<p class="run">{md.renderInline(note)}</p>')
    table = ['<table class="summary"><thead><tr><th>area</th>' + "".join(
        f'<th><span class="badge" style="background:{COLOURS[v]}">{v}</span></th>' for v in present) + "</tr></thead><tbody>"]
    for a in areas_:
        c = Counter(r["verdict"] for r in rows if r["area"] == a)
        table.append(f'<tr><td><a href="#area-{_attr(a)}">{html.escape(a)}</a></td>' +
                     "".join(f"<td>{c[v]}</td>" for v in present) + "</tr>")
    total = summary(rows)
    table.append("<tr class=\"total\"><td>all</td>" + "".join(f"<td>{total[v]}</td>" for v in present) + "</tr>")
    table.append("</tbody></table>")
    status = []
    if drift:
        status.append(f'<p class="drift"><strong>{len(drift)} claim(s) differ from their pin or errored:</strong> ' +
                      ", ".join(f'<a href="#claim-{_attr(d)}"><code>{html.escape(d)}</code></a>' for d in sorted(drift))
                      + "</p>")
    else:
        status.append('<p class="ok">Every computed verdict equals its pin.</p>')
    versions = environment_line(run)
    if versions:
        status.append(f'<p class="drift"><strong>{html.escape(versions)}</strong></p>')
    quotes = run.get("quotes") or {}
    if quotes.get("problems"):
        status.append('<div class="drift"><strong>Quotes not verbatim in the documents:</strong><ul>' +
                      "".join(f"<li>{html.escape(p)}</li>" for p in quotes["problems"]) + "</ul></div>")
    elif quotes.get("checked"):
        status.append(f'<p class="run">The quotes of {quotes.get("count")} claim(s) are verbatim in the documents.</p>')
    elif quotes:
        status.append(f'<p class="run">Quotes not checked ({html.escape(str(quotes.get("reason")))}).</p>')

    controls = ['<div id="controls"><label>Area <select id="area-filter"><option value="">all areas</option>' +
                "".join(f'<option value="{_attr(a)}">{html.escape(a)}</option>' for a in areas_) + "</select></label>",
                '<label>Verdict <select id="verdict-filter"><option value="">all verdicts</option>' +
                "".join(f'<option value="{_attr(v)}">{html.escape(v)}</option>' for v in present) + "</select></label>",
                '<label>Search <input id="search" type="search" placeholder="ID, words of a statement, why…"></label>',
                '<label><input id="drift-only" type="checkbox"> only claims off their pin</label>',
                '<button id="expand" type="button">expand shown</button> <button id="collapse" type="button">collapse</button>',
                f'<span class="counts"><span id="shown-count">{len(rows)}</span> of {len(rows)} claims shown</span></div>']

    findings = [f'<section id="findings"><h2>Findings (<span id="findings-count">{len(found)}</span> shown of '
                f'{len(found)})</h2><p>Claims refuted, reading-dependent or in discrepancy with the recomputation: each '
                "with its statement, source, readings, quotes, the documents' value beside ours, the full witness and "
                "why.</p>", *(claim_html(r, md, drift) for r in found), "</section>"]
    by_area = []
    for a in areas_:
        rest = [r for r in rows if r["area"] == a and not is_finding(r)]
        n = sum(r["area"] == a for r in rows)
        by_area += [f'<section class="area-section" id="area-{_attr(a)}" data-area="{_attr(a)}"><h2>{html.escape(a)} '
                    f"({n} claims{f', {n - len(rest)} among the findings' if n != len(rest) else ''})</h2>",
                    *(claim_html(r, md, drift) for r in rest), "</section>"]
    tail = []
    if safety is not None and (safety.get("kinds") or "noise" in safety):
        tail = ['<section id="safety">', md.render("\n".join(safety_markdown(safety))), "</section>"]
    return "\n".join(["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
                      '<meta name="viewport" content="width=device-width, initial-scale=1">',
                      f"<title>{html.escape(title)}</title>", f"<style>{CSS}</style></head><body>",
                      *head, *table, *status, *controls, *findings, *by_area, *tail,
                      '<p id="no-match" hidden>No claim matches the filters.</p>',
                      f"<script>{SCRIPT}</script></body></html>", ""])


CSS = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:1200px;padding:1em 1.5em;color:#1f2328}
h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.2em;border-bottom:1px solid #d0d7de;padding-bottom:.2em;margin-top:1.4em}
.run{color:#57606a}.ok{color:#1a7f37}.drift{color:#cf222e}
table{border-collapse:collapse;margin:.6em 0;font-size:.92em}td,th{border:1px solid #d0d7de;padding:.25em .5em;text-align:left;vertical-align:top}
table.summary td:not(:first-child){text-align:right}tr.total td{font-weight:600}
.badge{display:inline-block;color:#fff;border-radius:1em;padding:0 .6em;font-size:.85em;font-weight:600;white-space:nowrap}
#controls{position:sticky;top:0;background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.5em .8em;display:flex;flex-wrap:wrap;gap:.6em 1.2em;align-items:center;z-index:1}
#controls input[type=search]{width:18em}.counts{margin-left:auto;color:#57606a}
details.claim{border:1px solid #d0d7de;border-radius:6px;margin:.4em 0;padding:.3em .7em;background:#fff}
details.claim[hidden],section[hidden]{display:none}
details.claim[data-drift="1"]{border-left:4px solid #cf222e}
details.claim>summary{cursor:pointer;list-style-position:outside}
summary .id{font-weight:600}summary .area{color:#57606a;font-size:.85em}summary .line{color:#424a53}
.body{overflow-x:auto}.body img{max-width:100%;border:1px solid #d0d7de}
blockquote{margin:.5em 0;padding:0 1em;border-left:4px solid #d0d7de;color:#424a53}
code{background:#f6f8fa;border-radius:4px;padding:0 .25em}
"""

SCRIPT = """
(function(){
  const $ = (id) => document.getElementById(id);
  const area = $('area-filter'), verdict = $('verdict-filter'), search = $('search'), driftOnly = $('drift-only');
  const claims = Array.from(document.querySelectorAll('details.claim'));
  function apply(){
    const a = area.value, v = verdict.value, q = search.value.trim().toLowerCase(), d = driftOnly.checked;
    let shown = 0, found = 0;
    for (const c of claims){
      const ok = (!a || c.dataset.area === a) && (!v || c.dataset.verdict === v) &&
                 (!q || c.dataset.search.includes(q)) && (!d || c.dataset.drift === '1');
      c.hidden = !ok;
      if (ok){ shown++; if (c.dataset.finding === '1') found++; }
    }
    for (const s of document.querySelectorAll('section.area-section')){
      s.hidden = !s.querySelector('details.claim:not([hidden])');
    }
    $('shown-count').textContent = shown;
    $('findings-count').textContent = found;
    $('no-match').hidden = shown > 0;
  }
  for (const el of [area, verdict, driftOnly]) el.addEventListener('change', apply);
  search.addEventListener('input', apply);
  $('expand').addEventListener('click', () => claims.forEach(c => { if (!c.hidden) c.open = true; }));
  $('collapse').addEventListener('click', () => claims.forEach(c => { c.open = false; }));
  const h = new URLSearchParams(location.hash.slice(1));
  if (h.has('area')) area.value = h.get('area');
  if (h.has('verdict')) verdict.value = h.get('verdict');
  if (h.has('q')) search.value = h.get('q');
  apply();
  const target = location.hash.startsWith('#claim-') && document.getElementById(location.hash.slice(1));
  if (target){ target.open = true; target.scrollIntoView(); }
})();
"""
