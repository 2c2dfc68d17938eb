"""Quotes cannot drift from the documents (issues 12, 24): every phrase a reading, definition, not-applicable
reason or audit note quotes must occur verbatim (whitespace-normalised) in the document it cites.

A quote is either structured (:class:`~privclaims.checks.readings.Quote`: document, where, text) or written inline
in a reading's ``source`` string: text between “…”, or between '…' / "…" that open after a space, "(" or ":" and
close before a space, ";", ",", ")" or the end (so primes such as t' or M'' inside LaTeX are not taken for
quotes); an inline quote cites the document named last before it in the string. Every reading must anchor itself
in at least one verbatim quote of :data:`MIN_CHARS` characters or more.

The ledger's own texts (a verdict's ``why``, a part's ``asserts``, a reading's ``meaning``, what is ``missing``, an
audit's or an evidence's ``note``, what an evidence says the ``paper`` says, an audit's rejected ``reading``, a
``corrected`` statement, the reasons of ``same_under_every_reading``) follow one convention, checked on every run (:func:`row_text_problems`): the documents' words are
written in “…”, and each “…” must occur verbatim in one of the project's documents (pieces joined by ``...`` or
``…`` each verbatim, in that order, in one document); words in straight quotes, '…' or "…", are ours (names,
paraphrases). So a straight-quoted phrase of :data:`MIN_WORDS` words or more that occurs verbatim in a document,
or that shares :data:`NEAR_SHARE` of its word triples with the documents without occurring in them (a misquote:
a dropped word, a changed symbol), is a problem.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Iterable

from privclaims.checks.readings import Quote, Reading
from privclaims.checks.verdict import SAME_UNDER

INLINE = re.compile(r"“([^”]+)”|(?:^|(?<=[\s(:]))'([^']+?)'(?=$|[\s;,)])|(?:^|(?<=[\s(:]))\"([^\"]+?)\"(?=$|[\s;,)])")
MIN_CHARS = 12  # the quote that anchors a reading is at least this long (no "δ" or "≤" alone)
DOCUMENT_QUOTE = re.compile(r"“([^”]+)”")
STRAIGHT_QUOTE = re.compile(r"(?:^|(?<=[\s(\[:—]))'([^']+?)'(?=$|[\s;,.:?!)\]—])"
                            r"|(?:^|(?<=[\s(\[:—]))\"([^\"]+?)\"(?=$|[\s;,.:?!)\]—])")
GAP = re.compile(r"\s*(?:\.\.\.|…)\s*")
GAP_CHARS = 400  # the words a “... ” leaves out of a quote: at most this many characters
MIN_WORDS = 4  # a straight-quoted phrase this long is judged against the documents
NEAR_SHARE = 0.5  # ... and is a misquote when this share of its word triples occurs in them
TEXT_KEYS = ("why", "asserts", "meaning", "missing", "note", "paper", "reading", "corrected")  # "paper": what an
# evidence says the paper says; "reading": an audit's rejected reading; "corrected": a corrected statement
NOT_OURS = ("quotes", "source", "statement", "pin", "expected")  # quotes checked elsewhere, the catalogue's givens


def norm(s: str) -> str:
    return " ".join(s.split())


def render(quotes: Iterable[Any]) -> str:
    """``file where: “phrase”; ...`` - the form a source string carries quotes in."""
    return "; ".join(f"{f} {where}: “{norm(phrase)}”" for f, where, phrase in
                     ((q.document, q.where, q.text) if isinstance(q, Quote) else q for q in quotes))


def inline_quotes(source: str, documents: Iterable[str]) -> list[tuple[str | None, str]]:
    """(document cited last before the quote, quoted phrase) for every inline quote in ``source``."""
    names = sorted(set(documents), key=len, reverse=True)
    cite = re.compile("|".join(re.escape(n) for n in names)) if names else None
    out = []
    for m in INLINE.finditer(source):
        files = cite.findall(source[: m.start()]) if cite else []
        out.append((files[-1] if files else None, next(g for g in m.groups() if g is not None)))
    return out


def quotes_of(reading: Reading, documents: Iterable[str]) -> list[tuple[str | None, str]]:
    """Every quote a reading makes: its structured quotes and the inline quotes of its source."""
    return [(q.document, q.text) for q in reading.quotes] + inline_quotes(reading.source, documents)


def quote_problems(label: str, quotes: list[tuple[str | None, str]], text_of: Any, anchor: bool) -> list[str]:
    """Problems of ``quotes`` (``text_of(document)`` gives a document's normalised text): a quote without a cited
    document, one not verbatim in it, and (``anchor``) no verbatim quote of at least :data:`MIN_CHARS` characters."""
    bad, good = [], []
    for doc, q in quotes:
        if doc is None:
            bad.append(f"{label}: quote without a cited document before it: {q[:80]!r}")
            continue
        text = text_of(doc)
        if text is None:
            bad.append(f"{label}: cites {doc!r}, which is not one of the project's documents")
        elif norm(q) not in text:
            bad.append(f"{label}: not verbatim in {doc}: {q[:100]!r}")
        else:
            good.append(q)
    if anchor and not any(len(norm(q)) >= MIN_CHARS for q in good):
        bad.append(f"{label}: no verbatim quote of >= {MIN_CHARS} characters")
    return bad


def claim_quote_problems(project: Any, claim_id: str) -> list[str]:
    """Every quote problem of one claim of ``project``: its own readings, the readings of the definitions it rests
    on, its not-applicable reasons and its audit's rejected readings. Requires the project's documents."""
    docs = project.config.documents.files
    text_of = lambda d: project.document_text(d) if d in docs else None  # noqa: E731
    bad = []
    chk = project.checks.get(claim_id)
    declared = bool(chk and chk.readings)  # else "as stated", whose source is the catalogue's paraphrase
    for r in project.own_readings(claim_id):
        if declared:
            qs = quotes_of(r, docs)
        else:  # the catalogue paraphrases: its inline phrases count as anchors only where they are verbatim
            qs = [(q.document, q.text) for q in r.quotes] + [
                (d, q) for d, q in inline_quotes(r.source, docs) if d and text_of(d) and norm(q) in text_of(d)]
        bad += quote_problems(f"{claim_id} [{r.name}]", qs, text_of, anchor=True)
    for d in project.claim_definitions(claim_id):
        for r in d.readings:
            bad += quote_problems(f"{claim_id} rests on {d.id} [{r.name}]", quotes_of(r, docs), text_of, anchor=True)
    for na in (chk.not_applicable if chk else ()):
        bad += quote_problems(f"{claim_id} not applicable {na.definition}/{na.reading}",
                              [(q.document, q.text) for q in na.quotes], text_of, anchor=True)
    if chk and chk.audit:
        for rj in chk.audit.rejected:
            bad += quote_problems(f"{claim_id} audit rejected [{rj.reading}]", [(q.document, q.text) for q in rj.quotes],
                                  text_of, anchor=bool(rj.quotes))
    return bad


def verbatim_with_gaps(quote: str, text: str) -> bool:
    """Is ``quote`` in ``text`` (both whitespace-normalised): its pieces between ``...`` / ``…`` each verbatim, in
    order, each within :data:`GAP_CHARS` characters of the one before (a quote with no piece is not)?"""
    pieces = [p for p in GAP.split(norm(quote)) if p]
    if not pieces:
        return False
    start = text.find(pieces[0])
    while start >= 0:
        at, ok = start + len(pieces[0]), True
        for piece in pieces[1:]:
            nxt = text.find(piece, at, at + GAP_CHARS + len(piece))
            if nxt < 0:
                ok = False
                break
            at = nxt + len(piece)
        if ok:
            return True
        start = text.find(pieces[0], start + 1)
    return False


def word_triples(text: str) -> set[tuple[str, str, str]]:
    """The triples of consecutive words of ``text``."""
    words = text.split()
    return set(zip(words, words[1:], words[2:]))


@lru_cache(maxsize=8)
def _triples(texts: tuple[str, ...]) -> frozenset:
    """The word triples of each of ``texts`` (a project's documents), computed once per set of documents."""
    return frozenset().union(*map(word_triples, texts))


def text_problems(label: str, text: str, documents: dict[str, str], triples: set,
                  names: frozenset[str] = frozenset()) -> list[str]:
    """Problems of one of the ledger's own texts by the module's convention: a “…” not verbatim in any of
    ``documents`` (name -> normalised text); a straight-quoted phrase of :data:`MIN_WORDS` words or more that is
    verbatim in one (write it in “…”) or shares :data:`NEAR_SHARE` of its word triples (``triples``: those of the
    documents) without being verbatim (quote it exactly in “…”, or say it in our words) - unless it is one of
    ``names`` (the claim's readings, parts, definitions: our names, quoted as names)."""
    bad = []
    for m in DOCUMENT_QUOTE.finditer(text):
        if not any(verbatim_with_gaps(m.group(1), t) for t in documents.values()):
            bad.append(f"{label}: “{norm(m.group(1))[:100]}” is not verbatim in any of the documents")
    for m in STRAIGHT_QUOTE.finditer(text):
        q = norm(next(g for g in m.groups() if g is not None))
        if len(q.split()) < MIN_WORDS or q in names:
            continue
        if any(verbatim_with_gaps(q, t) for t in documents.values()):
            bad.append(f"{label}: {q[:100]!r} is the documents' words: write it in “…”")
            continue
        own = word_triples(q)
        if own and len(own & triples) >= NEAR_SHARE * len(own):
            bad.append(f"{label}: {q[:100]!r} looks like a quote of the documents but is not verbatim: quote it "
                       "exactly in “…”, or say it in our words")
    return bad


def free_texts(row: Any, path: str = "") -> list[tuple[str, str]]:
    """(where, text) of every text of :data:`TEXT_KEYS` in a report row (recursively; not under :data:`NOT_OURS`)."""
    out: list[tuple[str, str]] = []
    if isinstance(row, dict):
        for k, v in row.items():
            if k in TEXT_KEYS and isinstance(v, str):
                out.append((f"{path}.{k}" if path else str(k), v))
            elif k == SAME_UNDER and isinstance(v, dict):  # the reasons why readings cannot change an outcome
                out += [(f"{path}.{k}.{d}" if path else f"{k}.{d}", r) for d, r in v.items() if isinstance(r, str)]
            elif k not in NOT_OURS:
                out += free_texts(v, f"{path}.{k}" if path else str(k))
    elif isinstance(row, list):
        for i, v in enumerate(row):
            out += free_texts(v, f"{path}[{i}]")
    return out


def row_names(row: Any) -> frozenset[str]:
    """Every name in a report row: values under ``name``, ``id`` and ``choice`` (readings, parts, definitions)."""
    out: set[str] = set()
    if isinstance(row, dict):
        for k, v in row.items():
            if k in ("name", "id") and isinstance(v, str):
                out.add(norm(v))
            elif k == "choice" and isinstance(v, dict):
                out |= {norm(x) for x in v.values() if isinstance(x, str)}
            else:
                out |= row_names(v)
    elif isinstance(row, list):
        for v in row:
            out |= row_names(v)
    return frozenset(out)


def row_text_problems(row: dict[str, Any], documents: dict[str, str]) -> list[str]:
    """:func:`text_problems` of every text of a computed report row (``documents``: name -> normalised text)."""
    triples = _triples(tuple(documents.values()))
    names = row_names(row)
    return [p for where, text in free_texts(row)
            for p in text_problems(f"{row['id']} {where}", text, documents, triples, names)]


def project_documents(project: Any) -> dict[str, str]:
    """name -> whitespace-normalised text of each of ``project``'s documents that is found."""
    return {d: t for d in project.config.documents.files if (t := project.document_text(d)) is not None}


def row_quote_problems(project: Any, row: dict[str, Any]) -> list[str]:
    """Every quote problem of a computed claim of ``project`` (its documents found): the quotes of its readings,
    definitions, not-applicable reasons and audit (:func:`claim_quote_problems`) and those of its own texts
    (:func:`row_text_problems`)."""
    return claim_quote_problems(project, row["id"]) + row_text_problems(row, project_documents(project))
