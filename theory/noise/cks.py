"""Canonne, Kamath and Steinke (2020) Algorithms 1 and 2 on integers: the one exact sampler core of the project.

Both exact noise samplers draw through these two functions: the grid Laplace noise of ZEALOUS
(:mod:`privclaims.theory.noise.laplace`, random bits from a :class:`~privclaims.theory.noise.laplace.BitSource`) and
the discrete Gaussian of the Count protocol (:mod:`privclaims.theory.noise.discrete_gaussian`, CKS Algorithm 3, whose
proposal is Algorithm 2 at an integer scale). Each takes ``below(n)``, a uniform integer on ``{0, ..., n - 1}``
(``BitSource.below`` or ``random.Random.randrange``), and integers only; the callers validate their arguments.

* :func:`bernoulli_exp` - Bernoulli(e^{-num/den}) (Algorithm 1): Bernoulli(e^{-1}) while more than 1 is left, then,
  for g = the rest in (0, 1] (or 0 for gamma = 0), Bernoulli(g/k) for k = 1, 2, ... until the first failure; the
  number of successes is even with probability e^{-g}. Bernoulli(p/q), p/q in lowest terms, is ``below(q) < p``.
  For an integer gamma >= 2 this is gamma - 1 draws of Bernoulli(e^{-1}) and a last one as the final step, where the
  paper's text draws floor(gamma) of them and then Bernoulli(e^{-0}) (always 1, one ``below(1)`` call): the same law,
  one uniform draw fewer. It is the order the project's samplers have always drawn in (the seeded pins hold it), and
  the Fraction reference of ``property_tests/laws.py`` follows it.
* :func:`discrete_laplace` - ``Pr[Y = y]`` proportional to ``e^{-|y| tt / s}`` (Algorithm 2 at scale s/tt): U uniform
  on ``{0..s-1}`` accepted with probability e^{-U/s}, V geometric with ratio e^{-1}, ``X = U + s V`` (``Pr[X = x]``
  proportional to e^{-x/s}), ``Y = floor(X / tt)``, a fair sign, and (negative, 0) rejected.

Every draw is the draw the algorithms make on Fractions (each Bernoulli(p) reduced to lowest terms), in the same
order (but for an integer gamma >= 2, above), so a seeded source gives the textbook sample: ``property_tests/laws.py``
holds Algorithms 1-3 written on Fractions, and the samplers' tests compare draw for draw.
"""

from __future__ import annotations

from math import gcd
from typing import Callable

Below = Callable[[int], int]  # below(n): uniform on {0, ..., n - 1}, n >= 1


def bernoulli_exp(num: int, den: int, below: Below) -> bool:
    """Bernoulli(e^{-num/den}) for integers ``num >= 0``, ``den >= 1`` (any terms)."""
    while num > den:
        if not bernoulli_exp_unit(1, 1, below):
            return False
        num -= den
    return bernoulli_exp_unit(num, den, below)


def bernoulli_exp_unit(num: int, den: int, below: Below) -> bool:
    """Bernoulli(e^{-g}) for g = num/den in [0, 1] (any terms): Bernoulli(g/k) for k = 1, 2, ... until the first
    failure; k - 1 successes, even with probability e^{-g}. Bernoulli(g/k) is ``below(q) < p`` for g/k = p/q in lowest
    terms (the draw of Bernoulli(Fraction(num, den) / k), without building the fraction)."""
    k = 1
    while True:
        q = den * k
        c = gcd(num, q)
        if not below(q // c) < num // c:
            break
        k += 1
    return k % 2 == 1  # k - 1 successes; even number of successes <=> k odd


def discrete_laplace(s: int, tt: int, below: Below) -> int:
    """Y with ``Pr[Y = y]`` proportional to ``e^{-|y| tt / s}`` for integers ``s, tt >= 1`` (scale s/tt)."""
    while True:
        u = below(s)
        if not bernoulli_exp(u, s, below):  # e^{-u/s}
            continue
        v = 0
        while bernoulli_exp_unit(1, 1, below):  # e^{-1}
            v += 1
        x = u + s * v  # Pr[x] proportional to e^{-x/s}
        y = x // tt  # Pr[y] proportional to e^{-y tt / s}
        negative = below(2) == 1
        if negative and y == 0:
            continue
        return -y if negative else y


__all__ = ["Below", "bernoulli_exp", "bernoulli_exp_unit", "discrete_laplace"]
