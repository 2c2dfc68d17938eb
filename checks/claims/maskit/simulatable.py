"""The simulatable check (000_211156f2009240b4.txt §3.5, 001 §4) and the hybrid (§3.6):
Algorithms 4/5, Lemmas 6, 7, 9, Claims 4, 5, 7, Theorems 5, 6, supp/γ, offline precomputation."""

from __future__ import annotations

from privclaims.checks.claims.maskit._common import examples, exhaustive_extension, property_verdict, release_brackets
from privclaims.checks.claims.maskit._common import stated
from privclaims.checks.claims.maskit._audit import AUDITS
from privclaims.checks.definitions.maskit import (
    DELTA_PRIVACY, STRONG_ADVERSARY, UTILITY)
from privclaims.checks.evidence import decide
from privclaims.checks.registry import Context, claim
from privclaims.checks.verdict import refuted
from privclaims.theory.dp.delta_privacy import max_breach as dp_max_breach
from privclaims.theory.maskit import exact as E
from privclaims.theory.maskit import fast as F
from privclaims.theory.maskit.search import greedy_mondrian
from privclaims.theory.maskit.system import (
    ProbabilisticCheck,
    SimulatableCheck,
    deterministic_system,
    expected_releases,
    maskit,
    probabilistic_system,
    sample_traces,
)
from privclaims.theory.numbers import ZERO, Q


def _runs(ch, S, d, improved=True, limit=12):
    for x in list(E.input_streams(ch))[:limit]:
        yield x, maskit(ch, SimulatableCheck(ch, S, d, improved=improved), x)


@claim("maskit.alg4", method="exact+property", quick=False, rests_on=(DELTA_PRIVACY, STRONG_ADVERSARY), audit=AUDITS["maskit.alg4"], readings=stated("maskit.alg4"))
def alg4(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    def holds(inst):
        ch, p, S, d = inst
        lit = deterministic_system(ch, SimulatableCheck(ch, S, d, improved=False))
        if dp_max_breach(lit, S).gain > d:
            return False
        # Alg. 4's decision literally: release iff no possible c_j makes some posterior exceed prior + δ,
        # posteriors computed by enumeration of the streams consistent with ⟨o, c_j⟩
        pri = E.prior_beliefs(ch)
        streams = E.input_streams(ch)
        for x, o in _runs(ch, S, d, improved=False, limit=4):
            for tn in range(1, ch.T + 1):
                prefix = o[: tn - 1]
                rel = [(k, v) for k, v in enumerate(prefix, start=1) if v is not None]
                breach = False
                for j in {y[tn - 1] for y in streams if all(y[k - 1] == v for k, v in rel)}:
                    cons = {y: py for y, py in streams.items() if all(y[k - 1] == v for k, v in rel) and y[tn - 1] == j}
                    tot = sum(cons.values(), ZERO)
                    for t in range(1, ch.T + 1):
                        for s in S:
                            si = ch.index(s)
                            postv = sum((py for y, py in cons.items() if y[t - 1] == si), ZERO) / tot
                            breach |= postv - pri[t - 1][si] > d
                if E.okay_to_release(ch, S, d, prefix, improved=False) == breach:
                    return False
        return True

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "S", "δ"))  # what the property reads: drawn and counted
    return property_verdict(ctx, "maskit.alg4", instances(max_n=3, max_T=4, reads=reads), holds, n=examples(ctx, 100, 20),
                            encoding="Alg. 4 decisions = literal reading (posterior by enumerating streams consistent with ⟨o, c_j⟩); the system satisfies Def. 6",
                            reads=reads)


@claim("maskit.lem6", method="property", rests_on=(DELTA_PRIVACY, STRONG_ADVERSARY), audit=AUDITS["maskit.lem6"], readings=stated("maskit.lem6"))
def lem6(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    def holds(inst):
        ch, p, S, d = inst
        return dp_max_breach(deterministic_system(ch, SimulatableCheck(ch, S, d, improved=False)), S).gain <= d

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "S", "δ"))  # what the property reads: drawn and counted
    out = property_verdict(ctx, "maskit.lem6", instances(max_n=3, max_T=5, reads=reads), holds, n=examples(ctx, 200, 30),
                           encoding="MaskIt with Alg. 4 on every input stream; Definition 6 on the literal system (privclaims.theory.dp)",
                           reads=reads)
    return _exhaustive_simulatable(ctx, out, improved=False)


