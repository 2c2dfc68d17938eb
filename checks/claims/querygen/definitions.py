"""§1-§2 of ``004_66621c1b9afebedf.txt``: Sweeney's figure, the domain, Table 1, the query, Shannon and guessing
entropy (Eqs. 1-3)."""

from __future__ import annotations

import itertools

from privclaims.checks.claims.querygen.common import SRC, example_count, one_reading, query_list
from privclaims.checks.definitions.querygen import GUESSING, QG_MODEL, SHANNON
from privclaims.checks.evidence import decide, decide_enclosed
from privclaims.checks.readings import Audit
from privclaims.checks.registry import Context, claim
from privclaims.checks.verdict import (
    Outcome, compare_all, compare_exact, discrepancy, unverifiable, verified, verified_bounded,
)
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q
from privclaims.theory.querygen import exact, fast
from privclaims.theory.querygen.model import make_query
from privclaims.theory.querygen.table1 import eq3_query, table1


@claim("querygen.text_sweeney", method="exact", rests_on=(), audit=Audit(
    "Nothing to re-derive but the arithmetic: 216/248 = 0.8709..., which rounds to the printed 87% (property_tests/"
    "test_audit_querygen.py); the studies themselves are cited."), readings=one_reading(
    "87% = 216 of 248 million US residents uniquely identified by ZIP code, gender and date of birth (Sweeney [7]); "
    "Golle's update 63%", f"{SRC} §1: 'Sweeney showed that 87% (216 million of 248 million) of the population in the "
    "United States can be uniquely identified based only on ZIP code, gender and date of birth'"))
def text_sweeney(ctx: Context) -> Outcome:
    ratio = Q(216, 248)
    pct = round(ratio * 100)  # exact rational rounding
    consistent = pct == 87
    rounds = decide(abs(ratio * 100 - 87), "<=", Q(1, 2), "|216/248·100 − 87| (87% to the percent)")
    if not consistent:
        return discrepancy(paper="87%", computed=f"{pct}%", ratio=ratio).because(
            "216 of 248 million does not round to the printed 87%.")
    return unverifiable(missing="Sweeney's 1990 census / voter-list study [7] and Golle's update [8] (external data); "
                                "only the arithmetic 216/248 -> 87% is checkable",
                        ratio=ratio, percent_rounded=pct, arithmetic_consistent=consistent, rounding=rounds,
                        golle_percent="63% (no numbers given to check)").because(
        "The claim reports external studies (Sweeney's census and voter-list study, Golle's update) whose data we do not "
        "have; the only checkable part, 216 of 248 million rounding to 87%, agrees.")


