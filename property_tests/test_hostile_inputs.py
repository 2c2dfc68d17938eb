"""Hostile input: every case must end in a clear error naming the problem (privclaims.theory.errors.InvalidInput, or a
one-line CLI error with exit status 2), never a traceback or a silent wrong answer. Plus hypothesis fuzzing
of the parsers: random bytes / lines give either a valid parse or InvalidInput, nothing else."""

from __future__ import annotations

import math
import re
from contextlib import contextmanager
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from privclaims.theory.errors import InvalidInput
from privclaims.theory.numbers import Q
from privclaims.theory.zealous.loaders import parse_time

ROOT = Path(__file__).resolve().parent.parent
AOL_HEAD = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n"
GOOD_AOL = AOL_HEAD + "1\tfoo\t2006-03-01 10:00:00\t1\thttp://a.com\n2\tbar\t2006-03-01 11:00:00\t\t\n"
PLT_HEAD = "Geolife trajectory\nWGS 84\nAltitude is in Feet\nReserved 3\n0,2,255,My Track,0,0,2,8421376\n0\n"


def _write(tmp_path: Path, name: str, data: str | bytes) -> Path:
    p = tmp_path / name
    p.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return p


def _raises(fn, *words):
    with pytest.raises(InvalidInput) as e:
        fn()
    msg = str(e.value)
    assert msg and "\n" not in msg
    for w in words:
        assert w.lower() in msg.lower(), msg
    return msg


# ---------------------------------------------------------------------------------------------- loaders

def aol(tmp_path, text):
    from privclaims.theory.zealous.loaders import load_aol

    return lambda: load_aol(_write(tmp_path, "log.tsv", text))


LOADER_CASES = {
    "aol_empty_file": ("", ["header"]),
    "aol_wrong_header": ("a\tb\tc\n", ["header"]),
    "aol_truncated_mid_line": (GOOD_AOL + "3\tbaz\t2006-03", ["log.tsv:4"]),
    "aol_truncated_fields": (GOOD_AOL + "3\tbaz\n", ["log.tsv:4", "fields"]),
    "aol_bad_time": (AOL_HEAD + "1\tq\t2006-13-45 99:00:00\t\t\n", ["time"]),
    "aol_rank_not_number": (AOL_HEAD + "1\tq\t2006-03-01 10:00:00\tNaN\thttp://x\n", ["ItemRank"]),
    "aol_rank_without_url": (AOL_HEAD + "1\tq\t2006-03-01 10:00:00\t3\t\n", ["both"]),
    "aol_empty_anonid": (AOL_HEAD + "\tq\t2006-03-01 10:00:00\t\t\n", ["AnonID"]),
    "aol_header_only": (AOL_HEAD, ["empty"]),
    "aol_utf16_encoding": (GOOD_AOL.encode("utf-16"), ["log.tsv:1", "utf-8"]),
}


@pytest.mark.parametrize("case", list(LOADER_CASES))
def test_aol_loader_hostile(tmp_path, case):
    text, words = LOADER_CASES[case]
    _raises(aol(tmp_path, text), *words)


def test_aol_huge_rank_is_read_not_overflowing(tmp_path):
    from privclaims.theory.zealous.loaders import load_aol

    log = load_aol(_write(tmp_path, "l.tsv", AOL_HEAD + "1\tq\t2006-03-01 10:00:00\t" + "9" * 400 + "\thttp://x\n"))
    assert len(log) == 1


def test_user_file_tab_in_url(tmp_path):
    from privclaims.theory.zealous.loaders import load_user_file

    p = _write(tmp_path, "7.txt", "q\t2006-03-01 10:00:00\nhttp://a\tb\n")
    _raises(lambda: load_user_file(p), "7.txt:2", "tab")


def test_user_dir_empty(tmp_path):
    from privclaims.theory.zealous.loaders import load_user_dir

    _raises(lambda: load_user_dir(tmp_path), "empty")


def test_count_aol_url_without_query(tmp_path):
    from privclaims.theory.count.aol import read_user_log

    p = _write(tmp_path, "9.txt", "http://orphan.com\n")
    _raises(lambda: read_user_log(p), "9.txt:1", "query<TAB>time")