def _exhaustive_simulatable(ctx, out, improved, sizes=((2, 3), (3, 2))):
    from privclaims.counterexamples.maskit_exhaustive import delta_instances

    deltas = [Q(1, 4), Q(1, 2), Q(3, 4)]
    bad = lambda c: dp_max_breach(deterministic_system(c[0], SimulatableCheck(c[0], c[1], c[2], improved=improved)), c[1]).gain > c[2]
    return exhaustive_extension(ctx, out, ((
        f"exhaustive_n{n}_T{T}", delta_instances(T, deltas, n), bad,
        f"n = {n}, T <= {T}, uniform rows over subsets, every S, δ ∈ {{1/4, 1/2, 3/4}}",
        "MaskIt output breaches Definition 6 (literal system)") for n, T in sizes))


@claim("maskit.alg5", method="property", rests_on=(DELTA_PRIVACY, STRONG_ADVERSARY), audit=AUDITS["maskit.alg5"], readings=stated("maskit.alg5"))
def alg5(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    def holds(inst):
        ch, p, S, d = inst
        lit = deterministic_system(ch, SimulatableCheck(ch, S, d))
        litf = deterministic_system(ch, SimulatableCheck(ch, S, d, twin=F))
        return dp_max_breach(lit, S).gain <= d and dp_max_breach(litf, S).gain <= d

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "S", "δ"))  # what the property reads: drawn and counted
    out = property_verdict(ctx, "maskit.alg5", instances(max_n=3, max_T=5, reads=reads), holds, n=examples(ctx, 200, 30),
                           encoding="MaskIt with Alg. 5 (t from t''+1), exact and fast twins; Definition 6 on the literal systems",
                           reads=reads)
    return _exhaustive_simulatable(ctx, out, improved=True, sizes=((2, 3),))


@claim("maskit.lem9", method="property", quick=False, rests_on=(DELTA_PRIVACY, STRONG_ADVERSARY), audit=AUDITS["maskit.lem9"], readings=stated("maskit.lem9"))
def lem9(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    def holds(inst):
        ch, p, S, d = inst
        for x, o in _runs(ch, S, d, improved=False):
            for tn in range(1, ch.T + 1):
                pre = o[: tn - 1]
                if E.okay_to_release(ch, S, d, pre, improved=True) != E.okay_to_release(ch, S, d, pre, improved=False):
                    return False
        return True

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "S", "δ"))  # what the property reads: drawn and counted
    return property_verdict(ctx, "maskit.lem9", instances(max_n=3, max_T=5, reads=reads), holds, n=examples(ctx, 200, 30),
                            encoding="along every run of MaskIt, Alg. 5's decision (t from t''+1) = Alg. 4's (all t)",
                            reads=reads)


@claim("maskit.claim5", method="property", quick=False, rests_on=(DELTA_PRIVACY, STRONG_ADVERSARY), audit=AUDITS["maskit.claim5"], readings=stated("maskit.claim5"))
def claim5(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    from privclaims.counterexamples.property_search import VACUOUS

    def holds(inst):
        ch, p, S, d = inst
        pri = E.prior_beliefs(ch)
        compared = False
        for x, o in _runs(ch, S, d):
            for tn in range(1, ch.T + 1):
                pre = o[: tn - 1]
                brackets = release_brackets(pre, ch.T)
                tl = max((k for k, v in enumerate(pre, start=1) if v is not None), default=0)  # the last release t''
                for t in range(1, tl + 1):
                    t1, i1, t2, j2 = brackets[t]
                    for s in S:
                        si = ch.index(s)
                        compared = True
                        if E.simulatable_posterior(ch, t, si, t1, i1, t2, j2) - pri[t - 1][si] > d:
                            return False
        return True if compared else VACUOUS

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "S", "δ"))  # what the property reads: drawn and counted
    return property_verdict(ctx, "maskit.claim5", instances(max_n=3, max_T=5, reads=reads), holds, n=examples(ctx, 200, 30),
                            encoding="for t <= t'' the posterior given the output so far (Prop. 5) exceeds the prior by at most δ",
                            premise="a run releases a state (t'' >= 1)",
                            reads=reads)


