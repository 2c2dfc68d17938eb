"""Hypothesis strategies for exact instances, shared by the ledger's searches and property_tests/.

Probabilities are exact rationals with small denominators (so boundary cases such as
``posterior - prior == delta`` occur often), built so that distributions sum to exactly 1.
"""

from __future__ import annotations

from typing import Any, Callable, Hashable

from hypothesis import strategies as st

from privclaims.theory.dp.mechanism import FiniteMechanism, finite_mechanism
from privclaims.theory.numbers import Q


_BUILT: dict[Any, st.SearchStrategy[Any]] = {}


def _typed(x: Any) -> Any:
    """``x`` paired with its type, through tuples: the key part :func:`built_once` compares."""
    return (tuple, tuple(_typed(v) for v in x)) if isinstance(x, tuple) else (type(x), x)


def built_once(factory: Callable[..., st.SearchStrategy[Any]], *args: Hashable, **kwargs: Hashable) -> st.SearchStrategy[Any]:
    """``factory(*args, **kwargs)``, one strategy object per factory and arguments for the whole process.

    For a composite that builds a strategy at each draw (``draw(st.sampled_from(rows))``, ``draw(chains(n, T))``): the
    draws are those of a strategy built afresh - a strategy's choices depend on its arguments, never on which object
    it is - while hypothesis' work on a new object (validating it and what it wraps, computing its recursive
    properties, looking it up in its own cache) is done once instead of at every draw (issue 25: the full ledger's ads
    and querygen areas on one worker took 104-106 CPU s before, 96-97 after; every verdict and evidence unchanged). The
    arguments must be hashable (pass a tuple, not a list); they are told apart by type too, inside tuples as well
    (``(1, 2)`` and ``(Q(1), Q(2))`` are equal keys to a plain cache, yet sample different values)."""
    key = (factory, _typed(args), tuple(sorted((k, _typed(v)) for k, v in kwargs.items())))
    if key not in _BUILT:
        _BUILT[key] = factory(*args, **kwargs)
    return _BUILT[key]


def _positive_sum(w: list[int]) -> bool:
    return sum(w) > 0


def _weights(n: int, lo: int, max_den: int) -> st.SearchStrategy[list[int]]:
    """The weight lists of :func:`distributions` (drawn through :func:`built_once`: a filtered strategy is not analysed
    again at every draw)."""
    return st.lists(st.integers(lo, max_den), min_size=n, max_size=n).filter(_positive_sum)


@st.composite
def _distributions(draw: Any, n: int, max_den: int, allow_zero: bool) -> list[Any]:
    """See :func:`distributions` (this builds its strategy)."""
    weights = draw(built_once(_weights, n, 0 if allow_zero else 1, max_den))
    total = sum(weights)
    return [Q(w, total) for w in weights]


def distributions(n: int, max_den: int = 12, allow_zero: bool = True) -> st.SearchStrategy[list[Any]]:
    """An exact distribution over ``n`` points: integer weights over their (small) total. One strategy object per
    arguments (:func:`built_once`: the same draws; chains draw one per row, and a strategy built per draw is validated
    per draw)."""
    return built_once(_distributions, n, max_den, allow_zero)


@st.composite
def stochastic_matrices(draw: Any, rows: int, cols: int, max_den: int = 12, allow_zero: bool = True) -> list[list[Any]]:
    return [draw(distributions(cols, max_den, allow_zero)) for _ in range(rows)]


@st.composite
def finite_mechanisms(draw: Any, max_inputs: int = 3, max_outputs: int = 4, max_den: int = 10) -> FiniteMechanism:
    """A mechanism on inputs 0..k-1 (a path of neighbours 0-1-2...) with exact output distributions. One output (the
    constant mechanism, one per k) is drawn once in 16: drawn as often as any other size, most of its draws repeated an
    instance already tried (dp.def3: 216 distinct of 300 examples, now 273)."""
    k = draw(st.integers(2, max_inputs))
    m = 1 if draw(st.integers(0, 15)) == 0 else draw(st.integers(min(2, max_outputs), max_outputs))
    dist = {i: dict(enumerate(draw(distributions(m, max_den)))) for i in range(k)}
    return finite_mechanism(dist, [(i, i + 1) for i in range(k - 1)])


def exp_epsilons() -> st.SearchStrategy[str]:
    """Privacy parameters as strings Epsilon.of reads: rational e^eps (exact) or rational eps (rigorous)."""
    rational_exp = st.sampled_from(["ln(1)", "ln(3/2)", "ln(2)", "ln(3)", "ln(4)"])
    rational_eps = st.sampled_from(["1/10", "1/2", "1", "2"])
    return st.one_of(rational_exp, rational_eps)


@st.composite
def finite_systems(draw: Any, contexts: tuple = ("a", "b", "c"), max_T: int = 2, max_outputs: int = 3, max_den: int = 8) -> Any:
    """A finite system for Definition 6: an exact prior over all streams in contexts^T (some may
    have probability 0) and a random channel to ``max_outputs`` outputs."""
    from itertools import product

    from privclaims.theory.dp.delta_privacy import finite_system

    T = draw(st.integers(1, max_T))
    streams = list(product(contexts, repeat=T))
    prior = draw(distributions(len(streams), max_den))
    m = draw(st.integers(1, max_outputs))
    channel = {x: dict(enumerate(draw(distributions(m, max_den)))) for x in streams}
    return finite_system(dict(zip(streams, prior)), channel)