def test_count_aol_no_files(tmp_path):
    from privclaims.theory.count.aol import read_aol

    _raises(lambda: read_aol(tmp_path), "no user log files")


@pytest.mark.parametrize("line,words", [
    ("nan,116.3,0,492,39744.1,2008-10-23,02:53:04", ["outside"]),
    ("39.9,inf,0,492,39744.1,2008-10-23,02:53:04", ["outside"]),
    ("1e308,116.3,0,492,39744.1,2008-10-23,02:53:04", ["outside"]),
    ("39.9,116.3,0,492", ["7 fields"]),
    ("39.9,116.3,0,492,39744.1,2008-02-30,02:53:04", ["malformed"]),
])
def test_geolife_plt_hostile(tmp_path, line, words):
    from privclaims.theory.maskit.data import read_plt

    p = _write(tmp_path, "t.plt", PLT_HEAD + line + "\n")
    _raises(lambda: read_plt(p), "t.plt:7", *words)


def test_geolife_missing_trajectory_and_labels(tmp_path):
    from privclaims.theory.maskit.data import location_days, mode_days

    _raises(lambda: location_days(tmp_path), "Trajectory")
    _raises(lambda: mode_days(tmp_path), "labels.txt")


def test_geolife_bad_label_line(tmp_path):
    from privclaims.theory.maskit.data import mode_days

    _write(tmp_path, "labels.txt", "Start Time\tEnd Time\tTransportation Mode\n2008/04/02 11:24:21\tbus\n")
    _raises(lambda: mode_days(tmp_path), "labels.txt:2")


def test_hmda_frame_missing_columns():
    import pandas as pd

    from privclaims.theory.querygen.hmda import table_from_frame

    _raises(lambda: table_from_frame(pd.DataFrame({"lvrat": [0.5]})), "lacks column")


def test_hmda_frame_nan_value():
    import pandas as pd

    from privclaims.theory.querygen.hmda import table_from_frame

    df = pd.DataFrame({"lvrat": [float("nan")], "pirat": [0.2], "chist": [1], "unemp": [3.1], "afam": ["no"], "single": ["yes"]})
    _raises(lambda: table_from_frame(df), "lvrat")


# ------------------------------------------------------------------------------------------------- APIs

def test_chain_non_stochastic_row():
    from privclaims.theory.maskit.model import markov_chain

    _raises(lambda: markov_chain(["a", "b"], ["1/2", "1/2"], [[["1/2", "1/3"], ["1", "0"]]]), "sum")


def test_chain_nan_and_negative_probabilities():
    from privclaims.theory.maskit.model import markov_chain

    _raises(lambda: markov_chain(["a", "b"], [float("nan"), 1], []), "finite")
    _raises(lambda: markov_chain(["a", "b"], ["-1/2", "3/2"], []))


def test_chain_duplicate_contexts_and_empty():
    from privclaims.theory.maskit.model import markov_chain

    _raises(lambda: markov_chain(["a", "a"], ["1/2", "1/2"], []), "duplicate")
    _raises(lambda: markov_chain([], [], []), "at least one context")


def test_maskit_fast_nan_suppression_array():
    from privclaims.theory.maskit import fast
    from privclaims.theory.maskit.model import markov_chain

    ch = markov_chain(["a", "b"], ["1/2", "1/2"], [[["1/2", "1/2"], ["1/2", "1/2"]]])
    p = np.array([[0.5, np.nan], [0.0, 0.0]])
    _raises(lambda: fast.is_private(ch, p, ["a"], "1/2"), "suppression array")


def test_maskit_delta_out_of_range():
    from privclaims.theory.maskit import exact
    from privclaims.theory.maskit.model import markov_chain

    ch = markov_chain(["a", "b"], ["1/2", "1/2"], [])
    _raises(lambda: exact.is_private(ch, [["0", "0"]], ["a"], 0), "delta")
    _raises(lambda: exact.is_private(ch, [["0", "0"]], ["zz"], "1/2"), "unknown context")