@claim("maskit.lem7", method="property", quick=False, rests_on=(DELTA_PRIVACY, STRONG_ADVERSARY), audit=AUDITS["maskit.lem7"], readings=stated("maskit.lem7"))
def lem7(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    class ForcedRelease(SimulatableCheck):
        """The simulatable check, except that at (prefix*, t*) it releases, and suppresses everything after."""

        def __init__(self, ch, S, d, prefix, tn):
            super().__init__(ch, S, d)
            self.prefix, self.tn = prefix, tn

        def okay_to_release(self, i, t, prefix):
            if t < self.tn or tuple(prefix[: self.tn - 1]) != self.prefix:
                return super().okay_to_release(i, t, prefix)
            return t == self.tn

    witnesses = []

    from privclaims.counterexamples.property_search import VACUOUS

    def holds(inst):
        ch, p, S, d = inst
        forced = False
        for x, o in _runs(ch, S, d, limit=6):
            for tn in range(1, ch.T + 1):
                pre = o[: tn - 1]
                if E.okay_to_release(ch, S, d, pre):
                    continue
                lit = deterministic_system(ch, ForcedRelease(ch, S, d, pre, tn))
                witnesses.append(1)
                forced = True
                if dp_max_breach(lit, S).gain <= d:
                    return False
        return True if forced else VACUOUS

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "S", "δ"))  # what the property reads: drawn and counted
    out = property_verdict(ctx, "maskit.lem7", instances(max_n=3, max_T=4, reads=reads), holds, n=examples(ctx, 300, 20),
                           encoding="wherever Alg. 5 suppresses, releasing once and suppressing everything after (decisions from the output only) breaches Def. 6",
                           premise="Alg. 5 suppresses somewhere in the instance's first 6 runs",
                           reads=reads)
    out.evidence["forced_releases_tested"] = len(witnesses)
    return out


@claim("maskit.claim4", method="property", quick=False, rests_on=(STRONG_ADVERSARY,), audit=AUDITS["maskit.claim4"], readings=stated("maskit.claim4"))
def claim4(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    from privclaims.counterexamples.property_search import VACUOUS

    def holds(inst):
        ch, p, S, d = inst
        released = False
        for x, o in _runs(ch, S, d, limit=6):
            for t2 in range(1, ch.T + 1):
                pre = o[: t2 - 1]
                if not E.okay_to_release(ch, S, d, pre):
                    continue
                released = True
                rel = [(0, None)] + [(k, v) for k, v in enumerate(pre, start=1) if v is not None]
                t1, i1 = rel[-1]
                poss = E.possible_states(ch, t1, i1, t2)
                for t in range(1, ch.T + 1):
                    for s in range(ch.n):
                        before = _post(ch, rel + [(ch.T + 1, None)], t, s)
                        after = [_post(ch, rel + [(t2, k), (ch.T + 1, None)], t, s) for k in poss]
                        if max(after) < before:
                            return False
        return True if released else VACUOUS

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "S", "δ"))  # what the property reads: drawn and counted
    return property_verdict(ctx, "maskit.claim4", instances(max_n=3, max_T=4, reads=reads), holds, n=examples(ctx, 300, 20),
                            encoding="when the next state is released at t2, some possible c_k has Pr[X_t=s|o, c_k] >= Pr[X_t=s|o] for every t, s",
                            premise="a decision to release, in the instance's first 6 runs",
                            reads=reads)


def _post(ch, marks, t, s):
    k = max(a for a, (tm, _) in enumerate(marks) if tm <= t)
    t1, i1 = marks[k]
    t2, j2 = marks[k + 1] if t1 < t else marks[k]
    return E.simulatable_posterior(ch, t, s, t1, i1, t2, j2)