@claim("querygen.def_domain", method="exact", rests_on=(QG_MODEL,), audit=Audit(
    "A definition, checked on Table 1 by hand: m = 5, D_4 = {Female, Male}, the first tuple's [Gender] is Male; a value "
    "outside a domain or an unknown attribute is refused."), readings=one_reading(
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


def printed_table1(text: str) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """Table 1 as 004 prints it, read from the document's ``text`` (the one the quotes are checked against): the
    header and the 12 tuples."""
    start = text.index("Table 1 An example of auxiliary information.") + len("Table 1 An example of auxiliary information.")
    tokens = [w.replace("\\", "") for w in text[start:].split()]
    header, cells = tuple(tokens[:5]), tokens[5:5 + 12 * 5]
    return header, [tuple(cells[5 * k:5 * k + 5]) for k in range(12)]


@claim("querygen.table1", method="exact", rests_on=(QG_MODEL, GUESSING), needs_documents=SRC, audit=Audit(
    "Re-derived from the printed table (property_tests/test_audit_querygen.py parses it independently): 12 tuples over "
    "(Loan, Income, Race, Gender, County); the Eq. (3) query matches the 3rd, 4th and 12th, whose Incomes are $40k, "
    "$40k, $100k, so G = 2/3·1 + 1/3·2 = 4/3. The check reads Table 1 from the document text itself and compares it "
    "with the table the theory code uses, so a mis-typed tuple fails it."))
def table1_check(ctx: Context) -> Outcome:
    t = table1()
    q = eq3_query(t)
    rows_1based = [k + 1 for k in exact.matching_rows(t, q)]
    header, rows = printed_table1(ctx.document(SRC))
    return compare_all({
        "tuples": (len(rows), t.n_rows),
        "attributes": (header, t.attributes),
        "every tuple, as printed": (rows, [tuple(r) for r in t.rows]),
        "rows matching Eq. (3) query (1-based)": ([3, 4, 12], rows_1based),
        "Income values among them": ({"$40k": 2, "$100k": 1},
                                     exact.value_counts(t, exact.matching_rows(t, q), 1)),
        "G(Q, [Income]) (Eq. 3)": (Q(4, 3), exact.guessing_entropy(t, q, "Income")),
    }, note="Table 1 rebuilt from the text; every number the text derives from it is recomputed")


@claim("querygen.def_query", method="exact", rests_on=(QG_MODEL,), audit=Audit(
    "Re-derived by hand: the sentence's facts on Loan, Race and Gender fill those positions, Income and County are *, "
    "and 'pregnant' has no attribute in Table 1, so it cannot enter the query."), readings=one_reading(
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
    return compare_exact(paper, tuple(query_list(q)), ignored_facts=ignored, length_equals_m=ok_len,
                         note="facts on attributes absent from the auxiliary information are dropped "
                              "before the query is formed (the adversary cannot use them)")


@claim("querygen.def_shannon", method="exact+numeric", rests_on=(SHANNON,), audit=Audit(
    "Re-derived (property_tests/test_audit_querygen.py, mpmath): for the Eq. (3) match set (counts 2, 1) H = log2 3 − 2/3 "
    "= 0.9183 bits; uniform over n values gives log2 n. The check's interval comes from the interval arithmetic that "
    "decided it."), readings=one_reading(
    "H = −Σ p_i log2 p_i over the matching tuples' target values (Eq. (1))",
    f"{SRC} §2 Eq. (1): The Shannon entropy is a traditional estimator of measuring the information of X as follows "
    "(here, log is to the base 2)"))
def def_shannon(ctx: Context) -> Outcome:
    import sympy
    t = table1()
    h = exact.shannon_entropy(t, eq3_query(t), "Income")
    closed = sympy.log(3, 2) - sympy.Rational(2, 3)  # counts (2, 1): -(2/3)log(2/3) - (1/3)log(1/3)
    symbolic_equal = sympy.simplify(h - closed) == 0
    uniform_ok = all(sympy.simplify(exact.shannon_entropy_of_counts([1] * n) - sympy.log(n, 2)) == 0
                     for n in (1, 2, 3, 4, 7))
    # rigorous: H lies strictly between 0.918 and 0.919 (log2 3 - 2/3 = 0.9182958...)
    lo = decide_enclosed(lambda iv: exact.shannon_entropy_interval([2, 1], iv), ">", Q(918, 1000), "H(counts 2, 1)")
    hi = decide_enclosed(lambda iv: exact.shannon_entropy_interval([2, 1], iv), "<", Q(919, 1000), "H(counts 2, 1)")
    fast_val = fast.shannon_entropy_of_counts([2, 1])
    ok = symbolic_equal and uniform_ok and lo.holds and hi.holds and abs(fast_val - float(closed)) < 1e-12
    ev = dict(H_eq3_income=str(h), closed_form="log2(3) - 2/3", symbolic_equal=symbolic_equal,
              uniform_is_log2_n=uniform_ok, above_0_918=lo, below_0_919=hi, fast_value=fast_val)
    if ok:
        return verified(**ev)
    return Outcome("error", {"error": "the entropy code disagrees with Eq. (1)'s closed form", **ev})


@claim("querygen.def_guessing", method="exact+property", rests_on=(GUESSING,), audit=Audit(
    "Re-derived (property_tests/test_audit_querygen.py): Σ i·p_i with p sorted decreasingly is the minimum over all "
    "guessing orders (rearrangement inequality), checked against every order of small count vectors; Eq. (3)'s 4/3 "
    "recomputed by hand."), readings=one_reading(
    "G(Q, a) = Σ p_i·i over the matching tuples' target values sorted by decreasing frequency, the expected number of "
    "guesses of the optimal (decreasing-likelihood) guesser", f"{SRC} §2 Eq. (2): 'the best strategy is obviously to "
    "start by guessing the most likely X and proceed in decreasing order of likelihood'"))
def def_guessing(ctx: Context) -> Outcome:
    """Eq. (2) on Table 1, and Massey's optimality: guessing in decreasing likelihood minimises the
    expected number of guesses (against all n! guessing orders, exhaustively for n ≤ 6)."""
    from privclaims.counterexamples.property_search import property_search

    from hypothesis import strategies as st

    t = table1()
    g = exact.guessing_entropy(t, eq3_query(t), "Income")

    def optimal(counts) -> bool:
        n = sum(counts)
        best = min(sum((Q(c, n) * i for i, c in enumerate(perm, 1)), Q(0)) for perm in itertools.permutations(counts))
        return exact.guessing_entropy_of_counts(counts) == best == Q(*exact.guessing_numerator_pairwise(counts))

    examples = example_count(ctx, 40, 600)
    res = property_search(st.lists(st.integers(1, 12), min_size=1, max_size=5 if ctx.quick else 6), optimal, examples=examples,
                          seed=ctx.int_seed("querygen.def_guessing"), encoding="G vs min over all guess orders")
    if res.found:  # a count vector on which our G is not the best order's expected guesses: our bug
        return Outcome("error", {"error": "G of Eq. (2) differs from the best guessing order", "search": res})
    if g != Q(4, 3):
        return discrepancy(paper=Q(4, 3), computed=g)
    return verified_bounded(bound=res.bound, eq3_value=g, search=res,
                            note="Eq. (2) reproduces Eq. (3); decreasing order is optimal on every generated "
                                 "count vector (n ≤ 6 values, all n! orders); also equals N + Σ_{x<y} min(c_x, c_y)")


@claim("querygen.ex_eq3", method="exact", rests_on=(QG_MODEL, GUESSING), audit=Audit(
    "Re-derived by hand from the printed Table 1 (property_tests/test_audit_querygen.py): rows 3, 4, 12 match; Incomes "
    "$40k twice and $100k once; G = 2/3 + 2/3 = 4/3."))
def ex_eq3(ctx: Context) -> Outcome:
    t = table1()
    q = eq3_query(t)
    return compare_exact(Q(4, 3), exact.guessing_entropy(t, q, "Income"),
                         matching_rows_1based=[k + 1 for k in exact.matching_rows(t, q)],
                         fast_value=fast.guessing_entropy(t, q, "Income"))
