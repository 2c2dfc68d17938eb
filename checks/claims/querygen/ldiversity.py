"""§6-§7 of ``004_66621c1b9afebedf.txt``: the l-diversity translation G_min = (l + 1)/2, the bound G <= (n + 1)/2,
Theorem 6.1 and the related-work gloss on distinct l-diversity."""

from __future__ import annotations

from typing import Any

import sympy
import z3

from privclaims.checks.claims.querygen.common import SRC, example_count, one_reading
from privclaims.checks.registry import Context, claim
from privclaims.checks.verdict import Outcome, Reading, compare_exact, discrepancy, refuted, verified, verified_bounded
from privclaims.counterexamples import querygen_search as search
from privclaims.counterexamples.harness import z3_search
from privclaims.counterexamples.property_search import property_search
from privclaims.theory.numbers import Q
from privclaims.theory.querygen import exact
from privclaims.theory.querygen.instances import instances
from privclaims.theory.querygen.model import STRATEGIES, PrivacyRequirement, g_min_from_l


# 004 §6 glosses l = 25 as "an adversary must choose one out of more than 25 values"; judged not a second reading.
MORE_THAN_L = ("not a second reading: the gloss 'one out of more than 25 values' paraphrases l = 25 in the sentence "
               "whose own numbers fix 'at least' (G_min = (l + 1)/2 = 13 is reached by exactly 25 equally likely "
               "values; 'more than 25' would need G_min > 13, e.g. (l + 2)/2 = 27/2), beside the definition's 'at least l "
               "distinguishable sensitive attribute values' and Theorem 6.1's 'at least l'")


@claim("querygen.def_l", method="exact", readings=one_reading(
    "(a, l) is translated to (a, (l + 1)/2); l = 25 gives G_min = 13",
    f"{SRC} §6: Query generalizer internally translates (a, l) into (a, (l + 1)/2) ... the query generalizer sets "
    "G_min = (l + 1)/2 = 13"))
def def_l(ctx: Context) -> Outcome:
    # the text's gloss "one out of more than 25 values": exactly 25 equally likely values already reach G_min
    g_uniform_25 = exact.guessing_entropy_of_counts([1] * 25)
    return compare_exact(Q(13), g_min_from_l(25), formula="(l + 1)/2", l=25,
                         uniform_over_exactly_25_values_G=g_uniform_25,
                         exactly_25_values_meet_G_min=g_uniform_25 >= g_min_from_l(25),
                         more_than_25_gloss=MORE_THAN_L,
                         note="Theorem 6.1 guarantees at least l = 25 values, and exactly 25 equally likely values "
                              "meet G_min = 13; the text's gloss 'more than 25' overstates it by one (the claim, "
                              "and Theorem 6.1, say 'at least l')")


def _lemma_symbolic() -> dict[str, Any]:
    """(n+1)/2 − Σ p_i·i = Σ_{k<n} C_k (p_k − p_{k+1}) + C_n p_n with C_k = Σ_{i≤k} ((n+1)/2 − i) = k(n−k)/2:
    sympy proves the closed form of C_k, C_k − C_{k−1} = c_k, C_n = 0 and C_k ≥ 0 on 0 ≤ k ≤ n; the
    summation-by-parts identity is expanded exactly for n = 1..24."""
    i, k, n = sympy.symbols("i k n", integer=True, positive=True)
    c = (n + 1) / sympy.Integer(2) - i
    C = sympy.summation(c, (i, 1, k))
    closed = sympy.simplify(C - k * (n - k) / 2) == 0
    step = sympy.simplify(C - C.subs(k, k - 1) - c.subs(i, k)) == 0
    zero_at_n = sympy.simplify(C.subs(k, n)) == 0
    # k(n-k)/2 >= 0 for 0 <= k <= n: a product of two non-negative factors
    x = sympy.symbols("x", nonnegative=True)
    y = sympy.symbols("y", nonnegative=True)
    nonneg = (sympy.factor(k * (n - k) / 2).subs({k: x, n: x + y}) - x * y / 2).simplify() == 0
    identities = True
    for nn in range(1, 25):
        p = sympy.symbols(f"p1:{nn + 1}")
        lhs = sympy.Rational(nn + 1, 2) * sum(p) - sum((j + 1) * p[j] for j in range(nn))
        Ck = [sympy.Rational(kk * (nn - kk), 2) for kk in range(1, nn + 1)]
        rhs = sum(Ck[kk] * (p[kk] - p[kk + 1]) for kk in range(nn - 1)) + Ck[-1] * p[-1]
        identities &= sympy.expand(lhs - rhs) == 0
    return {"C_k_closed_form": closed, "C_k_minus_C_k-1_is_c_k": step, "C_n_is_0": zero_at_n,
            "C_k_nonnegative_via_k(n-k)=xy": nonneg, "summation_by_parts_identity_n_1_to_24": identities}


