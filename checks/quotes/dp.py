"""dp: the decisive words of the shared definitions and results of thesis ch. 2 (000_211156f2009240b4.txt),
with the papers' restatements (001 MaskIt, 002 ads + counting, 003 ZEALOUS) where a claim cites them.
dp.thm2's quotes live with the maskit code that declares its reading. See :mod:`privclaims.checks.quotes`."""

from __future__ import annotations

from privclaims.checks.quotes import S000, S001, S002, S003, Quote

DEF3_PAIR = (
    (S000, "§2.2.1 Definition 3", r"An algorithm M satisfies (ϵ, δ) -probabilistic differential privacy if for all user activity logs L and neighboring ad logs L' obtained from L by adding or deleting the contexts and clicks of a single user we can divide the output space Ω into two sets Ω_1, Ω_2 such that*"),
)
# the split once per input S for all its neighbours S' (thesis ch. 6 proof of Prop. 9, and 003's definition)
DEF3_INPUT = (
    (S000, "§6.5 proof of Proposition 9", r"Assume that, for all search logs S , we can divide the output space Ω into two sets Ω_1, Ω_2 , such that"),
    (S000, "§6.5 proof of Proposition 9", r"for all search logs S' differing from S only in the search history of a single user and for all $O \in \Omega_1$:"),
    (S003, "§2 Definition 3", r"for all search logs S𝑆S we can divide the output space ΩΩ\Omega into two sets"),
)
THM1_TAIL = (
    (S000, "§2.2.1 proof of Theorem 1", r"& = 2 \frac{e^{-\epsilon^2\sigma^2/(2s^2) + \epsilon/2 - s^2/(8\sigma^2)}}{(\epsilon\sigma/s - s/(2\sigma))\sqrt{2\pi}}"),
)

