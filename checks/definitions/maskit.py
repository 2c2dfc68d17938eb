"""MaskIt's definitions, notions, system and adversary models (000_211156f2009240b4.txt §2.2.2 and ch. 3 = the
thesis; 001_eb11505ae1399b83.txt = the MaskIt paper, incl. §6 weaker adversaries), each with the readings the
documents support (issue 21). Every maskit claim, and dp.def6 / dp.text_def6_subset / dp.text_def6_window /
dp.thm2, declares which of these it rests on (``rests_on``); the ledger then evaluates it under every combination
of their readings.

A definition with one reading records how it is read; its ``note`` names the readings that were considered and
why the documents do not support them (with the deciding phrase). Two definitions have two supported readings:

* :data:`SYSTEM_MODEL` - what a *system* is: any randomised map of input streams to outputs (thesis §2.2.2, where
  Theorem 2's generalisation to a hierarchy cut is such a system), or a suppression system of 001 §2.1 / thesis
  §3.3 (inputs sampled from a Markov chain; at each time the output is the true context or ⊥, decided online by
  a check called as ``okayToRelease(c_i, t, o)``). Witnesses of refuted claims are validated against the reading
  they refute (:mod:`privclaims.theory.maskit.models`).
* :data:`OPTIMUM_DOMAIN` - the set ``argmax utility`` ranges over in the probabilistic check's optimum: the grid
  {0/d, ..., d/d} that ALGPR searches (the proof of Lemma 2) or all suppression probabilities in [0, 1] (the
  statement of Lemma 2 / Theorem 4 and the problem posed in §3.4).

and :data:`PRIVATE_OUTPUT` - what "an output o preserving δ-privacy" (the sentences after Definition 6) asks: that
o itself satisfies the inequality, or that the system does.
"""

from __future__ import annotations

from privclaims.checks.quotes import S000, S001
from privclaims.checks.readings import Definition, Reading

# --------------------------------------------------------------------------- δ-privacy (Definition 6 / Definition 1)

DELTA_PRIVACY = Definition(
    "delta-privacy", "δ-privacy (000 §2.2.2 Definition 6 = 001 §2.1 Definition 1)",
    readings=(Reading(
        "difference, non-strict",
        "A system preserves δ-privacy iff for every output o of positive probability, every time t and every sensitive "
        "context s: Pr[X_t = s | o] - Pr[X_t = s] <= δ - a difference (not a ratio), against the prior at the same t, "
        "non-strict (a gain of exactly δ is private), the probabilities those of the adversary's model",
        f"{S000} §2.2.2 Definition 6; {S001} §2.1 Definition 1; {S000} §3.3 Example 1 (a gain of exactly δ is private)",
        quotes=(
            (S000, "§2.2.2 Definition 6", r"We say that a system \mathcal{A} preserves δ -privacy against an adversary if for all possible inputs \vec{x} , for all possible outputs \vec{o} ($\Pr[\mathcal{A}(\vec{x}) = \vec{o}] > 0$), for all times t and all sensitive contexts $s \in S$"),
            (S000, "§2.2.2 Definition 6", r"$$\Pr[X_t = s | \vec{o}] - \Pr[X_t = s] \leq \delta.$$"),
            (S001, "§2.1 Definition 1", r"for all possible inputs  $\vec{x}$  sampled from the Markov chain M with non-zero probability (i.e.,  $\Pr[\vec{x}] > 0$ ), for all possible outputs  $\vec{o}$  ( $\Pr[\mathcal{A}(\vec{x}) = \vec{o}] > 0$ ), for all times t and all sensitive contexts  $s \in S$"),
            (S000, "§3.3 Example 1", r'gives $\delta = 1/6$ -privacy, since the prior belief of $X_1 = \text{"Phone call"}$ is $1/2$ and the posterior belief is $2/3$'),
            (S000, "§3.4 Algorithm 2", r"if posterior – prior $> \delta$ then"),
        )),),
    quotes=((S000, "§3.1", r"Here, privacy is defined following Definition 6 with respect to a set of sensitive contexts."),),
    note="Considered and rejected: (1) a strict '< δ' - Example 1 calls a gain of exactly 1/6 'δ = 1/6-privacy' and every "
         "ISPRIVATE listing breaches only on “posterior – prior > $\\delta$”; (2) the thesis's “for all possible inputs” without "
         "001's 'Pr[x] > 0' as a second reading - Pr[X_t = s | o] is defined only for outputs of positive probability, "
         "which ISPRIVATE also requires (“if \\Pr[\\vec{o}] == 0 then continue”), so the two wordings select the same outputs on "
         "every instance; (3) outputs as prefixes o_1..o_t' rather than whole streams - a prefix's posterior is an "
         "average of its completions' posteriors, so the largest gain is the same.")

