"""The public ``privclaims`` API and CLI (issue 14): per subcommand a true case, a false case with its
witness, and bad input (exit 2, one clear line, no traceback); every result's ``as_json`` dumps."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from privclaims import ads, count, dp, maskit, querygen, zealous
from privclaims._common import Floats, decimal
from privclaims.cli import main
from privclaims.theory.errors import InvalidInput

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out = capsys.readouterr()
    return rc, out.out, out.err


def bad(capsys, *argv: str, says: str) -> None:
    rc, out, err = run(capsys, *argv)
    assert rc == 2, (rc, out, err)
    assert says in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, err


# ------------------------------------------------------------------------------------------ dp


def test_dp_check_true_false_bad(capsys, tmp_path):
    rr = EX / "randomized_response.json"
    rc, out, _ = run(capsys, "dp", "check", rr, "--epsilon", "ln(3)", "--delta", "1/10")
    assert rc == 0 and "least ε = ln(3)" in out
    rc, out, _ = run(capsys, "dp", "check", rr, "--epsilon", "ln(2)", "--delta", "1/10")
    assert rc == 1 and "witness: inputs 'yes' and 'no', output 'yes'" in out and "least δ = 1/4" in out
    rc, out, _ = run(capsys, "dp", "check", rr, "--epsilon", "1", "--notion", "indist", "--delta", "1/10", "--json")
    j = json.loads(out)
    assert rc == 0 and j["verdicts"][0]["least"] == "3/4 - e^(1)*1/4"
    bad(capsys, "dp", "check", tmp_path / "none.json", "--epsilon", "1", says="does not exist")
    (tmp_path / "m.json").write_text(json.dumps({"inputs": {"a": {"x": "1/2", "y": "1/3"}, "b": {"x": "1"}},
                                                 "neighbours": [["a", "b"]]}))
    bad(capsys, "dp", "check", tmp_path / "m.json", "--epsilon", "1", says="sum to 5/6, not 1")
    bad(capsys, "dp", "check", rr, "--epsilon", "1", "--notion", "pdp", says="needs --delta")


def test_main_parses_alike_with_its_one_parser_and_with_fresh_ones(capsys):
    """main builds its parser once per process (issue 25): after usage errors, --help, --json errors and good
    commands, the shared parser reads every command line as a freshly built one does, and main answers the same."""
    import argparse

    from privclaims import cli

    rr = str(EX / "randomized_response.json")
    ads_inst, chain = str(EX / "ads_coverage.json"), str(EX / "chain4.json")
    count = ["count", "run", "--users", "12", "--dropout", "1/6", "--epsilon", "1/2", "--delta", "1/100"]
    lines = [["dp", "check", rr, "--epsilon", "ln(3)", "--delta", "1/10"], ["dp", "check", rr, "--epsilon", "nope"],
             ["dp", "check", "--help"], ["dp", "check", rr, "--epsilon", "1", "--notion", "pdp", "--json"],
             ["nosuch"], ["maskit", "nosuch"], ["dp", "check", rr, "--epsilon", "ln(2)", "--notion", "dp", "--json"],
             ["zealous", "params", "--help"], ["ads", "greedy", ads_inst, "--k", "1", "--optimum"],
             ["ads", "greedy", ads_inst, "--k", "1"], [*count, "--drop", "2"], count, [*count, "--users", "x"],
             ["maskit", "check", chain, "--sensitive", "hospital", "--delta", "1/10", "--json"],
             ["maskit", "check", chain, "--sensitive", "prison", "--delta", "1/10"],
             ["dp", "check", rr, "--epsilon", "ln(3)", "--delta", "1/10"]]

    def parsed(ap: argparse.ArgumentParser, argv: list[str]) -> object:
        try:
            return vars(ap.parse_args(argv))
        except SystemExit as e:
            return ("exit", e.code)

    shared = []
    for argv in lines:
        shared.append((main(argv), capsys.readouterr()))
        assert parsed(cli._the_parser(), argv) == parsed(cli.build_parser(), argv), argv
        capsys.readouterr()
    cli._the_parser.cache_clear()
    fresh = []
    for argv in lines:
        fresh.append((main(argv), capsys.readouterr()))
        cli._the_parser.cache_clear()
    assert [rc for rc, _ in shared] == [rc for rc, _ in fresh]
    assert [rc for rc, _ in shared][:8] == [0, 2, 0, 2, 2, 2, 1, 0] and 2 in [rc for rc, _ in shared][8:]
    assert [(o.out, o.err) for _, o in shared] == [(o.out, o.err) for _, o in fresh]


def test_json_numbers_are_the_decimals_written(capsys, tmp_path):
    """Issue 22: randomized response written as 0.51 / 0.49 at ε = ln(51/49) FAILED with --floats (read as
    binary doubles, then "every value was exact already") and HELD written as strings. A JSON number is
    the decimal written: the same answer with or without --floats, and as strings."""
    eps = "ln(51/49)"
    answers = []
    for fmt in ("numbers", "strings"):
        v = {"numbers": (0.51, 0.49), "strings": ("0.51", "0.49")}[fmt]
        f = tmp_path / f"{fmt}.json"
        f.write_text(json.dumps({"inputs": {"a": {"x": v[0], "y": v[1]}, "b": {"x": v[1], "y": v[0]}},
                                 "neighbours": [["a", "b"]]}))
        for extra in ([], ["--floats"]):
            rc, out, _ = run(capsys, "dp", "check", f, "--epsilon", eps, "--notion", "dp", *extra, "--json")
            doc = json.loads(out)
            assert rc == 0 and doc["verdicts"][0]["least"] == "ln(51/49)", (fmt, extra, doc)
            if extra:
                assert doc["floats"]["largest_change"]["exact"] == "0"
            answers.append(doc["verdicts"])
    assert all(a == answers[0] for a in answers)
    m = dp.load_mechanism(tmp_path / "numbers.json")
    assert m.dist["a"]["x"] == Fraction(51, 100)
    with pytest.raises(InvalidInput, match="float 0.1"):  # a Python float given to the API is binary: refused
        dp.load_mechanism({"inputs": {"a": {"x": 0.1, "y": "9/10"}, "b": {"x": "1"}}, "neighbours": [["a", "b"]]})
    fl = Floats(True)
    m = dp.load_mechanism({"inputs": {"a": {"x": 0.1, "y": 0.9}, "b": {"x": "1"}}, "neighbours": [["a", "b"]]}, floats=fl)
    assert m.dist["a"]["x"] == Fraction(1, 10) and fl.largest_change == 0


def test_floats_renormalise_numbers_within_rounding(capsys, tmp_path):
    f = tmp_path / "f.json"
    f.write_text('{"inputs": {"a": {"x": 0.3333333333, "y": 0.3333333333, "z": 0.3333333333}, "b": {"x": "1"}},'
                 ' "neighbours": [["a", "b"]]}')
    bad(capsys, "dp", "check", f, "--epsilon", "ln(9)", says="sum to 9999999999/10000000000, not 1 (--floats renormalises")
    rc, out, _ = run(capsys, "dp", "check", f, "--epsilon", "ln(9)", "--notion", "dp", "--floats")
    assert rc == 1 and "--floats: distributions renormalised" in out and "largest change was 3.33333e-11 (at inputs[\"a\"][\"x\"])" in out


# ------------------------------------------------------------------------------------------ maskit


def test_maskit_check_true_false_bad(capsys, tmp_path):
    chain = EX / "chain4.json"
    rc, out, _ = run(capsys, "maskit", "check", chain, "--sensitive", "hospital", "--delta", "1/10")
    assert rc == 1 and "Witness: after the output [⊥, ⊥, ⊥]" in out and "57/64" in out
    (tmp_path / "p.json").write_text(json.dumps({"p": [["1/4", "3/4", "1", "1"], ["1"] * 4, ["1"] * 4]}))
    rc, out, _ = run(capsys, "maskit", "check", chain, "--sensitive", "hospital", "--delta", "1/10",
                     "--policy", tmp_path / "p.json")
    assert rc == 0 and "is δ-private" in out and "7/72" in out
    bad(capsys, "maskit", "check", chain, "--sensitive", "prison", "--delta", "1/10", says="unknown context 'prison'")
    bad(capsys, "maskit", "check", chain, "--sensitive", "hospital", "--delta", "2", says="must lie in (0, 1)")
    d = json.loads((EX / "chain4.json").read_text())
    d["steps"][0][0] = ["1/2", "1/2", "1/2", "0"]
    (tmp_path / "c.json").write_text(json.dumps(d))
    bad(capsys, "maskit", "check", tmp_path / "c.json", "--sensitive", "hospital", "--delta", "1/10",
        says="sum to 3/2, not 1")


def test_maskit_breach_output_is_a_stream():
    c = maskit.load_chain(EX / "chain4.json")
    r = maskit.check(c, ["hospital"], "1/10")
    assert r.breach.stream.count(maskit.BOT) + r.breach.stream.count(maskit.ANY) == c.T
    assert r.breach.posterior - r.breach.prior == r.max_gain
    json.dumps(r.as_json())


def _hard_chain(tmp_path) -> Path:
    p = tmp_path / "hard.json"
    p.write_text(json.dumps({"contexts": ["home", "hospital"], "initial": ["1/2", "1/2"],
                             "steps": [[["1", "0"], ["0", "1"]]]}))
    return p


def test_maskit_search_true_false_bad(capsys, tmp_path):
    rc, out, _ = run(capsys, "maskit", "search", EX / "chain4.json", "--sensitive", "hospital", "--delta", "1/10")
    assert rc == 0 and "searched policy is δ-private" in out
    rc, out, _ = run(capsys, "maskit", "search", _hard_chain(tmp_path), "--sensitive", "hospital", "--delta", "1/10",
                     "--grid", "1")
    assert rc == 1 and "No context can be released" in out
    bad(capsys, "maskit", "search", EX / "chain4.json", "--sensitive", "hospital", "--delta", "1/10", "--grid", "0",
        says="grid = 0")


def test_maskit_filter_true_false_bad(capsys, tmp_path):
    args = [EX / "chain4.json", EX / "streams.csv", "--sensitive", "hospital", "--delta", "1/10"]
    rc, out, _ = run(capsys, "maskit", "filter", *args, "--check", "simulatable")
    assert rc == 0 and "home, hospital, hospital  ->  ⊥, ⊥, ⊥" in out
    rc, out, _ = run(capsys, "maskit", "filter", *args, "--check", "hybrid", "--json")
    assert rc == 0 and json.loads(out)["check"].startswith("hybrid (picked")
    (tmp_path / "p.json").write_text(json.dumps({"p": {"hospital": "1"}}))
    rc, out, _ = run(capsys, "maskit", "filter", *args, "--check", "probabilistic", "--policy", tmp_path / "p.json")
    assert rc == 1 and "is NOT δ-private" in out and "Witness" in out
    (tmp_path / "s.csv").write_text("home,office\n")
    bad(capsys, "maskit", "filter", EX / "chain4.json", tmp_path / "s.csv", "--sensitive", "hospital",
        "--delta", "1/10", says="s.csv:1: stream of length 2, the chain has T = 3")


# ------------------------------------------------------------------------------------------ ads


def test_ads_greedy_true_false_bad(capsys, tmp_path):
    inst = EX / "ads_coverage.json"
    rc, out, _ = run(capsys, "ads", "greedy", inst, "--k", "3", "--optimum")
    assert rc == 0 and "Greedy is optimal" in out
    rc, out, _ = run(capsys, "ads", "greedy", inst, "--k", "2", "--optimum")
    assert rc == 1 and "Witness: Greedy is NOT optimal here: coffee, dinner earns 1/5 more" in out
    assert "guarantee 1 - (1 - 1/k)^k = 3/4" in out and "met." in out
    bad(capsys, "ads", "greedy", inst, "--k", "7", says="k")
    d = json.loads(inst.read_text())
    d["ads"] = [{"name": f"a{i}", "ctr": ["1", "0", "0", "0"], "payment": "1"} for i in range(40)]
    (tmp_path / "big.json").write_text(json.dumps(d))
    bad(capsys, "ads", "greedy", tmp_path / "big.json", "--k", "20", "--optimum", says="drop --optimum")


# ------------------------------------------------------------------------------------------ count


def test_count_run_true_false_bad(capsys):
    base = ["count", "run", "--users", "12", "--dropout", "1/6", "--epsilon", "1/2", "--delta", "1/100"]
    rc, out, _ = run(capsys, *base, "--bits", "256", "--drop", "2")
    assert rc == 0 and "Released" in out and "private." in out
    rc, out, _ = run(capsys, *base, "--protocol", "pads", "--drop", "3")
    assert rc == 1 and "ABORTED without release" in out and "fewer than (1 - t) N = 10" in out
    rc, out, _ = run(capsys, *base, "--protocol", "pads", "--sigma2", "10", "--json")
    j = json.loads(out)
    assert rc == 1 and not j["private"] and j["release"] is not None
    bad(capsys, *base[:-2], "--delta", "0", says="delta = 0 must lie in (0, 1)")
    bad(capsys, "count", "run", "--users", "2", "--dropout", "1/2", "--epsilon", "1", "--delta", "1/10",
        says="must be > 0")


def test_theorem1_sigma2_is_rounded_up():
    import math

    s2 = count.theorem1_sigma2("1/2", "1/100")
    assert s2 >= 2 * math.log(400) / 0.25 and s2 - 2 * math.log(400) / 0.25 < 1e-3


# ------------------------------------------------------------------------------------------ zealous


def test_zealous_params_true_false_bad(capsys):
    base = ["zealous", "params", "--users", "1000", "--m", "1", "--epsilon", "1", "--delta", "1/1000"]
    rc, out, _ = run(capsys, *base)
    assert rc == 0 and "τ′ = 26859/1000" in out and "λ  = 2m/ε = 2" in out
    rc, out, _ = run(capsys, *base, "--tau-prime", "5")
    assert rc == 1 and "BELOW the bound" in out
    bad(capsys, *base[:-2], "--delta", "2", says="delta = 2 must lie in (0, 1)")
    bad(capsys, "zealous", "params", "--users", "1000", "--m", "0", "--epsilon", "1", "--delta", "1/1000",
        says="m = 0 must be a positive integer")


def test_zealous_publish_true_false_bad(capsys, tmp_path):
    log = EX / "aol_tiny.tsv"
    base = ["zealous", "publish", log, "--kind", "queries", "--delta", "1/1000", "--m", "1", "--seed", "1",
            "--max-users", "10"]
    rc, out, _ = run(capsys, *base, "--epsilon", "10")
    assert rc == 0 and "weather\t" in out and ("Certified (10, 1/1000)-probabilistically DP: the released items and noisy "
                                              "counts, for neighbouring logs of at most 10 users each") in out
    assert "Not covered: the exact counts shown here (this log's 6 users" in out
    rc, out, err = run(capsys, *base[:-2], "--epsilon", "10", "--tsv")  # released but no public bound: exit 1, said
    assert rc == 1 and "weather\t" in out and "NOT certified: τ′ was computed from this log's own number of users" in err
    rc, out, err = run(capsys, *base, "--epsilon", "10", "--tsv")
    assert rc == 0 and "weather\t" in out and "NOT certified" not in err
    rc, out, _ = run(capsys, *base, "--epsilon", "10", "--tau", "1", "--tau-prime", "1")  # a bound but τ′ below (6.5)
    assert rc == 1 and "weather\t" in out and "NOT certified: the parameters do not meet Theorem 14" in out
    rc, out, _ = run(capsys, *base, "--epsilon", "1")
    assert rc == 1 and "Nothing released: τ′ = 17.649 but the most frequent item has 4 users" in out
    rc, out, _ = run(capsys, *base, "--epsilon", "10", "--engine", "python", "--json")
    py = json.loads(out)
    assert rc == 0 and py["released"][0]["item"] == "weather"
    for engine in ("duckdb", "dask"):  # same seed, same release, whatever the engine
        rc, out, _ = run(capsys, *base, "--epsilon", "10", "--engine", engine, "--json")
        doc = json.loads(out)
        assert rc == 0 and doc["released"] == py["released"] and doc["top_count"] == py["top_count"], engine
    (tmp_path / "bad.tsv").write_text("AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n1\tx\tnot a time\t\t\n")
    bad(capsys, "zealous", "publish", tmp_path / "bad.tsv", "--kind", "queries", "--epsilon", "1", "--delta",
        "1/1000", "--m", "1", says="bad.tsv:2")


# ------------------------------------------------------------------------------------------ querygen


def test_querygen_true_false_bad(capsys):
    t = EX / "patients.csv"
    base = ["querygen", "generalize", t, "--query", "zip=13053,sex=F", "--target", "disease"]
    rc, out, _ = run(capsys, *base, "--gmin", "3/2", "--strategy", "brute")
    assert rc == 0 and "Q̂ = (zip=13053), G = 7/4" in out and "traffic 4 tuples" in out
    rc, out, _ = run(capsys, *base, "--gmin", "3", "--strategy", "all")
    assert rc == 1 and "Witness (best): it stops at Q̂ = (all *) with G = 19/10 < G_min = 3" in out
    bad(capsys, *base, "--gmin", "1/2", says="G_min = 1/2 < 1")
    bad(capsys, "querygen", "generalize", t, "--query", "zip=99999", "--target", "disease", "--gmin", "2",
        says="value '99999' is not in the domain")


def test_generalization_as_json_dumps():
    from privclaims.theory.querygen import exact
    from privclaims.theory.querygen.model import PrivacyRequirement

    tab = querygen.load_table(EX / "patients.csv")
    g = exact.best_fit(tab, {"zip": "13053"}, PrivacyRequirement("disease", "3/2"))
    assert json.loads(json.dumps(g.as_json()))["G"] == "7/4"


# ------------------------------------------------------------------------------------------ whole


def test_every_result_dumps_and_decimal_rounds():
    from fractions import Fraction

    assert decimal(Fraction(2, 3)) == "0.666667" and decimal(Fraction(-1, 8), 2) == "-0.13" and decimal(0) == "0"
    c = maskit.load_chain(EX / "chain4.json")
    results = [
        dp.check(dp.load_mechanism(EX / "randomized_response.json"), "1/2", "1/10"),
        maskit.check(c, ["hospital"], "1/10"), maskit.search(c, ["hospital"], "1/4", 2),
        maskit.filter_streams(c, maskit.load_streams(EX / "streams.csv", c), ["hospital"], "1/10", "hybrid"),
        ads.greedy(ads.load_instance(EX / "ads_coverage.json"), 2, True),
        count.run(8, "1/4", "1", "1/10", protocol="pads"),
        zealous.params(100, 2, "1/2", "1/1000"),
        zealous.publish(EX / "aol_tiny.tsv", "keywords", 10, "1/1000", 2, max_users=10),
        querygen.generalize(querygen.load_table(EX / "patients.csv"), {"sex": "F"}, "disease", 2, "all"),
    ]
    for r in results:
        json.dumps(r.as_json())
        assert isinstance(r.summary(), str) and isinstance(r.holds, bool)


def test_api_raises_the_one_error_type():
    with pytest.raises(InvalidInput):
        maskit.load_chain({"contexts": ["a"], "initial": ["1"], "steps": "x"})
    with pytest.raises(InvalidInput):
        ads.load_instance({"contexts": ["a"], "weights": ["1"], "ads": [{"ctr": [0.5]}]})


def test_console_script_subprocess_exit_codes_and_help():
    exe = [sys.executable, "-m", "privclaims.cli"]
    r = subprocess.run([*exe, "maskit", "check", "--help"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert r.returncode == 0 and '"contexts"' in r.stdout and "--floats" in r.stdout
    r = subprocess.run([*exe, "querygen", "generalize", "missing.csv", "--query", "a=1", "--target", "b",
                        "--gmin", "2"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "does not exist" in r.stderr
    r = subprocess.run([*exe, "--list"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 271


def test_help_of_each_module_tells_what_to_do():
    for mod in (dp, maskit, ads, count, zealous, querygen):
        doc = mod.__doc__
        assert "Example::" in doc and ".txt" in doc, mod.__name__
    assert "δ-privacy" in maskit.__doc__ and "Chain file format" in maskit.__doc__


@pytest.mark.parametrize("mod", [dp, maskit, ads, count, zealous, querygen], ids=lambda m: m.__name__)
def test_module_examples_run(mod, monkeypatch):
    import doctest

    monkeypatch.chdir(ROOT)
    res = doctest.testmod(mod, optionflags=doctest.ELLIPSIS, verbose=False, report=True)
    assert res.failed == 0 and res.attempted > 0


def test_ledger_and_show_are_forwarded(capsys, monkeypatch):
    import privclaims.checks.cli

    seen = []
    monkeypatch.setattr(privclaims.checks.cli, "main", lambda argv: seen.append(list(argv)) or 0)
    assert main(["ledger", "--quick", "--area", "dp"]) == 0
    assert main(["--list"]) == 0
    assert main(["show", "maskit.example1", "--from", "r.json"]) == 0
    assert seen == [["--quick", "--area", "dp"], ["--list"], ["--show", "maskit.example1", "--from", "r.json"]]
    assert main(["show"]) == 2 and "give a claim ID" in capsys.readouterr().err


def test_malformed_json_shapes_are_named(capsys, tmp_path):
    f = tmp_path / "c.json"
    f.write_text('{"contexts": ["a", "b"], "initial": "1", "steps": []}')
    bad(capsys, "maskit", "check", f, "--sensitive", "a", "--delta", "1/2", says="initial must be a list")
    f.write_text('{"contexts": ["a", "b"], "initial": ["1", "0"], "steps": [["1", "0"]]}')
    bad(capsys, "maskit", "check", f, "--sensitive", "a", "--delta", "1/2", says="steps[0][0] must be a list")
    f.write_text('{"contexts": [')
    bad(capsys, "maskit", "check", f, "--sensitive", "a", "--delta", "1/2", says="not valid JSON")


def test_floats_change_is_in_the_json(capsys, tmp_path):
    f = tmp_path / "i.json"
    f.write_text('{"contexts": ["a", "b"], "weights": [0.3333333333, 0.6666666666], "ads": [{"name": "x", "ctr": ["1", "0"], "payment": 1}]}')
    rc, out, _ = run(capsys, "ads", "greedy", f, "--k", "1", "--floats", "--json")
    j = json.loads(out)
    assert rc == 0 and j["floats"]["where"].startswith("weights") and j["floats"]["largest_change"]["exact"] != "0"


def test_brute_force_refuses_above_its_limit(capsys, tmp_path):
    names = [f"a{i}" for i in range(21)] + ["secret"]
    f = tmp_path / "wide.csv"
    f.write_text(",".join(names) + "\n" + ",".join(["1"] * 21 + ["x"]) + "\n" + ",".join(["0"] * 21 + ["y"]) + "\n")
    q = ",".join(f"a{i}=1" for i in range(21))
    bad(capsys, "querygen", "generalize", f, "--query", q, "--target", "secret", "--gmin", "3/2", "--strategy", "brute",
        says="use --strategy best")
    rc, out, _ = run(capsys, "querygen", "generalize", f, "--query", q, "--target", "secret", "--gmin", "3/2")
    assert rc == 0 and "G = 3/2" in out


# ------------------------------------------------------------------------------------------ review fixes


def test_package_is_a_thin_door():
    """No second implementation: privclaims/ does no real-number math of its own (no mpmath, math.log/exp,
    interval enclosures); the formulas are theory/'s."""
    import re

    for f in (ROOT / "privclaims").glob("*.py"):
        text = f.read_text(encoding="utf-8")
        for pattern in (r"^import mpmath", r"^from mpmath", r"math\.(log|exp|sqrt)\(", r"iv\.prec", r"_mpi_", r"\(1 - Q\(1,"):
            assert not re.search(pattern, text, re.M), f"{f.name}: {pattern!r} (math belongs in theory/)"


