"""The experiment cache's keys (theory/cache.py): a memo is reused only by the code that computed it, on the data it
read; every disk memo of the project goes through them."""

from __future__ import annotations

import hashlib
import importlib
import os
from pathlib import Path

from privclaims.theory import cache


def _tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return root


def test_tree_key_moves_with_any_source_file_and_only_with_source(tmp_path):
    root = _tree(tmp_path / "pkg", {"a.py": "x = 1\n", "sub/b.py": "y = 2\n"})
    k0 = cache.tree_key([root])
    assert cache.tree_key([root]) == k0  # deterministic
    (root / "sub" / "b.py").write_text("y = 3\n")  # an edit deep in a subpackage
    k1 = cache.tree_key([root])
    assert k1 != k0
    (root / "sub" / "c.py").write_text("")  # an added (empty) module
    k2 = cache.tree_key([root])
    assert k2 not in (k0, k1)
    (root / "sub" / "c.py").rename(root / "sub" / "d.py")  # a rename
    assert cache.tree_key([root]) not in (k0, k1, k2)
    (root / "sub" / "d.py").unlink()
    assert cache.tree_key([root]) == k1
    (root / "__pycache__").mkdir()
    (root / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\0\1")
    (root / "data.json").write_text("{}")
    assert cache.tree_key([root]) == k1  # bytecode and data files are not code
    assert cache.tree_key([root, root / "sub"]) == cache.tree_key([root, root / "sub"])
    assert cache.tree_key([root / "sub"]) != k1


def test_code_key_covers_every_installed_package_folder():
    roots = cache.package_roots()
    names = {p.name for p in roots}
    assert {"privclaims", "theory", "checks", "counterexamples"} <= names, roots
    every = {f.resolve() for r in roots for f in r.rglob("*.py")}
    for module in ("privclaims.theory.ads.aol", "privclaims.theory.zealous.loaders", "privclaims.theory.validate",
                   "privclaims.theory.maskit.substitute", "privclaims.checks.claims.ads.experiments"):
        assert Path(importlib.import_module(module).__file__).resolve() in every, module
    assert cache.code_key() == cache.tree_key(roots)


def test_data_key_moves_with_a_rewritten_or_added_file(tmp_path):
    d = _tree(tmp_path / "data", {"u1.txt": "a\n", "x/u2.txt": "b\n", "notes.md": "n"})
    k0 = cache.data_key(d, "*.txt")
    assert [name for name, _, _ in k0] == ["u1.txt", "x/u2.txt"]
    f = d / "u1.txt"
    st = f.stat()
    f.write_text("c\n")  # same size, and the time put back (as cp -p, rsync -a or tar x leave it): the bytes tell
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert f.stat().st_mtime_ns == st.st_mtime_ns and f.stat().st_size == st.st_size
    assert cache.data_key(d, "*.txt") != k0
    (d / "u3.txt").write_text("")
    assert len(cache.data_key(d, "*.txt")) == 3
    assert cache.data_key(d / "u1.txt") == [("u1.txt", 2, hashlib.blake2b(b"c\n", digest_size=16).hexdigest())]
    assert cache.data_key(tmp_path / "absent") == []


def test_memoised_reuses_only_the_same_key_code_and_data(tmp_path, monkeypatch):
    monkeypatch.setenv("PRIVCLAIMS_CACHE", str(tmp_path / "c"))
    calls = []

    def compute():
        calls.append(1)
        return {"n": len(calls)}

    key = {"kind": "t", "seed": 1}
    assert cache.memoised("m", key, compute) == {"n": 1}
    assert cache.memoised("m", key, compute) == {"n": 1} and len(calls) == 1  # read back, not recomputed
    assert cache.memoised("m", {**key, "seed": 2}, compute) == {"n": 2}  # another parameter
    monkeypatch.setattr(cache, "code_key", lambda: "other code")
    assert cache.memoised("m", key, compute) == {"n": 3}  # another version of the package
    assert len(list((tmp_path / "c").glob("*.pkl"))) == 3


def test_maskit_geolife_memo_is_keyed_on_the_data_files(tmp_path, monkeypatch):
    """A GeoLife population memo is recomputed when a file under the data folder changes (the key used to be the
    folder's path alone)."""
    from privclaims.theory.maskit import experiment

    monkeypatch.setenv("PRIVCLAIMS_CACHE", str(tmp_path / "c"))
    root = _tree(tmp_path / "geolife", {"Data/000/Trajectory/a.plt": "1\n"})
    runs = []
    key = {"kind": "geolife", "root": str(root), "seed": 3}
    experiment.cached(key, lambda: runs.append(1) or len(runs))
    experiment.cached(key, lambda: runs.append(1) or len(runs))
    assert len(runs) == 1
    (root / "Data" / "000" / "Trajectory" / "b.plt").write_text("2\n")
    assert experiment.cached(key, lambda: runs.append(1) or len(runs)) == 2


def test_ads_suite_memo_name_moves_with_code_and_data(tmp_path, monkeypatch):
    from privclaims.checks.claims.ads import experiments as X

    logs = _tree(tmp_path / "logs", {"1.txt": "AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n"})
    k0 = X._cache_key(str(logs), 1, 2)
    assert X._cache_key(str(logs), 1, 3) != k0 and X._cache_key(str(logs), 2, 2) != k0
    (logs / "2.txt").write_text("")
    k1 = X._cache_key(str(logs), 1, 2)
    assert k1 != k0
    monkeypatch.setattr(cache, "code_key", lambda: "other code")
    assert X._cache_key(str(logs), 1, 2) != k1


def _aol_dir(root: Path, clicks: int) -> Path:
    """Three users' files in the per-user layout (blocks of ``query<TAB>time`` and its clicked URLs): user 1 searches
    ``clicks`` times clicking site a, each user once clicking site b."""
    blocks = {1: [f"shoes red\t2006-03-01 10:00:{i:02d}\nhttp://a.com/\n" for i in range(clicks)], 2: [], 3: []}
    for u in (1, 2, 3):
        blocks[u].append(f"shoes blue\t2006-03-02 11:00:0{u}\nhttp://b.com/\n")
    return _tree(root, {f"user_search_logs/{u}.txt": "\n".join(bs) for u, bs in blocks.items()})


def test_count_aol_emulation_is_the_built_one_and_follows_its_files(tmp_path, monkeypatch):
    from privclaims.theory.count import aol

    monkeypatch.setenv("PRIVCLAIMS_CACHE", str(tmp_path / "c"))
    root = _aol_dir(tmp_path / "aol", clicks=2)

    def fields(em):
        return (em.ads, dict(em.bids), list(em.test), em.train, em.n_train_users)

    em = aol.emulation(root, n_ads=2, per_context=1, seed=4)
    assert fields(em) == fields(aol.build(aol.read_aol(root), n_ads=2, per_context=1, seed=4))
    assert aol.emulation(root, n_ads=2, per_context=1, seed=4) is em  # this process's memo
    assert len(list((tmp_path / "c").glob("*.pkl"))) == 1
    _aol_dir(tmp_path / "aol", clicks=0)  # user 1's file rewritten: site a is no longer clicked
    again = aol.emulation(root, n_ads=2, per_context=1, seed=4)
    assert fields(again) == fields(aol.build(aol.read_aol(root), n_ads=2, per_context=1, seed=4)) != fields(em)


def test_ads_aol_events_memo_follows_its_files(tmp_path, monkeypatch):
    from privclaims.theory.ads import aol

    monkeypatch.setenv("PRIVCLAIMS_CACHE", str(tmp_path / "c"))
    folder = str(_aol_dir(tmp_path / "aol", clicks=3) / "user_search_logs")
    aol.load_events.cache_clear()
    first = aol.load_events(folder)
    assert first.leaves == aol.build_events(aol.read_log_dir(folder)).leaves
    aol.load_events.cache_clear()
    assert aol.load_events(folder).leaves == first.leaves  # read back from the memo
    _aol_dir(tmp_path / "aol", clicks=5)
    aol.load_events.cache_clear()
    assert aol.load_events(folder).leaves == aol.build_events(aol.read_log_dir(folder)).leaves != first.leaves
    aol.load_events.cache_clear()


def test_data_and_tree_keys_follow_symlinked_folders(tmp_path):
    """A data set or a package laid out with symlinked folders (``aol/user_search_logs -> elsewhere``, GeoLife users
    linked in, a linked subpackage) is keyed on the files the loaders read through the links: the keys used to walk with
    ``Path.rglob``, which does not descend into a symlinked folder, so such files were missing from the key and a
    rewritten one kept the old memo. A link back to an enclosing folder is walked once (no loop)."""
    store = _tree(tmp_path / "store", {"logs/1.txt": "a\n", "logs/2.txt": "b\n", "pkg/sub/m.py": "x = 1\n"})
    root = tmp_path / "aol"
    root.mkdir()
    (root / "user_search_logs").symlink_to(store / "logs", target_is_directory=True)
    (root / "loop").symlink_to(root, target_is_directory=True)
    k0 = cache.data_key(root, "*.txt")
    assert [name for name, _, _ in k0] == ["user_search_logs/1.txt", "user_search_logs/2.txt"]
    (store / "logs" / "1.txt").write_text("changed\n")
    assert cache.data_key(root, "*.txt") != k0
    pkg = _tree(tmp_path / "pkg", {"a.py": "y = 2\n"})
    (pkg / "sub").symlink_to(store / "pkg" / "sub", target_is_directory=True)
    t0 = cache.tree_key([pkg])
    (store / "pkg" / "sub" / "m.py").write_text("x = 2\n")
    assert cache.tree_key([pkg]) != t0


def test_count_aol_emulation_follows_a_rewritten_file_behind_a_symlinked_folder(tmp_path, monkeypatch):
    from privclaims.theory.count import aol

    monkeypatch.setenv("PRIVCLAIMS_CACHE", str(tmp_path / "c"))
    _aol_dir(tmp_path / "store", clicks=2)
    root = tmp_path / "aol"
    root.mkdir()
    (root / "user_search_logs").symlink_to(tmp_path / "store" / "user_search_logs", target_is_directory=True)
    em = aol.emulation(root, n_ads=2, per_context=1, seed=4)
    _aol_dir(tmp_path / "store", clicks=0)  # user 1's file rewritten behind the link
    aol._EMULATIONS.clear()  # as in a new process: the disk memo alone
    again = aol.emulation(root, n_ads=2, per_context=1, seed=4)
    assert again.train == aol.build(aol.read_aol(root), n_ads=2, per_context=1, seed=4).train != em.train


def test_an_unreadable_memo_is_recomputed(tmp_path, monkeypatch):
    """A memo file that cannot be unpickled - empty, truncated, garbage, or naming a module this environment lacks (as a
    pickle written beside another numpy or another version of the package would) - is recomputed and rewritten, never
    an error: memoised and the ads AOL suite alike."""
    import pickle

    from privclaims.checks.claims.ads import experiments as X

    monkeypatch.setenv("PRIVCLAIMS_CACHE", str(tmp_path / "c"))
    key = {"kind": "t"}
    cache.memoised("m", key, lambda: {"n": 1})
    path = tmp_path / "c" / (cache.key_name(key) + ".pkl")
    assert path.exists()
    # a module this environment lacks (the name keeps its length, so the pickle stays well-formed)
    missing_module = pickle.dumps(cache.memoised).replace(b"privclaims.theory.cache", b"privclaims.theory.cachX")
    blobs = {"empty": b"", "truncated": pickle.dumps({"n": 0})[:7], "garbage": b"\x80\x04\x95" + b"\xff" * 64,
             "missing module": missing_module}
    for label, blob in blobs.items():
        path.write_bytes(blob)
        assert cache.memoised("m", key, lambda: {"n": 2}) == {"n": 2}, label
        assert pickle.loads(path.read_bytes()) == {"n": 2}, label
    logs = _tree(tmp_path / "logs", {"1.txt": "q\t2006-03-01 10:00:00\n"})
    monkeypatch.setattr(X, "_compute_suite", lambda folder, seed, min_support=2: {"seed": seed})
    suite = X._suite_path(str(logs), 3, 2)
    for label, blob in blobs.items():
        suite.write_bytes(blob)
        assert X._locked_suite(str(logs), 3, 2, wait=True) == {"seed": 3}, label
        assert pickle.loads(suite.read_bytes()) == {"seed": 3}, label


def test_memo_names_move_with_the_runtime(tmp_path, monkeypatch):
    """A memo is reused only under the Python, numeric libraries and rational backend that computed it: numpy's random
    streams may change between releases, and a memo written under ``PRIVCLAIMS_RATIONAL=fraction`` holds Fractions."""
    import subprocess
    import sys

    import numpy

    from privclaims.theory.numbers import RATIONAL_BACKEND

    rt = cache.runtime_key()
    assert rt["numpy"] == numpy.__version__ and rt["rational"] == RATIONAL_BACKEND and sys.version in rt["python"]
    key = {"kind": "t", "seed": 1}
    k0 = cache.key_name(key)
    monkeypatch.setattr(cache, "runtime_key", lambda: {**rt, "numpy": "0.0"})
    assert cache.key_name(key) != k0
    monkeypatch.undo()
    if RATIONAL_BACKEND != "gmpy2.mpq":
        return  # no other backend to compare with here
    code = "from privclaims.theory import cache; print(cache.key_name({'kind': 't', 'seed': 1}))"
    names = {backend: subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                     env={**os.environ, "PRIVCLAIMS_RATIONAL": backend}).stdout.strip()
             for backend in ("", "fraction")}
    assert names[""] == k0 != names["fraction"]


