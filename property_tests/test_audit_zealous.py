"""The zealous audit's independent re-derivations (issue 21, item 5): each test recomputes a claim's decisive numbers
from the seed text with its own small exact code (fractions, mpmath) - not the project's theory code - and compares
them with what the ledger computes. They are the area's regression net for the verdicts the audit re-derived.

Texts: 000_211156f2009240b4.txt ch. 6 and 003_755c7aa10ef74058.txt (the ZEALOUS paper).
"""

from __future__ import annotations

from fractions import Fraction as F
from functools import lru_cache
from itertools import product
from math import comb

import mpmath
import pytest

from privclaims.checks.registry import Context, default_data_dir
from privclaims.checks.runner import run_one

mpmath.mp.dps = 50


@lru_cache(maxsize=None)
def row(claim_id: str) -> dict:
    return run_one(claim_id, Context(quick=False, data_dir=default_data_dir()))


def reading(r: dict, name: str) -> dict:
    return next(x for x in r["readings"] if x["name"] == name)


def part(rd: dict, name: str) -> dict:
    return next(p for p in rd["parts"] if p["name"] == name)


def evidence(r: dict) -> dict:
    """A claim's evidence: its one combination's (the row's, when the claim has a single combination)."""
    return r["readings"][0].get("evidence") or r["evidence"]


def dec(ev: dict) -> dict:
    """The decision dict inside ``{"decision": {...}}``."""
    return ev["decision"]


def frac(s) -> F:
    return F(s) if not isinstance(s, str) else F(s)


# --------------------------------------------------------------------------- own small models


def tail(x: F, rho: F) -> F:
    """Pr[eta > x] for Laplace noise with rho = e^{-1/lambda}, integer x: rho^x/2 (x >= 0), 1 - rho^{-x}/2 (x < 0)."""
    return rho ** int(x) / 2 if x >= 0 else 1 - rho ** int(-x) / 2


def published(count: int, tau, tau_prime: int, rho: F) -> F:
    """ZEALOUS's Steps 3-5 for one item (000 §6.4 Figure 6.1): 0 below tau, else Pr[count + eta > tau']."""
    return F(0) if count < tau else tail(F(tau_prime - count), rho)


def logs(domain, users, m):
    hs = [frozenset(c) for r in range(m + 1) for c in __import__("itertools").combinations(domain, r)]
    return list(product(hs, repeat=users))


def counts(L):
    c = {}
    for h in L:
        for d in h:
            c[d] = c.get(d, 0) + 1
    return c


# --------------------------------------------------------------------------- Theorem 13


def test_thm13_witness_by_hand():
    """m = U = 1, rho = 1/2 (e^eps' = 4), tau = 1, tau' = 2: (6.3) at equality promises delta' = (m/2)(e^eps')^(1 - tau'/m)
    = 1/8; S = ({a}) publishes a w.p. rho/2 = 1/4, the neighbour never: the set 'a published' needs delta = 1/4."""
    rho, m, tp = F(1, 2), 1, 2
    e_eps = rho ** (-2 * m)
    delta_prime = F(m, 2) * e_eps ** (1 - F(tp, m))
    breach = published(1, 1, tp, rho) - e_eps * 0
    assert (delta_prime, breach) == (F(1, 8), F(1, 4))
    r = row("zealous.thm13")
    assert r["verdict"] == "refuted"
    ev = evidence(r)
    assert frac(ev["witness"]["delta_prime_(6.3)"]) == delta_prime
    assert (frac(dec(ev["decision"])["value"]), frac(dec(ev["decision"])["bound"])) == (breach, delta_prime)
    # the rejected bases of (6.3)'s log: delta' = (m/2) b^{eps'(1 - tau'/m)}, eps' = ln 4; log2 promises more than ln
    # (2^{-ln 4}/2 = 0.1913), still < 1/4; log10 less (0.0205): the witness breaks both
    eps = mpmath.log(e_eps)
    by_base = {b: mpmath.mpf(m) / 2 * mpmath.power(b, eps * (1 - mpmath.mpf(tp) / m)) for b in (2, 10)}
    assert 0.1912 < by_base[2] < 0.1913 and 0.0205 < by_base[10] < 0.0206 and max(by_base.values()) < mpmath.mpf(breach.numerator) / breach.denominator
    for b, v in by_base.items():
        d = dec(ev["delta_prime_if_log_in_base"][f"log{b}"])
        lo, hi = d["value"]["interval"]
        assert mpmath.mpf(lo) <= v <= mpmath.mpf(hi) and d["holds"] and frac(d["bound"]) == breach
    rejected = {x["reading"]: x["why"] for x in r["audit"]["rejected"]}
    assert "0.191 < 1/4" in rejected["log2 in (6.3)"] and "0.0205" in rejected["log10 in (6.3)"]


