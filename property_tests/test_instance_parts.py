"""A search counts instances by what its property reads, and the declaration is checked (counterexamples/
instance_parts.py, property_search's ``reads=ReadParts``, the audit ``auditing_reads``)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import strategies as st

from privclaims.counterexamples.instance_parts import ReadParts, UndeclaredRead, Unread
from privclaims.counterexamples.property_search import auditing_reads, property_search

PAIRS = st.tuples(st.integers(0, 3), st.integers(0, 10**6))
AB = ReadParts(("a", "b"), read=("a",))


def _search(holds, reads=None, examples=60, strategy=PAIRS):
    return property_search(strategy, holds, examples=examples, seed=7, encoding="test", reads=reads)


def test_instances_are_counted_by_the_parts_read():
    """Only a is read, and a takes 4 values: at most 4 distinct instances, and the bound says in what; without the
    declaration the same draws count many more."""
    declared = _search(lambda x: x[0] >= 0, AB)
    undeclared = _search(lambda x: x[0] >= 0)
    assert declared.statistics["tried"] == undeclared.statistics["tried"] == 60
    assert declared.statistics["distinct"] <= 4 < undeclared.statistics["distinct"]
    assert declared.statistics["distinct_in"] == "a" and " distinct in a (what the property reads)" in declared.bound


@pytest.mark.parametrize("use", [
    lambda b: b + 1, lambda b: 1 + b, lambda b: b == 3, lambda b: 3 == b, lambda b: b < 2, lambda b: bool(b),
    lambda b: hash(b), lambda b: len(b), lambda b: list(b), lambda b: b[0], lambda b: 1 in b, lambda b: b.real,
    lambda b: isinstance(b, int), lambda b: np.asarray(b) + 1, lambda b: f"{b}", lambda b: {b: 1},
    lambda b: [1] == [b], lambda b: max(b, 1), lambda b: -b, lambda b: int(b), lambda b: b(),
], ids=["add", "radd", "eq", "req", "lt", "bool", "hash", "len", "iter", "item", "in", "attr", "isinstance", "numpy",
        "format", "dict-key", "in-list-eq", "max", "neg", "int", "call"])
def test_a_property_using_an_undeclared_part_is_an_error(use):
    """Every way of using the part b, declared unread, stops the search: the declaration cannot be wrong silently."""
    with pytest.raises(UndeclaredRead, match=r"'b'"):
        _search(lambda x: (use(x[1]), True)[1], AB)


def test_a_use_the_property_swallows_is_still_an_error():
    def holds(x):
        try:
            return x[1] > 5
        except Exception:  # noqa: BLE001 - the property hides the failure; the search must not
            return True

    with pytest.raises(UndeclaredRead, match=r"b \(__gt__\)"):
        _search(holds, AB)


def test_passing_a_part_along_or_printing_it_is_not_a_read():
    def holds(x):
        a, b = x  # unpacking, storing, repr: nothing of b is used
        kept = (a, b)
        return repr(kept) != "" and kept[0] >= 0

    assert _search(holds, AB).status == "none-up-to-bound"


def test_a_refuted_search_shrinks_and_reports_the_whole_instance():
    """The witness is the instance drawn (both parts), shrunk; the property only sees what it reads."""
    r = _search(lambda x: x[0] < 2, AB)
    assert r.found and r.witness == (2, 0)


def test_read_parts_refuses_a_declaration_that_says_nothing():
    with pytest.raises(ValueError, match="repeat"):
        ReadParts(("a", "a"), read=("a",))
    with pytest.raises(ValueError, match="at least one"):
        ReadParts(("a", "b"), read=("c",))
    with pytest.raises(ValueError, match="at least one"):
        ReadParts(("a", "b"), read=())
    with pytest.raises(ValueError, match="declare nothing"):
        ReadParts(("a", "b"), read=("b", "a"))
    with pytest.raises(TypeError, match="not a tuple of 2 parts"):
        AB.projection((1, 2, 3))
    assert ReadParts(("chain", "p", "S", "δ"), read=("δ", "chain", "S")).what == "chain, S and δ"


def test_the_audit_finds_a_counted_part_never_read_and_changes_nothing():
    """Undeclared, b is counted and never read: found. Declared, or read, it is not. The audited search's result,
    counts and bound are those of the same search outside the audit."""
    plain = _search(lambda x: x[0] >= 0)
    with auditing_reads(5) as record:
        audited = _search(lambda x: x[0] >= 0)
        _search(lambda x: x[0] >= 0, AB)
        _search(lambda x: x[0] + x[1] >= 0)
        _search(lambda x: x >= 0, strategy=st.integers())  # not a tuple: nothing to audit
        property_search(PAIRS, lambda x: x[0] >= 0, examples=20, seed=1, encoding="projection", reads=("a", lambda x: x[0]))
    assert (audited.bound, audited.statistics) == (plain.bound, plain.statistics)
    assert record.findings == [{"encoding": "test", "audited": 5, "parts": ["part 1 of 2", "part 2 of 2"],
                                "counted_never_used": ["part 2 of 2"]}]
    assert record.audited == 3
    assert record.not_audited == [{"encoding": "test", "why": "its instances are int, neither tuples of parts nor "
                                                              "dataclasses"},
                                  {"encoding": "projection", "why": "it counts by a declared projection (argued, not "
                                                                    "checked)"}]


def test_the_audit_sees_a_declared_part_that_is_never_read():
    """Declaring b read when the property never reads it is caught too; a part read only through the premise
    (VACUOUS) counts as read."""
    from privclaims.counterexamples.property_search import VACUOUS

    both = ReadParts(("a", "b", "c"), read=("a", "b"))
    triples = st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3))
    with auditing_reads(5) as record:
        _search(lambda x: x[0] >= 0, both, strategy=triples)
        property_search(triples, lambda x: VACUOUS if x[1] == 9 else x[0] >= 0, examples=30, seed=1,
                        encoding="premise", premise="b is not 9", reads=both)
    assert [f["counted_never_used"] for f in record.findings] == [["b"]]


@dataclasses.dataclass(frozen=True)
class _Drawn:
    a: int
    b: int
    c: int
    cache: dict = dataclasses.field(default_factory=dict, compare=False)

    def read_a(self) -> int:
        return self.cache.setdefault("a", self.a)  # a cache the run fills: the audit hides a field before it is


def test_the_audit_sees_a_dataclass_field_never_read_and_not_a_constant_one():
    """Fields of a dataclass instance are audited too: b varies and is never read (found); c is drawn constant (it
    inflates no count: not found); the cache is not compared (not counted: not audited)."""
    drawn = st.builds(_Drawn, a=st.integers(0, 3), b=st.integers(0, 9), c=st.just(1))
    with auditing_reads(5) as record:
        _search(lambda x: x.read_a() >= 0, strategy=drawn)
    assert [(f["parts"], f["counted_never_used"]) for f in record.findings] == [(["a", "b", "c"], ["b"])]


def test_unread_markers_name_their_part_and_record_uses():
    u = Unread("p")
    assert repr(u) == "<unread p>" and ReadParts.touched((u,)) == []
    with pytest.raises(UndeclaredRead):
        u.anything
    assert ReadParts.touched((1, u)) == ["p (attribute anything)"]


def test_the_read_audit_command_runs_claims_and_writes_its_record(tmp_path, capsys):
    """The command runs the named claims under the audit and reports what it audited (dp.thm2 declares its reads:
    one search audited, nothing found, exit 0)."""
    import json

    from privclaims.counterexamples.read_audit import main

    out = tmp_path / "audit.json"
    assert main(["--claim", "dp.thm2", "--quick", "--workers", "1", "--first", "3", "--json", str(out)]) == 0
    record = json.loads(out.read_text())
    assert (record["claims"], record["audited"], record["findings"]) == (["dp.thm2"], 1, [])
    assert "1 searches audited (first 3 instances each), 0 not audited" in capsys.readouterr().out
