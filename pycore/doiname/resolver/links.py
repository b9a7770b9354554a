"""Which values from the network may become links: :func:`is_linkable_url`.

Everything a resolver answers is untrusted. Only an ``http``/``https`` URL with a host,
written exactly (no whitespace, controls, bidi characters, backslashes or user
information), may become a clickable link (RFC 3986 §3 for the parts of a URL).
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from ..limits import MAX_URL

__all__ = ["is_linkable_url"]

_SCHEMES = ("http://", "https://")
_HOST_PUNCT = frozenset("-._~")


def _host_ok(authority: str) -> bool:
    """A ``host[:port]`` with no user information: DNS-like labels or an IP literal."""
    if not authority or "@" in authority:
        return False
    try:
        parts = urlsplit("//" + authority)
        port = parts.port  # raises ValueError for a port that is not a number in range
    except ValueError:
        return False
    host = parts.hostname
    if host is None or parts.username is not None or parts.password is not None:
        return False
    if authority.startswith("["):
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            return False
    elif not all(c.isalnum() or c in _HOST_PUNCT for c in host) or \
            not any(c.isalnum() for c in host):
        return False
    rest = authority[authority.rfind("]") + 1:] if authority.startswith("[") else \
        authority.partition(":")[1] + authority.partition(":")[2]
    return not rest or (port is not None and rest[1:].isdigit())


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
