"""The rows of a record over several lines: a reference wrapped over lines (as a copy from a
PDF gives it) or a structured record (a BibTeX entry, a RIS record, a JSON object, a CSV
row whose quoted cell spans lines), :class:`doiname.records.Record`.

A wrapped reference is read as one text (the line breaks between its lines), each row on
its first line with the whole reference as input. A structured record's names are read
line by line, each row on the line it is on; the same DOI in two fields of one record (a
BibTeX ``doi`` and ``url``) is one row, with the finding ``same-name`` that says where
else it is (003 ch. 3: the names are compared by their equivalence key; the finding
:func:`doiname.inspection.one_per_name` gives a name written twice on one line). The names
of a Web of Science record's cited references (its ``CR`` field) are the works it cites: no
rows of it, said by the finding ``cited-references`` on its first row. A record that never
closed (:attr:`doiname.records.Record.unclosed`) says so on its first row
(``unclosed-record``, a warning), and so does the first line of one whose lines were read
one by one (:func:`unclosed_rows`).
"""

from __future__ import annotations

import dataclasses
from bisect import bisect_right
from collections.abc import Callable, Iterable

from ..extract import Match
from ..inspection import one_per_name, status_of
from ..limits import BATCH_MAX_LINE_CHARS, RECORD_MAX_CHARS, RECORD_MAX_LINES
from ..model import Finding
from ..record_starts import STRUCTURED_KINDS as _STRUCTURED
from ..record_starts import cited_lines, starts
from ..records import Record
from .general import Checker, Part, key_of, part_of, shifted
from .lines import LongLine
from .rows import BatchRow, RowFields, make_row, shown_input

__all__ = ["record_rows", "unclosed_rows"]


#: ``part_row(line, text, key, part)``: the row of one part, deduplicated by the session.
PartRow = Callable[[int, str, str | None, Part], BatchRow]
#: ``cut_rows(line, text, key, rows)``: the rows of a line over the bound, the last one
#: the error row that says so.
CutRows = Callable[[int, str, str | None, Iterable[BatchRow]], list[BatchRow]]


def record_rows(record: Record, read: Callable[[str], list[Match]], check: Checker,
                part_row: PartRow, cut_rows: CutRows) -> list[BatchRow]:
    """The rows of ``record`` (several lines), at least one: ``read`` finds the names of
    a text (:func:`doiname.extract.extract`), ``check`` judges them, ``part_row`` makes
    and deduplicates each row, ``cut_rows`` says a line was over the bound (002 §4,
    003 ch. 3)."""
    lines = tuple(str(x[:BATCH_MAX_LINE_CHARS]) for x in record.lines)
    text = "\n".join(lines)
    label = record.label  # the record's key and first line: what the rows point at
    if record.kind == "reference":
        rows = [part_row(record.first_line, text, label, part_of(m, check))
                for m in one_per_name(read(text))]
        return rows or [make_row(record.first_line, shown_input(text), "no-doi", None,
                                 None, None, (), None, None, None, None, None, None, (),
                                 label, None)]
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    kept: dict[str, tuple[int, Match]] = {}  # the first match of each name
    order: list[tuple[int, Match]] = []
    again: dict[str, list[int]] = {}
    structured = record.kind in _STRUCTURED
    cited = cited_lines(lines) if record.kind == "wos" else range(0)
    works_cited: list[tuple[int, Match]] = []
    for m in read(text):
        i = bisect_right(starts, m.start) - 1
        if i in cited:
            works_cited.append((i, m))  # (the works the record cites: said, not its rows)
            continue
        local = shifted(m, -starts[i])
        key = key_of(m) if structured else None
        if key is not None and key in kept:
            again.setdefault(key, []).append(record.first_line + i)
            continue
        if key is not None:
            kept[key] = (i, local)
        order.append((i, local))
    notes = tuple(n for n in (_cited(record.first_line, works_cited) if works_cited else None,
                              _unclosed(record) if record.unclosed else None) if n is not None)
    if notes and order:
        i, m = order[0]
        order[0] = (i, dataclasses.replace(m, findings=(*m.findings, *notes)))
    rows = []
    for i, m in order:
        key = key_of(m) if structured else None
        if key is not None and key in again:
            numbers = ", ".join(str(n) for n in again[key])
            note = Finding("same-name", "info",
                           f"The same DOI is also on line {numbers} of this record (another "
                           "field of the same reference); it is one row.", m.start,
                           m.end, m.start, m.end, in_name=False, source="doiname policy")
            m = dataclasses.replace(m, findings=(*m.findings, note))
        rows.append(part_row(record.first_line + i, lines[i], label, part_of(m, check)))
    if not rows:
        rows.append(make_row(record.first_line, shown_input(lines[0]), "no-doi", None, None,
                             None, notes, None, None, None, None, None, None, (), label, None))
    for i, line in enumerate(record.lines):  # a line cut inside a record
        if len(line) > BATCH_MAX_LINE_CHARS or type(line) is LongLine:
            rows.append(cut_rows(record.first_line + i, line, label, ())[-1])
    return rows


