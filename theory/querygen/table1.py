"""Table 1 of ``004_66621c1b9afebedf.txt`` §2 (auxiliary information, 12 tuples) and the query of Eq. (3)."""

from __future__ import annotations

from privclaims.theory.querygen.model import STAR, AuxTable, make_query, make_table

ATTRIBUTES = ("Loan", "Income", "Race", "Gender", "County")

ROWS = (
    ("$100k", "$50k", "Asian", "Male", "Barnstable"),
    ("$20k", "$20k", "White", "Male", "Dukes"),
    ("$20k", "$40k", "Black", "Female", "Essex"),
    ("$20k", "$40k", "Black", "Female", "Dukes"),
    ("$20k", "$20k", "Black", "Male", "Hampden"),
    ("$40k", "$30k", "White", "Male", "Hampshire"),
    ("$10k", "$20k", "Asian", "Male", "Essex"),
    ("$20k", "$100k", "White", "Female", "Norfolk"),
    ("$100k", "$500k", "White", "Male", "Bristol"),
    ("$10k", "$20k", "White", "Male", "Suffolk"),
    ("$40k", "$30k", "Asian", "Female", "Norfolk"),
    ("$20k", "$100k", "Black", "Female", "Essex"),
)


def table1() -> AuxTable:
    """Table 1, with D_4 = {"Female", "Male"} as §2 states (other domains: the values observed)."""
    return make_table(ATTRIBUTES, ROWS)


def eq3_query(table: AuxTable | None = None) -> tuple:
    """Q = ([Loan] = "$20k", [Income] = *, [Race] = "Black", [Gender] = "Female", [County] = *)."""
    return make_query(table or table1(), ("$20k", STAR, "Black", "Female", STAR))
