"""Field by field: does a reference say what the registry says of the work (002
foreword, "DOI and Metadata")? Each comparison gives a :class:`Evidence` whose ``state``
is ``agreed``, ``differed`` or ``absent`` (the reference or the record does not say).

In a reference written as text, each part of the record is looked for in the whole text
(its words in order for a title, a name among the words, a number among the numbers), so
that no citation style needs recognising; a record's fields are compared field to field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Literal

from ..registry.work import Work
from .fields import ReferenceEvidence
from .normalise import fold, significant, words

__all__ = ["NOTICE_HEAD", "Evidence", "EvidenceField", "EvidenceState", "compare_author",
           "compare_container", "compare_number", "compare_title", "compare_year",
           "title_cover"]

EvidenceField = Literal["title", "first-author", "year", "container", "volume", "first-page"]
EvidenceState = Literal["agreed", "differed", "absent"]

#: The head of a notice's title: ``Correction to: <the title>``, ``Erratum``,
#: ``Retraction note to``, ``Expression of concern:``, ``RETRACTED:``.
NOTICE_HEAD = re.compile(
    r"^\s*(?:(?:notice\s+of\s+)?(?:retraction|retracted|correction|corrigendum|erratum|"
    r"errata|addendum|withdrawal|withdrawn|removal|removed|expression\s+of\s+concern|"
    r"editorial\s+expression\s+of\s+concern|publisher'?s?\s+note|author\s+correction|"
    r"publisher\s+correction)(?:\s+(?:note|notice|statement))?(?:\s+(?:to|for|of|on|re))?"
    r"\s*[:.\-\u2013\u2014]?\s*)", re.IGNORECASE)

_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")


@dataclass(frozen=True, slots=True)
class Evidence:
    """One field compared: ``field``, ``state`` and a plain sentence (``message``)."""

    field: EvidenceField
    state: EvidenceState
    message: str


def _cover(title: list[str], text: list[str]) -> float:
    """The share of a title's words found in the text in order and close together: the
    matching blocks within one stretch of the text at most a third longer than the title
    (so that ``Deep learning`` is not found in ``Deep residual learning for ...``)."""
    if not title or not text:
        return 0.0
    matcher = SequenceMatcher(None, title, text, autojunk=False)
    blocks = [b for b in matcher.get_matching_blocks() if b.size]
    reach = len(title) + len(title) // 3
    best = 0
    for i, first in enumerate(blocks):
        got = 0
        for b in blocks[i:]:
            if b.b + b.size - first.b > reach:
                break
            got += b.size
        best = max(best, got)
    return best / len(title)


def title_cover(registered: str, reference_words: list[str]) -> float:
    """How much of a registered title a reference's words hold, 0 to 1: its significant
    words in order, or its main title alone (before a subtitle's colon) when that is
    held whole; a title cut short by the reference (the text ends inside it) counts what
    was there."""
    tokens = significant(words(registered))
    ref = significant(reference_words)
    if not tokens:
        return 0.0
    best = _cover(tokens, ref)
    main = re.split(r"[:?!]\s|\.\s|\s[-\u2013\u2014]\s", registered, maxsplit=1)[0]
    main_tokens = significant(words(main))
    if best < 1.0 and 3 <= len(main_tokens) < len(tokens):
        best = max(best, 0.95 * _cover(main_tokens, ref))
    return best


def compare_title(ref: ReferenceEvidence, work: Work,
                  ref_words: list[str]) -> tuple[Evidence, float]:
    """The title: agreed when most of its words are there in order (:func:`title_cover`),
    differed when few are, absent when either side has none."""
    if not work.title:
        return Evidence("title", "absent", "The record gives no title."), 0.0
    registered = work.title if not work.subtitle else f"{work.title}: {work.subtitle}"
    if ref.structured:
        if not ref.title:
            return Evidence("title", "absent", "The reference gives no title."), 0.0
        got = max(title_cover(registered, words(ref.title)),
                  title_cover(ref.title, words(registered)) * 0.95)
    else:
        got = title_cover(registered, ref_words)
    if got >= 0.8:
        return Evidence("title", "agreed", f"Title agrees: “{work.title}”."), got
    if got >= 0.5:
        return Evidence("title", "differed", f"Title partly differs: the DOI is registered "
                        f"for “{work.title}”."), got
    return Evidence("title", "differed", f"Title differs: the DOI is registered for "
                    f"“{work.title}”."), got


def compare_author(ref: ReferenceEvidence, work: Work, ref_words: list[str]) -> Evidence:
    """The first author's family name (or an organisation's name) among the reference's
    words, or its author field."""
    if not work.authors:
        return Evidence("first-author", "absent", "The record names no author.")
    first = work.authors[0]
    name = first.family or first.literal
    tokens = significant(words(name))
    if not tokens:
        return Evidence("first-author", "absent", "The record names no author.")
    where = words(ref.first_author) if ref.structured else ref_words
    if ref.structured and not where:
        return Evidence("first-author", "absent", "The reference names no author.")
    have = set(where)
    if all(t in have for t in tokens) or (len(tokens) > 1 and tokens[-1] in have):
        return Evidence("first-author", "agreed", f"First author agrees: {name}.")
    squashed = "".join(where)
    if len("".join(tokens)) >= 4 and "".join(tokens) in squashed:
        return Evidence("first-author", "agreed", f"First author agrees: {name}.")
    return Evidence("first-author", "differed", f"First author differs: the record's is "
                    f"{name}.")


def compare_year(ref: ReferenceEvidence, work: Work) -> Evidence:
    """A year of the reference within one of a year of the record (issued, online or
    print: an article online first is cited with either year)."""
    years = {y for y in (work.issued_year, work.online_year, work.print_year) if y}
    if not years:
        return Evidence("year", "absent", "The record gives no year.")
    cited = {int(y) for y in _YEAR.findall(ref.year if ref.structured else ref.text)}
    if not cited:
        return Evidence("year", "absent", "The reference gives no year.")
    shown = work.year or min(years)
    if any(abs(c - y) <= 1 for c in cited for y in years):
        return Evidence("year", "agreed", f"Year agrees: {shown}.")
    return Evidence("year", "differed", f"Year differs: the record says {shown}.")


def _abbreviates(short: str, full: str) -> bool:
    return short == full or (len(short) >= 3 and full.startswith(short)) or (
        len(full) >= 3 and short.startswith(full))


def _container_in(name: list[str], text: list[str]) -> bool:
    """Whether a container's words are in the text in order, each written whole or
    abbreviated (``J Biol Chem`` for ``Journal of Biological Chemistry``)."""
    if not name:
        return False
    for start in range(len(text)):
        if not _abbreviates(text[start], name[0]):
            continue
        i, j = 1, start + 1
        while i < len(name) and j < len(text) and j - start <= 2 * len(name) + 2:
            if _abbreviates(text[j], name[i]):
                i += 1
            j += 1
        if i == len(name):
            return True
    return False


def compare_container(ref: ReferenceEvidence, work: Work, ref_words: list[str]) -> Evidence:
    """The journal or book (its full or short title, whole or abbreviated)."""
    names = [n for n in (work.container_title, work.container_short) if n]
    if not names:
        return Evidence("container", "absent", "The record names no journal or book.")
    where = significant(words(ref.container) if ref.structured else ref_words)
    if ref.structured and not where:
        return Evidence("container", "absent", "The reference names no journal or book.")
    for n in names:
        name = significant(words(n))
        if _container_in(name, where) or (ref.structured and _container_in(where, name)):
            return Evidence("container", "agreed", f"Journal agrees: {names[0]}.")
    return Evidence("container", "differed", f"Journal differs: the record says {names[0]}.")


def compare_number(ref: ReferenceEvidence, work: Work, ref_words: list[str],
                   which: Literal["volume", "first-page"]) -> Evidence:
    """The volume or the first page, as a word of the reference (or its field)."""
    value = work.volume if which == "volume" else work.first_page
    label = "Volume" if which == "volume" else "First page"
    wanted = fold(value).split()
    if not wanted:
        return Evidence(which, "absent", f"The record gives no {label.lower()}.")
    given = ref.volume if which == "volume" else ref.first_page
    where = words(given) if ref.structured else ref_words
    if not any(any(c.isdigit() for c in w) for w in where):
        return Evidence(which, "absent", f"The reference gives no {label.lower()}.")
    have = set(where)
    if all(w in have for w in wanted) or (wanted[0] in have and which == "first-page"):
        return Evidence(which, "agreed", f"{label} agrees: {value}.")
    return Evidence(which, "differed", f"{label} differs: the record says {value}.")
