"""Hostile checks of a project of one's own: ways a check could get a confident or silently weakened verdict through
the ledger, each now refused (tiny projects written by :func:`property_tests.test_ledger_structure._row`)."""

from __future__ import annotations

from privclaims.checks.runner import drift
from property_tests.test_ledger_structure import _row


def test_a_checks_own_skipped_key_does_not_exempt_it_from_its_pin(tmp_path):
    # `skipped` marks a claim the runner skipped (data absent): such a row is never compared with its pin, is no
    # drift, and `pytest --privclaims` skips it. A check's evidence carrying it (a count of instances it skipped, or
    # the public querygen report's "skipped" list spread into the evidence) kept its verdict with no pin at all.
    body = '''
@claim("t.c", method="exact", rests_on=())
def c(ctx):
    return verified(checked=9, skipped=1)
'''
    row = _row(tmp_path, body)
    assert row["verdict"] == "error" and "'skipped'" in row["evidence"]["error"]
    assert row["pin"]["moved"] == ["not pinned"] and drift([row]) == [row]


PROPERTY = '''
from fractions import Fraction
from hypothesis import strategies as st
from privclaims import dp
from privclaims.ledger import property_verdict

def rr(p):
    return dp.mechanism({"yes": {"yes": p, "no": 1 - p}, "no": {"yes": 1 - p, "no": p}}, [("yes", "no")])

@claim("t.c", method="property", rests_on=())
def c(ctx):
    ps = st.integers(3, 9).map(lambda a: Fraction(a, 10))
    return property_verdict(ctx, "t.c", ps, HOLDS, examples=10, encoding="p = a/10", model=("rr", lambda p: [])).because(
        "the search found a p whose least ε is not 0")
'''


def test_a_property_returning_no_truth_value_is_an_error(tmp_path):
    # ε = 0 is false for every p != 1/2, but the property returned the report (always true) instead of its .holds:
    # the search could never fail, and the ledger said verified-bounded. A property that forgot its return (None)
    # refuted every instance: 'refuted', its witness inside the model. Both now raise TypeError (the check errs).
    for i, holds in enumerate(['lambda p: dp.check(rr(p), epsilon="0", notion="dp")',
                               'lambda p: [] if dp.check(rr(p), epsilon="0", notion="dp").dp.holds else ["breach"]',
                               'lambda p: None']):
        row = _row(tmp_path / str(i), PROPERTY.replace("HOLDS", holds))
        assert row["verdict"] == "error" and "not a truth value" in row["evidence"]["error"], (holds, row["verdict"])
    right = _row(tmp_path / "r", PROPERTY.replace("HOLDS", 'lambda p: dp.check(rr(p), epsilon="0", notion="dp").dp.holds'))
    assert right["verdict"] == "refuted"


def test_verified_bounded_without_a_bound_is_an_error(tmp_path):
    # A bounded verdict says what was searched; Outcome("verified-bounded", {}) or a blank bound said nothing and
    # was reported as verified-bounded ('no counterexample up to: see evidence').
    for i, ret in enumerate(['Outcome("verified-bounded", {})', 'verified_bounded(bound=" ")',
                             'by_part({"a": verified(), "b": Outcome("verified-bounded", {"n": 3})})']):
        parts = ', parts=(Part("a", "a"), Part("b", "b"))' if "by_part" in ret else ""
        body = (f'from privclaims.ledger import Outcome, verified_bounded\n@claim("t.c", method="property", '
                f'rests_on=(){parts})\ndef c(ctx):\n    return {ret}\n')
        row = _row(tmp_path / str(i), body)
        assert row["verdict"] == "error" and "without saying what was searched" in row["readings"][0]["why"], ret
    ok = _row(tmp_path / "ok", 'from privclaims.ledger import verified_bounded\n@claim("t.c", method="property", '
                               'rests_on=())\ndef c(ctx):\n    return verified_bounded(bound="n <= 4, all 31 instances")\n')
    assert ok["verdict"] == "verified-bounded"


def test_a_bound_given_as_a_number_is_named_in_the_error(tmp_path):
    # verified_bounded(bound=1000) was refused (a bound says in words what was searched) by an error that did not say
    # the bound was there, only of the wrong type: the message now names it.
    body = ('from privclaims.ledger import verified_bounded\n@claim("t.c", method="property", rests_on=())\n'
            'def c(ctx):\n    return verified_bounded(bound=1000)\n')
    why = _row(tmp_path / "n", body)["readings"][0]["why"]
    assert "without saying what was searched" in why and "its bound=1000 is int, not a text" in why, why
    why = _row(tmp_path / "s", body.replace("bound=1000", 'bound=" "'))["readings"][0]["why"]
    assert "without saying what was searched" in why and "not a text" not in why, why


