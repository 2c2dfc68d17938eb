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


# ----------------------------------------------------------------------------------------------------------------
# The other thesis ch. 2 definitions (issue 21, dp/count audit). Each has one reading the documents support; the
# note says which other readings were considered and why the documents do not support them.

K_ANONYMITY = Definition(
    "k-anonymity", "k-anonymity of a data release (000 Definition 1 = 003 Definition 1)",
    readings=(Reading(
        "k identical records",
        "every individual's published data equals (is indistinguishable from) that of at least k − 1 other "
        "individuals: every equivalence class of the published records has at least k members",
        f"{THESIS} §2.1 Definition 1; {ZEALOUS} §2 Definition 1",
        quotes=((THESIS, "§2.1 Definition 1", r"A data release is *k-anonymous* if the data of every individual is indistinguishable from the data of at least $k - 1$ other individuals."),
                (ZEALOUS, "§2 Definition 1", "A search log is k𝑘k-anonymous if the search history of every individual is indistinguishable from the history of at least k1𝑘1k-1 other individuals in the published search log."))),),
    quotes=((THESIS, "§2.1 Definition 1", r"A data release is *k-anonymous* if the data of every individual is indistinguishable from the data of at least $k - 1$ other individuals."),),
    note="'individual' vs 'user-id': a log records user-ids only, and the thesis itself says the implementations assure "
         "indistinguishability of k user-IDs, not k individuals (§6.7, “they only assure that the keywords/queries/sessions "
         "associated with k different *user-IDs* are indistinguishable”); with one account per individual the two coincide, "
         "and no claim here turns on shared accounts.")

K_ANON_LOGS = Definition(
    "k-anonymous-search-logs",
    "k-query / k-session / k-keyword anonymous search logs: the outputs of Adar's, Motwani–Nabar's and He–Naughton's "
    "algorithms (000 §2.1.2; 003 §2)",
    readings=(Reading(
        "outputs of the named algorithms",
        "a k-query anonymous log keeps only queries posed by ≥ k distinct user-ids (sessions re-labelled by random "
        "numbers); a k-session anonymous log has every session's keyword set shared by ≥ k − 1 other sessions; a "
        "k-keyword anonymous histogram publishes (prefix-generalised) keywords each in ≥ k search histories",
        f"{THESIS} §2.1.2: 'We call the output of Adar’s Algorithm a *k -query anonymous search log*' (and likewise "
        "k-session, k-keyword)",
        quotes=((THESIS, "§2.1.2", "Adar proposes to partition the search log into sessions and then to discard queries that are associated with fewer than k different user-ids."),
                (THESIS, "§2.1.2", "We call the output of Adar’s Algorithm a *k -query anonymous search log*."),
                (THESIS, "§2.1.2", r"Motwani and Nabar add or delete keywords from sessions until each session contains the same keywords as at least $k - 1$ other sessions in the search log [82]"),
                (THESIS, "§2.1.2", "He and Naughton generalize keywords by taking their prefix until each keyword is part of at least k search histories and publish a histogram of the partially generalized keywords [47]."))),),
    note="the notions are named after the algorithms' outputs, so their property (≥ k user-ids / sessions / histories) is "
         "the one reading; 'user-ids' rather than individuals, as the thesis says of these implementations (§6.7).")

