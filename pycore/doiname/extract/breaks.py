"""R21 and R22 on a match: a name cut by a line break or a space (PDF text), what is said
of it and the joined reading.

R21: a name that ends in ``- . / _`` right before a space or one line break, followed by
one run of name characters holding a digit that ends its line (closing brackets and
sentence punctuation after it allowed; neither a link nor a name of its own), was probably
cut there; so was one followed by
such a run that starts with one of those separators (``10.2217/fca`` + no-break space +
``.14.82``, ``s00467-008-0811 -4``: typesetting and PDF text put spaces beside them).
When the name read before the cut is a name, it stays the reading, with a warning and the
joined reading as the alternative (nothing joined without asking: only the registry says
which exists).
When the cut is right after the ``/`` or the ``10.`` of a labelled name or a link, what
comes before it is no name at all: the joined name is the reading, with a warning that
says it was joined.
R22 (:mod:`.split` finds the digits): a name cut between two of its digits.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..errors import DoiError
from ..model import Doi, Finding
from ..syntax import parse
from .clean import Text, edit_findings
from .ends import r13_trailing, scan_suffix, starts_anchor, to_line_end
from .model import Alternative, Found, Match
from .reading import WHOLE, moved, read_span
from .split import r22_cut_digits

if TYPE_CHECKING:
    from .make import Scanned

__all__ = ["PREFIX_REST", "cut_by", "r21_line_break", "r21_read_joined", "r21_read_prefix_cut",
           "r21_rest", "r22_cut"]

#: Where a name is cut (R21): right after one of these, or right before.
_SEPARATORS = "-./_"
#: What may follow the rest of a cut name on its line (R21): sentence punctuation and the
#: closer of a bracket opened before the name, ``(doi:10.1007/`` + break + ``s00338-...)``.
_AFTER_REST = ".,;:!?'*)]}> \t"
#: R21 in a prefix: what follows ``10.`` and the cut, a registrant of four digits or more
#: and its ``/`` (``doi:10.`` + a line break + ``1038/sj.mp.4000812``).
PREFIX_REST = re.compile(r"[0-9]{4,9}(?:\.[0-9]+)*/")
#: What the rest after a cut never holds (R21): a link (``://``) or a name of its own, an
#: anchor ``10.`` with such a registrant and its ``/``
#: (``doi:10.1000/`` + a line break + ``https://doi.org/10.1000/182``: two names).
_OWN_NAME = re.compile(r"://|10\." + PREFIX_REST.pattern)


def r21_rest(s: str, raw: int) -> tuple[int, int] | None:
    """R21: where the rest of a name cut at ``raw`` lies, ``(start, end)`` of the run of
    name characters after the space or the one line break there, when the name before
    ends in ``- . / _``, the run holds a digit and ends its line; else ``None``. Bounded:
    eight characters of space, then the run (linear in it)."""
    n = len(s)
    if raw >= n or not s[raw].isspace():
        return None
    w = raw
    while w < n and s[w].isspace() and w - raw < 8:
        w += 1
    if w >= n:
        return None
    if s[raw - 1] not in _SEPARATORS:  # the separator after the cut, then the rest
        if s[w] not in _SEPARATORS or w + 1 >= n or not s[w + 1].isalnum():
            return None
    elif not s[w].isalnum() or starts_anchor(s, w, n):
        return None
    if _breaks(s, raw, w) > 1:
        return None  # (two line breaks: a paragraph apart)
    end = r13_trailing(s, w, scan_suffix(s, w, n, ""))
    if not any(map(str.isdigit, s[w:end])) or not to_line_end(s, end, _AFTER_REST):
        return None
    if _OWN_NAME.search(s, w, end) is not None:
        return None  # (a link or a name of its own, not the rest of this one)
    return w, end


def _breaks(s: str, a: int, b: int) -> int:
    """How many line breaks the gap ``s[a:b]`` holds (``\r\n`` is one)."""
    return s.count("\n", a, b) + s.count("\r", a, b) - s.count("\r\n", a, b)


def cut_by(s: str, a: int, b: int) -> str:
    """What cut a name in the gap ``s[a:b]``, in words: ``a line break`` when the gap holds
    one, else ``a space`` (R21, R22; every surface says it so)."""
    return "a line break" if "\n" in s[a:b] or "\r" in s[a:b] else "a space"


def r21_joined(t: Text, sc: Scanned, kind: str, start: int, doi: Doi,
               rest: tuple[int, int]) -> Alternative | None:
    """The reading of a name joined across the cut R21 found (``rest``, of
    :func:`r21_rest`), when it is another name."""
    s, raw = t.text, sc.raw_end
    w, tok_end = rest
    x = start if kind in WHOLE else sc.a
    try:
        joined = parse(s[x:raw] + s[w:tok_end])
    except DoiError:
        return None
    if joined == doi:
        return None
    o0, o1 = t.span(start, tok_end)
    h0, h1 = t.span(x, raw)
    k0, k1 = t.span(w, tok_end)
    return Alternative(joined, o0, o1, t.original[h0:h1] + t.original[k0:k1], "joined")


def r21_line_break(t: Text, sc: Scanned, kind: str, start: int, doi: Doi,
                   findings: list[Finding], alternatives: list[Alternative]) -> bool:
    """R21: a name cut by a line break (PDF text): say so, offer the joined reading.
    Whether it said anything."""
    s = t.text
    rest = r21_rest(s, sc.raw_end)
    joined = r21_joined(t, sc, kind, start, doi, rest) if rest is not None else None
    if joined is not None and rest is not None:
        alternatives.append(joined)
        b0, b1 = t.span(sc.raw_end, sc.raw_end + 1)
        cut = cut_by(s, sc.raw_end, rest[0])  # (the gap: up to where the rest starts)
        findings.append(Finding(
            "line-break", "warning",
            f"The name seems cut by {cut} at character {b0 + 1}: joined, it reads "
            f"{joined.doi}. Names cut so are not joined without asking.",
            b0, b1, b0, b1, in_name=False, source="extract R21", repair=joined.text))
        return True
    if s[sc.end - 1] == "-" and to_line_end(s, sc.end):
        o0, o1 = t.span(sc.end - 1, sc.end)
        findings.append(Finding(
            "line-break", "warning",
            f"The DOI ends with “-” at the end of a line (character {o0 + 1}): if the name "
            "goes on on the next line, it was cut there. Line-broken names are not joined.",
            o0, o1, o0, o1, in_name=False, source="extract R21"))
        return True
    return False


def r21_read_joined(t: Text, sc: Scanned) -> Found | None:
    """R21 on a name cut right after its ``/`` (``https://doi.org/10.1007/`` + a line
    break + ``s00338-005-0072-7``): as written there is no suffix, so the name is read
    joined across the cut, with a warning that says so (the reader's notes and what
    cleaning changed placed in the text); ``None`` when R21 finds no rest or the joined
    text is no name either."""
    rest = r21_rest(t.text, sc.raw_end)
    if rest is None:
        return None
    return _read_joined(t, sc.start, sc.kind, sc.a, sc.raw_end, *rest, "right after its “/”",
                        "as written it has no suffix")


def r21_read_prefix_cut(t: Text, start: int, kind: str, a: int) -> Found | None:
    """R21 on a labelled name or a link cut right after its ``10.`` by a line break or a
    space (``(doi:10.`` + a line break + ``1038/sj.mp.4000812)``, as PDF text breaks
    lines at a dot): as written there is no prefix, so the name is read joined, with a
    warning; ``None`` when no registrant, "/" and suffix follow the cut (within eight
    characters of space and one line break) or the joined text is no name."""
    s, n = t.text, len(t.text)
    raw = a + 3
    w = raw
    while w < n and s[w].isspace() and w - raw < 8:
        w += 1
    m = PREFIX_REST.match(s, w) if w > raw and _breaks(s, raw, w) <= 1 else None
    if m is None:
        return None
    end = r13_trailing(s, m.end(), scan_suffix(s, m.end(), n, ""))
    if end <= m.end():
        return None
    return _read_joined(t, start, kind, a, raw, w, end, "inside its prefix, after “10.”",
                        "as written it has no prefix")


def _read_joined(t: Text, start: int, kind: str, a: int, raw: int, w: int, tok_end: int,
                 where: str, written: str) -> Found | None:
    """The match of a name read joined across the cut ``[raw, w)``: ``s[x:raw] +
    s[w:tok_end]``, read as its kind is read (:func:`~.reading.read_span`), with the
    warning line-break and the reader's notes placed in the text."""
    s = t.text
    x = start if kind in WHOLE else a
    head = raw - x  # (the joined text: s[x:raw] + s[w:tok_end])
    try:
        doi, form, notes, base = read_span(s[x:raw] + s[w:tok_end], kind, start - x, a - x,
                                           head + tok_end - w)
    except DoiError:
        return None
    if form == "in-url":
        return None  # (not a link after all: the scanner's reading of the name alone)
    o0, o1 = t.span(start, tok_end)
    b0, b1 = t.span(raw, w)
    cut = cut_by(s, raw, w)
    findings = [Finding(
        "line-break", "warning",
        f"The name is cut by {cut} {where} (character {b0 + 1}): {written}, so it was read "
        f"joined with “{s[w:tok_end]}” after the {cut[2:]}: {doi}. Resolve tells whether "
        "that name is registered.",
        b0, b1, b0, b1, in_name=False, source="extract R21")]
    gap = w - raw
    for n in notes:  # (a note's place in the joined text, then in the text)
        at = base + n.start
        findings.append(moved(t, n, x + base + (0 if at < head else gap)))
    if t.edits:
        findings.extend(edit_findings(t.edits_in(start, tok_end)))
    return Found(Match(doi, o0, o1, t.original[o0:o1], tuple(findings), form), start, tok_end)