def test_two_projects_whose_paths_differ_only_in_punctuation_run_their_own_checks(tmp_path):
    # A project's files were imported as package 'privclaims_project_' + its path with every non-alphanumeric
    # character made '_' (the last 60): my-draft and its copy my_draft (or two long paths ending alike) were one
    # package, so in one process (privclaims.ledger.run on both, a notebook, pytest --privclaims) the second
    # project ran the first one's checks - reading the first one's instances - under its own claim IDs.
    body = '@claim("t.c", method="exact", rests_on=())\ndef c(ctx):\n    return verified(version={v})\n'
    first = _row(tmp_path / "my-draft", body.format(v=1))
    second = _row(tmp_path / "my_draft", body.format(v=2))
    assert (first["evidence"]["version"], second["evidence"]["version"]) == (1, 2)


def test_a_check_without_rests_on_is_held_to_the_structural_rules(tmp_path):
    # The structural rules (a refutation's witness validated against the documents' model, a reproduction's parts on
    # real data) applied only to claims declaring rests_on; a check of one's own that omitted it refuted with any
    # witness at all: 'refuted', 'witness found: it is false'.
    row = _row(tmp_path, '@claim("t.c", method="exact")\ndef c(ctx):\n    return refuted(witness=1).because("false")\n')
    assert row["verdict"] == "error" and "not validated against the documents' model" in row["readings"][0]["why"]
    body = ('@claim("t.c", method="exact")\ndef c(ctx):\n    return refuted(witness=1, model=in_model("the model of '
            'doc.txt §1")).because("false")\n')
    assert _row(tmp_path / "ok", body)["verdict"] == "refuted"


def test_what_a_claim_owes_is_refused_at_load_not_mid_run(tmp_path):
    # A NotApplicable naming a reading the definition does not have, or excusing every reading, raised ValueError
    # inside the run (headline([]) for the latter): the ledger died with a traceback and no claim's verdict reported.
    import pytest

    from privclaims.checks.project import ProjectError
    from property_tests.test_ledger_structure import CHECKS, _project

    na = ('NotApplicable("split", "per pair", "x", (Q,)), NotApplicable("split", "{other}", "x", (Q,))')
    body = ('from privclaims.ledger import NotApplicable, Quote\nQ = Quote("doc.txt", "Def. 1", "A split exists for '
            'every pair of neighbours")\n@claim("t.c", method="exact", rests_on=("split",), not_applicable=(' + na +
            '))\ndef c(ctx):\n    return verified()\n')
    for i, (other, says) in enumerate([("per input", "excuses every combination"), ("per-input", "do not have")]):
        (tmp_path / str(i)).mkdir()
        with pytest.raises(ProjectError, match=f"t.c .*{says}"):
            _project(tmp_path / str(i), CHECKS + body.format(other=other), ["t.c"])


def test_one_outcome_labelled_with_each_reading_is_still_one_outcome(tmp_path):
    # An outcome computed once and given for every combination is an error unless same_under says why the readings
    # cannot change it; adding the reading's name to each copy's evidence (reading=k.key, reading=k, or a chosen
    # reading's name) made the copies differ, so the reading never computed passed as decided: 'verified' for a claim
    # the other reading refutes. Values that only name their reading no longer tell outcomes apart.
    for i, label in enumerate(["k.key", "k", 'k["split"]']):
        for keyed in ("k", "k.key"):  # checked by by_reading (Combination keys) and by the runner (names)
            body = (f'@claim("t.c", method="exact", rests_on=("split",))\ndef c(ctx):\n    v = decide(1, "<=", 2)\n'
                    f'    return by_reading({{{keyed}: verified(v=v, reading={label}) for k in ctx.combinations}})\n')
            row = _row(tmp_path / f"{i}{len(keyed)}", "from privclaims.ledger import decide\n" + body)
            assert row["verdict"] == "error" and "serves several readings of ['split']" in (
                row["readings"][0].get("why", "") + str(row["evidence"])), (label, keyed, row["verdict"])
    body = ('@claim("t.c", method="exact", rests_on=("split",))\ndef c(ctx):\n    return by_reading({k: verified('
            'v=len(k.key), reading=k.key) for k in ctx.combinations})\n')
    assert _row(tmp_path / "per", body)["verdict"] == "verified"  # computed per reading: 8 and 9 characters


def test_a_model_saying_valid_while_listing_problems_validates_nothing(tmp_path):
    # in_model sets valid = not problems; a hand-made model dict {"valid": True, "problems": [...]} passed the
    # structural rule, so a witness outside the documents' model refuted the claim (found by helper-79).
    body = ('@claim("t.c", method="exact", rests_on=())\ndef c(ctx):\n    return refuted(witness=1, model={"name": '
            '"the model of doc.txt §1", "valid": True, "problems": ["p is 3/2, not a probability"]}).because("false")\n')
    row = _row(tmp_path, body)
    assert row["verdict"] == "error" and "not validated against the documents' model" in row["readings"][0]["why"]