@claim("maskit.text_ex4_weakness", method="property", quick=False, rests_on=(DELTA_PRIVACY, STRONG_ADVERSARY), audit=AUDITS["maskit.text_ex4_weakness"], readings=stated("maskit.text_ex4_weakness"))
def text_ex4_weakness(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    def holds(inst):
        ch, p, S, d = inst
        pri = E.prior_beliefs(ch)
        for x, o in _runs(ch, S, d, limit=6):
            for tn in range(1, ch.T + 1):
                pre = o[: tn - 1]
                rel = [(0, None)] + [(k, v) for k, v in enumerate(pre, start=1) if v is not None]
                poss = E.possible_states(ch, *rel[-1], tn)
                if any(ch.contexts[j] in S and pri[tn - 1][j] < 1 - d for j in poss) and E.okay_to_release(ch, S, d, pre):
                    return False
        return True

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "S", "δ"))  # what the property reads: drawn and counted
    return property_verdict(ctx, "maskit.text_ex4_weakness", instances(max_n=3, max_T=4, reads=reads), holds, n=examples(ctx, 150, 30),
                            encoding="a possible sensitive state with prior < 1 - δ at t' ⇒ okayToRelease(·, t', o) = false",
                            reads=reads)


@claim("maskit.thm5", method="property", quick=False, rests_on=(DELTA_PRIVACY, STRONG_ADVERSARY), audit=AUDITS["maskit.thm5"], readings=stated("maskit.thm5"))
def thm5(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    def holds(inst):
        ch, p, S, d = inst
        chk = SimulatableCheck(ch, S, d)
        if chk.initialize() is not None:
            return False
        ops = E.OpCount()
        for x, o in _runs(ch, S, d, limit=4):
            for tn in range(1, ch.T + 1):
                E.okay_to_release(ch, S, d, o[: tn - 1], ops=ops)
        per_call = ops.beliefs / max(1, 4 * ch.T)
        return dp_max_breach(deterministic_system(ch, chk), S).gain <= d and per_call <= ch.n * len(S) * ch.T

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "S", "δ"))  # what the property reads: drawn and counted
    return property_verdict(ctx, "maskit.thm5", instances(max_n=3, max_T=4, reads=reads), holds, n=examples(ctx, 100, 20),
                            encoding="Alg. 5: Def. 6 holds on the literal system; initialize does nothing; <= n·|S|·T beliefs per okayToRelease "
                                     "(greediness: maskit.lem7)",
                            reads=reads)


@claim("maskit.def_supp", method="exact+property+statistical", quick=False, rests_on=(UTILITY,), audit=AUDITS["maskit.def_supp"], readings=stated("maskit.def_supp"))
def def_supp(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    def holds(inst):
        ch, p, S, d = inst
        u = E.simulatable_utility(ch, S, d)
        return u == expected_releases(ch, SimulatableCheck(ch, S, d)) and abs(F.simulatable_utility(ch, S, d) - float(u)) < 1e-9 or \
            (F.simulatable_utility(ch, S, d) <= float(u) + 1e-9 and u == expected_releases(ch, SimulatableCheck(ch, S, d)))

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "S", "δ"))  # what the property reads: drawn and counted
    out = property_verdict(ctx, "maskit.def_supp", instances(max_n=3, max_T=5, reads=reads), holds, n=examples(ctx, 150, 30),
                           encoding="T - γ_start(0) (supp/γ recursion) = Σ_x Pr[x]·#released by enumerating every input; fast γ within 1e-9 or conservative",
                           reads=reads)
    # Monte-Carlo on a larger chain (independent estimate)
    from privclaims.theory.maskit.synthetic import routine_chain

    ch, S = routine_chain(2, n=6, T=10)  # a synthetic user whose released count varies across days
    d = Q(1, 5)
    u = E.simulatable_utility(ch, S, d)
    traces = sample_traces(ch, 1000, ctx.rng("maskit.def_supp.mc"))
    chk = SimulatableCheck(ch, S, d)
    rel = [sum(v is not None for v in maskit(ch, chk, x)) for x in traces]
    import statistics

    mean, sd = statistics.mean(rel), statistics.pstdev(rel)
    se = sd / len(rel) ** 0.5
    out.evidence["monte_carlo"] = {"traces": len(rel), "mean_released": mean, "std_error": se, "gamma_utility": float(u),
                                   "within_4_se": decide(abs(mean - float(u)), "<=", 4 * se + 1e-12,
                                                         "|Monte-Carlo mean - T + γ_start(0)| <= 4 standard errors")}
    if not out.evidence["monte_carlo"]["within_4_se"].holds and out.verdict == "verified-bounded":
        return refuted(witness=out.evidence["monte_carlo"], note="Monte-Carlo mean outside 4 standard errors of T - γ_start(0)")
    return out


