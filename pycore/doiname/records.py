"""Records, not lines: a list's lines grouped into the references they belong to.

A reference list pasted or exported holds references, not lines: a BibTeX entry
(``@article{key, ... }``), a RIS record (``TY  -`` ... ``ER  -``), a JSON object
spread over lines, a CSV row whose quoted cell holds line breaks. :func:`iter_records`
groups a stream of lines into :class:`Record` objects, so that Batch gives one row per
reference (with the record's key or ID when there is one) instead of one row per field
line; plain text is one record per line unless a line continues the one before it (a
reference wrapped over lines, as copies from a PDF are: :func:`continues`), and mixed
lists (BibTeX, then RIS, then APA lines) are grouped piece by piece.

Memory and work are bounded: a record that does not close within
:data:`RECORD_MAX_LINES` lines or :data:`RECORD_MAX_CHARS` characters (an unbalanced
brace, a missing ``ER  -``) is given back as single lines, each read once, so nothing
waits for the end of the input and nothing is lost. Lines holding only JSON
punctuation (``[``, ``]``, ``],``) are structure, not records.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

from .limits import RECORD_MAX_CHARS, RECORD_MAX_LINES
from .record_names import json_key, label_of, ris_key

__all__ = ["RECORD_MAX_CHARS", "RECORD_MAX_LINES", "Kind", "Record", "RecordGrouper",
           "continues", "iter_records"]

Kind = Literal["line", "reference", "bibtex", "ris", "json", "csv", "structure"]

_BIBTEX_START = re.compile(r"\s*@\s*([A-Za-z]+)\s*[{(]\s*([^,\s{}()]*)")
_RIS_FIELD = re.compile(r"([A-Z][A-Z0-9])  -(?: |$)")
_JSON_PUNCTUATION = re.compile(r"\s*[\[\]],?\s*")
#: First characters of a line that may open a record or be structure (a line starting
#: with anything else, not a space, is plain text: ``_starts`` says "line" for it).
_OPENERS = frozenset("@{[]T")
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

@dataclass(frozen=True, slots=True)
class Record:
    """Lines that belong together: ``lines[0]`` is line ``first_line`` (counting from 1).

    ``kind`` says what grouped them: ``line`` (plain text, one line), ``bibtex``,
    ``ris``, ``json`` (an object, on one line or several), ``csv`` (a row whose quoted
    cell spans lines), ``reference`` (plain text wrapped over several lines,
    :func:`continues`) or ``structure`` (JSON punctuation: no row). ``key`` is the
    record's own key or ID (BibTeX key, RIS ``ID``, a JSON object's ``id``), or ``None``.
    """

    first_line: int
    lines: tuple[str, ...]
    kind: Kind
    key: str | None = None

    @property
    def text(self) -> str:
        """The record's lines joined with line feeds."""
        return "\n".join(self.lines)

    @property
    def last_line(self) -> int:
        """The number of the record's last line."""
        return self.first_line + len(self.lines) - 1

    @property
    def label(self) -> str | None:
        """What points a person at this record in a list (a Batch row's ``record``, the
        CSV's record column): its key and its first line, ``smith2020 · Smith (2020)
        Deep learning…``. The first line of a BibTeX entry, a RIS record or a JSON object
        is made of its first author's family name, year and title (002 foreword, "DOI and
        Metadata": the fields by their names, :data:`doiname.verify.fields.FIELD_NAMES`);
        that of a reference wrapped over lines or a CSV row over lines is its first line
        as written. ``None`` for a single plain line (its row shows the line itself) and
        for structure."""
        return label_of(self.kind, self.key, self.lines)


def _strip(line: str) -> str:
    if line.endswith("\n"):
        line = line[:-1]
    if line.endswith("\r"):
        line = line[:-1]
    return line


