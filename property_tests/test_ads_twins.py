"""Exact vs fast twin agreement, invariants and bad-input errors for privclaims.theory.ads."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st

from privclaims.counterexamples.ads_strategies import ad_instances, instance_and_alpha, instance_and_k
from privclaims.theory.ads import exact as E
from privclaims.theory.ads import fast as F
from privclaims.theory.ads.model import ContextHierarchy, ad_instance
from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q


@given(instance_and_k(max_ads=6, max_contexts=5, dyadic=True, context_payments=True, threshold=True))
def test_greedy_twins_agree_on_dyadic(ik):
    inst, k = ik
    ex, fa = E.greedy_run(inst, k), F.greedy_run(inst, k)
    assert ex.order == fa.order
    assert [float(b) for b in ex.benefits] == list(fa.benefits)
    assert E.optimum(inst, k)[0] == F.optimum(inst, k)[0]
    assert float(E.optimum(inst, k)[1]) == F.optimum(inst, k)[1]


@given(instance_and_alpha(max_ads=5, max_contexts=4, dyadic=True))
def test_alt_objective_twins_agree(ia):
    inst, alpha = ia
    for fn in ("greedy_prime", "greedy_double_prime"):
        ex, fa = getattr(E, fn)(inst, alpha), getattr(F, fn)(inst, alpha)
        assert (ex.k, ex.ads, ex.iterations) == (fa.k, fa.ads, fa.iterations)
        assert float(ex.objective) == fa.objective


@given(instance_and_k(max_ads=5, max_contexts=4))
def test_revenue_twins_close_on_rationals(ik):
    inst, k = ik
    for A in itertools.combinations(range(inst.n_ads), k):
        assert abs(float(E.expected_revenue(inst, A)) - F.expected_revenue(inst, A)) <= 1e-12
    # greedy's value agrees even where float rounding could reorder exact near-ties
    assert abs(float(E.greedy_run(inst, k).revenues[-1]) - F.greedy_run(inst, k).revenues[-1]) <= 1e-12


@given(ad_instances(max_ads=5, max_contexts=4, context_payments=True, threshold=True), st.data())
def test_client_choice_is_lowest_argmax(inst, data):
    A = data.draw(st.sets(st.integers(0, inst.n_ads - 1), min_size=1))
    for j, c in enumerate(inst.contexts):
        a = E.client_choice(inst, A, c)
        vals = {b: inst.value(b, j) for b in A}
        assert vals[a] == max(vals.values()) and all(b >= a for b in A if vals[b] == vals[a])
        assert E.revenue_in_context(inst, A, c) == vals[a]
        d = E.displayed_ad(inst, A, c)
        assert (d is None) == (vals[a] == 0)


@given(instance_and_k(max_ads=6, max_contexts=4))
def test_greedy_revenue_is_sum_of_benefits(ik):
    inst, k = ik
    run = E.greedy_run(inst, k)
    assert run.revenues[-1] == E.expected_revenue(inst, run.order)
    for l in range(1, k + 1):
        assert run.benefits[l - 1] == E.benefit(inst, run.order[: l - 1], [run.order[l - 1]])


def test_greedy_ties_go_to_the_lowest_id_even_behind_a_stale_bound():
    """Exact ties in every round: round 1 ads 0 and 2 tie (1/2), round 2 ads 1 and 2 tie (1/4) while ad 2's
    stale bound 1/2 tops the lazy heap, round 3 ads 2 and 3 tie (1/4). Both twins take the lowest id each time."""
    inst = ad_instance(["1/4"] * 4, [["1", "1", "0", "0"], ["0", "0", "1", "0"], ["1", "0", "0", "1"],
                                     ["0", "0", "0", "1"]])
    ex = E.greedy_run(inst, 4)
    for evaluation in F.EVALUATIONS:
        fa = F.greedy_run_evaluated(inst, 4, evaluation)
        assert ex.order == fa.order == (0, 1, 2, 3)
        assert [float(b) for b in ex.benefits] == list(fa.benefits) == [0.5, 0.25, 0.25, 0.0]
    # the same on the sparse form with a tolerance taken from the column maxima (a value of 1: no shortcut)
    S = F.sparse_instance([0.25] * 4, sp.csr_matrix(np.array([[1, 1, 0, 0], [0, 0, 1, 0], [1, 0, 0, 1], [0, 0, 0, 1.0]])))
    assert F.greedy(S, 4) == (0, 1, 2, 3)


def test_greedy_after_all_benefits_reach_zero():
    """Once the largest benefit is 0 every later round ties at 0: the fast twin fills the order with the
    lowest ids left at once; it must equal the exact twin's round-by-round choice for every k (ads 4 and 5
    carry all the revenue, then 0, 1, 2, 3, 6 at benefit 0)."""
    rows = [["1/2", "0", "0"], ["1/2", "0", "0"], ["0", "0", "0"], ["1/4", "0", "0"], ["1", "0", "0"],
            ["0", "1", "0"], ["0", "1/2", "0"]]
    inst = ad_instance(["1/2", "1/4", "1/4"], rows)
    for k, evaluation in itertools.product(range(1, len(rows) + 1), F.EVALUATIONS):
        ex, fa = E.greedy_run(inst, k), F.greedy_run_evaluated(inst, k, evaluation)
        assert ex.order == fa.order and [float(b) for b in ex.benefits] == list(fa.benefits)
    assert F.greedy_run(inst, 7).order == (4, 5, 0, 1, 2, 3, 6)
    assert F.greedy_prime(inst, "0").ads == E.greedy_prime(inst, "0").ads


@st.composite
def _many_ad_instances(draw):
    """Dyadic instances with up to 150 ads built for the lazy twin's paths: many clones of one row (exact ties in
    every round, > 64 near-ties, stale heads re-evaluated in batches up to 256), mostly-zero rows and columns
    (bounds of 0, every benefit 0 before k), and k up to |𝒜| (past the useful ads)."""
    m, n = draw(st.integers(1, 150)), draw(st.integers(1, 5))
    wts = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n).filter(any))
    total = 1 << (sum(wts) - 1).bit_length()
    wts[-1] += total - sum(wts)
    base = [Q(draw(st.integers(0, 4)), 4) for _ in range(n)]
    mode = draw(st.sampled_from(["clones", "sparse", "random"]))
    if mode == "clones":
        rows = [[x * Q(draw(st.integers(0, 2)), 2) for x in base] if draw(st.booleans()) else base for _ in range(m)]
    elif mode == "sparse":
        rows = [[Q(draw(st.integers(1, 2)), 2) if draw(st.integers(0, 9)) == 0 else Q(0) for _ in range(n)] for _ in range(m)]
    else:
        rows = [[Q(draw(st.integers(0, 4)), 4) for _ in range(n)] for _ in range(m)]
    return ad_instance([Q(x, total) for x in wts], rows), draw(st.integers(1, m))


@given(_many_ad_instances())
def test_lazy_twin_equals_exact_on_many_tied_ads(ik):
    """Both ways of evaluating the benefits (lazy: its heap paths; eager: every ad each round) on the same instances."""
    inst, k = ik
    ex = E.greedy_run(inst, k)
    for evaluation in ("lazy", "eager"):
        fa = F.greedy_run_evaluated(inst, k, evaluation)
        assert ex.order == fa.order and len(fa.order) == k
        assert [float(b) for b in ex.benefits] == list(fa.benefits)


@st.composite
def _float_sparse_instances(draw):
    """Float instances whose benefits are rounded sums (not dyadic): CTRs drawn from a few random levels, so exact and
    near ties (within the tolerance, or just outside it) occur; some empty rows and columns; payments or none."""
    m, n = draw(st.integers(1, 60)), draw(st.integers(1, 12))
    seed = draw(st.integers(0, 2 ** 32 - 1))
    rng = np.random.default_rng(seed)
    levels = rng.random(3) * draw(st.sampled_from([1.0, 1e-3]))
    D = np.where(rng.random((m, n)) < draw(st.sampled_from([0.1, 0.4, 0.9])), levels[rng.integers(0, 3, (m, n))], 0.0)
    if draw(st.booleans()):  # clones one tolerance apart and exactly equal
        D[m // 2:] = D[: m - m // 2] * (1 + draw(st.sampled_from([0.0, 2.0 ** -41, 2.0 ** -39, 2.0 ** -52])))
    w = rng.random(n) + 0.01
    pay = draw(st.sampled_from([None, "7", "random"]))  # payments: values above 1, the tolerance from the column maxima
    pay = None if pay is None else np.full(m, 7.0) if pay == "7" else rng.random(m) * 9 + 0.5
    return F.sparse_instance(w / w.sum(), sp.csr_matrix(D), pay), draw(st.integers(1, m))


@given(_float_sparse_instances())
def test_eager_and_lazy_evaluation_give_the_same_run_float_for_float(ik):
    """The claim of ``fast._greedy_eager``: evaluating every ad each round gives the lazy twin's run, the same floats
    (order, benefits, revenues) — on rounded, tied and near-tied benefits, not only dyadic ones."""
    S, k = ik
    lazy, eager = F.greedy_run_evaluated(S, k, "lazy"), F.greedy_run_evaluated(S, k, "eager")
    assert (eager.order, eager.benefits, eager.revenues) == (lazy.order, lazy.benefits, lazy.revenues)
    assert F.greedy_run(S, k).order == lazy.order
    assert eager.evaluations >= lazy.evaluations - S.n_ads  # eager evaluates every ad left, each round


def test_greedy_evaluation_is_checked():
    S = F.sparse_instance([1.0], sp.csr_matrix(np.ones((2, 1))))
    with pytest.raises(InvalidInput, match="evaluation = 'fastest'"):
        F.greedy_run_evaluated(S, 1, "fastest")


def test_fast_twin_is_exact_up_to_its_tolerance():
    """The documented limit of the fast twin's tie rule: an exact gap below ``tol = 2^-40`` (revenue < 1) is a
    tie there even when every float is exact (dyadic values 1/2 and 1/2 + 2^-45): the exact twin takes ad 1,
    the fast twin ad 0. A gap of 2^-39 is above tol and both take ad 1."""
    for gap, fast_pick in ((Q(1, 2 ** 45), 0), (Q(1, 2 ** 39), 1)):
        inst = ad_instance(["1"], [["1/2"], [Q(1, 2) + gap]])
        assert E.greedy(inst, 1) == E.optimum(inst, 1)[0] == (1,) and E.client_choice(inst, [0, 1], 0) == 1
        assert F.greedy(inst, 1) == F.optimum(inst, 1)[0] == (fast_pick,)
        assert F.client_choice(inst, [0, 1], 0) == fast_pick


def test_tolerance_shortcut_gives_the_same_number():
    """``_tol`` skips the column maxima when the revenue provably stays below 1; the value is the same."""
    rng = np.random.default_rng(11)
    for scale in (0.5, 0.999999, 1.0):
        V = sp.random(50, 400, density=0.1, random_state=rng, format="csr") * scale
        w = rng.random(400)
        for pay in (None, np.full(50, 3.0)):  # payments 3: revenue above 1, the full computation
            S = F.sparse_instance(w / w.sum(), V, pay)
            full = F.RELATIVE_MARGIN * max(1.0, float(S.values.max(axis=0).toarray().ravel() @ S.weights))
            assert F._tol(S) == full
    S = F.sparse_instance(np.full(4, 0.25), sp.csr_matrix(np.full((2, 4), 1.0)))
    assert F._tol(S) == F.RELATIVE_MARGIN * 1.0 and F._column_max(S.values).tolist() == [1.0] * 4


def test_lazy_greedy_matches_plain_on_random_sparse():
    rng = np.random.default_rng(7)
    m, n = 300, 2000
    V = sp.random(m, n, density=0.02, random_state=rng, format="csr")
    w = rng.random(n)
    w /= w.sum()
    S = F.sparse_instance(w, V)
    run = F.greedy_run_evaluated(S, 20, "lazy")
    # plain (non-lazy) greedy in float
    cur = np.zeros(n)
    D = S.values.toarray()
    chosen = []
    for _ in range(20):
        gains = (np.maximum(D - cur, 0) @ w)
        gains[chosen] = -1
        a = int(np.argmax(gains))
        chosen.append(a)
        cur = np.maximum(cur, D[a])
    assert list(run.order) == chosen
    assert run.evaluations < 20 * m


def test_hierarchy_conditional():
    h = ContextHierarchy({"root": None, "x": "root", "y": "root", "x1": "x", "x2": "x"},
                         {"x1": "1/4", "x2": "1/4", "y": "1/2"})
    assert h.conditional("x") == {"x1": Q(1, 2), "x2": Q(1, 2)}
    assert h.conditional("root")["y"] == Q(1, 2)
    inst = h.instance("x", {"x1": ["1", "0"], "x2": ["0", "1/2"], "y": ["0", "0"]})
    assert E.expected_revenue(inst, [0, 1]) == Q(3, 4)
    with pytest.raises(InvalidInput, match="unknown context"):
        h.conditional("z")


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(weights=["1/2", "1/3"], ctr=[["0", "0"]]), "sums to 5/6"),
        (dict(weights=["1"], ctr=[["3/2"]]), "outside"),
        (dict(weights=["-1/2", "3/2"], ctr=[["0", "0"]]), "outside"),
        (dict(weights=["1"], ctr=[["1/2"]], payments=["-1"]), ">= 0"),
        (dict(weights=["1"], ctr=[]), "no ads"),
        (dict(weights=["1"], ctr=[["1", "0"]]), "expected 1"),
        (dict(weights=["1"], ctr=[["1"]], threshold="2"), "threshold"),
    ],
)
def test_bad_instances(kwargs, match):
    with pytest.raises(InvalidInput, match=match):
        ad_instance(**kwargs)


def test_bad_k_ads_contexts():
    inst = ad_instance(["1/2", "1/2"], [["1", "0"], ["0", "1"]])
    for twin in (E, F):
        for k in (0, 3, -1):
            with pytest.raises(InvalidInput, match="k = "):
                twin.greedy(inst, k)
        with pytest.raises(InvalidInput, match="unknown ad 5"):
            twin.expected_revenue(inst, [5])
        with pytest.raises(InvalidInput, match="unknown context"):
            twin.client_choice(inst, [0], "nowhere")
        with pytest.raises(InvalidInput, match="alpha"):
            twin.greedy_prime(inst, "-1")
    with pytest.raises(InvalidInput, match="sums to"):
        F.sparse_instance([0.5, 0.4], sp.csr_matrix(np.ones((1, 2))))
    with pytest.raises(InvalidInput, match="outside"):
        F.sparse_instance([0.5, 0.5], sp.csr_matrix(np.full((1, 2), 1.5)))


def test_ads_boundaries_follow_the_thesis():
    """000 §4.3: the CTR is set to zero "whenever it is below" the threshold (a CTR equal to it is kept), in the exact
    instance and in the sparse one the fast twin runs at scale; Greedy'' (Theorem 8) runs Greedy "for as long as
    E[Revenue(A)] - alpha |A| is increasing" (benefit > alpha), both twins; E[Revenue(A|c^)] = sum_j Pr[c_j|c^]
    max_a p_a CTR(a|c_j); the client's ties go to the lowest ad id."""
    inst = ad_instance([Q(1, 4), Q(3, 4)], [[Q(1, 2), Q(1, 2)], [Q(1, 2), Q(1, 4)]], threshold=Q(1, 2))
    assert inst.effective_ctr(0, 0) == Q(1, 2) and inst.effective_ctr(1, 1) == 0
    assert E.expected_revenue(inst, [1]) == Q(1, 4) * Q(1, 2)
    assert E.client_choice(inst, [0, 1], inst.contexts[0]) == 0
    for twin in (E, F):
        assert twin.greedy_double_prime(inst, Q(1, 2)).ads == ()  # benefit of ad 0 is 1/2 = alpha: not added
        assert twin.greedy_double_prime(inst, Q(1, 3)).ads == (0,)
    S = F.sparse_instance([0.25, 0.75], sp.csr_matrix([[0.5, 0.5], [0.5, 0.25]]), threshold=0.5)
    assert S.values.toarray().tolist() == [[0.5, 0.5], [0.5, 0.0]]
    assert F.expected_revenue(S, [1]) == 0.125


