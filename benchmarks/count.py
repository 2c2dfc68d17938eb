"""Benchmarks of the count area (issue 5): Paillier Count for N = 1,000, the Figure 5.3 grid,
the vectorised large-N simulation, the exact discrete-Gaussian sampler."""

from __future__ import annotations

import random
import time

import numpy as np

from benchmarks import Measurement, benchmark, median_seconds


@benchmark("count.paillier_encrypt_per_user_2048", "count")
def paillier_encrypt():
    """One user's message m_i = E(b_i + r_i) under a 2048-bit python-paillier key (gmpy2)."""
    from privclaims.theory.count.encryption import PaillierScheme
    from privclaims.theory.noise.discrete_gaussian import discrete_gaussian

    sch = PaillierScheme(2048)
    rng = random.Random(0)
    sec = median_seconds(lambda: sch.encrypt(1 + discrete_gaussian(7, rng)), repeat=15)
    return Measurement(sec * 1e3, "ms/user", notes="includes the exact discrete-Gaussian share; N = 1000 users -> ~1000x this in parallel on their devices")


@benchmark("count.paillier_server_cost_N1000_2048", "count")
def paillier_server():
    """Server 2 sums 1,000 ciphertexts (with key checks), Server 1 decrypts: 2048-bit key."""
    from phe import paillier

    from privclaims.theory.count.encryption import PaillierScheme

    sch = PaillierScheme(2048)
    pk = sch.public_key
    n2 = pk.nsquare
    cts = [paillier.EncryptedNumber(pk, (1 + pk.n * (i % 3)) % n2) for i in range(1000)]  # valid (unobfuscated) ciphertexts

    def server():
        total = None
        for c in cts:
            c = sch.check(c)
            total = c if total is None else total + c
        return sch.decrypt(total)

    sec = median_seconds(server, repeat=5)
    return Measurement(sec * 1e3, "ms", notes="aggregation of 1000 messages + one decryption")


@benchmark("count.fig5_3_grid", "count")
def fig53_grid():
    """The whole Figure 5.3 grid: N in {10..10^4} x p in {10^-5..10^-2}, SHI and RASTOGI, exact expectation
    and 1000 simulated queries each, plus Count. Target 60 s."""
    from privclaims.theory.count import exact_churn as ec
    from privclaims.theory.count import fast_churn as fc
    from privclaims.theory.numbers import Q

    def run():
        for proto in ("SHI", "RASTOGI"):
            for n in (10, 100, 1000, 10000):
                for p in ("1/100000", "1/10000", "1/1000", "1/100"):
                    ec.setup_protocol_phases(proto, n, p)
                    fc.setup_protocol_phases(proto, n, float(Q(p)), 1000, np.random.default_rng(n))
        for n in (10, 100, 1000, 10000):
            for p in ("1/100000", "1/10000", "1/1000", "1/100"):
                ec.count_phases(n, p, "1/4")
                fc.count_phases(n, float(Q(p)), 0.25, 1000, np.random.default_rng(n))

    t0 = time.perf_counter()
    run()
    return Measurement(time.perf_counter() - t0, "s", target=60.0)


@benchmark("count.vectorised_release_vs_objects", "count")
def vectorised():
    """Releases per second: numpy simulation of Count (no encryption) vs the participant objects of the
    pad protocol (exact sampler), same N = 1000 users; side by side."""
    from privclaims.theory.count.model import CountParams
    from privclaims.theory.count.fast_release import simulate_releases
    from privclaims.theory.count.protocol import HonestUser, SampledRandomness, run_pad_count

    n, q = 1000, 2000
    rng = np.random.default_rng(0)
    b = rng.integers(0, 2, (q, n))
    avail = rng.random((q, n)) < 0.9
    t0 = time.perf_counter()
    simulate_releases(b, avail, 1.0, rng)
    fast = (time.perf_counter() - t0) / q
    P = CountParams(1000, "1/4", n)
    us = [HonestUser(i, int(b[0, i])) for i in range(n)]
    t0 = time.perf_counter()
    run_pad_count(us, P, 1_000_003, SampledRandomness(P.share_variance, 0))
    slow = time.perf_counter() - t0
    return Measurement(fast * 1e3, "ms/release", baseline=slow * 1e3, notes=f"N = {n}; baseline = participant objects with exact sampling")


@benchmark("count.exact_discrete_gaussian", "count")
def sampler():
    """Exact CKS sampler (rationals) vs rounded numpy normals: microseconds per draw."""
    from privclaims.theory.noise.discrete_gaussian import discrete_gaussian

    rng = random.Random(0)
    k = 3000
    t0 = time.perf_counter()
    for _ in range(k):
        discrete_gaussian(50, rng)
    exact = (time.perf_counter() - t0) / k
    g = np.random.default_rng(0)
    t0 = time.perf_counter()
    np.rint(g.normal(0, 50**0.5, 10**6))
    fast = (time.perf_counter() - t0) / 10**6
    return Measurement(exact * 1e6, "us/draw", baseline=fast * 1e6, notes="ratio < 1: the exact sampler is slower (exactness costs)")
