"""Rules R4, R17, R18 and the scanner that ties the rules together.

One pass with ``str.find`` between anchors (R4); where a name may start and its form are
decided by :mod:`.starts` (R5-R7: the look-back is bounded and never crosses the previous
anchor or match); each suffix character is visited once by
:func:`~.ends.scan_suffix`. Then shortDOIs (R17) and labelled names that cannot be read
(R18) are found by two linear regular expressions, and R15 merges link text into its
link. Time and memory are linear in the length of the text.
"""

from __future__ import annotations

import dataclasses
import re
from bisect import bisect_right
from operator import attrgetter

from ..errors import DoiError
from ..model import Doi, Finding
from ..syntax import is_short_doi_code, read
from .breaks import r21_read_prefix_cut
from .clean import Text
from .ends import (
    PREPRINT_PREFIX,
    has_spaceless,
    r8_glued,
    r13_trailing,
    r19_file_tail,
    r19_preprint_tail,
    r19_viewer_tail,
    r20_debris,
    scan_suffix,
)
from .make import Scanned, alone_on_line, make_match
from .merge import MARKUP_GAP, MAX_GAP, r15_merge
from .model import Found, Match
from .starts import LOOKBACK, LOWER, r5_left_boundary, r6_context, r7_plausible_bare

__all__ = ["DOI_WORD", "has_doi_word", "scan"]

#: R4: the prefix (ASCII digits only).
_PREFIX_RE = re.compile(r"10\.[0-9]+(?:\.[0-9]+)*")
#: R6: where a name inside another site's link stops (its query, its fragment).
_STOPS = {"in-url-path": "?#", "in-url-preprint": "?#", "in-url-query": "&#",
          "url-in-query": "&#"}
#: R17: where a shortDOI's code ends: before no name character (a final "." ends a sentence).
_SHORT_END = r"(?![0-9A-Za-z/_-]|\.[0-9A-Za-z/_-]|:/)"  # (not a scheme: doi.org/https://)
#: R17: a shortDOI after a doi.org link or a doi: label (``doi:10/abcde``,
#: ``https://doi.org/10/abcde``), or a doi.org link to its code alone
#: (``https://doi.org/abcde``, where shortDOIs resolve: specs README).
_SHORT_RE = re.compile(
    r"(?<![A-Za-z0-9.])(?:(?:https?://)?(?:dx\.|www\.)?doi\.org/10/|doi[:：][ \t]*10/"
    r"|(?<![/.])(?:https?://)?(?:dx\.)?doi\.org/(?=[0-9A-Za-z]+" + _SHORT_END + "))"
    r"(?P<code>[0-9A-Za-z]+)" + _SHORT_END, re.IGNORECASE | re.ASCII)
#: R17: a code right after a doi.org link's ``doi.org/`` (the third way of ``_SHORT_RE``).
_SHORT_CODE_RE = re.compile(r"[0-9A-Za-z]+" + _SHORT_END, re.ASCII)
#: R17: a shortDOI that is the whole text.
_SHORT_ALONE_RE = re.compile(r"\s*10/(?P<code>[0-9A-Za-z]+)\s*", re.ASCII)
#: R18's word (and R6's label), any case: where a labelled name may be.
DOI_WORD = re.compile("doi", re.IGNORECASE)
#: R17: a doi.org link, where a shortDOI may be written without its 10/.
_DOI_ORG = "doi.org/"
_start = attrgetter("start")  # (what found is sorted by)
#: R18: a label or a doi.org link before something that starts with a digit (found from
#: the literal "doi", so the search is fast; what comes before it is checked in Python).
_LABELLED = r"doi(?:(?P<link>\.org/)|[:：][ \t]*|[ \t]+)(?P<tok>[0-9][^\s\"'`<>()\[\]{}|,;“”]*)"
_LABELLED_RE = re.compile(_LABELLED, re.IGNORECASE)
#: The same, for ASCII text in lower case (the same places, found from the literal
#: "doi": without IGNORECASE, which tries every character, and which lets "i" match "ı"
#: and "İ", so that text outside ASCII is searched by ``_LABELLED_RE``).
_LABELLED_LOW = re.compile(_LABELLED)
_LINK_HEAD = re.compile(r"(?:https?://)?(?:dx\.|www\.)?$", re.IGNORECASE | re.ASCII)


