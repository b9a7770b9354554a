"""Reading a DOI name from anything a person pastes: :func:`parse` and :func:`read`.

Forms recognised (surrounding whitespace ignored):

* a bare name ``10.1000/182`` (002 section 4), percent-escapes decoded once following the
  web-form rule of 001 ("% will always be interpreted as the start of a hex encoded
  character");
* a ``doi:`` URI in any case, optionally followed by spaces (003 ch. 2); a query or a
  fragment is an error (003 ch. 2: "shall contain neither a query component nor a
  fragment component");
* ``urn:doi:PREFIX:SUFFIX`` (000 note on URNs), ``info:doi/...`` (RFC 4452) and
  ``hdl:...`` (handle URI);
* URLs, with ``http``, ``https`` or no scheme, on ``doi.org``, ``dx.doi.org``,
  ``www.doi.org``, ``hdl.handle.net``, with ``/urn:doi:`` paths (000) and
  ``/api/handles/`` paths (003 ch. 4); a URL's query and fragment are not part of the
  name (a browser never sends a raw ``#``: that is why 000 makes ``#`` mandatory to
  encode) and are reported as notes;
* EZproxy forms: host ``doi-org.<proxy>`` / ``dx-doi-org.<proxy>`` (the specs README), and
  ``.../login?url=<url>`` (raw) or ``?qurl=<url>`` (percent-encoded) wrapping a doi.org URL.

Validation of the name (after decoding): the prefix is ``10.`` followed by dot-separated
digit groups (002 section 4 and appendix A: "<DIR> = 10", "The prefix is numeric"); the
suffix is not empty; every code point is of the Unicode Graphic type (003 ch. 2, 002
section 4.1). ``10/abcde`` is a shortDOI (an alias, not a DOI name) and gets its own code.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from .errors import DoiError
from .model import Doi, Finding

__all__ = ["Reading", "char_label", "parse", "read", "validate_name"]

Span = tuple[int, int]

# Fast path: a bare, printable-ASCII name without escapes or surrounding space.
_FAST = re.compile(r"(10(?:\.[0-9]+)+)/([!-$&-~](?:[ -$&-~]*[!-$&-~])?)")
_PREFIX = re.compile(r"10(?:\.[0-9]+)+")
_HEX = frozenset("0123456789abcdefABCDEF")
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")

_FLAGS = re.IGNORECASE | re.ASCII
_HOST = (
    r"(?:(?P<direct>(?:www\.|dx\.)?doi\.org|hdl\.handle\.net)"
    r"|(?P<proxyhost>(?:dx-|www-)?doi-org\.[a-z0-9.-]+|hdl-handle-net\.[a-z0-9.-]+))"
)
_URL = r"(?:(?P<scheme>https?):)?(?://)?" + _HOST + r"(?::[0-9]+)?(?P<url>(?=/|$))"
_FRONT = re.compile(
    r"(?P<doi>doi:[ \t]*)|(?P<urn>urn:doi:)|(?P<info>info:doi/)|(?P<hdl>hdl:)"
    r"|(?P<label>doi[ \t]+(?=10\.))|" + _URL,
    _FLAGS,
)
_GENERIC_URL = re.compile(r"(?P<scheme>https?)://(?P<host>[^/?#\s]+)", _FLAGS)
_LOGIN = re.compile(r"/login/?\?(?:[^#]*?&)?(?P<key>q?url)=", _FLAGS)
_PATH = re.compile(r"(?P<urn>urn:doi:)|(?P<api>api/handles/)|(?P<doi>doi:)", _FLAGS)

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff\u180e")
_NOT_GRAPHIC = {
    "Cc": "a control character",
    "Cf": "an invisible format character",
    "Cs": "a surrogate (half of a UTF-16 pair, not a character)",
    "Co": "a private-use character",
    "Cn": "an unassigned code point",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}


_FORM_LABELS = {
    "doi-uri": "doi: URI", "urn": "urn:doi: URN", "info-uri": "info:doi/ URI",
    "hdl-uri": "hdl: URI", "url": "link", "urn-url": "URN link", "api-url": "handle API link",
    "proxy-url": "library proxy link", "name": "input",
}


def char_label(ch: str) -> str:
    """``U+XXXX NAME`` for one character, with a fallback when it has no name."""
    name = unicodedata.name(ch, "")
    if not name:
        if ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0:
            names = {"\t": "TAB", "\n": "LINE FEED", "\r": "CARRIAGE RETURN", "\x7f": "DELETE"}
            name = names.get(ch, "control")
        else:
            name = {"Cs": "surrogate", "Co": "private use", "Cn": "unassigned"}.get(
                unicodedata.category(ch), "no name")
    return f"U+{ord(ch):04X} {name}"


@dataclass(slots=True)
class Reading:
    """What :func:`read` found: the name, where each of its characters came from, notes.

    ``spans[i]`` is the ``(start, end)`` of the input text that produced character ``i``
    of ``str(doi)`` (an escape ``%E2%80%90`` produces one character from nine). ``form``
    names the input form: ``name``, ``doi-uri``, ``urn``, ``info-uri``, ``hdl-uri``,
    ``url``, ``urn-url``, ``api-url``, ``proxy-url``, ``proxy-login``.
    """

    doi: Doi
    text: str
    form: str
    spans: tuple[Span, ...]
    notes: tuple[Finding, ...] = field(default=())

    def input_span(self, start: int, end: int) -> Span:
        """Map a span of the DOI name to the span of the input text it came from."""
        if not self.spans:
            return (0, len(self.text))
        if end <= start:
            at = self.spans[min(start, len(self.spans) - 1)][0]
            return (at, at)
        return (self.spans[start][0], self.spans[end - 1][1])


@dataclass(slots=True)
class _Parts:
    """Encoded name pieces found in the text, before decoding."""

    form: str
    start: int  # where the encoded name starts in the text
    end: int
    separator: str = "/"  # "/" or ":" (URN) between prefix and suffix
    uri: bool = False  # a URI form: raw "?" / "#" are errors
    notes: list[Finding] = field(default_factory=list)


def parse(text: str | Doi) -> Doi:
    """Read a DOI name from any form a person pastes (002 section 4, 001, 003 ch. 2, 000).

    A :class:`~doiname.model.Doi` is returned unchanged. Raises
    :class:`~doiname.errors.DoiError` for empty input, a missing ``/``, an empty suffix,
    a prefix that is not ``10.`` + dot-separated digits, a shortDOI (code
    ``short-doi``), a ``%`` not followed by two hex digits, escapes that are not UTF-8,
    code points that are not Unicode Graphic, and ``doi:`` URIs with a query or fragment.
    """
    if isinstance(text, Doi):
        return text
    if not isinstance(text, str):
        raise TypeError(f"parse() takes a str or a Doi, not {type(text).__name__}")
    m = _FAST.fullmatch(text)
    if m is not None:
        return Doi(m[1], m[2])
    return _read(text, want_spans=False).doi


def read(text: str | Doi) -> Reading:
    """Like :func:`parse`, but also say where each character came from and what was noticed.

    Used by ``check`` and the user interface to point at characters of the input
    (001's web-form rule, 003 ch. 2, 000).
    """
    if isinstance(text, Doi):
        name = str(text)
        return Reading(text, name, "doi", tuple((i, i + 1) for i in range(len(name))))
    if not isinstance(text, str):
        raise TypeError(f"read() takes a str or a Doi, not {type(text).__name__}")
    return _read(text, want_spans=True)


def _read(text: str, *, want_spans: bool) -> Reading:
    stripped = text.strip()
    if not stripped:
        raise DoiError("empty", "Nothing to read: the input is empty.")
    lead = len(text) - len(text.lstrip())
    notes: list[Finding] = []
    if want_spans and len(stripped) != len(text):
        notes.append(Finding(
            "whitespace-trimmed", "info",
            "Spaces or line breaks around the name were ignored.",
            0, len(text), 0, len(text), in_name=False, source="doiname",
        ))
    end = lead + len(stripped)
    if "0" <= stripped[0] <= "9":  # a bare name: no form to recognise
        return _decode_parts(text, _Parts("name", lead, end), notes, want_spans=want_spans)
    parts = _locate(text, lead, end, want_spans)
    if parts.form == "name":
        login = _login_wrapper(text, lead, end)
        if login is not None:
            return _read_login(text, login, notes, want_spans=want_spans)
    notes.extend(parts.notes)
    return _decode_parts(text, parts, notes, want_spans=want_spans)


def _login_wrapper(text: str, lead: int, end: int) -> tuple[int, int, bool] | None:
    """EZproxy ``/login?url=`` or ``?qurl=``: (value start, value end, encoded?)."""
    m = _GENERIC_URL.match(text, lead, end)
    if m is None:
        return None
    lm = _LOGIN.match(text, m.end(), end)
    if lm is None:
        return None
    start = lm.end()
    if lm["key"].lower() == "qurl":
        stop = start
        while stop < end and text[stop] not in "&#":
            stop += 1
        return (start, stop, True)
    return (start, end, False)


def _read_login(
    text: str, login: tuple[int, int, bool], notes: list[Finding], *, want_spans: bool
) -> Reading:
    start, stop, encoded = login
    notes.append(Finding(
        "proxy-link", "info",
        "This is a library proxy (EZproxy) login link; the DOI link inside it was read.",
        start, stop, start, stop, in_name=False, source="specs README (EZproxy)",
    ))
    if encoded:
        inner, inner_spans = _decode(text, start, stop)
    else:
        inner = text[start:stop]
        inner_spans = [(start + i, start + i + 1) for i in range(len(inner))]
    try:
        sub = _read(inner, want_spans=True)
    except DoiError as err:
        if err.position is None:
            raise
        raise _map_error(err, inner_spans) from None
    spans = tuple(_compose(s, inner_spans) for s in sub.spans)
    for n in sub.notes:
        if n.code == "whitespace-trimmed":
            continue
        a, b = _compose((n.start, n.end), inner_spans)
        notes.append(Finding(n.code, n.severity, n.message, a, b, a, b, False, n.source))
    return Reading(sub.doi, text, "proxy-login", spans if want_spans else (), tuple(notes))


def _compose(span: Span, outer: list[Span]) -> Span:
    """Map a span of an inner (decoded) text to the outer text it was decoded from."""
    a, b = span
    if not outer:
        return span
    n = len(outer)
    if a >= n:  # at or past the end of the inner text: point at the end of its source
        at = outer[-1][1]
        return (at, at)
    if b <= a:
        at = outer[a][0]
        return (at, at)
    return (outer[a][0], outer[min(b, n) - 1][1])


def _map_error(err: DoiError, outer: list[Span]) -> DoiError:
    assert err.position is not None
    end = err.end if err.end is not None else err.position + 1
    a, b = _compose((err.position, end), outer)
    return DoiError(err.code, _shift_message(err.message, err.position, a), a, b)


def _shift_message(message: str, old: int, new: int) -> str:
    return message.replace(f"character {old + 1}", f"character {new + 1}")


def _locate(text: str, lead: int, end: int, diagnose: bool) -> _Parts:
    """Find which form the text is in and where its encoded name lies (one regex match)."""
    m = _FRONT.match(text, lead, end)
    if m is None:
        return _Parts("name", lead, end)
    kind = m.lastgroup
    if kind == "doi":
        return _Parts("doi-uri", m.end(), end, uri=True)
    if kind == "urn":
        return _Parts("urn", m.end(), end, separator=":", uri=True)
    if kind == "info":
        return _Parts("info-uri", m.end(), end, uri=True)
    if kind == "hdl":
        return _Parts("hdl-uri", m.end(), end, uri=True)
    if kind == "label":
        parts = _Parts("name", m.end(), end)
        if diagnose:
            parts.notes.append(Finding(
                "label-ignored", "info", "The label “DOI” before the name was ignored.",
                lead, m.end(), lead, m.end(), in_name=False, source="doiname",
            ))
        return parts
    if m["scheme"] or m.end() < end:
        return _locate_url_path(text, m, end, diagnose)
    return _Parts("name", lead, end)


def _locate_url_path(text: str, m: re.Match[str], end: int, diagnose: bool) -> _Parts:
    proxy = m["proxyhost"] is not None
    path = m.end() + 1 if m.end() < end else m.end()
    # The path ends at the query or fragment: a browser never sends them as part of the path.
    q = text.find("?", path, end)
    h = text.find("#", path, end)
    stop = end if q == h == -1 else min(q, h) if q != -1 and h != -1 else max(q, h)
    notes: list[Finding] = []
    if proxy and diagnose:
        notes.append(Finding(
            "proxy-link", "info",
            f"“{m['proxyhost']}” is doi.org seen through a library proxy (EZproxy).",
            m.start(), m.end(), m.start(), m.end(), in_name=False,
            source="specs README (EZproxy)",
        ))
    if stop < end and diagnose:
        notes.append(_dropped_note(text, stop, end))
    form = "proxy-url" if proxy else "url"
    pm = _PATH.match(text, path, stop)
    if pm is not None and pm.lastgroup == "urn":
        return _Parts("urn-url" if not proxy else form, pm.end(), stop, separator=":",
                      notes=notes)
    if pm is not None and pm.lastgroup == "api":
        return _Parts("api-url" if not proxy else form, pm.end(), stop, notes=notes)
    return _Parts(form, pm.end() if pm is not None else path, stop, notes=notes)


def _dropped_note(text: str, stop: int, end: int) -> Finding:
    hash_at = text.find("#", stop, end)
    tail = text[stop:end]
    if hash_at != -1:
        message = (
            f"The link's “{tail}” was not read as part of the name: a browser stops at "
            "“?” and “#”. If they belong to the DOI name, the link was built without "
            "encoding them (000: “#” must be written %23 and “?” %3F)."
        )
        code = "url-fragment-dropped"
    else:
        message = (
            f"The link's query “{tail}” was not read as part of the name. If it belongs "
            "to the DOI name, “?” must be written %3F in a link (000 mandatory)."
        )
        code = "url-query-dropped"
    return Finding(code, "warning", message, stop, end, stop, end, in_name=False,
                   source="000 mandatory")


def _decode_parts(
    text: str, parts: _Parts, notes: list[Finding], *, want_spans: bool
) -> Reading:
    start, end = parts.start, parts.end
    if parts.uri:
        hits = [i for i in (text.find("?", start, end), text.find("#", start, end)) if i != -1]
        if hits:
            i = min(hits)
            ch = text[i]
            what = "query" if ch == "?" else "fragment"
            enc = "%3F" if ch == "?" else "%23"
            raise DoiError(
                f"uri-{what}",
                f"A doi: URI has no {what} (003 ch. 2): “{ch}” at character {i + 1} "
                f"starts one. If “{ch}” belongs to the DOI name, write it as {enc}.",
                i,
            )
    if start >= end:
        what = _FORM_LABELS.get(parts.form, "input")
        raise DoiError(
            "empty",
            f"The {what} has no DOI name: it ends before character {start + 1}.",
            start,
        )
    if not want_spans and parts.separator == "/":
        fast = _FAST.fullmatch(text, start, end)
        if fast is not None:
            return Reading(Doi(fast[1], fast[2]), text, parts.form, (), ())
    sep = parts.separator
    if sep == ":":
        colon = text.find(":", start, end)
        slash = text.find("/", start, end)
        if colon == -1 or (slash != -1 and slash < colon):
            sep = "/"
    if sep == ":":
        colon = text.find(":", start, end)
        pre, pre_spans = _decode(text, start, colon, want_spans)
        suf, suf_spans = _decode(text, colon + 1, end, want_spans)
        name = pre + "/" + suf
        spans = [*pre_spans, (colon, colon + 1), *suf_spans] if want_spans else []
    else:
        name, spans = _decode(text, start, end, want_spans)
    if want_spans and text.find("%", start, end) != -1:
        notes.append(Finding(
            "percent-decoded", "info",
            "Percent-escapes were decoded once (001: “%” always starts an escape; a "
            "literal “%” is written %25).",
            start, end, start, end, in_name=False, source="001",
        ))
    try:
        doi = validate_name(name)
    except DoiError as err:
        if err.position is None:
            raise
        if not want_spans:  # decode again, this time keeping where each character came from
            return _decode_parts(text, parts, notes, want_spans=True)
        raise _map_error(err, spans) from None
    return Reading(doi, text, parts.form, tuple(spans), tuple(notes))


def _decode(text: str, start: int, end: int, want_spans: bool = True) -> tuple[str, list[Span]]:
    """Decode %-escapes in ``text[start:end]`` exactly once, as UTF-8 (001, 003 ch. 3)."""
    pct = text.find("%", start, end)
    if pct == -1:
        seg = text[start:end]
        return seg, [(i, i + 1) for i in range(start, end)] if want_spans else []
    if not want_spans:
        seg = text[start:end]
        if _BAD_ESCAPE.search(seg) is None:
            try:
                return _unescape(seg), []
            except UnicodeDecodeError:
                pass  # the slow path below says where
    out: list[str] = []
    spans: list[Span] = []
    i = start
    while i < end:
        ch = text[i]
        if ch != "%":
            out.append(ch)
            spans.append((i, i + 1))
            i += 1
            continue
        run_start = i
        data = bytearray()
        while i < end and text[i] == "%":
            h = text[i + 1:i + 3]
            if i + 2 >= end or len(h) < 2 or h[0] not in _HEX or h[1] not in _HEX:
                raise DoiError(
                    "bad-percent",
                    f"“%” at character {i + 1} is not followed by two hexadecimal digits. "
                    "“%” always starts an escape (001); a literal “%” is written %25.",
                    i, min(i + 3, end),
                )
            data.append(int(h, 16))
            i += 3
        _append_utf8(bytes(data), run_start, out, spans)
    return "".join(out), spans


def _unescape(seg: str) -> str:
    """Decode valid %-escapes of ``seg`` as UTF-8 (strict). Fast path of :func:`_decode`."""
    pieces = seg.split("%")
    out = [pieces[0]]
    data = bytearray()
    for piece in pieces[1:]:
        data.append(int(piece[:2], 16))
        if len(piece) > 2:
            out.append(data.decode("utf-8"))
            data.clear()
            out.append(piece[2:])
    if data:
        out.append(data.decode("utf-8"))
    return "".join(out)


def _append_utf8(data: bytes, run_start: int, out: list[str], spans: list[Span]) -> None:
    """Decode one run of escaped bytes, keeping for each character the span of its escapes."""
    pos = 0
    while pos < len(data):
        first = data[pos]
        size = 1 if first < 0x80 else 2 if first >> 5 == 6 else 3 if first >> 4 == 14 else \
            4 if first >> 3 == 30 else 0
        chunk = data[pos:pos + size] if size else b""
        try:
            if not size or len(chunk) < size:
                raise UnicodeDecodeError("utf-8", chunk, 0, 1, "truncated")
            ch = chunk.decode("utf-8")
        except UnicodeDecodeError:
            at = run_start + 3 * pos
            raise DoiError(
                "bad-utf8",
                f"The escapes starting at character {at + 1} are not valid UTF-8 "
                f"(byte %{first:02X}); DOI names are written in UTF-8 (002 appendix A, 003 ch. 2).",
                at, run_start + 3 * min(pos + max(size, 1), len(data)),
            ) from None
        out.append(ch)
        spans.append((run_start + 3 * pos, run_start + 3 * (pos + size)))
        pos += size


def validate_name(name: str) -> Doi:
    """Check a decoded name: Graphic code points, ``10.`` prefix, a suffix (002 §4, 003 ch. 2).

    The name is taken as it is (no form is recognised, nothing is decoded); raises
    :class:`DoiError` with the position of the first problem.
    """
    # str.isprintable is False exactly for Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs other than
    # U+0020: when it is True every code point is Graphic; otherwise look closer.
    if not name.isprintable():
        _check_graphic(name)
    slash = name.find("/")
    if slash == -1:
        raise DoiError(
            "no-slash",
            "There is no “/”: a DOI name is a prefix such as 10.1000, a “/”, then a suffix "
            "(002 section 4).",
        )
    prefix, suffix = name[:slash], name[slash + 1:]
    if _PREFIX.fullmatch(prefix) is None:
        if prefix == "10" and suffix:
            raise DoiError(
                "short-doi",
                f"“{name}” is a shortDOI: an alias that points to a DOI name, not a DOI "
                "name itself. It can be expanded to the full DOI name.",
                0, len(name),
            )
        raise _bad_prefix(prefix)
    if not suffix:
        raise DoiError(
            "empty-suffix",
            f"The suffix after the “/” at character {slash + 1} is empty: a DOI name needs "
            "one (002 section 4.3).",
            slash,
        )
    return Doi(prefix, suffix)


def _check_graphic(name: str) -> None:
    for i, ch in enumerate(name):
        cat = unicodedata.category(ch)
        if cat[0] in "CZ" and cat not in ("Zs",):
            what = _NOT_GRAPHIC.get(cat, "not a graphic character")
            if ch in _BIDI:
                what = "a bidirectional control (it can reorder how the name is displayed)"
            elif ch in _ZERO_WIDTH:
                what = "an invisible zero-width character (often pasted by accident)"
            raise DoiError(
                "not-graphic",
                f"{char_label(ch)} at character {i + 1} is {what}. DOI names are made of "
                "Unicode graphic characters only (003 ch. 2, 002 section 4.1).",
                i,
            )


def _bad_prefix(prefix: str) -> DoiError:
    expected = "a prefix is “10.” followed by digits, such as 10.1000 or 10.21 (002 appendix A)"
    if not prefix:
        return DoiError("bad-prefix", f"The name starts with “/” at character 1: {expected}.", 0)
    if not prefix.startswith("10."):
        i = 0
        while i < min(len(prefix), 3) and prefix[i] == "10."[i]:
            i += 1
        i = min(i, len(prefix) - 1)
        return DoiError(
            "bad-prefix",
            f"The prefix “{prefix}” does not start with “10.” (character {i + 1} is "
            f"{char_label(prefix[i])}): {expected}.",
            i,
        )
    i = 3
    group_start = 3
    while i < len(prefix):
        ch = prefix[i]
        if ch == "." and i > group_start:
            group_start = i + 1
        elif not ("0" <= ch <= "9"):
            what = "an empty group of digits" if ch == "." else char_label(ch)
            return DoiError(
                "bad-prefix",
                f"The prefix “{prefix}” has {what} at character {i + 1}: {expected}.",
                i,
            )
        i += 1
    last = max(len(prefix) - 1, 0)
    return DoiError(
        "bad-prefix",
        f"The prefix “{prefix}” ends without digits after its last “.” (character "
        f"{last + 1}): {expected}.",
        last,
    )
