"""Thesis ch. 6 (000_211156f2009240b4.txt) and its paper (003_755c7aa10ef74058.txt): the search-log model, items and
their histograms, the utility notions (very-frequent items, Definition 10's inaccuracy, Definition 11's c-accuracy),
ZEALOUS's parameters, and the conventions of the experiments (k-query anonymity, top-j precision, index caching).

Each definition declares the readings the documents support, with verbatim quotes. Where the documents give one
reading, the definition records how it is read and its ``note`` says what else was considered and why the documents
do not support it. The privacy notions (Definitions 2-4) are the thesis ch. 2 ones in :mod:`.dp`.
"""

from __future__ import annotations

from privclaims.checks.readings import Definition, Reading

T = "000_211156f2009240b4.txt"
P = "003_755c7aa10ef74058.txt"

# ----------------------------------------------------------------------------------------- the log model

SEARCH_LOG = Definition(
    "search-log", "search logs, user histories, items and neighbouring logs (000 §6.2.1, §6.2.3, §6.4.2; 003 §2)",
    readings=(Reading(
        "U users, one history each",
        "a search log holds U users, each with one history (the entries of that user; for the theory: a set of items "
        "from a domain D, at most m of them selected per user); a query is a set of keywords; neighbouring logs have "
        "the same U users and differ in the history of exactly one user (replaced by any other history)",
        f"{T} §6.2.1, §6.2.3, §6.4.2 proof of Theorem 14, §6.5 Example 6",
        quotes=((T, "§6.2.1", r"where a `USER-ID` identifies a user, a `QUERY` is a set of keywords, and `CLICKS` is a "
                              r"list of *urls* that the user clicked on."),
                (T, "§6.2.1", r"A *user history* or *search history* consists of all search entries from a single user."),
                (T, "§6.2.3", r"Each user contributes a set of these items to a search log S ."),
                (T, "§6.4.2 proof of Theorem 14", r"Since S and S' differ in the search history of a single user, and each "
                                                  r"user contributes at most m keywords, we have $|\Delta| \leq 2m$."),
                (T, "§6.5 Example 6", r"Input: Search log $S \in \mathcal{D}^U$"))),),
    note="Considered: neighbours by adding or deleting a user (thesis ch. 2 Definition 3 for ad logs). Ch. 6 and 003 "
         "fix U ('S in D^U', “U denotes the number of users in S”) and bound the change by |Delta| <= 2m, which is the "
         "replacement of one history; a deletion is the replacement by an empty history where the checks allow "
         "empty histories, so the logs the checks enumerate (every tuple of U histories of <= m items) contain both.")

SESSIONS = Definition(
    "sessions", "the partition of a user's history into sessions (query pairs) (000 §6.2.1; 003 §2.1)",
    readings=(Reading(
        "a fixed partition",
        "a session partition is fixed before any algorithm runs; a query pair is two consecutive queries of one user "
        "inside one session, whatever the partition; the project's experiments and Adar's baseline start a new "
        "session after more than 30 minutes without a query (a convention of ours: the documents print no rule)",
        f"{T} §6.2.1",
        quotes=((T, "§6.2.1", r"Such a history is usually partitioned into *sessions* containing similar queries; how "
                              r"this partitioning is done is orthogonal to the techniques in this chapter."),
                (T, "§6.2.1", r"A *query pair* consists of two subsequent queries from the same user within the same "
                              r"session."))),),
    note="The documents leave the partition open ('orthogonal'), so no claim may depend on it: zealous.def_searchlog "
         "tests the query-pair histogram under two partitions (30-minute gap, one session per history).")

ITEM_HISTOGRAM = Definition(
    "item-histogram", "keyword, query, click and query-pair histograms (000 §6.2.1; 003 §2.1)",
    readings=(Reading(
        "users per item",
        "the histogram of an item kind counts, per item, the number of users whose history contains it (not the "
        "number of occurrences); keywords, queries, clicks (urls) and query pairs are the four item kinds",
        f"{T} §6.2.1",
        quotes=((T, "§6.2.1", r"a search log S records for each keyword k the number of users c_k whose search history "
                              r"in S contains k ."),
                (T, "§6.2.1", r"We define the *query histogram*, the *query pair histogram*, and the *click histogram* "
                              r"analogously."))),),
    note="One reading: 'number of users' excludes counting occurrences; ZEALOUS Step 2 counts users of the selected "
         "items the same way.")

