"""Every notebook in notebooks/ runs top to bottom (nbclient) and is committed without outputs."""

import os
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
BUDGET_SECONDS = 600  # per cell
KERNEL_SETUP = ("if [__import__('privclaims.checks.garbage_collector', fromlist=['_']).fewer_young_collections(), "
                "__import__('privclaims.checks.garbage_collector', fromlist=['_']).no_final_collection()]: pass")
"""Run by each kernel before the notebook's first cell (IPython's ``exec_lines``; a statement, so it binds no name and
shows nothing): the collector's thresholds, and its exit, as in the ledger's processes (``checks/garbage_collector.py``, issue 25;
in one suite run the six kernels' collector time fell 7.1 s -> 3.4 s of ~50 CPU s). The notebooks' cells are
unchanged."""


def notebook_client(nb, folder: Path):
    """The client that runs ``nb`` in a fresh ``python3`` kernel started in ``folder``, with :data:`KERNEL_SETUP`."""
    from nbclient import NotebookClient

    return NotebookClient(nb, timeout=BUDGET_SECONDS, kernel_name="python3", resources={"metadata": {"path": str(folder)}},
                          extra_arguments=[f"--IPKernelApp.exec_lines={KERNEL_SETUP}"])


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_committed_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    dirty = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and (c.get("outputs") or c.get("execution_count"))]
    assert not dirty, f"{path.name}: cells {dirty} carry outputs; strip them before committing"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_executes(path, tmp_path, replay_outcomes):
    """The notebook runs in a kernel that replays the claims' outcomes the session's quick-ledger runs recorded
    (``replay_outcomes``, conftest: the claims' computing is tested there; a claim not recorded is computed here)."""
    nb = nbformat.read(path, as_version=4)
    (name, folder), = replay_outcomes.items()
    nb.cells.append(nbformat.v4.new_code_cell(f"import os; print(os.environ.get({name!r}))"))  # the kernel's setting
    notebook_client(nb, path.parent).execute(env={**os.environ, **replay_outcomes})
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
    assert [o.get("text", "").strip() for o in nb.cells[-1].outputs] == [folder]
