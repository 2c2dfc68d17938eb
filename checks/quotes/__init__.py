"""The documents' own words behind the readings (issue 12): per area, a table of the decisive phrases of
each claim's statement copied verbatim from the seed text files, as ``(file, where, phrase)``.

The tables (``checks/quotes/<area>.py``, ``BY_READING``) are keyed by claim id (quotes for every reading of
the claim) or ``"<claim id>/<reading name>"`` (quotes for that reading only). :func:`attach` appends them to
a reading's source, so a check's ``Reading`` (or the catalogue's default reading) keeps its own words and the
quotes live in one table per area. Phrases are copied, not paraphrased: LaTeX, spacing, PDF-extraction
artefacts and misprints are the extracted text's own (whitespace may differ; ``property_tests/
test_reading_quotes.py`` checks that each occurs, whitespace-normalised, in the file cited just before it).
A quote is rendered between curly quotes “…” so that primes and straight quotes inside it stay intact.
(maskit keeps its quotes in ``checks/claims/maskit/_quotes.py`` and appends them to its readings itself,
in ``checks/claims/maskit/_common.py``, with :func:`render`.)
"""

from __future__ import annotations

import importlib
from dataclasses import replace
from functools import lru_cache

from privclaims.checks.verdict import Reading

Quote = tuple[str, str, str]

S000, S001, S002, S003, S004 = ("000_211156f2009240b4.txt", "001_eb11505ae1399b83.txt", "002_9d55ef468949585c.txt",
                                "003_755c7aa10ef74058.txt", "004_66621c1b9afebedf.txt")
AREAS = ("zealous", "ads", "count", "querygen", "dp")


def render(quotes: tuple[Quote, ...]) -> str:
    """``file where: “phrase”; ...`` - the form the readings' sources carry."""
    return "; ".join(f"{f} {where}: “{' '.join(phrase.split())}”" for f, where, phrase in quotes)


@lru_cache(maxsize=None)
def table(area: str) -> dict[str, tuple[Quote, ...]]:
    """The area's quote table (empty for an area without one)."""
    if area not in AREAS:
        return {}
    return importlib.import_module(f"privclaims.checks.quotes.{area}").BY_READING


def attach(claim_id: str, reading: Reading) -> Reading:
    """``reading`` with the table's quotes for its claim (then for the reading itself) appended to its source."""
    t = table(claim_id.split(".")[0])
    qs = t.get(claim_id, ()) + t.get(f"{claim_id}/{reading.name}", ())
    return replace(reading, source=f"{reading.source}; quoted: {render(qs)}") if qs else reading
