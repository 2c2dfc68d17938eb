"""ads: the decisive words of each claim, verbatim from 000_211156f2009240b4.txt (thesis ch. 4, §5.5.3) and
002_9d55ef468949585c.txt (the ads + counting paper). See :mod:`privclaims.checks.quotes`."""

from __future__ import annotations

from privclaims.checks.quotes import S000, S002, Quote

PROP7 = (
    (S000, "§4.3.2 Proposition 7", r"Algorithm Greedy' has the following approximation guarantee:* $$(1 - 1/e)\text{Revenue}(A^*) - \alpha k^* = \text{Greedy}'$$"),
    (S000, "§4.3.2 proof of Proposition 7", r"(1 - 1/e)\text{Revenue}(A^*) - \alpha k^* &\leq \text{Revenue}(\{a_1, \dots, a_{k^*}\}) - \alpha k^* \\ &\leq \max_k \text{Revenue}(\{a_1, \dots, a_k\}) - \alpha k \\ &= \text{Greedy}'"),
)
EQ43 = (
    (S000, "§4.3.2 Eq. (4.3)", r"and a set of k ads A that maximize $E[\text{Revenue}(A)] - \alpha k$, i.e., $$\max_k \max_{A \subset \mathcal{A}: |A|=k} \sum_{c: c \rightarrow \hat{c}} \Pr[c|\hat{c}] \cdot \max_{a \in A} p_a \cdot \text{CTR}(a|c) - \alpha k \quad (4.3)$$"),
)
FROM1 = (
    (S000, "§4.3.2 proof of Theorem 8", r"This means that Greedy'' finds indeed $k' = \arg \max_{1 \leq k' \leq |\mathcal{A}|} E[\text{Revenue}(\{a_1, \dots, a_{k'}\})] - \alpha k'$ and $\{a_1, \dots, a_{k'}\}$."),
)
CLIENT = ((S000, "§4.2.3 'Client-Side Computation'", r"For a given set of ads A chosen by the server, a client in context c maximizes the revenue by selecting the ad $$a^* = \arg \max_{a \in A} p_a \cdot \text{CTR}(a|c).$$"),)
ESTIMATES = (
    (S000, "§4.4.1 'Click-Through-Rates'", r"$\text{Pr}[c]$ can be estimated as the number of times a user reported to be in context c divided by the total number of reported contexts. For an ad a and a context c , $\text{CTR}(a|c)$ can be estimated as the number of times a user in context c reported to have clicked on a divided by the number of times a user in context c reported to have viewed a ."),
    (S000, "§4.4.1 'Click-Through-Rates'", r"we suggest estimating $\Pr[c]$ and $\text{CTR}(a|c)$ for a rare context c based on contexts similar to c for which we have enough click data."),
)

