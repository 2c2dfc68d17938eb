"""The documents' models of a system, as validators for witnesses (issue 21, item 3).

000_211156f2009240b4.txt §2.2.2 states Definition 6 for "a system" (any randomised map from input streams to
outputs; Theorem 2's generalisation is one). 001_eb11505ae1399b83.txt §2.1 (= 000 §3.3) states it inside a
narrower model, the *suppression system*:

1. the input stream is a sample of a (time-inhomogeneous) Markov chain M: Pr[x] = Π_t a^(t)_{x_{t-1}, x_t}, i.e.
   Pr[x_t | x_1..x_{t-1}] depends on x_{t-1} only ("the user behaves like a sample from M");
2. every output o of positive probability has o_t ∈ {x_t, ⊥} at every t ("restricts the output o_t to be either
   the true state x_t or the suppression symbol");
3. o_t is produced at time t ("Upon extracting a context x_t at time t, MASKIT produces ... o_t"): the distribution
   of o_1..o_t given the input depends on x_1..x_t only (a check called as okayToRelease(c_i, t, o) with each
   context in turn may remember what it was given, so x_1..x_{t-1} may matter too).

Each validator returns the list of problems (empty: the witness is inside the model), in words, for
``privclaims.checks.verdict.in_model``. Systems are :class:`privclaims.theory.dp.delta_privacy.FiniteSystem` s whose
outputs are tuples with the label ``"⊥"`` for a suppression.
"""

from __future__ import annotations

from typing import Any, Hashable, Iterable

from privclaims.theory.dp.delta_privacy import FiniteSystem
from privclaims.theory.numbers import ONE, ZERO, rational_str

BOT_LABEL = "⊥"
ANY_SYSTEM = "any system (000 §2.2.2)"
SUPPRESSION_SYSTEM = "suppression system (001 §2.1 = 000 §3.3)"


def _distribution_problems(system: FiniteSystem) -> list[str]:
    bad = []
    if sum(system.prior.values(), ZERO) != ONE or any(v < 0 for v in system.prior.values()):
        bad.append("the prior over input streams is not a probability distribution")
    for x, row in system.channel.items():
        if sum(row.values(), ZERO) != ONE or any(v < 0 for v in row.values()):
            bad.append(f"the output distribution of input {x!r} does not sum to 1")
    return bad


def any_system_problems(system: FiniteSystem) -> list[str]:
    """000 §2.2.2: a prior over input streams of one length and, per input, a distribution over outputs."""
    return _distribution_problems(system)


def markov_problems(prior: dict[tuple, Any]) -> list[str]:
    """Condition 1: Pr[x_t = c | x_1..x_{t-1}] = Pr[x_t = c | x_{t-1}] wherever the history has positive probability
    (exact; the joint of a time-inhomogeneous chain)."""
    T = len(next(iter(prior)))
    bad = []
    for t in range(1, T):  # 0-based position t conditioned on positions < t
        hist: dict[tuple, dict[Hashable, Any]] = {}
        last: dict[Hashable, dict[Hashable, Any]] = {}
        for x, px in prior.items():
            if px:
                hist.setdefault(x[:t], {}).setdefault(x[t], ZERO)
                hist[x[:t]][x[t]] += px
                last.setdefault(x[t - 1], {}).setdefault(x[t], ZERO)
                last[x[t - 1]][x[t]] += px
        for h, nxt in hist.items():
            tot_h, prev = sum(nxt.values(), ZERO), last[h[-1]]
            tot_l = sum(prev.values(), ZERO)
            for c in set(nxt) | set(prev):
                if nxt.get(c, ZERO) / tot_h != prev.get(c, ZERO) / tot_l:
                    bad.append(f"not a Markov chain: Pr[x_{t + 1} = {c!r} | history {h!r}] = "
                               f"{rational_str(nxt.get(c, ZERO) / tot_h)} but Pr[x_{t + 1} = {c!r} | x_{t} = {h[-1]!r}] = "
                               f"{rational_str(prev.get(c, ZERO) / tot_l)}")
                    return bad
    return bad