def test_privacy_decimals_round_to_the_safe_side():
    from privclaims.theory.numbers import Q

    assert decimal(Q(1, 3), 6, "up") == "0.333334" and decimal(Q(1, 3), 6, "down") == "0.333333"
    assert decimal(Q(-1, 3), 6, "up") == "-0.333333" and decimal(Q(2, 3)) == "0.666667"
    m = dp.load_mechanism(EX / "randomized_response.json")
    r = dp.check(m, "ln(2)", "1/10")
    assert r.dp.least_decimal == "1.098613"  # ln 3 = 1.0986122...: a user copying 1.098612 would be below it
    third = dp.mechanism({"a": {"x": "2/3", "y": "1/3"}, "b": {"x": "1/3", "y": "2/3"}}, [("a", "b")])
    assert dp.check(third, "0", "0").indist.least_decimal == "0.333334"  # least δ = 1/3, rounded up
    chain = maskit.load_chain(EX / "chain4.json")
    s = maskit.search(chain, ["hospital"], "1/10", grid=4)
    assert s.recheck.as_json()["max_gain"]["decimal"] == decimal(s.recheck.max_gain, 6, "up")


def test_indistinguishability_with_a_zero_term_is_rational():
    """a - e^ε·0 is printed as a, not '1/2 - e^(1000)*0'."""
    m = dp.mechanism({"a": {"x": "1"}, "b": {"x": "1/2", "y": "1/2"}}, [("a", "b")])
    r = dp.check(m, "1000", "0")
    assert r.indist.least == "1/2" and r.indist.least_decimal == "0.5" and not r.dp.holds and r.dp.least == "infinite"


