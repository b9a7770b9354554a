"""Where the records of a list start: what kind of record a line opens (a BibTeX entry,
a RIS record, a JSON object, a CSV row, plain text) and whether a plain line goes on with
the reference of the lines before it (a reference wrapped over lines, as copies from a PDF
are). :mod:`doiname.records` groups a list's lines with them.
"""

from __future__ import annotations

import re
from typing import Literal

from .extract.breaks import PREFIX_REST

__all__ = [
    "BIBTEX_START",
    "BLANK_ENDED",
    "CHARS_BOUNDED",
    "JSON_PUNCTUATION",
    "MEDLINE_START",
    "OPENERS",
    "REFERENCE_KINDS",
    "REFER_START",
    "STRUCTURED_KINDS",
    "UNCLOSED_ENDS",
    "WOS_END",
    "WOS_START",
    "Kind",
    "cited_lines",
    "continues",
    "continues_named",
    "ends_with_name",
    "restarts",
    "starts",
    "wos_frame",
]

Kind = Literal["line", "reference", "bibtex", "ris", "medline", "refer", "wos", "json", "csv",
               "structure"]
#: Kinds of record made of fields (one row for each name, wherever in the record).
STRUCTURED_KINDS: frozenset[str] = frozenset({"bibtex", "ris", "medline", "refer", "wos",
                                              "json", "csv"})
#: Kinds of record whose fields say which work they cite (title, authors, year: what
#: Check all compares with the registry's record).
REFERENCE_KINDS: frozenset[str] = frozenset({"bibtex", "ris", "medline", "refer", "wos",
                                             "json"})
#: The first line of a PubMed record in MEDLINE format (PubMed's "PubMed" export, .nbib):
#: ``PMID- 26017442``; the record ends at a blank line.
MEDLINE_START = "PMID-"
#: The first line of an EndNote record in the Refer format (``.enw``): its type,
#: ``%0 Journal Article``; the record ends at a blank line.
REFER_START = "%0 "
#: The kinds of record that end at a blank line, or where the next one starts (no blank
#: line between), or where the input ends: the first line of each.
BLANK_ENDED: dict[str, str] = {"medline": MEDLINE_START, "refer": REFER_START}
#: The first line of a Web of Science record (its plain-text export, ``savedrecs.txt``):
#: the publication type, ``PT J``; the record ends with a line ``ER``.
WOS_START = re.compile(r"PT [A-Z]\s*$")
WOS_END = "ER"
#: The kinds of record bounded by their characters alone, not their lines: a blank line or
#: a line of its own ends them, and a paper's hundreds of authors (or, in Web of Science,
#: its cited references) take a line each.
CHARS_BOUNDED: frozenset[str] = frozenset({*BLANK_ENDED, "wos"})
#: The lines that frame a Web of Science export: its first two and its last.
_WOS_FRAME = re.compile(r"FN .*Web of Science.*|VR \d[\d.]*\s*|EF\s*")

#: A BibTeX entry's first line: ``@type{key,`` (or ``(``; the key may end the line, its
#: comma on the next), or an ``@string``, ``@preamble`` or ``@comment`` entry, which has
#: no key. (``@SUM(1) ...`` or ``@nature (2020) ...`` opens no entry.)
BIBTEX_START = re.compile(
    r"\s*@\s*(?:(?:string|preamble|comment)\s*[{(]"
    r"|(?P<type>[A-Za-z]+)\s*[{(]\s*(?P<key>[^,\s{}()]*)\s*(?:,|$))", re.IGNORECASE)
JSON_PUNCTUATION = re.compile(r"\s*[\[\]],?\s*")
#: First characters of a line that may open a record or be structure (a line starting
#: with anything else, not a space, is plain text: ``starts`` says "line" for it).
OPENERS = frozenset("@{[]TP%")
#: A line that starts a reference of its own: a number or a bullet (``1.``, ``[1]``,
#: ``(1)``, ``-``, ``*``, ``•``) ...
_LIST_START = re.compile(
    r"\s*(?:\[\d{1,4}\]|\(\d{1,4}\)|\d{1,4}[.)](?:\s|$)|[-*\u2022\u2013](?:\s|$))")
#: What a line that ``_LIST_START`` matches starts with (after spaces), a digit aside.
_LIST_FIRST = frozenset("[(-*\u2022\u2013")
#: ... or an author (``Smith, J.``, ``Smith JA,``, ``Smith J.``).
_AUTHOR_START = re.compile(r"[A-Z][^\s,.;:()]*(?:,\s+[A-Z]|\s+[A-Z]{1,3}[,.](?:\s|$))")
#: A line that starts with a DOI name, a doi: label or a link (what a reference copied
#: from a PDF often has on a line of its own).
_NAME_START = re.compile(r"\s*(?:(?:https?://|doi:|DOI\b|10\.\d)|(?:dx\.)?doi\.org/)",
                         re.IGNORECASE)
