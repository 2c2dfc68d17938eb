"""The collector's thresholds in the processes that run checks (``privclaims.checks.garbage_collector``)."""

from __future__ import annotations

import gc
import subprocess
import sys
import weakref

import pytest

from privclaims.checks.garbage_collector import YOUNG_THRESHOLD, fewer_young_collections
from property_tests.conftest import ROOT


@pytest.fixture
def thresholds():
    """Restore this process's thresholds after the test."""
    saved = gc.get_threshold()
    yield
    gc.set_threshold(*saved)


def _python(code: str) -> subprocess.CompletedProcess:
    """``code`` in a fresh interpreter started in the repository (CPython's default thresholds at its start)."""
    r = subprocess.run([sys.executable, "-c", "import gc\nassert gc.get_threshold()[0] == 700, gc.get_threshold()\n" + code],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    return r


def test_the_value_is_the_readmes():
    assert YOUNG_THRESHOLD == 10_000
    assert f"from 700 to {YOUNG_THRESHOLD:,}" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_youngest_threshold_is_raised_and_the_older_ones_kept(thresholds):
    gc.set_threshold(700, 7, 9)
    assert fewer_young_collections() == (YOUNG_THRESHOLD, 7, 9) == gc.get_threshold()


def test_a_higher_threshold_set_before_is_kept(thresholds):
    gc.set_threshold(YOUNG_THRESHOLD * 3, 10, 10)
    assert fewer_young_collections() == (YOUNG_THRESHOLD * 3, 10, 10)


def test_a_cycle_is_still_freed_by_the_automatic_collections():
    """Later, not never: with the raised thresholds and no explicit ``gc.collect()``, an unreachable cycle is freed
    once enough tracked objects have been allocated (a young collection, or a middle one if it was promoted first)."""
    r = _python(
        "import weakref\n"
        "from privclaims.checks.garbage_collector import fewer_young_collections\n"
        "young, middle, _ = fewer_young_collections()\n"
        "class Node: pass\n"
        "a, b = Node(), Node()\n"
        "a.other, b.other = b, a\n"
        "gone = weakref.ref(a)\n"
        "del a, b\n"
        "kept = [[i] for i in range(2 * young * (middle + 1))]\n"  # enough for a middle collection too
        "print('FREED', gone() is None, gc.isenabled())\n")
    assert "FREED True True" in r.stdout


def test_importing_the_suites_conftest_raises_it():
    """``property_tests/conftest.py`` raises it where it is imported: in the controller and in each xdist worker (and
    registers the exit without a final collection there)."""
    r = _python("import property_tests.conftest\nprint('THRESHOLD', gc.get_threshold()[0])\n"
                "from privclaims.checks.garbage_collector import no_final_collection\n"
                "print('REGISTERED BEFORE', not no_final_collection())\n")
    assert f"THRESHOLD {YOUNG_THRESHOLD}" in r.stdout and "REGISTERED BEFORE True" in r.stdout


_CYCLE_AT_EXIT = (
    "import atexit\n"
    "atexit.register(lambda: print('EARLIER', gc.get_freeze_count() > 0, flush=True))\n"
    "{setup}"
    "atexit.register(lambda: print('LATER', gc.get_freeze_count() > 0, flush=True))\n"
    "class Node:\n"
    "    def __del__(self):\n"
    "        print('DEL', flush=True)\n"
    "a, b = Node(), Node()\n"
    "a.other, b.other = b, a\n"
    "del a, b\n")


def test_at_exit_the_heap_is_left_out_of_the_collection_and_every_handler_runs():
    """With no_final_collection, the atexit handlers registered before and after it run (gc.freeze between them), and
    a reference cycle alive at exit is not collected (its __del__ does not run); without it CPython's final
    collection frees the cycle. Registered once per process."""
    setup = ("from privclaims.checks.garbage_collector import no_final_collection\n"
             "assert no_final_collection() is True and no_final_collection() is False\n")
    frozen = _python(_CYCLE_AT_EXIT.format(setup=setup)).stdout.split()
    plain = _python(_CYCLE_AT_EXIT.format(setup="")).stdout.split()
    assert frozen == ["LATER", "False", "EARLIER", "True"], frozen
    assert plain == ["LATER", "False", "EARLIER", "False", "DEL", "DEL"], plain


def test_the_ledger_runs_with_it_and_its_forked_workers_keep_it(tmp_path):
    """``checks.cli.main`` raises it before the ledger runs (read on entry to ``_main``) and the pool workers it forks
    (``--workers 2``) run with it."""
    children = tmp_path / "children.txt"
    r = _python(
        "import os\n"
        "import privclaims.checks.cli as cli\n"
        f"os.register_at_fork(after_in_child=lambda: open({str(children)!r}, 'a').write(f'{{gc.get_threshold()[0]}}\\n'))\n"
        "inner = cli._main\n"
        "def spy(argv):\n"
        "    print('ENTRY', gc.get_threshold()[0], flush=True)\n"
        "    return inner(argv)\n"
        "cli._main = spy\n"
        "code = cli.main(['--claim', 'dp.def2', '--claim', 'maskit.ex1', '--workers', '2', '--no-table'])\n"
        "assert code in (0, 1), code\n"
        "from privclaims.checks.garbage_collector import no_final_collection\n"
        "print('EXIT REGISTERED', not no_final_collection())\n")
    # the exit setting is the suite's only: a user's process calling the command line keeps its final collection
    assert f"ENTRY {YOUNG_THRESHOLD}" in r.stdout and "EXIT REGISTERED False" in r.stdout
    seen = children.read_text().split()
    assert seen and set(seen) == {str(YOUNG_THRESHOLD)}, seen


def test_the_notebook_kernels_run_with_it_and_nothing_else(tmp_path):
    """The notebook tests' client (``test_notebooks.notebook_client``) starts each kernel with the raised threshold,
    and the setup leaves the notebook's namespace as a kernel started without it has it (no name bound, ``_`` unset):
    a setup IPython could not run would only be warned about, so both are read back from the kernels."""
    nbformat = pytest.importorskip("nbformat")
    from nbclient import NotebookClient

    from property_tests.test_notebooks import notebook_client

    probe = ("import gc\nprint(gc.get_threshold()[0], repr(_), sorted(k for k in dir() if k != 'gc'))\n"
             "print(__import__('privclaims.checks.garbage_collector', fromlist=['_']).no_final_collection())")

    def run(client_for):
        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_code_cell(probe)]
        client_for(nb).execute()
        first, registered_now = nb.cells[0].outputs[0]["text"].rstrip("\n").split("\n")
        return [*first.split(" ", 2), registered_now]

    with_setup = run(lambda nb: notebook_client(nb, tmp_path))
    plain = run(lambda nb: NotebookClient(nb, timeout=120, kernel_name="python3",
                                          resources={"metadata": {"path": str(tmp_path)}}))
    assert with_setup[0] == str(YOUNG_THRESHOLD) and plain[0] == "700"
    assert with_setup[3] == "False" and plain[3] == "True"  # the setup registered the exit without a final collection
    assert with_setup[1:3] == plain[1:3]
