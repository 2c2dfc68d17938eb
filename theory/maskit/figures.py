"""The Markov chains of the figures of 000_211156f2009240b4.txt ch. 3 and 001_eb11505ae1399b83.txt,
rebuilt from the prose (the figures are not in the text). Each rebuild is the smallest DAG
consistent with every sentence of its example; the checks in ``checks/claims/maskit`` prove that
it reproduces every number the text states. Transition probabilities are uniform over a state's
successors, as the examples say.
"""

from __future__ import annotations

from privclaims.theory.maskit.model import MarkovChain, dag_chain


def figure_3_1() -> MarkovChain:
    """Example 1 (thesis only): "Phone call" sensitive with prior 1/2 at t = 1; suppressing Coffee
    break, Phone call and meeting gives posterior 2/3, so a suppressed non-sensitive context
    (meeting) shares level 1 with Phone call; Coffee break follows only Phone call (releasing it
    gives posterior 1). Rebuild: start -> {Phone call, meeting}; Phone call -> {Coffee break,
    meeting}; meeting -> {meeting, Lunch}."""
    return dag_chain([
        {"start": ["Phone call", "meeting"]},
        {"Phone call": ["Coffee break", "meeting"], "meeting": ["meeting", "Lunch"]},
    ])


def figure_3_2() -> MarkovChain:
    """Example 2 (= 001 Figure 3(a)): start -> {s, x} with 1/2 each; both -> end (T = 1)."""
    return dag_chain([{"start": ["s", "x"]}])


def figure_3_3() -> MarkovChain:
    """Example 3 (= 001 Figure 1): priors of X_2 = s1, s2 are 1/4 and (y1, ⊥) is the informative
    output, so y1, y2 sit at level 1 and s1, z1 (s2, z2) are the level-2 successors of y1 (y2)."""
    return dag_chain([{"start": ["y1", "y2"]}, {"y1": ["s1", "z1"], "y2": ["s2", "z2"]}])


def figure_3_4a() -> MarkovChain:
    """Example 4 (= 001 Figure 2(a)): prior of X_1 = s_i is 1/4 and the posterior given ⊥ (only s1, s2
    suppressed) is 1/2: start -> {s1, s2, a, b} uniformly (T = 1)."""
    return dag_chain([{"start": ["s1", "s2", "a", "b"]}])


def figure_3_4b(y1_to_both: bool = False) -> MarkovChain:
    """Example 5 / Claim 6 (= 001 Figure 2(b)), from the eight simulatable outputs listed:
    start -> w1..w6; w1, w2 -> x1; w3, w4 -> x2; w5, w6 -> x3; x1 -> {s1, y1}; x2 -> y2;
    x3 -> {s2, y3}; s1 -> z1; s2 -> z2; y2 -> {z1, z2}; prior of s1, s2 is 1/6.
    Claim 6 says releasing one of w1, w2, x1 together with z1 "gives away" s1, so y1 does not lead to
    z1: y1 -> z2 and, symmetrically, y3 -> z1 (default). ``y1_to_both=True`` is the alternative
    rebuild y1, y3 -> {z1, z2}, kept to show which reading the numbers single out."""
    y1 = ["z1", "z2"] if y1_to_both else ["z2"]
    y3 = ["z1", "z2"] if y1_to_both else ["z1"]
    return dag_chain([
        {"start": ["w1", "w2", "w3", "w4", "w5", "w6"]},
        {"w1": ["x1"], "w2": ["x1"], "w3": ["x2"], "w4": ["x2"], "w5": ["x3"], "w6": ["x3"]},
        {"x1": ["s1", "y1"], "x2": ["y2"], "x3": ["s2", "y3"]},
        {"s1": ["z1"], "y1": y1, "y2": ["z1", "z2"], "s2": ["z2"], "y3": y3},
    ])
