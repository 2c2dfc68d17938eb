"""Packaging with one import name (issue 26): the repository keeps its folders ``theory/``, ``checks/`` and
``counterexamples/`` at the top, and they install as ``privclaims.theory``, ``privclaims.checks`` and
``privclaims.counterexamples`` (setuptools' ``package_dir`` mapping). ``benchmarks/``, ``property_tests/``
and ``notebooks/`` are development-only and not installed. Everything else is in ``pyproject.toml``."""

from setuptools import find_packages, setup

MAPPED = ("theory", "checks", "counterexamples")

setup(
    packages=["privclaims", *(f"privclaims.{p}" for p in find_packages(include=[f"{m}*" for m in MAPPED]))],
    package_dir={"privclaims": "privclaims", **{f"privclaims.{m}": m for m in MAPPED}},
)
