"""Rules R5-R7: where a DOI name starts in running text.

At an anchor (R4, :mod:`.scan`): whether a name may start there at all (R5, the left
boundary), what it is written as, found by looking back a bounded distance for a label or
a link (R6), and whether a bare name looks like a DOI rather than a number or an address
(R7). Each looks at a few characters around the anchor: linear overall.
"""

from __future__ import annotations

import re
import unicodedata

from ..forms import DOI_LINK_HEADS
from .breaks import PREFIX_REST
from .clean import Text
from .ends import PREPRINT_PATHS, spaceless

__all__ = ["LOOKBACK", "LOWER", "r5_left_boundary", "r6_context", "r7_plausible_bare"]

#: R6: how far back the look-back reads at most.
LOOKBACK = 400
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
#: ASCII letters to lower case only (what the rules compare without case). On a hot path
#: ``x.lower() == w and x.isascii()`` says ``x.translate(LOWER) == w`` of an ASCII ``w``, sooner.
LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_MARKERS_RE = re.compile("|".join(re.escape(mk) for mk in _URL_MARKERS))
#: R6: a token that starts with a host name and a path, its scheme not written
#: (``onlinelibrary.wiley.com/doi/``, as documents print links): a link, as ``www.`` is.
#: (Labels of letters, digits and ``-``, a last one of two letters or more.)
_BARE_HOST = re.compile(r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*"
                        r"\.[a-z]{2,24}(?::[0-9]{1,5})?/")


def r5_left_boundary(s: str, a: int, t: Text) -> bool | None:
    """R5: may a name start at ``a``? ``None``: no; ``True``: yes, after a glued ``doi``."""
    if a == 0:
        return False
    prev = s[a - 1]
    if not (prev.isalnum() or prev in "._-+" or unicodedata.category(prev) == "Sc"):
        return False
    if spaceless(prev):  # text with no space between words: 詳細は10.1000/182
        return False
    if prev == "-" and a >= 2 and s[a - 2].isdigit() and PREFIX_REST.match(s, a + 3):
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
    if "://" in tok or tok.startswith("www.") or _BARE_HOST.match(tok) is not None:
        if "?" in tok:
            return a, "in-url-query"
        return a, "in-url-preprint" if tok.endswith(PREPRINT_PATHS) else "in-url-path"
    return a, "name"
