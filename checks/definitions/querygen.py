"""The query generalizer's definitions, conventions and model (004_66621c1b9afebedf.txt), with the readings the
document supports (issue 21). Every querygen claim declares which of these it rests on.

* :data:`QG_MODEL` — what auxiliary information, a tuple and a query are (§2), stated as validators in
  :mod:`privclaims.theory.querygen.models`.
* :data:`GUESSING` and :data:`SHANNON` — Eq. (2) and Eq. (1) (one reading each; the conventions in the notes).
* :data:`PRIV_REQ` — the requirement (a, G_min): G(Q, a) ≥ G_min as defined, or > G_min as its gloss says.
* :data:`GEN_GOAL` — what "removing ... until G(Q̂, a) ≥ G_min" commits a strategy to: a procedure, or a privacy-
  preserving Q̂ whenever one exists.
* :data:`BRUTE_TIES`, :data:`FIT_TIES` — the strategies' tie rules (§4); :data:`BEST_FIT_CHOICE` — Best-Fit's step
  read as the local minimum or as the best fit (the least G among removals that already reach G_min).
* :data:`L_REQ` — the ℓ-diversity requirement (a, l) of §6: at least l values, or more than l as the l = 25 gloss says.
* :data:`TRAFFIC`, :data:`COST_MODEL`, :data:`UNIFORM`, :data:`QUERY_SIM` — §5's traffic, §4's cost model of the
  complexity statements, "uniform distribution", and §5's random queries.
"""

from __future__ import annotations

from privclaims.checks.readings import Definition, Quote, Reading

D = "004_66621c1b9afebedf.txt"

QG_AS_DEFINED = Reading(
    "as defined",
    "auxiliary information is a finite multiset of tuples over m attributes, each value in its attribute's finite "
    "domain D_i; a query is (v_1, ..., v_m) with v_i ∈ D_i ∪ {*}; a tuple matches Q when it agrees on every v_i ≠ *; "
    "the target attribute's value is * in the query (omitted), and a user's query matches at least her own tuple",
    f"{D} §2 and §5",
    quotes=(Quote(D, "§2", "A *domain* is a finite set of mutually exclusive and exhaustive values."),
            Quote(D, "§2", r"we define a query Q from a user as an ordered list of m attribute values, (v_1, v_2, "
                  r"\dots, v_m) , for $v_i \in D_i \cup \{*\}$ where $*$ means “don't care” value"),
            Quote(D, "§5", "For each target attribute test, its corresponding value is omitted.")))
QG_MODEL = Definition(
    "querygen-model", "auxiliary information, tuples and queries (004 §2)", readings=(QG_AS_DEFINED,),
    note="Repeated tuples are allowed (the §5 data set is 66,270 people over six categorised attributes). A query "
         "that matches no tuple has no guessing entropy (Eq. (2) needs N ≥ 1 tuples); witnesses use queries that match "
         "a tuple (privclaims.theory.querygen.models).")

GUESSING_AS_DEFINED = Reading(
    "Eq. (2)",
    "G(Q, a) = Σ_i p_i·i with p_i = |x_i|/N over the n distinct values of a among the N tuples matching Q, sorted so "
    "that p_1 ≥ p_2 ≥ ... ≥ p_n: the expected number of guesses of the decreasing-likelihood guesser (Massey)",
    f"{D} §2 Eq. (2)",
    quotes=(Quote(D, "§2", r"$$G(Q, a) = \sum_{i=1}^n p_i \cdot i \quad (2)$$"),
            Quote(D, "§2", r"we assume that the probabilities are arranged as a monotonically decreasing distribution "
                  r"with $p_1 \geq p_2 \geq \dots \geq p_n$")))
GUESSING = Definition(
    "guessing-entropy", "the guessing entropy G(Q, a) of Eq. (2) (004 §2)", readings=(GUESSING_AS_DEFINED,),
    note="Not Shannon's entropy: G is the expected number of guesses, between 1 and (n + 1)/2, while H of Eq. (1) is in "
         "bits; §6's proof justifies G ≤ (n + 1)/2 by “the uniform distribution has the maximum entropy”, a Shannon "
         "fact — the bound holds for G on its own (querygen.lem_uniform). G_min is in G's units.")

