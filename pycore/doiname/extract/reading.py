"""Reading a scanned span with the core reader: a link or URI as a whole, a bare name
alone (R6, R16), as every match of :func:`~doiname.extract` is read."""

from __future__ import annotations

from ..errors import DoiError
from ..forms import DOI_LINK_STARTS
from ..model import Doi, Finding
from ..syntax import parse, read_noted
from .clean import Text

__all__ = ["BARE_FORMS", "WHOLE", "moved", "plain_link", "read_span"]

#: Kinds read as a whole written form (link or URI) by the reader; the others are bare.
WHOLE = frozenset({"url", "urn", "info-uri", "hdl-uri", "doi-uri"})
#: The form of a match of each kind of name inside another site's link.
BARE_FORMS = {"in-url-path": "in-url", "in-url-preprint": "in-url", "in-url-query": "in-url"}


def plain_link(span: str) -> bool:
    """A doi.org/dx.doi.org link with nothing the reader would note (proxy, %, ?, #)."""
    if "%" in span or "?" in span or "#" in span:
        return False
    return span[:24].lower().startswith(DOI_LINK_STARTS)


def _plain_uri(span: str) -> bool:
    """A ``doi:`` URI (003 ch. 2) with nothing the reader would note or refuse: no escape
    to decode (001), no query or fragment (the URI's error); its head is the URI's."""
    return not ("%" in span or "?" in span or "#" in span)


def read_span(s: str, kind: str, start: int, a: int,
              end: int) -> tuple[Doi, str, tuple[Finding, ...], int]:
    """Read ``s[start:end]`` (links, URIs) or ``s[a:end]`` (bare names); raise DoiError.

    Returns the name, its form, the reader's notes and where the text given to the
    reader starts (the notes' positions count from there).
    """
    if kind in WHOLE:
        span = s[start:end]
        if (kind == "url" and plain_link(span)) or (kind == "doi-uri" and _plain_uri(span)):
            try:
                return parse(span), kind, (), start
            except DoiError:
                pass  # read it again below, with its notes and fallbacks
        try:
            r = read_noted(span)
        except DoiError:
            if kind != "url":
                raise
            # not a link after all (e.g. a site with doi.org in its query): the name alone
            try:
                r = read_noted(s[a:end])
            except DoiError as err:  # its error, placed from ``start`` as the caller reads
                if err.position is None:
                    raise
                stop = err.end if err.end is not None else err.position + 1
                raise err.moved(err.position + a - start, stop + a - start) from None
            return r.doi, "in-url", r.notes, a
        return r.doi, r.form, r.notes, start
    name = s[a:end]
    form = BARE_FORMS.get(kind, kind)
    if "%" in name:
        r = read_noted(name)
        return r.doi, form, r.notes, a
    return parse(name), form, (), a


def moved(t: Text, f: Finding, base: int) -> Finding:
    """A reader note re-positioned from the string given to the reader to the text."""
    a, b = t.span(base + f.start, base + f.end)
    places = tuple(t.span(base + x, base + y) for x, y in f.places)
    return Finding(f.code, f.severity, f.message, a, b, a, b, False, f.source, f.repair, places)
