"""The audit records of the general maskit claims (issue 21, item 5): how each verdict was re-derived from the seed
text with code independent of the check (``property_tests/test_audit_maskit.py``: its own stream enumeration, Bayes'
rule, a literal Algorithm 4 and a literal weak adversary, in fractions), and the readings considered and rejected with
the quote that decides them. The examples, the reproductions and Claim 6 carry their audit beside their check.
"""

from __future__ import annotations

from privclaims.checks.quotes import S000, S001
from privclaims.checks.readings import Audit, Rejected

T = "property_tests/test_audit_maskit.py"
BAYES = (f"Re-derived with {T}: random small chains (n <= 3, T <= 3, rational rows with zeros) and suppression vectors, "
         "every input stream enumerated and every output's posterior computed by Bayes' rule in fractions, compared with "
         "the exact twin the check uses. ")
SIM = (f"Re-derived with {T}: a literal Algorithm 4 written from the listing (possible states = contexts of positive "
       "probability consistent with the released positions; posteriors by enumerating those streams), run on every input "
       "stream of random small chains and compared with MaskIt's simulatable check. ")
WEAK = (f"Re-derived with {T}: a weak adversary written from 001 §6 as a mixture over (ID stream, label stream) worlds, "
        "posteriors by Bayes' rule over the worlds, on random set-labelled generalisations. ")
MEASURED = ("A running-time statement: checked on operation counts (beliefs, multiply-adds, ISPRIVATE calls) of the "
            "exact twin on growing chains, with the bound the text prints; not re-derived beyond reading the count "
            "against the printed bound. ")
BOUNDED = "The check can fail: a counterexample found by its search is returned as refuted with the (validated) instance."

FOR_ANY = Rejected(
    "“for any possible state” as 'for some possible state'",
    "the listing returns false as soon as one possible state breaches, i.e. it releases only if no possible state does",
    ((S000, "§3.5 Algorithm 4", r"for each possible state  $j$  at time  $t'$  given  $\vec{o}$  do"),))

