"""Tiny instances shared by the count protocol checks (exact view laws need N <= 4, p <= 7)."""

from __future__ import annotations


from privclaims.theory.count.protocol import AVAILABLE, DROP_BEFORE
from privclaims.theory.count.views import Scenario, laws_equal, protocol_view_law, rational_gaussian_pmf, simulator_view_law

SHARE = tuple(rational_gaussian_pmf("1/2", 1).items())


def m_values(b, prev):  # arbitrary (bogus) values to both servers
    return (3, b + 4)


def m_only_message(b, prev):  # a message without a key
    return (None, 2)


def m_adaptive(b, prev):  # depends on earlier releases (Claims 16-21)
    return (1, b + (prev[-1] if prev else 0))


def m_silent(b, prev):
    return None


def one_round() -> list[Scenario]:
    A, D = (AVAILABLE,), (DROP_BEFORE,)
    return [
        Scenario((("u1", (1,), A), ("u2", (0,), A), ("u3", (1,), D)), (("z", (1,), m_values),), 5, 1, SHARE, "1/2"),
        Scenario((("u1", (0,), A), ("u2", (1,), A), ("u3", (1,), A)), (("z", (0,), m_only_message),), 5, 1, SHARE, "1/2"),
        Scenario((("u1", (1,), A), ("u2", (1,), A)), (("z", (1,), m_silent), ("y", (0,), m_values)), 7, 1, SHARE, "1/2"),
    ]


def two_rounds() -> list[Scenario]:
    AA, AD = (AVAILABLE, AVAILABLE), (AVAILABLE, DROP_BEFORE)
    return [
        Scenario((("u1", (1, 0), AA), ("u2", (0, 1), AD)), (("z", (1, 1), m_adaptive),), 5, 2, SHARE, "1/2"),
        Scenario((("u1", (0, 1), AD), ("u2", (1, 1), AA)), (("z", (0, 1), m_values),), 5, 2, SHARE, "1/2"),
    ]


def two_rounds_p7() -> list[Scenario]:
    """The first of :func:`two_rounds` over Z_7 (about 0.5 s for one party's view law: used where a claim's bound
    names p = 7)."""
    AA, AD = (AVAILABLE, AVAILABLE), (AVAILABLE, DROP_BEFORE)
    return [Scenario((("u1", (1, 0), AA), ("u2", (0, 1), AD)), (("z", (1, 1), m_adaptive),), 7, 2, SHARE, "1/2")]


def compare(scenarios, who_of) -> tuple[bool, list]:
    """For each scenario, compare the real and simulated view laws of ``who_of(sc)``."""
    rows, ok = [], True
    for i, sc in enumerate(scenarios):
        who = who_of(sc)
        a, b = protocol_view_law(sc, who), simulator_view_law(sc, who)
        eq = laws_equal(a, b)
        ok &= eq
        rows.append({"scenario": i, "who": who if not isinstance(who, tuple) else list(who), "views": len(a), "equal": eq,
                     "p": sc.p, "rounds": sc.rounds, "honest": len(sc.honest), "malicious": len(sc.malicious)})
    return ok, rows


def first_honest(sc):
    return next(uid for uid, _, av in sc.honest if av[0] == AVAILABLE)


def first_unavailable(sc):
    return next((uid for uid, _, av in sc.honest if av[0] != AVAILABLE), None)


def coalition(sc):
    return tuple(uid for uid, _, _ in sc.malicious)


def leaky_run(users, params, p, randomness, **kw):
    """The pad protocol with every key forced to 0: the proxy sees b_i + r_i (a broken protocol that
    Definition 5's checker must reject)."""
    from privclaims.theory.count.protocol import TapeRandomness, run_pad_count

    class ZeroKeys(TapeRandomness):
        def key(self, uid, p):
            super().key(uid, p)
            return 0

    z = ZeroKeys({}, {})
    z.shares, z.keys = randomness.shares, randomness.keys
    return run_pad_count(users, params, p, z, **kw)