BY_READING: dict[str, tuple[Quote, ...]] = {
    "ads.prop6": (
        (S000, "§4.3 Proposition 6", r"For a generalized context \hat{c} it is NP-hard to select the revenue-maximizing set of k ads A^* such that:*"),
        (S000, "§4.3 proof of Proposition 6", r"We prove this by a reduction from the maximum coverage problem."),
        (S000, "§4.3 proof of Proposition 6", r"the expected revenue is $1/|U| * \sum_c \max_{a \in A} \text{CTR}(a|c)$, which is equal to the number of covered elements by the corresponding set of sets S divided by the universe size."),
    ),
    "ads.text_maxcov": (
        (S000, "§4.3", r"Moreover, the maximum coverage problem cannot be approximated within $\frac{e}{e-1} - o(1)$ assuming $P \neq NP$ [30]."),
        (S002, "§3.3", r"\frac{e}{e-1} - o(1)$ assuming $P \neq NP$ [14]"),
    ),
    "ads.alg6": (
        (S000, "§4.3.1", r"Algorithm 6 shows a greedy algorithm, called Greedy, that constructs a set A of k ads incrementally. It starts with A empty and in each round, the ad that increases the expected revenue the most is added to A ."),
    ),
    "ads.def_benefit": (
        (S000, "§4.3.1", r"We first define a *benefit function* of adding a set A' to a set A : $$B(A, A') = \mathbb{E}[\text{Revenue}(A \cup A'|\hat{c})] - \mathbb{E}[\text{Revenue}(A|\hat{c})].$$"),
        (S000, "§4.3.1", r"Let a_1, \dots, a_k be the k ads chosen by Greedy in the order they were chosen. To simplify the analysis, we define the benefit of the i^{th} ad to be b_i and the expected revenue after adding the first l ads to be $b(l) = \sum_{i=1}^l b_i$. Similarly, let a_1^*, \dots, a_k^* be the k optimal ads in any fixed order."),
    ),
    "ads.fact3": (
        (S000, "§4.3.1 Fact 3", r"The benefit function is submodular, i.e., for all sets of ads $A_1 \subseteq A_2$ and for all A , $B(A_1, A) \geq B(A_2, A)$."),
        (S002, "§3.3 Fact 3.2", r"The benefit function is submodular, i.e., for all sets of ads $A_1 \subseteq A_2$ and for all $A, B(A_1, A) \ge B(A_2, A)$."),
    ),
    "ads.lem10": (
        (S000, "§4.3.1 Lemma 10", r"Lemma 10. $\forall l \in [k]: b_l \geq \frac{b^*(k) - b(l-1)}{k}$."),
        (S002, "§3.3 Lemma 3.3", r"$$\forall l \in [k]: b_l \geq \frac{b^*(k) - b(l-1)}{k}$$"),
    ),
    "ads.lem11": (
        (S000, "§4.3.1 Lemma 11", r"Lemma 11. $\forall l \in [k]: b(l) \geq (1 - (1 - 1/k)^l) b^*(k)$."),
        (S002, "§3.3 Lemma 3.4", r"$$\forall l \in [k]: b(l) \ge (1 - (1 - 1/k)^l)b^*(k)$$"),
    ),
    "ads.thm7": (
        (S000, "§4.3.1 Theorem 7", r"The greedy algorithm approximates the optimal value to within a factor of $(1 - 1/e)$."),
        (S002, "§3.3 Theorem 3.5", r"b(k) \ge (1 - (1 - 1/k)^k)b^*(k) \ge (1 - 1/e)b^*(k)"),
    ),
    "ads.text_thm7_seq": (
        (S000, "§4.3.1 proof of Theorem 7", r"As a function of k , $(1 - (1 - 1/k)^k)$ is decreasing and approaches $(1 - 1/e)$. Hence, it is always greater than $(1 - 1/e)$."),
    ),
    "ads.text_prefix": (
        (S000, "§4.3.2", r"We only need to run it once for $k = |\mathcal{A}|$ and keep track of the order in which the ads are chosen $a_1, \dots, a_{|\mathcal{A}|}$. Due to the greedy nature of the algorithm, we have that running the greedy algorithm for smaller values of k yields a prefix of length k : a_1, \dots, a_k ."),
    ),
    "ads.def_altobj": EQ43,
    "ads.prop7": PROP7,
    "ads.thm8": (
        (S000, "§4.3.2 Theorem 8", r"The algorithm Greedy'' runs Greedy for as long as $E[\text{Revenue}(A)] - \alpha \cdot |A|$ is increasing and outputs the last set of ads A . Algorithm Greedy'' has the following approximation guarantee: $$(1 - 1/e)\text{Revenue}(A^*) - \alpha k^* = \text{Greedy''}$$ The number of iterations of the **while**-loop of Greedy'' is at most $1 + \arg \max_{k'} E[\text{Revenue}(\{a_1, \dots, a_{k'}\})] - \alpha k'$."),
        (S000, "§4.3.2 proof of Theorem 8", r"Using Proposition 7 it suffices to show that $\text{Greedy''} = \text{Greedy}'$."),
    ),
    "ads.fig4_3": (
        (S000, "§4.4.1", r"The query distribution has a power-law shape in which a small fraction of unique"),
        (S000, "§4.4.1", r"We can see that roughly 100,000 queries appear only once each in our data."),
        (S000, "§4.4.1", r"However, if we generalize queries to the categories of the businesses they are referring to we can reduce this number by an order of magnitude."),
    ),
    "ads.fig4_5": (
        (S000, "§4.4.2 'Effect of Communication Complexity'", r"We expect both to improve with increasing k since the client can choose an ad from a larger set. The graph shows further that *increasing k has diminishing returns*."),
    ),
    "ads.text_serveronly": (
        (S000, "§4.4.3 'Server-only Personalization'", r"As shown in Figure 4.5, this strategy gives a precision of 0.12. We can do much better with our optimization: When instead sending 5 ads and letting the client pick the most relevant one, the precision rises by 35%."),
    ),
    "ads.text_clientonly": (
        (S000, "§4.4.3 'Client-only Personalization'", r"For example, for a target precision of 0.75, the client-side strategy can achieve coverage of 0.2, while our framework with (1, 1, 1) generalization can achieve a coverage of 0.4."),
        (S002, "§5.3", r"while our framework with (1,1,1) generalization can achieve a coverage of 0.4, an increase of $2\times$."),
    ),
    "ads.text_tradeoff": (
        (S000, "§4.2.2", r"Whatever the server does, yields suboptimal relevance and revenue, as long as there is an ad whose CTR depends on the context."),
        (S000, "§4.2.2", r"If we drop any of our three design goals the problem becomes easy."),
    ),
    "ads.text_constraints": (
        (S000, "§4.3.2 'Additional Constraints'", r"Then, no ad with CTR below this threshold will ever be displayed at the client."),
        (S000, "§4.3.2 'Advertisers' Control'", r"To make sure the ad is only displayed on these contexts, we can make the payment p_a context-dependent and set it to 0 for all but the contexts the advertiser bids on."),
    ),
    "ads.def_revenue": (
        (S000, "§4.2.1", r"For a click on ad a the ad service provider is being paid p_a from the advertiser."),
        (S000, "§4.2.1", r"We denote by $\text{CTR}(a|c)$ the context-dependent click-through-rate, i.e., the fraction of users who actually clicked on it in context c among those who were served the ad in context c . The expected revenue of displaying an ad a to a user in context c is $p_a \cdot \text{CTR}(a|c)$."),
    ),
    "ads.def_client": CLIENT,
    "ads.def_erev": (
        (S000, "§4.2.3 'Server-Side Computation'", r"$$\mathbb{E}[\text{Revenue}(A|\hat{c})] = \sum_{c:c \rightarrow \hat{c}} \Pr[c|\hat{c}] \cdot \max_{a \in A} p_a \cdot \text{CTR}(a|c).$$"),
        (S000, "§4.2.3 'Server-Side Computation'", r"$$A^* = \arg \max_{A \subset \mathcal{A}: |A|=k} \mathbb{E}[\text{Revenue}(A|\hat{c})]$$"),
    ),
    "ads.text_2gb": (
        (S000, "§4.2.2", r"It has been estimated that due to ad churn this requires sending 2GB of compressed ads per month [42]."),
        (S002, "§3.1", r"It has been estimated that due to ad churn this requires sending 2GB of compressed ads per month [22]."),
    ),
    "ads.p_text_trusted": (
        (S002, "§3.1 footnote 1", r"If we had a trusted third party, it could collect private information from the client and all ads from the server, and send the best ad to the client. This would maximize all three variables, ignoring communication overhead between the server and the third party."),
    ),
    "ads.p_text_spend": (
        (S002, "§1", r"Experts project that US mobile advertising spending, which increased 41.2% to \$1.2 billion in 2011 compared with 2010, will 'explode' in coming years"),
    ),
    "ads.p_ex_fig1": (
        (S002, "§2.1 (Figure 1)", r"During ad-delivery time, the user's phone determines her context to be doing Yoga in Dolores Park in San Francisco. However, the user decides to share only the fact that she is exercising. Based on this limited information and CTR values, the ad server selects and returns two ads. The more relevant one is chosen by the phone based on user's private information (doing Yoga in Dolores Park in San Francisco) and displayed to the user."),
    ),
    "ads.def_levels": (
        (S000, "§4.4.1 'Attribute Generalization'", r"More specifically, `Level- i` location, for $i = 0, 1, 2, 3, 4, 5$ of a user is her latitude and longitude, after keeping all, 4, 3, 2, 1, and 0 decimal points respectively."),
        (S000, "§4.4.1 'Attribute Generalization'", r"`Level-0` is the exact query issued by the user, `Level-1` is the business category of the clicked business, and `Level-2` is the generalized category of the business."),
    ),
    "ads.def_hierarchy": (
        (S000, "§4.4.1 'Context Hierarchy'", r"We generalize one attribute at a time using the following sequence: $(0, 0, 0) \rightarrow (0, 0, 1) \rightarrow (0, 1, 1) \rightarrow (1, 1, 1) \rightarrow (1, 2, 1) \rightarrow (2, 2, 1) \rightarrow (3, 2, 1) \rightarrow (3, 2, 2) \rightarrow (4, 2, 2)$."),
    ),
    "ads.ex_context": (
        (S000, "§4.4.1 'Context Hierarchy'", r"$\langle (61.22913, -149.912044), [\text{B-ID2011}, \text{B-ID124}], \text{“Starbucks”} \rangle$. Generalizing each attribute one level yields, at level $(1, 1, 1)$, $\langle (61.2291, -149.9120), [\text{Peruvian Restaurants}, \text{Wine}], \text{“Coffee”} \rangle$."),
    ),
    "ads.def_estimates": ESTIMATES,
    "ads.def_metrics": (
        (S000, "§4.4.1 'Metrics'", r"**Precision:** The fraction of targeted ads in our framework on which users actually click."),
        (S000, "§4.4.1 'Metrics'", r"**Coverage:** The fraction of contexts for which our framework computes and displays a targeted business."),
        (S000, "§4.4.1 'Metrics'", r"We report average precision and coverage for 1,000 random contexts from the testing data"),
    ),
    "ads.text_dataset": (
        (S000, "§4.4.1 'Dataset'", r"The log has a schema: $\langle user-ID, query, user-location, business-ID \rangle$."),
        (S000, "§4.4.1 'Dataset'", r"The log consists of 1,519,307 records. In our evaluation we focus on clicks to “Food & Dining” businesses"),
        (S000, "§4.4.1 'Dataset'", r"This leaves us with 116,432 unique user-IDs. We use the first 90% of the log as training data"),
    ),
}