PRIVATE_OUTPUT = Definition(
    "private-output", "'an output o preserving δ-privacy' (the remarks after 000 Definition 6 / 001 Definition 1)",
    readings=(
        Reading("the output",
                "o itself satisfies Definition 6's inequality: Pr[X_t = s | o] - Pr[X_t = s] <= δ for every t and every "
                "sensitive s (other outputs of the system may breach)",
                f"{S000} §2.2.2: the remarks after Definition 6 quantify over outputs; §3.3 (Privacy Goal) applies "
                "Definition 6 to a released sequence",
                quotes=(
                    (S000, "§2.2.2 (after Definition 6)", r"For a time window of length Δ any \vec{o} preserving δ/Δ -privacy we have that the posterior belief formed after observing \vec{o}"),
                    (S000, "§3.3 'Privacy Goal'", r"Informally, a released sequence \vec{o} preserves privacy if the adversary cannot not learn much about the user being in a sensitive state from \vec{o} ."),
                )),
        Reading("the system",
                "the system that released o preserves δ-privacy (Definition 6 over all its outputs) - the only thing "
                "Definition 6 itself defines",
                f"{S000} §2.2.2 Definition 6 defines privacy of a system: 'We say that a system \\mathcal{{A}} preserves'",
                quotes=((S000, "§2.2.2 Definition 6", r"We say that a system \mathcal{A} preserves δ -privacy against an adversary if"),)),
    ),
    note="A witness against the system reading (every output of the system preserves δ/Δ-privacy) also refutes the "
         "output reading; a statement proved per output also holds per system.")

# --------------------------------------------------------------------------- the system model

ANY_SYSTEM = Reading(
    "any system",
    "a system A is any randomised map from input streams x = (x_1..x_T) to outputs (for instance the generalisation of "
    "each context to its ancestor on a hierarchy cut, Theorem 2); the adversary's prior is a distribution over input "
    "streams",
    f"{S000} §2.2.2, where Definition 6 speaks of 'a system' and the next system defined is a generalisation",
    quotes=(
        (S000, "§2.2.2 Definition 6", r"We say that a system \mathcal{A} preserves δ -privacy against an adversary if for all possible inputs \vec{x}"),
        (S000, "§2.2.2 'Adversary Model'", r"To protect privacy we generalize contexts according to a given hierarchy."),
        (S000, "§2.2.2 Theorem 2", r"Generalizing each context to its unique ancestor on the cut preserves $1/\ell - 1/n$ -privacy against adversaries knowing the system."),
    ))
