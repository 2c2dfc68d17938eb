"""Definitions and belief propositions (000_211156f2009240b4.txt §3.2-§3.5.1, 001 §2-§4): every
efficient formula against the literal reading - enumeration of all input streams of the chain and
Bayes' rule on the literal system of Definition 6 (``privclaims.theory.dp.delta_privacy``)."""

from __future__ import annotations

from itertools import product

from privclaims.checks.claims.maskit._audit import AUDITS
from privclaims.checks.claims.maskit._common import (
    QUOTES, S000, S001, examples, one_reading, property_verdict, quoted, release_brackets, render, stated,
)
from privclaims.checks.definitions.maskit import DELTA_PRIVACY, FIGURE_3_4B, STRONG_ADVERSARY, UTILITY
from privclaims.checks.registry import Context, claim
from privclaims.checks.verdict import Reading, by_reading, compare_all, discrepancy, refuted, verified, verified_bounded
from privclaims.theory.dp.delta_privacy import max_breach as dp_max_breach
from privclaims.theory.dp.delta_privacy import posterior_belief as dp_posterior
from privclaims.theory.errors import InvalidInput
from privclaims.theory.maskit import exact as E
from privclaims.theory.maskit import fast as F
from privclaims.theory.maskit.figures import figure_3_2, figure_3_3, figure_3_4b
from privclaims.theory.maskit.model import dominates, learn_chain, markov_chain, mask_sensitive_vector, suppression_vector
from privclaims.theory.maskit.system import (
    BOT_LABEL,
    MaskSensitive,
    SimulatableCheck,
    deterministic_system,
    maskit,
    probabilistic_system,
)
from privclaims.theory.numbers import ONE, ZERO, Q


def cond(chain, event, given):
    """Pr[event | given] by enumerating every input stream (the literal reading)."""
    num = den = ZERO
    for x, px in E.input_streams(chain).items():
        if given(x):
            den += px
            if event(x):
                num += px
    return None if den == 0 else num / den


def _labels(chain, o):
    return tuple(BOT_LABEL if v is None else chain.contexts[v] for v in o)


@claim("maskit.def_markov", method="exact+property", quick=False, rests_on=(), audit=AUDITS["maskit.def_markov"], readings=stated("maskit.def_markov"))
def def_markov(ctx: Context):
    from privclaims.counterexamples.maskit_strategies import chains

    def holds(ch):
        streams = E.input_streams(ch)
        if sum(streams.values(), ZERO) != 1:
            return False
        for x, px in streams.items():
            if E.joint_probability(ch, x) != px:
                return False
            for t in range(2, ch.T + 1):  # Markov property (3.1) literally
                got = cond(ch, lambda y: y[t - 1] == x[t - 1], lambda y: y[: t - 1] == x[: t - 1])
                if got != ch.steps[t - 2][x[t - 2]][x[t - 1]]:
                    return False
        return True

    rejects = []
    bad_matrices = ([["1/2", "1/3"], ["1", "0"]],  # row sums to 5/6
                    [["1/2", "1/2", "0"], ["1", "0"]],  # wrong length
                    [["-1/2", "3/2"], ["1", "0"]])  # negative entry
    for bad in bad_matrices:
        try:
            markov_chain(["a", "b"], ["1/2", "1/2"], [bad])
            rejects.append(False)
        except InvalidInput as e:
            rejects.append(str(e))
    out = property_verdict(ctx, "maskit.def_markov", chains(max_n=3, max_T=3), holds, n=examples(ctx, 150, 30),
                           encoding="random exact chains, n <= 3, T <= 3: joint = Π a, Σ joint = 1, Markov property (3.1) by enumeration",
                           invalid_inputs_rejected=rejects)
    if not all(rejects):
        return discrepancy(paper="rows must be distributions", computed="a bad row was accepted", rejects=rejects)
    return out


EQ32_READINGS = (
    Reading("thesis (3.2), any j",
            "Pr[X_t2 = c_j | X_t1 = c_i] = (e_i^T A^(t1+1) ... A^(t2))_j for every pair of contexts i, j",
            render(QUOTES["maskit.eq3_2/thesis"])),
    Reading("001 Eq. (2) as printed, j = i",
            "Pr[X_t2 = c_i | X_t1 = c_i] = (e_i A^(t1+1) ... A^(t2))_i: the return probability only (001 prints i for j "
            "on both sides, which read literally is the j = i case of the thesis's formula)",
            render(QUOTES["maskit.eq3_2/001"])),
)


@claim("maskit.eq3_2", method="exact+property", quick=False, rests_on=(), audit=AUDITS["maskit.eq3_2"], readings=EQ32_READINGS)
def eq3_2(ctx: Context):
    """(e_i A^(t1+1)..A^(t2)) against Pr[X_t2 = · | X_t1 = c_i] by enumerating every input stream; each reading
    is its own search (all targets j, or only j = i)."""
    from hypothesis import strategies as st

    from privclaims.counterexamples.maskit_strategies import chains

    def holds_for(only_diagonal: bool):
        def holds(inst):
            ch, t1, t2 = inst
            t1, t2 = min(t1, ch.T), min(t2, ch.T)
            t1, t2 = min(t1, t2), max(t1, t2)
            pri = E.prior_beliefs(ch)
            for i in range(ch.n):
                if t1 and pri[t1 - 1][i] == 0:
                    continue
                js = [i] if only_diagonal else range(ch.n)
                v = E.transition_probability(ch, t1, i, t2)
                fv = F.transition_probability(ch, t1, i, t2)
                for j in js:
                    lit = cond(ch, lambda y: y[t2 - 1] == j, lambda y: t1 == 0 or y[t1 - 1] == i)
                    if v[j] != lit or abs(float(v[j]) - fv[j]) > 1e-9:
                        return False
            return True
        return holds

    strat = st.tuples(chains(max_n=3, max_T=4), st.integers(0, 4), st.integers(1, 4))
    outs = {r.name: property_verdict(ctx, f"maskit.eq3_2/{k}", strat, holds_for(k == 1), n=examples(ctx, 150, 30),
                                     encoding="random chains; (e_i A^(t1+1)..A^(t2))_j vs Pr[X_t2 = c_j | X_t1 = c_i] by "
                                              "enumeration" + (" for j = i only" if k == 1 else " for every j") +
                                              "; fast twin within 1e-9")
            for k, r in enumerate(EQ32_READINGS)}
    return by_reading(outs, why=None, note="001's index slip (i for j) gives a true special case, not a second formula that fails")


