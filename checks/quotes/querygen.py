"""querygen: the decisive words of each claim, verbatim from 004_66621c1b9afebedf.txt (the query generalizer
paper). See :mod:`privclaims.checks.quotes`."""

from __future__ import annotations

from privclaims.checks.quotes import S004, Quote

STRATEGY_GOAL = (
    (S004, "§4", r"In order to provide *privacy-preserving* queries, the query Q is modified to the query \widehat{Q} by removing some private information included in Q until $G(\widehat{Q}, a) \geq G_{min}$ if the guessing entropy $G(Q, a)$ is less than G_{min} ."),
    (S004, "§4", r"This process is repeated until the generalized query satisfies the user’s privacy requirement."),
)
STEPS = (
    (S004, "§4", r"Basically, the computation of each strategy consists of two steps: (1) selection of candidate attributes and (2) computation of guessing entropy with the selected attributes."),
    (S004, "§4", r"That is, the step (2) requires $O(n \log n)$ time where n is the number of distinct domain values in the target attribute a ."),
)
TOTALS = (
    (S004, "§4", r"Thus the total running time of Brute-Force is $O(2^m \cdot n \log n)$."),
    (S004, "§4", r"Thus the total running time of the Best-Fit and Worst-Fit is $O(rm \cdot n \log n)$."),
    (S004, "§4", r"In other words, the time complexity of the Random-Fit strategy is $O(r \cdot n \log n)$."),
)
UNIFORM = ((S004, "§4", r"under the assumption of uniform distribution, the *traffic overhead* becomes larger as the *guessing entropy* increases."),)


def _fit(what: str) -> tuple[Quote, ...]:
    return ((S004, "§4 strategies 2-4", what),)


