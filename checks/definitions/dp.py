"""Thesis ch. 2 (000_211156f2009240b4.txt §2.2) definitions that several areas rest on, with their readings."""

from __future__ import annotations

from privclaims.checks.quotes.dp import DEF3_INPUT, DEF3_PAIR
from privclaims.checks.readings import Definition, Reading

THESIS = "000_211156f2009240b4.txt"
ZEALOUS = "003_755c7aa10ef74058.txt"

# Definition 3, (ε, δ)-probabilistic differential privacy: the documents print two quantifier orders.
PER_PAIR = Reading(
    "per-pair split",
    "for every neighbouring pair (L, L') there is a split Ω = Ω1 ∪ Ω2 (it may depend on L') with Pr[M(L) ∈ Ω2] ≤ δ "
    "and the e^ε ratio bound on Ω1",
    f"{THESIS} §2.2.1 Definition 3: 'for all user activity logs L and neighboring ad logs L' ... we can divide the "
    "output space Ω into two sets Ω_1, Ω_2'",
    quotes=DEF3_PAIR)
PER_INPUT = Reading(
    "per-input split",
    "for every input L there is one split Ω = Ω1 ∪ Ω2 that serves all neighbours L' of L",
    f"{ZEALOUS} §2 Definition 3: 'for all search logs S we can divide the output space Ω into two sets Ω_1, Ω_2 such "
    "that ... for all neighboring search logs S''",
    quotes=DEF3_INPUT)
PROB_DP = Definition(
    "prob-dp", "(ε, δ)-probabilistic differential privacy (000 Definition 3 = 003 Definition 3 = 002 §4.1)",
    readings=(PER_PAIR, PER_INPUT),
    note="000 quantifies 'for all L and neighbouring L' ... we can divide Ω' (a split per pair); 003 and the thesis's "
         "own proof of Proposition 9 'for all S we can divide Ω ... such that ... for all neighbouring S'' (one split "
         "per input). The per-input order implies the per-pair one; they differ (dp.def3's three-input instance).")