@claim("maskit.def_utility", method="exact+property", quick=False, rests_on=(UTILITY,), audit=AUDITS["maskit.def_utility"], readings=one_reading(
    "utility(p) = Σ_o Pr[o]·|{t : o_t ≠ ⊥}| (the expected number of released states) = Σ_{t,i} Pr[X_t = c_i](1 - p_i^t). "
    "000 §3.4 prints the left side as Σ_o Pr[o | {i | o_i ≠ ⊥}], a conditional probability given a set of positions, "
    "which is not a number one can sum to an expectation; 000's own §3.3 (“the expected number of released states”), §3.6.1 "
    "(utility^Prob) and 001 write Pr[o]·|{...}|, so the §3.4 form is a misprint of this one, not a second reading",
    f"{render(QUOTES['maskit.def_utility'])}; misprint: {render(QUOTES['maskit.def_utility/misprint'])}"))
def def_utility(ctx: Context):
    """Σ_o Pr[o]·#released (all outputs, exact) = Σ_{t,i} Pr[X_t = c_i](1 - p_i^t); the fast twin within 1e-12.
    If the intended identity holds the verdict is a discrepancy (000 §3.4's printed left side is misprinted);
    if it failed, refuted with the instance."""
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    def holds(inst):
        ch, p, S, d = inst
        lit = sum((po * sum(v is not None for v in o) for o, po in E.output_distribution(ch, p).items()), ZERO)
        return lit == E.utility(ch, p) and abs(float(lit) - F.utility(ch, p)) < 1e-12

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "p"))  # what the property reads: drawn and counted
    out = property_verdict(ctx, "maskit.def_utility", instances(max_n=3, max_T=3, reads=reads), holds, n=examples(ctx, 150, 30),
                           encoding="Σ_{t,i} Pr[X_t = c_i](1 - p_i^t) vs Σ_o Pr[o]·|{t : o_t ≠ ⊥}| over all outputs (001's left side)",
                           reads=reads)
    if out.verdict != "verified-bounded":
        return out
    return discrepancy(paper="000 §3.4: utility(p) = Σ_o Pr[o | {i | o_i ≠ ⊥}] = Σ_{t',i} Pr[X_t' = c_i](1 - p_i^t')",
                       computed="Σ_o Pr[o]·|{i | o_i ≠ ⊥}| = Σ_{t',i} Pr[X_t' = c_i](1 - p_i^t') holds (001's and 000 §3.6.1's form)",
                       **out.evidence).because(
        "The definition says utility is the expected number of released states and equates it with Σ Pr[X_t = c_i](1 - p_i^t). "
        "That identity holds on every instance searched (exact enumeration of all outputs). But the thesis's §3.4 prints the "
        "left side as Σ_o Pr[o | {i | o_i ≠ ⊥}] - a probability conditioned on a set of positions, which does not give the "
        "expected count; 001 and the thesis's own §3.6.1 write Σ_o Pr[o]·|{i | o_i ≠ ⊥}|. A misprinted formula while the "
        "intended definition holds.")


@claim("maskit.prop1", method="exact+property", rests_on=(STRONG_ADVERSARY,), audit=AUDITS["maskit.prop1"], readings=stated("maskit.prop1"))
def prop1(ctx: Context):
    from privclaims.counterexamples.maskit_strategies import chains

    def holds(ch):
        pri = E.prior_beliefs(ch)
        fp = F.prior_beliefs(ch)
        for t in range(1, ch.T + 1):
            for i in range(ch.n):
                if pri[t - 1][i] != cond(ch, lambda y: y[t - 1] == i, lambda y: True) or abs(float(pri[t - 1][i]) - fp[t - 1][i]) > 1e-12:
                    return False
        return True

    return property_verdict(ctx, "maskit.prop1", chains(max_n=4, max_T=4), holds, n=examples(ctx, 150, 30),
                            encoding="(A^(1)..A^(t))_i vs Σ_{x: x_t = c_i} Pr[x] by enumeration; fast within 1e-12")