# --------------------------------------------------------------------------- Theorem 14


def own_least_deltas(domain, users, m, tau_eff, tau_prime, rho):
    """Per pair / per input: the S-mass of the outputs a neighbour cannot produce (an item of count >= tau in S and
    < tau in S'), each item published independently - the least delta when the finite ratios are within e^eps."""
    L_all = logs(domain, users, m)
    pair = inp = F(0)
    for S in L_all:
        c = counts(S)
        union = set()
        for Sp in L_all:
            if sum(x != y for x, y in zip(S, Sp)) != 1:
                continue
            cp = counts(Sp)
            K = {d for d in domain if c.get(d, 0) >= tau_eff > cp.get(d, 0)}
            none = F(1)
            for d in K:
                none *= 1 - published(c[d], tau_eff, tau_prime, rho)
            pair = max(pair, 1 - none)
            union |= K
        none = F(1)
        for d in union:
            none *= 1 - published(c[d], tau_eff, tau_prime, rho)
        inp = max(inp, 1 - none)
    return pair, inp


def test_thm14_integer_instance_by_hand():
    """m = 1, U = 2, D = {a, b}, rho = 1/2, tau = 1, tau' = 2: delta of (6.5) = U m/(2 tau) rho^{tau'-tau} = 1/2; a
    neighbour drops an item of count 1 (published w.p. 1/4): per pair 1/4, per input (both items of ({a},{b}) at risk)
    1 - (3/4)^2 = 7/16."""
    pair, inp = own_least_deltas(("a", "b"), 2, 1, 1, 2, F(1, 2))
    assert (pair, inp) == (F(1, 4), F(7, 16))
    delta = F(2 * 1, 2 * 1) * F(1, 2)
    r = row("zealous.thm14")
    inst = next(i for i in r["evidence"]["instances"] if (i["m"], i["U"], i["rho"], i["tau"], i["tau_prime"]) == (1, 2, "1/2", 1, 2))
    assert frac(inst["delta_(6.5)"]) == delta
    assert (frac(inst["full_output_least_delta"]["pair"]), frac(inst["full_output_least_delta"]["input"])) == (pair, inp)
    for name in ("per-pair split · integer tau", "per-input split · integer tau"):
        assert reading(r, name)["verdict"] == "verified-bounded"


def test_thm14_tau_prime_below_tau_by_hand():
    """(6.5) allows tau' < tau when both its terms are negative: rho = 16/81 = (2/3)^4, tau = 2, tau' = 7/4, m = 1, U = 2:
    rho^{tau'-tau} = 3/2 <= 2 - 2 rho = 130/81 (first term) and delta = U m/(2 tau) * 3/2 = 3/4 (second, at equality).
    Only ({a},{a}) or ({b},{b}) holds an item of count 2; it is published w.p. Pr[2 + eta > 7/4] = 1 - rho^{1/4}/2 = 2/3
    and every neighbour drops it to count 1 (never published): least delta 2/3 <= 3/4 per pair and per input."""
    rho, root = F(16, 81), F(2, 3)
    assert root ** 4 == rho and 1 / root <= 2 - 2 * rho
    delta = F(2 * 1, 2 * 2) / root
    least = 1 - root / 2
    assert (delta, least) == (F(3, 4), F(2, 3))
    r = row("zealous.thm14")
    inst = next(i for i in r["evidence"]["instances"] if (i["m"], i["U"], i["rho"], i["tau"], i["tau_prime"]) == (1, 2, "16/81", 2, "7/4"))
    assert frac(inst["delta_(6.5)"]) == delta
    assert frac(inst["full_output_least_delta"]["pair"]) == frac(inst["full_output_least_delta"]["input"]) == least
    assert any(frac(i["tau_prime"]) < i["tau"] for i in r["evidence"]["instances"] if i["U"] >= i["tau"])
    for name in ("per-pair split · integer tau", "per-input split · integer tau"):
        assert reading(r, name)["verdict"] == "verified-bounded"


