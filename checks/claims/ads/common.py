"""Helpers shared by the ads checks: running a property search and turning it into a verdict."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from privclaims.checks.verdict import Outcome, discrepancy, refuted, unverifiable, verified_bounded

if TYPE_CHECKING:  # the searches (hypothesis, z3) are imported when a check runs, not when the ledger starts
    from privclaims.counterexamples.harness import SearchResult
    from privclaims.counterexamples.instance_parts import ReadParts


def search(ctx: Any, name: str, strategy: Any, holds: Callable[[Any], Any], examples: int,
           encoding: str, premise: str | None = None,
           reads: ReadParts | tuple[str, Callable[[Any], Any]] | None = None) -> SearchResult:
    """``property_search`` with the run's seed for ``name``; witnesses re-verified by ``holds``; ``premise`` and
    ``reads`` as in ``property_search`` (``holds`` returns ``VACUOUS`` outside the premise; instances are counted
    distinct by what it reads)."""
    from privclaims.counterexamples.ads_strategies import describe_instance
    from privclaims.counterexamples.property_search import property_search

    return property_search(strategy, holds, examples=examples, seed=ctx.int_seed(name), encoding=encoding,
                           verify=lambda x: not holds(x), describe=describe_instance, premise=premise, reads=reads)


def summary(r: SearchResult) -> dict[str, Any]:
    """A search's JSON without solver statistics (memory use varies between runs)."""
    return {"status": r.status, "bound": r.bound, "encoding": r.encoding, "witness": r.witness,
            "verified_by_exact": r.verified_by_exact}


def verdict_of(results: dict[str, SearchResult], **evidence: Any) -> Outcome:
    """``refuted`` with the first confirmed witness, else ``verified-bounded`` listing every bound.

    A search that timed out or stayed undecided is reported in the evidence and does not count
    toward the bound."""
    for name, r in results.items():
        if r.found:
            return refuted(witness=r.witness, search=name, searches={k: summary(v) for k, v in results.items()},
                           **evidence)
    done = [f"{name}: {r.bound}" for name, r in results.items() if r.exhausted]
    if not done:
        return Outcome("error", {"error": "no search completed", "searches": {k: summary(v) for k, v in results.items()}})
    return verified_bounded(bound="; ".join(done), searches={k: summary(v) for k, v in results.items()}, **evidence)


def examples(ctx: Any, quick: int, full: int) -> int:
    return quick if ctx.quick else full


def printed_figures(printed: dict[str, dict[str, Any]], missing: str, why: str, **evidence: Any) -> Outcome:
    """A figure the documents print but that cannot be recomputed here (a cited report, a proprietary log):
    what can still be computed is the documents' internal consistency. ``printed`` maps each source (file
    and section) to the values it prints, by name. A name printed with different values by two sources is a
    ``discrepancy`` (the documents contradict each other); otherwise the figure is ``unverifiable``
    (``missing`` says what is missing, ``why`` says it in plain words)."""
    names = sorted({n for v in printed.values() for n in v})
    differ = {n: {src: v[n] for src, v in printed.items() if n in v} for n in names}
    differ = {n: by_src for n, by_src in differ.items() if len(set(map(str, by_src.values()))) > 1}
    if differ:
        said = "; ".join(f"{n}: " + ", ".join(f"{src} prints {val}" for src, val in by_src.items())
                         for n, by_src in differ.items())
        return discrepancy(paper=differ, computed="the documents print different values", printed=printed,
                           missing=missing, **evidence).because(
            f"The documents contradict each other on a printed figure ({said}). {why}")
    return unverifiable(missing=missing, printed=printed, documents_agree=names, **evidence).because(
        why + " The documents that print the figure agree on it (" + ", ".join(names) + ").")


# --------------------------------------------------------------------------- readings and the model (issue 21)

AD_MODEL_NAME = ("000_211156f2009240b4.txt §4.2.3 / 002_9d55ef468949585c.txt §3.2: an instance for ĉ (Pr[c|ĉ] a "
                 "distribution over the leaves c → ĉ, CTR(a|c) in [0, 1], payments ≥ 0 {payments}), {ks}, α ≥ 0")


def payments_of(c: Any) -> str:
    """The payment model a combination reads the framework with ("per-ad" or "per-context")."""
    from privclaims.checks.definitions.ads import AD_MODEL, PAY_PER_AD

    return "per-ad" if c[AD_MODEL] == PAY_PER_AD.name else "per-context"


def ad_model(inst: Any, payments: str, minimal: str, k: Any = None, alpha: Any = None,
             k_min: int | None = None, sizes: Any = ()) -> dict[str, Any]:
    """``in_model`` for an ad instance (and its k, α) under the payment model ``payments``. With ``k_min`` (a claim
    on Eq. (4.3), whose range of k is a reading) the model states that range instead of 1 ≤ k ≤ |𝒜|, and each
    number of ads in ``sizes`` (the outputs the witness shows) must lie in it."""
    from privclaims.checks.verdict import in_model
    from privclaims.theory.ads.models import alpha_problems, instance_problems, k_problems, size_range_problems

    problems = instance_problems(inst, payments)
    if k is not None and not problems:
        problems += k_problems(inst, k)
    if k_min is not None and not problems:
        problems += size_range_problems(inst, sizes, k_min)
    if alpha is not None:
        problems += alpha_problems(alpha)
    label = "one per ad" if payments == "per-ad" else "per ad and context"
    ks = "1 ≤ k ≤ |𝒜|" if k_min is None else f"Eq. (4.3)'s k and every output's |A| in {k_min}..|𝒜|"
    return in_model(AD_MODEL_NAME.format(payments=label, ks=ks), problems, minimal=minimal)