def test_theorem1_sigma2_comes_from_theory_and_is_never_below():
    import mpmath

    from privclaims.theory.count.model import theorem1_sigma2
    from privclaims.theory.numbers import Q

    assert count.theorem1_sigma2("1/2", "1/100") == theorem1_sigma2("1/2", "1/100") == Q(11983, 250)
    with mpmath.workdps(60):
        exact_value = 2 * mpmath.log(400) / mpmath.mpf(1) * 4
        assert mpmath.mpf(11983) / 250 >= exact_value > mpmath.mpf(11983) / 250 - mpmath.mpf(1) / 1000


def test_greedy_guarantee_in_theory():
    from privclaims.theory.ads.exact import greedy_guarantee
    from privclaims.theory.numbers import Q

    assert greedy_guarantee(1) == 1 and greedy_guarantee(2) == Q(3, 4)
    r = ads.greedy(ads.load_instance(EX / "ads_coverage.json"), 2, optimum=True)
    assert r.bound == Q(3, 4)
    with pytest.raises(InvalidInput):
        greedy_guarantee(0)


def test_huge_parameters_answer_quickly(capsys):
    """ε = 10^12 (count) hung in the normal-tail series; τ′ = 10^12 (zealous) aborted the process in gmp. (The count
    was then certified private by Theorem 1 at σ² = 1/1000; its shares N_Z(0, 1/2000) are 0 but with probability
    about e^-1000, so the release is the true count: not certified now, the breach bound being 1.)"""
    import time

    t0 = time.monotonic()
    r = count.run(users=4, dropout="1/4", epsilon=10**12, delta="1/10", protocol="pads")
    assert not r.private and not r.aborted and r.release == r.true_count and r.breach == "1"
    p = zealous.params(users=10, m=1, epsilon="1", delta="1/10", tau_prime=10**12)
    assert p.holds
    assert time.monotonic() - t0 < 10


