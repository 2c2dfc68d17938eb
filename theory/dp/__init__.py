"""Thesis ch. 2 (000_211156f2009240b4.txt §2.2): privacy definitions as exact checkers.

* :mod:`theory.dp.mechanism` - finite mechanisms (exact output distributions per input, neighbours).
* :mod:`theory.dp.exact` - Definitions 2-4 (eps-DP, (eps,delta)-probabilistic DP, (eps,delta)-indistinguishability).
* :mod:`theory.dp.fast` - the same signatures on float64, with conservative decisions.
* :mod:`theory.dp.delta_privacy` - Definition 6 (delta-privacy) for finite systems.
"""
