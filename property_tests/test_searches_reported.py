"""Every ``verified_bounded`` a check builds from a search reports that search in its evidence, so the ledger can ask
whether it certifies the verdict (``checks/evidence.search_contradictions``: a search that found a counterexample, or
did not search the bound the outcome names, makes the row an error).

Read from the checks' source (AST): a call ``verified_bounded(bound=...)`` whose bound reads ``N.bound`` for a name
``N`` (a search result) must mention ``N`` in another argument (``search=N``, ``search=summary(N)``, ``property=N``), or
pass ``**ev`` where an assignment to ``ev`` in the same function mentions ``N``."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECKS = ROOT / "checks" / "claims"


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _bound_searches(call: ast.Call) -> set[str]:
    """The names ``N`` whose ``N.bound`` the call's ``bound`` argument reads."""
    bound = next((k.value for k in call.keywords if k.arg == "bound"), call.args[0] if call.args else None)
    if bound is None:
        return set()
    return {a.value.id for a in ast.walk(bound)
            if isinstance(a, ast.Attribute) and a.attr == "bound" and isinstance(a.value, ast.Name)}


def unreported(tree: ast.Module, where: str) -> list[str]:
    """The ``verified_bounded`` calls of ``tree`` built from a search that they do not report (``file:line: N``)."""
    bad = []
    functions = [f for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for fn in functions:
        assigned: dict[str, set[str]] = {}
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        assigned.setdefault(t.id, set()).update(_names(node.value))
        for call in ast.walk(fn):
            if not (isinstance(call, ast.Call) and getattr(call.func, "id", getattr(call.func, "attr", None)) == "verified_bounded"):
                continue
            others = [k for k in call.keywords if k.arg != "bound"]
            seen = set().union(*(_names(k.value) for k in others)) if others else set()
            for k in others:
                if k.arg is None and isinstance(k.value, ast.Name):
                    seen |= assigned.get(k.value.id, set())
            bad += [f"{where}:{call.lineno}: {n}" for n in sorted(_bound_searches(call) - seen)]
    return bad


def test_every_search_behind_a_verified_bounded_outcome_is_reported():
    files = sorted(CHECKS.rglob("*.py"))
    assert len(files) > 20  # the checks were found
    bad = [line for f in files for line in unreported(ast.parse(f.read_text(encoding="utf-8")), str(f.relative_to(ROOT)))]
    assert bad == [], "verified_bounded built from a search it does not report (add search=...): " + "; ".join(bad)


def test_an_unreported_search_is_found():
    code = '''
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
'''
    assert unreported(ast.parse(code), "x.py") == ["x.py:4: res", "x.py:10: z", "x.py:18: r"]