def test_thm14_real_tau_witness_by_hand():
    """tau = 1/2 (a 'positive number'), tau' = 1, rho = 1/9 (e^eps = 81), U = m = 1: (6.5) holds, rho^(1/2) = 1/3 <= 2 -
    2 rho, and gives delta = U m/(2 tau) rho^(1/2) = 1/3; Step 3 keeps the count 1 >= 1/2, published w.p. 1/2, never on
    the neighbour: least delta 1/2 > 1/3 under both orders of Definition 3."""
    rho, tau, tp = F(1, 9), F(1, 2), 1
    root = F(1, 3)
    assert root * root == rho ** 1 and root <= 2 - 2 * rho
    delta = F(1) / (2 * tau) * root
    pair, inp = own_least_deltas(("a", "b"), 1, 1, 1, tp, rho)  # integer counts: Step 3 with tau = 1/2 keeps counts >= 1
    assert (delta, pair, inp) == (F(1, 3), F(1, 2), F(1, 2))
    r = row("zealous.thm14")
    assert r["verdict"] == "reading-dependent" and (r["why"] or "").strip()
    for name in ("per-pair split · real tau", "per-input split · real tau"):
        rd = reading(r, name)
        w = rd["evidence"]["witness"]
        assert rd["verdict"] == "refuted" and rd["evidence"]["model"]["valid"]
        assert (frac(w["tau"]), w["tau_prime"], frac(w["rho"]), frac(w["delta_(6.5)"])) == (tau, tp, rho, delta)
        assert frac(w["full_output_least_delta"]["pair"]) == pair and frac(w["full_output_least_delta"]["input"]) == inp


def test_thm14_ratio_real_tau_by_hand():
    """With tau = 1/2 the item of count 1 is published w.p. 1/2 under S and never under S' (count 0 < tau): the ratio
    (6.9) on an output of Omega (K, the items of count exactly tau, is empty) is infinite."""
    assert published(1, F(1, 2), 1, F(1, 9)) == F(1, 2) and published(0, F(1, 2), 1, F(1, 9)) == 0
    rd = reading(row("zealous.text_thm14_ratio"), "real tau")
    assert rd["verdict"] == "refuted"
    assert frac(rd["evidence"]["witness"]["Pr[a published | S]"]) == F(1, 2)


def test_thm14_breach_chain_by_hand():
    """(6.8): 1 - (1 - t)^k <= k t (Bernoulli), and at most U m/tau items reach count tau: spot values."""
    t = F(1, 4)
    for k in range(0, 7):
        assert 1 - (1 - t) ** k <= k * t
    r = row("zealous.text_thm14_breach")
    assert r["verdict"] == "verified-bounded"
    for name in ("integer tau", "real tau"):
        assert all(p["verdict"] == "verified-bounded" for p in reading(r, name)["parts"])


# --------------------------------------------------------------------------- §6.5: A-hat


def a_hat(n):
    return {s: {o: F(1, n - 1) for o in range(n) if o != s} for s in range(n)}  # U = 1: the log is its first history


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_hat_deltas_by_hand(n):
    """U = 1, |D| = n: least delta' (indistinguishability) = 1/(n-1) for every eps'; least pDP delta per pair = 1/(n-1)
    (only S'_1 breaches), per input 1 (every output is S'_1 of some neighbour)."""
    d = a_hat(n)
    indist = max(sum(p for o, p in d[s].items() if d[t].get(o, 0) == 0) for s in d for t in d if s != t)
    pair = max(sum(p for o, p in d[s].items() if d[t].get(o, 0) == 0) for s in d for t in d if s != t)
    per_input = max(sum(p for o, p in d[s].items() if any(d[t].get(o, 0) == 0 for t in d if t != s)) for s in d)
    assert (indist, pair, per_input) == (F(1, n - 1), F(1, n - 1), F(1))
    cor3 = row("zealous.cor3")
    pp = reading(cor3, "per-pair split")
    if n == 3:
        w = pp["evidence"]["witness"]
        assert (w["|D|"], w["U"], frac(dec(w["least_pdp_delta"])["value"])) == (3, 1, pair)
    # A-hat reads only the first user's history: the least deltas do not depend on U (the ledger's instances have U >= 1)
    pi = reading(cor3, "per-input split")
    inst = next(i for i in part(pi, "Â is not (ε, δ)-probabilistically DP for any δ < 1")["evidence"]["instances"] if i["|D|"] == n)
    assert frac(dec(inst["least_pdp_delta"])["value"]) == per_input and dec(inst["least_pdp_delta"])["holds"]
    for rd in cor3["readings"]:  # the first half is the same under both orders: a = 1/(n-1), b = 0 for every eps'
        ind = next(i for i in part(rd, "Â is (ε′, δ′)-indistinguishable")["evidence"]["instances"] if i["|D|"] == n)
        assert (frac(dec(ind["a"])["value"]), frac(dec(ind["b"])["value"])) == (indist, 0)
    assert [p["verdict"] for p in pi["parts"]] == ["verified-bounded", "verified-bounded"] and pi["why"]
    assert [p["verdict"] for p in pp["parts"]] == ["verified-bounded", "refuted"]
    p10 = next(i for i in row("zealous.prop10")["evidence"]["instances"] if i["|D|"] == n)
    assert frac(dec(p10["a"])["value"]) == indist


