"""The law of Count's release, exactly (rational share law; 000 §5.4.1 correctness, Fact 1).

With honest available users H' (bits b_i, independent shares X_i of law ``share``) and malicious
contributions ``extra`` (their decrypted messages), the release is
``sum_{i in H'} (b_i + X_i) + extra`` (mod p, centred, when ``p`` is given): its law is the
``|H'|``-fold convolution of ``share`` shifted by ``sum b_i + extra``.
"""

from __future__ import annotations

from typing import Any, Sequence

from privclaims.theory.count.model import bits
from privclaims.theory.count.views import centered, sum_law
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import ZERO, distribution


def release_law(b: Sequence[int], available: Sequence[bool], share: dict, extra: int = 0, p: int | None = None) -> dict:
    """Exact law ``{value: probability}`` of the released noisy count."""
    bs = bits(b)
    if len(available) != len(bs):
        raise InvalidInput(f"{len(available)} availability flags for {len(bs)} users")
    law_share = distribution(share, "share law")
    n = sum(1 for a in available if a)
    base = sum(x for x, a in zip(bs, available) if a) + int(extra)
    out: dict = {}
    for x, q in sum_law(law_share, n).items():
        key = base + x if p is None else centered(base + x, p)
        out[key] = out.get(key, ZERO) + q
    return out


def law_variance(law: dict) -> Any:
    """Exact variance of a finite law."""
    mean = sum((x * q for x, q in law.items()), ZERO)
    return sum(((x - mean) ** 2 * q for x, q in law.items()), ZERO)
