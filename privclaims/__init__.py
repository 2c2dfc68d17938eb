"""privclaims: exact privacy verdicts, with witnesses, on your own instance.

One module per system of the five papers (cited by file name; the thesis is 000_211156f2009240b4.txt):

* :mod:`privclaims.dp` — ε-DP, (ε,δ)-probabilistic DP and (ε,δ)-indistinguishability of a finite
  mechanism you give as JSON (thesis §2.2.1, Definitions 2-4);
* :mod:`privclaims.maskit` — MaskIt (001_eb11505ae1399b83.txt, thesis ch. 3): is a suppression
  policy δ-private for your context chain, search for one, filter your streams;
* :mod:`privclaims.ads` — private ad delivery (002_9d55ef468949585c.txt, thesis ch. 4): Greedy's ads
  and revenue, the optimum and the 1 - (1 - 1/k)^k guarantee;
* :mod:`privclaims.count` — distributed counting (002, thesis ch. 5): run the protocol end to end,
  decide Theorem 1's privacy exactly;
* :mod:`privclaims.zealous` — ZEALOUS search-log publishing (003_755c7aa10ef74058.txt, thesis ch. 6):
  λ, τ, τ′ from (U, m, ε, δ) and a sanitized histogram of your log;
* :mod:`privclaims.querygen` — the query generalizer (004_66621c1b9afebedf.txt): generalise a query
  until the target attribute's guessing entropy reaches G_min.

Every function takes exact inputs (``"1/3"``, ``"ln(3)"``; a JSON number in a file is the decimal written,
a Python float is refused unless converted explicitly), reads every file by its declared format
(:mod:`privclaims.formats`), raises :class:`InvalidInput` naming the bad key or value, and returns a small frozen dataclass
with exact values, ``holds`` (the property asked about), ``summary()`` (plain words, with the witness
when the property fails) and ``as_json()`` (always ``json.dumps``-able). The command line is
``privclaims <system> ...`` (``privclaims --help``); the claims ledger is ``privclaims ledger ...``.

The mathematics lives in ``theory/`` (exact twins); this package only reads formats, calls and renders.
"""

import importlib
from typing import Any

from privclaims.theory.errors import InvalidInput

__all__ = ["InvalidInput", "dp", "maskit", "ads", "count", "zealous", "querygen"]
_SYSTEMS = ("dp", "maskit", "ads", "count", "zealous", "querygen")


def __getattr__(name: str) -> Any:
    """Import a system's module on first use (``privclaims.maskit``), so that the command line answers
    bad input in well under a second instead of first importing every system (sympy alone takes 0.5 s)."""
    if name in _SYSTEMS:
        return importlib.import_module(f"privclaims.{name}")
    raise AttributeError(f"module 'privclaims' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_SYSTEMS))
