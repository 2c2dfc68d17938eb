"""Hostile checks of a project of one's own: ways a check could get a confident or silently weakened verdict through
the ledger, each now refused (tiny projects written by :func:`property_tests.test_ledger_structure._row`)."""

from __future__ import annotations

from privclaims.checks.runner import drift
from property_tests.test_ledger_structure import _row


def test_a_checks_own_skipped_key_does_not_exempt_it_from_its_pin(tmp_path):
    # `skipped` marks a claim the runner skipped (data absent): such a row is never compared with its pin, is no
    # drift, and `pytest --privclaims` skips it. A check's evidence carrying it (a count of instances it skipped, or
    # the public querygen report's "skipped" list spread into the evidence) kept its verdict with no pin at all.
    body = '''
@claim("t.c", method="exact", rests_on=())
def c(ctx):
    return verified(checked=9, skipped=1)
'''
    row = _row(tmp_path, body)
    assert row["verdict"] == "error" and "'skipped'" in row["evidence"]["error"]
    assert row["pin"]["moved"] == ["not pinned"] and drift([row]) == [row]
