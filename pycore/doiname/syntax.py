"""Reading a DOI name from anything a person pastes: :func:`parse` and :func:`read`.

The forms a text can be in (a bare name, a ``doi:`` URI, a label such as ``DOI:``
followed by a name, ``urn:doi:``, ``info:doi/``, ``hdl:``, links on doi.org and other
resolvers, library proxy links) are found by :mod:`doiname.forms`; the name's
percent-escapes are decoded once by :mod:`doiname.percent` (001: "% will always be
interpreted as the start of a hex encoded character"). A ``doi:`` URI with a query or a
fragment is an error (003 ch. 2: "shall contain neither a query component nor a fragment
component").

The name, once decoded, is validated by :mod:`doiname.validation` (002 §4, 003 ch. 2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .errors import DoiError
from .forms import FORM_LABELS, Parts, locate, login_wrapper
from .model import Doi, Finding
from .percent import Span, decode
from .plain_forms import FAST, matched_doi, parse_common
from .validation import char_label, is_short_doi_code, places, validate_name

#: A link with a scheme and a host (RFC 3986 §3.1-3.2) that :func:`~.forms.locate` does not
#: read as a resolver's: the host, for the reader's error.
_OTHER_LINK = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://([^/?#\s]+)")

__all__ = ["Reading", "char_label", "compose", "is_short_doi_code", "parse", "places",
           "read", "validate_name"]


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


def parse(text: str | Doi) -> Doi:
    """Read a DOI name from any form a person pastes (002 §4, 001, 003 ch. 2, 000).

    A :class:`~doiname.model.Doi` is returned unchanged. Raises
    :class:`~doiname.errors.DoiError` for empty input, a missing ``/``, an empty suffix,
    a prefix that is not ``10.`` + dot-separated digits, a shortDOI (code
    ``short-doi``), a ``%`` not followed by two hex digits, escapes that are not UTF-8,
    code points that are not Unicode Graphic, and ``doi:`` URIs with a query or fragment.
    """
    if type(text) is not str:
        if isinstance(text, Doi):
            return text
        if not isinstance(text, str):
            raise TypeError(f"parse() takes a str or a Doi, not {type(text).__name__}")
    doi = parse_common(text)
    if doi is not None:
        return doi
    return _read(text, want_spans=False).doi


def read(text: str | Doi) -> Reading:
    """Like :func:`parse`, but also say where each character came from and what was noticed.

    Used by ``check`` and the user interface to point at characters of the input
    (001's web-form rule, 003 ch. 2, 000).
    """
    if isinstance(text, Doi):
        name = str(text)
        n = len(name)
        return Reading(text, name, "doi", tuple(zip(range(n), range(1, n + 1), strict=True)))
    if not isinstance(text, str):
        raise TypeError(f"read() takes a str or a Doi, not {type(text).__name__}")
    return _read(text, want_spans=True)


class _NameReading(Reading):
    """The reading of a :class:`~doiname.model.Doi` taken as it is: character ``i`` of the
    name came from character ``i`` of its text. ``input_span`` says so without the spans
    (``spans`` stays empty: the identity is not written out, one pair per character)."""

    __slots__ = ()

    def input_span(self, start: int, end: int) -> Span:
        """The same span (the name is its own text)."""
        if end <= start:
            at = max(0, min(start, len(self.text) - 1))
            return (at, at)
        return (start, end)


def name_reading(doi: Doi) -> Reading:
    """``read(doi)`` for :func:`doiname.check`, which only asks its ``input_span``,
    ``text``, ``form`` and ``notes`` (002 §4: the name as it is, nothing decoded): the
    same answers, without the one-pair-per-character ``spans``."""
    return _NameReading(doi, str(doi), "doi", ())


def read_noted(text: str) -> Reading:
    """:func:`read` without the spans (``spans`` is empty): the name, its form and every
    note, for a caller that points only at the notes (extract's matches). The same
    errors as :func:`read`."""
    return _read(text, want_spans=False, diagnose=True)


def _read(text: str, *, want_spans: bool, diagnose: bool | None = None) -> Reading:
    if diagnose is None:
        diagnose = want_spans
    stripped = text.strip()
    if not stripped:
        raise DoiError("empty", "Nothing to read: the input is empty.")
    lead = len(text) - len(text.lstrip())
    notes: list[Finding] = []
    if diagnose and len(stripped) != len(text):
        notes.append(Finding(
            "whitespace-trimmed", "info",
            "Spaces or line breaks around the name were ignored.",
            0, len(text), 0, len(text), in_name=False, source="doiname",
        ))
    end = lead + len(stripped)
    if "0" <= stripped[0] <= "9":  # a bare name: no form to recognise
        return _decode_parts(text, Parts("name", lead, end), notes, want_spans=want_spans,
                             diagnose=diagnose)
    parts = locate(text, lead, end, diagnose)
    if parts.form == "name":
        login = login_wrapper(text, lead, end)
        if login is not None:  # (its notes are placed through the spans of the inner link)
            return _read_login(text, login, notes, want_spans=want_spans or diagnose)
        link = _OTHER_LINK.match(text, lead, end)
        if link is not None:  # (a name starts with "10.": this text is none, say why)
            raise DoiError.at(
                "not-a-doi-link", "“{host}” (character {at}) is not a DOI resolver, so "
                "this link is not a DOI name: a DOI name starts with “10.” (10.1000/182), "
                "and its link is https://doi.org/ followed by the name.", link.start(1),
                link.end(1), host=link.group(1))
    notes.extend(parts.notes)
    return _decode_parts(text, parts, notes, want_spans=want_spans, diagnose=diagnose)


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
        inner, inner_spans = decode(text, start, stop)
    else:
        inner = text[start:stop]
        inner_spans = [(start + i, start + i + 1) for i in range(len(inner))]
    try:
        sub = _read(inner, want_spans=True)
    except DoiError as err:
        if err.position is None:
            raise
        raise _map_error(err, inner_spans) from None
    spans = tuple(compose(s, inner_spans) for s in sub.spans)
    for n in sub.notes:
        if n.code == "whitespace-trimmed":
            continue
        a, b = compose((n.start, n.end), inner_spans)
        notes.append(Finding(n.code, n.severity, n.message, a, b, a, b, False, n.source))
    return Reading(sub.doi, text, "proxy-login", spans if want_spans else (), tuple(notes))


def compose(span: Span, outer: list[Span]) -> Span:
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
    return err.moved(*compose((err.position, end), outer))


def _decode_parts(
    text: str, parts: Parts, notes: list[Finding], *, want_spans: bool, diagnose: bool
) -> Reading:
    start, end = parts.start, parts.end
    if parts.uri:
        hits = [i for i in (text.find("?", start, end), text.find("#", start, end)) if i != -1]
        if hits:
            i = min(hits)
            ch = text[i]
            what = "query" if ch == "?" else "fragment"
            enc = "%3F" if ch == "?" else "%23"
            raise DoiError.at(
                f"uri-{what}",
                "A doi: URI has no {what}: “{ch}” at character {at} starts one. "
                "If “{ch}” belongs to the DOI name, write it as {enc}.",
                i, what=what, ch=ch, enc=enc,
            )
    if start >= end:
        raise DoiError.at(
            "empty", "The {what} has no DOI name: it ends before character {at}.",
            start, what=FORM_LABELS.get(parts.form, "input"),
        )
    if not want_spans and parts.separator == "/":
        fast = FAST.fullmatch(text, start, end)
        if fast is not None:
            return Reading(matched_doi(fast), text, parts.form, (),
                           tuple(notes) if diagnose else ())
    sep = parts.separator
    if sep == ":":
        colon = text.find(":", start, end)
        slash = text.find("/", start, end)
        if colon == -1 or (slash != -1 and slash < colon):
            sep = "/"
    if sep == ":":
        colon = text.find(":", start, end)
        pre, pre_spans = decode(text, start, colon, want_spans)
        suf, suf_spans = decode(text, colon + 1, end, want_spans)
        name = pre + "/" + suf
        spans = [*pre_spans, (colon, colon + 1), *suf_spans] if want_spans else []
    else:
        name, spans = decode(text, start, end, want_spans)
    try:
        doi = validate_name(name)
    except DoiError as err:
        if err.position is None:
            raise
        if not want_spans:  # decode again, this time keeping where each character came from
            return _decode_parts(text, parts, notes, want_spans=True, diagnose=diagnose)
        raise _map_error(err, spans) from None
    if diagnose and text.find("%", start, end) != -1:
        notes.append(Finding(
            "percent-decoded", "info",
            "Percent-escapes were decoded once: “%” always starts an escape, and a literal "
            "“%” is written %25.",
            start, end, start, end, in_name=False, source="001",
        ))
    return Reading(doi, text, parts.form, tuple(spans), tuple(notes))
