"""Records, not lines: a list's lines grouped into the references they belong to.

A reference list pasted or exported holds references, not lines: a BibTeX entry
(``@article{key, ... }``), a RIS record (``TY  -`` ... ``ER  -``), a JSON object
spread over lines, a CSV row whose quoted cell holds line breaks. :func:`iter_records`
groups a stream of lines into :class:`Record` objects, so that Batch gives one row per
reference (with the record's key or ID when there is one) instead of one row per field
line; plain text stays one record per line, and mixed lists (BibTeX, then RIS, then
APA lines) are grouped piece by piece.

Memory is bounded: a record that does not close within :data:`RECORD_MAX_LINES` lines
or :data:`RECORD_MAX_CHARS` characters (an unbalanced brace, a missing ``ER  -``) is
given back as single lines, so nothing waits for the end of the input and nothing is
lost. Lines holding only JSON punctuation (``[``, ``]``, ``],``) are structure, not
records.
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

__all__ = ["RECORD_MAX_CHARS", "RECORD_MAX_LINES", "Kind", "Record", "iter_records"]

#: The most lines one record holds before its lines are given back one by one.
RECORD_MAX_LINES = 300
#: The most characters one record holds (the same).
RECORD_MAX_CHARS = 100_000

Kind = Literal["line", "bibtex", "ris", "json", "csv", "structure"]

_BIBTEX_START = re.compile(r"\s*@\s*([A-Za-z]+)\s*[{(]\s*([^,\s{}()]*)")
_RIS_FIELD = re.compile(r"([A-Z][A-Z0-9])  -(?: |$)")
_JSON_PUNCTUATION = re.compile(r"\s*[\[\]],?\s*")
_JSON_KEYS = ("id", "ID", "key", "citationKey", "citation-key")


@dataclass(frozen=True, slots=True)
class Record:
    """Lines that belong together: ``lines[0]`` is line ``first_line`` (counting from 1).

    ``kind`` says what grouped them: ``line`` (plain text, one line), ``bibtex``,
    ``ris``, ``json`` (an object, on one line or several), ``csv`` (a row whose quoted
    cell spans lines) or ``structure`` (JSON punctuation: no row). ``key`` is the
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


def _json_key(text: str) -> str | None:
    try:
        data = json.loads(text.rstrip().rstrip(","))
    except (ValueError, RecursionError):
        return None
    if isinstance(data, dict):
        for k in _JSON_KEYS:
            value = data.get(k)
            if isinstance(value, str | int) and not isinstance(value, bool) and str(value):
                return str(value)[:200]
    return None


def _ris_key(lines: list[str]) -> str | None:
    for tag in ("ID", "AN"):
        for line in lines:
            if line.startswith(tag + "  -"):
                value = line[6:].strip()
                if value:
                    return value[:200]
    return None


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


def iter_records(lines: Iterable[str], *, hint: str | None = None,
                 first_line: int = 1) -> Iterator[Record]:
    """Group lines (with or without their line breaks) into records, lazily.

    ``hint`` is ``"csv"`` when the input is known to be CSV or TSV (a quoted cell may
    then span lines); BibTeX, RIS and JSON are recognised by their own lines. A record
    that does not close within the bounds gives back its first line as a line of its own
    and its other lines are grouped again.
    """
    source = iter(lines)
    back: deque[tuple[int, str]] = deque()  # lines given back by a record that never closed
    number = first_line - 1
    pending: list[str] = []  # lines of a record still open
    kind: Kind = "line"
    start = first_line
    chars = quotes = 0
    depth = _Depth(quotes=True)
    after_record = False  # the last record was structured: blank lines are separators
    while True:
        if back:
            at, line = back.popleft()
        else:
            raw = next(source, None)
            if raw is None:
                if not pending:
                    break
                # the input ended inside a record: give its lines back, grouped again
                yield Record(start, (pending[0],), "line")
                back.extend(enumerate(pending[1:], start + 1))
                pending = []
                continue
            number += 1
            at, line = number, _strip(raw)
        if pending:
            pending.append(line)
            chars += len(line)
            if _closes(kind, line, depth, quotes):
                yield _record(start, pending, kind)
                pending = []
                after_record = kind != "csv"
            elif len(pending) >= RECORD_MAX_LINES or chars >= RECORD_MAX_CHARS:
                yield Record(start, (pending[0],), "line")
                back.extendleft(reversed(list(enumerate(pending[1:], start + 1))))
                pending = []
            elif kind == "csv":
                quotes += line.count('"')
            continue
        kind = _starts(line, hint)
        if kind == "line":
            blank = not line.strip()
            structure = _JSON_PUNCTUATION.fullmatch(line) is not None or (blank and after_record)
            after_record = after_record and (blank or structure)
            yield Record(at, (line,), "structure" if structure else "line")
            continue
        start, pending, chars = at, [line], len(line)
        depth = _Depth(quotes=kind == "json")
        quotes = line.count('"')
        if kind in ("bibtex", "json") and depth.feed(line) <= 0:  # closed on its own line
            yield _record(start, pending, kind)
            pending = []
            after_record = True


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
        key = _ris_key(lines)
    elif kind == "json":
        key = _json_key("\n".join(lines))
    return Record(start, tuple(lines), kind, key)