@claim("maskit.def_hmm", method="exact+property", rests_on=(), audit=AUDITS["maskit.def_hmm"], readings=stated("maskit.def_hmm"))
def def_hmm(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    def holds(inst):
        ch, p, S, d = inst
        P = suppression_vector(ch, p)
        for o, po in E.output_distribution(ch, p).items():
            post, total = E.forward_backward(ch, p, o)
            fpost, ftotal = F.forward_backward(ch, p, o)
            if total != po or abs(float(total) - ftotal) > 1e-12:
                return False
            # literal: Pr[X_t = c_i | o] = Σ_x Pr[x] Π_t b(x_t, o_t) restricted to x_t = c_i, normalised
            for t in range(1, ch.T + 1):
                for i in range(ch.n):
                    num = sum((px * _emit_all(P, x, o) for x, px in E.input_streams(ch).items() if x[t - 1] == i), ZERO)
                    if num / po != post[t - 1][i] or abs(float(post[t - 1][i]) - fpost[t - 1][i]) > 1e-9:
                        return False
        return True

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "p"))  # what the property reads: drawn and counted
    return property_verdict(ctx, "maskit.def_hmm", instances(max_n=3, max_T=3, reads=reads), holds, n=examples(ctx, 100, 20),
                            encoding="α/β of Eq. (3.3) vs Bayes over all input streams, every output of positive probability; fast within 1e-9",
                            reads=reads)


def _emit_all(P, x, o):
    w = ONE
    for t, (xi, oi) in enumerate(zip(x, o), start=1):
        w *= E.emission(P, t, xi, oi)
    return w


@claim("maskit.prop2", method="exact+property", quick=False, rests_on=(STRONG_ADVERSARY,), audit=AUDITS["maskit.prop2"], readings=stated("maskit.prop2"))
def prop2(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    def holds(inst):
        ch, p, S, d = inst
        sysm = probabilistic_system(ch, p)  # MaskIt's literal channel: each state released w.p. 1 - p
        for o in list(E.output_distribution(ch, p))[:20]:
            post, _ = E.forward_backward(ch, p, o)
            lab = _labels(ch, o)
            for t in range(1, ch.T + 1):
                for s in S:
                    if dp_posterior(sysm, lab, t, s) != post[t - 1][ch.index(s)]:
                        return False
        return True

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "p", "S"))  # what the property reads: drawn and counted
    return property_verdict(ctx, "maskit.prop2", instances(max_n=3, max_T=3, reads=reads), holds, n=examples(ctx, 100, 20),
                            encoding="HMM posterior with Prop. 2 emissions vs privclaims.theory.dp.delta_privacy.posterior_belief on the literal system",
                            reads=reads)


@claim("maskit.def_util_prob", method="exact", rests_on=(UTILITY, FIGURE_3_4B), audit=AUDITS["maskit.def_util_prob"], readings=quoted("maskit.def_util_prob"))
def def_util_prob(ctx: Context):
    ch = figure_3_4b()
    p = {c: (1 if c in {"s1", "y1", "z1", "s2", "y3", "z2"} else 0) for c in ch.contexts}
    sysm = probabilistic_system(ch, p)
    lit = sum((px * sum(po * sum(v != BOT_LABEL for v in o) for o, po in sysm.channel[x].items())
               for x, px in sysm.prior.items()), ZERO)
    return compare_all({"utility^Prob (formula) = expected released states (literal system)": (lit, E.utility(ch, p)),
                        "value on Figure 3.4(b) with s1,y1,z1,s2,y3,z2 suppressed": (Q(7, 3), E.utility(ch, p))})


@claim("maskit.def7", method="exact+property", quick=False, rests_on=(DELTA_PRIVACY,), audit=AUDITS["maskit.def7"], readings=stated("maskit.def7"))
def def7(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    def holds(inst):
        ch, p, S, d = inst
        lvl = E.privacy_level(ch, p, S)
        if lvl == 0:
            return E.is_private(ch, p, S, Q(1, 10 ** 6))
        if lvl >= 1:
            return False
        # smallest δ: private at lvl, not private just below
        return E.is_private(ch, p, S, lvl) and not E.is_private(ch, p, S, lvl - lvl / 1000)

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "p", "S"))  # what the property reads: drawn and counted
    out = property_verdict(ctx, "maskit.def7", instances(max_n=3, max_T=3, reads=reads), holds, n=examples(ctx, 150, 30),
                           encoding="privacy(p) = max(0, max gain): private at privacy(p), not private at 0.999·privacy(p)",
                           reads=reads)
    return out


@claim("maskit.def8", method="exhaustive", rests_on=(), audit=AUDITS["maskit.def8"], readings=stated("maskit.def8"))
def def8(ctx: Context):
    grid = [Q(k, 2) for k in range(3)]
    vecs = [[list(v)] for v in product(grid, repeat=2)]
    literal = {(i, j): all(a <= b for a, b in zip(vecs[i][0], vecs[j][0])) for i in range(len(vecs)) for j in range(len(vecs))}
    ours = {(i, j): dominates(vecs[j], vecs[i]) for i in range(len(vecs)) for j in range(len(vecs))}
    refl = all(ours[(i, i)] for i in range(len(vecs)))
    anti = all(not (ours[(i, j)] and ours[(j, i)]) or i == j for i in range(len(vecs)) for j in range(len(vecs)))
    trans = all(not (ours[(i, j)] and ours[(j, k)]) or ours[(i, k)] for i in range(len(vecs)) for j in range(len(vecs)) for k in range(len(vecs)))
    if ours == literal and refl and anti and trans:
        return verified_bounded(bound="all 9 vectors of {0,1/2,1}^2 (81 pairs)", partial_order=True,
                                note="the thesis calls ⪯ a 'total ordering'; it is a partial order: (0,1) and (1,0) are incomparable",
                                incomparable_pair_exists=any(not ours[(i, j)] and not ours[(j, i)] for i in range(len(vecs)) for j in range(len(vecs))))
    return discrepancy(paper="p ⪯ q iff p_i^t <= q_i^t", computed="dominance implementation disagrees")


