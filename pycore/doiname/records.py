"""Records, not lines: a list's lines grouped into the references they belong to.

A reference list pasted or exported holds references, not lines: a BibTeX entry
(``@article{key, ... }``), a RIS record (``TY  -`` ... ``ER  -``), a PubMed record in
MEDLINE format (``PMID- `` ... a blank line, the next ``PMID-`` or the input's end), an
EndNote record in the Refer format (``%0 `` ... the same ends), a Web of Science record
(``PT J`` ... ``ER``), a JSON object spread over lines, a CSV row whose quoted cell holds
line breaks. :func:`iter_records` groups a stream of lines into :class:`Record` objects, so
that Batch gives one row per reference (with the record's key or ID when there is one)
instead of one row per field line; plain text is one record per line unless a line continues
the one before it (a reference wrapped over lines, as copies from a PDF are:
:func:`continues`), and mixed lists (BibTeX, then RIS, then APA lines) are grouped piece by
piece.

A BibTeX entry, a RIS or a Web of Science record still open when the next of its kind
starts never closed (an unbalanced brace, a missing ``ER  -``): it ends there, marked
``unclosed`` (its rows say so), and the next one is read as its own. Memory and work are
bounded: a record that does not close within :data:`RECORD_MAX_LINES`
lines or :data:`RECORD_MAX_CHARS` characters (an unbalanced brace, a missing ``ER  -``; a
MEDLINE, Refer or Web of Science record by its characters alone:
:data:`~doiname.record_starts.CHARS_BOUNDED`) is given back as single lines, each read once,
so nothing waits for the end of the input and nothing is lost. Lines holding only JSON
punctuation (``[``, ``]``, ``],``) are structure, not records.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .limits import RECORD_MAX_CHARS, RECORD_MAX_LINES
from .record_names import json_key, label_of, tagged_key
from .record_starts import (
    BIBTEX_START,
    BLANK_ENDED,
    CHARS_BOUNDED,
    JSON_PUNCTUATION,
    MEDLINE_START,
    OPENERS,
    REFER_START,
    WOS_END,
    WOS_START,
    Kind,
    continues,
    continues_named,
    ends_with_name,
    restarts,
    starts,
    wos_frame,
)

__all__ = ["RECORD_MAX_CHARS", "RECORD_MAX_LINES", "Kind", "Record", "RecordGrouper",
           "continues", "iter_records"]

@dataclass(frozen=True, slots=True)
class Record:
    """Lines that belong together: ``lines[0]`` is line ``first_line`` (counting from 1).

    ``kind`` says what grouped them: ``line`` (plain text, one line), ``bibtex``, ``ris``,
    ``medline``, ``refer``, ``wos``, ``json`` (an object, on one line or several), ``csv``
    (a row whose quoted cell spans lines), ``reference`` (plain text wrapped over several
    lines, :func:`continues`) or ``structure`` (JSON punctuation: no row). ``key`` is the
    record's own key or ID (BibTeX key, RIS ``ID``, MEDLINE ``PMID``, Refer ``%F``, Web of
    Science ``UT``, a JSON object's ``id``), or ``None``. ``unclosed``: the record never
    closed (a BibTeX entry's brace, a RIS or Web of Science record's ``ER``) and ends
    where the next of its kind starts, on the line after its last
    (:func:`~doiname.record_starts.restarts`); on a ``line``, it opened a record that did
    not close within the bounds or before the input ended, whose lines were then read
    one by one.
    """

    first_line: int
    lines: tuple[str, ...]
    kind: Kind
    key: str | None = None
    unclosed: bool = False

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
        Deep learning…``. The first line of a BibTeX entry, a RIS, MEDLINE or Refer record
        or a JSON object is made of its first author's family name, year and title (002
        foreword, "DOI and Metadata": the fields by their names,
        :data:`doiname.verify.fields.FIELD_NAMES`); that of a reference wrapped over lines
        or a CSV row over lines is its first line as written. ``None`` for a single plain
        line (its row shows the line itself) and for structure."""
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
                    and continues_named(held, line, self._held_named)):
                held.append(line)
                self._held_chars += len(line)
                self._held_named = ends_with_name(line)
                return
            self._release(out)  # (held is empty now, and is held again below)
        if not self._pending:
            first = line[:1]
            if (first and not first.isspace() and (self.hint != "csv" or '"' not in line)
                    and (first not in OPENERS
                         # "[1] Doe A ..." or "The ...": what _take makes a "line" of
                         or (first == "[" and JSON_PUNCTUATION.fullmatch(line) is None)
                         or (first == "T" and not line.startswith("TY  -"))
                         or (first == "P" and not line.startswith(MEDLINE_START)
                             and WOS_START.match(line) is None)
                         or (first == "%" and not line.startswith(REFER_START)))
                    and not wos_frame(line)):
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
        """The input ended: a record still open gives its first line back as a line of its
        own, and its other lines are grouped again as any lines are (:meth:`add`: plain
        lines may make a reference wrapped over lines), until nothing is open."""
        while True:
            if self._held:
                self._release(out)
            if not self._pending:
                return
            if self._kind in BLANK_ENDED:  # (its end: a blank line, or the input's)
                out.append(_record(self._start, self._pending, self._kind))
                self._pending = []
                return
            pending, start = self._pending, self._start
            self._pending = []
            out.append(Record(start, (pending[0],), "line", None, True))
            self._after = False  # (a line of text read on its own, as add() reads one)
            self._number = start  # the lines after it are added again, numbered as before
            for line in pending[1:]:
                self.add(line, out)

    def _take(self, at: int, line: str, out: list[Record | str]) -> None:
        """Line ``at``, not held as plain text: it goes on with the open record, opens one,
        or is a record of its own."""
        pending = self._pending
        if pending and self._kind in BLANK_ENDED and line.startswith(BLANK_ENDED[self._kind]):
            out.append(_record(self._start, pending, self._kind))  # the next one, no blank
            pending = self._pending = []  # line between: this one ends before it
        elif pending and restarts(self._kind, line):  # the next one: this one never closed
            out.append(_record(self._start, pending, self._kind, unclosed=True))
            pending = self._pending = []
        if pending:
            pending.append(line)
            self._chars += len(line)
            kind = self._kind
            if _closes(kind, line, self._depth, self._quotes):
                out.append(_record(self._start, pending, kind))
                self._pending = []
                self._after = kind != "csv"
            elif ((len(pending) >= RECORD_MAX_LINES and kind not in CHARS_BOUNDED)
                  or self._chars >= RECORD_MAX_CHARS):
                # A record that failed is skipped: its lines are lines, each read
                # once (fed again, each could open a record that fails again).
                out.extend(Record(n, (x,), "line", None, n == self._start)
                           for n, x in enumerate(pending, self._start))
                self._pending = []
                self._after = False
            elif kind == "csv":
                self._quotes += line.count('"')
            return
        kind = starts(line, self.hint)
        if kind == "line":
            blank = not line.strip()
            structure = JSON_PUNCTUATION.fullmatch(line) is not None or (
                blank and self._after) or wos_frame(line)
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

    ``hint`` is ``"csv"`` when the input is known to be CSV or TSV (a quoted cell may then
    span lines); BibTeX, RIS, MEDLINE, Refer, Web of Science and JSON are recognised by
    their own lines. A record that does not close within the bounds gives back its first
    line as a line of its own and its other lines are grouped again.
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
    if kind == "medline" or kind == "refer":
        return not line.strip()
    if kind == "wos":
        return line.rstrip() == WOS_END
    if kind == "csv":
        return (quotes + line.count('"')) % 2 == 0
    return depth.feed(line) <= 0


def _record(start: int, lines: list[str], kind: Kind, *, unclosed: bool = False) -> Record:
    key: str | None = None
    if kind == "bibtex":
        m = BIBTEX_START.match(lines[0])
        key = m["key"] or None if m is not None else None
    elif kind == "json":
        key = json_key("\n".join(lines))
    else:  # (a CSV row has no key)
        key = tagged_key(lines, kind)
    return Record(start, tuple(lines), kind, key, unclosed)
