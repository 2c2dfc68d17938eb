"""Weaker adversaries (001_eb11505ae1399b83.txt §6, paper only) and Theorem 2 of
000_211156f2009240b4.txt §2.2.2 (generalisation along a hierarchy cut)."""

from __future__ import annotations

from privclaims.checks.claims.maskit._common import examples, property_verdict
from privclaims.checks.claims.maskit._common import quoted, stated
from privclaims.checks.claims.maskit._audit import AUDITS, NA_ANY_SYSTEM_6, NA_SUPPRESSION_THM2
from privclaims.checks.definitions.maskit import (
    DELTA_PRIVACY, FIGURE_3_4B, HIERARCHY_CUT, SYSTEM_MODEL, SYSTEM_ONLY_ADVERSARY, WEAK_ADVERSARY)
from privclaims.checks.quotes import S000
from privclaims.checks.readings import Audit, Rejected
from privclaims.checks.registry import Context, claim
from privclaims.checks.verdict import compare_all
from privclaims.theory.dp.delta_privacy import posterior_belief as dp_posterior
from privclaims.theory.dp.delta_privacy import prior_belief as dp_prior
from privclaims.theory.maskit import exact as E
from privclaims.theory.maskit.figures import figure_3_2, figure_3_4b
from privclaims.theory.maskit.hierarchy import generalisation_breach, theorem2_bound
from privclaims.theory.maskit.model import mask_sensitive_vector, markov_chain
from privclaims.theory.maskit.search import greedy_mondrian
from privclaims.theory.maskit.system import SimulatableCheck, deterministic_system, probabilistic_system
from privclaims.theory.maskit.weak import (
    frequency_chain,
    label_distribution,
    mixture_max_breach,
    set_labelled,
    weak_max_breach_literal,
    weak_prior,
)
from privclaims.theory.numbers import ONE, ZERO, Q

def _run_F(M1, S, delta, kind):
    """F(δ/μ, M', S') on Π-transformed inputs (= ID streams): the literal system over IDs."""
    Sp = M1.sensitive_ids(S)
    mu = M1.mu(S)
    d = delta / mu
    if kind == "probabilistic":
        g = greedy_mondrian(M1.ids, Sp, d, 2)
        return probabilistic_system(M1.ids, g.p), Sp, mu
    return deterministic_system(M1.ids, SimulatableCheck(M1.ids, Sp, d)), Sp, mu


def _thm7_instance(inst, kind):
    M1, truth, lam, delta = inst
    S = ["s"]
    if not M1.sensitive_ids(S) or M1.mu(S) == 0:
        return None
    sysm, Sp, mu = _run_F(M1, S, delta, kind)
    return M1, lam, delta, S, sysm, Sp, mu


THM7_PREMISE = "Theorem 7's F(delta/mu, M', S') is defined: M' has a sensitive ID and mu(S) > 0"
"""The setting of Theorem 7 (F runs at delta/mu), which its Claims 7-10 are searched in. For Theorem 7, LC1 and
Claims 7 and 9 an instance outside it tests nothing (no ID can be s: every belief in s is 0); Claims 8 and 10 do not
mention S and would hold there too, with F releasing everything, but their searches run the theorem's F."""


def _thm7_property(kind):
    """Decorator: ``holds(inst)`` of a property of Theorem 7's construction with F = the ``kind`` check at δ/μ on M':
    VACUOUS on an instance with no sensitive ID or mu(S) = 0 (outside :data:`THM7_PREMISE`, where F(δ/μ) is not
    defined; the search counts the others), else ``prop(inst, M1, λ, δ, S, system, S', μ)``."""
    def deco(prop):
        def holds(inst):
            from privclaims.counterexamples.property_search import VACUOUS  # (not at import: it loads Hypothesis)

            r = _thm7_instance(inst, kind)
            return VACUOUS if r is None else prop(inst, *r)

        return holds

    return deco


def _thm7_reads():
    """What the properties of Theorem 7's construction read of a ``weak_generalisations`` draw (M', truth, λ, δ):
    M', λ and δ (F runs on M' at δ/μ and the weak adversary weighs label streams by λ; M's truth is only a draw's
    origin of Π, which contains it)."""
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import WEAK_GENERALISATION_PARTS

    return ReadParts(WEAK_GENERALISATION_PARTS, read=("M'", "λ", "δ"))