CX_DISCRETIZE_REJECTED = {
    "lower bound / order of growth ('still at least d^(n·T)', 'exponential in n·T')":
        "the same sections mark bounds as bounds ('at most n^3 T^3', 'O(Tn log(d))') and this sentence writes neither 'at "
        "least' nor O(·); nor is d^(n·T) the order of growth: (d+1)^(n·T) / d^(n·T) = (1 + 1/d)^(n·T) is unbounded in n·T",
    "d counts the grid without one end point ({1/d, ..., 1} or {0, ..., (d-1)/d})":
        "the sentence writes the grid out with both end points, Lemma 2's proof searches {0/d, ..., d/d}, and neither end "
        "point is useless: Example 4's optimum suppresses the non-sensitive contexts with probability 0, Example 2's "
        "suppresses s with probability 1 (and MONDRIAN starts from (1, ..., 1))",
}


@claim("maskit.cx_discretize", method="exact", rests_on=(), audit=AUDITS["maskit.cx_discretize"], readings=one_reading(
    "discretising each suppression probability to the grid {0, 1/d, 2/d, ..., 1} (written out with both end points) leaves "
    "d^(n·T) vectors to check - an exact count, made to show that exhaustive search stays exponential in n·T. Readings "
    "considered and rejected (the documents do not support them; see the evidence): " + "; ".join(
        f"{k}: {v}" for k, v in CX_DISCRETIZE_REJECTED.items()),
    f"{S000} §3.4.2 and {S001} §3.2 (identical): {render(QUOTES['maskit.cx_discretize'])}; against the other readings: "
    f"{render(QUOTES['maskit.cx_discretize/rejected'])}"))
def cx_discretize(ctx: Context):
    """The grid {0, 1/d, ..., 1} has d + 1 points, so the vectors number (d+1)^(nT), counted here by enumeration.
    verified if that equals the printed d^(nT); discrepancy if it differs while the intended point (at least
    d^(nT), exponential in nT) holds; refuted if there were fewer than d^(nT). The lower-bound and
    one-end-point readings, under which d^(nT) would be right, are recorded as rejected (CX_DISCRETIZE_REJECTED)
    with the numbers that bear on them: the count without an end point, and the ratio (1 + 1/d)^(nT)."""
    rows = []
    for n, T, d in [(1, 1, 2), (2, 1, 3), (2, 2, 2), (1, 3, 3)]:
        grid = [Q(k, d) for k in range(d + 1)]
        count = sum(1 for _ in product(grid, repeat=n * T))
        no_zero = sum(1 for _ in product(grid[1:], repeat=n * T))
        rows.append({"n": n, "T": T, "d": d, "enumerated": count, "paper_d^(nT)": d ** (n * T), "(d+1)^(nT)": (d + 1) ** (n * T),
                     "enumerated_without_p=0": no_zero, "ratio_to_paper": Q(count, d ** (n * T))})
    rejected = {k: {"why_rejected": v} for k, v in CX_DISCRETIZE_REJECTED.items()}
    rejected_keys = list(rejected)
    rejected[rejected_keys[0]]["would_hold"] = all(r["enumerated"] >= r["paper_d^(nT)"] for r in rows)
    rejected[rejected_keys[1]]["would_hold"] = all(r["enumerated_without_p=0"] == r["paper_d^(nT)"] for r in rows)
    if all(r["enumerated"] == r["paper_d^(nT)"] for r in rows):
        return verified(rows=rows)
    if all(r["enumerated"] >= r["paper_d^(nT)"] for r in rows):
        return discrepancy(paper="d^(n·T) vectors", computed="(d+1)^(n·T) vectors (the grid {0, 1/d, ..., 1} has d + 1 values)",
                           rows=rows, rejected_readings=rejected,
                           note="same exponential growth; the exact count is off by one in the base").because(
            "Both documents say that discretising each suppression probability to {0, 1/d, 2/d, ..., 1} leaves d^(n·T) vectors. "
            "That grid, as written, has d + 1 values (0 and 1 both included), so there are (d+1)^(n·T) vectors (enumerated: e.g. "
            "d = 2, n = T = 1 gives 3, not 2). The count is misprinted; the point it makes - exhaustive search is exponential "
            "in n·T - holds, and the true count is even larger. Two readings would make d^(n·T) right and were rejected because "
            "the documents do not support them: a lower bound (the same sections write 'at most' and O(·) where they mean "
            "bounds, and d^(n·T) is not even the order of growth, the ratio (1 + 1/d)^(n·T) being unbounded), and a grid "
            "without one end point (the sentence and Lemma 2's proof write both end points, and the documents' own optima use "
            "p = 0 (Example 4) and p = 1 (Example 2)).")
    return refuted(witness=[r for r in rows if r["enumerated"] < r["paper_d^(nT)"]], rows=rows, rejected_readings=rejected).because(
        "Fewer grid vectors than the printed d^(n·T): the argument that exhaustive search stays exponential fails.")


