"""The ledger's searches run without third-party Hypothesis plugins (``counterexamples/hypothesis_plugins.py``)."""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys

import pytest

from privclaims.counterexamples.hypothesis_plugins import NO_PLUGINS, without_third_party_plugins
from property_tests.conftest import ROOT

# a child runs one claim whose check is a Hypothesis search, then reports what it imported and its setting
_CHILD = """
import json, sys, os
from privclaims.checks.cli import main
code = main(["--claim", "dp.def3", "--quick", "--no-table", "--workers", "1"])
print(json.dumps({"code": code, "hypothesis": "hypothesis" in sys.modules, "trio": "trio" in sys.modules,
                  "setting": os.environ.get("HYPOTHESIS_NO_PLUGINS")}))
"""


def _plugins() -> list[str]:
    return [e.name for e in importlib.metadata.entry_points(group="hypothesis")]


def _child(**env: str) -> dict:
    base = {k: v for k, v in os.environ.items() if k != NO_PLUGINS}
    r = subprocess.run([sys.executable, "-c", _CHILD], cwd=ROOT, env={**base, **env}, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_the_switch_is_set_unless_the_user_set_it():
    env: dict[str, str] = {}
    assert without_third_party_plugins(env) is True and env == {NO_PLUGINS: "1"}
    env = {NO_PLUGINS: ""}  # the user asks for the plugins
    assert without_third_party_plugins(env) is False and env == {NO_PLUGINS: ""}
    env = {NO_PLUGINS: "yes"}
    assert without_third_party_plugins(env) is True and env == {NO_PLUGINS: "yes"}


def test_the_ledger_loads_no_third_party_plugin_unless_asked():
    """Without the variable, the ledger's process sets it before its search imports Hypothesis, so trio's plugin
    (installed with the test extras) is not run; with it set empty, the plugins load as Hypothesis does by default."""
    off = _child()
    assert off["code"] == 0 and off["hypothesis"], off  # the claim did run a Hypothesis search
    assert off["setting"] == "1"
    if "trio" not in _plugins():
        pytest.skip(f"no trio plugin installed here (hypothesis entry points: {_plugins()})")
    assert not off["trio"], off
    on = _child(**{NO_PLUGINS: ""})
    assert on["code"] == 0 and on["hypothesis"] and on["setting"] == "" and on["trio"], on
