"""The door's bounded search (``privclaims.ledger.property_verdict``, ``ReadParts``, ``VACUOUS``): re-exported, not
re-implemented; importing the door loads no Hypothesis; and a project's own check can be verified-bounded, refuted
with a witness inside its model, and declare a premise or the parts it reads."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from hypothesis import strategies as st

import privclaims.ledger as door
from privclaims.checks import searched
from privclaims.counterexamples import instance_parts, property_search

ROOT = Path(__file__).resolve().parents[1]
CTX = door.Context(seed=7, quick=True)


def test_the_door_re_exports_the_papers_search():
    assert door.property_verdict is searched.property_verdict
    assert door.VACUOUS is property_search.VACUOUS
    assert door.ReadParts is instance_parts.ReadParts
    assert {"property_verdict", "ReadParts", "VACUOUS"} <= set(door.__all__)


def test_importing_the_door_loads_no_hypothesis():
    code = ("import sys\nfrom privclaims.ledger import VACUOUS, ReadParts, property_verdict\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'hypothesis'))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() == "[]"


def test_a_premise_through_the_door_counts_the_instances_that_met_it():
    out = door.property_verdict(CTX, "t.even", st.integers(0, 60), lambda n: door.VACUOUS if n % 2 else n >= 0,
                                examples=40, encoding="n", model=("naturals", lambda n: []), premise="n is even")
    assert out.verdict == "verified-bounded"
    assert "the premise (n is even) met by" in out.evidence["bound"] and out.evidence["encoding"] == "n"


def test_a_refuted_search_through_the_door_carries_its_witness_in_the_model():
    def problems(n):
        return [] if n < 50 else [f"{n} >= 50"]

    out = door.property_verdict(CTX, "t.small", st.integers(0, 60), lambda n: door.VACUOUS if n % 2 else n < 20,
                                examples=60, encoding="n", model=("n below 50", problems), premise="n is even",
                                describe=lambda n: {"n": n}, note="kept")
    assert out.verdict == "refuted"
    assert out.evidence["witness"] == {"n": 20}  # shrunk: the least even n >= 20
    assert out.evidence["model"] == {"name": "n below 50", "valid": True, "problems": [],
                                     "minimal": "the instance hypothesis shrank to"}
    assert out.evidence["note"] == "kept" and out.evidence["search"]["status"] == "witness"


def test_reads_through_the_door_count_by_the_parts_read():
    pairs = st.tuples(st.integers(0, 3), st.integers(0, 50))
    out = door.property_verdict(CTX, "t.pairs", pairs, lambda x: x[0] >= 0, examples=40, encoding="(a, b)",
                                model=("pairs", lambda x: []), reads=door.ReadParts(("a", "b"), read=("a",)))
    assert out.verdict == "verified-bounded" and "distinct in a" in out.evidence["bound"]


def test_the_example_s_search_claim_fails_with_a_wrong_epsilon(tmp_path):
    """examples/my-draft's Claim 7 with ε = ln(2p) instead of ln(p/(1 - p)): refuted, the shrunk p inside the model."""
    proj = tmp_path / "draft"
    shutil.copytree(ROOT / "examples" / "my-draft", proj, ignore=shutil.ignore_patterns("__pycache__"))
    checks = proj / "checks.py"
    right = 'return f"ln({p / (1 - p)})"'
    assert right in checks.read_text(encoding="utf-8")
    checks.write_text(checks.read_text(encoding="utf-8").replace(right, 'return f"ln({2 * p})"'), encoding="utf-8")
    out = tmp_path / "l.json"
    r = subprocess.run([sys.executable, "-m", "privclaims", "ledger", "--project", str(proj), "--claim",
                        "dp.rr_every_p", "--json", str(out), "--no-table"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stdout + r.stderr  # off its pin
    (row,) = json.loads(out.read_text())["claims"]
    assert row["verdict"] == "refuted"
    assert row["evidence"]["witness"] == {"p": "2/3", "epsilon": "ln(4/3)"}
    model = row["evidence"]["model"]
    assert model["valid"] and model["problems"] == [] and model["name"].startswith("randomized response")
