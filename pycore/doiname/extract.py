"""Finding DOI names in running text: :func:`extract` (issue 5).

Reference lists, spreadsheets, BibTeX/RIS exports, JSON and HTML all go through one
hand-written scanner. It is not one big regular expression: it looks for anchors, reads
the prefix, looks back a bounded distance for a label or a link, then walks forward over
the suffix character by character, deciding at each special character whether the name
goes on. Every match is then read by the core reader (:func:`doiname.read` /
:func:`doiname.parse`), so percent-decoding and validation follow exactly the same rules
as everywhere else. Positions (``Match.start``/``end`` and the positions of findings) are
character (code point) offsets into the original text given to :func:`extract`.

Rules, with where they come from
--------------------------------
Before scanning (each change inside a match is reported as a finding):

* R1. Invisible characters U+200B, U+200C, U+200D, U+2060, U+FEFF and the soft hyphen
  U+00AD are dropped (finding ``zero-width-dropped``, warning). They are not Unicode
  Graphic, so they cannot be part of a DOI name (003 ch. 2, 002 section 4.1); pasted
  names carry them by accident (issue 5).
  The HTML line-break hint ``<wbr>`` (publishers put it inside long names) is dropped
  too (finding ``wbr-dropped``, info).
* R2. HTML character references are unescaped: ``&lt;`` ``&gt;`` ``&amp;`` ``&quot;``,
  every HTML5 named reference written with its ``;``, and numeric ``&#NNN;`` /
  ``&#xHH;`` (finding ``html-entity``, info). Text copied from page sources holds SICI
  names as ``49:8&lt;693::AID-ASI4&gt;3.0.CO;2-O`` (issue 5). ``&nbsp;`` becomes a
  space and so ends a name.
* R3. The backslash escapes ``\\/`` (JSON) and ``\\_ \\& \\% \\# \\$`` (LaTeX, as BibTeX
  exports write them) stand for the character after the backslash (finding
  ``backslash-escape``, info).

Where a DOI starts:

* R4. The anchor is ``10.`` followed by digit groups (``10.1000``, ``10.1000.10``, and
  two-digit registrants such as ``10.21``: 002 section 4 and appendix A) and then the
  prefix/suffix separator: ``/``; ``%2F`` (an encoded slash, read by the 001 web-form
  rule); or ``:`` right after ``urn:doi:`` (the URN form of 000).
* R5. The character before ``10.`` must not be a letter, digit, ``.``, ``-``, ``_``,
  ``+`` or a currency sign (``$10.99/month``): ``110.5/x``, ``v2.10.1/x``,
  ``192.168.10.1/24`` and ``ISBN-10.1/x`` are not anchors. Exceptions: ``%2F``/``%3A``
  before it (an encoded link), an invisible character dropped by R1 before it, and a
  glued label ``doi10.1000/...`` (PDF text).
* R6. Looking back (at most 400 characters, never into the previous match) from the
  anchor decides the form, and the match then starts at the form's start:

  - a doi.org link: the token before the anchor contains ``doi.org``, ``doi-org.``
    (EZproxy host, specs README), ``handle.net`` or ``hdl-handle-net.``; the match
    starts at its ``http`` (or at the host when there is no scheme) and covers
    EZproxy ``login?url=`` / ``qurl=`` wrappers too. The whole link is read by
    :func:`doiname.read`, which decodes ``%``-escapes once (001, 003 ch. 3) and notes a
    query or fragment it did not read (000: a browser stops at ``?`` and ``#``);
  - ``urn:doi:``, ``info:doi/``, ``hdl:`` before the anchor (000, RFC 4452);
  - a ``doi:`` / ``DOI:`` label, with optional spaces (003 ch. 2), or ``DOI`` and a
    space, or a glued ``doi`` (R5): the label is part of the match, the name after it
    is read as a bare name (so a ``#`` in ``doi:10.1000/456#789`` is kept, as people
    mean it in running text, instead of being rejected as a URI fragment);
    A doi.org link inside another site's query (``scholar?q=https://doi.org/...``) starts
    at its own ``http`` and ends at ``&`` or ``#``, like the query parameter it is in;
    one that the reader does not accept as a link (``www.doi.org.example.com``) is read
    as a name inside another site's link (below);
  - another link (``://`` or ``www.`` in the token): only the name is matched; it ends
    at ``?`` and ``#`` when it sits in the path and at ``&`` and ``#`` when it sits in
    the query (``...article?id=10.1371/journal.pone.0123456&type=printable``);
  - otherwise a bare name.
* R7. Bare names (no label, no doi.org link) must look like DOIs, not numbers: the
  first registrant group has at least two digits (``10.5/20`` is a score), the prefix
  is not a dotted IPv4 address (``10.10.10.10/24``), and a registrant under four digits
  needs a suffix whose first run of ASCII letters, digits and ``._-`` holds both a
  letter and a digit (``10.25/100 mg`` is a ratio and ``10.99/month`` a price, while
  ``10.21/2V9FYC24`` is a name). ``10.5 percent``, version numbers, decimals, IP
  addresses, ISBNs (``978-3-16-148410-0``) and ``10.1000`` without a suffix have no
  separator and are never anchors (R4). With a label or a doi.org link any prefix of
  002 is accepted.

Where a DOI ends (002 section 4.3 lets the suffix hold any Graphic character, so these
rules decide between the name and the text around it):

* R8. Whitespace (any Unicode space, line breaks, ``&nbsp;``) and control characters
  end it. A name broken over two lines (hyphenation, wrapped PDFs) is *not* joined; when
  a name ends with ``-`` right before a line break, the finding ``line-break`` (warning)
  says it may continue on the next line.
* R9. ``"``, the backtick and typographic quotes (``“ ” „ « » ‹ › ‘ ’ ‚``) end it. ``'``
  ends it when the match itself was opened by ``'`` (``href='...'``); otherwise it is
  kept and only dropped when trailing (R13).
* R10. Brackets ``( ) [ ] { } < >`` are balanced on a stack: an opening one is kept; a
  closing one is kept only when it closes one opened inside the name, otherwise it ends
  the name (``10.3319/TAO.2009.05.25.02(IWNOP)`` keeps its ``)``,
  ``(see 10.1000/182)`` does not; ``{10.1000/182}`` in BibTeX; issue 5). So SICI
  names keep ``<693::AID-ASI4>``.
* R11. ``<`` ends the name when what follows looks like an HTML tag: ``</``, ``<!``,
  ``<?``, or ASCII letters followed by a space, ``/`` or ``>`` (``</a>``, ``<br>``,
  ``<br/>``, ``<span class=...>``). SICI ``<693::`` and ``<::AID-...>`` do not.
* R12. Outside brackets, ``,`` ends the name (CSV cells: ``10.1000/182,Title``) and
  ``;`` ends it unless a digit follows (SICI ``3.0.CO;2-O`` keeps its ``;``); a ``,``
  or ``;`` followed by another ``10.<digit>`` always ends it (``10.1/a;10.1/b``).
  A name with a ``,`` outside brackets must be written ``%2C`` to be found whole.
* R13. Trailing sentence punctuation ``. , ; : ! ? '`` and Markdown's ``*`` are left out
  (finding ``trailing-punctuation``, info), as are trailing invisible format characters
  such as U+200E LEFT-TO-RIGHT MARK (issue 5). Dots inside the suffix stay
  (``10.1000/abc.def.``: the name is ``10.1000/abc.def``).
* R14. A closing bracket that ends a name (R10) is reported (``unbalanced-closer``, info),
  unless the match is simply wrapped in that pair (``{10.1000/182}``, ``(https://...)``).

After scanning:

* R15. In HTML and Markdown a link often shows its DOI twice, in ``href="..."`` and as
  the link text (``<a href="https://doi.org/X">X</a>``, ``[X](https://doi.org/X)``).
  When two neighbouring matches are equivalent (003 ch. 3) and only markup lies between
  them (a tag end ``">``, further tags, spaces, or Markdown's ``](``), one match is
  kept: the link form (else the longer one), with the finding ``duplicate-link-text``.
* R16. A match the core reader rejects (a ``%`` without two hex digits, a bidi control
  in the middle, ...) is still returned, so nothing found is lost: ``doi`` then holds the
  raw prefix and suffix as scanned and ``findings`` holds the reader's error (severity
  ``error``, same ``code`` as :class:`~doiname.errors.DoiError`). ``Match.ok`` is
  ``False`` for such matches.

Cost: one pass with ``str.find`` between anchors; the look-back is bounded and never
crosses the previous anchor or match; each suffix character is visited once (the bracket
stack is a list); the merging of R15 looks at a bounded gap. Time and memory are linear
in the length of the text (tested by counting executed lines on pathological inputs).
"""

