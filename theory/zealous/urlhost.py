"""The site of a clicked URL: ``urlparse(url).netloc`` in lower case, when ``url`` starts with ``scheme://`` and names a
host - decided without building a ``ParseResult`` for the URLs the logs hold.

Contract: :func:`url_host` ``(url)`` is, for every string ``url``, exactly ::

    None if not SCHEME.match(url) else (urlparse(url).netloc.lower() if urlparse(url).hostname else None)

(``SCHEME`` = ``[a-z][a-z0-9+.-]*://``, case-insensitive), raising what that raises (``urlparse``'s ValueError: an
unbalanced ``[`` or ``]``, a bracketed host that is no IP address, a netloc that NFKC normalisation changes).

Why the fast path is that expression. Let ``url`` be ASCII, without tab, CR or LF, and match ``SCHEME`` up to ``://``.
Then ``urlsplit`` (read in CPython 3.11; property_tests/test_zealous_url_host.py compares with the running Python's)
strips nothing (the first character is a letter, not a C0 control or space) and
removes nothing (no tab, CR, LF); the first ``:`` ends a run of ASCII scheme characters starting with a letter, so it
takes that run as the scheme and keeps the rest, which starts with ``//``: the netloc is the text after ``//`` up to the
first ``/``, ``?`` or ``#`` (:data:`_NETLOC`'s group). Without ``[`` or ``]`` in it no IPv6 check runs, and an ASCII
netloc skips the NFKC check; ``urlparse`` splits ``;params`` off the path only. ``hostname`` is the text after the last
``@`` up to the first ``:``, lower-cased with any ``%zone`` kept - empty exactly when that text is. Any other string
(non-ASCII, a tab/CR/LF, a bracket in the netloc) is handed to ``urlparse`` itself.
"""

from __future__ import annotations

import re
from urllib.parse import urlparse

SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*://", re.I)
"""``scheme://`` at the start of a URL (the contract's ``SCHEME``; the ads reader strips it to read a host)."""
NETLOC_END = re.compile(r"[/?#]")
"""What ends a URL's netloc: its path, query or fragment."""
_NETLOC = re.compile(SCHEME.pattern + r"([^/?#]*)", re.I)
"""``scheme://`` and the netloc after it (up to :data:`NETLOC_END`)."""


def url_host(url: str) -> str | None:
    """The lower-cased netloc of ``url`` if it starts with ``scheme://`` and has a non-empty host name, else None
    (``http://:8080/`` has a port only, ``http://user@/`` a user part only): see the module's contract."""
    m = _NETLOC.match(url)
    if m is None:
        return None
    netloc = m.group(1)
    if not url.isascii() or "[" in netloc or "]" in netloc or "\t" in url or "\n" in url or "\r" in url:
        return _by_urlparse(url)
    return netloc.lower() if netloc.rpartition("@")[2].partition(":")[0] else None


def _by_urlparse(url: str) -> str | None:
    """The contract's expression for a URL that matched ``scheme://``, by ``urlparse`` itself."""
    parts = urlparse(url)
    return parts.netloc.lower() if parts.hostname else None
