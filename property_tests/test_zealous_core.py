"""ZEALOUS core: loaders, histograms, selection, exact vs fast twins, sampler, bad input."""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from property_tests.fractions_strategy import fractions

from privclaims.theory.errors import InvalidInput
from privclaims.theory.noise.laplace import BitSource, bernoulli_exp, discrete_laplace, discrete_laplace_pmf, grid_tail_probability
from privclaims.theory.numbers import Q
from privclaims.theory.zealous import exact, fast
from privclaims.theory.zealous.histograms import histogram, item_histogram, select_items, user_items
from privclaims.theory.zealous.loaders import load_aol, load_user_dir, write_aol
from privclaims.theory.zealous.model import Entry, SearchLog, ZealousParams, privacy_target

T0 = 1141603200  # 2006-03-06


def small_log() -> SearchLog:
    return SearchLog({
        "1": [Entry("honda accord", T0, ("http://a",)), Entry("certified car", T0 + 60), Entry("free mp3", T0 + 9000, ("http://b", "http://c"))],
        "2": [Entry("free mp3", T0 + 5, ("http://b",)), Entry("honda civic", T0 + 100)],
    })


def test_histograms_count_users_not_occurrences():
    log = small_log()
    kw = item_histogram(log, "keywords")
    assert kw["free"] == 2 and kw["honda"] == 2 and kw["accord"] == 1
    assert item_histogram(log, "queries")["free mp3"] == 2
    assert item_histogram(log, "clicks")["http://b"] == 2
    qp = item_histogram(log, "query_pairs")
    assert qp[("honda accord", "certified car")] == 1
    assert ("certified car", "free mp3") not in qp  # 2.5 h gap: a new session


def test_aol_round_trip(tmp_path):
    log = small_log()
    write_aol(log, tmp_path / "log.txt")
    back = load_aol(tmp_path / "log.txt")
    assert {u: [(e.query, e.time, e.clicks) for e in h] for u, h in back.histories.items()} == {
        u: [(e.query, e.time, e.clicks) for e in h] for u, h in log.histories.items()
    }


def test_user_dir_layout(tmp_path):
    (tmp_path / "42.txt").write_text("ny times\t2006-03-06 12:15:20\nhttp://www.nytimes.com/\n\nracquetball\t2006-03-10 00:41:26\n\n")
    log = load_user_dir(tmp_path)
    assert [e.query for e in log.histories["42"]] == ["ny times", "racquetball"]
    assert log.histories["42"][0].clicks == ("http://www.nytimes.com/",)


@pytest.mark.parametrize("text,line", [
    ("AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n1\tq\t2006-03-01 00:00:00\t\t\n2\tq\n", 3),
    ("AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n1\tq\t2006-13-01 00:00:00\t\t\n", 2),
    ("AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n1\tq\t2006-03-01 00:00:00\tx\thttp://a\n", 2),
])
def test_malformed_aol_lines_name_file_and_line(tmp_path, text, line):
    p = tmp_path / "bad.txt"
    p.write_text(text)
    with pytest.raises(InvalidInput, match=f"bad.txt:{line}"):
        load_aol(p)


def test_malformed_user_file(tmp_path):
    (tmp_path / "7.txt").write_text("q1\t2006-03-06 12:15:20\nhttp://a\nq2\t2006-03-06 12:15:25\n")
    with pytest.raises(InvalidInput, match="7.txt:3"):
        load_user_dir(tmp_path)


@pytest.mark.parametrize("kw", [
    dict(m=0, lam=1, tau=1, tau_prime=2), dict(m=-1, lam=1, tau=1, tau_prime=2), dict(m=2, lam=0, tau=1, tau_prime=2),
    dict(m=2, lam=-1, tau=1, tau_prime=2), dict(m=2, lam=1, tau=3, tau_prime=0), dict(m="3/2", lam=1, tau=1, tau_prime=2),
])
def test_bad_parameters(kw):
    with pytest.raises(InvalidInput):
        ZealousParams.of(**kw)