def test_mechanism_not_a_distribution_and_self_neighbour():
    from privclaims.theory.dp.mechanism import finite_mechanism

    _raises(lambda: finite_mechanism({"L": {0: "1/2", 1: "1/3"}, "M": {0: 1}}, [("L", "M")]))
    _raises(lambda: finite_mechanism({"L": {0: 1}}, [("L", "L")]), "neighbour itself")
    _raises(lambda: finite_mechanism({}, []), "no inputs")


def test_epsilon_and_delta_hostile():
    from privclaims.theory.dp import exact, fast
    from privclaims.theory.dp.mechanism import finite_mechanism
    from privclaims.theory.numbers import Epsilon

    m = finite_mechanism({"L": {0: 1}, "M": {0: 1}}, [("L", "M")])
    _raises(lambda: Epsilon.of("-1"), "eps")
    _raises(lambda: Epsilon.of(float("inf")), "finite")
    _raises(lambda: exact.is_indistinguishable(m, "1/2", "-1/2"), "delta")
    _raises(lambda: fast.is_indistinguishable(m, "1/2", float("nan")), "finite")


@pytest.mark.parametrize("args,words", [
    ((0, 2, 1, 2), ["m"]),
    ((2, "-1", 1, 2), ["lambda"]),
    ((2, 2, 3, 0), ["tau'"]),
    ((2, float("nan"), 1, 2), ["finite"]),
    ((10 ** 30 + "1/2".count("/") * Q(1, 2), 2, 1, 2), ["m"]),
])
def test_zealous_params_hostile(args, words):
    from privclaims.theory.zealous.model import ZealousParams

    _raises(lambda: ZealousParams.of(*args), *words)


def test_zealous_negative_and_nan_counts():
    from privclaims.theory.zealous import exact, fast
    from privclaims.theory.zealous.model import ZealousParams

    p = ZealousParams.of(1, None, 1, 2, rho="1/2")
    _raises(lambda: exact.release_distribution({"q": -3}, p), "negative")
    _raises(lambda: fast.zealous({"q": 2.5}, p, seed=0), "integer")
    _raises(lambda: fast.zealous_counts(np.array([3.0, np.nan]), p, seed=0), "count[1]")
    _raises(lambda: fast.zealous_counts(np.array([3, -1]), p, seed=0), "count[1]")


def test_count_protocol_params_hostile():
    from privclaims.theory.count.model import CountParams, bits, prime_modulus, theorem1_sigma2_float

    _raises(lambda: CountParams(0, 0, 3), "sigma^2")
    _raises(lambda: CountParams(1, 1, 3), "t =")
    _raises(lambda: CountParams(1, "1/2", 2), "(1 - t) N - 1")
    _raises(lambda: CountParams(1, 0, -5), "positive integer")
    _raises(lambda: bits([0, 1, 2]), "b[2]")
    _raises(lambda: prime_modulus(91), "not prime")
    _raises(lambda: theorem1_sigma2_float(0.0, 0.1), "eps")
    _raises(lambda: theorem1_sigma2_float(1.0, float("nan")), "delta")
    _raises(lambda: theorem1_sigma2_float(float("inf"), 0.1), "eps")


def test_count_gaussian_privacy_hostile():
    from privclaims.theory.count import exact_privacy, fast_privacy

    _raises(lambda: exact_privacy.is_probabilistically_private("1/2", "3/2", 4), "delta")
    _raises(lambda: exact_privacy.is_probabilistically_private("1/2", "1/10", -4), "sigma^2")
    _raises(lambda: fast_privacy.is_probabilistically_private(float("nan"), 0.1, 4.0), "finite")


def test_noise_samplers_hostile():
    import random

    from privclaims.theory.noise.discrete_gaussian import discrete_gaussian, discrete_laplace

    _raises(lambda: discrete_gaussian("-1", random.Random(0)), "sigma^2")
    _raises(lambda: discrete_gaussian(float("inf"), random.Random(0)), "finite")
    _raises(lambda: discrete_laplace(0, random.Random(0)), "t =")


