"""A generated hostile suite (issue 16, item 5): invalid arguments for every public function, from one table.

``API`` has one line per public function: where it lives (``"module:attr"``), a builder of *valid*
keyword arguments, and the *kind* of each argument that the suite attacks (``delta="prob"``,
``t="time"``, ...). For each (function, argument) pair hypothesis replaces that one argument with
values drawn from ``HOSTILE[kind]`` - wrong types, NaN/inf, out-of-range numbers, unknown names, empty
collections, missing paths - and the call must raise :class:`privclaims.theory.errors.InvalidInput` (a one-line
message) within ``BUDGET`` seconds; never a bare TypeError / IndexError / ZeroDivisionError, a numpy or
gmpy2 traceback, a hang, or a silent answer. The valid call itself must succeed (so the table stays
honest: the error comes from the hostile argument).

* ``HUGE``: exponential enumerations (subsets of 40 outputs, a T = 24 chain's outputs, the ad optimum
  over C(60, 30) sets, ...) are refused at once, naming the polynomial alternative.
* ``TWINS``: exact and fast twins get the same hostile *and* boundary values; they must reject the
  same ones (item 2), and the fast twin's numeric outputs stay in their domains.
* The public ``privclaims`` package, when importable, is covered generically: every callable in the
  ``__all__`` of ``privclaims.dp`` etc. called with junk in each required argument must raise
  InvalidInput. To attack one of its functions argument by argument, add one ``Api(...)`` line.
  (Its classes — result dataclasses and re-exported input types — are accounted for in
  ``property_tests/test_privclaims_hostile.py``, with the CLI's flags.)
"""

from __future__ import annotations

import importlib
import inspect
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_tests.fractions_strategy import fractions

from privclaims.theory.errors import InvalidInput

BUDGET = 1.0  # seconds per hostile call
ROOT = Path(__file__).resolve().parent.parent
MISSING = ROOT / "no-such-dir" / "no-such-file.tsv"

# ------------------------------------------------------------------------------------ valid fixtures


def MECH():
    from privclaims.theory.dp.mechanism import finite_mechanism

    return finite_mechanism({"yes": {"yes": "3/4", "no": "1/4"}, "no": {"yes": "1/4", "no": "3/4"}}, [("yes", "no")])


def CHAIN():
    from privclaims.theory.maskit.model import markov_chain

    u = [["1/2", "1/4", "1/4"], ["1/4", "1/2", "1/4"], ["1/4", "1/4", "1/2"]]
    return markov_chain(["home", "office", "hospital"], ["1/2", "1/4", "1/4"], [u, u, u])  # T = 4


def P():
    return {"hospital": "1"}


def INST():
    from privclaims.theory.ads.model import ad_instance

    return ad_instance(["1/2", "1/2"], [["1/2", "1/4"], ["1/4", "1/2"], ["1/3", "1/3"]])


def ZP_FAST():
    from privclaims.theory.zealous.model import ZealousParams

    return ZealousParams.of(1, 2, 1, 3)


def ZP_EXACT():
    from privclaims.theory.zealous.model import ZealousParams

    return ZealousParams.of(1, None, 1, 3, rho="1/2")


def TABLE():
    from privclaims.theory.querygen.model import make_table

    rows = [("13053", "F", "flu"), ("13053", "M", "cold"), ("13068", "F", "flu"), ("13068", "M", "hiv"),
            ("13053", "F", "cold"), ("13068", "F", "cold")]
    return make_table(["zip", "sex", "disease"], rows)


def REQ():
    from privclaims.theory.querygen.model import PrivacyRequirement

    return PrivacyRequirement("disease", "3/2")


def AOL_FILE(tmp: Path) -> Path:
    p = tmp / "log.tsv"
    p.write_text("AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n1\tfoo\t2006-03-01 10:00:00\t1\thttp://a.com\n")
    return p


def USER_DIR(tmp: Path) -> Path:
    d = tmp / "users"
    d.mkdir(exist_ok=True)
    (d / "7.txt").write_text("foo\t2006-03-01 10:00:00\nhttp://a.com\n")
    return d


class RNG:
    def __init__(self, seed: int = 1):
        import random

        self._r = random.Random(seed)

    def randrange(self, n):
        return self._r.randrange(n)


