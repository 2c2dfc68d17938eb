"""The querygen door reads the user's table as written: an empty cell is refused (exit 2, naming the line and the
attribute), never counted as one more guessable value of the target; blank lines are skipped."""

from __future__ import annotations

from privclaims import querygen
from privclaims.cli import main
from privclaims.theory.errors import InvalidInput

import pytest


def _gen(capsys, f, *extra):
    rc = main(["querygen", "generalize", str(f), "--query", "zip=1", "--target", "disease", "--gmin", "3/2", *extra])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_empty_target_cell_is_refused_not_a_value(tmp_path, capsys):
    # zip=1 matches flu and a tuple whose disease is missing: read as the value '', G = (1 + 2)/2 = 3/2 "met" G_min
    # = 3/2 (exit 0), though the only disease the table gives for zip = 1 is flu
    f = tmp_path / "t.csv"
    f.write_text("zip,disease\n1,flu\n1,\n")
    rc, out, err = _gen(capsys, f)
    assert rc == 2 and "t.csv:3: attribute 'disease' has no value" in err and "Traceback" not in err, (rc, out, err)


def test_row_of_separators_is_refused_not_skipped(tmp_path, capsys):
    f = tmp_path / "t.csv"
    f.write_text("zip,disease\n1,flu\n,\n1,cold\n")
    rc, _, err = _gen(capsys, f)
    assert rc == 2 and "t.csv:3: attribute 'zip' has no value" in err


def test_blank_lines_are_skipped_and_line_numbers_kept(tmp_path):
    f = tmp_path / "t.csv"
    f.write_text("zip,disease\n\n1,flu\n   \n1,cold\n")
    t = querygen.load_table(f)
    assert t.rows == (("1", "flu"), ("1", "cold"))
    f.write_text('zip,disease\n\n"1\n",flu\n1, \n')
    with pytest.raises(InvalidInput, match=r"t.csv:5: attribute 'disease' has no value"):
        querygen.load_table(f)