@claim("maskit.alg1", method="exact+property", quick=False, rests_on=(), audit=AUDITS["maskit.alg1"], readings=stated("maskit.alg1"))
def alg1(ctx: Context):
    # (a) learning by counting: traces in proportion to their probabilities recover the chain exactly
    from privclaims.counterexamples.maskit_strategies import instances

    recovered = {}
    for name, ch in [("3.2", figure_3_2()), ("3.3", figure_3_3()), ("3.4b", figure_3_4b())]:
        streams = E.input_streams(ch)
        L = 1
        for v in streams.values():
            L = L * int(v.denominator) // __import__("math").gcd(L, int(v.denominator))
        traces = [tuple(ch.contexts[i] for i in x) for x, v in streams.items() for _ in range(int(v * L))]
        learned = learn_chain(traces, ch.contexts, ch.T)
        pri = E.prior_beliefs(ch)
        ok = learned.initial == ch.initial and all(
            learned.steps[t - 2][i] == ch.steps[t - 2][i] for t in range(2, ch.T + 1) for i in range(ch.n) if pri[t - 2][i] > 0)
        recovered[name] = ok

    # (b) MaskIt outputs o_t ∈ {x_t, ⊥} under every check
    def holds(inst):
        ch, p, S, d = inst
        rng = ctx.rng("maskit.alg1")
        from privclaims.theory.maskit.system import ProbabilisticCheck

        for x in list(E.input_streams(ch))[:10]:
            for chk in (ProbabilisticCheck(ch, p, rng), SimulatableCheck(ch, S, d), MaskSensitive(ch, S)):
                o = maskit(ch, chk, x)
                if len(o) != ch.T or any(v is not None and v != xi for v, xi in zip(o, x)):
                    return False
        return True

    out = property_verdict(ctx, "maskit.alg1", instances(max_n=3, max_T=4), holds, n=examples(ctx, 100, 20),
                           encoding="outputs of Alg. 1 with the probabilistic, simulatable and MaskSensitive checks satisfy o_t ∈ {x_t, ⊥}",
                           learned_chain_recovers_figures=recovered)
    if not all(recovered.values()):
        return discrepancy(paper="a^t_ij = #(c_i→c_j)/#(c_i→any)", computed="counting did not recover the chain", recovered=recovered)
    return out


@claim("maskit.alg2", method="exact+property", quick=False, rests_on=(DELTA_PRIVACY, STRONG_ADVERSARY), audit=AUDITS["maskit.alg2"], readings=stated("maskit.alg2"))
def alg2(ctx: Context):
    from privclaims.counterexamples.maskit_strategies import instances

    def holds(inst):
        ch, p, S, d = inst
        lit = dp_max_breach(probabilistic_system(ch, p), S).gain
        return E.max_breach_naive(ch, suppression_vector(ch, p), S).gain == lit and E.is_private_naive(ch, p, S, d) == (lit <= d)

    return property_verdict(ctx, "maskit.alg2", instances(max_n=3, max_T=3), holds, n=examples(ctx, 100, 20),
                            encoding="ISPRIVATE of Alg. 2 (all outputs, HMM posteriors) vs Definition 6 on the literal system (privclaims.theory.dp)")


@claim("maskit.def_masksensitive", method="exact+property", quick=False, rests_on=(DELTA_PRIVACY, STRONG_ADVERSARY), audit=AUDITS["maskit.def_masksensitive"], readings=stated("maskit.def_masksensitive"))
def def_masksensitive(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    def holds(inst):
        ch, p, S, d = inst
        m = mask_sensitive_vector(ch, S)
        lit = deterministic_system(ch, MaskSensitive(ch, S))
        for o in E.output_distribution(ch, m):
            post, _ = E.forward_backward(ch, m, o)
            for t in range(1, ch.T + 1):
                for s in S:
                    if dp_posterior(lit, _labels(ch, o), t, s) != post[t - 1][ch.index(s)]:
                        return False
        return dp_max_breach(lit, S).gain == E.max_breach(ch, m, S).gain

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "S"))  # what the property reads: drawn and counted
    return property_verdict(ctx, "maskit.def_masksensitive", instances(max_n=3, max_T=3, reads=reads), holds, n=examples(ctx, 100, 20),
                            encoding="MaskSensitive's emission matrix (1 on ⊥ for S, 1 on itself otherwise) vs the literal MaskSensitive system",
                            reads=reads)


def prop3_holds(inst) -> bool:
    """Proposition 3 on one instance: every full output, every t and context (see maskit.prop3's encoding)."""
    ch, p, S, d = inst
    T, n = ch.T, ch.n
    P = suppression_vector(ch, p)
    streams = E.input_streams(ch)
    alg3: dict = {}  # (t1, i, t2, j, t) -> Alg. 3's posterior (computed once per partial output and t)
    literal: dict = {}  # (t1, i, t2, j) -> [Pr[X_t = . | o_t1, ⊥..⊥, o_t2] for t = 1..T], Bayes over every stream

    def conditional(t1, i, t2, j):
        if (t1, i, t2, j) not in literal:
            weights = {}
            for x, px in streams.items():  # Pr[x] · Pr[o_t1 = c_i, ⊥ at t1 < τ < t2, o_t2 = c_j | x]
                w = px if t1 == 0 else px * (ONE - P[t1 - 1][i]) if x[t1 - 1] == i else ZERO
                for tau in range(t1 + 1, min(t2, T + 1)):
                    w *= P[tau - 1][x[tau - 1]]
                if t2 <= T:
                    w *= (ONE - P[t2 - 1][j]) if x[t2 - 1] == j else ZERO
                if w:
                    weights[x] = w
            total = sum(weights.values(), ZERO)
            literal[(t1, i, t2, j)] = None if total == 0 else [
                [sum((w for x, w in weights.items() if x[tt - 1] == k), ZERO) / total for k in range(n)]
                for tt in range(1, T + 1)]
        return literal[(t1, i, t2, j)]

    for o in E.output_distribution(ch, p):  # every full output of positive probability
        post, _ = E.forward_backward(ch, p, o)
        for t in range(1, T + 1):
            rel_before = [k for k in range(1, t + 1) if o[k - 1] is not None]
            rel_after = [k for k in range(t, T + 1) if o[k - 1] is not None]
            t1 = rel_before[-1] if rel_before else 0
            t2 = rel_after[0] if rel_after else T + 1
            i = o[t1 - 1] if t1 else None
            j = o[t2 - 1] if t2 <= T else "end"
            if t1 == t2:  # released at t itself
                t2 = next((k for k in range(t + 1, T + 1) if o[k - 1] is not None), T + 1)
                j = o[t2 - 1] if t2 <= T else "end"
            if (t1, i, t2, j, t) not in alg3:
                alg3[(t1, i, t2, j, t)] = E.partial_posterior(ch, p, t1, i, t2, j, t)
            part, lit = alg3[(t1, i, t2, j, t)], conditional(t1, i, t2, j)
            if part is None or lit is None or not (post[t - 1] == part == lit[t - 1]):
                return False
    return True


