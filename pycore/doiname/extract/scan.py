"""Rules R4-R7, R17, R18: where DOI names start, and the scanner that ties the rules together.

One pass with ``str.find`` between anchors (R4); the look-back (R6) is bounded and never
crosses the previous anchor or match; each suffix character is visited once by
:func:`~.ends.scan_suffix`. Then shortDOIs (R17) and labelled names that cannot be read
(R18) are found by two linear regular expressions, and R15 merges link text into its
link. Time and memory are linear in the length of the text.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from bisect import bisect_right
from operator import attrgetter

from ..errors import DoiError
from ..forms import DOI_LINK_HEADS
from ..model import Doi, Finding
from ..syntax import is_short_doi_code, read
from .breaks import r21_read_prefix_cut
from .clean import Text
from .ends import (
    PREPRINT_PATHS,
    PREPRINT_PREFIX,
    has_spaceless,
    r8_glued,
    r13_trailing,
    r19_preprint_tail,
    r19_viewer_tail,
    r20_debris,
    scan_suffix,
    spaceless,
)
from .make import Scanned, alone_on_line, make_match
from .merge import MARKUP_GAP, MAX_GAP, r15_merge
from .model import Found, Match

__all__ = ["DOI_WORD", "LOWER", "has_doi_word", "r5_left_boundary", "r6_context",
           "r7_plausible_bare", "scan"]

#: R4: the prefix (ASCII digits only).
_PREFIX_RE = re.compile(r"10\.[0-9]+(?:\.[0-9]+)*")
#: R5: a prefix of four or more digits and its "/", which may follow a page number and a
#: "-" (BioMed Central's references: ``BMC Genomics. 2013, 14: 564-10.1186/...``).
_PAGES_DOI = re.compile(r"10\.[0-9]{4,9}/")
_LOOKBACK = 400
_LABEL_SPACE = frozenset(" \t\u00a0")
#: R6: characters that end the token looked back over (matched on reversed text).
_TOKEN_END = "\"'`<>()[]{}|,;*“”„«»‹›‘’‚"  # (and white space)
_TOKEN_BACK_RE = re.compile("[^\\s" + "".join(map(re.escape, _TOKEN_END)) + "]*")
_TOKEN_ENDS = frozenset(_TOKEN_END)
#: R6: a doi.org link's head (in lower case) and its length: a token that is one of them
#: alone is a link read as a whole, what the look-back below finds for it.
_HEADS = tuple((head, len(head)) for head in DOI_LINK_HEADS)
#: R6: a token holding one of these is a link whose path is read as a whole.
_URL_MARKERS = ("doi.org", "doi-org.", "handle.net", "handle-net.", "doi.acm.org",
                "ieeecomputersociety.org", "dx.plos.org", "doi.wiley.com",
                "test.datacite.org")
_HOST_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789.-")
#: R6: where a name inside another site's link stops (its query, its fragment).
_STOPS = {"in-url-path": "?#", "in-url-preprint": "?#", "in-url-query": "&#",
          "url-in-query": "&#"}
#: ASCII letters to lower case only (what the rules compare without case). On a hot path
#: ``x.lower() == w and x.isascii()`` says ``x.translate(LOWER) == w`` of an ASCII ``w``, sooner.
LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
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
_MARKERS_RE = re.compile("|".join(re.escape(mk) for mk in _URL_MARKERS))


def r5_left_boundary(s: str, a: int, t: Text) -> bool | None:
    """R5: may a name start at ``a``? ``None``: no; ``True``: yes, after a glued ``doi``."""
    if a == 0:
        return False
    prev = s[a - 1]
    if not (prev.isalnum() or prev in "._-+" or unicodedata.category(prev) == "Sc"):
        return False
    if spaceless(prev):  # text with no space between words: 詳細は10.1000/182
        return False
    if prev == "-" and a >= 2 and s[a - 2].isdigit() and _PAGES_DOI.match(s, a) is not None:
        k = a - 2  # a reference's pages, then its DOI: "14: 564-10.1186/1471-2164-14-564"
        while k > 0 and a - k < 12 and s[k - 1].isdigit():
            k -= 1
        if k == 0 or not (s[k - 1].isalnum() or s[k - 1] in "._-+"):
            return False  # (a page number: a word of digits, not "v2-" or "1.2-")
    if a >= 3 and s[a - 3] == "%" and s[a - 2:a].translate(LOWER) in ("2f", "3a"):
        return False
    if t.dropped_before(a):
        return False
    if (a >= 3 and s[a - 3:a].lower() == "doi" and s[a - 3:a].isascii()
            and (a == 3 or not s[a - 4].isalnum())):
        return True
    return None


def r7_plausible_bare(s: str, a: int, p: int, sep_end: int, n: int) -> str:
    """R7: does a bare ``10.x/y`` look like a DOI, not a number or an address?

    Returns ``""`` (it does), ``"address"`` (a dotted IPv4 address or CIDR block: never a
    name) or ``"number"`` (a score, a ratio, a price: a name only when it is all its line
    holds). The whole registrant is judged (002 §4.2 lets it hold dot-separated groups:
    ``10.978.8898392/315`` is an ISBN-A): fewer than four digits in all needs a suffix
    whose first run holds a letter and a digit."""
    groups = s[a + 3:p].split(".")
    if len(groups) == 3 and all(len(g) <= 3 for g in groups):
        return "address"  # 10.a.b.c: an IPv4 address or a CIDR block
    if len(groups[0]) < 2:
        return "number"
    if p - a - 3 - (len(groups) - 1) < 4:  # (the digits of the groups: all but the dots)
        i = sep_end
        digit = letter = False
        while i < n and s[i].isascii() and (s[i].isalnum() or s[i] in "._-"):
            digit = digit or s[i].isdigit()
            letter = letter or s[i].isalpha()
            i += 1
        if not (digit and letter):
            return "number"
    return ""


def _word_start(s: str, i: int) -> bool:
    return i == 0 or not s[i - 1].isalnum()


def r6_context(s: str, a: int, lo: int, glued: bool) -> tuple[int, str]:
    """R6: look back from the anchor ``a`` (not before ``lo``) for a label or a link."""
    if glued:
        return a - 3, "label"
    k = a
    while k > lo and a - k < 8 and s[k - 1] in _LABEL_SPACE:
        k -= 1
    if k < a:  # a label separated by spaces: "doi: 10..." or "DOI 10..."
        if (k - 4 >= lo and s[k - 1] in ":：" and s[k - 4:k - 1].lower() == "doi"
                and s[k - 4:k - 1].isascii() and _word_start(s, k - 4)):
            return k - 4, "label"
        if (k - 3 >= lo and s[k - 3:k].lower() == "doi" and s[k - 3:k].isascii()
                and _word_start(s, k - 3)):
            return k - 3, "label"
        return a, "name"
    if a == lo or s[a - 1] in _TOKEN_ENDS or s[a - 1].isspace():
        return a, "name"  # no token before the anchor (what the look-back below finds)
    if s[a - 1] == "/":
        for head, size in _HEADS:  # the commonest token: a doi.org link's head alone
            h = a - size
            if h >= lo and s.startswith(head, h) and (
                    h == lo or s[h - 1].isspace() or s[h - 1] in _TOKEN_ENDS):
                return h, "url"
    elif (s[a - 1] == ":" and a - 4 >= lo and s[a - 4:a - 1].lower() == "doi"  # the token
          and s[a - 4:a - 1].isascii() and _word_start(s, a - 4)  # "doi:" alone, as below
          and (a - 4 == lo or s[a - 5].isspace() or s[a - 5] in _TOKEN_ENDS)):
        return a - 4, "doi-uri"
    back = _TOKEN_BACK_RE.match(s[lo:a][::-1])
    t = a - (back.end() if back is not None else 0)
    if t == a:
        return a, "name"
    tok = s[t:a].lower() if s[t:a].isascii() else s[t:a].translate(LOWER)
    marker = _MARKERS_RE.search(tok) if "." in tok or "-" in tok else None
    at = marker.start() if marker is not None else -1
    if at >= 0:
        h = tok.find("http")
        if h == -1 or h > at:
            h = at
            while h > 0 and tok[h - 1] in _HOST_CHARS:
                h -= 1
            return t + h, "url"
        inner = tok.rfind("http", 0, at)
        if inner > h and "login" not in tok[h:inner]:
            # a doi.org link inside another site's query (a search or redirect link):
            # it ends where that query's parameter ends
            return t + inner, "url-in-query"
        return t + h, "url"
    for label, kind in (("urn:doi:", "urn"), ("info:doi/", "info-uri"), ("hdl:", "hdl-uri")):
        if tok.endswith(label):
            return a - len(label), kind
    if tok.endswith("doi:") and _word_start(s, a - 4):
        return a - 4, "doi-uri"  # no space: a doi: URI, read by the 003 rules
    if tok.endswith("doi："):
        return a - 4, "label"
    if "://" in tok or tok.startswith("www."):
        if "?" in tok:
            return a, "in-url-query"
        return a, "in-url-preprint" if tok.endswith(PREPRINT_PATHS) else "in-url-path"
    return a, "name"


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
                start, kind = r6_context(s, a, max(barrier, a - _LOOKBACK), boundary)
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
        start, kind = r6_context(s, a, max(barrier, a - _LOOKBACK), boundary)
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
        if kind == "in-url-preprint" and p - a == len(PREPRINT_PREFIX) \
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
        b = r13_trailing(s, tok, m.end("tok"))
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