#: What each kind of record is called and what closes it, in the words of the findings
#: that say one never closed; for those that end where the next of their kind starts
#: (:data:`~doiname.record_starts.UNCLOSED_ENDS`), what starts that one.
_CLOSERS: dict[str, tuple[str, str, str]] = {
    "bibtex": ("BibTeX entry", "a closing brace", "the next entry"),
    "ris": ("RIS record", "its “ER  -” line", "the next “TY  -”"),
    "wos": ("Web of Science record", "its “ER” line", "the next “PT”"),
    "json": ("JSON object", "a closing brace", ""),
    "csv": ("CSV row", "the quote that closes a cell", ""),
    "medline": ("PubMed record", "a blank line", ""),
    "refer": ("EndNote record", "a blank line", ""),
}
_BRACES = (" A field whose brace is not closed holds the fields after it: check the entry's "
           "braces.")


def _unclosed(record: Record) -> Finding:
    """The warning that ``record`` never closed and was read up to the next record of its
    kind (:attr:`doiname.records.Record.unclosed`)."""
    what, closer, following = _CLOSERS[record.kind]
    return _note(
        f"This {what} (line {record.first_line}) never closes: {closer} is missing before "
        f"{following} on line {record.last_line + 1}, so it was read up to there."
        + (_BRACES if record.kind == "bibtex" else ""))


def unclosed_rows(fields: list[RowFields], record: Record,
                  hint: str | None = None) -> list[RowFields]:
    """The rows of a one-line record that never closed, the first saying so
    (``unclosed-record``, a warning; an ``ok`` row becomes a ``warning``): a record that
    ends where the next of its kind starts (:func:`_unclosed`), or a line that opened a
    record that did not close within :data:`~doiname.limits.RECORD_MAX_LINES` lines or
    :data:`~doiname.limits.RECORD_MAX_CHARS` characters, or before the input ended, whose
    lines were then read one by one (kind ``line``; ``hint`` as the grouping's, ``csv``
    for a CSV file, says what it opened)."""
    if record.kind != "line":
        note = _unclosed(record)
    else:
        what, closer, _ = _CLOSERS.get(starts(record.lines[0], hint),
                                       ("record", "its end", ""))
        note = _note(
            f"This line opens a {what} that never closes ({closer} is missing, or comes "
            f"after more than {RECORD_MAX_LINES:,} lines or {RECORD_MAX_CHARS:,} characters), "
            "so its lines were read one by one, each as text: a name in it is in the row of "
            "its own line.")
    first = fields[0]
    findings = (*first.findings, note)
    status = status_of(findings) if first.status in ("ok", "warning") else first.status
    return [first._replace(status=status, findings=findings), *fields[1:]]


def _note(message: str) -> Finding:
    """A warning about a record as a whole (no place in a name)."""
    return Finding("unclosed-record", "warning", message, 0, 0, 0, 0, in_name=False,
                   source="doiname policy")


def _cited(first_line: int, cited: list[tuple[int, Match]]) -> Finding:
    """The note that a Web of Science record's cited references (its ``CR`` field) hold
    DOI names: the works it cites, which are not rows of the record."""
    names = list(dict.fromkeys(str(m.doi) for _, m in cited))  # (as read, errors too)
    lines = sorted({first_line + i for i, _ in cited})
    where = f"line {lines[0]}" if len(lines) == 1 else f"lines {lines[0]}-{lines[-1]}"
    shown = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
    return Finding(
        "cited-references", "info",
        f"The record's cited references (its CR field, {where}) hold {len(names)} DOI "
        f"name{'s' if len(names) != 1 else ''} ({shown}): the works it cites, not this "
        "record, so they are not rows of it.", 0, 0, 0, 0, in_name=False,
        source="doiname policy")