SHANNON_AS_DEFINED = Reading(
    "Eq. (1), base 2",
    "H(X) = −Σ p_i log₂ p_i over the target values' distribution",
    f"{D} §2 Eq. (1)",
    quotes=(Quote(D, "§2", "The *Shannon entropy* is a traditional estimator of measuring the information of X as "
                  "follows (here, log is to the base 2):"),))
SHANNON = Definition("shannon-entropy", "Shannon's entropy H(X) of Eq. (1) (004 §2)", readings=(SHANNON_AS_DEFINED,))

GE = Reading(
    "G ≥ G_min",
    "Q is privacy-preserving for a iff G(Q, a) ≥ G_min (equality included), as the definition, Eq. (4) and every "
    "strategy's stop rule print",
    f"{D} §4",
    quotes=(Quote(D, "§4", r"a query Q is *privacy-preserving* for an attribute a , if the guessing entropy $G(Q, a)$ "
                  "from the query Q is greater than or equal to G_{min} that a user requires."),))
GT = Reading(
    "G > G_min",
    "Q is privacy-preserving for a iff the adversary needs more than G_min guesses on average, G(Q, a) > G_min, as "
    "the sentence that says what the requirement means puts it",
    f"{D} §4, the sentence after the definition",
    quotes=(Quote(D, "§4", r"This implies that given the query \widehat{Q} , the adversary must try to guess the user "
                  "u ’s private value for a more than G_{min} times on average."),))
PRIV_REQ = Definition(
    "privacy-requirement", "the privacy requirement (a, G_min) and 'privacy-preserving' (004 §4)",
    readings=(GE, GT),
    quotes=(Quote(D, "§4", "We assume that a user u ’s privacy requirement is formally defined as a tuple (a, G_{min})"),),
    note="The two sentences disagree exactly at G = G_min (the adversary then needs exactly G_min guesses on average). "
         "On a table of N tuples '>' is '≥' at G_min + 1/(N·den(G_min)) (privclaims.theory.querygen.model.strictly_above), "
         "so every check runs both.")

_STRATEGY2_Q = Quote(D, "§4 strategy 2", r"Then it iteratively updates \widehat{Q} by substituting v_i with $*$ at a time "
                     r"to minimize the $G(\widehat{Q}, a)$ locally where $v_i \neq *$ for $i \in [1, m]$ until "
                     r"$G(\widehat{Q}, a) \geq G_{min}$.")
PROCEDURE = Reading(
    "procedure",
    "removing values 'until G(Q̂, a) ≥ G_min' describes a procedure: start from Q̂ = Q, remove values as the strategy "
    "prescribes, stop at the first Q̂ that meets the requirement or when nothing is left to remove",
    f"{D} §4 strategies 2-4",
    quotes=(_STRATEGY2_Q,))
GUARANTEE = Reading(
    "privacy-preserving whenever possible",
    "the removal provides a privacy-preserving Q̂ whenever some generalisation of Q is one (as Brute-Force does); not "
    "optimality, which the document never claims for its heuristics",
    f"{D} §4 and §8",
    quotes=(Quote(D, "§4", r"In order to provide *privacy-preserving* queries, the query Q is modified to the query "
                  r"\widehat{Q} by removing some private information included in Q until $G(\widehat{Q}, a) \geq "
                  r"G_{min}$ if the guessing entropy $G(Q, a)$ is less than G_{min} ."),
            Quote(D, "§4", "This process is repeated until the generalized query satisfies the user’s privacy "
                  "requirement.")))
GEN_GOAL = Definition(
    "generalisation-goal", "what generalising a non-private query commits to (004 §4)", readings=(PROCEDURE, GUARANTEE),
    note="Removing a value can lower G (querygen.def_privreq's non-monotone witness), so a removal path may pass over "
         "every privacy-preserving generalisation: the procedure then ends unsatisfied, which the second reading "
         "forbids.")

TWO_OR_MORE = Reading(
    "two or more tie",
    "Brute-Force returns a minimum-G combination among those meeting G_min; whenever two or more tie, one of them "
    "uniformly at random",
    f"{D} §4 strategy 1",
    quotes=(Quote(D, "§4 strategy 1", "If more than two combinations have an identical entropy value, one of them is "
                  "randomly selected."),))
