"""Handle values decoded for display (RFC 3651 §3): ``ttl``, timestamps, and the
``string``, ``base64``, ``hex``, ``admin``, ``vlist``, ``site`` and ``key`` formats.

Everything is untrusted and bounded: text is clipped (:data:`~doiname.limits.MAX_TEXT`
characters of one value, :data:`~doiname.limits.MAX_LABEL` of a label), numbers beyond
what JavaScript holds exactly are dropped, and nothing raises.
"""

from __future__ import annotations

import base64
import binascii
from datetime import datetime

from ..limits import MAX_LABEL, MAX_VALUES
from .links import is_linkable_url
from .locations import read_locations
from .model import AdminInfo, HandleValue, Location, Reference
from .text import clip, label, plural, raw_json, read_int

__all__ = ["ADMIN_PERMISSIONS", "read_value"]

#: RFC 3651 §3.5 (HS_ADMIN) ``AdminPermission`` bits, by bit number: bit 0 is
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


def _ttl(value: object) -> tuple[str, int | None, str | None]:
    """(display, seconds, note) of a ``ttl``: seconds, or an absolute expiry date."""
    seconds = read_int(value)
    if seconds is not None:
        if seconds < 0:
            return f"{seconds} s", seconds, "the time to live is negative"
        if seconds == 0:
            return "0 s (not cached)", 0, None
        parts: list[str] = []
        left = seconds
        for name, size in (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)):
            if left >= size:
                parts.append(plural(left // size, name))
                left %= size
        if parts == [plural(seconds, "second")]:
            return f"{seconds} s", seconds, None
        return f"{seconds} s ({', '.join(parts)})", seconds, None
    if isinstance(value, str) and value:
        return f"until {clip(value, MAX_LABEL)}", None, None
    if value is None:
        return "", None, None
    return raw_json(value)[:MAX_LABEL], None, "the time to live is neither seconds nor a date"


def _timestamp(value: object) -> tuple[str | None, str | None]:
    if value is None:
        return None, None
    if not isinstance(value, str):
        return raw_json(value)[:MAX_LABEL], "the timestamp is not text"
    text = clip(value, MAX_LABEL)
    return text, None if _is_iso(value) else "the timestamp is not an ISO 8601 date"


def _is_iso(value: str) -> bool:
    """An ISO 8601 date or date-time (``datetime.fromisoformat`` reads them all on 3.11+)."""
    if not 10 <= len(value) <= 40:
        return False
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


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
        return clip(text), f"decoded from {how} as UTF-8 text"
    shown = data[:256].hex(" ")
    more = " …" if len(data) > 256 else ""
    return f"{shown}{more}", f"{plural(len(data), 'byte')} of binary data ({how}), shown as hex"


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
        return clip(raw), f"not valid {fmt}; shown as received"
    return _decode_bytes(data, fmt)


def _admin(value: object) -> tuple[str, tuple[tuple[str, str], ...], AdminInfo | None,
                                   str | None]:
    if not isinstance(value, dict):
        return raw_json(value), (), None, "the admin data is not an object"
    h = value.get("handle")
    admin_handle = clip(h, MAX_LABEL) if isinstance(h, str) else None
    admin_index = read_int(value.get("index"))
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
            note = (f"the permissions have {len(perm_text)} bits; the handle system defines "
                    f"{len(ADMIN_PERMISSIONS)}")
        details.append(("permissions", perm_text))
        details.append(("may", ", ".join(granted) if granted else "nothing"))
        if denied:
            details.append(("may not", ", ".join(denied)))
    elif perms is not None:
        perm_text = None
        details.append(("permissions", raw_json(perms)[:MAX_LABEL]))
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
        return raw_json(value), (), (), "the value list is not a list"
    members: list[Reference] = []
    skipped = 0
    for item in value[:MAX_VALUES]:
        if isinstance(item, dict) and isinstance(item.get("handle"), str):
            members.append(Reference(clip(item["handle"], MAX_LABEL), read_int(item.get("index"))))
        else:
            skipped += 1
    shown = [f"{m.index if m.index is not None else '?'}:{m.handle}" for m in members]
    note = None
    if skipped:
        note = f"{plural(skipped, 'entry', 'entries')} without a handle left out"
    if len(value) > MAX_VALUES:
        note = f"only the first {MAX_VALUES} of {len(value)} entries are shown"
    text = ", ".join(shown) if shown else "(empty list)"
    return clip(text), tuple(("member", s) for s in shown), tuple(members), note


def _site(value: object) -> tuple[str, tuple[tuple[str, str], ...], str | None]:
    """An ``HS_SITE`` value (RFC 3651 §3.2), as the handle API writes it."""
    if not isinstance(value, dict):
        return raw_json(value), (), "the site data is not an object"
    details: list[tuple[str, str]] = []
    for key, what in (("version", "version"), ("protocolVersion", "protocol version"),
                      ("serialNumber", "serial number")):
        v = value.get(key)
        if isinstance(v, (str, int)) and not isinstance(v, bool):
            details.append((what, clip(str(v), MAX_LABEL)))
    roles = [name for key, name in (("primarySite", "primary"), ("multiPrimary", "multi-primary"))
             if value.get(key) is True]
    details.append(("role", " and ".join(roles) if roles else "secondary (mirror)"))
    attrs = value.get("attributes")
    if isinstance(attrs, list):
        for a in attrs[:MAX_VALUES]:
            if isinstance(a, dict) and isinstance(a.get("name"), str):
                details.append((clip(a["name"], MAX_LABEL), label(a.get("value"))))
    servers = value.get("servers")
    server_list = servers[:MAX_VALUES] if isinstance(servers, list) else []
    addresses: list[str] = []
    for s in server_list:
        if not isinstance(s, dict):
            continue
        address = label(s.get("address")) or "?"
        addresses.append(address)
        ports: list[str] = []
        interfaces = s.get("interfaces")
        for i in interfaces[:MAX_VALUES] if isinstance(interfaces, list) else []:
            if isinstance(i, dict):
                uses = [u for u in ("query", "admin") if i.get(u) is True]
                port = read_int(i.get("port"))
                ports.append(f"{label(i.get('protocol')) or '?'} "
                             f"{port if port is not None else '?'}"
                             + (f" ({', '.join(uses)})" if uses else ""))
        sid = read_int(s.get("serverId"))
        details.append((f"server {sid if sid is not None else '?'}",
                        address + (": " + "; ".join(ports) if ports else "")))
    desc = next((v for k, v in details if k == "desc"), "")
    role = " and ".join(roles) if roles else "secondary"
    text = (f"{role} site with {plural(len(addresses), 'server')}"
            + (f" ({', '.join(addresses)})" if addresses else "")
            + (f": {desc}" if desc else ""))
    return clip(text), tuple(details), None


def _key(value: object) -> tuple[str, tuple[tuple[str, str], ...], str | None]:
    """A ``key`` value: a public key, which the handle API writes as a JSON Web Key."""
    if isinstance(value, dict):
        kty = label(value.get("kty")) or "?"
        fields = sorted(k for k in value if isinstance(k, str) and k != "kty")
        details = [("key type", kty)]
        if fields:
            details.append(("fields", clip(", ".join(fields), MAX_LABEL)))
        return f"public key ({kty}, JSON Web Key)", tuple(details), None
    if isinstance(value, str):
        return clip(value), (), "key data shown as received"
    return raw_json(value), (), "key data shown as received"


def _is_url_type(vtype: str) -> bool:
    up = vtype.upper()
    return up == "URL" or up.startswith("URL.")


def read_value(item: object) -> HandleValue | None:
    if not isinstance(item, dict):
        return None
    index = read_int(item.get("index"))
    vtype = label(item.get("type"))
    data = item.get("data")
    fmt = ""
    raw_value: object = data
    notes: list[str] = []
    if isinstance(data, dict):
        fmt = label(data.get("format"))
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
        text = clip(raw_value)
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
        text = clip(raw_value) if isinstance(raw_value, str) else raw_json(raw_value)
        note = (f"data in format “{fmt}” shown as received" if fmt
                else "data without a format, shown as received")
    if vtype == "10320/loc" and text and fmt in ("string", "base64", "hex", ""):
        locations, loc_details, problem = read_locations(text)
        details += loc_details
        note = problem or note
    href = text if _is_url_type(vtype) and is_linkable_url(text) else None
    if _is_url_type(vtype) and text and href is None:
        notes.append("not made a link: only a plain http(s) address with a host becomes one")
    notes.extend(n for n in (note, ttl_note, ts_note) if n)
    return HandleValue(index, vtype, fmt, text, raw_json(raw_value), href, details, locations,
                       ttl_text, ttl_seconds, timestamp, "; ".join(notes) or None, admin,
                       members)
