"""The claims ledger: one computed verdict per catalogued claim (``python -m privclaims ledger``)."""
