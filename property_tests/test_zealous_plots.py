"""The ZEALOUS notebook helpers: count distributions, Table 6.3's release table, the plotting wrappers."""

from collections import Counter

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from privclaims.theory.zealous.experiments import Experiment, release_table  # noqa: E402
from privclaims.theory.zealous.model import Entry, SearchLog  # noqa: E402
from privclaims.theory.zealous.plots import count_distribution, plot_count_distributions, plot_series  # noqa: E402


def test_count_distribution_counts_items_per_count():
    cs, ns = count_distribution({"a": 1, "b": 1, "c": 3, "d": 2.6, "e": 0.4})
    assert cs.tolist() == [1.0, 3.0]
    assert ns.tolist() == [2.0, 2.0]  # 2.6 rounds to 3; counts below 1 are not drawn
    assert count_distribution({})[0].size == 0


def _log(users=30):
    T0 = 1141603200
    return SearchLog({f"u{i}": [Entry("common word", T0), Entry(f"rare{i} word", T0 + 60, ("url",))] for i in range(users)})


def test_release_table_shape_and_thresholds():
    ex = Experiment(_log())
    t = release_table(ex, 50, ("keywords", "queries"), (1, 2))
    assert set(t) == {"keywords", "queries"}
    for row in t.values():
        assert len(row["distinct"]) == len(row["total"]) == 2
        assert all(d >= 0 for d in row["distinct"])
        assert all((d == 0) == (s == 0) for d, s in zip(row["distinct"], row["total"]))
    # 'word' and 'common' are held by all 30 users, far above tau' at eps = 50, m = 1; 'rare_i' by one user each
    assert t["keywords"]["distinct"][0] == 2
    assert ex.zealous("keywords", 1, 50).keys() == {"common", "word"}


def test_plot_helpers_draw_one_line_per_series():
    fig, (a, b) = plt.subplots(1, 2)
    plot_count_distributions(a, {"x": Counter({"p": 1, "q": 2}), "empty": {}}, title="t")
    assert len(a.get_lines()) == 2
    assert any("none released" in t.get_text() for t in a.get_legend().get_texts())
    plot_series(b, [1, 2, 3], {"s": [0, 2, 4], "r": [1, 1, 1]}, xlabel="m", ylabel="n", logy=True)
    ys = b.get_lines()[0].get_ydata()
    assert np.all(ys > 0) and b.get_yscale() == "log"
    plt.close(fig)
