"""The user model of MaskIt and its validation (000_211156f2009240b4.txt §3.2, 001_eb11505ae1399b83.txt §2.2).

A user is a time-inhomogeneous Markov chain ``M`` over contexts ``C = {c_1..c_n}``, viewed as a DAG
with ``T + 2`` levels: "start" at level 0, the contexts at levels 1..T, "end" at level T + 1.
Its transition matrices are

    A^(1)          the row  a^(1)_{start, j} = Pr[X_1 = c_j]                  (``initial``)
    A^(t), 2<=t<=T a^(t)_{i, j} = Pr[X_t = c_j | X_{t-1} = c_i]               (``steps[t - 2]``)
    A^(T+1)        every context moves to "end" with probability 1.

The joint probability of a stream is ``Pr[X_1..X_T] = prod_t a^(t)_{X_{t-1}, X_t}`` (Eq. 3.1 and the
display below it). A *suppression vector* ``p`` gives ``p_i^t``, the probability that the
probabilistic check suppresses ``c_i`` at time ``t`` (§3.4); an *output* is a tuple of length T whose
entries are context indices or ``None`` (the suppression symbol ⊥).

Every public constructor validates here, raising :class:`privclaims.theory.errors.InvalidInput` naming the
offending value. Rows of contexts that cannot occur at ``t - 1`` never enter a belief; they must
still be distributions (the DAG builder fills them with the uniform distribution over level t).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import ONE, ZERO, Q, as_rational, in_open_unit, probability, rational_str

RESERVED = ("start", "end")
BOT = None  # the suppression symbol ⊥ inside an output tuple


@dataclass(frozen=True)
class MarkovChain:
    """A validated chain; build it with :func:`markov_chain`, :func:`dag_chain` or :func:`learn_chain`."""

    contexts: tuple[Hashable, ...]
    initial: tuple[Any, ...]
    steps: tuple[tuple[tuple[Any, ...], ...], ...]
    # not init fields: a chain made by dataclasses.replace (other contexts or probabilities) gets empty ones
    _index: dict = field(default_factory=dict, init=False, compare=False, repr=False, hash=False)
    _memo: dict = field(default_factory=dict, init=False, compare=False, repr=False, hash=False)

    def memo_get(self, key: Any) -> Any:
        """Per-chain cache of derived quantities (priors, Eq. 3.2 products; the twins' keys are prefixed by their
        module, e.g. ``"fast.prior"``): the value stored under ``key``, None if none. The chain is immutable."""
        return self._memo.get(key)

    def memo_set(self, key: Any, value: Any) -> None:
        """Store a derived quantity under ``key`` (:meth:`memo_get`)."""
        self._memo[key] = value

    @property
    def n(self) -> int:
        return len(self.contexts)

    @property
    def T(self) -> int:
        return len(self.steps) + 1

    def index(self, context: Hashable) -> int:
        """Position of a context label (InvalidInput for an unknown one)."""
        if not self._index:
            self._index.update({c: i for i, c in enumerate(self.contexts)})
        try:
            return self._index[context]
        except (KeyError, TypeError):
            raise InvalidInput(f"unknown context {context!r}; the chain has {list(self.contexts)!r}") from None

    def a(self, t: int, i: int | None, j: int) -> Any:
        """``a^(t)_{i,j}`` for 1 <= t <= T (``i`` is ignored, i.e. "start", when t = 1)."""
        if t == 1:
            return self.initial[j]
        return self.steps[t - 2][i][j]

    def row(self, t: int, i: int | None) -> tuple[Any, ...]:
        return self.initial if t == 1 else self.steps[t - 2][i]


def _distribution_row(values: Sequence[object], n: int, name: str) -> tuple[Any, ...]:
    if len(values) != n:
        raise InvalidInput(f"{name} has {len(values)} entries, expected {n}")
    row = tuple(probability(v, f"{name}[{j}]") for j, v in enumerate(values))
    total = sum(row, ZERO)
    if total != 1:
        raise InvalidInput(f"{name} sums to {rational_str(total)}, not 1")
    return row


def markov_chain(contexts: Sequence[Hashable], initial: Sequence[object], steps: Sequence[Sequence[Sequence[object]]]) -> MarkovChain:
    """Validate and build a chain: ``initial`` = A^(1), ``steps[k]`` = A^(k+2) (n x n, rows sum to 1 exactly)."""
    contexts = tuple(contexts)
    if not contexts:
        raise InvalidInput("a Markov chain needs at least one context")
    if len(set(contexts)) != len(contexts):
        dup = [c for c, k in Counter(contexts).items() if k > 1]
        raise InvalidInput(f"duplicate context labels {dup!r}")
    for c in contexts:
        if c in RESERVED:
            raise InvalidInput(f"context label {c!r} is reserved for the DAG's first/last level")
    n = len(contexts)
    init = _distribution_row(list(initial), n, "A^(1) (start row)")
    mats = []
    for k, m in enumerate(steps):
        if len(m) != n:
            raise InvalidInput(f"A^({k + 2}) has {len(m)} rows, expected {n}")
        mats.append(tuple(_distribution_row(list(r), n, f"A^({k + 2}) row {contexts[i]!r}") for i, r in enumerate(m)))
    return MarkovChain(contexts, init, tuple(mats))


def dag_chain(levels: Sequence[Mapping[Hashable, Mapping[Hashable, object] | Sequence[Hashable]]]) -> MarkovChain:
    """A chain given as the paper draws it: ``levels[0]`` maps "start" to its successors, ``levels[t]``
    maps each context of level t to its successors at level t + 1 (the last level maps to nothing).

    Successors are a list (uniform transition probabilities, as in Figures 3.1-3.4) or a dict of
    exact probabilities. The contexts of the chain are all labels in order of first appearance.
    """
    if not levels or set(levels[0]) != {"start"}:
        raise InvalidInput("levels[0] must be {'start': successors}")

    def probs(succ: Mapping[Hashable, object] | Sequence[Hashable], who: str) -> dict:
        if isinstance(succ, Mapping):
            d = {k: as_rational(v, f"Pr[{k!r} | {who}]") for k, v in succ.items()}
        else:
            if not succ:
                raise InvalidInput(f"{who} has no successor")
            d = {k: Q(1, len(succ)) for k in succ}
        return d

    labels: list[Hashable] = []
    layer_labels: list[list[Hashable]] = []
    first = probs(levels[0]["start"], "start")
    layer_labels.append(list(first))
    trans = []
    for t in range(1, len(levels)):
        trans.append({c: probs(s, f"{c!r} at level {t}") for c, s in levels[t].items()})
    for t, tr in enumerate(trans, start=1):
        nxt: list[Hashable] = []
        for c, d in tr.items():
            if c not in layer_labels[t - 1]:
                raise InvalidInput(f"{c!r} is not a state of level {t}")
            for k in d:
                if k not in nxt:
                    nxt.append(k)
        layer_labels.append(nxt)
    for layer in layer_labels:
        for c in layer:
            if c not in labels:
                labels.append(c)
    idx = {c: i for i, c in enumerate(labels)}
    initial = [first.get(c, ZERO) for c in labels]
    steps = []
    for t, tr in enumerate(trans[: len(layer_labels) - 1], start=1):
        nxt = layer_labels[t]
        filler = [Q(1, len(nxt)) if c in nxt else ZERO for c in labels]
        m = []
        for c in labels:
            if c in tr:
                m.append([tr[c].get(k, ZERO) for k in labels])
            else:
                m.append(filler)
        steps.append(m)
    del idx
    return markov_chain(labels, initial, steps)


# --------------------------------------------------------------------------- learning


def validate_traces(traces: Iterable[Sequence[Hashable]], contexts: Sequence[Hashable], T: int) -> list[tuple[int, ...]]:
    """Traces as index tuples; an unknown context or a wrong length names the trace and position."""
    idx = {c: i for i, c in enumerate(contexts)}
    out = []
    for k, tr in enumerate(traces):
        tr = tuple(tr)
        if len(tr) != T:
            raise InvalidInput(f"trace {k} has length {len(tr)}, expected T = {T}")
        row = []
        for t, c in enumerate(tr, start=1):
            if c not in idx:
                raise InvalidInput(f"trace {k} has unknown context {c!r} at t = {t}")
            row.append(idx[c])
        out.append(tuple(row))
    if not out:
        raise InvalidInput("no traces to learn from")
    return out


UNSEEN_POLICIES = ("marginal", "uniform", "stay")


def learn_chain(traces: Iterable[Sequence[Hashable]], contexts: Sequence[Hashable], T: int, unseen: str = "marginal") -> MarkovChain:
    """Estimate M by counting (000 §3.3, Alg. 1 text): ``a^(t)_{i,j} = #(c_i at t-1 -> c_j at t) / #(c_i at t-1)``.

    A context never seen at ``t - 1`` has no count; its row (irrelevant to every belief, since
    ``Pr[X_{t-1} = c_i] = 0`` in the learned chain, but used once MaskIt releases an off-model state)
    follows the explicit policy ``unseen``: "marginal" (the empirical distribution of X_t),
    "uniform" (over all contexts) or "stay" (remain in c_i).
    """
    if unseen not in UNSEEN_POLICIES:
        raise InvalidInput(f"unseen = {unseen!r}; use one of {UNSEEN_POLICIES}")
    rows = validate_traces(traces, contexts, T)
    n = len(contexts)
    first = Counter(r[0] for r in rows)
    initial = [Q(first[j], len(rows)) for j in range(n)]
    steps = []
    for t in range(2, T + 1):
        pair = Counter((r[t - 2], r[t - 1]) for r in rows)
        marg = Counter(r[t - 1] for r in rows)
        m = []
        for i in range(n):
            tot = sum(pair[(i, j)] for j in range(n))
            if tot:
                m.append([Q(pair[(i, j)], tot) for j in range(n)])
            elif unseen == "marginal":
                m.append([Q(marg[j], len(rows)) for j in range(n)])
            elif unseen == "uniform":
                m.append([Q(1, n)] * n)
            else:
                m.append([ONE if j == i else ZERO for j in range(n)])
        steps.append(m)
    return markov_chain(contexts, initial, steps)


# --------------------------------------------------------------------------- parameters


def sensitive_indices(chain: MarkovChain, S: Iterable[Hashable]) -> tuple[int, ...]:
    """The sensitive contexts as indices; S must be non-empty and name known contexts."""
    if isinstance(S, (str, bytes)) or not isinstance(S, Iterable):
        raise InvalidInput(f"S = {S!r} must be a collection of sensitive context labels (e.g. ['hospital'])")
    S = list(S)
    if not S:
        raise InvalidInput("the set S of sensitive contexts is empty")
    return tuple(sorted({chain.index(s) for s in S}))


def check_delta(delta: object) -> Any:
    return in_open_unit(delta, "delta")


# ------------------------------------------------- times and indices at the boundary (both twins)


def checked_chain(chain: object) -> "MarkovChain":
    """``chain`` must be a built :class:`MarkovChain` (see :func:`markov_chain`)."""
    from privclaims.theory.validate import instance

    return instance(chain, MarkovChain, "chain", "(build it with markov_chain or learn_chain)")


def check_time(chain: "MarkovChain", t: object, name: str = "t", *, lo: int = 1, hi: int | None = None) -> int:
    """A time ``lo <= t <= hi`` (default ``1 <= t <= T``); never read from the end as a negative index."""
    from privclaims.theory.validate import time_step

    return time_step(t, checked_chain(chain).T if hi is None else hi, name, lo=lo)


def check_from(chain: "MarkovChain", t1: object, i: object, t2: object, *, t2_name: str = "t2") -> tuple[int, int | None, int]:
    """Eq. (3.2)'s ``(t1, i, t2)``: ``0 <= t1 <= t2 <= T`` and, unless t1 = 0 ("start"), ``0 <= i < n``."""
    from privclaims.theory.validate import index

    a = check_time(chain, t1, "t1", lo=0)
    b = check_time(chain, t2, t2_name, lo=a)
    return a, (None if a == 0 else index(i, chain.n, "i (context index)")), b