FREQUENT = Definition(
    "frequent", "frequent items: the two places that define them (000 §6.2.1 and §6.2.3; 003 §2.1 and §2.3.1)",
    readings=(
        Reading("count exceeds tau", "an item is frequent iff its count is > τ",
                f"{T} §6.2.1",
                quotes=((T, "§6.2.1", r"We classify a keyword, query, consecutive query, click in a histogram to be "
                                      r"*frequent* if its count exceeds some predefined threshold τ"),)),
        Reading("count at least tau", "an item is frequent iff its frequency is >= τ (the items Step 3 keeps)",
                f"{T} §6.2.3; §6.4 Figure 6.1 Step 3",
                quotes=((T, "§6.2.3", r"For simplicity, suppose we want to publish all items (such as keywords, queries, "
                                      r"etc.) with frequency at least τ in a search log; we call such items *frequent "
                                      r"items*;"),
                        (T, "§6.4 Figure 6.1", r"3. Delete from the histogram the pairs (k, c_k) with count c_k smaller "
                                               r"than τ ."))),
    ),
    note="The two sections give different inequalities for the same word and threshold; every other item is "
         "'infrequent' (§6.2.3: “we call all other items infrequent items”).")

# ----------------------------------------------------------------------------------------- utility notions

VERY = Definition(
    "very-frequent", "very-frequent / very-infrequent items with slack ξ (000 §6.2.3; 003 §2.3.1)",
    readings=(Reading(
        "non-strict",
        "d is very-frequent iff f_d >= τ + ξ and very-infrequent iff f_d <= τ - ξ",
        f"{T} §6.2.3",
        quotes=((T, "§6.2.3", r"We call an item d with frequency $f_d \geq \tau + \xi$ a *very-frequent item* and an item "
                              r"d with frequency $f_d \leq \tau - \xi$ a *very-infrequent item*."),)),),
    note="Both documents print the same non-strict inequalities; Definition 10 (zealous 'inaccuracy') prints strict ones.")

INACCURACY = Definition(
    "inaccuracy", "Definition 10, the (A, S)-inaccuracy with slack ξ (000 §6.2.3; 003 §2.3.1 Definition 5)",
    readings=(
        Reading("Def. 10 strict",
                "the expected number of output items with f_d < τ - ξ plus missing items with f_d > τ + ξ (strict "
                "inequalities, as the formula prints them)",
                f"{T} §6.2.3 Definition 10 and its rewritten sum",
                quotes=((T, "§6.2.3 Definition 10", r"E[|\{d \in \mathcal{A}(S) | f_d(S) < \tau - \xi\} \cup \{d \notin "
                                                    r"\mathcal{A}(S) | f_d(S) > \tau + \xi\}|]"),
                        (T, "§6.2.3", r"$$\sum_{d: f_d(S) > \tau + \xi} 1 - \Pr[d \in \mathcal{A}(S)] + \sum_{d \in D: "
                                      r"f_d(S) < \tau - \xi} \Pr[d \in \mathcal{A}(S)]$$"))),
        Reading("Def. 10 with very-(in)frequent",
                "the expected number of output very-infrequent items (f_d <= τ - ξ) plus missing very-frequent items "
                "(f_d >= τ + ξ), as the prose around the formula describes it",
                f"{T} §6.2.3",
                quotes=((T, "§6.2.3", r"We will measure the inaccuracy of an algorithm then only using its inability to "
                                      r"retain the very-frequent items and its inability to filter out the very "
                                      r"infrequent items."),
                        (T, "§6.2.3", r"Thus, the (\mathcal{A}, S) -inaccuracy with slack ξ can be rewritten as the "
                                      r"inability to retain the very-frequent items plus the inability to filter out the "
                                      r"very-infrequent items."))),
    ),
    note="The two readings differ exactly on items with f_d = τ ± ξ (both documents print the strict formula and the "
         "non-strict prose).")