def test_tau_prime_below_tau_is_an_input():
    """Figure 6.1 takes "positive numbers" m, lambda, tau, tau' in no order, and (6.5) allows tau' < tau when both its
    terms are negative: tau' = 7/4 < tau = 2 with rho = 16/81 is accepted, and the exact twin publishes an item of
    count 2 w.p. Pr[2 + eta > 7/4] = 1 - rho^{1/4}/2 = 2/3 (the fast twin agrees)."""
    p = ZealousParams.of(1, None, 2, Fraction(7, 4), rho=Fraction(16, 81))
    assert exact.release_probability(2, p) == Q(2, 3) and exact.release_probability(1, p) == 0
    assert abs(float(fast.release_probability(2, p)) - 2 / 3) < 1e-12
    with pytest.raises(InvalidInput, match="irrational"):
        exact.release_probability(2, ZealousParams.of(1, None, 2, Fraction(7, 4), rho=Fraction(1, 4)))


@pytest.mark.parametrize("eps,delta", [(0, "1/2"), (-1, "1/2"), (1, 0), (1, 1), (1, "3/2")])
def test_bad_privacy_target(eps, delta):
    with pytest.raises(InvalidInput):
        privacy_target(eps, delta)


def test_empty_log():
    with pytest.raises(InvalidInput, match="empty"):
        item_histogram(SearchLog({}), "keywords")
    with pytest.raises(InvalidInput, match="empty"):
        item_histogram(SearchLog({"u": []}), "keywords")


@given(st.dictionaries(st.text("ab", min_size=1, max_size=2), st.sets(st.integers(0, 9), max_size=8), min_size=1, max_size=6),
       st.integers(1, 5), st.integers(0, 2**32))
def test_selection_bounds_and_independence_of_others(items, m, seed):
    sel = select_items(items, m, seed)
    for u, s in sel.items():
        assert len(s) == min(m, len(items[u])) and set(s) <= items[u] and len(set(s)) == len(s)
    # a user's selection depends only on (seed, user, own items)
    one = next(iter(items))
    assert select_items({one: items[one]}, m, seed)[one] == sel[one]
    h = histogram(sel)
    assert sum(h.values()) == sum(len(s) for s in sel.values())


@given(st.dictionaries(st.integers(0, 5), st.integers(0, 8), min_size=1, max_size=5), st.integers(1, 4), st.integers(0, 4),
       fractions(min_value=Fraction(1, 20), max_value=Fraction(19, 20), max_denominator=50))
@settings(max_examples=60)
def test_exact_and_fast_release_distributions_agree(hist, tau, gap, rho):
    params = ZealousParams.of(2, None, tau, tau + gap, rho=rho)
    ex = exact.release_distribution(hist, params)
    fa = fast.release_distribution(hist, params)
    assert sum(ex.values()) == 1
    assert set(k for k, v in ex.items() if v > 0) <= set(fa)
    for k, v in ex.items():
        assert abs(float(v) - fa.get(k, 0.0)) <= 1e-12


@given(st.integers(-6, 6), fractions(min_value=Fraction(1, 10), max_value=Fraction(9, 10), max_denominator=50))
def test_laplace_tail_matches_fast(x, rho):
    assert abs(float(exact.laplace_tail_above(x, Q(rho))) - float(fast.laplace_tail_above(x, float(rho)))) < 1e-12


def test_bernoulli_exp_and_discrete_laplace_frequencies():
    bits = BitSource(1)
    n = 4000
    hits = sum(bernoulli_exp(Q(3, 2), bits) for _ in range(n))
    p = float(np.exp(-1.5))
    assert abs(hits / n - p) < 5 * (p * (1 - p) / n) ** 0.5
    draws = Counter(discrete_laplace(Q(3, 2), bits) for _ in range(n))
    for k in (-1, 0, 1, 2):
        pk = float(np.exp(-abs(k) / 1.5)) * (1 - np.exp(-1 / 1.5)) / (1 + np.exp(-1 / 1.5))
        assert abs(draws[k] / n - pk) < 5 * (pk * (1 - pk) / n) ** 0.5