def BITS():
    from privclaims.theory.noise.laplace import BitSource

    return BitSource(1)


# ------------------------------------------------------------------------------------ hostile values


class _Opaque:
    def __repr__(self) -> str:
        return "<opaque>"


JUNK = [None, _Opaque(), {}, b"x", "abc", float("nan"), float("inf"), -float("inf"), True, 1j]


def _rationals_outside(lo: str | None, hi: str | None, *, closed: bool = True) -> st.SearchStrategy:
    """Exact strings outside [lo, hi] (outside (lo, hi) when ``closed`` is False: the ends are hostile too)."""
    from fractions import Fraction

    out = []
    if lo is not None:
        out.append(fractions(max_value=Fraction(lo)).filter(lambda x, l=Fraction(lo): (x < l) if closed else (x <= l)))
    if hi is not None:
        out.append(fractions(min_value=Fraction(hi)).filter(lambda x, h=Fraction(hi): (x > h) if closed else (x >= h)))
    return st.one_of(*out).map(lambda f: f"{f.numerator}/{f.denominator}")


def _ints_outside(lo: int | None, hi: int | None) -> st.SearchStrategy:
    parts = []
    if lo is not None:
        parts.append(st.integers(max_value=lo - 1))
    if hi is not None:
        parts.append(st.integers(min_value=hi + 1))
    return st.one_of(*parts)


_NOT_INT = st.sampled_from(JUNK + [1.5, "1/2", [1]])
_NOT_INT_BUT_NONE = st.sampled_from([x for x in JUNK if x is not None] + [1.5, "1/2", [1]])

HOSTILE: dict[str, st.SearchStrategy] = {
    "prob": st.one_of(st.sampled_from(JUNK + [0.5, [0.5]]), _rationals_outside("0", "1")),
    "open_unit": st.one_of(st.sampled_from(JUNK + [0.5, "0", "1"]), _rationals_outside("0", "1", closed=False)),
    "open_unit_f": st.one_of(st.sampled_from([x for x in JUNK if not isinstance(x, float)] + ["0", "1", 0.0, 1.0]),
                             _rationals_outside("0", "1", closed=False)),  # a float twin's (0, 1): floats allowed
    "pos": st.one_of(st.sampled_from(JUNK + ["0"]), _rationals_outside("0", None, closed=False)),
    "eps": st.one_of(st.sampled_from(JUNK), _rationals_outside("0", None)),
    "int_pos": st.one_of(_NOT_INT, _ints_outside(1, None)),
    "int": _NOT_INT,
    "opt_int_pos": st.one_of(_NOT_INT_BUT_NONE, _ints_outside(1, None)),  # None = "no limit" is valid
    "pos_float": st.sampled_from([None, _Opaque(), "abc", 0.0, -1.0, float("nan"), float("inf"), True, 1e300]),
    "nat": st.one_of(st.sampled_from([None, _Opaque(), "abc", 1.5, float("nan"), True, [1]]), _ints_outside(0, None)),
    "seed": st.one_of(st.sampled_from([None, _Opaque(), "abc", 1.5, float("nan"), True, [1]]), _ints_outside(0, None)),
    "time": st.one_of(_NOT_INT, _ints_outside(1, 4)),        # CHAIN() has T = 4
    "time0": st.one_of(_NOT_INT, _ints_outside(0, 4)),       # 0 = "start"
    "ctx_index": st.one_of(_NOT_INT, _ints_outside(0, 2)),   # CHAIN() has n = 3
    "context": st.sampled_from([None, "nowhere", 3, ("home",), _Opaque()]),
    "contexts": st.sampled_from([None, 3, [], ["nowhere"], [["home"]], _Opaque()]),
    "ads": st.sampled_from([None, 3, "ab", ["a"], [-1], [99], [0, 0], [1.5], _Opaque()]),
    "k": st.one_of(_NOT_INT, _ints_outside(1, 3)),           # INST() has 3 ads
    "counts": st.sampled_from([None, 3, "abc", [3, -1], [1.5], [float("nan")], [None], ["a"], [True]]),
    "quantifier": st.sampled_from([None, "both", 3, "PAIR", _Opaque()]),
    "path": st.sampled_from([None, 3, "", str(MISSING), MISSING, ROOT]),      # ROOT: a directory, not a file
    "dir": st.sampled_from([None, 3, "", str(MISSING), MISSING, ROOT / "README.md"]),
    "rng": st.sampled_from([None, 3, "abc", _Opaque()]),
    "mech": st.sampled_from(JUNK + [[("yes", "no")], {"yes": {"yes": 1}}]),
    "chain": st.sampled_from(JUNK + [[[1]], {"contexts": ["a"]}]),
    "inst": st.sampled_from(JUNK + [[[1]], {"weights": [1]}]),
    "params": st.sampled_from(JUNK + [(1, 2, 1, 2), {"m": 1}]),
    "table": st.sampled_from(JUNK + [[("a", "b")]]),
    "output": st.sampled_from([None, 3, [0, 0, 0, 0, 0], [7], ["home"], [1.5], _Opaque()]),
    "hist": st.sampled_from([None, 3, "abc", {"a": -1}, {"a": 1.5}, {"a": float("nan")}, {"a": "x"}, {"a": None}]),
}


