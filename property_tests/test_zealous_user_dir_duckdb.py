"""DuckDB reads a per-user folder itself (issue 25: the default engine's reader) and gives exactly the rows of
the Python reader; any folder the Python reader's bulk path would not read plainly goes to the Python reader.

``duck.load_user_dir_duckdb`` must never give a log the Python reader would not: a file it reads natively
holds the same (user, query, t, click) rows; a file off the plain layout (white space around a url, two
empty lines, a time with spaces, a blank query, a carriage return, bad UTF-8) makes the whole folder go to the
Python reader, which reads it or raises its InvalidInput.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privclaims.theory.errors import InvalidInput
from privclaims.theory.zealous import databases, duck, sources
from privclaims.theory.zealous.items import WHITESPACE
from privclaims.theory.zealous.loaders import load_user_dir


def python_rows(folder: Path) -> list:
    return sorted(sources.log_rows(load_user_dir(folder)), key=repr)


def duck_rows(folder: Path, native: bool | None = None, monkeypatch=None) -> list:
    """The rows DuckDB's reader gives; ``native``: assert it read the folder itself (True) or deferred (False)."""
    called = []
    if monkeypatch is not None:
        real = duck._load_dir_via_python
        monkeypatch.setattr(duck, "_load_dir_via_python", lambda con, d: called.append(d) or real(con, d))
    with databases.session() as con:  # a new connection (its own temporary tables) to this thread's database
        duck.load_source(con, folder)
        if native is not None:
            assert (not called) == native, f"native read expected: {native}"
        return sorted(con.execute("SELECT user, query, t, click FROM log").fetchall(), key=repr)


def write(folder: Path, files: dict[str, str | bytes]) -> Path:
    folder.mkdir(exist_ok=True)
    for name, text in files.items():
        (folder / f"{name}.txt").write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return folder


PLAIN = "a b\t2006-03-01 10:00:00\nhttp://x\nhttp://y\n\nü\u3000\t2006-03-01 10:00:00\n\n a\t2006-03-02 00:00:59\n"


def test_plain_folder_is_read_natively_and_equals_the_python_reader(tmp_path, monkeypatch):
    folder = write(tmp_path / "u", {"1": PLAIN, "2": "x\u2028y\t1999-12-31 23:59:59\nu ü\n", "3": "\n\n", "4": ""})
    assert duck_rows(folder, native=True, monkeypatch=monkeypatch) == python_rows(folder)


@pytest.mark.parametrize("k", range(6))
def test_newlines_at_a_files_ends_are_read_natively(tmp_path, monkeypatch, k):
    """A plain file with k = 0..5 newlines after its last block (and 3 before its first) is read natively, with the
    Python reader's rows: the blocks are the text trimmed of newlines, split at empty lines (``_KEPT_PARTS`` drops the
    newline-only parts k >= 2 leaves after the last block and right-trims the last one)."""
    folder = write(tmp_path / "u", {"1": "\n\n\n" + PLAIN.rstrip("\n") + "\n" * k, "2": "q\t2006-03-01 10:00:00" + "\n" * k})
    assert duck_rows(folder, native=True, monkeypatch=monkeypatch) == python_rows(folder)


@pytest.mark.parametrize("text", [
    "q\t2006-03-01 10:00:00\n http://x\n",  # url with leading white space
    "q\t2006-03-01 10:00:00\nhttp://x\u3000\n",  # url with trailing Unicode white space
    "q\t2006-03-01 10:00:00\n\n\nr\t2006-03-01 10:00:00\n",  # two empty lines
    "q\t 2006-03-01 10:00:00\n",  # a time with a space (the line reader strips it)
    "q\t2006-3-1 10:00:00\n",  # a time the bulk parser leaves undecided
    "q\t2006-03-01 10:00:00\t7\n",  # a second tab
    "q\t2006-03-01 10:00:00\nhttp://a\tb\n",  # a tab in a url
    "q\t2006-03-01 10:00:00\n   \nr\t2006-03-01 10:00:00\n",  # a white-space line between blocks
    "q\r\t2006-03-01 10:00:00\n",  # a carriage return in a query
])
def test_off_plain_files_go_to_the_python_reader(tmp_path, monkeypatch, text):
    folder = write(tmp_path / "u", {"1": PLAIN, "2": text})
    try:
        want = python_rows(folder)
    except InvalidInput:
        with pytest.raises(InvalidInput):
            duck_rows(folder, native=False, monkeypatch=monkeypatch)
        return
    assert duck_rows(folder, native=False, monkeypatch=monkeypatch) == want


@pytest.mark.parametrize("files", [
    {"1": "\u3000\t2006-03-01 10:00:00\n"},  # a blank query: refused
    {"1": b"q\t2006-03-01 10:00:00\n\xff\n"},  # not UTF-8
    {"1": "q\t2006-02-30 10:00:00\n"},  # no such day
    {"1": "q\t2006-03-01 10:00:60\n"},  # a leap second
    {"1": "\n"},  # no entry at all: an empty log
])
def test_bad_folders_are_refused_as_by_the_python_reader(tmp_path, files):
    folder = write(tmp_path / "u", files)
    with pytest.raises(InvalidInput):
        load_user_dir(folder)
    with pytest.raises(InvalidInput):
        duck_rows(folder)


_TEXT = st.text(st.sampled_from(list("ab ü😀\u3000\u00a0\u2028-") + [WHITESPACE[0], "\n"]), max_size=6)


@settings(deadline=None)
@given(st.lists(st.tuples(_TEXT, st.sampled_from(["2006-03-01 10:00:00", "2006-03-01 10:00:00 ", "1970-01-01 00:00:00"]),
                          st.lists(_TEXT, max_size=2)), min_size=1, max_size=4), st.sampled_from(["\n", "\n\n", ""]))
def test_generated_files_read_alike(tmp_path_factory, blocks, tail):
    """Blocks with any of these characters (white space of all kinds, line breaks inside fields): DuckDB's reader
    and the Python reader give the same rows, or both refuse."""
    text = "\n\n".join("\n".join([f"{q}\t{t}", *urls]) for q, t, urls in blocks) + tail
    folder = write(tmp_path_factory.mktemp("g") / "u", {"1": text})
    try:
        want = python_rows(folder)
    except InvalidInput:
        with pytest.raises(InvalidInput):
            duck_rows(folder)
        return
    assert duck_rows(folder) == want


@pytest.mark.data
def test_aol_subset_is_read_natively(monkeypatch):
    from property_tests.conftest import data_dir

    d = data_dir()
    if d is None or not (d / "aol-top1000" / "user_search_logs").is_dir():
        pytest.skip("AOL subset absent")
    folder = d / "aol-top1000" / "user_search_logs"
    assert duck_rows(folder, native=True, monkeypatch=monkeypatch) == python_rows(folder)