@given(st.integers(0, 30), fractions(min_value=Fraction(1, 10), max_value=Fraction(9, 10), max_denominator=50))
def test_grid_tail_consistent_with_pmf(x, r):
    r = Q(r)
    assert grid_tail_probability(x, r) - grid_tail_probability(x + 1, r) == discrete_laplace_pmf(x + 1, r)
    assert 2 * grid_tail_probability(0, r) + discrete_laplace_pmf(0, r) == 1


def test_zealous_exact_and_fast_samples_have_same_law():
    hist = {"a": 10, "b": 7, "c": 3, "d": 1}
    params = ZealousParams.of(1, 2, 3, 8)
    ex_rel = Counter()
    fa_rel = Counter()
    n = 300
    for s in range(n):
        ex_rel.update(exact.zealous(hist, params, s).keys())
        fa_rel.update(fast.zealous(hist, params, s).keys())
    assert "d" not in ex_rel and "d" not in fa_rel
    for k in "abc":
        p = float(fast.release_probability(hist[k], params))
        for cnt in (ex_rel[k], fa_rel[k]):
            assert abs(cnt / n - p) < 5 * (p * (1 - p) / n) ** 0.5 + 0.02


def test_naive_float_laplace_leaks_the_true_count():
    """Mironov 2012 in miniature: outputs of the naive sampler for c = 0 mostly rule out c = 1 exactly."""
    import random as _r

    from privclaims.theory.noise.laplace import naive_float_laplace, naive_output_possible

    rng = _r.Random(7)
    ys = [naive_float_laplace(0.0, 1.0, rng) for _ in range(200)]
    assert all(naive_output_possible(y, 0.0, 1.0) for y in ys)  # the truth is always consistent
    excluded = sum(not naive_output_possible(y, 1.0, 1.0) for y in ys)
    assert excluded > 100  # ... while the neighbouring count is excluded for most outputs


# The per-user reader's bulk path (theory/zealous/loaders.py: plain files split at empty lines, times
# parsed with numpy) must give exactly what the line-by-line reader gives, errors included.
_LINES = ["q one\t2006-03-01 10:00:00", "Q\t2006-12-31 23:59:59", "x  y \t2006-03-01 09:00:00", "http://a", " http://b ",
          "u\x85v", "", "", "  ", "\r", "\t", "a\tb\tc", "\t2006-03-01 10:00:00", "q\t2006-02-30 10:00:00",
          "q\t 2006-03-01 10:00:00 ", "q\t2006-03-01 10:00:00\r", "q\t2006-03-01 1\u0660:00:00", "q\u3000\t2006-03-01 10:00:00",
          "\u3000", "\x1c", "q\t2006-03-01 24:00:00", "q\t2006-03-01 23:59:61"]


def _outcome(fn, *args):
    try:
        return "ok", fn(*args)
    except InvalidInput as e:
        return "error", str(e)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_LINES), max_size=14), st.sampled_from(["", "\n", "\n\n", "\r\n"]),
       st.sampled_from([b"", b"\xff"]), st.integers(0, 10**6))
def test_bulk_user_reader_equals_line_reader(tmp_path_factory, lines, end, junk, where):
    from privclaims.theory.zealous.loaders import read_user_file_lines, read_user_files

    raw = ("\n".join(lines) + end).encode("utf-8")
    i = where % (len(raw) + 1)
    p = tmp_path_factory.mktemp("uf") / "3.txt"
    p.write_bytes(raw[:i] + junk + raw[i:])
    assert _outcome(lambda: read_user_files([p])[0]) == _outcome(read_user_file_lines, p)