# ------------------------------------------------------------------------------------ the table


@dataclass
class Api:
    """One public function: ``where`` = "module:attr[.attr]", ``valid()`` -> kwargs that work, ``kinds`` = what to attack."""

    where: str
    valid: Callable[..., dict[str, Any]]
    kinds: dict[str, str] = field(default_factory=dict)

    def fn(self) -> Callable[..., Any]:
        mod, _, attr = self.where.partition(":")
        obj: Any = importlib.import_module(mod)
        for a in attr.split("."):
            obj = getattr(obj, a)
        return obj


def api(where: str, valid: Callable[..., dict[str, Any]], **kinds: str) -> Api:
    return Api(where, valid, kinds)


D = "privclaims.theory.dp.exact"
DF = "privclaims.theory.dp.fast"
ME = "privclaims.theory.maskit.exact"
MF = "privclaims.theory.maskit.fast"
AE = "privclaims.theory.ads.exact"
AF = "privclaims.theory.ads.fast"
ZE = "privclaims.theory.zealous.exact"
ZF = "privclaims.theory.zealous.fast"
QE = "privclaims.theory.querygen.exact"
QF = "privclaims.theory.querygen.fast"

API: list[Api] = [
    # dp, both twins (Definitions 2-4)
    *[api(f"{m}:is_differentially_private", lambda: dict(mech=MECH(), eps="11/10"), mech="mech", eps="eps") for m in (D, DF)],
    *[api(f"{m}:probabilistic_dp_delta", lambda: dict(mech=MECH(), eps="1", quantifier="pair"), mech="mech", eps="eps", quantifier="quantifier") for m in (D, DF)],
    *[api(f"{m}:is_probabilistically_private", lambda: dict(mech=MECH(), eps="1", delta="1/10"), mech="mech", eps="eps", delta="prob") for m in (D, DF)],
    *[api(f"{m}:indistinguishability_delta", lambda: dict(mech=MECH(), eps="1"), mech="mech", eps="eps") for m in (D, DF)],
    *[api(f"{m}:is_indistinguishable", lambda: dict(mech=MECH(), eps="1", delta="1/10"), mech="mech", eps="eps", delta="prob") for m in (D, DF)],
    api(f"{D}:is_indistinguishable_by_subsets", lambda: dict(mech=MECH(), eps="1", delta="1/10"), mech="mech", eps="eps", delta="prob"),
    api(f"{D}:smallest_exp_epsilon", lambda: dict(mech=MECH()), mech="mech"),
    api(f"{D}:hockey_stick", lambda: dict(mech=MECH(), L="yes", Lp="no", eps="1"), mech="mech", L="context", Lp="context", eps="eps"),
    api(f"{D}:breaching_outputs", lambda: dict(mech=MECH(), L="yes", Lp="no", eps="1"), mech="mech", L="context", eps="eps"),
    # maskit, both twins
    *[api(f"{m}:posterior_belief", lambda: dict(chain=CHAIN(), p=P(), outputs=[0, 1, None, None], t=2, s="hospital"),
          t="time", s="context", outputs="output") for m in (ME, MF)],
    *[api(f"{m}:transition_probability", lambda: dict(chain=CHAIN(), t1=1, i=0, t2=3), t1="time0", i="ctx_index", t2="time") for m in (ME, MF)],
    *[api(f"{m}:possible_states", lambda: dict(chain=CHAIN(), t_last=1, i_last=0, t_now=3), t_last="time0", i_last="ctx_index", t_now="time") for m in (ME, MF)],
    *[api(f"{m}:is_private", lambda: dict(chain=CHAIN(), p=P(), S=["hospital"], delta="1/2"), S="contexts", delta="open_unit") for m in (ME, MF)],
    *[api(f"{m}:max_breach", lambda: dict(chain=CHAIN(), p=P(), S=["hospital"]), S="contexts") for m in (ME, MF)],
    *[api(f"{m}:supp", lambda: dict(chain=CHAIN(), S=["hospital"], delta="1/2", i=0, t=1), S="contexts", delta="open_unit", i="ctx_index", t="time0") for m in (ME, MF)],
    *[api(f"{m}:okay_to_release", lambda: dict(chain=CHAIN(), S=["hospital"], delta="1/2", prefix=[0]), S="contexts", delta="open_unit") for m in (ME, MF)],
    api(f"{ME}:max_breach_naive", lambda: dict(chain=CHAIN(), p=P(), S=["hospital"]), S="contexts"),
    api(f"{ME}:is_private_naive", lambda: dict(chain=CHAIN(), p=P(), S=["hospital"], delta="1/2"), S="contexts", delta="open_unit"),
    api(f"{ME}:simulatable_posterior", lambda: dict(chain=CHAIN(), t=2, s=0, t1=1, i1=0, t2=3, j2=1), t="time", s="ctx_index", t1="time0", j2="ctx_index"),
    api("privclaims.theory.maskit.search:greedy_mondrian", lambda: dict(chain=CHAIN(), S=["hospital"], delta="1/2", d=2), S="contexts", delta="open_unit", d="int_pos"),
    api(f"{MF}:greedy_mondrian", lambda: dict(chain=CHAIN(), S=["hospital"], delta="1/2", d=2), S="contexts", delta="open_unit", d="int_pos"),
    # ads, both twins
    *[api(f"{m}:expected_revenue", lambda: dict(inst=INST(), ads=[0, 1]), inst="inst", ads="ads") for m in (AE, AF)],
    *[api(f"{m}:greedy", lambda: dict(inst=INST(), k=2), inst="inst", k="k") for m in (AE, AF)],
    *[api(f"{m}:optimum", lambda: dict(inst=INST(), k=2), inst="inst", k="k") for m in (AE, AF)],
    *[api(f"{m}:client_choice", lambda: dict(inst=INST(), ads=[0, 1], context=0), inst="inst", ads="ads") for m in (AE, AF)],
    # count
    api("privclaims.theory.count.model:CountParams", lambda: dict(sigma2="47", t="1/10", n_users=20), sigma2="pos", t="prob", n_users="int_pos"),
    api("privclaims.theory.count.exact_privacy:is_probabilistically_private", lambda: dict(eps="1/2", delta="1/100", sigma2="47"), eps="pos", delta="open_unit", sigma2="pos"),
    api("privclaims.theory.count.fast_privacy:is_probabilistically_private", lambda: dict(eps="1/2", delta="1/100", sigma2="47"), eps="pos", delta="open_unit_f", sigma2="pos"),
    # zealous
    api(f"{ZE}:release_distribution", lambda: dict(hist={"a": 3, "b": 1}, params=ZP_EXACT()), hist="hist", params="params"),
    api(f"{ZE}:release_probability", lambda: dict(count=3, params=ZP_EXACT()), count="nat", params="params"),
    api(f"{ZE}:zealous", lambda: dict(hist={"a": 3}, params=ZP_FAST(), seed=1), hist="hist", params="params", seed="seed"),
    api(f"{ZF}:zealous", lambda: dict(hist={"a": 3}, params=ZP_FAST(), seed=1), hist="hist", params="params", seed="seed"),
    api(f"{ZF}:zealous_counts", lambda: dict(counts=np.array([3, 5]), params=ZP_FAST(), seed=1), params="params", seed="seed"),
    api("privclaims.theory.zealous.loaders:load_aol", lambda tmp: dict(path=AOL_FILE(tmp)), path="path"),
    api("privclaims.theory.zealous.loaders:load_user_file", lambda tmp: dict(path=USER_DIR(tmp) / "7.txt"), path="path"),
    api("privclaims.theory.zealous.loaders:load_user_dir", lambda tmp: dict(directory=USER_DIR(tmp)), directory="dir", limit="opt_int_pos"),
    api("privclaims.theory.count.aol:read_user_log", lambda tmp: dict(path=USER_DIR(tmp) / "7.txt"), path="path"),
    api("privclaims.theory.count.aol:read_aol", lambda tmp: dict(root=USER_DIR(tmp)), root="dir", max_users="opt_int_pos"),
    api("privclaims.theory.maskit.data:read_plt", lambda tmp: dict(path=AOL_FILE(tmp)), path="path"),
    # querygen
    *[api(f"{m}:guessing_entropy_of_counts", lambda: dict(counts=[3, 1]), counts="counts") for m in (QE, QF)],
    *[api(f"{m}:shannon_entropy_of_counts", lambda: dict(counts=[3, 1]), counts="counts") for m in (QE, QF)],
    api(f"{QE}:shannon_entropy_interval", lambda: dict(counts=[3, 1], iv=__import__("mpmath").iv), counts="counts"),
    *[api(f"{m}:generalize", lambda: dict(table=TABLE(), query={"zip": "13053", "sex": "F"}, req=REQ(), strategy="best_fit"),
          table="table", strategy="quantifier") for m in (QE, QF)],
    api("privclaims.theory.querygen.model:PrivacyRequirement", lambda: dict(attribute="disease", g_min="3/2"), g_min="eps"),
    # noise samplers
    api("privclaims.theory.noise.discrete_gaussian:discrete_gaussian", lambda: dict(sigma2="2", rng=RNG()), sigma2="pos", rng="rng"),
    api("privclaims.theory.noise.discrete_gaussian:discrete_laplace", lambda: dict(t=2, rng=RNG()), t="int_pos", rng="rng"),
    api("privclaims.theory.noise.discrete_gaussian:discrete_gaussian_pmf_float", lambda: dict(sigma2=2.0, support=3), sigma2="pos_float", support="nat"),
    api("privclaims.theory.noise.laplace:discrete_laplace", lambda: dict(scale="2", bits=BITS()), scale="pos", bits="rng"),
    api("privclaims.theory.noise.laplace:laplace_on_grid", lambda: dict(lam="2", granularity="1/4", bits=BITS()), lam="pos", granularity="pos", bits="rng"),
    api("privclaims.theory.noise.laplace:grid_tail_probability", lambda: dict(x_steps=2, r="1/2"), x_steps="nat", r="open_unit"),
    api("privclaims.theory.noise.laplace:discrete_laplace_pmf", lambda: dict(k=2, r="1/2"), k="int", r="open_unit"),
]


