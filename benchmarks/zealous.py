"""ZEALOUS benchmarks (issue 6).

* ``zealous.aol_subset``: load the AOL top-1000 subset (318k queries, 1,000 users), build all four
  histograms, select m = 4 items per user and run ZEALOUS (fast twin) on each: target <= 5 s. The
  DuckDB path (AOL-format file -> four selected histograms) is timed side by side as the baseline.
* ``zealous.zipf_log``: a generated Zipf-like log (item = floor(V^u), u uniform: Zipf with exponent 1 over a V = 10^7 vocabulary, a heavy tail) of
  ``ZEALOUS_BENCH_ROWS`` rows (default 36,000,000, AOL's size) over ``ZEALOUS_BENCH_USERS`` users
  (default 650,000), generated inside DuckDB; Step-1 selection and the histogram in DuckDB, Steps
  3-6 in numpy. Target <= 90 s and <= 4 GB peak resident memory (ru_maxrss of this process, which
  hosts DuckDB). Run it in a fresh process for a clean peak (``python -m benchmarks --name zipf``).
"""

from __future__ import annotations

import os
import resource
import tempfile
import time
from pathlib import Path

from benchmarks import Measurement, benchmark
from theory.zealous import duck, fast
from theory.zealous.experiments import zealous_params
from theory.zealous.histograms import histogram, select_items, user_items
from theory.zealous.loaders import load_user_dir, write_aol

AOL = Path(os.environ.get("PRIVCLAIMS_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")) / "aol-top1000" / "user_search_logs"
if not AOL.exists():
    AOL = Path("/work/shared/data/aol-top1000/user_search_logs")
KINDS = ("keywords", "queries", "clicks", "query_pairs")


def _python_path(m: int = 4, eps: int = 5) -> dict:
    log = load_user_dir(AOL)
    params = zealous_params(len(log.histories), m, eps)
    out = {}
    for kind in KINDS:
        items = user_items(log, kind)
        full = histogram(items)
        sel = histogram(select_items(items, m, seed=1))
        out[kind] = (len(full), len(fast.zealous(sel, params, seed=1)))
    return out


@benchmark("zealous.aol_subset", "zealous")
def aol_subset() -> Measurement:
    if not AOL.exists():
        raise FileNotFoundError(f"{AOL} not found (set PRIVCLAIMS_DATA)")
    t0 = time.perf_counter()
    res = _python_path()
    py = time.perf_counter() - t0
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "aol.txt"
        write_aol(load_user_dir(AOL), f)
        t0 = time.perf_counter()
        con = duck.connect()
        duck.load_aol_duckdb(con, f)
        for kind in KINDS:
            duck.item_histogram_duckdb(con, kind)
            duck.item_histogram_duckdb(con, kind, m=4, seed=1)
        dd = time.perf_counter() - t0
    return Measurement(py, "s", target=5.0, baseline=dd,
                       notes=f"load + 4 histograms + selection (m=4) + ZEALOUS (eps=5); distinct/released per kind {res}; "
                             f"baseline = DuckDB path from an AOL-format file (load + 4 full + 4 selected histograms)")


@benchmark("zealous.zipf_log", "zealous")
def zipf_log() -> Measurement:
    rows = int(os.environ.get("ZEALOUS_BENCH_ROWS", 36_000_000))
    users = int(os.environ.get("ZEALOUS_BENCH_USERS", 650_000))
    vocab = int(os.environ.get("ZEALOUS_BENCH_VOCAB", 10_000_000))
    m, eps = 4, 1
    t0 = time.perf_counter()
    con = duck.connect(threads=2, memory_limit="3GB")
    con.execute("SELECT setseed(0.42)")
    con.execute(
        f"CREATE TABLE pairs AS SELECT (hash(i) % {users})::INTEGER AS user, "
        "floor(exp(random() * ln(?)))::INTEGER AS item FROM range(?) t(i)",
        [vocab, rows],
    )
    t_gen = time.perf_counter() - t0
    t1 = time.perf_counter()
    counts = duck.pair_histogram_counts(con, m, seed=1)
    kept, noisy = fast.zealous_counts(counts, zealous_params(users, m, eps), seed=1)
    elapsed = time.perf_counter() - t1
    peak_gb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2 ** 20
    return Measurement(elapsed, "s", target=90.0, baseline=None,
                       notes=f"{rows:,} rows, {users:,} users, vocabulary {vocab:,}, m={m}, eps={eps}: selection + histogram + ZEALOUS; "
                             f"generation {t_gen:.1f} s (not counted); {len(counts):,} items, {len(kept):,} released; "
                             f"peak RSS {peak_gb:.2f} GB (target 4 GB)")


@benchmark("zealous.zipf_log_dask", "zealous")
def zipf_log_dask() -> Measurement:
    """The Zipf log of ``zealous.zipf_log`` (same size variables), written once as Parquet, then Steps 1-2
    on Dask (shuffle by user, DuckDB's selection SQL per partition, counts summed) on a 2-worker
    ``LocalCluster`` — or on an existing cluster: ``ZEALOUS_DASK_SCHEDULER=tcp://host:8786``. The
    baseline is DuckDB on the same Parquet; the benchmark asserts both give the same histogram."""
    import numpy as np
    from distributed import Client, LocalCluster

    from theory.zealous.dask_engine import pair_histogram_dask

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
