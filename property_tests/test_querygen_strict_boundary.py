"""theory.querygen.model.strictly_above against every guessing entropy a table of N rows can give, and the door's
empty-cell refusal in every column."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privclaims import querygen
from privclaims.theory.errors import InvalidInput
from privclaims.theory.querygen.model import PrivacyRequirement, make_table, strictly_above


def _partitions(m, top=None):
    top = m if top is None else top
    if m == 0:
        yield []
        return
    for p in range(min(m, top), 0, -1):
        for rest in _partitions(m - p, p):
            yield [p] + rest


def _g(counts):  # Eq. (1) on value counts sorted decreasingly
    return Fraction(sum(i * c for i, c in enumerate(counts, start=1)), sum(counts))


def test_strictly_above_is_g_greater_than_g_min_for_every_reachable_g():
    for n in range(1, 9):
        table = make_table(["a", "b"], [[str(i), "x"] for i in range(n)])
        gs = {_g(p) for m in range(1, n + 1) for p in _partitions(m)}  # G of every M <= N matching tuples
        g_mins = {g for g in gs if g >= 1} | {Fraction(p, q) for q in range(1, 8) for p in range(q, 5 * q)}
        for g_min in g_mins:
            bound = strictly_above(table, PrivacyRequirement("b", g_min)).g_min
            assert all((g > g_min) == (g >= bound) for g in gs), (n, g_min)


@pytest.mark.parametrize("row, attr", [(",b,c", "x"), ("a,,c", "y"), ("a,b,", "z"), ("a, ,c", "y")])
def test_an_empty_cell_in_any_column_is_refused(tmp_path, row, attr):
    f = tmp_path / "t.csv"
    f.write_text(f"x,y,z\na,b,c\n{row}\n")
    with pytest.raises(InvalidInput, match=rf"t.csv:3: attribute '{attr}' has no value"):
        querygen.load_table(f)