def value_only(holds: Callable[[Any], bool]) -> Callable[[Any], bool]:
    """A property of the value matrix, checked on an instance (or an (instance, parameter) pair) drawn with
    context-dependent payments, whose per-ad realisation (one payment per ad, no threshold) is built and checked to
    have the same values: the property, which reads the values only (the revenue, the client's argmax, Greedy, the
    optimum), then has the same truth under both readings of the ad model
    (:data:`privclaims.checks.definitions.ads.AD_MODEL`), and one search serves both. A realisation that is not
    a per-ad instance with the same values is our bug, not a counterexample to the claim: it raises (the check's
    verdict is then an error, never a refutation)."""
    from privclaims.theory.ads.models import instance_problems, per_ad_realisation

    def both(x: Any) -> bool:
        inst = x[0] if isinstance(x, tuple) else x
        twin = per_ad_realisation(inst)
        problems = instance_problems(twin, "per-ad") or ([] if twin.values() == inst.values() else
                                                          ["its values differ from the instance's"])
        if problems:
            raise RuntimeError(f"per_ad_realisation built a wrong per-ad twin ({'; '.join(problems)}) of {inst!r}")
        return holds(x)

    return both


VALUE_ONLY_NOTE = ("one search over instances with context-dependent payments serves both payment readings: each "
                   "instance's per-ad realisation (p_a = max_c v(a, c), CTR = v/p_a) is built and has the same values, "
                   "which are all the property reads")
VALUE_ONLY_REASON = ("the property reads only the values p·CTR, and both payment readings give the same value matrices "
                     "(definition ad-model's note): " + VALUE_ONLY_NOTE + " (value_only)")


def by_dims(ctx: Any, dims: tuple[Any, ...], compute: Callable[..., Any], same_under: dict[Any, str] | None = None,
            **shared: Any) -> Any:
    """``by_reading`` over ``ctx.combinations`` where the outcome depends only on the readings of the definitions
    ``dims``: ``compute(*reading_names)`` once per combination of them, the one Outcome object given to every
    combination it serves. Every other dimension the claim's readings vary in (and any dimension along which
    ``compute`` returns one object for several keys) needs its reason in ``same_under``
    (:func:`privclaims.checks.verdict.same_under_evidence`, checked by ``by_reading`` and by the runner)."""
    from privclaims.checks.verdict import by_reading

    cache: dict[tuple[str, ...], Any] = {}
    out = {}
    for c in ctx.combinations:
        key = tuple(c[d] for d in dims)
        if key not in cache:
            cache[key] = compute(*key)
        out[c] = cache[key]
    return by_reading(out, same_under=same_under, **shared)


def grid_instances(max_ads: int, max_contexts: int, values: tuple[Any, ...]):
    """Instances in increasing size (ads, then contexts), uniform Pr[c|ĉ], one payment per ad (1) and CTRs from
    ``values``: the search space below a witness, for minimality."""
    from itertools import product

    from privclaims.theory.ads.model import ad_instance
    from privclaims.theory.numbers import Q

    for m in range(1, max_ads + 1):
        for n in range(1, max_contexts + 1):
            for flat in product(values, repeat=m * n):
                rows = [list(flat[a * n:(a + 1) * n]) for a in range(m)]
                yield (m, n), ad_instance([Q(1, n)] * n, rows)


def smallest_witness(pred: Callable[..., bool], max_ads: int, max_contexts: int, values: tuple[Any, ...],
                     params: tuple[Any, ...] = (None,)) -> tuple[Any, Any, dict[str, int]]:
    """The first (instance, parameter) of :func:`grid_instances` (× ``params``) with ``pred(inst, p)``, and how many
    candidates of each smaller size were searched without one; (None, None, counts) if none."""
    counts: dict[str, int] = {}
    for size, inst in grid_instances(max_ads, max_contexts, values):
        for p in params:
            key = f"{size[0]} ads × {size[1]} contexts"
            counts[key] = counts.get(key, 0) + 1
            if pred(inst, p):
                return inst, p, counts
    return None, None, counts


def instance_from_json(d: dict[str, Any]) -> Any:
    """The instance an ``AdInstance.as_json()`` describes (to validate a search's witness against the model)."""
    from privclaims.theory.ads.model import ad_instance

    return ad_instance(d["Pr[c|chat]"], d["CTR"], d["payments"], threshold=d.get("threshold"))


def search_refutation(out: Any, payments: str = "per-context") -> Any:
    """A ``verdict_of`` refutation from a property search, with its witness validated against the model (the search
    draws the witness; it is not minimised)."""
    w = out.evidence.get("witness") or {}
    inst = instance_from_json(w["instance"] if "instance" in w else w)
    out.evidence["model"] = ad_model(inst, payments, "found by a property search; not minimised")
    return out
