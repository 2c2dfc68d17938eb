"""Checks of the count area (000_211156f2009240b4.txt ch. 5, §2.2.1; 002_9d55ef468949585c.txt §4, §5.5)."""
