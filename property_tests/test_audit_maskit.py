"""The maskit audit (issue 21, item 5): the decisive numbers of the maskit claims and of dp.def6 / dp.text_def6_subset /
dp.text_def6_window / dp.thm2, re-derived from the seed texts with code of our own - independent of theory/maskit and
theory/dp - and compared with what the ledger computes.

The engine below is written from the documents only: a user is a list of input streams with exact probabilities (a
time-inhomogeneous Markov chain enumerated); a suppression system emits o_t ∈ {x_t, ⊥}; the adversary's posterior is
Bayes' rule over the enumerated streams; Algorithm 4 is implemented literally from its listing (possible states from
the released positions, posteriors by enumeration). Nothing here calls the code under audit except to compare.
"""

from __future__ import annotations

import random
from fractions import Fraction as Fr
from itertools import product

import pytest

BOT = None
rng0 = random.Random(20261121)

# --------------------------------------------------------------------------- the independent engine


def streams_of(init, steps):
    """{stream: probability} of a chain given as rows of Fractions (init: n, steps: list of n x n)."""
    n, T = len(init), len(steps) + 1
    out = {}
    for x in product(range(n), repeat=T):
        p = init[x[0]]
        for t in range(1, T):
            p *= steps[t - 1][x[t - 1]][x[t]]
        if p:
            out[x] = p
    return out


def outputs(st, supp):
    """{o: {x: Pr[x, o]}} for the probabilistic check with supp(t, context) = suppression probability (t 1-based)."""
    out = {}
    for x, px in st.items():
        for pat in product((0, 1), repeat=len(x)):
            w = px
            for t, (c, rel) in enumerate(zip(x, pat), start=1):
                q = Fr(supp(t, c))
                w *= (1 - q) if rel else q
            if w:
                o = tuple(c if rel else BOT for c, rel in zip(x, pat))
                out.setdefault(o, {})
                out[o][x] = out[o].get(x, 0) + w
    return out


def prior(st, t, s):
    return sum((p for x, p in st.items() if x[t - 1] == s), Fr(0))


def posterior(joint, t, s):
    z = sum(joint.values())
    return sum((v for x, v in joint.items() if x[t - 1] == s), Fr(0)) / z


def max_gain(st, outs, S):
    T = len(next(iter(st)))
    return max(posterior(j, t, s) - prior(st, t, s) for j in outs.values() for t in range(1, T + 1) for s in S)


def utility(st, supp):
    return sum(px * (1 - Fr(supp(t, c))) for x, px in st.items() for t, c in enumerate(x, start=1))


def literal_simulatable(st, S, d):
    """Algorithm 4 read from its listing: at t', for each possible state j (a context x_t' of some stream of positive
    probability agreeing with the releases so far), for each s in S and t in [T], compute the posterior given
    (o, c_j) by enumerating the streams agreeing with the releases and x_t' = j; release iff no breach > δ."""
    T = len(next(iter(st)))

    def decide(prefix):
        tn = len(prefix) + 1
        agree = {x: p for x, p in st.items() if all(o is BOT or x[k] == o for k, o in enumerate(prefix))}
        for j in {x[tn - 1] for x in agree}:
            cons = {x: p for x, p in agree.items() if x[tn - 1] == j}
            z = sum(cons.values())
            for s in S:
                for t in range(1, T + 1):
                    if sum((p for x, p in cons.items() if x[t - 1] == s), Fr(0)) / z - prior(st, t, s) > d:
                        return False
        return True

    out = {}
    for x in st:
        o = []
        for c in x:
            o.append(c if decide(tuple(o)) else BOT)
        out[x] = tuple(o)
    return out


def random_chain(r, n, T, den=3):
    def row():
        w = [r.randint(0, den) for _ in range(n)]
        if not any(w):
            w[r.randrange(n)] = 1
        return [Fr(v, sum(w)) for v in w]

    return row(), [[row() for _ in range(n)] for _ in range(T - 1)]


def to_chain(init, steps):
    from privclaims.theory.maskit.model import markov_chain

    return markov_chain(list(range(len(init))), init, steps)


