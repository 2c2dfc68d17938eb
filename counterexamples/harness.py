"""The search harness: a search states its bound and encoding, and returns either a witness that
the exact twin re-verified, or "none up to bound" with solver statistics. Timeouts are explicit.

Two engines share :class:`SearchResult`:

* :func:`z3_search` - the caller adds constraints to a fresh ``z3.Solver`` (in a fresh z3 context: ``build``
  makes every z3 term itself) and says how to read a
  witness (exact rationals, :func:`model_rational`) from a model; the witness counts only if the
  caller's ``verify`` (the exact twin) confirms it.
* :func:`exhaustive_search` - enumerate candidates up to a bound; same contract.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from privclaims.theory.numbers import Q

if TYPE_CHECKING:  # z3 is imported by the searches that use it, not when a check module is imported
    import z3


class NonRationalWitness(ValueError):
    """The model assigned an algebraic (irrational) number; add constraints or read an approximation."""


@dataclass
class SearchResult:
    status: str  # "witness" | "none-up-to-bound" | "timeout" | "unknown" | "spurious"
    bound: str
    encoding: str
    witness: Any = None
    verified_by_exact: bool | None = None
    statistics: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def found(self) -> bool:
        """A witness that the exact twin confirmed."""
        return self.status == "witness" and bool(self.verified_by_exact)

    @property
    def exhausted(self) -> bool:
        """The whole bounded space was searched without a counterexample."""
        return self.status == "none-up-to-bound"

    def as_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "bound": self.bound,
            "encoding": self.encoding,
            "witness": self.witness,
            "verified_by_exact": self.verified_by_exact,
            "statistics": self.statistics,
        }


def model_rational(model: z3.ModelRef, term: z3.ExprRef) -> Any:
    """The exact rational a model gives ``term`` (:class:`NonRationalWitness` if algebraic)."""
    import z3

    v = model.eval(term, model_completion=True)
    if z3.is_int_value(v):
        return Q(v.as_long())
    if z3.is_rational_value(v):
        f = v.as_fraction()
        return Q(Fraction(f.numerator, f.denominator))
    if z3.is_algebraic_value(v):
        raise NonRationalWitness(f"{term} = {v} is algebraic, not rational")
    if z3.is_true(v) or z3.is_false(v):
        return z3.is_true(v)
    raise NonRationalWitness(f"cannot read {term} = {v} as a rational")


def _stats(s: z3.Solver) -> dict[str, Any]:
    st = s.statistics()
    keep = {}
    for k in st.keys():
        # deterministic ones only: "max memory" varies, "rlimit count" accumulates over the whole process
        if k in ("conflicts", "decisions", "propagations", "arith conflicts"):
            keep[k] = st.get_key_value(k)
    return keep


@contextlib.contextmanager
def fresh_z3_context() -> Iterator[z3.Context]:
    """Run the block with a fresh z3 context as z3's default one (``z3.Real(...)``, ``z3.Solver()`` inside it use it).

    z3's model of a satisfiable query - the witness a search records - depends on every term created earlier in
    the same context, so in a ledger run it depended on which claims a worker process had checked before (a pinned
    witness moved from 5/48 to 23/256 with the order of the run). A fresh context per search makes the answer a
    function of the query alone. z3 objects made inside must not be used after the block."""
    import z3
    import z3.z3 as _z3_core

    saved = _z3_core._main_ctx
    ctx = z3.Context()
    _z3_core._main_ctx = ctx
    try:
        yield ctx
    finally:
        _z3_core._main_ctx = saved


def _undecided(s: z3.Solver, bound: str, encoding: str, stats: dict[str, Any], seconds: float) -> SearchResult:
    """The result of a check z3 answered ``unknown``: ``timeout`` when its reason says so, else ``unknown``."""
    reason = s.reason_unknown()
    status = "timeout" if "timeout" in reason or "canceled" in reason else "unknown"
    return SearchResult(status, bound, encoding, statistics={**stats, "reason": reason}, seconds=seconds)


def z3_search(
    build: Callable[[z3.Solver], Any],
    decode: Callable[[z3.ModelRef, Any], Any],
    verify: Callable[[Any], bool],
    *,
    bound: str,
    encoding: str,
    timeout_ms: int = 60_000,
) -> SearchResult:
    """Ask z3 for a model of the counterexample encoding.

    ``build(solver)`` adds the constraints and returns the variables; ``decode(model, vars)``
    reads an exact witness; ``verify(witness)`` re-checks it with the exact twin.
    ``unsat`` means none exists within ``bound``; ``unknown`` (incl. timeout) means undecided.
    """
    import z3

    t0 = time.perf_counter()
    with fresh_z3_context():
        s = z3.Solver()
        s.set("timeout", int(timeout_ms))
        variables = build(s)
        res = s.check()
        stats = _stats(s)
        secs = time.perf_counter() - t0
        if res == z3.unsat:
            return SearchResult("none-up-to-bound", bound, encoding, statistics=stats, seconds=secs)
        if res == z3.unknown:
            return _undecided(s, bound, encoding, stats, secs)
        witness = decode(s.model(), variables)
    ok = bool(verify(witness))
    return SearchResult("witness" if ok else "spurious", bound, encoding, witness, ok, stats, time.perf_counter() - t0)


def z3_search_cases(
    build: Callable[[z3.Solver], tuple[Any, list[Any]]],
    decode: Callable[[z3.ModelRef, Any], Any],
    verify: Callable[[Any], bool],
    *,
    bound: str,
    encoding: str,
    timeout_ms: int = 60_000,
) -> SearchResult:
    """:func:`z3_search` of an encoding ``base ∧ (case_1 ∨ … ∨ case_r)``, decided one case at a time.

    ``build(solver)`` adds ``base`` and returns ``(variables, cases)``. The disjunction is satisfiable iff some
    ``base ∧ case_i`` is, so the encoding is unsatisfiable iff every case is (each checked inside push/pop on the one
    solver); the first satisfiable case's model is the witness, decoded and re-verified as in :func:`z3_search`. A
    case z3 leaves undecided makes the search undecided. ``timeout_ms`` bounds the whole search. Solver statistics
    are the solver's totals over the cases checked, with ``"cases checked"``. (issue 25: Lemma 11 at |A| = 5, 3 contexts, k = 3 is
    3.6 CPU s as one disjunction and 0.8 s case by case.)"""
    import z3

    t0 = time.perf_counter()
    with fresh_z3_context():
        s = z3.Solver()
        variables, cases = build(s)
        stats: dict[str, Any] = {"cases checked": 0}
        for case in cases:
            left = int(timeout_ms - 1000 * (time.perf_counter() - t0))
            if left <= 0:
                return SearchResult("timeout", bound, encoding, statistics={**stats, "reason": "timeout"},
                                    seconds=time.perf_counter() - t0)
            s.set("timeout", left)
            s.push()
            s.add(case)
            res = s.check()
            stats["cases checked"] += 1
            stats.update(_stats(s))  # the solver's totals: z3 accumulates them over the checks of one solver
            if res == z3.unknown:
                return _undecided(s, bound, encoding, stats, time.perf_counter() - t0)
            if res == z3.sat:
                witness = decode(s.model(), variables)
                break
            s.pop()
        else:
            return SearchResult("none-up-to-bound", bound, encoding, statistics=stats, seconds=time.perf_counter() - t0)
    ok = bool(verify(witness))
    return SearchResult("witness" if ok else "spurious", bound, encoding, witness, ok, stats, time.perf_counter() - t0)


def exhaustive_search(
    candidates: Iterable[Any],
    is_counterexample: Callable[[Any], bool],
    *,
    bound: str,
    encoding: str,
    verify: Callable[[Any], bool] | None = None,
    time_limit: float | None = None,
    describe: Callable[[Any], Any] = lambda w: w,
) -> SearchResult:
    """Enumerate ``candidates``; the first counterexample (re-verified by ``verify`` if given) wins."""
    t0 = time.perf_counter()
    n = 0
    for c in candidates:
        n += 1
        if is_counterexample(c):
            ok = True if verify is None else bool(verify(c))
            return SearchResult("witness" if ok else "spurious", bound, encoding, describe(c), ok,
                                {"candidates_examined": n}, time.perf_counter() - t0)
        if time_limit is not None and time.perf_counter() - t0 > time_limit:
            return SearchResult("timeout", bound, encoding, statistics={"candidates_examined": n},
                                seconds=time.perf_counter() - t0)
    return SearchResult("none-up-to-bound", bound, encoding, statistics={"candidates_examined": n},
                        seconds=time.perf_counter() - t0)