@claim("querygen.lem_uniform", method="symbolic+smt+property", readings=one_reading(
    "for any distribution sorted decreasingly on l values, Σ p_i·i ≤ (l + 1)/2", f"{SRC} §6 proof of Theorem 6.1: "
    "G = Σ p_i · i ≤ (l_Q̂ + 1)/2"))
def lem_uniform(ctx: Context) -> Outcome:
    sym = _lemma_symbolic()
    z3_res = {n: search.z3_guessing_bound(n).status for n in (1, 2, 3, 5, 8, 13, 21, 34)}
    uniform_attains = all(exact.guessing_entropy_of_counts([3] * n) == Q(n + 1, 2) for n in range(1, 30))
    ok = all(sym.values()) and all(v == "none-up-to-bound" for v in z3_res.values()) and uniform_attains
    if not ok:
        return discrepancy(paper="G <= (n+1)/2", computed={"symbolic": sym, "z3": z3_res})
    return verified(proof="Abel summation: (n+1)/2 - G = Σ_{k<n} k(n-k)/2 · (p_k - p_{k+1}) >= 0 since p is "
                          "sorted decreasingly; equality for the uniform distribution",
                    symbolic=sym, z3_unsat_for_n=z3_res, uniform_attains_bound=uniform_attains,
                    note="the paper justifies the step by 'the uniform distribution has the maximum entropy' "
                         "(a Shannon-entropy fact); the bound for Eq. (2) holds by the proof above")


@claim("querygen.thm6_1", method="symbolic+smt+property", readings=one_reading(
    "every Q̂ with G(Q̂, a) ≥ (l + 1)/2 has at least l distinct target values", f"{SRC} §6 Theorem 6.1: When the query "
    "Q is modified into the query Q̂ with the guessing entropy value, which is greater than or equal to (l + 1)/2, the "
    "size of the attribute value set for Q̂ is at least l"))
