"""Same seed -> byte-identical JSON report apart from timings, for EVERY area in --quick mode (claims and the
float-safety section), whatever the number of worker processes; the seed is printed by the CLI.

The two runs (one worker, two workers; every area, the default seed given by ``--seed``) are the session's shared
quick-ledger runs (``property_tests/conftest.py``, computed once per session whichever xdist worker asks first: the
two-worker run is also the one test_ledger checks against the pins), so the determinism tests add one ledger run to
the suite instead of twelve."""

from __future__ import annotations

import pytest

from privclaims.checks.catalog import AREAS


def strip_timings(x):
    """``x`` (a JSON report or a part of it) without its keys ending in ``seconds``, at every depth."""
    if isinstance(x, dict):
        return {k: strip_timings(v) for k, v in x.items() if not k.endswith("seconds")}
    if isinstance(x, list):
        return [strip_timings(v) for v in x]
    return x


def _docs(quick_ledger):
    runs = quick_ledger(1, 2)
    for r in runs:
        assert r.returncode in (0, 1), r.stderr[-2000:]
        assert "Traceback" not in r.stderr
        assert f"seed {r.seed}" in r.stdout
    return [strip_timings(r.doc()) for r in runs], runs[0].seed


@pytest.mark.parametrize("area", AREAS)
def test_same_seed_same_report_every_area(quick_ledger, area):
    docs, _ = _docs(quick_ledger)
    claims = [[c for c in d["claims"] if c["area"] == area] for d in docs]
    assert claims[0], area  # the area's claims are in the report (the comparison is not vacuous)
    differ = [a["id"] for a, b in zip(*claims) if a != b]
    assert not differ, {cid: [c["evidence"] for cs in claims for c in cs if c["id"] == cid] for cid in differ}
    assert claims[0] == claims[1]


def test_same_seed_same_safety_section_and_run_record(quick_ledger):
    docs, seed = _docs(quick_ledger)
    assert docs[0]["safety"] == docs[1]["safety"]
    assert {k: v for k, v in docs[0].items() if k != "claims"} == {k: v for k, v in docs[1].items() if k != "claims"}
    assert docs[0]["run"]["seed"] == seed
    assert docs[0]["safety"]["seed"] == seed


def test_other_seed_changes_the_randomised_parts(tmp_path):
    """The seed is honoured: the safety campaign's instances depend on it."""
    from privclaims.counterexamples.float_safety import campaign

    a = campaign("quick", 1, ["maskit.is_private"], size=60)[0]
    b = campaign("quick", 2, ["maskit.is_private"], size=60)[0]
    assert (a.boundary, a.extra_suppressions, a.exact_private) != (b.boundary, b.extra_suppressions, b.exact_private)


def test_an_area_at_another_seed_is_the_same_whatever_the_workers(tmp_path):
    """``--seed`` is honoured (the shared runs above pass the default one) down to the float-safety campaign, and the
    ``--area`` path (the campaign restricted to the area's decision kinds; with two workers it runs beside the claims)
    is as deterministic: ``--area querygen --seed 7`` with one and with two workers give the same report."""
    import json
    import subprocess
    import sys

    from property_tests.conftest import ROOT

    docs = []
    for workers in (1, 2):
        out = tmp_path / f"r{workers}.json"
        r = subprocess.run([sys.executable, "-m", "privclaims", "ledger", "--area", "querygen", "--quick", "--seed", "7",
                            "--workers", str(workers), "--json", str(out), "--no-table"], cwd=ROOT,
                           capture_output=True, text=True, timeout=600)
        assert r.returncode in (0, 1), r.stderr[-2000:]
        assert "Traceback" not in r.stderr and "seed 7" in r.stdout
        docs.append(strip_timings(json.loads(out.read_text())))
    assert docs[0] == docs[1]
    doc = docs[0]
    assert doc["run"]["seed"] == 7 and doc["safety"]["seed"] == 7
    assert doc["safety"]["kinds"] and {k["kind"].split(".")[0] for k in doc["safety"]["kinds"]} == {"querygen"}
    assert {c["area"] for c in doc["claims"]} == {"querygen"}
