"""Which form a pasted text is in, and where its encoded name lies: the reader's front end.

Forms (surrounding whitespace ignored; :mod:`doiname.syntax` decodes and validates):

* a bare name ``10.1000/182`` (002 §4);
* a ``doi:`` URI, ``doi:10.1000/182``: the 003 ch. 2 rules hold (no query, no fragment);
* a label followed by a space, ``doi: 10.1000/182``, ``DOI: ...``, ``DOI 10.1000/182``:
  the label is ignored and a bare name follows (as in references), so a ``#`` after it
  belongs to the name;
* ``urn:doi:PREFIX:SUFFIX`` (000 note on URNs), ``info:doi/...`` (RFC 4452), ``hdl:...``;
* links, with ``http``, ``https`` or no scheme, on ``doi.org``, ``dx.doi.org``,
  ``www.doi.org``, ``hdl.handle.net``, with ``/urn:doi:`` paths (000) and
  ``/api/handles/`` paths (003 ch. 4); their query and fragment are not part of the name
  (a browser never sends a raw ``#``: that is why 000 makes ``#`` mandatory to encode)
  and are reported as notes;
* links on other resolvers whose path is the name (``doi.acm.org``,
  ``doi.ieeecomputersociety.org``, ``dx.plos.org``, ``doi.wiley.com``; note
  ``other-resolver``), on DataCite's test resolver (note ``test-resolver``: such names do
  not exist at doi.org), and on hosts that only look like doi.org (``doi.org.example.edu``:
  a library proxy or an imitation; note ``lookalike-host``);
* EZproxy forms: host ``doi-org.<proxy>`` / ``dx-doi-org.<proxy>`` (the specs README), and
  ``.../login?url=<url>`` (raw) or ``?qurl=<url>`` (percent-encoded) wrapping a link.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .model import Finding, Severity

__all__ = ["DOI_LINK_HEADS", "DOI_LINK_STARTS", "FORM_LABELS", "FORM_NAMES", "Parts", "locate",
           "login_wrapper", "may_hold_one_name"]

#: The heads of a plain doi.org link, the name right after them: https or http, doi.org
#: or dx.doi.org, in lower case (000; 003 ch. 2). The one list the readers of plain
#: links (the scanner's one-line pattern, its plain names, the batch's lines) share.
DOI_LINK_HEADS = ("https://doi.org/", "http://doi.org/", "https://dx.doi.org/",
                  "http://dx.doi.org/")
#: The same heads with their scheme or without it (``doi.org/``, ``dx.doi.org/``), as
#: people paste a link.
DOI_LINK_STARTS = tuple(dict.fromkeys((*DOI_LINK_HEADS,
                                       *(head.partition("://")[2] for head in DOI_LINK_HEADS))))

_FLAGS = re.IGNORECASE | re.ASCII
_LABELS = r"[a-z0-9-]+(?:\.[a-z0-9-]+)*"
_HOST = (
    r"(?:(?P<direct>(?:www\.|dx\.)?doi\.org\.?|hdl\.handle\.net)"
    r"|(?P<other>doi\.acm\.org|doi\.ieeecomputersociety\.org|dx\.plos\.org|doi\.wiley\.com)"
    r"|(?P<test>(?:handle|doi)\.test\.datacite\.org)"
    r"|(?P<proxyhost>(?:dx-|www-)?doi-org\." + _LABELS + r"|hdl-handle-net\." + _LABELS + ")"
    r"|(?P<lookalike>(?:www\.|dx\.)?doi\.org\." + _LABELS + "))"
)
_URL = r"(?:(?P<scheme>https?):)?(?://)?" + _HOST + r"(?::[0-9]+)?(?P<url>(?=/|$))"
_FRONT = re.compile(
    r"(?P<doi>doi:(?![ \t\u00a0]))|(?P<urn>urn:doi:)|(?P<info>info:doi/)|(?P<hdl>hdl:)"
    r"|(?P<label>doi[:：]?[ \t\u00a0]+(?=\S))|" + _URL,
    _FLAGS,
)
#: What a text in a known form can start with (``_FRONT``, ``_GENERIC_URL``): doi, urn,
#: info, hdl, http(s), ``//``, www., dx., handle. and the hosts above.
_FORM_FIRST = frozenset("dDuUiIhHwW/")
_GENERIC_URL = re.compile(r"(?P<scheme>https?)://(?P<host>[^/?#\s]+)", _FLAGS)
_LOGIN = re.compile(r"/login/?\?(?:[^#]*?&)?(?P<key>q?url)=", _FLAGS)
_PATH = re.compile(r"(?P<urn>urn:doi:)|(?P<api>api/handles/)|(?P<doi>doi:)", _FLAGS)

_OTHER_RESOLVERS = {
    "doi.acm.org": "ACM's former DOI resolver",
    "doi.ieeecomputersociety.org": "the IEEE Computer Society's former DOI resolver",
    "dx.plos.org": "PLOS's former DOI resolver",
    "doi.wiley.com": "Wiley's former DOI resolver",
}

FORM_LABELS = {
    "doi-uri": "doi: URI", "label": "DOI label", "urn": "urn:doi: URN",
    "info-uri": "info:doi/ URI", "hdl-uri": "hdl: URI", "url": "link", "urn-url": "URN link",
    "api-url": "handle API link", "proxy-url": "library proxy link",
    "proxy-login": "library proxy login link", "name": "input",
}

#: Each form in words for a page that says what a name was read from ("read from a
#: resolver link"); extract's forms (``in-url``, ``short-doi``) included.
FORM_NAMES = {
    "name": "a bare DOI name", "label": "a DOI label and a name", "doi-uri": "a doi: URI",
    "urn": "a urn:doi: name", "info-uri": "an info:doi/ URI", "hdl-uri": "an hdl: URI",
    "url": "a resolver link", "urn-url": "a resolver link in URN form",
    "api-url": "a handle API link", "proxy-url": "a link through a library proxy",
    "proxy-login": "a library proxy login link", "in-url": "another site's link",
    "short-doi": "a shortDOI",
}


@dataclass(slots=True)
class Parts:
    """Encoded name pieces found in the text, before decoding."""

    form: str
    start: int  # where the encoded name starts in the text
    end: int
    separator: str = "/"  # "/" or ":" (URN) between prefix and suffix
    uri: bool = False  # a URI form: raw "?" / "#" are errors (003 ch. 2)
    notes: list[Finding] = field(default_factory=list)


def _note(code: str, severity: Severity, message: str, a: int, b: int, source: str) -> Finding:
    sev: Severity = "warning" if severity == "warning" else "info"
    return Finding(code, sev, message, a, b, a, b, in_name=False, source=source)


def locate(text: str, lead: int, end: int, diagnose: bool) -> Parts:
    """Find which form ``text[lead:end]`` is in and where its encoded name lies (one match)."""
    m = _FRONT.match(text, lead, end)
    if m is None:
        return Parts("name", lead, end)
    kind = m.lastgroup
    if kind == "doi":
        return Parts("doi-uri", m.end(), end, uri=True)
    if kind == "urn":
        return Parts("urn", m.end(), end, separator=":", uri=True)
    if kind == "info":
        return Parts("info-uri", m.end(), end, uri=True)
    if kind == "hdl":
        return Parts("hdl-uri", m.end(), end, uri=True)
    if kind == "label":
        parts = Parts("label", m.end(), end)
        if diagnose:
            parts.notes.append(_note(
                "label-ignored", "info",
                "The label “DOI” before the name was ignored; what follows it is read as a "
                "DOI name (not as a doi: URI, which has no space).",
                lead, m.end(), "doiname",
            ))
        return parts
    if m["scheme"] or m.end() < end:
        return _locate_url_path(text, m, end, diagnose)
    return Parts("name", lead, end)


def _host_notes(m: re.Match[str]) -> list[Finding]:
    a, b = m.start(), m.end()
    if m["proxyhost"] is not None:
        return [_note("proxy-link", "info",
                      f"“{m['proxyhost']}” is doi.org seen through a library proxy (EZproxy).",
                      a, b, "specs README (EZproxy)")]
    if m["other"] is not None:
        host = m["other"].lower()
        return [_note("other-resolver", "info",
                      f"“{m['other']}” is {_OTHER_RESOLVERS[host]}; the DOI name was read "
                      "from the link. Its doi.org link is the one to use today.",
                      a, b, "DOI Handbook (resolution)")]
    if m["test"] is not None:
        return [_note("test-resolver", "warning",
                      f"“{m['test']}” is DataCite's test system: names registered there are "
                      "for testing and do not exist at doi.org.",
                      a, b, "DataCite (test system)")]
    if m["lookalike"] is not None:
        return [_note("lookalike-host", "warning",
                      f"“{m['lookalike']}” is not doi.org: it may be a library proxy or a site "
                      "imitating doi.org. The DOI name was read from its path; use the doi.org "
                      "link instead.", a, b, "003 ch. 6 (security)")]
    return []


def _locate_url_path(text: str, m: re.Match[str], end: int, diagnose: bool) -> Parts:
    proxy = m["proxyhost"] is not None or m["lookalike"] is not None
    path = m.end() + 1 if m.end() < end else m.end()
    # The path ends at the query or fragment: a browser never sends them as part of the path.
    q = text.find("?", path, end)
    h = text.find("#", path, end)
    stop = end if q == h == -1 else min(q, h) if q != -1 and h != -1 else max(q, h)
    notes: list[Finding] = _host_notes(m) if diagnose else []
    if stop < end and diagnose:
        notes.append(_dropped_note(text, stop, end))
    form = "proxy-url" if proxy else "url"
    pm = _PATH.match(text, path, stop)
    if pm is not None and pm.lastgroup == "urn":
        return Parts("urn-url" if not proxy else form, pm.end(), stop, separator=":",
                     notes=notes)
    if pm is not None and pm.lastgroup == "api":
        return Parts("api-url" if not proxy else form, pm.end(), stop, notes=notes)
    return Parts(form, pm.end() if pm is not None else path, stop, notes=notes)


def _dropped_note(text: str, stop: int, end: int) -> Finding:
    hash_at = text.find("#", stop, end)
    tail = text[stop:end]
    if hash_at != -1:
        message = (
            f"The link's “{tail}” was not read as part of the name: a browser stops at "
            "“?” and “#”. If they belong to the DOI name, the link was built without "
            "encoding them: in a link “#” must be written %23 and “?” %3F."
        )
        code = "url-fragment-dropped"
    else:
        message = (
            f"The link's query “{tail}” was not read as part of the name. If it belongs "
            "to the DOI name, “?” must be written %3F in a link."
        )
        code = "url-query-dropped"
    return Finding(code, "warning", message, stop, end, stop, end, in_name=False,
                   source="000 mandatory")


def login_wrapper(text: str, lead: int, end: int) -> tuple[int, int, bool] | None:
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


def may_hold_one_name(text: str) -> bool:
    """False when ``text`` certainly cannot be read as one DOI name: it starts neither with
    ``1`` (a bare name's ``10.``) nor with a form this module knows. A quick test before a
    reading that would only fail (a reference line read as one name)."""
    lead = len(text) - len(text.lstrip())
    if lead >= len(text):
        return False
    first = text[lead]
    if first == "1":
        return True
    if first not in _FORM_FIRST:
        return False  # no form this module knows starts with it
    end = len(text.rstrip())
    return _FRONT.match(text, lead, end) is not None or \
        _GENERIC_URL.match(text, lead, end) is not None
