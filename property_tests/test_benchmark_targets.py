"""benchmarks.target_note: a benchmark's notes say whether this run met its target (computed, never fixed)."""

from __future__ import annotations

import pytest

from benchmarks import target_note


@pytest.mark.parametrize("measured,bound,at_least,word", [
    (0.78, 1, True, "MISSED"), (1.0, 1, True, "met"), (1.3, 1, True, "met"),
    (6.4, 6, False, "MISSED"), (6.0, 6, False, "met"), (0.57, 1.5, False, "met"),
])
def test_target_note_says_met_or_missed(measured, bound, at_least, word):
    note = target_note("ratio", measured, bound, at_least=at_least)
    assert note.split(": ")[1].startswith(word)
    assert ("ratio >= " if at_least else "ratio <= ") + f"{bound:g}" in note and f"{measured:.3g}" in note