def _kwargs(entry: Api, tmp: Path) -> dict[str, Any]:
    return entry.valid(tmp) if inspect.signature(entry.valid).parameters else entry.valid()


def _within_budget(fn: Callable[[], Any]) -> InvalidInput:
    t0 = time.perf_counter()
    with pytest.raises(InvalidInput) as e:
        fn()
    took = time.perf_counter() - t0
    assert took < BUDGET, f"took {took:.2f} s to refuse"
    msg = str(e.value)
    assert msg and "\n" not in msg, msg
    return e.value


@pytest.mark.parametrize("entry", API, ids=lambda e: e.where)
def test_valid_call_succeeds(entry, tmp_path):
    """The table's valid arguments work, so each hostile failure below is caused by the hostile argument."""
    entry.fn()(**_kwargs(entry, tmp_path))


CASES = [(e, arg) for e in API for arg in e.kinds]


@pytest.mark.parametrize("entry,arg", CASES, ids=[f"{e.where}-{a}" for e, a in CASES])
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow], deadline=None)
@given(data=st.data())
def test_hostile_argument_is_refused(entry, arg, data, tmp_path):
    kwargs = _kwargs(entry, tmp_path)
    kwargs[arg] = data.draw(HOSTILE[entry.kinds[arg]], label=arg)
    fn = entry.fn()
    _within_budget(lambda: fn(**kwargs))


