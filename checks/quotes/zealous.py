"""zealous: the decisive words of each claim, verbatim from 000_211156f2009240b4.txt (thesis ch. 6) and
003_755c7aa10ef74058.txt (the ZEALOUS paper; its extraction doubles symbols, e.g. ``m𝑚m``, and the quotes
keep that). See :mod:`privclaims.checks.quotes`."""

from __future__ import annotations

from privclaims.checks.quotes import S000, S003, Quote

DEF10 = (
    (S000, "§6.2.3 Definition 10", r"E[|\{d \in \mathcal{A}(S) | f_d(S) < \tau - \xi\} \cup \{d \notin \mathcal{A}(S) | f_d(S) > \tau + \xi\}|]"),
)
VERY = (
    (S000, "§6.2.3", r"We call an item d with frequency $f_d \geq \tau + \xi$ a *very-frequent item* and an item d with frequency $f_d \leq \tau - \xi$ a *very-infrequent item*."),
)
FIG_M = ((S000, "§6.6.2 (Figures 6.2, 6.3)", r"In Figure 6.2 we vary m between 1 and 40."),)

BY_READING: dict[str, tuple[Quote, ...]] = {
    "zealous.table6_1": (
        (S000, "§6.4.3 Table 6.1", r"$\lambda = 1$ ($\epsilon, \epsilon' = 10$) $\delta = 1.3 \times 10^{-37}$ $\delta = 4.7 \times 10^{-81}$"),
        (S000, "§6.4.3 Table 6.1", r"$\lambda = 5$ ($\epsilon, \epsilon' = 2$) $\delta = 3.2 \times 10^{-3}$ $\delta = 6.5 \times 10^{-12}$ $\delta' = 1.4 \times 10^{-8}$ $\delta' = 2.9 \times 10^{-17}$"),
        (S000, "§6.4.3 Table 6.1", r"Table 6.1: (ϵ', δ') -indistinguishability vs. (ϵ, δ) -probabilistic differential privacy. $U = 500k$, $m = 5$."),
    ),
    "zealous.text_delta_order": (
        (S000, "§6.4.3", r"A larger λ results in a greater amount of noise in the sanitized search log (i.e., decreased data utility), but it also leads to smaller ϵ and ϵ' (i.e., stronger privacy guarantee)."),
        (S000, "§6.4.3", r"Interestingly, given λ and τ' , we always have $\delta > \delta'$."),
    ),
    "zealous.table6_2": (
        (S000, "§6.6.1 Table 6.2", r"Table 6.2: τ' as a function of τ for $m = 2, \epsilon = 1, \delta = 0.01$"),
        (S000, "§6.6.1", r"Table 6.2 shows that for our parameter settings τ' is minimized when $\tau = 4$."),
    ),
    "zealous.prop12": (
        (S000, "§6.6.1 Proposition 12", r"Proposition 12. For a fixed ϵ, δ and m choosing $\tau = \lceil 2m/\epsilon \rceil$ minimizes the value of τ' ."),
        (S000, "§6.6.1", r"The proof follows from taking the derivative of τ' as a function of τ (based on Equation (6.5)) to determine its minimum."),
    ),
    "zealous.text_superlinear": (
        (S000, "§6.6.2", r"First, from Theorem 14 and Proposition 12 we see that threshold τ' increases super-linearly in m ."),
    ),
    "zealous.text_eps5": (
        (S000, "§6.7.1", r"We choose $\epsilon = 5, m = 1$ for which threshold $\tau' \approx 10$. Therefore we deliberately set $k = 10$ such that $k \approx \tau'$."),
        (S000, "§6.7.1", r"Note that a k -query anonymous search log will never have query and keyword counts below k , and similarly a ZEALOUS histogram will never have counts below τ' ."),
    ),
    "zealous.text_korolova": (
        (S000, "§6.8", r"One difference is that our algorithm has two thresholds τ, τ' as opposed to one and we explain how to set threshold τ optimally. Korolova et al. [65] set $\tau = 1$ (which is not the optimal choice in many cases)."),
    ),
    "zealous.text_55_96": (
        (S000, "§6.6.2", r"We observe that coverage decreases as we increase m . Moreover, the decrease in the number of published items is more dramatic for larger domains than for smaller domains. The number of distinct keywords decreases by 55% while at the same time the number of distinct query pairs decreases by 96% as we increase m from 1 to 40."),
    ),
    "zealous.text_tipping": (
        (S000, "§6.6.2", r"We observe that as we increase m , the total counts increase until a tipping point is reached after which they start decreasing again."),
        (S000, "§6.6.2", r"We found that the tipping point where the total count starts to decrease corresponds approximately to the average number of items contributed by each user in the original search log (shown in Table 6.4). This suggests that we should choose m to be smaller than the average number of items"),
    ),
    "zealous.text_aol": (
        (S000, "§6.1", r"The only release of a search log happened in 2007 by AOL"),
        (S000, "§6.1", r"AOL published three months of search logs of 650,000 users. The only measure to protect user privacy was the replacement of user-ids with random numbers"),
        (S003, "§1", r"The only release of a search log happened in 2006 by AOL"),
    ),
    "zealous.table6_3": (
        (S000, "§6.6.2 Table 6.3 (A)", r"(A) Number of distinct items released under ZEALOUS. m 1 4 8 20 40 keywords 6667 6043 5372 4062 2964 queries 3334 2087 1440 751 408 clicks 2813 1576 1001 486 246 query pairs 331 169 100 40 13"),
        (S000, "§6.6.2 Table 6.3 (B)", r"(B) Number of total items $\times 10^3$ released under ZEALOUS. m 1 4 8 20 40 keywords 329 1157 1894 3106 3871 queries 147 314 402 464 439 clicks 118 234 286 317 290 query pairs 8 14 15 12 7"),
    ),
    "zealous.table6_4": (
        (S000, "§6.6.2 Table 6.4", r"keywords queries clicks query pairs 56 20 14 7 Table 6.4: Avg number of items per user in the original search log"),
    ),
    "zealous.fig6_4": (
        (S000, "§6.7.1 (Figure 6.4)", r"We see that the power-law shape of the distribution is well preserved. However, the total frequencies are lower for the sanitized search logs than the frequencies in the original histogram"),
        (S000, "§6.7.1 (Figure 6.4)", r"We also see the cutoffs created by k and τ' ."),
        (S000, "§6.7.1 (Figure 6.4)", r"For example, the number of clicks with count equal to one is an order of magnitude larger than the number of keywords with count equal to one."),
    ),
    "zealous.def_searchlog": (
        (S000, "§6.2.1", r"$$\langle \text{USER-ID}, \text{QUERY}, \text{TIME}, \text{CLICKS} \rangle,$$"),
        (S000, "§6.2.1", r"We say that a user history *contains* a keyword k if there exists a search log entry such that k is a keyword in the query of the search log."),
        (S000, "§6.2.1", r"a search log S records for each keyword k the number of users c_k whose search history in S contains k ."),
        (S000, "§6.2.1", r"A *query pair* consists of two subsequent queries from the same user within the same session."),
    ),
    "zealous.def10": DEF10 + (
        (S000, "§6.2.3", r"The expectation is taken over the randomness of the algorithm."),
        (S000, "§6.2.3", r"$$\sum_{d: f_d(S) > \tau + \xi} 1 - \Pr[d \in \mathcal{A}(S)] + \sum_{d \in D: f_d(S) < \tau - \xi} \Pr[d \in \mathcal{A}(S)]$$"),
    ),
    "zealous.text_baseline": (
        (S000, "§6.2.3", r"On input S the Baseline Algorithm has an inaccuracy equal to the number of items with frequency at least $\tau + \xi$."),
        (S000, "§6.2.3", r"For example, the baseline algorithm has an inaccuracy to filter of 0 inaccuracy to retain equal to the number of very-frequent items."),
    ),
    "zealous.def11": (
        (S000, "§6.2.3 Definition 11", r"An algorithm \mathcal{A} is c -accurate if for any input search log S and any very-frequent item d in S , the probability that \mathcal{A} outputs d is at least c ."),
    ),
    "zealous.text_kanon_attack": (
        (S000, "§6.3.1", r"they only assure that the keywords/queries/sessions associated with k different *user-IDs* are indistinguishable."),
        (S000, "§6.3.1", r"An attacker can exploit this by creating multiple accounts and submitting the same fake queries from these accounts. It can happen that in a k -keyword/query/session-anonymous search log the keywords/queries/sessions of a user are only indistinguishable from $k - 1$ fake keywords/queries/sessions submitted by an attacker."),
    ),
    "zealous.def_topj": (
        (S000, "§6.6.2", r"fraction of distinct items among the top- j most frequent items in the original search log that also appear in the sanitized search log. The *top- j precision of a sanitized search log* is defined as the distance between the relative frequencies in the original search log versus the sanitized search log for the top- j most frequent items. In particular, we study two distance metrics between the relative frequencies: the average L-1 distance and the KL-divergence."),
    ),
    "zealous.fig6_2": FIG_M,
    "zealous.fig6_2/coverage falls with m": (
        (S000, "§6.6.2 (Figure 6.2)", r"First, observe that the coverage decreases as m increases, which confirms our discussion about the number of distinct items."),
    ),
    "zealous.fig6_2/coverage falls with j": (
        (S000, "§6.6.2 (Figure 6.2)", r"Moreover, we see that the coverage gets worse for increasing values of the top- j parameter."),
    ),
    "zealous.fig6_2/precision crossover in j": (
        (S000, "§6.6.2 (Figure 6.2)", r"Second, note that for small values of the top- j parameter, values of $m > 1$ give better precision. However, when the top- j parameter is increased, $m = 1$ gives better precision"),
    ),
    "zealous.fig6_3": (
        (S000, "§6.6.2 (Figure 6.3)", r"Each curve plots the precision for $m = 1, 2, 4, 8, 10, 40$, respectively."),
    ),
    "zealous.fig6_3/m = 1 not always best": (
        (S000, "§6.6.2 (Figure 6.3)", r"Note that $m = 1$ does not always give the best precision; for keywords, $m = 8$ has the lowest KL-divergence, and for queries, $m = 2$ has the lowest KL-divergence."),
    ),
    "zealous.fig6_3/best m smaller for queries": (
        (S000, "§6.6.2 (Figure 6.3)", r"for keywords, $m = 8$ has the lowest KL-divergence, and for queries, $m = 2$ has the lowest KL-divergence."),
        (S000, "§6.6.2 (Figure 6.3)", r"and in this case we recommend the average number of items per user."),
    ),
    "zealous.fig6_3/m = 1 for coverage": (
        (S000, "§6.6.2 (Figure 6.3)", r"If we are mainly interested in coverage, then m should be set to 1."),
    ),
    "zealous.fig6_5": (
        (S000, "§6.7.1 (Figure 6.5)", r"We scaled up the counts in sanitized histograms by a common factor so that the total counts were equal to the total counts of the original histogram, then we calculated the average difference between the counts."),
    ),
    "zealous.fig6_5/falls with eps": (
        (S000, "§6.7.1 (Figure 6.5)", r"As expected, with increasing ϵ the average difference decreases, since the noise added to each count decreases."),
    ),
    "zealous.fig6_5/falls with smaller k": (
        (S000, "§6.7.1 (Figure 6.5)", r"Similarly, by decreasing k the accuracy increases because more queries will pass the threshold."),
    ),
    "zealous.fig6_5/comparable": (
        (S000, "§6.7.1 (Figure 6.5)", r"Figure 6.5 shows that the average difference is comparable for the k -anonymous histogram and the output of ZEALOUS."),
    ),
    "zealous.fig6_5/keywords: ZEALOUS better for eps > 2": (
        (S000, "§6.7.1 (Figure 6.5)", r"Note that the output of ZEALOUS for keywords is more accurate than a k -anonymous histogram for all values of $\epsilon > 2$."),
    ),
    "zealous.fig6_5/queries: k = 60 ~ eps = 6": (
        (S000, "§6.7.1 (Figure 6.5)", r"For queries we obtain roughly the same average difference for $k = 60$ and $\epsilon = 6$."),
    ),
    "zealous.fig6_5/query pairs: k-anonymity better": (
        (S000, "§6.7.1 (Figure 6.5)", r"For query pairs the k -query anonymous histogram provides better utility."),
    ),
    "zealous.fig6_6a/ZEALOUS beats k-anonymity for a range": (
        (S000, "§6.7.2 (Figure 6.6(a))", r"We observe that our ZEALOUS histogram achieves better utility than the k -query anonymous search log for a range of parameters."),
    ),
    "zealous.fig6_6b/m = 6 above m = 1": (
        (S000, "§6.7.2 (Figure 6.6(b))", r"We observe that the hit probability for $m = 6$ is above 0.36 whereas the hit probability for $m = 1$ is less than 0.33."),
    ),
    "zealous.fig6_6b/eventually decreases in m": (
        (S000, "§6.7.2 (Figure 6.6(b))", r"We also experimented with higher values of m and observed that the hit-probability decreases at some point."),
    ),
    "zealous.fig6_6b/needed keywords covered at m = 6": (
        (S000, "§6.7.2 (Figure 6.6(b))", r"Index caching really requires roughly the top 85 most frequent keywords that are still covered when setting $m = 6$."),
    ),
    "zealous.fig6_7/hardly influenced by eps and k": (
        (S000, "§6.7.3 (Figure 6.7)", r"We observe that varying ϵ and k has hardly any influence on performance."),
    ),
    "zealous.fig6_7/precision comparable": (
        (S000, "§6.7.3 (Figure 6.7)", r"On all precision measures, ZEALOUS provides utility comparable to k -query-anonymity."),
    ),
    "zealous.fig6_8/m = 6 covers less": (
        (S000, "§6.7.3 (Figure 6.8)", r"It is clear that across the board larger values of m lead to smaller coverage"),
    ),
    "zealous.def_qsub": (
        (S000, "§6.7.3", r"MAP measures the precision of the ranked items for a query as the ratio of true rank and assigned rank:"),
        (S000, "§6.7.3", r"where the rank of q_i is zero in case it does not contained in the list $[q'_0, \dots, q'_{j-1}]$ otherwise it is i' , s.t. $q_i = q'_{i'}$."),
    ),
    "zealous.thm13": (
        (S000, "§6.4.1 Theorem 13", r"Given a search log S and positive numbers m , τ , τ' , and λ , ZEALOUS achieves (ϵ', δ') -indistinguishability, if"),
        (S000, "§6.4.1 (6.1)-(6.3)", r"$$\lambda \geq 2m/\epsilon', \text{ and} \tag{6.1}$$ $$\tau = 1, \text{ and} \tag{6.2}$$ $$\tau' \geq m \left(1 - \frac{\log(\frac{2\delta'}{m})}{\epsilon'} \right). \tag{6.3}$$"),
    ),
    "zealous.text_clicks": (
        (S000, "§6.4.1", r"by simply adding Laplacian noise to the click counts with scale $2m/\epsilon'$. Together the sanitized query and click histogram achieves $(2\epsilon', \delta')$ -indistinguishability."),
    ),
    "zealous.thm14": (
        (S000, "§6.4.2 Theorem 14", r"Given a search log S and positive numbers m , τ , τ' , and λ , ZEALOUS achieves (ϵ, δ) -probabilistic differential privacy, if"),
        (S000, "§6.4.2 (6.5)", r"$$\tau' - \tau \geq \max \left(-\lambda \ln \left(2 - 2e^{-\frac{1}{\lambda}} \right), -\lambda \ln \left(\frac{2\delta}{U \cdot m/\tau} \right) \right), \quad (6.5)$$"),
    ),
    "zealous.text_step4": (
        (S000, "§6.4", r"Step 1., 2. and 4. of the algorithm are fairly standard. It is known that adding Laplacian noise to histogram counts achieves ϵ -differential privacy [25]."),
        (S000, "§6.4", r"This restriction leaks information and thus the output after Step 4. is not ϵ -differentially private. One can show that it is not even (ϵ, δ) -probabilistic differentially private (for $\delta < 1/2$). Step 5. disguises the information leaked in Step 3. in order to achieve probabilistic differential privacy."),
    ),
    "zealous.text_thm14_breach": (
        (S000, "§6.4.2 proof of Theorem 14 (6.8)", r"&= 1 - \left(1 - \frac{1}{2} \cdot e^{-\frac{\tau' - \tau}{\lambda}}\right)^{|K|} \\"),
        (S000, "§6.4.2 proof of Theorem 14 (6.8)", r"&\leq \frac{U \cdot m}{2\tau} \cdot e^{-\frac{\tau' - \tau}{\lambda}} \quad \text{(because } |K| \leq U \cdot m/\tau \text{)} \\"),
    ),
    "zealous.prop9": (
        (S000, "§6.5 Proposition 9", r"If an algorithm \mathcal{A} is (ϵ, δ) -probabilistic differentially private then"),
    ),
    "zealous.cor3": (
        (S000, "§6.5 Corollary 3", r"Algorithm $\hat{\mathcal{A}}$ is $(\epsilon', 1/(|\mathcal{D}| - 1))$ -indistinguishable for all $\epsilon' > 0$. But it is not (ϵ, δ) -probabilistic differentially private for any ϵ and any $\delta < 1$."),
    ),
    "zealous.text_thm14_ratio": (
        (S000, "§6.4.2 proof of Theorem 14", r"In what follows, we will show that $\frac{\Pr[E_i^* \mid E_i]}{\Pr[E_i'^* \mid E_i']} \leq e^{1/\lambda}$ for any $i \in [1, |\Delta|]$. We differentiate three cases: (i) $d_i \geq \tau$, $d_i^* \geq \tau$, (ii) $d_i < \tau$ and (iii) $d_i = \tau$ and $d_i^* = \tau - 1$."),
        (S000, "§6.4.2 proof of Theorem 14", r"Since S and S' differ in the search history of a single user, and each user contributes at most m keywords, we have $|\Delta| \leq 2m$."),
    ),
    "zealous.ex6": (
        (S000, "§6.5 Example 6", r"Input: Search log $S \in \mathcal{D}^U$ 1. Sample uniformly at random a single search history from the set of all histories excluding the first user's search history. 2. Return this search history."),
    ),
    "zealous.prop10": (
        (S000, "§6.5 Proposition 10", r"For any finite domain of search histories \mathcal{D} Algorithm $\hat{\mathcal{A}}$ is $(\epsilon', 1/(|\mathcal{D}| - 1))$ -indistinguishable for all $\epsilon' > 0$ on inputs from \mathcal{D}^U ."),
    ),
    "zealous.prop11": (
        (S000, "§6.5 Proposition 11", r"For any search log S , the output of Algorithm $\hat{\mathcal{A}}$ constitutes a privacy breach according to ϵ -differentially privacy for any value of ϵ ."),
        (S000, "§6.5 proof of Proposition 11", r"$$1/(|\mathcal{D}| - 1) = \Pr[\mathcal{A}(S) = O] \not\leq e^\epsilon \Pr[\mathcal{A}(S') = O] = 0.$$"),
    ),
    "zealous.p_text_dp_variants": (
        (S003, "§2.2 (after Definition 2)", r"Similar to the variants of k𝑘k-anonymity we could also define variants of differential privacy by looking at neighboring search logs that differ only in the content of one session, one query or one keyword. However, we chose to focus on the strongest definition in which an attacker learns roughly the same about a user even if that user’s whole search history was omitted."),
    ),
    "zealous.p_fig1": (
        (S003, "§4 Figure 1", r"\langleBob_73, “honda accord”, … \rangle\langleBob_73, “certified car”, … \rangle\langleCarlRu, “free mp3”, … \rangle"),
        (S003, "§4 Figure 1", r"filterfilterτabsent𝜏\geq\tauadd noiseλ𝜆\lambdafilter>τabsentsuperscript𝜏>\tau^{\prime}per user"),
    ),
    "zealous.lem13": (
        (S000, "§6.3.2 Lemma 13", r"Let \mathcal{A} be an ϵ -differentially private algorithm that, given S , retains a very-frequent item d in S with probability p . Then, given S' , \mathcal{A} retains d with probability at least $p/(e^{L_1(S,S') \cdot \epsilon/m})$, where $L_1(S, S') = \sum_{d \in D} |f_d(S) - f_d(S')|$ denotes the L_1 distance between S and S' ."),
    ),
    "zealous.thm12": (
        (S000, "§6.3.2 Theorem 12", r"Consider an accuracy constant c , a threshold τ , a slack ξ and a very large domain \mathcal{D} of size $\geq Um \left(\frac{2e^{2\epsilon(\tau+\xi)/m}}{c(\tau+\xi)} + \frac{1}{\tau-\xi+1} \right)$"),
        (S000, "§6.3.2 Theorem 12", r"Then, for any input search log, the inaccuracy of \mathcal{A} is greater than the inaccuracy of an algorithm that always outputs an empty set."),
    ),
    "zealous.ex_thm12": (
        (S000, "§6.3.2", r"We have $|D| = 5.3 \times 10^{35}$. Consider the following setting of the parameters $\tau + \xi = 50, m = 10, U = 1,000,000, \epsilon = 1$, that is typical practice. By Theorem 12, if an ϵ -differentially private algorithm \mathcal{A} is 0.01-accurate for very-frequent query pairs, then, in terms of overall inaccuracy (for both very-frequent and very-infrequent query pairs), \mathcal{A} must be inferior to an algorithm that always outputs an empty set."),
    ),
    "zealous.thm15": (
        (S000, "§6.4.4 Theorem 15", r"Given parameters $\tau = \tau^* - \xi$, $\tau' = \tau^* + \xi$, noise scale λ , and a search log S , the inaccuracy of ZEALOUS with slack ξ equals"),
        (S000, "§6.4.4 Theorem 15", r"$$\sum_{d: f_d(S) > \tau + \xi} 1/2e^{-2\xi/\lambda} + \sum_{d \in D: f_d(S) < \tau - \xi} 0$$"),
        (S000, "§6.4.4", r"In particular, this means that ZEALOUS is $(1 - 1/2e^{-\frac{\xi}{\lambda}})$ -accurate for the very-frequent items (of frequency $\geq \tau^* + \xi$) and it provides perfect accuracy for the very-infrequent items (of frequency $< \tau^* - \xi$)."),
    ),
    "zealous.thm16": (
        (S000, "§6.4.5 Theorem 16", r"Our (ϵ, δ) -probabilistic differentially private algorithm ZEALOUS is able to retain frequent items with probability at least $1/2$ while filtering out all infrequent items. On the other hand, for any ϵ -differentially private algorithm that can retain frequent items with non-zero probability (independent of the input database), its inaccuracy for large item domains is larger than an algorithm that always outputs an empty set."),
    ),
    "zealous.alg_zealous": (
        (S000, "§6.4 Figure 6.1", r"1. For each user u select a set s_u of up to m distinct items from u 's search history in S ."),
        (S000, "§6.4 Figure 6.1 footnote 3", r"These items can be selected in various ways as long as the selection criteria is not based on the data. Random selection is one candidate."),
        (S000, "§6.4 Figure 6.1", r"3. Delete from the histogram the pairs (k, c_k) with count c_k smaller than τ ."),
        (S000, "§6.4 Figure 6.1 footnote 4", r"The Laplace distribution with scale parameter λ has the probability density function $\frac{1}{2\lambda} e^{-\frac{|x|}{\lambda}}$."),
        (S000, "§6.4 Figure 6.1", r"5. Delete from the histogram the pairs (k, \tilde{c}_k) with noisy counts $\tilde{c}_k \leq \tau'$."),
    ),
}


# The sentences about a figure (and a few other statements) are parts of one statement: their quotes, recorded per
# sentence above (``claim/sentence``), belong to the claim itself.
for _key in [k for k in BY_READING if "/" in k]:
    _claim = _key.split("/")[0]
    BY_READING[_claim] = BY_READING.get(_claim, ()) + BY_READING.pop(_key)