class _Depth:
    """Brace depth of JSON or BibTeX text, read line by line (strings respected)."""

    __slots__ = ("depth", "in_string", "quotes")

    def __init__(self, quotes: bool) -> None:
        self.depth = 0
        self.in_string = False
        self.quotes = quotes  # JSON: "..." hides braces (with \\ escapes)

    def feed(self, line: str) -> int:
        if not self.quotes or '"' not in line:
            # no string opens or closes on this line: inside one nothing counts, else
            # every brace does (and, for BibTeX, every parenthesis)
            if not self.in_string:
                self.depth += line.count("{") - line.count("}")
                if not self.quotes:
                    self.depth += line.count("(") - line.count(")")
            return self.depth
        escaped = False
        for c in line:
            if self.in_string:
                if escaped:
                    escaped = False
                elif c == "\\":
                    escaped = True
                elif c == '"':
                    self.in_string = False
            elif c == '"' and self.quotes:
                self.in_string = True
            elif c in "{(" if not self.quotes else c == "{":
                self.depth += 1
            elif c in "})" if not self.quotes else c == "}":
                self.depth -= 1
        return self.depth


def continues(before: tuple[str, ...] | list[str], line: str) -> bool:
    """Whether ``line`` goes on with the reference of the plain lines ``before`` (one
    reference wrapped over lines, as copies from a PDF give it), not a record of its own.

    A blank line, a line that opens a structured record (BibTeX, RIS, JSON) and a line
    that starts with a number or a bullet begin a new record, and so does a line that
    starts with an author (``Smith, J.``) unless the line before ends mid-sentence.
    Otherwise the line goes on with the one before when:

    - it starts with a DOI name, a ``doi:`` label or a link and the lines before hold
      none and are more than a heading (three words or more), or the line before ends
      with ``/`` or ``doi:``: the reference's link on a line of its own;
    - the line before ends with a DOI name (where a reference ends: nothing else goes
      on with it), save when this line's first word holds only letters, digits, ``.``,
      ``_`` and ``-`` and starts with a digit, or the name ends with ``.``, ``-``,
      ``/`` or ``_`` and this line does not start with an author: the rest of a name
      cut by the line break, whether it belongs to it the split-name rule (extract
      R22) and the dot-before-line-break join decide on the record's text;
    - it starts in lower case and the line before does not end with ``.``: a sentence
      that goes on;
    - the line before ends mid-sentence (``,``, ``;``, ``&``, a hyphen or dash, ``and``,
      ``in``, ``of``...): even an author's name goes on the list of authors.
    """
    return _continues(before, line, ends_with_name(before[-1]))


def ends_with_name(line: str) -> bool:
    """Whether the last word of ``line`` (after its last space) holds a DOI name, a
    shortDOI or a link to one (:func:`continues` asks it of the line before)."""
    tail = line.rstrip()
    return _has_name(tail[tail.rfind(" ") + 1:])


def _continues(before: tuple[str, ...] | list[str], line: str, named: bool) -> bool:
    """:func:`continues`, ``named`` being :func:`ends_with_name` of ``before[-1]``."""
    head = line.lstrip()
    tail = before[-1].rstrip()
    if not head or not tail:
        return False
    first = head[0]
    if named and tail[-1] not in ".-/_:" and (  # (what the tests below say, sooner: after
            not first.isdigit() or _NAME_START.match(head) is not None):  # a name the
        return False  # reference ends, but for a name's rest or a link after "/", "doi:")
    # (each pattern below is asked only when the line can start with it)
    if ((first in _OPENERS and _starts(line, None) != "line")
            or (first in "[]" and _JSON_PUNCTUATION.fullmatch(line) is not None)
            or ((first in _LIST_FIRST or first.isdecimal()) and _LIST_START.match(line))):
        return False
    if first in _NAME_FIRST and _NAME_START.match(head):
        if tail[-4:].lower().endswith(("/", "doi:")):  # (as the whole line's lower case)
            return True
        if named:  # (a name there is one in the lines before: no need to search them all)
            return False
        text = " ".join(before)
        return not _has_name(text) and len(text.split()) >= 3
    if named:  # a line that ends with a name: the reference ends
        if first.isdigit():
            return _NAME_REST.match(head) is not None
        return (tail[-1] in ".-/_" and _NAME_REST.match(head) is not None  # (the word's end)
                and _AUTHOR_START.match(head) is None)
    # (its longest match is a word of three letters and the boundary before it: the last
    # four characters say what the whole line would, without a search along it)
    if _OPEN_END.search(tail[-4:]) is not None:
        return True
    return head[:1].islower() and not tail.endswith(".")


