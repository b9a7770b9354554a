"""The fast path of a batch line that is one name the reader reads, spaces or tabs after it
aside: a library proxy's link (``https://doi-org.ezproxy.example.edu/10.1234/x%23567``), a
doi.org link with escapes, a name with brackets in its suffix
(``10.1016/S0140-6736(20)30183-5``, bare, in a link, a ``doi:`` URI or after a label).

A library's lists hold many such lines, each with a name of its own, so nothing kept by
the name helps. But what such a row says besides the name is the same for many lines: the
reader's notes (the proxy, the escapes decoded) depend on the line's head (the link's, the
label's, none) and on where the name starts and ends (003 ch. 2, 001), and
:func:`doiname.check`'s findings on a name of printable ASCII depend only on where its
characters outside the Crossref set are, and which, when every rule whose precondition
holds on it says so of itself (:func:`doiname.findings.by_shape`: the Crossref-set rule
does; a rule registered later does not unless it says so). So the status, the findings
and the form are kept by that shape (the head, the prefix's and the suffix's lengths, the
decoded suffix with every character of the set written ``a``), made the first time by the
general path of the line (:func:`~doiname.extract.plain.read_plain` and
:func:`~doiname.batch.general.part_of`, the oracle); the name, its links and its key are
made for each line. ``tests/unit/test_differential_batch.py`` compares the rows with
``BatchSession(fast=False)``'s.
"""

from __future__ import annotations

import re

from ..extract.ends import r19_viewer_tail
from ..extract.plain import Plain, head_left, new_plain, read_plain
from ..findings import by_shape
from ..findings.name_rules import name_shape
from ..memo import Memo
from ..model import Finding, make_doi
from ..percent import decode_valid
from .general import Checker, Part, name_forms, new_part, part_of
from .rows import Status

__all__ = ["link_name", "link_part"]

#: A line that is one link on a host (``https://host/``), a name with a registrant of
#: 4-9 digits and a suffix of plain characters and escapes (runs taken at once, as
#: plain.py's name), spaces or tabs after it.
_LINK_LINE = re.compile(
    r"(https?://[A-Za-z0-9.:\-]+/)(10\.[0-9]{4,9})/((?:[A-Za-z0-9._/\-]++|%[0-9A-Fa-f]{2})++)"
    r"[ \t]*")
_ALNUM = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
#: What a line of each shape gives besides its name.
_SHAPES: Memo[tuple[str, int, int, bytes], tuple[Status, tuple[Finding, ...], str]] = Memo(
    1024)


def link_name(text: str) -> list[Plain] | None:
    """The name of a line that is one link through another host than doi.org's (a
    library proxy's), or a doi.org link with escapes, spaces or tabs after it aside, as
    :func:`~doiname.extract.plain.plain_names` gives it (form ``url``, read by the
    reader); ``None`` for any other line. The head is read by plain_names' own look-back
    (R5, R6); nothing else in the line can hold a name, a shortDOI (R17) or a label
    (R18), and nothing is to be cleaned (R1-R3: ASCII without ``&`` or ``\\``)."""
    m = _LINK_LINE.fullmatch(text)
    if m is None:
        return None
    head, prefix, suffix = m.groups()
    if "10." in head or suffix[-1] not in _ALNUM:
        return None
    left = head_left(head)
    if left is None or left[:2] != (0, "url") or not (left[2] or "%" in suffix):
        return None
    s0, e = m.span(3)
    if r19_viewer_tail(text, s0, e) != e:
        return None
    return [new_plain((0, e, "url", prefix, suffix, True))]


def link_part(text: str, name: Plain, check: Checker) -> Part | None:
    """The part of a line that is the name ``name`` (a name of plain_names' that the
    reader reads, that starts the line), spaces or tabs after it aside: what the general
    path gives (003 ch. 2 and 3, 001, 000); ``None`` for another line, or when the reader
    reads the name otherwise (the scanner's then)."""
    start, end, _, prefix, suffix, read = name
    if start or not read or (end < len(text) and text[end:].strip(" \t")):
        return None
    decoded = decode_valid(suffix) if "%" in suffix else suffix
    key = None
    if (decoded is not None and decoded.isprintable() and decoded.isascii()
            and by_shape(prefix + "/" + decoded)):
        key = (text[:end - len(suffix) - len(prefix) - 1], len(prefix), len(suffix),
               name_shape(decoded))
        got = _SHAPES.get(key)
        if got is not None:
            status, findings, read_as = got
            doi = make_doi(prefix, decoded)
            shown, url, uri, api_url, name_key = name_forms(doi)
            return new_part((status, shown, url, uri, findings, 0, end, text[:end], read_as,
                             api_url, (), doi, name_key))
    m = read_plain(text, name)
    if m.start != start:
        return None  # the scanner's (see read_plains)
    part = part_of(m, check)
    if key is not None and decoded is not None and part.status != "error" and m.doi == make_doi(
            prefix, decoded):
        _SHAPES.put(key, (part.status, part.findings, part.form))
    return part
