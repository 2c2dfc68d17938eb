"""Performance benchmarks (not tests): ``python -m benchmarks [--area X] [--json PATH]``.

Each area module ``benchmarks/<area>.py`` registers functions with :func:`benchmark`; a function
returns a :class:`Measurement`. Ratios are measured side by side in one run (fast vs exact, fast
vs the paper's naive algorithm, vs peer libraries), never compared with numbers from another run.
"""

from __future__ import annotations

import importlib
import pkgutil
import statistics
import time
from dataclasses import dataclass
from typing import Any, Callable


@dataclass
class Measurement:
    value: float
    unit: str
    target: float | None = None  # the target, in the same unit (None: no target)
    baseline: float | None = None  # the side-by-side baseline's value, same unit
    notes: str = ""
    ratio_target: float | None = None  # the target for baseline / value (None: no ratio target)

    @property
    def ratio(self) -> float | None:
        if self.baseline is None or not self.value:
            return None
        return self.baseline / self.value

    @property
    def met(self) -> bool | None:
        """Every target of this measurement met in this run (value <= target, ratio >= ratio_target);
        None when it has no target."""
        checks = []
        if self.target is not None:
            checks.append(self.value <= self.target)
        if self.ratio_target is not None:
            checks.append(self.ratio is not None and self.ratio >= self.ratio_target)
        return all(checks) if checks else None


def target_note(what: str, measured: float, bound: float, *, at_least: bool) -> str:
    """``"target <what> >= bound: met (measured)"`` or ``... MISSED ...``, computed from this run's
    ``measured`` value (``at_least``: the target is ``measured >= bound``, else ``measured <= bound``)."""
    ok = measured >= bound if at_least else measured <= bound
    return f"target {what} {'>=' if at_least else '<='} {bound:g}: {'met' if ok else 'MISSED'} in this run ({measured:.3g})"


BENCHMARKS: dict[str, tuple[str, Callable[[], Measurement]]] = {}


def benchmark(name: str, area: str) -> Callable[[Callable[[], Measurement]], Callable[[], Measurement]]:
    def deco(fn: Callable[[], Measurement]) -> Callable[[], Measurement]:
        BENCHMARKS[name] = (area, fn)
        return fn

    return deco


def load_all() -> dict[str, tuple[str, Callable[[], Measurement]]]:
    import benchmarks as pkg

    for info in pkgutil.iter_modules(pkg.__path__, prefix="benchmarks."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    return BENCHMARKS


def median_seconds(fn: Callable[[], Any], repeat: int = 5, number: int = 1) -> float:
    """Median wall time of ``number`` calls, over ``repeat`` rounds, per call."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t0) / number)
    return statistics.median(times)
