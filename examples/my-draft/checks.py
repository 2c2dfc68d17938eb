"""The draft's claims, each checked by computing its verdict with privclaims' public API (exact arithmetic).

Every check reads its instance from this folder, decides the claim exactly and returns an outcome whose
evidence holds the decision's own numbers (the pins hold them too); the claim about every p decides each drawn
instance exactly, in a bounded counterexample search (its pin holds the bound)."""

from fractions import Fraction
from pathlib import Path

from privclaims import ads, dp, maskit, zealous
from privclaims.ledger import (Part, by_part, by_reading, claim, compare_exact, decide, in_model, property_verdict,
                               refuted, unverifiable, verified)

from .definitions import DELTA_PRIVATE, EPS_DP, PROB_DP, REVENUE, ZEALOUS

HERE = Path(__file__).resolve().parent


@claim("dp.rr", method="exact", rests_on=(EPS_DP,),
       parts=(Part("private", "the mechanism is ε-DP at ε = ln(4)"),
              Part("least", "no ε below ln(4) works: the least ε is ln(4)")))
def rr(ctx):
    r = dp.check(dp.load_mechanism(HERE / "rr.json"), epsilon="ln(4)", notion="dp")
    private = verified(least_epsilon=r.dp.least, least_epsilon_decimal=r.dp.least_decimal) if r.dp.holds else refuted(
        witness=r.dp.witness_data, model=in_model("finite mechanism of draft §1 (rr.json)")).because(r.dp.witness)
    return by_part({"private": private, "least": compare_exact(paper="ln(4)", computed=r.dp.least)})


@claim("dp.rating", method="exact", rests_on=(PROB_DP,))
def rating(ctx):
    m = dp.load_mechanism(HERE / "rating.json")
    out = {}
    for c in ctx.combinations:
        quantifier = {"per pair": "pair", "per input": "input"}[c[PROB_DP]]
        r = dp.check(m, epsilon="ln(2)", delta="1/10", notion="pdp", quantifier=quantifier)
        least = decide(Fraction(r.pdp.least), "<=", Fraction(1, 10), "least δ at ε = ln(2)")
        if least.holds:
            out[c] = verified(delta=least, breach=r.pdp.witness_data)
        else:
            out[c] = refuted(witness=r.pdp.witness_data, delta=least,
                             model=in_model("finite mechanism of draft §2 (rating.json), neighbours low-mid, mid-high",
                                            minimal="three inputs, three outputs: the draft's own mechanism")
                             ).because(r.pdp.witness)
    return by_reading(out, why="With one split per pair of neighbours the largest breach is 1/10 (mid against low: "
                               "'down'; mid against high: 'flat'); one split for mid serving both neighbours must "
                               "hold both outputs, mass 1/5 > 1/10.")


def _hospital(policy):
    chain = maskit.load_chain(HERE / "chain.json")
    p = None if policy is None else maskit.load_policy(HERE / policy, chain)
    return maskit.check(chain, sensitive=["hospital"], delta="1/5", policy=p)


@claim("maskit.hospital_only", method="exact", rests_on=(DELTA_PRIVATE,))
def hospital_only(ctx):
    r = _hospital(None)
    gain = decide(r.max_gain, "<=", Fraction(1, 5), "largest gain Pr[X_t=s|o] - Pr[X_t=s]")
    if gain.holds:
        return verified(gain=gain)
    return refuted(witness=r.breach.as_json(), gain=gain,
                   model=in_model("MaskIt: the draft's chain (chain.json) and a suppression policy, draft §3",
                                  minimal="the draft's own chain, T = 3")).because(
        "Suppressing only the hospital reveals it: " + r.breach.words() + ".")


@claim("maskit.policy", method="exact", rests_on=(DELTA_PRIVATE,))
def policy(ctx):
    r = _hospital("policy.json")
    gain = decide(r.max_gain, "<=", Fraction(1, 5), "largest gain Pr[X_t=s|o] - Pr[X_t=s]")
    if gain.holds:
        return verified(gain=gain, attained=r.breach.as_json() if r.breach else None, utility=r.utility)
    return refuted(witness=r.breach.as_json(), gain=gain,
                   model=in_model("MaskIt: the draft's chain (chain.json) and policy.json, draft §3")).because(
        r.breach.words())


