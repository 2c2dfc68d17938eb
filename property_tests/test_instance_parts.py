"""A search counts instances by what its property reads, and the declaration is checked (counterexamples/
instance_parts.py: the declaration, its check in property_search (``reads=ReadParts``), the audit ``auditing_reads``)."""

from __future__ import annotations

import dataclasses
import math
import os

import numpy as np
import pytest
from hypothesis import strategies as st

from privclaims.counterexamples.instance_parts import ReadParts, UndeclaredRead, Unread, auditing_reads
from privclaims.counterexamples.property_search import property_search

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


def _setitem(b):
    b[0] = 1


def _delitem(b):
    del b[0]


def _delattr(b):
    del b.a


def _with(b):
    with b:
        pass


@pytest.mark.parametrize("use", [_setitem, _delitem, _delattr, _with, lambda b: divmod(b, 2), lambda b: b << 1,
                                 lambda b: b @ b, lambda b: math.trunc(b), lambda b: math.floor(b),
                                 lambda b: complex(b), lambda b: os.fspath(b), lambda b: b >> 1,
                                 lambda b: divmod(2, b), lambda b: math.ceil(b), lambda b: bytes(b)],
                         ids=["setitem", "delitem", "delattr", "with", "divmod", "lshift", "matmul", "trunc", "floor",
                              "complex", "fspath", "rshift", "rdivmod", "ceil", "bytes"])
def test_a_use_that_raises_a_type_error_is_recorded_too(use):
    """Uses Python turns into a TypeError when the class lacks the method: recorded, even when swallowed."""
    def holds(x):
        try:
            use(x[1])
        except TypeError:
            pass
        return True

    with pytest.raises(UndeclaredRead, match=r"'b'|b \("):
        _search(holds, AB)


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


def test_instances_tried_while_shrinking_are_masked_too():
    """After the first counterexample Hypothesis only shrinks; the property still sees markers: a use of b on a
    shrinking candidate is an error like one on a generated instance."""
    state = {"failed": False}

    def holds(x):
        if state["failed"]:
            x[1] + 0  # b is used only once shrinking has begun
        if x[0] >= 2:
            state["failed"] = True
            return False
        return True

    with pytest.raises(BaseException) as raised:  # Hypothesis groups it with the counterexample found before
        _search(holds, AB)
    errors = [raised.value]
    while errors and not isinstance(errors[0], UndeclaredRead):
        e = errors.pop(0)
        errors += list(getattr(e, "exceptions", ()))
    assert errors and "'b'" in str(errors[0])


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


def test_the_maskit_strategy_draws_only_the_parts_a_search_reads():
    """``instances(reads=R)`` draws the chain and the parts R reads; the others are None (the search hands a marker in
    their place), so a search's budget goes to what its property reads."""
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    seen = []
    for read, drawn in ((("chain", "S", "δ"), (False, True, True)), (("chain", "p"), (True, False, False)),
                        (("chain",), (False, False, False))):
        reads = ReadParts(INSTANCE_PARTS, read=read)
        res = property_search(instances(max_n=3, max_T=3, reads=reads),
                              lambda inst: seen.append(inst[0]) is None, examples=30, seed=4, encoding="e", reads=reads)
        assert res.exhausted and res.statistics["distinct"] > 20
        raw = property_search(instances(max_n=3, max_T=3, reads=reads), lambda inst: seen.append(inst) is None,
                              examples=30, seed=4, encoding="e")  # undeclared: the property sees the parts as drawn
        insts = [x for x in seen if isinstance(x, tuple)]
        assert raw.exhausted and len(insts) == 30
        assert all([x[i] is not None for i in (1, 2, 3)] == list(drawn) for x in insts), read
        seen.clear()
    with pytest.raises(ValueError, match="parts"):
        property_search(instances(reads=ReadParts(("chain", "q", "S", "δ"), read=("chain",))), lambda inst: True,
                        examples=5, seed=1, encoding="e")


