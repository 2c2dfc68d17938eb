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

# Definition 2, eps-differential privacy, and Definition 4, (eps, delta)-indistinguishability: one reading each (added
# by the zealous audit for the ch. 6 claims that rest on them; the dp/count audit owns this module and their readings).
EPS_DP = Definition(
    "eps-dp", "ε-differential privacy (000 Definition 2 = 003 Definition 2)",
    readings=(Reading(
        "pointwise ratio",
        "for all neighbouring L, L' (either order) and every output O: Pr[A(L) = O] <= e^ε Pr[A(L') = O]; on a finite "
        "output space the same as the bound for every set of outputs",
        f"{THESIS} §2.2.1 Definition 2",
        quotes=((THESIS, "§2.2.1 Definition 2",
                 r"An algorithm \mathcal{A} is ϵ -differentially private if for all user activity logs L and L' differing in "
                 r"the data of a single user and for all output logs O : $$Pr[\mathcal{A}(L) = O] \leq e^\epsilon "
                 r"Pr[\mathcal{A}(L') = O].$$"),)),),
    note="'for all L and L'' makes the one-sided inequality symmetric; on the finite mechanisms of the checks the "
         "pointwise and the set-wise forms coincide.")
INDIST = Definition(
    "indistinguishability", "(ε, δ)-indistinguishability (000 Definition 4 = 003 Definition 4)",
    readings=(Reading(
        "every output set",
        "for all neighbouring L, L' and every subset O of the output space: Pr[A(L) ∈ O] <= e^ε Pr[A(L') ∈ O] + δ",
        f"{THESIS} §2.2.1 Definition 4",
        quotes=((THESIS, "§2.2.1 Definition 4",
                 r"An algorithm \mathcal{A} is (ϵ, δ) -indistinguishable if for all user activity logs L, L' differing in "
                 r"the data of a single user and for all subsets \mathcal{O} of the output space Ω :"),)),),
    note="one quantifier order (no split of the output space); the least δ is the largest hockey-stick divergence "
         "over ordered neighbouring pairs.")
