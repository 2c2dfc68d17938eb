"""Privacy claims of ch. 6 checked exactly on small search logs (finite mechanisms, rational rho = e^{-1/lambda})."""

from __future__ import annotations

from itertools import product

from hypothesis import strategies as st

from privclaims.checks.claims.dp import one_reading
from privclaims.checks.registry import claim
from privclaims.checks.verdict import Reading, by_reading, not_checked, refuted, verified, verified_bounded
from privclaims.counterexamples.harness import exhaustive_search
from privclaims.counterexamples.property_search import property_search
from privclaims.counterexamples.strategies import exp_epsilons, finite_mechanisms
from privclaims.counterexamples.zealous_searches import prop9_smt, thm13_exhaustive
from privclaims.theory.dp import exact as dpx
from privclaims.theory.dp.mechanism import finite_mechanism
from privclaims.theory.numbers import ONE, ZERO, Epsilon, Q
from privclaims.theory.zealous import exact
from privclaims.theory.zealous.finite import (
    a_hat_mechanism,
    all_logs,
    counts,
    least_exp_eps,
    noisy_threshold_distribution,
    small_domain,
    step4_mechanism,
    user_neighbours,
    zealous_mechanism,
)
from privclaims.theory.zealous.model import ZealousParams

SRC = "000_211156f2009240b4.txt"
SRC_P = "003_755c7aa10ef74058.txt"

# --------------------------------------------------------------------------- Definition 3's two quantifier orders
# The documents state (eps, delta)-probabilistic DP in two orders. Every claim about pDP is read under both;
# ``Q_OF`` maps a reading's name to the quantifier argument of privclaims.theory.dp.exact.probabilistic_dp_delta.

DEF3_PAIR = "Def. 3 per pair"
DEF3_INPUT = "Def. 3 per input"
Q_OF = {DEF3_PAIR: "pair", DEF3_INPUT: "input"}


def def3_readings(claim_pair: str, claim_input: str) -> tuple[Reading, Reading]:
    """The two readings of a claim about (eps, delta)-probabilistic DP: Definition 3 with the split
    Omega_1, Omega_2 chosen per neighbouring pair (L, L') (thesis ch. 2) or once per input S for all its
    neighbours S' (thesis ch. 6 proof of Prop. 9, and 003's definition). ``claim_*`` say what the claim
    asserts under each."""
    return (
        Reading(DEF3_PAIR, claim_pair,
                f"{SRC} §2 Definition 3: 'for all user activity logs L and neighboring ad logs L' ... we can divide the output space into two sets'"),
        Reading(DEF3_INPUT, claim_input,
                f"{SRC} §6.5 proof of Proposition 9; {SRC_P} §2 Definition 3"),
    )



# --------------------------------------------------------------------------- Theorem 13


@claim("zealous.thm13", method="exact+exhaustive", readings=(
    Reading("as stated", "The documents give one reading: lambda >= 2m/eps', tau = 1 and tau' >= m(1 - ln(2 delta'/m)/eps') make "
            "ZEALOUS (eps', delta')-indistinguishable (Definition 4 has no quantifier-order ambiguity).",
            f"{SRC} §6.4.1 Theorem 13, conditions (6.1)-(6.3)"),))
def thm13(ctx):
    """Theorem 13 as printed: lambda = 2m/eps' (6.1), tau = 1 (6.2), tau' = m(1 - ln(2 delta'/m)/eps') (6.3),
    searched exhaustively on small logs (counterexamples/zealous_searches.py). The published item set is a
    post-processing of ZEALOUS's output, so a set of published item sets violating Definition 4 for it
    violates Definition 4 for ZEALOUS (closure under post-processing). The same search with
    lambda = m/eps' (Korolova et al.'s add/remove analysis, which reproduces Table 6.1's delta') is reported."""
    printed = thm13_exhaustive(2)
    korolova = thm13_exhaustive(1)
    ev = {"search_as_printed": printed, "search_lambda=m/eps'": korolova, "source": f"{SRC} §6.4.1 Theorem 13"}
    if printed.found:
        m, rho, tp, users = printed.witness["m"], printed.witness["rho=e^(-1/lambda)"], printed.witness["tau_prime"], printed.witness["U"]
        mech = zealous_mechanism(small_domain(m), users, ZealousParams.of(m, None, 1, tp, rho=rho))
        hs, where = dpx.indistinguishability_delta(mech, Epsilon.from_exp(rho ** (-2 * m)))
        return refuted(witness={**printed.witness, "e^eps'": rho ** (-2 * m), "least_delta_of_published_set": str(hs), "where": where}, **ev).because(
            f"Theorem 13 says lambda >= 2m/eps', tau = 1 and tau' >= m(1 - ln(2 delta'/m)/eps') make ZEALOUS (eps', delta')-indistinguishable. "
            f"The exhaustive search over small logs found m = {m}, U = {users}, tau' = {tp}, rho = e^(-1/lambda) = {rho} meeting (6.1)-(6.3) "
            f"for which the published item set alone (a post-processing of the output, so the violation carries over) needs delta = {hs} "
            "(exact, recomputed by the exact twin), more than the delta' the theorem promises. The same search with lambda = m/eps' "
            "(Korolova et al.'s analysis) is reported alongside.")
    if printed.exhausted:
        return verified_bounded(bound=printed.bound, **ev)
    return not_checked("the exhaustive search did not finish", **ev)