def test_the_weak_generalisation_strategy_draws_lambda_and_delta_only_when_read():
    from privclaims.counterexamples import maskit_strategies as ms

    for read in (("M'", "λ"), ("M'", "δ"), ("M'", "truth", "λ")):
        seen = []
        property_search(ms.weak_generalisations(reads=ReadParts(ms.WEAK_GENERALISATION_PARTS, read=read)),
                        lambda inst: seen.append(inst) is None, examples=20, seed=3, encoding="e")
        assert len(seen) == 20
        for x in seen:
            parts = dict(zip(ms.WEAK_GENERALISATION_PARTS, x))
            assert parts["M'"] is not None and parts["truth"] is not None
            assert all((parts[n] is None) == (n not in read) for n in ("λ", "δ"))
    with pytest.raises(ValueError, match="parts"):
        property_search(ms.weak_generalisations(reads=ReadParts(ms.INSTANCE_PARTS, read=("chain",))), lambda inst: True,
                        examples=5, seed=1, encoding="e")


@pytest.mark.parametrize("which", ["dominating_pairs", "single_raises"])
def test_the_pair_strategies_draw_s_and_delta_only_when_read(which):
    from privclaims.counterexamples import maskit_strategies as ms

    strategy, names = {"dominating_pairs": (ms.dominating_pairs, ms.DOMINATING_PAIR_PARTS),
                       "single_raises": (ms.single_raises, ms.SINGLE_RAISE_PARTS)}[which]
    for read in (("chain", "p", "q"), ("chain", "p", "q", "S")):
        seen = []
        property_search(strategy(reads=ReadParts(names, read=read)), lambda inst: seen.append(inst) is None,
                        examples=20, seed=3, encoding="e")
        assert len(seen) == 20
        for x in seen:
            parts = dict(zip(names, x))
            assert all(parts[n] is not None for n in names if n in read or n in ("chain", "p", "q", "(t', i)"))
            assert all(parts[n] is None for n in ("S", "δ") if n in names and n not in read)
    with pytest.raises(ValueError, match="parts"):
        property_search(strategy(reads=ReadParts(ms.INSTANCE_PARTS, read=("chain",))), lambda inst: True,
                        examples=5, seed=1, encoding="e")