#: What a line that ``_NAME_START`` matches starts with (after spaces, which ``\s``
#: and ``str.isspace`` agree on).
_NAME_FIRST = frozenset("hHdD1")
#: A line whose first word may be the rest of a name cut by the line break.
_NAME_REST = re.compile(r"[\w.\-]+[.,;:]?(?:\s|$)")
#: ... or a line that is only a name's last group, cut before its ``-`` or ``.``.
_GROUP_REST = re.compile(r"[-._][^\W_][\w.\-]*[.,;:]?\s*")
#: ... or, after a name ending in ``. - / _`` (a PDF's line break cut it there), a first
#: word that starts with a letter or a digit, of name characters, brackets and the closer
#: of one opened before the name (``S1074-7613(00)80572-5``, ``1038/sj.mp.4000812)``,
#: ``A:1007558323191.``; not ``% a comment``, ``- an item``).
_CUT_REST = re.compile(r"[^\W_][\w.\-/:;()<>\[\]#%+*~]*,?(?:\s|$)")
#: The ways text holds a DOI name, a shortDOI or a link to one (:func:`_has_name`): each
#: alone is found from its first characters, where a pattern of all of them is tried at
#: every character; the last two are asked of ASCII text in lower case.
_NAME_ANCHOR = re.compile(r"10\.\d{1,9}/")
_SHORT_NAME = re.compile(r"(?<![\w.])10/\w")
_DOI_LINK_OR_URI = re.compile(r"doi\.org/|\bdoi:")
#: All of them in any case, for text outside ASCII ("i" matches "ı" and "İ" there).
_HAS_NAME = re.compile("|".join(p.pattern for p in (_NAME_ANCHOR, _SHORT_NAME,
                                                    _DOI_LINK_OR_URI)), re.IGNORECASE)


def _has_name(text: str) -> bool:
    """Whether ``text`` holds a DOI name, a shortDOI or a link to one: ``_HAS_NAME``
    found somewhere in it."""
    if not text.isascii():
        return _HAS_NAME.search(text) is not None
    if "10" in text and (_NAME_ANCHOR.search(text) is not None
                         or _SHORT_NAME.search(text) is not None):
        return True
    low = text.lower()
    return "doi" in low and _DOI_LINK_OR_URI.search(low) is not None


#: The end of a line whose sentence goes on: a comma, a semicolon, an ampersand, a hyphen
#: or dash, or a word that joins (``and``, ``in``, ``of``, ``the``).
_OPEN_END = re.compile(r"(?:[,;&\-\u2010\u2013/]|\b(?:and|in|of|the|to|for|on|&))\s*$")


def continues(before: tuple[str, ...] | list[str], line: str) -> bool:
    """Whether ``line`` goes on with the reference of the plain lines ``before`` (one
    reference wrapped over lines, as copies from a PDF give it), not a record of its own.

    A blank line, a line that opens a structured record (BibTeX, RIS, MEDLINE, Refer, Web of
    Science, JSON) and a line that starts with a number or a bullet begin a new record, and
    so does a line that starts with an author (``Smith, J.``) unless the line before ends
    mid-sentence. Otherwise the line goes on with the one before when:

    - it starts with a DOI name, a ``doi:`` label or a link and the lines before hold
      none and are more than a heading (three words or more), or the line before ends
      with ``/`` or ``doi:``: the reference's link on a line of its own;
    - the line before ends with a DOI name (where a reference ends: nothing else goes
      on with it), save when this line's first word holds only letters, digits, ``.``,
      ``_`` and ``-`` and starts with a digit, or the line is one such word holding a
      digit that starts with ``-``, ``.`` or ``_`` (``-4``, ``.14.82``), or the name ends
      with ``.``, ``-``, ``/`` or ``_`` and this line does not start with an author and
      its first word is made of name characters (brackets and a closer after it
      included): the rest of a name cut by the line break, whether it belongs to it the
      split-name rule (extract R22) and the line-break rule (R21) decide on the record's
      text; and so does a line that starts with a registrant and its ``/`` after a
      ``doi:10.`` or a ``doi.org/10.`` that ends the line before;
    - it starts in lower case and the line before does not end with ``.``: a sentence
      that goes on;
    - the line before ends mid-sentence (``,``, ``;``, ``&``, a hyphen or dash, ``and``,
      ``in``, ``of``...): even an author's name goes on the list of authors.
    """
    return continues_named(before, line, ends_with_name(before[-1]))