BY_READING: dict[str, tuple[Quote, ...]] = {
    "dp.def_view": (
        (S000, "§2.2.1 'Notation'", r"We can restrict the log L to the data of a subset of the users $U' \subset U$, denoted by $L_{U'}$. If U' contains users not in U , we define $L_{U'}$ to be $L_{U \cap U'}$."),
        (S000, "§2.2.1 'Notation'", r"We define the *view* of a subset of participants $P' \subset P$ in the execution of M on input L , denoted by $V_{P'}$, to be a random variable for all messages received and sent by a participant in P' . For a non-participant we define the view to be the output of the distributed protocol."),
    ),
    "dp.def5": (
        (S000, "§2.2.1 Definition 5", r"A distributed protocol M with participants P satisfies (ϵ, δ) -distributed probabilistic differential privacy of the users if for all user activity logs L and all (non-) participants p the following holds.*"),
        (S000, "§2.2.1 Definition 5", r"(a) $M'(L_{U \setminus (P_m \cup \{p\})})$ preserves (ϵ, δ) -probabilistic differential privacy.*"),
        (S000, "§2.2.1 Definition 5", r"(b) R generates the distribution of the view $V_{P'_m}$ given $M'(L_{U \setminus (P_m \cup \{p\})})$ and $L_{P_m \cup \{p\}}$, i.e., $V_{P'_m}$ and $R(M'(L_{U \setminus (P_m \cup \{p\})}), L_{P_m \cup \{p\}})$ are identically distributed.*"),
        (S002, "§4.1 Definition 1", r"A distributed protocol M with participants P satisfies (ϵ, δ) -distributed probabilistic differential privacy of the users if for all user activity logs L and all (non-) participants p the following holds."),
    ),
    "dp.thm1": (
        (S000, "§2.2.1 Theorem 1", r"For $\epsilon \leq 1$ and $\sigma^2 \geq s^2 2 \ln(4/\delta)/\epsilon^2$, adding Gaussian noise with variance σ^2 to a function f with L_2 -sensitivity s gives (ϵ, δ) -probabilistic differential privacy.*"),
        (S000, "§2.2.1", r"This theorem has been established for δ -approximate ϵ -indistinguishability [23] and extends to our definition, which is stronger, see Section 6.5."),
        (S002, "§4.3 Proposition 4.2", r"For $\epsilon \leq 1$ and $\sigma^2 \geq s^2 2 \ln(4/\delta)/\epsilon^2$, adding Gaussian noise with variance σ^2 to a function f with L_2 -sensitivity s gives (ϵ, δ) -probabilistic differential privacy."),
    ),
    "dp.text_thm1_omega1": (
        (S000, "§2.2.1 proof of Theorem 1", r"We define $\Omega_1 = \{O = o_1, \dots, o_d \mid -\epsilon\sigma^2 \leq \sum_i (o_i - f(L)_i)(f(L)_i - f(L')_i) \leq \epsilon\sigma^2 - s^2/2\}$"),
        (S000, "§2.2.1 proof of Theorem 1", r"$$e^{-\epsilon} \Pr[M(L') = O] \leq \Pr[M(L) = O] \leq e^\epsilon \Pr[M(L') = O].$$"),
    ) + THM1_TAIL,
    "dp.text_thm1_decreasing": THM1_TAIL + (
        (S000, "§2.2.1 proof of Theorem 1", r"This expression decreases with σ . Thus, it suffices to show that for $\sigma =$ $\sqrt{2\ln(2/\delta)}s/\epsilon$ we have that"),
        (S000, "§2.2.1 proof of Theorem 1", r"\delta(\epsilon\sigma^2/s - s/2)\sqrt{2\pi}e^{\epsilon^2(\sqrt{2\ln(4/\delta)}s/\epsilon)^2/(2s^2)}e^{s^2/(8\sigma^2)}"),
    ),
    "dp.text_thm1_final": (
        (S000, "§2.2.1 proof of Theorem 1 (final steps)", r"&\Leftrightarrow \sqrt{\ln(2/\delta)}e^{1/2} \leq (4\ln(2/\delta) - 1)\sqrt{\pi} \quad \text{Since } \epsilon \leq 1 \\ &\Leftrightarrow e^{1/2} + \sqrt{\pi}/\sqrt{\ln(2/\delta)} \leq 4\sqrt{\ln(2/\delta)}\sqrt{\pi} \\ &\Leftrightarrow e^{1/2} + \sqrt{\pi}/\sqrt{\ln(2)} \leq 4\sqrt{\ln(2)}\sqrt{\pi} \quad \text{Since } \delta \leq 1 \\ &\Leftrightarrow \text{true}"),
    ),
    "dp.fact1": (
        (S000, "§2.2.1 Fact 1", r"The family of Gaussian distributions is closed under linear transformation. In particular, for Gaussian variables X_1, \dots, X_d with $X_i \sim \mathcal{N}(\mu_i, \sigma_i^2)$, for all $\alpha_i \in \mathbb{R}$* $$\sum_{i=1}^d \alpha_i X_i \sim \mathcal{N}\left(\sum_{i=1}^d \alpha_i \mu_i, \sum_{i=1}^d \alpha_i^2 \sigma_i^2\right)$$"),
        (S000, "§2.2.1 Eq. (2.1)", r"$$\sum_{i=1}^d \alpha_i X_i \sim \sqrt{\sum_{i=1}^d \alpha_i^2 \sigma_i^2} Z + \sum_{i=1}^d \alpha_i \mu_i, \quad (2.1)$$"),
    ),
    "dp.fact2": (
        (S000, "§2.2.1 Fact 2", r"$$\Pr[Z \geq z] \leq \frac{e^{-z^2/2}}{z\sqrt{2\pi}}$$"),
        (S000, "§2.2.1 proof of Fact 2", r"$$\Pr[Z \geq z] = \int_z^\infty \frac{1}{\sqrt{2\pi}} e^{-t^2/2} dt \leq \int_z^\infty \frac{t}{z} \frac{1}{\sqrt{2\pi}} e^{-t^2/2} dt = \frac{e^{-z^2/2}}{z\sqrt{2\pi}}$$"),
        (S000, "§5.5.3 proof of Proposition 8", r"exceeds the value $(\text{min_support} - c)((1 - t)N - 1)/\sigma$. This probability can be bounded using Fact 2 by"),
    ),
    "dp.def2": (
        (S000, "§2.2.1 Definition 2", r"An algorithm \mathcal{A} is ϵ -differentially private if for all user activity logs L and L' differing in the data of a single user and for all output logs O : $$Pr[\mathcal{A}(L) = O] \leq e^\epsilon Pr[\mathcal{A}(L') = O].$$"),
    ),
    "dp.def3": (
        (S000, "§2.2.1 Definition 3", r"$$(1) \Pr[M(L) \in \Omega_2] \leq \delta, \text{ and}$$ and for all $O \in \Omega_1$: $$(2) e^{-\epsilon} \Pr[M(L') = O] \leq \Pr[M(L) = O] \leq e^{\epsilon} \Pr[M(L') = O]$$"),
    ),
    "dp.text_def3_delta0": (
        (S000, "§2.2.1 (after Definition 3)", r"This definition guarantees that algorithm \mathcal{A} achieves ϵ -differential privacy with high probability ($\geq 1 - \delta$). The set Ω_2 contains all outputs that are considered privacy breaches according to ϵ -differential privacy; the probability of such an output is bounded by δ . For $\delta = 0$ this definition is equivalent to ϵ -differential privacy."),
    ),
    "dp.def4": (
        (S000, "§2.2.1 Definition 4", r"An algorithm \mathcal{A} is (ϵ, δ) -indistinguishable if for all user activity logs L, L' differing in the data of a single user and for all subsets \mathcal{O} of the output space Ω : $$\Pr[\mathcal{A}(L) \in \mathcal{O}] \leq e^\epsilon \Pr[\mathcal{A}(L') \in \mathcal{O}] + \delta$$"),
    ),
    "dp.def6": (
        (S000, "§2.2.2 Definition 6", r"We say that a system \mathcal{A} preserves δ -privacy against an adversary if for all possible inputs \vec{x} , for all possible outputs \vec{o} ($\Pr[\mathcal{A}(\vec{x}) = \vec{o}] > 0$), for all times t and all sensitive contexts $s \in S$* $$\Pr[X_t = s | \vec{o}] - \Pr[X_t = s] \leq \delta.$$"),
        (S001, "§2.1 Definition 1", r"for all possible inputs  $\vec{x}$  sampled from the Markov chain M with non-zero probability (i.e.,  $\Pr[\vec{x}] > 0$ )"),
    ),
    "dp.text_def6_subset": (
        (S000, "§2.2.2 (after Definition 6)", r"In general, for any subset $S' \subset S$, any t , any \vec{o} preserving $\delta/|S'|$ -privacy according to the above definition we have that $\Pr[X_t \in S' | \vec{o}] - \Pr[X_t \in$ $S'] \leq \delta$. This is because $\Pr[X_t \in S' | \vec{o}]$ is equal to $\sum_{s \in S'} \Pr[X_t = s | \vec{o}]$."),
    ),
    "dp.text_def6_window": (
        (S000, "§2.2.2", r"For a time window of length Δ any \vec{o} preserving δ/Δ -privacy we have that the posterior belief formed after observing \vec{o} of the user being in a sensitive context s at *some* point in the time window is at most δ larger than her prior belief."),
        (S001, "§2.1", r"For a time window of length  $\Delta_t$  any  $\vec{o}$  preserving  $\delta/\Delta_t$ -privacy"),
    ),
    "dp.def1": (
        (S000, "§2.1 Definition 1", r"A data release is *k-anonymous* if the data of every individual is indistinguishable from the data of at least $k - 1$ other individuals."),
        (S003, "§2.2 Definition 1", r"A search log is k𝑘k-anonymous if the search history of every individual is indistinguishable from the history of at least k1𝑘1k-1 other individuals in the published search log."),
    ),
    "dp.def_kquery": (
        (S000, "§2.1.2", r"Adar proposes to partition the search log into sessions and then to discard queries that are associated with fewer than k different user-ids. In each session the user-id is then replaced by a random number [1]. We call the output of Adar’s Algorithm a *k -query anonymous search log*."),
    ),
    "dp.def_ksession": (
        (S000, "§2.1.2", r"Motwani and Nabar add or delete keywords from sessions until each session contains the same keywords as at least $k - 1$ other sessions in the search log [82], following by a replacement of the user-id by a random number. We call the output of this algorithm a *k -session anonymous search log*."),
    ),
    "dp.def_kkeyword": (
        (S000, "§2.1.2", r"He and Naughton generalize keywords by taking their prefix until each keyword is part of at least k search histories and publish a histogram of the partially generalized keywords [47]. We call the output a *k -keyword anonymous search log*."),
    ),
}
