"""Reading the answers of the DOI resolver: handle records, Which RA, shortDOI aliases.

* Handle records: ``https://doi.org/api/handles/<ssp>`` answers a JSON object (003 ch. 4)
  with ``responseCode`` 1 (success, HTTP 200), 2 (server error, HTTP 500), 100 (not
  found, HTTP 404) or 200 (no values, HTTP 200), ``handle`` and ``values``. Each value
  (RFC 3651 section 3.1) has ``index``, ``type``, ``data`` (``format`` one of ``string``,
  ``base64``, ``hex``, ``admin``, ``vlist``, ``site``, ``key``; specs README), ``ttl``
  (seconds, or an absolute date) and ``timestamp``.
* Which RA: ``https://doi.org/ra/A,B`` answers a JSON array of ``{"DOI", "RA"}`` or
  ``{"DOI", "status"}`` objects (specs README).
* shortDOIs resolve through the ``HS_ALIAS`` value of their handle (specs README); the
  request itself is built by :func:`doiname.short_doi_api_url`.

Everything here is data from the network: untrusted. Nothing raises on any input: every
outcome, including a network failure (``status`` ``None``), is a value with a plain
message. Every text field is plain text for ``textContent``; only ``http``/``https``
URLs with a host are marked linkable (``href``, ``Location.linkable``).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any, Literal
from xml.parsers import expat

__all__ = [
    "ADMIN_PERMISSIONS",
    "AdminInfo",
    "HandleRecord",
    "HandleValue",
    "Location",
    "RaAnswer",
    "Reference",
    "WhichRaResult",
    "alias_target",
    "is_linkable_url",
    "read_handle_response",
    "read_which_ra_response",
    "transport_outcome",
    "worth_retrying",
]

Outcome = Literal[
    "ok", "not-found", "no-values", "server-error", "bad-json", "http-error", "unexpected",
    "network", "timeout", "cancelled", "too-large",
]

MAX_BODY = 10 * 1024 * 1024  # bytes (or characters): larger answers are refused unread
MAX_VALUES = 1000  # values, locations, vlist members, servers kept from one answer
MAX_TEXT = 100_000  # characters of one decoded value kept for display
MAX_LABEL = 500  # characters kept of a type, format, name or attribute
MAX_XML = 1_000_000  # characters of a 10320/loc value that are parsed
MAX_URL = 8000  # characters: longer texts are never made links
_JS_SAFE = 2**53 - 1  # integers beyond this lose precision in JavaScript

#: RFC 3651 section 3.5 (HS_ADMIN) ``AdminPermission`` bits, by bit number: bit 0 is
#: ``Add_Handle`` (0x0001) ... bit 10 ``Authorized_Read`` (0x0400), bit 11 ``LIST_Handle``
#: (0x0800). The handle API writes them as a 12-character string of ``0``/``1`` with the
#: highest bit first, so the last character is bit 0 (``Add_Handle``).
ADMIN_PERMISSIONS: tuple[str, ...] = (
    "add handle",
    "delete handle",
    "add derived prefix (naming authority)",
    "delete derived prefix (naming authority)",
    "modify values",
    "remove values",
    "add values",
    "modify administrator",
    "remove administrator",
    "add administrator",
    "read values",
    "list handles",
)

_MESSAGES: dict[str, str] = {
    "ok": "The DOI name was resolved: its record is below.",
    "not-found": "The DOI name was not found: the resolver has no record for it "
                 "(responseCode 100). Check the name for typing or encoding mistakes.",
    "no-values": "The DOI name exists but its record holds no values (responseCode 200).",
    "server-error": "The resolver reported a server error (responseCode 2). Try again later.",
    "bad-json": "The resolver's answer was not the JSON the handle API sends; it may be an "
                "error or login page from a proxy or firewall in between.",
    "http-error": "The resolver answered with an HTTP error and no handle record.",
    "unexpected": "The resolver's answer does not follow the handle API format (003 ch. 4).",
    "network": "The resolver could not be reached: the network is down, or the browser "
               "refused the answer (CORS). Nothing was received.",
    "timeout": "The resolver did not answer within the time limit; the request was stopped.",
    "cancelled": "The request was cancelled.",
    "too-large": "The answer was too large to read (over 10 MB); it was not processed.",
}

#: Handle protocol response codes (RFC 3652, message header ``ResponseCode``), for messages.
_RESPONSE_CODES: dict[int, str] = {
    1: "success", 2: "server error", 3: "server too busy", 4: "protocol error",
    5: "operation not supported", 6: "too many recursions", 100: "handle not found",
    101: "handle already exists", 102: "invalid handle", 200: "values not found",
    201: "value already exists", 202: "invalid value", 300: "expired site information",
    301: "server not responsible for the handle", 302: "service referral",
    303: "naming authority delegation", 400: "not authorized", 401: "access denied",
    402: "authentication needed", 403: "authentication failed", 404: "invalid credential",
    405: "authentication timed out", 406: "unable to authenticate",
    500: "session timed out", 501: "session failed", 502: "no session key",
    503: "session not supported", 504: "session key invalid",
}

#: responseCodes other than 1 that have their own outcome (003 ch. 4; 3 from RFC 3652).
_CODE_OUTCOMES: dict[int, Outcome] = {
    100: "not-found", 200: "no-values", 2: "server-error", 3: "server-error",
}

#: 003 ch. 4: the HTTP status that goes with each defined responseCode.
_EXPECTED_STATUS = {1: 200, 2: 500, 100: 404, 200: 200}

_HTTP_REASONS: dict[int, str] = {
    400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
    405: "Method Not Allowed", 408: "Request Timeout", 410: "Gone", 414: "URI Too Long",
    429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
    503: "Service Unavailable", 504: "Gateway Timeout",
}


# ---------------------------------------------------------------------------------------
# Links


_SCHEMES = ("http://", "https://")
_HOST_PUNCT = frozenset("-._~")


def _host_ok(authority: str) -> bool:
    """A ``host[:port]`` with no user information: DNS-like labels or an IPv6 literal."""
    if not authority or "@" in authority:
        return False
    if authority.startswith("["):
        end = authority.find("]")
        host, rest = authority[: end + 1], authority[end + 1:]
        if end < 0 or not re.fullmatch(r"\[[0-9A-Fa-f:.]+\]", host):
            return False
    else:
        host, colon, port = authority.partition(":")
        rest = colon + port
        if not host or not all(c.isalnum() or c in _HOST_PUNCT for c in host):
            return False
        if not any(c.isalnum() for c in host):
            return False
    if rest:
        port = rest[1:]
        if not rest.startswith(":") or not port.isascii() or not port.isdigit():
            return False
        if len(port) > 5 or int(port) > 65535:
            return False
    return True


def is_linkable_url(value: object) -> bool:
    """Whether a value may become a clickable link: an ``http``/``https`` URL with a host.

    The text must be exactly the URL, nothing stripped: no leading or inner whitespace,
    no control, format or bidi characters, no backslash (browsers read it as ``/``), no
    user information (``https://bank@evil``). Every other scheme is refused, including
    ``javascript:``, ``data:``, ``vbscript:`` and split forms such as ``java\\tscript:``.
    The page turns a value into a link only when this holds (issue 3; RFC 3986 section 3
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


# ---------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True, slots=True)
class Location:
    """One ``<location>`` of a ``10320/loc`` value (the DOI multiple resolution format).

    ``linkable`` is true only for an ``http``/``https`` ``href`` (:func:`is_linkable_url`);
    ``attributes`` holds every other attribute (``id``, ``country``, ``href_template``...).
    """

    href: str
    linkable: bool
    weight: str | None = None
    view: str | None = None
    attributes: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Reference:
    """A handle value reference ``index:handle`` (RFC 3651 section 3.1, HS_VLIST 3.7)."""

    handle: str
    index: int | None


@dataclass(frozen=True, slots=True)
class AdminInfo:
    """An ``HS_ADMIN`` value (RFC 3651 section 3.5): who administers the handle, and how.

    ``permissions`` is the bit string as received (highest bit first); ``granted`` and
    ``denied`` spell the bits out with :data:`ADMIN_PERMISSIONS`.
    """

    handle: str | None
    index: int | None
    permissions: str | None
    granted: tuple[str, ...] = ()
    denied: tuple[str, ...] = ()
    legacy_byte_length: bool | None = None


@dataclass(frozen=True, slots=True)
class HandleValue:
    """One value of a handle record, decoded for display (RFC 3651 section 3.1).

    ``text`` is the display form; ``details`` label/value pairs (admin permissions spelled
    out, vlist entries, site servers); ``locations`` the parsed ``10320/loc`` list;
    ``href`` is set only when the value is a ``URL``/``URL.*`` value holding a linkable
    http(s) URL. ``raw`` is ``data.value`` as received, as JSON text. ``admin`` and
    ``members`` are the structured forms of ``admin`` and ``vlist`` data.
    """

    index: int | None
    type: str
    format: str
    text: str
    raw: str
    href: str | None = None
    details: tuple[tuple[str, str], ...] = ()
    locations: tuple[Location, ...] = ()
    ttl: str = ""
    ttl_seconds: int | None = None
    timestamp: str | None = None
    note: str | None = None
    admin: AdminInfo | None = None
    members: tuple[Reference, ...] = ()


@dataclass(frozen=True, slots=True)
class HandleRecord:
    """The outcome of one handle API request (003 ch. 4).

    ``outcome`` is a stable code (``ok``, ``not-found``, ``no-values``, ``server-error``,
    ``bad-json``, ``http-error``, ``unexpected``, ``network``, ``timeout``, ``cancelled``,
    ``too-large``); ``message`` says it in plain words; ``url`` is the first linkable URL
    value (where the name resolves); ``notes`` list oddities of the answer. ``retry``
    says whether asking again later may give another answer (:func:`worth_retrying`).
    """

    outcome: Outcome
    ok: bool
    message: str
    status: int | None = None
    response_code: int | None = None
    handle: str | None = None
    values: tuple[HandleValue, ...] = ()
    url: str | None = None
    notes: tuple[str, ...] = ()
    retry: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "retry", worth_retrying(self.outcome, self.status))


def worth_retrying(outcome: str, status: int | None) -> bool:
    """Whether a handle API request with this result may succeed if asked again later.

    True for HTTP 429 (Too Many Requests), any 5xx, the resolver's server error
    (``responseCode`` 2, 003 ch. 4) and a timeout; a page that resolves many names
    retries these with backoff (issue 5). A name that is not found, a bad answer or a
    refused request (``network``, which includes CORS) is final.
    """
    if status is not None and (status == 429 or 500 <= status <= 599):
        return True
    return outcome in ("server-error", "timeout")


def transport_outcome(kind: str) -> HandleRecord:
    """The record for a request that got no answer: ``network``, ``timeout`` or ``cancelled``.

    The page calls it when ``fetch()`` fails, its 10 s timer fires, or the person cancels
    (issue 3); any other ``kind`` reads as ``network``.
    """
    outcomes: dict[str, Outcome] = {"timeout": "timeout", "cancelled": "cancelled"}
    outcome = outcomes.get(kind, "network")
    return HandleRecord(outcome, False, _MESSAGES[outcome])


# ---------------------------------------------------------------------------------------
# Small readers


def _int(value: object) -> int | None:
    """A JSON integer JavaScript can hold exactly, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and -_JS_SAFE <= value <= _JS_SAFE:
        return value
    return None


def _clip(text: str, limit: int = MAX_TEXT) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"… ({len(text):,} characters in all)"


def _label(value: object) -> str:
    return _clip(value, MAX_LABEL) if isinstance(value, str) else ""


def _raw_json(value: object) -> str:
    try:
        return _clip(json.dumps(value, ensure_ascii=False))
    except (ValueError, TypeError, RecursionError):
        return "(not representable)"


def _plural(n: int, word: str, many: str = "") -> str:
    return f"{n} {word if n == 1 else many or word + 's'}"


def _ttl(value: object) -> tuple[str, int | None, str | None]:
    """(display, seconds, note) of a ``ttl``: seconds, or an absolute expiry date."""
    seconds = _int(value)
    if seconds is not None:
        if seconds < 0:
            return f"{seconds} s", seconds, "the time to live is negative"
        if seconds == 0:
            return "0 s (not cached)", 0, None
        parts: list[str] = []
        left = seconds
        for name, size in (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)):
            if left >= size:
                parts.append(_plural(left // size, name))
                left %= size
        if parts == [_plural(seconds, "second")]:
            return f"{seconds} s", seconds, None
        return f"{seconds} s ({', '.join(parts)})", seconds, None
    if isinstance(value, str) and value:
        return f"until {_clip(value, MAX_LABEL)}", None, None
    if value is None:
        return "", None, None
    return _raw_json(value)[:MAX_LABEL], None, "the time to live is neither seconds nor a date"


_ISO = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?"
                  r"(?:Z|[+-]\d{2}:?\d{2})?", re.ASCII)


def _timestamp(value: object) -> tuple[str | None, str | None]:
    if value is None:
        return None, None
    if not isinstance(value, str):
        return _raw_json(value)[:MAX_LABEL], "the timestamp is not text"
    text = _clip(value, MAX_LABEL)
    return text, None if _ISO.fullmatch(value) else "the timestamp is not an ISO 8601 date"


# ---------------------------------------------------------------------------------------
# Data formats


def _decode_bytes(data: bytes, how: str) -> tuple[str, str]:
    """Text if the bytes are UTF-8 text, else hex with the byte count: (text, note)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = ""
        is_text = False
    else:
        is_text = text.replace("\t", "").replace("\n", "").replace("\r", "").isprintable()
    if is_text and data:
        return _clip(text), f"decoded from {how} as UTF-8 text"
    shown = data[:256].hex(" ")
    more = " …" if len(data) > 256 else ""
    return f"{shown}{more}", f"{_plural(len(data), 'byte')} of binary data ({how}), shown as hex"


def _bytes_value(raw: str, fmt: str) -> tuple[str, str]:
    compact = "".join(raw.split())
    try:
        if fmt == "hex":
            data = bytes.fromhex(compact)
        else:
            padded = compact + "=" * (-len(compact) % 4)
            altchars = b"-_" if ("-" in compact or "_" in compact) else None
            data = base64.b64decode(padded, altchars=altchars, validate=True)
    except (binascii.Error, ValueError):
        return _clip(raw), f"not valid {fmt}; shown as received"
    return _decode_bytes(data, fmt)


def _admin(value: object) -> tuple[str, tuple[tuple[str, str], ...], AdminInfo | None,
                                   str | None]:
    if not isinstance(value, dict):
        return _raw_json(value), (), None, "the admin data is not an object"
    h = value.get("handle")
    admin_handle = _clip(h, MAX_LABEL) if isinstance(h, str) else None
    admin_index = _int(value.get("index"))
    who = f"{admin_index if admin_index is not None else '?'}:{admin_handle or '?'}"
    details: list[tuple[str, str]] = [("administrator", who)]
    perms = value.get("permissions")
    perm_text = perms if isinstance(perms, str) else None
    granted: list[str] = []
    denied: list[str] = []
    note: str | None = None
    if perm_text and len(perm_text) <= 16 and set(perm_text) <= {"0", "1"}:
        for bit, flag in enumerate(reversed(perm_text)):  # the last character is bit 0
            label = ADMIN_PERMISSIONS[bit] if bit < len(ADMIN_PERMISSIONS) else f"bit {bit}"
            (granted if flag == "1" else denied).append(label)
        if len(perm_text) != len(ADMIN_PERMISSIONS):
            note = (f"the permissions have {len(perm_text)} bits; RFC 3651 defines "
                    f"{len(ADMIN_PERMISSIONS)}")
        details.append(("permissions", perm_text))
        details.append(("may", ", ".join(granted) if granted else "nothing"))
        if denied:
            details.append(("may not", ", ".join(denied)))
    elif perms is not None:
        perm_text = None
        details.append(("permissions", _raw_json(perms)[:MAX_LABEL]))
        note = "the permissions are not a string of 0 and 1"
    legacy = value.get("legacyByteLength")
    legacy_flag = legacy if isinstance(legacy, bool) else None
    if legacy_flag is not None:
        details.append(("legacy byte length", str(legacy_flag).lower()))
    if perm_text is None:
        text = f"administrator {who}; permissions unreadable"
    else:
        text = f"administrator {who}; may: " + (", ".join(granted) if granted else "nothing")
    info = AdminInfo(admin_handle, admin_index, perm_text, tuple(granted), tuple(denied),
                     legacy_flag)
    return text, tuple(details), info, note


def _vlist(value: object) -> tuple[str, tuple[tuple[str, str], ...], tuple[Reference, ...],
                                   str | None]:
    if not isinstance(value, list):
        return _raw_json(value), (), (), "the value list is not a list"
    members: list[Reference] = []
    skipped = 0
    for item in value[:MAX_VALUES]:
        if isinstance(item, dict) and isinstance(item.get("handle"), str):
            members.append(Reference(_clip(item["handle"], MAX_LABEL), _int(item.get("index"))))
        else:
            skipped += 1
    shown = [f"{m.index if m.index is not None else '?'}:{m.handle}" for m in members]
    note = None
    if skipped:
        note = f"{_plural(skipped, 'entry', 'entries')} without a handle left out"
    if len(value) > MAX_VALUES:
        note = f"only the first {MAX_VALUES} of {len(value)} entries are shown"
    text = ", ".join(shown) if shown else "(empty list)"
    return _clip(text), tuple(("member", s) for s in shown), tuple(members), note


def _site(value: object) -> tuple[str, tuple[tuple[str, str], ...], str | None]:
    """An ``HS_SITE`` value (RFC 3651 section 3.2), as the handle API writes it."""
    if not isinstance(value, dict):
        return _raw_json(value), (), "the site data is not an object"
    details: list[tuple[str, str]] = []
    for key, label in (("version", "version"), ("protocolVersion", "protocol version"),
                       ("serialNumber", "serial number")):
        v = value.get(key)
        if isinstance(v, (str, int)) and not isinstance(v, bool):
            details.append((label, _clip(str(v), MAX_LABEL)))
    roles = [name for key, name in (("primarySite", "primary"), ("multiPrimary", "multi-primary"))
             if value.get(key) is True]
    details.append(("role", " and ".join(roles) if roles else "secondary (mirror)"))
    attrs = value.get("attributes")
    if isinstance(attrs, list):
        for a in attrs[:MAX_VALUES]:
            if isinstance(a, dict) and isinstance(a.get("name"), str):
                details.append((_clip(a["name"], MAX_LABEL), _label(a.get("value"))))
    servers = value.get("servers")
    server_list = servers[:MAX_VALUES] if isinstance(servers, list) else []
    addresses: list[str] = []
    for s in server_list:
        if not isinstance(s, dict):
            continue
        address = _label(s.get("address")) or "?"
        addresses.append(address)
        ports: list[str] = []
        interfaces = s.get("interfaces")
        for i in interfaces[:MAX_VALUES] if isinstance(interfaces, list) else []:
            if isinstance(i, dict):
                uses = [u for u in ("query", "admin") if i.get(u) is True]
                port = _int(i.get("port"))
                ports.append(f"{_label(i.get('protocol')) or '?'} "
                             f"{port if port is not None else '?'}"
                             + (f" ({', '.join(uses)})" if uses else ""))
        sid = _int(s.get("serverId"))
        details.append((f"server {sid if sid is not None else '?'}",
                        address + (": " + "; ".join(ports) if ports else "")))
    desc = next((v for k, v in details if k == "desc"), "")
    role = " and ".join(roles) if roles else "secondary"
    text = (f"{role} site with {_plural(len(addresses), 'server')}"
            + (f" ({', '.join(addresses)})" if addresses else "")
            + (f": {desc}" if desc else ""))
    return _clip(text), tuple(details), None


def _key(value: object) -> tuple[str, tuple[tuple[str, str], ...], str | None]:
    """A ``key`` value: a public key, which the handle API writes as a JSON Web Key."""
    if isinstance(value, dict):
        kty = _label(value.get("kty")) or "?"
        fields = sorted(k for k in value if isinstance(k, str) and k != "kty")
        details = [("key type", kty)]
        if fields:
            details.append(("fields", _clip(", ".join(fields), MAX_LABEL)))
        return f"public key ({kty}, JSON Web Key)", tuple(details), None
    if isinstance(value, str):
        return _clip(value), (), "key data shown as received"
    return _raw_json(value), (), "key data shown as received"


class _Refused(Exception):
    """A 10320/loc value this reader will not parse (a DTD, too deep, too many elements)."""


def _locations(xml_text: str) -> tuple[tuple[Location, ...], tuple[tuple[str, str], ...],
                                       str | None]:
    """Parse a ``10320/loc`` value safely: expat, no DTD, no entities, bounded size.

    Returns (locations, root attributes as details, problem or None).
    """
    if len(xml_text) > MAX_XML:
        return (), (), "the location list is too long to parse"
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    found: list[Location] = []
    root: list[tuple[str, dict[str, str]]] = []
    depth = 0
    count = 0

    def refuse_dtd(*_: object) -> None:
        raise _Refused("the location list declares a DTD; it was not parsed")

    def start(name: str, attrs: dict[str, str]) -> None:
        nonlocal depth, count
        depth += 1
        count += 1
        if depth > 32 or count > 10 * MAX_VALUES:
            raise _Refused("the location list is nested too deeply or too long to parse")
        if depth == 1:
            root.append((name, attrs))
        if name == "location" and len(found) < MAX_VALUES:
            href = attrs.get("href", "")
            rest = tuple((_clip(k, MAX_LABEL), _clip(v, MAX_LABEL)) for k, v in attrs.items()
                         if k not in ("href", "weight", "view"))
            found.append(Location(_clip(href, MAX_URL), is_linkable_url(href),
                                  attrs.get("weight"), attrs.get("view"), rest))

    def end(_name: str) -> None:
        nonlocal depth
        depth -= 1

    parser.StartDoctypeDeclHandler = refuse_dtd
    parser.EntityDeclHandler = refuse_dtd
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    try:
        parser.Parse(xml_text, True)
    except _Refused as e:
        return (), (), str(e)
    except (expat.ExpatError, ValueError, RecursionError):
        return (), (), "the location list is not well-formed XML"
    details: list[tuple[str, str]] = []
    problem = None
    if root:
        name, attrs = root[0]
        if name != "locations":
            problem = f"the location list starts with <{_clip(name, 80)}>, not <locations>"
        details = [(f"locations {_clip(k, MAX_LABEL)}", _clip(v, MAX_LABEL))
                   for k, v in attrs.items()]
    if not found and problem is None:
        problem = "the location list has no <location> entries"
    return tuple(found), tuple(details), problem


def _is_url_type(vtype: str) -> bool:
    up = vtype.upper()
    return up == "URL" or up.startswith("URL.")


def _value(item: object) -> HandleValue | None:
    if not isinstance(item, dict):
        return None
    index = _int(item.get("index"))
    vtype = _label(item.get("type"))
    data = item.get("data")
    fmt = ""
    raw_value: object = data
    notes: list[str] = []
    if isinstance(data, dict):
        fmt = _label(data.get("format"))
        raw_value = data.get("value")
    else:
        notes.append("the data is not a {format, value} object")
    ttl_text, ttl_seconds, ttl_note = _ttl(item.get("ttl"))
    timestamp, ts_note = _timestamp(item.get("timestamp"))
    text = ""
    details: tuple[tuple[str, str], ...] = ()
    locations: tuple[Location, ...] = ()
    admin: AdminInfo | None = None
    members: tuple[Reference, ...] = ()
    note: str | None = None
    if fmt in ("string", "") and isinstance(raw_value, str):
        text = _clip(raw_value)
    elif fmt in ("base64", "hex") and isinstance(raw_value, str):
        text, note = _bytes_value(raw_value, fmt)
    elif fmt == "admin":
        text, details, admin, note = _admin(raw_value)
    elif fmt == "vlist":
        text, details, members, note = _vlist(raw_value)
    elif fmt == "site":
        text, details, note = _site(raw_value)
    elif fmt == "key":
        text, details, note = _key(raw_value)
    else:
        text = _clip(raw_value) if isinstance(raw_value, str) else _raw_json(raw_value)
        note = (f"data in format “{fmt}” shown as received" if fmt
                else "data without a format, shown as received")
    if vtype == "10320/loc" and text and fmt in ("string", "base64", "hex", ""):
        locations, loc_details, problem = _locations(text)
        details += loc_details
        note = problem or note
    href = text if _is_url_type(vtype) and is_linkable_url(text) else None
    if _is_url_type(vtype) and text and href is None:
        notes.append("not made a link: only a plain http(s) address with a host becomes one")
    notes.extend(n for n in (note, ttl_note, ts_note) if n)
    return HandleValue(index, vtype, fmt, text, _raw_json(raw_value), href, details, locations,
                       ttl_text, ttl_seconds, timestamp, "; ".join(notes) or None, admin,
                       members)


# ---------------------------------------------------------------------------------------
# Bodies


def _as_text(body: object) -> tuple[str | None, bool]:
    """(text, too large): bytes are read as UTF-8 (bad bytes become U+FFFD)."""
    if isinstance(body, (bytes, bytearray, memoryview)):
        data = bytes(body)
        if len(data) > MAX_BODY:
            return None, True
        return data.decode("utf-8", errors="replace"), False
    if isinstance(body, str):
        return (None, True) if len(body) > MAX_BODY else (body, False)
    return "", False


MAX_DEPTH = 100  # JSON nesting: a handle record is 4 deep; Pyodide's stack is small
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = [1 if b in b"[{" else -1 if b in b"]}" else 0 for b in range(256)]


def _too_deep(text: str) -> bool:
    """Whether brackets nest deeper than ``MAX_DEPTH`` outside strings. Linear, C speed.

    Checked before parsing: in Pyodide the JavaScript stack overflows before Python's
    recursion limit is reached, so a deep document must never reach ``json.loads``.
    Escapes are dropped (``\\\\`` first, then ``\\"``), so splitting at ``"`` leaves the
    text outside strings at even positions.
    """
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    outside = "".join(text.replace("\\\\", "").replace('\\"', "").split('"')[::2])
    brackets = outside.encode("utf-8", "surrogatepass").translate(None, _NOT_BRACKETS)
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0) > MAX_DEPTH