def test_cli_empty_policy_path_is_bad_input(capsys):
    bad(capsys, "maskit", "check", EX / "chain4.json", "--sensitive", "hospital", "--delta", "1/10", "--policy", "",
        says="policy")


def test_api_refuses_wrong_types_not_silently():
    """A truthy string for a flag, a bare string of sensitive contexts, a negative index in an output."""
    inst = ads.load_instance(EX / "ads_coverage.json")
    chain = maskit.load_chain(EX / "chain4.json")
    with pytest.raises(InvalidInput, match="optimum"):
        ads.greedy(inst, 2, optimum="no")
    with pytest.raises(InvalidInput, match="sensitive"):
        maskit.check(chain, "hospital", "1/10")
    with pytest.raises(InvalidInput, match="context index"):
        maskit.render_stream(chain, [-1, 0, 0])  # was rendered as the last context
    with pytest.raises(InvalidInput, match="seed"):
        querygen.generalize(querygen.load_table(EX / "patients.csv"), {"zip": "13053"}, "disease", "3/2", seed=-1)


def test_floats_renormalise_only_rounding(capsys, tmp_path):
    """--floats fixed float rounding, but also silently turned a row summing to 0.3 into another distribution."""
    f = tmp_path / "m.json"
    f.write_text('{"inputs": {"a": {"x": 0.1, "y": 0.2}, "b": {"x": 0.5, "y": 0.5}}, "neighbours": [["a", "b"]]}')
    bad(capsys, "dp", "check", f, "--epsilon", "1", "--delta", "0", "--floats", says="sum to 3/10, not 1")
    f.write_text('{"inputs": {"a": {"x": 0.1, "y": 0.9}, "b": {"x": 0.7, "y": 0.3}}, "neighbours": [["a", "b"]]}')
    rc, out, _ = run(capsys, "dp", "check", f, "--epsilon", "1", "--delta", "0", "--floats")
    assert rc in (0, 1) and "--floats" in out


