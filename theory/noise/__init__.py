"""Floating-point-safe noise samplers (exact arithmetic on random bits), shared by ZEALOUS and Count.

* :mod:`privclaims.theory.noise.cks` - CKS 2020 Algorithms 1-2 on integers, the one exact sampler core both draw
  through.
* :mod:`privclaims.theory.noise.laplace` - exact discrete Laplace (Canonne, Kamath, Steinke 2020) and why a
  naive float Laplace sampler leaks (Mironov 2012).
* :mod:`privclaims.theory.noise.discrete_gaussian` - exact discrete Gaussian (Canonne, Kamath, Steinke 2020),
  used for the Count protocol's noise shares.
"""