# --------------------------------------------------------------------------- Lemma 13, Theorems 12, 15, 16


def test_lem13_minimal_witness_by_hand():
    """U = 1, m = 2, D = {d}: keep d w.p. 4^f/8 is eps-DP with e^eps = 4 (ratios 4 and 7/4); S = ({d}) keeps it w.p. 1/2,
    S' = ({}) (L1 = 1) w.p. 1/8 < (1/2)/4^(1/2) = 1/4. With m = 1 no such pair exists (L1 >= users changed)."""
    keep = {0: F(1, 8), 1: F(1, 2)}
    assert keep[1] / keep[0] <= 4 and (1 - keep[0]) / (1 - keep[1]) <= 4
    bound = keep[1] / 2  # 4^(L1/m) = 4^(1/2) = 2
    assert keep[0] < bound
    w = evidence(row("zealous.lem13"))["witness"]
    assert (w["U"], w["m"], w["D"], w["L1"]) == (1, 2, ["d"], 1)
    assert (frac(w["p=Pr[d in A(S)]"]), frac(w["Pr[d in A(S')]"]), frac(w["lemma_bound"])) == (keep[1], keep[0], bound)


def test_thm12_strict_witness_by_hand():
    """U = 3, m = 1, tau = xi = 1, c = 1/4, e^eps = 4: keep each item w.p. 2^f/16. Per item the retention ratio is 2 and
    the complement ratio at most 3/2; one user (m = 1) moves <= 2 counts, so the ratio is <= 4 = e^eps. Strict Def. 10
    on S (f_w0 = 3): 1 - 8/16 = 1/2 <= the empty algorithm's 1. The printed bound: 3 (2 * 4^4/(1/4 * 2) + 1) = 3075."""
    p = {f: F(2 ** f, 16) for f in range(4)}
    per_item = max(max(p[f + 1] / p[f], (1 - p[f]) / (1 - p[f + 1])) for f in range(3))
    assert per_item ** 2 <= 4 and all(p[f] >= F(1, 4) for f in (2, 3))
    bound = 3 * (2 * F(4) ** 4 / (F(1, 4) * 2) + 1)
    w = reading(row("zealous.thm12"), "Def. 10 strict")["evidence"]["witness"]
    assert (frac(w["inaccuracy"]), w["baseline"], frac(w["|D|"])) == (1 - p[3], 1, bound)


def test_thm15_accuracy_by_hand():
    """rho = 1/2, tau* = 2, xi = 1 (tau = 1, tau' = 3): an item at tau* + xi = 3 is published w.p. 1/2 < 1 - rho/2 = 3/4;
    an item at tau* + 1 = 3 is missed w.p. 1/2, not rho^2/2 = 1/8; an item at tau (very-infrequent, non-strict) is
    published w.p. rho^2/2 = 1/8, so one item at 3 and five at 1 cost 1/2 + 5/8 > 1 (the empty algorithm's)."""
    rho = F(1, 2)
    assert published(3, 1, 3, rho) == F(1, 2) < 1 - rho / 2
    assert 1 - published(3, 1, 3, rho) != rho ** 2 / 2
    assert (1 - published(3, 1, 3, rho)) + 5 * published(1, 1, 3, rho) == F(9, 8)
    r = row("zealous.thm15")
    assert r["verdict"] == "refuted"
    acc = part(reading(r, "Def. 10 strict"), "accuracy")
    assert acc["verdict"] == "refuted" and frac(dec(acc["evidence"]["decision"])["value"]) == F(1, 2)
    beat = part(reading(r, "Def. 10 with very-(in)frequent"), "beats the baseline")
    assert beat["verdict"] == "refuted" and frac(beat["evidence"]["witness"]["zealous"]) == F(9, 8)


def test_thm16_one_threshold_by_hand():
    """Theorem 14's m = 1, U = 2, rho = 1/2, tau = 1, tau' = 2 (delta = 1/2): a count-1 item is published w.p. 1/4 - kept
    w.p. < 1/2 if frequent, not filtered if infrequent."""
    assert published(1, 1, 2, F(1, 2)) == F(1, 4)
    r = row("zealous.thm16")
    assert r["verdict"] == "reading-dependent"
    assert reading(r, "Def. 10 with very-(in)frequent · count at least tau · slack")["verdict"] == "verified-bounded"
    rd = reading(r, "Def. 10 with very-(in)frequent · count at least tau · one threshold")
    assert frac(part(rd, "ZEALOUS half")["evidence"]["witness"]["Pr[count-1 item published]"]) == F(1, 4)