# ------------------------------------------------------------------------------------ huge sizes


def _chain(n: int, T: int):
    from privclaims.theory.maskit.model import markov_chain

    row = [f"1/{n}"] * n
    return markov_chain([f"c{i}" for i in range(n)], row, [[row] * n] * (T - 1))


def _mech_outputs(k: int):
    from privclaims.theory.dp.mechanism import finite_mechanism

    return finite_mechanism({0: {o: f"1/{k}" for o in range(k)}, 1: {o: f"1/{k}" for o in range(k)}}, [(0, 1)])


def _big_ads(m: int):
    from privclaims.theory.ads.model import ad_instance

    return ad_instance(["1/2", "1/2"], [["1/2", "1/3"]] * m)


HUGE = {
    "dp.is_indistinguishable_by_subsets(40 outputs)": (lambda: importlib.import_module(D).is_indistinguishable_by_subsets(_mech_outputs(40), "1", "1/10"), "is_indistinguishable"),
    "maskit.max_breach_naive(T=24)": (lambda: importlib.import_module(ME).max_breach_naive(_chain(4, 24), {"c0": "1"}, ["c0"]), "max_breach"),
    "maskit.is_private_naive(T=24)": (lambda: importlib.import_module(ME).is_private_naive(_chain(4, 24), {"c0": "1"}, ["c0"], "1/2"), "max_breach"),
    "maskit.output_distribution(T=24)": (lambda: importlib.import_module(ME).output_distribution(_chain(4, 24), {"c0": "1"}), "max_breach"),
    "ads.exact.optimum(C(60,30))": (lambda: importlib.import_module(AE).optimum(_big_ads(60), 30), "greedy"),
    "ads.fast.optimum(C(60,30))": (lambda: importlib.import_module(AF).optimum(_big_ads(60), 30), "greedy"),
    "ads.exact.optimum_alt(2^60)": (lambda: importlib.import_module(AE).optimum_alt(_big_ads(60), "1/10"), "greedy"),
    "noise.discrete_gaussian_pmf_float(sigma2=1e300)": (lambda: importlib.import_module("privclaims.theory.noise.discrete_gaussian").discrete_gaussian_pmf_float(1e300, 3), "smaller"),
    "zealous.fast.zealous(count 2^60)": (lambda: importlib.import_module(ZF).zealous({"q": 2 ** 60}, ZP_FAST(), 1), "2^53"),
    "zealous.fast.zealous_counts(count 2^60)": (lambda: importlib.import_module(ZF).zealous_counts(np.array([2 ** 60]), ZP_FAST(), 1), "2^53"),
}


