"""url_host (theory/zealous/urlhost.py) is the reference expression on urllib.parse for every string: the same host, the
same None, the same ValueError - over adversarial URLs (ports, user parts, brackets, case, missing or odd schemes,
leading '//', white space, tabs and line breaks, non-ASCII letters that fold to ASCII, '?' and '#' before the host)."""

from __future__ import annotations

import re
from urllib.parse import urlparse

from hypothesis import example, given
from hypothesis import strategies as st

from privclaims.theory.zealous.urlhost import url_host

_SCHEME = re.compile(r"[a-z][a-z0-9+.-]*://", re.I)


def reference(url: str) -> str | None:
    """The contract's expression, as loaders.clicked_host computed it before url_host."""
    if not _SCHEME.match(url):
        return None
    parts = urlparse(url)
    return parts.netloc.lower() if parts.hostname else None


def outcome(fn, url):
    try:
        return ("value", fn(url))
    except ValueError as e:  # urlparse's "Invalid IPv6 URL" and NFKC refusals
        return ("ValueError", str(e))


_PIECES = ["http", "HTTP", "hTtPs", "ftp", "a+b.c-d", "1http", "\u212attp", "\u017fftp", "\u0130", ":", "://", "//",
           "/", "?", "#", "@", "@@", ":80", ":", "[", "]", "[::1]", "[fe80::1%25eTh0]", "user:pw@", "WWW.", "Ex.COM",
           "example.org", " ", "\t", "\n", "\r", "\x00", "\x1f", "\u00e9", "\u2100", "\uff0f", "\u2488", "%", ";p", "x",
           "0", "."]
_urls = st.lists(st.sampled_from(_PIECES), max_size=8).map("".join)
_any = st.one_of(_urls, st.text(max_size=20), st.builds(lambda a, b: a + "://" + b, _urls, st.text(max_size=12)))


@given(_any)
@example("http://Example.COM:80/a")
@example("http://:8080/x")
@example("http://@/x")
@example("http://u@:1/")
@example("http://[::1]:80/")
@example("http://[::1/")
@example("http://ex\tample.com/")
@example("http://ex\rample.com/")
@example("http://ex\nample.com/")
@example("http://\u2100.com/")
@example("\u212attp://host/")
@example("http://h%ZONE/")
@example("http://?host/")
@example("http://#host/")
@example("http:///host")
@example("http://a;b/")  # ";params" is split off the path only, never off the netloc
def test_url_host_is_urlparse_for_every_string(url):
    assert outcome(url_host, url) == outcome(reference, url)


def test_a_click_urlparse_refuses_is_invalid_input_naming_where(tmp_path):
    """clicked_host turns urlparse's ValueError into InvalidInput naming the click's place, as for any click without
    a site; the ads and count readers of a user folder name the file."""
    import pytest

    from privclaims.theory.ads.aol import read_log_dir
    from privclaims.theory.count.aol import read_user_log
    from privclaims.theory.errors import InvalidInput
    from privclaims.theory.zealous.loaders import clicked_host

    for url, reason in (("http://[::1/", "Invalid IPv6 URL"), ("http://a]b/", "Invalid IPv6 URL"),
                        ("http://\uff21\u2100/", "NFKC normalization")):
        with pytest.raises(InvalidInput, match=r"here: the click .* is not a URL scheme://host \(.*" + reason):
            clicked_host(url, "here")
    (tmp_path / "1.txt").write_text("q\t2006-03-01 10:00:00\nhttp://a.com/\n")
    (tmp_path / "2.txt").write_text("r\t2006-03-01 10:00:00\nhttp://a.com/\n\ns\t2006-03-01 11:00:00\nhttp://[::1/\n")
    with pytest.raises(InvalidInput, match=r"2\.txt: query 's'.*the click 'http://\[::1/'.*\(Invalid IPv6 URL\)"):
        read_log_dir(tmp_path)
    with pytest.raises(InvalidInput, match=r"2\.txt.*the click 'http://\[::1/'.*\(Invalid IPv6 URL\)"):
        read_user_log(tmp_path / "2.txt")
