"""The ad-delivery model of 000_211156f2009240b4.txt ch. 4 and 002_9d55ef468949585c.txt §2-3, §5, with the
readings the documents support (issue 21). Every ads claim declares which of these it rests on.

* :data:`AD_MODEL` — what an instance is: leaf contexts below ĉ with ``Pr[c|ĉ]``, ``CTR(a|c)`` in [0, 1], and
  payments per ad (§4.2.1) or per ad and context (the advertisers' bids of §4.3.2). Both payment models give the
  same value matrices ``v(a, c) = p·CTR`` (``p_a = max_c v(a, c)`` realises any non-negative matrix with per-ad
  payments: :func:`privclaims.theory.ads.models.per_ad_realisation`), so a claim that depends on the values only
  has one outcome under both; claims about CTRs or bids themselves can tell them apart.
* :data:`CLIENT_RULE` — what the client displays (§4.2.3 vs the experiments' coverage).
* :data:`CTR_THRESHOLD` — the relevance constraint of §4.3.2 (one reading: strictly below τ is zeroed).
* :data:`GREEDY_ARGMAX` — Algorithm 6's ``argmax_a b_a``: over the ads not yet chosen, or over all of 𝒜 as
  printed; no tie rule is printed, so every claim is owed its outcome under every tie rule.
* :data:`ALT_RANGE` — the range of k in Eq. (4.3) and of k′ in Greedy′ (from 0 or from 1).
* :data:`GREEDY2_STOP` — when Greedy″'s modified while-loop stops, and what "the last set of ads A" is.
* :data:`PRIVACY_CUT` — 002 §2.1's cut in the context hierarchy.
* :data:`SUPPORT_THRESHOLD` — "enough click data" (§4.4.1): support ≥ or > the threshold.
* :data:`EXPERIMENT_SETUP` — the §4.4.1 generalisation levels, context hierarchy and metrics (one reading).
"""

from __future__ import annotations

from privclaims.checks.readings import Definition, Quote, Reading

T = "000_211156f2009240b4.txt"
P = "002_9d55ef468949585c.txt"

# --------------------------------------------------------------------------- the instance

PAY_PER_AD = Reading(
    "payments per ad",
    "an instance is (Pr[c|ĉ] over the leaves c → ĉ, CTR(a|c) in [0, 1], one payment p_a ≥ 0 per ad); the value of "
    "showing a in c is p_a·CTR(a|c)",
    f"{T} §4.2.1 (and {P} §2.2.1): p_a is paid for a click on ad a",
    quotes=(Quote(T, "§4.2.1", "For a click on ad a the ad service provider is being paid p_a from the advertiser."),
            Quote(T, "§4.2.1", r"The expected revenue of displaying an ad a to a user in context c is $p_a \cdot "
                               r"\text{CTR}(a|c)$.")))
PAY_PER_CONTEXT = Reading(
    "payments per ad and context",
    "the same with a context-dependent payment p_a(c) ≥ 0 (an advertiser's bid, 0 outside the contexts it bids on), "
    "which §4.3.2 says the algorithm incorporates; the value of showing a in c is p_a(c)·CTR(a|c)",
    f"{T} §4.3.2 'Advertisers' Control' (and {P} §3.3.2)",
    quotes=(Quote(T, "§4.3.2 'Advertisers' Control'", "Our algorithm can incorporate additional restrictions posed by "
                  "advertisers on the contexts in which their ads are being displayed."),
            Quote(T, "§4.3.2 'Advertisers' Control'", "we can make the payment p_a context-dependent and set it to 0 for "
                  "all but the contexts the advertiser bids on.")))