@claim("zealous.text_clicks", method="property", readings=one_reading(
    "composition of indistinguishable releases",
    "an (eps1, delta1)-indistinguishable release followed by an independent eps2-DP release (Laplace click counts) is "
    "(eps1 + eps2, delta1)-indistinguishable; " + "Definition 3's two quantifier orders do not enter: the statement is about Definition 4 (indistinguishability)",
    f"{SRC} §6.4.1"))
def text_clicks(ctx):
    """The composition step: an (eps1, delta1)-indistinguishable release followed by an independent
    eps2-DP release is (eps1 + eps2, delta1)-indistinguishable. Searched on random pairs of finite
    mechanisms sharing the neighbour relation (exact hockey-stick of the product mechanism)."""

    @st.composite
    def pairs(draw):
        a = draw(finite_mechanisms(max_inputs=3, max_outputs=3, max_den=6))
        k = len(a.inputs)
        mout = draw(st.integers(1, 3))
        from privclaims.counterexamples.strategies import distributions

        b = {i: dict(enumerate(draw(distributions(mout, 6)))) for i in range(k)}
        e1, e2 = draw(st.sampled_from([Q(1), Q(2), Q(3, 2)])), draw(st.sampled_from([Q(1), Q(2), Q(4)]))
        return a, b, e1, e2

    def holds(x):
        a, b, e1, e2 = x
        bm = finite_mechanism(b, [(i, i + 1) for i in range(len(b) - 1)])
        e2_true = dpx.smallest_exp_epsilon(bm)
        if e2_true is None or e2_true > e2:
            return True  # premise fails: B is not eps2-DP
        d1 = dpx.indistinguishability_delta(a, Epsilon.from_exp(e1))[0]
        if not d1.eps.exp_is_rational:
            return True
        d1v = Q(d1.a) - e1 * Q(d1.b)
        prod_dist = {L: {(o1, o2): p1 * b[L].get(o2, ZERO) for o1, p1 in a.dist[L].items() for o2 in b[L]} for L in a.inputs}
        pm = finite_mechanism(prod_dist, [(i, i + 1) for i in range(len(b) - 1)])
        return dpx.indistinguishability_delta(pm, Epsilon.from_exp(e1 * e2))[0].le(max(d1v, ZERO))

    res = property_search(pairs(), holds, examples=60 if ctx.quick else 200, seed=ctx.int_seed("zealous.text_clicks"), encoding="exact finite mechanisms")
    ev = {"search": res, "source": f"{SRC} §6.4.1",
          "note": "the sensitivity premise (each user changes <= 2m click counts by 1) is taken from the text; only the composition is machine-checked"}
    if res.found:
        return refuted(witness=res.witness, **ev)
    return verified_bounded(bound=res.bound, **ev)


# --------------------------------------------------------------------------- Theorem 14 and its proof


def thm14_instances():
    """(m, U, domain, rho, tau, tau') with (6.5) satisfied and delta < 1; delta, e^eps rational."""
    for m, users, rho, tau in product((1, 2), (1, 2, 3), (Q(1, 2), Q(1, 3)), (1, 2)):
        if m == 2 and users == 3:
            continue
        domain = small_domain(m)
        for tp in range(tau, tau + 8):
            first_ok = rho ** (tp - tau) / 2 <= 1 - rho  # -lambda ln(2 - 2e^{-1/lambda}) <= tau' - tau
            delta = Q(users * m, 2 * tau) * rho ** (tp - tau)  # (6.5) second term at equality
            if first_ok and delta < 1:
                yield m, users, domain, rho, tau, tp, delta
                break