BY_READING: dict[str, tuple[Quote, ...]] = {
    "querygen.text_sweeney": (
        (S004, "§1", r"He showed that 63% of the population in the United States can be uniquely identified [8]."),
    ),
    "querygen.def_domain": (
        (S004, "§2", r"A *domain* is a finite set of mutually exclusive and exhaustive values. Let t be a tuple consisting of m attributes, a_i be an attribute of t and D_i be a domain of a_i for $i \in [1, m]$."),
    ),
    "querygen.table1": (
        (S004, "§2 Table 1", r"Loan Income Race Gender County \$100k \$50k Asian Male Barnstable \$20k \$20k White Male Dukes \$20k \$40k Black Female Essex \$20k \$40k Black Female Dukes \$20k \$20k Black Male Hampden \$40k \$30k White Male Hampshire \$10k \$20k Asian Male Essex \$20k \$100k White Female Norfolk \$100k \$500k White Male Bristol \$10k \$20k White Male Suffolk \$40k \$30k Asian Female Norfolk \$20k \$100k Black Female Essex"),
    ),
    "querygen.def_query": (
        (S004, "§2", r"we define a query Q from a user as an ordered list of m attribute values, (v_1, v_2, \dots, v_m) , for $v_i \in D_i \cup \{*\}$ where $*$ means “don't care” value"),
    ),
    "querygen.def_shannon": (
        (S004, "§2 Eq. (1)", r"The *Shannon entropy* is a traditional estimator of measuring the information of X as follows (here, log is to the base 2): $$H(X) = - \sum_{i=1}^n p_i \log p_i \quad (1)$$"),
    ),
    "querygen.def_guessing": (
        (S004, "§2 Eq. (2)", r"$$G(Q, a) = \sum_{i=1}^n p_i \cdot i \quad (2)$$ where p_i is defined as $|x_i|/N$ for all n distinct domain values"),
    ),
    "querygen.ex_eq3": (
        (S004, "§2 Eq. (3)", r"we found 3 tuples (i.e. the 3rd, 4th, and 12th) corresponding to the query Q in Table 1."),
        (S004, "§2 Eq. (3)", r"$$G(Q, [\text{Income}]) = \frac{2}{3} \cdot 1 + \frac{1}{3} \cdot 2 = \frac{4}{3} \quad (3)$$"),
    ),
    "querygen.text_exact_results": (
        (S004, "§3", r"Thus the search results in our framework are exactly the same as the search results for the original query Q since \widehat{Q} is a generalization of Q ."),
    ),
    "querygen.def_privreq": (
        (S004, "§4", r"We assume that a user u ’s privacy requirement is formally defined as a tuple (a, G_{min})"),
        (S004, "§4", r"we also define that a query Q is *privacy-preserving* for an attribute a , if the guessing entropy $G(Q, a)$ from the query Q is greater than or equal to G_{min} that a user requires."),
    ) + STRATEGY_GOAL[:1],
    "querygen.text_uniform": UNIFORM,
    "querygen.def_opt": (
        (S004, "§4 Eq. (4)", r"& \text{minimize } f(x_1, x_2, \dots, x_m) \\ & \text{subject to } f(x_1, x_2, \dots, x_m) \geq G_{min}"),
        (S004, "§4 Eq. (4)", r"where $f(x_1, x_2, \dots, x_m) = G(\widehat{v}_1, \widehat{v}_2, \dots, \widehat{v}_m, a)$ such that $\widehat{v}_i = v_i$ if $x_i = 1$; otherwise, $\widehat{v}_i = *$."),
    ),
    "querygen.text_nphard": (
        (S004, "§4", r"this problem can be expressed as a Binary Integer Programming problem with a nonlinear objective function $f(x_1, x_2, \dots, x_m)$, which is a well-known NP-hard problem [18]. This means that the *query generalizer* must use heuristics"),
    ),
    "querygen.alg_brute": (
        (S004, "§4 strategy 1", r"This strategy examines all possible combinations of v_i and $*$ for each attribute in Q and select a combination \widehat{Q} whose entropy $G(\widehat{Q}, a)$ is the mini- mum where $G(\widehat{Q}, a) \geq G_{min}$. If more than two combinations have an identical entropy value, one of them is randomly selected."),
    ),
    "querygen.alg_best": _fit(r"Then it iteratively updates \widehat{Q} by substituting v_i with $*$ at a time to minimize the $G(\widehat{Q}, a)$ locally where $v_i \neq *$ for $i \in [1, m]$ until $G(\widehat{Q}, a) \geq G_{min}$."),
    "querygen.alg_worst": _fit(r"Then it iteratively updates \widehat{Q} by substituting v_i with $*$ at a time to maximize the $G(\widehat{Q}, a)$ locally where $v_i \neq *$ for $i \in [1, m]$ until $G(\widehat{Q}, a) \geq G_{min}$."),
    "querygen.alg_random": _fit(r"Then it iteratively updates \widehat{Q} by substituting v_i with $*$ at a time where v_i is randomly selected and $v_i \neq *$ for $i \in [1, m]$ until $G(\widehat{Q}, a) \geq G_{min}$."),
    "querygen.cx_entropy": (
        (S004, "§4", r"In the step (2), the attribute values are sorted in decreasing order of their frequencies in order to compute guessing entropy."),
    ) + STEPS[1:] + ((S004, "§4", r"The time complexity of this step is common to all strategies."),),
    "querygen.cx_brute": ((S004, "§4", r"In the Brute-Force strategy, all 2^m possible combinations of m attributes always have to be considered as candidate attribute sets."),),
    "querygen.cx_bestworst": (
        (S004, "§4", r"The “best” choice can be selected in $O(m)$ at each iteration."),
        (S004, "§4", r"In the worst case, r is at most $m - 1$."),
    ),
    "querygen.cx_random": ((S004, "§4", r"The time complexity of the Random-Fit can be analyzed in the same manner except that the “best” choice is selected in $O(1)$ at each iteration."),),
    "querygen.cx_bestworst/§4 statement": TOTALS[1:2],
    "querygen.cx_bestworst/§5 restatement": (
        (S004, "§5", r"Considering that the time complexity of Worst-Fit is $O(m \cdot n \log n)$ (m : the number of attributes in the query, n : the number of distinct domain values in the target attribute, r : the number of removed attributes from the original query)"),
    ),
    "querygen.def_traffic": (
        (S004, "§5", r"The *traffic overhead* is measured in terms of the number of records included in a query response from the service provider to the *query generalizer*, i.e. the number of tuples in service provider’s database corresponding to a query. We note that the size of query inputs can be ignored"),
    ),
    "querygen.text_dataset": (
        (S004, "§5", r"We used the Home Mortgage Disclosure Act (HMDA) Loan Application Register Data in year 2007"),
        (S004, "§5", r"From the database, we selected 66,270 people who were denied the loan at least once and live in Massachusetts, United States. Among attributes in the database, we selected 6 attributes"),
        (S004, "§5", r"‘[Loan Amount] (Numeric values categorized by 236 groups)’, ‘[Income] (Numeric values categorized by 206 groups)’"),
    ),
    "querygen.text_sim": (
        (S004, "§5", r"a random query is carefully generated by selecting either a domain value with the probability $2/3$ or the “don’t care” value with the probability $1/3$ for an attribute in the query. For each target attribute test, its corresponding value is omitted. With 100 random queries, we evaluated the performance of the proposed framework."),
    ),
    "querygen.fig2": (
        (S004, "§5 (Figure 2)", r"For each target attribute, the results have similar trends and some reasonable G_{min} values can be determined. For example, for $a = [\text{Income}]$ (see Fig. 2 (b)), while the slope increases rapidly when $G_{min} > 4.5$, our framework incurs a slight increase in *traffic overhead* when $G_{min} \leq 4.5$."),
    ),
    "querygen.table2": (
        (S004, "§5 Table 2", r"Table 2 Traffic overhead ratio of Worst-Fit and Original."),
        (S004, "§5 Table 2", r"15 1.3957 4.5 1.2763 2.4 1.4619 1.35 2.2858 1.35 1.2875 2.75 1.1252"),
    ),
    "querygen.text_1_4x": (
        (S004, "§5", r"For example, the *traffic overhead* of Worst-Fit is greater than roughly 1.4 times than that of the original query even if $G_{min} = 15$ for [Loan Amount]."),
    ),
    "querygen.text_record": (
        (S004, "§5", r"In the dataset used, the size of a record is 9 bytes composed of 6 attributes (Loan Amount:Integer, Income:Integer, Denial Reason:Byte, County:Integer, Race:Byte, Gender:Byte). We assume that the size of integer type is 2 bytes. Under this setting, the average response size using Worst-Fit is about 17.6k only ($\approx \frac{2,000 \times 9}{1,024}$) even if $G_{min} = 15$."),
    ),
    "querygen.text_pearson": (
        (S004, "§5 (Figure 3)", r"For the 5,000 randomly generated queries, the corresponding *guessing entropy* and *traffic overhead* values are plotted. The Pearson correlation coefficient (0.369) indicates that there exists a weak positive correlation between *guessing entropy* and *traffic overhead*."),
    ),
    "querygen.text_white": (
        (S004, "§5", r"For example, when $G_{min} = 1.35$ for $a = [\text{Gender}]$, the generalized query with the smallest entropy always consists of [Race] = “White” alone if the user’s query contains the attribute value, [Race] = “White”. However, this specific attribute value dominates 65.1% of the overall records in the database."),
    ),
    "querygen.text_ranking": (
        (S004, "§5", r"We can see that Random-Fit sometimes provides comparable performance to Brute-Force."),
        (S004, "§5", r"On the contrary, Best-Fit tends to increase the number of removed attributes and then shows disappointed results."),
    ),
    "querygen.def_l": (
        (S004, "§6", r"*Query generalizer* internally translates (a, l) into $(a, (l + 1)/2)$ under the guessing entropy model."),
        (S004, "§6", r"with $l = 25$ (i.e. in order to find loan amount of the user, an adversary must choose one out of more than 25 values), the *query generalizer* sets $G_{min} = (l + 1)/2 = 13$."),
    ),
    "querygen.lem_uniform": (
        (S004, "§6 proof of Theorem 6.1", r"Since the uniform distribution has the maximum entropy, the following inequality is derived. $$G_{\widehat{Q}} = \sum_{i=1}^{l_{\widehat{Q}}} p_i \cdot i \leq \frac{l_{\widehat{Q}} + 1}{2} < \frac{l + 1}{2}$$"),
    ),
    "querygen.thm6_1": (
        (S004, "§6 Theorem 6.1", r"When the query Q is modified into the query \widehat{Q} with the guessing entropy value, which is greater than or equal to $(l + 1)/2$, the size of the attribute value set for \widehat{Q} is at least l ."),
    ),
    "querygen.text_related": (
        (S004, "§7", r"thereby the risk of re-identification is kept under $1/k$."),
        (S004, "§7", r"where every group of indistinguishable records contains at least l distinct sensitive attribute values; thereby the risk of attribute disclosure is kept under $1/l$."),
    ),
}
