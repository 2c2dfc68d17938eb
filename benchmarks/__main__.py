"""``python -m benchmarks [--area X] [--json PATH]``: run benchmarks, print a table."""

from __future__ import annotations

import argparse
import json
import sys
import traceback

from benchmarks import load_all


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks")
    ap.add_argument("--area", action="append", default=[])
    ap.add_argument("--name", action="append", default=[], help="only this benchmark (a full name), or those whose name contains this")
    ap.add_argument("--json", dest="json_path")
    args = ap.parse_args(argv)
    if args.json_path:
        import os
        from pathlib import Path

        p = Path(args.json_path)
        parent = p.parent if str(p.parent) else Path(".")
        if p.is_dir() or not parent.is_dir() or not os.access(parent, os.W_OK):
            print(f"error: --json {args.json_path!r} is not a writable file path", file=sys.stderr)
            return 2
    from rich.console import Console
    from rich.table import Table

    bench = load_all()
    areas = {a for a, _ in bench.values()}
    for a in args.area:
        if a not in areas:
            print(f"error: no benchmarks for area {a!r} (have: {', '.join(sorted(areas))})", file=sys.stderr)
            return 2
    rows = []
    console = Console()
    for name, (area, fn) in bench.items():
        if args.area and area not in args.area:
            continue
        if args.name and not any(n == name or (n not in bench and n in name) for n in args.name):
            continue  # a full benchmark name selects that one only; any other text, every name containing it
        console.print(f"running {name} ...")
        try:
            m = fn()
            rows.append({"name": name, "area": area, "value": m.value, "unit": m.unit, "target": m.target,
                         "baseline": m.baseline, "ratio": m.ratio, "ratio_target": m.ratio_target, "met": m.met,
                         "notes": m.notes})
        except Exception as e:  # noqa: BLE001
            rows.append({"name": name, "area": area, "value": None, "unit": "", "target": None, "baseline": None,
                         "ratio": None, "ratio_target": None, "met": False,
                         "notes": f"failed: {type(e).__name__}: {e}"})
            traceback.print_exc()
    cols = ("name", "area", "value", "unit", "target", "baseline", "ratio", "ratio_target", "met", "notes")
    fmt = lambda v: "" if v is None else ({True: "yes", False: "NO"}[v] if isinstance(v, bool)  # noqa: E731
                                          else f"{v:.4g}" if isinstance(v, float) else str(v))
    if console.is_terminal:
        t = Table(title="benchmarks")
        for col in cols:
            t.add_column(col, overflow="fold")
        for r in rows:
            t.add_row(*(fmt(r[c]) for c in cols))
        console.print(t)
    else:  # a pipe or a log: one block per benchmark, nothing folded or cut
        for r in rows:
            print(f"{r['name']} [{r['area']}]: {fmt(r['value'])} {r['unit']}"
                  + "".join(f"; {c} {fmt(r[c])}" for c in cols[4:9] if r[c] is not None))
            print(f"    {r['notes']}")
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as f:
            json.dump({"version": 1, "benchmarks": rows}, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
