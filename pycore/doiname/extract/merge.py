"""Rule R15: a link whose text repeats its DOI is reported once.

In HTML and Markdown a link often shows its DOI twice, in ``href="..."`` and as the link
text (``<a href="https://doi.org/X">X</a>``, ``[X](https://doi.org/X)``). When two
neighbouring matches are equivalent (003 ch. 3) and only markup lies between them (a tag
end ``">``, further tags, spaces, or Markdown's ``](``), one match is kept: the link form
(else the longer one), with the finding ``duplicate-link-text``.
"""

from __future__ import annotations

import re

from ..equivalence import equivalence_key
from ..errors import DoiError
from ..model import Doi, Finding
from .clean import Text
from .make import LINK_FORMS
from .model import Found, Match

__all__ = ["MARKUP_GAP", "MAX_GAP", "r15_merge"]

#: Only markup between an href and its link text (bounded gap, linear pattern).
MARKUP_GAP = re.compile(
    r"""["']?(?:\s[^<>]*)?>(?:\s*<[^<>]*>)*\s*|\]\(|\s*(?:<[^<>]*>\s*)+""", re.ASCII
)
#: The longest markup between the two.
MAX_GAP = 2048


def r15_merge(t: Text, found: list[Found]) -> list[Match]:
    """R15: one match for a link whose text repeats its DOI."""
    out: list[Found] = [found[0]]
    s = t.text
    for cur in found[1:]:
        prev = out[-1]
        gap_len = cur.start - prev.end
        if cur.repeats:  # the scanner saw it repeat prev (the same text read the same way,
            # only markup between, nothing else found there, nothing cleaned: its place in
            # the text as given is where it was scanned; it holds prev's match, unread)
            keep, d0, d1 = prev, cur.start, cur.end
        elif (0 <= gap_len <= MAX_GAP and prev.match.ok and cur.match.ok
                and prev.match.kind == cur.match.kind == "doi"
                and MARKUP_GAP.fullmatch(s, prev.end, cur.start) is not None
                and _same(prev.match.doi, cur.match.doi)):
            keep, drop = (cur, prev) if _prefer(cur.match, prev.match) else (prev, cur)
            d0, d1 = drop.match.start, drop.match.end
        else:
            out.append(cur)
            continue
        note = Finding(
            "duplicate-link-text", "info",
            f"The same DOI also appears at characters {d0 + 1}-{d1} as part of the same "
            "link; it is reported once.", d0, d1, d0, d1, in_name=False, source="extract R15",
        )
        km = keep.match
        merged = Match(km.doi, km.start, km.end, km.text, (*km.findings, note), km.form,
                       km.kind, km.alternatives)
        out[-1] = Found(merged, keep.start, keep.end)
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
    a_link, b_link = a.form in LINK_FORMS, b.form in LINK_FORMS
    if a_link != b_link:
        return a_link
    return len(a.text) > len(b.text)
