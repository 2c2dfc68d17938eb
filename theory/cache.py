"""The one place that names the experiment cache directory (README: ``$PRIVCLAIMS_CACHE``).

Experiments whose results are deterministic functions of code, data and parameters memoise them on
disk, each file named by a hash of its key, so experiments of different areas share one directory
without clashing."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def cache_dir(default_name: str) -> Path:
    """``$PRIVCLAIMS_CACHE`` when set, else ``<temp dir>/<default_name>`` (the directory is not created here)."""
    env = os.environ.get("PRIVCLAIMS_CACHE")
    return Path(env) if env else Path(tempfile.gettempdir()) / default_name
