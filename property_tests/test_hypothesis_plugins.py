"""The ledger's searches run without third-party Hypothesis plugins (``counterexamples/hypothesis_plugins.py``).

Each child process below has a fake installed distribution on its path whose ``hypothesis`` entry point records that
it ran (so the tests do not depend on trio, the plugin the test extras happen to install); the child runs one of the
three entry points that set the switch - the ledger's command line, the mutation campaign, the suite's conftest -
then imports Hypothesis, and reports whether the plugin ran and the switch's value."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from privclaims.counterexamples.hypothesis_plugins import NO_PLUGINS, without_third_party_plugins
from property_tests.conftest import ROOT

_REPORT = """
import json, os, sys
import hypothesis  # the first import: entry points run now unless switched off
print(json.dumps({"plugin_ran": os.environ.get("FAKE_PLUGIN_RAN") == "yes", "setting": os.environ.get("HYPOTHESIS_NO_PLUGINS"),
                  "trio": "trio" in sys.modules}))
"""
ENTRY_POINTS = {
    # the ledger: one claim whose check is a Hypothesis search (hypothesis is imported inside main)
    "ledger": "from privclaims.checks.cli import main\nassert main(['--claim', 'dp.def3', '--quick', '--no-table', "
              "'--workers', '1']) == 0\n",
    "campaign": "from privclaims.counterexamples.mutants.__main__ import main\nmain(['--list'])\n",
    "conftest": "import property_tests.conftest\n",
}


@pytest.fixture(scope="module")
def fake_plugin(tmp_path_factory) -> Path:
    """A folder holding a fake distribution with a ``hypothesis`` entry point that sets $FAKE_PLUGIN_RAN=yes."""
    d = tmp_path_factory.mktemp("fake-plugin")
    (d / "fake_hypothesis_plugin.py").write_text("import os\n\ndef setup():\n    os.environ['FAKE_PLUGIN_RAN'] = 'yes'\n")
    info = d / "fake_hypothesis_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-hypothesis-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[hypothesis]\nfake = fake_hypothesis_plugin:setup\n")
    return d


def _child(fake: Path, entry: str, **env: str) -> dict:
    base = {k: v for k, v in os.environ.items() if k not in (NO_PLUGINS, "FAKE_PLUGIN_RAN")}
    path = os.pathsep.join([str(fake), str(ROOT), base.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    r = subprocess.run([sys.executable, "-c", ENTRY_POINTS[entry] + _REPORT], cwd=ROOT,
                       env={**base, "PYTHONPATH": path, **env}, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_the_switch_is_set_unless_the_user_set_it():
    env: dict[str, str] = {}
    assert without_third_party_plugins(env) is True and env == {NO_PLUGINS: "1"}
    env = {NO_PLUGINS: ""}  # the user asks for the plugins
    assert without_third_party_plugins(env) is False and env == {NO_PLUGINS: ""}
    env = {NO_PLUGINS: "yes"}
    assert without_third_party_plugins(env) is True and env == {NO_PLUGINS: "yes"}


def test_a_plugin_runs_where_nothing_switches_it_off(fake_plugin):
    """The fake plugin is seen: a bare import of Hypothesis runs it (so the tests below can fail)."""
    got = json.loads(subprocess.run([sys.executable, "-c", _REPORT], cwd=ROOT, capture_output=True, text=True, timeout=120,
                                    env={**{k: v for k, v in os.environ.items() if k not in (NO_PLUGINS, "FAKE_PLUGIN_RAN")},
                                         "PYTHONPATH": str(fake_plugin)}).stdout.strip().splitlines()[-1])
    assert got["plugin_ran"] and got["setting"] is None


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_each_entry_point_loads_no_third_party_plugin_unless_asked(fake_plugin, entry):
    """Without the variable, the entry point sets it before anything imports Hypothesis: no plugin runs (neither the
    fake one nor trio's, when installed); with it set empty, the plugins load as Hypothesis does by default."""
    off = _child(fake_plugin, entry)
    assert off["setting"] == "1" and not off["plugin_ran"] and not off["trio"], off
    on = _child(fake_plugin, entry, **{NO_PLUGINS: ""})
    assert on["setting"] == "" and on["plugin_ran"], on
