"""Float64 twin of :mod:`privclaims.theory.count.exact_release`, plus the vectorised simulation of Count for
large N (no encryption: the release of Protocol 1 is ``sum_{H'} (b_i + X_i) + extra``, which the
encrypted runs reproduce exactly by correctness, 000 §5.4.1)."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from privclaims.theory.count.model import bits
from privclaims.theory.errors import InvalidInput


def release_law(b: Sequence[int], available: Sequence[bool], share: dict, extra: int = 0, p: int | None = None) -> dict:
    bs = bits(b)
    if len(available) != len(bs):
        raise InvalidInput(f"{len(available)} availability flags for {len(bs)} users")
    xs = sorted(share)
    lo = xs[0]
    vec = np.zeros(xs[-1] - lo + 1)
    for x in xs:
        vec[x - lo] = float(share[x])
    n = int(sum(1 for a in available if a))
    acc = np.array([1.0])
    for _ in range(n):
        acc = np.convolve(acc, vec)
    base = sum(x for x, a in zip(bs, available) if a) + int(extra) + n * lo
    out: dict = {}
    for i, q in enumerate(acc):
        if q == 0:
            continue
        v = base + i
        if p is not None:
            v %= p
            v = v - p if v > p // 2 else v
        out[v] = out.get(v, 0.0) + float(q)
    return out


def simulate_releases(b: np.ndarray, available: np.ndarray, share_sd: float, rng: np.random.Generator, discrete: bool = True) -> np.ndarray:
    """Vectorised Count for Q queries x N users: ``b``, ``available`` are (Q, N) arrays; each
    available user adds a share N(0, share_sd^2) (rounded to an integer when ``discrete``, a fast
    stand-in for the exact discrete Gaussian). Returns the Q releases."""
    b = np.asarray(b)
    if b.size and not np.isin(b, (0, 1)).all():
        raise InvalidInput("non-bit input to a bit count")
    noise = rng.normal(0.0, share_sd, size=b.shape)
    if discrete:
        noise = np.rint(noise)
    return ((b + noise) * np.asarray(available, bool)).sum(axis=-1)


def discrete_total_noise_breach(share_sigma2: float, n_shares: int, eps: float) -> float:
    """Numeric (float64) breach probability of Definition 3 for a bit count released with the sum of
    ``n_shares`` independent discrete Gaussians N_Z(0, share_sigma2) - the protocol's actual noise - for
    neighbours shifting the count by +-1: ``max_shift Pr_L[|ln f(o)/f'(o)| > eps or f'(o) = 0]``.
    The support is truncated at 12 standard deviations per share (mass beyond is below 1e-30)."""
    from privclaims.theory.noise.discrete_gaussian import discrete_gaussian_pmf_float

    k = int(12 * share_sigma2**0.5) + 12
    pmf = discrete_gaussian_pmf_float(share_sigma2, k)
    v = np.array([pmf[x] for x in sorted(pmf)])
    acc = np.array([1.0])
    for _ in range(n_shares):
        acc = np.convolve(acc, v)
    f = acc / acc.sum()
    worst = 0.0
    for shift in (1, -1):
        g = np.roll(f, shift)
        g[0 if shift == 1 else -1] = 0.0
        with np.errstate(divide="ignore", invalid="ignore"):
            loss = np.log(f / g)
        worst = max(worst, float(f[(g == 0) | (np.abs(loss) > eps)].sum()))
    return worst