AD_MODEL = Definition(
    "ad-model", "an ad-delivery instance for a generalised context ĉ (000 §4.2.3, 002 §3.2)",
    readings=(PAY_PER_AD, PAY_PER_CONTEXT),
    quotes=(Quote(T, "§4.2.3 'Server-Side Computation'", "Then the server can reason about the probability with which "
                  r"the user is in a context c for all descendant leaves $c \rightarrow \hat{c}$."),),
    note="Both readings give the same set of value matrices: any v ≥ 0 is p_a·CTR with p_a = max_c v(a, c) and "
         "CTR = v/p_a (privclaims.theory.ads.models.per_ad_realisation). A claim that depends only on the values (the "
         "expected revenue, Greedy, the optimum) therefore has the same truth under both; the check runs one search "
         "over context-dependent instances and builds each one's per-ad realisation, checking it has the same values. Pr[c|ĉ] = Pr[c]/Pr[ĉ] over "
         "the leaves below ĉ and CTR(a|c) in [0, 1] have one reading each.")

# --------------------------------------------------------------------------- the client

ALWAYS_SHOW = Reading(
    "client always shows a*",
    "the client displays a* = argmax_{a∈A} p_a·CTR(a|c) among the ads A it received, whatever its value (ties: any "
    "maximiser; the documents give no tie rule)",
    f"{T} §4.2.3 'Client-Side Computation' and 'Our Optimization Goal'; {P} §3.2",
    quotes=(Quote(T, "§4.2.3", r"The user then picks an ad $a^* \in A$ to display."),
            Quote(T, "§4.2.3 'Client-Side Computation'", "For a given set of ads A chosen by the server, a client in "
                  r"context c maximizes the revenue by selecting the ad $$a^* = \arg \max_{a \in A} p_a \cdot "
                  r"\text{CTR}(a|c).$$")))
ABSTAIN = Reading(
    "client shows nothing of value 0",
    "the client displays a* unless every ad it received has value p_a·CTR(a|c) = 0 in its context (a zeroed CTR or "
    "an unbid context), in which case it displays nothing — as the experiments' coverage metric presupposes",
    f"{T} §4.4.1 'Metrics' and §4.4.2 'Effect of CTR Threshold'",
    quotes=(Quote(T, "§4.4.2 'Effect of CTR Threshold'", "For a high value of the CTR threshold, an ad will be shown "
                  "only if it is highly relevant."),
            Quote(T, "§4.4.2 'Effect of CTR Threshold'", "a high threshold reduces the number of ads displayed"),
            Quote(T, "§4.4.1 'Metrics'", "The fraction of contexts for which our framework computes and displays a "
                  "targeted business.")))
CLIENT_RULE = Definition(
    "ad-client-choice", "what the client displays (000 §4.2.3 'Client-Side Computation'; 002 §3.2.1)",
    readings=(ALWAYS_SHOW, ABSTAIN),
    note="The framework (§4.2.3) has the user always pick a* from A; the experiments (§4.4) count contexts in which no "
         "ad is displayed. Both readings give the same expected revenue (an ad of value 0 earns 0); they differ in "
         "what is displayed, i.e. in relevance, coverage and the §4.3.2 constraints.")

CTR_BELOW_ZEROED = Reading(
    "strictly below τ is zeroed",
    "a CTR strictly below the threshold τ is replaced by 0 before any computation; a CTR equal to τ is kept",
    f"{T} §4.3.2 'Additional Constraints' (the same sentence in {P} §3.3.2)",
    quotes=(Quote(T, "§4.3.2 'Additional Constraints'", "We can incorporate a constraint on ad relevance by setting the "
                  "CTR to zero whenever it is below a certain threshold."),))
CTR_THRESHOLD = Definition(
    "ctr-threshold", "the CTR threshold, the relevance constraint of 000 §4.3.2 (the experiments' 'threshold on "
    "click-through rate')",
    readings=(CTR_BELOW_ZEROED,),
    note="'below' is strict; zeroing at equality ('at most τ') was considered and is not what the text says.")

# --------------------------------------------------------------------------- the algorithms