def full_output_least_delta(domain, users, params, rho, eps_exp):
    """Least delta of (eps, delta)-pDP of ZEALOUS's FULL output (published items AND their noisy counts), both
    quantifier orders, exactly, on every log of ``users`` users over ``domain``.

    The output's likelihood ratio between neighbours S, S' is the product over items of per-item ratios: 1 for an
    item below tau in both; for a suppressed item Pr[suppressed | c]/Pr[suppressed | c']; for a published value x
    the Laplace density ratio rho^{|x-c|-|x-c'|}, at most rho^{-|c-c'|}; infinite when the item is published under S
    and has count < tau in S' (a K item), zero when it has count < tau in S. If the product of the per-item sups of
    max(r, 1/r) over the finite ratios is <= e^eps for every pair, the minimal Omega_2 under S is exactly the outputs
    publishing a K item (outputs of probability 0 under S cost nothing), whose S-probability is an event on the
    published item set: exact from :func:`privclaims.theory.zealous.exact.release_distribution`. Returns
    ``(finite_ratio_sup_ok, worst_finite_sup, {"pair": delta, "input": delta})`` (deltas None if not ok)."""
    tau, tp = int(params.tau), int(params.tau_prime)  # integer thresholds keep rho^(tau'-c) an exact rational
    if (tau, tp) != (params.tau, params.tau_prime):
        raise ValueError(f"full_output_least_delta needs integer thresholds, got tau = {params.tau}, tau' = {params.tau_prime}")
    logs = all_logs(domain, users, params.m)
    pairs = [(a, b) for a, b in user_neighbours(logs)] + [(b, a) for a, b in user_neighbours(logs)]
    worst = ONE
    k_of = {}
    for S, Sp in pairs:
        c, cp = counts(S), counts(Sp)
        sup = ONE
        for d in domain:
            x, y = c[d], cp[d]
            if x < tau and y < tau:
                continue
            r = _suppress(x, tau, tp, rho) / _suppress(y, tau, tp, rho)
            item = max(r, 1 / r)
            if x >= tau and y >= tau:
                item = max(item, rho ** (-abs(x - y)))
            sup *= item
        worst = max(worst, sup)
        k_of.setdefault(S, []).append(frozenset(d for d in domain if c[d] >= tau > cp[d]))
    if worst > eps_exp:
        return False, worst, {"pair": None, "input": None}
    pair = input_ = ZERO
    for S, ks in k_of.items():
        dist = exact.release_distribution(dict(counts(S)), params)
        for K in ks:
            pair = max(pair, sum((p for o, p in dist.items() if o & K), ZERO))
        union = frozenset().union(*ks)
        input_ = max(input_, sum((p for o, p in dist.items() if o & union), ZERO))
    return True, worst, {"pair": pair, "input": input_}


@claim("zealous.thm14", method="exact+exhaustive", quick=False, readings=def3_readings(
    "Under (6.5), ZEALOUS's output (items and noisy counts) is (eps, delta)-pDP with the split chosen per neighbouring pair.",
    "Under (6.5), ZEALOUS's output (items and noisy counts) is (eps, delta)-pDP with one split per input for all its neighbours."))
def thm14(ctx):
    """Theorem 14 on every log of U users over |D| = 2m items (histories of <= m items), on ZEALOUS's full
    output (published items and noisy counts; see :func:`full_output_least_delta` for the exact reduction),
    eps = 2m/lambda (e^eps = rho^{-2m}), each quantifier order, against the delta that (6.5) guarantees.
    The published-item-set projection's least delta is reported alongside (pDP is not closed under
    post-processing, so the projection alone would not decide the theorem)."""
    rows = []
    for m, users, domain, rho, tau, tp, delta in thm14_instances():
        params = ZealousParams.of(m, None, tau, tp, rho=rho)
        e_eps = rho ** (-2 * m)
        ok, worst, full = full_output_least_delta(domain, users, params, rho, e_eps)
        proj = {q: dpx.probabilistic_dp_delta(zealous_mechanism(domain, users, params), Epsilon.from_exp(e_eps), q)[0] for q in ("pair", "input")}
        rows.append({"m": m, "U": users, "|D|": len(domain), "rho": rho, "tau": tau, "tau_prime": tp, "delta_(6.5)": delta,
                     "finite_ratio_sup": worst, "e^eps": e_eps, "finite_ratios_within_e^eps": ok,
                     "full_output_least_delta": full, "published_set_least_delta": proj})
    # negative control: with tau' = tau the published-set mechanism is not (eps, delta)-pDP for the same delta
    ctl = ZealousParams.of(1, None, 1, 1, rho=Q(1, 2))
    ctl_delta = dpx.probabilistic_dp_delta(zealous_mechanism(("a", "b"), 2, ctl), Epsilon.from_exp(4), "pair")[0]
    per = {}
    for name, q in Q_OF.items():
        undecided = [r for r in rows if not r["finite_ratios_within_e^eps"]]
        bad = [r for r in rows if r["finite_ratios_within_e^eps"] and r["full_output_least_delta"][q] > r["delta_(6.5)"]]
        if bad:
            w = bad[0]
            per[name] = refuted(witness=w).because(
                f"Under {name}, on m = {w['m']}, U = {w['U']}, rho = {w['rho']}, tau = {w['tau']}, tau' = {w['tau_prime']} satisfying (6.5), the "
                f"least delta of ZEALOUS's full output is {w['full_output_least_delta'][q]}, above the {w['delta_(6.5)']} Theorem 14 promises.")
        elif undecided:
            per[name] = not_checked("a finite per-item likelihood ratio product exceeded e^eps, so the exact reduction does not apply", instances=undecided)
        else:
            per[name] = verified_bounded(bound=f"{len(rows)} parameter settings, every log with U <= 3 users, |D| = 2m, m <= 2 (full output: items and noisy counts)")
    return by_reading(per, instances=rows, **{"negative_control_tau'=tau_least_delta": ctl_delta}, source=f"{SRC} §6.4.2 Theorem 14")


