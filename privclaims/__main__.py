"""``python -m privclaims ...``: the same command line as the ``privclaims`` console script."""

from privclaims.cli import main

raise SystemExit(main())