NEW_ADS = Reading(
    "argmax over new ads",
    "each round of Algorithm 6 adds an ad of largest benefit b_a among the ads not yet in A (any maximiser: no tie "
    "rule is printed), so A grows by one ad per round and the loop ends after k rounds",
    f"{T} §4.3.1 (and {P} §3.3.1): the prose that introduces the pseudocode",
    quotes=(Quote(T, "§4.3.1", "Algorithm 6 shows a greedy algorithm, called Greedy, that constructs a set A of k ads "
                  "incrementally. It starts with A empty and in each round, the ad that increases the expected revenue "
                  "the most is added to A ."),))
ALL_ADS_AS_PRINTED = Reading(
    "argmax over all ads, as printed",
    "the argmax ranges over every a ∈ 𝒜 of the for-loop, chosen ads included (their benefit is 0); with no tie rule "
    "printed, any maximiser may be returned, also an ad already in A (then A does not grow). A claim about Greedy's "
    "output is evaluated on every run that outputs (partial correctness); whether every run halts is the claim "
    "ads.alg6's",
    f"{T} §4.3.1 Algorithm 6; {P} §3.3 Algorithm 1",
    quotes=(Quote(T, "§4.3.1 Algorithm 6", r"for  $a \in \mathcal{A}$  do"),
            Quote(T, "§4.3.1 Algorithm 6", r"$A \leftarrow A \cup \{\text{argmax}_a b_a\}$")))
GREEDY_ARGMAX = Definition(
    "greedy-argmax", "the argmax of Algorithm 6 (000 §4.3.1; Algorithm 1 of 002 §3.3), and its ties",
    readings=(NEW_ADS, ALL_ADS_AS_PRINTED),
    note="Ties: the documents give no rule, so both readings admit every maximiser; the checks enumerate every "
         "reachable greedy state (privclaims.theory.ads.greedy_runs). Under 'as printed' a round whose largest benefit "
         "is 0 may re-pick a chosen ad; every run that does reach k ads is also a run over the new ads (a new ad "
         "always ties with the chosen ones at benefit 0), so output claims coincide, and only termination differs.")

K_FROM_0 = Reading(
    "k from 0",
    "Eq. (4.3) maximises over k = 0, 1, .., |𝒜| (k = 0: send nothing, objective 0), and Greedy′ over the prefixes "
    "k′ = 0, .., |𝒜| of Greedy's order, written the same way",
    f"{T} §4.3.2 Eq. (4.3) and Proposition 7 (an unbounded max over k and argmax over k′)",
    quotes=(Quote(T, "§4.3.2", r"$$\max_k \max_{A \subset \mathcal{A}: |A|=k} \sum_{c: c \rightarrow \hat{c}} "
                  r"\Pr[c|\hat{c}] \cdot \max_{a \in A} p_a \cdot \text{CTR}(a|c) - \alpha k \quad (4.3)$$"),
            Quote(T, "§4.3.2 Proposition 7", r"outputs $k' = \arg \max_{k'} E[\text{Revenue}(\{a_1, \dots, "
                  r"a_{k'}\})] - \alpha k'$")))
K_FROM_1 = Reading(
    "k from 1",
    "both range over 1, .., |𝒜| (at least one ad is sent), the range the proof of Theorem 8 prints for k′",
    f"{T} §4.3.2 proof of Theorem 8",
    quotes=(Quote(T, "§4.3.2 proof of Theorem 8", r"This means that Greedy'' finds indeed $k' = \arg \max_{1 \leq k' "
                  r"\leq |\mathcal{A}|} E[\text{Revenue}(\{a_1, \dots, a_{k'}\})] - \alpha k'$"),))
ALT_RANGE = Definition(
    "alt-objective-range", "the range of k in the alternative objective Eq. (4.3) and of k′ in Greedy′ (000 §4.3.2)",
    readings=(K_FROM_0, K_FROM_1),
    note="Proposition 7 writes both maxima the same way (an unbounded max_k in Eq. (4.3), argmax_{k′} in Greedy′), "
         "so the two ranges are read together. Greedy′'s argmax over k′ has no tie rule: any maximising prefix is an "
         "admissible output (the objective value is the same).")

