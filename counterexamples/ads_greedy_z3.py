"""z3 searches for counterexamples to Fact 3, Lemmas 10/11 and Theorem 7
(000_211156f2009240b4.txt §4.3.1) on all instances of a fixed size, and the worst greedy ratio.

Encoding (linear real arithmetic with if-then-else): a non-negative value matrix
``u[a][j] = Pr[c_j|ĉ]·p_a·CTR(a|c_j)``; every such matrix is an ad instance (see :func:`decode`), so
``E[Revenue(A)] = Σ_j max_{a∈A} u[a][j]``. Greedy's run is fixed to pick ads ``0, 1, .., k−1`` in
that order with *any* tie-breaking (relabelling ads makes this no loss of generality; ties allowed
makes the search cover every tie-breaking rule). The optimum is represented by a disjunction over
all k-subsets S. ``unsat`` = no counterexample of that size exists (for real-valued instances).
"""

from __future__ import annotations

from itertools import combinations, product
from typing import Any, Sequence

import z3

from privclaims.counterexamples.harness import SearchResult, model_rational, z3_search, z3_search_cases
from privclaims.theory.ads import exact as E
from privclaims.theory.ads.model import AdInstance, ad_instance
from privclaims.theory.numbers import Q


def _vars(s: Any, m: int, n: int) -> list[list[Any]]:
    u = [[z3.Real(f"u_{a}_{j}") for j in range(n)] for a in range(m)]
    for row in u:
        for x in row:
            s.add(x >= 0, x <= 1)
    return u


def _rev(u: list[list[Any]], A: Sequence[int]) -> Any:
    if not A:
        return z3.RealVal(0)
    total = []
    for j in range(len(u[0])):
        mx = u[A[0]][j]
        for a in A[1:]:
            mx = z3.If(u[a][j] > mx, u[a][j], mx)
        total.append(mx)
    return z3.Sum(total)


def _greedy_constraints(s: Any, u: list[list[Any]], m: int, k: int) -> None:
    """Ads 0..k-1 are a greedy run (each has a maximal benefit in its round; ties allowed)."""
    for l in range(k):
        G = list(range(l))
        base = _rev(u, G)
        gain_l = _rev(u, G + [l]) - base
        for b in range(l + 1, m):
            s.add(gain_l >= _rev(u, G + [b]) - base)


def decode(model: Any, u: list[list[Any]]) -> AdInstance | None:
    """An ad instance with the model's values: Pr[c_j] ∝ max_a u[a][j], CTR = u/max, p_a = Σ_j max."""
    vals = [[model_rational(model, x) for x in row] for row in u]
    m, n = len(vals), len(vals[0])
    s = [max(vals[a][j] for a in range(m)) for j in range(n)]
    T = sum(s, Q(0))
    if T == 0:
        return None
    ctr = [[vals[a][j] / s[j] if s[j] else Q(0) for j in range(n)] for a in range(m)]
    return ad_instance([x / T for x in s], ctr, [T] * m)


def is_greedy_order(inst: AdInstance, order: Sequence[int]) -> bool:
    """``order`` is a possible run of Algorithm 6 (every pick has a maximal benefit, ties allowed)."""
    for l, a in enumerate(order):
        G = list(order[:l])
        g = E.benefit(inst, G, [a])
        if any(E.benefit(inst, G, [b]) > g for b in range(inst.n_ads) if b not in G):
            return False
    return True


def _opt_sets(m: int, k: int) -> list[tuple[int, ...]]:
    return list(combinations(range(m), k))


def ratio_bound(k: int, l: int | None = None) -> Any:
    """``1 − (1 − 1/k)^l`` (l = k by default): Lemma 11's factor."""
    return 1 - (1 - Q(1, k)) ** (k if l is None else l)


def search_lemmas(m: int, n: int, k: int, which: str, timeout_ms: int = 60_000) -> SearchResult:
    """Counterexample to Lemma 10 (``which="lem10"``), Lemma 11 (``"lem11"``) or Theorem 7's
    ``b(k) >= (1 − (1−1/k)^k) b*(k)`` (``"thm7"``) among all instances with m ads, n contexts."""

    def build(s: Any) -> tuple[Any, list[Any]]:
        u = _vars(s, m, n)
        _greedy_constraints(s, u, m, k)
        viol = []
        for S in _opt_sets(m, k):
            rs = _rev(u, list(S))
            for l in range(1, k + 1):
                if which == "lem10":
                    bl = _rev(u, list(range(l))) - _rev(u, list(range(l - 1)))
                    viol.append(bl * k < rs - _rev(u, list(range(l - 1))))
                elif which == "lem11":
                    bnd = ratio_bound(k, l)
                    viol.append(_rev(u, list(range(l))) < z3.Q(int(bnd.numerator), int(bnd.denominator)) * rs)
            if which == "thm7":
                bnd = ratio_bound(k)
                viol.append(_rev(u, list(range(k))) < z3.Q(int(bnd.numerator), int(bnd.denominator)) * rs)
        return u, viol  # the encoding is the disjunction of viol, decided one disjunct at a time

    def verify(inst: AdInstance | None) -> bool:
        if inst is None:
            return False
        order = tuple(range(k))
        if not is_greedy_order(inst, order):
            return False
        opt = E.optimum(inst, k)[1]
        rev = [E.expected_revenue(inst, order[:l]) for l in range(k + 1)]
        if which == "lem10":
            return any((rev[l] - rev[l - 1]) * k < opt - rev[l - 1] for l in range(1, k + 1))
        if which == "lem11":
            return any(rev[l] < ratio_bound(k, l) * opt for l in range(1, k + 1))
        return rev[k] < ratio_bound(k) * opt

    return z3_search_cases(build, decode, verify, bound=f"all real instances with |A|={m}, {n} contexts, k={k}",
                     encoding="z3 LRA+ite: value matrix u[a][j] in [0,1], greedy run 0..k-1 (any ties), "
                              "optimum as disjunction over k-subsets", timeout_ms=timeout_ms)