def test_ex_thm12_domain_by_hand():
    """Queries of 1..3 keywords of 900,000: as sequences (900000 + 900000^2 + 900000^3)^2 = 5.31e35 (the printed value);
    as keyword sets (§6.2.1) (C(900000,1) + C(900000,2) + C(900000,3))^2 = 1.48e34."""
    seqs = sum(900_000 ** i for i in (1, 2, 3)) ** 2
    sets = sum(comb(900_000, i) for i in (1, 2, 3)) ** 2
    assert f"{seqs:.1e}" == "5.3e+35" and f"{sets:.2e}" == "1.48e+34"
    r = row("zealous.ex_thm12")
    assert r["verdict"] == "reading-dependent"
    dom = part(reading(r, "Def. 10 with very-(in)frequent"), "domain size")
    assert dom["verdict"] == "discrepancy" and dom["evidence"]["computed"]["as keyword sets (§6.2.1)"] == "1.48e+34"


def test_ex_thm12_a_witness_failing_its_properties_is_no_verification(monkeypatch):
    """helper-82: the strict reading's branch read `verified(...) if strict_d.holds or problems else refuted(...)`, so a
    witness failing its own DP argument (problems) made the conclusion *verified*. Its properties are now decisions on
    its own parameters, and a failing one leaves the refutation unvalidated: the ledger's model rule makes it an error."""
    from privclaims.checks.claims.zealous import utility_claims
    from privclaims.checks.evidence import decide_enclosed

    r = run_one("zealous.ex_thm12", Context(quick=True, data_dir=None))
    strict_rows = [rd for rd in r["readings"] if "strict" in rd["name"]]
    assert strict_rows and all(part(rd, "conclusion")["verdict"] == "refuted" for rd in strict_rows)
    w = part(strict_rows[0], "conclusion")["evidence"]["witness"]
    assert all(w[k]["decision"]["holds"] for k in ("complement_factor", "dp_budget", "accuracy"))
    monkeypatch.setattr(utility_claims, "decide_enclosed", lambda f, rel, bound, what="": decide_enclosed(f, "<", bound, what))
    broken = run_one("zealous.ex_thm12", Context(quick=True, data_dir=None))
    assert broken["verdict"] == "error" and "verified" not in {rd["verdict"] for rd in broken["readings"]}, broken["verdict"]


def test_thm16_a_witness_with_problems_is_no_verification(monkeypatch):
    """The same pattern in zealous.thm16: `non_strict if d_strict.holds or problems else refuted(...)` gave the strict
    reading the non-strict reading's outcome whenever Theorem 12's witness failed its validation (the ledger's rule on
    one outcome serving several readings then erred, by chance of how the outcomes were shared). Now the unvalidated
    refutation itself is the error, by the model rule."""
    from privclaims.checks.claims.zealous import utility_claims

    ctx = Context(quick=True, data_dir=None)
    assert run_one("zealous.thm16", ctx)["verdict"] != "error"
    real = utility_claims._strict_witness
    monkeypatch.setattr(utility_claims, "_strict_witness", lambda: (lambda w, p, g: (w, p + ["planted: not eps-DP"], g))(*real()))
    broken = run_one("zealous.thm16", ctx)
    strict_rows = [rd for rd in broken["readings"] if "strict" in rd["name"]]
    assert strict_rows and all(rd["verdict"] == "error" for rd in strict_rows), [rd["verdict"] for rd in strict_rows]
    assert all("the witness is not validated against the documents' model" in rd["why"] for rd in strict_rows)


# --------------------------------------------------------------------------- printed numbers


def tau_prime(U, m, eps, delta, tau):
    lam = mpmath.mpf(2 * m) / eps
    return tau + max(-lam * mpmath.log(2 - 2 * mpmath.exp(-1 / lam)), -lam * mpmath.log(2 * delta / (mpmath.mpf(U) * m / tau)))