from __future__ import annotations

import html
import re
import unicodedata
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Any

from .equivalence import equivalence_key
from .errors import DoiError
from .jsonable import to_jsonable
from .model import Doi, Finding
from .syntax import char_label, parse, read

__all__ = ["Match", "extract"]

_SOURCE = "issue 5 (extract)"

# R1: invisible characters dropped before scanning.
_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
_INVISIBLE_SET = frozenset(_INVISIBLE)
# R1-R3: everything the cleaning pass may change. Bounded quantifiers only (linear).
_EDIT_RE = re.compile(
    "[" + _INVISIBLE + "]"
    r"|&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"
    r"|\\[/_&%#$]"
    r"|<[wW][bB][rR]\s{0,8}/?>"
)
# R4: the prefix (ASCII digits only).
_PREFIX_RE = re.compile(r"10\.[0-9]+(?:\.[0-9]+)*")
# Fast path for the commonest line of a list: one bare name with a 4+ digit registrant,
# or one plain doi.org link, made only of characters no rule decides on and not ending
# in a dot. It gives exactly what the scanner gives (tested), only sooner.
_FAST_LINE_RE = re.compile(
    r"[ \t]*(?P<m>(?P<u>https?://(?:dx\.)?doi\.org/)?(?P<p>10\.[0-9]{4,9})/"
    r"(?P<s>[A-Za-z0-9_/\-]+(?:\.[A-Za-z0-9_/\-]+)*))[ \t]*"
)
# The common run of suffix characters that need no decision.
_PLAIN_RE = re.compile(r"[A-Za-z0-9._/\-]*")
# R15: only markup between an href and its link text (bounded gap, linear pattern).
_MARKUP_GAP_RE = re.compile(
    r"""["']?(?:\s[^<>]*)?>(?:\s*<[^<>]*>)*\s*|\]\(|\s*(?:<[^<>]*>\s*)+""", re.ASCII
)
_MAX_GAP = 2048
_LOOKBACK = 400

