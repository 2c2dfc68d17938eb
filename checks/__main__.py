"""``python -m checks`` (console script ``privclaims``): run the claims ledger."""

from checks.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
