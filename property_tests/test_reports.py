"""Reports for people: the evidence renderer, the findings-first Markdown, ``--show``, ``--list``, the
plain console table off a terminal, and the CLI's validation of environment variables and selections."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from hypothesis import given, strategies as st
from property_tests.fractions_strategy import fractions

from privclaims.checks.render import block, decimal_of, inline, label, scalar
from privclaims.checks.report import FINDINGS, claim_markdown, readings_of, summary_line, to_markdown, witness_keys

ROOT = Path(__file__).resolve().parent.parent


def run_cli(*args, env=None, timeout=600):
    full = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "privclaims", "ledger", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env=full)


def leaves(x, keys=True):
    """The scalars of ``x`` (and, with ``keys``, its dict keys as strings)."""
    if isinstance(x, dict):
        for k, v in x.items():
            if keys:
                yield str(k)
            yield from leaves(v, keys)
    elif isinstance(x, list):
        for v in x:
            yield from leaves(v, keys)
    else:
        yield x


def shown(x, text):
    """The leaf ``x`` appears in ``text`` as the renderer writes it (in a table cell or in running text)."""
    return scalar(x) in text or scalar(x, cell=True) in text


def finding_section(md, cid):
    start = md.index(f'<a id="{cid}"></a>')
    end = md.index("\n---\n", start)
    return md[start:end]


def assert_findings_complete(doc, md):
    """Every refuted / reading-dependent / discrepancy claim is in Findings with its statement, its source,
    its readings (name, verdict, source), its paper value and ours, and its complete witness: every key and
    value of the witness is written, and no "…" appears that the claim's own data does not contain."""
    findings = md[md.index("## Findings"):]
    rows = [c for c in doc["claims"] if c["verdict"] in FINDINGS]
    assert rows, "a quick run has findings"
    for c in rows:
        sec = finding_section(findings, c["id"])
        for line in c["statement"].splitlines():
            assert scalar(line) in sec, (c["id"], "statement")
        assert scalar(c["source"]) in sec, (c["id"], "source")
        for r in readings_of(c):
            assert shown(r["name"], sec) and r["verdict"] in sec and shown(r["source"], sec), (c["id"], r["name"])
        evs = [c["evidence"]] + [r["evidence"] for r in c.get("readings") or [] if r.get("evidence")]
        for ev in evs:
            for key in ("paper", "computed", *witness_keys(ev)):
                if key in ev:
                    missing = [x for x in leaves(ev[key]) if not shown(x, sec)]
                    assert not missing, (c["id"], key, missing[:5])
        if "…" in sec:
            assert "…" in json.dumps(c, ensure_ascii=False), (c["id"], "truncated")


# --- the renderer ---------------------------------------------------------------------------------


def test_rationals_exact_with_a_decimal_beside():
    assert scalar("1/3") == "1/3 (≈ 0.333333)"
    assert scalar("-123/256") == "-123/256 (≈ -0.480469)"
    big = "1/" + "7" * 400
    assert scalar(big).startswith(big + " (≈ 1.28571e-400")
    assert decimal_of(10597, 1000) == "10.597"
    assert scalar("1/0") == "1/0" and scalar("3") == "3" and scalar(True) == "yes" and scalar(None) == "none"


