"""The papers' quote tables (issue 12): per area, the decisive phrases of each claim's statement copied verbatim
from the seed text files, as ``(file, where, phrase)``.

The tables (``checks/quotes/<area>.py``, ``BY_READING``) are keyed by claim id (quotes for every reading of the
claim) or ``"<claim id>/<reading name>"`` (quotes for that reading only). The papers' project
(``checks/privclaims.toml``, ``quotes = [...]``) attaches them to the claims' readings as structured quotes, and
the ledger checks every quote against its document (:mod:`privclaims.checks.quoting`). Phrases are copied, not
paraphrased: LaTeX, spacing, PDF-extraction artefacts and misprints are the extracted text's own (whitespace may
differ). maskit keeps its quotes in ``checks/claims/maskit/_quotes.py`` and writes them into its readings'
sources with :func:`render`.
"""

from __future__ import annotations

import importlib
from functools import lru_cache

from privclaims.checks.quoting import render  # noqa: F401 (the shared form, used by the maskit tables)

Quote = tuple[str, str, str]

S000, S001, S002, S003, S004 = ("000_211156f2009240b4.txt", "001_eb11505ae1399b83.txt", "002_9d55ef468949585c.txt",
                                "003_755c7aa10ef74058.txt", "004_66621c1b9afebedf.txt")
AREAS = ("zealous", "ads", "count", "querygen", "dp")


@lru_cache(maxsize=None)
def table(area: str) -> dict[str, tuple[Quote, ...]]:
    """The area's quote table (empty for an area without one)."""
    if area not in AREAS:
        return {}
    return importlib.import_module(f"privclaims.checks.quotes.{area}").BY_READING
