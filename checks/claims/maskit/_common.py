"""Shared helpers of the maskit checks: property searches with a stated bound, rational printing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from privclaims.checks import searched
from privclaims.checks.registry import Context
from privclaims.checks.verdict import Outcome, Reading, in_model, refuted
from privclaims.checks.claims.maskit._quotes import QUOTES, S000, S001, render
from privclaims.theory.maskit.model import MarkovChain

if TYPE_CHECKING:  # the searches (hypothesis) are imported when a check runs, not when the ledger starts
    from privclaims.counterexamples.instance_parts import ReadParts


__all__ = ["S000", "S001", "QUOTES", "render"]

def one_reading(meaning: str, source: str, name: str = "as stated") -> tuple[Reading, ...]:
    """The single reading of a claim whose own sentence the documents give one reading of (the readings of the
    definitions it rests on - δ-privacy, the system model, the optimum's domain... - are declared once in
    ``checks/definitions/maskit.py`` and reach the claim through ``rests_on``)."""
    return (Reading(name, "The documents give one reading: " + meaning, source),)


def examples(ctx: Context, full: int, quick: int | None = None) -> int:
    return quick if (ctx.quick and quick is not None) else full


def describe_chain(ch: MarkovChain) -> dict:
    return {"contexts": list(ch.contexts), "initial": list(ch.initial), "steps": [[list(r) for r in m] for m in ch.steps]}


def describe(x: Any) -> Any:
    if isinstance(x, MarkovChain):
        return describe_chain(x)
    if isinstance(x, tuple):
        return [describe(v) for v in x]
    return x


SUPPRESSION_MODEL = "suppression system (001 §2.1 = 000 §3.3): a MaskIt check on a Markov chain M"


def instance_problems(w: Any) -> list[str]:
    """The model of a MaskIt witness: its chain is a validated Markov chain, every suppression vector in it has
    entries in [0, 1] and its δ lies in (0, 1) (:func:`privclaims.theory.maskit.models.chain_instance_problems`)."""
    from fractions import Fraction

    from privclaims.theory.maskit.models import chain_instance_problems

    items = list(w) if isinstance(w, (tuple, list)) else [w]
    chains = [x for x in items if isinstance(x, MarkovChain)]
    if not chains:
        return []  # not a chain instance (e.g. a set-labelled generalisation): validated by its own constructor
    ch = chains[0]
    bad = chain_instance_problems(ch)
    for x in items:
        if isinstance(x, list) and x and isinstance(x[0], (list, tuple)) and len(x) == ch.T:
            bad += chain_instance_problems(ch, p=x)
        elif isinstance(x, Fraction) or type(x).__name__ == "mpq":
            bad += chain_instance_problems(ch, delta=x)
    return bad


def property_verdict(ctx: Context, name: str, strategy: Any, holds: Callable[[Any], bool], *, n: int,
                     encoding: str, verify: Callable[[Any], bool] | None = None,
                     model: tuple[str, Callable[[Any], list[str]]] = (SUPPRESSION_MODEL, instance_problems),
                     premise: str | None = None,
                     reads: ReadParts | tuple[str, Callable[[Any], Any]] | None = None,
                     **evidence: Any) -> Outcome:
    """:func:`privclaims.checks.searched.property_verdict` with maskit's defaults: up to ``n`` examples, the
    suppression system's model (:func:`instance_problems`), chains shown by :func:`describe`."""
    return searched.property_verdict(ctx, name, strategy, holds, examples=n, encoding=encoding, model=model,
                                     verify=verify, describe=describe, premise=premise, reads=reads,
                                     minimal="the instance hypothesis shrank to (smaller chains and vectors were "
                                             "tried first)", **evidence)


def release_brackets(o: Any, T: int) -> dict[int, tuple]:
    """The nearest releases around each t = 1..T of an output (prefix) ``o`` (context indices, None = ⊥), as
    Proposition 5 and Corollary 1 condition on them: ``(t1, i1, t2, j2)`` with (t1, i1) the last release at or
    before t ((0, None) = start) and (t2, j2) the first after it ((T + 1, None) = end), or (t2, j2) = (t1, i1)
    when t itself is a release."""
    rel = [(0, None)] + [(k, v) for k, v in enumerate(o, start=1) if v is not None] + [(T + 1, None)]
    out = {}
    for t in range(1, T + 1):
        k = max(a for a, (tm, _) in enumerate(rel) if tm <= t)
        t1, i1 = rel[k]
        t2, j2 = rel[k + 1] if t1 < t else rel[k]
        out[t] = (t1, i1, t2, j2)
    return out


