"""Thesis ch. 6 (000_211156f2009240b4.txt) and 003_755c7aa10ef74058.txt: publishing search-log statistics.

* :mod:`~privclaims.theory.zealous.model` - search logs, ZEALOUS parameters, the one place of input validation;
* :mod:`~privclaims.theory.zealous.loaders` - AOL format and the per-user layout (malformed lines: file:line);
* :mod:`~privclaims.theory.zealous.histograms` - items per user, Step-1 selection, user-count histograms;
* :mod:`~privclaims.theory.zealous.duck` - the DuckDB path for big logs (histograms and selection);
* :mod:`~privclaims.theory.zealous.exact` / :mod:`~privclaims.theory.zealous.fast` - ZEALOUS Steps 1-6, exact and float twins;
* :mod:`~privclaims.theory.zealous.finite` - small logs as finite mechanisms (published item sets, Algorithm A-hat);
* :mod:`~privclaims.theory.zealous.parameters` - Theorems 12-15, Proposition 12 (mpmath, interval-enclosable);
* :mod:`~privclaims.theory.zealous.printed` - rigorous "does the computed value round to the printed one";
* :mod:`~privclaims.theory.zealous.anonymity` - k-anonymity variants and the sybil attack of §6.3.1;
* :mod:`~privclaims.theory.zealous.utility` - very-frequent items, Definitions 10-11, top-j coverage/precision;
* :mod:`~privclaims.theory.zealous.applications` - index caching and query-substitution metrics;
* :mod:`~privclaims.theory.zealous.experiments` - §6.6-6.7 on a substitute log, partition-selection anchor.
"""
