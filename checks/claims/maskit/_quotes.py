"""The quoted phrases behind the maskit readings (issue 12): for each claim, the decisive words of its
statement copied verbatim from the seed text files (000_211156f2009240b4.txt = the thesis, ch. 2-3;
001_eb11505ae1399b83.txt = the MaskIt paper), as ``(file, where, phrase)``.

The phrases are copied, not paraphrased: LaTeX, spacing and misprints are the extracted text's own
(whitespace may differ; ``property_tests/test_reading_quotes.py`` checks that every phrase quoted in a
maskit reading's source occurs, whitespace-normalised, in the file cited just before it). A quote is
rendered between curly quotes “…” so that primes (t', M'') and straight quotes inside it stay intact.
"""

from __future__ import annotations

from privclaims.checks.quotes import S000, S001, Quote, render  # noqa: F401 (render: the shared form)

QUOTES: dict[str, tuple[Quote, ...]] = {
    "maskit.def_markov": (
        (S000, "§3.2 'Markov chains'", r"A chain is not necessarily time-homogenous, i.e., the transition probability from one context to another may depend on the time."),
        (S001, "§2.2 'Markov chains'", r"A chain is not necessarily time-homogenous, i.e., the transition probability from one context to another may depend on the time."),
    ),
    "maskit.prop1": (
        (S000, "§3.3 Proposition 1", r"\Pr[X_t = c_i] = (A^{(1)} \cdot A^{(2)} \dots A^{(t)})_i."),
        (S001, "§2.2 Proposition 1", r"\Pr[X_t = s] = (A^{(1)} \cdot A^{(2)} \cdots A^{(t)})_s."),
    ),
    "maskit.def_hmm": (
        (S000, "§3.2 Eq. (3.3)", r"\Pr[X_t = c_i | \vec{o}] = \frac{\alpha_i(t) \beta_i(t)}{\sum_j \alpha_j(t) \beta_j(t)} \quad (3.3)"),
        (S000, "§3.2 forward procedure", r"We initialize $\alpha_j(1) = a_{\text{start},j}^{(1)}$ for all j ."),
        (S001, "§2.2 Eq. (3)", r"\alpha_i(t) = \Pr[X_t = c_i, o_1, \dots, o_{t-1}] = \sum_j \alpha_j(t-1)a_{j,i}^{(t)}b_{j,o_{t-1}}^{(t-1)}"),
    ),
    "maskit.prop2": (
        (S000, "§3.4.1 Proposition 2", r"An adversary who knows the Markov chain M of a user and the probabilistic check with suppression probabilities \vec{p} computes her posterior belief as"),
        (S001, "§3.1 Proposition 2", r"An adversary who knows M and the probabilistic check with suppression probabilities  $\vec{p}$  computes his posterior belief simply as"),
    ),
    "maskit.def7": (
        (S000, "§3.4.2 Definition 7", r"A function f is convex if for all \vec{p}, \vec{q} and for all Θ ($0 \leq \Theta \leq 1$)"),
        (S000, "§3.4.2", r"We denote by $\text{privacy}(\vec{p})$ the smallest δ value for which \vec{p} preserves δ -privacy."),
        (S001, "§3.2", r"We denote by privacy  $(\vec{p})$  the smallest  $\delta$  value for which  $\vec{p}$  preserves  $\delta$ -privacy."),
    ),
    "maskit.def8": (
        (S000, "§3.4.2 Definition 8", r"We say vector \vec{q} that dominates \vec{p} , denoted by $\vec{p} \preceq \vec{q}$, if for all i, t :"),
        (S000, "§3.4.2 (before Definition 8)", r"we introduce a total ordering of suppression probabilities."),
        (S001, "§3.2 Definition 3", r"denoted by  $\vec{p} \preceq \vec{q}$ , if for all  $i, t : p_i^t \leq q_i^t$ ."),
    ),
    "maskit.thm3": (
        (S000, "§3.4.2 Theorem 3", r"Privacy is a monotone property: If \vec{p} preserves δ -privacy then so does any \vec{q} dominating \vec{p} ."),
        (S001, "§3.2 Theorem 1", r"Privacy is a monotone property: If  $\vec{p}$  preserves  $\delta$ -privacy then so does any  $\vec{q}$  dominating  $\vec{p}$ ."),
    ),
    "maskit.text_thm3_cases": (
        (S000, "§3.4.2 proof of Theorem 3", r"Changing $p_i^{t'}$ only changes $b_{i,\perp}^{t'}$ and $b_{i,i}^{t'}$."),
        (S000, "§3.4.2 proof of Theorem 3", r"In that case increasing $p_i^{t'}$ has no effect on the probability of being in a sensitive state given \vec{o} ."),
        (S001, "§3.2 proof of Theorem 1", r"In that case increasing  $p_i^{t'}$  has no effect on the probability"),
    ),
    "maskit.claim1": (
        (S000, "§3.4.2 Claim 1", r"\Pr_{\vec{p}}[X_t = s|\vec{o}'] \geq \Pr_{\vec{q}}[X_t = s|\vec{o}]. \quad (3.5)"),
        (S000, "§3.4.2 proof of Theorem 3", r"for some $\kappa > 1$"),
        (S001, "§3.2 Claim 1", r"\Pr_{\vec{p}}[X_t = s | \vec{o'}] \ge \Pr_{\vec{q}}[X_t = s | \vec{o}]."),
    ),
    "maskit.obs1": (
        (S000, "§3.4.2 Observation 1", r"Utility is an anti-monotone property: Any vector dominating \vec{p} cannot have more utility than \vec{p} ."),
        (S001, "§3.2 Observation 1", r"Utility is an anti-monotone property: Any vector dominating  $\vec{p}$  cannot have more utility than  $\vec{p}$ ."),
    ),
    "maskit.text_search": (
        (S000, "§3.4.2 (end)", r"by starting with the vector $(1, \dots, 1)$ and gradually reducing the suppression probabilities until reducing any suppression probability further would violate privacy. We end up with a minimal vector."),
        (S001, "§3.2", r"by starting with the vector  $(1, \ldots, 1)$  and gradually reducing the suppression probabilities until reducing any suppression probability further would violate privacy. We end up with a minimal vector."),
    ),
    "maskit.lem1": (
        (S000, "§3.4.3 Lemma 1", r"MASKIT preserves δ -privacy instantiated with the probabilistic check."),
        (S001, "§3.2 Lemma 1", r"MASKIT preserves  $\delta$ -privacy instantiated with the probabilistic check."),
    ),
    "maskit.lem2": (
        (S000, "§3.4.4 Lemma 2", r"It finds suppression probabilities that maximize utility among all suppression probabilities that preserve δ -privacy."),
        (S000, "§3.4.4 proof of Lemma 2", r"\arg \max_{\vec{p}: p_i^t \in \{0/d, \dots, d/d\}} P(\vec{p})"),
        (S001, "§3.2 Lemma 2", r"It finds suppression probabilities that maximize utility among all suppression probabilities that preserve  $\delta$ -privacy."),
        (S001, "§3.2 proof of Lemma 2", r"\arg\max_{\vec{p}:p_i^t \in \{0/d,\dots,d/d\}}"),
    ),
    "maskit.cx_search": (
        (S000, "§3.4.5", r"each of which can take exponential time in the number of states due to the iteration over possible output sequences. In particular, MONDRIAN calls ISPRIVATE $O(Tn \log(d))$ times when using binary search."),
        (S001, "§3.3", r"In particular, MONDRIAN calls ISPRIVATE  $O(Tn \log(d))$  times when using binary search."),
    ),
    "maskit.alg_partial": (
        (S000, "§3.4.5", r"it suffices to consider output subsequences o_{t_1}, \dots, o_{t_2} of the form $c_i, \perp, \dots, \perp, c_j$ with $t_1 \leq t \leq t_2$. We replace Line (13) with"),
        (S001, "§3.3", r"of the form  $c_i, \perp, \ldots, \perp, c_j$  with  $t_1 \leq t \leq t_2$ . We replace Line (11) with"),
    ),
    "maskit.prop3": (
        (S000, "§3.4.5 Proposition 3", r"be time stamps in $[0, \dots, T + 1]$ such that $t_1 \leq t \leq t_2$"),
        (S000, "§3.4.5 Proposition 3", r"\Pr[X_t = s | o_0, \dots, o_{T+1}] = \Pr[X_t = s | o_{t_1}, \dots, o_{t_2}]"),
        (S001, "§3.3 Proposition 3", r"\Pr[X_t = s | o_0, \dots, o_{T+1}] = \Pr[X_t = s | o_{t_1}, \dots, o_{t_2}]"),
    ),
    "maskit.prop4": (
        (S000, "§3.4.5 Proposition 4", r"\Pr[X_t = s | o_0, \dots, o_{t_1-1}, \vec{o}] = \Pr[X_t = s | \vec{o}]"),
        (S001, "§3.3 Proposition 4", r"\Pr[X_t = s | o_0, \dots, o_{t_1-1}, \vec{o}] = \Pr[X_t = s | \vec{o}]"),
    ),
    "maskit.text_partial_calc": (
        (S000, "§3.4.5 (after Proposition 4)", r"We set $\alpha_i(t_1) = 1$, $\alpha_l(t_1) = 0$ (for $l \neq i$) and $\beta_j(t_2) = 1 - p_j$, $\beta_l(t_2) = 0$ (for $l \neq j$)."),
        (S001, "§3.3", r"We set  $\alpha_i(t_1) = 1$ ,  $\alpha_l(t_1) = 0$  (for  $l \neq i$ ) and  $\beta_j(t_2) = 1 - p_j$ ,  $\beta_l(t_2) = 0$  (for  $l \neq j$ )."),
    ),
    "maskit.lem3": (
        (S000, "§3.4.5 Lemma 3", r"is polynomial in the number of contexts n and the number of time-steps T in the Markov chain M ."),
        (S000, "§3.4.5 proof of Lemma 3", r"Thus, at most $n^3 T^3$ times beliefs are computed. Each belief computation takes at most $n^2 T$ time."),
        (S001, "§3.3 Theorem 2", r"Thus, at most  $n^3T^3$  times beliefs are computed. Each belief computation takes at most  $n^2T$  time."),
    ),
    "maskit.lem4": (
        (S000, "§3.4.5 Lemma 4", r"Replacing Line (13) replaced with Lines (1 to 3) in ISPRIVATE does not change the result of ISPRIVATE."),
        (S001, "§3.3 Theorem 2", r"Its correctness is maintained."),
    ),
    "maskit.lem5": (
        (S000, "§3.4.5 Lemma 5", r"For \vec{q} dominating \vec{p} , it suffices to check triplets not in $P(\vec{p})$"),
        (S001, "§3.3 Lemma 3", r"For  $\vec{q}$  dominating  $\vec{p}$ , it suffices to check triplets not in  $P(\vec{p})$"),
    ),
    "maskit.alg2": (
        (S000, "§3.4 Algorithm 2", r"if posterior – prior  $> \delta$  then"),
        (S000, "§3.4 Algorithm 2", r"with probability  $p_i^{t'}$  return false"),
        (S001, "§3 Algorithm 2", r"if posterior – prior > \delta then"),
    ),
    "maskit.alg3": (
        (S000, "§3.4.6 Algorithm 3", r"Compute prior  $\Pr[X_t = s]$  with Proposition 1."),
        (S000, "§3.4.6 Algorithm 3", r"if posterior – prior >  $\delta$  then"),
        (S001, "§3.3 Algorithm 3", r"if posterior – prior > \delta then"),
    ),
    "maskit.thm4": (
        (S000, "§3.4.6 Theorem 4", r"MASKIT preserves δ -privacy instantiated with the probabilistic check in Algorithm 3."),
        (S000, "§3.4.6 Theorem 4", r"A call to `okayToRelease` takes constant time."),
        (S001, "§3.3 Theorem 3", r"MASKIT preserves  $\delta$ -privacy instantiated with the probabilistic check in Algorithm 3."),
    ),
    "maskit.alg4": (
        (S000, "§3.5 Algorithm 4", r"for each possible state  $j$  at time  $t'$  given  $\vec{o}$  do"),
        (S000, "§3.5", r"The simulatable check decides to release the current state if for any possible state c_j at time t' , releasing c_j does not violate privacy."),
        (S001, "§4", r"The simulatable check decides to release the current state if for any possible state  $c_j$  at time t', releasing  $c_j$  does not violate privacy."),
    ),
    "maskit.text_possible": (
        (S000, "§3.5.1 'Generation of Possible States'", r"State c_j is a possible state if it is reachable from $o_{t''}$ within $t' - t''$ steps:"),
        (S001, "§4 'Generation of Possible States'", r"State  $c_j$  is a possible state if it is reachable from  $o_{t''}$  within t'-t'' steps:"),
    ),
    "maskit.prop5": (
        (S000, "§3.5.1 Proposition 5", r"Let t_1 be the last time before or at t at which a context was released. Let t_2 be the earliest time after t at which a context was released."),
        (S001, "§4 Proposition 5", r"Let  $t_1$  be the last time before or at t at which a context was released. Let  $t_2$  be the earliest time after t at which a context was released."),
    ),
    "maskit.claim2": (
        (S000, "§3.5.1 Claim 2", r"Any sequence $\vec{x} \in X$ would have generated the same output \vec{o} if used as input to the simulatable check."),
        (S001, "§4 Claim 2", r"Any sequence  $\vec{x} \in X$  would have generated the same output  $\vec{o}$  if used as input to the simulatable check."),
    ),
    "maskit.claim3": (
        (S000, "§3.5.1 Claim 3", r"For any $x \notin X$ the check never outputs \vec{o} ."),
        (S001, "§4 Claim 3", r"For any  $x \notin X$  the check never outputs  $\vec{o}$ ."),
    ),
    "maskit.cor1": (
        (S000, "§3.5.1 Corollary 1", r"\Pr[X_t = s | \vec{o}] = \frac{\Pr[X_t = s | X_{t_1} = o_{t_1}] \Pr[X_{t_2} = o_{t_2} | X_t = s]}{\Pr[X_{t_2} = o_{t_2} | X_{t_1} = o_{t_1}]}"),
        (S001, "§4 Corollary 1", r"\Pr[X_t = s | \vec{o}] = \frac{\Pr[X_t = s | X_{t_1} = o_{t_1}] \Pr[X_{t_2} = o_{t_2} | X_t = s]}{\Pr[X_{t_2} = o_{t_2} | X_{t_1} = o_{t_1}]}"),
    ),
    "maskit.lem6": (
        (S000, "§3.5.2 Lemma 6", r"MASKIT preserves δ -privacy instantiated with the simulatable check in Algorithm 4."),
        (S001, "§4 Theorem 4", r"MASKIT preserves  $\delta$ -privacy instantiated with the simulatable check in Algorithm 4."),
    ),
    "maskit.lem7": (
        (S000, "§3.5.3 Lemma 7", r"If the next state is published despite the indication of the privacy check to suppress it (improving the utility) then there is a chance that future states will inevitably breach privacy."),
        (S001, "§4 Lemma 4", r"If the next state is published despite the indication of the privacy check to suppress it (improving the utility) then there is a chance that future states will inevitably breach privacy."),
    ),
    "maskit.claim4": (
        (S000, "§3.5.3 Claim 4", r"If the decision is to release the next state at time t_2 we can always find a possible context c_k at time t_2 so that $\Pr[X_t = s | \vec{o}] \leq \Pr[X_t = s | \vec{o}, c_k]$."),
        (S001, "§4 Claim 4", r"If the decision is to release the next state at time  $t_2$  we can always find a possible context  $c_k$  at time  $t_2$  so that  $\Pr[X_t = s | \vec{o}] \leq \Pr[X_t = s | \vec{o}, c_k]$ ."),
    ),
    "maskit.lem8": (
        (S000, "§3.5.4 Lemma 8", r"The running time of each call to `okayToRelease` of the simulatable check is polynomial in the number of contexts n and time-steps T ."),
        (S000, "§3.5.4 proof of Lemma 8", r"Thus, at most n^2T beliefs are computed."),
        (S001, "§4 'Efficiency'", r"The running time of each call to okayToRelease of the simulatable check is polynomial in the number of contexts and T."),
    ),
    "maskit.lem9": (
        (S000, "§3.5.4 Lemma 9", r"In Line (6) of Algorithm 4 only iterating t over $t'' + 1, \dots, T$ does not change the output of `okayToRelease`."),
        (S001, "§4 Lemma 5", r"In Line (5) of Algorithm 4 only iterating t over  $t'' + 1, \ldots, T$  does not change the output of okayToRelease."),
    ),
    "maskit.claim5": (
        (S000, "§3.5.4 Claim 5", r"For $t \leq t''$ we have that for all s the posterior belief of $X_t = s$ given $o_1, \dots, o_{t'-1}$ is at most δ larger than the prior belief."),
        (S001, "§4 Claim 5", r"For  $t \le t''$  we have that for all s the posterior belief of  $X_t = s$  given  $o_1, \ldots, o_{t'-1}$  is at most  $\delta$  larger than the prior belief."),
    ),
    "maskit.alg5": (
        (S000, "§3.5.4 Algorithm 5", r"Let  $t''$  be the last time at which  $o_{t''} \neq \perp$ ."),
        (S000, "§3.5.4 Algorithm 5", r"for  $t \in [t'' + 1, \dots, T]$  do"),
    ),
    "maskit.thm5": (
        (S000, "§3.5.5 Theorem 5", r"MASKIT preserves δ -privacy instantiated with the simulatable check in Algorithm 5."),
        (S000, "§3.5.5 Theorem 5", r"The simulatable check greedily releases states. **Efficiency:** Calling initialize takes no time."),
    ),
    "maskit.text_ex4_weakness": (
        (S000, "§3.6.1 (after Example 4)", r"If there is a chance of currently being in a sensitive state that has a prior belief $< 1 - \delta$ then the simulatable check always suppresses the current state."),
        (S001, "§5.1", r"If there is a chance of currently being in a sensitive state that has a prior belief  $< 1 - \delta$  then the simulatable check always suppresses the current state."),
    ),
    "maskit.def_supp": (
        (S000, "§3.6.1", r"for the number of suppression symbols immediately following the release of c_i at time t ."),
        (S000, "§3.6.1", r"If no such sequence exists, then o_t can never be c_i and we define $\text{supp}(i, t)$ to be 0."),
        (S001, "§5.1", r"for the number of suppression symbols immediately following the release of  $c_i$  at time t."),
    ),
    "maskit.thm6": (
        (S000, "§3.6.1 Theorem 6", r"The hybrid check correctly computes the utility of the simulatable and the probabilistic check employed by MASKIT."),
        (S001, "§5.1 Theorem 5", r"The hybrid check correctly chooses the check (simulatable or probabilistic) that provides more utility."),
        (S000, "§3.6.1", r"Recall from Sec. 3.3 that the utility is defined as the expected number of released states in an output."),
    ),
    "maskit.claim7": (
        (S000, "§3.6.1 Claim 7", r"If both sequences agree on the most recently released context then for all i, j"),
        (S001, "§5.1 Claim 6", r"If both sequences agree on the most recently released context then for all i, j"),
    ),
    "maskit.text_offline_online": (
        (S000, "§3.6.2", r"The simulatable check does not require any initialization; all its computational overhead is incurred during the filtering. If MASKIT has to go live and create a stream immediately then the simulatable check is the only option."),
        (S001, "§5.2", r"If MASKIT has to go live and create a stream immediately then the simulatable check is the only option."),
    ),
    "maskit.def_masksensitive": (
        (S000, "§3.7.1 'Measures'", r"We measure the privacy breaches as the fraction of sensitive states for which the posterior belief is more than δ larger than the prior belief."),
        (S001, "§7.1 'Measures'", r"which is 1 if and only if  $k=\perp$  and  $c_i\in S$  or k=i and  $c_i\not\in S$ ."),
    ),
    "maskit.p_def_weak": (
        (S001, "§6 'Classes of Adversarial Knowledge'", r"M' generalizes M ( $M' \leq M$ ) if M' can be obtained from M by generalizing each state."),
        (S001, "§6", r"Thus, for a weaker adversary the label of a state a in the Markov chain is now  $\langle a, \Pi(a) \rangle$ ."),
    ),
    "maskit.p_eq11": (
        (S001, "§6 Eq. (11)", r"computes her prior belief about the user being in a sensitive context s at time t with ID as"),
        (S001, "§6 Eq. (11)", r"\sum_{a} \Pr[X'_t = a] \Pr[s | X'_t = a]. \tag{11}"),
    ),
    "maskit.p_lc1": (
        (S001, "§6 (LC1)", r"To protect against weak adversaries who can learn from arbitrary sources and update their model M' we need for all M''"),
        (S001, "§6 (LC1)", r"for all possible output sequences  $\vec{o}$ , all times t and all sensitive contexts  $s \in S$"),
    ),
    "maskit.p_thm6": (
        (S001, "§6 Theorem 6", r"Using  $\mathcal{F}(\delta, M, S)$  to compute a privacy-preserving output sequence  $\vec{o}$  and publishing this sequence together with M preserves  $\delta$ -privacy against adversaries knowing the frequency of sensitive contexts."),
    ),
    "maskit.p_thm7": (
        (S001, "§6 Theorem 7", r"Let  $\mu = \max_{s \in S, t \in [T]} |\{a | s \in \Pi(a), \Pr[X'_t = a] > 0\}|$ ."),
        (S001, "§6 Theorem 7", r"given the user input sequence transformed through  $\Pi$  preserves  $\delta$ -privacy against the weaker adversary knowing M'."),
    ),
    "maskit.p_claim7": (
        (S001, "§6 Claim 7", r"For all state-IDs a such that  $S \cap \Pi(a) \neq \emptyset$ ."),
        (S001, "§6 Eq. (17)", r"\Pr_{A_{M''}}[X_t' = a|\vec{o}] - \Pr_{A_{M''}}[X_t' = a] \le \delta/\mu."),
    ),
    "maskit.p_claim8": (
        (S001, "§6 Claim 8, Eq. (18)", r"\Pr_{A_{M''}}[X_t = s | X_t' = a, \vec{o}] = \Pr_{A_{M''}}[X_t = s | X_t' = a]"),
    ),
    "maskit.p_claim9": (
        (S001, "§6 Claim 9", r"with transformation  $\Pi''$ , for all times t and all sensitive states  $s \in S$"),
        (S001, "§6 Eq. (25)", r"\Pr_{A_{M''}}[X_t = s|\vec{o}] - \Pr_{A_{M''}}[X_t = s] \le \delta"),
    ),
    "maskit.p_claim10": (
        (S001, "§6 Claim 10", r"M''[\vec{o}] = M''."),
        (S001, "§6 proof of Claim 10", r"an adversary knowing M'' can generate the output distribution himself."),
    ),
    "maskit.p_text_d": (
        (S001, "§7.1 'Systems'", r"For higher values of d we expect the utility but also the computational cost to go up."),
    ),
    "maskit.alg1": (
        (S000, "§3.3 Algorithm 1", r"if okayToRelease( $c_i$ ,  $t$ ,  $\vec{o}$ ) then"),
        (S000, "§3.3", r"The transition probability $a_{i,j}^t$ can be estimated as the number of times the user went from c_i at time $t - 1$ to c_j at time t divided by the number of times the user went from c_i at time $t - 1$ to some other context at time t ."),
        (S001, "§2.1", r"MASKIT learns M from historical observations"),
    ),
    "maskit.eq3_2/thesis": (
        (S000, "§3.2 Eq. (3.2)", r"\Pr[X_{t_2} = c_j | X_{t_1} = c_i] = (e_i^T A^{(t_1+1)} \dots A^{(t_2)})_j \quad (3.2)"),
    ),
    "maskit.eq3_2/001": (
        (S001, "§2.2 Eq. (2)", r"\Pr[X_{t_2} = c_i | X_{t_1} = c_i] = (e_i A^{(t_1+1)} \cdots A^{(t_2)})_i"),
    ),
    "maskit.def_utility": (
        (S001, "§3", r"(\vec{p}) = \sum_{\vec{o}} \Pr[\vec{o}] |\{i | o_i \neq \bot\}| = \sum_{t' \in [T], i \in [n]} \Pr[X_{t'} = c_i] (1 - p_i^{t'})"),
        (S000, "§3.6.1 proof of Theorem 6", r"\text{utility}^{\text{Prob}}(M) &= \sum_{\vec{o}} \Pr[\vec{o}] |\{i | o_i \neq \perp\}|"),
        (S000, "§3.3 'Utility Goal'", r"We measure the utility of a system for a user with chain M as the expected number of released states in an output sequence."),
    ),
    "maskit.def_utility/misprint": (
        (S000, "§3.4", r"\text{utility}(\vec{p}) = \sum_{\vec{o}=o_1, \dots, o_T} \Pr[\vec{o} | \{i | o_i \neq \perp\}]"),
    ),
    "maskit.cx_discretize": (
        (S000, "§3.4.2", r"even if we discretized the space $[0, \dots, 1] \rightarrow \{0, 1/d, 2/d, \dots, 1\}$ there are still $d^{n \cdot T}$ many vectors to check."),
        (S001, "§3.2", r"even if we discretized the space  $[0,\ldots,1] \to \{0,1/d,2/d,\ldots,1\}$  there are still  $d^{n\cdot T}$  many vectors to check."),
    ),
    "maskit.cx_discretize/rejected": (
        (S000, "§3.4.5 (bounds are marked as bounds)", r"Thus, at most $n^3 T^3$ times beliefs are computed."),
        (S000, "§3.4.5", r"MONDRIAN calls ISPRIVATE $O(Tn \log(d))$ times"),
        (S000, "§3.4.4 proof of Lemma 2 (the grid with both end points)", r"\arg \max_{\vec{p}: p_i^t \in \{0/d, \dots, d/d\}} P(\vec{p})"),
        (S000, "§3.6.1 Example 4 (an optimum using p = 0)", r"The probabilistic check, however, only suppresses the sensitive contexts."),
        (S000, "§3.4 Example 2 (an optimum using p = 1)", r"Thus, $p_s^1 = 1, p_x^1 = 1/3$ preserves privacy and maximizes utility."),
    ),
    "maskit.ex1": (
        (S000, "§3.3 Example 1", r"To protect against an adversary knowing the Markov chain as well as the system we can suppress"),
        (S000, "§3.3 Example 1", r"gives $\delta = 1/6$ -privacy, since the prior belief of"),
    ),
    "maskit.ex2": (
        (S000, "§3.4 Example 2", r"To achieve $\delta = 1/4$ -privacy it suffices for the probabilistic check to suppress s with probability 1 and x with probability $1/3$"),
        (S001, "§3 Example 1 (garbled)", r"To achieve  $\delta=1/4$ -privacy it suffices for the probabilistic check to suppress s with probability 1 and s with probability 1/3"),
    ),
    "maskit.ex3_convex": (
        (S000, "§3.4.2 Example 3", r"Thus, $\text{privacy}(\Theta\vec{p} + (1 - \Theta)\vec{q})$ is at least $2/3 - 1/4 = 5/12$."),
        (S001, "§3.2 Example 2", r"However, if privacy was convex then it would have to be at most 1/4. We conclude that privacy is not convex."),
    ),
    "maskit.ex3_concave": (
        (S000, "§3.4.2 Example 3", r"Thus, $-\text{privacy}(\Theta\vec{p} + (1 - \Theta)\vec{q})$ is equal to $-5/12$."),
        (S001, "§3.2 Example 2", r"However, if privacy was concave then it would have to be at most -3/4. We conclude that privacy is not concave."),
    ),
    "maskit.ex4": (
        (S000, "§3.6.1 Example 4", r"The prior belief of $X_1 = s_i$ is $1/4$ and the posterior belief given \perp is $1/2$."),
        (S001, "§5.1 Example 3", r"The prior belief of  $X_1 = s_i$  is 1/4 and the posterior belief given  $\perp$  is 1/2."),
    ),
    "maskit.ex5": (
        (S000, "§3.6.1 Example 5", r"The expected number of released states is $8/3$."),
        (S001, "§5.1 Example 4", r"The expected number of released states is 8/3."),
    ),
    "maskit.def_util_prob": (
        (S000, "§3.6.1 'Hybrid Privacy Check'", r"\text{utility}^{\text{Prob}}(M) = \sum_{i,t} (1 - p_i^t) \Pr[X_t = c_i]."),
        (S001, "§5.1 'Hybrid Privacy Check'", r"= \sum_{i,t} (1 - p_i^t) \Pr[X_t = c_i]"),
    ),
    "maskit.claim6": (
        (S000, "§3.6.1 Claim 6", r"For the probabilistic check the utility of all minimally privacy-preserving suppression probabilities is at most $7/3$."),
        (S000, "§3.6.1 proof of Claim 6", r"In order to guarantee privacy the suppression probabilities would have to be increased further."),
        (S001, "§5.1 Example 4", r"always suppressing s1, y1, z1, s2, y3, and z2 preserves  $\delta=1/3$ -privacy and maximizes utility (7/3)."),
        (S001, "§5.1 Example 4 (proof)", r"In order to guarantee privacy the suppression probabilities would have to be increased further."),
    ),
    "maskit.p_ex5": (
        (S001, "§6 Example 5", r"$\Pi(1) = \{s,y,z\}, \Pi(2) = \{x\}"),
    ),
    "maskit.p_ex6": (
        (S001, "§6 Example 6", r"Thus, his prior belief is  $Pr[X_1 = s] = 1/6$ ."),
        (S001, "§6 Example 6", r"is 3/4 for the probabilistic check and 1/2 for the simulatable check."),
    ),
    "maskit.p_lc2": (
        (S001, "§6 (LC2)", r"We thus need for output sequences  $\vec{o'}$ ,  $\vec{o}$ , all times t and all sensitive contexts  $s \in S$"),
        (S001, "§6 Eq. (13)", r"\Pr_{A_{M'[\vec{o'},\vec{o}]}}[X_t = s|\vec{o}] - \Pr_{A_{M'[\vec{o'}]}}[X_t = s] \le \delta \quad \text{(LC2)}"),
    ),
    "maskit.p_text_freq_only": (
        (S001, "§6", r"It is sufficient to only suppress s1, s2, to protect 1/3-privacy against an adversary knowing only frequencies of states. However, if the adversary learns M then the sensitive states are blatantly leaked."),
    ),
    "dp.thm2": (
        (S000, "§2.2.2 Theorem 2", r"Generalizing each context to its unique ancestor on the cut preserves $1/\ell - 1/n$ -privacy against adversaries knowing the system."),
        (S000, "§2.2.2 'Adversary Model'", r"For adversaries with knowing only the system used we assume a uniform prior."),
    ),
}
