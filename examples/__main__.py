"""``python -m privclaims.examples [DIR]``: copy the README's example inputs into DIR (default ``examples``).
Exit status 0 when copied, 2 on bad input (one line)."""

from __future__ import annotations

import argparse
import sys

from privclaims.examples import copy_to
from privclaims.theory.errors import InvalidInput


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m privclaims.examples",
                                 description="Copy the README's example inputs into DIR (the README's commands then "
                                             "run as printed from DIR's parent folder).")
    ap.add_argument("dir", nargs="?", default="examples", help="where to copy them (default: examples)")
    args = ap.parse_args(argv)
    try:
        files = copy_to(args.dir)
    except (InvalidInput, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"{len(files)} example inputs in {args.dir}: {', '.join(f.name for f in files)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