# Definitions 2 and 4 quantify over logs "differing in the data of a single user"; the thesis glosses this as
# "changing/omitting" one user's data, while Definition 3 prints "adding or deleting". The neighbour relation is one
# definition with two readings; a claim on eps-dp or indistinguishability over user activity logs rests on it too
# (property_tests/test_audit_dp.py checks it), a claim over search logs takes its relation from search-log
# (checks/definitions/zealous.py: fixed U, one history replaced, a deletion as replacement by an empty history).
NEIGHBOURING_LOGS = Definition(
    "neighbouring-logs", "neighbouring user activity logs of Definitions 2 and 4 (000 §2.2.1)",
    readings=(
        Reading(
            "add or delete one user",
            "L' is L with the data of one user added or deleted (the relation Definition 3 prints: “obtained from L by "
            "adding or deleting the contexts and clicks of a single user”)",
            f"{THESIS} §2.2.1 Definition 3; Theorem 1's sensitivity",
            quotes=((THESIS, "§2.2.1 Definition 3", r"obtained from L by adding or deleting the contexts and clicks of a single user"),
                    (THESIS, "§2.2.1", r"The standard deviation of the noise depends on the L_2 -sensitivity of f which describes how much the value of the function can change if a single user's data is deleted from or added to the input."))),
        Reading(
            "replace one user's data",
            "L and L' hold the same users and differ in the data of one of them, replaced by any other (adding or "
            "deleting a user's data is the change to or from an empty history, so these neighbours include the "
            "others); Definition 3 keeps its printed relation (“adding or deleting”)",
            f"{THESIS} §1 and §2.2.1 after Definition 2: “changing/omitting the complete data of a single user”",
            quotes=((THESIS, "§2.2.1 Definition 2", r"for all user activity logs L and L' differing in the data of a single user"),
                    (THESIS, "§2.2.1 after Definition 2", r"This definition ensures that the output of the algorithm is insensitive to changing/omitting the complete data of a single user."),
                    (THESIS, "§2.2.1 after Definition 2", r"We will refer to logs that only differ in the data of a single user as *neighboring logs*."))),
    ),
    quotes=((THESIS, "§2.2.1 Definition 4", r"for all user activity logs L, L' differing in the data of a single user"),),
    note="Definitions 2 and 4 say only “differing in the data of a single user”; “changing” supports replacing one "
         "user's data, “omitting” and Definition 3's “adding or deleting” support adding or deleting it. The readings "
         "differ on logs with the same users and one user's data changed (dp.text_def3_delta0's one-user witness). "
         "Search logs (003, thesis ch. 6) are not this definition's: search-log fixes U and replaces one history.")

# the theory's relation (privclaims.theory.dp.mechanism.NEIGHBOUR_RELATIONS) of each reading
NEIGHBOUR_RELATION = {"add or delete one user": "add-delete", "replace one user's data": "replace"}


def relation_of(c: object) -> str:
    """The theory's neighbour relation of a reading combination's neighbouring-logs reading."""
    return NEIGHBOUR_RELATION[c[NEIGHBOURING_LOGS]]  # type: ignore[index]


EPS_DP = Definition(
    "eps-dp", "ε-differential privacy (000 Definition 2 = 003 Definition 2)",
    readings=(Reading(
        "pointwise ratio",
        "for every neighbouring pair (L, L') (the relation of neighbouring-logs, or of search-log for search logs) and "
        "every output O: Pr[A(L) = O] ≤ e^ε Pr[A(L') = O] (on a finite output space this is the same as for every set "
        "of outputs)",
        f"{THESIS} §2.2.1 Definition 2",
        quotes=((THESIS, "§2.2.1 Definition 2", r"An algorithm \mathcal{A} is ϵ -differentially private if for all user activity logs L and L' differing in the data of a single user and for all output logs O :"),)),),
    note="“for all output logs O” (points) vs for all sets of outputs: equivalent for discrete outputs (sum the pointwise "
         "bounds), so not two readings. The neighbour relation is declared once, in neighbouring-logs (user activity "
         "logs) and search-log (search logs).")

INDISTINGUISHABILITY = Definition(
    "indistinguishability", "(ε, δ)-indistinguishability (000 Definition 4 = 003 Definition 4)",
    readings=(Reading(
        "all output sets",
        "for every neighbouring pair (the relation of neighbouring-logs, or of search-log for search logs) and every "
        "subset 𝒪 of the output space: Pr[A(L) ∈ 𝒪] ≤ e^ε Pr[A(L') ∈ 𝒪] + δ",
        f"{THESIS} §2.2.1 Definition 4",
        quotes=((THESIS, "§2.2.1 Definition 4", r"An algorithm \mathcal{A} is (ϵ, δ) -indistinguishable if for all user activity logs L, L' differing in the data of a single user and for all subsets \mathcal{O} of the output space Ω :"),)),),
    note="the subsets are quantified inside the pair, as printed; no other order is printed.")