@claim("zealous.text_thm14_breach", method="exact+exhaustive", readings=one_reading(
    "proof step (6.8) as printed",
    "the probability that some item of count exactly tau is published equals 1 - (1 - rho^(tau'-tau)/2)^|K| and is at most "
    "|K|/2 rho^(tau'-tau) <= Um/(2 tau) rho^(tau'-tau), with |K| <= Um/tau; " + "Definition 3's two quantifier orders do not enter: a probability and a count, no split of the output space",
    f"{SRC} §6.4.2 proof of Theorem 14, Eq. (6.8): '\\leq \\frac{{U \\cdot m}}{{2\\tau}} \\cdot e^{{-\\frac{{\\tau' - \\tau}}{{\\lambda}}}} "
    "\\quad \\text{(because } |K| \\leq U \\cdot m/\\tau \\text{)}'"))
def text_thm14_breach(ctx):
    """(6.8) on every small log: Pr[some K item published] (from the exact release distribution)
    = 1 - (1 - rho^{tau'-tau}/2)^{|K|} <= |K|/2 rho^{tau'-tau} <= U m/(2 tau) rho^{tau'-tau}, and |K| <= U m/tau."""
    checked = 0
    for m, users, rho, tau, gap in product((1, 2), (1, 2, 3), (Q(1, 2), Q(2, 3)), (1, 2), (0, 1, 3)):
        if m == 2 and users == 3:
            continue
        domain = small_domain(m)
        params = ZealousParams.of(m, None, tau, tau + gap, rho=rho)
        for L in all_logs(domain, users, m):
            c = counts(L)
            K = {k for k, v in c.items() if v == tau}
            dist = exact.release_distribution(dict(c), params)
            breach = sum((p for o, p in dist.items() if o & K), ZERO)
            t = rho ** gap / 2
            closed = 1 - (1 - t) ** len(K)
            chain = [closed, len(K) * t, Q(users * m, tau) * t]
            checked += 1
            if breach != closed or not (chain[0] <= chain[1] <= chain[2]) or len(K) > Q(users * m, tau):
                return refuted(witness={"log": [sorted(h) for h in L], "params": [m, rho, tau, tau + gap], "Pr_breach": breach, "chain": chain})
    return verified_bounded(bound=f"{checked} (log, parameter) pairs: U <= 3, m <= 2, |D| = 2m", source=f"{SRC} §6.4.2 Eq. (6.6), (6.8)")


def _suppress(d, tau, tp, rho):
    return ONE if d < tau else 1 - exact.laplace_tail_above(tp - d, rho)


@claim("zealous.text_thm14_ratio", method="exact+exhaustive", readings=one_reading(
    "per-item likelihood ratios of the proof",
    "every finite per-item likelihood ratio of ZEALOUS's output between neighbouring counts is <= e^(1/lambda) under (6.5), "
    "and infinite ones arise only on outputs the proof puts in Omega_2; " + "Definition 3's two quantifier orders do not enter: the ratios are per output, before any split is chosen",
    f"{SRC} §6.4.2 proof of Theorem 14 (cases (i)-(iii) of the per-item ratio)"))