@pytest.mark.parametrize("case", list(HUGE))
def test_huge_work_refused_at_once(case):
    thunk, names = HUGE[case]
    err = _within_budget(thunk)
    assert names in str(err), str(err)


# ------------------------------------------------------------------------------------ twins reject alike

BOUNDARY: dict[str, list[Any]] = {
    "prob": ["0", "1", "1/2", 0, 1, "-1/10", "11/10", 0.5, float("nan"), None, "abc", True],
    "eps": ["0", "1", "ln(3)", "-1", 1.5, float("inf"), None, True],
    "quantifier": ["pair", "input", "both", None],
    "time": [1, 4, 0, -1, 5, 2.0, True, None],
    "time0": [0, 1, 4, -1, 5, None],
    "ctx_index": [0, 2, -1, 3, None, 1.5],
    "contexts": [["hospital"], ["home", "office"], [], ["nowhere"], None, 3],
    "open_unit": ["1/2", "0", "1", "-1", 0.5, None],
    "int_pos": [1, 2, 0, -1, 1.5, None, True],
    "k": [1, 3, 0, 4, 1.5, None],
    "ads": [[0], [0, 2], [], [3], [-1], [0, 0], None],
    "counts": [[3, 1], [0, 0], [], [3, -1], [1.5], [2.0], None, "ab"],
    "seed": [0, 1, -1, 1.5, None],
    "hist": [{"a": 3}, {}, {"a": -1}, {"a": 2.0}, {"a": 1.5}, None],
    "output": [[0, 1, None, 2], [None], [], [0, 0, 0, 0, 0], [7], None],
    "params": [None, {}],
}

