"""Packaging with one import name (issue 26): the repository keeps its folders ``theory/``, ``checks/``,
``counterexamples/`` and ``examples/`` at the top, and they install as ``privclaims.theory``, ``privclaims.checks``,
``privclaims.counterexamples`` and ``privclaims.examples`` (setuptools' ``package_dir`` mapping; their data files
are listed in ``pyproject.toml``). Development-only code is not installed: ``benchmarks/``, ``property_tests/``,
``notebooks/`` and the mutation campaign ``counterexamples/mutants/`` (it runs the tests in a copy of the
repository); in an editable install it still imports from its folder. Everything else is in ``pyproject.toml``."""

from setuptools import find_packages, setup

MAPPED = ("theory", "checks", "counterexamples", "examples")
DEV_ONLY = ("counterexamples.mutants", "counterexamples.mutants.*")

setup(
    packages=["privclaims", *(f"privclaims.{p}" for p in find_packages(include=[f"{m}*" for m in MAPPED], exclude=DEV_ONLY))],
    package_dir={"privclaims": "privclaims", **{f"privclaims.{m}": m for m in MAPPED}},
)