def test_tables_for_matrices_lists_of_records_and_spelled_tables():
    m = block({"CTR": [["1/2", "1/2"], ["0", "1/4"]]})
    assert "| CTR | 0 | 1 |" in m and "| 1 | 0 | 1/4 (≈ 0.25) |" in m
    recs = block([{"Q": ["*", 1], "G": "3/2"}, {"Q": ["*", "*"], "G": "2", "extra": "a|b"}])
    assert recs[0] == "| Q | G | extra |" and r"a\|b" in recs[-1]
    spelled = block({"attributes": ["a", "b"], "rows": [["x", 2], ["y", 1]]})
    assert spelled[2] == "| a | b |" and "| y | 1 |" in spelled and "attributes" in spelled[0]
    # a spelled table's names are values of the evidence, written as values (found by the generated test below:
    # {"": ["0/1"], "0": [[None]]} wrote 0/1 bare); its keys stay labels
    thresholds = block({"thresholds": ["1/2", "a_b"], "rows": [["1/4", 1]]})
    assert thresholds[2] == "| 1/2 (≈ 0.5) | a_b |" and "| 1/4 (≈ 0.25) | 1 |" in thresholds
    assert block({"thresholds": ["1/2"], "rows": [[1]]}, md=False)[2] == "1/2 (≈ 0.5)"
    assert block({"names": ["a|b"], "rows": [[1]]})[2] == r"| a\|b |"  # a cell's bar is escaped in a header too
    assert block({"names": ["a*b_"], "rows": [[1]]}, md=False)[2] == "a*b_"  # the console escapes nothing
    long = "1/" + "3" * 45  # the console rule of the last column spans its name with the decimal
    assert block({"names": [long], "rows": [[1]]}, md=False)[3] == "-" * len(scalar(long))
    # dict keys stay labels wherever a table writes them: columns of records, rows of a dict of dicts
    assert block([{"1/2": 1}, {"1/2": 2}])[0] == "| 1/2 |"
    keyed = block({"x": {"1/4": {"a": 1, "b": 2}, "1/3": {"a": 3, "b": 4}}})
    assert "| 1/4 | 1 | 2 |" in keyed and "| 1/3 | 3 | 4 |" in keyed
    nested = block({"paper": {"t=1": {"d": "1e-3"}, "t=2": {"d": "2e-3"}}})
    assert "| paper | d |" in nested


def test_nothing_is_truncated():
    long = "x" * 20000
    assert long in "\n".join(block({"a": {"b": [long, {"c": long}]}}))
    assert long in inline([{"k": long}])


json_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
                      st.text(max_size=12), fractions().map(lambda f: f"{f.numerator}/{f.denominator}"))
json_value = st.recursive(json_leaf, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                             st.dictionaries(st.text(max_size=6), inner, max_size=5)),
                          max_leaves=40)


@given(json_value)
def test_any_evidence_renders_with_every_leaf(ev):
    text = "\n".join(block({"evidence": ev}))
    values = list(leaves(ev, keys=False))
    for x in leaves(ev):
        if isinstance(x, str) and ("\n" in x or "\r" in x):
            continue  # written with <br> / a space
        if x in values:
            assert shown(x, text), x
        else:  # a key only: a label, written verbatim (a key "0/1" gets no decimal)
            assert shown(x, text) or label(x) in text or label(x, cell=True) in text, x


def test_a_rational_looking_key_is_written_verbatim():
    assert "{0/1: none}" in "\n".join(block({"evidence": {"0/1": None}}))


# --- claim rows with and without readings / why ---------------------------------------------------------


def row(**kw):
    base = {"id": "querygen.text_uniform", "area": "querygen", "source": "004 §4", "kind": "claim",
            "statement": "G up *implies* traffic up | always", "method": "exact", "verdict": "refuted",
            "expected": "refuted", "evidence": {"witness": {"G": ["3/2", "2"]}}, "seconds": 0.1}
    return {**base, **kw}


def test_rows_without_readings_or_why_render():
    r = row()  # schema 1 row: no readings, no why
    text = "\n".join(claim_markdown(r))
    assert r"G up \*implies\* traffic up | always" in text and "3/2 (≈ 1.5)" in text
    assert "states no plain-words explanation" in text
    assert summary_line(r) == "witness found (the witness is in the evidence)"