def thm6_proof_middle_step() -> dict:
    """The middle step of the proof of Theorem 6 (000 §3.6.1) / Theorem 5 (001 §5.1), as printed
    Σ_{i,t} Pr[X_t = c_i]·Pr[O_t = ⊥ | X_t = c_i], against the expected number of released states Σ_o Pr[o]·#released,
    on Example 2's instance (Figure 3.2, p_s = 1, p_x = 1/3; Pr[O_t = ⊥ | X_t = c_i] = p_i^t by Proposition 2): the
    printed step sums suppressions; with O_t = c_i (1 - p_i^t, the proof's next line) it equals the expected releases.
    A misprint in the proof only: the theorem's statement holds (the property search above)."""
    from privclaims.theory.maskit.figures import figure_3_2
    from privclaims.theory.maskit.model import suppression_vector

    ch = figure_3_2()
    P = suppression_vector(ch, {"s": Q(1), "x": Q(1, 3)})
    pri = E.prior_beliefs(ch)
    released = sum((po * sum(v is not None for v in o) for o, po in E.output_distribution(ch, P).items()), ZERO)
    coords = [(t, i) for t in range(ch.T) for i in range(ch.n)]
    printed = sum((pri[t][i] * P[t][i] for t, i in coords), ZERO)
    intended = sum((pri[t][i] * (1 - P[t][i]) for t, i in coords), ZERO)
    return {"instance": "Figure 3.2 (Example 2), p_s = 1, p_x = 1/3",
            "printed": decide(printed, "!=", released, "Σ Pr[X_t = c_i]·Pr[O_t = ⊥ | X_t = c_i] (as printed) ≠ Σ_o Pr[o]·#released"),
            "intended": decide(intended, "==", released, "Σ Pr[X_t = c_i]·Pr[O_t = c_i | X_t = c_i] = Σ_o Pr[o]·#released"),
            "note": "a misprint in the proof's middle step in both documents (O_t = ⊥ for O_t = c_i); the proof's last line "
                    "Σ (1 - p_i^t) Pr[X_t = c_i] and the theorem's statement are right (audit: rejected readings)"}


