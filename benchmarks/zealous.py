"""ZEALOUS benchmarks (issues 6 and 17).

* ``zealous.aol_subset``: ZEALOUS on the AOL top-1000 subset (318k queries, 1,000 users) on the default
  (``python``) engine — load the per-user folder; per kind (keywords, queries, clicks, query pairs) the
  full histogram, the keyed selection of m = 4 items per user + histogram, Steps 3-6 — against the
  DuckDB engine doing the same from an AOL-format file. Target (issue 17): ratio >= 1, the default path
  no slower than DuckDB, with equal histograms and releases (asserted).
* ``zealous.zipf_log``: a generated Zipf-like log (item = floor(V^u), u uniform: Zipf with exponent 1 over a V = 10^7 vocabulary, a heavy tail) of
  ``ZEALOUS_BENCH_ROWS`` rows (default 36,000,000, AOL's size) over ``ZEALOUS_BENCH_USERS`` users
  (default 650,000), generated inside DuckDB; Step-1 selection and the histogram in DuckDB, Steps
  3-6 in numpy. Target (issue 17) <= 6 s and <= 1.5 GB peak resident memory (ru_maxrss of this
  process, which hosts DuckDB). Run it in a fresh process for a clean peak:
  ``python -m benchmarks --name zealous.zipf_log``. The timed histogram is asserted equal, item by
  item, to the reference plan's on the same data (untimed, after the peak is read);
  ``ZEALOUS_BENCH_CHECK=small`` checks on a log of 1/12 the size instead (quicker, not the timed instance).
"""

from __future__ import annotations

import os
import resource
import tempfile
import time
from pathlib import Path

from benchmarks import Measurement, benchmark, target_note
from privclaims.theory.zealous import duck, engines, fast
from privclaims.theory.zealous.experiments import zealous_params
from privclaims.theory.zealous.histograms import item_histogram
from privclaims.theory.zealous.loaders import load_user_dir, write_aol

AOL = Path(os.environ.get("PRIVCLAIMS_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")) / "aol-top1000" / "user_search_logs"
if not AOL.exists():
    AOL = Path("/work/shared/data/aol-top1000/user_search_logs")
KINDS = ("keywords", "queries", "clicks", "query_pairs")


def _release(hist: dict, full: dict, params, kind: str) -> tuple[int, dict, dict]:
    return len(full), hist, engines.release_keyed(hist, params, 1, kind)


def _default_path(m: int = 4, eps: int = 5) -> dict:
    """What ``privclaims zealous publish <folder> --kind K`` runs (engine ``python``, the default), per kind:
    the full histogram (its size), Steps 1-2 (:func:`engines.selected_histogram`) and Steps 3-6."""
    log = engines.load_source(AOL)
    params = zealous_params(len(log.histories), m, eps)
    return {kind: _release(engines.selected_histogram(log, kind, m, 1, "python"), item_histogram(log, kind), params, kind)
            for kind in KINDS}


def _duckdb_path(f: Path, users: int, m: int = 4, eps: int = 5) -> dict:
    """The same on the DuckDB engine, from the same log as an AOL-format file."""
    con = duck.connect()
    duck.load_aol_duckdb(con, f)
    params = zealous_params(users, m, eps)
    return {kind: _release(duck.item_histogram_duckdb(con, kind, m=m, seed=1), duck.item_histogram_duckdb(con, kind),
                           params, kind) for kind in KINDS}


def _default_path_profile(m: int = 4) -> str:
    """CPU seconds of the default path's phases (one more run, untimed by the measurement)."""
    from privclaims.theory.zealous.histograms import histogram, user_items

    cpu = {"load": 0.0, "user_items x2": 0.0, "full Counter": 0.0, "selection": 0.0, "selected Counter + release": 0.0}
    t = time.process_time()
    log = engines.load_source(AOL)
    cpu["load"] = time.process_time() - t
    params = zealous_params(len(log.histories), m, 5)
    keys = 0
    for kind in KINDS:
        t = time.process_time()
        items = user_items(log, kind)
        user_items(log, kind)  # the path computes them twice: full histogram, selection
        t1 = time.process_time()
        histogram(items)
        t2 = time.process_time()
        sel = engines.select_keyed(items, m, 1)
        t3 = time.process_time()
        engines.release_keyed(histogram(sel), params, 1, kind)
        t4 = time.process_time()
        keys += sum(map(len, items.values()))
        for phase, dt in zip(list(cpu)[1:], (t1 - t, t2 - t1, t3 - t2, t4 - t3)):
            cpu[phase] += dt
    return ", ".join(f"{k} {v:.2f}" for k, v in cpu.items()) + f" ({keys:,} (user, item) keys hashed)"