_JSONP = re.compile(r"([A-Za-z_$][\w$.]{0,200})\s*\(", re.ASCII)


def _load_json(text: str) -> tuple[Any, bool, str | None]:
    """Parse JSON, or JSONP ``name(...)``: (value, ok, callback name). Never raises."""
    stripped = text.strip().lstrip("\ufeff").strip()
    callback = None
    m = _JSONP.match(stripped)
    if m is not None:
        inner = stripped[m.end():].rstrip().rstrip(";").rstrip()
        if inner.endswith(")"):
            callback, stripped = m.group(1), inner[:-1]
    if not stripped or _too_deep(stripped):
        return None, False, callback
    try:
        return json.loads(stripped), True, callback
    except (ValueError, RecursionError, MemoryError):
        return None, False, callback


def _http_phrase(status: int) -> str:
    reason = _HTTP_REASONS.get(status)
    return f"HTTP {status}" + (f" ({reason})" if reason else "")


def _http_error_message(status: int) -> str:
    hint = ""
    if status == 429:
        hint = " The resolver is limiting requests: wait a moment and try again."
    elif status in (401, 403):
        hint = " The request was refused, perhaps by a firewall or proxy in between."
    elif status >= 500:
        hint = " A server or gateway between you and doi.org failed; try again later."
    return (f"The resolver answered {_http_phrase(status)} with no handle record.{hint}")


