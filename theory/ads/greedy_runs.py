"""Algorithm 6, Greedy′ and Greedy″ as the documents print them: every run that some tie rule allows.

000_211156f2009240b4.txt §4.3 (Algorithm 6 = Algorithm 1 of 002_9d55ef468949585c.txt) prints
``A ← A ∪ {argmax_a b_a}`` with the argmax over the for-loop's ``a ∈ 𝒜`` and no tie rule. The exact twin
(:mod:`privclaims.theory.ads.exact`) fixes one run (the argmax over the ads not yet chosen, lowest id first);
a claim about "the ads chosen by Greedy" is owed under every run:

* ``over="new"``: the argmax ranges over 𝒜 \\ A (any maximiser);
* ``over="all"``: it ranges over 𝒜, chosen ads included (their benefit B(A, {a}) is 0), any maximiser; a round
  that re-picks a chosen ad leaves A unchanged (a *stall*: with a deterministic tie rule the loop never ends).

Every run is a path in the DAG of reachable sets A (the benefits depend on the set only), so the sets reachable
after l rounds (:func:`greedy_states`) are computed once per set, and the orders (:func:`greedy_orders`) are the
DAG's paths. Greedy′ and Greedy″ (§4.3.2) are evaluated along every order (:func:`greedy_prime_outputs`,
:func:`greedy_double_prime_outputs`), under each reading of their ranges and stopping rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterator

from privclaims.theory.ads.exact import expected_revenue, greedy_run
from privclaims.theory.ads.model import AdInstance
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import ZERO, Q

OVER = ("new", "all")
MAX_ADS = 8  # every order of up to 8 ads is enumerated at most (8! = 40,320 paths)


@dataclass(frozen=True)
class Step:
    """One round from the set ``A``: the maximal benefit and the ads that attain it (``over`` decides which ads
    compete), and whether a chosen ad attains it (a stall as printed)."""

    best: Any
    new_maximisers: tuple[int, ...]
    stall: bool


class Runs:
    """The runs of Algorithm 6 on ``inst`` with the argmax ``over`` the new or all ads."""

    def __init__(self, inst: AdInstance, over: str = "new"):
        if over not in OVER:
            raise InvalidInput(f"over = {over!r}: use one of {OVER}")
        if inst.n_ads > MAX_ADS:
            raise InvalidInput(f"{inst.n_ads} ads: every greedy run is enumerated up to {MAX_ADS} ads only")
        self.inst, self.over = inst, over
        self._rev = lru_cache(maxsize=None)(lambda A: expected_revenue(inst, A))

    def revenue(self, A: frozenset) -> Any:
        return self._rev(frozenset(A))

    def step(self, A: frozenset) -> Step:
        A = frozenset(A)
        base = self.revenue(A)
        cands = [a for a in range(self.inst.n_ads) if self.over == "all" or a not in A]
        if not cands:
            return Step(ZERO, (), False)
        b = {a: (self.revenue(A | {a}) - base if a not in A else ZERO) for a in cands}
        best = max(b.values())
        return Step(best, tuple(a for a in cands if b[a] == best and a not in A),
                    any(b[a] == best for a in cands if a in A))

    def states(self, k: int) -> list[set[frozenset]]:
        """``states[l]`` = the sets of l ads some run reaches after l rounds that add an ad (l = 0..k)."""
        out = [{frozenset()}]
        for _ in range(k):
            out.append({A | {a} for A in out[-1] for a in self.step(A).new_maximisers})
        return out

    def stalls(self, k: int) -> list[frozenset]:
        """The reachable sets with fewer than k ads from which the argmax may re-pick a chosen ad."""
        return sorted((A for level in self.states(k)[:k] for A in level if self.step(A).stall),
                      key=lambda A: (len(A), sorted(A)))

    def orders(self, k: int) -> Iterator[tuple[int, ...]]:
        """Every order a_1..a_k of the new ads a run can add (each a maximiser in its round)."""
        def walk(prefix: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
            if len(prefix) == k:
                yield prefix
                return
            for a in self.step(frozenset(prefix)).new_maximisers:
                yield from walk(prefix + (a,))
        yield from walk(())


def greedy_states(inst: AdInstance, k: int, over: str = "new") -> list[set[frozenset]]:
    """The sets of ads Greedy can hold after l = 0..k rounds under any tie rule (see :class:`Runs`)."""
    return Runs(inst, over).states(k)


def greedy_orders(inst: AdInstance, k: int, over: str = "new") -> list[tuple[int, ...]]:
    """Every order in which Greedy can choose k ads under any tie rule."""
    return list(Runs(inst, over).orders(k))


@dataclass(frozen=True)
class AltOutput:
    """An output of Greedy′ or Greedy″: the number of ads, the set (in Greedy's order), the objective
    E[Revenue(A)] − α|A| and the while-loop iterations (Greedy″; Greedy′ runs |𝒜| rounds)."""

    k: int
    ads: tuple[int, ...]
    objective: Any
    iterations: int
    argmax: tuple[int, ...] = ()  # Greedy″: the prefix lengths k′ ≥ k_min that maximise the objective on its order


def _objectives(runs: Runs, order: tuple[int, ...], alpha: Any) -> list[Any]:
    return [runs.revenue(frozenset(order[:l])) - alpha * l for l in range(len(order) + 1)]


def greedy_prime_outputs(inst: AdInstance, alpha: Any, k_min: int = 0, over: str = "new") -> set[AltOutput]:
    """Greedy′ (Proposition 7) along every order of all |𝒜| ads: every prefix length k′ in k_min..|𝒜| that
    maximises E[Revenue({a_1..a_k′})] − αk′ (no tie rule is printed for this argmax either)."""
    alpha, runs, out = Q(alpha), Runs(inst, over), set()
    for order in runs.orders(inst.n_ads):
        obj = _objectives(runs, order, alpha)
        best = max(obj[k_min:])
        out |= {AltOutput(l, order[:l], obj[l], inst.n_ads) for l in range(k_min, len(obj)) if obj[l] == best}
    return out


def greedy_double_prime_outputs(inst: AdInstance, alpha: Any, stop: str = "look-ahead",
                                over: str = "new", k_min: int = 0) -> set[AltOutput]:
    """Greedy″ (Theorem 8) along every order: Greedy's rounds while E[Revenue(A)] − α|A| increases (strictly).

    ``stop="look-ahead"``: a round computes the greedy ad and adds it only if that increases the objective (its
    benefit exceeds α); otherwise the loop stops with A (iterations count this last round too).
    ``stop="loop-top"``: Algorithm 6's while-condition is replaced by "the last round increased the objective"
    (true before the first round); the loop exits after the first round that did not increase it and outputs that
    last A, which holds the non-improving ad. Under ``over="all"`` a round may re-pick a chosen ad when every benefit
    is 0 (A unchanged: no increase). With no ad left to add the loop stops. Each output records, in ``argmax``, the
    prefix lengths k′ in k_min..|𝒜| that maximise E[Revenue({a_1..a_k′})] − αk′ on its run's order (Theorem 8's
    bound on the iterations refers to them).

    ``k_min`` is the model's smallest number of ads (1: "at least one ad is sent"): Greedy″ never outputs fewer
    (when |𝒜| ≥ k_min). A look-ahead stop with |A| < k_min is no stop: the round adds its greedy ad and the loop goes
    on, so the stopping test starts at |A| = k_min. The loop-top rule needs no change: its first round runs
    unconditionally and every exit outputs at least one ad."""
    if stop not in ("look-ahead", "loop-top"):
        raise InvalidInput(f"stop = {stop!r}: use 'look-ahead' or 'loop-top'")
    alpha, runs, out = Q(alpha), Runs(inst, over), set()
    for order in runs.orders(inst.n_ads):
        obj = _objectives(runs, order, alpha)
        n = len(order)
        top = max(obj[k_min:])
        amax = tuple(l for l in range(k_min, n + 1) if obj[l] == top)
        for l in range(n + 1):  # A = {a_1..a_l} when the next round starts
            step = runs.step(frozenset(order[:l])) if l < n else Step(ZERO, (), over == "all")
            if l < n and obj[l + 1] > obj[l]:
                continue  # this round increases the objective: both rules go on (the same order)
            if stop == "look-ahead" and l < min(k_min, n):
                continue  # stopping here would output fewer than k_min ads, outside the model: the round adds a_{l+1}
            last = l + 1 if l < n or over == "all" else n  # as printed, a full A still runs a round (a re-pick)
            if stop == "look-ahead":
                out.add(AltOutput(l, order[:l], obj[l], last, amax))
            else:
                if l < n:  # the round adds a_{l+1} although it does not increase the objective
                    out.add(AltOutput(l + 1, order[:l + 1], obj[l + 1], l + 1, amax))
                if step.stall or l == n:  # a re-pick (as printed) or nothing left: A unchanged, the loop exits
                    out.add(AltOutput(l, order[:l], obj[l], last, amax))
            break
    return out


def run_with_priority(inst: AdInstance, k: int, over: str, priority: list[int]) -> tuple[int, ...] | None:
    """Algorithm 6 with a deterministic tie rule: among the maximisers (over the new ads, or over all ads as
    printed) the one of smallest ``priority[a]``. None when the rule re-picks a chosen ad: A does not change, the
    next round is the same, and the loop never ends."""
    runs, A = Runs(inst, over), ()
    while len(A) < k:
        step = runs.step(frozenset(A))
        cands = list(step.new_maximisers) + (list(A) if step.stall else [])
        pick = min(cands, key=lambda a: priority[a])
        if pick in A:
            return None
        A += (pick,)
    return A


TIE_WORK_LIMIT = 3 * 10**7
"""The most benefit terms (distinct states visited × ads × contexts) :func:`revenue_range` computes before it
refuses (a few seconds of exact arithmetic)."""


@dataclass(frozen=True)
class RevenueRange:
    """The revenues Algorithm 6 can end with after k rounds under every tie rule (argmax over the new ads, any
    maximiser), each with a run (its order) that ends there, and the number of distinct states visited."""

    least: Any
    least_order: tuple[int, ...]
    most: Any
    most_order: tuple[int, ...]
    states: int


def _benefit(weights: tuple[Any, ...], row: list[Any], cur: Any) -> Any:
    """``B(A, {a})`` from ad a's value row and A's per-context best values ``cur``."""
    return sum((w * (v - c) for w, v, c in zip(weights, row, cur) if v > c), ZERO)


def maximisers_along(inst: AdInstance, order: tuple[int, ...]) -> list[tuple[int, ...]]:
    """For each round of a run that adds ``order`` (a_1, a_2, ...): the ads not yet chosen whose benefit is the
    largest (the ads a tie rule could have added there; more than one is a tie)."""
    vals, m = inst.values(), inst.n_contexts
    cur, out = [ZERO] * m, []
    for l, chosen in enumerate(order):
        b = {a: _benefit(inst.weights, vals[a], cur) for a in range(inst.n_ads) if a not in order[:l]}
        best = max(b.values())
        out.append(tuple(a for a, v in b.items() if v == best))
        cur = [max(x, y) for x, y in zip(cur, vals[chosen])]
    return out


def revenue_range(inst: AdInstance, k: int, max_work: int = TIE_WORK_LIMIT) -> RevenueRange:
    """The least and the greatest E[Revenue(A|ĉ)] of the k ads Algorithm 6 sends, over every tie rule (exactly).

    The documents print ``argmax_a b_a`` with no tie rule, so a statement about "Greedy's" ads holds only if it
    holds for every run. A round's benefits depend on A only through the per-context best value
    ``cur_j = max_{a∈A} v(a, c_j)``, and an ad of positive benefit is never in A; so runs that reach the same
    ``(l, cur)`` continue alike, and a state is that pair (any number of ads, no limit of :data:`MAX_ADS`). Once the
    largest benefit is 0 every later round adds 0 (benefits only shrink, Fact 3), whatever it adds: the revenue is
    final (the order is completed with the lowest unchosen ids). Refused (InvalidInput) when the states visited
    would cost more than ``max_work`` benefit terms (states × ads × contexts)."""
    greedy_run(inst, k)  # validates inst and k
    vals = inst.values()
    n, m = inst.n_ads, inst.n_contexts

    def complete(order: tuple[int, ...]) -> tuple[int, ...]:
        rest = [a for a in range(n) if a not in order]
        return order + tuple(rest[:k - len(order)])

    ends: dict[tuple, tuple[Any, tuple[int, ...]]] = {}  # final cur -> (revenue, an order reaching it)
    level: dict[tuple, tuple[Any, tuple[int, ...]]] = {tuple([ZERO] * m): (ZERO, ())}
    seen = 1
    for _ in range(k):
        nxt: dict[tuple, tuple[Any, tuple[int, ...]]] = {}
        for cur, (rev, order) in level.items():
            b = [_benefit(inst.weights, vals[a], cur) for a in range(n)]
            best = max(b[a] for a in range(n) if a not in order)
            if best == 0:
                ends.setdefault(cur, (rev, complete(order)))
                continue
            for a in range(n):
                if b[a] == best:  # positive: a is not in A
                    new = tuple(max(x, y) for x, y in zip(cur, vals[a]))
                    if new not in nxt:
                        nxt[new] = (rev + best, order + (a,))
                        seen += 1
                        if seen * n * m > max_work:
                            raise InvalidInput(
                                f"Greedy's runs under every tie rule pass through more than {seen - 1:,} distinct "
                                f"states (k = {k}, {n} ads, {m} contexts: over {max_work:,} benefit terms): deciding "
                                "what every tie rule gives is refused")
        level = nxt
    for cur, v in level.items():
        ends.setdefault(cur, v)
    least = min(ends.values(), key=lambda v: v[0])
    most = max(ends.values(), key=lambda v: v[0])
    return RevenueRange(least[0], least[1], most[0], most[1], seen)
