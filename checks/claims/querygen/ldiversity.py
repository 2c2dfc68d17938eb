"""§6-§7 of ``004_66621c1b9afebedf.txt``: the l-diversity translation G_min = (l + 1)/2, the bound G <= (n + 1)/2,
Theorem 6.1 and the related-work gloss on distinct l-diversity."""

from __future__ import annotations

from typing import Any

from privclaims.checks.claims.ads.common import by_dims
from privclaims.checks.claims.querygen.common import (
    SRC, example_count, one_reading, requirement, strategy_readings,
)
from privclaims.checks.definitions.querygen import (
    AT_LEAST_L, BEST_FIT_CHOICE, BRUTE_TIES, GUESSING, L_REQ, MORE_THAN_L, PRIV_REQ,
)
from privclaims.checks.evidence import decide
from privclaims.checks.readings import Audit, NotApplicable, Quote, Rejected
from privclaims.checks.registry import Context, claim
from privclaims.checks.verdict import (
    Outcome, Part, Reading, by_part, compare_exact, discrepancy, in_model, refuted, unverifiable, verified,
    verified_bounded,
)
from privclaims.theory.numbers import Q
from privclaims.theory.querygen import exact
from privclaims.theory.querygen.model import STRATEGIES, g_min_from_l


L_PARTS = (
    Part("translation", "(a, l) is translated into (a, (l + 1)/2), which enforces the requirement (a, l); l = 25 gives "
                        "G_min = 13"),
    Part("gloss", "with l = 25 “an adversary must choose one out of more than 25 values”"),
)


@claim("querygen.def_l", method="exact", rests_on=(L_REQ,), parts=L_PARTS, audit=Audit(
    "Re-derived by hand: (25 + 1)/2 = 13, and 25 equally likely values give G = Σ i/25 = 13 exactly (24 give 25/2 < 13). "
    "So G_min = 13 enforces at least 25 values (Theorem 6.1) but not more than 25. The example's gloss is a part of "
    "the statement, tested under both readings: read 'at least l' (as the definition prints), the translation is "
    "right but the gloss “one out of more than 25 values” fails at exactly 25 equally likely values; read 'more than "
    "l' (as the gloss puts it), the gloss is the requirement but G_min = 13 does not enforce it ('more than 25' would "
    "need G_min > 13, e.g. (l + 2)/2 = 27/2). Under either reading the document contradicts itself at exactly l "
    "values, while the intended translation (l + 1)/2 is clear: a discrepancy."),
    readings=one_reading(
    "(a, l) is translated to (a, (l + 1)/2); l = 25 gives G_min = 13",
    f"{SRC} §6: Query generalizer internally translates (a, l) into (a, (l + 1)/2) ... the query generalizer sets "
    "G_min = (l + 1)/2 = 13"))
def def_l(ctx: Context) -> Outcome:
    g_uniform_25 = exact.guessing_entropy_of_counts([1] * 25)
    meets = decide(g_uniform_25, ">=", g_min_from_l(25), "G of exactly 25 equally likely values ≥ G_min = 13")
    below = decide(exact.guessing_entropy_of_counts([1] * 24), "<", g_min_from_l(25),
                   "G of 24 equally likely values < G_min = 13")
    more_than_25 = decide(Q(25), ">", Q(25), "exactly 25 values are more than 25 (the gloss's condition)")
    exactly_25 = {"G of exactly 25 equally likely values": g_uniform_25, "meets G_min = 13": meets,
                  "24 values miss it": below, "more than 25 values": more_than_25}

    def translation(reading: str) -> Outcome:
        if reading == AT_LEAST_L.name:
            return compare_exact(Q(13), g_min_from_l(25), formula="(l + 1)/2", l=25, exactly_25_values=meets,
                                 twenty_four_values=below)
        return discrepancy(
            paper="l = 25 means “one out of more than 25 values”, and G_min = (l + 1)/2 = 13",
            computed={"G of exactly 25 equally likely values": g_uniform_25, "meets G_min = 13": meets},
            needed_for_more_than_25="G_min > 13 (e.g. (l + 2)/2 = 27/2)").because(
            "Read as its example glosses it (“an adversary must choose one out of more than 25 values”), the (a, l) "
            "requirement asks for more than l values, but the translation G_min = (l + 1)/2 = 13 is met by exactly 25 "
            "equally likely values (G = 13): the sentence's gloss and its own numbers disagree by one value.")

    def gloss(reading: str) -> Outcome:
        if not meets.holds or more_than_25.holds:
            return Outcome("error", {"error": "exactly 25 equally likely values are not the equality case",
                                     "computed": exactly_25})
        if reading == MORE_THAN_L.name:
            return verified(gloss="the reading's requirement: exactly 25 values do not satisfy (a, 25), 26 do",
                            exactly_25_values=exactly_25)
        return discrepancy(paper="l = 25: an adversary must choose one out of more than 25 values",
                           computed=exactly_25).because(
            "Read as the definition prints it (“at least l distinguishable sensitive attribute values”), (a, 25) and "
            "its translation G_min = 13 admit exactly 25 equally likely values (G = 13): the adversary then chooses one "
            "out of 25, not “one out of more than 25 values” as the example's gloss says.")

    def compute(reading: str):
        return by_part({L_PARTS[0]: translation(reading), L_PARTS[1]: gloss(reading)})

    return by_dims(ctx, (L_REQ,), compute,
                   why="The definition asks for “at least l distinguishable” values and translates (a, l) into G_min = "
                       "(l + 1)/2, which exactly 25 equally likely values meet for l = 25; the example's gloss says the "
                       "adversary must choose one out of “more than 25 values”. Under either reading the two disagree at "
                       "exactly l values: read 'at least l', the gloss fails; read 'more than l', the translation is one "
                       "value short. The intended translation is clear; the gloss misstates it.")