def test_value_is_payment_times_ctr_in_that_context():
    """v(a, c_j) = p_a(c_j) CTR_tau(a|c_j) (000 §4.2.3) with context-dependent bids: each value reads the payment and
    the CTR of its own context, in both twins."""
    inst = ad_instance(["1/2", "1/2"], [["1/2", "1/4"], ["1", "1/2"]], [["2", "4"], ["1", "3"]])
    assert [[inst.value(a, j) for j in range(2)] for a in range(2)] == [[1, 1], [1, Q(3, 2)]]
    assert E.expected_revenue(inst, [1]) == Q(5, 4) and F.expected_revenue(inst, [1]) == 1.25
    assert E.client_choice(inst, [0, 1], inst.contexts[1]) == 1 == F.client_choice(inst, [0, 1], inst.contexts[1])


def test_lazy_first_bounds_are_summed_like_the_benefits():
    """Review finding (issue 25): the lazy twin's first bounds were V @ w, a sum in another order than the per-row
    reduceat of every later evaluation, so a bound could sit one rounding step below its benefit and the lazy run
    could differ from the eager one. Ad 0 spreads its benefit g over ten columns (V @ w one ulp below g); ads 1-4 sit
    in one column with benefits g + tol - tiny steps, within the tolerance of ad 0 only when g is computed right."""
    rng = np.random.default_rng(0)
    for _ in range(100_000):
        d = rng.random(10) * 0.2 + 0.1
        w = rng.random(10)
        w = w / w.sum() * 0.5
        g = np.add.reduceat(d * w, [0])[0]
        if (sp.csr_matrix(d[None, :]) @ w)[0] < g and 1 / 16 <= g < 1 / 8:
            break
    tol = 2.0 ** -40
    rows = [np.r_[d, 0.0]]
    for extra in (tol, tol - 2 ** -42, tol - 2 ** -43, tol - 2 ** -44):
        r = np.zeros(11)
        r[10] = 2 * (g + extra)
        rows.append(r)
    S = F.sparse_instance(np.r_[w, 0.5], sp.csr_matrix(np.array(rows)))
    assert F._tol(S) == tol
    runs = {e: F.greedy_run_evaluated(S, 1, e) for e in F.EVALUATIONS}
    assert {r.order for r in runs.values()} == {(0,)} and runs["lazy"].benefits == (g,)
