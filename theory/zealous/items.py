"""The items of a search log — keywords, queries, clicks, query pairs — defined once for every engine.

000_211156f2009240b4.txt §6.2.1 (= 003_755c7aa10ef74058.txt §2.1): a search log is a set of entries
<USER-ID, QUERY, TIME, CLICKS>; "a query is a set of keywords", CLICKS "a list of urls that the user
clicked on"; a user history is all entries of one user; "a query pair consists of two subsequent
queries from the same user within the same session"; the keyword (query, click, query-pair) histogram
records for each item k the number of users c_k whose history contains k.

Read exactly, for a user u with entries E_u (the conventions the thesis leaves open are fixed here and
nowhere else):

* **history** H_u: the entries of u as a *set* of searches (time, query), each with the union of the
  clicks recorded for it (the AOL release repeats a query's row once per click: two rows with the same
  user, query and time are one search), in the order (time, query) — time order, and the query text
  (code-point order) among searches of the same second, so that the order is a property of the log,
  never of how its rows happen to be stored;
* **keywords** K_u = the union over u's queries of their tokens split at Unicode white space
  (:data:`WHITESPACE`, Python's ``str.split()``);
* **queries** Q_u = the set of u's queries; **clicks** C_u = the union of u's clicked urls;
* **query pairs** P_u = {(q_i, q_{i+1}) : consecutive searches of H_u with t_{i+1} - t_i <= gap} — a
  session is cut where two consecutive searches are more than ``session_gap`` seconds apart (default
  30 minutes, :data:`DEFAULT_SESSION_GAP`; the thesis leaves the partitioning open);
* the empty text is never an item. A query pair's text is ``"q1<TAB>q2"`` (a query never holds a tab:
  :func:`privclaims.theory.zealous.model.checked_log`).

:class:`ItemKind` is the value object an item kind is parsed into once, at the door: its
:meth:`ItemKind.items` is the definition in Python (the ``python`` engine and the exact/fast twins)
and its :meth:`ItemKind.sql` the same definition in DuckDB's SQL (the ``duckdb`` and ``dask`` engines),
built from the same constants (:data:`WHITESPACE` as an RE2 class, the order, the gap).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Iterable, Sequence

from privclaims.theory.errors import InvalidInput
from privclaims.theory.zealous.model import ITEM_KINDS, Entry

DEFAULT_SESSION_GAP = 30 * 60

WHITESPACE = ("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
              "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")
"""Every character for which ``str.isspace()`` is true (Python's ``str.split()`` separators; a test checks the
list against all of Unicode)."""

WHITESPACE_RE2 = "[" + "".join(f"\\x{{{ord(c):04x}}}" for c in WHITESPACE) + "]"
""":data:`WHITESPACE` as an RE2 character class (DuckDB's regular expressions)."""

MAX_SESSION_GAP = 10 ** 9


def check_session_gap(gap: object) -> int:
    """A session gap: an integer number of seconds in [0, 10^9] (the CLI's --session-gap, the API's session_gap)."""
    from privclaims.theory.validate import integer

    return integer(gap, "session_gap (seconds between two searches of one session)", lo=0, hi=MAX_SESSION_GAP)


def sql_strip(column: str) -> str:
    """SQL for ``column.strip()`` (Python's: white space of :data:`WHITESPACE` removed at both ends)."""
    return f"regexp_replace({column}, '^{WHITESPACE_RE2}+|{WHITESPACE_RE2}+$', '', 'g')"


def sql_blank(column: str) -> str:
    """SQL for ``not column.strip()`` (empty or only white space)."""
    return f"regexp_full_match({column}, '{WHITESPACE_RE2}*')"


def canonical_history(history: Sequence[Entry]) -> list[tuple[int, str]]:
    """The searches (time, query) of a history: distinct, in (time, query) order (see the module)."""
    pairs = [(e.time, e.query) for e in history]
    if all(a < b for a, b in zip(pairs, pairs[1:])):  # already strictly ordered: the usual case, O(n)
        return pairs
    return sorted(set(pairs))


def item_text(item: Hashable) -> str:
    """The text of an item: query pairs ``(q1, q2)`` become ``"q1<TAB>q2"`` (as in the SQL)."""
    if isinstance(item, tuple):
        return "\t".join(item)
    return str(item)


@dataclass(frozen=True)
class ItemKind:
    """An item kind (``keywords``, ``queries``, ``clicks``, ``query_pairs``) with its session gap in
    seconds (used by query pairs only). Build it with :meth:`of`; every engine takes it as is."""

    name: str
    session_gap: int = DEFAULT_SESSION_GAP

    @classmethod
    def of(cls, kind: "ItemKind | str", session_gap: object = None) -> "ItemKind":
        """Parse ``kind`` (a name, or an :class:`ItemKind` kept as it is) and ``session_gap`` (an integer
        number of seconds in [0, 10^9]; default 30 minutes)."""
        if isinstance(kind, ItemKind):
            if session_gap is not None and check_session_gap(session_gap) != kind.session_gap:
                raise InvalidInput(f"session_gap = {session_gap!r} contradicts the item kind's gap {kind.session_gap}")
            return kind
        if not isinstance(kind, str) or kind not in ITEM_KINDS:
            raise InvalidInput(f"unknown item kind {kind!r}; use one of {ITEM_KINDS}")
        gap = DEFAULT_SESSION_GAP if session_gap is None else check_session_gap(session_gap)
        return cls(kind, gap)

    def __str__(self) -> str:
        return self.name

    def items(self, history: Sequence[Entry]) -> set[Hashable]:
        """The set of distinct items of one user's history (query pairs as ``(q1, q2)`` tuples)."""
        if self.name == "keywords":  # the tokens of the user's queries joined by a space: the union of their splits
            return set(" ".join([e.query for e in history]).split())
        if self.name == "queries":
            return {e.query for e in history} - {""}
        if self.name == "clicks":
            return {c for e in history for c in e.clicks} - {""}
        h = canonical_history(history)
        gap = self.session_gap
        return {(a, b) for (s, a), (t, b) in zip(h, h[1:]) if t - s <= gap}

    def texts(self, history: Sequence[Entry]) -> set[str]:
        """:meth:`items` as texts (:func:`item_text`)."""
        return {item_text(k) for k in self.items(history)} - {""}

    def sql(self, table: str = "log") -> str:
        """The same definition over a table ``(user, query, t, click)`` (one row per click, ``click`` NULL
        for a click-less search): SQL selecting the distinct ``(user, item)`` rows, item as text."""
        if self.name == "keywords":
            return (f"SELECT DISTINCT user, item FROM (SELECT user, unnest(regexp_split_to_array(query, "
                    f"'{WHITESPACE_RE2}+')) AS item FROM (SELECT DISTINCT user, query FROM {table})) WHERE item <> ''")
        if self.name == "queries":
            return f"SELECT DISTINCT user, query AS item FROM {table} WHERE query <> ''"
        if self.name == "clicks":
            return f"SELECT DISTINCT user, click AS item FROM {table} WHERE click IS NOT NULL AND click <> ''"
        return (
            "SELECT DISTINCT user, (pq || chr(9) || query) AS item FROM ("
            f"SELECT user, query, t, lag(query) OVER w AS pq, lag(t) OVER w AS pt FROM (SELECT DISTINCT user, query, t "
            f"FROM {table}) WINDOW w AS (PARTITION BY user ORDER BY t, query)) "
            f"WHERE pq IS NOT NULL AND t - pt <= {int(self.session_gap)}"
        )


def user_texts(histories: Iterable[tuple[str, Sequence[Entry]]], kind: ItemKind) -> dict[str, set[str]]:
    """``{user: the texts of the user's items}`` (:meth:`ItemKind.texts`)."""
    return {u: kind.texts(h) for u, h in histories}


__all__ = ["DEFAULT_SESSION_GAP", "WHITESPACE", "WHITESPACE_RE2", "ItemKind", "check_session_gap", "canonical_history", "item_text",
           "sql_strip", "sql_blank", "user_texts"]