def text_thm14_ratio(ctx):
    """Per-item likelihood ratios of the full output (noisy counts included) for counts d (in S) and
    d' (in S') with |d - d'| = 1: a published value x > tau' has density ratio rho^{|x-d|-|x-d'|}
    (sup rho^{-1}, both counts >= tau), a suppressed item has ratio Pr[suppressed | d]/Pr[suppressed | d'].
    All finite ratios must be <= e^{1/lambda} = 1/rho under (6.5); infinite ones must be outputs the
    proof puts in Omega2 (a published K item) or outputs of probability 0 under S."""
    worst = ZERO
    cases = 0
    infinite = []
    case_ii_printed_wrong = None
    tight = None
    for rho, tau, gap in product((Q(1, 2), Q(1, 3), Q(2, 3), Q(9, 10)), (1, 2, 3), range(0, 8)):
        tp = tau + gap
        first_ok = rho ** gap / 2 <= 1 - rho
        for d in range(max(0, tau - 2), tp + 4):
            for dp in (d - 1, d + 1):
                if dp < 0:
                    continue
                cases += 1
                # suppressed
                r = _suppress(d, tau, tp, rho) / _suppress(dp, tau, tp, rho)
                if first_ok:
                    worst = max(worst, r * rho)
                elif r > 1 / rho and tight is None:
                    tight = {"rho": rho, "tau": tau, "tau_prime": tp, "d": d, "d_prime": dp, "ratio": r, "1/rho": 1 / rho}
                if d < tau and dp == tau and case_ii_printed_wrong is None:
                    case_ii_printed_wrong = {"d_prime": dp, "tau": tau, "printed_Pr[E'*|E']": 1, "exact": _suppress(dp, tau, tp, rho)}
                # published (density ratio, sup over x > tau')
                if d >= tau and dp >= tau:
                    if first_ok:
                        worst = max(worst, rho ** (-abs(d - dp)) * rho)
                elif d >= tau > dp:
                    infinite.append((tau, d, dp, "p > 0 = q: item of count tau in S, i.e. in K -> Omega2"))
                elif dp >= tau > d:
                    infinite.append((tau, d, dp, "q > 0 = p: output has probability 0 under S"))
    # an infinite ratio may only occur at the threshold boundary: the larger count is exactly tau
    ok_inf = all(max(d, dp) == t and abs(d - dp) == 1 for t, d, dp, _ in infinite)
    ev = {"cases": cases, "max_ratio_times_rho": worst, "infinite_ratio_cases": len(infinite), "infinite_cases_are_K_boundary": ok_inf,
          "printed_case_ii_misstatement": case_ii_printed_wrong,
          "note": "Eq. (6.7) as printed ('for any omega in Omega') fails for outputs publishing an item of count tau-1 in S: "
                  "Pr[Z(S)=omega] = 0 < e^-eps Pr[Z(S')=omega]; they have probability 0 under S, so Definition 3 is unaffected",
          "first_condition_is_tight": tight, "source": f"{SRC} §6.4.2 proof of Theorem 14 (6.9), (6.10), cases (i)-(iii)"}
    if worst <= 1 and ok_inf:
        return verified_bounded(bound="rho in {1/2,1/3,2/3,9/10}, tau in 1..3, tau'-tau in 0..7, all counts in [tau-2, tau'+3]", **ev)
    return refuted(witness=ev, **ev)


@claim("zealous.text_step4", method="exact+exhaustive", readings=def3_readings(
    "Steps 1, 2, 4 alone are eps-DP; after Step 4 with the Step-3 threshold the output is not eps-DP and not (eps, delta)-pDP "
    "for delta < 1/2 (split per pair).",
    "The same, with Definition 3's split chosen once per input."))
