"""The papers' definitions, notions, conventions and system models, each with the readings the documents support
(issue 21): one module per area (the thesis ch. 2 definitions that several areas rest on are in :mod:`.dp`).

Every claim declares the definitions it rests on (``@claim(..., rests_on=(...))``); the ledger evaluates it under
every combination of their readings (:mod:`privclaims.checks.readings`). A definition with one reading records how
it is read; its ``note`` says which other readings were considered and why the documents do not support them.
"""