@claim("maskit.prop3", method="exact+property", quick=False, rests_on=(STRONG_ADVERSARY,), audit=AUDITS["maskit.prop3"], readings=stated("maskit.prop3"))
def prop3(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "p"))  # what the property reads: drawn and counted
    return property_verdict(ctx, "maskit.prop3", instances(max_n=3, max_T=4, reads=reads), prop3_holds, n=examples(ctx, 100, 20),
                            encoding="for every full output o of positive probability (all of them, enumerated) and every t, every "
                                     "context: Pr[X_t | o] (Eq. 3.3) = Pr[X_t | o_t1, ⊥..⊥, o_t2] both as Alg. 3's partial "
                                     "computation and as the literal conditional (Bayes' rule over every input stream, the "
                                     "partial output's probability given each)",
                            reads=reads)


@claim("maskit.prop4", method="exact+property", quick=False, rests_on=(STRONG_ADVERSARY,), audit=AUDITS["maskit.prop4"], readings=stated("maskit.prop4"))
def prop4(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    def holds(inst):
        ch, p, S, d = inst
        for o in list(E.output_distribution(ch, p))[:10]:
            for e in range(1, ch.T + 1):
                prefix = o[:e]
                rel = [k for k in range(1, e + 1) if prefix[k - 1] is not None]
                t1 = rel[-1] if rel else 0
                i = prefix[t1 - 1] if t1 else None
                post, _ = E.forward_backward(ch, p, prefix)
                for t in range(max(t1, 1), ch.T + 1):
                    part = E.partial_posterior(ch, p, t1, i, e, None, t)
                    if part is None or part != post[t - 1]:
                        return False
        return True

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "p"))  # what the property reads: drawn and counted
    return property_verdict(ctx, "maskit.prop4", instances(max_n=3, max_T=3, reads=reads), holds, n=examples(ctx, 80, 15),
                            encoding="for every output prefix o_1..o_e ending in o_t1, ⊥..⊥ and t >= t1: Pr[X_t | prefix] = Pr[X_t | o_t1, ⊥..⊥]",
                            reads=reads)


@claim("maskit.text_partial_calc", method="exact+property", quick=False, rests_on=(), audit=AUDITS["maskit.text_partial_calc"], readings=stated("maskit.text_partial_calc"))
def text_partial_calc(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    def holds(inst):
        ch, p, S, d = inst
        P = suppression_vector(ch, p)
        pri = E.prior_beliefs(ch)
        found = {(t1, i, t2, j) for t1, i, t2, j, *_ in E.partial_outputs(ch, P)}
        T, n = ch.T, ch.n
        for t1 in range(0, T + 1):
            for i in ([None] if t1 == 0 else range(n)):
                for t2 in range(t1 + 1, T + 2):
                    for j in (["end"] if t2 == T + 1 else range(n)):
                        # literal probability of the partial output (sum over streams)
                        lit = ZERO
                        for x, px in E.input_streams(ch).items():
                            w = px
                            if t1:
                                w *= (ONE - P[t1 - 1][i]) if x[t1 - 1] == i else ZERO
                            for tau in range(t1 + 1, min(t2, T + 1)):
                                w *= P[tau - 1][x[tau - 1]]
                            if t2 <= T:
                                w *= (ONE - P[t2 - 1][j]) if x[t2 - 1] == j else ZERO
                            lit += w
                        # the text's conditions (1)-(3)
                        c1 = (t1 == 0 or P[t1 - 1][i] < 1) and (t2 == T + 1 or P[t2 - 1][j] < 1)
                        c2 = t1 == 0 or pri[t1 - 1][i] > 0
                        c3 = _path_through_suppressible(ch, P, t1, i, t2, j)
                        if (lit > 0) != (c1 and c2 and c3) or (lit > 0) != ((t1, i, t2, j) in found):
                            return False
        return True

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "p"))  # what the property reads: drawn and counted
    return property_verdict(ctx, "maskit.text_partial_calc", instances(max_n=3, max_T=3, reads=reads), holds, n=examples(ctx, 100, 20),
                            encoding="Pr[o_t1, ⊥..⊥, o_t2] > 0 (literal sum over streams) iff conditions (1)-(3) iff Alg. 3 enumerates it; "
                                     "posteriors of these partial outputs are checked against Eq. 3.3 in maskit.prop3",
                            reads=reads)


def _path_through_suppressible(ch, P, t1, i, t2, j):
    T, n = ch.T, ch.n
    cur = {None} if t1 == 0 else {i}
    for tau in range(t1 + 1, min(t2, T + 1)):
        nxt = set()
        for a in cur:
            row = ch.initial if tau == 1 else ch.steps[tau - 2][a]
            nxt |= {b for b in range(n) if row[b] > 0 and P[tau - 1][b] > 0}
        cur = nxt
    if t2 == T + 1:
        return bool(cur)
    return any((ch.initial if t2 == 1 else ch.steps[t2 - 2][a])[j] > 0 for a in cur)