LOOK_AHEAD = Reading(
    "stop before a non-improving ad",
    "Greedy″ computes the next greedy ad and adds it only if it increases E[Revenue(A)] − α|A| (its benefit exceeds "
    "α); when it does not, the loop stops and outputs A without it — the set the proof says Greedy″ finds",
    f"{T} §4.3.2 proof of Theorem 8 (Greedy″ finds the argmax prefix); {P} §3.3.2",
    quotes=(Quote(T, "§4.3.2 proof of Theorem 8", r"Hence, the output of Greedy'' is the same as that of Greedy'."),
            Quote(P, "§3.3.2", "This modification works correctly because the following argument shows that as we "
                  "increase k, our new objective function increases until at some point it starts to decrease and "
                  "never increases again.")))
LOOP_TOP = Reading(
    "while-condition on the last step, last A output",
    "Algorithm 6's while-condition, evaluated before each round, is replaced by 'the current value of "
    "E[Revenue(A)] − α·|A| is increasing' (the last round increased it); the loop exits after the first round that "
    "did not, and Greedy″ outputs that last set A, which contains the non-improving ad (an unchanged A, when the "
    "argmax re-picks a chosen ad, is not an increase)",
    f"{T} §4.3.2 Theorem 8 and the sentence before it; {P} §3.3.2",
    quotes=(Quote(T, "§4.3.2", r"All we have to do is to replace the **while** condition in Algorithm 6 by a new one "
                  r"that checks whether the current value of $E[\text{Revenue}(A)] - \alpha \cdot |A|$ is increasing."),
            Quote(T, "§4.3.2 Theorem 8", r"The algorithm Greedy'' runs Greedy for as long as $E[\text{Revenue}(A)] - "
                  r"\alpha \cdot |A|$ is increasing and outputs the last set of ads A .")))
GREEDY2_STOP = Definition(
    "greedy-double-prime-stop", "when Greedy″'s modified while-loop stops and what it outputs (000 §4.3.2 Theorem 8; "
    "002 §3.3.2)",
    readings=(LOOK_AHEAD, LOOP_TOP),
    note="'Increasing' is strict (an equal value is not an increase) under both readings. The proof names the stopping "
         "round k′ with A = {a_1..a_k′} “not increasing any longer” and then calls it the argmax: the first reading "
         "is what the proof concludes, the second what the loop as described does.")

# --------------------------------------------------------------------------- 002 §2.1: the cut

CUT_OR_SELF = Reading(
    "ancestor-or-self on the cut",
    "a node's privacy counts the leaf contexts below it — (1) how many, (2) non-sensitive over sensitive (unbounded "
    "with no sensitive leaf) — both at least the user's minimum; a cut is a set of nodes such that every leaf has "
    "exactly one node of the cut on its path to the root, possibly itself (a leaf that meets the requirement is sent "
    "as it is)",
    f"{P} §2.1 'Privacy Guarantee'; {T} §2.2.2 Theorem 2 and its proof (descendants = the contexts the user may be in)",
    quotes=(Quote(P, "§2.1", "The privacy of a generalized context is measured as (1) its number of descendants and (2) "
                  "its ratio of non-sensitive descendants to sensitive descendants."),
            Quote(P, "§2.1", "we choose an appropriate cut in the context hierarchy so that (1) and (2) are satisfied and "
                  "each leaf node has exactly one ancestor on the cut to which it is generalized"),
            Quote(T, "§2.2.2 proof of Theorem 2", "the context must have been one of its descendants. The posterior "
                  "probability among these descendants remains uniform.")))
CUT_PROPER = Reading(
    "proper ancestor on the cut",
    "the same measure, but every leaf must be generalised to a proper ancestor: the cut consists of internal nodes "
    "only ('generalized' taken strictly)",
    f"{P} §2.1 ('each leaf node has exactly one ancestor on the cut to which it is generalized'); {T} §2.2.2",
    quotes=(Quote(T, "§2.2.2", "We choose a cut in the context hierarchy so that each leaf node has exactly one ancestor "
                  "on the cut to which it is generalized."),))
