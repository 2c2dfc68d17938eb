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


@pytest.mark.parametrize("kw,met", [
    (dict(value=2.0), None),
    (dict(value=2.0, target=2.0), True), (dict(value=2.1, target=2.0), False),
    (dict(value=1.0, baseline=3.0, ratio_target=3.0), True), (dict(value=1.0, baseline=2.9, ratio_target=3.0), False),
    (dict(value=1.0, ratio_target=3.0), False),  # no baseline: a ratio target cannot be met
    (dict(value=1.0, target=2.0, baseline=1.0, ratio_target=3.0), False),
])
def test_measurement_met_is_every_target(kw, met):
    from benchmarks import Measurement

    assert Measurement(unit="s", **kw).met is met


def test_plain_output_off_a_terminal_names_every_target(capsys, monkeypatch):
    """``python -m benchmarks`` in a pipe prints one block per benchmark with its target and whether it was met."""
    import benchmarks
    from benchmarks import Measurement, __main__ as cli

    monkeypatch.setattr(benchmarks, "BENCHMARKS", {"x.one": ("x", lambda: Measurement(
        0.5, "s", target=1.0, baseline=2.0, ratio_target=3.0, notes="n"))})
    monkeypatch.setattr(cli, "load_all", lambda: benchmarks.BENCHMARKS)
    assert cli.main([]) == 0
    out = capsys.readouterr().out
    assert "x.one [x]: 0.5 s; target 1; baseline 2; ratio 4; ratio_target 3; met yes" in out and "    n" in out