def _starts(line: str, hint: str | None) -> Kind:
    """What kind of record a line opens."""
    if _BIBTEX_START.match(line):
        return "bibtex"
    if line.startswith("TY  -"):
        return "ris"
    stripped = line.lstrip()
    if stripped.startswith("{"):
        return "json"
    if hint == "csv" and line.count('"') % 2 == 1:
        return "csv"
    return "line"


class RecordGrouper:
    """Groups lines into records as they are pushed, one at a time (what a stream that
    is fed piece by piece needs); :func:`iter_records` is the same grouping pulled from
    an iterable.

    :meth:`add` takes the next line (without its line break) and appends to ``out`` what
    the lines so far complete, in order: :class:`Record` objects, or plain lines as the
    ``str`` itself (a record of kind ``line`` on the line after the previous item's). A
    plain line is held until the next line says whether it goes on with it
    (:func:`continues`): a stream reads one line ahead, never more. :meth:`finish` ends
    the input: a record still open gives its lines back.
    """

    __slots__ = ("_after", "_chars", "_depth", "_held", "_held_chars", "_held_named",
                 "_held_start", "_kind", "_number", "_pending", "_quotes", "_start", "hint")

    def __init__(self, *, hint: str | None = None, first_line: int = 1) -> None:
        self.hint = hint
        self._number = first_line - 1  # the number of the last line added
        self._pending: list[str] = []  # lines of a record still open
        self._kind: Kind = "line"
        self._start = first_line
        self._chars = self._quotes = 0
        self._depth = _Depth(quotes=True)
        self._after = False  # the last record was structured: blank lines are separators
        self._held: list[str] = []  # plain lines that the next line may continue
        self._held_start = first_line
        self._held_chars = 0
        self._held_named = False  # the last line held ends with a name (ends_with_name)

    @property
    def open_lines(self) -> int:
        """How many lines an open record holds (0 when none is open)."""
        return len(self._pending) + len(self._held)

    def add(self, line: str, out: list[Record | str]) -> None:
        """The next line: append what it completes to ``out``."""
        number = self._number = self._number + 1
        held = self._held
        if held:
            if (self._held_chars + len(line) <= RECORD_MAX_CHARS
                    and len(held) < RECORD_MAX_LINES
                    and _continues(held, line, self._held_named)):
                held.append(line)
                self._held_chars += len(line)
                self._held_named = ends_with_name(line)
                return
            self._release(out)  # (held is empty now, and is held again below)
        if not self._pending:
            first = line[:1]
            if (first and not first.isspace() and (self.hint != "csv" or '"' not in line)
                    and (first not in _OPENERS
                         # "[1] Doe A ..." or "The ...": what _take makes a "line" of
                         or (first == "[" and _JSON_PUNCTUATION.fullmatch(line) is None)
                         or (first == "T" and not line.startswith("TY  -")))):
                self._after = False  # the commonest line: text; the next may continue it
                held.append(line)
                self._held_start = number
                self._held_chars = len(line)
                self._held_named = ends_with_name(line)
                return
        self._take(number, line, out)

    def _release(self, out: list[Record | str]) -> None:
        """The plain lines held are a record: one line as itself, several as a
        ``reference``."""
        held = self._held
        out.append(held[0] if len(held) == 1
                   else Record(self._held_start, tuple(held), "reference"))
        held.clear()  # (the same list holds the next lines)

    def finish(self, out: list[Record | str]) -> None:
        """The input ended: a record still open gives its lines back, grouped again."""
        if self._held:
            self._release(out)
        while self._pending:
            pending, start = self._pending, self._start
            self._pending = []
            out.append(Record(start, (pending[0],), "line"))
            for at, line in enumerate(pending[1:], start + 1):
                self._take(at, line, out)

    def _take(self, at: int, line: str, out: list[Record | str]) -> None:
        """Line ``at``, not held as plain text: it goes on with the open record, opens one,
        or is a record of its own."""
        pending = self._pending
        if pending:
            pending.append(line)
            self._chars += len(line)
            kind = self._kind
            if _closes(kind, line, self._depth, self._quotes):
                out.append(_record(self._start, pending, kind))
                self._pending = []
                self._after = kind != "csv"
            elif len(pending) >= RECORD_MAX_LINES or self._chars >= RECORD_MAX_CHARS:
                # A record that failed is skipped: its lines are lines, each read
                # once (fed again, each could open a record that fails again).
                out.extend(Record(n, (x,), "line")
                           for n, x in enumerate(pending, self._start))
                self._pending = []
                self._after = False
            elif kind == "csv":
                self._quotes += line.count('"')
            return
        kind = _starts(line, self.hint)
        if kind == "line":
            blank = not line.strip()
            structure = _JSON_PUNCTUATION.fullmatch(line) is not None or (
                blank and self._after)
            self._after = self._after and (blank or structure)
            out.append(Record(at, (line,), "structure" if structure else "line"))
            return
        self._start, self._pending, self._chars = at, [line], len(line)
        self._kind = kind
        self._depth = _Depth(quotes=kind == "json")
        self._quotes = line.count('"')
        if kind in ("bibtex", "json") and self._depth.feed(line) <= 0:
            out.append(_record(at, self._pending, kind))  # closed on its own line
            self._pending = []
            self._after = True