def text_step4(ctx):
    """(1) Steps 1, 2, 4 alone (no threshold): per neighbouring pair the noisy-count likelihood ratio
    is rho^{|x-c|-|x-c'|} summed over items, whose sup is rho^{-L1(c, c')}; the max L1 over neighbours of
    every small log is 2m, so the ratio is <= rho^{-2m} = e^eps (lambda = 2m/eps). (2) After Step 4 with
    the Step-3 threshold, the published item set (post-processing) has least pDP delta 1 (both
    quantifiers): not (eps, delta)-pDP for delta < 1/2 (and, since p > 0 = q, for no eps). (3) Step 5
    restores pDP: see zealous.thm14."""
    max_l1 = {}
    for m, users in ((1, 2), (1, 3), (2, 2)):
        domain = ("a", "b", "c", "d")[: 2 * m]
        logs = all_logs(domain, users, m)
        max_l1[f"m={m},U={users}"] = max(sum(abs(counts(a)[k] - counts(b)[k]) for k in domain) for a, b in user_neighbours(logs))
    part1 = all(v == 2 * int(k.split(",")[0][2:]) for k, v in max_l1.items())  # attained, so sup ratio = rho^{-2m} exactly
    part2 = {}
    for q in ("pair", "input"):
        mech = step4_mechanism(("a", "b"), 2, ZealousParams.of(1, None, 2, 2, rho=Q(1, 2)))
        part2[q] = dpx.probabilistic_dp_delta(mech, Epsilon.from_exp(10 ** 6), q)[0]
    not_dp = not dpx.is_differentially_private(step4_mechanism(("a", "b"), 2, ZealousParams.of(1, None, 2, 2, rho=Q(1, 2))), Epsilon.from_exp(10 ** 6))
    ev = {"max_L1_between_neighbour_histograms": max_l1, "least_pdp_delta_after_step4_(e^eps=10^6)": part2,
          "not_eps_dp_after_step4": not_dp, "source": f"{SRC} §6.4"}
    per = {}
    for name, q in Q_OF.items():
        if part1 and not_dp and part2[q] >= Q(1, 2):
            per[name] = verified()
        else:
            per[name] = refuted(witness={"part1_L1_attains_2m": part1, "not_dp": not_dp, "least_pdp_delta": part2[q]}).because(
                f"Under {name}: either the noisy counts' L1 bound 2m fails, or the Step-4 output is eps-DP, or its least pDP delta "
                "is below 1/2 on the two-user instance, contradicting the text.")
    return by_reading(per, **ev)


# --------------------------------------------------------------------------- §6.5


@claim("zealous.prop9", method="smt+property", readings=def3_readings(
    "Every (eps, delta)-pDP algorithm (split chosen per neighbouring pair) is (eps, delta)-indistinguishable.",
    "Every (eps, delta)-pDP algorithm (one split per input for all its neighbours) is (eps, delta)-indistinguishable."))
def prop9(ctx):
    """(1) z3: no mechanism with two neighbouring inputs and <= 4 outputs is (eps, delta)-pDP but not
    (eps, delta)-indistinguishable, for e^eps in {1, 3/2, 2, 10} (with two inputs the two readings of
    Definition 3 coincide; witnesses would be re-verified by the literal subset reading of Definition 4).
    (2) hypothesis, per reading: random mechanisms with up to 3 inputs (a path), delta* = least pDP delta under
    that reading => (eps, delta*)-indistinguishable."""
    smt = [prop9_smt(n, E) for n in range(1, 5) for E in (Q(1), Q(3, 2), Q(2), Q(10))]
    found = [r for r in smt if r.found]
    undecided = [r.bound for r in smt if not r.exhausted]

    @st.composite
    def inst(draw):
        return draw(finite_mechanisms(max_inputs=3, max_outputs=4, max_den=8)), draw(exp_epsilons())

    per = {}
    for name, q in Q_OF.items():
        if found:
            per[name] = refuted(witness=found[0].witness, search=found[0]).because(
                f"z3 found a two-input mechanism that is (eps, delta)-pDP (both readings coincide with two inputs) but not "
                "(eps, delta)-indistinguishable; the witness is re-verified by the exact subset reading of Definition 4.")
            continue

        def holds(x, q=q):
            mech, eps = x
            return dpx.is_indistinguishable(mech, eps, dpx.probabilistic_dp_delta(mech, eps, q)[0])

        res = property_search(inst(), holds, examples=150 if ctx.quick else 600, seed=ctx.int_seed(f"zealous.prop9.{q}"), encoding="exact finite mechanisms")
        if res.found:
            per[name] = refuted(witness=res.witness, search=res).because(
                f"Under {name} a random finite mechanism at its least pDP delta is not indistinguishable at that delta (exact).")
        else:
            per[name] = verified_bounded(bound=f"z3: {len(smt) - len(undecided)} of {len(smt)} encodings unsat (2 inputs, <= 4 outputs); {res.bound}", search=res)
    return by_reading(per, smt_undecided=undecided, source=f"{SRC} §6.5 Proposition 9")


def _a_hat_instances():
    for n, users in ((2, 1), (2, 2), (3, 1), (3, 2), (4, 2), (3, 3)):
        yield n, users, a_hat_mechanism(tuple(range(n)), users)


@claim("zealous.ex6", method="exact")
def ex6(ctx):
    """Algorithm A-hat: on every log S in D^U the output is uniform over D minus {S_1}."""
    for n, users, mech in _a_hat_instances():
        for L, dist in mech.dist.items():
            if set(dist) != set(range(n)) - {L[0]} or any(p != Q(1, n - 1) for p in dist.values()):
                return refuted(witness={"D": n, "log": L, "dist": dist})
    return verified(instances=[(n, u) for n, u, _ in _a_hat_instances()], source=f"{SRC} §6.5 Example 6")


