"""Reading the answers of the DOI resolver: handle records, Which RA, shortDOI aliases.

* Handle records: ``https://doi.org/api/handles/<ssp>`` answers a JSON object (003 ch. 4)
  with ``responseCode`` 1 (success, HTTP 200), 2 (server error, HTTP 500), 100 (not
  found, HTTP 404) or 200 (no values, HTTP 200), ``handle`` and ``values``. Each value
  (RFC 3651 section 3) has ``index``, ``type``, ``data`` (``format`` one of ``string``,
  ``base64``, ``hex``, ``admin``, ``vlist``, ``site``, ``key``; specs README), ``ttl``
  (seconds, or an absolute date) and ``timestamp``.
* Which RA: ``https://doi.org/ra/A,B`` answers a JSON array of ``{"DOI", "RA"}`` or
  ``{"DOI", "status"}`` objects (specs README).
* shortDOIs resolve through the ``HS_ALIAS`` value of their handle (specs README).

Everything here is data from the network: untrusted. Nothing raises on any input: every
outcome, including a network failure (``status`` ``None``), is a value with a plain
message. Only ``http``/``https`` URLs with a host are marked linkable (``href``).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal
from xml.etree import ElementTree

__all__ = [
    "ADMIN_PERMISSIONS",
    "HandleRecord",
    "HandleValue",
    "Location",
    "RaAnswer",
    "WhichRaResult",
    "alias_target",
    "is_linkable_url",
    "read_handle_response",
    "read_which_ra_response",
    "transport_outcome",
]

Outcome = Literal[
    "ok", "not-found", "no-values", "server-error", "bad-json", "http-error", "unexpected",
    "network", "timeout", "cancelled", "too-large",
]

MAX_BODY = 10 * 1024 * 1024  # bytes: larger answers are refused unread
MAX_VALUES = 1000
MAX_TEXT = 100_000  # characters of one decoded value kept for display

#: RFC 3651 section 3.5 (HS_ADMIN) permission bits, by bit index. The REST API writes
#: them as a 12-character string with bit 11 first (Handle.Net's AdminRecord order).
ADMIN_PERMISSIONS = (
    "add handle", "delete handle", "add derived prefix (naming authority)",
    "delete derived prefix (naming authority)", "modify values", "remove values",
    "add values", "read values", "modify administrator", "remove administrator",
    "add administrator", "list handles",
)

_MESSAGES: dict[str, str] = {
    "ok": "The DOI name was resolved: its record is below.",
    "not-found": "The DOI name was not found: the resolver has no record for it "
                 "(responseCode 100). Check the name for typing or encoding mistakes.",
    "no-values": "The DOI name exists but its record holds no values (responseCode 200).",
    "server-error": "The resolver reported a server error (responseCode 2). Try again later.",
    "bad-json": "The resolver's answer was not the JSON the handle API sends; it may be an "
                "error page from a proxy or firewall in between.",
    "http-error": "The resolver answered with an HTTP error and no handle record.",
    "unexpected": "The resolver's answer does not follow the handle API format (003 ch. 4).",
    "network": "The resolver could not be reached: the network is down, or the browser "
               "refused the answer (CORS). Nothing was received.",
    "timeout": "The resolver did not answer within the time limit; the request was stopped.",
    "cancelled": "The request was cancelled.",
    "too-large": "The answer was too large to read (over 10 MB); it was not processed.",
}

_LINKABLE = re.compile(r"https?://[^\s/?#@]+(?:[/?#]\S*)?", re.ASCII | re.IGNORECASE)


def is_linkable_url(value: object) -> bool:
    """Whether a value may become a clickable link: an ``http``/``https`` URL with a host.

    The text must be exactly the URL: no leading spaces, control characters or hidden
    scheme tricks (``java\\tscript:``, ``data:``, ``vbscript:`` are all refused).
    """
    if not isinstance(value, str) or len(value) > 8000:
        return False
    if not value.isprintable() or " " in value:  # controls, bidi and other format characters
        return False
    return _LINKABLE.fullmatch(value) is not None and value[:8].lower().startswith(
        ("http://", "https://"))


@dataclass(frozen=True, slots=True)
class Location:
    """One ``<location>`` of a ``10320/loc`` value (the DOI multiple resolution format)."""

    href: str
    linkable: bool
    weight: str | None = None
    view: str | None = None
    attributes: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class HandleValue:
    """One value of a handle record, decoded for display (RFC 3651 section 3).

    ``text`` is the display form; ``details`` label/value pairs (admin permissions spelled
    out, vlist entries); ``locations`` the parsed ``10320/loc`` list; ``href`` is set only
    when the value is a linkable http(s) URL. ``raw`` is the ``data.value`` as received,
    as JSON text.
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


