"""The common forms of a DOI name, read at once: what :func:`doiname.parse` tries before
the general reader (:func:`doiname.syntax._read`, the oracle these must agree with).

A bare name (002 §4), a ``doi:`` URI (003 ch. 2), a link on ``doi.org``, ``www.doi.org``,
``dx.doi.org`` or ``hdl.handle.net``, and a link through an EZproxy host
(``doi-org.<proxy>``, the specs README), each with a prefix ``10.`` + digit groups, a
``/`` and a suffix. One regular expression recognises the shape; the checks the reader
would make after it (nothing to trim, no query or fragment after a head, escapes decoded
once as UTF-8 (001), every code point Graphic (003 ch. 2)) are made on its groups. A text
these cannot vouch for gives ``None`` and goes to the reader, which says what is wrong.
"""

from __future__ import annotations

import re

from .model import Doi, make_doi
from .percent import decode_valid

__all__ = ["FAST", "FAST_HEAD", "matched_doi", "parse_common"]

# A suffix that needs no escape in a URL at 000's recommended level nor in a doi: URI
# (003 ch. 2: unreserved, sub-delims but "+", ":", "@"; no "/"), not starting with ".":
# no dot segment either (a Doi made from it is _plain, doiname.model).
_PLAIN = r"([-0-9A-Za-z_~!$&'()*,;=:@][-.0-9A-Za-z_~!$&'()*,;=:@]*+)"  # (*+: no backtracking)
#: A bare, printable-ASCII name without escapes or surrounding space: group 2 holds a
#: plain suffix, group 3 any other.
FAST = re.compile(r"(10(?:\.[0-9]+)+)/(?:" + _PLAIN + r"|([!-$&-~](?:[ -$&-~]*[!-$&-~])?))")
# The heads of the forms the reader reads as a name's front (doiname.forms): a doi: URI, a
# link on doi.org (www., dx.) or hdl.handle.net, a link through an EZproxy host
# (doi-org.<proxy>), in lower case, without a port.
_HEAD = (r"(?:[dD][oO][iI]:|https?://(?:(?:www\.|dx\.)?doi\.org|hdl\.handle\.net"
         r"|(?:dx-|www-)?doi-org\.[a-z0-9-]+(?:\.[a-z0-9-]+)*)/)")
#: The same after such a head, "%"-escapes allowed in group 3 (no "?" or "#": a URI's
#: query or fragment, a link's).
FAST_HEAD = re.compile(_HEAD + r"(10(?:\.[0-9]+)+)/(?:" + _PLAIN
                       + r"|([!\"$%&-\x3e@-~](?:[ !\"$%&-\x3e@-~]*[!\"$%&-\x3e@-~])?))")
# Any name, bare or after such a head: escapes and non-ASCII are checked on the groups.
_WIDE = re.compile("(" + _HEAD + r")?(10(?:\.[0-9]+)+)/(.+)", re.DOTALL)


def parse_common(text: str) -> Doi | None:
    """The :class:`Doi` the reader gives for ``text`` when it is a name in a common form
    (bare, ``doi:``, a doi.org or EZproxy link; 002 §4, 003 ch. 2, 001), else ``None``.

    ``None`` says nothing about the text: the general reader reads it (and raises).
    """
    m = FAST.fullmatch(text)
    if m is None:
        m = FAST_HEAD.fullmatch(text)
        if m is None:
            return _read_wide(text)
        if m.lastindex == 3 and "%" in m[3]:
            return _decoded(m[1], m[3])
    return matched_doi(m)


def matched_doi(m: re.Match[str]) -> Doi:
    """The :class:`Doi` of a match of :data:`FAST` or :data:`FAST_HEAD` without escapes
    (002 §4): known plain when its suffix is the plain group."""
    if m.lastindex == 2:
        return make_doi(m[1], m[2], True)
    return make_doi(m[1], m[3], valid=True)


def _read_wide(text: str) -> Doi | None:
    m = _WIDE.fullmatch(text)
    # isprintable: every code point Graphic (as validate_name tests first), and no
    # whitespace but U+0020, which may not end the text (the reader trims it).
    if m is None or not text.isprintable() or text[-1] == " ":
        return None
    head, prefix, suffix = m.groups()
    if head is not None and ("#" in suffix or "?" in suffix):
        return None  # a URI's query or fragment (an error), a link's (a note)
    if "%" in suffix:
        return _decoded(prefix, suffix)
    return make_doi(prefix, suffix, valid=True)


def _decoded(prefix: str, suffix: str) -> Doi | None:
    # The prefix has no "%": it decodes to itself. The name the escapes give is checked as
    # validate_name checks it first (isprintable: every code point Graphic); when it is
    # not printable, the reader looks closer.
    decoded = decode_valid(suffix)
    if decoded is None or not decoded.isprintable():
        return None
    return make_doi(prefix, decoded, valid=True)