@claim("zealous.prop10", method="exact", readings=one_reading(
    "as stated",
    "A-hat is (eps', 1/(|D| - 1))-indistinguishable for every eps' > 0 (and 1/(|D| - 1) is the least delta'); "
    "Definition 3's two quantifier orders do not enter: indistinguishability (Definition 4) has no split",
    f"{SRC} §6.5 Proposition 10"))
def prop10(ctx):
    """Least (eps', delta') indistinguishability delta' of A-hat = 1/(|D|-1) for every eps' > 0: the
    worst set's hockey-stick is a - e^eps' b with b = 0, independent of eps'."""
    rows = []
    for n, users, mech in _a_hat_instances():
        h, _ = dpx.indistinguishability_delta(mech, Epsilon.from_exp(2))
        rows.append({"|D|": n, "U": users, "a": h.a, "b": h.b})
        if h.b != 0 or h.a != Q(1, n - 1):
            return refuted(witness=rows[-1])
    return verified(instances=rows, source=f"{SRC} §6.5 Proposition 10",
                    note="(6.13) prints Pr[A(S) in O] where Pr[A(S') in O] is meant, and S_2 for S'_1")


@claim("zealous.prop11", method="exact", readings=one_reading(
    "as stated",
    "for every log S and every output O of A-hat, the neighbour S' with S'_1 = O gives Pr[A-hat(S') = O] = 0 < Pr[A-hat(S) = O], "
    "an eps-DP violation for every eps; " + "Definition 3's two quantifier orders do not enter: the statement is about eps-DP (Definition 2)",
    f"{SRC} §6.5 Proposition 11"))
def prop11(ctx):
    """Every (S, O) with Pr[A-hat(S) = O] > 0 violates eps-DP against the neighbour S' with S'_1 = O, for every eps (q = 0)."""
    for n, users, mech in _a_hat_instances():
        viol = {(L, O) for L, _, O in dpx.dp_violations(mech, Epsilon.from_exp(10 ** 9))}
        for L, dist in mech.dist.items():
            for O in dist:
                Lp = (O,) + L[1:]
                if mech.pr(Lp, O) != 0 or (L, O) not in viol:
                    return refuted(witness={"D": n, "S": L, "O": O})
    return verified(source=f"{SRC} §6.5 Proposition 11", e_eps_tested=10 ** 9, note="q = 0 makes the violation independent of eps")


@claim("zealous.cor3", method="exact", readings=def3_readings(
    "A-hat is (eps', 1/(|D|-1))-indistinguishable, and for no eps and no delta < 1 is there, for some neighbouring pair, no split "
    "Omega_1, Omega_2 with Pr[A-hat(S) in Omega_2] <= delta (the split may differ per pair S, S').",
    "A-hat is (eps', 1/(|D|-1))-indistinguishable, and for no eps and delta < 1 can each input S have one split serving all its neighbours S'."))
