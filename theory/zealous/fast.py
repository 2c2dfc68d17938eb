"""ZEALOUS, fast twin (numpy float64), same signatures as :mod:`privclaims.theory.zealous.exact`.

Noise: integer-grid discrete Laplace, so every released count is ``c + g K`` on the exact grid: no
float low bits carry information about ``c`` (the Mironov 2012 leak of ``c + lambda * log(U)``,
counterexamples/mironov.py). :func:`zealous` (the release path, used by the experiments) draws K with the
EXACT sampler of :mod:`privclaims.theory.noise.laplace` (CKS 2020, random bits and rationals only, ~0.3 ms a draw).
:func:`zealous_counts` (vectorised benchmark scale, millions of items) draws ``K = G1 - G2`` with numpy
geometrics (``r = e^{-g/lambda}``): on the grid too, but numpy rounds its inverse CDF in float64, so that
law is exact only up to ~1e-16 relative error.
"""

from __future__ import annotations

from typing import Any, Hashable, Mapping

import numpy as np

from privclaims.theory.errors import InvalidInput
from privclaims.theory.floats import certainly_le
from privclaims.theory.zealous.exact import DEFAULT_GRANULARITY
from privclaims.theory.zealous.histograms import histogram, select_items, user_items
from privclaims.theory.validate import float_exact_counts
from privclaims.theory.zealous.model import SearchLog, ZealousParams, check_run, count_array, user_counts


def _lam(params: ZealousParams) -> float:
    return params.lam_float


def laplace_tail_above(x: np.ndarray | float, rho: float) -> np.ndarray:
    """Pr[eta > x] for eta ~ Lap(lambda), rho = e^{-1/lambda}: 1/2 rho^x (x >= 0), 1 - 1/2 rho^{-x} (vectorised)."""
    x = np.asarray(x, dtype=np.float64)
    t = 0.5 * np.exp(np.abs(x) * np.log(float(rho)))
    return np.where(x >= 0, t, 1 - t)


def release_probability(count: np.ndarray | int, params: ZealousParams) -> np.ndarray:
    check_run(params, 0, 1)
    count = count_array(count)
    c = np.asarray(count, dtype=np.float64)
    p = laplace_tail_above(float(params.tau_prime) - c, np.exp(-1.0 / _lam(params)))
    return np.where(c < float(params.tau), 0.0, p)


def release_distribution(hist: Mapping[Hashable, int], params: ZealousParams) -> dict[frozenset, float]:
    hist = user_counts(hist)
    keys = sorted(hist, key=repr)
    p = release_probability(np.array([hist[k] for k in keys]), params)
    sure = [k for k, pk in zip(keys, p) if pk == 1.0]
    rnd = [(k, pk) for k, pk in zip(keys, p) if 0.0 < pk < 1.0]
    n = len(rnd)
    out: dict[frozenset, float] = {}
    if n == 0:
        return {frozenset(sure): 1.0}
    bits = (np.arange(2 ** n)[:, None] >> np.arange(n)[::-1]) & 1
    pv = np.array([pk for _, pk in rnd])
    probs = np.prod(np.where(bits == 1, pv, 1 - pv), axis=1)
    for row, pr in zip(bits, probs):
        out[frozenset(sure + [k for (k, _), b in zip(rnd, row) if b])] = float(pr)
    return out


def sample_steps(n: int, lam: float, granularity: float, rng: np.random.Generator) -> np.ndarray:
    """n draws of K = G1 - G2 (integers): the grid Laplace noise is ``granularity * K``."""
    r = np.exp(-granularity / lam)
    g1 = rng.geometric(1 - r, size=n) - 1
    g2 = rng.geometric(1 - r, size=n) - 1
    return g1 - g2


def sample_noise(n: int, lam: float, granularity: float, rng: np.random.Generator) -> np.ndarray:
    """n draws of grid Laplace noise g * (G1 - G2)."""
    return granularity * sample_steps(n, lam, granularity, rng).astype(np.float64)


def survives(counts: np.ndarray, steps: np.ndarray, granularity: Any, tau_prime: Any) -> np.ndarray:
    """Step 5, vectorised: ``counts + granularity * steps > tau'`` (``tau_prime`` a number or a sequence).

    Conservative (:func:`privclaims.theory.floats.certainly_le`): published only when tau' is below the noisy count
    by more than the rounding margin. Counts beyond 2^53 are not exact in float64; a plain ``>`` then
    published items whose exact noisy count is <= tau' (float_safety kind ``zealous.release``).
    """
    c = np.asarray(counts, dtype=np.float64)
    tp = np.array([float(x) for x in tau_prime]) if np.ndim(tau_prime) else float(tau_prime)
    noisy = c + float(granularity) * np.asarray(steps, dtype=np.float64)
    return np.asarray(certainly_le(tp, noisy, noisy)) & (noisy > tp)


def exact_steps(n: int, params: ZealousParams, granularity: Any, seed: int) -> np.ndarray:
    """n exact draws of K, ``Pr[K = k] ∝ e^{-|k| g/lambda}`` (:func:`privclaims.theory.noise.laplace.discrete_laplace`)."""
    from privclaims.theory.noise.laplace import BitSource, discrete_laplace
    from privclaims.theory.numbers import Q, as_rational

    if params.lam is None:
        raise InvalidInput("sampling needs a rational lambda")
    scale = Q(params.lam) / as_rational(granularity, "granularity", allow_float=True)
    bits = BitSource(seed)
    return np.array([discrete_laplace(scale, bits) for _ in range(n)], dtype=np.int64)


def zealous(hist: Mapping[Hashable, int], params: ZealousParams, seed: int, granularity: Any = DEFAULT_GRANULARITY) -> dict[Hashable, float]:
    """Steps 3-6 on float64; counts beyond 2^53 are refused (their noisy value is not representable)."""
    check_run(params, seed, granularity)
    hist = user_counts(hist)
    float_exact_counts(list(hist.values()), "count")
    keys = [k for k in sorted(hist, key=repr) if hist[k] >= params.tau]
    c = np.array([hist[k] for k in keys], dtype=np.float64)
    k = exact_steps(len(keys), params, granularity, seed)
    noisy = c + float(granularity) * k
    keep = survives(c, k, granularity, params.tau_prime)
    return {k: float(v) for k, v, b in zip(keys, noisy, keep) if b}


def zealous_counts(counts: np.ndarray, params: ZealousParams, seed: int, granularity: float = float(DEFAULT_GRANULARITY)) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised Steps 3-5 on a count array: (indices kept, noisy counts); counts beyond 2^53 are refused."""
    check_run(params, seed, granularity)
    float_exact_counts(counts if isinstance(counts, np.ndarray) else list(np.ravel(np.asarray(counts, dtype=object))))
    counts = count_array(counts)
    idx = np.nonzero(counts >= float(params.tau))[0]
    k = sample_steps(len(idx), _lam(params), granularity, np.random.default_rng(seed))
    noisy = counts[idx] + granularity * k
    keep = survives(counts[idx], k, granularity, params.tau_prime)
    return idx[keep], noisy[keep]


def zealous_log(log: SearchLog, kind: str, params: ZealousParams, seed: int, session_gap: int = 1800) -> dict[Hashable, float]:
    selected = select_items(user_items(log, kind, session_gap), params.m, seed)
    return zealous(histogram(selected), params, seed)