_OPENER = {")": "(", "]": "[", "}": "{", ">": "<"}
_QUOTES = frozenset('"`“”„‟«»‹›‘’‚‛')  # R9
_TRAILING = frozenset(".,;:!?'*")  # R13
# R6: characters that end the token looked back over.
_TOKEN_BACK_RE = re.compile(r"[^\s\"'`<>()\[\]{}|,;*“”„«»‹›‘’‚]*")  # matched on reversed text
_LABEL_SPACE = frozenset(" \t\u00a0")
_URL_MARKERS = ("doi.org", "doi-org.", "handle.net", "handle-net.")
_HOST_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789.-")
_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_TAG_END = frozenset(" \t\r\n\f/>")
_LINK_FORMS = frozenset({"url", "urn-url", "api-url", "proxy-url", "proxy-login"})
_ESCAPE_NAMES = {"/": "JSON", "_": "LaTeX", "&": "LaTeX", "%": "LaTeX", "#": "LaTeX",
                 "$": "LaTeX"}


@dataclass(frozen=True, slots=True)
class Match:
    """One DOI name found in a text by :func:`extract` (issue 5).

    ``start``/``end`` delimit what the match covers in the original text, label or link
    included (``doi:10.1000/182``, ``https://doi.org/10.1000/182``); ``text`` is
    ``original[start:end]``. ``doi`` is the name as read by the core reader; when the
    reader rejected it (``ok`` is ``False``), it holds the raw prefix and suffix and
    ``findings`` holds the error (rule R16 of the module). ``form`` says how the name was
    written: ``name``, ``label`` (``DOI 10...``), ``doi-uri`` (``doi:``), ``urn``,
    ``info-uri``, ``hdl-uri``, ``url``, ``urn-url``, ``api-url``, ``proxy-url``,
    ``proxy-login`` or ``in-url`` (inside another site's link). Findings are positioned
    in the original text (``in_name`` is ``False``).
    """

    doi: Doi
    start: int
    end: int
    text: str
    findings: tuple[Finding, ...] = ()
    form: str = "name"

    @property
    def ok(self) -> bool:
        """Whether the name passed the core reader (no finding of severity ``error``)."""
        return all(f.severity != "error" for f in self.findings)

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON data: the fields (``doi`` as ``{prefix, suffix, name}``) and ``ok``."""
        data: dict[str, Any] = to_jsonable(self)
        data["ok"] = self.ok
        return data


# --------------------------------------------------------------------------- cleaning


@dataclass(frozen=True, slots=True)
class _Edit:
    at: int  # index in the cleaned text where the replacement starts
    size: int  # length of the replacement (0: dropped)
    start: int  # span of the original text it replaces
    end: int
    kind: str  # "invisible" | "entity" | "escape" | "wbr"
    source: str
    value: str


_NONE: list[Any] = []  # shared by every text without edits, never mutated
_ZERO = [0]


class _Text:
    """The text the scanner walks (R1-R3 applied) and the map back to the original."""

    __slots__ = ("ats", "edits", "keys", "original", "shift", "text")
    original: str
    text: str
    edits: list[_Edit]
    ats: list[int]
    keys: list[int]
    shift: list[int]

    def __init__(self, original: str, clean: bool = True) -> None:
        self.original = original
        if not clean:
            self.text = original
            self.edits = self.ats = self.keys = _NONE
            self.shift = _ZERO
            return
        edits: list[_Edit] = []
        pieces: list[str] = []
        last = 0
        out = 0
        if True:
            for m in _EDIT_RE.finditer(original):
                src = m[0]
                if src[0] == "&":
                    value = html.unescape(src)
                    if value == src:
                        continue
                    kind = "invisible" if all(c in _INVISIBLE_SET for c in value) else "entity"
                    if kind == "invisible":
                        value = ""
                elif src[0] == "\\":
                    value, kind = src[1], "escape"
                elif src[0] == "<":
                    value, kind = "", "wbr"
                else:
                    value, kind = "", "invisible"
                pieces.append(original[last:m.start()])
                out += m.start() - last
                edits.append(_Edit(out, len(value), m.start(), m.end(), kind, src, value))
                pieces.append(value)
                out += len(value)
                last = m.end()
        if edits:
            pieces.append(original[last:])
            self.text = "".join(pieces)
        else:
            self.text = original
        self.edits = edits
        self.ats = [e.at for e in edits]
        self.keys = [e.at + e.size for e in edits]
        shift = [0]
        for e in edits:
            shift.append(shift[-1] + (e.end - e.start) - e.size)
        self.shift = shift

    def char_start(self, k: int) -> int:
        """Original offset where cleaned character ``k`` (or the end, ``k == len``) starts."""
        if not self.edits:
            return k
        i = bisect_right(self.keys, k)
        if i < len(self.edits) and self.edits[i].at <= k:
            return self.edits[i].start
        return k + self.shift[i]

    def char_end(self, k: int) -> int:
        """Original offset just after cleaned character ``k``."""
        if not self.edits:
            return k + 1
        i = bisect_right(self.keys, k)
        if i < len(self.edits) and self.edits[i].at <= k:
            return self.edits[i].end
        return k + self.shift[i] + 1

    def span(self, a: int, b: int) -> tuple[int, int]:
        """Map the cleaned span ``[a, b)`` to the original text."""
        if b <= a:
            at = self.char_start(a)
            return at, at
        return self.char_start(a), self.char_end(b - 1)

    def dropped_before(self, k: int) -> bool:
        """Whether an invisible character was dropped right before cleaned index ``k``."""
        i = bisect_left(self.ats, k)
        while i < len(self.edits) and self.edits[i].at == k:
            if self.edits[i].size == 0:
                return True
            i += 1
        return False

    def edits_in(self, a: int, b: int) -> list[_Edit]:
        """Edits strictly inside the cleaned span ``[a, b)`` (drops at its edges excluded)."""
        lo = bisect_left(self.ats, a)
        hi = bisect_left(self.ats, b)
        return [e for e in self.edits[lo:hi] if e.size or e.at > a]


def _needs_cleaning(text: str) -> bool:
    if "&" in text or "\\" in text or "<w" in text or "<W" in text:
        return True
    if text.isascii():
        return False
    return any(c in text for c in _INVISIBLE)


# ----------------------------------------------------------------------------- scanner


@dataclass(slots=True)
class _Found:
    """A match in cleaned coordinates, before merging (R15)."""

    match: Match
    start: int
    end: int


def extract(text: str) -> list[Match]:
    """Find every DOI name in ``text``, in order, without overlaps (issue 5).

    Reads bare names, ``doi:``/``DOI`` labels, ``urn:doi:``, ``info:doi/``, ``hdl:``,
    doi.org / dx.doi.org / hdl.handle.net links, EZproxy hosts and ``login?url=`` /
    ``qurl=`` wrappers, SICI names with ``< > ; : #``, and names inside other sites'
    links. The rules (R1-R16) and the specs they come from are listed in the module
    docstring; every found name is read by :func:`doiname.read` (002 section 4,
    001, 003 ch. 2-3, 000). Positions are code-point offsets into ``text``. Never raises
    for a ``str``; runs in time linear in ``len(text)``.
    """
    if not isinstance(text, str):
        raise TypeError(f"extract() takes a str, not {type(text).__name__}")
    clean = _needs_cleaning(text)
    if not clean:
        if "10." not in text:
            return []
        fast = _FAST_LINE_RE.fullmatch(text)
        if fast is not None:
            start, end = fast.span("m")
            return [Match(Doi(fast["p"], fast["s"]), start, end, fast["m"], (),
                          "url" if fast["u"] else "name")]
    return _scan(text, clean)


def _scan(text: str, clean: bool) -> list[Match]:
    """The scanner proper (R1-R16); :func:`extract` without its whole-line fast path."""
    t = _Text(text, clean)
    s = t.text
    n = len(s)
    found: list[_Found] = []
    pos = 0
    barrier = 0  # the look-back never crosses this (previous anchor or match end)
    find = s.find
    while True:
        a = find("10.", pos)
        if a < 0:
            break
        pos = a + 1
        boundary = _left_boundary(s, a, t)
        if boundary is None:
            continue
        glued = boundary
        m = _PREFIX_RE.match(s, a)
        if m is None:
            continue
        p = m.end()
        if p >= n:
            break
        c = s[p]
        if c == "/":
            sep_end = p + 1
        elif c == "%" and s[p + 1:p + 3].translate(_LOWER) == "2f":
            sep_end = p + 3
        elif c == ":" and a >= 8 and s[a - 8:a].translate(_LOWER) == "urn:doi:":
            sep_end = p + 1
        else:
            pos = p
            continue
        if sep_end >= n:
            break
        lo = max(barrier, a - _LOOKBACK)
        start, kind = _context(s, a, lo, glued)
        barrier = a
        if kind in ("name", "in-url-path", "in-url-query") and not _plausible_bare(
            s, a, p, sep_end, n
        ):
            continue
        stops = ""
        if kind == "in-url-path":
            stops = "?#"
        elif kind in ("in-url-query", "url-in-query"):
            stops = "&#"
            if kind == "url-in-query":
                kind = "url"
        if start > 0 and s[start - 1] == "'":
            stops += "'"
        raw_end = _scan_suffix(s, sep_end, n, stops)
        end = _trim(s, sep_end, raw_end)
        if end <= sep_end:
            continue
        found.append(_make_match(t, start, a, p, sep_end, end, raw_end, kind))
        pos = barrier = end
    if len(found) < 2:
        return [f.match for f in found]
    return _merge(t, found)


def _left_boundary(s: str, a: int, t: _Text) -> bool | None:
    """R5: may a name start at ``a``? ``None``: no; ``True``: yes, after a glued ``doi``."""
    if a == 0:
        return False
    prev = s[a - 1]
    if not (prev.isalnum() or prev in "._-+" or unicodedata.category(prev) == "Sc"):
        return False
    if a >= 3 and s[a - 3] == "%" and s[a - 2:a].translate(_LOWER) in ("2f", "3a"):
        return False
    if t.dropped_before(a):
        return False
    if a >= 3 and s[a - 3:a].translate(_LOWER) == "doi" and (a == 3 or not s[a - 4].isalnum()):
        return True
    return None


def _plausible_bare(s: str, a: int, p: int, sep_end: int, n: int) -> bool:
    """R7: a bare ``10.x/y`` must look like a DOI, not a number or an address."""
    groups = s[a + 3:p].split(".")
    if len(groups[0]) < 2:
        return False
    if len(groups) == 3 and all(len(g) <= 3 for g in groups):
        return False  # 10.a.b.c: an IPv4 address or a CIDR block
    if len(groups[0]) < 4:
        i = sep_end
        digit = letter = False
        while i < n and s[i].isascii() and (s[i].isalnum() or s[i] in "._-"):
            digit = digit or s[i].isdigit()
            letter = letter or s[i].isalpha()
            i += 1
        if not (digit and letter):
            return False
    return True


def _context(s: str, a: int, lo: int, glued: bool) -> tuple[int, str]:
    """R6: look back from the anchor ``a`` (not before ``lo``) for a label or a link."""
    if glued:
        return a - 3, "label"
    k = a
    while k > lo and a - k < 8 and s[k - 1] in _LABEL_SPACE:
        k -= 1
    if k < a:  # a label separated by spaces: "doi: 10..." or "DOI 10..."
        if (k - 4 >= lo and s[k - 1] in ":：" and s[k - 4:k - 1].translate(_LOWER) == "doi"
                and _word_start(s, k - 4)):
            return k - 4, "doi-uri"
        if k - 3 >= lo and s[k - 3:k].translate(_LOWER) == "doi" and _word_start(s, k - 3):
            return k - 3, "label"
        return a, "name"
    back = _TOKEN_BACK_RE.match(s[lo:a][::-1])
    t = a - (back.end() if back is not None else 0)
    if t == a:
        return a, "name"
    tok = s[t:a].translate(_LOWER)
    at = min((i for i in (tok.find(mk) for mk in _URL_MARKERS) if i >= 0), default=-1)
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
    if tok.endswith(("doi:", "doi：")):
        return a - 4, "doi-uri"
    if "://" in tok or tok.startswith("www."):
        return a, "in-url-query" if "?" in tok else "in-url-path"
    return a, "name"


def _word_start(s: str, i: int) -> bool:
    return i == 0 or not s[i - 1].isalnum()


def _scan_suffix(s: str, i: int, n: int, stops: str) -> int:
    """R8-R12: walk the suffix from ``i``; return where the name stops (before R13)."""
    stack: list[str] = []
    plain = _PLAIN_RE.match
    while i < n:
        m = plain(s, i)
        assert m is not None  # a star pattern always matches
        i = m.end()
        if i >= n:
            break
        c = s[i]
        if c.isspace() or c in _QUOTES:
            break
        if c in "([{":
            stack.append(c)
        elif c == "<":
            if _looks_like_tag(s, i, n):
                break
            stack.append(c)
        elif c in ")]}>":
            if not stack or stack[-1] != _OPENER[c]:
                break
            stack.pop()
        elif c == "," or c == ";":
            if _starts_anchor(s, i + 1, n):
                break
            if not stack and (c == "," or not (i + 1 < n and "0" <= s[i + 1] <= "9")):
                break
        elif c in stops or c < " " or "\x7f" <= c <= "\x9f":
            break
        i += 1
    return i


def _starts_anchor(s: str, i: int, n: int) -> bool:
    return s.startswith("10.", i) and i + 3 < n and "0" <= s[i + 3] <= "9"


def _looks_like_tag(s: str, i: int, n: int) -> bool:
    """R11: does the ``<`` at ``i`` start an HTML tag (``</a>``, ``<br>``), not SICI?"""
    j = i + 1
    if j >= n:
        return True
    c = s[j]
    if c in "/!?":
        return True
    if not ("a" <= c <= "z" or "A" <= c <= "Z"):
        return False
    k = j + 1
    while k < n and k - j < 16 and s[k].isascii() and s[k].isalnum():
        k += 1
    return k >= n or s[k] in _TAG_END


def _trim(s: str, start: int, end: int) -> int:
    """R13: leave out trailing sentence punctuation and invisible format characters."""
    while end > start:
        c = s[end - 1]
        if c in _TRAILING or (not c.isascii() and unicodedata.category(c) == "Cf"):
            end -= 1
        else:
            break
    return end


# ---------------------------------------------------------------------------- matches


def _make_match(
    t: _Text, start: int, a: int, p: int, sep_end: int, end: int, raw_end: int, kind: str
) -> _Found:
    s = t.text
    findings: list[Finding] = []
    doi: Doi
    form = kind
    base = a
    try:
        if kind in ("url", "urn", "info-uri", "hdl-uri"):
            base = start
            span = s[start:end]
            if kind == "url" and _plain_link(span):
                try:
                    return _found(t, parse(span), start, end, raw_end, "url", [])
                except DoiError:
                    pass  # read it again below, with its notes and fallbacks
            try:
                r = read(span)
            except DoiError:
                if kind != "url":
                    raise
                # not a link after all (e.g. doi.org.example.com): read the name alone
                base = start = a
                r = read(s[a:end])
                kind = form = "in-url"
            doi, form = r.doi, (r.form if kind != "in-url" else form)
            findings.extend(_moved(t, n, base) for n in r.notes)
        else:
            name = s[a:end]
            if "%" in name:
                r = read(name)
                doi = r.doi
                findings.extend(_moved(t, n, a) for n in r.notes)
            else:
                doi = parse(name)
            form = {"in-url-path": "in-url", "in-url-query": "in-url"}.get(kind, kind)
    except DoiError as err:
        doi = Doi(s[a:p], s[sep_end:end])
        findings.append(_error_finding(t, err, base, start, end))
    return _found(t, doi, start, end, raw_end, form, findings)


def _plain_link(span: str) -> bool:
    """A doi.org/dx.doi.org link with nothing the reader would note (proxy, %, ?, #)."""
    if "%" in span or "?" in span or "#" in span:
        return False
    low = span[:48].translate(_LOWER)
    return low.startswith(("https://doi.org/", "http://doi.org/", "https://dx.doi.org/",
                           "http://dx.doi.org/", "doi.org/", "dx.doi.org/"))


def _found(
    t: _Text, doi: Doi, start: int, end: int, raw_end: int, form: str,
    findings: list[Finding],
) -> _Found:
    """Add the findings of cleaning and trimming; map the span to the original text."""
    s = t.text
    if t.edits:
        findings.extend(_edit_finding(e) for e in t.edits_in(start, end))
    if end < raw_end:
        o0, o1 = t.span(end, raw_end)
        trimmed = s[end:raw_end]
        shown = trimmed if trimmed.isprintable() else ", ".join(char_label(c) for c in trimmed)
        findings.append(Finding(
            "trailing-punctuation", "info",
            f"“{shown}” after the DOI (character {o0 + 1}) was left out: punctuation that "
            "ends a sentence or a list item is not read as part of a name.",
            o0, o1, o0, o1, in_name=False, source=_SOURCE,
        ))
    elif (raw_end < len(s) and s[raw_end] in ")]}>"
          and not (start > 0 and s[start - 1] == _OPENER[s[raw_end]])):
        o0, o1 = t.span(raw_end, raw_end + 1)
        findings.append(Finding(
            "unbalanced-closer", "info",
            f"“{s[raw_end]}” after the DOI (character {o0 + 1}) was left out: it closes a "
            "bracket opened before the name, not one inside it.",
            o0, o1, o0, o1, in_name=False, source=_SOURCE,
        ))
    if s[end - 1] == "-" and end < len(s) and s[end] in "\r\n":
        o0, o1 = t.span(end - 1, end)
        findings.append(Finding(
            "line-break", "warning",
            f"The DOI ends with “-” at the end of a line (character {o0 + 1}): if the name "
            "goes on on the next line, it was cut there. Line-broken names are not joined.",
            o0, o1, o0, o1, in_name=False, source=_SOURCE,
        ))
    o_start, o_end = t.span(start, end)
    m = Match(doi, o_start, o_end, t.original[o_start:o_end], tuple(findings), form)
    return _Found(m, start, end)


def _moved(t: _Text, f: Finding, base: int) -> Finding:
    """A reader note re-positioned from the string given to the reader to the text."""
    a, b = t.span(base + f.start, base + f.end)
    return Finding(f.code, f.severity, _renumber(f.message, f.start, a), a, b, a, b,
                   in_name=False, source=f.source)


def _error_finding(t: _Text, err: DoiError, base: int, start: int, end: int) -> Finding:
    if err.position is None:
        a, b = t.span(start, end)
        message = err.message
    else:
        stop = err.end if err.end is not None else err.position + 1
        a, b = t.span(base + err.position, base + max(stop, err.position + 1))
        message = _renumber(err.message, err.position, a)
    return Finding(err.code, "error", message, a, b, a, b, in_name=False, source=_SOURCE)


def _renumber(message: str, old: int, new: int) -> str:
    """Messages count characters from 1 in the string read; make them count in the text."""
    if old == new:
        return message
    return message.replace(f"character {old + 1}", f"character {new + 1}")


def _edit_finding(e: _Edit) -> Finding:
    if e.kind == "wbr":
        return Finding(
            "wbr-dropped", "info",
            f"The line-break hint “{e.source}” at character {e.start + 1} was dropped "
            "(publishers put it inside long names).",
            e.start, e.end, e.start, e.end, in_name=False, source=_SOURCE,
        )
    if e.kind == "invisible":
        what = ", ".join(char_label(c) for c in (e.source if e.source[0] != "&"
                                                  else html.unescape(e.source)))
        return Finding(
            "zero-width-dropped", "warning",
            f"{what} at character {e.start + 1} was dropped: invisible characters are not "
            "part of DOI names (only Unicode graphic characters are, 003 ch. 2); it was "
            "probably pasted by accident.",
            e.start, e.end, e.start, e.end, in_name=False, source="003 ch. 2; issue 5",
        )
    if e.kind == "entity":
        return Finding(
            "html-entity", "info",
            f"“{e.source}” at character {e.start + 1} was read as “{e.value}” "
            "(HTML escaping).",
            e.start, e.end, e.start, e.end, in_name=False, source=_SOURCE,
        )
    return Finding(
        "backslash-escape", "info",
        f"“{e.source}” at character {e.start + 1} was read as “{e.value}” "
        f"({_ESCAPE_NAMES.get(e.value, 'backslash')} escaping).",
        e.start, e.end, e.start, e.end, in_name=False, source=_SOURCE,
    )


def _merge(t: _Text, found: list[_Found]) -> list[Match]:
    """R15: one match for a link whose text repeats its DOI."""
    out: list[_Found] = [found[0]]
    s = t.text
    for cur in found[1:]:
        prev = out[-1]
        gap_len = cur.start - prev.end
        if (gap_len <= _MAX_GAP and prev.match.ok and cur.match.ok
                and _MARKUP_GAP_RE.fullmatch(s, prev.end, cur.start) is not None
                and _same(prev.match.doi, cur.match.doi)):
            keep, drop = (cur, prev) if _prefer(cur.match, prev.match) else (prev, cur)
            note = Finding(
                "duplicate-link-text", "info",
                f"The same DOI also appears at characters {drop.match.start + 1}-"
                f"{drop.match.end} as part of the same link; it is reported once.",
                drop.match.start, drop.match.end, drop.match.start, drop.match.end,
                in_name=False, source=_SOURCE,
            )
            km = keep.match
            out[-1] = _Found(
                Match(km.doi, km.start, km.end, km.text, (*km.findings, note), km.form),
                keep.start, keep.end,
            )
            continue
        out.append(cur)
    return [f.match for f in out]


def _same(x: Doi, y: Doi) -> bool:
    if x == y:
        return True
    try:
        return equivalence_key(x) == equivalence_key(y)
    except DoiError:
        return False


def _prefer(a: Match, b: Match) -> bool:
    """Whether ``a`` is the better of two matches of one link (link form, then longer)."""
    a_link, b_link = a.form in _LINK_FORMS, b.form in _LINK_FORMS
    if a_link != b_link:
        return a_link
    return len(a.text) > len(b.text)
