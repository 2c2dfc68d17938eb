"""Estimates' actual (adaptive) output as a finite mechanism, with discrete Gaussian noise - exact.

Corollary 2 (000_211156f2009240b4.txt §5.5.3) speaks of what Estimates releases: the noisy counts
TopDown asks for (which ones depends on earlier noisy counts) and the CTRs. To decide
(eps, delta)-probabilistic DP of that output exactly with :mod:`privclaims.theory.dp.exact`, the noise law must
be finite and rational:

* **The discrete Gaussian with a rational base.** ``N_Z`` with ``Pr[X = x] ∝ w^(x^2)``,
  ``w = e^(-1/(2 sigma^2))`` (so ``sigma^2 = 1 / (2 ln(1/w))``); a rational ``w`` in (0, 1) fixes an
  (irrational) sigma^2, exactly as ZEALOUS' Laplace is fixed by its rational base (theory/zealous).
  :func:`truncated_discrete_gaussian` is that law conditioned on ``|X| <= K``: its pmf
  ``w^(x^2) / sum_{|y| <= K} w^(y^2)`` is rational.
* **Truncation, bounded rigorously.** :func:`gaussian_tail_bound` is a rational upper bound on
  ``Pr[|X| > K]`` for the untruncated law: ``sum_{x > K} w^(x^2) <= w^((K+1)^2) / (1 - w^(2K+2))``
  (as ``x^2 >= (K+1)^2 + (x-K-1)(2K+2)``), doubled, and the normaliser is ``>= 1`` (the x = 0 term).
* :func:`estimates_mechanism` runs :func:`privclaims.theory.count.exact_topdown.estimates` (its input step once,
  TopDown per assignment) on every assignment of noise to the Count calls it *actually makes* (branching lazily on
  each new call), so each output is exactly what Estimates releases (noisy ``count_v`` of every visited node, and
  ``CTR^(a|v)``), with probability the product of the noise pmf over the calls made.

**From the truncated to the untruncated mechanism** (:func:`untruncated_delta_bound`): when no CTR is
released (no ad bids), an output O fixes the released calls and their noise, so
``Pr[M(L) = O] = Pr[M_K(L) = O] (Z_K/Z)^(k(O))`` with the same ``k(O)`` under every input: the ratios
``Pr[M(L) = O] / Pr[M(L') = O]`` inside the window are the truncated ones, the breaching outputs inside
the window are the same, and their mass under M is at most their mass under M_K (an output inside L's window
whose noise under L' falls outside it has ``Pr[M_K(L') = O] = 0`` and so already breaches in M_K). The outputs with some
noise outside the window have mass at most ``keys x Pr[|X| > K]`` (a union bound over every Count call
the tree can make). So ``delta(M) <= delta(M_K) + keys x tail`` under either quantifier order. (A CTR
merges pairs (clicks, no_clicks) of equal ratio, some outside the window, so this transfer is claimed
only for count-only releases; :func:`untruncated_delta_bound` refuses CTR outputs.)
No lower bound is given: those edge outputs breach in M_K but need not in M.

**Any release, CTRs included** (:func:`released_delta_bound`), at the price of a little of eps. Draw the
noise of every Count call the tree can make (``keys`` of them, the same set for every input) i.i.d.; the
event E that all of them lie in the window has probability ``q = (Z_K/Z)^keys``, the same for every input,
and given E the draws are the truncated law. So for every output O,
``Pr[M(L) = O] = q Pr[M_K(L) = O] + R_L(O)`` with ``R_L >= 0`` and ``sum_O R_L(O) = 1 - q <= tau = keys x tail``.
Take ``e^eps' = e^eps / s`` (s > 1). An output that breaches at eps in M but not at eps' in M_K for a pair
(L, L') has ``Pr[M(L) = O] < s/(s-1) R_L(O)`` if ``Pr[M(L) = O] > e^eps Pr[M(L') = O]`` (then
``q Pr[M_K(L) = O] + R_L > e^eps q Pr[M_K(L') = O] >= s q Pr[M_K(L) = O]``), and
``Pr[M(L) = O] < e^-eps s/(s-1) R_L'(O)`` in the other direction (symmetrically). Outputs breaching at eps'
in M_K weigh at most their M_K mass plus ``R_L``. Hence
``delta_eps(M) <= delta_eps'(M_K) + tau s/(s-1) (1 + D e^-eps)`` with D = 1 (Definition 3 per pair) or
D = the most neighbours of one input (per input: the split must serve every neighbour at once).
"""

from __future__ import annotations

from typing import Any, Hashable, Iterable, Mapping

from privclaims.theory.count.exact_topdown import prepare, topdown
from privclaims.theory.count.hierarchy import Entry, Hierarchy
from privclaims.theory.dp.mechanism import FiniteMechanism, finite_mechanism
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import ONE, Q, ZERO, as_rational, distribution
from privclaims.theory.validate import exponential_size, integer


def _base(w: object) -> Any:
    w = as_rational(w, "w")
    if not ZERO < w < ONE:
        raise InvalidInput(f"w = {w} must lie in (0, 1) (w = e^(-1/(2 sigma^2)))")
    return Q(w)


def truncated_discrete_gaussian(w: object, K: object) -> dict[int, Any]:
    """``Pr[X = x] = w^(x^2) / sum_{|y| <= K} w^(y^2)`` for integers ``|x| <= K`` (exact)."""
    w, K = _base(w), integer(K, "K", lo=0)
    weights = {x: w ** (x * x) for x in range(-K, K + 1)}
    z = sum(weights.values(), ZERO)
    return {x: p / z for x, p in weights.items()}