def test_count_aol_emulation_memo_per_seed_and_per_context_is_the_built_one(tmp_path, monkeypatch):
    """Each argument is part of the memo's key: with two bidders per context the seed draws the ad each training event
    shows, so a memo keyed without it would serve seed 0's emulation to seed 1 (the instance above has one bidder per
    context and no test user: its emulation does not depend on the seed)."""
    from privclaims.theory.count import aol

    monkeypatch.setenv("PRIVCLAIMS_CACHE", str(tmp_path / "c"))
    root = _aol_dir(tmp_path / "aol", clicks=6)
    events = aol.read_aol(root)
    built = {(s, p): aol.build(events, n_ads=2, per_context=p, seed=s).train for s in range(4) for p in (1, 2)}
    assert len(set(built.values())) > 2  # the arguments matter on this instance
    for (s, p), train in built.items():
        aol._EMULATIONS.clear()  # the disk memo alone, as in a new process
        assert aol.emulation(root, n_ads=2, per_context=p, seed=s).train == train, (s, p)
    assert len(list((tmp_path / "c").glob("*.pkl"))) == len(built)


class _SeesTheCollector:
    """Records, as it is unpickled, whether the cyclic collector is enabled."""

    seen: list = []

    def __init__(self):
        self.state = "some"  # a state to set: pickle calls __setstate__ only then

    def __setstate__(self, state):
        import gc

        _SeesTheCollector.seen.append(gc.isenabled())


def test_a_memo_is_unpickled_with_the_collector_paused_and_restored(tmp_path):
    """read_memo unpickles under theory/gcpause.gc_paused (a memo is a bulk construction) and leaves the collector as
    it found it: on when it was on, off when it was off - also when the memo is corrupt."""
    import gc

    path = tmp_path / "m.pkl"
    assert cache.write_memo(path, [_SeesTheCollector(), 1])
    _SeesTheCollector.seen.clear()
    assert gc.isenabled()
    try:  # the collector is on again after this test, whatever fails
        found, value = cache.read_memo(path)
        assert found and value[1] == 1 and _SeesTheCollector.seen == [False] and gc.isenabled()
        gc.disable()
        assert cache.read_memo(path)[0] and not gc.isenabled()
        (tmp_path / "bad.pkl").write_bytes(b"\x80\x05junk")
        assert cache.read_memo(tmp_path / "bad.pkl") == (False, None) and not gc.isenabled()
    finally:
        gc.enable()
    assert cache.read_memo(tmp_path / "bad.pkl") == (False, None) and gc.isenabled()
