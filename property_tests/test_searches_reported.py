"""Every ``verified_bounded`` a check builds from a search reports that search in its evidence, so the ledger can ask
whether it certifies the verdict (``checks/evidence.search_contradictions``: a search that found a counterexample, or
did not search the bound the outcome names, makes the row an error).

Read from the checks' source (AST): a call ``verified_bounded(bound=...)`` whose bound reads ``X.bound`` (directly, or
through ``b = X.bound`` in the same function) must pass the search ``X`` whole in another argument (``search=X``,
``search=summary(X)``, ``search=X.as_json()``, ``property=X``, ``searches={"a": X}``) or in a ``**ev`` whose assignment
in the same function does; mentioning it otherwise (``seconds=X.seconds``) does not report it. What it cannot see: a
bound built by another function, a search reported under another name, ``verified_bounded`` imported under another
name."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECKS = ROOT / "checks" / "claims"


def _reported(value: ast.AST) -> set[str]:
    """The search expressions an argument value passes whole: ``X``, ``summary(X)``, ``X.as_json()``, and those in a
    dict, list or tuple literal (``{"a": X}``, ``[X, Y]``)."""
    if isinstance(value, (ast.Dict, ast.List, ast.Tuple, ast.Set)):
        items = list(value.values) if isinstance(value, ast.Dict) else list(value.elts)
        return set().union(*(_reported(v) for v in items if v is not None)) if items else set()
    if isinstance(value, ast.Call):
        if isinstance(value.func, ast.Attribute) and value.func.attr == "as_json":
            return {ast.unparse(value.func.value)}
        return {ast.unparse(a) for a in value.args}
    return {ast.unparse(value)}


def _bound_searches(call: ast.Call, assigned: dict[str, ast.AST]) -> set[str]:
    """The search expressions ``X`` whose ``X.bound`` the call's ``bound`` argument reads (also through a name assigned
    in the same function: ``b = X.bound``)."""
    bound = next((k.value for k in call.keywords if k.arg == "bound"), call.args[0] if call.args else None)
    if bound is None:
        return set()
    if isinstance(bound, ast.Name) and bound.id in assigned:
        bound = assigned[bound.id]
    return {ast.unparse(a.value) for a in ast.walk(bound) if isinstance(a, ast.Attribute) and a.attr == "bound"}


def unreported(tree: ast.Module, where: str) -> list[str]:
    """The ``verified_bounded`` calls of ``tree`` built from a search that they do not report (``file:line: X``)."""
    bad = []
    for fn in (f for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))):
        assigned: dict[str, ast.AST] = {}
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        assigned[t.id] = node.value
        for call in ast.walk(fn):
            name = getattr(getattr(call, "func", None), "id", getattr(getattr(call, "func", None), "attr", None))
            if not (isinstance(call, ast.Call) and name == "verified_bounded"):
                continue
            seen: set[str] = set()
            for k in call.keywords:
                if k.arg == "bound":
                    continue
                spread = k.arg is None and isinstance(k.value, ast.Name)
                seen |= _reported(assigned.get(k.value.id, k.value) if spread else k.value)
            bad += [f"{where}:{call.lineno}: {x}" for x in sorted(_bound_searches(call, assigned) - seen)]
    return bad


def test_every_search_behind_a_verified_bounded_outcome_is_reported():
    files = sorted(CHECKS.rglob("*.py"))
    assert len(files) > 20  # the checks were found
    bad = [line for f in files for line in unreported(ast.parse(f.read_text(encoding="utf-8")), str(f.relative_to(ROOT)))]
    assert bad == [], "verified_bounded built from a search it does not report (add search=...): " + "; ".join(bad)


UNREPORTED = '''
def a(ctx):
    res = search()
    return verified_bounded(bound=res.bound)
def b(ctx):
    res = search()
    return verified_bounded(bound=res.bound, search=summary(res))
def c(ctx):
    res, z = search(), smt()
    return verified_bounded(bound=f"{res.bound}; z3: {z.bound}", property=res)
def d(ctx):
    printed = search()
    ev = {"search_as_printed": printed}
    return verified_bounded(bound=printed.bound, **ev)
def e(ctx):
    r = search()
    ev = {"note": 1}
    return verified_bounded(bound=r.bound, **ev)
def f(ctx):
    r = smt()
    return verified_bounded(bound=r.bound, solver_seconds=r.seconds)
def g(ctx):
    rs = [smt()]
    return verified_bounded(bound=rs[0].bound, search=rs[0].as_json())
def h(ctx):
    rs = [smt()]
    return verified_bounded(bound=rs[0].bound)
def i(ctx):
    r = smt()
    b = r.bound
    return verified_bounded(bound=b)
def j(ctx):
    a, b = smt(), smt()
    return verified_bounded(bound=f"{a.bound}; {b.bound}", searches={"a": a, "b": summary(b)})
'''


def test_an_unreported_search_is_found():
    assert unreported(ast.parse(UNREPORTED), "x.py") == ["x.py:4: res", "x.py:10: z", "x.py:18: r", "x.py:21: r",
                                                         "x.py:27: rs[0]", "x.py:31: r"]