GAUSSIAN_MECHANISM = Definition(
    "gaussian-mechanism",
    "Theorem 1's setting: Gaussian noise N(0, σ² I_d) added to f: logs → ℝ^d of L2-sensitivity s (000 §2.2.1; 002 "
    "Proposition 4.2)",
    readings=(Reading(
        "densities, sensitivity over neighbours",
        "M(L) = f(L) + X with X ~ N(0, σ² I_d); s = max ‖f(L) − f(L')‖₂ over neighbouring logs (one user's data added or "
        "deleted); 'Pr[M(L) = O]' in Definition 3 is read as the density of M(L) at O (the proof's ratio of products of "
        "e^{−(o_i − f(L)_i)²/(2σ²)})",
        f"{THESIS} §2.2.1 before Theorem 1",
        quotes=((THESIS, "§2.2.1", r"we can sanitize the output of any real-valued function $f : \text{ad logs} \rightarrow \mathbb{R}^d$ by adding Gaussian noise to $f(L)$"),
                (THESIS, "§2.2.1", r"The standard deviation of the noise depends on the L_2 -sensitivity of f which describes how much the value of the function can change if a single user's data is deleted from or added to the input."))),),
    note="a point has probability 0 under a density, so the literal 'Pr[M(L) = O]' would make Definition 3's condition "
         "(2) vacuous (0 ≤ 0); the proof compares densities, the only reading under which Theorem 1 says something.")

VIEW_NOTATION = Definition(
    "view-notation", "restriction L_{U'}, views V_{P'} and the honest/malicious partition (000 §2.2.1 'Notation' = 002 §4.1)",
    readings=(Reading(
        "as defined",
        "L_{U'} is L restricted to the users U ∩ U'; the view of P' is the random variable of every message a member of "
        "P' sends or receives, a non-participant's view is the protocol's output; P = P_h ∪ P_m, P_h ∩ P_m = ∅",
        f"{THESIS} §2.2.1 'Notation'",
        quotes=((THESIS, "§2.2.1 'Notation'", r"If U' contains users not in U , we define $L_{U'}$ to be $L_{U \cap U'}$."),
                (THESIS, "§2.2.1 'Notation'", r"For a non-participant we define the view to be the output of the distributed protocol."))),),)

DIST_PROB_DP = Definition(
    "distributed-prob-dp",
    "(ε, δ)-distributed probabilistic differential privacy (000 Definition 5 = 002 Definition 1); its part (a) is "
    "Definition 3 (a claim on it rests on prob-dp too)",
    readings=(Reading(
        "M′ and R per participant, for every log",
        "for every (non-)participant p there are randomized algorithms M′ and R, not depending on the log, such that for "
        "every log L (a) M′(L_{U∖(P_m ∪ {p})}) is (ε, δ)-probabilistically DP (Definition 3) and (b) the view V_{P′_m} is "
        "distributed as R(M′(L_{U∖(P_m ∪ {p})}), L_{P_m ∪ {p}})",
        f"{THESIS} §2.2.1 Definition 5; the proofs of Theorems 9 and 11 choose M′ = C (or C′) for all logs at once",
        quotes=((THESIS, "§2.2.1 Definition 5", r"There exist randomized algorithms M' and R so that:"),
                (THESIS, "§2.2.1 Definition 5", r"(a) $M'(L_{U \setminus (P_m \cup \{p\})})$ preserves (ϵ, δ) -probabilistic differential privacy.*"),
                (THESIS, "§5.4.4 proof of Theorem 9", r"In their analysis we will make use of the following building blocks C, A to construct M', R as in the definition."))),),
    note="printed order: “for all user activity logs L and all (non-) participants p ... There exist randomized algorithms M' and R”. Read with "
         "M′ chosen after L, M′ may ignore its input and output a sample of the real view computed from L: a constant "
         "mechanism is (ε, 0)-probabilistically DP and R the identity, so every protocol would qualify (dp.def5's "
         "audit shows it on the leaky protocol); (a)'s 'M′(L_{U∖(P_m ∪ {p})}) preserves (ε, δ)-probabilistic DP' is a "
         "property of M′ over all logs, so M′ cannot be chosen per log.")
