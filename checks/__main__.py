"""``python -m checks`` (a development shortcut from the repository root; the documented entry points are
``privclaims ledger`` and ``python -m privclaims ledger``): run the claims ledger.

Run by an interpreter that lacks the project's dependencies (e.g. the system ``python3`` beside an
installed ``.venv``), it re-runs itself with the repository's ``.venv/bin/python`` when that exists, and
otherwise says in one line how to install instead of failing with a traceback.
"""

import os
import sys
from pathlib import Path


def _dependencies_missing() -> str | None:
    try:
        import numpy, rich, sympy  # noqa: F401,E401
    except ImportError as e:
        return e.name or str(e)
    return None


if __name__ == "__main__":
    missing = _dependencies_missing()
    if missing:
        venv = Path(__file__).resolve().parent.parent / ".venv"
        python = venv / "bin" / "python"
        if python.is_file() and Path(sys.prefix).resolve() != venv.resolve():  # not already that venv
            os.execv(str(python), [str(python), "-m", "privclaims", "ledger", *sys.argv[1:]])
        print(f"error: module {missing!r} is not installed for {sys.executable}; install the project first: "
              "python3 -m venv .venv && .venv/bin/pip install -e . (README, command 1)", file=sys.stderr)
        raise SystemExit(2)
    from privclaims.checks.cli import main

    raise SystemExit(main())