def iter_records(lines: Iterable[str], *, hint: str | None = None,
                 first_line: int = 1) -> Iterator[Record]:
    """Group lines (with or without their line breaks) into records, lazily.

    ``hint`` is ``"csv"`` when the input is known to be CSV or TSV (a quoted cell may
    then span lines); BibTeX, RIS and JSON are recognised by their own lines. A record
    that does not close within the bounds gives back its first line as a line of its own
    and its other lines are grouped again.
    """
    grouper = RecordGrouper(hint=hint, first_line=first_line)
    out: list[Record | str] = []
    number = first_line
    for raw in lines:
        grouper.add(_strip(raw), out)
        if out:
            for record in _as_records(out, number):
                yield record
                number = record.last_line + 1
            out.clear()
    grouper.finish(out)
    yield from _as_records(out, number)


def _as_records(items: list[Record | str], number: int) -> Iterator[Record]:
    """What a grouper gave, a plain line as a :class:`Record` of kind ``line``; ``number``
    is the first item's first line."""
    for item in items:
        if isinstance(item, Record):
            yield item
            number = item.last_line + 1
        else:
            yield Record(number, (item,), "line")
            number += 1


def _closes(kind: Kind, line: str, depth: _Depth, quotes: int) -> bool:
    if kind == "ris":
        return line.startswith("ER  -")
    if kind == "csv":
        return (quotes + line.count('"')) % 2 == 0
    return depth.feed(line) <= 0


def _record(start: int, lines: list[str], kind: Kind) -> Record:
    key: str | None = None
    if kind == "bibtex":
        m = _BIBTEX_START.match(lines[0])
        key = m.group(2) or None if m is not None else None
    elif kind == "ris":
        key = ris_key(lines)
    elif kind == "json":
        key = json_key("\n".join(lines))
    return Record(start, tuple(lines), kind, key)
