"""The rows of a batch: one per DOI found, one per record without any (:class:`BatchRow`),
and their counts (:class:`BatchSummary`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from itertools import chain, groupby
from operator import attrgetter
from typing import Any, NamedTuple

from ..jsonable import to_jsonable
from ..model import Doi, Finding, finding_of, make_doi
from .status import NAME_STATUSES, Status, status_named

__all__ = ["CHUNK_LINES", "CSV_COLUMNS", "INPUT_CONTEXT", "INPUT_LIMIT", "BatchRow",
           "BatchSummary", "RowFields", "RowStream", "Status", "fields_of", "make_row",
           "new_fields", "row_of", "shown_input"]

#: The columns of a batch's CSV: first those people read (the line, the record's key and
#: first line, the status, the DOI name and its link, the first occurrence of a duplicate,
#: the findings' messages), then those programs read (the input line, the URI, where the
#: match is, how it was written, the handle API request, the other readings).
CSV_COLUMNS = (
    "line", "record", "status", "doi", "url", "duplicate_of", "findings",
    "input", "uri", "start", "end", "text", "form", "api_url", "alternatives",
)

#: A line longer than this (code points) is shown in ``input`` as an excerpt.
INPUT_LIMIT = 1000
#: How much of a long line is kept on each side of the DOI in an excerpt.
INPUT_CONTEXT = 200


@dataclass(frozen=True, slots=True)
class BatchRow:
    """One row of a batch: a DOI found in a record, or the record itself when it has none.

    ``line`` counts from 1: the line the DOI is on (the record's first line when it has
    none). ``input`` is that line without its line break (over ``INPUT_LIMIT`` code
    points: an excerpt around the DOI, ``…`` marking cuts). ``start``, ``end``, ``text``
    and ``form`` are those of the :class:`~doiname.extract.Match` (positions in the line).
    ``doi`` is the name; for an ``error`` row it is the raw text scanned and
    ``url``/``uri`` are ``None``; for a ``short-doi`` row it is the shortDOI (``10/abcde``,
    an alias, not a DOI name). ``api_url`` is the handle API request for the exact name
    (``?type=HS_ALIAS`` for a shortDOI), so resolving a row never reads its decoded name
    again; ``alternatives`` are the other readings of the same place (extract R13, R14,
    R19-R21, the whole line). ``record`` points at the record the row belongs to: its key
    or ID (a BibTeX key, a RIS ``ID``, a JSON ``id``) and its first line (author, year,
    title; :attr:`doiname.records.Record.label`), ``None`` for a plain line. ``name`` is the exact
    name itself (kept in Python for exports; not written).
    """

    line: int
    input: str
    status: Status
    doi: str | None = None
    url: str | None = None
    uri: str | None = None
    findings: tuple[Finding, ...] = ()
    duplicate_of: int | None = None
    start: int | None = None
    end: int | None = None
    text: str | None = None
    form: str | None = None
    api_url: str | None = None
    alternatives: tuple[str, ...] = ()
    record: str | None = None
    name: Doi | None = field(default=None, compare=False, repr=False)

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON data (findings as objects of their fields), keys as in ``CSV_COLUMNS``."""
        return {
            "line": self.line, "record": self.record, "status": self.status,
            "doi": self.doi, "url": self.url, "duplicate_of": self.duplicate_of,
            "findings": [to_jsonable(f) for f in self.findings], "input": self.input,
            "uri": self.uri, "start": self.start, "end": self.end, "text": self.text,
            "form": self.form, "api_url": self.api_url,
            "alternatives": list(self.alternatives),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BatchRow:
        """The row back from :meth:`as_dict` (read a JSON or JSON Lines export back in)."""
        return cls(
            line=int(data["line"]), input=str(data["input"]),
            status=status_named(data["status"]), doi=data.get("doi"), url=data.get("url"),
            uri=data.get("uri"),
            findings=tuple(finding_of(f) for f in data.get("findings") or ()),
            duplicate_of=data.get("duplicate_of"), start=data.get("start"),
            end=data.get("end"), text=data.get("text"), form=data.get("form"),
            api_url=data.get("api_url"), alternatives=tuple(data.get("alternatives") or ()),
            record=data.get("record"),
        )


@dataclass(slots=True)
class BatchSummary:
    """Counts over the rows seen: ``dois == unique + duplicates + errors``.

    ``lines`` is the number of lines that gave rows, ``no_doi`` the rows without a DOI,
    ``warnings`` the unique names with a warning (they are in ``unique`` too),
    ``short_dois`` the shortDOIs found (aliases, not counted as DOI names), ``not_found``
    and ``unreachable`` the unique names resolving said so (after Resolve all). ``records``
    counts the references (a BibTeX entry, a RIS record, a JSON object or a line) and
    ``input_lines`` every line read (kept by the session that reads them). Bounds, kept
    by the session too: ``cut_lines`` counts the lines longer than
    :data:`~doiname.limits.BATCH_MAX_LINE_CHARS`, each read up to the bound and reported by
    one ``error`` row (counted in ``errors``); ``names_not_kept`` the distinct names seen
    after :data:`~doiname.limits.BATCH_MAX_NAMES` were remembered (each was compared with
    the names remembered, but a later repeat of it is not marked as a duplicate).
    """

    lines: int = 0
    dois: int = 0
    unique: int = 0
    duplicates: int = 0
    errors: int = 0
    warnings: int = 0
    no_doi: int = 0
    short_dois: int = 0
    not_found: int = 0
    unreachable: int = 0
    records: int = field(default=0, compare=False)
    input_lines: int = field(default=0, compare=False)
    cut_lines: int = field(default=0, compare=False)
    names_not_kept: int = field(default=0, compare=False)
    _last_line: int = field(default=0, repr=False, compare=False)

    def add(self, row: BatchRow) -> None:
        """Count one row (rows of one line come together, as the batch makes them)."""
        self.count(row.line, row.status)

    def count(self, line: int, status: Status) -> None:
        """Count one row by its line and status (what :meth:`add` reads of a row)."""
        if line != self._last_line:
            self.lines += 1
            self._last_line = line
        if status == "ok":  # the commonest first
            self.dois += 1
            self.unique += 1
            return
        if status == "no-doi":
            self.no_doi += 1
            return
        if status == "short-doi":
            self.short_dois += 1
            return
        self.dois += 1
        if status == "duplicate":
            self.duplicates += 1
        elif status == "error":
            self.errors += 1
        else:
            self.unique += 1
            if status == "warning":
                self.warnings += 1
            elif status == "not-found":
                self.not_found += 1
            elif status == "unreachable":
                self.unreachable += 1

    def count_rows(self, rows: list[RowFields]) -> None:
        """:meth:`count` for each of ``rows`` in order, in bulk (what a chunk of a stream
        gives)."""
        if len(rows) < 16:  # (a line's rows: one by one is sooner)
            count = self.count
            for t in rows:
                count(t.line, t.status)
            return
        lines = sum(1 for _ in groupby(map(_LINE, rows)))
        if rows[0].line == self._last_line:
            lines -= 1
        self._last_line = rows[-1].line
        self.lines += lines
        by = Counter(map(_STATUS, rows))
        names, dup, err = sum(by[s] for s in NAME_STATUSES), by["duplicate"], by["error"]
        self.no_doi += by["no-doi"]
        self.short_dois += by["short-doi"]
        self.duplicates += dup
        self.errors += err
        self.warnings += by["warning"]
        self.not_found += by["not-found"]
        self.unreachable += by["unreachable"]
        self.unique += names
        self.dois += names + dup + err

    def as_dict(self) -> dict[str, int]:
        """The counts as a JSON object."""
        return {
            "lines": self.lines, "dois": self.dois, "unique": self.unique,
            "duplicates": self.duplicates, "errors": self.errors,
            "warnings": self.warnings, "no_doi": self.no_doi, "short_dois": self.short_dois,
            "not_found": self.not_found, "unreachable": self.unreachable,
            "records": self.records, "input_lines": self.input_lines,
            "cut_lines": self.cut_lines, "names_not_kept": self.names_not_kept,
        }

    def __str__(self) -> str:
        return (
            f"{self.lines} lines, {self.dois} DOIs: {self.unique} unique "
            f"({self.warnings} with warnings), {self.duplicates} duplicates, "
            f"{self.errors} errors; {self.no_doi} lines without a DOI"
            + (f"; {self.short_dois} shortDOIs" if self.short_dois else "")
        )


def shown_input(line: str, start: int | None = None, end: int | None = None) -> str:
    """The ``input`` of a row: the line, or for a line over ``INPUT_LIMIT`` code points
    (a minified JSON file is one line) an excerpt around the DOI at ``start:end`` with
    ``…`` where text was left out, so that each row stays small however many DOIs share
    the line. ``start``/``end`` still count in the whole line."""
    if len(line) <= INPUT_LIMIT:
        return line
    if start is None or end is None:
        return line[:INPUT_LIMIT] + "…"
    a = max(0, start - INPUT_CONTEXT)
    b = min(len(line), end + INPUT_CONTEXT)
    return ("…" if a else "") + line[a:b] + ("…" if b < len(line) else "")


class _Blank:
    """A :class:`BatchRow` being made: the same slots, a plain ``__init__``."""

    __slots__ = BatchRow.__slots__  # the same names, in the same order

    def __init__(self, line: int, input: str, status: Status, doi: str | None,
                 url: str | None, uri: str | None, findings: tuple[Finding, ...],
                 duplicate_of: int | None, start: int | None, end: int | None,
                 text: str | None, form: str | None, api_url: str | None,
                 alternatives: tuple[str, ...], record: str | None, name: Doi | None) -> None:
        self.line = line
        self.input = input
        self.status = status
        self.doi = doi
        self.url = url
        self.uri = uri
        self.findings = findings
        self.duplicate_of = duplicate_of
        self.start = start
        self.end = end
        self.text = text
        self.form = form
        self.api_url = api_url
        self.alternatives = alternatives
        self.record = record
        self.name = name


def make_row(line: int, input: str, status: Status, doi: str | None, url: str | None,
             uri: str | None, findings: tuple[Finding, ...], duplicate_of: int | None,
             start: int | None, end: int | None, text: str | None, form: str | None,
             api_url: str | None, alternatives: tuple[str, ...], record: str | None,
             name: Doi | None) -> BatchRow:
    """``BatchRow(...)`` with every field given in order, in half the time of the frozen
    dataclass's ``__init__`` (a batch makes one per row): the fields are set on an object
    of a class with the same slots, which then becomes a :class:`BatchRow` (Python allows
    that between classes of the same layout). The result is an ordinary, frozen
    :class:`BatchRow`: equal to one made by ``BatchRow(...)``, hashable, and
    ``dataclasses.replace`` works on it."""
    row: Any = _Blank(line, input, status, doi, url, uri, findings, duplicate_of, start, end,
                      text, form, api_url, alternatives, record, name)
    row.__class__ = BatchRow
    return row  # type: ignore[no-any-return]


class RowFields(NamedTuple):
    """A row as a tuple (what the session makes and the writers read, no row object): the
    fields of :class:`BatchRow` in their order. ``name`` may also be the ``(prefix,
    suffix)`` of a name not made yet (the :class:`~doiname.model.Doi` is made only when
    a :class:`BatchRow` is asked for). Made with :func:`new_fields` where rows are made by
    the hundred thousand (no Python frame)."""

    line: int
    input: str
    status: Status
    doi: str | None
    url: str | None
    uri: str | None
    findings: tuple[Finding, ...]
    duplicate_of: int | None
    start: int | None
    end: int | None
    text: str | None
    form: str | None
    api_url: str | None
    alternatives: tuple[str, ...]
    record: str | None
    name: Doi | tuple[str, str] | None


_FIELDS = attrgetter(*BatchRow.__slots__)
_LINE = attrgetter("line")
_STATUS = attrgetter("status")
#: ``new_fields((line, input, ...))``: :class:`RowFields` of the 16 values in their order
#: (``tuple.__new__``, no Python frame: ``RowFields(...)`` and ``_make`` have one).
new_fields: Callable[[tuple[object, ...]], RowFields] = partial(tuple.__new__, RowFields)


def fields_of(row: BatchRow) -> RowFields:
    """The fields of ``row`` as :class:`RowFields`."""
    return new_fields(_FIELDS(row))


def row_of(t: RowFields) -> BatchRow:
    """The :class:`BatchRow` of :class:`RowFields` (its name made when it is a
    ``(prefix, suffix)``)."""
    name = t[15]
    if type(name) is tuple:
        name = make_doi(name[0], name[1])
    row: Any = _Blank(t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10],
                      t[11], t[12], t[13], t[14], name)  # type: ignore[arg-type]
    row.__class__ = BatchRow
    return row  # type: ignore[no-any-return]