@claim("maskit.thm6", method="property+statistical", quick=False, rests_on=(UTILITY,), audit=AUDITS["maskit.thm6"], readings=stated("maskit.thm6"))
def thm6(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    def holds(inst):
        ch, p, S, d = inst
        g = greedy_mondrian(ch, S, d, 2)
        sysm = probabilistic_system(ch, g.p)
        lit_prob = sum((px * sum(po * sum(v != "⊥" for v in o) for o, po in sysm.channel[x].items())
                        for x, px in sysm.prior.items()), ZERO)
        lit_sim = expected_releases(ch, SimulatableCheck(ch, S, d))
        u_prob, u_sim = E.utility(ch, g.p), E.simulatable_utility(ch, S, d)
        pick = "probabilistic" if u_prob > u_sim else "simulatable"
        better = "probabilistic" if lit_prob > lit_sim else "simulatable"
        return lit_prob == u_prob and lit_sim == u_sim and pick == better

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "S", "δ"))  # what the property reads: drawn and counted
    out = property_verdict(ctx, "maskit.thm6", instances(max_n=3, max_T=4, reads=reads), holds, n=examples(ctx, 100, 20),
                           encoding="utility^Prob and utility^Simulatable (supp/γ) equal the literal expected releases; the hybrid picks the larger "
                                    "(Monte-Carlo cross-check of both utilities below and in maskit.def_supp)",
                           reads=reads)
    if out.verdict != "verified-bounded":
        return out
    # Monte-Carlo: run MaskIt with both checks on sampled days of a synthetic user
    import statistics

    from privclaims.theory.maskit.synthetic import routine_chain

    ch, S = routine_chain(2, n=6, T=10)
    d = Q(1, 5)
    g = greedy_mondrian(ch, S, d, 4)
    traces = sample_traces(ch, 1000, ctx.rng("maskit.thm6.mc"))
    mc = {}
    for name, chk, exact_u in (("probabilistic", ProbabilisticCheck(ch, g.p, ctx.rng("maskit.thm6.coins")), E.utility(ch, g.p)),
                               ("simulatable", SimulatableCheck(ch, S, d), E.simulatable_utility(ch, S, d))):
        rel = [sum(v is not None for v in maskit(ch, chk, x)) for x in traces]
        m, se = statistics.mean(rel), statistics.pstdev(rel) / len(rel) ** 0.5
        mc[name] = {"analytic": float(exact_u), "monte_carlo_mean": m, "std_error": se,
                    "within_4_se": decide(abs(m - float(exact_u)), "<=", 4 * se + 1e-12, "|Monte-Carlo mean - analytic| <= 4 se")}
    out.evidence["monte_carlo"] = mc
    if not all(v["within_4_se"].holds for v in mc.values()):
        return refuted(witness=mc, note="Monte-Carlo utility outside 4 standard errors of the analytic utility")
    out.evidence["proof_middle_step"] = thm6_proof_middle_step()
    return out


@claim("maskit.claim7", method="property", quick=False, rests_on=(DELTA_PRIVACY, STRONG_ADVERSARY), audit=AUDITS["maskit.claim7"], readings=stated("maskit.claim7"))
def claim7(ctx: Context):
    from privclaims.counterexamples.instance_parts import ReadParts
    from privclaims.counterexamples.maskit_strategies import INSTANCE_PARTS, instances

    def holds(inst):
        ch, p, S, d = inst
        seen: dict = {}
        for x, o in _runs(ch, S, d, improved=False, limit=20):
            for tn in range(1, ch.T + 1):
                pre = o[: tn - 1]
                rel = [(k, v) for k, v in enumerate(pre, start=1) if v is not None]
                key = (rel[-1] if rel else (0, None), tn)
                dec = E.okay_to_release(ch, S, d, pre, improved=False)
                if seen.setdefault(key, dec) != dec:
                    return False
        return True

    reads = ReadParts(INSTANCE_PARTS, read=("chain", "S", "δ"))  # what the property reads: drawn and counted
    return property_verdict(ctx, "maskit.claim7", instances(max_n=3, max_T=5, reads=reads), holds, n=examples(ctx, 150, 30),
                            encoding="outputs of MaskIt agreeing on the last release (time, context) get the same Alg. 4 decision at t",
                            reads=reads)


@claim("maskit.text_offline_online", method="property", quick=False, rests_on=(), audit=AUDITS["maskit.text_offline_online"], readings=stated("maskit.text_offline_online"))
def text_offline_online(ctx: Context):
    from privclaims.counterexamples.maskit_strategies import instances

    def holds(inst):
        ch, p, S, d = inst
        # server-side precomputation of supp(i, t) reproduces every online decision
        table = {(i, t): E.supp(ch, S, d, i, t) for t in range(0, ch.T + 1) for i in ([None] if t == 0 else range(ch.n))}
        for x, o in _runs(ch, S, d):
            t, i = 0, None
            for tn in range(1, ch.T + 1):
                predicted = tn > t + table[(i, t)]
                if predicted != (o[tn - 1] is not None):
                    return False
                if o[tn - 1] is not None:
                    t, i = tn, o[tn - 1]
        return SimulatableCheck(ch, S, d).initialize() is None and ProbabilisticCheck(ch, p, ctx.rng("x")).initialize() is None

    return property_verdict(ctx, "maskit.text_offline_online", instances(max_n=3, max_T=5), holds, n=examples(ctx, 100, 20),
                            encoding="the simulatable check needs no initialize; a precomputed supp(i, t) table reproduces all online decisions")
