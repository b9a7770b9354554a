"""The fast path of a batch line: names written plainly, and lines seen before.

Each shortcut gives exactly the rows of the general path (:mod:`.general`, which stays
the oracle: ``BatchSession(fast=False)``, compared over generated lines, every fixture
and the benchmark's lines in tests/unit/test_differential_batch.py):

* a line whose names are all plain (:func:`doiname.extract.plain.plain_names`): no rule of
  extract has anything to say and :func:`doiname.check` nothing either (ASCII letters,
  digits and ``. _ / -`` only, at most 100 characters, no reserved ``x/`` start), so the
  row needs no finding and its links are the name itself (none of its characters is
  encoded, except a suffix slash in a URI or an API request, and a ``.``/``..`` segment of
  the link's path is protected as 000 asks): :func:`plain_fields`;
* the commonest such lines are recognised by one pattern before plain_names is asked:
  a line that is one name, doi.org link, ``doi:`` URI or labelled name
  (:func:`line_name`), and a reference line ending in one doi.org link or ``doi:`` URI
  with nothing before it that a rule of the scanner reads (:func:`tail_name`); each
  gives what plain_names gives (tested against it over generated lines);
* a line whose text was analysed a moment ago (the session's
  :class:`~doiname.memo.Memo` of parts): the parts of a text depend on nothing else, so
  they are kept, by the exact text, for the last lines read.

A name plain_names leaves to the reader (escapes, a library proxy's link) is read by the
reader and judged by :func:`doiname.check` as on the general path
(:func:`doiname.extract.plain.read_plains`), without the scanner.
"""

from __future__ import annotations

import re

from ..encoding import fix_dot_segments
from ..equivalence import equivalence_key
from ..extract import Match, fast_line
from ..extract.clean import needs_cleaning
from ..extract.ends import r19_viewer_tail
from ..extract.plain import Plain, new_plain
from ..extract.scan import DOI_WORD as _DOI_WORD
from ..findings import quiet
from ..forms import DOI_LINK_HEADS, may_hold_one_name
from ..inspection import whole_reading
from ..model import make_doi
from .rows import INPUT_LIMIT, BatchSummary, RowFields, Status, new_fields, shown_input

__all__ = ["line_name", "plain_fields", "tail_name"]


_URL = "https://doi.org/"
_API = "https://doi.org/api/handles/"


#: A line that is one labelled plain name: ``doi:10...`` (a ``doi:`` URI) or ``DOI: 10...``
#: (a label, any case, its colon and up to seven spaces or tabs: R6), as extract's
#: one-line pattern reads a bare name or a doi.org link.
_LABELLED_LINE = re.compile(
    r"[ \t]*(?P<m>(?:(?P<uri>[Dd][Oo][Ii]:)|[Dd][Oo][Ii]:?[ \t]{1,7})"
    r"(?P<p>10\.[0-9]{4,9})/(?P<s>[A-Za-z0-9_/\-]+(?:\.[A-Za-z0-9_/\-]+)*))[ \t]*")


def line_name(text: str) -> list[Plain] | None:
    """The name of a line that is one plain name, doi.org link, ``doi:`` URI or labelled
    name and nothing else (spaces and tabs around it aside), as
    :func:`~doiname.extract.plain.plain_names` gives it; ``None`` for any other line. A
    bare name or a link is what :func:`doiname.extract` reads first (its one-line
    pattern); the name is bounded as plain_names bounds it, so that
    :func:`doiname.check` has nothing to say of it (at most 100 characters, no reserved
    ``x/`` start, 002 §4.3)."""
    m = fast_line(text)
    if m is not None:
        form = "url" if m["u"] else "name"
    else:
        m = _LABELLED_LINE.fullmatch(text)
        if m is None:
            return None
        form = "doi-uri" if m["uri"] else "label"
    s0, s1 = m.span("s")
    start, end = m.span("m")
    if (not text[s1 - 1].isalnum()
            or (text.find("/", s0, s1) != -1 and r19_viewer_tail(text, s0 - 1, s1) != s1)):
        return None  # (R19 reads a tail after a "/" of the suffix: none, no tail)
    return [new_plain((start, end, form, m["p"], m["s"], False))]


#: A plain name at the end of a line (spaces or tabs after it aside).
_TAIL_NAME = re.compile(r"10\.([0-9]{4,9})/([A-Za-z0-9_/\-]+(?:\.[A-Za-z0-9_/\-]+)*)[ \t]*")
_TAIL_HEADS = tuple((head, len(head)) for head in DOI_LINK_HEADS)


