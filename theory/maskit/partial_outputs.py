"""Algorithm 3's partial outputs in exact rationals (Lemmas 3-5), shared by its plain loop
(:func:`privclaims.theory.maskit.exact.max_breach`) and its float filter (:mod:`privclaims.theory.maskit.exact_filter`).

Sources: 000_211156f2009240b4.txt §3.4.5 (= 001_eb11505ae1399b83.txt §4).

A partial output is ``o_{t1}, ⊥, ..., ⊥, o_{t2}`` (``o_{t1}`` in C ∪ {start}, ``o_{t2}`` in C ∪ {end}); by
Lemma 4 the beliefs conditioned on the partial outputs give Algorithm 2's maximum.

* :func:`forward_vectors` - Lemma 3's forward vectors ``F[τ]`` of a start (t1, c_i);
* :func:`backward_table` / :func:`backward_tables` - Lemma 3's backward tables ``H(t)`` of an end (t2, c_j);
* :func:`partial_mass` - ``D``, the probability of the suppressed run and its end given its start;
* :func:`triplet_posterior` - ``Pr[X_t = c_s | partial output] = F[t][s] H(t)[s] / D`` (1 or 0 at a release);
* :func:`partial_outputs` - every partial output of positive probability with its F, H and D;
* :class:`PassedCache` / :func:`checked_cache` - Lemma 5's store of passed triplets (one search's cache).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Hashable, Sequence

from privclaims.theory.maskit.exact_base import OpCount, prior_beliefs, vec_mat
from privclaims.theory.maskit.model import MarkovChain, dominates
from privclaims.theory.numbers import ONE, ZERO
from privclaims.theory.validate import instance

END = "end"


@dataclass
class PassedCache:
    """One search's store. The exact twin keeps Lemma 5's set P there: triplets ⟨t, s, partial output⟩
    that passed ISPRIVATE under some vector (the fast twin keeps its own results, see its max_breach).

    The cache argument is public, so a caller may share one store between chains or δs; what is kept
    is valid for one chain (and, for Lemma 5, one δ) only. Each twin therefore keeps it in a
    :meth:`scope` of (its kind, the chain, the other inputs), so sharing is a miss, never a wrong answer.
    """

    entries: dict = field(default_factory=dict)

    def scope(self, kind: str, chain: Any, *inputs: Hashable) -> dict:
        """The part of the store for ``kind`` on this chain and these inputs. The chain is keyed by
        identity and the scope holds it, so its id cannot be reused while the scope lives."""
        key = (kind, id(chain), *inputs)
        part = self.entries.get(key)
        if part is None or part.get("chain") is not chain:
            part = self.entries[key] = {"chain": chain}
        return part

    def passed_under_dominated(self, chain: Any, d: Any, key: tuple, q: Sequence[Sequence[Any]]) -> bool:
        return any(dominates(q, p) for p in self.scope("exact.lemma5", chain, d).get(key, ()))

    def add(self, chain: Any, d: Any, key: tuple, p: Sequence[Sequence[Any]]) -> None:
        self.scope("exact.lemma5", chain, d).setdefault(key, []).append(p)


def checked_cache(cache: object) -> PassedCache | None:
    """``cache`` (both twins' ISPRIVATE) must be None or a :class:`PassedCache`."""
    return None if cache is None else instance(cache, PassedCache, "cache", "(one search's store; or None)")


def partial_outputs(chain: MarkovChain, p: Sequence[Sequence[Any]], ops: OpCount | None = None):
    """Yield ``(t1, i, t2, j, D, F, H)`` for every partial output ``o_{t1}, ⊥..⊥, o_{t2}`` of positive
    probability (000 §3.4.5): ``t1 = 0, i = None`` is "start", ``t2 = T + 1, j = "end"``.

    F[τ][k] = Pr[X_τ = c_k, O_{t1+1..τ} = ⊥ | X_{t1} = o_{t1}] (τ = t1..t2-1, F[t1] = e_i),
    H(t)[k] = Pr[O_{t+1..t2-1} = ⊥, X_{t2} = o_{t2} | X_t = c_k], D = Pr[⊥..⊥, X_{t2} = o_{t2} | X_{t1} = o_{t1}];
    ``Pr[X_t = c_k | partial output] = F[t][k] H(t)[k] / D`` for t1 < t < t2 (the normalisation of
    Eq. 3.3 with α(t1) = e_i and β(t2) ∝ e_j, as the text after Proposition 4 says).
    The release factors (1 - p_i^{t1}) and (1 - p_j^{t2}) cancel; they only decide whether the
    partial output is possible (conditions (1)-(3) of the text).
    """
    T = chain.T
    back = backward_tables(chain, p, ops)
    for t1, starts in _starts(chain, p):
        for i in starts:
            F = forward_vectors(chain, p, t1, i, ops)
            for t2 in range(t1 + 1, T + 2):
                for j in _ends(chain, p, t2):
                    D = partial_mass(chain, F, t1, t2, j)
                    if D == 0:
                        continue
                    yield t1, i, t2, j, D, F, back[(t2, j)]


def _starts(chain: MarkovChain, p: Sequence[Sequence[Any]]):
    """``(t1, [i ...])`` for t1 = 0..T: the possible first releases o_{t1} (t1 = 0: [None], "start")."""
    pri = prior_beliefs(chain)
    for t1 in range(0, chain.T + 1):
        yield t1, [None] if t1 == 0 else [i for i in range(chain.n) if pri[t1 - 1][i] > 0 and p[t1 - 1][i] < 1]


def _ends(chain: MarkovChain, p: Sequence[Sequence[Any]], t2: int) -> list:
    """The candidate o_{t2}: ``[END]`` for t2 = T + 1, else every c_j with p_j^{t2} < 1."""
    return [END] if t2 == chain.T + 1 else [j for j in range(chain.n) if p[t2 - 1][j] < 1]


def forward_vectors(chain: MarkovChain, p: Sequence[Sequence[Any]], t1: int, i: int | None, ops: OpCount | None = None) -> dict:
    """``F[τ]`` for τ = t1..T (the ⊥ emission at τ included; F[t1] = e_i, or None for "start")."""
    n = chain.n
    F: dict[int, Any] = {t1: None if t1 == 0 else [ONE if k == i else ZERO for k in range(n)]}
    for tau in range(t1 + 1, chain.T + 1):
        base = list(chain.initial) if tau == 1 else vec_mat(F[tau - 1], chain.steps[tau - 2], ops)
        F[tau] = [base[k] * p[tau - 1][k] for k in range(n)]
    return F


def partial_mass(chain: MarkovChain, F: dict, t1: int, t2: int, j: int | str) -> Any:
    """D = Pr[O_{t1+1..t2-1} = ⊥, X_{t2} = o_{t2} | X_{t1} = o_{t1}] from the forward vectors F of (t1, i)."""
    T = chain.T
    if t2 == T + 1:
        return sum(F[T], ZERO) if t1 < T else ONE
    if t2 == 1:
        return chain.initial[j]
    col = chain.steps[t2 - 2]
    return sum((F[t2 - 1][l] * col[l][j] for l in range(chain.n) if F[t2 - 1][l]), ZERO)


def backward_tables(chain: MarkovChain, p: Sequence[Sequence[Any]], ops: OpCount | None) -> dict:
    """H tables per endpoint: ``back[(t2, j)][t][k] = Pr[O_{t+1..t2-1} = ⊥, X_{t2} = o_{t2} | X_t = c_k]``."""
    T, n = chain.T, chain.n
    return {(t2, j): backward_table(chain, p, t2, j, ops)
            for t2 in range(1, T + 2) for j in ([END] if t2 == T + 1 else range(n))}


def backward_table(chain: MarkovChain, p: Sequence[Sequence[Any]], t2: int, j: int | str, ops: OpCount | None = None) -> dict:
    """The H table of one endpoint (t2, o_{t2}) (see :func:`backward_tables`)."""
    T, n = chain.T, chain.n
    H: dict[int, list[Any]] = {}
    if t2 == T + 1:
        H[T] = [ONE] * n
    elif t2 >= 2:
        H[t2 - 1] = [chain.steps[t2 - 2][k][j] for k in range(n)]
    for t in range(min(t2 - 1, T) - 1, 0, -1):
        m = chain.steps[t - 1]
        nxt = H[t + 1]
        weighted = [p[t][k] * nxt[k] for k in range(n)]
        H[t] = [sum((m[k][l] * weighted[l] for l in range(n) if m[k][l]), ZERO) for k in range(n)]
        if ops is not None:
            ops.mult_adds += n * n
    return H


def triplet_posterior(t: int, s: int, key_o: tuple, F: dict, H: dict, D: Any) -> Any:
    """``Pr[X_t = c_s | o_{t1}, ⊥..⊥, o_{t2}]``: 1 or 0 at a release (t = t1 or t2), else F[t][s] H(t)[s] / D."""
    t1, i, t2, j = key_o
    if t == t1:
        return ONE if s == i else ZERO
    if t == t2:
        return ONE if s == j else ZERO
    return F[t][s] * H[t][s] / D
