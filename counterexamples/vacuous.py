"""What a property returns outside its declared premise (:mod:`~privclaims.counterexamples.property_search`), in a
module of its own that imports nothing: a check module, and the ledger's public door (:mod:`privclaims.ledger`), can
name it at import without loading Hypothesis."""

from __future__ import annotations


class _Vacuous:
    """The type of :data:`VACUOUS` (one object)."""

    def __repr__(self) -> str:
        return "VACUOUS"


VACUOUS = _Vacuous()
"""What a property returns on an instance that does not meet its declared premise (it holds, and tests nothing)."""