def output_prefix(chain: MarkovChain, outputs: object) -> tuple:
    """An output or a prefix o_1..o_e of one (e <= T): a list or tuple of context indices or None (⊥)."""
    if not isinstance(outputs, (list, tuple)):
        raise InvalidInput(f"output = {outputs!r} must be a list or tuple of context indices or None (⊥)")
    if len(outputs) > chain.T:
        raise InvalidInput(f"output has length {len(outputs)} > T = {chain.T}")
    return check_output(chain, outputs, len(outputs))


def check_grid(d: object) -> int:
    """The grid ``{0, 1/d, ..., 1}`` of the greedy search: an integer ``d >= 1``."""
    from privclaims.theory.validate import integer

    return integer(d, "d (grid denominator)", lo=1)


def suppression_vector(chain: MarkovChain, p: Sequence[Sequence[object]] | Mapping[Hashable, object]) -> tuple[tuple[Any, ...], ...]:
    """``p[t-1][i] = p_i^t`` in [0, 1]; a dict ``{context: value}`` means the same value at every t."""
    if isinstance(p, Mapping):
        vals = [probability(p.get(c, 0), f"p[{c!r}]") for c in chain.contexts]
        for c in p:
            chain.index(c)
        return tuple(tuple(vals) for _ in range(chain.T))
    if isinstance(p, (str, bytes)) or not isinstance(p, Sequence):
        raise InvalidInput(f"suppression vector {p!r:.60}: expected a mapping context -> probability or a T x n matrix")
    if len(p) != chain.T:
        raise InvalidInput(f"suppression vector has {len(p)} time rows, expected T = {chain.T}")
    out = []
    for t, row in enumerate(p, start=1):
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence) or len(row) != chain.n:
            raise InvalidInput(f"suppression vector row t = {t} = {row!r:.60} must be a list of n = {chain.n} probabilities")
        out.append(tuple(probability(v, f"p[t={t}][{chain.contexts[i]!r}]") for i, v in enumerate(row)))
    return tuple(out)


