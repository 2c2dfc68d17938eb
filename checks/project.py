"""A claims ledger project: documents, a catalogue of claims, definitions with their readings, checks, pins.

A project is a folder with a ``privclaims.toml`` (issue 24)::

    [ledger]
    name = "My draft"
    catalog = "claims.toml"          # the claims: id, area, source, statement (kind, check optional)
    pins = "pins"                    # a folder: one JSON file per pinned claim, <area>/<label>.json
    checks = ["checks.py"]           # files or folders (relative to this folder), or importable module names
    definitions = ["definitions.py"] # optional, same forms: modules whose Definition objects are the registry
    quotes = []                      # optional modules with a BY_READING table of quotes per claim / reading

    [documents]                      # the texts that quotes are copied from
    files = ["draft.md"]
    search = ["."]                   # folders searched in order; "$VAR/..." entries use the environment

    [data]                           # optional: where data sets named by needs_data= are found
    search = ["$MY_DATA"]
    real = ["census-2020"]           # data sets that count as real data for a reproduction

The papers' own ledger is such a project (``checks/privclaims.toml``, shipped with the package): there is one
code path, and no global registry — a check module's ``@claim`` functions are collected from the module
(:func:`privclaims.checks.registry.claim` records them there), a project's definitions from its modules.
Files are read with strict schemas (pydantic, unknown keys refused).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import os
import pkgutil
import sys
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any, Iterable

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from privclaims.checks.readings import AS_STATED_MEANING, Definition, Quote, Reading, as_quotes, combinations

CONFIG_NAME = "privclaims.toml"
CHECKS_ATTR = "__privclaims_checks__"  # where @claim (privclaims.checks.registry) records a module's checks


def checks_of(module: Any) -> list[Any]:
    """The checks a module recorded with :func:`privclaims.checks.registry.claim` (in definition order)."""
    return list(getattr(module, CHECKS_ATTR, ()))


class ProjectError(Exception):
    """A project that cannot be loaded: the message names the file, the key and the rule."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class LedgerSection(_Strict):
    name: str = Field(min_length=1)
    catalog: str = Field(min_length=1)
    pins: str = Field(min_length=1)
    checks: list[str] = Field(min_length=1)
    definitions: list[str] = []
    quotes: list[str] = []
    areas: list[str] = []


class DocumentsSection(_Strict):
    files: list[str] = []
    search: list[str] = []


class DataSection(_Strict):
    search: list[str] = []
    real: list[str] = []


class ProjectFile(_Strict):
    ledger: LedgerSection
    documents: DocumentsSection = DocumentsSection()
    data: DataSection = DataSection()


class CatalogRow(_Strict):
    id: str = Field(min_length=3, pattern=r"^[A-Za-z0-9_-]+\.[A-Za-z0-9_.-]+$")
    area: str = Field(min_length=1)
    source: str = Field(min_length=1)
    statement: str = Field(min_length=1)
    kind: str = "claim"
    check: str = ""


class CatalogFile(_Strict):
    source: str = ""
    claims: list[CatalogRow] = Field(min_length=1)


@dataclass(frozen=True)
class CatalogEntry:
    id: str
    area: str
    source: str
    kind: str
    statement: str
    check: str  # the catalog's suggested check type


def explain(e: ValidationError, where: str) -> str:
    """A schema violation in one line: ``where``, then each unknown key, missing key or wrong value (with the value)."""
    parts = []
    for err in e.errors():
        loc = ".".join(str(x) for x in err["loc"])
        if err["type"] == "extra_forbidden":
            parts.append(f"unknown key {loc!r}")
        elif err["type"] == "missing":
            parts.append(f"missing key {loc!r}")
        else:
            parts.append(f"{loc}: {err['msg']} (got {err.get('input')!r})")
    return f"{where}: " + "; ".join(parts)


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ProjectError(f"{path}: no such file") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ProjectError(f"{path}: not valid TOML ({e})") from None


