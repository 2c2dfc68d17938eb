"""The definitions the draft's claims rest on, each with the readings the draft supports (quotes verbatim from
draft.md; the ledger checks them on every run)."""

from privclaims.ledger import Definition, Quote, Reading

DRAFT = "draft.md"

EPS_DP = Definition(
    "eps-dp", "ε-differential privacy (draft §1)",
    readings=(Reading("as defined", "Pr[M(L) = O] <= e^ε Pr[M(L') = O] for every ordered pair of neighbours and every "
                      "output; the least ε is ln of the largest ratio", f"{DRAFT} §1",
                      quotes=[Quote(DRAFT, "§1", "for all neighbouring inputs L, L′ and every output O, Pr[M(L) = O] ≤ "
                                                 "e^ε · Pr[M(L′) = O]")]),))

_SPLIT = Quote(DRAFT, "§2", "its outputs split into a good set Ω1 and a bad set Ω2 such that Pr[M(L) ∈ Ω2] ≤ δ")
_FOR_ALL = Quote(DRAFT, "§2", "for all neighbouring inputs L, L′.")
PROB_DP = Definition(
    "prob-dp", "(ε, δ)-probabilistic differential privacy (draft §2)",
    readings=(
        Reading("per pair", "for every pair of neighbours (L, L') there is a split of the outputs with "
                "Pr[M(L) ∈ Ω2] <= δ and the ratio within e^±ε on Ω1 (the split may depend on L')",
                f"{DRAFT} §2: the quantifier “for all neighbouring inputs L, L′” closes the sentence, so it may bind "
                "the split too", quotes=[_SPLIT, _FOR_ALL]),
        Reading("per input", "for every input L there is one split of the outputs with Pr[M(L) ∈ Ω2] <= δ that "
                "keeps the ratio within e^±ε against every neighbour L'",
                f"{DRAFT} §2: “its outputs split” is said once, before any neighbour is named",
                quotes=[_SPLIT]),
    ),
    quotes=[_SPLIT],
    note="The draft does not say whether the split is chosen per pair of neighbours or once per input.")

DELTA_PRIVATE = Definition(
    "delta-private", "δ-privacy of a release policy (draft §3)",
    readings=(Reading("as defined", "max over outputs o of positive probability, times t and sensitive s of "
                      "Pr[X_t = s | o] - Pr[X_t = s] is at most δ; the adversary knows the chain and the policy",
                      f"{DRAFT} §3",
                      quotes=[Quote(DRAFT, "§3", "for every output o, every time t and every sensitive context s, "
                                                 "Pr[X_t = s | o] − Pr[X_t = s] ≤ δ")]),))

REVENUE = Definition(
    "ad-revenue", "expected revenue of a set of ads (draft §4)",
    readings=(Reading("as defined", "Σ over places c of Pr[c] · max over the sent ads of the click probability "
                      "(all payments 1); the optimum is the best of the C(4, 2) pairs",
                      f"{DRAFT} §4",
                      quotes=[Quote(DRAFT, "§4", "the phone shows the ad the user is most likely to click, and the "
                                                 "expected revenue sums over the three places")]),))

ZEALOUS = Definition(
    "zealous-thm14", "ZEALOUS's parameters by Theorem 14 (draft §5)",
    readings=(Reading("Theorem 14", "λ = 2m/ε, τ = ⌈2m/ε⌉ and τ′ - τ >= max(-λ ln(2 - 2e^(-1/λ)), -λ ln(2δτ/(Um))) "
                      "give (ε, δ)-probabilistic differential privacy", f"{DRAFT} §5",
                      quotes=[Quote(DRAFT, "§5", "Following Theorem 14 of the ZEALOUS paper we set λ = 2m/ε = 4")]),))