MORE_THAN_TWO = Reading(
    "more than two tie",
    "as above, but the random choice is prescribed only when three or more tie ('more than two', literally); a tie "
    "of exactly two may be broken either way",
    f"{D} §4 strategy 1 (literally)",
    quotes=(Quote(D, "§4 strategy 1", "If more than two combinations have an identical entropy value"),))
BRUTE_TIES = Definition("brute-force-ties", "Brute-Force's tie rule (004 §4 strategy 1)",
                        readings=(TWO_OR_MORE, MORE_THAN_TWO))

ANY_TIE = Reading(
    "any tie, uniform Random-Fit",
    "Best-Fit and Worst-Fit remove a value of locally minimal (maximal) G, any of them when several tie (no tie rule "
    "is printed); Random-Fit removes a uniformly random remaining value",
    f"{D} §4 strategies 2-4",
    quotes=(Quote(D, "§4 strategy 4", r"substituting v_i with $*$ at a time where v_i is randomly selected"),))
LOCAL_MIN = Reading(
    "local minimum",
    "each round removes a value whose removal gives the least G(Q̂, a) among the remaining values (any of them on a "
    "tie), whether or not that Q̂ meets G_min, as strategy 2 prints",
    f"{D} §4 strategy 2",
    quotes=(_STRATEGY2_Q,))
BEST_FIT = Reading(
    "best fit",
    "each round removes, among the values whose removal already gives a Q̂ meeting G_min, one of least G (the tightest "
    "fit, as the objective Eq. (4) minimises G subject to G ≥ G_min); when no single removal meets G_min, one of least "
    "G overall (any of them on a tie)",
    f"{D} §4 (the objective before Eq. (4), Eq. (4)'s constraint, the 'best' choice of the greedy strategies)",
    quotes=(Quote(D, "§4", "So we now focus on finding the query to minimize the *guessing entropy* of the query while "
                  "staying over G_{min} ."),
            Quote(D, "§4", r"& \text{subject to } f(x_1, x_2, \dots, x_m) \geq G_{min}"),
            Quote(D, "§4", "The Best-Fit and Worst-Fit strategies are greedy algorithms which select an attribute to be "
                  r"removed as the “best” choice at each iteration until the modified query \widehat{Q} satisfies the "
                  "privacy requirement G_{min} .")))
BEST_FIT_CHOICE = Definition(
    "best-fit-choice", "what Best-Fit minimises in each round (004 §4 strategy 2)", readings=(LOCAL_MIN, BEST_FIT),
    note="The readings differ only in a round where some single removal already meets G_min: the local minimum may "
         "remove another value of lower G (and miss), the best fit then stops satisfied. Worst-Fit (maximum) and "
         "Random-Fit have one reading each.")

FIT_TIES = Definition("fit-strategy-ties", "the greedy strategies' choices (004 §4 strategies 2-4)", readings=(ANY_TIE,),
                      note="A refuting witness for a greedy strategy has no tie on its removal path, so it refutes under "
                           "every tie rule; Random-Fit fails when a removal order of positive probability fails.")

AT_LEAST_L = Reading(
    "at least l values",
    "(a, l): an adversary can narrow the value down to a set of at least l distinguishable values",
    f"{D} §6",
    quotes=(Quote(D, "§6", "can only nar- row down the possible values to a set containing at least l distinguishable "
                  "sensitive attribute values"),))
MORE_THAN_L = Reading(
    "more than l values",
    "(a, l): the adversary must choose one out of more than l values, as the l = 25 example glosses it",
    f"{D} §6, the example",
    quotes=(Quote(D, "§6", "an adversary must choose one out of more than 25 values"),))
L_REQ = Definition("l-requirement", "the ℓ-diversity requirement (a, l) of 004 §6", readings=(AT_LEAST_L, MORE_THAN_L),
                   note="(l + 1)/2 is exactly reached by l equally likely values, so it guarantees 'at least l' and not "
                        "'more than l' (which would need G_min > (l + 1)/2).")

TRAFFIC_AS_DEFINED = Reading(
    "matching tuples",
    "the traffic overhead of a query is the number of tuples of the provider's database (taken identical to the "
    "auxiliary information) that match it; the query's own size is ignored",
    f"{D} §5",
    quotes=(Quote(D, "§5", "i.e. the number of tuples in service provider’s database corresponding to a query."),))