C_ACCURACY = Definition(
    "c-accuracy", "Definition 11, c-accuracy (000 §6.2.3; 003 §2.3.1 Definition 6)",
    readings=(Reading(
        "every input, every very-frequent item",
        "for every input S and every very-frequent item d of S (f_d >= τ + ξ), Pr[d ∈ A(S)] >= c",
        f"{T} §6.2.3 Definition 11",
        quotes=((T, "§6.2.3 Definition 11", r"An algorithm \mathcal{A} is c -accurate if for any input search log S and "
                                            r"any very-frequent item d in S , the probability that \mathcal{A} outputs d "
                                            r"is at least c ."),)),),
    note="One quantifier order; 'very-frequent' is the non-strict notion of §6.2.3 in both documents.")

# ----------------------------------------------------------------------------------------- ZEALOUS's parameters

THRESHOLDS = Definition(
    "zealous-thresholds", "ZEALOUS's 'positive numbers' τ, τ' (000 §6.4 Figure 6.1, Theorems 13-14; 003 §4)",
    readings=(
        Reading("integer tau",
                "τ is a positive integer (τ' any positive number, in no order against τ: (6.5) allows τ' < τ when both "
                "of its terms are negative): the proof's K is the set of “keywords in H whose count equals τ”, Proposition 12 and "
                "Table 6.2 choose integers",
                f"{T} §6.4.2 proof of Theorem 14; §6.6.1",
                quotes=((T, "§6.4.2 proof of Theorem 14", r"Let H be the keyword histogram constructed by ZEALOUS in "
                                                          r"Step 2 when applied to S and K be the set of keywords in H "
                                                          r"whose count equals τ ."),
                        (T, "§6.6.1 Proposition 12", r"For a fixed ϵ, δ and m choosing $\tau = \lceil 2m/\epsilon \rceil$ "
                                                     r"minimizes the value of τ' ."))),
        Reading("real tau",
                "τ is any positive real number, as the algorithm's input and Theorems 13-14 say ('positive numbers'; "
                "Proposition 12's proof differentiates in τ)",
                f"{T} §6.4 Figure 6.1; §6.4.2 Theorem 14; §6.6.1",
                quotes=((T, "§6.4 Figure 6.1", r"Input: Search log S , positive numbers m, λ, τ, τ'"),
                        (T, "§6.4.2 Theorem 14", r"Given a search log S and positive numbers m , τ , τ' , and λ"),
                        (T, "§6.6.1", r"The proof follows from taking the derivative of τ' as a function of τ (based on "
                                      r"Equation (6.5)) to determine its minimum."))),
    ),
    note="m is a number of items (an integer in every reading). Counts are integers, so Step 3 with a real τ keeps the "
         "same items as with ⌈τ⌉, while (6.5) and the proof's K use τ itself.")

# ----------------------------------------------------------------------------------------- the experiments

EXPERIMENTS = Definition(
    "zealous-experiments", "the experiments' parameters (000 §6.6-§6.7; 003 §6-§7)",
    readings=(Reading(
        "as printed, at the log's U",
        "δ = 0.001; λ = 2m/ε; τ = ⌈2m/ε⌉ (Proposition 12); τ' the least value of (6.5) with U the number of users of "
        "the log ZEALOUS runs on; m and ε as printed per figure",
        f"{T} §6.6 'Privacy Parameters'; §6.4.2 Theorem 14; §6.6.2",
        quotes=((T, "§6.6", r"In all experiments we set $\delta = 0.001$."),
                (T, "§6.4.2 Theorem 14", r"where U denotes the number of users in S ."),
                (T, "§6.6.2", r"Proposition 12 tells us how to set τ in order to maximize utility."))),),
    note="Considered: τ' at the paper's U = 500,000 on our 1,000-user substitute (it would publish even less); "
         "Theorem 14 ties U to the log itself.")

KANON = Definition(
    "k-query-anonymity", "the k-anonymity baseline of the experiments: Adar's k-query anonymous log and its histograms "
                         "(000 §2.1.2, §6.7; 003 §2.2, §7)",
    readings=(Reading(
        "per published pseudonym",
        "sessions of the log are formed, queries posed by fewer than k distinct users are removed, each session gets a "
        "random id; the baseline's histograms are computed from that published log, so an item's count is the number "
        "of published ids (sessions) whose history contains it, and a query pair is two consecutive kept queries of "
        "one published session; no click histogram",
        f"{T} §2.1.2, §6.7",
        quotes=((T, "§2.1.2", r"Adar proposes to partition the search log into sessions and then to discard queries that "
                              r"are associated with fewer than k different user-ids. In each session the user-id is then "
                              r"replaced by a random number [1]."),
                (T, "§6.7", r"First all queries that are posed by fewer than k distinct users are eliminated. Then "
                            r"histograms of keywords, queries, and query pairs from the k -query anonymous search log are "
                            r"computed."),
                (T, "§6.7.1", r"For clicks we only consider ZEALOUS histograms since a k -query anonymous search log is "
                              r"not designed to publish click data."))),),
    note="Considered: counting original users. The histograms are computed 'from the k-query anonymous search log', "
         "which no longer holds the original user-ids, so only the published pseudonyms can be counted.")

