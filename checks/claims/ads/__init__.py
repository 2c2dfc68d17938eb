"""Checks of the ``ads.*`` claims (thesis 000_211156f2009240b4.txt ch. 4; paper 002_9d55ef468949585c.txt
§2-3, §5): :mod:`.algorithms` (Prop. 6 - Theorem 8), :mod:`.framework` (definitions, trade-offs,
examples), :mod:`.experiments` (§4.4 on the AOL substitute)."""