def test_the_audit_finds_a_counted_part_never_read_and_changes_nothing():
    """Undeclared, b is counted and never read: found. Declared, or read, it is not. The audited search's result,
    counts and bound are those of the same search outside the audit."""
    plain = _search(lambda x: x[0] >= 0)
    with auditing_reads(5) as record:
        audited = _search(lambda x: x[0] >= 0)
        _search(lambda x: x[0] >= 0, AB)
        _search(lambda x: x[0] + x[1] >= 0)
        _search(lambda x: x >= 0, strategy=st.integers())  # not a tuple: nothing to audit
        property_search(PAIRS, lambda x: x[0] >= 0, examples=20, seed=1, encoding="projection",
                        reads=("a", lambda x: x[0]))
    assert (audited.bound, audited.statistics) == (plain.bound, plain.statistics)
    assert record.findings == [{"encoding": "test", "audited": 5, "looked": 5, "parts": ["part 1 of 2", "part 2 of 2"],
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


def test_the_audit_counts_a_part_used_on_some_instances_only_as_read():
    """b is used where a is even (one search) or odd (the other): on some audited instances, not all; a part is
    reported only when no audited instance used it."""
    with auditing_reads(15) as record:
        _search(lambda x: x[1] >= 0 if x[0] % 2 == 0 else x[0] >= 0)
        _search(lambda x: x[1] >= 0 if x[0] % 2 == 1 else x[0] >= 0)
    assert record.audited == 2 and record.findings == []


def test_the_audit_skips_instances_outside_the_premise():
    """Where the premise fails the property returns before using b; the audit looks at instances that meet it
    (b used on each), so b is not reported."""
    from privclaims.counterexamples.property_search import VACUOUS

    with auditing_reads(15) as record:
        property_search(PAIRS, lambda x: VACUOUS if x[0] % 2 else x[0] + x[1] >= 0, examples=60, seed=7,
                        encoding="premise", premise="a is even")
    assert record.audited == 1 and record.findings == []


def test_a_part_only_the_premise_reads_is_read():
    """b decides only whether the premise holds (used where a is odd, which is then VACUOUS): declared unread it is
    an error, so the audit must not report it as never read."""
    from privclaims.counterexamples.property_search import VACUOUS

    holds = lambda x: VACUOUS if (x[0] % 2 and x[1] >= 0) else x[0] >= 0  # noqa: E731
    with pytest.raises(UndeclaredRead):
        property_search(PAIRS, holds, examples=60, seed=7, encoding="declared", premise="a even", reads=AB)
    with auditing_reads(15) as record:
        property_search(PAIRS, holds, examples=60, seed=7, encoding="premise", premise="a even")
    assert record.audited == 1 and record.findings == []


def test_the_audit_counts_a_changed_result_as_a_read():
    """type(b) is not a use the marker records, but it changes the result: b is read (not reported)."""
    with auditing_reads(5) as record:
        _search(lambda x: x[0] >= 0 and type(x[1]) is int)
    assert record.audited == 1 and record.findings == []


def test_the_audit_finds_a_declared_property_computing_otherwise_on_the_drawn_instance():
    """A property declaring b unread that branches on type(b) passes every masked instance, and the search with it;
    on the instances as drawn it fails. The audit reports it."""
    holds = lambda x: x[0] >= 0 and type(x[1]) is not int  # noqa: E731
    assert _search(holds, AB).status == "none-up-to-bound"
    with auditing_reads(5) as record:
        _search(holds, AB)
    assert record.findings == [{"encoding": "test", "audited": 5, "looked": 5, "parts": ["a", "b"],
                                "counted_never_used": [], "differs_on_the_drawn_instance": 5}]


def test_the_audit_counts_a_drawn_instance_that_raises_as_differing():
    """On the drawn instance the property raises where the masked one returned: a different result, found."""
    holds = lambda x: x[0] >= 0 if type(x[1]) is not int else [][0]  # noqa: E731
    with auditing_reads(5) as record:
        _search(holds, AB)
    assert [f.get("differs_on_the_drawn_instance") for f in record.findings] == [5]


def test_the_audit_reaches_its_first_instances_in_the_premise_past_those_outside_it():
    """The premise (a is 7) is rarely met; b is read only where it is. Instances outside the premise drawn first are
    looked at and do not use up the audit's N: it goes on to N that meet the premise, sees b read, and reports
    nothing. A difference on the drawn instance is counted over every instance looked at, and said so."""
    from privclaims.counterexamples.property_search import VACUOUS

    wide = st.tuples(st.integers(0, 10), st.integers(0, 10**6))
    with auditing_reads(3) as record:
        r = property_search(wide, lambda x: VACUOUS if x[0] != 7 else x[0] + x[1] >= 0, examples=200, seed=1,
                            encoding="rare", premise="a is 7")
    assert r.statistics["premise_met"] < r.statistics["tried"] // 4
    assert record.audited == 1 and record.findings == []
    with auditing_reads(3) as record:  # outside the premise the drawn b (an int) makes it hold: a difference
        property_search(wide, lambda x: (VACUOUS if type(x[1]) is not int else True) if x[0] != 7 else True,
                        examples=200, seed=1, encoding="rare", premise="a is 7", reads=AB)
    [f] = record.findings
    assert f["audited"] == 3 < f["looked"] and f["differs_on_the_drawn_instance"] == f["looked"] - 3


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


def _fake_claims(results):
    """read_audit's per-claim function replaced by ``results`` (claim -> its record), run in threads."""
    def audited_claim(claim_id, quick, first, project_dir):
        return results[claim_id]

    return audited_claim


@pytest.mark.parametrize("results, status, totals", [
    ({"a.x": {"findings": [], "audited": 2, "not_audited": []},
      "a.y": {"findings": [], "audited": 3, "not_audited": []}}, 0, (5, 0)),
    ({"a.x": {"findings": [{"claim": "a.x", "encoding": "e", "audited": 4, "parts": ["p", "q"],
                            "counted_never_used": ["q"]}], "audited": 1, "not_audited": []},
      "a.y": {"findings": [], "audited": 3, "not_audited": []}}, 1, (4, 1)),
    ({"a.x": {"findings": [], "audited": 0, "not_audited": [{"claim": "a.x", "encoding": "(the whole check)",
                                                              "error": True, "why": "its check ended error: x"}]},
      "a.y": {"findings": [], "audited": 3, "not_audited": []}}, 1, (3, 0)),
], ids=["clean", "finding", "errored-check"])
def test_the_read_audit_command_adds_up_every_claim_and_fails_on_a_finding(monkeypatch, tmp_path, results, status,
                                                                           totals):
    """The command's totals are over every claim run, and its status is 1 on a finding or a check in error."""
    import json
    from concurrent.futures import ThreadPoolExecutor
    from types import SimpleNamespace

    from privclaims.counterexamples import read_audit

    monkeypatch.setattr(read_audit, "audited_claim", _fake_claims(results))
    monkeypatch.setattr(read_audit, "ProcessPoolExecutor", lambda n, **kw: ThreadPoolExecutor(n))
    monkeypatch.setattr(read_audit, "_checked_claims", lambda project, selected: list(results))
    monkeypatch.setattr("privclaims.checks.project.papers", lambda: SimpleNamespace())
    out = tmp_path / "audit.json"
    assert read_audit.main(["--workers", "2", "--json", str(out)]) == status
    record = json.loads(out.read_text())
    assert (record["audited"], len(record["findings"])) == totals


@pytest.mark.parametrize("verdict, error", [("error", True), ("not-checked", False)])
def test_a_claim_whose_check_errored_or_was_skipped_is_listed(monkeypatch, verdict, error):
    """audited_claim itself lists a check that ended in error (error: True, which makes the command exit 1) or was
    skipped (listed only)."""
    from privclaims.checks import runner
    from privclaims.counterexamples.read_audit import audited_claim

    monkeypatch.setattr(runner, "run_one", lambda *a, **k: {"verdict": verdict, "evidence": {"reason": "r"}})
    one = audited_claim("dp.thm2", True, 3, None)
    assert [(f["encoding"], f["error"]) for f in one["not_audited"]] == [("(the whole check)", error)]


def test_the_read_audit_command_computes_claims_it_could_replay(tmp_path, monkeypatch):
    """With recorded outcomes to replay (a replayed check runs no search) the command still runs dp.thm2's search."""
    import json

    from privclaims.checks.outcome_memo import RECORD_ENV, REPLAY_ENV
    from privclaims.counterexamples.read_audit import main

    memo, out = tmp_path / "memo", tmp_path / "audit.json"
    memo.mkdir()
    from dataclasses import replace

    from privclaims.checks.project import papers
    from privclaims.checks.registry import Context
    from privclaims.checks.runner import run_one

    monkeypatch.setenv(RECORD_ENV, str(memo))
    run_one("dp.thm2", replace(Context(quick=True), data_dir=papers().data_dir()), papers())
    monkeypatch.delenv(RECORD_ENV)
    assert list(memo.iterdir())  # the outcome is there to replay
    monkeypatch.setenv(REPLAY_ENV, str(memo))
    assert main(["--claim", "dp.thm2", "--quick", "--workers", "1", "--first", "3", "--json", str(out)]) == 0
    assert json.loads(out.read_text())["audited"] == 1


def test_instances_counted_as_one_must_give_one_outcome():
    """A projection that merges instances the property tells apart is refused where it merges them (the count would
    call two tested instances one); one that merges only instances with the same outcome is accepted. The same holds for
    equal values: a property that is not a function of its instance is found where a value repeats."""
    from privclaims.counterexamples.property_search import VACUOUS, CountedAsOne

    def search(holds, reads, strategy):
        return property_search(strategy, holds, examples=60, seed=7, encoding="test", premise="b is 0", reads=reads)

    pairs = st.tuples(st.integers(0, 3), st.integers(0, 1))
    with pytest.raises(CountedAsOne, match=r"counts two instances as one \(a\) on which its property gave"):
        search(lambda x: VACUOUS if x[1] else True, ("a", lambda x: x[0]), pairs)  # b decides: it is read
    assert search(lambda x: VACUOUS if x[0] == 3 else True, ("a", lambda x: x[0]), pairs).status == "none-up-to-bound"
    with pytest.raises(CountedAsOne, match=r"gave True and False"):  # the counterexample itself is a merge checked
        property_search(st.tuples(st.just(0), st.integers(0, 1)), lambda x: x[1] == 0, examples=60, seed=7,
                        encoding="test", reads=("a", lambda x: x[0]))
    flips = iter(range(10**6))
    with pytest.raises(CountedAsOne, match=r"\(equal values\)"):
        search(lambda x: VACUOUS if next(flips) % 2 else True, None, st.integers(0, 50).map(lambda v: (v % 2, 0)))
