"""Counterexample searches for the ZEALOUS chapter (000_211156f2009240b4.txt ch. 6).

* :func:`prop9_smt` - z3: is there a two-input mechanism with n outputs that is (eps, delta)-probabilistically
  DP (breaching outputs: ratio outside [e^-eps, e^eps]) but not (eps, delta)-indistinguishable?
  Linear real arithmetic with one Boolean per output (breach) and one per output (the set S).
* :func:`thm13_exhaustive` - every small parameter setting of Theorem 13 (tau = 1, lambda = 2m/eps',
  tau' at equality in (6.3)) against the exact least indistinguishability delta of ZEALOUS's
  published item set; a witness is re-verified by the literal subset reading of Definition 4.
"""

from __future__ import annotations

from itertools import product
from typing import Any

import z3

from privclaims.counterexamples.harness import SearchResult, exhaustive_search, model_rational, z3_search
from privclaims.theory.dp import exact as dpx
from privclaims.theory.dp.mechanism import finite_mechanism
from privclaims.theory.numbers import Epsilon, Q
from privclaims.theory.zealous.finite import small_domain, zealous_mechanism
from privclaims.theory.zealous.model import ZealousParams


def prop9_smt(n_outputs: int, exp_eps: Any, timeout_ms: int = 30_000) -> SearchResult:
    E = Q(exp_eps)

    def build(s: z3.Solver):
        Ez = z3.RealVal(f"{E.numerator}/{E.denominator}")  # made here: each search has a fresh z3 context
        p = [z3.Real(f"p{i}") for i in range(n_outputs)]
        q = [z3.Real(f"q{i}") for i in range(n_outputs)]
        S = [z3.Bool(f"s{i}") for i in range(n_outputs)]
        d = z3.Real("delta")
        s.add(*[x >= 0 for x in p + q], z3.Sum(p) == 1, z3.Sum(q) == 1, d >= 0, d < 1)
        breach = [z3.And(z3.Or(p[i] > Ez * q[i], q[i] > Ez * p[i])) for i in range(n_outputs)]
        # pDP for both ordered pairs (with two inputs the "pair" and "input" readings coincide)
        s.add(z3.Sum([z3.If(breach[i], p[i], 0) for i in range(n_outputs)]) <= d)
        s.add(z3.Sum([z3.If(breach[i], q[i], 0) for i in range(n_outputs)]) <= d)
        # not indistinguishable: some set S and some order violates the inequality
        viol_pq = z3.Sum([z3.If(S[i], p[i], 0) for i in range(n_outputs)]) > Ez * z3.Sum([z3.If(S[i], q[i], 0) for i in range(n_outputs)]) + d
        viol_qp = z3.Sum([z3.If(S[i], q[i], 0) for i in range(n_outputs)]) > Ez * z3.Sum([z3.If(S[i], p[i], 0) for i in range(n_outputs)]) + d
        s.add(z3.Or(viol_pq, viol_qp))
        return p, q, d

    def decode(model, vs):
        p, q, d = vs
        return {"p": [model_rational(model, x) for x in p], "q": [model_rational(model, x) for x in q], "delta": model_rational(model, d)}

    def verify(w):
        mech = finite_mechanism({0: dict(enumerate(w["p"])), 1: dict(enumerate(w["q"]))}, [(0, 1)])
        e = Epsilon.from_exp(E)
        return dpx.is_probabilistically_private(mech, e, w["delta"]) and not dpx.is_indistinguishable_by_subsets(mech, e, w["delta"])

    return z3_search(build, decode, verify, bound=f"2 neighbouring inputs, {n_outputs} outputs, e^eps = {E}",
                     encoding="QF_LRA + Booleans (breach set, violating set)", timeout_ms=timeout_ms)


def thm13_delta_prime(m: int, rho: Any, tau_prime: int, eps_factor: int = 2) -> Any:
    """(6.3) at equality, delta' = (m/2) e^{eps'(1 - tau'/m)}, with e^{eps'} = rho^{-eps_factor m} (lambda = m eps_factor/eps')."""
    return Q(m, 2) * Q(rho) ** (eps_factor * tau_prime - eps_factor * m)


def thm13_instances(eps_factor: int = 2):
    for m, rho, tp, users in product((1, 2), (Q(1, 2), Q(1, 3)), (2, 3, 4), (1, 2)):
        if m == 2 and users == 2 and tp > 3:
            continue
        yield m, rho, tp, users


def _thm13_violated(inst, eps_factor: int = 2) -> bool:
    m, rho, tp, users = inst
    mech = zealous_mechanism(small_domain(m), users, ZealousParams.of(m, None, 1, tp, rho=rho))
    return not dpx.indistinguishability_delta(mech, Epsilon.from_exp(Q(rho) ** (-eps_factor * m)))[0].le(thm13_delta_prime(m, rho, tp, eps_factor))


def _thm13_verify(inst, eps_factor: int = 2) -> bool:
    m, rho, tp, users = inst
    mech = zealous_mechanism(small_domain(m), users, ZealousParams.of(m, None, 1, tp, rho=rho))
    return not dpx.is_indistinguishable_by_subsets(mech, Epsilon.from_exp(Q(rho) ** (-eps_factor * m)), thm13_delta_prime(m, rho, tp, eps_factor))


def thm13_exhaustive(eps_factor: int = 2) -> SearchResult:
    """eps_factor = 2: Theorem 13 as printed (lambda = 2m/eps'); 1: lambda = m/eps' (Korolova et al.)."""
    return exhaustive_search(
        thm13_instances(eps_factor), lambda i: _thm13_violated(i, eps_factor),
        bound="m <= 2, U <= 2, |D| = 2m, rho in {1/2, 1/3}, tau' in 2..4 (published item sets)",
        encoding="exact finite mechanisms (rational rho = e^{-1/lambda})",
        verify=lambda i: _thm13_verify(i, eps_factor),
        describe=lambda i: {"m": i[0], "rho=e^(-1/lambda)": i[1], "tau_prime": i[2], "U": i[3], "tau": 1,
                            "delta_prime_(6.3)": thm13_delta_prime(i[0], i[1], i[2], eps_factor)},
    )
