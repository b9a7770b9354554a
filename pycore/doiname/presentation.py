"""Presenting a DOI name: URLs at three levels, the URN URL, the ``doi:`` URI, API links,
and all of them at once (:func:`present`, what Inspect shows of a name).

All outputs are ASCII. Every URL keeps, in a real browser,
``new URL(u).href === u`` and, for :func:`to_url`,
``decodeURIComponent(new URL(u).pathname.slice(1)) === str(doi)``: nothing a browser
would rewrite is left unencoded (see :mod:`doiname.encoding` for the tables).
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass

from .canonical import canonical_uri_2003
from .encoding import (
    DOT_RULE,
    LEVELS,
    Change,
    Level,
    dot_joiners,
    encode_component,
    escaper,
    explain_component,
    fix_dot_segments,
    needs_escape,
)
from .errors import DoiError
from .forms import DOI_LINK_STARTS
from .memo import remembered
from .model import KEEP_ESCAPED, Doi
from .resolver.links import is_linkable_url
from .syntax import parse

__all__ = [
    "DEFAULT_RESOLVER", "Presentation", "explain_url", "present", "short_doi_api_url",
    "to_handles_api_url", "to_html_link", "to_markdown_link", "to_proxy_url", "to_uri",
    "to_url", "to_urn_url", "to_which_ra_url",
]

DEFAULT_RESOLVER = "https://doi.org/"

DoiLike = str | Doi
#: Whether a name needs any escape at the recommended level (its "/" kept).
_RECOMMENDED_NEEDS = needs_escape("recommended")
_RECOMMENDED_ESCAPE = escaper("recommended")
#: Whether a prefix or a suffix needs any escape in a ``doi:`` URI (003 ch. 2).
_URI_NEEDS = needs_escape("uri", slash=True)
_URI_ESCAPE = escaper("uri", slash=True)


def _check_address(url: str, code: str, what: str, *, query: bool) -> None:
    """Refuse ``url`` (a resolver or a proxy prefix, named ``what`` in the message) unless
    it is an ``http``/``https`` URL in ASCII with only URL characters, no user information
    (``https://doi.org@evil.example/`` goes to evil.example), a valid host and port, no
    fragment, and a query only when ``query``."""
    shape = ("A resolver is a scheme, a host, an optional port and a path, such as "
             "https://doi.org/." if not query else
             "A proxy prefix is a scheme, a host, an optional port, a path and a query "
             "ending in url= or qurl=.")
    low = url.lower()
    if not (low.startswith("https://") or low.startswith("http://")) or not url.isascii():
        raise DoiError(code, f"The {what} “{url}” must be an http:// or https:// address "
                       "in ASCII.")
    if any(c in url for c in " \"<>\\^`{|}") or any(ord(c) < 0x21 or ord(c) == 0x7F for c in url):
        raise DoiError(code, f"The {what} “{url}” contains characters that are not allowed "
                       "in a URL.")
    rest = url[url.index("//") + 2:]
    authority = rest.split("/", 1)[0].split("?", 1)[0]
    checks = [("@", "user information before its host (the browser would go to the host "
                    "after the “@”)"),
              ("#", "a fragment (“#”): the browser would not send what follows")]
    if not query:
        checks.append(("?", "a query (“?”): the DOI name would be read as part of it"))
    for ch, why in checks:
        if ch in (authority if ch == "@" else rest):
            raise DoiError(code, f"The {what} “{url}” has {why}. {shape}")
    if not is_linkable_url(url):
        raise DoiError(code, f"The {what} “{url}” has no valid host (and port). {shape}")


@remembered(64)
def _resolver(resolver: str) -> str:
    """Normalise a resolver base (it gets a trailing ``/``): an ``http``/``https`` URL made
    of a scheme, a host, an optional port and a path, and nothing else: no user
    information (``https://doi.org@evil.example/`` goes to evil.example), no query and no
    fragment (the name would land in them, not in the path)."""
    _check_address(resolver, "bad-resolver", "resolver", query=False)
    return resolver if resolver.endswith("/") else resolver + "/"


def _check_level(level: str) -> Level:
    for known in LEVELS:
        if level == known:
            return known
    raise DoiError(
        "bad-level",
        f"Unknown encoding level “{level}”: use mandatory, recommended or strict.",
    )


def _url_path(doi: Doi, level: Level) -> str:
    if level == "strict":
        path = (encode_component(doi.prefix, level, slash=True) + "/"
                + encode_component(doi.suffix, level, slash=True))
    else:  # "/" is kept at these levels, so the name is encoded in one pass
        path = encode_component(doi.prefix + "/" + doi.suffix, level)
    return fix_dot_segments(path)


def _base(resolver: str) -> str:
    """:func:`_resolver` of ``resolver``; the default one as it is, which it normalises to
    itself (tests/unit/test_presentation.py)."""
    return resolver if resolver is DEFAULT_RESOLVER else _resolver(resolver)


def to_url(
    x: DoiLike, *, level: str = "recommended", resolver: str = DEFAULT_RESOLVER
) -> str:
    """The resolver URL of a DOI name, percent-encoded for ``level`` (000, 001, 003).

    * ``"mandatory"``: 000's mandatory set (``% " # SPACE ?``), 001's control
      characters, non-ASCII as UTF-8 escapes (003 ch. 2), and whatever a browser's URL
      parser would otherwise change: ``\\ < > ` { }`` and ``.``/``..`` segments.
    * ``"recommended"`` (default): mandatory plus 000's recommended set
      ``< > { } ^ [ ] ` | \\ +``; ``10.1000/456#789`` -> ``https://doi.org/10.1000/456%23789``
      and ``/./`` -> ``/.%2F`` (000).
    * ``"strict"``: the current Handbook's proxy encoding: prefix and suffix encoded
      separately, keeping only letters, digits and ``- . _ ~ ! $ & ' ( ) * + ; = : @``.
    """
    doi = x if type(x) is Doi else parse(x)
    if level == "recommended" and resolver is DEFAULT_RESOLVER:  # the common case, shorter
        if doi._plain:  # the reader proved it needs nothing (doiname.model._Known)
            return DEFAULT_RESOLVER + doi.prefix + "/" + doi.suffix
        path = doi._escaped  # kept by an earlier call
        if path is None:
            path = doi.prefix + "/" + doi.suffix
            if _RECOMMENDED_NEEDS(path) is not None:
                path = _RECOMMENDED_ESCAPE(path)
                KEEP_ESCAPED(doi, path)  # for the next call and for to_uri
        if "/." in path or path[0] == ".":  # (fix_dot_segments' own test, first)
            path = fix_dot_segments(path)
        return DEFAULT_RESOLVER + path
    lvl: Level = "recommended" if level == "recommended" else _check_level(level)
    return _base(resolver) + _url_path(doi, lvl)


def explain_url(x: DoiLike, level: str = "recommended") -> list[Change]:
    """Each character of the name that :func:`to_url` changes at ``level``, with its rule.

    Sources named: 000 mandatory / 000 recommended / 001 control / browser URL parser /
    003 (UTF-8) / the 2025 Handbook strict set / the 000 note on dot segments.
    Positions index the DOI name.
    """
    doi = parse(x)
    lvl = _check_level(level)
    strict = lvl == "strict"
    split = len(doi.prefix)
    changes = explain_component(doi.prefix, 0, lvl, slash=strict)
    changes += explain_component(doi.suffix, split + 1, lvl, slash=strict)
    # Dot segments: the path segments as the URL will have them.
    name = str(doi)
    cuts = [split] if strict else [i for i, c in enumerate(name) if c == "/"]
    bounds = [-1, *cuts, len(name)]
    segs = [name[bounds[k] + 1:bounds[k + 1]] for k in range(len(bounds) - 1)]
    for j in dot_joiners(segs):
        at = cuts[j]
        changes.append(Change(at, at + 1, "/", "U+002F", "%2F", DOT_RULE.rule, DOT_RULE.source))
    changes.sort(key=lambda c: c.start)
    return changes


def to_urn_url(x: DoiLike, resolver: str = DEFAULT_RESOLVER) -> str:
    """``https://doi.org/urn:doi:PREFIX:SUFFIX``, further suffix slashes as ``%2F`` (000 note).

    The rest of the suffix is encoded at the recommended level of 000.
    """
    doi = parse(x)
    return (
        _resolver(resolver)
        + "urn:doi:"
        + encode_component(doi.prefix, "urn", slash=True)
        + ":"
        + encode_component(doi.suffix, "urn", slash=True)
    )


def _ssp(doi: Doi) -> str:
    return (
        encode_component(doi.prefix, "uri", slash=True)
        + "/"
        + encode_component(doi.suffix, "uri", slash=True)
    )


def to_uri(x: DoiLike) -> str:
    """The ``doi:`` URI of a DOI name (003 ch. 2).

    UTF-8 bytes kept when RFC 3986 unreserved, sub-delims, ``:`` or ``@``; every other
    byte percent-encoded; prefix and suffix encoded separately, so a slash inside the
    suffix is ``%2F``: ``10.6338/JDA.202212/SP_17(4).0000`` ->
    ``doi:10.6338/JDA.202212%2FSP_17(4).0000``.
    """
    doi = x if type(x) is Doi else parse(x)
    prefix, suffix = doi.prefix, doi.suffix
    if doi._plain:  # the reader proved it needs nothing (doiname.model._Known)
        return "doi:" + prefix + "/" + suffix
    escaped = doi._escaped
    # to_url's escapes (000 recommended) are 003's for every character but "/" (kept in
    # a URL, %2F in a URI's prefix or suffix) and "+" (the reverse): with neither in the
    # prefix or the suffix, the name's one "/" is the separator, kept in both.
    if escaped is not None and "+" not in suffix and "/" not in suffix \
            and "+" not in prefix and "/" not in prefix:
        return "doi:" + escaped
    if _URI_NEEDS(prefix) is None:
        if _URI_NEEDS(suffix) is None:
            return "doi:" + prefix + "/" + suffix
        return "doi:" + prefix + "/" + _URI_ESCAPE(suffix)
    return "doi:" + _ssp(doi)


def to_handles_api_url(
    x: DoiLike,
    *,
    types: Iterable[str] = (),
    index: Iterable[int] = (),
    resolver: str = DEFAULT_RESOLVER,
) -> str:
    """``https://doi.org/api/handles/`` + the URI's scheme-specific part (003 ch. 4).

    ``types`` adds ``type=`` parameters (``URL``, ``HS_ALIAS``, ``10320/loc`` ...) and
    ``index`` adds ``index=`` parameters, as the handle API reads them (specs README).
    A suffix that is exactly ``.`` or ``..`` gets its separator encoded so the browser
    keeps it (000 note).
    """
    doi = parse(x)
    return _api_url(_ssp(doi), types, index, resolver)


def _api_url(ssp: str, types: Iterable[str], index: Iterable[int], resolver: str) -> str:
    url = _base(resolver) + fix_dot_segments("api/handles/" + ssp)
    if types == () and index == ():  # (a row's request: no query to build)
        return url
    params: list[str] = []
    for t in ([types] if isinstance(types, str) else types):
        if not isinstance(t, str) or not t:
            raise DoiError("bad-type", f"A handle value type must be a non-empty text, not {t!r}.")
        params.append("type=" + encode_component(t, "query"))
    for i in index:
        if isinstance(i, bool) or not isinstance(i, int) or i < 0:
            raise DoiError("bad-index", f"A handle value index is a whole number ≥ 0, not {i!r}.")
        params.append(f"index={i}")
    return url + ("?" + "&".join(params) if params else "")


#: What a shortDOI may be written after: a doi.org link's head, or ``doi:``.
_SHORT_HEADS = (*DOI_LINK_STARTS, "doi:")


def short_doi_api_url(text: str, resolver: str = DEFAULT_RESOLVER) -> str:
    """The handle API request that expands a shortDOI ``10/abcde`` (``?type=HS_ALIAS``).

    shortDOIs are aliases, not DOI names (specs README); their handle is ``10/<code>``,
    encoded like a ``doi:`` URI's scheme-specific part (003 ch. 2, 4).
    """
    name = text.strip()
    for head in _SHORT_HEADS:
        if name.lower().startswith(head):
            name = name[len(head):]
            break
    if "/" not in name:
        name = "10/" + name
    prefix, _, code = name.partition("/")
    if prefix != "10" or not code or not code.isascii() or not code.isalnum():
        raise DoiError(
            "not-short-doi",
            f"“{text.strip()}” is not a shortDOI: those look like 10/abcde (letters and digits).",
        )
    return _api_url("10/" + code, ("HS_ALIAS",), (), resolver)


def to_proxy_url(
    x: DoiLike, proxy: str, *, level: str = "recommended", resolver: str = DEFAULT_RESOLVER
) -> str:
    """The :func:`to_url` link wrapped in a library's EZproxy login prefix (specs README).

    ``proxy`` ends in ``url=`` (EZproxy takes the rest of the link literally, so the
    DOI link is appended as it is, except ``&`` and ``+``, written ``%26`` and ``%2B``:
    doi.org reads them as the same name, and a proxy or redirector that parses the
    query cannot take a ``&url=...`` inside the name for a second parameter) or
    ``qurl=`` (the DOI link is percent-encoded once more, as a query value). The prefix
    passes the resolver's checks (it is where the link goes): no user information
    (``https://doi.org@evil.example/login?url=`` goes to evil.example), only URL
    characters, a valid host, no fragment.
    """
    url = to_url(x, level=level, resolver=resolver)
    _check_address(proxy, "bad-proxy", "proxy prefix", query=True)
    low = proxy.lower()
    if low.endswith("qurl="):
        return proxy + encode_component(url, "component", slash=True)
    if low.endswith("url="):
        return proxy + url.replace("&", "%26").replace("+", "%2B")
    raise DoiError(
        "bad-proxy",
        f"The proxy prefix “{proxy}” must end in “url=” or “qurl=”, as EZproxy login links do.",
    )


def to_which_ra_url(xs: DoiLike | Iterable[DoiLike], resolver: str = DEFAULT_RESOLVER) -> str:
    """One Which RA request for one or many names: ``https://doi.org/ra/A,B`` (000).

    Names are encoded at the recommended level, and a ``,`` inside a name as ``%2C``
    (000: "only necessary in a Which RA service request context").
    """
    items = [xs] if isinstance(xs, (str, Doi)) else list(xs)
    if not items:
        raise DoiError("empty", "Give at least one DOI name for a Which RA request.")
    names = [encode_component(str(parse(i)), "ra") for i in items]
    return _resolver(resolver) + fix_dot_segments("ra/" + ",".join(names))


def to_html_link(x: DoiLike, *, level: str = "recommended",
                 resolver: str = DEFAULT_RESOLVER) -> str:
    """An HTML link: the name as text, :func:`to_url` as target, both HTML-escaped (000)."""
    doi = parse(x)
    url = to_url(doi, level=level, resolver=resolver)
    return f'<a href="{html.escape(url, quote=True)}">{html.escape(str(doi), quote=False)}</a>'


_MD_TEXT = {ord(c): "\\" + c for c in "\\`*_[]<>&!~|#"}


def to_markdown_link(x: DoiLike, *, level: str = "recommended",
                     resolver: str = DEFAULT_RESOLVER) -> str:
    """A Markdown (CommonMark) link: the name as text, :func:`to_url` as target.

    Markdown punctuation in the text is backslash-escaped; parentheses in the target
    are escaped unless they balance (CommonMark link destination rules).
    """
    doi = parse(x)
    url = to_url(doi, level=level, resolver=resolver)
    if not _balanced(url):
        url = url.replace("(", "\\(").replace(")", "\\)")
    return f"[{str(doi).translate(_MD_TEXT)}]({url})"


def _balanced(s: str) -> bool:
    depth = 0
    for c in s:
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


@dataclass(frozen=True, slots=True)
class Presentation:
    """Every form of one DOI name, with the explanation of each URL level (000, 003, 004)."""

    name: Doi
    url: str
    url_mandatory: str
    url_strict: str
    explain_recommended: tuple[Change, ...]
    explain_mandatory: tuple[Change, ...]
    explain_strict: tuple[Change, ...]
    urn_url: str
    uri: str
    api_url: str
    which_ra_url: str
    canonical_2003: str | None
    html: str
    markdown: str


def present(doi: Doi) -> Presentation:
    """Every form of a valid DOI name (:func:`to_url` at three levels with
    :func:`explain_url`, :func:`to_urn_url`, :func:`to_uri`, :func:`to_handles_api_url`,
    :func:`to_which_ra_url`, :func:`canonical_uri_2003`, HTML and Markdown links)."""
    try:
        canonical: str | None = canonical_uri_2003(doi)
    except DoiError:
        canonical = None
    return Presentation(
        doi, to_url(doi), to_url(doi, level="mandatory"), to_url(doi, level="strict"),
        tuple(explain_url(doi, "recommended")), tuple(explain_url(doi, "mandatory")),
        tuple(explain_url(doi, "strict")), to_urn_url(doi), to_uri(doi),
        to_handles_api_url(doi), to_which_ra_url(doi), canonical, to_html_link(doi),
        to_markdown_link(doi))