def thm6_1(ctx: Context) -> Outcome:
    sym = _lemma_symbolic()
    # z3: integers l > n >= 1 and a sorted distribution on n values with Σ p_i i >= (l+1)/2: unsat for n <= 12
    statuses = {}
    for nn in range(1, 13):
        def build(s, nn=nn):
            p = [z3.Real(f"p{j}") for j in range(nn)]
            l = z3.Int("l")
            s.add(p[-1] >= 0, z3.Sum(p) == 1, l > nn, *[p[j] >= p[j + 1] for j in range(nn - 1)])
            s.add(2 * z3.Sum([p[j] * (j + 1) for j in range(nn)]) >= z3.ToReal(l) + 1)
            return p
        statuses[nn] = z3_search(build, lambda m, v: None, lambda w: False, bound=f"n = {nn}",
                                 encoding="G >= (l+1)/2 with fewer than l values").status

    def holds(inst) -> bool:  # on generated tables: every strategy output with G_min = (l+1)/2 has >= l values
        t, q, target, _ = inst
        for l in (1, 2, 3):
            for s in STRATEGIES:
                r = exact.generalize(t, q, PrivacyRequirement(target, g_min_from_l(l)), s, seed=2)
                if r.satisfied and len(exact.value_counts(t, exact.matching_rows(t, r.query), target)) < l:
                    return False
        return True

    res = property_search(instances(), holds, examples=example_count(ctx, 20, 300), seed=ctx.int_seed("querygen.thm6_1"),
                          encoding="distinct target values of satisfied Q̂ >= l at G_min = (l+1)/2")
    if res.found:
        return refuted(witness=res.witness, search=res)
    if not all(sym.values()) or any(v != "none-up-to-bound" for v in statuses.values()):
        return discrepancy(paper="Theorem 6.1", computed={"symbolic": sym, "z3": statuses})
    # 'at least l' is tight: exactly l equally likely values reach G = (l + 1)/2, so 'more than l' (the gloss) fails
    tight = [l for l in range(1, 31) if exact.guessing_entropy_of_counts([1] * l) >= g_min_from_l(l)]
    return verified(proof="G <= (n+1)/2 (querygen.lem_uniform, symbolic) and G >= (l+1)/2 give n >= l",
                    symbolic=sym, z3_unsat=statuses, strategy_outputs=res,
                    more_than_l_gloss={"judgement": MORE_THAN_L,
                                       "l_with_exactly_l_uniform_values_meeting_G_min": f"{len(tight)} of l = 1..30"},
                    note="applies to outputs with satisfied = True; when G_min is unreachable the generalizer "
                         "reports satisfied = False and no guarantee is given")


@claim("querygen.text_related", method="exact+exhaustive", readings=(Reading(
    "as stated",
    "The documents give one reading: distinct l-diversity (each group has at least l distinct sensitive values) keeps "
    "the risk of attribute disclosure — the adversary's chance of naming a record's sensitive value, guessing the "
    "most likely one first as in §2 — under 1/l; k-anonymity keeps re-identification under 1/k. (A uniform pick "
    "among the distinct values, which would give 1/d ≤ 1/l, is not a second reading: it ignores the value counts the "
    "released group shows, and 004's adversary guesses the most likely value first; for k-anonymity the uniform "
    "pick is already the best guess, the records being indistinguishable.)",
    f"{SRC} §7: every group of indistinguishable records contains at least l distinct sensitive attribute values; "
    "thereby the risk of attribute disclosure is kept under 1/l; §2: 'the best strategy is obviously to start by "
    "guessing the most likely X'"),))
def text_related(ctx: Context) -> Outcome:
    """k-anonymity: a record's class has ≥ k members, so a uniform pick among them re-identifies it with
    probability 1/|class| ≤ 1/k (by definition; nothing to compute). The l-diversity gloss: exhaustive search,
    smallest group first, for a group with ≥ l distinct values whose most likely value has probability > 1/l.
    NP-hardness of optimal k-anonymity [25]: cited, not checked."""
    # l = 1 cannot fail (a risk is at most 1); l = 2 is the smallest l the gloss says anything about
    res = search.search_l_diversity_disclosure(l=2)
    if res.found:
        w = res.witness
        return refuted(witness=res, cited_np_hardness="not checked (Meyerson and Williams [25])",
                       minimality="l = 2 (l = 1 cannot fail), smallest group first").because(
            f"The text says distinct l-diversity keeps the attribute-disclosure risk under 1/l. The smallest group "
            f"that refutes it, for l = {w['l']}, has sensitive-value counts {w['counts']}: it is {w['l']}-diverse, yet "
            f"an adversary who guesses the most frequent value (as §2's adversary does) is right with probability "
            f"{w['disclosure_risk']} > {w['bound_1_over_l']}. Distinct l-diversity bounds the number of values, not "
            "their probabilities (hence entropy and recursive l-diversity in [19]).")
    return verified_bounded(bound=res.bound)