TRAFFIC = Definition("traffic-overhead", "traffic overhead (004 §5)", readings=(TRAFFIC_AS_DEFINED,))

EVALUATIONS = Reading(
    "entropy evaluations",
    "a bound counts G evaluations (step 1) times the O(n log n) sort of step (2), as the paper costs them",
    f"{D} §4",
    quotes=(Quote(D, "§4", "Basically, the computation of each strategy consists of two steps: (1) selection of "
                  "candidate attributes and (2) computation of guessing entropy with the selected attributes."),
            Quote(D, "§4", r"That is, the step (2) requires $O(n \log n)$ time where n is the number of distinct domain "
                  "values in the target attribute a .")))
TOTAL_WORK = Reading(
    "total work",
    "a bound is the total running time on an auxiliary table of N tuples, computing each G from the table (counting "
    "the matching tuples' target values, then sorting)",
    f"{D} §4 ('total running time') and §3",
    quotes=(Quote(D, "§4", r"Thus the total running time of Brute-Force is $O(2^m \cdot n \log n)$."),
            Quote(D, "§3", "This is because the computation overhead of entropy values is proportional to the number of "
                  "tuples.")))
COST_MODEL = Definition("complexity-cost-model", "what 004 §4's running times count", readings=(EVALUATIONS, TOTAL_WORK),
                        note="Counting the matching tuples reads every one of them (flipping any single tuple's target "
                             "value changes G): Θ(N) per evaluation, which the bounds, in m, r and n only, omit.")

_UNIFORM_Q = Quote(D, "§4", "under the assumption of uniform distribution, the *traffic overhead* becomes larger as the "
                   "*guessing entropy* increases.")
ONE_MULTIPLICITY = Reading(
    "one multiplicity",
    "every match set is uniform with the same multiplicity k (each value it contains occurs k times), so N = k·n and "
    "G = (n + 1)/2",
    f"{D} §4 and §5",
    quotes=(_UNIFORM_Q, Quote(D, "§5", "If the given values of the targeted attribute are uniformly distributed, the "
                              "*traffic overhead* should be minimized when the query is provided")))
UNIFORM_MATCHES = Reading(
    "uniform match sets",
    "every generalisation compared has a uniform match set (any multiplicity)",
    f"{D} §4", quotes=(_UNIFORM_Q,))
UNIFORM_TABLE = Reading(
    "uniform target in the table",
    "the target attribute's values are equally frequent in the auxiliary table (a flat histogram), any generalisations "
    "of one query compared",
    f"{D} §4 and §5 (the histogram of Fig. 3 (a))",
    quotes=(_UNIFORM_Q, Quote(D, "§5", "However, our dataset rarely shows the uniform distribution.")))
UNIFORM = Definition("uniform-distribution", "'under the assumption of uniform distribution' (004 §4, §5)",
                     readings=(ONE_MULTIPLICITY, UNIFORM_MATCHES, UNIFORM_TABLE))

ROW = Reading(
    "values of a random tuple",
    "a random query takes each attribute's value from one uniformly drawn tuple (the querier is in the auxiliary "
    "information) with probability 2/3, '*' with probability 1/3; the target's value is omitted",
    f"{D} §5",
    quotes=(Quote(D, "§5", "We assume that a service provider’s database is identical to the public auxiliary "
                  "information"),
            Quote(D, "§5", "a random query is carefully generated by selecting either a domain value with the "
                  "probability $2/3$ or the “don’t care” value with the probability $1/3$ for an attribute in the query.")))
DOMAIN = Reading(
    "uniform domain values",
    "each attribute's value is drawn uniformly from its domain with probability 2/3, '*' with probability 1/3 (the "
    "query may match no tuple)",
    f"{D} §5",
    quotes=(Quote(D, "§5", "a user’s query is simulated with randomly selected attribute values in the given domain "
                  "including the “don’t care” value."),))
QUERY_SIM = Definition("random-queries", "§5's random queries", readings=(ROW, DOMAIN),
                       note="Table 2 prints a finite ratio to the original query's traffic at every level, exactly "
                            "1.0000 at the first: an original query that matches nothing has traffic 0.")