def test_compare_exact_never_equates_a_truth_value_with_a_number():
    # Python's 1 == True made compare_exact(1, x == y) 'verified' when the comparison came out true (helper-79).
    from fractions import Fraction

    from privclaims.checks.verdict import compare_all, compare_exact

    assert compare_exact(1, True).verdict == "discrepancy" and compare_exact(0, False).verdict == "discrepancy"
    assert compare_exact(True, True).verdict == "verified" and compare_exact(1, Fraction(1)).verdict == "verified"
    assert compare_all({"a": (1, 1), "b": (1, True)}).evidence["differ"] == {"b": {"paper": 1, "computed": True}}


def test_same_value_reads_numpy_and_sympy_truth_values_as_truth_values():
    # np.True_ and sympy.true are no Python bool: same_value reported True vs np.True_ (a numpy comparison) as a
    # discrepancy and verified 1 against np.True_; a paper's True against a computed 1 was verified (helper-80), and
    # a list of comparisons [True, False] verified the paper's [1, 0].
    import numpy as np
    import sympy

    from privclaims.checks.verdict import compare_exact, same_value

    assert same_value(True, np.True_) and same_value(np.False_, False) and same_value(True, sympy.true)
    assert not same_value(1, np.True_) and not same_value(True, 1) and not same_value(sympy.false, 0)
    assert not same_value([1, 0], [True, False]) and not same_value({"a": True}, {"a": 1}) and same_value((1, 2), (1, 2))
    assert compare_exact(True, 1).verdict == "discrepancy" and compare_exact(False, 0).verdict == "discrepancy"


def test_a_number_is_no_truth_value_but_a_container_with_its_own_is(tmp_path):
    # A property returning a count (1: one breach) is no truth value; a report class that is a tuple or list but
    # defines its own __bool__ (a NamedTuple with __bool__ returning .holds) says by itself whether it holds.
    from fractions import Fraction
    from typing import NamedTuple

    from privclaims.counterexamples.property_search import is_truth_value

    class Report(NamedTuple):
        holds: bool
        detail: str

        def __bool__(self) -> bool:
            return self.holds

    assert not any(is_truth_value(x) for x in (1, 0, Fraction(1), 1.0, [], [True], (True,), None))
    assert is_truth_value(Report(False, "p = 3/10")) and is_truth_value(True)


def test_every_claim_is_held_to_the_reproduction_rule(tmp_path):
    # ea65b69 holds a check without rests_on to every structural rule, the reproduction's parts too.
    row = _row(tmp_path, '@claim("t.c", method="exact")\ndef c(ctx):\n    return reproduced(shape="rises")\n')
    assert row["verdict"] == "error" and "a reproduction lists its parts" in row["readings"][0]["why"]


def test_a_reading_verified_bounded_without_a_bound_is_an_error(tmp_path):
    # by_reading: each reading's verified-bounded outcome states its bound (its own evidence or the claim's).
    body = ('from privclaims.ledger import Outcome\n@claim("t.c", method="property", rests_on=("split",))\ndef c(ctx):\n'
            '    return by_reading({k: Outcome("verified-bounded", {"n": len(k.key)}) for k in ctx.combinations})\n')
    row = _row(tmp_path / "no", body)
    assert row["verdict"] == "error" and "without saying what was searched" in row["readings"][0]["why"]
    shared = body.replace('for k in ctx.combinations})', 'for k in ctx.combinations}, bound="n <= 3")')
    assert _row(tmp_path / "shared", shared)["verdict"] == "verified-bounded"


def test_two_projects_in_folders_of_one_name_run_their_own_checks(tmp_path):
    # The package carries a digest of the whole path, not of the folder's name: two folders named draft in
    # different places are two projects in one process.
    body = '@claim("t.c", method="exact", rests_on=())\ndef c(ctx):\n    return verified(version={v})\n'
    (tmp_path / "a").mkdir()
    first = _row(tmp_path / "a" / "draft", body.format(v=1))
    (tmp_path / "b").mkdir()
    second = _row(tmp_path / "b" / "draft", body.format(v=2))
    assert (first["evidence"]["version"], second["evidence"]["version"]) == (1, 2)


def test_a_reading_name_used_as_a_key_is_a_label_too(tmp_path):
    # by_reading({k: verified(v=v, result={k["split"]: True}) ...}) - one outcome, its readings told apart only by a
    # dict key naming the reading - came out 'verified' (found by helper-80); the key is read as "this reading".
    body = ('from privclaims.ledger import decide\n@claim("t.c", method="exact", rests_on=("split",))\ndef c(ctx):\n'
            '    v = decide(1, "<=", 2)\n    return by_reading({k: verified(v=v, result={k["split"]: True}) '
            'for k in ctx.combinations})\n')
    row = _row(tmp_path, body)
    assert row["verdict"] == "error" and "serves several readings of ['split']" in (
        row["readings"][0].get("why", "") + str(row["evidence"]))