TOP_J = Definition(
    "top-j-precision", "top-j coverage and precision (000 §6.6.2; 003 §6.2)",
    readings=(
        Reading("KL(original || sanitized)",
                "coverage: the fraction of the j most frequent original items present in the sanitized log; precision: "
                "the average L1 distance and KL(p || q) of the relative frequencies p (original) and q (sanitized) of "
                "those j items, each normalised over the j items; a missing item has q = 0 (KL floored at q = 1e-12)",
                f"{T} §6.6.2",
                quotes=((T, "§6.6.2", r"The *top- j precision of a sanitized search log* is defined as the distance "
                                      r"between the relative frequencies in the original search log versus the sanitized "
                                      r"search log for the top- j most frequent items."),)),
        Reading("KL(sanitized || original)",
                "the same, with the divergence taken the other way, KL(q || p): the sanitized frequencies weigh the "
                "log-ratios, so a missing item contributes 0 instead of a large term (undefined when nothing of the "
                "top j is released)",
                f"{T} §6.6.2",
                quotes=((T, "§6.6.2", r"In particular, we study two distance metrics between the relative frequencies: "
                                      r"the average L-1 distance and the KL-divergence."),)),
    ),
    note="The documents name 'the KL-divergence' without its direction. Normalisation: 'relative frequencies ... for "
         "the top-j most frequent items' is read as a distribution over those j items (both readings).")

CACHING = Definition(
    "index-caching", "index caching and its hit probability (000 §6.2.3, §6.7.2; 003 §2.3.2, §7.2)",
    readings=(Reading(
        "greedy bin packing by score",
        "score = frequency / number of documents containing the keyword; keywords by decreasing score, each posting "
        "list (truncated to 200,000 documents, 8 bytes per posting) added when it still fits in the memory (1 GB); hit "
        "probability = the workload probability of a cached keyword",
        f"{T} §6.7.2",
        quotes=((T, "§6.7.2", r"Our algorithm first assigns each keyword a score, which equals its frequency in the search "
                              r"log divided by the number of documents that contain the keyword. Keywords are chosen "
                              r"using a greedy bin-packing strategy where we sequentially add posting lists from the "
                              r"keywords with the highest score until the memory is filled."),
                (T, "§6.2.3", r"Here the hit-probability is the probability that the posting list of a keyword can be "
                              r"found in memory given the keyword search workload."))),),
    note="Considered: stopping at the first posting list that does not fit. 'Greedy bin-packing' places every list "
         "that still fits; the experiments substitute proxies for the unavailable document collection (stated in the "
         "figure checks).")

QUERY_SUBSTITUTION = Definition(
    "query-substitution", "the query-substitution measures (000 §6.7.3; 003 §7.3)",
    readings=(Reading(
        "as printed",
        "per query: precision, recall, MAP and NDCG of the sanitized top-j substitutions against the original ones, "
        "MAP with rank 0 for an absent substitution; coverage averaged over the queries with original substitutions, "
        "the other measures over the queries with sanitized ones; the 100,000 most frequent queries",
        f"{T} §6.7.3",
        quotes=((T, "§6.7.3", r"where the rank of q_i is zero in case it does not contained in the list $[q'_0, \dots, "
                              r"q'_{j-1}]$ otherwise it is i' , s.t. $q_i = q'_{i'}$."),
                (T, "§6.7.3", r"For coverage we average over all queries for which the original search log produces "
                              r"substitutions. For all other metrics that try to capture the precision of a ranking, we "
                              r"average only over the queries for which the sanitized search logs produce "
                              r"substitutions."))),),
    note="Jones et al.'s generator is not available; the figure checks use a stand-in (stated there).")
