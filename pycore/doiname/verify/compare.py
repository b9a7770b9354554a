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
from typing import Literal

from ..registry.work import Work
from .fields import ReferenceEvidence
from .normalise import fold, significant, words
from .title import TitleMatch, locate_title

__all__ = [
    "NOTICE_HEAD",
    "Context",
    "Evidence",
    "EvidenceField",
    "EvidenceState",
    "compare_author",
    "compare_container",
    "compare_number",
    "compare_title",
    "compare_year",
    "container_follows",
    "registered_title",
    "title_cover",
]

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

#: The head of a title that names the data or the supplement of a work: ``Data from: <the
#: title>`` (Dryad's data packages), ``Supplementary material for ...``.
DATA_HEAD = re.compile(
    r"^\s*(?:data\s+from|dataset\s+(?:for|from)|(?:supplementary|supplemental|supporting)\s+"
    r"(?:material|materials|data|information)\s+(?:for|to|from))\s*[:.\-\u2013\u2014]?\s*",
    re.IGNORECASE)

_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")
#: A year as a word of a reference (``2008``, ``2008a``): never a volume or a page.
_YEAR_WORD = re.compile(r"(?:1[5-9]\d\d|20\d\d)[a-z]?")


@dataclass(frozen=True, slots=True)
class Evidence:
    """One field compared: ``field``, ``state`` and a plain sentence (``message``)."""

    field: EvidenceField
    state: EvidenceState
    message: str


@dataclass(frozen=True, slots=True)
class Context:
    """A reference as the comparisons read it: its evidence, its folded ``words``, and
    where the registered title was found in them (``title``); ``outside`` are the words
    around the title, ``after`` those after it (where a journal, volume and pages stand
    in every common citation style)."""

    ref: ReferenceEvidence
    words: list[str]
    title: TitleMatch

    @property
    def located(self) -> bool:
        """Whether the title was found (most of it) in a text."""
        return not self.ref.structured and self.title.cover >= 0.8

    @property
    def outside(self) -> list[str]:
        if not self.located:
            return self.words
        return self.words[:self.title.start] + self.words[self.title.end:]

    @property
    def wordy(self) -> bool:
        """Whether the text has words that could name an author or a journal (two or
        more of two letters or more): one that has none says nothing of either."""
        return self.ref.structured or sum(len(w) > 1 and w.isalpha() for w in self.words) >= 2

    @property
    def after(self) -> list[str]:
        return self.words[self.title.end:] if self.located else self.words


def title_cover(registered: str, reference_words: list[str]) -> float:
    """How much of a registered title a reference's words hold, 0 to 1
    (:func:`~.title.locate_title`)."""
    return locate_title(registered, reference_words).cover


def registered_title(work: Work) -> str:
    """The title a citation gives: the title and, when the record has one, its subtitle."""
    return work.title if not work.subtitle else f"{work.title}: {work.subtitle}"


def compare_title(ctx: Context, work: Work) -> Evidence:
    """The title: agreed when most of its words are there in order and close together,
    differed when few are (or its part number differs), absent when a side has none."""
    if not work.title:
        return Evidence("title", "absent", "The record gives no title.")
    ref = ctx.ref
    if ref.structured and not ref.title:
        return Evidence("title", "absent", "The reference gives no title.")
    got = ctx.title.cover
    if ref.structured:
        got = max(got, title_cover(ref.title, words(registered_title(work))) * 0.95)
    if ctx.title.numerals_differ:
        return Evidence("title", "differed", f"Title differs in its number: the DOI is "
                        f"registered for “{work.title}”.")
    if got >= 0.8:
        return Evidence("title", "agreed", f"Title agrees: “{work.title}”.")
    if got >= 0.5:
        return Evidence("title", "differed", f"Title partly differs: the DOI is registered "
                        f"for “{work.title}”.")
    if not ref.structured and _too_few_words(ctx, work):
        return Evidence("title", "absent", "The reference gives no title (too few words "
                        "besides names, numbers and the journal).")
    return Evidence("title", "differed", f"Title differs: the DOI is registered for "
                    f"“{work.title}”.")


#: Words a reference's text needs, besides the record's names and numbers, to hold a
#: title that can differ from the record's.
_TITLE_MIN_WORDS = 3


def _too_few_words(ctx: Context, work: Work) -> bool:
    """Whether a text has too few words to hold a title: fewer than three words of two
    letters or more that are not the record's first author, its journal or stop words
    (``Y. LeCun, Y. Bengio, Nature 521, 436 (2015)``: a style without titles)."""
    known = set(words(" ".join(a.family or a.literal for a in work.authors[:50])))
    known.update(words(f"{work.container_title} {work.container_short}"))
    left = [w for w in significant(ctx.words) if len(w) > 1 and w.isalpha() and w not in known]
    return len(left) < _TITLE_MIN_WORDS