def test_bulk_user_reader_takes_the_plain_path_and_agrees(tmp_path):
    from privclaims.theory.zealous import loaders

    p = tmp_path / "9.txt"
    p.write_text("\nny times\t2006-03-06 12:15:20\nhttp://a/\nhttp://b c\n\nracquetball \t2006-03-10 00:41:26\n\n")
    assert loaders._plain_blocks(p) is not None  # the bulk path is the one under test here
    want = [Entry("ny times", 1141647320, ("http://a/", "http://b c")), Entry("racquetball ", 1141951286)]
    assert loaders.read_user_files([p])[0] == loaders.read_user_file_lines(p) == want
    p.write_text(p.read_text().replace("http://a/", "  http://a/ "))  # a padded url: the line reader strips it
    assert loaders._plain_blocks(p) is None
    assert loaders.read_user_files([p])[0] == want


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["2006-03-01 10:00:00", "2004-02-29 23:59:61", "1970-01-01 00:00:00", "2006-02-29 10:00:00",
                                 "2006-13-01 00:00:00", "2006-03-01 24:00:00", " 2006-03-01 10:00:00", "2006-03-01 1\u0660:00:00",
                                 "0000-01-01 00:00:00", "2006-03-01T10:00:00", "9999-12-31 23:59:59"]), max_size=6),
       st.lists(st.tuples(st.integers(0, 18), st.sampled_from("0123456789 -:x")), max_size=3))
def test_bulk_times_equal_parse_time(texts, edits):
    from privclaims.theory.zealous.loaders import parse_time, parse_times

    for pos, ch in edits:
        texts = [t[:pos] + ch + t[pos + 1:] for t in texts]
    seconds, decided = parse_times(texts)
    assert len(seconds) == len(decided) == len(texts)
    for t, s, d in zip(texts, seconds, decided):
        if d:
            assert parse_time(t, "x") == s
        elif re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}", t):  # the plain form, undecided:
            with pytest.raises(InvalidInput):  # only because parse_time refuses it too
                parse_time(t, "x")


# Byte-level adversary for the bulk reader: files glued from fragments that sit on the edges of the
# plain layout (CR, BOM, Unicode spaces, stray tabs, half-valid times, a trailing line without a
# newline, bad UTF-8 anywhere).
_FRAGMENTS = ["q", "ny times", " ", "\t", "\n", "\n\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u3000",
              "\ufeff", "\xa0", "http://a b", "\t2006-03-01 10:00:00", "\t2008-02-29 23:59:59", "\t2007-02-29 00:00:00",
              "\t2006-03-01 24:00:00", "\t2006-03-01 23:59:60", "\t2006-3-1 1:00:00", "\t2006-01- 5 12:00:00",
              "\t2006-03-01T10:00:00", "\t0000-01-01 00:00:00", "2006-03-01 10:00:00", "1\u0660"]
_BYTES = [b"", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"\x00"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=25), st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(_BYTES)), max_size=2))
def test_bulk_user_reader_equals_line_reader_bytewise(tmp_path_factory, parts, junk):
    from privclaims.theory.zealous.loaders import read_user_file_lines, read_user_files

    raw = "".join(parts).encode("utf-8")
    for where, b in junk:
        i = where % (len(raw) + 1)
        raw = raw[:i] + b + raw[i:]
    p = tmp_path_factory.mktemp("ub") / "5.txt"
    p.write_bytes(raw)
    assert _outcome(lambda: read_user_files([p])[0]) == _outcome(read_user_file_lines, p)