def gaussian_tail_bound(w: object, K: object) -> Any:
    """A rational upper bound on ``Pr[|X| > K]`` for the untruncated ``Pr[X = x] ∝ w^(x^2)``:
    ``2 w^((K+1)^2) / (1 - w^(2K+2))``."""
    w, K = _base(w), integer(K, "K", lo=0)
    return 2 * w ** ((K + 1) ** 2) / (ONE - w ** (2 * K + 2))


class _Need(Exception):
    def __init__(self, key: Any) -> None:
        self.key = key


def _outputs(log: list[Entry], h: Hierarchy, min_support: object, m: int, pmf: Mapping[int, Any],
             bids: Mapping, depth_limit: int | None, seed: int) -> dict:
    dist: dict = {}
    prep = prepare(log, h, m, seed, bids)  # Algorithm 7's input step: the same for every noise assignment
    stack: list[dict] = [{}]
    while stack:
        assigned = stack.pop()

        def noise(key: Any, assigned: dict = assigned) -> Any:
            if key not in assigned:
                raise _Need(key)
            return assigned[key]

        try:
            res = topdown(prep, min_support, noise=noise, depth_limit=depth_limit)  # = estimates(log, h, ...)
        except _Need as need:
            stack.extend({**assigned, need.key: x} for x in pmf)
            continue
        out = (tuple(sorted(res.counts.items(), key=repr)), tuple(sorted(res.ctr.items(), key=repr)))
        p = ONE
        for x in assigned.values():
            p *= pmf[x]
        dist[out] = dist.get(out, ZERO) + p
    return dist


def estimates_mechanism(logs: Mapping[Hashable, Iterable[Entry]], neighbours: Iterable[tuple[Hashable, Hashable]],
                        h: Hierarchy, min_support: object, m: int, pmf: Mapping[int, Any],
                        bids: Mapping[Hashable, Iterable[Hashable]], depth_limit: int | None = None,
                        seed: int = 0) -> FiniteMechanism:
    """The finite mechanism ``log name -> law of Estimates' output`` when every Count call adds an
    independent draw from ``pmf`` (integer noise -> exact probability, finite support). ``bids`` are
    public (the advertisers' bids, not derived from the log, so neighbours face the same bidders)."""
    if not isinstance(logs, Mapping) or not logs:
        raise InvalidInput(f"logs = {logs!r} must be a non-empty mapping name -> ad log")
    if not isinstance(bids, Mapping):
        raise InvalidInput(f"bids = {bids!r} must be a mapping node -> ads (public, the same for every log)")
    if not isinstance(pmf, Mapping) or not pmf:
        raise InvalidInput(f"pmf = {pmf!r} must be a non-empty mapping integer noise -> probability")
    for x in pmf:
        integer(x, "a noise value of pmf")
    pmf = distribution(pmf, "pmf")
    support = list(pmf)
    calls = len(h.nodes) * (1 + 2 * max((len(tuple(a)) for a in bids.values()), default=0))
    exponential_size(len(support) ** min(calls, 64), "estimates_mechanism (noise support ^ Count calls)",
                     "a smaller window K or a smaller hierarchy")
    return finite_mechanism({name: _outputs(list(log), h, min_support, m, pmf, bids, depth_limit, seed)
                             for name, log in logs.items()}, neighbours)


def count_only(mech: FiniteMechanism) -> bool:
    """True iff no output of ``mech`` (built by :func:`estimates_mechanism`) releases a CTR."""
    return all(not out[1] for out in mech.outputs)


def untruncated_delta_bound(mech: FiniteMechanism, delta_truncated: object, w: object, K: object, keys: int) -> Any:
    """``delta(M) <= delta(M_K) + keys x tail`` (module docstring), ``tail`` = :func:`gaussian_tail_bound`:
    a rational upper bound on the least delta of the untruncated mechanism M, for count-only releases."""
    if not count_only(mech):
        raise InvalidInput("untruncated_delta_bound: the release has CTR outputs, which merge noise values "
                           "outside the window; the transfer holds only for count-only releases (no ad bids)")
    keys = integer(keys, "keys", lo=1)
    return as_rational(delta_truncated, "delta_truncated") + keys * gaussian_tail_bound(w, K)


def released_delta_bound(mech: FiniteMechanism, exp_eps: object, s: object, w: object, K: object, keys: int,
                         quantifier: str = "pair") -> tuple[Any, Any, Any]:
    """``delta_eps(M) <= delta_eps'(M_K) + tau s/(s-1) (1 + D e^-eps)``, ``e^eps' = e^eps / s`` (module
    docstring): a rational upper bound on the least delta of the untruncated mechanism M for ANY release
    (CTRs too), given its truncation ``mech`` = M_K. ``keys`` = every Count call the tree can make.
    Returns (bound, delta_eps'(M_K), where it is attained)."""
    from privclaims.theory.dp import exact as dpx
    from privclaims.theory.numbers import Epsilon

    exp_eps, s = as_rational(exp_eps, "exp_eps"), as_rational(s, "s")
    if not ONE < s <= exp_eps:
        raise InvalidInput(f"s = {s} must lie in (1, e^eps = {exp_eps}] (e^eps' = e^eps / s >= 1)")
    keys = integer(keys, "keys", lo=1)
    d_k, where = dpx.probabilistic_dp_delta(mech, Epsilon.from_exp(exp_eps / s), quantifier)
    degree = 1 if quantifier == "pair" else max(len(mech.neighbours_of(L)) for L in mech.inputs)
    tau = keys * gaussian_tail_bound(w, K)
    return d_k + tau * s / (s - 1) * (1 + degree / exp_eps), d_k, where


__all__ = ["truncated_discrete_gaussian", "gaussian_tail_bound", "estimates_mechanism", "count_only",
           "untruncated_delta_bound", "released_delta_bound"]