def suppression_problems(system: FiniteSystem) -> list[str]:
    """Conditions 2 and 3 for every input of positive prior probability."""
    bad = []
    T = system.horizon
    for x, row in system.channel.items():
        if not system.prior.get(x):
            continue
        for o, po in row.items():
            if not po:
                continue
            if not isinstance(o, tuple) or len(o) != T:
                bad.append(f"output {o!r} of input {x!r} is not a stream of length {T}")
                return bad
            for t, (ot, xt) in enumerate(zip(o, x), start=1):
                if ot != BOT_LABEL and ot != xt:
                    bad.append(f"output {o!r} of input {x!r} releases {ot!r} at t = {t}, which is neither the true "
                               f"context {xt!r} nor ⊥")
                    return bad
    # condition 3: Pr[o_1..o_t | x] depends on x_1..x_t only
    for t in range(1, T + 1):
        seen: dict[tuple, dict[tuple, Any]] = {}
        for x, row in system.channel.items():
            if not system.prior.get(x):
                continue
            marg: dict[tuple, Any] = {}
            for o, po in row.items():
                if po:
                    marg[o[:t]] = marg.get(o[:t], ZERO) + po
            if x[:t] in seen and seen[x[:t]] != marg:
                bad.append(f"not online: the outputs up to t = {t} depend on inputs after t (inputs sharing "
                           f"{x[:t]!r} give different distributions of o_1..o_{t})")
                return bad
            seen.setdefault(x[:t], marg)
    return bad


def suppression_system_problems(system: FiniteSystem) -> list[str]:
    """The whole 001 §2.1 model: a distribution, a Markov prior, suppression outputs, produced online."""
    return _distribution_problems(system) or markov_problems(dict(system.prior)) or suppression_problems(system)


def decides_from_current_context(system: FiniteSystem) -> bool:
    """Whether the release decision at t depends only on (x_t, t, o_1..o_{t-1}) - a check that keeps no memory of
    earlier contexts, as MaskIt's probabilistic and simulatable checks (informational: the model allows memory)."""
    T = system.horizon
    rule: dict[tuple, Any] = {}
    for x, row in system.channel.items():
        if not system.prior.get(x):
            continue
        for t in range(1, T + 1):
            prefix: dict[tuple, Any] = {}
            for o, po in row.items():
                if po:
                    prefix[o[:t]] = prefix.get(o[:t], ZERO) + po
            for h in {k[:-1] for k in prefix}:
                tot = sum((v for k, v in prefix.items() if k[:-1] == h), ZERO)
                rel = prefix.get(h + (x[t - 1],), ZERO) / tot if x[t - 1] != BOT_LABEL else ZERO
                key = (t, x[t - 1], h)
                if rule.setdefault(key, rel) != rel:
                    return False
    return True


def system_problems(reading: str, system: FiniteSystem) -> list[str]:
    """Problems of ``system`` under the named reading of the system model (``checks/definitions/maskit.py``)."""
    if reading == "any system":
        return any_system_problems(system)
    if reading == "suppression system":
        return suppression_system_problems(system)
    raise ValueError(f"unknown system-model reading {reading!r}")


def chain_instance_problems(chain: Any, p: Any = None, S: Iterable[Hashable] = (), delta: Any = None) -> list[str]:
    """A MaskIt instance (chain M, suppression vector p, sensitive contexts S, δ): M a validated chain, p entries in
    [0, 1], S ⊆ contexts and non-empty, δ in (0, 1). The probabilistic check on such an instance is a suppression
    system in the sense above by construction (Proposition 2)."""
    from privclaims.theory.errors import InvalidInput
    from privclaims.theory.maskit.model import MarkovChain, check_delta, sensitive_indices, suppression_vector

    bad = []
    if not isinstance(chain, MarkovChain):
        return [f"not a validated Markov chain: {type(chain).__name__}"]
    try:
        if p is not None:
            suppression_vector(chain, p)
        S = list(S)
        if S:
            sensitive_indices(chain, S)
        if delta is not None:
            check_delta(delta)
    except InvalidInput as e:
        bad.append(str(e))
    return bad