#: How many lines a stream reads at a time when its rows are wanted in bulk (the CSV
#: writer): :meth:`RowStream.chunks`.
CHUNK_LINES = 256


class RowStream(Iterator[BatchRow]):
    """The rows of a stream (what :func:`~doiname.batch.iter_batch_rows` returns): an
    iterator of :class:`BatchRow`, made lazily from the session's :data:`RowFields`
    tuples. ``read(k)`` reads up to ``k`` more lines and gives their rows (``None`` once
    the input is done); ``summary`` counts each row as it is handed out. Iterating reads
    one line at a time (nothing is read ahead); :func:`~doiname.batch.write_csv` reads
    the tuples in chunks (:meth:`chunks`), with no row object."""

    __slots__ = ("_at", "_buf", "_read", "_summary")

    def __init__(self, read: Callable[[int], list[RowFields] | None],
                 summary: BatchSummary) -> None:
        self._read = read
        self._summary = summary
        self._buf: list[RowFields] = []
        self._at = 0

    def __iter__(self) -> RowStream:
        return self

    def __next__(self) -> BatchRow:
        buf = self._buf
        while self._at >= len(buf):
            got = self._read(1)
            if got is None:
                raise StopIteration
            self._buf = buf = got
            self._at = 0
        t = buf[self._at]
        self._at += 1
        self._summary.count(t.line, t.status)
        return row_of(t)

    def chunks(self, lines: int = CHUNK_LINES) -> Iterator[list[RowFields]]:
        """The rows still to come, as lists of tuples, the rows of up to ``lines`` input
        lines at a time (each row comes once, counted as it is handed out)."""
        if self._at < len(self._buf):
            rest = self._buf[self._at:]
            self._buf = []
            self._at = 0
            self._summary.count_rows(rest)
            yield rest
        read = self._read
        count_rows = self._summary.count_rows
        while True:
            got = read(lines)
            if got is None:
                return
            count_rows(got)
            yield got

    def fields(self) -> Iterator[RowFields]:
        """The rows still to come, as tuples (the same iterator: each row comes once)."""
        return chain.from_iterable(self.chunks())
