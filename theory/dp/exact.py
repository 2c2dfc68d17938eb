"""Definitions 2-4 of 000_211156f2009240b4.txt §2.2.1 on finite mechanisms, exactly.

Notation: ``p(O) = Pr[M(L) = O]``, ``q(O) = Pr[M(L') = O]`` for an ordered neighbouring pair.

* Definition 2 (eps-DP): for all neighbours and outputs, ``p(O) <= e^eps q(O)``.
* Definition 3 ((eps,delta)-probabilistic DP): the output space splits into Omega1, Omega2 with
  ``Pr[M(L) in Omega2] <= delta`` and ``e^-eps q(O) <= p(O) <= e^eps q(O)`` on Omega1. The smallest
  Omega2 is the set of *breaching* outputs. The thesis quantifies "for all L, L' there is a split"
  (``quantifier="pair"``); 003_755c7aa10ef74058.txt §2.2 says "for all L there is a split that
  works for all neighbours L'" (``quantifier="input"``): Omega2 is then the union of the breaches.
* Definition 4 ((eps,delta)-indistinguishability): ``Pr[M(L) in S] <= e^eps Pr[M(L') in S] + delta``
  for all sets S. The worst S is ``{O : p(O) > e^eps q(O)}``, so the least delta is the hockey-stick
  divergence ``sum_O max(0, p(O) - e^eps q(O))`` (checked against the literal subset enumeration,
  :func:`is_indistinguishable_by_subsets`).

All comparisons with ``e^eps`` are exact or rigorous (:class:`privclaims.theory.numbers.Epsilon`).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain, combinations
from typing import Any, Hashable

from privclaims.theory.dp.mechanism import FiniteMechanism, check_delta, check_inputs, check_quantifier, checked
from privclaims.theory.numbers import ZERO, Epsilon, ExpLinear, Q, rational_str
from privclaims.theory.validate import exponential_size

_delta = check_delta


@dataclass(frozen=True)
class Witness:
    """Where a definition fails: the ordered neighbours, the outputs, and the exact quantities."""

    L: Hashable
    L_prime: Hashable
    outputs: tuple[Hashable, ...]
    value: Any  # Q or ExpLinear

    def as_json(self) -> dict[str, Any]:
        v = str(self.value) if isinstance(self.value, ExpLinear) else rational_str(self.value)
        return {"L": repr(self.L), "L_prime": repr(self.L_prime), "outputs": [repr(o) for o in self.outputs], "value": v}


# ----------------------------------------------------------------- Definition 2: eps-DP


def dp_violations(mech: FiniteMechanism, eps: object) -> list[tuple[Hashable, Hashable, Hashable]]:
    """All (L, L', O) with ``Pr[M(L)=O] > e^eps Pr[M(L')=O]``."""
    checked(mech)
    e = Epsilon.of(eps)
    out = []
    for L, Lp in mech.pairs:
        for O, p in mech.dist[L].items():
            if p > 0 and e.sign_of_diff(p, mech.pr(Lp, O)) > 0:
                out.append((L, Lp, O))
    return out


def is_differentially_private(mech: FiniteMechanism, eps: object) -> bool:
    """Definition 2: eps-differential privacy."""
    return not dp_violations(mech, eps)


def smallest_exp_epsilon(mech: FiniteMechanism) -> Any:
    """The least ``e^eps`` for which ``mech`` is eps-DP: max ratio p/q (None = infinite)."""
    checked(mech)
    best = Q(1)
    for L, Lp in mech.pairs:
        for O, p in mech.dist[L].items():
            if p == 0:
                continue
            q = mech.pr(Lp, O)
            if q == 0:
                return None
            best = max(best, p / q)
    return best


# ----------------------------------------------------------------- Definition 3: probabilistic DP


def breaching_outputs(mech: FiniteMechanism, L: Hashable, Lp: Hashable, eps: object) -> list[Hashable]:
    """Outputs O violating ``e^-eps q(O) <= p(O) <= e^eps q(O)`` (they must lie in Omega2).

    Outputs with ``p(O) = 0`` are included when ``q(O) > 0`` (they breach the lower bound) but
    cost nothing: Omega2's mass is measured under ``M(L)``.
    """
    check_inputs(mech, L, Lp)
    e = Epsilon.of(eps)
    bad = []
    for O in mech.outputs:
        p, q = mech.pr(L, O), mech.pr(Lp, O)
        if p == 0 and q == 0:
            continue
        if e.sign_of_diff(p, q) > 0 or e.sign_of_diff(q, p) > 0:
            bad.append(O)
    return bad


def probabilistic_dp_delta(mech: FiniteMechanism, eps: object, quantifier: str = "pair") -> tuple[Any, Witness]:
    """The least delta for which ``mech`` is (eps, delta)-probabilistically DP, with where it is attained."""
    checked(mech)
    check_quantifier(quantifier)
    best: Witness | None = None
    if quantifier == "pair":
        for L, Lp in mech.pairs:
            bad = breaching_outputs(mech, L, Lp, eps)
            mass = sum((mech.pr(L, O) for O in bad), ZERO)
            if best is None or mass > best.value:
                best = Witness(L, Lp, tuple(bad), mass)
    else:
        for L in mech.inputs:
            bad: dict[Hashable, None] = {}
            for Lp in mech.neighbours_of(L):
                bad.update(dict.fromkeys(breaching_outputs(mech, L, Lp, eps)))
            mass = sum((mech.pr(L, O) for O in bad), ZERO)
            if best is None or mass > best.value:
                best = Witness(L, None, tuple(bad), mass)
    assert best is not None
    return best.value, best


def is_probabilistically_private(mech: FiniteMechanism, eps: object, delta: object, quantifier: str = "pair") -> bool:
    """Definition 3: (eps, delta)-probabilistic differential privacy."""
    d = _delta(delta)
    return probabilistic_dp_delta(mech, eps, quantifier)[0] <= d


# ----------------------------------------------------------------- Definition 4: indistinguishability


def hockey_stick(mech: FiniteMechanism, L: Hashable, Lp: Hashable, eps: object) -> ExpLinear:
    """``max_S Pr[M(L) in S] - e^eps Pr[M(L') in S]`` as the exact number ``a - e^eps b``."""
    check_inputs(mech, L, Lp)
    e = Epsilon.of(eps)
    a = b = ZERO
    for O, p in mech.dist[L].items():
        q = mech.pr(Lp, O)
        if p > 0 and e.sign_of_diff(p, q) > 0:
            a += p
            b += q
    return ExpLinear(a, b, e)


def _larger(x: ExpLinear, y: ExpLinear) -> bool:
    """x > y for two ExpLinear numbers with the same eps."""
    return x.eps.sign_of_diff(Q(x.a) - Q(y.a), Q(x.b) - Q(y.b)) > 0


def indistinguishability_delta(mech: FiniteMechanism, eps: object) -> tuple[ExpLinear, Witness]:
    """The least delta for which ``mech`` is (eps, delta)-indistinguishable (exact), and where."""
    checked(mech)
    best: Witness | None = None
    for L, Lp in mech.pairs:
        h = hockey_stick(mech, L, Lp, eps)
        if best is None or _larger(h, best.value):
            e = h.eps
            S = tuple(O for O, p in mech.dist[L].items() if p > 0 and e.sign_of_diff(p, mech.pr(Lp, O)) > 0)
            best = Witness(L, Lp, S, h)
    assert best is not None
    return best.value, best


def is_indistinguishable(mech: FiniteMechanism, eps: object, delta: object) -> bool:
    """Definition 4: (eps, delta)-indistinguishability (via the worst set)."""
    d = _delta(delta)
    return indistinguishability_delta(mech, eps)[0].le(d)


def is_indistinguishable_by_subsets(mech: FiniteMechanism, eps: object, delta: object) -> bool:
    """Definition 4 read literally: every subset of the output space, every ordered pair.

    Exponential in the number of outputs; the reference the hockey-stick shortcut is tested against.
    Refused at once when the ``2^|outputs| - 1`` subsets exceed :data:`privclaims.theory.validate.ENUMERATION_LIMIT`.
    """
    d = _delta(delta)
    exponential_size((1 << len(checked(mech).outputs)) - 1,
                     "is_indistinguishable_by_subsets (every subset of the outputs, for each ordered pair)",
                     "is_indistinguishable (the worst set, polynomial)")
    e = Epsilon.of(eps)
    outs = mech.outputs
    subsets = chain.from_iterable(combinations(outs, r) for r in range(1, len(outs) + 1))
    for S in subsets:
        for L, Lp in mech.pairs:
            p = sum((mech.pr(L, O) for O in S), ZERO)
            q = sum((mech.pr(Lp, O) for O in S), ZERO)
            if e.sign_of_diff(p - d, q) > 0:
                return False
    return True
