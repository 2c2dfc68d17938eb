"""Query generalizer (``004_66621c1b9afebedf.txt``, Oh, Kim, Obi): guessing entropy, the four
generalisation strategies, traffic overhead; exact twin :mod:`.exact`, fast twin :mod:`.fast`,
model and validation :mod:`.model`, the paper's Table 1 :mod:`.table1`, the HMDA substitute data
and the §5 experiment :mod:`.hmda` / :mod:`.experiments`."""
