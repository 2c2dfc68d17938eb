"""The readings' quotes cannot drift from the documents (issues 12, 21, 24): every phrase a reading — of a claim or of
a definition it rests on — a not-applicable reason or an audit note quotes must occur verbatim (whitespace-
normalised) in the document it cites, and every reading anchors itself in a verbatim quote of some length
(:mod:`privclaims.checks.quoting`, which the ledger runs on every project). The seed files are found by the papers'
project's search path (``$PRIVCLAIMS_DOCUMENTS``, ``seeds/`` beside ``$PRIVCLAIMS_DATA``, ``../shared/seeds`` beside
the repository, as in CI); without them the quote tests are skipped, with the reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from privclaims.checks.catalog import AREAS
from privclaims.checks.project import Project, papers
from privclaims.checks.quoting import claim_quote_problems, inline_quotes, quote_problems, quotes_of
from privclaims.checks.readings import Reading

PROJECT = papers()
DOCS = PROJECT.config.documents.files

needs_seeds = pytest.mark.skipif(PROJECT.documents_dir() is None,
                                 reason="no seed texts: neither $PRIVCLAIMS_DOCUMENTS, seeds/ beside $PRIVCLAIMS_DATA "
                                        "nor ../shared/seeds beside the project")


def test_quote_parser_finds_the_three_forms_and_skips_primes():
    src = "000_211156f2009240b4.txt §1: “a b” and 'c d'; \"e f\" (t' and M'' are primes)"
    assert [q for _, q in inline_quotes(src, DOCS)] == ["a b", "c d", "e f"]
    assert inline_quotes("no file: “x y”", DOCS) == [(None, "x y")]


def _problems(reading: Reading) -> list[str]:
    return quote_problems("x", quotes_of(reading, DOCS), PROJECT.document_text, anchor=True)


@needs_seeds
def test_a_paraphrase_is_caught():
    good = "000_211156f2009240b4.txt §3.4.2 Theorem 3: “Privacy is a monotone property: If \\vec{p} preserves δ -privacy”"
    assert _problems(Reading("r", "m", good)) == []
    para = good.replace("monotone property", "monotone function")
    assert _problems(Reading("r", "m", para))
    wrong_file = good.replace("000_211156f2009240b4.txt", "001_eb11505ae1399b83.txt")  # 001 writes $\vec{p}$
    assert _problems(Reading("r", "m", wrong_file))
    structured = Reading("r", "m", "000 §3.4.2", quotes=[("000_211156f2009240b4.txt", "§3.4.2", "Privacy is a monotone function")])
    assert _problems(structured)


@needs_seeds
@pytest.mark.parametrize("area", AREAS)
def test_every_reading_quotes_its_document_verbatim(area):
    bad = [line for cid, e in PROJECT.catalog.items() if e.area == area for line in claim_quote_problems(PROJECT, cid)]
    assert not bad, "\n".join(bad)


def test_documents_are_found_by_the_data_rule(tmp_path, monkeypatch):
    """``seeds/`` beside $PRIVCLAIMS_DATA is found (so the quote tests run, not skip, wherever the data is)."""
    (tmp_path / "data").mkdir()
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    for f in DOCS:
        (seeds / f).write_text("text")
    monkeypatch.delenv("PRIVCLAIMS_DOCUMENTS", raising=False)
    monkeypatch.setenv("PRIVCLAIMS_DATA", str(tmp_path / "data"))
    assert Project.load(PROJECT.root).documents_dir() == seeds.resolve()
    monkeypatch.setenv("PRIVCLAIMS_DOCUMENTS", str(tmp_path / "data"))  # no documents there: the next entry
    assert Project.load(PROJECT.root).documents_dir() == seeds.resolve()
    beside = Path(PROJECT.root).parent.parent / "shared" / "seeds"
    monkeypatch.setenv("PRIVCLAIMS_DATA", str(tmp_path / "elsewhere" / "data"))
    want = beside.resolve() if beside.is_dir() else None
    assert Project.load(PROJECT.root).documents_dir() == want


def test_quote_tables_name_existing_claims_and_readings():
    """A table key that names no claim, or no reading of its claim, would attach nothing: caught here."""
    bad = []
    for t in PROJECT.quote_tables:
        for key in t:
            cid, _, name = key.partition("/")
            if cid not in PROJECT.checks:
                bad.append(key)
            elif name and name not in {r.name for r in PROJECT.checks[cid].readings}:
                bad.append(key)
    assert not bad, bad
