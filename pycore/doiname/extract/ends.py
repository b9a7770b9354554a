"""Rules R8-R14, R19, R20: where a name ends in running text.

002 §4.3 lets a suffix hold any graphic character, so these rules decide between the name
and the text around it. :func:`scan_suffix` walks the suffix once (R8-R12);
:func:`r13_trailing` leaves out sentence punctuation; :func:`r19_viewer_tail` and
:func:`r20_debris` leave out what a publisher's page or a display added. Each returns the
new end; what was left out is reported by :mod:`.make`.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = [
    "CJK_STOPS", "FILE_TAIL", "LINE_BREAKS", "OPENER", "PREPRINT_PATHS", "PREPRINT_PREFIX",
    "QUOTES", "R8_WORDS", "SPACELESS", "TRAILING", "has_spaceless", "r8_glued",
    "r11_looks_like_tag", "r13_trailing", "r13_words", "r19_file_tail", "r19_preprint_tail",
    "r19_viewer_tail", "r20_debris",
    "scan_suffix", "spaceless", "starts_anchor", "to_line_end",
]

OPENER = {")": "(", "]": "[", "}": "{", ">": "<"}
#: R13: what ends a sentence (a final one of these after a name is the sentence's).
SENTENCE_ENDS = frozenset(".!?")
#: R9: characters that end a name.
QUOTES = frozenset('"`“”„‟«»‹›‘’‚‛「」『』〝〞＂')
#: R8: East Asian punctuation and brackets (ideographic and fullwidth) end a name as a
#: space does: text in those scripts has no space between words, and no DOI name holds
#: them (``10.1000/182。次``, ``（10.1000/182）``, ``10.1000/1，10.1000/2``).
CJK_STOPS = frozenset("。、，；：！？．（）【】〔〕［］｛｝〈〉《》〖〗")
#: R5, R8: the letters of the scripts written without a space between words (Han, kana,
#: Thai, Lao, Khmer, Myanmar) or with particles joined to the word before (Hangul): a name
#: may start right after one (``詳細は10.1000/182``), and a run of them written against a
#: suffix of other characters ends it (``10.1000/182を参照``, ``10.1016/j.x.2020.01.001的``).
SPACELESS = ("\u0e00-\u0eff\u1000-\u109f\u1100-\u11ff\u1780-\u17ff\u3005\u3006"
             "\u3040-\u309f\u30a0-\u30ff\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf"
             "\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003134f")
_SPACELESS_RE = re.compile(f"[{SPACELESS}]")
_PAIRS = (("(", ")"), ("[", "]"), ("{", "}"), ("<", ">"))
#: R8: a letter of :data:`SPACELESS` after a character of another script.
_GLUED_RE = re.compile(f"(?<![{SPACELESS}])[{SPACELESS}]")


def has_spaceless(s: str) -> bool:
    """Whether ``s`` holds a letter of :data:`SPACELESS` (R5, R8)."""
    return not s.isascii() and _SPACELESS_RE.search(s) is not None


def spaceless(c: str) -> bool:
    """Whether the character ``c`` is a letter of :data:`SPACELESS`."""
    return c >= "\u0e00" and _SPACELESS_RE.match(c) is not None


def r8_glued(s: str, suffix_start: int, end: int) -> int:
    """R8: where a run of :data:`SPACELESS` letters written against the suffix
    ``[suffix_start, end)`` starts (after at least one character of another script, and
    outside the suffix's brackets, R10), or ``end``: the text goes on without a space,
    and the name ends before it."""
    depth, at = 0, suffix_start
    for m in _GLUED_RE.finditer(s, suffix_start + 1, end):
        g = m.start()
        part = s[at:g]
        at = g
        for opener, closer in _PAIRS:
            depth += part.count(opener) - part.count(closer)
        if depth <= 0:
            return g
    return end


#: R13: trailing characters left out (a final "/": a link's path, copied with its slash).
TRAILING = frozenset(".,;:!?'*/")
#: R20: a final ellipsis (the name was cut short for display).
ELLIPSIS = "\u2026"
#: R12: the one ";" a name keeps, in a SICI's control segment (ANSI/NISO Z39.56: its
#: structure identifier, derivative part and medium digits and letters, ";", its version:
#: ``3.0.CO;2-O``, ``2.0.TX;2-E``); any other ";" separates, as in a list or a row of a
#: file whose cells ";" parts (``10.1000/182;2020;Title``).
_SICI_CONTROL = "[0-9]\\.[0-9]\\.[A-Za-z]{2}"
_SICI_SEMICOLON = re.compile(_SICI_CONTROL + ";[0-9]")

# The common run of suffix characters that need no decision in scan_suffix: letters and
# digits of any script, "_" (word characters: none is a space, a quote or a control) and
# ". / - : % + = @ ! $ * ~" (none is a bracket, a separator of R12 or a stop of R6).
_PLAIN = r"[\w./\-:%+=@!$*~]"
# ... and what scan_suffix decides the same way wherever it is, taken with that run: a
# pair of brackets around such characters (R10: pushed, then popped by its closer), a
# "<" that R11 does not take for a tag (not before a letter, "/", "!" or "?"), and the ";"
# of a SICI's control segment before a digit that starts no anchor (R12: "3.0.CO;2-O").
_PLAIN_RE = re.compile(
    f"(?:{_PLAIN}++|\\({_PLAIN}*+\\)|\\[{_PLAIN}*+\\]|\\{{{_PLAIN}*+\\}}"
    f"|<(?![A-Za-z/!?]){_PLAIN}*+>|(?<={_SICI_CONTROL});(?=[0-9])(?!10\\.[0-9]))*+")
_TAG_END = frozenset(" \t\r\n\f/>")
# R12: a wiki template parameter after "|" ({{cite journal|doi=10.1000/x|pmid=123}}).
_TEMPLATE_PARAM = re.compile(r"[ \t]{0,4}[A-Za-z][A-Za-z0-9_ -]{0,30}=|\}\}")
# R19: what publishers put after a name in a link to one of their pages.
_VIEWER_TAIL = re.compile(
    r"/(?:full|fulltext|abstract|abs|epdf|pdf|pdfdirect|figures|summary|references|citedby"
    r"|suppinfo)/?", re.IGNORECASE | re.ASCII)
#: R19 in a preprint server's link (:data:`PREPRINT_PATHS`): a bioRxiv or medRxiv name
#: (``2020.01.01.123456``, or six to eight digits before December 2019) and the version
#: and page the server adds to it (``v2``, ``v2.full``, ``v1.full.pdf``, ``v3.abstract``).
_PREPRINT_TAIL = re.compile(r"(?:\d{4}\.\d{2}\.\d{2}\.)?\d{6,8}(v\d{1,3}(?:\.[a-z][a-z.+\-]*)?)",
                            re.ASCII)
#: Where a link's path holds a name of a preprint server whose pages add to it (R19):
#: ``https://www.biorxiv.org/content/10.1101/...``, read as the end of the text before
#: the name, in lower case.
PREPRINT_PATHS = ("biorxiv.org/content/", "medrxiv.org/content/")
#: The registrant of the names of :data:`PREPRINT_PATHS` (Cold Spring Harbor Laboratory).
PREPRINT_PREFIX = "10.1101"
#: R19 in a link to a publisher's page (a name in its path, not a resolver's link): the
#: file the page sends, written after the name
#: (``link.springer.com/content/pdf/10.1007/s00467-008-0811-4.pdf``). Not in text or in a
#: resolver's link: some names end so (``10.5368/aedj.2010.2.4.85-87.pdf``, IUCr's
#: supplements ``10.1107/S2059798318011506/gm5056sup1.pdf``).
FILE_TAIL = ".pdf"


def r13_words(left: str) -> str:
    """Why R13 left ``left`` out, in the words every surface shows (Inspect's card line,
    Batch's row, the widget, the CLI): ``it ends the sentence`` for ``.``, ``!``, ``?``."""
    if not left.isprintable():
        return "invisible characters after a name are not part of it"
    if set(left) <= SENTENCE_ENDS:
        return "it ends the sentence"
    if left == "/":
        return "a link's path often ends with one, a DOI name hardly ever"
    return "it is punctuation after the name"


#: Why R8 left out text of a script written without spaces set against a name, in the
#: words every surface shows (the finding, Inspect's card line).
R8_WORDS = ("it is text in a language written without spaces between words (Chinese, "
            "Japanese, Korean, Thai...) set against the name, not part of a DOI name")


#: What ends a line of text, for the rules that look at a line's end (R7, R13, R21).
LINE_BREAKS = "\r\n"


def to_line_end(s: str, i: int, skip: str = " \t") -> bool:
    """Whether only characters of ``skip`` lie between ``i`` and the end of its line."""
    n = len(s)
    while i < n and s[i] in skip:
        i += 1
    return i >= n or s[i] in LINE_BREAKS


def starts_anchor(s: str, i: int, n: int) -> bool:
    """Whether an R4 anchor (``10.`` and a digit) starts at ``i``."""
    return s.startswith("10.", i) and i + 3 < n and "0" <= s[i + 3] <= "9"


def scan_suffix(s: str, i: int, n: int, stops: str) -> int:
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
        if c.isspace() or c in QUOTES or c in CJK_STOPS:  # R8, R9
            break
        if c in "([{":  # R10
            stack.append(c)
        elif c == "<":  # R10, R11
            if r11_looks_like_tag(s, i, n):
                break
            stack.append(c)
        elif c in ")]}>":  # R10
            if not stack or stack[-1] != OPENER[c]:
                break
            stack.pop()
        elif c == "," or c == ";":  # R12
            if starts_anchor(s, i + 1, n):
                break
            if not stack and (c == "," or i < 6 or _SICI_SEMICOLON.match(s, i - 6) is None):
                break
        elif c == "|":  # R12 (wiki templates, lists that "|" parts)
            if starts_anchor(s, i + 1, n) or (
                    not stack and _TEMPLATE_PARAM.match(s, i + 1) is not None):
                break
        elif c in stops or c < " " or "\x7f" <= c <= "\x9f":  # R6 stops, R8 controls
            break
        i += 1
    return i


def r11_looks_like_tag(s: str, i: int, n: int) -> bool:
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
    return k < n and s[k] in _TAG_END  # "<b" at the very end is no tag: 10.1/a<b


def r13_trailing(s: str, start: int, end: int) -> int:
    """R13: leave out trailing sentence punctuation and invisible format characters."""
    while end > start:
        c = s[end - 1]
        if c in TRAILING or (not c.isascii() and unicodedata.category(c) == "Cf"):
            end -= 1
        else:
            break
    return end


def r19_viewer_tail(s: str, suffix_start: int, end: int) -> int:
    """R19: the end without a final publisher viewer path (``/full``, ``/pdf``, ...).

    Only a tail after at least one more character of suffix counts (``10.1000/pdf`` is a
    name whose suffix is ``pdf``)."""
    cut = s.rfind("/", suffix_start + 1, end)
    if cut == -1:
        return end
    if s[end - 1] == "/":  # "/full/"
        cut = s.rfind("/", suffix_start + 1, end - 1)
        if cut == -1:
            return end
    if _VIEWER_TAIL.fullmatch(s, cut, end) is None:
        return end
    return cut


def r19_preprint_tail(s: str, suffix_start: int, end: int) -> int:
    """R19 on a preprint server's link: the end without the version and page it adds to
    the name (``2020.01.01.123456v2.full.pdf`` ends at ``v``); ``end`` for a suffix of
    another shape."""
    m = _PREPRINT_TAIL.fullmatch(s, suffix_start, end)
    return end if m is None else m.start(1)


def r19_file_tail(s: str, suffix_start: int, end: int) -> int:
    """R19 in a link to a publisher's page: the end without a final :data:`FILE_TAIL`
    (any case), when the suffix has more before it."""
    at = end - len(FILE_TAIL)
    if at > suffix_start and s[at:end].lower() == FILE_TAIL:
        return at
    return end


def r20_debris(s: str, suffix_start: int, end: int) -> int:
    """R20: the end without a final ellipsis ``…`` (and punctuation before it)."""
    if end > suffix_start + 1 and s[end - 1] == ELLIPSIS:
        return r13_trailing(s, suffix_start, end - 1)
    return end