PRIVACY_CUT = Definition(
    "privacy-cut", "the privacy of a generalised context and the cut of the context hierarchy (002 §2.1; 000 §2.2.2)",
    readings=(CUT_OR_SELF, CUT_PROPER),
    note="Descendants are counted as leaf contexts (the contexts a user can be in; 000 Theorem 2 counts n contexts and "
         "a uniform posterior among a cut node's descendants); counting internal nodes as non-sensitive descendants "
         "would let a deep hierarchy meet any ratio without a single non-sensitive context, and is not read. 'Minimum "
         "privacy requirement' is met with ≥.")

# --------------------------------------------------------------------------- §4.4: the experiments

SUPPORT_GE = Reading(
    "enough = support ≥ threshold",
    "a context with at least 'threshold on support' training events is estimated from its own data; a rarer one from "
    "its first generalisation that has at least that many",
    f"{T} §4.4.1 'Click-Through-Rates' and 'Parameters' (a minimum support)",
    quotes=(Quote(T, "§4.4.1 'Click-Through-Rates'", r"we suggest estimating $\Pr[c]$ and $\text{CTR}(a|c)$ for a rare "
                  "context c based on contexts similar to c for which we have enough click data."),
            Quote(T, "§4.4.1 'Parameters'", "and the threshold on support to be 2.")))
SUPPORT_GT = Reading(
    "enough = support > threshold",
    "a context is estimated from its own data only when its support exceeds the threshold, as the thesis's own "
    "top-down CTR estimation (Algorithm 8) tests a node's count against min_support",
    f"{T} §5.5.3 Algorithm 8; {P} §4.4 Algorithm 3",
    quotes=(Quote(T, "§5.5.3 Algorithm 8", "if count $_v$ > min_support then"),
            Quote(P, "§4.4 Algorithm 3", "if count_v > min_support then")))
SUPPORT_THRESHOLD = Definition(
    "support-threshold", "when a context has 'enough click data' to be estimated from its own data (000 §4.4.1)",
    readings=(SUPPORT_GE, SUPPORT_GT),
    note="Supports are integers: '> 2' is '≥ 3'. The experiments' emulation (privclaims.theory.ads.aol) takes the "
         "minimum support as a parameter, so both readings are run.")

EXPERIMENT_AS_PRINTED = Reading(
    "as printed",
    "Level-i location truncates latitude and longitude to all, 4, 3, 2, 1, 0 decimals; interest and query levels map "
    "through the business hierarchy; the context hierarchy generalises one attribute one level per step along the "
    "printed chain; precision is the fraction of displayed targeted ads that are clicked, coverage the fraction of "
    "test contexts with a displayed targeted ad, averaged over 1,000 random test contexts; defaults (4, 2, 2), "
    "k = 10, CTR threshold 0.3, support threshold 2",
    f"{T} §4.4.1; {P} §5.1",
    quotes=(Quote(T, "§4.4.1 'Attribute Generalization'", "We use five levels of generalization for user location, "
                  "depending on how many decimal points we truncate from her latitude and longitude."),
            Quote(T, "§4.4.1 'Metrics'", "The fraction of targeted ads in our framework on which users actually click."),
            Quote(T, "§4.4.1 'Parameters'", "Unless otherwise stated, we use the following default configuration.")))
EXPERIMENT_SETUP = Definition(
    "ads-experiment-setup", "the §4.4.1 setup: attribute levels, context hierarchy, metrics and defaults (000 §4.4.1; "
    "002 §5.1)",
    readings=(EXPERIMENT_AS_PRINTED,),
    note="Rounding instead of truncating the coordinates was considered: the text says 'truncate'. Precision over all "
         "test contexts (instead of over displayed ads) was considered: “fraction of targeted ads ... on which users "
         "actually click” counts displayed ads.")
