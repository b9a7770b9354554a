"""Where the links go when DOIs in a page's text become links (the widget's linkify).

The embeddable widget walks a page's text nodes and asks :func:`link_targets` what to
link; its JavaScript only splits text nodes at the positions returned here. The DOIs are
found by :func:`doiname.extract.extract` (the reading policy of
:mod:`doiname.inspection`: a name links when its status there is ``ok`` or ``warning``)
and each link target is
:func:`doiname.to_url` (000/001/003), optionally wrapped in a library's EZproxy prefix
with :func:`doiname.to_proxy_url` (specs README).
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import DoiError
from .extract import extract
from .presentation import DEFAULT_RESOLVER, to_proxy_url, to_url

__all__ = ["LinkTarget", "link_targets", "utf16_offset"]

MAX_TEXT = 1_000_000  # characters of one text node; longer nodes are left as they are


def utf16_offset(text: str, index: int) -> int:
    """The JavaScript (UTF-16) index of code point ``index`` of ``text``."""
    head = text[:index]
    if head.isascii():
        return index
    return index + sum(1 for c in head if ord(c) > 0xFFFF)


class _Utf16:
    """UTF-16 offsets of increasing code-point indices of one text, in one pass overall."""

    __slots__ = ("_at", "_extra", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._at = 0
        self._extra = 0

    def __call__(self, index: int) -> int:
        if index < self._at:  # not increasing: count from the start
            return utf16_offset(self._text, index)
        self._extra += sum(1 for c in self._text[self._at:index] if ord(c) > 0xFFFF)
        self._at = index
        return index + self._extra


@dataclass(frozen=True, slots=True)
class LinkTarget:
    """One span of a text to turn into a link: ``text[start:end]`` -> ``href``.

    ``start``/``end`` count code points (Python); ``start16``/``end16`` count UTF-16
    code units, as JavaScript strings do (they differ after characters outside the
    Basic Multilingual Plane, such as emoji). ``name`` is the DOI name the link
    resolves; ``title`` a tooltip saying so.
    """

    start: int
    end: int
    name: str
    href: str
    title: str
    start16: int
    end16: int


def link_targets(
    texts: list[str],
    *,
    level: str = "recommended",
    resolver: str = DEFAULT_RESOLVER,
    proxy: str | None = None,
) -> list[list[LinkTarget]]:
    """For each text, the DOIs in it and the link each becomes (000, specs README).

    Only names the core reader accepts become links; the visible text is never changed
    (the spans cover exactly what :func:`~doiname.extract.extract` found, trailing
    sentence punctuation left outside). ``proxy`` is an EZproxy login prefix ending in
    ``url=`` or ``qurl=``; a bad ``proxy``, ``level`` or ``resolver`` raises
    :class:`~doiname.errors.DoiError` once, before any text is read.
    """
    probe = "10.1000/182"
    if proxy:
        to_proxy_url(probe, proxy, level=level, resolver=resolver)
    else:
        to_url(probe, level=level, resolver=resolver)
    out: list[list[LinkTarget]] = []
    for text in texts:
        found: list[LinkTarget] = []
        if isinstance(text, str) and len(text) <= MAX_TEXT and "10" in text:
            offset = _Utf16(text) if not text.isascii() else None
            for m in extract(text):
                if not m.ok or m.kind != "doi":
                    continue
                try:
                    href = (to_proxy_url(m.doi, proxy, level=level, resolver=resolver) if proxy
                            else to_url(m.doi, level=level, resolver=resolver))
                except DoiError:
                    continue
                name = str(m.doi)
                found.append(LinkTarget(
                    m.start, m.end, name, href, f"DOI {name}",
                    offset(m.start) if offset else m.start, offset(m.end) if offset else m.end))
        out.append(found)
    return out