def test_table6_2_by_hand():
    """m = 2, eps = 1 (lambda = 4), U = 500,000: tau' at the caption's delta = 0.01 is 71.9, ..; at delta = 0.001 it
    rounds to every printed value 81.1, 78.7, 78.6, 78.7, 79.3, 80.3, minimised at tau = 4."""
    printed = {1: "81.1", 3: "78.7", 4: "78.6", 5: "78.7", 7: "79.3", 9: "80.3"}
    at = {d: {t: tau_prime(500_000, 2, 1, mpmath.mpf(d), t) for t in printed} for d in ("0.01", "0.001")}
    assert all(mpmath.nstr(v, 3) == printed[t] for t, v in at["0.001"].items())
    assert all(mpmath.nstr(v, 3) != printed[t] for t, v in at["0.01"].items())
    assert min(at["0.001"], key=at["0.001"].get) == min(at["0.01"], key=at["0.01"].get) == 4
    # only U/delta enters: tau' = tau + 4 ln((U/delta)/tau); each printed value fixes U/delta to an interval
    half = mpmath.mpf("0.05")
    lo = max(t * mpmath.exp((mpmath.mpf(p) - half - t) / 4) for t, p in printed.items())
    hi = min(t * mpmath.exp((mpmath.mpf(p) + half - t) / 4) for t, p in printed.items())
    assert 4.96e8 < lo <= 5e8 < hi < 5.02e8 and lo > 5e7  # 500,000/0.001 inside, 500,000/0.01 (the caption) not
    r = row("zealous.table6_2")
    assert r["verdict"] == "discrepancy" and r["evidence"]["reproduced_by"] == "U/delta = 5*10^8: U = 500,000, delta = 1/1000"
    ratio = r["readings"][0]["parts"][2]["evidence"]["U_over_delta"]
    for key, end in (("lower_end", lo), ("upper_end", hi)):
        a, b = ratio[key]["decision"]["value"]["interval"]
        assert mpmath.mpf(a) <= end <= mpmath.mpf(b), (key, end)
    assert {k: v for k, v in r["evidence"]["computed"].items()} == {f"tau={t}": mpmath.nstr(v, 3) for t, v in at["0.01"].items()}
    rd = r["readings"][0]
    assert [p["verdict"] for p in rd["parts"]] == ["discrepancy", "verified", "verified"]


def test_table6_1_by_hand():
    """U = 500k, m = 5, tau = 1: delta = 1.25e6 e^{-(tau'-1)/lambda}; delta' = 2.5 e^{eps'(1 - tau'/5)}: at the header's
    eps' = 2m/lambda none of the printed delta' (2.5 e^-190 = 7.6e-83 for 1.4e-41); at eps' = m/lambda three of four."""
    cells = {(1, 100): ("1.3e-37", "1.4e-41"), (1, 200): ("4.7e-81", "5.2e-85"), (5, 100): ("3.2e-3", "1.4e-8"), (5, 200): ("6.5e-12", "2.9e-17")}
    delta = {c: 1_250_000 * mpmath.exp(-mpmath.mpf(c[1] - 1) / c[0]) for c in cells}
    header = {c: mpmath.mpf(5) / 2 * mpmath.exp(mpmath.mpf(10) / c[0] * (1 - mpmath.mpf(c[1]) / 5)) for c in cells}
    korolova = {c: mpmath.mpf(5) / 2 * mpmath.exp(mpmath.mpf(5) / c[0] * (1 - mpmath.mpf(c[1]) / 5)) for c in cells}
    two = lambda x: mpmath.nstr(x, 2, min_fixed=1, max_fixed=0).replace("e-0", "e-").replace("e+", "e")  # noqa: E731
    assert [two(delta[c]) == cells[c][0].replace("3.2e-3", "3.2e-3") for c in cells] == [True, True, False, True]
    assert not any(two(header[c]) == cells[c][1] for c in cells)
    assert sum(two(korolova[c]) == cells[c][1] for c in cells) == 3
    r = row("zealous.table6_1")
    assert r["verdict"] == "discrepancy"
    rd = r["readings"][0]
    assert [p["verdict"] for p in rd["parts"]] == ["discrepancy", "discrepancy", "unverifiable"]  # eps' = m/lambda: 3 of 4
    assert r["evidence"]["search_delta_prime"] == [{"eps_prime": "1 * m/lambda", "cells_reproduced": 3, "of": 4}]


def test_prop12_witness_by_hand():
    """m = 1, eps = 20/11 (lambda = 11/10), delta = 1/100: tau'(1) = 19.7378 < tau'(2) = 19.9754 (the ceiling), and
    tau'(11/10) = 19.7330 below both."""
    eps = mpmath.mpf(20) / 11
    t1, t2, tl = (tau_prime(500_000, 1, eps, mpmath.mpf("0.01"), t) for t in (1, 2, mpmath.mpf(11) / 10))
    assert tl < t1 < t2
    r = row("zealous.prop12")
    assert r["verdict"] == "refuted"
    wi = reading(r, "integer tau")["evidence"]["witness"]
    assert (wi["m"], wi["eps"], wi["argmin_tau"], wi["ceil(2m/eps)"]) == (1, "20/11", [1], 2)
    assert mpmath.nstr(t1, 8) == wi["tau_prime_at_argmin"] and mpmath.nstr(t2, 8) == wi["tau_prime_at_claimed"]
    assert mpmath.nstr(tl, 8) == reading(r, "real tau")["evidence"]["witness"]["tau_prime_at_2m/eps"]