@claim("maskit.alg_partial", method="exact+property", quick=False, rests_on=(DELTA_PRIVACY,), audit=AUDITS["maskit.alg_partial"], readings=stated("maskit.alg_partial"))
def alg_partial(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    def holds(inst):
        ch, p, S, d = inst
        P = suppression_vector(ch, p)
        size = sum(1 for _ in E.partial_outputs(ch, P))
        bound = (ch.n + 1) ** 2 * (ch.T + 2) ** 2
        return size <= bound and E.max_breach(ch, p, S).gain == E.max_breach_naive(ch, P, S).gain

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "p", "S"))  # what the property reads: drawn and counted
    return property_verdict(ctx, "maskit.alg_partial", instances(max_n=3, max_T=4, reads=reads), holds, n=examples(ctx, 100, 20),
                            encoding="the set O of Lines 1-2 (start/contexts to contexts/end, ⊥ between) gives the same maximum as all outputs; |O| <= (n+1)^2 (T+2)^2",
                            reads=reads)


@claim("maskit.text_possible", method="exact+property", quick=False, rests_on=(), audit=AUDITS["maskit.text_possible"], readings=stated("maskit.text_possible"))
def text_possible(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    def holds(inst):
        ch, p, S, d = inst
        for x in list(E.input_streams(ch))[:6]:
            o = maskit(ch, SimulatableCheck(ch, S, d), x)
            for tn in range(1, ch.T + 1):
                prefix = o[: tn - 1]
                rel = [(k, v) for k, v in enumerate(prefix, start=1) if v is not None]
                tl, il = rel[-1] if rel else (0, None)
                lit = {y[tn - 1] for y in E.input_streams(ch) if all(y[k - 1] == v for k, v in rel)}
                if set(E.possible_states(ch, tl, il, tn)) != lit or set(F.possible_states(ch, tl, il, tn)) != lit:
                    return False
        return True

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "S", "δ"))  # what the property reads: drawn and counted
    return property_verdict(ctx, "maskit.text_possible", instances(max_n=3, max_T=4, reads=reads), holds, n=examples(ctx, 100, 20),
                            encoding="reachability (e_o A..A)_j > 0 from the last release vs {x_t' : x consistent with all releases} by enumeration (exact and fast)",
                            reads=reads)


class _PrefixRule:
    """A deterministic simulatable rule (000 §3.5, Claim 2's premise): release at t iff ``decide(t, prefix)``, a function
    of the output so far only (the input is never read)."""

    def __init__(self, decide) -> None:
        self.decide = decide

    def initialize(self) -> None:
        return None

    def okay_to_release(self, i: int, t: int, prefix) -> bool:
        return self.decide(t, tuple(prefix))


def _random_rules(ch, k: int):
    """``k`` arbitrary deterministic simulatable rules for chain ``ch``: each prefix's release bit drawn once from a
    generator seeded by the chain's own numbers (so a run, and its shrinking, is reproducible), release rate 1/4..3/4."""
    import random
    import zlib

    seed = zlib.crc32(repr((ch.T, [str(v) for v in ch.initial], [[[str(v) for v in r] for r in m] for m in ch.steps])).encode())
    for r in range(k):
        rng, bits, rate = random.Random(seed * 31 + r), {}, (1 + r % 3) / 4

        def decide(t, prefix, rng=rng, bits=bits, rate=rate):
            if (t, prefix) not in bits:
                bits[(t, prefix)] = rng.random() < rate
            return bits[(t, prefix)]
        yield _PrefixRule(decide)


PROP5_RULES = 3  # arbitrary simulatable rules per chain, besides MaskIt's simulatable check


def _released_at(o: tuple, t: int) -> bool:
    return o[t - 1] != BOT_LABEL


def prop5_holds(inst, coverage: dict[str, int] | None = None) -> bool:
    """Proposition 5 on one instance, for MaskIt's simulatable check and :data:`PROP5_RULES` arbitrary deterministic
    simulatable rules: for every output prefix o_1..o_t' (every t' = 1..T) of every input stream, every t = 1..T and
    every context s, the adversary's posterior Pr[X_t = s | O_1..O_t' = o_1..o_t'] - Bayes' rule over the literal
    system (every input stream, its output cut at t') - is Pr[X_t = s | X_t1 = o_t1, X_t2 = o_t2] (Corollary 1's
    formula) with t1, t2 the nearest releases within the prefix (t2 = T + 1, "end", when none follows t).
    ``coverage`` (optional) counts the comparisons made per length of the prefix conditioned on (keys ``"t'=k"``). A rule that is not
    simulatable (the streams sharing o_1..o_{t'-1} disagree on releasing at t') is outside the proposition's model:
    ValueError (the harness is wrong, not the proposition)."""
    ch, p, S, d = inst
    T, n = ch.T, ch.n
    formula: dict = {}
    for r, check in enumerate((SimulatableCheck(ch, S, d), *_random_rules(ch, PROP5_RULES))):
        sysm = deterministic_system(ch, check)
        for tp in range(1, T + 1):
            groups: dict = {}  # o_1..o_t' -> [Pr[o_1..o_t'], Pr[X_t = s, o_1..o_t'] by (t, s)]
            releases: dict = {}  # o_1..o_{t'-1} -> whether its streams release at t' (one answer if simulatable)
            for x, px in sysm.prior.items():
                (o,) = sysm.channel[x]
                if releases.setdefault(o[:tp - 1], _released_at(o, tp)) != _released_at(o, tp):
                    raise ValueError(f"system {r} (0: the simulatable check, else arbitrary rule {r}) is not simulatable: "
                                     f"streams with output prefix {o[:tp - 1]} disagree on releasing at t = {tp}")
                g = groups.setdefault(o[:tp], [ZERO, {}])
                g[0] += px
                for t in range(1, T + 1):
                    g[1][(t, x[t - 1])] = g[1].get((t, x[t - 1]), ZERO) + px
            for o, (po, joint) in groups.items():
                oi = tuple(None if v == BOT_LABEL else ch.index(v) for v in o)
                for t, (t1, i1, t2, j2) in release_brackets(oi, T).items():
                    for s in range(n):
                        key = (t, s, t1, i1, t2, j2)
                        if key not in formula:
                            formula[key] = E.simulatable_posterior(ch, t, s, t1, i1, t2, j2)
                        if coverage is not None:
                            coverage[f"t'={len(o)}"] = coverage.get(f"t'={len(o)}", 0) + 1  # the conditioned prefix
                        if formula[key] != joint.get((t, ch.contexts[s]), ZERO) / po:
                            return False
    return True