def random_instances(k, seed):
    r = random.Random(seed)
    for _ in range(k):
        n, T = r.randint(2, 3), r.randint(1, 3)
        init, steps = random_chain(r, n, T)
        P = [[Fr(r.randint(0, 3), 3) for _ in range(n)] for _ in range(T)]
        S = sorted(r.sample(range(n), r.randint(1, n - 1)))
        yield init, steps, P, S, Fr(r.randint(1, 5), 6)


def ledger_row(claim_id, quick=True):
    from privclaims.checks.registry import Context, default_data_dir
    from privclaims.checks.runner import run_one

    return run_one(claim_id, Context(quick=quick, data_dir=default_data_dir()))


# --------------------------------------------------------------------------- general claims (∀): own engine vs the ledger's twin


def test_priors_posteriors_and_isprivate_match_bayes():
    """prop1, def_hmm, prop2, def7, alg2, alg3, alg_partial, lem4, def_utility, obs1: the exact twin's prior,
    posteriors, largest gain (over all outputs and over partial outputs) and utility equal Bayes over the streams."""
    from privclaims.theory.maskit import exact as E

    for init, steps, P, S, d in random_instances(40, 1):
        st, ch = streams_of(init, steps), to_chain(init, steps)
        T = len(P)
        supp = lambda t, c, P=P: P[t - 1][c]
        outs = outputs(st, supp)
        pri = E.prior_beliefs(ch)
        assert all(pri[t - 1][i] == prior(st, t, i) for t in range(1, T + 1) for i in range(len(init)))
        for o, joint in outs.items():
            post, total = E.forward_backward(ch, P, o)
            assert total == sum(joint.values())
            assert all(post[t - 1][i] == posterior(joint, t, i) for t in range(1, T + 1) for i in range(len(init)))
        g = max_gain(st, outs, S)
        assert E.max_breach(ch, P, S).gain == g == E.max_breach_naive(ch, P, S).gain
        assert E.privacy_level(ch, P, S) == max(g, 0)
        assert E.is_private(ch, P, S, d) == (g <= d)
        assert E.utility(ch, P) == utility(st, supp) == sum(
            sum(joint.values()) * sum(c is not BOT for c in o) for o, joint in outs.items())


def test_monotonicity_and_anti_monotone_utility():
    """thm3, obs1: raising suppression probabilities never raises the largest gain nor the utility (own engine), and
    the ledger's privacy_level agrees."""
    from privclaims.theory.maskit import exact as E

    r = random.Random(2)
    for init, steps, P, S, d in random_instances(40, 3):
        st, ch = streams_of(init, steps), to_chain(init, steps)
        Q_ = [[min(Fr(1), p + Fr(r.randint(0, 2), 3)) for p in row] for row in P]
        gp = max_gain(st, outputs(st, lambda t, c: P[t - 1][c]), S)
        gq = max_gain(st, outputs(st, lambda t, c: Q_[t - 1][c]), S)
        assert gq <= gp
        assert utility(st, lambda t, c: Q_[t - 1][c]) <= utility(st, lambda t, c: P[t - 1][c])
        assert E.privacy_level(ch, Q_, S) == max(gq, 0)


def test_simulatable_check_is_the_listing_and_private():
    """alg4, alg5, lem6, lem9, thm5, claim2, claim3, prop5, def_supp, thm6: MaskIt's simulatable check gives the literal
    Algorithm 4's outputs on every stream, its system is δ-private (own Bayes), and the γ utility is the expected
    number of releases."""
    from privclaims.theory.maskit import exact as E
    from privclaims.theory.maskit.system import SimulatableCheck, maskit

    for init, steps, P, S, d in random_instances(30, 4):
        st, ch = streams_of(init, steps), to_chain(init, steps)
        lit = literal_simulatable(st, S, d)
        for improved in (False, True):
            assert all(maskit(ch, SimulatableCheck(ch, S, d, improved=improved), x) == o for x, o in lit.items())
        joint = {}
        for x, o in lit.items():
            joint.setdefault(o, {})[x] = st[x]
        assert max_gain(st, joint, S) <= d
        expected = sum(st[x] * sum(c is not BOT for c in o) for x, o in lit.items())
        assert E.simulatable_utility(ch, S, d) == expected
        # Claims 2/3: Pr[o | x] = 1 iff x agrees with o's releases
        for x, o in lit.items():
            assert all((lit[y] == o) == all(c is BOT or y[k] == c for k, c in enumerate(o)) for y in lit)


