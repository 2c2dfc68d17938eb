"""The searches' Hypothesis without third-party plugins: a verdict does not depend on what else is installed.

Hypothesis runs, when it is first imported, every function registered under the ``hypothesis`` entry point of any
installed distribution (``hypothesis.entry_points.run``) unless ``$HYPOTHESIS_NO_PLUGINS`` is non-empty. Such a
plugin may register strategies for its types or its own ``random.Random`` instances (seeded and restored around every
generated example); none of the papers' ledger's searches draws from a third-party type, so there a plugin can only
cost time or change what a run does depending on the machine. A project of users' own claims whose strategies come
from another package's entry point runs with ``HYPOTHESIS_NO_PLUGINS=`` (README, *Validate your own claims*). The one installed here with the test extras is trio's (a
dependency of selenium, for the HTML report's browser test): it imports trio, trio.testing and pytest, ~0.19 s of
every process that imports Hypothesis (``python -c "import hypothesis"``: 0.35 s with it, 0.16 s without).

:func:`without_third_party_plugins` is called by the processes that run searches - the ledger's command line, the
mutation campaign and the test suite (``property_tests/conftest.py``) - before anything imports Hypothesis; their
child processes (the ledger's workers, the campaign's and the suite's pytest and notebook runs) inherit it. A value
the user set is kept: ``HYPOTHESIS_NO_PLUGINS=`` (empty) loads the plugins again.
"""

from __future__ import annotations

import os
from typing import MutableMapping

NO_PLUGINS = "HYPOTHESIS_NO_PLUGINS"
"""Hypothesis' own switch (``hypothesis/entry_points.py``): plugins are skipped when it is set and non-empty."""


def without_third_party_plugins(environ: MutableMapping[str, str] = os.environ) -> bool:
    """Set ``$HYPOTHESIS_NO_PLUGINS=1`` unless the user set it; True when the plugins will be skipped. It acts on the
    next first import of Hypothesis (in this process, when not yet imported, and in child processes)."""
    environ.setdefault(NO_PLUGINS, "1")
    return bool(environ[NO_PLUGINS])
