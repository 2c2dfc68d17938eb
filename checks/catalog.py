"""The papers' claims catalogue (``catalog.json``, copied from the claims catalogue; see its "source" field) and
pinned verdicts, as read through the papers' ledger project (:func:`privclaims.checks.project.papers`)."""

from __future__ import annotations

from privclaims.checks.project import PAPERS, CatalogEntry, papers, project_catalog

__all__ = ["AREAS", "CatalogEntry", "catalog", "expected"]

AREAS = ("dp", "maskit", "ads", "count", "zealous", "querygen")


def catalog() -> dict[str, CatalogEntry]:
    """Claim ID -> entry, in catalogue order (read without importing the checks: check modules call this while
    they are imported)."""
    return project_catalog(str(PAPERS))


def expected() -> dict[str, str]:
    """Pinned verdicts of the papers' claims (:mod:`privclaims.checks.pins`)."""
    from privclaims.checks.pins import pinned_verdicts

    return pinned_verdicts(papers())
