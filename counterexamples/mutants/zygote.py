"""The campaign's fork server: one per worker, run as a script in the worker's copy (``python -P zygote.py``).

Each net part is a ``pytest`` or ``privclaims ledger`` invocation; most of a short one's CPU time is interpreter
start-up and importing numpy, scipy, sympy, mpmath, hypothesis and pytest. This server imports those once, then
forks one child per request: the child takes the request's environment, working directory and arguments, writes
its output to the request's file and exits with the invocation's status; the server replies with the status, the
wall time and the child's CPU time (``os.wait4``, its waited-for descendants included). It never imports
``privclaims`` (checked before it serves), so every child imports the copy's code as it is on disk at that moment,
mutated or not. BLAS is limited to one thread before numpy is imported, so that forking is safe.

Protocol: one JSON request per line on stdin, ``{"argv": [...], "env": {...}, "cwd": str, "out": path,
"timeout": s}`` where ``argv`` is ``["pytest", args...]``, ``["-m", module, args...]`` or ``["-c", code]``; one JSON reply per line on
stdout, ``{"rc": int | null, "timeout": bool, "seconds": s, "cpu": s}``. The first line written is ``{"ready": ...}``.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
import traceback

for _k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_k, "1")

PRELOAD = ("numpy", "scipy.stats", "scipy.special", "scipy.sparse", "mpmath", "sympy", "hypothesis", "pytest",
           "_pytest.python", "_pytest.assertion.rewrite", "gmpy2", "rich.console")


def _preload() -> list[str]:
    import importlib

    done = []
    for name in PRELOAD:
        try:
            importlib.import_module(name)
            done.append(name)
        except Exception:  # an optional dependency: the children import it themselves
            pass
    bad = [k for k in sys.modules if k == "privclaims" or k.startswith("privclaims.")]
    if bad:
        raise SystemExit(f"zygote: privclaims modules were imported before forking: {bad[:5]}")
    return done


def _child(req: dict) -> int:
    os.setpgrp()  # its own process group: a timeout kills the child and everything it started
    os.chdir(req["cwd"])
    os.environ.clear()
    os.environ.update(req["env"])
    fd = os.open(req["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    argv = req["argv"]
    try:
        if argv[0] == "pytest":
            import pytest

            sys.argv = ["pytest", *argv[1:]]
            return int(pytest.main(argv[1:]))
        if argv[0] == "-m":
            import runpy

            sys.argv = [argv[1], *argv[2:]]
            runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
            return 0
        if argv[0] == "-c":
            sys.argv = ["-c", *argv[2:]]
            exec(compile(argv[1], "<campaign probe>", "exec"), {"__name__": "__main__"})
            return 0
        raise ValueError(f"unknown request {argv[:2]}")
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:  # noqa: BLE001 - reported in the output, status 3 (pytest's "internal error")
        traceback.print_exc()
        return 3


def serve() -> None:
    done = _preload()
    out = sys.stdout
    out.write(json.dumps({"ready": True, "preloaded": done}) + "\n")
    out.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        t0 = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            rc = 3
            try:
                rc = _child(req)
            finally:
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                finally:
                    os._exit(rc & 0xFF)
        deadline = t0 + float(req.get("timeout", 3600))
        timed_out = False
        while True:
            wpid, status, ru = os.wait4(pid, os.WNOHANG)
            if wpid:
                break
            if time.perf_counter() > deadline:
                timed_out = True
                try:
                    os.killpg(pid, signal.SIGKILL)
                except OSError:
                    pass
                wpid, status, ru = os.wait4(pid, 0)
                break
            time.sleep(0.02)
        try:  # whatever the child left running in its group
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
        rc = None if timed_out else (os.waitstatus_to_exitcode(status))
        out.write(json.dumps({"rc": rc, "timeout": timed_out, "seconds": round(time.perf_counter() - t0, 2),
                              "cpu": round(ru.ru_utime + ru.ru_stime, 2)}) + "\n")
        out.flush()


if __name__ == "__main__":
    serve()
