"""The collector's youngest threshold in the processes that run checks (``privclaims.checks.garbage_collector``)."""

from __future__ import annotations

import gc
import subprocess
import sys

import pytest

from privclaims.checks.garbage_collector import YOUNG_THRESHOLD, fewer_young_collections
from property_tests.conftest import ROOT


@pytest.fixture
def thresholds():
    """Restore this process's thresholds after the test."""
    saved = gc.get_threshold()
    yield
    gc.set_threshold(*saved)


def test_the_youngest_threshold_is_raised_and_the_older_ones_kept(thresholds):
    gc.set_threshold(700, 7, 9)
    assert fewer_young_collections() == (YOUNG_THRESHOLD, 7, 9) == gc.get_threshold()
    assert YOUNG_THRESHOLD > 700


def test_a_higher_threshold_set_before_is_kept(thresholds):
    gc.set_threshold(YOUNG_THRESHOLD * 3, 10, 10)
    assert fewer_young_collections() == (YOUNG_THRESHOLD * 3, 10, 10)


def test_a_cycle_is_still_freed(thresholds):
    """Later, not never: a collection frees an unreachable cycle under the raised threshold."""
    import weakref

    fewer_young_collections()

    class Node:
        pass

    a, b = Node(), Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    del a, b
    gc.collect()
    assert gone() is None


def test_this_suites_workers_run_with_it():
    """``property_tests/conftest.py`` raises it in each xdist worker (this test runs in one)."""
    assert gc.get_threshold()[0] >= YOUNG_THRESHOLD


@pytest.mark.parametrize("argv", [["--list", "--area", "dp"]], ids=["ledger-list"])
def test_the_ledger_command_line_runs_with_it(argv):
    """``privclaims ledger`` (``checks.cli.main``) raises it for its process; its forked pool workers keep it."""
    code = ("import gc, sys\n"
            "assert gc.get_threshold()[0] == 700, gc.get_threshold()\n"
            "from privclaims.checks.cli import main\n"
            f"main({argv!r})\n"
            "print('THRESHOLD', gc.get_threshold()[0], file=sys.stderr)\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert f"THRESHOLD {YOUNG_THRESHOLD}" in r.stderr


def test_the_notebook_kernels_run_with_it():
    """``test_notebooks`` starts each kernel with :data:`KERNEL_SETUP` (IPython's ``exec_lines``): the kernel runs
    with the raised threshold and the setup leaves no name in the notebook's namespace (a setup that failed would only
    be warned about by IPython, so the threshold is read back here)."""
    nbformat = pytest.importorskip("nbformat")
    from nbclient import NotebookClient

    from property_tests.test_notebooks import KERNEL_SETUP

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import gc\nprint(gc.get_threshold()[0], sorted(k for k in dir() if 'garbage' in k or 'fewer' in k))")]
    NotebookClient(nb, timeout=120, kernel_name="python3", extra_arguments=[f"--IPKernelApp.exec_lines={KERNEL_SETUP}"]).execute()
    assert nb.cells[0].outputs[0]["text"].split() == [str(YOUNG_THRESHOLD), "[]"]