def search_submodularity(m: int, n: int, timeout_ms: int = 60_000) -> SearchResult:
    """Counterexample to Fact 3: ``A1 ⊆ A2`` and A with ``B(A1, A) < B(A2, A)``."""
    triples = []
    for mask in product((0, 1, 2), repeat=m):  # 0: neither, 1: A2 only, 2: A1 and A2
        A1 = [a for a in range(m) if mask[a] == 2]
        A2 = [a for a in range(m) if mask[a] >= 1]
        for r in range(1, m + 1):
            for A in combinations(range(m), r):
                if not set(A) <= set(A2):
                    triples.append((A1, A2, list(A)))

    def build(s: Any) -> Any:
        u = _vars(s, m, n)
        s.add(z3.Or([_rev(u, sorted(set(A1) | set(A))) - _rev(u, A1) < _rev(u, sorted(set(A2) | set(A))) - _rev(u, A2)
                     for A1, A2, A in triples]))
        return u

    def verify(inst: AdInstance | None) -> bool:
        return inst is not None and any(E.benefit(inst, A1, A) < E.benefit(inst, A2, A) for A1, A2, A in triples)

    return z3_search(build, decode, verify, bound=f"all real instances with |A|={m}, {n} contexts, all A1⊆A2, A "
                     f"({len(triples)} triples with A ⊄ A2)", encoding="z3 LRA+ite value matrix", timeout_ms=timeout_ms)


def worst_ratio(m: int, n: int, k: int, timeout_ms: int = 60_000) -> dict[str, Any]:
    """``min b(k)/b*(k)`` over all instances with m ads, n contexts (z3 Optimize, exact), beside
    the bound ``1 − (1 − 1/k)^k``. Greedy picks 0..k−1 with *lowest-id* ties (strict > against lower
    ids is impossible here since the picks are the lowest ids; so ties are allowed); the optimum is
    normalised to 1 on each k-subset S in turn."""
    best = None
    witness_inst = None
    for S in _opt_sets(m, k):
        if S == tuple(range(k)):
            continue
        o = z3.Optimize()
        o.set("timeout", int(timeout_ms))
        u = _vars(o, m, n)
        _greedy_constraints(o, u, m, k)
        o.add(_rev(u, list(S)) == 1)
        g = _rev(u, list(range(k)))
        o.minimize(g)
        if o.check() != z3.sat:
            return {"status": "undecided", "S": S}
        val = model_rational(o.model(), g)
        if best is None or val < best:
            best, witness_inst = val, decode(o.model(), u)
    # re-verify with the exact twin (lowest-id greedy, brute-force optimum)
    exact_ratio = None
    if witness_inst is not None:
        run = E.greedy_run(witness_inst, k)
        exact_ratio = run.revenues[-1] / E.optimum(witness_inst, k)[1]
    return {"sizes": {"ads": m, "contexts": n, "k": k}, "worst_ratio": best, "bound": ratio_bound(k),
            "exact_twin_ratio_on_witness": exact_ratio, "below_bound": best is not None and best < ratio_bound(k)}


def search_increasing_benefit(m: int, n: int, k: int, timeout_ms: int = 60_000) -> SearchResult:
    """Counterexample to the step of Theorem 8's proof: along a greedy run the benefits never
    increase (``b_{l+1} <= b_l``), so once a benefit is <= α no later one exceeds α."""

    def build(s: Any) -> Any:
        u = _vars(s, m, n)
        _greedy_constraints(s, u, m, k)
        rev = [_rev(u, list(range(l))) for l in range(k + 1)]
        s.add(z3.Or([rev[l + 1] - rev[l] > rev[l] - rev[l - 1] for l in range(1, k)]))
        return u

    def verify(inst: AdInstance | None) -> bool:
        if inst is None or not is_greedy_order(inst, tuple(range(k))):
            return False
        rev = [E.expected_revenue(inst, range(l)) for l in range(k + 1)]
        return any(rev[l + 1] - rev[l] > rev[l] - rev[l - 1] for l in range(1, k))

    return z3_search(build, decode, verify, bound=f"all real instances with |A|={m}, {n} contexts, greedy runs of length {k}",
                     encoding="z3 LRA+ite value matrix, greedy run 0..k-1 (any ties)", timeout_ms=timeout_ms)
