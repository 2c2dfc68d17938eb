"""Additively homomorphic schemes for Count (000_211156f2009240b4.txt §5.2 Definition 9).

* :class:`PaillierScheme` - python-paillier (``phe``, gmpy2-backed): the thesis protocol's E, D.
  Integers (negative noise included) are encoded by ``phe`` modulo the public modulus n.
* :class:`OneTimePad` - ``E_k(x) = x + k mod p`` with a fresh uniform key k per message, the key
  going to the decrypting party: the construction of 002_9d55ef468949585c.txt §4.2.1, and an
  instance of Definition 9's *ideal* scheme (perfectly secret over the key, correct given the key,
  homomorphic with keys adding up). :func:`definition9_violations` checks Definition 9 on a finite
  scheme by enumeration.

Definition 9 read literally (one keyless, deterministic D with ``Pr[E(p) = m] = Pr[E(p') = m]``)
cannot be met by any scheme: equal ciphertext laws force equal laws of ``D(E(p))`` and
``D(E(p'))``, contradicting correctness for ``p != p'`` (:func:`keyless_reading_satisfiable`).
Secrecy must be read over the (unknown) key, as the one-time pad satisfies it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any, Callable

from privclaims.theory.errors import InvalidInput
from privclaims.theory.count.model import prime_modulus


class PaillierScheme:
    """python-paillier keys; ``encrypt``/``add``/``decrypt`` with key checks."""

    def __init__(self, n_length: int = 2048) -> None:
        from phe import paillier

        if n_length < 128:
            raise InvalidInput(f"Paillier key length {n_length} bits is too short (>= 128)")
        self.public_key, self._private_key = paillier.generate_paillier_keypair(n_length=n_length)

    def encrypt(self, x: int) -> Any:
        return self.public_key.encrypt(int(x))

    def check(self, c: Any, who: str = "message") -> Any:
        """Refuse a ciphertext that is not a phe EncryptedNumber under this public key."""
        from phe import paillier

        if not isinstance(c, paillier.EncryptedNumber):
            raise InvalidInput(f"{who}: not a Paillier ciphertext ({type(c).__name__})")
        if c.public_key != self.public_key:
            raise InvalidInput(f"{who}: ciphertext under another public key (n = ...{str(c.public_key.n)[-8:]})")
        return c

    @staticmethod
    def add(c1: Any, c2: Any) -> Any:
        return c1 + c2

    def decrypt(self, c: Any) -> int:
        return int(self._private_key.decrypt(self.check(c, "sum")))


@dataclass(frozen=True)
class OneTimePad:
    """``E_k(x) = (x + k) mod p``, ``D_k(c) = (c - k) mod p``; keys add under ``+``."""

    p: int

    def __post_init__(self) -> None:
        prime_modulus(self.p)

    def encrypt(self, x: int, k: int) -> int:
        return (x + k) % self.p

    def decrypt(self, c: int, k: int) -> int:
        return (c - k) % self.p

    def add(self, c1: int, c2: int) -> int:
        return (c1 + c2) % self.p

    def centered(self, x: int) -> int:
        """The representative of x mod p in ``(-p/2, p/2]``."""
        x %= self.p
        return x - self.p if x > self.p // 2 else x


def definition9_violations(p: int, otp: Any = None) -> list[str]:
    """Check Definition 9 for a keyed scheme on Z_p (default :class:`OneTimePad` (p)) by enumerating
    plaintexts and keys; ``otp`` may be any object with ``encrypt(x, k)``, ``decrypt(c, k)``, ``add``.

    correct: ``D_k(E_k(x)) = x``; secret: the law of ``E_K(x)``, K uniform, is the same for all x;
    homomorphic: ``E_k(x) + E_k'(x') = E_{k+k'}(x + x')``. Returns the violated properties."""
    otp = otp or OneTimePad(p)
    bad = []
    if any(otp.decrypt(otp.encrypt(x, k), k) != x for x in range(p) for k in range(p)):
        bad.append("correct")
    laws = set()
    for x in range(p):
        law = [Fraction(0)] * p
        for k in range(p):
            law[otp.encrypt(x, k)] += Fraction(1, p)
        laws.add(tuple(law))
    if len(laws) != 1:
        bad.append("secret")
    if any(
        otp.add(otp.encrypt(x, k), otp.encrypt(y, l)) != otp.encrypt((x + y) % p, (k + l) % p)
        for x, y, k, l in product(range(p), repeat=4)
    ):
        bad.append("homomorphic")
    return bad


def keyless_reading_satisfiable(n_plain: int = 2, n_cipher: int = 3, grid: int = 2) -> bool:
    """Brute force: is there a keyless randomized E (laws with probabilities in multiples of 1/grid)
    on ``n_cipher`` ciphertexts and a deterministic D with D(E(x)) = x surely and equal laws of E(x)?"""
    laws = [w for w in product(range(grid + 1), repeat=n_cipher) if sum(w) == grid]
    for D in product(range(n_plain), repeat=n_cipher):
        for E in product(laws, repeat=n_plain):
            correct = all(D[c] == x for x in range(n_plain) for c in range(n_cipher) if E[x][c] > 0)
            secret = len(set(E)) == 1
            if correct and secret:
                return True
    return False


Encryptor = Callable[[int], Any]