def _lemma_symbolic() -> dict[str, Any]:
    """(n+1)/2 − Σ p_i·i = Σ_{k<n} C_k (p_k − p_{k+1}) + C_n p_n with C_k = Σ_{i≤k} ((n+1)/2 − i) = k(n−k)/2:
    sympy proves the closed form of C_k, C_k − C_{k−1} = c_k, C_n = 0 and C_k ≥ 0 on 0 ≤ k ≤ n; the
    summation-by-parts identity is expanded exactly for n = 1..24."""
    import sympy
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


@claim("querygen.lem_uniform", method="symbolic+smt+property", rests_on=(GUESSING,), audit=Audit(
    "Re-derived by Abel summation: (n + 1)/2 − G = Σ_{k<n} k(n − k)/2 · (p_k − p_{k+1}) + 0 ≥ 0 for p sorted decreasingly "
    "(property_tests/test_audit_querygen.py checks it on random rational distributions). The proof's justification "
    "“the uniform distribution has the maximum entropy” is a Shannon-entropy fact; the bound holds for G on its own.",
    rejected=(Rejected("the step rests on Shannon's maximum-entropy property",
                       "G is not Shannon's entropy; the bound is proved here for G directly",
                       (Quote(SRC, "§6 proof of Theorem 6.1", "Since the uniform distribution has the maximum entropy, "
                              "the following inequality is derived."),)),)), readings=one_reading(
    "for any distribution sorted decreasingly on l values, Σ p_i·i ≤ (l + 1)/2", f"{SRC} §6 proof of Theorem 6.1: "
    "G = Σ p_i · i ≤ (l_Q̂ + 1)/2"))
def lem_uniform(ctx: Context) -> Outcome:
    from privclaims.counterexamples import querygen_search as search

    sym = _lemma_symbolic()
    z3_runs = {n: search.z3_guessing_bound(n) for n in (1, 2, 3, 5, 8, 13, 21, 34)}
    z3_res = {n: r.status for n, r in z3_runs.items()}
    found = [r for r in z3_runs.values() if r.found]
    if found:  # a distribution sorted decreasingly with Σ p_i·i > (n + 1)/2, re-verified exactly by the search
        return refuted(witness=found[0], model=in_model(
            "a distribution on l values sorted decreasingly (004 §2 Eq. (2))", [],
            minimal="the smallest n of the z3 searches (1, 2, 3, 5, ...) that has one")).because(
            "z3 finds a decreasingly sorted distribution whose guessing entropy exceeds (l + 1)/2.")
    uniform_attains = all(exact.guessing_entropy_of_counts([3] * n) == Q(n + 1, 2) for n in range(1, 30))
    ok = all(sym.values()) and all(v == "none-up-to-bound" for v in z3_res.values()) and uniform_attains
    if not ok:
        return Outcome("error", {"error": "the symbolic proof or z3 does not confirm G <= (n+1)/2", "symbolic": sym,
                                 "z3": z3_res})
    return verified(proof="Abel summation: (n+1)/2 - G = Σ_{k<n} k(n-k)/2 · (p_k - p_{k+1}) >= 0 since p is "
                          "sorted decreasingly; equality for the uniform distribution",
                    symbolic=sym, z3_unsat_for_n=z3_res, uniform_attains_bound=uniform_attains,
                    note="the paper justifies the step by “the uniform distribution has the maximum entropy” "
                         "(a Shannon-entropy fact); the bound for Eq. (2) holds by the proof above")