@benchmark("zealous.aol_subset", "zealous")
def aol_subset() -> Measurement:
    """Target: the default path no slower than the DuckDB path (ratio >= 1), the same histograms and releases."""
    if not AOL.exists():
        raise FileNotFoundError(f"{AOL} not found (set PRIVCLAIMS_DATA)")
    t0, c0 = time.perf_counter(), time.process_time()
    res = _default_path()
    py, py_cpu = time.perf_counter() - t0, time.process_time() - c0
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "aol.txt"
        log = load_user_dir(AOL)
        write_aol(log, f)
        t0, c0 = time.perf_counter(), time.process_time()
        base = _duckdb_path(f, len(log.histories))
        dd, dd_cpu = time.perf_counter() - t0, time.process_time() - c0
    for kind in KINDS:
        if res[kind] != base[kind]:
            raise AssertionError(f"{kind}: the python and DuckDB engines differ (histogram size, selected histogram or release)")
    per_kind = {k: (v[0], len(v[1]), len(v[2])) for k, v in res.items()}
    return Measurement(py, "s", target=None, baseline=dd, ratio_target=1.0,
                       notes=f"{target_note('ratio DuckDB/python', dd / py, 1, at_least=True)} (the default path no slower "
                             "than DuckDB). Default path = engine python "
                             "(what `privclaims zealous publish <folder>` runs; until issue 17 this benchmark timed "
                             "histograms.select_items + fast.zealous instead, which no engine runs): load the per-user folder, then per kind the "
                             "full histogram, the keyed selection m=4 (seed 1) + histogram, ZEALOUS Steps 3-6 (eps=5, exact noise); "
                             "baseline = the DuckDB engine (2 threads) doing the same from an AOL-format file; both give equal "
                             f"histograms and releases (asserted). CPU seconds: python {py_cpu:.2f}, DuckDB {dd_cpu:.2f} (both "
                             f"threads). Profile of the python path (CPU s): {_default_path_profile()}. "
                             f"(full distinct, selected distinct, released) per kind: {per_kind}")


def _zipf_pairs(con, rows: int, users: int, vocab: int, table: str = "pairs") -> None:
    con.execute("SELECT setseed(0.42)")
    con.execute(
        f"CREATE OR REPLACE TABLE {table} AS SELECT (hash(i) % {users})::INTEGER AS user, "
        "floor(exp(random() * ln(?)))::INTEGER AS item FROM range(?) t(i)",
        [vocab, rows],
    )


def _same_as_reference(con, table: str, m: int) -> tuple[int, int]:
    """(items, users selected) after asserting the histogram equals the reference plan's, item by item."""
    got = con.execute(duck.pair_histogram_sql(table, m, 1, duck.candidate_fraction(con, table, m))).fetchall()
    want = con.execute(duck.pair_histogram_reference_sql(table, m, 1)).fetchall()
    if sorted(got) != sorted(want):
        raise AssertionError(f"pair_histogram_sql differs from the reference plan on {table}")
    return len(got), sum(c for _, c in got)


