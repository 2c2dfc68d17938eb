"""The built wheel holds one import name, ``privclaims``, with its data and without development-only code (issue 26).

The whole smoke test (install the wheel in a clean venv, run the README's examples and the quick ledger from
outside the repository) is ``python3 property_tests/wheel_smoke.py``, which CI runs after the README commands."""

from __future__ import annotations

import subprocess
import sys
import zipfile

from property_tests.wheel_smoke import clean_copy, wheel_problems


def test_the_built_wheel_has_one_top_level_name_and_its_data(tmp_path):
    src = clean_copy(tmp_path / "src")
    r = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path / "dist"), str(src)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    (wheel,) = (tmp_path / "dist").glob("privclaims-*.whl")
    assert wheel_problems(wheel) == []
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
    assert sum(n.startswith("privclaims/checks/expected/") and n.endswith(".json") for n in names) >= 6
    assert sum(n.startswith("privclaims/examples/") and not n.endswith(".py") for n in names) >= 7


def test_wheel_problems_finds_what_is_wrong(tmp_path):
    bad = tmp_path / "bad-0.1-py3-none-any.whl"
    with zipfile.ZipFile(bad, "w") as z:
        z.writestr("bad-0.1.dist-info/top_level.txt", "benchmarks\nprivclaims\n")
        z.writestr("privclaims/__init__.py", "")
        z.writestr("privclaims/counterexamples/mutants/__init__.py", "")
        z.writestr("benchmarks/__init__.py", "")
    found = wheel_problems(bad)
    assert any("top_level.txt lists ['benchmarks', 'privclaims']" in p for p in found)
    assert any("top-level folders ['benchmarks', 'privclaims']" in p for p in found)
    assert any("development-only file in the wheel: privclaims/counterexamples/mutants/" in p for p in found)
    assert any("missing from the wheel: privclaims/checks/catalog.json" in p for p in found)