def test_querygen_tables_hostile():
    from privclaims.theory.querygen.model import PrivacyRequirement, make_query, make_table

    _raises(lambda: make_table([], []), "no attributes")
    _raises(lambda: make_table(["a", "a"], [(1, 2)]), "repeated attribute")
    _raises(lambda: make_table(["a", "b"], []), "empty")
    _raises(lambda: make_table(["a", "b"], [(1, 2), (1,)]), "row 1")
    _raises(lambda: make_table(["a"], [("*",)]), "'*'")
    _raises(lambda: PrivacyRequirement("a", "1/2"), "G_min")
    _raises(lambda: PrivacyRequirement("a", float("nan")), "finite")
    t = make_table(["a", "b"], [(1, 2), (3, 4)])
    _raises(lambda: make_query(t, (9, 2)), "domain")


# -------------------------------------------------------------------------------------------------- CLIs

def _cli(module: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("module,args,words", [
    ("checks", ["--seed", "abc"], "invalid int"),
    ("checks", ["--area", "maskit", "--claim", "nope.x"], "unknown claim"),
    ("checks", ["--workers", "-3"], "--workers"),
    ("benchmarks", ["--area", "nowhere"], "no benchmarks"),
    ("benchmarks", ["--json", "/nonexistent-dir/b.json", "--name", "zzz"], "not a writable"),
    ("benchmarks", ["--bogus"], "unrecognized"),
])
def test_cli_hostile_exit_2_one_line(module, args, words):
    r = _cli(module, *args)
    assert r.returncode == 2, (r.returncode, r.stderr[-500:])
    assert "Traceback" not in r.stderr
    assert words in r.stderr
    assert r.stderr.strip().splitlines()[-1].startswith(("error:", "usage:", "python -m")) or "error" in r.stderr


def test_a_byte_order_mark_is_refused_by_every_text_reader(tmp_path):
    """A file saved with a UTF-8 BOM would carry U+FEFF into its first query, header field or label (a different
    item, silently): every reader refuses it, naming file:1 - the per-user layout (line reader, bulk reader, DuckDB's
    folder reader, which leaves such a file to the Python reader), the AOL TSV and GeoLife's .plt."""
    from privclaims.theory.maskit.data import read_plt
    from privclaims.theory.zealous import duck
    from privclaims.theory.zealous.loaders import load_aol, load_user_dir, load_user_file

    bom = b"\xef\xbb\xbf"
    folder = tmp_path / "users"
    folder.mkdir()
    user = _write(folder, "1.txt", bom + b"cheap shoes\t2006-03-01 10:00:00\nhttp://a.com/\n")
    _write(folder, "2.txt", "x\t2006-03-01 10:00:00\n")
    for read in (lambda: load_user_file(user), lambda: load_user_dir(folder),
                 lambda: duck.load_user_dir_duckdb(duck.connect(threads=1), folder)):
        _raises(read, "1.txt:1", "byte-order mark")
    _raises(lambda: load_aol(_write(tmp_path, "log.tsv", bom + GOOD_AOL.encode())), "log.tsv:1", "byte-order mark")
    _raises(lambda: read_plt(_write(tmp_path, "t.plt", bom + PLT_HEAD.encode() + b"39.9,116.3,0,492,39744.1,2008-10-23,02:53:04\n")),
            "t.plt:1", "byte-order mark")
    assert load_user_file(_write(folder, "3.txt", "mid\ufefffile\t2006-03-01 10:00:00\n"))[0].query == "mid\ufefffile"


# ------------------------------------------------------------------------------------------------ fuzzing

@settings(max_examples=60)
@given(st.binary(max_size=400))
def test_fuzz_aol_loader_bytes(tmp_path_factory, data):
    from privclaims.theory.zealous.loaders import load_aol

    p = tmp_path_factory.mktemp("fz") / "f.tsv"
    p.write_bytes(AOL_HEAD.encode() + data)
    try:
        log = load_aol(p)
    except InvalidInput as e:
        assert str(e)
    else:
        assert len(log) > 0


_fields = st.lists(st.sampled_from(["1", "q", "2006-03-01 10:00:00", "", "3", "http://x", "2006-03-01", "\u00e9", "nan", "-1"]),
                   min_size=0, max_size=6).map("\t".join)


@settings(max_examples=60)
@given(st.lists(_fields, max_size=8))
def test_fuzz_aol_loader_lines(tmp_path_factory, lines):
    from privclaims.theory.zealous.loaders import load_aol

    p = tmp_path_factory.mktemp("fz") / "f.tsv"
    p.write_text(AOL_HEAD + "\n".join(lines) + "\n", encoding="utf-8")
    try:
        log = load_aol(p)
    except InvalidInput:
        return
    assert all(e.query is not None for h in log.histories.values() for e in h)


@settings(max_examples=60)
@given(st.binary(max_size=300))
def test_fuzz_user_file_and_count_reader(tmp_path_factory, data):
    from privclaims.theory.count.aol import read_user_log
    from privclaims.theory.zealous.loaders import load_user_file

    p = tmp_path_factory.mktemp("fz") / "5.txt"
    p.write_bytes(data)
    for fn in (load_user_file, read_user_log):
        try:
            fn(p)
        except InvalidInput as e:
            assert str(e)


@contextmanager
def _time_zone(name: str):
    """The process's local time zone set to ``name`` for the block (time.tzset), then restored."""
    import os
    import time

    old = os.environ.get("TZ")
    os.environ["TZ"] = name
    time.tzset()
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = old
        time.tzset()


_block_heads = st.sampled_from([
    "cheap shoes\t2006-03-01 10:00:00", " Pizza Hut \t 2006-03-02 23:59:59 ", "\u00e9t\u00e9\t2006-03-03 00:00:00",
    "q\t2006-02-30 10:00:00", "q\t2006-3-1 1:00:00", "a\tb\t2006-03-01 10:00:00", " \t2006-03-01 10:00:00", "nothing"])
_block_clicks = st.lists(st.sampled_from([
    "http://www.shoes.com/", "HTTP://Up.Case:80/a", " http://pad.org/ ", "ftp://f.net/x", "www.no-scheme.com", "http://",
    "//host.com/x", "http://:8080/x", "http://@/x", "tab\tin url", "not a url"]), max_size=3)
_user_file_text = st.lists(st.tuples(_block_heads, _block_clicks, st.sampled_from(["\n\n", "\n\n", "\n \n", "\n", ""])),
                           max_size=5).map(lambda bs: "".join("\n".join([h, *c]) + sep for h, c, sep in bs))


@settings(max_examples=150)
@given(_user_file_text, st.sampled_from([b"", b"\n", b"\xff\n"]))
@example("cheap shoes\t2006-03-01 10:00:00\n//host.com/x\n", b"")  # a site without a scheme
@example("cheap shoes\t2006-03-01 10:00:00\nhttp://:8080/x\n", b"")  # a port without a host
@example("cheap shoes\t2006-03-01 23:30:00\nHTTP://Up.Case:80/a\n", b"")  # a time whose local date differs
@example("\ufeffcheap shoes\t2006-03-01 10:00:00\n", b"")  # a byte-order mark before the first query
def test_every_area_reads_a_user_file_alike(tmp_path_factory, text, tail):
    """The per-user layout has one reader (zealous.loaders): the ads and count emulations accept exactly the files
    it accepts, refuse the others with its message, and read the same blocks (ads: a Search per block, its time
    written back; count: an event per click, or one without)."""
    from privclaims.theory.ads.aol import read_user_file
    from urllib.parse import urlparse

    from privclaims.theory.count.aol import read_user_log
    from privclaims.theory.zealous.loaders import load_user_file

    p = tmp_path_factory.mktemp("uf") / "5.txt"
    p.write_bytes(text.encode("utf-8") + tail)

    def outcome(fn):
        try:
            return fn(p)
        except InvalidInput as e:
            return ("refused", str(e))

    with _time_zone("America/New_York"):  # the written-back times are UTC whatever the machine's zone
        entries, searches, events = outcome(load_user_file), outcome(read_user_file), outcome(read_user_log)
    if isinstance(entries, tuple):
        assert searches == events == entries
        return
    siteless = [u for e in entries for u in e.clicks if not re.match(r"[a-z][a-z0-9+.-]*://(?:[^/@]*@)?[^/:@]", u, re.I)]
    if siteless:  # the emulations need the clicked site: both refuse, naming the file and the click
        assert searches == events and searches[0] == "refused" and f"5.txt: query" in searches[1], (searches, siteless)
        return
    assert [(s.user, s.query, parse_time(s.time, "t"), s.urls) for s in searches] == [("5", e.query, e.time, e.clicks) for e in entries]
    assert [(v.user, v.query, v.domain) for v in events] == [
        ("5", e.query.strip().lower(), d) for e in entries for d in ([urlparse(u).netloc.lower() for u in e.clicks] or [None])]


@settings(max_examples=60)
@given(st.lists(st.lists(st.sampled_from(["39.9", "116.3", "0", "492", "39744.1", "2008-10-23", "02:53:04", "nan", "", "x", "1e999"]),
                         min_size=0, max_size=8).map(",".join), max_size=6))
def test_fuzz_geolife_plt(tmp_path_factory, lines):
    from privclaims.theory.maskit.data import read_plt

    p = tmp_path_factory.mktemp("fz") / "t.plt"
    p.write_text(PLT_HEAD + "\n".join(lines) + "\n", encoding="utf-8")
    try:
        pts = read_plt(p)
    except InvalidInput:
        return
    assert all(math.isfinite(lat) and math.isfinite(lon) for _, lat, lon in pts)


@settings(max_examples=60)
@given(st.lists(st.lists(st.one_of(st.integers(-3, 3), st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=3)),
                         min_size=1, max_size=3), min_size=1, max_size=3))