def test_bulk_reader_names_the_first_bad_file_and_restores_gc(tmp_path):
    """Several files: the first malformed one in name order is the one named (file:line), whichever
    path (bulk or line reader) the others take; the collector is back on after the error, and stays
    off if it was off."""
    import gc

    (tmp_path / "1.txt").write_text("a\t2006-03-01 10:00:00\nhttp://x\n")
    (tmp_path / "2.txt").write_text("b\t2006-03-01 10:00:00\n\nc\t2006-03-01 25:00:00\n")  # bad time, line 3
    (tmp_path / "3.txt").write_bytes(b"d\t2006-03-01 10:00:00\n\xff\n")  # bad UTF-8, line 2
    with pytest.raises(InvalidInput, match=r"2\.txt:3: malformed time"):
        load_user_dir(tmp_path)
    assert gc.isenabled()
    gc.disable()
    try:
        with pytest.raises(InvalidInput, match=r"2\.txt:3"):
            load_user_dir(tmp_path)
        assert not gc.isenabled()
    finally:
        gc.enable()
    (tmp_path / "2.txt").unlink()
    with pytest.raises(InvalidInput, match=r"3\.txt:2: bytes b'\\xff"):
        load_user_dir(tmp_path)
    assert load_user_dir(tmp_path, limit=1).histories == {"1": [Entry("a", 1141207200, ("http://x",))]}


_WORDS = ["q", "ny times", " lead", "trail ", "a\u3000b", "\ufeffbom", "\x85", " ", "", "x\ty", "a\rb"]
_STAMPS = ["2006-03-01 10:00:00", "2008-02-29 23:59:59", "2007-02-29 00:00:00", "2006-03-01 24:00:00", "2006-03-01 23:59:61",
           " 2006-03-01 10:00:00", "2006-03-01 10:00:00\r", "2006-01- 5 12:00:00", "2006-03-01 1\u0660:00:00", "", "2006-03-01"]
_URLS = ["http://a", "http://b c", " http://p ", "u\x85", "\u2028", "x\ty", "", " "]
_SEPS = ["\n\n", "\n\n", "\n\n", "\n", "\n\n\n", "\n \n", "\r\n\r\n", "\n\x0c\n"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_WORDS), st.sampled_from(_STAMPS), st.lists(st.sampled_from(_URLS), max_size=3),
                          st.sampled_from(_SEPS)), max_size=6),
       st.sampled_from(["", "\n", "\n\n", "\r\n", "\n\n\n"]), st.sampled_from(["", "\n", "\n\n"]), st.booleans())
def test_bulk_user_reader_equals_line_reader_on_near_plain_files(tmp_path_factory, blocks, end, start, plain_only):
    """Files in the plain layout and one edit away from it: the reader gives what the line reader gives."""
    from privclaims.theory.zealous import loaders

    if plain_only:  # the bulk path proper: every block plain
        blocks = [(w or "q", s if s[:1].isdigit() and s[-1:].isdigit() else "2006-03-01 10:00:00",
                   [u for u in us if u.strip() == u and u and "\t" not in u], "\n\n") for w, s, us, _ in blocks
                  if w.strip() and "\t" not in w]
        end = end.replace("\r", "")
    text = start + "".join("\n".join([f"{w}\t{s}", *us]) + (sep if k < len(blocks) - 1 else "")
                           for k, (w, s, us, sep) in enumerate(blocks)) + end
    p = tmp_path_factory.mktemp("np") / "7.txt"
    p.write_bytes(text.encode("utf-8"))
    if plain_only and not text.strip("\n").startswith("\ufeff"):  # a leading byte-order mark is the line reader's
        assert loaders._plain_blocks(p) is not None
    assert _outcome(lambda: loaders.read_user_files([p])[0]) == _outcome(loaders.read_user_file_lines, p)


@pytest.mark.data
def test_bulk_reader_equals_line_reader_on_the_aol_subset():
    """On the real per-user files (AOL top-1000), the bulk reader gives what the line reader gives,
    and it is the bulk path that runs (every file plain), so the equality is not vacuous."""
    from property_tests.conftest import data_dir
    from privclaims.theory.zealous import loaders

    d = data_dir()
    if d is None or not (d / "aol-top1000" / "user_search_logs").is_dir():
        pytest.skip("AOL subset absent")
    files = sorted((d / "aol-top1000" / "user_search_logs").glob("*.txt"))
    assert all(loaders._plain_blocks(f) is not None for f in files)
    assert loaders.read_user_files(files) == [loaders.read_user_file_lines(f) for f in files]