def test_text_delta_order_witness_by_hand():
    """U = 500k, m = 5, tau = 1, lambda = 1/8 (eps' = 80), tau' = 11/2: delta = 1.25e6 e^{-36} = 2.9e-10 < delta' = 2.5
    e^{80 (1 - 1.1)} = 8.4e-4, both < 1."""
    d = 1_250_000 * mpmath.exp(-mpmath.mpf("4.5") * 8)
    dp = mpmath.mpf("2.5") * mpmath.exp(80 * (1 - mpmath.mpf("5.5") / 5))
    assert d < dp < 1
    w = part(row("zealous.text_delta_order")["readings"][0], "delta > delta' always")["evidence"]["witness"]
    assert (w["lambda"], w["tau_prime"]) == ("1/8", "11/2") and (w["delta"], w["delta_prime"]) == (mpmath.nstr(d, 3), mpmath.nstr(dp, 3))


def test_text_eps5_by_hand():
    """eps = 5, m = 1, tau = 1, delta = 0.001, U = 500,000: tau' = 1 + 0.4 ln(2.5e8) = 8.735, not ~10."""
    v = tau_prime(500_000, 1, 5, mpmath.mpf("0.001"), 1)
    assert mpmath.nstr(v, 4) == "8.735"
    r = row("zealous.text_eps5")
    p = part(r["readings"][0], "tau' ~ 10")
    assert p["verdict"] == "discrepancy" and p["evidence"]["computed"] == "8.735"


def test_text_superlinear_range_by_hand():
    """With lambda = tau = 2m/eps the linear term lambda ln(U eps/(4 delta)) dominates -lambda ln(2 - 2e^{-1/lambda}) for
    every m <= 40 (eps = 1): tau'/m is the constant 2 (1 + ln 1.25e8) over the experiments' range."""
    for m in range(1, 41):
        lam = mpmath.mpf(2 * m)
        assert lam * mpmath.log(mpmath.mpf(500_000) / (4 * mpmath.mpf("0.001"))) >= -lam * mpmath.log(2 - 2 * mpmath.exp(-1 / lam))
    r = row("zealous.text_superlinear")
    assert reading(r, "experiments' range")["verdict"] == "refuted" and reading(r, "asymptotic")["verdict"] == "verified"


def test_text_55_96_by_hand():
    """Table 6.3(A): keywords 6667 -> 2964 (55.5%), query pairs 331 -> 13 (96.1%), clicks 2813 -> 246 (91.3%): clicks
    (4.5M distinct, the largest printed domain) fall less than query pairs (3M)."""
    dec_ = {k: F(a - b, a) * 100 for k, (a, b) in {"keywords": (6667, 2964), "query_pairs": (331, 13), "clicks": (2813, 246)}.items()}
    assert int(dec_["keywords"]) == 55 and int(dec_["query_pairs"]) == 96 and dec_["clicks"] < dec_["query_pairs"]
    r = row("zealous.text_55_96")
    assert part(reading(r, "printed domain sizes"), "larger domains fall more")["verdict"] == "refuted"
    assert part(reading(r, "nested domains"), "larger domains fall more")["verdict"] == "verified"


def test_text_baseline_boundary_by_hand():
    """The empty output misses every item; Definition 10's strict formula counts only f > tau + xi, so an item at exactly
    tau + xi makes the inaccuracy 0 where 'the number of items with frequency at least tau + xi' is 1. Under the strict
    reading the statement is false: that reading is refuted (not a discrepancy; review finding 2), the total and the
    inability to retain each by the smallest log - one user posing one item, tau = xi = 1/2 (two users at tau = xi = 1
    with integer parameters) - re-read from the log and inside the model; the why says what was computed."""
    tau, xi, f = F(1, 2), F(1, 2), 1
    assert (1 if f > tau + xi else 0, 1 if f >= tau + xi else 0) == (0, 1)
    r = row("zealous.text_baseline")
    assert r["verdict"] == "reading-dependent"
    strict = reading(r, "Def. 10 strict")
    assert strict["verdict"] == "refuted"
    assert reading(r, "Def. 10 with very-(in)frequent")["verdict"] == "verified-bounded"
    assert part(strict, "inability to filter")["verdict"] == "verified-bounded"
    for name in ("total", "inability to retain"):
        p = part(strict, name)
        assert p["verdict"] == "refuted", (name, p)
        w, model = p["evidence"]["witness"], p["evidence"]["model"]
        assert (w["log"], w["freqs"], w["tau"], w["xi"]) == ({"u1": ["a"]}, {"a": 1}, "1/2", "1/2"), w
        assert w["computed"] == "0" and w["claimed"] == 1 and w["verified_by_exact"]
        assert model["valid"] and model["problems"] == [] and "nothing smaller" in model["minimal"]
        assert p["evidence"]["smallest_with_integer_tau_xi"]["log"] == {"u1": ["a"], "u2": ["a"]}
        assert "is 0, not the text's 1" in p["why"] and "Def. 10 strict" in p["why"]
    assert "false under Def. 10 strict" in r["why"]