@claim("querygen.thm6_1", method="symbolic+smt+property", rests_on=(GUESSING, PRIV_REQ, L_REQ, BEST_FIT_CHOICE, BRUTE_TIES),
       not_applicable=(NotApplicable(L_REQ, MORE_THAN_L.name, "the theorem states its conclusion itself: at least l "
                                     "values", (Quote(SRC, "§6 Theorem 6.1", r"the size of the attribute value set for "
                                                r"\widehat{Q} is at least l ."),)),),
       audit=Audit("Re-derived: G ≤ (n + 1)/2 (querygen.lem_uniform) and G ≥ (l + 1)/2 give n ≥ l; with '>' (the "
                   "requirement's gloss) G > (l + 1)/2 gives n > l, so the conclusion holds under both readings of the "
                   "requirement. Checked symbolically, by z3 for n ≤ 12 and on strategy outputs (all four strategies, "
                   "Best-Fit under each reading of its step, Brute-Force under each reading of its tie rule)."),
       readings=one_reading(
    "every Q̂ with G(Q̂, a) ≥ (l + 1)/2 has at least l distinct target values", f"{SRC} §6 Theorem 6.1: When the query "
    "Q is modified into the query Q̂ with the guessing entropy value, which is greater than or equal to (l + 1)/2, the "
    "size of the attribute value set for Q̂ is at least l"))
def thm6_1(ctx: Context) -> Outcome:
    import z3

    from privclaims.counterexamples.harness import z3_search
    from privclaims.counterexamples.property_search import VACUOUS, property_search
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.querygen_strategies import INSTANCE_PARTS, instances
    from privclaims.counterexamples.shared_draws import SharedDraws

    drawn = SharedDraws(instances())  # every reading searches the same instances
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

    if not all(sym.values()) or any(v != "none-up-to-bound" for v in statuses.values()):
        return Outcome("error", {"error": "the symbolic proof or z3 does not confirm the bound", "symbolic": sym,
                                 "z3": statuses})
    # 'at least l' is tight: exactly l equally likely values reach G = (l + 1)/2
    tight = [l for l in range(1, 31) if exact.guessing_entropy_of_counts([1] * l) >= g_min_from_l(l)]

    def compute(comparison: str, step: str, tie: str):
        # what each reading decided, per strategy: its outputs meeting the requirement and the least (distinct target
        # values - l) among them (>= 0 is the theorem; under '>' the proof gives >= 1)
        satisfied = dict.fromkeys(STRATEGIES, 0)
        least_excess: dict[str, Any] = dict.fromkeys(STRATEGIES)

        def holds(inst) -> Any:  # on generated tables: every strategy output meeting (l+1)/2 has >= l values
            t, q, target, _ = inst
            met = False
            for l in (1, 2, 3):
                for s_ in STRATEGIES:
                    r = exact.generalize(t, q, requirement(t, target, g_min_from_l(l), comparison), s_, seed=2,
                                         **strategy_readings(s_, step, tie))
                    if not r.satisfied:
                        continue
                    excess = len(exact.value_counts(t, exact.matching_rows(t, r.query), target)) - l
                    satisfied[s_] += 1
                    met = True
                    least_excess[s_] = excess if least_excess[s_] is None else min(least_excess[s_], excess)
                    if excess < 0:
                        return False
            return True if met else VACUOUS

        res = property_search(drawn, holds, examples=example_count(ctx, 20, 300),
                              seed=ctx.int_seed("querygen.thm6_1"),
                              encoding=f"distinct target values of satisfied Q̂ >= l at G_min = (l+1)/2 (Best-Fit's "
                                       f"step: {step}; Brute-Force's ties: {tie})",
                              premise="some strategy's output meets G_min = (l+1)/2 for some l in 1..3",
                              reads=ReadParts(INSTANCE_PARTS, read=("table", "query", "target")))  # G_min is (l+1)/2
        if res.found:
            return Outcome("error", {"error": "a strategy output breaks the proved bound: our code", "search": res})
        outputs = {s_: {"satisfied_outputs": satisfied[s_],
                        "least_distinct_values_minus_l": decide(least_excess[s_], ">=", 0, "least (distinct target "
                                                                "values - l) over the satisfied outputs")}
                   for s_ in STRATEGIES if satisfied[s_]}
        return verified(proof="G <= (n+1)/2 (querygen.lem_uniform, symbolic) and G >= (l+1)/2 give n >= l (with '>': "
                              "n > l)", symbolic=sym, z3_unsat=statuses, strategy_outputs=res, by_strategy=outputs,
                        l_with_exactly_l_uniform_values_meeting_G_min=f"{len(tight)} of l = 1..30",
                        note="applies to outputs with satisfied = True; when G_min is unreachable the generalizer "
                             "reports satisfied = False and no guarantee is given")

    return by_dims(ctx, (PRIV_REQ, BEST_FIT_CHOICE, BRUTE_TIES), compute)