TWINS = [(e, f) for e in API for f in API if e.where.startswith(("privclaims.theory.dp.exact:", "privclaims.theory.maskit.exact:", "privclaims.theory.ads.exact:",
                                                                  "privclaims.theory.querygen.exact:", "privclaims.theory.zealous.exact:"))
         and f.where == e.where.replace(".exact:", ".fast:") and e.kinds == f.kinds]


def _rejects(fn: Callable[[], Any]) -> bool:
    try:
        fn()
    except InvalidInput:
        return True
    return False


@pytest.mark.parametrize("exact,fast", TWINS, ids=[e.where.split(":")[1] + "@" + e.where.split(".")[1] for e, _ in TWINS])
def test_twins_reject_the_same_arguments(exact, fast, tmp_path):
    """Issue 16, item 2: every boundary or hostile value the exact twin rejects, the fast twin rejects (and conversely)."""
    fe, ff = exact.fn(), fast.fn()
    for arg, kind in exact.kinds.items():
        for v in BOUNDARY.get(kind, []):
            ke, kf = _kwargs(exact, tmp_path), _kwargs(fast, tmp_path)
            ke[arg] = kf[arg] = v
            re_, rf = _rejects(lambda: fe(**ke)), _rejects(lambda: ff(**kf))
            assert re_ == rf, f"{arg} = {v!r}: exact {'rejects' if re_ else 'accepts'}, fast {'rejects' if rf else 'accepts'}"


def test_fast_outputs_stay_in_their_domains():
    """δ and beliefs from the fast twins lie in [0, 1] (clipped upward-safe), on mechanisms where float sums exceed 1."""
    from privclaims.theory.dp import fast
    from privclaims.theory.dp.mechanism import finite_mechanism

    k = 10
    mech = finite_mechanism({0: {o: f"1/{k}" for o in range(k)}, 1: {k + o: f"1/{k}" for o in range(k)}}, [(0, 1)])
    for q in ("pair", "input"):
        d, _ = fast.probabilistic_dp_delta(mech, "1", q)
        assert d == 1.0  # the float sum with the safety margin exceeds 1; reported as 1, still an upper bound
    h, _ = fast.indistinguishability_delta(mech, "1")
    assert 0.0 <= h <= 1.0
    from privclaims.theory.maskit import fast as MF_

    ch = CHAIN()
    for t in range(1, ch.T + 1):
        for s in ch.contexts:
            assert 0.0 <= MF_.posterior_belief(ch, P(), [None] * ch.T, t, s) <= 1.0


# ------------------------------------------------------------------------------------ the privclaims API

PRIVCLAIMS_MODULES = ("dp", "maskit", "ads", "count", "zealous", "querygen")


def _privclaims_callables() -> list[tuple[str, Callable[..., Any]]]:
    try:
        pc = importlib.import_module("privclaims")
    except ImportError:
        return []
    out = []
    for name in PRIVCLAIMS_MODULES:
        try:
            mod = importlib.import_module(f"privclaims.{name}")
        except ImportError:
            continue
        for attr in getattr(mod, "__all__", []):
            obj = getattr(mod, attr, None)
            if inspect.isfunction(obj):  # classes (results, re-exported input types): test_privclaims_hostile.py
                out.append((f"privclaims.{name}.{attr}", obj))
    del pc
    return out


PC = _privclaims_callables()


@pytest.mark.skipif(not PC, reason="the privclaims package is not importable here")
@pytest.mark.parametrize("name,fn", PC or [("none", None)], ids=[n for n, _ in PC] or ["none"])
@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None, max_examples=20)
@given(junk=st.sampled_from(JUNK[:3] + [str(MISSING), float("nan"), -1]))
def test_privclaims_callable_refuses_junk(name, fn, junk):
    """Every public callable of privclaims, with junk in every required argument, raises InvalidInput in budget."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        pytest.skip(f"{name}: no signature")
    required = [p for p in sig.parameters.values() if p.default is inspect.Parameter.empty
                and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    if not required:
        pytest.skip(f"{name}: no required argument to attack")
    args = [junk for p in required if p.kind is not p.KEYWORD_ONLY]
    kwargs = {p.name: junk for p in required if p.kind is p.KEYWORD_ONLY}
    _within_budget(lambda: fn(*args, **kwargs))