def test_fuzz_chain_rows(rows):
    from privclaims.theory.maskit.model import markov_chain

    n = len(rows[0])
    try:
        ch = markov_chain([f"c{i}" for i in range(n)], rows[0], [rows[1:]] if len(rows) > 1 else [])
    except InvalidInput:
        return
    assert sum(ch.initial) == 1


# ------------------------------------------------------------------------------------------------- ads

@pytest.mark.parametrize("kwargs,words", [
    (dict(weights=["1/2", "1/3"], ctr=[["1/2", "1/2"]]), ["sum"]),
    (dict(weights=["1/2", "1/2"], ctr=[["3/2", "1/2"]]), []),
    (dict(weights=["1/2", "1/2"], ctr=[[float("nan"), "1/2"]]), ["finite"]),
    (dict(weights=["1/2", "1/2"], ctr=[["1/2", "1/2"]], payments=["-1"]), []),
    (dict(weights=["1/2", "1/2"], ctr=[]), ["no ads"]),
    (dict(weights=["1/2", "1/2"], ctr=[["1/2"]]), ["entries"]),
    (dict(weights=["1/2", "1/2"], ctr=[["1/2", "1/2"]], contexts=["x", "x"]), ["repeat"]),
])
def test_ad_instance_hostile(kwargs, words):
    from privclaims.theory.ads.model import ad_instance

    _raises(lambda: ad_instance(**kwargs), *words)