def cor3(ctx):
    """A-hat: indistinguishability delta' = 1/(|D|-1) (Prop. 10, zealous.prop10); least pDP delta, for
    e^eps = 10^9 (every violating output has q = 0, so the least delta is the same for every eps), under
    each quantifier order of Definition 3. The corollary's second half holds under a reading iff the least
    delta is 1 on every instance; the smallest instance with least delta < 1 is the witness."""
    per = {}
    rows = {}
    for name, q in Q_OF.items():
        rows[name] = []
        for n, users, mech in _a_hat_instances():
            h, _ = dpx.indistinguishability_delta(mech, Epsilon.from_exp(2))
            d = dpx.probabilistic_dp_delta(mech, Epsilon.from_exp(10 ** 9), q)[0]
            rows[name].append({"|D|": n, "U": users, "indist_delta'": h.a if h.b == 0 else h, "1/(|D|-1)": Q(1, n - 1), "least_pdp_delta": d})
        below = [r for r in rows[name] if r["least_pdp_delta"] < 1]
        indist_ok = all(r["indist_delta'"] == r["1/(|D|-1)"] for r in rows[name])
        if below and indist_ok:
            w = min(below, key=lambda r: (r["|D|"], r["U"]))
            per[name] = refuted(witness=w, instances=rows[name]).because(
                f"Under {name} (the split of the output space chosen separately for each neighbouring pair S, S'), A-hat on |D| = {w['|D|']} "
                f"histories and U = {w['U']} user(s) is (eps, {w['least_pdp_delta']})-probabilistically DP for every eps: for a pair (S, S') only "
                "the one output O = S'_1 has probability 0 under S' and positive probability 1/(|D|-1) under S, so Omega_2 = {S'_1} suffices. "
                "The corollary's 'not pDP for any delta < 1' is therefore false under this reading (exact least delta from the exact twin).")
        elif indist_ok:
            per[name] = verified_bounded(bound=f"{len(rows[name])} instances: |D| <= 4, U <= 3", instances=rows[name])
        else:
            per[name] = refuted(witness=[r for r in rows[name] if r["indist_delta'"] != r["1/(|D|-1)"]][0], instances=rows[name]).because(
                "A-hat's least indistinguishability delta' differs from 1/(|D|-1) on this instance, so the corollary's first half fails.")
    return by_reading(per, why="Corollary 3 depends on which Definition 3 is meant. Chapter 2 states Definition 3 with the split "
                      "Omega_1, Omega_2 chosen for each neighbouring pair; under it A-hat is (eps, 1/(|D|-1))-probabilistically DP, so the "
                      "corollary is false. Chapter 6 (proof of Proposition 9) and the paper 003 choose the split once per input for all "
                      "its neighbours; under that reading every output of A-hat is a breach against some neighbour, the least delta is 1 and "
                      "the corollary holds. The documents use both, so the verdict is reading-dependent.",
                      source=f"{SRC} §6.5 Corollary 3; {SRC_P} §5 Corollary 1")


@claim("zealous.p_text_dp_variants", method="property+exhaustive")
def p_text_dp_variants(ctx):
    """Neighbours differing in one keyword (one item added/removed within a user's history) are a
    subset of neighbours differing in one user's history, so user-level eps-DP implies the finer
    variant; exhaustively: least e^eps of ZEALOUS's published set per relation, fine <= user-level."""
    rows = []
    for m, users, rho in ((1, 2, Q(1, 2)), (2, 2, Q(1, 2)), (1, 3, Q(1, 3))):
        domain = ("a", "b", "c")[: m + 1]
        logs = all_logs(domain, users, m)
        dist = {L: noisy_threshold_distribution(counts(L), domain, rho, 1) for L in logs}  # full support
        user_pairs = user_neighbours(logs)
        kw_pairs = [(a, b) for a, b in user_pairs if sum(len(x ^ y) for x, y in zip(a, b)) == 1]
        fine, coarse = least_exp_eps(dist, kw_pairs), least_exp_eps(dist, user_pairs)
        subset = set(kw_pairs) <= set(user_pairs)
        ok = subset and (coarse is None or (fine is not None and fine <= coarse))
        rows.append({"m": m, "U": users, "keyword_level_e^eps": fine, "user_level_e^eps": coarse, "subset": subset, "ok": ok})
    if all(r["ok"] for r in rows):
        return verified_bounded(bound="U <= 3, m <= 2, |D| <= 3", instances=rows, source="003_755c7aa10ef74058.txt §2.2")
    return refuted(witness=[r for r in rows if not r["ok"]][0])


@claim("zealous.p_fig1", method="exact")
def p_fig1(ctx):
    """Figure 1 of 003: Bob_73 ("honda accord", "certified car"), CarlRu ("free mp3"); m = 3 keywords per
    user with Bob's selection {honda, certified, car} and Carl's {free, mp3} capped... the figure shows
    free/honda/certified/car surviving tau and free/honda/car after tau'. Exact: every published set is a
    subset of the selected keywords, and {free, honda, car} has positive probability."""
    selected = {"Bob_73": ["honda", "certified", "car"], "CarlRu": ["free"]}
    hist = {}
    for its in selected.values():
        for k in its:
            hist[k] = hist.get(k, 0) + 1
    params = ZealousParams.of(3, None, 1, 1, rho=Q(1, 2))
    dist = exact.release_distribution(hist, params)
    target = frozenset({"free", "honda", "car"})
    allowed = frozenset({"free", "honda", "certified", "car"})
    ok = all(o <= allowed for o in dist) and dist.get(target, ZERO) > 0 and sum(dist.values()) == 1
    ev = {"histogram": hist, "Pr[published = {free, honda, car}]": dist.get(target, ZERO), "outputs": len(dist), "source": "003_755c7aa10ef74058.txt Figure 1",
          "assumption": "the selection of Step 1 is read off the figure (Bob: honda, certified, car; CarlRu: free)"}
    return verified(**ev) if ok else refuted(witness=ev)