def ends_with_name(line: str) -> bool:
    """Whether the last word of ``line`` (after its last space) holds a DOI name, a
    shortDOI or a link to one (:func:`continues` asks it of the line before)."""
    tail = line.rstrip()
    return _has_name(tail[tail.rfind(" ") + 1:])


def continues_named(before: tuple[str, ...] | list[str], line: str, named: bool) -> bool:
    """:func:`continues`, ``named`` being :func:`ends_with_name` of ``before[-1]``."""
    head = line.lstrip()
    tail = before[-1].rstrip()
    if not head or not tail:
        return False
    first = head[0]
    if named and tail[-1] not in ".-/_:" and (  # (what the tests below say, sooner: after
            not (first.isdigit() or first in "-._") or _NAME_START.match(head) is not None):
        return False  # a name the reference ends, but for a name's rest or a link after it
    # (each pattern below is asked only when the line can start with it)
    if ((first in OPENERS and starts(line, None) != "line")
            or (first in "[]" and JSON_PUNCTUATION.fullmatch(line) is not None)
            or ((first in _LIST_FIRST or first.isdecimal()) and _LIST_START.match(line))):
        return False
    if first in _NAME_FIRST and _NAME_START.match(head):
        if tail[-4:].lower().endswith(("/", "doi:")):  # (as the whole line's lower case)
            return True
        if named:  # (a name there is one in the lines before: no need to search them all)
            return False
        text = " ".join(before)
        return not _has_name(text) and len(text.split()) >= 3
    if named:  # a line that ends with a name: the reference ends, but for the name's rest
        if (tail[-1] in ".-/_" and _CUT_REST.match(head) is not None  # (the word's end)
                and _AUTHOR_START.match(head) is None):
            return True
        if first in "-._":  # a name's last group alone on the line ("-4", ".14.82": R21)
            return _GROUP_REST.fullmatch(head) is not None and any(map(str.isdigit, head))
        return first.isdigit() and _NAME_REST.match(head) is not None
    if (tail[-1] == "." and tail.endswith("10.") and first.isdigit()
            and "doi" in tail[-24:].lower() and PREFIX_REST.match(head) is not None):
        return True  # (a labelled name or a link cut after its "10.": extract R21 joins it)
    # (its longest match is a word of three letters and the boundary before it: the last
    # four characters say what the whole line would, without a search along it)
    if _OPEN_END.search(tail[-4:]) is not None:
        return True
    return head[:1].islower() and not tail.endswith(".")


def starts(line: str, hint: str | None) -> Kind:
    """What kind of record a line opens."""
    if BIBTEX_START.match(line):
        return "bibtex"
    if line.startswith("TY  -"):
        return "ris"
    if line.startswith(MEDLINE_START):
        return "medline"
    if line.startswith(REFER_START):
        return "refer"
    if line.startswith("PT ") and WOS_START.match(line):
        return "wos"
    stripped = line.lstrip()
    if stripped.startswith("{"):
        return "json"
    if hint == "csv" and line.count('"') % 2 == 1:
        return "csv"
    return "line"


#: The kinds of record that close with a line or a brace of their own: where the next one
#: of the same kind starts first, the open one never closed (a BibTeX entry's unbalanced
#: brace, a RIS or Web of Science record's missing ``ER``) and ends there, said.
UNCLOSED_ENDS: frozenset[str] = frozenset({"bibtex", "ris", "wos"})


def restarts(kind: Kind, line: str) -> bool:
    """Whether ``line`` opens a record of ``kind`` (one of :data:`UNCLOSED_ENDS`), so that
    one still open of that kind never closed: :func:`starts`' own test."""
    return kind in UNCLOSED_ENDS and starts(line, None) == kind


def wos_frame(line: str) -> bool:
    """Whether ``line`` frames a Web of Science export (``FN Clarivate Analytics Web of
    Science``, ``VR 1.0``, ``EF``): structure, no record."""
    return line[:1] in "FVE" and _WOS_FRAME.fullmatch(line) is not None


def cited_lines(lines: tuple[str, ...] | list[str]) -> range:
    """The lines of a Web of Science record that hold its cited references: its ``CR``
    field (``CR Hinton GE, 2006, SCIENCE, ..., DOI 10.1126/...`` and the lines indented by
    three spaces after it), as indices of ``lines``; an empty range when it has none."""
    for i, line in enumerate(lines):
        if line.startswith("CR "):
            j = i + 1
            while j < len(lines) and lines[j].startswith("   "):
                j += 1
            return range(i, j)
    return range(0)
