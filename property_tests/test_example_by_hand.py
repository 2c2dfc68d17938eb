"""The worked example's answers, computed by hand — independently of privclaims (plain fractions, brute force over
every stream, output and ad pair; mpmath for ZEALOUS's bound) — equal what its pins hold
(``examples/my-draft/pins``), so the example's ledger is checked against something it did not compute itself."""

from __future__ import annotations

import json
from fractions import Fraction as F
from itertools import combinations, product
from pathlib import Path

import mpmath

EX = Path(__file__).resolve().parents[1] / "examples" / "my-draft"


def _json(name: str):
    return json.loads((EX / name).read_text(encoding="utf-8"))


def _pin(claim: str) -> dict:
    area, label = claim.split(".")
    return _json(f"pins/{area}/{label}.json")


def _fr(x):
    return [_fr(v) for v in x] if isinstance(x, list) else F(x)


def test_randomized_response_least_epsilon_is_ln4():
    m = {L: {o: F(p) for o, p in row.items()} for L, row in _json("rr.json")["inputs"].items()}
    worst = max(m[a][o] / m[b][o] for a, b in (("yes", "no"), ("no", "yes")) for o in m[a])
    assert worst == 4  # e^ε = 4: ln(4), and no smaller ε
    parts = _pin("dp.rr")["values"]["readings"]["as stated"]["parts"]
    assert parts["least"]["evidence"]["computed"] == "ln(4)" and parts["private"]["verdict"] == "verified"


def test_randomized_response_every_p_of_the_searched_domain():
    """Claim 7 over every p = a/q its search draws from (2 <= q <= 99, 1/2 <= p < 1), not only those it drew: the
    largest ratio of the two rows is p/(1 - p), so ε = ln(p/(1 - p)) holds (and no smaller ε) for each."""
    for q in range(2, 100):
        for a in range((q + 1) // 2, q):
            p = F(a, q)
            rows = {"yes": {"yes": p, "no": 1 - p}, "no": {"yes": 1 - p, "no": p}}
            assert max(rows[x][o] / rows[y][o] for x, y in (("yes", "no"), ("no", "yes")) for o in "yes no".split()) \
                == p / (1 - p)
    pin = _pin("dp.rr_every_p")
    assert pin["verdict"] == "verified-bounded" and "2 <= q <= 99" in pin["values"]["evidence"]["encoding"]


def test_rating_breach_per_pair_and_per_input():
    mech = _json("rating.json")
    m = {L: {o: F(p) for o, p in row.items()} for L, row in mech["inputs"].items()}
    nb = [tuple(p) for p in mech["neighbours"]]
    nb += [(b, a) for a, b in nb]

    def breach(L, Lp):  # outputs outside e^-ε <= p/q <= e^ε, e^ε = 2
        return {o for o in m[L] if not (m[Lp][o] <= 2 * m[L][o] and m[L][o] <= 2 * m[Lp][o])}

    per_pair = max(sum(m[L][o] for o in breach(L, Lp)) for L, Lp in nb)
    per_input = max(sum(m[L][o] for o in set().union(*(breach(L, Lp) for L2, Lp in nb if L2 == L))) for L in m)
    assert (per_pair, per_input) == (F(1, 10), F(1, 5))
    rs = _pin("dp.rating")["values"]["readings"]
    assert rs["per pair"]["evidence"]["delta"]["decision"]["value"] == "1/10" and rs["per pair"]["verdict"] == "verified"
    assert rs["per input"]["evidence"]["delta"]["decision"]["value"] == "1/5" and rs["per input"]["verdict"] == "refuted"


def _largest_gain(policy: dict[str, F]) -> F:
    """max over outputs o of positive probability, times t and the hospital of Pr[X_t = h | o] - Pr[X_t = h]:
    every stream of the chain and every release pattern enumerated."""
    ch = _json("chain.json")
    C, init, steps = ch["contexts"], _fr(ch["initial"]), _fr(ch["steps"])
    T, n, h = 1 + len(steps), len(C), C.index("hospital")
    p = [policy.get(c, F(0)) for c in C]
    px = {}
    for x in product(range(n), repeat=T):
        pr = init[x[0]]
        for t in range(1, T):
            pr *= steps[t - 1][x[t - 1]][x[t]]
        px[x] = pr
    prior = [sum(v for x, v in px.items() if x[t] == h) for t in range(T)]
    best = None
    for o in product([*range(n), None], repeat=T):
        po, post = F(0), [F(0)] * T
        for x, v in px.items():
            w = v
            for t in range(T):
                w *= p[x[t]] if o[t] is None else (1 - p[x[t]]) * (o[t] == x[t])
            po += w
            for t in range(T):
                post[t] += w * (x[t] == h)
        if po:
            g = max(post[t] / po - prior[t] for t in range(T))
            best = g if best is None else max(best, g)
    return best


def test_maskit_gains():
    naive = _largest_gain({"hospital": F(1)})
    policy = _largest_gain({c: F(v) for c, v in _json("policy.json")["p"].items()})
    assert (naive, policy) == (F(1761, 2000), F(332, 1965))
    assert naive > F(1, 5) >= policy
    assert _pin("maskit.hospital_only")["values"]["evidence"]["gain"]["decision"]["value"] == "1761/2000"
    assert _pin("maskit.policy")["values"]["evidence"]["gain"]["decision"]["value"] == "332/1965"


def test_greedy_ratio():
    inst = _json("lunch.json")
    w = _fr(inst["weights"])
    ads = {a["name"]: _fr(a["ctr"]) for a in inst["ads"]}  # payments are all 1

    def revenue(A):
        return sum(wc * max(ads[a][c] for a in A) for c, wc in enumerate(w))

    chosen = []
    for _ in range(2):  # Greedy: the largest marginal revenue (no ties on this instance)
        gains = {a: revenue([*chosen, a]) for a in ads if a not in chosen}
        assert len(set(gains.values())) == len(gains)
        chosen.append(max(gains, key=gains.get))
    best = max(revenue(A) for A in combinations(ads, 2))
    assert (revenue(chosen), best, revenue(chosen) / best) == (F(23, 40), F(5, 8), F(23, 25))
    ev = _pin("ads.greedy")["values"]["evidence"]
    assert (ev["greedy_revenue"], ev["optimum_revenue"], ev["ratio"]["decision"]["value"]) == ("23/40", "5/8", "23/25")


def test_zealous_bound():
    with mpmath.workdps(40):
        U, m, eps, delta = 500, 2, 1, mpmath.mpf(1) / 100
        lam = mpmath.mpf(2 * m) / eps
        tau = int(mpmath.ceil(lam))
        least = tau + max(-lam * mpmath.log(2 - 2 * mpmath.exp(-1 / lam)), -lam * mpmath.log(2 * delta * tau / (U * m)))
        assert (lam, tau) == (4, 4) and 41.7339 < least < 41.7340 < 42
    d = _pin("zealous.tau_prime")["values"]["readings"]["as stated"]["parts"]["tau' suffices"]["evidence"]
    bound = F(d["tau_prime"]["decision"]["bound"])
    assert least <= mpmath.mpf(bound.numerator) / bound.denominator < least + mpmath.mpf("1e-7")
