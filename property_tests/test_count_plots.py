"""theory/count/plots.py: tables and curves agree with the twins they lay out."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from privclaims.theory.count import exact_churn as ec  # noqa: E402
from privclaims.theory.count import fast_privacy as fa  # noqa: E402
from privclaims.theory.count import plots  # noqa: E402
from privclaims.theory.numbers import Q  # noqa: E402


def test_churn_table_exact_column_is_the_exact_twin():
    t = plots.churn_table([10, 100], ["1/1000", "1/100"], queries=200, rng=np.random.default_rng(1))
    assert len(t) == 2 * 2 * 3
    row = t[(t.protocol == "SHI") & (t.N == 100) & (t.p == "1/100")].iloc[0]
    assert row.exact == float(ec.setup_protocol_phases("SHI", 100, "1/100"))
    assert abs(row.simulated - row.exact) / row.exact < 0.5
    cnt = t[t.protocol == "Count"]
    assert (cnt.exact >= 1).all() and (cnt.exact < 1.01).all()


def test_churn_curves_one_line_and_marker_set_per_protocol():
    t = plots.churn_table([10], ["1/1000", "1/100"], queries=50)
    fig, ax = plt.subplots()
    plots.churn_curves(ax, t, 10)
    assert len(ax.get_lines()) == 2 * 3
    plt.close(fig)


def test_breach_curves_are_breach_over_delta():
    eps = np.linspace(0.1, 10, 5)
    fig, ax = plt.subplots()
    plots.breach_curves(ax, ["1/100"], eps)
    y = ax.get_lines()[0].get_ydata()
    assert np.allclose(y, fa.theorem1_breach(eps, np.full_like(eps, 0.01)) / 0.01)
    plt.close(fig)


def test_law_table_orders_by_probability_and_compares():
    t = plots.law_table({"a": Q(1, 4), "b": Q(3, 4)}, {"a": Q(1, 4), "b": Q(1, 2), "c": Q(1, 4)}, top=2)
    assert list(t["view"]) == ["'b'", "'a'"]
    assert list(t["equal"]) == [False, True]


def test_average_curves_ignores_undefined_precision():
    a = [(0.0, 0.5, 1.0), (0.5, float("nan"), 0.0)]
    b = [(0.0, 0.7, 0.8), (0.5, 0.9, 0.2)]
    out = plots.average_curves([a, b])
    assert out[0] == (0.0, 0.6, 0.9)
    assert out[1][0] == 0.5 and out[1][1] == 0.9 and abs(out[1][2] - 0.1) < 1e-12


def test_precision_coverage_skips_undefined_points():
    fig, ax = plt.subplots()
    plots.precision_coverage(ax, {"x": [(0.0, 0.5, 1.0), (0.5, float("nan"), 0.0)]})
    assert list(ax.get_lines()[0].get_xdata()) == [1.0]
    plt.close(fig)