def test_ads_greedy_and_cut_hostile():
    from privclaims.theory.ads import exact, fast
    from privclaims.theory.ads.hierarchy import choose_cut, generalize_location
    from privclaims.theory.ads.model import ad_instance

    inst = ad_instance(["1/2", "1/2"], [["1/2", "1/4"], ["1/4", "1/2"]])
    _raises(lambda: exact.greedy(inst, 0), "k = 0")
    _raises(lambda: fast.greedy(inst, 5), "k = 5")
    _raises(lambda: exact.expected_revenue(inst, [0, 0]), "repeated")
    _raises(lambda: exact.expected_revenue(inst, [7]), "unknown ad")
    parent = {"r": None, "a": "r", "b": "r"}
    _raises(lambda: choose_cut(parent, ["zz"], 1, 1), "unknown sensitive")
    _raises(lambda: choose_cut({"r": None, "s": None}, [], 1, 1), "one root")
    _raises(lambda: choose_cut(parent, ["a"], 0, 1), "min_descendants")
    _raises(lambda: generalize_location("NaN", "116.3", 2), "finite")
    _raises(lambda: generalize_location("1e999999", "116.3", 2), "too large")
    _raises(lambda: generalize_location("39.9", "116.3", 6), "level")


def test_ads_aol_reader_hostile(tmp_path):
    from privclaims.theory.ads.aol import read_log_dir, read_user_file

    _raises(lambda: read_log_dir(tmp_path), "no user files")
    p = _write(tmp_path, "3.txt", "q\t2006-03-01 10:00:00\nnot a url\n")
    _raises(lambda: read_user_file(p), "3.txt", "'not a url'", "scheme://host")
    p2 = _write(tmp_path, "4.txt", "q\t2006-03-01\n")
    _raises(lambda: read_user_file(p2), "4.txt:1", "malformed time")


