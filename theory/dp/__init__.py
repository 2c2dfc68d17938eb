"""Thesis ch. 2 (000_211156f2009240b4.txt §2.2): privacy definitions as exact checkers.

* :mod:`privclaims.theory.dp.mechanism` - finite mechanisms (exact output distributions per input, neighbours).
* :mod:`privclaims.theory.dp.exact` - Definitions 2-4 (eps-DP, (eps,delta)-probabilistic DP, (eps,delta)-indistinguishability).
* :mod:`privclaims.theory.dp.fast` - the same signatures on float64, with conservative decisions.
* :mod:`privclaims.theory.dp.delta_privacy` - Definition 6 (delta-privacy) for finite systems.
"""