def _anchors(t: Text) -> list[Found]:
    """R4-R14, R19, R20 for every anchor, in order."""
    s = t.text
    n = len(s)
    found: list[Found] = []
    pos = 0
    barrier = 0  # the look-back never crosses this (previous anchor or match end)
    first: Scanned | None = None  # what the first match was read from
    glued = has_spaceless(s)  # (R8: a name may end where such text is written against it)
    find = s.find
    while True:
        a = find("10.", pos)
        if a < 0:
            break
        pos = a + 1
        boundary = r5_left_boundary(s, a, t)
        if boundary is None:
            continue
        m = _PREFIX_RE.match(s, a)
        if m is None:
            if a + 3 < n and s[a + 3].isspace():  # R21: "doi:10." + break + "1038/..."
                start, kind = r6_context(s, a, max(barrier, a - LOOKBACK), boundary)
                cut = r21_read_prefix_cut(t, start, kind, a) if start < a else None
                if cut is not None:
                    found.append(cut)
                    pos = barrier = cut.end
            continue
        p = m.end()
        if p >= n:
            break
        c = s[p]
        if c == "/":
            sep_end = p + 1
        elif c == "%" and s[p + 1:p + 3].translate(LOWER) == "2f":
            sep_end = p + 3
        elif c == ":" and a >= 8 and s[a - 8:a].translate(LOWER) == "urn:doi:":
            sep_end = p + 1
        else:
            pos = p
            continue
        if sep_end >= n:
            break
        start, kind = r6_context(s, a, max(barrier, a - LOOKBACK), boundary)
        barrier = a
        doubt = r7_plausible_bare(s, a, p, sep_end, n) if kind in (
            "name", "in-url-path", "in-url-preprint", "in-url-query") else ""
        if doubt == "address" or (doubt and kind != "name"):
            continue
        stops = _STOPS.get(kind, "")
        if kind == "url-in-query":
            kind = "url"
        if start > 0 and s[start - 1] == "'":
            stops += "'"
        text_end = scan_suffix(s, sep_end, n, stops)
        raw_end = r8_glued(s, sep_end, text_end) if glued else text_end
        if doubt and not alone_on_line(s, start, raw_end):
            continue  # R7: a number in running text; alone on its line it is read as a name
        end13 = r13_trailing(s, sep_end, raw_end)
        end = r19_viewer_tail(s, sep_end, r20_debris(s, sep_end, end13))
        if kind == "in-url-path":
            end = r19_file_tail(s, sep_end, end)
        elif kind == "in-url-preprint" and p - a == len(PREPRINT_PREFIX) \
                and s.startswith(PREPRINT_PREFIX, a):
            end = r19_preprint_tail(s, sep_end, end)
        sc = Scanned(start, a, p, sep_end, end, end13, raw_end, kind, text_end)
        if end <= sep_end:
            # no suffix: a match only when a line break or a space cut the name right
            # after its "/" (R21: the name read joined); else R18 may find the label
            if raw_end != sep_end or doubt or not s[sep_end].isspace():
                continue
            f = make_match(t, sc)
            if not f.match.ok:
                continue
            found.append(f)
            pos = barrier = f.end
            continue
        if first is not None and len(found) == 1 and r15_repeats(t, found[0], first, sc):
            # the link's text repeats the link: R15 reports it once, as the match before
            # it, so it is not read again (only its place is told: start, end)
            f = Found(found[0].match, start, end, True)
        else:
            f = make_match(t, sc)
            if not found:
                first = sc
        if doubt and f.match.ok:
            f.match = dataclasses.replace(f.match, findings=(*f.match.findings, Finding(
                "looks-like-a-number", "warning",
                f"“{f.match.text}” looks like a number (a score, a ratio, a price); it is read "
                "as a DOI name because it is all its line holds.",
                f.match.start, f.match.end, f.match.start, f.match.end, in_name=False,
                source="extract R7")))
        found.append(f)
        pos = barrier = f.end
    return found


def r15_repeats(t: Text, prev: Found, read: Scanned, sc: Scanned) -> bool:
    """R15: whether :func:`~.merge.r15_merge` certainly merges the match found at ``sc``
    into ``prev``, the first match of the text, read from ``read`` as scanned: the same
    text read the same way (same kind, the anchor at the same place, nothing cleaned),
    so the same name; ``prev`` readable; only markup between them, holding no ``doi``
    (what R17 and R18 find starts with it: nothing between the two); and nothing
    that :func:`~.make.make_match` moves (a match read in another site's link, dots
    kept). The match at ``sc`` then needs no reading of its own: R15 tells only its
    place."""
    s = t.text
    m = prev.match
    width = read.end - read.start
    return (not t.edits and sc.kind == read.kind and sc.end - sc.start == width
            and sc.a - sc.start == read.a - read.start and m.kind == "doi" and m.ok
            and prev.start == read.start and prev.end == read.end
            and sc.end13 + 1 >= sc.raw_end
            and 0 <= sc.start - prev.end <= MAX_GAP
            and s.startswith(s[read.start:read.end], sc.start)
            and MARKUP_GAP.fullmatch(s, prev.end, sc.start) is not None
            and DOI_WORD.search(s, prev.end, sc.start) is None)


def _free(found: list[Found], a: int, b: int) -> bool:
    """Whether ``[a, b)`` overlaps none of ``found`` (sorted by start, not overlapping)."""
    i = bisect_right(found, a, key=lambda f: f.start)
    if i > 0 and found[i - 1].end > a:
        return False
    return i >= len(found) or found[i].start >= b


