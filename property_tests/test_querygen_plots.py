"""Figure helpers of the query-generalizer notebook (Fig. 2, Fig. 3) on Table 1."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from privclaims.theory.querygen import exact, experiments  # noqa: E402
from privclaims.theory.querygen.plots import fig2_figure, fig3_figure, target_histogram  # noqa: E402
from privclaims.theory.querygen.table1 import table1  # noqa: E402


def test_target_histogram_counts_every_tuple_once():
    t = table1()
    values, counts = target_histogram(t, t.attr_index("Income"))
    assert sum(counts) == t.n_rows
    assert dict(zip(values, counts))["$20k"] == 4


def test_guess_traffic_pairs_match_the_exact_twin():
    t = table1()
    qs = experiments.random_queries(t, 25, np.random.default_rng(3))
    xs, ys = experiments.guess_traffic_pairs(t, 1, qs)
    exp = [(float(exact.guessing_entropy(t, experiments.for_target(q, 1), 1)), exact.traffic_overhead(t, experiments.for_target(q, 1)))
           for q in qs]
    exp = [e for e in exp if e[1] > 0]
    assert len(xs) == len(exp) == 25  # row-mode queries always match their source tuple
    assert np.allclose(xs, [e[0] for e in exp]) and ys == [float(e[1]) for e in exp]
    r, used = experiments.pearson(t, 1, qs)
    assert used == 25 and -1 <= r <= 1


def test_figures_have_one_panel_per_target_and_the_pearson_title():
    t = table1()
    qs = experiments.random_queries(t, 8, np.random.default_rng(0))
    res = experiments.run(t, qs, targets=[0, 1])
    fig = fig2_figure(res, "t")
    used = [ax for ax in fig.axes if ax.get_visible() and ax.axison]
    assert len(used) == 2 and all(len(ax.get_lines()) == 5 for ax in used)  # 4 strategies + original
    plt.close(fig)
    fig = fig3_figure(t, 1, qs)
    assert "Pearson r" in fig.axes[1].get_title()
    plt.close(fig)