RELATED_PARTS = (
    Part("k-anonymity", "k-anonymity keeps the risk of re-identification at most 1/k (a record's class has ≥ k "
                        "indistinguishable members)", "by definition"),
    Part("l-diversity", "distinct l-diversity keeps the risk of attribute disclosure under 1/l", "exhaustive, smallest "
                                                                                                 "group first"),
    Part("NP-hard for k ≥ 3", "optimal k-anonymity is NP-hard for k ≥ 3 [25]", "a cited theorem"),
)


@claim("querygen.text_related", method="exact+exhaustive", rests_on=(), parts=RELATED_PARTS, audit=Audit(
    "Re-derived by hand (property_tests/test_audit_querygen.py): a group with sensitive values {x, x, y} is 2-diverse "
    "(two distinct values), yet guessing the most frequent value x is right with probability 2/3 > 1/2. Smallest: l = 1 "
    "cannot fail (a risk is at most 1) and a group of two records with two distinct values has risk 1/2; three "
    "records is the least that can refute. k-anonymity's 1/k holds by the definition (a uniform pick among ≥ k "
    "indistinguishable records), read as 'at most' (a class of exactly k gives 1/k).",
    rejected=(Rejected("risk = a uniform pick among the distinct values (1/d ≤ 1/l)",
                       "the released group shows the value counts, and 004's adversary guesses the most likely value "
                       "first",
                       (Quote(SRC, "§2", "the best strategy is obviously to start by guessing the most likely X and "
                              "proceed in decreasing order of likelihood until the secret is determined."),)),)),
       readings=(Reading(
    "as stated",
    "The documents give one reading: distinct l-diversity (each group has at least l distinct sensitive values) keeps "
    "the risk of attribute disclosure — the adversary's chance of naming a record's sensitive value, guessing the "
    "most likely one first as in §2 — under 1/l; k-anonymity keeps re-identification under 1/k.",
    f"{SRC} §7: every group of indistinguishable records contains at least l distinct sensitive attribute values; "
    "thereby the risk of attribute disclosure is kept under 1/l; §2: 'the best strategy is obviously to start by "
    "guessing the most likely X'"),))
def text_related(ctx: Context) -> Outcome:
    """k-anonymity: a record's class has ≥ k members, so a uniform pick among them re-identifies it with probability
    1/|class| ≤ 1/k (by definition). The l-diversity gloss: exhaustive search, smallest group first, for a group with
    ≥ l distinct values whose most likely value has probability > 1/l. NP-hardness of optimal k-anonymity [25]: cited."""
    from privclaims.counterexamples import querygen_search as search

    res = search.search_l_diversity_disclosure(l=2)  # l = 1 cannot fail (a risk is at most 1)
    kanon = verified(by_definition="a class of size s ≥ k re-identifies a record with probability 1/s ≤ 1/k")
    cited = unverifiable(missing="Meyerson and Williams [25]: a cited complexity result").because(
        "The NP-hardness of optimal k-anonymity for k ≥ 3 is a cited theorem, not re-proved here.")
    if not res.found:
        return by_part({RELATED_PARTS[0]: kanon, RELATED_PARTS[1]: verified_bounded(bound=res.bound, search=res),
                        RELATED_PARTS[2]: cited})
    w = res.witness
    counts = list(w["counts"])
    problems = [] if len(counts) >= w["l"] and all(c >= 1 for c in counts) else ["the group is not l-diverse"]
    risk = decide(Q(w["disclosure_risk"]), ">", Q(w["bound_1_over_l"]), "most likely value's share > 1/l")
    ldiv = refuted(witness=res, risk=risk, model=in_model(
        "an equivalence class of a released table (004 §7, [19]): records indistinguishable on the quasi-identifier, "
        "each with a sensitive value; distinct l-diversity = at least l distinct values", problems,
        minimal="l = 2 (l = 1 cannot fail); groups of 1 and 2 records searched first (a 2-diverse pair has risk 1/2)")
    ).because(
        f"The text says distinct l-diversity keeps the attribute-disclosure risk under 1/l. The smallest group that "
        f"refutes it, for l = {w['l']}, has sensitive-value counts {w['counts']}: it is {w['l']}-diverse, yet an "
        f"adversary who guesses the most frequent value (as §2's adversary does) is right with probability "
        f"{w['disclosure_risk']} > {w['bound_1_over_l']}. Distinct l-diversity bounds the number of values, not their "
        "probabilities (hence entropy and recursive l-diversity in [19]).")
    parts = {RELATED_PARTS[0]: kanon, RELATED_PARTS[1]: ldiv, RELATED_PARTS[2]: cited}
    return by_part(parts, why=ldiv.why)