def _code_phrase(code: int | None) -> str:
    if code is None:
        return "no responseCode"
    meaning = _RESPONSE_CODES.get(code)
    return f"responseCode {code}" + (f" ({meaning})" if meaning else "")


def read_handle_response(status: int | None, body: str | bytes | None) -> HandleRecord:
    """Read one answer of the handle API (003 ch. 4; values per RFC 3651 section 3).

    ``status`` is the HTTP status (``None`` or 0 when no answer arrived); ``body`` the
    response text or bytes. The ``outcome`` follows the JSON ``responseCode`` (1 ``ok``,
    2 ``server-error``, 100 ``not-found``, 200 ``no-values``, others ``unexpected``); an
    HTTP status that does not match it (003 ch. 4 pairs 1/200, 2/500, 100/404, 200/200)
    is kept as a note. Without a JSON object: HTTP 404 is ``not-found``, 500
    ``server-error``, other 4xx/5xx ``http-error``, anything else ``bad-json``. A JSONP
    body (``?callback=``) is read, with a note. Bodies over 10 MB are ``too-large``.
    Never raises, whatever the arguments.
    """
    st = _int(status)
    if not st:
        return transport_outcome("network")
    text, too_large = _as_text(body)
    if too_large or text is None:
        return HandleRecord("too-large", False, _MESSAGES["too-large"], st)
    doc, ok, callback = _load_json(text)
    notes: list[str] = []
    if callback and ok:
        notes.append(f"the answer was wrapped in a JSONP callback “{callback}(…)”")
    if not ok or not isinstance(doc, dict):
        if st == 404:
            return HandleRecord("not-found", False, _MESSAGES["not-found"].replace(
                "(responseCode 100)", "(HTTP 404, no handle record)"), st, notes=tuple(notes))
        if st == 500:
            return HandleRecord("server-error", False, _MESSAGES["server-error"].replace(
                "(responseCode 2)", "(HTTP 500, no handle record)"), st, notes=tuple(notes))
        if st >= 400:
            return HandleRecord("http-error", False, _http_error_message(st), st,
                                notes=tuple(notes))
        if ok:
            return HandleRecord("unexpected", False, _MESSAGES["unexpected"] + " It is JSON "
                                f"but not an object (HTTP {st}).", st, notes=tuple(notes))
        return HandleRecord("bad-json", False, f"The resolver answered HTTP {st}, but not "
                            "with the JSON the handle API sends; it may be an error or login "
                            "page from a proxy or firewall in between.", st, notes=tuple(notes))
    code = _int(doc.get("responseCode"))
    handle = _label(doc.get("handle")) or None
    raw_values = doc.get("values")
    values: list[HandleValue] = []
    if isinstance(raw_values, list):
        skipped = 0
        for item in raw_values[:MAX_VALUES]:
            v = _value(item)
            if v is None:
                skipped += 1
            else:
                values.append(v)
        if skipped:
            notes.append(f"{_plural(skipped, 'value')} that are not objects left out")
        if len(raw_values) > MAX_VALUES:
            notes.append(f"only the first {MAX_VALUES} of {len(raw_values)} values are shown")
    elif raw_values is not None:
        notes.append("“values” is not a list; it was ignored")
    if code in _EXPECTED_STATUS and _EXPECTED_STATUS[code] != st:
        notes.append(f"HTTP status {st} does not match responseCode {code} (003 ch. 4 pairs "
                     f"it with {_EXPECTED_STATUS[code]})")
    message = doc.get("message")
    said = f" The server said: “{_clip(message, 500)}”" if isinstance(message, str) and \
        message.strip() else ""
    url = next((v.href for v in values if v.href), None)
    if code == 1:
        if not values:
            notes.append("responseCode 1 but the answer lists no values")
        return HandleRecord("ok", True, _MESSAGES["ok"], st, code, handle, tuple(values), url,
                            tuple(notes))
    if code in _CODE_OUTCOMES:
        outcome = _CODE_OUTCOMES[code]
        msg = _MESSAGES[outcome]
        if code == 3:
            msg = "The resolver is too busy to answer (responseCode 3). Try again later."
        if values:
            notes.append(f"the answer also lists {_plural(len(values), 'value')}; "
                         "they are not shown")
        return HandleRecord(outcome, False, msg + said, st, code, handle, (), None,
                            tuple(notes))
    if code is None and st >= 400:
        return HandleRecord("http-error", False, _http_error_message(st) + said, st, None,
                            handle, (), None, tuple(notes))
    msg = (_MESSAGES["unexpected"] + f" It answered {_code_phrase(code)} with HTTP {st}."
           + said)
    return HandleRecord("unexpected", False, msg, st, code, handle, tuple(values), url,
                        tuple(notes))