SUPPRESSION_SYSTEM = Reading(
    "suppression system",
    "a system is a suppression system as MaskIt's: the input stream is sampled from a (time-inhomogeneous) Markov chain "
    "M, and at each time t the output o_t is the true context x_t or ⊥, decided online at time t by a (possibly "
    "randomised) check - Algorithm 1 calls okayToRelease(c_i, t, o) with each context in turn, so the decision may "
    "depend on the contexts seen so far and the outputs, never on later contexts",
    f"{S001} §2.1 'System Model' and 'User Model' (= {S000} §3.3), Algorithm 1",
    quotes=(
        (S001, "§2.1 'System Model'", r"restricts the output  $o_t$  to be either the true state  $x_t$  or the suppression symbol  $\bot$ , i.e.,  $o_t \in \{x_t, \bot\}$"),
        (S001, "§2.1 'Adversary Model'", r"We further assume that adversaries can access the full output sequence generated by a general suppression system  $\mathcal{A}$"),
        (S001, "§2.1 'User Model'", r"We assume that a user's various contexts and transitions between them can be captured by a Markov chain M; i.e., the user behaves like a sample from M."),
        (S001, "§2.1 'System Model'", r"Upon extracting a context  $x_t$  at time t, MASKIT produces a privacy-preserving output  $o_t$"),
        (S000, "§3.3 Algorithm 1", r"if okayToRelease( $c_i$ ,  $t$ ,  $\vec{o}$ ) then"),
    ))
SYSTEM_MODEL = Definition(
    "system-model", "what a system (and the input it runs on) may be: 000 §2.2.2 vs 001 §2.1 / 000 §3.3",
    readings=(ANY_SYSTEM, SUPPRESSION_SYSTEM),
    note="The thesis states Definition 6 in ch. 2 for 'a system' and follows it with a generalisation system (Theorem 2); "
         "001 states the same definition and remarks inside a model where every system is a suppression system over a "
         "Markov chain and leaves generalisation for future work (“Other ways of sanitizing the output, e.g., "
         "generalization, are left for future work”). A statement about systems in general is owed an outcome under "
         "both; a statement about MaskIt's own checks is inside the suppression model by construction.")

# --------------------------------------------------------------------------- adversaries

STRONG_ADVERSARY = Definition(
    "strong-adversary", "the strong adversary of 000 §3.3 / 001 §2.1: knows the chain M and the system, Bayesian",
    readings=(Reading(
        "knows M and the system",
        "the adversary knows the user's Markov chain M and the system A (for the probabilistic check its suppression "
        "vector, for the simulatable check its rule), forms the prior Pr[X_t = s] from M (Proposition 1) and the "
        "posterior by Bayes' rule over M and A",
        f"{S000} §3.3 'Adversary Model'; {S001} §2.1",
        quotes=(
            (S000, "§3.3 'Adversary Model'", r"We consider strong adversaries with full knowledge about the Markov chain M of a user."),
            (S001, "§2.1 'Adversary Model'", r"we assume the adversaries also know  $\mathcal{A}$"),
            (S000, "§3.3 'Adversary Model'", r"In the following, we assume that the adversaries apply Bayesian reasoning."),
        )),),
    note="No other reading found: both documents fix the prior to M's and the knowledge of the system (Shannon's maxim "
         "in 001 §1).")

WEAK_ADVERSARY = Definition(
    "weak-adversary", "the weaker adversaries of 001 §6 (paper only)",
    readings=(Reading(
        "set-labelled chain, Bayesian learning",
        "a weak adversary A_M' knows a generalisation M' of M: M's state IDs with set labels Π(a) (or frequencies, or a "
        "partial chain); without other knowledge its prior is Eq. (11) with some distribution Pr[s | X'_t = a] over "
        "Π(a) (any distribution; Example 6 takes them equally likely); it learns by conditioning on what it observes "
        "(Example 6: it 'infers M' from ⊥); protection means (LC1) for every M'' between M' and M and (LC2) for the "
        "models learnt from outputs",
        f"{S001} §6 'Classes of Adversarial Knowledge', Eq. (11), 'Learning Challenges', Example 6",
        quotes=(
            (S001, "§6", r"A generalized Markov chain has states labeled with sets of contexts."),
            (S001, "§6 Eq. (11)", r"We assume that in the lack of other knowledge the adversary  $A_{M'}$  computes her prior belief about the user being in a sensitive context s at time t with ID as"),
            (S001, "§6 Example 6", r"Suppose he considers these options equally likely."),
            (S001, "§6", r"Our negative results hold even for (LC2) only, while our positive results address both (LC1) and (LC2)."),
        )),),
    note="001 leaves the update rule open (“there are many different ways of reasoning and updating”); the checks use "
         "Bayesian conditioning over the adversary's possible worlds, the rule that reproduces Example 6's numbers "
         "(3/4 and 1/2). The label distribution is left free: Eq. (11) and Theorem 7 do not fix it.")

