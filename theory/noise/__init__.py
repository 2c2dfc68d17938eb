"""Noise samplers shared by several areas (discrete Gaussian, Laplace)."""