AUDITS: dict[str, Audit] = {
    "maskit.def_markov": Audit(BAYES + "The joint Π a^(t) sums to 1 and satisfies the Markov property (3.1) by "
                               "enumeration; malformed rows are rejected. " + BOUNDED),
    "maskit.eq3_2": Audit(BAYES + "Both printed forms are tested as the claim's own readings: the thesis's (any j) and "
                          "001's (j = i, an index slip that still states a true special case)."),
    "maskit.def_utility": Audit(BAYES + "Σ_o Pr[o]·#released = Σ_{t,i} Pr[X_t = c_i](1 - p_i^t) holds; 000 §3.4 prints the "
                                "left side as Σ_o Pr[o | {i | o_i ≠ ⊥}], which is not an expectation: a misprint "
                                "(discrepancy), not a second reading.",
                                (Rejected("Σ_o Pr[o | {i | o_i ≠ ⊥}] as printed in 000 §3.4",
                                          "a probability conditioned on a set of positions sums to no count; the thesis's "
                                          "own §3.3 defines utility as the expected number of released states",
                                          ((S000, "§3.3 'Utility Goal'", r"We measure the utility of a system for a user with chain M as the expected number of released states in an output sequence."),)),)),
    "maskit.prop1": Audit(BAYES + "Pr[X_t = c_i] = (A^(1)···A^(t))_i."),
    "maskit.def_hmm": Audit(BAYES + "α/β of Eq. 3.3 against the posterior by Bayes over all streams."),
    "maskit.prop2": Audit(BAYES + "The HMM with Proposition 2's emissions gives the literal MaskIt system's posterior."),
    "maskit.def_util_prob": Audit(f"{T} recomputes utility^Prob on Figure 3.4(b) by enumerating outputs: 7/3 for the "
                                  "z-vector, equal to Σ (1 - p) Pr[X_t = c_i]."),
    "maskit.def7": Audit(BAYES + "privacy(p) = max(0, largest gain) is the least δ with δ-privacy because Definition 6 is "
                         "non-strict (a minimum exists).",
                         (Rejected("strict '<' in Definition 6 (then the smallest δ would not exist)",
                                   "Example 1 counts a gain of exactly δ as δ-private",
                                   ((S000, "§3.4.2", r"We denote by $\text{privacy}(\vec{p})$ the smallest δ value for which \vec{p} preserves δ -privacy."),)),)),
    "maskit.def8": Audit("Exhaustive on {0, 1/2, 1}^2: the pointwise order; it is a partial order although both documents "
                         "announce 'a total ordering' (a remark the definition does not rely on).",
                         (Rejected("⪯ as a total order", "the definition is pointwise; (0, 1) and (1, 0) are incomparable",
                                   ((S000, "§3.4.2 (before Definition 8)", r"we introduce a total ordering of suppression probabilities."),)),)),
    "maskit.cx_discretize": Audit("Re-derived by hand: {0, 1/d, ..., 1} has d + 1 points, so (d+1)^(nT) vectors; the "
                                  "printed d^(nT) is off by one in the base (discrepancy); the two readings under which it "
                                  "would be right are recorded with their quotes in the check's reading."),
    "maskit.alg1": Audit(BAYES + "Every output of the three checks satisfies o_t ∈ {x_t, ⊥}; counting transitions recovers "
                         "the figures' chains.",
                         (Rejected("counting over all later times (not consecutive steps)",
                                   "the text counts transitions from t - 1 to t",
                                   ((S000, "§3.3", r"The transition probability $a_{i,j}^t$ can be estimated as the number of times the user went from c_i at time $t - 1$ to c_j at time t divided by the number of times the user went from c_i at time $t - 1$ to some other context at time t ."),)),)),
    "maskit.alg2": Audit(BAYES + "ISPRIVATE over all outputs decides Definition 6 on the literal system. " + BOUNDED),
    "maskit.def_masksensitive": Audit(BAYES + "MaskSensitive's 0/1 emissions give the literal MaskSensitive posterior."),
    "maskit.prop3": Audit(BAYES + "For every full output and t the posterior equals the one of the segment between the "
                          "nearest releases. " + BOUNDED),
    "maskit.prop4": Audit(BAYES + "For output prefixes ending in ⊥s the posterior equals the segment's."),
    "maskit.text_partial_calc": Audit(BAYES + "Pr[o_t1, ⊥..⊥, o_t2] > 0 iff the text's conditions (1)-(3)."),
    "maskit.alg_partial": Audit(BAYES + "The largest gain over the partial outputs of Lines 1-2 equals the one over all "
                                "outputs."),
    "maskit.text_possible": Audit(SIM + "Possible states by reachability = contexts consistent with the releases."),
    "maskit.prop5": Audit(SIM + "The posterior on the literal simulatable system is Pr[X_t = s | X_t1, X_t2] of the "
                          "nearest releases."),
    "maskit.cor1": Audit(BAYES + "Corollary 1's product of Eq. 3.2 terms equals the conditional by enumeration."),
    "maskit.claim2": Audit(SIM + "Inputs agreeing on the released positions produce the same output."),
    "maskit.claim3": Audit(SIM + "Pr[o | x] is 1 on agreeing inputs and 0 elsewhere."),
    "maskit.thm3": Audit(BAYES + "For random p ⪯ q (grid {0, 1/3, 2/3, 1}) the largest gain never rises; also exhaustive "
                         "on Figure 3.3. " + BOUNDED),
    "maskit.text_thm3_cases": Audit(BAYES + "Raising one p_i^t' leaves every posterior with o_t' ≠ ⊥ unchanged."),
    "maskit.claim1": Audit(BAYES + "Claim 1 (Eq. 3.5) on every output with o_t' = ⊥ where the posterior rose."),
    "maskit.obs1": Audit(BAYES + "utility(q) <= utility(p) for q ⪰ p: termwise from Σ Pr[X_t = c_i](1 - p_i^t)."),
    "maskit.text_search": Audit(BAYES + "The greedy MONDRIAN vector is minimal on its grid and never above the grid "
                                "optimum; the text adds that other minimal vectors may have more utility (the check "
                                "counts the instances where they do)."),
    "maskit.lem1": Audit(BAYES + "The vector initialize chooses is δ-private on the literal system."),
    "maskit.lem2": Audit(f"{T} recomputes the grid optimum (brute force over {{0, 1/2, 1}}) and Example 2's off-grid "
                         "optimum against the d = 10 grid (best grid vector p_x = 4/10, utility 3/10 < 1/3): the lemma "
                         "holds on the grid ALGPR searches and fails “among all suppression probabilities” "
                         "(reading-dependent, the optimum's domain being a definition with both readings)."),
    "maskit.lem4": Audit(BAYES + "The refined ISPRIVATE (partial outputs) gives the same answer and the same largest gain "
                         "as Algorithm 2 over all outputs. " + BOUNDED),
    "maskit.lem5": Audit(BAYES + "Skipping the triplets that passed under p ⪯ q does not change ISPRIVATE(q). " + BOUNDED),
    "maskit.alg3": Audit(BAYES + "The search with the shared cache returns the same vector as without it."),
    "maskit.thm4": Audit(f"As maskit.lem2 for the utility part ({T}); the privacy part is Lemma 1's (the chosen vector is "
                         "private on the literal system) and the call count is measured against brute force."),
    "maskit.cx_search": Audit(MEASURED + "MONDRIAN's ISPRIVATE calls per coordinate per log2(d+1) stay below 4.",
                              (Rejected("a bound on wall-clock time", "the statement counts calls",
                                        ((S000, "§3.4.5", r"MONDRIAN calls ISPRIVATE $O(Tn \log(d))$ times when using binary search."),)),)),
    "maskit.lem3": Audit(MEASURED + "Beliefs of the refined ISPRIVATE stay below n^3 T^3; Algorithm 2's output count grows "
                         "exponentially in T.",
                         (Rejected("'at most n^3 T^3' as an order of growth only", "the proof states it as a count",
                                   ((S000, "§3.4.5 proof of Lemma 3", r"Thus, at most $n^3 T^3$ times beliefs are computed."),)),)),
    "maskit.lem8": Audit(MEASURED + "Beliefs per okayToRelease stay below n^2 T.",
                         (Rejected("“at most n^2T beliefs” as an order of growth only", "the proof states it as a count",
                                   ((S000, "§3.5.4 proof of Lemma 8", r"Thus, at most n^2T beliefs are computed."),)),)),
    "maskit.p_text_d": Audit("On nested grids (d = 1, 2, 4, each containing the coarser) the exhaustive optimum cannot "
                             "fall and its ISPRIVATE count rises; measured on two synthetic chains."),
    "maskit.alg4": Audit(SIM + "Algorithm 4's decisions equal the literal reading and its system is δ-private.", (FOR_ANY,)),
    "maskit.lem6": Audit(SIM + "The literal simulatable system is δ-private on random chains, and exhaustively on small "
                         "template chains. " + BOUNDED),
    "maskit.alg5": Audit(SIM + "Algorithm 5 (t from t''+1) gives a δ-private system (exact and fast twins)."),
    "maskit.lem9": Audit(SIM + "Along every run Algorithm 5's decision equals Algorithm 4's."),
    "maskit.claim5": Audit(SIM + "For t <= t'' the posterior given the output so far is within δ of the prior."),
    "maskit.lem7": Audit(SIM + "Wherever the check suppresses, releasing and then suppressing everything breaches. The "
                         "lemma speaks of any later decisions made from the output; the check tests the all-suppress "
                         "continuation, and the breach of the released prefix (Algorithm 4's condition) carries over to "
                         "every continuation because the posterior given a prefix is the average of its completions'.",
                         (Rejected("later decisions that may look at the inputs",
                                   "the lemma's proof allows only decisions from the output released so far",
                                   ((S000, "§3.5.3 proof of Lemma 7", r"Privacy is breached no matter how the following release or suppress decisions are made as long as they are made only by considering the output released so far."),)),)),
    "maskit.claim4": Audit(SIM + "When the next state is released some possible c_k does not lower the posterior."),
    "maskit.text_ex4_weakness": Audit(SIM + "A possible sensitive state with prior < 1 - δ makes okayToRelease false: "
                                      "releasing it would give posterior 1."),
    "maskit.thm5": Audit(SIM + "Privacy of Algorithm 5, an empty initialize, and at most n·|S|·T beliefs per decision "
                         "(greediness is maskit.lem7)."),
    "maskit.def_supp": Audit(SIM + "T - γ_start(0) equals the expected number of releases by enumeration; a Monte-Carlo "
                             "run on a larger chain agrees within 4 standard errors."),
    "maskit.thm6": Audit(SIM + "Both utilities equal the literal expected releases and the hybrid picks the larger. Read "
                         "as expected utility: 001 §7.2 itself reports the hybrid picking the worse check for 5% of users' "
                         "actual traces.",
                         (Rejected("utility measured on one realised trace",
                                   "the documents report the hybrid erring on realised traces, so the theorem is about "
                                   "the expectation it computes",
                                   ((S001, "§7.2", r"In our experiment, for 95% of the users the hybrid check picks indeed the check suppressing fewer states in the trace."),)),
                          Rejected("the proof's middle step as printed, Σ_{i,t} Pr[X_t = c_i]·Pr[O_t = ⊥ | X_t = c_i]",
                                   "it sums suppression probabilities, the expected number of SUPPRESSED states; the "
                                   "step intended is Pr[O_t = c_i | X_t = c_i] = 1 - p_i^t, as the proof's next line and "
                                   "its first line (expected released states) show. A misprint in the proof in both "
                                   "documents, not in the theorem's statement (which names no formula); the evidence's "
                                   "proof_middle_step shows the two sums on Example 2 exactly",
                                   ((S000, "§3.6.1 proof of Theorem 6", r"\sum_{i,t} \Pr[X_t = c_i] \cdot \Pr[O_t = \perp | X_t = c_i]"),
                                    (S000, "§3.6.1 proof of Theorem 6", r"&= \sum_{i,t} (1 - p_i^t) \Pr[X_t = c_i]"),
                                    (S001, "§5.1 proof of Theorem 5", r"= \sum_{i,t} \Pr[X_t = c_i] \cdot \Pr[O_t = \bot | X_t = c_i]"))),)),
    "maskit.claim7": Audit(SIM + "Outputs agreeing on the last release get the same decision."),
    "maskit.text_offline_online": Audit(SIM + "A precomputed supp(i, t) table reproduces every online decision; the "
                                        "simulatable check's initialize does nothing."),
    "maskit.p_def_weak": Audit(WEAK + "Eqs. (9) and (10) hold for label distributions on Π(a) containing the true context."),
    "maskit.p_ex5": Audit(f"{T} recomputes Example 5's Π, S' and μ from the figure's prose."),
    "maskit.p_eq11": Audit(WEAK + "Eq. (11) equals the prior of the literal mixture."),
    "maskit.p_ex6": Audit(f"{T} recomputes Example 6 as a mixture of three equally likely worlds (s, y, z): prior 1/6, "
                          "posterior given ⊥ 3/4 (probabilistic) and 1/2 (simulatable).",
                          (Rejected("an adversary that does not learn from ⊥",
                                    "the example's adversary 'infers M' from the suppression",
                                    ((S001, "§6 Example 6", r"The adversary infers Mand his posterior belief about  $X_1 = s$  given  $\perp$  is 3/4 for the probabilistic check and 1/2 for the simulatable check."),)),)),
    "maskit.p_lc1": Audit(WEAK + "Theorem 7's construction satisfies (LC1) for random M'' (label distributions)."),
    "maskit.p_lc2": Audit(f"{T}: Example 6's strong-adversary gain is 1/4 <= δ while the learning weak adversary's is 7/12 "
                          "> δ, so (LC2) can fail where strong-adversary privacy holds."),
    "maskit.p_text_freq_only": Audit(f"{T} recomputes, on Figure 3.4(b) with only s1, s2 suppressed, the frequency-only "
                                     "adversary's largest gain (independent time steps) and the strong adversary's "
                                     "posterior 1."),
    "maskit.p_thm6": Audit(WEAK + "With M published, the frequency-knowing adversary's prior and posterior are the strong "
                           "adversary's (Eqs. 14-15), so the gain is F's."),
    "maskit.p_thm7": Audit(WEAK + "F(δ/μ, M', S') on Π-transformed inputs keeps every M'' between M' and M within δ, for "
                           "both of MaskIt's checks as F."),
    "maskit.p_claim7": Audit(WEAK + "ID-level gains of the IDs in S' stay within δ/μ."),
    "maskit.p_claim8": Audit(WEAK + "Given the ID, the output carries no information about the label."),
    "maskit.p_claim9": Audit(WEAK + "Claim 9's bound for random M''."),
    "maskit.p_claim10": Audit(WEAK + "The output distribution does not depend on the labels, so the adversary learns "
                              "nothing about M from it."),
}