@dataclass(frozen=True, slots=True)
class HandleRecord:
    """The outcome of one handle API request (003 ch. 4)."""

    outcome: Outcome
    ok: bool
    message: str
    status: int | None = None
    response_code: int | None = None
    handle: str | None = None
    values: tuple[HandleValue, ...] = ()
    url: str | None = None  # the first linkable URL value: where the DOI resolves
    notes: tuple[str, ...] = field(default=())


def transport_outcome(kind: str) -> HandleRecord:
    """The record for a request that got no answer: ``network``, ``timeout`` or ``cancelled``."""
    outcomes: dict[str, Outcome] = {"timeout": "timeout", "cancelled": "cancelled"}
    outcome = outcomes.get(kind, "network")
    return HandleRecord(outcome, False, _MESSAGES[outcome])


def _as_text(body: str | bytes | bytearray | None) -> str | None:
    if body is None:
        return None
    if isinstance(body, (bytes, bytearray)):
        return bytes(body).decode("utf-8", errors="replace")
    return body if isinstance(body, str) else None


MAX_DEPTH = 100  # JSON nesting: a handle record is 4 deep; Pyodide's stack is small


def _too_deep(text: str) -> bool:
    """Whether brackets nest deeper than ``MAX_DEPTH`` (strings skipped). Linear."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def _load_json(text: str) -> tuple[Any, bool]:
    """Parse JSON (or JSONP ``name(...)``); (value, ok). Never raises.

    Nesting deeper than ``MAX_DEPTH`` is refused before parsing: in Pyodide the
    JavaScript stack overflows before Python's recursion limit is reached.
    """
    if _too_deep(text):
        return None, False
    stripped = text.strip()
    m = re.fullmatch(r"[A-Za-z_$][\w$.]*\s*\((.*)\)\s*;?", stripped, re.DOTALL)
    if m is not None:
        stripped = m.group(1)
    try:
        return json.loads(stripped), True
    except (ValueError, RecursionError):
        return None, False


def _int(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _clip(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + f"… ({len(text):,} characters)"


def _raw_json(value: object) -> str:
    try:
        return _clip(json.dumps(value, ensure_ascii=False))
    except (ValueError, TypeError, RecursionError):
        return "(not representable)"


def _ttl(value: object) -> tuple[str, int | None]:
    seconds = _int(value)
    if seconds is not None:
        if seconds < 0:
            return f"{seconds} s (negative)", seconds
        units = [("day", 86400), ("hour", 3600), ("minute", 60)]
        for name, size in units:
            if seconds >= size and seconds % size == 0:
                n = seconds // size
                return f"{seconds} s ({n} {name}{'s' if n != 1 else ''})", seconds
        return f"{seconds} s", seconds
    if isinstance(value, str):
        return f"until {value}", None
    return "", None


def _decode_bytes(data: bytes, how: str) -> tuple[str, str]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        shown = data[:256].hex(" ")
        more = " …" if len(data) > 256 else ""
        return f"{shown}{more}", f"{len(data)} bytes of binary data ({how}), shown as hex"
    if any(ord(c) < 0x20 and c not in "\t\n\r" for c in text):
        return data[:256].hex(" "), f"{len(data)} bytes ({how}), not text, shown as hex"
    return _clip(text), f"decoded from {how} as UTF-8 text"


def _admin(value: object) -> tuple[str, tuple[tuple[str, str], ...]]:
    if not isinstance(value, dict):
        return _raw_json(value), ()
    admin_handle = value.get("handle")
    admin_index = _int(value.get("index"))
    perms = value.get("permissions")
    details: list[tuple[str, str]] = []
    who = f"{admin_handle if isinstance(admin_handle, str) else '?'}"
    if admin_index is not None:
        who = f"{admin_index}:{who}"
    details.append(("administrator", who))
    granted: list[str] = []
    if isinstance(perms, str) and perms and set(perms) <= {"0", "1"}:
        bits = perms[::-1]  # the string is written with bit 11 first
        for i, flag in enumerate(bits):
            label = ADMIN_PERMISSIONS[i] if i < len(ADMIN_PERMISSIONS) else f"bit {i}"
            if flag == "1":
                granted.append(label)
        details.append(("permissions", perms))
        details.append(("may", ", ".join(granted) if granted else "nothing"))
        denied = [ADMIN_PERMISSIONS[i] for i in range(min(len(bits), 12)) if bits[i] == "0"]
        if denied:
            details.append(("may not", ", ".join(denied)))
    elif perms is not None:
        details.append(("permissions", _raw_json(perms)))
    if "legacyByteLength" in value:
        details.append(("legacy byte length", str(bool(value.get("legacyByteLength"))).lower()))
    text = f"administrator {who}; may: " + (", ".join(granted) if granted else "nothing")
    return text, tuple(details)


def _locations(xml_text: str) -> tuple[tuple[Location, ...], str | None]:
    """Parse a ``10320/loc`` value safely: no DTD, no entities, bounded size."""
    if "<!DOCTYPE" in xml_text.upper() or "<!ENTITY" in xml_text.upper():
        return (), "the location list declares a DTD or entities; it was not parsed"
    if len(xml_text) > 1_000_000:
        return (), "the location list is too long to parse"
    try:
        root = ElementTree.fromstring(xml_text)
    except (ElementTree.ParseError, ValueError, RecursionError):
        return (), "the location list is not well-formed XML"
    out: list[Location] = []
    for el in root.iter("location"):
        href = el.get("href", "")
        attrs = tuple((k, v) for k, v in el.attrib.items() if k not in ("href", "weight", "view"))
        out.append(Location(href, is_linkable_url(href), el.get("weight"), el.get("view"), attrs))
        if len(out) >= MAX_VALUES:
            break
    return tuple(out), None


def _vlist(value: object) -> tuple[str, tuple[tuple[str, str], ...]]:
    if not isinstance(value, list):
        return _raw_json(value), ()
    details: list[tuple[str, str]] = []
    for item in value[:MAX_VALUES]:
        if isinstance(item, dict):
            h, i = item.get("handle"), _int(item.get("index"))
            who = h if isinstance(h, str) else "?"
            details.append(("member", f"{i if i is not None else '?'}:{who}"))
    return ", ".join(v for _, v in details) or _raw_json(value), tuple(details)


def _value(item: object) -> HandleValue | None:
    if not isinstance(item, dict):
        return None
    index = _int(item.get("index"))
    vtype = item.get("type")
    vtype = vtype if isinstance(vtype, str) else ""
    data = item.get("data")
    fmt = ""
    raw_value: object = data
    if isinstance(data, dict):
        f = data.get("format")
        fmt = f if isinstance(f, str) else ""
        raw_value = data.get("value")
    ttl_text, ttl_seconds = _ttl(item.get("ttl"))
    ts = item.get("timestamp")
    timestamp = ts if isinstance(ts, str) else None
    text = ""
    note: str | None = None
    details: tuple[tuple[str, str], ...] = ()
    locations: tuple[Location, ...] = ()
    if fmt == "string" and isinstance(raw_value, str):
        text = _clip(raw_value)
    elif fmt in ("base64", "hex") and isinstance(raw_value, str):
        try:
            data_bytes = (base64.b64decode(raw_value, validate=False) if fmt == "base64"
                          else bytes.fromhex(raw_value))
        except (binascii.Error, ValueError):
            text, note = _clip(raw_value), f"not valid {fmt}; shown as received"
        else:
            text, note = _decode_bytes(data_bytes, fmt)
    elif fmt == "admin":
        text, details = _admin(raw_value)
    elif fmt == "vlist":
        text, details = _vlist(raw_value)
    else:
        text = raw_value if isinstance(raw_value, str) else _raw_json(raw_value)
        text = _clip(text)
        if fmt in ("site", "key"):
            note = f"{fmt} data shown as received"
    if vtype == "10320/loc" and text:
        locations, problem = _locations(text)
        if problem:
            note = problem
    href = text if vtype.upper().startswith("URL") and is_linkable_url(text) else None
    return HandleValue(index, vtype, fmt, text, _raw_json(raw_value), href, details, locations,
                       ttl_text, ttl_seconds, timestamp, note)


def read_handle_response(status: int | None, body: str | bytes | None) -> HandleRecord:
    """Read one answer of the handle API (003 ch. 4, RFC 3651 section 3).

    ``status`` is the HTTP status (``None`` or 0 when no answer arrived); ``body`` the
    response text or bytes. Returns a :class:`HandleRecord` whose ``outcome`` is one of
    ``ok``, ``not-found``, ``no-values``, ``server-error``, ``bad-json``, ``http-error``,
    ``unexpected``, ``network``, ``too-large``; it never raises.
    """
    st = _int(status)
    if not st:
        return transport_outcome("network")
    text = _as_text(body)
    if text is None:
        text = ""
    if len(text) > MAX_BODY:
        return HandleRecord("too-large", False, _MESSAGES["too-large"], st)
    doc, ok = _load_json(text) if text.strip() else (None, False)
    if not ok or not isinstance(doc, dict):
        if st == 404:
            return HandleRecord("not-found", False, _MESSAGES["not-found"], st)
        if st == 500:
            return HandleRecord("server-error", False, _MESSAGES["server-error"] +
                                f" (HTTP {st}, no JSON body)", st)
        outcome: Outcome = "bad-json" if not ok else "unexpected"
        return HandleRecord(outcome, False, _MESSAGES[outcome] + f" (HTTP {st})", st)
    code = _int(doc.get("responseCode"))
    handle = doc.get("handle")
    handle = handle if isinstance(handle, str) else None
    notes: list[str] = []
    raw_values = doc.get("values")
    values: list[HandleValue] = []
    if isinstance(raw_values, list):
        for item in raw_values[:MAX_VALUES]:
            v = _value(item)
            if v is not None:
                values.append(v)
        if len(raw_values) > MAX_VALUES:
            notes.append(f"only the first {MAX_VALUES} of {len(raw_values)} values are shown")
    url = next((v.href for v in values if v.href), None)
    expected = {1: 200, 2: 500, 100: 404, 200: 200}
    if code in expected and expected[code] != st:
        notes.append(f"HTTP status {st} does not match responseCode {code} (003 ch. 4 pairs "
                     f"it with {expected[code]})")
    if code == 1:
        return HandleRecord("ok", True, _MESSAGES["ok"], st, code, handle, tuple(values), url,
                            tuple(notes))
    if code == 100:
        return HandleRecord("not-found", False, _MESSAGES["not-found"], st, code, handle, (),
                            None, tuple(notes))
    if code == 200:
        return HandleRecord("no-values", False, _MESSAGES["no-values"], st, code, handle, (),
                            None, tuple(notes))
    if code == 2:
        msg = doc.get("message")
        extra = f" The server said: {msg[:500]}" if isinstance(msg, str) and msg else ""
        return HandleRecord("server-error", False, _MESSAGES["server-error"] + extra, st, code,
                            handle, (), None, tuple(notes))
    what = f"responseCode {code}" if code is not None else "no responseCode"
    return HandleRecord("unexpected", False, _MESSAGES["unexpected"] + f" ({what}, HTTP {st})",
                        st, code, handle, tuple(values), url, tuple(notes))


def alias_target(record: HandleRecord) -> str | None:
    """The DOI name a shortDOI points to: the first ``HS_ALIAS`` value (specs README)."""
    for v in record.values:
        if v.type == "HS_ALIAS" and v.text:
            return v.text
    return None


@dataclass(frozen=True, slots=True)
class RaAnswer:
    """One entry of a Which RA answer: the name, its registration agency or a status."""

    doi: str
    ra: str | None
    status: str | None
    message: str


@dataclass(frozen=True, slots=True)
class WhichRaResult:
    """The outcome of one Which RA request (specs README: ``https://doi.org/ra/...``)."""

    outcome: Outcome
    ok: bool
    message: str
    status: int | None = None
    answers: tuple[RaAnswer, ...] = ()


def read_which_ra_response(status: int | None, body: str | bytes | None) -> WhichRaResult:
    """Read a Which RA answer: a JSON array of ``{"DOI", "RA"}`` or ``{"DOI", "status"}``.

    Unknown names come back with HTTP 200 and a ``status`` such as ``"DOI does not
    exist"`` or ``"Invalid DOI"`` (specs README). Never raises.
    """
    st = _int(status)
    if not st:
        t = transport_outcome("network")
        return WhichRaResult(t.outcome, False, t.message)
    text = _as_text(body) or ""
    if len(text) > MAX_BODY:
        return WhichRaResult("too-large", False, _MESSAGES["too-large"], st)
    doc, ok = _load_json(text) if text.strip() else (None, False)
    if not ok:
        outcome: Outcome = "server-error" if st >= 500 and not text.strip() else "bad-json"
        return WhichRaResult(outcome, False, _MESSAGES[outcome] + f" (HTTP {st})", st)
    if isinstance(doc, dict):
        doc = [doc]
    if not isinstance(doc, list):
        return WhichRaResult("unexpected", False, _MESSAGES["unexpected"] + f" (HTTP {st})", st)
    answers: list[RaAnswer] = []
    for item in doc[:MAX_VALUES]:
        if not isinstance(item, dict):
            continue
        name = item.get("DOI")
        ra = item.get("RA")
        stat = item.get("status")
        name_s = name if isinstance(name, str) else ""
        ra_s = ra if isinstance(ra, str) and ra else None
        stat_s = stat if isinstance(stat, str) and stat else None
        if ra_s:
            message = f"{name_s} is registered with {ra_s}."
        elif stat_s:
            message = f"{name_s}: {stat_s}."
        else:
            message = f"{name_s}: no registration agency in the answer."
        answers.append(RaAnswer(name_s, ra_s, stat_s, message))
    if st >= 400:
        return WhichRaResult("http-error", False, _MESSAGES["http-error"] + f" (HTTP {st})", st,
                             tuple(answers))
    found = sum(1 for a in answers if a.ra)
    return WhichRaResult(
        "ok", True, f"{found} of {len(answers)} name(s) have a registration agency.", st,
        tuple(answers),
    )
