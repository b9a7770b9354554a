"""Which values from the network may become links: :func:`is_linkable_url`.

Everything a resolver answers is untrusted. Only an ``http``/``https`` URL with a host,
written exactly (no whitespace, controls, bidi characters, backslashes or user
information), may become a clickable link (RFC 3986 §3 for the parts of a URL).
"""

from __future__ import annotations

from ..limits import MAX_URL

__all__ = ["is_linkable_url"]

_SCHEMES = ("http://", "https://")
_HOST_PUNCT = frozenset("-._~")


def _host_ok(authority: str) -> bool:
    """A ``host[:port]`` with no user information (RFC 3986 §3.2): DNS-like labels (letters
    of any script, digits, ``-._~``) or an IPv6 literal in brackets, and a port of ASCII
    digits from 0 to 65535. Read here rather than by :func:`urllib.parse.urlsplit`, which
    would bring :mod:`urllib.parse` and :mod:`ipaddress` into the first answer's import."""
    if not authority or "@" in authority:
        return False
    if authority[0] == "[":
        host, bracket, rest = authority[1:].partition("]")
        if not bracket or not _ipv6(host):
            return False
    else:
        host = authority.partition(":")[0]
        rest = authority[len(host):]
        if not host or not all(c.isalnum() or c in _HOST_PUNCT for c in host) or \
                not any(c.isalnum() for c in host):
            return False
    if not rest:
        return True
    port = rest[1:]
    return rest[0] == ":" and port.isascii() and port.isdigit() and int(port) <= 0xFFFF


def _ipv6(host: str) -> bool:
    """An IPv6 address (RFC 4291 §2.2, a zone after ``%`` as :mod:`ipaddress` reads it);
    :mod:`ipaddress` is imported by the first link that has one."""
    import ipaddress

    try:
        ipaddress.IPv6Address(host)
    except ValueError:
        return False
    return True


def is_linkable_url(value: object) -> bool:
    """Whether a value may become a clickable link: an ``http``/``https`` URL with a host.

    The text must be exactly the URL, nothing stripped: no leading or inner whitespace,
    no control, format or bidi characters, no backslash (browsers read it as ``/``), no
    user information (``https://bank@evil``). Every other scheme is refused, including
    ``javascript:``, ``data:``, ``vbscript:`` and split forms such as ``java\\tscript:``.
    The page turns a value into a link only when this holds (RFC 3986 §3
    for the parts of a URL).
    """
    if not isinstance(value, str) or not 0 < len(value) <= MAX_URL:
        return False
    if not value.isprintable() or any(c.isspace() or c == "\\" for c in value):
        return False
    low = value[:8].lower()
    scheme = next((s for s in _SCHEMES if low.startswith(s)), None)
    if scheme is None:
        return False
    rest = value[len(scheme):]
    cut = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    return _host_ok(rest[:cut])
