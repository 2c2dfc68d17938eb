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
from privclaims.checks.quoting import (claim_quote_problems, inline_quotes, norm, project_documents, quote_problems, quotes_of,
                                      row_names, row_text_problems, text_problems, word_triples)
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


# ---- the ledger's own texts: the documents' words in “…”, verbatim; straight quotes are ours -----------------------

_DOC = {"d.txt": norm("The user then picks an ad $a^* \\in A$ to display. The set of ads and the ad to display should be "
                      "chosen in a way that maximizes revenue.")}


def _text(text: str, names: frozenset = frozenset()) -> list[str]:
    return text_problems("c why", text, _DOC, word_triples(_DOC["d.txt"]), names)


def test_a_document_quote_in_our_texts_must_be_verbatim():
    assert _text("the model's “The user then picks an ad $a^* \\in A$ to display”") == []
    assert _text("pieces joined by dots, in order: “The user then picks ... should be chosen”") == []
    (bad,) = _text("“The user then picks an ad a* ∈ A”")  # the symbols rewritten: not the document's words
    assert bad.startswith("c why: “The user then picks an ad a* ∈ A” is not verbatim")
    assert _text("out of order: “should be chosen ... The user then picks”")
    assert _text("nothing quoted: “...”")
    far = {"d.txt": norm("the start of it " + "filler words here " * 40 + "the end of it")}
    assert text_problems("c", "“the start of it ... the end of it”", far, word_triples(far["d.txt"]))  # 720 chars left out
    near = {"d.txt": norm("the start of it " + "filler words here " * 10 + "the end of it")}
    assert text_problems("c", "“the start of it ... the end of it”", near, word_triples(near["d.txt"])) == []


def test_the_documents_words_in_straight_quotes_are_flagged_and_names_are_not():
    (verbatim,) = _text("the text says 'chosen in a way that maximizes revenue' here")
    assert "is the documents' words: write it in “…”" in verbatim
    for framed in ("does it say 'chosen in a way that maximizes revenue'?", "[“a”, 'chosen in a way that maximizes revenue']",
                   "the phrase—'chosen in a way that maximizes revenue'—again", "it says 'chosen in a way that maximizes revenue':"):
        assert len(_text(framed)) == 1, framed  # opened after a dash or bracket, closed before ? ] — or :
    (near,) = _text('the text says "the ad to display should be chosen in a way to maximize revenue"')
    assert "looks like a quote of the documents but is not verbatim" in near
    assert _text("under 'the ad to display should be chosen' as a reading name",
                 names=frozenset({"the ad to display should be chosen"})) == []
    assert _text("our words 'a set of ads chosen' are short, and 'greedy picks the best ad first' are ours") == []
    # the misquote threshold is half the phrase's word triples: 2 of 4 is flagged, 1 of 4 is not
    assert _text("'the ad to display brings revenue'")  # of its 4 triples 'the ad to', 'ad to display' occur
    assert _text("'our ad to display brings revenue'") == []  # only 'ad to display' occurs


def test_every_text_of_a_row_is_read_and_only_those():
    row = {"id": "c", "why": "'chosen in a way that maximizes revenue'",
           "readings": [{"name": "r", "choice": {"D": "the set of ads and"}, "why": None, "meaning": "“a* ∈ A”",
                         "parts": [{"name": "p", "asserts": "“picks an ad a*”", "evidence": {"paper": "“checked”"}}]}],
           "audit": {"note": "fine", "rejected": [{"reading": "“picks two ads” = at random"}]},
           "evidence": {"value": "“not a text of ours”", "same_under_every_reading": {"D": "“to show”"}},
           "statement": "“the catalogue's”", "source": "“checked as a reading's source”"}
    problems = row_text_problems(row, _DOC)
    assert [p.split(":")[0] for p in problems] == [
        "c why", "c readings[0].meaning", "c readings[0].parts[0].asserts", "c readings[0].parts[0].evidence.paper",
        "c audit.rejected[0].reading", "c evidence.same_under_every_reading.D"]
    assert row_names(row) >= {"c", "r", "p", "the set of ads and"}


@needs_seeds
def test_the_papers_ledger_texts_follow_the_convention(quick_ledger):
    """The quick ledger run checked every computed text by the convention and found nothing (the full ledger is
    checked the same way by every ledger run, CI's included)."""
    import json

    (run,) = quick_ledger(1)
    quotes = json.loads(run.json_path.read_text())["run"]["quotes"]
    assert quotes["checked"] and quotes["count"] == len(PROJECT.catalog)
    assert quotes["problems"] == [], "\n".join(quotes["problems"])