def alias_target(record: HandleRecord) -> str | None:
    """The DOI name a shortDOI points to: its first ``HS_ALIAS`` value (specs README).

    Only a successful record counts, and only a value that looks like a handle
    (``prefix/suffix``, no whitespace or control characters); the caller still reads it
    with :func:`doiname.parse`.
    """
    if record.outcome != "ok":
        return None
    for v in record.values:
        if v.type.upper() != "HS_ALIAS":
            continue
        target = v.text
        if "/" in target and target.isprintable() and not any(c.isspace() for c in target) \
                and len(target) <= MAX_URL:
            return target
    return None


# ---------------------------------------------------------------------------------------
# Which RA


@dataclass(frozen=True, slots=True)
class RaAnswer:
    """One entry of a Which RA answer: the name, its registration agency or a status.

    ``kind`` is ``found`` (an RA is named), ``does-not-exist``, ``invalid`` (the service
    does not read it as a DOI name) or ``unknown`` (another status, or none).
    """

    doi: str
    ra: str | None
    status: str | None
    message: str
    kind: str = "unknown"


@dataclass(frozen=True, slots=True)
class WhichRaResult:
    """The outcome of one Which RA request (specs README: ``https://doi.org/ra/...``)."""

    outcome: Outcome
    ok: bool
    message: str
    status: int | None = None
    answers: tuple[RaAnswer, ...] = ()


