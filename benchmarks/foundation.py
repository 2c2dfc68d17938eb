"""Foundation benchmarks: the exact rational backend (gmpy2.mpq vs fractions.Fraction), and the
exact vs fast finite-mechanism checkers."""

from __future__ import annotations

from fractions import Fraction

from benchmarks import Measurement, benchmark, median_seconds


def _belief_recursion(Q, n: int = 12, T: int = 24) -> object:
    """A forward recursion like MaskIt's prior beliefs: n-state chain with dense rational rows."""
    rows = [[Q(1 + (i * 7 + j * 3) % 5, 1) for j in range(n)] for i in range(n)]
    rows = [[x / sum(r, Q(0)) for x in r] for r in rows]
    v = [Q(1, n)] * n
    for _ in range(T):
        v = [sum((v[i] * rows[i][j] for i in range(n)), Q(0)) for j in range(n)]
    return v[0]


@benchmark("rational backend: gmpy2.mpq vs Fraction (belief recursion n=12, T=24)", "dp")
def rational_backend() -> Measurement:
    try:
        import gmpy2
    except ImportError:
        return Measurement(float("nan"), "s", notes="gmpy2 not installed; Fraction is used")
    t_mpq = median_seconds(lambda: _belief_recursion(gmpy2.mpq), repeat=3)
    t_frac = median_seconds(lambda: _belief_recursion(Fraction), repeat=3)
    return Measurement(t_mpq, "s", baseline=t_frac, notes="ratio = Fraction time / mpq time")


@benchmark("finite mechanism checkers: fast vs exact (indistinguishability delta, 30 inputs x 40 outputs)", "dp")
def mechanism_checkers() -> Measurement:
    from privclaims.theory.dp import exact, fast
    from privclaims.theory.dp.mechanism import finite_mechanism
    from privclaims.theory.numbers import Q

    k, m = 30, 40
    dist = {}
    for i in range(k):
        w = [1 + (i * 13 + j * 7) % 11 for j in range(m)]
        dist[i] = {j: Q(x, sum(w)) for j, x in enumerate(w)}
    mech = finite_mechanism(dist, [(i, i + 1) for i in range(k - 1)])
    t_exact = median_seconds(lambda: exact.indistinguishability_delta(mech, "ln(2)"), repeat=3)
    t_fast = median_seconds(lambda: fast.indistinguishability_delta(mech, "ln(2)"), repeat=3)
    return Measurement(t_fast, "s", baseline=t_exact, notes="ratio = exact time / fast time")
