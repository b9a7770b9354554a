"""Reading a list into rows: :class:`BatchSession` (dedupe state across records) and
:func:`iter_batch_rows` (streaming, what the CLI runs).

A list is read as records (:func:`doiname.records.iter_records`): a BibTeX entry, a RIS
record, a JSON object or a CSV row with quoted line breaks is one reference, plain text
one line each. Each record is scanned with :func:`doiname.extract.extract` and judged
like every other surface (:func:`doiname.inspection.judge`), so a row says what Inspect
says for the same text. A record gives one row per DOI name in it (the same name twice in
one structured record, such as a BibTeX ``doi`` and ``url`` field, is one row), or one
``no-doi`` row. ``duplicate_of`` is the line of the first row whose name has the same
:func:`doiname.equivalence_key` (003 ch. 3); error rows are never deduplicated.

Memory: records are read lazily and bounded (:mod:`doiname.records`); the only state that
grows is the dedupe map (one key and one line number per distinct name) and the counts.
"""

from __future__ import annotations

import dataclasses
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator

from ..equivalence import equivalence_key
from ..extract import Match, extract
from ..inspection import judge, whole_reading
from ..model import Doi, Finding
from ..presentation import short_doi_api_url, to_handles_api_url, to_uri, to_url
from ..records import Record, iter_records
from .rows import BatchRow, BatchSummary, Status, shown_input

__all__ = ["BatchSession", "Checker", "iter_batch_rows"]

Checker = Callable[[Doi], list[Finding]]
_STRUCTURED = frozenset({"bibtex", "ris", "json", "csv"})


def _default_checker() -> Checker:
    from ..findings import check

    return check


