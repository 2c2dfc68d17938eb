"""Shared helpers of the maskit checks: property searches with a stated bound, rational printing."""

from __future__ import annotations

from typing import Any, Callable

from privclaims.checks.registry import Context
from privclaims.checks.verdict import Outcome, Reading, refuted, verified_bounded
from privclaims.checks.claims.maskit._quotes import DEF6, QUOTES, S000, S001, render
from privclaims.counterexamples.maskit_exhaustive import bounded, describe_instance
from privclaims.counterexamples.property_search import property_search
from privclaims.theory.maskit.model import MarkovChain


__all__ = ["S000", "S001", "QUOTES", "render"]

# Definition 6 (thesis §2.2.2) = Definition 1 (001 §2.1). Both documents read the same way on every point we
# checked: the gain is a DIFFERENCE posterior - prior (not a ratio), against the prior at the same time t,
# with "<=" (not "<": Example 1 calls a gain of exactly 1/6 "δ = 1/6-privacy"), and the adversary knows the
# chain M and the system A (the probabilistic vector / the simulatable rule). The one difference: 001
# quantifies over inputs with Pr[x] > 0 only; the thesis over all inputs - but Pr[X_t = s | o] is only
# defined for outputs o of positive probability, which both readings (and our ISPRIVATE) require, so the
# two coincide on every instance.
DEF6_SOURCE = "Definition 6 / Definition 1 quoted: " + render(DEF6)
DEF6_MEANING = ("δ-privacy means posterior minus prior <= δ (a difference, prior at the same time t, non-strict), for every output "
                "of positive probability, every t and every sensitive s, against an adversary who knows the chain and the system")


def one_reading(meaning: str, source: str, name: str = "as stated") -> tuple[Reading, ...]:
    """The single reading of a claim whose documents give one: ``meaning`` is prefixed with the phrase the
    ledger's readers look for."""
    return (Reading(name, "The documents give one reading: " + meaning, source),)


def def6_reading(meaning: str, source: str) -> tuple[Reading, ...]:
    """One reading of a claim about δ-privacy: the claim's own statement, with Definition 6 read as above."""
    return one_reading(f"{meaning} (with {DEF6_MEANING})", f"{source}; Definition 6: {DEF6_SOURCE}")


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


def property_verdict(ctx: Context, name: str, strategy: Any, holds: Callable[[Any], bool], *, n: int,
                     encoding: str, verify: Callable[[Any], bool] | None = None, **evidence: Any) -> Outcome:
    """verified-bounded after ``n`` hypothesis examples without a counterexample, else refuted with
    the shrunk instance (re-verified by ``verify`` = the exact twin, when given)."""
    res = property_search(strategy, holds, examples=n, seed=ctx.int_seed(name), encoding=encoding,
                          verify=verify, describe=lambda w: describe(w))
    if res.found:
        return refuted(witness=res.witness, search=res.as_json(), **evidence)
    if res.status == "spurious":
        return Outcome("error", {"reason": "counterexample not confirmed by the exact twin", "search": res.as_json()})
    return verified_bounded(bound=res.bound, encoding=encoding, **evidence)


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
    if out.verdict != "verified-bounded" or ctx.quick:
        return out
    for key, candidates, bad, bound, encoding in searches:
        res = bounded(candidates, bad, describe=describe_instance, bound=bound, encoding=encoding)
        out.evidence[key] = res.as_json()
        if res.found:
            return refuted(witness=res.witness, search=res.as_json())
    return out


