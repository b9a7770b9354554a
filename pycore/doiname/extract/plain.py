"""The fast path of :func:`~doiname.extract`: a text whose names are all written plainly.

Most lines of a reference list hold their DOI in one of four plain ways: a bare name
(``10.1000/xyz.123``), a ``doi:`` URI, a ``doi:``/``DOI`` label, or a doi.org link, with a
registrant of 4-9 digits and a suffix of ASCII letters, digits and ``. _ / -`` that ends
in a letter or a digit, followed by a space, a quote, ``,``, ``;`` or the end of the
line. For such a text no rule of the scanner has anything to say: there is nothing to
clean (R1-R3), nothing left out (R13, R14, R19-R22), no doubt (R7), no shortDOI (R17), no
label before something unreadable (R18), no link text to merge (R15). :func:`plain_names`
finds those names with a few string searches and the scanner's own look-back (R6) and
says ``None`` as soon as anything else could matter; the caller then runs the scanner.
Two more ways are common and are found here too, then read as the scanner reads them
(:func:`read_plain`): balanced parentheses in the suffix
(``10.1016/S0140-6736(20)30183-5``, R10) and a sentence's final ``.`` after the name
(R13 leaves it out and says so).

Every answer is the scanner's answer: ``tests/unit/test_differential_extract.py`` checks,
over generated lines, the fixtures and the benchmark's lines, that the matches built from
:func:`plain_names` equal :func:`~doiname.extract.scan.scan`'s, which stays the oracle.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import partial
from typing import NamedTuple

from ..errors import DoiError
from ..forms import DOI_LINK_HEADS, Parts, locate
from ..memo import Memo
from ..model import Finding, make_doi
from ..syntax import Reading, _decode_parts, read_noted
from .breaks import r21_rest
from .clean import Text, needs_cleaning
from .ends import CJK_STOPS, QUOTES, r19_viewer_tail
from .make import Scanned, make_match
from .model import Match
from .reading import moved, read_span
from .reading import plain_link as _plain_link
from .scan import DOI_WORD as _DOI_WORD
from .split import r22_cut_digits
from .starts import r6_context

__all__ = ["Plain", "head_left", "new_plain", "plain_names", "read_plain",
           "read_plains"]


class Plain(NamedTuple):
    """One plainly written name: ``text[start:end]`` is the match's text, ``form`` its
    form (``name``, ``label``, ``doi-uri``, ``url``), ``prefix`` and ``suffix`` its name
    as written; ``read``: the reader must read it (escapes, a proxy's link, brackets,
    final dots R13 leaves out), else it is the name with no finding."""

    start: int
    end: int
    form: str
    prefix: str
    suffix: str
    read: bool


#: ``new_plain((start, end, form, prefix, suffix, read))``: a :class:`Plain` without a
#: Python frame (``tuple.__new__``).
new_plain: Callable[[tuple[int, int, str, str, str, bool]], Plain] = partial(
    tuple.__new__, Plain)

_LOOKBACK = 400  # as the scanner's R6
#: What a link's head or the text before an anchor gave lately (:func:`_left`,
#: :func:`_read_link`), by that text, for heads of at most ``_HEAD_MAX`` characters.
_LEFTS: Memo[str, tuple[tuple[int, str, bool] | None]] = Memo(256)
_LINKS: Memo[str, tuple[str, tuple[Finding, ...]]] = Memo(256)
_HEAD_MAX = 64
#: An anchor and a plain name: registrant of 4-9 digits, suffix of plain characters,
#: escapes and balanced pairs of parentheses around them (R10: ``S0140-6736(20)30183-5``).
#: (Runs of plain characters taken at once and kept, ``++``, ``*+``: each piece starts
#: with a character of its own, so the longest match is the same, without a step of the
#: group for each character or a way back.)
_NAME = re.compile(r"10\.[0-9]{4,9}/((?:[A-Za-z0-9._/\-]++|%[0-9A-Fa-f]{2}"
                   r"|\((?:[A-Za-z0-9._/\-]++|%[0-9A-Fa-f]{2})*+\))*+)", re.ASCII)
#: The scanner's R4 prefix: an anchor it reads further (anything but a plain name
#: there sends the text to the scanner).
_PREFIX = re.compile(r"10\.[0-9]+(?:\.[0-9]+)*")
#: The doi.org link heads a plain name follows (R6 reads no more of them).
_LINK_HEADS = DOI_LINK_HEADS
_LINK_HEAD_SET = frozenset(_LINK_HEADS)
_ALNUM = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_DIGITS = frozenset("0123456789")


def _ends_name(text: str, e: int, n: int) -> bool:
    """Whether R8-R12 stop right at ``e`` without a finding (a space, a quote, ``,``, or
    ``;`` not before a digit), or the text ends there."""
    if e >= n:
        return True
    c = text[e]
    if c.isspace() or c in QUOTES or c == "," or c in CJK_STOPS:
        return True
    return c == ";" and not (e + 1 < n and text[e + 1] in _DIGITS)


def _left(text: str, a: int, barrier: int) -> tuple[int, str, bool] | None:
    """Where the name at anchor ``a`` starts, its form and whether the reader must read it
    (R5, R6), or ``None`` when the scanner would read it otherwise (skip the anchor, read
    a glued ``doi10.``, or look for a form this module leaves to it)."""
    if a == 0:
        return 0, "name", False  # R6: nothing to look back at
    prev = text[a - 1]
    if prev == ":":
        # R6 on the token "doi:" alone: a doi: URI (the token ends at a space)
        if (a - 4 >= barrier and text[a - 4:a - 1].lower() == "doi"
                and text[a - 4:a - 1].isascii()
                and (a == 4 or text[a - 5].isspace())):
            return a - 4, "doi-uri", False
    elif prev == "/":
        for head in _LINK_HEADS:  # R6 on the token "https://doi.org/" alone: a link
            at = a - len(head)
            if at >= barrier and text.startswith(head, at) and (
                    at == 0 or text[at - 1].isspace()):
                return at, "url", False
    elif not prev.isspace() and (prev.isalnum() or prev in "._-+"
                                 or unicodedata.category(prev) == "Sc"):
        return None  # R5: the scanner skips this anchor or reads a glued doi10.
    start, form = r6_context(text, a, max(barrier, a - _LOOKBACK), False)
    if form in ("name", "label", "doi-uri"):
        return start, form, False
    if form == "url":  # a link with more to read than a plain doi.org head: the reader's
        return start, "url", text[start:a] not in _LINK_HEAD_SET
    return None


def head_left(head: str) -> tuple[int, str, bool] | None:
    """:func:`_left` for the first anchor of a text, right after ``head`` (it reads
    ``head`` alone, so it is kept by it for heads of at most ``_HEAD_MAX`` characters):
    where the name starts and its form (R5, R6), or ``None``."""
    got = _LEFTS.get(head)
    if got is None:
        got = (_left(head, len(head), 0),)
        if len(head) <= _HEAD_MAX:
            _LEFTS.put(head, got)
    return got[0]


def plain_names(text: str) -> list[Plain] | None:
    """The names of ``text`` when every one is written plainly; ``[]`` when it certainly
    holds no DOI name (nor shortDOI, nor labelled error); ``None`` when the scanner must
    read it.

    Each name is a :class:`Plain`: ``text[start:end]`` is the match's text and
    ``Doi(prefix, suffix)`` its name, with no finding and no alternative reading. A name
    with percent-escapes, in a link on another host than doi.org (a library proxy), with
    balanced parentheses in its suffix (R10), or followed by a final ``.`` (R13 leaves it
    out and says so) is marked ``read``: the scanner's span (before the dots), to be read
    by the reader (:func:`read_plain`), which says what it decoded, which host it saw and
    what was left out, as the scanner's ``make_match``.
    """
    if needs_cleaning(text):
        return None
    found: list[Plain] = []
    a = text.find("10.")
    if a != -1:
        n = len(text)
        last = text.rfind("10.")
        if last != a:  # the last name first: a name followed by more than R8-R12 stop
            m = _NAME.match(text, last)  # at (an HTML tag after a link's text) is the
            if m is not None and not _ends_name(text, m.end(), n):  # scanner's, at once
                return None
        barrier = 0
        while a != -1:
            m = _NAME.match(text, a)
            if m is None:
                # An anchor the scanner reads no further (no separator after its prefix)
                # is harmless; any other is the scanner's.
                # (Every anchor inside its prefix has the same end, so the search goes on
                # after it, as the scanner's does: linear.)
                p = _PREFIX.match(text, a)
                if p is None:
                    a = text.find("10.", a + 1)
                    continue
                if p.end() < n and text[p.end()] in "/%:":
                    return None
                a = text.find("10.", p.end())
                continue
            e = m.end()
            sep = m.start(1) - 1
            if not _ends_name(text, e, n):
                return None
            end = e  # R13: a final "." is left out (a run of them kept on a line of its own)
            while text[end - 1] == "." and end - 1 > sep:
                end -= 1
            if end - sep < 2 or text[end - 1] not in _ALNUM:
                return None
            if barrier == 0 and a <= _HEAD_MAX:
                left = head_left(text[:a])
            else:
                left = _left(text, a, barrier)
            if left is None:
                return None
            form = left[1]
            suffix = m[1] if end == e else m[1][:end - e]
            if e - end > 1 and form == "name":
                return None  # (R13 may keep the dots: make_match decides, in the scanner)
            if r19_viewer_tail(text, sep + 1, end) != end:
                return None
            if end == e and (r22_cut_digits(text, e) is not None
                             or r21_rest(text, e) is not None):
                return None  # R21, R22: what follows a space may be the name's rest
            # escapes the reader decodes and notes, brackets, dots left out (R13: a note
            # and the literal reading, by make_match): the reader reads the name
            found.append(new_plain((left[0], end, form, text[a:sep], suffix,
                                    left[2] or end < e or "%" in suffix or "(" in suffix)))
            barrier = end
            a = text.find("10.", e)
        if len(found) > 1:
            for i, x in enumerate(found):  # R15 merges neighbouring equivalent names
                if x.read:
                    return None  # (equivalence of escaped names needs their decoding)
                before = found[i - 1]
                if i and x.prefix == before.prefix and x.suffix.lower() == before.suffix.lower():
                    return None
    # R17 may find a shortDOI, R18 a labelled name it cannot read: a "10/" or a "doi"
    # that starts outside every name (one inside a name overlaps it: skipped). Found
    # gap by gap: find(w, lo, hi + 2) is a word that starts in [lo, hi).
    ascii_text = text.isascii()
    low = text.lower() if ascii_text else text
    lo = 0
    for name in found:
        if text.find("10/", lo, name.start + 2) != -1 or (
                ascii_text and low.find("doi", lo, name.start + 2) != -1):
            return None
        lo = name.end
    if text.find("10/", lo) != -1 or (ascii_text and low.find("doi", lo) != -1):
        return None
    if not ascii_text and _DOI_WORD.search(text) is not None and not _doi_words_inside(
            text, found):
        return None
    return found

def _doi_words_inside(text: str, found: list[Plain]) -> bool:
    """Whether every ``doi`` of the text lies inside a name found (R18 then finds only
    matches that overlap them, which it skips)."""
    for w in _DOI_WORD.finditer(text):
        at = w.start()
        if not any(p.start <= at < p.end for p in found):
            return False
    return True


def read_plain(text: str, name: Plain) -> Match:
    """The match of one name of :func:`plain_names` (what the scanner makes of it)."""
    start, end, kind, prefix, suffix, read = name
    if not read:  # (a prefix 10. + digits, a suffix of word characters and . / -: valid)
        return Match(make_doi(prefix, suffix, valid=True), start, end, text[start:end], (),
                     kind)
    sep = end - len(suffix) - 1
    a = sep - len(prefix)
    if text[end:end + 1] == ".":  # dots left out (R13): the scanner's span, its ends
        raw = end + 1
        while text[raw:raw + 1] == ".":
            raw += 1
        return make_match(Text(text, False), Scanned(start, a, sep, sep + 1, end, end, raw,
                                                     kind, raw)).match
    try:
        if kind == "url" and text[a - 1] == "/" and not _plain_link(text[start:end]):
            r = _read_link(text[start:end], a - start)  # what read_span does, sooner
            doi, read_as, notes, base = r.doi, r.form, r.notes, start
        else:
            doi, read_as, notes, base = read_span(text, kind, start, a, end)
    except DoiError:
        read_as = "in-url"  # the scanner's error match, below
    if read_as != "in-url" and "\ufffd" not in doi.suffix and "\ufffd" not in doi.prefix:
        # make_match, for a span that plain_names vouches for: it ends where R8-R12
        # stopped (nothing for R13, R14, R19-R21 to say) and nothing was cleaned
        if notes and not (base == 0 and all(_unmoved(n) for n in notes)):
            t = Text(text, False)
            notes = tuple(moved(t, n, base) for n in notes)
        return Match(doi, start, end, text[start:end], tuple(notes), read_as)
    return make_match(Text(text, False), Scanned(start, a, sep, sep + 1, end, end, end,
                                                 kind, end)).match


def _read_link(span: str, at: int) -> Reading:
    """``read_noted(span)`` for a link ``span`` whose name starts at ``at``, right after a
    ``/`` (its head ``span[:at]``), and holds only ``[A-Za-z0-9._/-]`` and escapes (what
    plain_names reads): what :func:`~doiname.forms.locate` finds in such a link (its
    form, where the name starts, the notes on its host) depends on the head alone (the
    head's pattern stops before that ``/``; no ``?``, ``#`` or path form in the name), so
    it is kept by the head; the name is decoded and checked as the reader does it."""
    head = span[:at]
    got = _LINKS.get(head)
    if got is None:
        parts = locate(span, 0, len(span), True)
        if (parts.form not in ("url", "proxy-url") or parts.start != at
                or parts.end != len(span) or span[:1].isspace() or span[-1:].isspace()
                or "0" <= span[:1] <= "9"):
            return read_noted(span)  # (not a link of that shape: the reader's own way)
        got = _LINKS.put(head, (parts.form, tuple(parts.notes)))
    return _decode_parts(span, Parts(got[0], at, len(span)), list(got[1]), want_spans=False,
                         diagnose=True)


def _unmoved(note: Finding) -> bool:
    """Whether :func:`~.make.moved` gives back a note equal to ``note`` itself, from the
    start of a text nothing was cleaned in (the reader's notes of a line that is one
    link)."""
    return (not note.in_name and note.input_start == note.start < note.end
            and note.input_end == note.end)


def read_plains(text: str, names: list[Plain]) -> list[Match] | None:
    """The matches of :func:`plain_names`' names, each read as R6 and R16 read it;
    ``None`` when the reader read a link's name from elsewhere than its span (only the
    name inside a link that is not one: ``in-url``): the scanner then reads the text,
    since what lies before the name (a shortDOI, R17; a ``doi`` word, R18) is no longer
    inside a match."""
    out = []
    for name in names:
        m = read_plain(text, name)
        if m.start != name.start:
            return None
        out.append(m)
    return out
