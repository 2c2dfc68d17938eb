"""Privacy-aware ad delivery on your own instance (000_211156f2009240b4.txt ch. 4, §4.3; 002_9d55ef468949585c.txt §3).

The client reveals only a generalised context ĉ; the server knows ``Pr[c | ĉ]`` for the exact contexts
c under ĉ, and for each ad a its click-through rate ``CTR(a | c)`` and payment ``p_a`` (or ``p_a(c)``).
It sends k ads; the client, knowing its exact c, displays the best one for it. The expected revenue of
a set A is

    E[Revenue(A | ĉ)] = Σ_c Pr[c | ĉ] · max_{a ∈ A} p_a(c) · CTR(a | c)

(an ad below an optional CTR threshold τ counts 0). Choosing the best k ads is NP-hard (Prop. 6, a
reduction from maximum coverage); **Greedy** (Algorithm 6) adds, k times, the ad of largest marginal
benefit. The documents give no tie rule: this run takes the lowest id and names the rounds that tied.
The revenue is monotone submodular, so every Greedy run's revenue is at least ``1 - (1 - 1/k)^k >= 1 - 1/e``
times the optimum. :func:`greedy` with ``optimum=True`` also computes the optimum by brute force over all
C(n, k) sets (refused above 10^6 sets: Greedy is the polynomial alternative) and, when a round tied, the
least revenue over every tie rule (:func:`privclaims.theory.ads.greedy_runs.revenue_range`); it reports the
least run's ratio against that bound, and ``holds`` is then "Greedy is optimal here under every tie rule".

**Instance format (JSON)**, probabilities as exact strings::

    {"contexts": ["morning", "noon", "evening", "night"],
     "weights": ["1/5", "3/10", "3/10", "1/5"],            # Pr[c | ĉ], sums to 1
     "ads": [{"name": "coffee", "ctr": ["1", "1", "0", "0"], "payment": "1"}, ...],
     "threshold": "1/100"}                                  # optional CTR threshold τ

``payment`` may be one value or one per context.

Example::

    >>> from privclaims import ads
    >>> inst = ads.load_instance("examples/ads_coverage.json")
    >>> r = ads.greedy(inst, k=2, optimum=True)
    >>> r.greedy_ads, r.optimum_ads
    (('lunch', 'coffee'), ('coffee', 'dinner'))

**What comes back**: :class:`GreedyResult` (Greedy's ads, revenue and marginal benefits; with the optimum
its ads, revenue, the ratio and the guarantee). k must lie in [1, number of ads]; ``optimum`` must be a
bool; anything else raises :class:`privclaims.theory.errors.InvalidInput`.

Exact twin: :mod:`privclaims.theory.ads.exact` (``greedy_run``, ``optimum``, ``greedy_guarantee``).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from pathlib import Path
from typing import Any, Mapping

from privclaims.theory.ads import exact as _exact
from privclaims.theory.ads import greedy_runs as _runs
from privclaims.theory.ads.model import AdInstance, ad_instance, check_k
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q

from privclaims import formats
from privclaims._common import Floats, check_flag, check_floats, expect, decimal, exact, guard, number_json, read_distribution, read_rational

__all__ = ["Floats", "AdInstance", "GreedyResult", "load_instance", "greedy", "OPTIMUM_LIMIT"]

OPTIMUM_LIMIT = 10**6


def load_instance(source: str | Path | Mapping[str, Any], *, floats: Floats | None = None) -> AdInstance:
    """Read the instance format (:class:`privclaims.formats.AdInstance`; a path or a parsed dict)."""
    floats = check_floats(floats)
    d = formats.parse("ads", source, floats)
    names = d.ad_names()
    n = len(d.contexts)
    if len(d.weights) != n:
        raise InvalidInput(f"ad instance JSON: weights has {len(d.weights)} probabilities, expected one per context (n = {n})")
    w = read_distribution(d.weights, "ad instance JSON: weights (Pr[c|ĉ])", floats)
    ctr, pay = [], []
    for name, a in zip(names, d.ads):
        where = f"ad instance JSON: ad {name!r}"
        if len(a.ctr) != n:
            raise InvalidInput(f"{where}: ctr has {len(a.ctr)} entries, expected one per context (n = {n})")
        ctr.append([read_rational(x, f"{where}: ctr[{j}] (context {d.contexts[j]!r})", floats) for j, x in enumerate(a.ctr)])
        if isinstance(a.payment, list):
            if len(a.payment) != n:
                raise InvalidInput(f"{where}: payment has {len(a.payment)} entries, expected one per context (n = {n}) "
                                   "or a single value")
            pay.append([read_rational(x, f"{where}: payment[{j}] (context {d.contexts[j]!r})", floats)
                        for j, x in enumerate(a.payment)])
        else:
            pay.append(read_rational(a.payment, f"{where}: payment", floats))
    th = None if d.threshold is None else read_rational(d.threshold, "ad instance JSON: threshold", floats)
    return ad_instance(w, ctr, pay, threshold=th, contexts=list(d.contexts), names=names)


@dataclass(frozen=True)
class GreedyResult:
    """Greedy's ads (in the order chosen) and revenue; with the optimum: its ads, revenue, the ratio
    and the guarantee ``1 - (1 - 1/k)^k``.

    The documents print Algorithm 6's argmax with no tie rule; this run takes the lowest id, and ``tied_rounds``
    lists the rounds where several new ads had the largest benefit. With the optimum, ``least_ads`` and
    ``least_revenue`` are a run of least revenue over every tie rule, and ``holds`` ("Greedy is optimal here") is
    decided for every run, not for this one only."""

    k: int
    greedy_ads: tuple[str, ...]
    greedy_revenue: Any
    benefits: tuple[Any, ...]
    optimum_ads: tuple[str, ...] | None = None
    optimum_revenue: Any = None
    tied_rounds: tuple[tuple[int, tuple[str, ...]], ...] = ()
    least_ads: tuple[str, ...] | None = None
    least_revenue: Any = None

    @property
    def bound(self) -> Any:
        return _exact.greedy_guarantee(self.k)

    @property
    def _least(self) -> Any:
        return self.greedy_revenue if self.least_revenue is None else self.least_revenue

    @property
    def ratio(self) -> Any:
        """The least revenue of a Greedy run (over every tie rule) over the optimum."""
        if self.optimum_revenue is None:
            return None
        return Q(1) if self.optimum_revenue == 0 else self._least / self.optimum_revenue

    @property
    def holds(self) -> bool:
        """Without the optimum: True. With it: True iff every Greedy run (any tie rule) earns the optimum."""
        return self.optimum_revenue is None or self._least == self.optimum_revenue

    def summary(self) -> str:
        s = [f"Greedy (k = {self.k}) sends {', '.join(self.greedy_ads)}; expected revenue "
             f"{exact(self.greedy_revenue)} ≈ {decimal(self.greedy_revenue)} "
             f"(marginal benefits {', '.join(exact(b) for b in self.benefits)})."]
        if self.tied_rounds:
            s.append("Ties (the documents give Greedy no tie rule; this run took the lowest id): "
                     + "; ".join(f"round {r} among {', '.join(a)}" for r, a in self.tied_rounds) + ".")
        if self.optimum_revenue is not None:
            other = self._least < self.greedy_revenue
            s.append(f"Optimum (brute force): {', '.join(self.optimum_ads)} with revenue {exact(self.optimum_revenue)} ≈ "
                     f"{decimal(self.optimum_revenue)}.")
            if other:
                s.append(f"Under another tie rule Greedy sends {', '.join(self.least_ads)}; expected revenue "
                         f"{exact(self._least)} ≈ {decimal(self._least)} (the least over every tie rule).")
            s.append(f"Ratio Greedy/optimum = {exact(self.ratio)} ≈ {decimal(self.ratio)}"
                     + (" (least over every tie rule)" if self.tied_rounds else "")
                     + f"; guarantee 1 - (1 - 1/k)^k = {exact(self.bound)} ≈ {decimal(self.bound)}: "
                     + ("met." if self.ratio >= self.bound else "VIOLATED."))
            if self.holds:
                s.append("Greedy is optimal on this instance" + (" under every tie rule." if self.tied_rounds else "."))
            elif not other:
                s.append(f"Witness: Greedy is NOT optimal here: {', '.join(self.optimum_ads)} earns "
                         f"{exact(self.optimum_revenue - self.greedy_revenue)} more.")
            else:
                s.append(f"Witness: Greedy is NOT optimal under every tie rule: the run {', '.join(self.least_ads)} "
                         f"earns {exact(self._least)}; {', '.join(self.optimum_ads)} earns "
                         f"{exact(self.optimum_revenue - self._least)} more.")
        return "\n".join(s)

    def as_json(self) -> dict[str, Any]:
        return {"holds": self.holds, "k": self.k, "greedy_ads": list(self.greedy_ads),
                "greedy_revenue": number_json(self.greedy_revenue), "benefits": [exact(b) for b in self.benefits],
                "tied_rounds": [{"round": r, "ads": list(a)} for r, a in self.tied_rounds],
                "optimum_ads": None if self.optimum_ads is None else list(self.optimum_ads),
                "optimum_revenue": number_json(self.optimum_revenue),
                "least_ads": None if self.least_ads is None else list(self.least_ads),
                "least_revenue": number_json(self.least_revenue), "ratio": number_json(self.ratio),
                "bound": number_json(self.bound)}


def greedy(inst: AdInstance, k: int, optimum: bool = False) -> GreedyResult:
    """Algorithm 6 (and, with ``optimum=True``, the brute-force optimum and every tie rule's runs) on an instance."""
    expect(inst, AdInstance, "inst", "an ad instance from ads.load_instance(...)")
    check_flag(optimum, "optimum")
    k = check_k(k, inst.n_ads)
    run = _exact.greedy_run(inst, k)
    names = inst.names or tuple(range(inst.n_ads))
    words = lambda ads: tuple(str(names[a]) for a in ads)  # noqa: E731
    g = words(run.order)
    ties = tuple((r, words(m)) for r, m in enumerate(_runs.maximisers_along(inst, run.order), start=1) if len(m) > 1)
    if not optimum:
        return GreedyResult(k, g, run.revenues[-1], run.benefits, tied_rounds=ties)
    guard(comb(inst.n_ads, k), OPTIMUM_LIMIT, f"the optimum over C({inst.n_ads}, {k}) ad sets",
          "drop --optimum: Greedy alone is polynomial and within 1 - (1 - 1/k)^k of the optimum")
    A, v = _exact.optimum(inst, k)
    least_ads, least = g, run.revenues[-1]
    if ties:
        try:
            rng = _runs.revenue_range(inst, k)
        except InvalidInput as exc:
            raise InvalidInput(f"{exc}; drop --optimum (Greedy alone is polynomial)") from None
        if rng.least < least:
            least_ads, least = words(rng.least_order), rng.least
    return GreedyResult(k, g, run.revenues[-1], run.benefits, words(A), v, ties, least_ads, least)
