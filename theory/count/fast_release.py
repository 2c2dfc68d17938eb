"""Float64 twin of :mod:`theory.count.exact_release`, plus the vectorised simulation of Count for
large N (no encryption: the release of Protocol 1 is ``sum_{H'} (b_i + X_i) + extra``, which the
encrypted runs reproduce exactly by correctness, 000 §5.4.1)."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from theory.count.model import bits
from theory.errors import InvalidInput


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