SYSTEM_ONLY_ADVERSARY = Definition(
    "system-only-adversary", "the adversary of 000 §2.2.2 who knows only the system: a uniform prior over contexts",
    readings=(Reading(
        "uniform prior",
        "an adversary knowing only the system has the uniform prior 1/n over the n contexts (leaves of the hierarchy)",
        f"{S000} §2.2.2 'Adversary Model' and proof of Theorem 2",
        quotes=(
            (S000, "§2.2.2 'Adversary Model'", r"For adversaries with knowing only the system used we assume a uniform prior."),
            (S000, "§2.2.2 proof of Theorem 2", r"Consider a sensitive context. The adversary's prior belief is $1/n$."),
        )),),
    note="A non-uniform prior (under which Theorem 2's bound fails) is not a reading the thesis supports: it fixes the "
         "prior of this adversary class explicitly.")

HIERARCHY_CUT = Definition(
    "hierarchy-cut", "Theorem 2's cut and 'descendants' (000 §2.2.2)",
    readings=(Reading(
        "descendants are leaf contexts",
        "a cut maps each leaf context to its unique ancestor on the cut; a cut node's 'descendants' are the leaf "
        "contexts below it (n = number of contexts = leaves)",
        f"{S000} §2.2.2 'Adversary Model' and proof of Theorem 2",
        quotes=(
            (S000, "§2.2.2 'Adversary Model'", r"We choose a cut in the context hierarchy so that each leaf node has exactly one ancestor on the cut to which it is generalized."),
            (S000, "§2.2.2 proof of Theorem 2", r"The posterior probability among these descendants remains uniform."),
        )),),
    note="Counting internal nodes as descendants is rejected: the proof puts the (uniform) posterior on the "
         "descendants, i.e. on contexts, and n counts contexts.")

# --------------------------------------------------------------------------- utility and the probabilistic optimum

UTILITY = Definition(
    "utility", "utility of a system for a chain M (000 §3.3 'Utility Goal' = 001 §2.1)",
    readings=(Reading(
        "expected released states",
        "utility = the expected number of released states in an output sequence, the randomness from M and the system; "
        "for the probabilistic check Σ_{t,i} Pr[X_t = c_i](1 - p_i^t)",
        f"{S000} §3.3 'Utility Goal'; {S001} §2.1",
        quotes=(
            (S000, "§3.3 'Utility Goal'", r"We measure the utility of a system for a user with chain M as the expected number of released states in an output sequence. The randomness comes from M and the system."),
            (S001, "§2.1 'Utility Goal'", r"We measure the utility of a system for a user with chain M as the expected number of released states in an output sequence. The randomness comes from M and the system."),
        )),),
    note="000 §3.4 prints the sum as Σ_o Pr[o | {i | o_i ≠ ⊥}], a misprint of Σ_o Pr[o]·|{i | o_i ≠ ⊥}| (maskit.def_utility); "
         "no second reading.")

MEASURES = Definition(
    "experiment-measures", "the measures of the experiments (000 §3.7.1 'Measures' = 001 §7.1)",
    readings=(Reading(
        "fractions on the evaluation half",
        "each user's chain is learnt on the first half of her trace; utility = the fraction of released states in the "
        "second half; a breach = a sensitive state whose posterior exceeds its prior by more than δ",
        f"{S000} §3.7.1 'Measures'; {S001} §7.1",
        quotes=(
            (S000, "§3.7.1 'Measures'", r"We measure utility as the fraction of released states in the second half of the trace."),
            (S000, "§3.7.1 'Measures'", r"We measure the privacy breaches as the fraction of sensitive states for which the posterior belief is more than δ larger than the prior belief."),
            (S001, "§7.1 'Measures'", r"We measure utility as the fraction of released states in the second half of the trace."),
        )),),
    note="The experiments' own measure, distinct from the analytical utility (an expectation under M) that the hybrid "
         "check compares; 001 §7.2 says the two differ for users whose trace strays from its expectation.")

