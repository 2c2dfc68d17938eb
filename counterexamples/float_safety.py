"""Float-safety campaign: does any fast twin's privacy decision err toward LESS privacy than the exact twin?

For each decision kind below the campaign draws instances (a share of them built to sit EXACTLY on, or
within a few ulps of, the decision boundary), asks both twins, and counts

* ``unsafe``: the fast twin releases / declares private where the exact twin does not (must be 0);
* ``extra_suppressions``: the fast twin suppresses / declares not private where the exact twin
  releases (the price of the conservative margin of :mod:`privclaims.theory.floats`; reported as a rate).

Decision kinds (exact reference in brackets):

``maskit.is_private``       Algorithm 3 (ISPRIVATE), fast vs exact; boundary: δ = the exact max gain, ± 2^-k.
``maskit.okay_to_release``  Algorithm 5 (okayToRelease), fast vs exact; boundary: δ = exact max gain of the check.
``maskit.underflow_is_private`` / ``maskit.underflow_okay``  the two above on chains with entries 10^-k moved into
                            their rows (k = 150..400), so that float priors, reach products and normalisers
                            underflow where the exact values are positive.
``zealous.release``         Step 5 (publish iff c + η > τ'), η = g K on the exact grid; boundary: τ' = c + g K.
``zealous.tau_prime``       τ' chosen by :func:`privclaims.theory.zealous.experiments.zealous_params` ≥ Theorem 14's least τ'
                            (interval arithmetic); boundary: δ built so the least τ' is within 1e-40 of a 1/1000 step.
``count.gaussian_private``  Definition 3 for the Gaussian mechanism, fast (ndtr) vs rigorous; boundary: δ = float breach ± ulps.
``count.theorem1``          Theorem 1 holds at (ε, δ); boundary: ε within ulps of the largest ε that still holds.
``count.sigma2``            the float σ² of Theorem 1 used by simulations is ≥ 2 s² ln(4/δ)/ε² (rigorous).
``querygen.g_min``          G(Q̂, a) = num/N ≥ G_min, fast integer test vs exact rational; boundary: num q = p N.
``dp.pure``                 Definition 2 checker on finite mechanisms; boundary: p = e^ε q exactly (e^ε rational).
``dp.indistinguishable``    Definition 4 checker; boundary: δ = the exact hockey-stick divergence.
``dp.probabilistic``        Definition 3 checker (both quantifiers); boundary: outputs with p = e^ε q, δ = exact breach mass.

The ads area makes no float privacy decision: its privacy cut (002 §2.1, :func:`privclaims.theory.ads.hierarchy.choose_cut`)
counts leaves exactly (integers and rationals) and has no fast twin; its fast twin only ranks ads by revenue.

Count's protocol parameters (:class:`privclaims.theory.count.model.CountParams`) are exact rationals in both twins
and the protocol's noise is the exact discrete Gaussian, so there is no float decision to test there.

Sizes: :func:`default_size` gives 100,000 instances per kind under ``HYPOTHESIS_PROFILE=thorough``
(or ``python -m privclaims.counterexamples.float_safety --thorough``), fewer under ``dev``/``ci``/quick ledger runs.
The figures of a thorough run are recorded in ``counterexamples/float_safety_thorough.json``.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import Any, Callable, Iterator

import numpy as np

from privclaims.theory.errors import InvalidInput, UndecidedComparison
from privclaims.theory.numbers import Q

SIZES = {"quick": 300, "dev": 1_000, "ci": 3_000, "thorough": 100_000}
# exact decisions that cost many milliseconds (interval arithmetic at rising precision): a share of the size.
# Under ``thorough``, count.gaussian_private (~0.03-0.1 s per exact decision) runs 5,000 instances per seed; the
# recorded thorough figures pool 11 seeds (105,000 instances).
SHARE = {
    "quick": {"maskit.is_private": 0.7, "querygen.g_min": 0.7, "zealous.tau_prime": 0.3, "count.theorem1": 0.15,
              "count.gaussian_private": 0.02},
    "dev": {"zealous.tau_prime": 0.3, "count.theorem1": 0.1, "count.gaussian_private": 0.01},
    "ci": {"zealous.tau_prime": 0.3, "count.theorem1": 0.1, "count.gaussian_private": 0.01},
    "thorough": {"count.gaussian_private": 0.05},
}


def default_size(profile: str | None = None) -> int:
    return SIZES.get(profile or os.environ.get("HYPOTHESIS_PROFILE", "dev"), SIZES["dev"])


def kind_size(kind: str, profile: str, size: int | None = None) -> int:
    """Instances of ``kind`` under ``profile`` (``size`` overrides the profile's base size)."""
    base = size if size is not None else default_size(profile)
    return max(1, int(base * SHARE.get(profile, {}).get(kind, 1.0)))


@dataclass
class KindResult:
    kind: str
    instances: int = 0
    boundary: int = 0
    unsafe: int = 0
    extra_suppressions: int = 0
    exact_private: int = 0
    exact_private_off_boundary: int = 0
    extra_suppressions_off_boundary: int = 0
    undecided_exact: int = 0
    witnesses: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def extra_suppression_rate(self) -> float:
        return self.extra_suppressions / self.exact_private if self.exact_private else 0.0

    def record(self, exact_ok: bool, fast_ok: bool, boundary: bool, witness: Callable[[], Any]) -> None:
        self.instances += 1
        self.boundary += bool(boundary)
        if exact_ok:
            self.exact_private += 1
            self.exact_private_off_boundary += not boundary
            if not fast_ok:
                self.extra_suppressions += 1
                self.extra_suppressions_off_boundary += not boundary
        elif fast_ok:
            self.unsafe += 1
            if len(self.witnesses) < 3:
                self.witnesses.append(witness())

    def as_row(self) -> dict[str, Any]:
        d = asdict(self)
        d["extra_suppression_rate"] = round(self.extra_suppression_rate, 6)
        off = self.exact_private_off_boundary
        d["extra_suppression_rate_off_boundary"] = round(self.extra_suppressions_off_boundary / off, 6) if off else 0.0
        d["seconds"] = round(self.seconds, 3)
        return d


def _tiny_offsets() -> list[tuple[Fraction, bool]]:
    """(offset, is_boundary): 0 exactly, then ± 2^-k for k around the float64 precision."""
    out = [(Q(0), True)]
    for k in (30, 45, 52, 53, 60, 80):
        out += [(Q(1, 2 ** k), True), (-Q(1, 2 ** k), True)]
    return out


OFFSETS = _tiny_offsets()


def _rand_dist(rng: np.random.Generator, n: int, den: int) -> list[Fraction]:
    """A random exact distribution on n points with denominators dividing ``den``."""
    cuts = sorted(int(x) for x in rng.integers(0, den + 1, size=n - 1))
    pts = [0] + cuts + [den]
    return [Q(pts[i + 1] - pts[i], den) for i in range(n)]


# ------------------------------------------------------------------------------------------ MaskIt


def _maskit_instance(rng: np.random.Generator):
    from privclaims.theory.maskit.model import markov_chain

    n = int(rng.integers(2, 4))
    T = int(rng.integers(2, 4))
    den = int(rng.choice([3, 4, 5, 7, 12, 1000, 2 ** 20 + 1]))
    ctx = [f"c{i}" for i in range(n)]
    ch = markov_chain(ctx, _rand_dist(rng, n, den), [[_rand_dist(rng, n, den) for _ in range(n)] for _ in range(T - 1)])
    d = int(rng.choice([3, 4, 10]))
    p = [[Q(int(rng.integers(0, d + 1)), d) for _ in range(n)] for _ in range(T)]
    S = sorted(rng.choice(ctx, size=int(rng.integers(1, n)), replace=False).tolist())
    return ch, p, S


def _maskit_underflow_instance(rng: np.random.Generator):
    """A :func:`_maskit_instance` whose distributions (A^(1) and each row) move, with probability 1/2, a mass
    10^-k (k in ``TINY_EXPONENTS``) from a positive entry to another one (:func:`shift_tiny`): products along
    a path of such entries underflow float64 (10^-400 < 2^-1074) while their exact values are positive."""
    from privclaims.counterexamples.maskit_strategies import TINY_EXPONENTS, shift_tiny
    from privclaims.theory.maskit.model import markov_chain

    ch, p, S = _maskit_instance(rng)

    def tiny(row):
        row = list(row)
        if rng.random() < 0.5:
            src = int(rng.choice([j for j, x in enumerate(row) if x > 0]))
            dst = int(rng.choice([j for j in range(len(row)) if j != src]))
            row = shift_tiny(row, src, dst, int(rng.choice(TINY_EXPONENTS)))
        return row

    steps = [[tiny(r) for r in m] for m in ch.steps]
    return markov_chain(ch.contexts, tiny(ch.initial), steps), p, S


def _deltas(g: Fraction, rng: np.random.Generator, extra: int) -> Iterator[tuple[Fraction, bool]]:
    for off, b in OFFSETS:
        yield g + off, b
    for _ in range(extra):
        yield Q(int(rng.integers(1, 10 ** 6)), 10 ** 6), False


def maskit_is_private(n: int, seed: int, kind: str = "maskit.is_private", stream: int = 1,
                      instance: Callable = _maskit_instance) -> KindResult:
    from privclaims.theory.maskit import exact, fast

    res, rng = KindResult(kind), np.random.default_rng([seed, stream])
    while res.instances < n:
        ch, p, S = instance(rng)
        g = Q(exact.max_breach(ch, p, S).gain)
        for delta, b in _deltas(g, rng, 3):
            if not 0 < delta < 1 or res.instances >= n:
                continue
            ok_e = g <= delta
            ok_f = fast.is_private(ch, p, S, delta)
            res.record(ok_e, ok_f, b, lambda: {"chain": repr(ch), "p": repr(p), "S": S, "delta": str(delta)})
    return res


def _okay_gain(chain, S, prefix) -> Fraction:
    """The largest ``posterior - prior`` okayToRelease (Algorithm 5) compares with δ, exactly."""
    from privclaims.theory.maskit import exact
    from privclaims.theory.maskit.model import sensitive_indices

    sens = sensitive_indices(chain, S)
    rel = exact.releases(prefix)
    t_last, i_last = rel[-1] if rel else (0, None)
    t_now = len(prefix) + 1
    pri = exact.prior_beliefs(chain)
    best = None
    for j in exact.possible_states(chain, t_last, i_last, t_now):
        marks = [(0, None)] + rel + [(t_now, j), (chain.T + 1, None)]
        for s in sens:
            for t in range(t_last + 1, chain.T + 1):
                k = max(idx for idx, (tm, _) in enumerate(marks) if tm <= t)
                t1, i1 = marks[k]
                t2, j2 = marks[k + 1] if t1 < t else marks[k]
                gnow = Q(exact.simulatable_posterior(chain, t, s, t1, i1, t2, j2) - pri[t - 1][s])
                best = gnow if best is None or gnow > best else best
    return best


def maskit_okay_to_release(n: int, seed: int, kind: str = "maskit.okay_to_release", stream: int = 2,
                           instance: Callable = _maskit_instance) -> KindResult:
    from privclaims.theory.maskit import exact, fast

    res, rng = KindResult(kind), np.random.default_rng([seed, stream])
    while res.instances < n:
        ch, _, S = instance(rng)
        L = int(rng.integers(0, ch.T))
        prefix = [None] * L
        if L and rng.random() < 0.7:
            t = int(rng.integers(1, L + 1))
            prefix[t - 1] = int(np.nonzero([x > 0 for x in exact.prior_beliefs(ch)[t - 1]])[0][0])
        try:
            g = _okay_gain(ch, S, prefix)
        except InvalidInput:
            continue
        if g is None:
            continue
        if 0 < g < 1:  # the mirror above must agree with the exact twin itself at the boundary
            assert exact.okay_to_release(ch, S, g, prefix), "okayToRelease mirror disagrees with the exact twin"
        for delta, b in _deltas(g, rng, 2):
            if not 0 < delta < 1 or res.instances >= n:
                continue
            ok_f = fast.okay_to_release(ch, S, delta, prefix)
            res.record(g <= delta, ok_f, b, lambda: {"chain": repr(ch), "S": S, "prefix": prefix, "delta": str(delta)})
    return res


def maskit_underflow_is_private(n: int, seed: int) -> KindResult:
    return maskit_is_private(n, seed, "maskit.underflow_is_private", 3, _maskit_underflow_instance)


def maskit_underflow_okay(n: int, seed: int) -> KindResult:
    return maskit_okay_to_release(n, seed, "maskit.underflow_okay", 4, _maskit_underflow_instance)


# ----------------------------------------------------------------------------------------- ZEALOUS


def zealous_release(n: int, seed: int) -> KindResult:
    """Step 5 on the exact noise grid: vectorised fast decisions vs exact rational comparisons."""
    from privclaims.theory.zealous import exact, fast

    res, rng = KindResult("zealous.release"), np.random.default_rng([seed, 3])
    g = Q(1, 1024)
    while res.instances < n:
        m = min(20_000, n - res.instances)
        huge = rng.random(m) < 0.1
        c = np.where(huge, rng.integers(2 ** 50, 2 ** 62, size=m), rng.integers(1, 10 ** 6, size=m))
        K = rng.integers(-50_000, 50_000, size=m)
        kind = rng.integers(0, 4, size=m)  # 0: tau' = c + gK exactly; 1: +- one grid step; 2: +- 2^-k; 3: random
        taus = []
        for ci, ki, kd in zip(c.tolist(), K.tolist(), kind.tolist()):
            base = ci + g * ki
            if kd == 0:
                tp = base
            elif kd == 1:
                tp = base + g * int(rng.choice([-1, 1]))
            elif kd == 2:
                tp = base + Q(int(rng.choice([-1, 1])), 2 ** int(rng.integers(11, 70)))
            else:
                tp = Q(int(rng.integers(1, 2 * 10 ** 6)), int(rng.choice([1, 3, 1000])))
            taus.append(tp)
        fast_ok = fast.survives(c, K, g, taus)
        for i in range(m):
            ok_e = exact.survives(int(c[i]), int(K[i]), g, taus[i])
            res.record(ok_e, bool(fast_ok[i]), kind[i] < 3,
                       lambda i=i: {"count": int(c[i]), "K": int(K[i]), "granularity": str(g), "tau_prime": str(taus[i])})
    return res


def zealous_tau_prime(n: int, seed: int) -> KindResult:
    """Is the τ' that :func:`zealous_params` picks ≥ Theorem 14's least τ' (decided with intervals)?"""
    import mpmath

    from privclaims.theory.numbers import rigorous_sign, to_interval
    from privclaims.theory.zealous.experiments import zealous_params
    from privclaims.theory.zealous.parameters import prop12_tau, thm14_first_gap, thm14_min_tau_prime

    res, rng = KindResult("zealous.tau_prime"), np.random.default_rng([seed, 4])
    while res.instances < n:
        U = int(rng.integers(10, 10 ** 7))
        m = int(rng.integers(1, 20))
        eps = Q(int(rng.integers(1, 40)), 10)
        tau = prop12_tau(m, eps)
        lam = 2 * m / eps
        boundary = rng.random() < 0.7
        if boundary:  # delta so that the least tau' is (almost) exactly k/1000
            with mpmath.workdps(60):
                first = thm14_first_gap(lam, mpmath.mp)
                floor_tp = max(float(first), float(lam) * math.log(U * m / (2 * tau)))  # delta* < 1 beyond this
                k = math.ceil((tau + floor_tp) * 1000) + int(rng.integers(1, 40_000))
                dstar = mpmath.mpf(U) * m / (2 * tau) * mpmath.exp(-(mpmath.mpf(k) / 1000 - tau) / (mpmath.mpf(lam.numerator) / lam.denominator))
                if not 0 < dstar < 1:
                    continue
                fr = Q(mpmath.nstr(dstar, 50))
            delta = fr + Q(int(rng.integers(-3, 4)), 10 ** 55)
        else:
            delta = Q(int(rng.integers(1, 10 ** 6)), 10 ** 7)
        if not 0 < delta < 1:
            continue
        try:
            tp_q = Q(zealous_params(U, m, eps, delta).tau_prime)
        except InvalidInput:
            continue
        try:
            ok_e = rigorous_sign(lambda c: to_interval(tp_q, c) - thm14_min_tau_prime(U, m, eps, delta, tau, c), max_prec=4096) >= 0
        except UndecidedComparison:
            res.undecided_exact += 1
            continue
        # the fast twin "releases" whenever it hands out parameters: its decision is always "private"
        res.record(ok_e, True, boundary, lambda: {"U": U, "m": m, "eps": str(eps), "delta": str(delta), "tau_prime": str(tp_q)})
    return res


# ------------------------------------------------------------------------------------------- Count


def count_gaussian_private(n: int, seed: int) -> KindResult:
    from privclaims.theory.count import exact_privacy as ex
    from privclaims.theory.count import fast_privacy as fa

    res, rng = KindResult("count.gaussian_private"), np.random.default_rng([seed, 5])
    while res.instances < n:
        eps = Q(int(rng.integers(1, 300)), 100)
        s2 = Q(int(rng.integers(1, 10 ** 4)), int(rng.integers(1, 100)))
        s = Q(int(rng.integers(1, 5)))
        bf = float(fa.breach_probability(eps, s2, s))
        if not 1e-300 < bf < 1:
            continue
        boundary = rng.random() < 0.7
        if boundary:
            ulps = int(rng.integers(-4, 5))
            delta = Q(bf + ulps * math.ulp(bf))
        else:
            delta = Q(int(rng.integers(1, 10 ** 6)), 10 ** 6)
        if not 0 < delta < 1:
            continue
        try:
            ok_e = ex.is_probabilistically_private(eps, delta, s2, s)
        except UndecidedComparison:
            res.undecided_exact += 1
            continue
        ok_f = bool(fa.is_probabilistically_private(eps, delta, s2, s))
        res.record(ok_e, ok_f, boundary, lambda: {"eps": str(eps), "delta": str(delta), "sigma2": str(s2), "s": str(s)})
    return res


def count_theorem1(n: int, seed: int) -> KindResult:
    from privclaims.theory.count import exact_privacy as ex
    from privclaims.theory.count import fast_privacy as fa

    res, rng = KindResult("count.theorem1"), np.random.default_rng([seed, 6])
    cache: dict = {}
    while res.instances < n:
        delta = Q(int(rng.integers(1, 999)), 1000)
        if delta not in cache:  # the float eps* where Theorem 1 stops holding (bisection on the fast breach)
            a, b = 0.5, 64.0
            if fa.theorem1_breach(a, float(delta)) > float(delta) or fa.theorem1_breach(b, float(delta)) <= float(delta):
                cache[delta] = None
            else:
                for _ in range(80):
                    mid = (a + b) / 2
                    a, b = (mid, b) if fa.theorem1_breach(mid, float(delta)) <= float(delta) else (a, mid)
                cache[delta] = a
        star = cache[delta]
        boundary = star is not None and rng.random() < 0.7
        if boundary:
            eps = Q(star + int(rng.integers(-6, 7)) * math.ulp(star))
        else:
            eps = Q(int(rng.integers(1, 6400)), 100)
        try:
            ok_e = ex.theorem1_holds(eps, delta)
        except UndecidedComparison:
            res.undecided_exact += 1
            continue
        ok_f = bool(fa.theorem1_holds(eps, delta))
        res.record(ok_e, ok_f, boundary, lambda: {"eps": str(eps), "delta": str(delta)})
    return res


def count_sigma2(n: int, seed: int) -> KindResult:
    from privclaims.theory.count.model import theorem1_sigma2_float
    from privclaims.theory.numbers import rigorous_sign, to_interval

    res, rng = KindResult("count.sigma2"), np.random.default_rng([seed, 7])
    while res.instances < n:
        eps = float(int(rng.integers(1, 1000))) / 100
        delta = float(int(rng.integers(1, 10 ** 6))) / 10 ** 6
        s = float(int(rng.integers(1, 8)))
        s2 = theorem1_sigma2_float(eps, delta, s)
        e, d, sv, got = Q(eps), Q(delta), Q(s), Q(s2)
        ok_e = rigorous_sign(lambda c: to_interval(got, c) - 2 * to_interval(sv * sv, c) * c.log(4 / to_interval(d, c)) / to_interval(e * e, c)) >= 0
        res.record(ok_e, True, True, lambda: {"eps": eps, "delta": delta, "s": s, "sigma2": s2})
    return res


# ---------------------------------------------------------------------------------------- querygen


def querygen_g_min(n: int, seed: int) -> KindResult:
    from privclaims.theory.querygen import exact, fast

    res, rng = KindResult("querygen.g_min"), np.random.default_rng([seed, 8])
    while res.instances < n:
        m = min(20_000, n - res.instances)
        q = rng.integers(1, 1000, size=m)
        p = q + rng.integers(0, 5000, size=m)
        nn = rng.integers(0, 10 ** 6, size=m)
        boundary = rng.random(m) < 0.6
        num = np.where(boundary, (p * nn) // q + rng.integers(-1, 2, size=m), rng.integers(0, 10 ** 9, size=m))
        huge = rng.random(m) < 0.02
        for i in range(m):
            g = Q(int(p[i]), int(q[i]))
            a, b = int(num[i]), int(nn[i])
            if huge[i]:
                a, b = a * 2 ** 50 + 1, b * 2 ** 50
            ok_f = bool(fast.meets_g_min(np.array([a], dtype=object) if huge[i] else a, b, g))
            res.record(exact.meets_g_min(a, b, g), ok_f, bool(boundary[i]), lambda: {"num": a, "n": b, "g_min": str(g)})
    return res


# ---------------------------------------------------------------------------------------------- dp


def _two_input_mechanism(rng: np.random.Generator, ratio: Fraction | None):
    from privclaims.theory.dp.mechanism import finite_mechanism

    k = int(rng.integers(2, 5))
    den = int(rng.choice([7, 100, 2 ** 30 + 3]))
    P = _rand_dist(rng, k, den)
    if ratio is not None:  # Q with Q[0] = P[0] / ratio exactly, the rest rescaled
        q0 = P[0] / ratio
        rest = sum(P[1:])
        Qd = [q0] + ([x * (1 - q0) / rest for x in P[1:]] if rest else [(1 - q0) / (k - 1)] * (k - 1))
    else:
        Qd = _rand_dist(rng, k, den)
    return finite_mechanism({"L": dict(enumerate(P)), "L'": dict(enumerate(Qd))}, [("L", "L'")])


def _mechanisms_near_ratio(rng: np.random.Generator, res: KindResult, n: int):
    """``(r, boundary, mechanism)`` until ``res`` holds ``n`` instances: a ratio r in [101/100, 399/100] and, with
    probability 0.7 (``boundary``), a two-input mechanism with an output exactly at p = r q, else a random one;
    a draw the mechanism's validation refuses is skipped."""
    while res.instances < n:
        r = Q(int(rng.integers(101, 400)), 100)
        boundary = rng.random() < 0.7
        try:
            mech = _two_input_mechanism(rng, r if boundary else None)
        except InvalidInput:
            continue
        yield r, boundary, mech


def dp_pure(n: int, seed: int) -> KindResult:
    from privclaims.theory.dp import exact, fast

    res, rng = KindResult("dp.pure"), np.random.default_rng([seed, 9])
    for r, boundary, mech in _mechanisms_near_ratio(rng, res, n):
        for eps in (f"ln({r})", f"ln({r - Q(1, 2 ** 60)})", f"ln({r + Q(1, 2 ** 60)})"):
            ok_e = exact.is_differentially_private(mech, eps)
            ok_f = fast.is_differentially_private(mech, eps)
            res.record(ok_e, ok_f, boundary, lambda: {"mechanism": mech.as_json(), "eps": eps})
    return res


def dp_indistinguishable(n: int, seed: int) -> KindResult:
    from privclaims.theory.dp import exact, fast

    res, rng = KindResult("dp.indistinguishable"), np.random.default_rng([seed, 10])
    while res.instances < n:
        eps = f"ln({Q(int(rng.integers(100, 300)), 100)})"
        try:
            mech = _two_input_mechanism(rng, None)
        except InvalidInput:
            continue
        h, _ = exact.indistinguishability_delta(mech, eps)
        hq = Q(Q(h.a) - h.eps.exp_value * Q(h.b))  # e^eps rational: the divergence is rational
        base = hq if hq is not None and 0 < hq < 1 else None
        cands = [(base + off, True) for off, _ in OFFSETS] if base is not None else []
        cands.append((Q(int(rng.integers(1, 1000)), 1000), False))
        for delta, b in cands:
            if not 0 < delta < 1:
                continue
            ok_e = exact.is_indistinguishable(mech, eps, delta)
            ok_f = fast.is_indistinguishable(mech, eps, delta)
            res.record(ok_e, ok_f, b, lambda: {"mechanism": mech.as_json(), "eps": eps, "delta": str(delta)})
    return res


def dp_probabilistic(n: int, seed: int) -> KindResult:
    """Definition 3 checker; mechanisms with outputs exactly on p = e^eps q (the breach boundary) and
    delta = the exact breach mass +- 2^-k."""
    from privclaims.theory.dp import exact, fast

    res, rng = KindResult("dp.probabilistic"), np.random.default_rng([seed, 11])
    for r, boundary, mech in _mechanisms_near_ratio(rng, res, n):
        eps = f"ln({r})"
        quant = "pair" if rng.random() < 0.5 else "input"
        d0 = Q(exact.probabilistic_dp_delta(mech, eps, quant)[0])
        cands = [(d0 + off, True) for off, _ in OFFSETS] + [(Q(int(rng.integers(1, 1000)), 1000), False)]
        for delta, b in cands:
            if not 0 < delta < 1:
                continue
            ok_e = exact.is_probabilistically_private(mech, eps, delta, quant)
            ok_f = fast.is_probabilistically_private(mech, eps, delta, quant)
            res.record(ok_e, ok_f, b or boundary, lambda: {"mechanism": mech.as_json(), "eps": eps, "delta": str(delta), "quantifier": quant})
    return res


KINDS: dict[str, Callable[[int, int], KindResult]] = {
    "maskit.is_private": maskit_is_private,
    "maskit.okay_to_release": maskit_okay_to_release,
    "maskit.underflow_is_private": maskit_underflow_is_private,
    "maskit.underflow_okay": maskit_underflow_okay,
    "zealous.release": zealous_release,
    "zealous.tau_prime": zealous_tau_prime,
    "count.gaussian_private": count_gaussian_private,
    "count.theorem1": count_theorem1,
    "count.sigma2": count_sigma2,
    "querygen.g_min": querygen_g_min,
    "dp.pure": dp_pure,
    "dp.indistinguishable": dp_indistinguishable,
    "dp.probabilistic": dp_probabilistic,
}

def campaign(profile: str, seed: int, kinds: list[str] | None = None, size: int | None = None) -> list[KindResult]:
    """Run the decision kinds (all by default) with the profile's sizes."""
    out = []
    for name in kinds or list(KINDS):
        t0 = time.perf_counter()
        r = KINDS[name](kind_size(name, profile, size), seed)
        r.seconds = time.perf_counter() - t0
        out.append(r)
    return out


def safety_section(results: list[KindResult], seed: int, profile: str, noise: bool = True) -> dict[str, Any]:
    """The ledger's additive ``"safety"`` section (with ``noise``: Mironov's attack, counterexamples/mironov.py)."""
    sec: dict[str, Any] = {"seed": seed, "profile": profile, "kinds": [r.as_row() for r in results],
                           "unsafe_total": sum(r.unsafe for r in results)}
    if noise:
        from privclaims.counterexamples.mironov import attack_summary

        sec["noise"] = attack_summary(seed)
    return sec


def main(argv: list[str] | None = None) -> int:
    import argparse
    import json

    ap = argparse.ArgumentParser(prog="python -m privclaims.counterexamples.float_safety", description=__doc__.splitlines()[0])
    ap.add_argument("--thorough", action="store_true", help="100,000 instances per kind")
    ap.add_argument("--size", type=int)
    ap.add_argument("--seed", type=int, default=20261121)
    ap.add_argument("--kind", action="append", choices=list(KINDS))
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    profile = "thorough" if args.thorough else os.environ.get("HYPOTHESIS_PROFILE", "dev")
    print(f"float-safety campaign: seed {args.seed}, profile {profile}, base size {args.size or default_size(profile)}")
    results = []
    for name in args.kind or list(KINDS):
        r = campaign(profile, args.seed, [name], args.size)[0]
        results.append(r)
        print(f"{r.kind:26s} n={r.instances:7d} boundary={r.boundary:7d} unsafe={r.unsafe} "
              f"extra={r.extra_suppressions} ({r.extra_suppression_rate:.4%} of exact-private; "
              f"{r.as_row()['extra_suppression_rate_off_boundary']:.4%} off the boundary) undecided={r.undecided_exact} "
              f"{r.seconds:.1f} s", flush=True)
        for w in r.witnesses:
            print("   UNSAFE witness:", w)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(safety_section(results, args.seed, profile), f, indent=1, default=str)
    return 1 if any(r.unsafe for r in results) else 0


if __name__ == "__main__":
    raise SystemExit(main())