def test_reading_dependent_row_shows_each_reading():
    rs = [{"name": "per pair", "meaning": "split per pair", "source": "000 §2", "declared": True, "verdict": "refuted",
           "why": "fails for pairs", "evidence": {"witness": {"D": 3, "delta": "1/2"}}},
          {"name": "per input", "meaning": "split per input", "source": "003 §2", "declared": True,
           "verdict": "verified", "why": None, "evidence": {"bound": "D <= 4"}}]
    r = row(verdict="reading-dependent", expected="reading-dependent", readings=rs, why="holds per input only",
            evidence={"instances": 12})
    text = "\n".join(claim_markdown(r))
    for s in ("Reading “per pair” — refuted", "Reading “per input” — verified", "fails for pairs",
              "holds per input only", "1/2 (≈ 0.5)", "D <= 4", "instances"):
        assert s in text, s
    assert summary_line(r) == "per pair: refuted; per input: verified"
    md = to_markdown([r], {"seed": 1, "quick": True, "data_dir": None, "drift": []})
    assert_findings_complete({"claims": [r]}, md)


def test_markdown_links_figures_relative_to_the_report(tmp_path):
    png = tmp_path / "figs" / "querygen_fig2.png"
    r = row(verdict="reproduced", expected="reproduced", evidence={"shape": "knee", "figure": str(png)})
    md = to_markdown([r], {"seed": 1, "quick": False, "data_dir": None}, base=tmp_path)
    assert "## Figures" in md and "](figs/querygen_fig2.png)" in md


# --- the command line -----------------------------------------------------------------------------------


def test_show_prints_the_witness_in_full(tmp_path):
    r = run_cli("--show", "querygen.text_uniform")
    assert r.returncode == 0, r.stderr
    from privclaims.checks.catalog import expected

    for s in ("querygen.text_uniform", "004_66621c1b9afebedf.txt §4", "Under the assumption of a uniform distribution",
              "| Q | compared | G | traffic |", "9/5 (≈ 1.8)", "candidates_examined",
              f"pinned: {expected()['querygen.text_uniform']}"):
        assert s in r.stdout, s
    rep = tmp_path / "r.json"
    assert run_cli("--claim", "querygen.text_uniform", "--json", str(rep), "--workers", "1").returncode == 0
    doc = json.loads(rep.read_text())
    again = run_cli("--show", "querygen.text_uniform", "--from", str(rep))
    assert again.returncode == 0 and again.stdout == r.stdout
    row = doc["claims"][0]
    witnesses = [ev["witness"] for ev in [row["evidence"], *(x.get("evidence") or {} for x in row["readings"])]
                 if "witness" in ev]
    assert witnesses
    for w in witnesses:
        for leaf in leaves(w):
            assert shown(leaf, r.stdout), leaf
    assert run_cli("--show", "querygen.ex_eq3", "--from", str(rep)).returncode == 2


def test_list_one_line_per_claim_with_statement_and_filters():
    r = run_cli("--list")
    lines = r.stdout.splitlines()
    assert r.returncode == 0 and len(lines) == 271
    assert re.match(r"^dp\.def1\s+dp\s+\S+\s+verified\s+A data release is k-anonymous", lines[0])
    from privclaims.checks.catalog import catalog, expected

    q = run_cli("--list", "--area", "querygen", "--verdict", "refuted").stdout.splitlines()
    want = [c for c, v in expected().items() if v == "refuted" and catalog()[c].area == "querygen"]
    assert want and len(q) == len(want) and all(" querygen " in x and " refuted " in x for x in q)
    assert not any(x.endswith("…") for x in lines)  # not a terminal: nothing shortened


def test_plain_console_table_off_a_terminal_keeps_verdicts_whole(replay_outcomes):
    r = run_cli("--area", "querygen", "--quick", "--workers", "1", env=replay_outcomes)  # outcomes the session recorded
    assert r.returncode == 0, r.stdout + r.stderr
    from privclaims.checks.catalog import catalog

    table = [x for x in r.stdout.splitlines() if x.split(" ")[0] in catalog()]
    assert len(table) == 35
    assert any(" verified-bounded " in x for x in table) and not any("verified-bou…" in x for x in table)
    assert "Mironov" not in r.stdout  # no Laplace noise in the querygen area
    assert "float safety" in r.stdout
    ads = run_cli("--area", "ads", "--quick", "--workers", "1", "--no-table", env=replay_outcomes)
    assert "float safety" not in ads.stdout and "Mironov" not in ads.stdout  # no decision kind of ads


