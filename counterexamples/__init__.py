"""Solver and exhaustive searches for counterexamples; every witness is re-verified exactly."""