def exhaustive_extension(ctx: Context, out: Outcome, searches: Any) -> Outcome:
    """A property verdict extended by bounded exhaustive searches, in the full ledger and while it holds
    (``verified-bounded``): ``searches`` yields ``(evidence key, candidates, is_counterexample, bound, encoding)``;
    each runs with :func:`privclaims.counterexamples.maskit_exhaustive.bounded`, its record goes into the evidence under
    its key, and the first witness refutes the claim (the searches after it do not run)."""
    from privclaims.counterexamples.maskit_exhaustive import bounded, describe_instance

    if out.verdict != "verified-bounded" or ctx.quick:
        return out
    for key, candidates, bad, bound, encoding in searches:
        raw: dict[str, Any] = {}

        def caught(c: Any, bad: Any = bad) -> bool:
            return bool(bad(c)) and (raw.__setitem__("w", c) is None)

        res = bounded(candidates, caught, describe=describe_instance, bound=bound, encoding=encoding)
        out.evidence[key] = res.as_json()
        if res.found:
            return refuted(witness=res.witness, search=res.as_json(),
                           model=in_model(SUPPRESSION_MODEL, instance_problems(raw["w"]),
                                          minimal=f"the first instance of the enumeration ({bound}), smallest first"))
    return out


# The adjudication note of each general claim (issue 12): how the two documents word it, and which reading of the
# claim's own sentence is tested. (Which definitions it rests on - Definition 6 and the others of
# checks/definitions/maskit.py - each check declares with rests_on.)
_BOTH = "000 and 001 state it alike; no second reading found"
NOTES: dict[str, str] = {
    "maskit.def_markov": _BOTH + " (a time-inhomogeneous chain: one matrix per step)",
    "maskit.prop1": "000 names the sensitive context c_i, 001 names it s: the same statement",
    "maskit.def_hmm": _BOTH + " (Eq. 3.3 = 001 Eq. 3)",
    "maskit.prop2": _BOTH + "; the adversary knows M and the suppression probabilities",
    "maskit.def7": "privacy(p) is 'the smallest δ for which p preserves δ-privacy'; with the non-strict '<=' of "
                    "Definition 6 the smallest δ exists (a minimum, the largest gain floored at 0); " + _BOTH,
    "maskit.def8": "both documents call ⪯ 'a total ordering' before defining it pointwise; the definition (p_i^t <= q_i^t "
                    "for all i, t) is what is tested, and it is a partial order - the word 'total' is a remark the "
                    "definition does not rely on",
    "maskit.thm3": _BOTH + " (000 Theorem 3 = 001 Theorem 1): 'Privacy is a monotone property: If p preserves "
                    "δ-privacy then so does any q dominating p'",
    "maskit.text_thm3_cases": _BOTH + " (proof step of Theorem 3 / Theorem 1)",
    "maskit.claim1": _BOTH + " (000 Claim 1, Eq. 3.5 = 001 Claim 1)",
    "maskit.obs1": _BOTH + " (utility as in Definition of utility: expected number of released states)",
    "maskit.text_search": _BOTH + "; 'minimal' = no single coordinate can be lowered by a grid step",
    "maskit.lem1": _BOTH + " (000 Lemma 1 = 001 Lemma 1)",
    "maskit.lem2": "000 Lemma 2 = 001 Lemma 2, worded alike: the statement says “among all suppression probabilities that "
                    "preserve δ-privacy”, its proof optimises over the grid {0/d, ..., d/d}: the optimum's domain is a definition "
                    "with both readings (checks/definitions/maskit.py)",
    "maskit.cx_search": _BOTH + "; counts of ISPRIVATE calls are measured, not timed",
    "maskit.alg_partial": "000 numbers the replacement 'Lines 1-3', 001 'Lines 1-4': the same set 𝒪",
    "maskit.prop3": _BOTH,
    "maskit.prop4": _BOTH,
    "maskit.text_partial_calc": _BOTH,
    "maskit.lem3": "000 Lemma 3 = the efficiency part of 001 Theorem 2; " + _BOTH,
    "maskit.lem4": "000 Lemma 4 = the correctness part of 001 Theorem 2; " + _BOTH,
    "maskit.lem5": _BOTH + " (000 Lemma 5 = 001 Lemma 3)",
    "maskit.alg2": "the listing's breach test is 'posterior - prior > δ' in both documents, the complement of "
                    "Definition 6's '<= δ'",
    "maskit.alg3": "the listing's breach test is 'posterior - prior > δ' in both documents",
    "maskit.thm4": _BOTH + " (000 Theorem 4 = 001 Theorem 3); its utility part says “among all suppression probabilities "
                    "that preserve δ-privacy” like Lemma 2, whose proof optimises over the grid {0/d, ..., d/d} (the optimum's "
                    "domain: checks/definitions/maskit.py)",
    "maskit.alg4": "the suppression test is 'Pr[X_t = s | o, c_j] - Pr[X_t = s] > δ' for some POSSIBLE state c_j "
                    "(the check ignores the current state) in both documents; the prose “release ... if for any possible "
                    "state c_j at time t' , releasing c_j does not violate privacy” is read as 'for every', as the listing's loop "
                    "“for each possible state $j$” returning false on the first breach fixes it (a 'for some' reading "
                    "contradicts the listing, so it is not a second reading)",
    "maskit.text_possible": _BOTH,
    "maskit.prop5": _BOTH + "; the adversary knows M and the simulatable check",
    "maskit.claim2": _BOTH,
    "maskit.claim3": _BOTH + " (Eq. 3.6 = 001 Eq. 5)",
    "maskit.cor1": _BOTH,
    "maskit.lem6": _BOTH + " (000 Lemma 6 = 001 Theorem 4)",
    "maskit.lem7": "the lemma is worded alike (000 Lemma 7 = 001 Lemma 4); 001's proof writes the breach with c_i "
                    "where the thesis writes the possible state c_j - an index slip in the proof, not a second reading "
                    "of the lemma",
    "maskit.claim4": _BOTH + " (Eqs. 3.7-3.9 = 001 Eqs. 6-8)",
    "maskit.lem8": _BOTH + "; operation counts are measured",
    "maskit.lem9": "000 says Line (6) of Algorithm 4, 001 Line (5): the same line (the loop over t)",
    "maskit.claim5": _BOTH,
    "maskit.alg5": "the listing is in the thesis only; 001 describes the same change in prose",
    "maskit.thm5": "thesis only (no numbered counterpart in 001)",
    "maskit.text_ex4_weakness": _BOTH,
    "maskit.def_supp": _BOTH,
    "maskit.thm6": "000: the hybrid “correctly computes the utility” of both checks and picks the higher; 001: it "
                    "“correctly chooses the check (simulatable or probabilistic) that provides more utility”. Both mean EXPECTED utility (001 §7.2 itself "
                    "reports the hybrid picking the worse check on 5% of users' actual traces), the reading tested",
    "maskit.claim7": _BOTH + " (000 Claim 7 = 001 Claim 6)",
    "maskit.text_offline_online": _BOTH,
    "maskit.def_masksensitive": "breached means gain '> δ' in both documents, the complement of Definition 6",
    "maskit.p_def_weak": "001 §6 only (the thesis has no chapter on weaker adversaries)",
    "maskit.p_eq11": "001 §6 only",
    "maskit.p_lc1": "001 §6 only; the gain is a difference with '<= δ', as in Definition 1",
    "maskit.p_thm6": "001 §6 only",
    "maskit.p_thm7": "001 §6 only; μ counts the state IDs of positive prior whose set label contains s",
    "maskit.p_claim7": "001 §6 only",
    "maskit.p_claim8": "001 §6 only",
    "maskit.p_claim9": "001 §6 only",
    "maskit.p_claim10": "001 §6 only",
    "maskit.p_text_d": "001 §7.1 only; 'expected to go up' is read as: utility and ISPRIVATE calls do not decrease "
                        "from d = 10 to larger d",
    "maskit.alg1": _BOTH + " (learning by counting transitions between consecutive time steps)",
    "dp.thm2": "thesis only (§2.2.2). The theorem names no prior, but the paragraph before it fixes one: “For adversaries "
                "with knowing only the system used we assume a uniform prior” (and the proof: “The adversary's prior belief "
                "is $1/n$”), so a non-uniform prior - under which the bound fails - is not a reading the thesis supports; "
                "'descendants' are the leaf contexts under a cut node",
}


def stated(claim_id: str) -> tuple[Reading, ...]:
    """The single reading of a general claim: the catalogued statement at the catalogued source with the
    statement's decisive words quoted verbatim (``_quotes.QUOTES``) and the adjudication note (NOTES)."""
    from privclaims.checks.catalog import catalog

    entry = catalog()[claim_id]
    return one_reading(f"{entry.statement} [{NOTES[claim_id]}]", f"{entry.source}; quoted: {render(QUOTES[claim_id])}")


def quoted(claim_id: str) -> tuple[Reading, ...]:
    """The single reading of a claim about one instance (an example, a worked number): the catalogued
    statement at the catalogued source, with its decisive words quoted verbatim (``_quotes.QUOTES``)."""
    from privclaims.checks.catalog import catalog

    entry = catalog()[claim_id]
    return one_reading(f"the catalogued statement, read literally: {entry.statement}",
                       f"{entry.source}; quoted: {render(QUOTES[claim_id])}")