def read_catalog(path: Path) -> dict[str, CatalogEntry]:
    """The catalogue (``.json`` with ``{"claims": [...]}`` or ``.toml`` with ``[[claims]]``), by claim ID."""
    try:
        raw = _read_toml(path) if path.suffix == ".toml" else json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ProjectError(f"catalogue {path}: no such file") from None
    except (ValueError, UnicodeDecodeError) as e:
        raise ProjectError(f"catalogue {path}: not readable ({e})") from None
    try:
        cat = CatalogFile.model_validate(raw)
    except ValidationError as e:
        raise ProjectError(explain(e, f"catalogue {path}")) from None
    out: dict[str, CatalogEntry] = {}
    for row in cat.claims:
        if row.id in out:
            raise ProjectError(f"catalogue {path}: claim {row.id!r} appears twice")
        out[row.id] = CatalogEntry(row.id, row.area, row.source, row.kind, row.statement, row.check)
    return out


def _expand(entry: str, base: Path) -> Path | None:
    """A search-path entry: ``$VAR`` / ``${VAR}`` from the environment (None when unset), relative to ``base``."""
    if "$" in entry:
        import re

        names = re.findall(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?", entry)
        if any(not os.environ.get(n) for n in names):
            return None
        entry = os.path.expandvars(entry)
    p = Path(entry).expanduser()
    return (p if p.is_absolute() else base / p).resolve()


@dataclass
class Project:
    """A loaded ledger project (see the module docstring)."""

    root: Path
    config: ProjectFile
    catalog: dict[str, CatalogEntry]
    checks: dict[str, Any] = field(default_factory=dict)  # id -> ClaimCheck
    definitions: dict[str, Definition] = field(default_factory=dict)
    quote_tables: list[dict[str, tuple[Quote, ...]]] = field(default_factory=list)
    documents_override: Path | None = None
    _texts: dict[str, str | None] = field(default_factory=dict, repr=False)
    pin_cache: dict[str, Any] = field(default_factory=dict, repr=False)  # claim id -> pin (privclaims.checks.pins)

    # ------------------------------------------------------------------ loading

    @classmethod
    def read(cls, folder: str | Path, documents: str | Path | None = None) -> "Project":
        """The project's files alone: ``folder/privclaims.toml`` (or that file itself) and the catalogue, nothing
        imported (no checks, definitions or quotes): enough to validate a selection of claims, areas and pins."""
        root, cfg = read_config(folder)
        return cls(root, cfg, read_catalog(root / cfg.ledger.catalog),
                   documents_override=Path(documents) if documents else None)

    @classmethod
    def load(cls, folder: str | Path, documents: str | Path | None = None) -> "Project":
        """:meth:`read`, then import the check, definition and quote modules."""
        proj = cls.read(folder, documents)
        proj._collect()
        return proj

    def _modules(self, entries: Iterable[str]) -> list[ModuleType]:
        mods: list[ModuleType] = []
        for e in entries:
            p = self.root / e
            if e.endswith(".py") or p.is_dir():
                mods += _import_path(p, self.root)
            else:
                try:
                    m = importlib.import_module(e)
                except ImportError as ex:
                    raise ProjectError(f"{self.config_path}: module {e!r} cannot be imported ({ex})") from None
                mods.append(m)
                if hasattr(m, "__path__"):
                    for info in pkgutil.walk_packages(m.__path__, prefix=f"{m.__name__}."):
                        mods.append(importlib.import_module(info.name))
        return mods

    def _collect(self) -> None:
        for m in self._modules(self.config.ledger.definitions):
            for v in vars(m).values():
                if isinstance(v, Definition):
                    self._add_definition(v, m)
        check_mods = self._modules(self.config.ledger.checks)
        for m in check_mods:
            for chk in checks_of(m):
                if chk.id not in self.catalog:
                    raise ProjectError(f"{m.__name__}: @claim({chk.id!r}) is not a claim of the catalogue "
                                       f"{self.config.ledger.catalog}")
                if chk.id in self.checks:
                    raise ProjectError(f"{chk.id!r} registered twice ({self.checks[chk.id].fn.__module__} and "
                                       f"{chk.fn.__module__})")
                self.checks[chk.id] = chk
                for d in chk.rests_on or ():
                    if isinstance(d, Definition):
                        self._add_definition(d, m)
        for chk in self.checks.values():
            for d in chk.rests_on or ():
                did = d.id if isinstance(d, Definition) else d
                if did not in self.definitions:
                    raise ProjectError(f"{chk.id}: rests on {did!r}, which no definitions module of the project declares")
            for na in chk.not_applicable:
                if na.definition not in {(d.id if isinstance(d, Definition) else d) for d in chk.rests_on or ()}:
                    raise ProjectError(f"{chk.id}: not_applicable names {na.definition!r}, a definition it does not rest on")
        for m in self._modules(self.config.ledger.quotes):
            table = getattr(m, "BY_READING", None)
            if not isinstance(table, dict):
                raise ProjectError(f"quotes module {m.__name__} has no BY_READING table")
            self.quote_tables.append({k: as_quotes(v) for k, v in table.items()})
        for cid, chk in self.checks.items():  # what each claim owes, refused here rather than mid-run
            try:
                combinations(self.claim_definitions(cid), self.own_readings(cid), chk.not_applicable)
            except ValueError as e:
                raise ProjectError(f"{cid} ({chk.fn.__module__}): {e}") from None

    def _add_definition(self, d: Definition, m: ModuleType) -> None:
        old = self.definitions.get(d.id)
        if old is not None and old != d:
            raise ProjectError(f"definition {d.id!r} is declared twice, differently (again in {m.__name__})")
        self.definitions[d.id] = d

    # ------------------------------------------------------------------ what the runner asks

    @property
    def config_path(self) -> Path:
        return self.root / CONFIG_NAME

    @property
    def name(self) -> str:
        return self.config.ledger.name

    @property
    def areas(self) -> tuple[str, ...]:
        declared = tuple(self.config.ledger.areas)
        seen = tuple(dict.fromkeys(e.area for e in self.catalog.values()))
        return declared + tuple(a for a in seen if a not in declared)

    @property
    def pins_dir(self) -> Path:
        return self.root / self.config.ledger.pins

    @property
    def real_data(self) -> tuple[str, ...]:
        return tuple(self.config.data.real)

    def definition(self, d: Any) -> Definition:
        did = d.id if isinstance(d, Definition) else d
        return self.definitions[did]

    def quotes_for(self, claim_id: str, reading: str | None = None) -> tuple[Quote, ...]:
        key = claim_id if reading is None else f"{claim_id}/{reading}"
        return tuple(q for t in self.quote_tables for q in t.get(key, ()))

    def own_readings(self, claim_id: str) -> tuple[Reading, ...]:
        """The claim's own readings with the quote tables' quotes attached (the catalogued statement "as stated",
        at the catalogued source, when the check declares none)."""
        chk = self.checks.get(claim_id)
        rs = chk.readings if chk and chk.readings else (Reading(
            "as stated", AS_STATED_MEANING, self.catalog[claim_id].source),)
        shared = self.quotes_for(claim_id)
        return tuple(r.with_quotes(shared + self.quotes_for(claim_id, r.name)) if (shared or self.quotes_for(claim_id, r.name))
                     else r for r in rs)

    def claim_definitions(self, claim_id: str) -> tuple[Definition, ...]:
        chk = self.checks.get(claim_id)
        return tuple(self.definition(d) for d in (chk.rests_on or ())) if chk else ()

    def documents_dir(self) -> Path | None:
        """The first folder of the documents' search path holding the project's documents (None: not found)."""
        cands = [self.documents_override] if self.documents_override else []
        cands += [_expand(e, self.root) for e in self.config.documents.search]
        files = self.config.documents.files
        for c in cands:
            if c is not None and c.is_dir() and all((c / f).is_file() for f in files):
                return c
        return None

    def data_dir(self) -> Path | None:
        for e in self.config.data.search:
            c = _expand(e, self.root)
            if c is not None and c.is_dir():
                return c
        return None

    def document_text(self, name: str) -> str | None:
        """The document's text, whitespace-normalised (None when the documents are absent)."""
        if name not in self._texts:
            self._texts[name] = read_document(self.documents_dir(), name)
        return self._texts[name]


def read_document(folder: Path | None, name: str) -> str | None:
    """The text of document ``name`` in ``folder``, whitespace-normalised (runs of blanks and line breaks become
    one space, as quotes are matched); None when the folder or the file is absent."""
    f = None if folder is None else folder / name
    return " ".join(f.read_text(encoding="utf-8").split()) if f is not None and f.is_file() else None


def project_package(root: Path) -> str:
    """The name of the package a project's files are imported into: the folder's name (readable in tracebacks) and a
    digest of its whole path, so that two projects never share one (``my-draft`` and its copy ``my_draft``, or two
    folders whose paths end alike, once ran the first one's checks for both in one process)."""
    tag = "".join(c if c.isalnum() else "_" for c in root.name)[-40:]
    return f"privclaims_project_{tag}_{hashlib.sha256(str(root).encode('utf-8', 'surrogateescape')).hexdigest()[:16]}"


def _import_path(p: Path, root: Path) -> list[ModuleType]:
    """Import a project's ``.py`` file, or every ``.py`` file below a folder, as modules of a package named after
    the project folder (so that a check module may import a sibling helper with a relative import)."""
    if not p.exists():
        raise ProjectError(f"{p}: no such file or folder (named in {root / CONFIG_NAME})")
    pkg = project_package(root)
    if pkg not in sys.modules:
        spec = importlib.util.spec_from_loader(pkg, loader=None, is_package=True)
        mod = importlib.util.module_from_spec(spec)
        mod.__path__ = [str(root)]
        sys.modules[pkg] = mod
    files = sorted(p.rglob("*.py")) if p.is_dir() else [p]
    out = []
    for f in files:
        rel = f.relative_to(root).with_suffix("")
        name = ".".join([pkg, *rel.parts])
        if name in sys.modules:
            out.append(sys.modules[name])
            continue
        for i in range(1, len(rel.parts)):  # intermediate folders as namespace packages
            sub = ".".join([pkg, *rel.parts[:i]])
            if sub not in sys.modules:
                s = importlib.util.spec_from_loader(sub, loader=None, is_package=True)
                sm = importlib.util.module_from_spec(s)
                sm.__path__ = [str(root.joinpath(*rel.parts[:i]))]
                sys.modules[sub] = sm
        spec = importlib.util.spec_from_file_location(name, f)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        try:
            spec.loader.exec_module(mod)
        except Exception as e:
            del sys.modules[name]
            raise ProjectError(f"{f}: importing it failed: {type(e).__name__}: {e}") from e
        out.append(mod)
    return out


def read_config(folder: str | Path) -> tuple[Path, ProjectFile]:
    """The project's folder (resolved) and its ``privclaims.toml``, validated (nothing imported)."""
    path = Path(folder)
    cfg_path = path if path.is_file() else path / CONFIG_NAME
    if not cfg_path.is_file():
        raise ProjectError(f"{path}: no {CONFIG_NAME} there (a ledger project is a folder with one)")
    try:
        cfg = ProjectFile.model_validate(_read_toml(cfg_path))
    except ValidationError as e:
        raise ProjectError(explain(e, str(cfg_path))) from None
    return cfg_path.parent.resolve(), cfg


@lru_cache(maxsize=None)
def project_catalog(folder: str) -> dict[str, CatalogEntry]:
    """The project's catalogue alone, without importing its checks: what a check module may read while it is
    being imported (a check module that asked for the whole project then would cache a project missing the
    checks its package had not yet defined)."""
    root, cfg = read_config(folder)
    return read_catalog(root / cfg.ledger.catalog)


@lru_cache(maxsize=None)
def load_project(folder: str, documents: str | None = None) -> Project:
    """The project in ``folder`` (loaded once per process)."""
    return Project.load(folder, documents)


PAPERS = Path(__file__).resolve().parent  # checks/: the papers' project (privclaims.toml beside this file)


def papers() -> Project:
    """The papers' own ledger, shipped with the package."""
    return load_project(str(PAPERS))