# --------------------------------------------------------------------------- the examples, rebuilt from the prose


def fig34b(alt=False):
    """000 Figure 3.4(b) from Example 5's outputs and Claim 6's 'gives away' sentence (alt: y1, y3 -> {z1, z2})."""
    st = {}
    for w in range(1, 7):
        x = {1: "x1", 2: "x1", 3: "x2", 4: "x2", 5: "x3", 6: "x3"}[w]
        tails = {"x1": [("s1", "z1")] + ([("y1", "z1"), ("y1", "z2")] if alt else [("y1", "z2")]),
                 "x2": [("y2", "z1"), ("y2", "z2")],
                 "x3": [("s2", "z2")] + ([("y3", "z1"), ("y3", "z2")] if alt else [("y3", "z1")])}[x]
        for tl in tails:
            p = Fr(1, 12) if tl[0] in ("s1", "s2", "y2") or not alt else Fr(1, 24)
            st[(f"w{w}", x) + tl] = p
    assert sum(st.values()) == 1
    return st


def ones(names):
    return lambda t, c: 1 if c in names else 0


def test_examples_recomputed():
    """ex1, ex2, ex4, ex5, claim6, def_util_prob: the printed numbers from our own rebuilds."""
    # Example 1 (Figure 3.1): start -> {Phone call, meeting}; Phone call -> {Coffee break, meeting}; meeting -> {meeting, Lunch}
    st1 = {("P", "C"): Fr(1, 4), ("P", "M"): Fr(1, 4), ("M", "M"): Fr(1, 4), ("M", "L"): Fr(1, 4)}
    outs = outputs(st1, ones({"C", "P", "M"}))
    assert prior(st1, 1, "P") == Fr(1, 2) and posterior(outs[(BOT, BOT)], 1, "P") == Fr(2, 3)
    assert max_gain(st1, outs, ["P"]) == Fr(1, 6)
    # Example 2: p_s = 1, p_x = 1/3 gives 3/4; any p_x < 1/3 breaches
    st2 = {("s",): Fr(1, 2), ("x",): Fr(1, 2)}
    assert max_gain(st2, outputs(st2, lambda t, c: 1 if c == "s" else Fr(1, 3)), ["s"]) == Fr(1, 4)
    assert max_gain(st2, outputs(st2, lambda t, c: 1 if c == "s" else Fr(1, 3) - Fr(1, 1000)), ["s"]) > Fr(1, 4)
    # Example 4: four equally likely states, suppress s1, s2: posterior 1/2
    st4 = {(c,): Fr(1, 4) for c in ("s1", "s2", "a", "b")}
    assert max_gain(st4, outputs(st4, ones({"s1", "s2"})), ["s1", "s2"]) == Fr(1, 4)
    # Example 5 / Claim 6
    st = fig34b()
    lit = literal_simulatable(st, ["s1", "s2"], Fr(1, 3))
    listed = {("w1", "x1", BOT, BOT), ("w2", "x1", BOT, BOT), ("w3", "x2", "y2", "z1"), ("w3", "x2", "y2", "z2"),
              ("w4", "x2", "y2", "z1"), ("w4", "x2", "y2", "z2"), ("w5", "x3", BOT, BOT), ("w6", "x3", BOT, BOT)}
    assert set(lit.values()) == listed
    assert sum(st[x] * sum(c is not BOT for c in o) for x, o in lit.items()) == Fr(8, 3)
    z = ones({"s1", "y1", "z1", "s2", "y3", "z2"})
    w = ones({"s1", "w1", "w2", "x1", "s2", "w5", "w6", "x3"})
    S = ["s1", "s2"]
    assert max_gain(st, outputs(st, z), S) == Fr(1, 3) and utility(st, z) == Fr(7, 3)
    assert max_gain(st, outputs(st, w), S) == Fr(5, 6) and utility(st, w) == Fr(7, 3)
    # the misprint: the listed outputs put w4 before x2, so 'w4, w5, x3' is not the x3 branch, and read literally
    # 'all of w4, w5, x3 or both z2, y3' fails on a private vector
    assert ("w4", "x2", "y2", "z1") in listed
    counter = ones({"s1", "s2", "w1", "w2", "x1", "w5", "w6", "x3", "y1", "y3"})
    assert max_gain(st, outputs(st, counter), S) <= Fr(1, 3)
    # the alternative rebuild reproduces Example 5 too (so the figure is fixed by Claim 6's sentence, not Example 5)
    alt = fig34b(alt=True)
    assert set(literal_simulatable(alt, S, Fr(1, 3)).values()) == listed


