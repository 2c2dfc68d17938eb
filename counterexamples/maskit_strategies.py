"""Hypothesis strategies for MaskIt instances: small exact chains, suppression vectors, sensitive sets.

Transition rows are exact distributions with small denominators and frequent zeros (sparse DAGs,
like the figures of 000_211156f2009240b4.txt ch. 3), so that boundary cases (posterior - prior = δ,
impossible outputs, deterministic transitions) occur often.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from counterexamples.strategies import distributions
from theory.maskit.model import MarkovChain, markov_chain
from theory.numbers import Q


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


@st.composite
def instances(draw: Any, max_n: int = 3, max_T: int = 3, d: int = 3, max_den: int = 4) -> tuple:
    """(chain, p, S, delta) with S a non-empty subset of contexts and δ on the grid {1/12..11/12}."""
    ch = draw(chains(max_n, max_T, max_den=max_den))
    p = draw(grid_vectors(ch, d))
    k = draw(st.integers(1, ch.n))
    S = draw(st.permutations(list(ch.contexts)))[:k]
    delta = Q(draw(st.integers(1, 11)), 12)
    return ch, p, sorted(S), delta


def dominating(draw: Any, p: list[list[Any]], d: int) -> list[list[Any]]:
    """A vector q ⪰ p on the same grid."""
    return [[Q(draw(st.integers(int(x * d), d)), d) for x in row] for row in p]


TINY_EXPONENTS = (150, 200, 320, 400)
"""Exponents k of the masses 10^-k moved by :func:`shift_tiny`: products of two or three such entries
underflow float64 (the smallest positive float is ~4.9 * 10^-324) while their exact values are positive."""


def shift_tiny(row: list[Any], src: int, dst: int, k: int) -> list[Any]:
    """The distribution ``row`` with a mass 10^-k moved from entry ``src`` (which must be positive) to ``dst``."""
    out = list(row)
    e = Q(1, 10 ** k)
    out[src] -= e
    out[dst] += e
    return out


@st.composite
def underflow_chains(draw: Any, max_n: int = 3, max_T: int = 4) -> MarkovChain:
    """A :func:`chains` chain whose distributions (A^(1) and each row) may each move a mass 10^-k
    (:data:`TINY_EXPONENTS`) to another entry, so that float priors, reach products and normalisers
    underflow where the exact values are positive."""
    ch = draw(chains(max_n, max_T, min_T=2))

    def tiny(row: tuple) -> list[Any]:
        if not draw(st.booleans()):
            return list(row)
        src = draw(st.sampled_from([j for j, x in enumerate(row) if x > 0]))
        dst = draw(st.sampled_from([j for j in range(len(row)) if j != src]))
        return shift_tiny(list(row), src, dst, draw(st.sampled_from(TINY_EXPONENTS)))

    return markov_chain(ch.contexts, tiny(ch.initial), [[tiny(r) for r in m] for m in ch.steps])