def r17_short_dois(t: Text, found: list[Found]) -> list[Found]:
    """R17: shortDOIs (``10/abcde``) after a doi.org link or a label, or alone."""
    s = t.text
    out: list[Found] = []
    if not _maybe_short(s):
        return out
    hits = list(_SHORT_RE.finditer(s))
    alone = _SHORT_ALONE_RE.fullmatch(s) if not hits else None
    for m in [*hits, *([alone] if alone is not None else [])]:
        a = m.start() if m.re is _SHORT_RE else m.start("code") - 3
        b = m.end("code")
        if not is_short_doi_code(m["code"]) or not _free(found, a, b):
            continue
        o0, o1 = t.span(a, b)
        doi = Doi("10", m["code"])
        out.append(Found(Match(doi, o0, o1, t.original[o0:o1], (), "short-doi", "short-doi",
                               short=str(doi)), a, b))
    return out


def _maybe_short(s: str) -> bool:
    """Whether R17 may find a shortDOI in ``s``: a ``10/``, or a ``doi.org/`` (any case)
    followed by a code that ends there (``_SHORT_RE`` finds nothing else)."""
    if "10/" in s:
        return True
    low = s if s.islower() else s.lower() if s.isascii() else s.translate(LOWER)
    i = low.find(_DOI_ORG)
    while i != -1:
        if _SHORT_CODE_RE.match(s, i + len(_DOI_ORG)) is not None:
            return True
        i = low.find(_DOI_ORG, i + 1)
    return False


def r18_labelled(t: Text, found: list[Found]) -> list[Found]:
    """R18: a label or a doi.org link followed by something that is not a DOI name."""
    s = t.text
    out: list[Found] = []
    if s.isascii():  # none when every "doi" starts inside a match (in order, none
        low, lo = s.lower(), 0  # overlapping): what follows it is in the match (skipped
        for f in found:  # below), or the span from it overlaps the match (not free)
            if low.find("doi", lo, f.start + 2) != -1:  # (a "doi" before f)
                break
            lo = f.end
        else:
            if low.find("doi", lo) == -1:
                return out
        hits = _LABELLED_LOW.finditer(low)
    else:
        hits = _LABELLED_RE.finditer(s)
    starts = [f.start for f in found]
    for m in hits:
        a, tok = m.start(), m.start("tok")
        i = bisect_right(starts, tok) - 1
        if i >= 0 and found[i].end > tok:
            continue  # the token starts inside a match: [a, b) is never free of it
        if m["link"]:
            head = _LINK_HEAD.search(s, max(0, a - 12), a)
            a = head.start() if head is not None else a
        if a > 0 and s[a - 1].isascii() and s[a - 1].isalnum():
            continue
        # R13 trims the suffix, as for every match: after the first "/" when there is one
        # (the "/" of "doi:10.1000/" + a line break is the prefix's: the suffix is missing)
        end = m.end("tok")
        slash = s.find("/", tok, end)
        b = r13_trailing(s, tok if slash == -1 else slash + 1, end)
        if b <= tok or not _free(found, a, b):
            continue
        base = a if m["link"] else tok
        try:
            read(s[base:b])
            continue  # readable after all: the anchor scan had a reason to skip it
        except DoiError as err:
            error = err
        written = s[tok:b]
        slash = written.find("/")
        doi = Doi(written, "") if slash == -1 else Doi(written[:slash], written[slash + 1:])
        o0, o1 = t.span(a, b)
        if error.position is not None:
            stop = error.end if error.end is not None else error.position + 1
            e0, e1 = t.span(base + error.position, base + max(stop, error.position + 1))
            message = error.moved(e0, e1).message
        else:
            e0, e1, message = o0, o1, error.message
        finding = Finding(error.code, "error", message, e0, e1, e0, e1, in_name=False,
                          source=f"{error.source}; extract R18" if error.source else
                          "extract R18")
        form = "url" if m["link"] else "label"
        out.append(Found(Match(doi, o0, o1, t.original[o0:o1], (finding,), form), a, b))
    return out


def scan(text: str, clean: bool) -> list[Match]:
    """The scanner proper (R1-R21), without :func:`~doiname.extract`'s one-line fast path."""
    t = Text(text, clean)
    found = _anchors(t)  # (in order, not overlapping)
    extra = r17_short_dois(t, found)
    if has_doi_word(t.text):
        extra += r18_labelled(t, sorted([*found, *extra], key=_start) if extra else found)
    if extra:
        found = sorted([*found, *extra], key=_start)
    if len(found) < 2:
        return [f.match for f in found]
    return r15_merge(t, found)


def has_doi_word(s: str) -> bool:
    """Whether :data:`DOI_WORD` is found in ``s`` (R18's word, any case): in ASCII text,
    ``doi`` in its lower case (IGNORECASE tries the pattern at every character)."""
    if s.isascii():
        return "doi" in s.lower()
    return DOI_WORD.search(s) is not None