OPT_GRID = Reading(
    "grid optimum",
    "the optimum ranges over the grid {0/d, ..., d/d} (each suppression probability a multiple of 1/d) that ALGPR "
    "searches, as in the proof of Lemma 2 (d = 10 in the experiments)",
    f"{S000} §3.4.4 proof of Lemma 2; {S001} §3.2; {S000} §3.7.1",
    quotes=(
        (S000, "§3.4.4 proof of Lemma 2", r"\arg \max_{\vec{p}: p_i^t \in \{0/d, \dots, d/d\}} P(\vec{p}) \text{ subject to } Q(\vec{p}) = \text{true}"),
        (S000, "§3.7.1 'Systems'", r"the probabilistic check (with a granularity of $d = 10$)"),
        (S001, "§7.1 'Systems'", r"For higher values of d we expect the utility but also the computational cost to go up."),
    ))
OPT_ALL = Reading(
    "all vectors",
    "the optimum ranges over all suppression vectors p in [0, 1]^(n·T): the problem initialize states and §3.4 poses, "
    "and the words of Lemma 2 / Theorem 4 (“among all suppression probabilities”)",
    f"{S000} §3.4 and §3.4.4 Lemma 2; {S001} §3",
    quotes=(
        (S000, "§3.4", r"Among all vectors of suppression probabilities \vec{p} that preserve δ -privacy, we seek one with the maximum utility."),
        (S000, "§3.4.4 Lemma 2", r"It finds suppression probabilities that maximize utility among all suppression probabilities that preserve δ -privacy."),
        (S000, "§3.4.2", r"There is an infinite number of suppression probabilities"),
    ))
OPTIMUM_DOMAIN = Definition(
    "probabilistic-optimum", "the set the probabilistic check's optimum (argmax utility subject to ISPRIVATE) ranges over",
    readings=(OPT_GRID, OPT_ALL),
    note="Lemma 2 and Theorem 4 state the optimum “among all suppression probabilities”; their proof (ALGPR) optimises "
         "over the grid. 'Minimally privacy-preserving' (Claim 6) is minimality with respect to dominance inside the same "
         "set.")

# --------------------------------------------------------------------------- figure rebuilt from prose

FIGURE_3_4B = Definition(
    "figure-3.4b", "the chain of 000 Figure 3.4(b) = 001 Figure 2(b), rebuilt from the prose (the figure is not in the text)",
    readings=(Reading(
        "y1 -> z2, y3 -> z1",
        "start -> w1..w6 uniformly; w1, w2 -> x1; w3, w4 -> x2; w5, w6 -> x3; x1 -> {s1, y1}; x2 -> y2; x3 -> {s2, y3}; "
        "s1 -> z1; s2 -> z2; y2 -> {z1, z2}; y1 -> z2; y3 -> z1 (uniform over successors)",
        f"{S000} §3.6.1 Example 5 (the eight outputs listed) and Claim 6's proof (z1 after w1, w2, x1 'gives away' s1)",
        quotes=(
            (S000, "§3.6.1 Example 5", r"The simulatable check outputs one of these sequences:"),
            (S000, "§3.6.1 proof of Claim 6", r"which gives away that the user must have been in s_1"),
        )),),
    note="The alternative rebuild y1, y3 -> {z1, z2} reproduces Example 5's eight outputs and 8/3 as well, but contradicts "
         "Claim 6's proof: after w1, w2 or x1, releasing z1 would not give away s1 (y1 could precede it). It is rejected "
         "on that sentence.")