def test_claim6_and_examples_agree_with_the_ledger():
    from privclaims.theory.maskit import exact as E
    from privclaims.theory.maskit.figures import figure_3_4b

    ch = figure_3_4b()
    st = fig34b()
    S = ["s1", "s2"]
    for names in ({"s1", "y1", "z1", "s2", "y3", "z2"}, {"s1", "w1", "w2", "x1", "s2", "w5", "w6", "x3"}):
        p = {c: (1 if c in names else 0) for c in ch.contexts}
        assert E.max_breach(ch, p, S).gain == max_gain(st, outputs(st, ones(names)), S)
        assert E.utility(ch, p) == utility(st, ones(names))
    for cid in ("maskit.ex1", "maskit.ex2", "maskit.ex4", "maskit.ex5"):
        assert ledger_row(cid)["verdict"] == "verified", cid


def test_weak_adversary_example6():
    """p_ex6, p_lc2: a mixture of three equally likely worlds (Figure 3(b): the first state is s, y or z); in the y and
    z worlds nothing is sensitive, nothing suppressed. The probabilistic check (p_s = 1, p_x = 1/3) and the
    simulatable check (suppress everything) on the s world."""
    worlds = {lab: {(lab,): Fr(1, 2), ("x",): Fr(1, 2)} for lab in ("s", "y", "z")}
    for supp_s, want in ((lambda t, c: 1 if c == "s" else Fr(1, 3), Fr(3, 4)), (lambda t, c: 1, Fr(1, 2))):
        joint = {}
        for lab, st in worlds.items():
            f = supp_s if lab == "s" else (lambda t, c: 0)
            for o, j in outputs(st, f).items():
                for x, v in j.items():
                    joint.setdefault(o, {})[(lab, x)] = Fr(1, 3) * v
        pri = sum(Fr(1, 3) * prior(worlds[lab], 1, "s") for lab in worlds)
        post = sum(v for (lab, x), v in joint[(BOT,)].items() if x[0] == "s") / sum(joint[(BOT,)].values())
        assert pri == Fr(1, 6) and post == want
    assert ledger_row("maskit.p_ex6")["verdict"] == "verified"


# --------------------------------------------------------------------------- dp.def6 and its remarks


def _system_gains(prior_, chan, window):
    """Exact gains of a finite system {x: Pr}, {x: {o: Pr}} for s: per output the largest single-time gain and the
    window gain."""
    T = len(next(iter(prior_)))
    outs = {}
    for x, px in prior_.items():
        for o, po in chan[x].items():
            outs.setdefault(o, {})[x] = outs.get(o, {}).get(x, 0) + px * po
    single = {o: max(posterior(j, t, "s") - prior(prior_, t, "s") for t in range(1, T + 1)) for o, j in outs.items()}
    pw = sum(p for x, p in prior_.items() if any(x[t - 1] == "s" for t in window))
    win = {o: sum(v for x, v in j.items() if any(x[t - 1] == "s" for t in window)) / sum(j.values()) - pw
           for o, j in outs.items()}
    return single, win


def test_window_witnesses_refute_inside_each_model():
    """dp.text_def6_window: the suppression-model witnesses rebuilt and recomputed (prior ss 1/10, sn = ns 1/5, nn 1/2):
    T = 2, the output (⊥, ⊥) alone (o_2 released iff x_1 = x_2); T = 3, the whole system (o_3 = n released iff
    x_1 != x_2, X_3 = n). Both have single gains 1/5 and window gain 1/2 > 2/5. The ledger refutes under all four
    readings with witnesses inside their model."""
    pr = {("s", "s"): Fr(1, 10), ("s", "n"): Fr(1, 5), ("n", "s"): Fr(1, 5), ("n", "n"): Fr(1, 2)}
    chan2 = {x: {(BOT, x[1] if x[0] == x[1] else BOT): 1} for x in pr}
    single, win = _system_gains(pr, chan2, [1, 2])
    assert single[(BOT, BOT)] == Fr(1, 5) and win[(BOT, BOT)] == Fr(1, 2) > 2 * Fr(1, 5)
    pr3 = {x + ("n",): v for x, v in pr.items()}
    chan3 = {x: {(BOT, BOT, "n" if x[0] != x[1] else BOT): 1} for x in pr3}
    single, win = _system_gains(pr3, chan3, [1, 2])
    assert max(single.values()) == Fr(1, 5) and win[(BOT, BOT, "n")] == Fr(1, 2)
    row = ledger_row("dp.text_def6_window")
    assert row["verdict"] == "refuted"
    assert {r["name"] for r in row["readings"]} == {"any system · the output", "any system · the system",
                                                     "suppression system · the output", "suppression system · the system"}
    for r in row["readings"]:
        assert r["verdict"] == "refuted" and r["evidence"]["model"]["valid"], r["name"]
        if r["name"].startswith("suppression"):
            assert Fr(r["evidence"]["witness"]["window_gain"]) == Fr(1, 2)