def test_def_qsub_map_by_hand():
    """MAP as printed on original [x, y, z]: perfect list 1/1 + 2/2 + 3/3 = 3; empty list (every rank 0) 1 + 2 + 3 = 6."""
    perfect = sum(F(i + 1, i + 1) for i in range(3))
    empty = sum(F(i + 1, 0 + 1) for i in range(3))
    assert (perfect, empty) == (3, 6)
    mp = part(row("zealous.def_qsub")["readings"][0], "MAP")
    assert mp["verdict"] == "discrepancy" and mp["evidence"]["computed"] == {"MAP(perfect)": 3.0, "MAP(empty)": 6.0}


def test_every_definition3_claim_gets_both_orders():
    """The claims resting on Definition 3 receive both printed quantifier orders from the definition (not by hand)."""
    for cid in ("zealous.thm14", "zealous.text_step4", "zealous.prop9", "zealous.cor3"):
        names = {x["name"] for x in row(cid)["readings"]}
        assert any("per-pair split" in n for n in names) and any("per-input split" in n for n in names), cid


@pytest.mark.skipif(default_data_dir() is None or not (default_data_dir() / "aol-top1000").exists(), reason="no AOL substitute")
def test_figure_sentences_are_parts_on_real_data():
    """Each figure statement's sentences are parts of one statement, all tested on the real substitute."""
    for cid in ("zealous.fig6_5", "zealous.fig6_6a", "zealous.fig6_8"):
        r = row(cid)
        assert r["parts"] and all(p["data"] == ["aol-top1000"] for p in r["parts"])
        assert all(len(rd["parts"]) == len(r["parts"]) for rd in r["readings"])


# --------------------------------------------------------------------------- the model's validators


def test_model_validators_decide_both_ways():
    """The witnesses' model (theory/zealous/models.py) accepts the documents' logs and refuses what lies outside."""
    from privclaims.theory.zealous.models import (log_problems, neighbour_problems, parameter_problems, rational_power,
                                                  thm13_premise_problems, thm14_premise_problems)

    assert rational_power(F(1, 9), F(1, 2)) == F(1, 3) and rational_power(F(1, 2), F(1, 2)) is None
    assert rational_power(F(4), F(3, 2)) == 8
    a, b = (frozenset({"a"}),), (frozenset({"b"}),)
    assert log_problems(a, 1, ("a", "b")) == [] and log_problems((frozenset({"a", "b"}),), 1)
    assert neighbour_problems(a, b) == [] and neighbour_problems(a, a) and neighbour_problems(a, a + b)
    assert parameter_problems(1, F(1, 2), 1, rho=F(1, 9), integer_tau=False) == []
    assert parameter_problems(1, F(1, 2), 1, rho=F(1, 9)) and parameter_problems(1, 2, 0, rho=F(1, 2))
    # tau' < tau is an input ("positive numbers", no order); (6.5) decides whether it is a premise: with rho = 1/2 its
    # first term is 0, so tau' = 1 < tau = 2 fails it; with rho = 16/81, tau' = 7/4 meets both at delta = 3/4
    assert parameter_problems(1, 2, 1, rho=F(1, 2)) == [] and thm14_premise_problems(2, 1, 2, 1, F(1, 2), 4, F(1, 2))
    assert thm14_premise_problems(2, 1, 2, F(7, 4), F(16, 81), F(6561, 256), F(3, 4)) == []
    # Theorem 14's real-tau witness meets (6.4)-(6.5) at equality; a smaller delta or e^eps does not
    assert thm14_premise_problems(1, 1, F(1, 2), 1, F(1, 9), 81, F(1, 3)) == []
    assert thm14_premise_problems(1, 1, F(1, 2), 1, F(1, 9), 81, F(1, 4))
    assert thm14_premise_problems(1, 1, F(1, 2), 1, F(1, 9), 80, F(1, 3))
    # Theorem 13's witness: delta' = 1/8 is (6.3) at equality with e^eps' = 4, tau' = 2
    assert thm13_premise_problems(1, 1, 2, F(1, 2), 4, F(1, 8)) == []
    assert thm13_premise_problems(1, 1, 2, F(1, 2), 4, F(1, 9))
