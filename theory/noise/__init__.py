"""Floating-point-safe noise samplers (exact arithmetic on random bits).

* :mod:`theory.noise.laplace` - exact discrete Laplace (Canonne, Kamath, Steinke 2020) and why a
  naive float Laplace sampler leaks (Mironov 2012).
"""