def mask_sensitive_vector(chain: MarkovChain, S: Iterable[Hashable]) -> tuple[tuple[Any, ...], ...]:
    """MaskSensitive (000 §3.7.1) as emissions: b_{i,⊥} = 1 iff c_i in S, b_{i,i} = 1 otherwise."""
    sens = set(sensitive_indices(chain, S))
    return tuple(tuple(ONE if i in sens else ZERO for i in range(chain.n)) for _ in range(chain.T))


_INDEX_TYPES = frozenset({int, type(None)})


def check_output(chain: MarkovChain, outputs: Sequence[int | None], length: int | None = None) -> tuple:
    """An output tuple (context indices or None = ⊥) of the given length (default T)."""
    if type(outputs) is not tuple:
        if isinstance(outputs, (str, bytes)) or not isinstance(outputs, Sequence):
            raise InvalidInput(f"output {outputs!r:.60} must be a sequence of context indices (or None = ⊥)")
        outputs = tuple(outputs)
    want = chain.T if length is None else length
    if len(outputs) != want:
        raise InvalidInput(f"output has length {len(outputs)}, expected {want}")
    n = chain.n
    if set(map(type, outputs)) <= _INDEX_TYPES:  # the common case, decided at C speed
        entries = set(outputs)
        entries.discard(None)
        if not entries or (min(entries) >= 0 and max(entries) < n):
            return outputs
    for t, o in enumerate(outputs, start=1):
        if o is not None and not (isinstance(o, int) and not isinstance(o, bool) and 0 <= o < n):
            raise InvalidInput(f"output entry {o!r} at t = {t} is neither None (⊥) nor a context index")
    return outputs


def dominates(q: Sequence[Sequence[Any]], p: Sequence[Sequence[Any]]) -> bool:
    """Definition 8: ``p ⪯ q`` iff p_i^t <= q_i^t for all i, t."""
    return all(a <= b for pr, qr in zip(p, q) for a, b in zip(pr, qr))