# --------------------------------------------------------------------------- readings that do not apply to one claim
from privclaims.checks.readings import NotApplicable  # noqa: E402

NA_ALL_SEARCH = NotApplicable(
    "probabilistic-optimum", "all vectors",
    "the greedy MONDRIAN search lowers each probability by binary search over the grid {0/d, ..., d/d}; 'minimal' and "
    "'more utility' are relative to that grid",
    ((S000, "§3.4.5", r"MONDRIAN calls ISPRIVATE $O(Tn \log(d))$ times when using binary search."),))
NA_ALL_D = NotApplicable(
    "probabilistic-optimum", "all vectors",
    "the statement compares grids of different granularity d; over all vectors there is no d",
    ((S001, "§7.1 'Systems'", r"For higher values of d we expect the utility but also the computational cost to go up."),))
NA_ANY_SYSTEM_6 = NotApplicable(
    "system-model", "any system",
    "001 §6 is inside 001's model, where a system is a suppression system; the thesis, which states Definition 6 for any "
    "system, has no counterpart of §6",
    ((S001, "§2.1 'Adversary Model'", r"We further assume that adversaries can access the full output sequence generated by a general suppression system  $\mathcal{A}$"),))
NA_SUPPRESSION_THM2 = NotApplicable(
    "system-model", "suppression system",
    "Theorem 2's system generalises each context to a cut node - not a suppression system; 001, whose model has only "
    "suppression systems, leaves generalisation for future work",
    ((S001, "§2.1", r"Other ways of sanitizing the output, e.g., generalization, are left for future work."),
     (S000, "§2.2.2 Theorem 2", r"Generalizing each context to its unique ancestor on the cut preserves $1/\ell - 1/n$ -privacy against adversaries knowing the system."),))