def test_maskit_long_chain_is_refused_quickly(tmp_path):
    """Issue 22: the refusal named an internal function (theory.maskit.fast.max_breach); it names the CLI
    option that helps, and --fast (the float twin) answers the same chain."""
    import time

    steps = [[["1/2", "1/2"], ["1/3", "2/3"]]] * 499
    chain = maskit.load_chain({"contexts": ["a", "b"], "initial": ["1/2", "1/2"], "steps": steps})
    t0 = time.monotonic()
    with pytest.raises(InvalidInput, match="pass --fast") as exc:
        maskit.check(chain, ["b"], "1/10")
    assert "theory" not in str(exc.value)
    with pytest.raises(InvalidInput, match="smaller --grid") as exc:
        maskit.search(chain, ["b"], "1/10", grid=2)
    assert "theory" not in str(exc.value)
    assert time.monotonic() - t0 < 5
    shorter = maskit.load_chain({"contexts": ["a", "b"], "initial": ["1/2", "1/2"], "steps": steps[:299]})
    with pytest.raises(InvalidInput, match="pass --fast"):  # T = 300: still past the exact guard
        maskit.check(shorter, ["b"], "1/10")
    r = maskit.check(shorter, ["b"], "1/10", fast=True)
    assert r.fast and not r.holds and "float twin" in r.summary()


def test_count_probability_capped_and_variances_rounded_up():
    """A breach probability printed as 1.00000001, a share variance 1/3000000 printed as 0 (then as 0.000001,
    the wrong magnitude: issue 22); rounded up at its true magnitude."""
    r = count.run(users=5, dropout="1/5", epsilon="1", delta="1/10", protocol="pads", sigma2="1/1000000")
    assert not r.private and r.breach == "1"
    j = r.as_json()
    assert j["share_sigma2"]["decimal"] == "3.33334e-7" and "≈ 3.33334e-7," in r.summary()


def test_count_paillier_work_is_guarded(capsys):
    """N = 100000 users with 8192-bit Paillier keys would have run for about a day."""
    bad(capsys, "count", "run", "--users", "100000", "--dropout", "1/10", "--epsilon", "1", "--delta", "1/10",
        "--bits", "8192", says="--protocol pads")