# The adjudication note of each general claim (issue 12): how the two documents word it, and which
# reading is tested. Claims marked True in the second field also depend on Definition 6 (DEF6_MEANING).
_BOTH = "000 and 001 state it alike; no second reading found"
NOTES: dict[str, tuple[str, bool]] = {
    "maskit.def_markov": (_BOTH + " (a time-inhomogeneous chain: one matrix per step)", False),
    "maskit.prop1": ("000 names the sensitive context c_i, 001 names it s: the same statement", False),
    "maskit.def_hmm": (_BOTH + " (Eq. 3.3 = 001 Eq. 3)", False),
    "maskit.prop2": (_BOTH + "; the adversary knows M and the suppression probabilities", True),
    "maskit.def7": ("privacy(p) is 'the smallest δ for which p preserves δ-privacy'; with the non-strict '<=' of "
                    "Definition 6 the smallest δ exists (a minimum, the largest gain floored at 0); " + _BOTH, True),
    "maskit.def8": ("both documents call ⪯ 'a total ordering' before defining it pointwise; the definition (p_i^t <= q_i^t "
                    "for all i, t) is what is tested, and it is a partial order - the word 'total' is a remark the "
                    "definition does not rely on", False),
    "maskit.thm3": (_BOTH + " (000 Theorem 3 = 001 Theorem 1): 'Privacy is a monotone property: If p preserves "
                    "δ-privacy then so does any q dominating p'", True),
    "maskit.text_thm3_cases": (_BOTH + " (proof step of Theorem 3 / Theorem 1)", False),
    "maskit.claim1": (_BOTH + " (000 Claim 1, Eq. 3.5 = 001 Claim 1)", False),
    "maskit.obs1": (_BOTH + " (utility as in Definition of utility: expected number of released states)", False),
    "maskit.text_search": (_BOTH + "; 'minimal' = no single coordinate can be lowered by a grid step", True),
    "maskit.lem1": (_BOTH + " (000 Lemma 1 = 001 Lemma 1)", True),
    "maskit.lem2": ("000 Lemma 2 = 001 Lemma 2, worded alike: the statement says 'among all suppression probabilities that "
                    "preserve δ-privacy', its proof optimises over the grid {0/d, ..., d/d}; both readings are tested", True),
    "maskit.cx_search": (_BOTH + "; counts of ISPRIVATE calls are measured, not timed", False),
    "maskit.alg_partial": ("000 numbers the replacement 'Lines 1-3', 001 'Lines 1-4': the same set 𝒪", True),
    "maskit.prop3": (_BOTH, False),
    "maskit.prop4": (_BOTH, False),
    "maskit.text_partial_calc": (_BOTH, False),
    "maskit.lem3": ("000 Lemma 3 = the efficiency part of 001 Theorem 2; " + _BOTH, False),
    "maskit.lem4": ("000 Lemma 4 = the correctness part of 001 Theorem 2; " + _BOTH, True),
    "maskit.lem5": (_BOTH + " (000 Lemma 5 = 001 Lemma 3)", True),
    "maskit.alg2": ("the listing's breach test is 'posterior - prior > δ' in both documents, the complement of "
                    "Definition 6's '<= δ'", True),
    "maskit.alg3": ("the listing's breach test is 'posterior - prior > δ' in both documents", True),
    "maskit.thm4": (_BOTH + " (000 Theorem 4 = 001 Theorem 3); its utility part says 'among all suppression probabilities "
                    "that preserve δ-privacy' like Lemma 2, whose proof optimises over the grid {0/d, ..., d/d}: both readings "
                    "are tested", True),
    "maskit.alg4": ("the suppression test is 'Pr[X_t = s | o, c_j] - Pr[X_t = s] > δ' for some POSSIBLE state c_j "
                    "(the check ignores the current state) in both documents; the prose 'release ... if for any possible "
                    "state c_j ..., releasing c_j does not violate privacy' is read as 'for every', as the listing's loop "
                    "'for each possible state j' returning false on the first breach fixes it (a 'for some' reading "
                    "contradicts the listing, so it is not a second reading)", True),
    "maskit.text_possible": (_BOTH, False),
    "maskit.prop5": (_BOTH + "; the adversary knows M and the simulatable check", True),
    "maskit.claim2": (_BOTH, False),
    "maskit.claim3": (_BOTH + " (Eq. 3.6 = 001 Eq. 5)", False),
    "maskit.cor1": (_BOTH, False),
    "maskit.lem6": (_BOTH + " (000 Lemma 6 = 001 Theorem 4)", True),
    "maskit.lem7": ("the lemma is worded alike (000 Lemma 7 = 001 Lemma 4); 001's proof writes the breach with c_i "
                    "where the thesis writes the possible state c_j - an index slip in the proof, not a second reading "
                    "of the lemma", True),
    "maskit.claim4": (_BOTH + " (Eqs. 3.7-3.9 = 001 Eqs. 6-8)", True),
    "maskit.lem8": (_BOTH + "; operation counts are measured", False),
    "maskit.lem9": ("000 says Line (6) of Algorithm 4, 001 Line (5): the same line (the loop over t)", True),
    "maskit.claim5": (_BOTH, True),
    "maskit.alg5": ("the listing is in the thesis only; 001 describes the same change in prose", True),
    "maskit.thm5": ("thesis only (no numbered counterpart in 001)", True),
    "maskit.text_ex4_weakness": (_BOTH, True),
    "maskit.def_supp": (_BOTH, True),
    "maskit.thm6": ("000: the hybrid 'correctly computes the utility' of both checks and picks the higher; 001: it "
                    "'correctly chooses the check that provides more utility'. Both mean EXPECTED utility (001 §7.2 itself "
                    "reports the hybrid picking the worse check on 5% of users' actual traces), the reading tested", True),
    "maskit.claim7": (_BOTH + " (000 Claim 7 = 001 Claim 6)", True),
    "maskit.text_offline_online": (_BOTH, False),
    "maskit.def_masksensitive": ("breached means gain '> δ' in both documents, the complement of Definition 6", True),
    "maskit.p_def_weak": ("001 §6 only (the thesis has no chapter on weaker adversaries)", False),
    "maskit.p_eq11": ("001 §6 only", False),
    "maskit.p_lc1": ("001 §6 only; the gain is a difference with '<= δ', as in Definition 1", True),
    "maskit.p_thm6": ("001 §6 only", True),
    "maskit.p_thm7": ("001 §6 only; μ counts the state IDs of positive prior whose set label contains s", True),
    "maskit.p_claim7": ("001 §6 only", True),
    "maskit.p_claim8": ("001 §6 only", False),
    "maskit.p_claim9": ("001 §6 only", True),
    "maskit.p_claim10": ("001 §6 only", False),
    "maskit.p_text_d": ("001 §7.1 only; 'expected to go up' is read as: utility and ISPRIVATE calls do not decrease "
                        "from d = 10 to larger d", False),
    "maskit.alg1": (_BOTH + " (learning by counting transitions between consecutive time steps)", False),
    "dp.thm2": ("thesis only (§2.2.2). The theorem names no prior, but the paragraph before it fixes one: 'For adversaries "
                "with knowing only the system used we assume a uniform prior' (and the proof: 'The adversary's prior belief "
                "is 1/n'), so a non-uniform prior - under which the bound fails - is not a reading the thesis supports; "
                "'descendants' are the leaf contexts under a cut node", True),
}


def stated(claim_id: str) -> tuple[Reading, ...]:
    """The single reading of a general claim: the catalogued statement at the catalogued source with the
    statement's decisive words quoted verbatim (``_quotes.QUOTES``), the adjudication note (NOTES) and, where
    the claim is about δ-privacy, Definition 6 as read above."""
    from privclaims.checks.catalog import catalog

    entry = catalog()[claim_id]
    note, def6 = NOTES[claim_id]
    meaning = f"{entry.statement} [{note}]"
    source = f"{entry.source}; quoted: {render(QUOTES[claim_id])}"
    if def6:
        return def6_reading(meaning, source)
    return one_reading(meaning, source)


def quoted(claim_id: str) -> tuple[Reading, ...]:
    """The single reading of a claim about one instance (an example, a worked number): the catalogued
    statement at the catalogued source, with its decisive words quoted verbatim (``_quotes.QUOTES``)."""
    from privclaims.checks.catalog import catalog

    entry = catalog()[claim_id]
    return one_reading(f"the catalogued statement, read literally: {entry.statement}",
                       f"{entry.source}; quoted: {render(QUOTES[claim_id])}")