class BatchSession:
    """Batch state that lives across records: line counter, dedupe map, summary.

    :class:`~doiname.batch.job.BatchJob` steps it through a pasted text for the web
    worker; the CLI streams with :meth:`iter_rows`. ``check`` replaces
    :func:`doiname.check` (for tests); ``hint`` is ``"csv"`` for CSV or TSV input.
    """

    __slots__ = ("_check", "_line", "_seen", "hint", "summary")

    def __init__(self, *, first_line: int = 1, check: Checker | None = None,
                 hint: str | None = None) -> None:
        self._line = first_line - 1
        self._seen: dict[str, int] = {}
        self._check = check if check is not None else _default_checker()
        self.hint = hint
        self.summary = BatchSummary()

    @property
    def next_line(self) -> int:
        """The number the next line read will get."""
        return self._line + 1

    def rows_for_line(self, line: str) -> list[BatchRow]:
        """The rows of the next line as a record of its own (its line break is dropped)."""
        if line.endswith("\n"):
            line = line[:-1]
        if line.endswith("\r"):
            line = line[:-1]
        return self.rows_for_record(Record(self.next_line, (line,), "line"))

    def records(self, lines: Iterable[str]) -> Iterator[Record]:
        """The records of ``lines``, numbered from :attr:`next_line`."""
        return iter_records(lines, hint=self.hint, first_line=self.next_line)

    def rows_for_record(self, record: Record) -> list[BatchRow]:
        """The rows of one record (none for JSON punctuation such as a lone ``[``)."""
        self._line = record.last_line
        self.summary.input_lines += len(record.lines)
        if record.kind == "structure":
            return []
        self.summary.records += 1
        if len(record.lines) == 1:
            rows = self._line_rows(record.first_line, record.lines[0], record.key)
        else:
            rows = self._record_rows(record)
        add = self.summary.add
        for row in rows:
            add(row)
        return rows

    def _line_rows(self, number: int, text: str, key: str | None) -> list[BatchRow]:
        matches = extract(text)
        if not matches:
            return [BatchRow(number, shown_input(text), "no-doi", record=key)]
        rows = [self._row(number, text, m, key) for m in matches]
        whole = whole_reading(text, matches) if len(matches) == 1 else None
        if whole is not None:  # the whole line as one name: its last other reading
            rows[0] = dataclasses.replace(
                rows[0], alternatives=(*rows[0].alternatives, str(whole.doi)))
        return rows

    def _record_rows(self, record: Record) -> list[BatchRow]:
        """A record over several lines: each DOI's row is on the line it is on."""
        text = record.text
        starts = [0]
        for line in record.lines[:-1]:
            starts.append(starts[-1] + len(line) + 1)
        kept: dict[str, tuple[int, Match]] = {}  # the first match of each name
        order: list[tuple[int, Match]] = []
        again: dict[str, list[int]] = {}
        for m in extract(text):
            i = bisect_right(starts, m.start) - 1
            local = _shifted(m, -starts[i])
            key = _key(m) if record.kind in _STRUCTURED else None
            if key is not None and key in kept:
                again.setdefault(key, []).append(record.first_line + i)
                continue
            if key is not None:
                kept[key] = (i, local)
            order.append((i, local))
        if not order:
            return [BatchRow(record.first_line, shown_input(record.lines[0]), "no-doi",
                             record=record.key)]
        rows = []
        for i, m in order:
            key = _key(m) if record.kind in _STRUCTURED else None
            if key is not None and key in again:
                lines = ", ".join(str(n) for n in again[key])
                note = Finding("same-record", "info",
                               f"The same DOI is also on line {lines} of this record (another "
                               "field of the same reference); it is one row.", m.start,
                               m.end, m.start, m.end, in_name=False, source="doiname policy")
                m = dataclasses.replace(m, findings=(*m.findings, note))
            rows.append(self._row(record.first_line + i, record.lines[i], m, record.key))
        return rows

    def _row(self, number: int, text: str, m: Match, key: str | None) -> BatchRow:
        shown = shown_input(text, m)
        alternatives = tuple(str(a.doi) for a in m.alternatives)
        judged, findings = judge(m, check=self._check)
        if judged == "short-doi":
            return BatchRow(number, shown, "short-doi", str(m.doi), None, None, findings, None,
                            m.start, m.end, m.text, m.form, short_doi_api_url(str(m.doi)),
                            record=key)
        if judged == "error":
            return BatchRow(number, shown, "error", str(m.doi), None, None, findings, None,
                            m.start, m.end, m.text, m.form, None, alternatives, key)
        doi = m.doi
        status: Status = judged
        duplicate_of: int | None = None
        name_key = equivalence_key(doi)
        first = self._seen.get(name_key)
        if first is not None:
            status, duplicate_of = "duplicate", first
        else:
            self._seen[name_key] = number
        return BatchRow(number, shown, status, str(doi), to_url(doi), to_uri(doi), findings,
                        duplicate_of, m.start, m.end, m.text, m.form, to_handles_api_url(doi),
                        alternatives, key, doi)

    def iter_rows(self, lines: Iterable[str]) -> Iterator[BatchRow]:
        """Rows for each record, lazily: lines are read only as their rows are wanted."""
        for record in self.records(lines):
            yield from self.rows_for_record(record)


def _key(m: Match) -> str | None:
    """The equivalence key of a readable match (to merge one reference's fields)."""
    if not m.ok:
        return None
    return ("short:" if m.kind == "short-doi" else "") + equivalence_key(m.doi)


def _shifted(m: Match, by: int) -> Match:
    """The match with its positions (and its findings') moved by ``by``."""
    if by == 0:
        return m
    findings = tuple(dataclasses.replace(
        f, start=f.start + by, end=f.end + by,
        input_start=None if f.input_start is None else f.input_start + by,
        input_end=None if f.input_end is None else f.input_end + by) if not f.in_name else f
        for f in m.findings)
    return dataclasses.replace(m, start=m.start + by, end=m.end + by, findings=findings)


def iter_batch_rows(
    lines: Iterable[str], session: BatchSession | None = None
) -> Iterator[BatchRow]:
    """Stream the rows of a list, in order, at least one per record.

    ``lines`` is any iterable of lines (a file object, ``sys.stdin``, a generator);
    trailing line breaks are ignored. Pass a :class:`BatchSession` to read its
    ``summary`` afterwards or to continue numbering and dedupe across inputs.
    """
    return (session if session is not None else BatchSession()).iter_rows(lines)