def compare_author(ctx: Context, work: Work) -> Evidence:
    """The first author's family name (or an organisation's name) among the reference's
    words, or its author field."""
    if not work.authors:
        return Evidence("first-author", "absent", "The record names no author.")
    first = work.authors[0]
    name = first.family or first.literal
    tokens = significant(words(name))
    if not tokens:
        return Evidence("first-author", "absent", "The record names no author.")
    ref = ctx.ref
    where = words(ref.first_author) if ref.structured else ctx.outside
    if (ref.structured and not where) or not ctx.wordy:
        return Evidence("first-author", "absent", "The reference names no author.")
    have = set(where)
    if all(t in have for t in tokens) or (len(tokens) > 1 and tokens[-1] in have):
        return Evidence("first-author", "agreed", f"First author agrees: {name}.")
    squashed = "".join(where)
    if len("".join(tokens)) >= 4 and "".join(tokens) in squashed:
        return Evidence("first-author", "agreed", f"First author agrees: {name}.")
    return Evidence("first-author", "differed", f"First author differs: the record's is "
                    f"{name}.")


def compare_year(ctx: Context, work: Work) -> Evidence:
    """A year of the reference within one of a year of the record (issued, online or
    print: an article online first is cited with either year)."""
    years = {y for y in (work.issued_year, work.online_year, work.print_year) if y}
    if not years:
        return Evidence("year", "absent", "The record gives no year.")
    ref = ctx.ref
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


def compare_container(ctx: Context, work: Work) -> Evidence:
    """The journal or book (its full or short title, whole or abbreviated): after the
    title in a text; absent when the text ends with the title."""
    names = [n for n in (work.container_title, work.container_short) if n]
    if not names:
        return Evidence("container", "absent", "The record names no journal or book.")
    ref = ctx.ref
    where = significant(words(ref.container) if ref.structured else ctx.after)
    if not any(w.isalpha() for w in where) or not ctx.wordy:
        return Evidence("container", "absent", "The reference names no journal or book.")
    for n in names:
        name = significant(words(n))
        if _container_in(name, where) or (ref.structured and _container_in(where, name)):
            return Evidence("container", "agreed", f"Journal agrees: {names[0]}.")
    return Evidence("container", "differed", f"Journal differs: the record says {names[0]}.")


def container_follows(ctx: Context, work: Work) -> bool:
    """Whether the text goes on, right after the title, with the journal (or ends): the
    reference's title ends where the registered main title does (a subtitle left out)."""
    after = significant(ctx.after)[:12]
    if not any(w.isalpha() for w in after) or not (work.container_title or work.container_short):
        return True
    for n in (work.container_title, work.container_short):
        name = significant(words(n))
        if name and _container_in(name, after[:len(name) + 2]):
            return True
    return False



def _standalone(value: str, text: str) -> bool:
    """Whether ``value`` stands in ``text`` as a number of its own: not inside a word or a
    name (``1-hydroxypyrene``, ``CD4``), though it may open a range (``75-90``,
    ``S93-S95``, ``ii13-ii16``, ``293_318``)."""
    value, text = value.lower(), text.lower()
    at = text.find(value)
    while at >= 0:
        before = text[at - 1] if at else " "
        rest = text[at + len(value):at + len(value) + 40]
        if not (before.isalnum() or before in ".-/") and _ends_number(rest):
            return True
        at = text.find(value, at + 1)
    return False


def _ends_number(rest: str) -> bool:
    """Whether what follows a number ends it: not a letter or digit, not ``/``, not a
    decimal part, not a hyphen that joins it to a word (``-hydroxypyrene``)."""
    if not rest:
        return True
    first = rest[0]
    if first.isalnum() or first == "/":
        return False
    if first in ".," and rest[1:2].isalnum():
        return False
    if first in "-\u2010\u2011\u2012\u2013\u2014\u2015":
        word = rest[1:].lstrip()
        letters = len(word) - len(word.lstrip("abcdefghijklmnopqrstuvwxyz"))
        return letters < 2 or (letters < len(word) and word[letters].isalnum())
    return True


def compare_number(ctx: Context, work: Work, which: Literal["volume", "first-page"]) -> Evidence:
    """The volume or the first page, as a word of the reference outside its title (or
    its field); absent when the reference has no number that could be it: in a text, a
    year is none, nor the record's other numbers (its issue, its volume or pages), so
    that ``74, 3 (1992)`` (volume and issue) says nothing of the first page."""
    value = work.volume if which == "volume" else work.first_page
    label = "Volume" if which == "volume" else "First page"
    wanted = fold(value).split()
    if not wanted:
        return Evidence(which, "absent", f"The record gives no {label.lower()}.")
    ref = ctx.ref
    given = ref.volume if which == "volume" else ref.first_page
    where = words(given) if ref.structured else ctx.outside
    others = set(fold(f"{work.issue} {work.pages} {work.first_page}" if which == "volume"
                      else f"{work.issue} {work.volume}").split()) - set(wanted)
    if not any(any(c.isdigit() for c in w) and (ref.structured or (
            _YEAR_WORD.fullmatch(w) is None and w not in others)) for w in where):
        return Evidence(which, "absent", f"The reference gives no {label.lower()}.")
    have = set(where)
    if (all(w in have for w in wanted) or (wanted[0] in have and which == "first-page")) and (
            ref.structured or _standalone(value, ref.text) or _standalone(wanted[0], ref.text)):
        return Evidence(which, "agreed", f"{label} agrees: {value}.")
    return Evidence(which, "differed", f"{label} differs: the record says {value}.")