@claim("ads.greedy", method="exact", rests_on=(REVENUE,))
def greedy(ctx):
    r = ads.greedy(ads.load_instance(HERE / "lunch.json"), k=2, optimum=True)
    ratio = decide(r.ratio, ">=", Fraction(9, 10), "Greedy's revenue / the optimum")
    ev = dict(ratio=ratio, greedy=list(r.greedy_ads), greedy_revenue=r.greedy_revenue,
              optimum=list(r.optimum_ads), optimum_revenue=r.optimum_revenue)
    if ratio.holds:
        return verified(**ev)
    return refuted(witness=ev, model=in_model("ad instance of draft §4 (lunch.json)")).because(
        f"Greedy earns {r.ratio} of the optimum, below 9/10.")


@claim("zealous.tau_prime", method="exact", rests_on=(ZEALOUS,),
       parts=(Part("lambda, tau", "λ = 2m/ε = 4 and τ = ⌈2m/ε⌉ = 4"),
              Part("tau' suffices", "τ′ = 42 meets Theorem 14's bound (6.5)")))
def tau_prime(ctx):
    p = zealous.params(users=500, m=2, epsilon=1, delta="1/100", tau_prime=42)
    lam_tau = compare_exact(paper={"lambda": "4", "tau": 4}, computed={"lambda": str(p.lam), "tau": p.tau})
    bound = Fraction(p.tau_prime_bound)  # (6.5)'s least τ′ rounded up: τ′ above it is above the exact bound
    suff = decide(p.tau_prime, ">=", bound, "τ′ against (6.5)'s least τ′ (rounded up)")
    if suff.holds:
        suff_out = verified(tau_prime=suff, delta_achieved=p.delta_achieved)
    elif not p.holds:
        suff_out = refuted(witness={"tau_prime": 42, "bound": p.tau_prime_bound}, tau_prime=suff,
                           model=in_model("Theorem 14's parameters, draft §5")).because(
            f"(6.5) needs τ′ >= {p.tau_prime_bound}.")
    else:
        suff_out = unverifiable("τ′ lies within the rounding of the printed bound", tau_prime=suff)
    return by_part({"lambda, tau": lam_tau, "tau' suffices": suff_out})


def rr_mechanism(p):
    """Randomized response on one bit, answering truthfully with probability ``p`` (rr.json is p = 4/5)."""
    return dp.mechanism({"yes": {"yes": p, "no": 1 - p}, "no": {"yes": 1 - p, "no": p}}, [("yes", "no")])


def rr_epsilon(p):
    """Claim 7's ε for truth probability ``p``, exact: ln(p/(1 − p))."""
    return f"ln({p / (1 - p)})"


def rr_problems(p):
    """Claim 7's model: p in [1/2, 1) and a valid finite mechanism (dp.mechanism raises on a row not summing to 1)."""
    bad = [] if Fraction(1, 2) <= p < 1 else [f"p = {p} is outside [1/2, 1)"]
    try:
        rr_mechanism(p)
    except ValueError as e:
        bad.append(str(e))
    return bad


@claim("dp.rr_every_p", method="property", rests_on=(EPS_DP,))
def rr_every_p(ctx):
    from hypothesis import strategies as st

    ps = st.integers(2, 99).flatmap(lambda q: st.integers((q + 1) // 2, q - 1).map(lambda a: Fraction(a, q)))
    return property_verdict(
        ctx, "dp.rr_every_p", ps, lambda p: dp.check(rr_mechanism(p), epsilon=rr_epsilon(p), notion="dp").dp.holds,
        examples=50 if ctx.quick else 300, encoding="p = a/q in [1/2, 1), 2 <= q <= 99",
        describe=lambda p: {"p": str(p), "epsilon": rr_epsilon(p)},
        model=("randomized response with truth probability p in [1/2, 1), draft §1 and §6", rr_problems)).because(
        "Each drawn p is decided exactly by dp.check at the stated ε (the least ε of this mechanism is ln of its "
        "largest ratio, p/(1 − p)).")
