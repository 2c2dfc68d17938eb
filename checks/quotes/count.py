"""count: the decisive words of each claim, verbatim from 000_211156f2009240b4.txt (thesis ch. 5) and
002_9d55ef468949585c.txt (the ads + counting paper, §4-§5 and the appendix). See :mod:`privclaims.checks.quotes`."""

from __future__ import annotations

from privclaims.checks.quotes import S000, S002, Quote

T_PROTOCOL = (
    (S000, "§5.4 Protocol 1", r"1. Each user i samples r_i from $\mathcal{N}(\sigma^2/((1-t)N-1))$. 2. Each user i sends $m_i = E(b_i + r_i)$ to Server 2. 3. Server 2 sums up all incoming messages m_i . It forwards $S = \sum m_i$ to Server 1. 4. Server 1 decrypts s and releases the result $D(s)$."),
)
P_PROTOCOL = (
    (S002, "§4.2.1 Protocol 1", r"3. Each user i uses 2-Phase-Commit to atomically send k_i to the server and $m_i=b_i+|r_i|+k_i \mod p$ to the proxy. - 4. The proxy sums up all incoming messages m_i . It forwards $s = \sum m_i \mod p$ to the server. - 5. The server subtracts from s the random numbers k_i (mod p) it received and releases the result $\sum b_i + r_i$."),
)
SHARE = r"adds $|U'_h|$ times noise $\mathcal{N}(\sigma^2/((1-t)N-1))$"
COR2 = (
    (S000, "§5.5.3 Corollary 2", r"Consider any $\epsilon \leq 1$. Let σ^2 be at least $6\text{height}(H)m^2 \log(4/\delta)/\epsilon^2$. When Estimates employs Count(t, σ^2) as a subroutine for counting clicks $_{a,v}$, no_clicks $_{a,v}$, count $_v$, it guarantees (ϵ, δ) -probabilistic differential privacy."),
    (S002, "§4.4 Corollary 4.3", r"Let σ^2 be at least $6 \cdot height(H) \cdot m^2 \cdot \log(4/\delta)/\epsilon^2$."),
)
DEF5 = ((S000, "§5.4.4", r"Following Definition 5, we show that the output of the protocol preserves privacy."),)

