"""Helpers of the ads notebook: Greedy vs optimum tables, frequency-of-frequencies, the §4.4 plot wrappers."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from privclaims.theory.ads.plots import (  # noqa: E402
    frequency_of_frequencies, greedy_vs_optimum, plot_frontier, plot_k_sweep, plot_threshold_sweep, random_instance,
    tight_ratios,
)
from privclaims.theory.numbers import Q  # noqa: E402


def test_random_instances_are_valid_and_greedy_meets_theorem_7():
    rng = np.random.default_rng(7)
    inst = random_instance(rng, 4, 3)
    assert inst.n_ads == 4 and inst.n_contexts == 3 and sum(inst.weights) == 1
    for k in (1, 2, 3):
        rows = greedy_vs_optimum(rng, 25, 5, 4, k)
        assert len(rows) == 25
        assert all(r["bound"] <= r["ratio"] <= 1 and r["greedy"] <= r["optimum"] for r in rows)
    assert all(r["ratio"] == 1 for r in greedy_vs_optimum(rng, 10, 4, 3, 1))  # k = 1: Greedy is the optimum


def test_tight_ratios_equal_the_bound():
    rows = tight_ratios([1, 2, 3, 4])
    assert [r["ratio"] for r in rows] == [Q(1), Q(3, 4), Q(19, 27), Q(175, 256)]
    assert all(r["ratio"] == r["bound"] for r in rows)


def test_frequency_of_frequencies():
    fs, ns = frequency_of_frequencies(["a", "a", "b", "c", "c", "c", "d"])
    assert fs.tolist() == [1.0, 2.0, 3.0] and ns.tolist() == [2.0, 1.0, 1.0]


def _run(p, c):
    return {k: {"precision": p, "coverage": c} for k in (1, 10)}


def test_plot_wrappers_draw_precision_and_coverage():
    runs = {0.1: _run(0.5, 0.4), 0.3: _run(0.7, 0.2), 0.5: _run(None, 0.0)}
    fig, (a, b, c) = plt.subplots(1, 3)
    plot_threshold_sweep(a, runs, 10)
    assert [ln.get_label() for ln in a.get_lines()] == ["precision", "coverage"]
    assert np.isnan(a.get_lines()[0].get_ydata()[-1])  # nothing shown: precision undefined, not 0
    plot_k_sweep(b, runs[0.1])
    assert b.get_xscale() == "log"
    plot_frontier(c, {"(4,2,2)": runs, "(2,2,1)": runs}, 10)
    assert len(c.get_lines()) == 2
    plt.close(fig)
