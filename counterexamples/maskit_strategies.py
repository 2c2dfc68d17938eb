"""Hypothesis strategies for MaskIt instances: small exact chains, suppression vectors, sensitive sets.

Transition rows are exact distributions with small denominators and frequent zeros (sparse DAGs,
like the figures of 000_211156f2009240b4.txt ch. 3), so that boundary cases (posterior - prior = δ,
impossible outputs, deterministic transitions) occur often.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

from privclaims.counterexamples.instance_parts import ReadParts
from privclaims.counterexamples.strategies import built_once, distributions
from privclaims.theory.floats import UNDERFLOW_FLOOR
from privclaims.theory.maskit.model import MarkovChain, markov_chain
from privclaims.theory.maskit.weak import set_labelled
from privclaims.theory.numbers import Q


@st.composite
def chains(draw: Any, max_n: int = 3, max_T: int = 3, min_n: int = 2, min_T: int = 1, max_den: int = 4) -> MarkovChain:
    n = draw(st.integers(min_n, max_n))
    T = draw(st.integers(min_T, max_T))
    contexts = [f"c{i}" for i in range(n)]
    initial = draw(distributions(n, max_den))
    steps = [[draw(distributions(n, max_den)) for _ in range(n)] for _ in range(T - 1)]
    return markov_chain(contexts, initial, steps)


@st.composite
def grid_vectors(draw: Any, chain: MarkovChain, d: int = 3) -> list[list[Any]]:
    """A suppression vector on the grid {0, 1/d, ..., 1}."""
    return [[Q(draw(st.integers(0, d)), d) for _ in range(chain.n)] for _ in range(chain.T)]


INSTANCE_PARTS = ("chain", "p", "S", "δ")
"""The parts of an :func:`instances` draw, as a search names them (``ReadParts(INSTANCE_PARTS, read=...)``)."""


@st.composite
def instances(draw: Any, max_n: int = 3, max_T: int = 3, d: int = 3, max_den: int = 4,
              reads: ReadParts | None = None) -> tuple:
    """(chain, p, S, delta) with p a vector on the grid {0, 1/d, ..., 1}, S a non-empty subset of contexts and δ on the
    grid {1/12..11/12}.

    ``reads``: the search's declaration ``ReadParts(INSTANCE_PARTS, read=...)``; only the parts it reads are drawn (the
    chain always: the others are drawn on it), the others are None, which the search never hands to its property (it
    hands a marker in their place). So the budget goes to what the property reads, and an instance differs from the
    one before in a part read. Without it, every part is drawn (the same draws as before ``reads`` existed)."""
    if reads is not None and reads.names != INSTANCE_PARTS:
        raise ValueError(f"instances(reads=...): the parts are {INSTANCE_PARTS}, not {reads.names}")
    drawn = INSTANCE_PARTS if reads is None else reads.read
    ch = draw(built_once(chains, max_n, max_T, max_den=max_den))
    p = draw(grid_vectors(ch, d)) if "p" in drawn else None
    S = None
    if "S" in drawn:
        k = draw(st.integers(1, ch.n))
        S = sorted(draw(built_once(st.permutations, tuple(ch.contexts)))[:k])
    delta = Q(draw(st.integers(1, 11)), 12) if "δ" in drawn else None
    return ch, p, S, delta


def dominating(draw: Any, p: list[list[Any]], d: int) -> list[list[Any]]:
    """A vector q ⪰ p on the same grid."""
    return [[Q(draw(st.integers(int(x * d), d)), d) for x in row] for row in p]


# Values whose float64 images carry rounding (1/3), sit one ulp from 1 (1 - 2^-53), or are tiny but
# above the float filter's 2^-100 floor (2^-99): the hard cases of theory/maskit/exact_filter.py.
TINY_MOVES = tuple(Q(1, 2 ** k) for k in (50, 52, 53, 54, 60, 90, 99))
HARD_P = (Q(0), Q(1), Q(1, 2), Q(1, 3), Q(2, 3), Q(1, 2 ** 50), 1 - Q(1, 2 ** 50), 1 - Q(1, 2 ** 53), Q(1, 2 ** 99))


@st.composite
def nudged_distributions(draw: Any, n: int) -> list[Any]:
    """A small-denominator distribution, often with a mass 2^-k (k in 50..99) moved between two entries."""
    d = list(draw(distributions(n, 3)))
    if draw(st.booleans()):
        a = draw(built_once(st.sampled_from, tuple(i for i in range(n) if d[i] > 0)))
        b = draw(st.integers(0, n - 1))
        e = draw(built_once(st.sampled_from, TINY_MOVES))
        if a != b and d[a] > e:
            d[a] -= e
            d[b] += e
    return d


@st.composite
def float_hard_instances(draw: Any, max_n: int = 4, max_T: int = 5) -> tuple:
    """(chain, p, sensitive indices) built to defeat a float evaluation of Algorithm 3's beliefs:
    nudged rows (gains within 2^-50 of each other), time-homogeneous chains symmetric under
    swapping c0 and c1 (exact ties between beliefs whose floats are rounded differently), p from
    :data:`HARD_P` (0, 1, 1/3, 1 - 2^-53, 2^-99, ...), and sensitive contexts often never released."""
    n = draw(st.integers(2, max_n))
    T = draw(st.integers(1, max_T))
    init = draw(built_once(nudged_distributions, n))
    if draw(st.booleans()):
        m = [draw(built_once(nudged_distributions, n)) for _ in range(n)]
        if draw(st.booleans()):
            sw = [1, 0] + list(range(2, n))
            m = [[(m[i][j] + m[sw[i]][sw[j]]) / 2 for j in range(n)] for i in range(n)]
            init = [(init[i] + init[sw[i]]) / 2 for i in range(n)]
        steps = [m] * (T - 1)
    else:
        steps = [[draw(built_once(nudged_distributions, n)) for _ in range(n)] for _ in range(T - 1)]
    ch = markov_chain([f"c{i}" for i in range(n)], init, steps)
    if draw(st.booleans()):
        p = [[draw(built_once(st.sampled_from, HARD_P))] * n for _ in range(T)]
    else:
        p = [[draw(built_once(st.sampled_from, HARD_P)) for _ in range(n)] for _ in range(T)]
    sens = tuple(sorted(draw(st.sets(st.integers(0, n - 1), min_size=1))))
    if draw(st.booleans()):
        p = [[Q(1) if i in sens else v for i, v in enumerate(row)] for row in p]
    return ch, p, sens


TINY_EXPONENTS = (150, 200, 320, 400)
"""Exponents k of the masses 10^-k moved by :func:`shift_tiny`: products of two or three such entries
underflow float64 (the smallest positive float is ~4.9 * 10^-324) while their exact values are positive."""


def shift_tiny(row: list[Any], src: int, dst: int, k: int) -> list[Any]:
    """The distribution ``row`` with a mass 10^-k moved from entry ``src`` (which must be positive) to ``dst``."""
    return shift_mass(row, src, dst, Q(1, 10 ** k))


def shift_mass(row: list[Any], src: int, dst: int, e: Any) -> list[Any]:
    """The distribution ``row`` with a mass ``e`` (below ``row[src]``) moved from entry ``src`` to ``dst``."""
    out = list(row)
    out[src] -= e
    out[dst] += e
    return out


def certificate_masses(T: int) -> list[Any]:
    """Masses 2^-k around the boundary of the fast twin's no-underflow certificate at horizon T
    (:func:`privclaims.theory.maskit.fast._cannot_underflow`: (min entry * min p)^T >= 2 * UNDERFLOW_FLOOR = 2^-899, so with
    p = 1 it holds iff T k <= 899): k = 899 // T - 1, 899 // T, 899 // T + 1, and 899 // (T - 1), where a
    certificate counting T - 1 factors instead of T would still claim that no normaliser underflows."""
    b = int(-np.log2(UNDERFLOW_FLOOR)) - 1
    return [Q(1, 2 ** k) for k in (b // T - 1, b // T, b // T + 1, b // (T - 1))]


@st.composite
def underflow_chains(draw: Any, max_n: int = 3, max_T: int = 4, near_certificate: bool = False) -> MarkovChain:
    """A :func:`chains` chain whose distributions (A^(1) and each row) may each move a mass 10^-k
    (:data:`TINY_EXPONENTS`) to another entry, so that float priors, reach products and normalisers
    underflow where the exact values are positive. ``near_certificate``: the masses are
    :func:`certificate_masses` instead (products of T of them straddle the certificate's bound)."""
    ch = draw(built_once(chains, max_n, max_T, min_T=2))
    masses = certificate_masses(ch.T) if near_certificate else [Q(1, 10 ** k) for k in TINY_EXPONENTS]

    def tiny(row: tuple) -> list[Any]:
        if not draw(st.booleans()):
            return list(row)
        src = draw(built_once(st.sampled_from, tuple(j for j, x in enumerate(row) if x > 0)))
        dst = draw(built_once(st.sampled_from, tuple(j for j in range(len(row)) if j != src)))
        return shift_mass(list(row), src, dst, draw(built_once(st.sampled_from, tuple(masses))))

    return markov_chain(ch.contexts, tiny(ch.initial), [[tiny(r) for r in m] for m in ch.steps])


@st.composite
def dominating_pairs(draw: Any, max_n: int = 3, max_T: int = 3, grid: int = 3, reads: ReadParts | None = None) -> tuple:
    """(chain, p, q ⪰ p, S, δ) on the grid {0, 1/grid, ..., 1} (grid = 3: {0, 1/3, 2/3, 1}). ``reads``
    (``ReadParts(DOMINATING_PAIR_PARTS, read=...)``): S and δ are drawn only when read (else None), as in
    :func:`instances`; the chain, p and q always (q is drawn on p)."""
    inner = None if reads is None else _inner_reads(reads, DOMINATING_PAIR_PARTS, ("S", "δ"))
    ch, p, S, d = draw(built_once(instances, max_n=max_n, max_T=max_T, d=grid, reads=inner))
    q = dominating(draw, p, grid)
    return ch, p, q, S, d


DOMINATING_PAIR_PARTS = ("chain", "p", "q", "S", "δ")
"""The parts of a :func:`dominating_pairs` draw."""


def _inner_reads(reads: ReadParts, names: tuple[str, ...], optional: tuple[str, ...]) -> ReadParts | None:
    """What a strategy built on :func:`instances` asks of it for a search reading ``reads`` of its own parts
    ``names``: the chain and p (its other parts are drawn on them) and those of ``optional`` the search reads."""
    if reads.names != names:
        raise ValueError(f"reads=...: the parts are {names}, not {reads.names}")
    return ReadParts(INSTANCE_PARTS, read=("chain", "p") + tuple(n for n in optional if n in reads.read))


@st.composite
def single_raises(draw: Any, max_n: int = 3, max_T: int = 3, grid: int = 3, reads: ReadParts | None = None) -> tuple:
    """(chain, p, q, S, (t', i)) with q = p except q_i^{t'} = p_i^{t'} + ε (ε a positive step of the grid
    {0, 1/grid, ..., 1}). ``reads`` (``ReadParts(SINGLE_RAISE_PARTS, read=...)``): S is drawn only when read (else
    None), and no δ is drawn (without ``reads`` one is drawn and dropped, as before ``reads`` existed)."""
    inner = None if reads is None else _inner_reads(reads, SINGLE_RAISE_PARTS, ("S",))
    ch, p, S, d = draw(built_once(instances, max_n=max_n, max_T=max_T, d=grid, reads=inner))
    t = draw(st.integers(1, ch.T))
    i = draw(st.integers(0, ch.n - 1))
    k = int(p[t - 1][i] * grid)
    if k == grid:
        k = grid - 1
        p[t - 1][i] = Q(k, grid)
    up = draw(st.integers(k + 1, grid))
    q = [list(r) for r in p]
    q[t - 1][i] = Q(up, grid)
    return ch, p, q, S, (t, i)


SINGLE_RAISE_PARTS = ("chain", "p", "q", "S", "(t', i)")
"""The parts of a :func:`single_raises` draw."""


WEAK_LABELS = ("p", "q", "r", "s")  # the contexts of M in weak_generalisations; "s" sensitive


@st.composite
def weak_generalisations(draw: Any, max_n: int = 3, max_T: int = 3, sensitive: bool = False,
                         reads: ReadParts | None = None) -> tuple:
    """(M', truth, λ of an adversary M'' between M' and M, δ): an ID chain over IDs a0..a{n-1}, each ID's true
    context, a set label Π(a) ∋ truth, and a label distribution λ_a on Π(a). With ``sensitive``, one drawn ID's set
    also holds the sensitive context "s" (Theorem 7's construction needs a sensitive ID: without one, an instance
    tests nothing). ``reads`` (``ReadParts(WEAK_GENERALISATION_PARTS, read=...)``): λ and δ are drawn only when read
    (else None), as in :func:`instances`; M' and the truth it is built from always."""
    if reads is not None and reads.names != WEAK_GENERALISATION_PARTS:
        raise ValueError(f"weak_generalisations(reads=...): the parts are {WEAK_GENERALISATION_PARTS}, not {reads.names}")
    drawn = WEAK_GENERALISATION_PARTS if reads is None else reads.read
    ids = draw(built_once(chains, max_n=max_n, max_T=max_T))
    truth = {a: draw(built_once(st.sampled_from, WEAK_LABELS)) for a in ids.contexts}
    Pi = {a: {truth[a]} | set(draw(built_once(st.lists, built_once(st.sampled_from, WEAK_LABELS), max_size=2)))
          for a in ids.contexts}
    if sensitive:
        Pi[ids.contexts[draw(st.integers(0, len(ids.contexts) - 1))]].add(WEAK_LABELS[-1])
    lam = None
    if "λ" in drawn:
        lam = {}
        for a in ids.contexts:
            labs = sorted(Pi[a])
            w = draw(distributions(len(labs), 4))
            lam[a] = dict(zip(labs, w))
    delta = Q(draw(st.integers(1, 11)), 12) if "δ" in drawn else None
    return set_labelled(ids, Pi, truth), truth, lam, delta


WEAK_GENERALISATION_PARTS = ("M'", "truth", "λ", "δ")
"""The parts of a :func:`weak_generalisations` draw: M' (the ID chain, set-labelled), each ID's true context, λ, δ."""


@st.composite
def cut_hierarchies(draw: Any) -> tuple:
    """A random two/three-level tree over 2..8 leaves, a random cut and a random sensitive set."""
    n = draw(st.integers(2, 8))
    leaves = [f"c{i}" for i in range(n)]
    k = draw(st.integers(1, n))
    cuts = sorted(set(draw(st.lists(st.integers(1, n - 1), max_size=k - 1)))) if n > 1 else []
    groups, prev = [], 0
    for c in cuts + [n]:
        groups.append(leaves[prev:c])
        prev = c
    tree = {"root": [f"g{i}" for i in range(len(groups))]}
    for i, g in enumerate(groups):
        tree[f"g{i}"] = g
    cut = [f"g{i}" for i in range(len(groups))]
    if draw(st.booleans()):
        cut = ["root"]
    S = draw(built_once(st.lists, built_once(st.sampled_from, tuple(leaves)), min_size=1, max_size=3, unique=True))
    return tree, cut, S, n


CUT_HIERARCHY_PARTS = ("tree", "cut", "S", "n")
"""The parts of a :func:`cut_hierarchies` draw (n, the number of leaves, is the tree's)."""