BY_READING: dict[str, tuple[Quote, ...]] = {
    "count.fig5_2a": (
        (S000, "§5.6.2 'Accuracy'", r"We can see that to achieve a precision of 0.6, the coverage of our framework using non-private statistics is much higher than the coverage of our framework using the ϵ -differentially private statistics (i.e., 0.3 vs 0.1)."),
        (S000, "§5.6.2 'Accuracy'", r"The exact value of the privacy parameter ϵ (1 vs. 0.5) has a minor effect on the utility."),
    ),
    "count.fig5_2b": (
        (S000, "§5.6.2 'Robustness'", r"We see that the parameter t has only a mild effect. Even when 75% of the users could be unavailable or malicious ($t = 0.75$) the utility is almost the same as when all users are available and honest."),
    ),
    "count.text_1mb": (
        (S000, "§5.6.2 'Efficiency'", r"When we run Estimates on the log, a user has to send roughly 1MB on average. Many of the count queries can be batched. On average, a user participates in two batches for all CTR computations."),
    ),
    "count.text_exp_params": (
        (S000, "§5.6.1", r"We use the same dataset of the location-aware searches of 116,432 users over the course of a month in Microsoft Bing for mobile as in Section 4.4.1."),
        (S000, "§5.6.1 'Parameters'", r"We fixed $\delta = 0.02$ and the maximum number of contributions per user, $m = 4$."),
        (S000, "§5.6.1 'Parameters'", r"Therefore, we chose an aggressive limit of 1."),
        (S002, "§5.4 'Accuracy'", r"We fixed $\delta=0.01$."),
    ),
    "count.fig5_3": (
        (S000, "§5.6.2", r"However, *unlike our protocol, the costs for SHI and RASTOGI increase exponentially with N and p* (note the log scale of the graphs). For $p \geq 0.0001$ (corresponding to less than only 10 seconds a day) in (a) or $N \geq 1000$ (much fewer than users of popular online services) in (b) the protocols become impractical."),
        (S002, "§5.5", r"*unlike our protocol, the costs for all three protocols increase exponentially with N and p*"),
    ),
    "count.text_previous": (
        (S000, "§5.3", r"Early work by Dwork et al. [23] exchanges a large number of messages that is quadratic in the number of users."),
        (S000, "§5.3", r"Follow-up work by Rastogi et al. [89] and Shi et al. [93] reduces the number of messages to be linear in the number of users."),
        (S000, "§5.3", r"However, when a single user becomes unavailable, no further queries can be answered until a new setup is performed or the user returns."),
    ),
    "count.text_assumptions": (
        (S000, "§5.2", r"1. Honest-but-Curious Servers. *The two servers honestly follow the protocol. They are curious but do not collude with anyone.*"),
        (S000, "§5.2", r"2. Honest Fraction of Users. *At most a t fraction of users are malicious or unavailable during the protocol. This means, at least a fraction of $1 - t$ users are available and honestly follow the protocol."),
        (S000, "§5.2", r"We assume secure, reliable, and authenticated communication channels between servers and users."),
        (S002, "§4.1", r"**1. Honest-but-Curious Servers.** Server and proxy honestly follow the protocol. They are curious but do not collude with anyone."),
        (S002, "§4.1", r"**2. Honest Fraction of Users.** At most a t fraction of users are malicious or unavailable during the protocol."),
    ),
    "count.def9": (
        (S000, "§5.2 Definition 9", r"Let (E, D) be a homomorphic encryption scheme. This scheme is correct, i.e., for all plain texts $p, p' : D(E(p)) = p$. It is secret, i.e., $\Pr[E(p) = m] = \Pr[E(p') = m]$. Lastly, it is homomorphic, i.e., $E(p) + E(p') = E(p + p')$."),
    ),
    "count.alg_count": T_PROTOCOL + (
        (S000, "§5.4 footnote 1", r"In practice, we would use a discretized version of Gaussian noise and do all computations modulo some large number q as done in [93]."),
    ),
    "count.text_share_t": (
        (S000, "§5.4", r"If the upper bound t is violated and more users turn out to be malicious or unavailable, the privacy guarantee degrades and/or the protocol needs to be aborted before Step 4 and restarted (with a larger value for t). As t increases, the share of noise each participant adds to her or her bit increases."),
    ),
    "count.text_correct": (
        (S000, "§5.4.1", r"Let us consider the case where all participants behave as specified. Then Server 2 releases"),
        (S000, "§5.4.1", r"D(s) &= D\left(\sum_i E(b_i + r_i)\right) \\ &= D\left(E\left(\sum_i b_i + r_i\right)\right) && \text{By homomorphism Def. 9} \\ &= \sum_i b_i + r_i && \text{By correctness Def. 9,}"),
    ),
    "count.lem12": (
        (S000, "§5.4.2 Lemma 12", r"The number of messages exchanged in Count is linear in the number of users."),
        (S000, "§5.4.2 proof of Lemma 12", r"Each user sends two messages. Server 2 sends one message. Overall, the number of messages exchanged is $2N + 1$."),
    ),
        "count.text_robust": (
        (S000, "§5.4.3", r"Count successfully terminates as long as at least $(1 - t)N$ users send messages to Server 2. When Count is executed multiple times, it suffices that for each execution, at least $(1 - t)N$ possibly different users participate."),
        (S000, "§5.4.3", r"Unlike these previous protocols, our protocol does not expect the secrets of participating users to add up to a predefined constant."),
    ),
    "count.claim8": (
        (S000, "§5.4.4", r"Consider an algorithm C that " + SHARE + r" to $\sum_{l \in U'_h} b_l$."),
        (S000, "§5.4.4 Claim 8", r"Algorithm C with $\sigma \geq \sqrt{2 \ln(4/\delta)}/\epsilon$ preserves (ϵ, δ) -privacy."),
    ),
    "count.claim10": (
        (S000, "§5.4.4", r"Consider an algorithm C' that adds $|U'_h - 1|$ times noise $\mathcal{N}(\sigma^2/((1-t)N-1))$ to $\sum_{l \in U'_h, l \neq u} b_l$."),
        (S000, "§5.4.4 Claim 10", r"Algorithm C' with $\sigma \geq \sqrt{2 \ln(4/\delta)}/\epsilon$ preserves (ϵ, δ) -privacy."),
    ),
    "count.claim15": (
        (S000, "§5.4.6", r"Consider an algorithm C that adds $|U_h'|$ times noise $\mathcal{N}(\sigma^2/((1 - t)N - 1))$ to sum $\sum_{l \in U_h'^{(k)}} b_l^{(k)}$ for $1 \leq k \leq d$"),
        (S000, "§5.4.6 Claim 15", r"Let s denote the L_2 -sensitivity of the sums. Algorithm C with $\sigma \geq s\sqrt{2 \ln(4/\delta)}/\epsilon$ preserves (ϵ, δ) -privacy."),
    ),
    "count.claim17": (
        (S000, "§5.4.6", r"Consider an algorithm \mathcal{C} that adds $|U_h'^{(k)} - a_u^{(k)}|$ times noise $\mathcal{N}(\sigma^2 / ((1-t)N - 1))$ to $\sum_{l \in U_h'^{(k)}, l \neq u} b_l^{(k)}$ for $1 \leq k \leq d$."),
        (S000, "§5.4.6 Claim 17", r"Algorithm \mathcal{C} with $\sigma \geq s\sqrt{2\ln(4/\delta)}/\epsilon$ preserves (ϵ, δ) -privacy."),
    ),
    "count.text_noise_var": (
        (S000, "§5.4.4 (after Claim 8)", r"we have that adding $|U'_h|$ times noise $\mathcal{N}(\sigma^2/((1-t)N-1))$ is equivalent to adding noise $\mathcal{N}(|U'_h|\sigma^2/((1-t)N-1))$."),
        (S000, "§5.4.4 (after Claim 8)", r"We note that the L_2 -sensitivity is 1."),
    ),
    "count.text_noise_var/at least σ² (n ≥ (1 − t)N − 1)": (
        (S000, "§5.4.4 (after Claim 10)", r"By our honest fraction assumption, $|U'_h - 1| \geq (1-t)N-1$ and thus this adds noise with variance at least σ^2 ."),
        (S000, "§5.4.6 (after Claim 17)", r"By our honest fraction assumption, $|U_h'^{(k)} - a_u^{(k)}| \geq (1-t)N - 1$ and thus this adds noise with variance at least σ^2 ."),
    ),
    "count.text_noise_var/greater than σ² (C: n ≥ (1 − t)N)": (
        (S000, "§5.4.4 (before Claim 8)", r"By our assumption about the honest fraction there are at least $(1 - t)N$ honest and available users, i.e. $|U'_h| \geq (1-t)N$."),
        (S000, "§5.4.4 (after Claim 8)", r"By our honest fraction assumption, $|U'_h| \geq (1-t)N-1$ and thus this adds noise with variance greater than σ^2 ."),
    ),
    "count.claim9": (
        (S000, "§5.4.4 (non-participant or honest and unavailable user)", r"We use the algorithm $R(v, L_{U_m})$ that outputs $v + \sum_{m_i \in A(L_{U_m})} D(m_i)$."),
        (S000, "§5.4.4 Claim 9", r"Claim 9. *V and $R(C(L_{U'_h}), L_{U_m})$ are identically distributed.*"),
    ),
    "count.claim11": (
        (S000, "§5.4.4 (honest and available user)", r"We use the algorithm $R(v, L_{U_m \cup \{u\}})$ that samples $X_u \sim \mathcal{N}(\sigma^2/((1-t)N-1))$ and outputs $v + \sum_{m_i \in \mathbf{A}(L_{U_m})} D(m_i) + b_u + X_u$ and $m_u = E(b_u + X_u)$."),
        (S000, "§5.4.4 Claim 11", r"Claim 11. *V and $R(\mathbf{C}'(L_{U'_h \setminus \{u\}}), L_{U_m \cup \{u\}})$ are identically distributed.*"),
    ),
    "count.claim12": (
        (S000, "§5.4.4 (malicious user)", r"We use the algorithm $R(v, L_{U_m}) = v + \sum_{m_i \in A'(L_{U'_m})} D(m_i) + \sum_{m_i \in A''(L_{U_m \setminus U'_m})} D(m_i), A'(L_{U'_m})$."),
        (S000, "§5.4.4 Claim 12", r"Claim 12. V and $R(C(L_{U_h}), L_{U_m})$ are identically distributed."),
    ),
    "count.claim13": (
        (S000, "§5.4.4 (Server 1)", r"We start by analyzing the distribution of V which is $X, D(X)$ for $X \sim \sum_{i \in U'_h} E(b_i + \mathcal{N}(\sigma^2 / ((1-t)N - 1))) + \sum_{m_i \in \mathcal{A}(L_{U_m})} m_i$."),
        (S000, "§5.4.4 Claim 13", r"Claim 13. V and $R(\mathcal{C}(L_{U'_h}), L_{U_m})$ are identically distributed."),
    ),
    "count.claim14": (
        (S000, "§5.4.4 (Server 2)", r"Let p_i denote arbitrary plaintexts. We use the algorithm $R(v, L_{U_m})$ that outputs $A(L_{U_m}), \langle E(p_i) | i \in U'_h \rangle, \sum_{i \in U'_h} E(p_i) + \sum_{m_i \in A(L_{U_m})} m_i, v + \sum_{m_i \in A(L_{U_m})} D(m_i)$."),
        (S000, "§5.4.4 Claim 14", r"Claim 14. V and $R(C(L_{U'_h}), L_{U_m})$ are identically distributed."),
    ),
    "count.claim16": (
        (S000, "§5.4.6 (non-participant)", r"We denote by V the complete view which are the d outputs."),
        (S000, "§5.4.6 Claim 16", r"Claim 16. $\text{Count}(L^{(1)}, \dots, L^{(d)})_V$ and $R(C(L_{U_h}^{(1)}, \dots, L_{U_h}^{(d)}), L_{U_m}^{(1)}, \dots, L_{U_m}^{(d)})$ are identically distributed."),
    ),
    "count.claim18": (
        (S000, "§5.4.6 (honest user)", r"$$E_u^{(k)} = \begin{cases} E(b_u^{(k)} + X_u^{(k)}) & \text{if } a_u^{(k)} = 1 \\ \perp & \text{otherwise} \end{cases}$$ For notational convenience we define $x + \perp = x$ and $E(\perp) = D(\perp) = \perp$."),
        (S000, "§5.4.6 Claim 18", r"Claim 18. $\text{Count}(L^{(1)}, \dots, L^{(d)})_V$ and $R(\mathcal{C}(L_{U_h}^{(1)}, \dots, L_{U_h}^{(d)}), L_{U_m}^{(1)}, \dots, L_{U_m}^{(d)})$ are identically distributed."),
    ),
    "count.claim19": (
        (S000, "§5.4.6 (malicious user)", r"We denote by A' the algorithm used by the adversary controlling U'_m ."),
        (S000, "§5.4.6 Claim 19", r"Claim 19. $\text{Count}(L^{(1)}, \dots, L^{(d)})_V$ and $R(C(L_{U_h}^{(1)}, \dots, L_{U_h}^{(d)}), L_{U_m}^{(1)}, \dots, L_{U_m}^{(d)})$ are identically distributed."),
    ),
    "count.claim20": (
        (S000, "§5.4.6 (Server 1)", r"We denote by V the complete view which is $\sum_j m_j^{(k)}$ of the available participants and the decryption thereof."),
        (S000, "§5.4.6 Claim 20", r"Claim 20. $\text{Count}(L^{(1)}, \dots, L^{(d)})_V$ and $R(\mathcal{C}(L_{U_h'}^{(1)}, \dots, L_{U_h'}^{(d)}), L_{U_m}^{(1)}, \dots, L_{U_m}^{(d)})$ are identically distributed."),
    ),
    "count.claim21": (
        (S000, "§5.4.6 (Server 2)", r"Let $p_i^{(k)}$ denote arbitrary plaintexts. We use algorithm $R(v^{(1)}L_{U_m}^{(1)}, \dots, v^{(d)}L_{U_m}^{(d)})$ to produce the k^{th} messages $M_R^{(k)}$, sum over these messages $S_R^{(k)}$ as well as the output $O_R^{(k)}$ as"),
        (S000, "§5.4.6 Claim 21", r"Claim 21. $\text{Count}(L^{(1)}, \dots, L^{(d)})_V$ and $R(\mathbf{C}(L_{U_h}^{(1)}, \dots, L_{U_h}^{(d)}), L_{U_m}^{(1)}, \dots, L_{U_m}^{(d)})$ are identically distributed."),
    ),
    "count.thm9": DEF5 + (
        (S000, "§5.4.4 Theorem 9", r"Consider $\epsilon \leq 1$ and $\sigma^2 \geq 2 \ln(4/\delta)/\epsilon^2$. Protocol $\text{Count}(\sigma^2, t)$ guarantees (ϵ, δ) -probabilistic differential privacy of the users in the presence of up to a fraction of t unavailable or malicious users."),
    ),
    "count.thm11": (
        (S000, "§5.4.6 Theorem 11", r"For users with real values $b_i^{(1)}, \dots, b_i^{(d)}$ Protocol Count(σ^2, t) can be used repeatedly to compute $\sum b_i^{(1)}, \dots, \sum b_i^{(d)}$ with noise added to protect privacy. Let s denote the L_2 -sensitivity of $\sum b_i^{(1)}, \dots, \sum b_i^{(d)}$. Consider $\epsilon \leq 1$ and $\sigma^2 \geq 2s^2 \ln(4/\delta)/\epsilon^2$."),
    ),
    "count.thm10": T_PROTOCOL + P_PROTOCOL + (
        (S000, "§5.4.5 Theorem 10", r"If Server 2 (but not Server 1) is corrupted by an adversary, we guarantee that the adversary will not be able to learn information that breaches privacy."),
        (S000, "§5.4.5", r"The proof follows from the fact that Server 2 sends only the very last message of the protocol upon which no further action is taken."),
        (S002, "§4.3 'Additional Guarantees'", r"If the proxy is corrupted by an adversary, we guarantee that the adversary will not be able to learn information that breaches privacy. This guarantee holds since the proxy sends only the very last message of the protocol upon which no further action is taken."),
    ),
    "count.p_server_corrupt": (
        (S002, "§4.3 'Additional Guarantees'", r"Similarly, if the server is corrupted we guarantee that the adversary will not be able to learn information that breaches privacy. The adversary may send any value to the proxy from which $\sum k_i$ will be subtracted. The output will be random in case the value is not a sum that contains exactly one term for each received message m_i ."),
    ),
    "count.p_protocol1": P_PROTOCOL + (
        (S002, "§4.2.1 Protocol 1", r"1. Each user i with bit b_i samples $k_i \in \{0, \dots, p-1\}$ i.i.d. - 2. Each user i samples r_i from $\mathcal{N}(\sigma^2/((1-t)N-1))$."),
    ),
    "count.p_gauss_split": (
        (S002, "§4.1", r"(ϵ, δ) -differential privacy of a count query can be realized by adding Gaussian noise and Gaussian noise with variance σ^2 can be generated in a distributed manner by N parties, by summing up N independent random samples from the Gaussian distribution with variance σ^2/N ."),
    ),
    "count.p_laplace_gamma": (
        (S002, "§4.1", r"More recently, Ács et al. [1] have shown how to generate Laplace noise in fully distributed way, by constructing Laplace distribution as the sum over i.i.d. samples from the Gamma distribution. Our protocol can easily adopt this technique and ensure ϵ -differential privacy as well."),
    ),
    "count.alg8": (
        (S000, "§5.5.3 Algorithm 8", r"if count $_v$ > min_support then $\mathcal{A}'$ = set of ads with bids on context of $v$"),
        (S000, "§5.5.3 Algorithm 8", r"release $\widehat{\text{CTR}}(a|v) = \frac{\text{clicks}_{a,v}}{\text{clicks}_{a,v} + \text{no\_clicks}_{a,v}}$"),
    ),
    "count.alg7": (
        (S000, "§5.5.3 Algorithm 7", r"Delete all but $m$ views or clicks on ads and their contexts of this user from the ad log. end for return TopDown(ad log, root( $H$ ), $\lambda$ , min_support)"),
    ),
    "count.prop8": (
        (S000, "§5.5.3 Proposition 8", r"Consider a version of Estimates using an exact counting procedure. The number of counts is bounded by $(b + \text{branch}(H)) \cdot \text{height}(H) \cdot N \cdot m / \text{min_support}$."),
    ),
    "count.prop8/the proof's accounting": (
        (S000, "§5.5.3 proof of Proposition 8", r"Each of these nodes can issue counts for all ads bidding on this node (at most b) and all children (at most $\text{branch}(H)$)."),
    ),
    "count.prop8/O(·) Count calls (002)": (
        (S002, "§4.4", r"Estimates makes $O(a + branch(H)) \cdot height(H) \cdot N \cdot m / min support)$ calls to Count with high probability"),
    ),
    "count.text_prop8_prob": (
        (S000, "§5.5.3 proof of Proposition 8", r"this probability is equal to the probability that a standard Gaussian variable with zero mean and 1 variance exceeds the value $(\text{min_support} - c)((1 - t)N - 1)/\sigma$."),
    ),
    "count.text_prop8_prob/the statement's expression (with σ)": (
        (S000, "§5.5.3 Proposition 8", r"However, the probability of this is bounded by $$\frac{e^{-(\text{min_support}-c)^2((1-t)N-1)^2/(2\sigma^2)}\sigma}{((1-t)N-1)(\text{min_support}-c)\sqrt{2\pi}}.$$"),
    ),
    "count.text_prop8_prob/the proof's expression (without σ)": (
        (S000, "§5.5.3 proof of Proposition 8", r"This probability can be bounded using Fact 2 by $$\frac{e^{-(\text{min_support} - c)^2((1-t)N-1)^2/(2\sigma^2)}}{((1-t)N-1)(\text{min_support} - c)\sqrt{2\pi}}.$$"),
    ),
    "count.text_cor2_sens": (
        (S000, "§5.5.3 proof of Corollary 2", r"Within a level of the hierarchy the L_2 -sensitivity of each count is at most m ."),
        (S000, "§5.5.3 proof of Corollary 2", r"$$\leq \sum_{l=0}^{\text{height}(H)-1} 3 \cdot m^2 \quad (5.2)$$ $$= 3\text{height}(H)m^2 \quad (5.3)$$"),
    ),
    "count.cor2": COR2,
    "count.text_rare": (
        (S000, "§5.5.1", r"However, all these approaches have a running time at least linear in the number of possible contexts, rendering them infeasible."),
        (S000, "§5.5.3 (after Proposition 8)", r"The number of contexts can be up to $\text{branch}(H)^{\text{height}(H)}$. If this number is much larger than the number of users then Estimates can be more efficient."),
    ),
    "count.p_ex4_4": (
        (S002, "§4.4 Example 4.4", r"It periodically estimates the values of Pr[c] and $\widehat{CTR}(a|c)$, for all c and a, by executing the Estimates algorithm. While doing so, it walks top-down through the context hierarchy."),
        (S002, "§4.4 Example 4.4", r"The proxy does not need to know (but may know) what is being counted."),
        (S002, "§4.4 Example 4.4", r"Due to privacy concerns, the user discloses to the server only that she is exercising in New York City c."),
    ),
    "count.p_def_accuracy": (
        (S002, "Appendix A.2 Eqs. (5)-(6)", r"We say the estimate is (α, β) -accurate if with probability at least β : $$\widehat{\mathsf{CTR}}(a|v) \geq \frac{\mathsf{clicks_true}_{a,v} - \alpha}{\mathsf{clicks_true}_{a,v} + \mathsf{no_clicks_true}_{a,v} + 2\alpha} \qquad (5)$$ $$\widehat{\mathsf{CTR}}(a|v) \leq \frac{\mathsf{clicks_true}_{a,v} + \alpha}{\mathsf{clicks_true}_{a,v} + \mathsf{no_clicks_true}_{a,v} - 2\alpha} \qquad (6)$$"),
    ),
    "count.p_a2_bound": (
        (S002, "Appendix A.2", r"Consider our protocol Estimates (and its parameters N,t,σ as in Corollary 4.3) and suppose all users respond truthfully. Then the computed estimates are (α,β) -accurate for $$\beta \le 1 - 3/(2\pi\alpha)\sigma\sqrt{(N/((1-t)N-1))}\exp^{-\alpha^2((1-t)N-1)/(2N\sigma^2)}$$"),
    ),
}
