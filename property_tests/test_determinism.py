"""Same seed -> byte-identical JSON report apart from timings, for EVERY area in --quick mode (claims and the
float-safety section), whatever the number of worker processes; the seed is printed by the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from privclaims.checks.catalog import AREAS

ROOT = Path(__file__).resolve().parent.parent


def _strip_timings(x):
    if isinstance(x, dict):
        return {k: _strip_timings(v) for k, v in x.items() if not k.endswith("seconds")}
    if isinstance(x, list):
        return [_strip_timings(v) for v in x]
    return x


@pytest.mark.parametrize("area", AREAS)
def test_same_seed_same_report_every_area(tmp_path, area):
    docs, outs = [], []
    for i in range(2):
        out = tmp_path / f"r{i}.json"
        r = subprocess.run([sys.executable, "-m", "privclaims", "ledger", "--area", area, "--quick", "--seed", "7", "--json", str(out),
                            "--workers", str(i + 1), "--no-table"], cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert r.returncode in (0, 1), r.stderr[-2000:]
        assert "Traceback" not in r.stderr
        docs.append(_strip_timings(json.loads(out.read_text())))
        outs.append(r.stdout)
    differ = [a["id"] for a, b in zip(docs[0]["claims"], docs[1]["claims"]) if a != b]
    assert not differ, {cid: [c["evidence"] for d in docs for c in d["claims"] if c["id"] == cid] for cid in differ}
    assert docs[0] == docs[1]
    assert docs[0]["run"]["seed"] == 7
    assert docs[0]["safety"]["seed"] == 7
    assert all("seed 7" in o for o in outs)


def test_other_seed_changes_the_randomised_parts(tmp_path):
    """The seed is honoured: the safety campaign's instances depend on it."""
    from privclaims.counterexamples.float_safety import campaign

    a = campaign("quick", 1, ["maskit.is_private"], size=60)[0]
    b = campaign("quick", 2, ["maskit.is_private"], size=60)[0]
    assert (a.boundary, a.extra_suppressions, a.exact_private) != (b.boundary, b.extra_suppressions, b.exact_private)