@claim("maskit.prop5", method="exact+property", rests_on=(STRONG_ADVERSARY,), audit=AUDITS["maskit.prop5"], readings=stated("maskit.prop5"))
def prop5(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "S", "δ"))  # what the property reads: drawn and counted
    coverage: dict[str, int] = {}  # comparisons per prefix length, filled as the search runs (shown in the evidence)
    return property_verdict(ctx, "maskit.prop5", instances(max_n=3, max_T=4, reads=reads),
                            lambda inst: prop5_holds(inst, coverage), n=examples(ctx, 100, 20),
                            comparisons_by_prefix_length=coverage,
                            encoding="for every output prefix o_1..o_t' (every t' = 1..T, not only full outputs) of every input "
                                     "stream, every t = 1..T and every context s: the posterior by Bayes' rule on the literal "
                                     f"system = Pr[X_t = s | X_t1 = o_t1, X_t2 = o_t2] (nearest releases within the prefix, "
                                     f"t2 = T + 1 'end' when none follows t); systems: MaskIt's simulatable check and "
                                     f"{PROP5_RULES} arbitrary deterministic simulatable rules per chain (each prefix's release "
                                     f"bit drawn once, seeded by the chain)",
                            reads=reads)


@claim("maskit.cor1", method="exact+property", quick=False, rests_on=(), audit=AUDITS["maskit.cor1"], readings=stated("maskit.cor1"))
def cor1(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    def holds(inst):
        ch, p, S, d = inst
        pri = E.prior_beliefs(ch)
        for t1 in range(0, ch.T + 1):
            for i in ([None] if t1 == 0 else [k for k in range(ch.n) if pri[t1 - 1][k] > 0]):
                for t2 in range(t1, ch.T + 1):
                    reach = E.transition_probability(ch, t1, i, t2)
                    for j in [k for k in range(ch.n) if reach[k] > 0]:
                        for t in range(max(t1, 1), t2 + 1):
                            for s in range(ch.n):
                                lit = cond(ch, lambda y: y[t - 1] == s,
                                           lambda y: (t1 == 0 or y[t1 - 1] == i) and y[t2 - 1] == j)
                                if lit != E.simulatable_posterior(ch, t, s, t1, i, t2, j):
                                    return False
        return True

    reads = ReadParts(INSTANCE_PARTS, read=("chain",))  # what the property reads: drawn and counted
    return property_verdict(ctx, "maskit.cor1", instances(max_n=3, max_T=3, reads=reads), holds, n=examples(ctx, 80, 15),
                            encoding="Pr[X_t=s|X_t1]·Pr[X_t2|X_t=s]/Pr[X_t2|X_t1] (Eq. 3.2 products) vs the conditional by enumeration",
                            reads=reads)


def _simulatable_output_pairs(inst):
    """MaskIt with the simulatable check run on every input stream x of the instance's chain: ``(o, o_y, agrees)``
    for every pair of inputs x, y (o = x's output, o_y = y's), ``agrees`` when y agrees with o on o's released
    positions."""
    ch, p, S, d = inst
    outs = {x: maskit(ch, SimulatableCheck(ch, S, d), x) for x in E.input_streams(ch)}
    for o in outs.values():
        for y, oy in outs.items():
            yield o, oy, all(v is None or y[k] == v for k, v in enumerate(o))


@claim("maskit.claim2", method="property", quick=False, rests_on=(), audit=AUDITS["maskit.claim2"], readings=stated("maskit.claim2"))
def claim2(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    def holds(inst):
        return all(not (agrees and oy != o) for o, oy, agrees in _simulatable_output_pairs(inst))

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "S", "δ"))  # what the property reads: drawn and counted
    return property_verdict(ctx, "maskit.claim2", instances(max_n=3, max_T=4, reads=reads), holds, n=examples(ctx, 100, 20),
                            encoding="every input agreeing with o on released positions produces o (all pairs of inputs)",
                            reads=reads)


@claim("maskit.claim3", method="property", quick=False, rests_on=(), audit=AUDITS["maskit.claim3"], readings=stated("maskit.claim3"))
def claim3(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    def holds(inst):
        return all((oy == o) == agrees for o, oy, agrees in _simulatable_output_pairs(inst))

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "S", "δ"))  # what the property reads: drawn and counted
    return property_verdict(ctx, "maskit.claim3", instances(max_n=3, max_T=4, reads=reads), holds, n=examples(ctx, 100, 20),
                            encoding="Pr[o | x] = 1 iff x agrees with o on released positions, else 0 (all pairs)",
                            reads=reads)
