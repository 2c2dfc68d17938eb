"""Privacy-aware ad delivery (thesis 000_211156f2009240b4.txt ch. 4; paper 002_9d55ef468949585c.txt §2-3, §5).

* :mod:`privclaims.theory.ads.model` - the one place that validates an ad instance (contexts, Pr[c|ĉ], CTR(a|c),
  payments, CTR threshold) and a context hierarchy.
* :mod:`privclaims.theory.ads.exact` - exact twin (rationals): expected revenue, client choice, Greedy (Alg. 6),
  Greedy', Greedy'', brute-force optimum.
* :mod:`privclaims.theory.ads.fast` - fast twin (numpy / scipy.sparse, lazy greedy), same signatures.
* :mod:`privclaims.theory.ads.coverage` - the max-coverage reduction of Proposition 6 and tight instances.
* :mod:`privclaims.theory.ads.estimates` - Pr[c], CTR(a|c), hierarchy back-off, precision and coverage.
* :mod:`privclaims.theory.ads.hierarchy` - generalisation levels of §4.4.1 and the cut of 002 §2.1.
* :mod:`privclaims.theory.ads.aol` - a minimal AOL per-user-file reader and the context-aware ad emulation.
"""