@benchmark("zealous.zipf_log", "zealous")
def zipf_log() -> Measurement:
    rows = int(os.environ.get("ZEALOUS_BENCH_ROWS", 36_000_000))
    users = int(os.environ.get("ZEALOUS_BENCH_USERS", 650_000))
    vocab = int(os.environ.get("ZEALOUS_BENCH_VOCAB", 10_000_000))
    full_check = os.environ.get("ZEALOUS_BENCH_CHECK", "full") != "small"
    m, eps = 4, 1
    t0 = time.perf_counter()
    con = duck.connect(threads=2, memory_limit="3GB")
    _zipf_pairs(con, rows, users, vocab)
    t_gen = time.perf_counter() - t0
    t1, c1 = time.perf_counter(), time.process_time()
    counts = duck.pair_histogram_counts(con, m, seed=1)
    kept, noisy = fast.zealous_counts(counts, zealous_params(users, m, eps), seed=1)
    elapsed, cpu = time.perf_counter() - t1, time.process_time() - c1
    peak_gb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2 ** 20
    # the fast plan's histogram equals the reference plan's (DISTINCT + row_number, the old SQL): the timed
    # counts on the same data, item by item; with ZEALOUS_BENCH_CHECK=small, on a log of 1/12 the rows and users
    if full_check:
        import numpy as np

        checked = "the same data (the timed counts, item by item)"
        ref = duck.pair_histogram_reference_sql("pairs", m, 1)
        want = con.execute(f"SELECT c FROM ({ref}) ORDER BY item").fetchnumpy()["c"].astype(np.float64)
        if not np.array_equal(want, counts):
            raise AssertionError("the timed histogram differs from the reference plan's on the same data")
        n_items, n_sel = len(want), int(want.sum())
    else:
        checked = f"{rows // 12:,} rows, {users // 12:,} users"
        _zipf_pairs(con, rows // 12, users // 12, vocab, "pairs_check")
        n_items, n_sel = _same_as_reference(con, "pairs_check", m)
    con.close()
    return Measurement(elapsed, "s", target=6.0, baseline=None,
                       notes=f"{target_note('seconds', elapsed, 6, at_least=False)}; {target_note('peak RSS GB', peak_gb, 1.5, at_least=False)}; {rows:,} rows, {users:,} users, vocabulary {vocab:,}, m={m}, "
                             f"eps={eps}: Step-1 selection + histogram in DuckDB (2 threads; dense_rank over hash "
                             f"candidates, theory/zealous/duck.py pair_histogram_sql) + Steps 3-5 in numpy; generation "
                             f"{t_gen:.1f} s (not counted); {len(counts):,} items ({int(counts.sum()):,} selections), "
                             f"{len(kept):,} released; CPU {cpu:.1f} s (both threads); peak RSS {peak_gb:.2f} GB (this process, hosting DuckDB, "
                             f"read before the check); histogram equal to the reference plan's on {checked} "
                             f"({n_items:,} items, {n_sel:,} selections)")


@benchmark("zealous.zipf_log_dask", "zealous")
def zipf_log_dask() -> Measurement:
    """The Zipf log of ``zealous.zipf_log`` (same size variables), written once as Parquet, then Steps 1-2
    on Dask (shuffle by user, DuckDB's selection SQL per partition, counts summed) on a 2-worker
    ``LocalCluster`` — or on an existing cluster: ``ZEALOUS_DASK_SCHEDULER=tcp://host:8786``. The
    baseline is DuckDB on the same Parquet; the benchmark asserts both give the same histogram."""
    import numpy as np
    from distributed import Client, LocalCluster

    from privclaims.theory.zealous.dask_engine import pair_histogram_dask

    rows = int(os.environ.get("ZEALOUS_BENCH_ROWS", 36_000_000))
    users = int(os.environ.get("ZEALOUS_BENCH_USERS", 650_000))
    vocab = int(os.environ.get("ZEALOUS_BENCH_VOCAB", 10_000_000))
    address = os.environ.get("ZEALOUS_DASK_SCHEDULER")
    m, eps = 4, 1
    with tempfile.TemporaryDirectory() as d:
        pq = Path(d) / "pairs"
        pq.mkdir()
        con = duck.connect(threads=2, memory_limit="3GB")
        con.execute("SELECT setseed(0.42)")
        con.execute(f"COPY (SELECT (hash(i) % {users})::BIGINT AS user, floor(exp(random() * ln(?)))::BIGINT AS item "
                    f"FROM range(?) t(i)) TO '{pq}' (FORMAT parquet, PER_THREAD_OUTPUT true)", [vocab, rows])
        t0 = time.perf_counter()
        con2 = duck.connect(threads=2, memory_limit="3GB")
        con2.execute(f"CREATE VIEW pairs AS SELECT * FROM read_parquet('{pq}/*.parquet')")
        base = np.sort(duck.pair_histogram_counts(con2, m, seed=1))
        duck_s = time.perf_counter() - t0
        con.close()
        con2.close()
        cluster = None if address else LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                                    memory_limit="8GB", dashboard_address=None)
        with Client(address or cluster) as client:
            import dask.dataframe as dd

            t0 = time.perf_counter()
            pairs = dd.read_parquet(str(pq), columns=["user", "item"])
            hist = pair_histogram_dask(pairs, m, 1, npartitions=max(8, pairs.npartitions)).compute()
            counts = np.sort(hist["c"].to_numpy().astype(np.float64))
            kept, _ = fast.zealous_counts(counts, zealous_params(users, m, eps), seed=1)
            elapsed = time.perf_counter() - t0
            peaks = client.run(lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2 ** 20)
        if cluster is not None:
            cluster.close()
    if not np.array_equal(counts, base):
        raise AssertionError("Dask and DuckDB histograms differ")
    peak = ", ".join(f"{v:.2f} GB" for v in peaks.values())
    return Measurement(elapsed, "s", target=None, baseline=duck_s,
                       notes=f"{rows:,} rows, {users:,} users, m={m}: Dask (Parquet in, shuffle by user, selection + "
                             f"histogram, ZEALOUS Steps 3-5) on {'scheduler ' + address if address else '2-worker LocalCluster'}; "
                             f"baseline = DuckDB on the same Parquet; histograms equal ({len(counts):,} items, "
                             f"{len(kept):,} released); peak RSS per worker {peak}")
