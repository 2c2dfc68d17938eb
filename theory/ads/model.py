"""The ad-delivery model and its validation (000_211156f2009240b4.txt §4.2; 002_9d55ef468949585c.txt §3.2).

An :class:`AdInstance` is what the server knows for one generalised context ĉ:

* ads ``0 .. m-1`` (the *ad id* is the index; ties are always broken toward the lowest id),
* the leaf contexts ``c`` with ``c -> ĉ`` and the conditional distribution ``Pr[c | ĉ]``,
* click-through rates ``CTR(a | c)`` in [0, 1],
* payments ``p_a >= 0`` per ad, or context-dependent ``p_a(c)`` (advertisers' bids, §4.3.2),
* an optional CTR threshold ``τ``: ``CTR(a|c) < τ`` is replaced by 0 (relevance constraint, §4.3.2).

The *value* of ad ``a`` in context ``c`` is ``v(a, c) = p_a(c) · CTR_τ(a|c)``; every algorithm works
on the value matrix. :class:`ContextHierarchy` turns a prior ``Pr[c]`` over leaves and a tree into
``Pr[c | ĉ] = Pr[c] / Σ_{c' -> ĉ} Pr[c']``.

All validation of this model happens here and raises :class:`privclaims.theory.errors.InvalidInput`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Hashable, Iterable, Mapping, Sequence

from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q, ZERO, as_rational, distribution, probability, rational_str


def _nonneg(x: object, name: str) -> Any:
    q = as_rational(x, name)
    if q < 0:
        raise InvalidInput(f"{name} = {rational_str(q)} must be >= 0")
    return q


@dataclass(frozen=True)
class AdInstance:
    """A validated instance (build it with :func:`ad_instance`). Values are exact rationals."""

    contexts: tuple[Hashable, ...]
    weights: tuple[Any, ...]  # Pr[c | ĉ], sums to 1
    ctr: tuple[tuple[Any, ...], ...]  # ctr[a][j] = CTR(a | contexts[j]) in [0, 1]
    payments: tuple[tuple[Any, ...], ...]  # payments[a][j] = p_a(c_j) >= 0
    threshold: Any = None  # CTR threshold τ (None: no relevance constraint)
    names: tuple[Hashable, ...] | None = None  # optional ad names (ids are the indices)

    @property
    def n_ads(self) -> int:
        return len(self.ctr)

    @property
    def n_contexts(self) -> int:
        return len(self.contexts)

    def effective_ctr(self, a: int, j: int) -> Any:
        """``CTR_τ(a|c_j)``: the CTR, or 0 when it is below the threshold τ."""
        c = self.ctr[a][j]
        return ZERO if self.threshold is not None and c < self.threshold else c

    def value(self, a: int, j: int) -> Any:
        """``v(a, c_j) = p_a(c_j) · CTR_τ(a|c_j)``: the expected revenue of showing ``a`` in ``c_j``."""
        return self.payments[a][j] * self.effective_ctr(a, j)

    def values(self) -> list[list[Any]]:
        return [[self.value(a, j) for j in range(self.n_contexts)] for a in range(self.n_ads)]

    def context_index(self, c: Hashable) -> int:
        try:
            return self.contexts.index(c)
        except ValueError:
            raise InvalidInput(f"unknown context {c!r} (known: {list(self.contexts)[:10]}...)") from None

    def as_json(self) -> dict[str, Any]:
        return {
            "contexts": [str(c) for c in self.contexts],
            "Pr[c|chat]": [rational_str(w) for w in self.weights],
            "CTR": [[rational_str(x) for x in row] for row in self.ctr],
            "payments": [[rational_str(x) for x in row] for row in self.payments],
            "threshold": None if self.threshold is None else rational_str(self.threshold),
        }


def ad_instance(
    weights: Sequence[object] | Mapping[Hashable, object],
    ctr: Sequence[Sequence[object]],
    payments: Sequence[object] | Sequence[Sequence[object]] | None = None,
    *,
    threshold: object = None,
    contexts: Sequence[Hashable] | None = None,
    names: Sequence[Hashable] | None = None,
) -> AdInstance:
    """Validate and build an :class:`AdInstance`.

    ``weights``: ``Pr[c | ĉ]`` (a list, or a mapping context -> probability), must sum to 1.
    ``ctr[a][j]``: CTR of ad ``a`` in context ``j``. ``payments``: ``None`` (all 1), one ``p_a`` per ad,
    or a matrix ``p_a(c_j)`` (context-dependent bids). ``threshold``: the CTR threshold τ in [0, 1].
    """
    if isinstance(weights, Mapping):
        ctx_names = tuple(weights.keys())
        w = distribution(weights, "Pr[c|chat]")
        wt = tuple(w[c] for c in ctx_names)
    else:
        wt = tuple(distribution(list(weights), "Pr[c|chat]"))
        ctx_names = tuple(range(len(wt)))
    if contexts is not None:
        if len(contexts) != len(wt):
            raise InvalidInput(f"{len(contexts)} context names for {len(wt)} probabilities")
        if len(set(contexts)) != len(contexts):
            raise InvalidInput("context names repeat")
        ctx_names = tuple(contexts)
    n = len(wt)
    if len(ctr) == 0:
        raise InvalidInput("no ads: the CTR matrix is empty")
    if names is not None:
        if len(names) != len(ctr):
            raise InvalidInput(f"{len(names)} ad names for {len(ctr)} ads")
        if len(set(names)) != len(names):
            raise InvalidInput(f"ad names repeat: {sorted({str(x) for x in names if list(names).count(x) > 1})}")
    ad = (lambda a: f"ad {names[a]!r}") if names is not None else (lambda a: f"ad {a}")
    rows = []
    for a, row in enumerate(ctr):
        if len(row) != n:
            raise InvalidInput(f"CTR row of {ad(a)} has {len(row)} entries, expected {n} (one per context)")
        rows.append(tuple(probability(x, f"CTR({ad(a)} | context {ctx_names[j]!r})") for j, x in enumerate(row)))
    m = len(rows)
    if payments is None:
        pay = tuple(tuple(Q(1) for _ in range(n)) for _ in range(m))
    else:
        if len(payments) != m:
            raise InvalidInput(f"{len(payments)} payments for {m} ads")
        pr = []
        for a, p in enumerate(payments):
            if isinstance(p, (list, tuple)):
                if len(p) != n:
                    raise InvalidInput(f"payment row of {ad(a)} has {len(p)} entries, expected {n}")
                pr.append(tuple(_nonneg(x, f"payment of {ad(a)} in context {ctx_names[j]!r}") for j, x in enumerate(p)))
            else:
                q = _nonneg(p, f"payment of {ad(a)}")
                pr.append(tuple(q for _ in range(n)))
        pay = tuple(pr)
    th = None if threshold is None else probability(threshold, "CTR threshold")
    if names is not None:
        names = tuple(names)
    return AdInstance(ctx_names, wt, tuple(rows), pay, th, names)


def check_ad_set(inst_n_ads: int, ads: Iterable[int], name: str = "ad set") -> tuple[int, ...]:
    """Validate a set of ad ids: integers in ``0 .. m-1``, no repeats; returned sorted."""
    if isinstance(ads, (str, bytes, Mapping)) or not isinstance(ads, Iterable):
        raise InvalidInput(f"{name} = {ads!r} must be a collection of ad ids (integers 0..{inst_n_ads - 1})")
    out = []
    for a in ads:
        if isinstance(a, bool) or not isinstance(a, int) and type(a).__name__ not in ("int64", "int32"):
            raise InvalidInput(f"{name}: ad id {a!r} is not an integer")
        a = int(a)
        if a < 0 or a >= inst_n_ads:
            raise InvalidInput(f"{name}: unknown ad {a} (ads are 0..{inst_n_ads - 1})")
        out.append(a)
    if len(set(out)) != len(out):
        raise InvalidInput(f"{name}: repeated ad ids {out}")
    return tuple(sorted(out))


def check_k(k: object, n_ads: int) -> int:
    """``k`` must be an integer with ``1 <= k <= |𝒜|``."""
    if isinstance(k, bool) or not isinstance(k, int):
        raise InvalidInput(f"k = {k!r} must be an integer")
    if k <= 0 or k > n_ads:
        raise InvalidInput(f"k = {k} must satisfy 1 <= k <= |A| = {n_ads}")
    return k


def check_instance(inst: object) -> "AdInstance":
    """``inst`` must be a built :class:`AdInstance` (see :func:`ad_instance`)."""
    from privclaims.theory.validate import instance

    return instance(inst, AdInstance, "inst", "(build it with ad_instance)")


def check_subsets(n_ads: int, k: int | None = None) -> None:
    """Refuse at once a brute force over C(|𝒜|, k) k-sets (all sizes when k is None: 2^|𝒜| - 1) beyond
    :data:`privclaims.theory.validate.ENUMERATION_LIMIT`, naming Greedy (a (1 - 1/e)-approximation) instead."""
    import math

    from privclaims.theory.validate import exponential_size

    size = (1 << n_ads) - 1 if k is None else math.comb(n_ads, k)
    exponential_size(size, f"the brute-force optimum over {'all' if k is None else f'{k}-'}subsets of {n_ads} ads",
                     "greedy / greedy_prime (polynomial; within 1 - 1/e of the optimum)")


def check_alpha(alpha: object) -> Any:
    """The communication price α >= 0 of the objective revenue − α·k (Eq. 4.3)."""
    return _nonneg(alpha, "alpha")


class ContextHierarchy:
    """A generalisation tree over contexts: ``parent[node]`` (None for the root), a prior on leaves.

    ``c -> ĉ`` iff ĉ is ``c`` or an ancestor of ``c``. ``conditional(ĉ)`` is ``Pr[c | ĉ]`` over
    the leaves below ĉ.
    """

    def __init__(self, parent: Mapping[Hashable, Hashable | None], prior: Mapping[Hashable, object]):
        self.parent = dict(parent)
        roots = [v for v, p in self.parent.items() if p is None]
        if len(roots) != 1:
            raise InvalidInput(f"a hierarchy needs exactly one root, found {roots}")
        for v, p in self.parent.items():
            if p is not None and p not in self.parent:
                raise InvalidInput(f"parent {p!r} of {v!r} is not a node of the hierarchy")
        self.root = roots[0]
        children: dict[Hashable, list[Hashable]] = {v: [] for v in self.parent}
        for v, p in self.parent.items():
            if p is not None:
                children[p].append(v)
        self.children = children
        for v in self.parent:  # acyclic: every node reaches the root
            seen, x = set(), v
            while x is not None:
                if x in seen:
                    raise InvalidInput(f"the hierarchy has a cycle through {x!r}")
                seen.add(x)
                x = self.parent[x]
        self.leaves = tuple(v for v in self.parent if not children[v])
        for c in prior:
            if c not in self.parent:
                raise InvalidInput(f"unknown context {c!r} in the prior")
            if children[c]:
                raise InvalidInput(f"prior given for {c!r}, which is not a leaf")
        self.prior = distribution({c: prior.get(c, 0) for c in self.leaves}, "Pr[c]")

    def ancestors(self, c: Hashable) -> list[Hashable]:
        """``c`` and its ancestors up to the root (c -> each of them)."""
        if c not in self.parent:
            raise InvalidInput(f"unknown context {c!r}")
        out, x = [], c
        while x is not None:
            out.append(x)
            x = self.parent[x]
        return out

    def generalizes(self, c: Hashable, chat: Hashable) -> bool:
        """``c -> ĉ``."""
        return chat in self.ancestors(c)

    def leaves_under(self, chat: Hashable) -> list[Hashable]:
        if chat not in self.parent:
            raise InvalidInput(f"unknown context {chat!r}")
        return [c for c in self.leaves if self.generalizes(c, chat)]

    def conditional(self, chat: Hashable) -> dict[Hashable, Any]:
        """``Pr[c | ĉ]`` for the leaves ``c -> ĉ`` (InvalidInput if Pr[ĉ] = 0)."""
        leaves = self.leaves_under(chat)
        total = sum((self.prior[c] for c in leaves), ZERO)
        if total == 0:
            raise InvalidInput(f"Pr[{chat!r}] = 0: no probability mass below this context")
        return {c: self.prior[c] / total for c in leaves}

    def instance(
        self,
        chat: Hashable,
        ctr: Mapping[Hashable, Sequence[object]],
        payments: Sequence[object] | Mapping[Hashable, Sequence[object]] | None = None,
        threshold: object = None,
    ) -> AdInstance:
        """The server's instance for ĉ: ``ctr[c]`` is the CTR vector (one entry per ad) of leaf ``c``;
        ``payments`` per ad, or per leaf (``payments[c][a]``, context-dependent bids)."""
        cond = self.conditional(chat)
        leaves = list(cond)
        for c in leaves:
            if c not in ctr:
                raise InvalidInput(f"no CTR vector for context {c!r}")
        m = len(ctr[leaves[0]])
        mat = [[ctr[c][a] for c in leaves] for a in range(m)]
        pay: Any = payments
        if isinstance(payments, Mapping):
            pay = [[payments[c][a] for c in leaves] for a in range(m)]
        return ad_instance([cond[c] for c in leaves], mat, pay, threshold=threshold, contexts=leaves)


def validate_sparse(weights: Any, ctr: Any, payments: Any = None, threshold: float | None = None) -> tuple[Any, Any]:
    """Validate float inputs of the fast twin: ``weights`` (n,) a distribution (sum within 1e-9 of 1),
    ``ctr`` an (m, n) scipy.sparse matrix with entries in [0, 1], ``payments`` None, (m,) or a sparse
    (m, n) matrix of non-negative bids, ``threshold`` in [0, 1]. Returns ``(weights, values)`` with
    ``values = p ⊙ CTR_τ`` as CSR float64."""
    import numpy as np
    import scipy.sparse as sp

    w = np.asarray(weights, dtype=np.float64)
    if w.ndim != 1 or w.size == 0:
        raise InvalidInput(f"Pr[c|chat] must be a non-empty vector, got shape {w.shape}")
    if not np.all(np.isfinite(w)) or np.any(w < 0) or np.any(w > 1):
        bad = int(np.flatnonzero(~np.isfinite(w) | (w < 0) | (w > 1))[0])
        raise InvalidInput(f"Pr[c|chat][{bad}] = {w[bad]!r} is outside [0, 1]")
    if abs(float(w.sum()) - 1.0) > 1e-9:
        raise InvalidInput(f"Pr[c|chat] sums to {float(w.sum())!r}, not 1")
    V = sp.csr_matrix(ctr, dtype=np.float64)
    if V.shape[1] != w.size:
        raise InvalidInput(f"CTR matrix has {V.shape[1]} context columns, expected {w.size}")
    if V.shape[0] == 0:
        raise InvalidInput("no ads: the CTR matrix is empty")
    if V.nnz and (not np.all(np.isfinite(V.data)) or V.data.min() < 0 or V.data.max() > 1):
        bad = V.data[~np.isfinite(V.data) | (V.data < 0) | (V.data > 1)][0]
        raise InvalidInput(f"a CTR value {bad!r} is outside [0, 1]")
    if threshold is not None:
        if not 0 <= float(threshold) <= 1:
            raise InvalidInput(f"CTR threshold = {threshold!r} is outside [0, 1]")
        V = V.copy()
        V.data[V.data < float(threshold)] = 0.0
        V.eliminate_zeros()
    if payments is not None:
        if sp.issparse(payments):
            P = sp.csr_matrix(payments, dtype=np.float64)
            if P.shape != V.shape:
                raise InvalidInput(f"payment matrix shape {P.shape} differs from the CTR shape {V.shape}")
            if P.nnz and P.data.min() < 0:
                raise InvalidInput(f"a payment {P.data.min()!r} is negative")
            V = V.multiply(P).tocsr()
        else:
            p = np.asarray(payments, dtype=np.float64)
            if p.shape != (V.shape[0],):
                raise InvalidInput(f"{p.size} payments for {V.shape[0]} ads")
            if np.any(p < 0) or not np.all(np.isfinite(p)):
                raise InvalidInput(f"payment p_{int(np.flatnonzero((p < 0) | ~np.isfinite(p))[0])} must be >= 0")
            V = sp.diags(p).dot(V).tocsr()
    V.sort_indices()
    return w, V