def r22_cut(t: Text, sc: Scanned, kind: str, start: int, doi: Doi,
            findings: list[Finding], alternatives: list[Alternative]) -> None:
    """R22: a name cut between two of its digits by a space or a line break: say so,
    offer the joined reading (never chosen without asking)."""
    s = t.text
    rest = r22_cut_digits(s, sc.raw_end)
    if rest is None:
        return
    w, tok_end = rest
    x = start if kind in WHOLE else sc.a
    try:
        joined = parse(s[x:sc.raw_end] + s[w:tok_end])
    except DoiError:
        return
    o0, o1 = t.span(start, tok_end)
    h0, h1 = t.span(x, sc.raw_end)
    k0, k1 = t.span(w, tok_end)
    alt = Alternative(joined, o0, o1, t.original[h0:h1] + t.original[k0:k1], "joined")
    alternatives.append(alt)
    b0, b1 = t.span(sc.raw_end, w)
    cut = cut_by(s, sc.raw_end, w)
    findings.append(Finding(
        "split-name", "warning",
        f"The name may be cut by {cut} at character {b0 + 1}: the digits “{s[w:tok_end]}” "
        f"right after it may belong to it, and joined it reads {joined}. Resolve tells "
        "which one is registered; the two are not joined without asking.",
        b0, b1, b0, b1, in_name=False, source="extract R22", repair=alt.text))
