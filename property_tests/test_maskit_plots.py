"""theory/maskit/plots.py lays out computed numbers without changing them."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from privclaims.theory.maskit import plots  # noqa: E402


def test_as_float_reads_evidence_numbers():
    assert plots.as_float("1/20") == 0.05
    assert plots.as_float(3) == 3.0
    assert plots.as_float(0.25) == 0.25


def test_paper_vs_ours_marks_differences():
    t = plots.paper_vs_ours({"a": {"paper": "1/2", "computed": "1/2"}, "b": {"paper": "2/3", "computed": "5/6"}})
    assert list(t["quantity"]) == ["a", "b"]
    assert list(t["equal"]) == [True, False]
    assert list(t["ours"]) == ["1/2", "5/6"]


ROW = {"mask_sensitive_utility": 0.9, "probabilistic_utility": 0.5, "simulatable_utility": 0.6, "hybrid_utility": 0.6}


def test_utility_bars_draws_one_bar_per_check_and_group():
    fig, ax = plt.subplots()
    plots.utility_bars(ax, {"synthetic": ROW, "geo": ROW}, paper={"mask_sensitive_utility": 0.764, "hybrid_utility": 0.758})
    heights = [p.get_height() for p in ax.patches]
    assert len(heights) == 4 * 3
    assert 0.9 in heights and 0.764 in heights
    assert [t.get_text() for t in ax.get_xticklabels()][0].startswith("paper")
    plt.close(fig)


def test_per_user_utilities_sorts_users_by_difference():
    rows = [dict(ROW, simulatable_utility=0.9), dict(ROW, simulatable_utility=0.1), {"skipped": "no days"}]
    fig, ax = plt.subplots()
    plots.per_user_utilities(ax, rows)
    sim = ax.get_lines()[1].get_ydata()
    assert list(sim) == [0.1, 0.9]
    plt.close(fig)


def test_tradeoff_lines_plot_the_rows():
    rows = [dict(ROW, delta="1/20"), dict(ROW, delta="1/10", hybrid_utility=0.7)]
    fig, ax = plt.subplots()
    plots.tradeoff_lines(ax, rows, "delta", keys=["hybrid_utility"])
    (line,) = ax.get_lines()
    assert list(line.get_xdata()) == [0.05, 0.1] and list(line.get_ydata()) == [0.6, 0.7]
    plt.close(fig)
