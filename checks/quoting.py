"""Quotes cannot drift from the documents (issues 12, 24): every phrase a reading, definition, not-applicable
reason or audit note quotes must occur verbatim (whitespace-normalised) in the document it cites.

A quote is either structured (:class:`~privclaims.checks.readings.Quote`: document, where, text) or written inline
in a reading's ``source`` string: text between “…”, or between '…' / "…" that open after a space, "(" or ":" and
close before a space, ";", ",", ")" or the end (so primes such as t' or M'' inside LaTeX are not taken for
quotes); an inline quote cites the document named last before it in the string. Every reading must anchor itself
in at least one verbatim quote of :data:`MIN_CHARS` characters or more.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from privclaims.checks.readings import Quote, Reading

INLINE = re.compile(r"“([^”]+)”|(?:^|(?<=[\s(:]))'([^']+?)'(?=$|[\s;,)])|(?:^|(?<=[\s(:]))\"([^\"]+?)\"(?=$|[\s;,)])")
MIN_CHARS = 12  # the quote that anchors a reading is at least this long (no "δ" or "≤" alone)


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
