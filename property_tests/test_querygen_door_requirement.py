"""The querygen door under both readings of 004 §4's requirement: G >= G_min as defined (a result at G = G_min is
marked), G > G_min ('more than G_min times on average') with --strict; the G_min it echoes rounds up."""

from __future__ import annotations

from pathlib import Path

from privclaims import querygen
from privclaims.cli import main
from privclaims.theory.numbers import Q

EX = Path(__file__).resolve().parents[1] / "examples"
QUERY = {"zip": "13053", "sex": "F"}
# G on patients.csv for the target disease: (zip=13053, sex=F) 1, (sex=F) 6/5, (zip=13053) 7/4, (all *) 19/10


def _table():
    return querygen.load_table(EX / "patients.csv")


def test_equality_is_marked_under_the_default_reading():
    r = querygen.generalize(_table(), QUERY, "disease", "7/4", "brute")
    (res,) = r.results
    assert res.query == "(zip=13053)" and res.g == Q(7, 4) and res.holds
    assert res.at_equality and r.as_json()["results"][0]["at_equality"] is True
    assert "at equality only" in r.summary() and "not 'more than G_min'" in r.summary()
    r2 = querygen.generalize(_table(), QUERY, "disease", "3/2", "brute")
    assert r2.results[0].holds and not r2.results[0].at_equality and "equality" not in r2.summary()


def test_strict_requires_more_than_g_min(capsys):
    r = querygen.generalize(_table(), QUERY, "disease", "7/4", "all", strict=True)
    assert r.holds and {(x.query, x.g) for x in r.results} == {("(all *)", Q(19, 10))}
    argv = ["querygen", "generalize", str(EX / "patients.csv"), "--query", "zip=13053,sex=F", "--target", "disease",
            "--gmin", "19/10", "--strict"]
    assert main(argv) == 1
    assert "(G = G_min: not more than G_min)" in capsys.readouterr().out
    assert main(argv[:-1]) == 0


def test_strict_meets_exactly_when_above():
    t = _table()
    for g_min in ("1", "6/5", "3/2", "7/4", "19/10", "2"):
        for name in querygen.STRATEGIES:
            plain = querygen.generalize(t, QUERY, "disease", g_min, name).results[0]
            strict = querygen.generalize(t, QUERY, "disease", g_min, name, strict=True).results[0]
            assert strict.holds == (strict.g > Q(g_min))
            assert plain.holds == (plain.g >= Q(g_min)) and plain.at_equality == (plain.g == Q(g_min))
            if not plain.at_equality:  # the readings differ only at G = G_min
                assert (strict.query, strict.holds) == (plain.query, plain.holds)


def test_g_min_echo_rounds_up():
    r = querygen.generalize(_table(), {"zip": "13053"}, "disease", "4/3", "best")
    assert r.as_json()["G_min"] == {"exact": "4/3", "decimal": "1.333334"}


def test_a_query_matching_no_tuple_has_no_guessing_entropy_shown(capsys):
    # (zip=14850, age=28) matches no tuple of patients.csv: Eq. (2)'s frequencies are undefined there, and the door
    # printed "G(Q, disease) = 0 ≈ 0" (JSON "G": "0"), a number for an undefined quantity. Now it says so (JSON null
    # with "traffic": 0); the strategies still generalise it (a query matching nothing does not meet G_min).
    r = querygen.generalize(_table(), {"zip": "14850", "age": "28"}, "disease", "3/2", "all")
    assert r.original_matches_nothing and r.as_json()["G"] is None and r.as_json()["traffic"] == 0
    assert "G(Q, disease) = undefined: Q matches no tuple" in r.summary() and "= 0 ≈" not in r.summary()
    assert all(res.holds and res.traffic > 0 for res in r.results)
    matched = querygen.generalize(_table(), QUERY, "disease", "3/2", "brute")
    assert not matched.original_matches_nothing and matched.as_json()["G"] == {"exact": "1", "decimal": "1"}
    assert matched.as_json()["traffic"] == 2 and "G(Q, disease) = 1 ≈ 1;" in matched.summary()
    rc = main(["querygen", "generalize", str(EX / "patients.csv"), "--query", "zip=14850,age=28", "--target", "disease",
               "--gmin", "3/2"])
    out = capsys.readouterr().out
    assert rc == 0 and "undefined: Q matches no tuple" in out, out