def _weak_breach_within_delta(kind):
    """Theorem 7's property with F = the ``kind`` check: the literal weak adversary's breach (any λ, every output,
    t, s) is at most δ."""
    return _thm7_property(kind)(lambda inst, M1, lam, delta, S, sysm, Sp, mu: weak_max_breach_literal(M1, lam, sysm, S)[0] <= delta)


@claim("maskit.p_def_weak", method="exact+property", quick=False, rests_on=(WEAK_ADVERSARY,), audit=AUDITS["maskit.p_def_weak"], readings=stated("maskit.p_def_weak"))
def p_def_weak(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import WEAK_GENERALISATION_PARTS, WEAK_LABELS, weak_generalisations

    def holds(inst):
        M1, truth, lam, delta = inst
        lam = label_distribution(M1, lam)
        # Eq. (9): Σ_{c ∈ Π(a)} Pr[X_t = c | X'_t = a] = 1; Eq. (10) for M itself (truth): each context's
        # state has exactly one ID, so Σ_{b: c ∈ Π(b)} Pr[X'_t = b | X_t = c] = 1 whenever Pr[X_t = c] > 0
        if any(sum((v for c, v in lam[a].items() if c in M1.Pi[a]), ZERO) != 1 for a in M1.ids.contexts):
            return False
        pri = E.prior_beliefs(M1.ids)
        for t in range(M1.ids.T):
            for c in WEAK_LABELS:
                mass = sum((pri[t][k] for k, a in enumerate(M1.ids.contexts) if truth[a] == c), ZERO)
                if mass:
                    cond = sum((pri[t][k] for k, a in enumerate(M1.ids.contexts) if truth[a] == c and c in M1.Pi[a]), ZERO) / mass
                    if cond != 1:
                        return False
        return True

    reads = ReadParts(WEAK_GENERALISATION_PARTS, read=("M'", "truth", "λ"))  # what the property reads: drawn and counted
    return property_verdict(ctx, "maskit.p_def_weak", weak_generalisations(reads=reads), holds, n=examples(ctx, 150, 30),
                            encoding="random ID chains with set labels Π(a) ∋ true context and label distributions on Π(a): Eqs. (9), (10)",
                            reads=reads,
                            note="001 prints Eq. (9) twice (extraction duplicate)")


@claim("maskit.p_ex5", method="exact", rests_on=(WEAK_ADVERSARY,), audit=AUDITS["maskit.p_ex5"], readings=quoted("maskit.p_ex5"))
def p_ex5(ctx: Context):
    ids = markov_chain(["1", "2"], ["1/2", "1/2"], [])
    truth = {"1": "s", "2": "x"}
    M1 = set_labelled(ids, {"1": {"s", "y", "z"}, "2": {"x"}}, truth)
    return compare_all({"Π(1)": (sorted({"s", "y", "z"}), sorted(M1.Pi["1"])), "Π(2)": (["x"], sorted(M1.Pi["2"])),
                        "S' (IDs with a sensitive context)": (["1"], M1.sensitive_ids(["s"])), "μ": (1, M1.mu(["s"]))},
                       note="Π(0) = {start}, Π(3) = {end} are the DAG's fixed levels; the generalisation validates (truth ∈ Π)")


@claim("maskit.p_eq11", method="exact+property", quick=False, rests_on=(WEAK_ADVERSARY,), audit=AUDITS["maskit.p_eq11"], readings=stated("maskit.p_eq11"))
def p_eq11(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import WEAK_GENERALISATION_PARTS, WEAK_LABELS, weak_generalisations

    def holds(inst):
        M1, truth, lam, delta = inst
        # literal: worlds (ID stream, label stream); prior of X_t = s
        for t in range(1, M1.ids.T + 1):
            for s in WEAK_LABELS:
                lit = ZERO
                for x, px in E.input_streams(M1.ids).items():
                    lit += px * lam[M1.ids.contexts[x[t - 1]]].get(s, ZERO)
                if lit != weak_prior(M1, lam, t, s):
                    return False
        return True

    reads = ReadParts(WEAK_GENERALISATION_PARTS, read=("M'", "λ"))  # what the property reads: drawn and counted
    return property_verdict(ctx, "maskit.p_eq11", weak_generalisations(reads=reads), holds, n=examples(ctx, 150, 30),
                            encoding="Σ_a Pr[X'_t = a] Pr[s | X'_t = a] vs the literal joint over (ID stream, labels)",
                            reads=reads)


def _ex6():
    ch = figure_3_2()
    S, d = ["s"], Q(1, 4)
    p = {"s": 1, "x": Q(1, 3)}
    strong_prob = probabilistic_system(ch, p)
    strong_sim = deterministic_system(ch, SimulatableCheck(ch, S, d))
    worlds_prob, worlds_sim = [(Q(1, 3), strong_prob)], [(Q(1, 3), strong_sim)]
    for lab in ("y", "z"):  # worlds without a sensitive context: nothing is suppressed
        chw = markov_chain([lab, "x"], ["1/2", "1/2"], [])
        sysw = probabilistic_system(chw, {lab: 0, "x": 0})
        worlds_prob.append((Q(1, 3), sysw))
        worlds_sim.append((Q(1, 3), sysw))
    return ch, S, d, p, worlds_prob, worlds_sim, strong_sim


@claim("maskit.p_ex6", method="exact", rests_on=(DELTA_PRIVACY, WEAK_ADVERSARY), audit=AUDITS["maskit.p_ex6"], readings=quoted("maskit.p_ex6"))
def p_ex6(ctx: Context):
    ch, S, d, p, wp, ws, strong_sim = _ex6()
    gp = mixture_max_breach(wp, S)
    gs = mixture_max_breach(ws, S)
    prior = sum((w * dp_prior(sysw, 1, "s") for w, sysw in wp), ZERO)
    post_p = gp[0] + prior
    post_s = gs[0] + prior
    sim_suppresses_all = all(set(o) == {"⊥"} for o in strong_sim.outputs())
    return compare_all({
        "probabilistic check: p_s = 1, p_x = 1/3 (Example 2)": (True, E.is_private(ch, p, S, d) and not E.is_private(ch, {"s": 1, "x": Q(1, 4)}, S, d)),
        "simulatable check suppresses s and x": (True, sim_suppresses_all),
        "weak prior Pr[X_1 = s]": (Q(1, 6), prior),
        "posterior given ⊥ (probabilistic)": (Q(3, 4), post_p),
        "posterior given ⊥ (simulatable)": (Q(1, 2), post_s),
        "increase >= 1/3 (both)": (True, gp[0] >= Q(1, 3) and gs[0] >= Q(1, 3)),
        "violates δ = 1/4 (LC2)": (True, gp[0] > d and gs[0] > d),
    }, increase_probabilistic=gp[0], increase_simulatable=gs[0],
        model="weak adversary = uniform mixture over the worlds 'state 1 is s / y / z' (Figure 3(b)); in the y, z worlds nothing is sensitive, nothing suppressed")


@claim("maskit.p_lc1", method="property", quick=False, rests_on=(DELTA_PRIVACY, WEAK_ADVERSARY), audit=AUDITS["maskit.p_lc1"], readings=stated("maskit.p_lc1"))
def p_lc1(ctx: Context):
    # LC1 for Theorem 7's construction: every M'' between M' and M (every λ), every output, t, s
    from privclaims.counterexamples.maskit_strategies import weak_generalisations

    return property_verdict(ctx, "maskit.p_lc1", weak_generalisations(sensitive=True), _weak_breach_within_delta("probabilistic"), n=examples(ctx, 80, 15),
                            encoding="LC1 as a computable check: posterior (adversary M'' = λ, learning nothing by Claim 10) - prior <= δ, "
                                     "for F = probabilistic check at δ/μ on M' (random generalisations, λ)",
                            premise=THM7_PREMISE, reads=_thm7_reads())


@claim("maskit.p_lc2", method="exact", rests_on=(DELTA_PRIVACY, WEAK_ADVERSARY), audit=AUDITS["maskit.p_lc2"], readings=quoted("maskit.p_lc2"))
def p_lc2(ctx: Context):
    ch, S, d, p, wp, ws, _ = _ex6()
    gp = mixture_max_breach(wp, S)
    # the strong-adversary guarantee holds in the true world, yet LC2 fails for the learning weak adversary
    strong = E.privacy_level(ch, p, S)
    return compare_all({"strong adversary: δ = 1/4 holds": (True, strong <= d),
                        "LC2 violated by a weak adversary learning M from ⊥ (negative result holds for LC2 alone)": (True, gp[0] > d)},
                       strong_gain=strong, weak_gain=gp[0])


@claim("maskit.p_text_freq_only", method="exact", rests_on=(DELTA_PRIVACY, WEAK_ADVERSARY, FIGURE_3_4B), audit=AUDITS["maskit.p_text_freq_only"], readings=quoted("maskit.p_text_freq_only"))
def p_text_freq_only(ctx: Context):
    ch = figure_3_4b()
    S, d = ["s1", "s2"], Q(1, 3)
    m = mask_sensitive_vector(ch, S)
    fc = frequency_chain(ch)
    # outputs generated by the true M; the frequency adversary reasons in its independent model
    freq_gain = max(E.forward_backward(fc, m, o)[0][t][fc.index(s)] - E.prior_beliefs(fc)[t][fc.index(s)]
                    for o in E.output_distribution(ch, m) for t in range(ch.T) for s in S)
    strong = E.max_breach(ch, m, S)
    return compare_all({"frequency-only adversary: gain <= 1/3": (True, freq_gain <= d),
                        "adversary knowing M: posterior 1 (blatant leak)": (Q(1), strong.gain + E.prior_beliefs(ch)[strong.t - 1][ch.index(strong.s)])},
                       freq_gain=freq_gain, strong_gain=strong.gain)


@claim("maskit.p_thm6", method="property", quick=False, rests_on=(DELTA_PRIVACY, WEAK_ADVERSARY, SYSTEM_MODEL), not_applicable=(NA_ANY_SYSTEM_6,), audit=AUDITS["maskit.p_thm6"], readings=stated("maskit.p_thm6"))
def p_thm6(ctx: Context):
    from hypothesis import strategies as st

    def holds(inst):
        ch, d = inst
        S = [ch.contexts[-1]]
        g = greedy_mondrian(ch, S, d, 2)
        # Eq. (14): an adversary knowing the frequencies has A_M's prior; Eq. (15): after M is published the posterior is A_M's
        fc = frequency_chain(ch)
        if E.prior_beliefs(fc) != E.prior_beliefs(ch):
            return False
        worst = ZERO - 1
        for o in E.output_distribution(ch, g.p):
            post, _ = E.forward_backward(ch, g.p, o)  # M is published with o
            for t in range(ch.T):
                worst = max(worst, post[t][ch.index(S[0])] - E.prior_beliefs(fc)[t][ch.index(S[0])])
        return worst <= d

    from privclaims.counterexamples.maskit_strategies import chains

    strat = st.tuples(chains(max_n=3, max_T=3), st.integers(1, 11).map(lambda k: Q(k, 12)))
    return property_verdict(ctx, "maskit.p_thm6", strat, holds, n=examples(ctx, 100, 20),
                            encoding="F = probabilistic check (greedy, d=2); frequency-knowing prior (Eq. 14) and posterior after learning the published M (Eq. 15): gain <= δ")


@claim("maskit.p_thm7", method="property", rests_on=(DELTA_PRIVACY, WEAK_ADVERSARY, SYSTEM_MODEL), not_applicable=(NA_ANY_SYSTEM_6,), audit=AUDITS["maskit.p_thm7"], readings=stated("maskit.p_thm7"))
def p_thm7(ctx: Context):
    from privclaims.counterexamples.maskit_strategies import weak_generalisations
    from privclaims.counterexamples.property_search import VACUOUS

    def holds(inst):
        ok = True
        for kind in ("probabilistic", "simulatable"):
            r = _thm7_instance(inst, kind)
            if r is None:  # (the premise does not depend on the kind)
                return VACUOUS
            M1, lam, delta, S, sysm, Sp, mu = r
            ok &= weak_max_breach_literal(M1, lam, sysm, S)[0] <= delta
        return ok

    return property_verdict(ctx, "maskit.p_thm7", weak_generalisations(sensitive=True), holds, n=examples(ctx, 80, 15),
                            encoding="F(δ/μ, M', S') (probabilistic greedy d=2 and simulatable) on Π-inputs; literal weak-adversary breach <= δ for random λ",
                            premise=THM7_PREMISE, reads=_thm7_reads())


@_thm7_property("simulatable")
def _claim7_holds(inst, M1, lam, delta, S, sysm, Sp, mu):
    """Claim 7 on a drawn instance: the ID-level gain of every a ∈ S' under F(δ/μ, M', S') is at most δ/μ. It reads
    M' and δ only: beliefs over IDs do not depend on the true contexts or on λ."""
    for a in Sp:
        for t in range(1, M1.ids.T + 1):
            pr = dp_prior(sysm, t, a)
            for o in sysm.outputs():
                if dp_posterior(sysm, o, t, a) - pr > delta / mu:
                    return False
    return True


@claim("maskit.p_claim7", method="property", quick=False, rests_on=(DELTA_PRIVACY, WEAK_ADVERSARY), audit=AUDITS["maskit.p_claim7"], readings=stated("maskit.p_claim7"))
def p_claim7(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import WEAK_GENERALISATION_PARTS, weak_generalisations

    reads = ReadParts(WEAK_GENERALISATION_PARTS, read=("M'", "δ"))  # what the property reads: drawn and counted
    return property_verdict(ctx, "maskit.p_claim7", weak_generalisations(sensitive=True, reads=reads), _claim7_holds,
                            n=examples(ctx, 80, 15),
                            encoding="ID-level gain of every a ∈ S' is <= δ/μ (beliefs over IDs do not depend on λ)",
                            premise=THM7_PREMISE, reads=reads)


def _worlds(M1, lam, sysm):
    """The literal joint of A_{M''}: every ID stream x' and every label stream ℓ (ℓ_t ∈ Π(x'_t)),
    weight Pr[x'] Π_t λ_{x'_t}(ℓ_t); the output channel is F's on the Π-transformed input."""
    from itertools import product as _prod

    for x, px in sysm.prior.items():
        choices = [sorted(lam[a].items()) for a in x]
        for combo in _prod(*choices):
            w = px
            for _, v in combo:
                w *= v
            if w:
                yield x, tuple(c for c, _ in combo), w, sysm.channel[x]


@claim("maskit.p_claim8", method="property", quick=False, rests_on=(WEAK_ADVERSARY,), audit=AUDITS["maskit.p_claim8"], readings=stated("maskit.p_claim8"))
def p_claim8(ctx: Context):
    from privclaims.counterexamples.maskit_strategies import weak_generalisations, WEAK_LABELS

    @_thm7_property("probabilistic")
    def holds(inst, M1, lam, delta, S, sysm, Sp, mu):
        worlds = list(_worlds(M1, lam, sysm))
        for o in sysm.outputs():
            for t in range(1, M1.ids.T + 1):
                for a in M1.ids.contexts:
                    den_o = sum((w * ch.get(o, ZERO) for x, l, w, ch in worlds if x[t - 1] == a), ZERO)
                    den = sum((w for x, l, w, ch in worlds if x[t - 1] == a), ZERO)
                    if den_o == 0:
                        continue
                    for s in WEAK_LABELS:
                        num_o = sum((w * ch.get(o, ZERO) for x, l, w, ch in worlds if x[t - 1] == a and l[t - 1] == s), ZERO)
                        num = sum((w for x, l, w, ch in worlds if x[t - 1] == a and l[t - 1] == s), ZERO)
                        if num_o / den_o != num / den:
                            return False
        return True

    return property_verdict(ctx, "maskit.p_claim8", weak_generalisations(max_T=2, sensitive=True), holds, n=examples(ctx, 60, 10),
                            encoding="Pr[X_t = s | X'_t = a, o] = Pr[X_t = s | X'_t = a] by summing the literal joint over (ID stream, label stream)",
                            premise=THM7_PREMISE, reads=_thm7_reads())


@claim("maskit.p_claim9", method="property", quick=False, rests_on=(DELTA_PRIVACY, WEAK_ADVERSARY), audit=AUDITS["maskit.p_claim9"], readings=stated("maskit.p_claim9"))
def p_claim9(ctx: Context):
    from privclaims.counterexamples.maskit_strategies import weak_generalisations

    return property_verdict(ctx, "maskit.p_claim9", weak_generalisations(sensitive=True), _weak_breach_within_delta("simulatable"), n=examples(ctx, 80, 15),
                            encoding="Pr_{M''}[X_t = s | o] - Pr_{M''}[X_t = s] <= δ for random M'' (λ), F = simulatable at δ/μ",
                            premise=THM7_PREMISE, reads=_thm7_reads())


@claim("maskit.p_claim10", method="property", quick=False, rests_on=(WEAK_ADVERSARY,), audit=AUDITS["maskit.p_claim10"], readings=stated("maskit.p_claim10"))
def p_claim10(ctx: Context):
    from privclaims.counterexamples.maskit_strategies import weak_generalisations

    @_thm7_property("probabilistic")
    def holds(inst, M1, lam, delta, S, sysm, Sp, mu):
        M1_, truth, lam_, _ = inst
        point = {a: {truth[a]: ONE} for a in M1.ids.contexts}  # the true M: each ID has its own context
        for o in sysm.outputs():
            # output distribution the user produces (true labels) vs the one A_{M''} simulates (its λ)
            user = sum((w * ch.get(o, ZERO) for x, l, w, ch in _worlds(M1, point, sysm)), ZERO)
            sim = sum((w * ch.get(o, ZERO) for x, l, w, ch in _worlds(M1, lam, sysm)), ZERO)
            if user != sim:
                return False
        return True

    return property_verdict(ctx, "maskit.p_claim10", weak_generalisations(max_T=2, sensitive=True), holds, n=examples(ctx, 60, 10),
                            encoding="Pr[o] of the user (true labels) = Pr[o] an adversary with any λ simulates from M'' (literal joint sums)",
                            premise=THM7_PREMISE)


# --------------------------------------------------------------------------- Theorem 2


@claim("dp.thm2", method="exact+property", readings=stated("dp.thm2"),
       rests_on=(DELTA_PRIVACY, SYSTEM_MODEL, SYSTEM_ONLY_ADVERSARY, HIERARCHY_CUT), not_applicable=(NA_SUPPRESSION_THM2,),
       audit=Audit("Re-derived by hand and in property_tests/test_audit_maskit.py: under the uniform prior 1/n, observing "
                   "the cut node g leaves the posterior uniform over the leaves below g, so a sensitive leaf's gain is "
                   "1/|leaves(g)| - 1/n <= 1/ℓ - 1/n, with equality at the smallest such node; the test recomputes the gain "
                   "of random cuts by enumeration and compares it with the ledger's.",
                   rejected=(Rejected("a non-uniform prior", "the thesis fixes the prior of an adversary knowing only the "
                                      "system", ((S000, "§2.2.2 'Adversary Model'", r"For adversaries with knowing only the system used we assume a uniform prior."),)),
                             Rejected("descendants counting inner nodes", "the proof puts the uniform posterior on the "
                                      "descendants, i.e. on contexts",
                                      ((S000, "§2.2.2 proof of Theorem 2", r"The posterior probability among these descendants remains uniform."),)))))
def dp_thm2(ctx: Context):
    # exact instance: 6 contexts, cut {work: 3 leaves, leisure: 3 leaves}, sensitive "hospital"
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import CUT_HIERARCHY_PARTS, cut_hierarchies

    tree = {"root": ["work", "leisure"], "work": ["office", "lab", "meeting"], "leisure": ["hospital", "gym", "park"]}
    ell, bound = theorem2_bound(tree, "root", ["work", "leisure"], ["hospital"])
    b = generalisation_breach(tree, "root", ["work", "leisure"], ["hospital"])
    if not (ell == 3 and bound == Q(1, 6) and b.gain == bound):
        return compare_all({"ℓ": (3, ell), "1/ℓ - 1/n": (Q(1, 6), bound), "max breach": (Q(1, 6), b.gain)})

    def holds(inst):
        tree, cut, S, n = inst
        ell, bound = theorem2_bound(tree, "root", cut, S)
        return generalisation_breach(tree, "root", cut, S).gain == bound  # equality: posterior uniform over descendants

    out = property_verdict(ctx, "dp.thm2", cut_hierarchies(), holds, n=examples(ctx, 200, 30),
                           reads=ReadParts(CUT_HIERARCHY_PARTS, read=("tree", "cut", "S")),
                           encoding="random 2-level hierarchies, cuts and S: Definition 6 on the literal one-step system gives max breach = 1/ℓ - 1/n "
                                    "exactly (ℓ = fewest leaves under a cut node with a sensitive leaf), hence (1/ℓ - 1/n)-privacy",
                           exact_instance={"ell": ell, "bound": bound, "max_breach": b.gain})
    return out