@settings(max_examples=60)
@given(st.binary(max_size=300))
def test_fuzz_ads_user_file(tmp_path_factory, data):
    from privclaims.theory.ads.aol import read_user_file

    p = tmp_path_factory.mktemp("fz") / "8.txt"
    p.write_bytes(data)
    try:
        read_user_file(p)
    except InvalidInput as e:
        assert str(e)


def test_memoised_readers_see_a_rewrite_that_keeps_size_and_mtime(tmp_path):
    """The per-process memos of read_plt and the count AOL reader are keyed on the file's identity: a rewrite of
    the same size whose modification time is set back (cp -p, rsync -t, os.utime) is read again, not served stale."""
    import os

    from privclaims.theory.count.aol import read_user_log
    from privclaims.theory.maskit.data import read_plt

    plt = _write(tmp_path, "a.plt", PLT_HEAD + "39.9,116.3,0,492,39744.1,2008-10-23,02:53:04\n")
    log = _write(tmp_path, "7.txt", "pizza\t2006-03-01 10:00:00\nhttp://www.a.com/\n")
    for path, read, new in ((plt, read_plt, PLT_HEAD + "39.8,116.3,0,492,39744.1,2008-10-23,02:53:04\n"),
                            (log, read_user_log, "pizza\t2006-03-01 10:00:00\nhttp://www.b.com/\n")):
        first = read(path)
        st = path.stat()
        path.write_text(new, encoding="utf-8")
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
        assert path.stat().st_size == st.st_size and path.stat().st_mtime_ns == st.st_mtime_ns
        again = read(path)
        assert again != first, path.name
        assert read(path) == again


def test_memoised_location_days_sees_a_rewrite_and_hands_out_fresh_lists(tmp_path):
    """location_days is memoised on its parameters and every trajectory file's identity: a rewrite of one file
    (same size, modification time set back) gives the new days, and a caller editing the returned lists does not
    change what the next caller gets."""
    import os

    from privclaims.theory.maskit.data import location_days

    traj = tmp_path / "000" / "Trajectory"
    traj.mkdir(parents=True)
    day = "39.90,116.30,0,492,39744.1,2008-10-23,{h}:00:00\n"
    plt = _write(traj, "a.plt", PLT_HEAD + day.format(h="01") + day.format(h="05"))
    first = location_days(tmp_path / "000", T=12)
    first[0][1][0] = "edited"
    assert location_days(tmp_path / "000", T=12)[0][1][0] != "edited"
    st = plt.stat()
    plt.write_text(PLT_HEAD + day.format(h="01") + day.format(h="05").replace("116.30", "116.40"), encoding="utf-8")
    os.utime(plt, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert plt.stat().st_size == st.st_size
    again = location_days(tmp_path / "000", T=12)
    assert again[0][1][-1] != first[0][1][-1] and again[0][1][0] == "3990_11630"
    # every parameter is part of the key: a coarser cell merges the two places, a third observed slot drops the day
    assert set(location_days(tmp_path / "000", T=12, cell=1.0)[0][1]) == {"40_116"}
    assert location_days(tmp_path / "000", T=12, min_slots=3) == []
    # a trajectory entry that is not a readable file is refused as read_plt refuses it, whatever the memo holds
    (traj / "b.plt").mkdir()
    _raises(lambda: location_days(tmp_path / "000", T=12), "b.plt", "is a directory")
    (traj / "b.plt").rmdir()
    (traj / "c.plt").symlink_to(tmp_path / "nowhere.plt")
    _raises(lambda: location_days(tmp_path / "000", T=12), "does not exist")