def test_the_safety_campaign_beside_the_claims_is_the_one_after_them():
    """With two or more workers the ledger computes the float-safety section in a process of its own while the claims
    run; it is the section computed in-process afterwards (timings aside), for a selection of areas as for all."""
    from privclaims.checks.cli import _beside, _safety_section

    def plain(sec):
        return {k: ([{kk: vv for kk, vv in r.items() if kk != "seconds"} for r in v] if k == "kinds" else v)
                for k, v in sec.items()}

    for area in (["querygen", "dp"], ["ads"]):
        here = _safety_section(True, "ci", 7, area)
        with _beside(True, _safety_section, True, "ci", 7, area) as side:
            there = side.result()
        assert plain(there) == plain(here)
        assert {r["kind"].split(".")[0] for r in here["kinds"]} == ({"querygen", "dp"} if "dp" in area else set())
        assert ("attack_defeated" in here.get("noise", {})) == ("dp" in area)  # Mironov's attack: Laplace areas only
    with _beside(False, _safety_section, True, "ci", 7, ["ads"]) as side:
        assert side is None


def test_environment_validated_like_flags_and_empty_selection_is_an_error(tmp_path):
    bad = [({"PRIVCLAIMS_DATA": "/nonexistent"}, "PRIVCLAIMS_DATA"),
           ({"PRIVCLAIMS_DATA": ""}, "empty"),
           ({"PRIVCLAIMS_REPORTS": "/nonexistent/reports"}, "PRIVCLAIMS_REPORTS"),
           ({"PRIVCLAIMS_CACHE": str(ROOT / "README.md")}, "PRIVCLAIMS_CACHE"),
           ({"HYPOTHESIS_PROFILE": "bogus"}, "HYPOTHESIS_PROFILE"),
           ({"PRIVCLAIMS_RATIONAL": "float"}, "PRIVCLAIMS_RATIONAL")]
    for env, msg in bad:
        r = run_cli("--claim", "dp.def2", env=env)
        assert r.returncode == 2 and msg in r.stderr and "Traceback" not in r.stderr, (env, r.stderr)
    for args in (["--area", "dp", "--claim", "maskit.ex1"], ["--area", "ads", "--verdict", "error"],
                 ["--verdict", "nope"], ["--show", "dp.nope"], ["--from", "x.json"],
                 ["--reports", "/nonexistent/x"], ["--show", "dp.def2", "--from", str(ROOT / "README.md")]):
        r = run_cli(*args)
        assert r.returncode == 2 and r.stderr.startswith("error: ") and "Traceback" not in r.stderr, args
    ok = run_cli("--claim", "dp.def2", "--workers", "1", env={"PRIVCLAIMS_REPORTS": str(tmp_path / "new")})
    assert ok.returncode == 0 and (tmp_path / "new").is_dir()


def test_a_refused_command_line_imports_no_check_machinery():
    """Arguments and environment are checked on the project's files before the registry, the runner and the report
    (numpy, mpmath, the checks) are imported (issue 25: a refused command line costs ~0.15 s of CPU, not ~0.25 s),
    and a run that passes them imports them. One process runs the refused command lines, then an accepted one."""
    heavy = ("numpy", "mpmath", "privclaims.checks.registry", "privclaims.checks.runner", "privclaims.checks.report")
    cases = [["--claim", "dp.nope"], ["--workers", "0"], ["--area", "astro"], ["--frobnicate"], ["--verdict", "nope"],
             ["--claim", "dp.def2", "--no-table"]]
    code = ("import json, sys\nfrom privclaims.checks.cli import main\n"
            f"for args in {cases!r}:\n"
            f"    print(json.dumps([main(args), [m for m in {heavy!r} if m in sys.modules]]), flush=True)")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    got = [json.loads(line) for line in r.stdout.splitlines() if line.startswith("[")]
    assert got == [[2, []]] * 5 + [[0, list(heavy)]], (got, r.stderr[-2000:])