def tail_name(text: str) -> list[Plain] | None:
    """The name of a reference line that ends in one doi.org link or ``doi:`` URI
    (``Smith, J. (2019). ... https://doi.org/10...``), as
    :func:`~doiname.extract.plain.plain_names` gives it, when what comes before the link
    (after a space) holds nothing any rule of the scanner reads: no anchor ``10.`` (R4),
    no ``10/`` (R17), no ``doi`` (R18), nothing to clean (R1-R3); the link or URI is read
    as R6 reads it (002 §4, 003 ch. 2). ``None`` otherwise."""
    a = text.rfind("10.")
    if a < 5:
        return None
    form = ""
    start = a - 4
    if text[a - 1] == ":":
        if text[start:a - 1].lower() == "doi" and text[start:a - 1].isascii():
            form = "doi-uri"
    elif text[a - 1] == "/":
        for head, n in _TAIL_HEADS:
            if text.startswith(head, a - n):
                form, start = "url", a - n
                break
    if not form or (start and not text[start - 1].isspace()):
        return None
    m = _TAIL_NAME.fullmatch(text, a)
    if m is None:
        return None
    s0, s1 = m.span(2)
    pre = text[:start]
    if (not text[s1 - 1].isalnum() or "10." in pre or "10/" in pre or needs_cleaning(text)
            or (_DOI_WORD.search(pre) is not None if not pre.isascii()
                else "doi" in pre.lower())
            or (text.find("/", s0, s1) != -1 and r19_viewer_tail(text, s0 - 1, s1) != s1)):
        return None
    return [new_plain((start, s1, form, text[a:s0 - 1], m[2], False))]


def plain_fields(number: int, text: str, key: str | None, plain: list[Plain],
                 seen: dict[str, int], max_names: int,
                 summary: BatchSummary) -> list[RowFields] | None:
    """The rows of a line whose names (one or more) are all plain
    (:func:`~doiname.extract.plain.plain_names`, none the reader must read) and of which
    :func:`doiname.check` has nothing to say (:func:`doiname.findings.quiet`: no rule
    applies), deduplicated against ``seen`` (which keeps at most ``max_names``): exactly
    the general path's rows (002 §4.3, 003 ch. 3, 000); ``None`` for another line."""
    for p in plain:
        if p.read or not p.suffix.isascii() or not quiet(p.prefix + "/" + p.suffix):
            return None  # (a name outside ASCII has its links encoded: the general path)
    if len(plain) > 1 and len({equivalence_key(make_doi(p.prefix, p.suffix))
                               for p in plain}) < len(plain):
        return None  # (a name written twice is one, said: the general path, one_per_name)
    # the line's whole text read as one name (an alternative of its one name), found
    # before the row is made, so that each row is made once
    alternatives: tuple[str, ...] = ()
    if len(plain) == 1:
        start, end, form, prefix, suffix, _ = plain[0]
        if (text[:start].strip() or text[end:].strip()) and may_hold_one_name(text):
            m = Match(make_doi(prefix, suffix), start, end, text[start:end], (), form)
            whole = whole_reading(text, [m])
            if whole is not None:
                alternatives = (str(whole.doi),)
    shown = text if len(text) <= INPUT_LIMIT else None
    rows: list[RowFields] = []
    for start, end, form, prefix, suffix, _ in plain:
        # to_url, to_uri and to_handles_api_url of a plain name (see above)
        name = prefix + "/" + suffix
        ssp = prefix + "/" + suffix.replace("/", "%2F") if "/" in suffix else name
        name_key = name.lower()
        if name_key == name:
            name_key = name  # one string for the row and the key
        first = seen.get(name_key)
        if first is None:
            status: Status = "ok"
            if len(seen) < max_names:
                seen[name_key] = number
            else:
                summary.names_not_kept += 1
        else:
            status = "duplicate"
        # (fix_dot_segments' own first test, before the call)
        path = fix_dot_segments(name) if "/." in name else name
        rows.append(new_fields((
            number, shown if shown is not None else shown_input(text, start, end), status,
            name, _URL + path, "doi:" + ssp, (), first, start, end, text[start:end], form,
            _API + ssp, alternatives, key, (prefix, suffix))))
    return rows