def test_subset_remark_is_a_sum():
    """dp.text_def6_subset: Pr[X_t ∈ S' | o] - Pr[X_t ∈ S'] is the sum of |S'| single gains (own random systems)."""
    r = random.Random(5)
    for _ in range(30):
        xs = list(product("abc", repeat=2))
        w = [r.randint(0, 3) for _ in xs]
        pr = {x: Fr(v, sum(w)) for x, v in zip(xs, w) if v} if sum(w) else {("a", "a"): Fr(1)}
        chan = {x: {k: Fr(1, 2) for k in (0, r.randint(0, 2))} if r.random() < 0.5 else {0: Fr(1)} for x in pr}
        chan = {x: ({0: Fr(1)} if sum(row.values()) != 1 else row) for x, row in chan.items()}
        outs = {}
        for x, px in pr.items():
            for o, po in chan[x].items():
                outs.setdefault(o, {})[x] = outs.get(o, {}).get(x, 0) + px * po
        for j in outs.values():
            for t in (1, 2):
                z = sum(j.values())
                set_gain = sum(v for x, v in j.items() if x[t - 1] in "ab") / z - sum(p for x, p in pr.items() if x[t - 1] in "ab")
                assert set_gain == sum(posterior(j, t, s) - prior(pr, t, s) for s in "ab")


def test_theorem2_gain_is_one_over_ell_minus_one_over_n():
    """dp.thm2: uniform prior over n leaves, observing the cut node: the gain of a sensitive leaf under a cut node with
    k leaves is 1/k - 1/n (own computation), the ledger's hierarchy module agrees."""
    from privclaims.theory.maskit.hierarchy import generalisation_breach, theorem2_bound

    r = random.Random(6)
    for _ in range(20):
        n = r.randint(2, 8)
        leaves = [f"c{i}" for i in range(n)]
        cuts = sorted(set(r.sample(range(1, n), r.randint(0, n - 1)))) if n > 1 else []
        groups, prev = [], 0
        for c in cuts + [n]:
            groups.append(leaves[prev:c])
            prev = c
        tree = {"root": [f"g{i}" for i in range(len(groups))], **{f"g{i}": g for i, g in enumerate(groups)}}
        S = r.sample(leaves, r.randint(1, min(3, n)))
        ell = min(len(g) for g in groups if set(g) & set(S))
        assert generalisation_breach(tree, "root", list(tree["root"]), S).gain == Fr(1, ell) - Fr(1, n)
        assert theorem2_bound(tree, "root", list(tree["root"]), S)[1] == Fr(1, ell) - Fr(1, n)


def test_lemma2_all_vectors_reading_fails_on_example2():
    """maskit.lem2 / thm4 under 'all vectors': on Example 2's chain the best vector of the d = 10 grid suppresses x with
    4/10 (utility 3/10), below the documents' optimum p_x = 1/3 (utility 1/3) - own enumeration of the grid."""
    st2 = {("s",): Fr(1, 2), ("x",): Fr(1, 2)}
    best = max((utility(st2, lambda t, c, q=q: 1 if c == "s" else q), q) for q in (Fr(k, 10) for k in range(11))
               if max_gain(st2, outputs(st2, lambda t, c, q=q: 1 if c == "s" else q), ["s"]) <= Fr(1, 4))
    assert best == (Fr(3, 10), Fr(2, 5)) and best[0] < Fr(1, 3)