def _ra_answer(item: dict[str, Any]) -> RaAnswer:
    name = _label(item.get("DOI"))
    ra = _label(item.get("RA")) or None
    stat = _label(item.get("status")) or None
    who = name or "(no name given)"
    if ra:
        return RaAnswer(name, ra, stat, f"{who} is registered with {ra}.", "found")
    folded = (stat or "").strip().lower()
    if folded == "doi does not exist":
        return RaAnswer(name, None, stat, f"{who}: the Which RA service says “{stat}”: no "
                        "registration agency knows this name.", "does-not-exist")
    if folded == "invalid doi":
        return RaAnswer(name, None, stat, f"{who}: the Which RA service says “{stat}”: it does "
                        "not read this as a DOI name.", "invalid")
    if stat:
        return RaAnswer(name, None, stat, f"{who}: the Which RA service says “{stat}”.")
    return RaAnswer(name, None, None, f"{who}: the answer names no registration agency.")


def read_which_ra_response(status: int | None, body: str | bytes | None) -> WhichRaResult:
    """Read a Which RA answer: a JSON array of ``{"DOI", "RA"}`` or ``{"DOI", "status"}``.

    Unknown names come back with HTTP 200 and a ``status`` such as ``"DOI does not
    exist"`` or ``"Invalid DOI"`` (specs README); each entry becomes an :class:`RaAnswer`.
    No answer is ``network``; a 5xx without JSON ``server-error``; another 4xx/5xx
    ``http-error``; a body that is not JSON ``bad-json``; JSON of another shape
    ``unexpected``; over 10 MB ``too-large``. Never raises.
    """
    st = _int(status)
    if not st:
        t = transport_outcome("network")
        return WhichRaResult(t.outcome, False, t.message)
    text, too_large = _as_text(body)
    if too_large or text is None:
        return WhichRaResult("too-large", False, _MESSAGES["too-large"], st)
    doc, ok, _callback = _load_json(text)
    if not ok:
        if st >= 500:
            return WhichRaResult("server-error", False, "The Which RA service reported a "
                                 f"server error ({_http_phrase(st)}). Try again later.", st)
        if st >= 400:
            return WhichRaResult("http-error", False, _http_error_message(st).replace(
                "no handle record", "no Which RA answer"), st)
        return WhichRaResult("bad-json", False, "The Which RA answer was not JSON; it may be "
                             f"an error or login page from a proxy in between (HTTP {st}).", st)
    if isinstance(doc, dict):
        doc = [doc]
    if not isinstance(doc, list):
        return WhichRaResult("unexpected", False, "The Which RA answer is not a list of names "
                             f"(HTTP {st}).", st)
    answers = tuple(_ra_answer(item) for item in doc[:MAX_VALUES] if isinstance(item, dict))
    if st >= 400:
        return WhichRaResult("http-error", False, _http_error_message(st).replace(
            "no handle record", "an error"), st, answers)
    if not answers:
        return WhichRaResult("unexpected", False, f"The Which RA answer lists no names (HTTP "
                             f"{st}).", st)
    if len(answers) == 1:
        return WhichRaResult("ok", True, answers[0].message, st, answers)
    found = sum(1 for a in answers if a.ra)
    verb = "has" if found == 1 else "have"
    return WhichRaResult("ok", True, f"{found} of {len(answers)} names {verb} a registration "
                         "agency.", st, answers)
