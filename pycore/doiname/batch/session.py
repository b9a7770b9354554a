"""Reading a list into rows: :class:`BatchSession` (dedupe state across records) and
:func:`iter_batch_rows` (streaming, what the CLI runs).

A list is read as records (:class:`doiname.records.RecordGrouper`): a BibTeX entry, a RIS
or MEDLINE record, a JSON object or a CSV row with quoted line breaks is one reference, plain text
one line each. Each record is scanned with :func:`doiname.extract.extract` and judged
like every other surface (:func:`doiname.inspection.judge`), so a row says what Inspect
says for the same text. A record gives one row per DOI name in it (the same name twice in
one structured record, such as a BibTeX ``doi`` and ``url`` field, is one row), or one
``no-doi`` row. ``duplicate_of`` is the line of the first row whose name has the same
:func:`doiname.equivalence_key` (003 ch. 3); error rows are never deduplicated.

A line is read by the fast path (:mod:`.fast`) when it can be, else by the general path
(:mod:`.general`); ``BatchSession(fast=False)`` reads every line by the general path (the
oracle the tests compare the fast path with); a record over several lines by
:mod:`.several`.

Memory is bounded: records are read lazily and bounded (:mod:`doiname.records`), a line
is read up to :data:`~doiname.limits.BATCH_MAX_LINE_CHARS` characters (a longer one gives
one ``error`` row saying so), and the dedupe map holds at most
:data:`~doiname.limits.BATCH_MAX_NAMES` keys (one key and one line number per name).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice

from ..extract import extract, extract_general
from ..extract.plain import plain_names, read_plains
from ..limits import BATCH_MAX_LINE_CHARS, BATCH_MAX_NAMES
from ..memo import Memo
from ..records import Record, RecordGrouper, iter_records
from .checks import REFERENCE_KINDS as _REFERENCE_KINDS
from .checks import References
from .fast import line_name, plain_fields, tail_name
from .general import Checker, Part, analyse
from .lines import LongLine, lines_of, read_up_to, too_long
from .links import link_name, link_part
from .rows import (
    BatchRow,
    BatchSummary,
    RowFields,
    RowStream,
    fields_of,
    make_row,
    new_fields,
    row_of,
    shown_input,
)
from .several import record_rows, unclosed_rows

__all__ = ["BatchSession", "Checker", "iter_batch_rows"]

#: What a line that is one name or link starts with (:func:`.fast.line_name`).
_LINE_FIRST = frozenset("1hdD \t")
#: The parts of lines of at most this many characters are remembered (the last 1024).
_CACHED_CHARS = 1000


def _default_checker() -> Checker:
    from ..findings import check

    return check


class BatchSession:
    """Batch state that lives across records: line counter, dedupe map, summary.

    :class:`~doiname.batch.job.BatchJob` steps it through a text fed in pieces for the
    web worker; the CLI streams with :meth:`iter_rows`. ``check`` replaces
    :func:`doiname.check` (for tests); ``hint`` is ``"csv"`` for CSV or TSV input.
    ``fast=False`` reads every line by the general path (the oracle of the fast path);
    ``max_names`` bounds the dedupe map.
    """

    __slots__ = ("_cache", "_check", "_fast", "_grouper", "_line", "_max_names", "_plain",
                 "_seen", "hint", "references", "summary")

    def __init__(self, *, first_line: int = 1, check: Checker | None = None,
                 hint: str | None = None, fast: bool = True,
                 max_names: int = BATCH_MAX_NAMES) -> None:
        self._line = first_line - 1
        self._seen: dict[str, int] = {}
        default = _default_checker()
        self._check = check if check is not None else default
        self._fast = fast
        # plain lines need no check: only when check() is the one that says so
        self._plain = fast and self._check is default
        self._cache: Memo[str, tuple[Part, ...]] | None = Memo(1024) if fast else None
        self._max_names = max_names
        self._grouper: RecordGrouper | None = None
        self.hint = hint
        self.summary = BatchSummary()
        #: The structured records of the rows, kept for "Check all" when a job asks
        #: (:class:`~doiname.batch.checks.References`); ``None``: not kept.
        self.references: References | None = None

    def forget_names(self) -> None:
        """Forget the names seen so far: the next records' duplicates are looked for only
        among themselves (Spark's tasks, whose duplicates across records are found by
        the shuffle). The caches of lines and heads read stay."""
        self._seen.clear()

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
        rows = self._uncounted(record)
        add = self.summary.add
        for row in rows:
            add(row)
        return rows

    def _uncounted(self, record: Record) -> list[BatchRow]:
        """:meth:`rows_for_record` without counting the rows (a stream counts them as it
        hands them out)."""
        if len(record.lines) == 1 or record.kind == "reference":
            return [row_of(t) for t in self._record_fields(record)]
        return self._several(record)

    def _several(self, record: Record) -> list[BatchRow]:
        """The rows of a record over several lines read by :func:`.several.record_rows`
        (not counted)."""
        self._line = record.last_line
        self.summary.input_lines += len(record.lines)
        if record.kind == "structure":
            return []
        self.summary.records += 1
        return self._record_rows(record)

    def _record_fields(self, record: Record) -> list[RowFields]:
        """:meth:`_uncounted` as tuples. A reference wrapped over lines is read as one
        line whose text holds the line breaks (what :func:`.several.record_rows` reads,
        by the path of every line), unless a line of it was cut or the text is over the
        bound of a line."""
        lines = record.lines
        text = lines[0]
        if len(lines) != 1:
            text = "\n".join(lines) if record.kind == "reference" else ""
            if (not text or len(text) > BATCH_MAX_LINE_CHARS
                    or any(type(x) is not str for x in lines)):
                return [fields_of(r) for r in self._several(record)]
        self._line = record.last_line
        self.summary.input_lines += len(lines)
        if record.kind == "structure":
            return []
        self.summary.records += 1
        if record.unclosed:
            return unclosed_rows(self._line_fields(record.first_line, text, record.label),
                                 record, self.hint)
        return self._line_fields(record.first_line, text, record.label)

    def push(self, lines: Iterable[str], rows: list[RowFields],
             srcs: list[str] | None = None) -> None:
        """Read the next lines of a stream (without their breaks; a :class:`LongLine` for
        a line that was cut): append the rows of the records they complete to ``rows``
        (as :data:`~doiname.batch.rows.RowFields` tuples, not counted: the caller counts
        them, :meth:`~doiname.batch.rows.BatchSummary.count_rows`) and, when ``srcs`` is
        given, the line each row comes from to ``srcs``."""
        grouper = self._grouper
        if grouper is None:
            grouper = self._grouper = RecordGrouper(hint=self.hint, first_line=self.next_line)
        self._take(lines, grouper, rows, srcs, False)

    def _take(self, lines: Iterable[str], grouper: RecordGrouper, rows: list[RowFields],
              srcs: list[str] | None, breaks: bool) -> int:
        """Append the rows of the records ``lines`` complete to ``rows``, in order (not
        counted: the caller counts them), and the line of each to ``srcs`` when given;
        ``breaks``: drop each line's break first. Returns how many lines were read."""
        out: list[Record | str] = []
        add = grouper.add
        emit = self._emit
        read = 0
        for line in lines:
            read += 1
            if breaks:
                if line[-1:] == "\n":
                    line = line[:-2] if line[-2:-1] == "\r" else line[:-1]
                elif line[-1:] == "\r":
                    line = line[:-1]
            add(line, out)
            if out:
                for item in out:
                    emit(item, rows, srcs)
                out.clear()
        return read

    def finish(self, rows: list[RowFields], srcs: list[str] | None = None) -> None:
        """The stream of :meth:`push` ended: append the rows of what was still open."""
        if self._grouper is not None:
            out: list[Record | str] = []
            self._grouper.finish(out)
            self._grouper = None
            for item in out:
                self._emit(item, rows, srcs)

    def _emit(self, item: Record | str, rows: list[RowFields], srcs: list[str] | None) -> None:
        made = self._item_fields(item)
        rows.extend(made)
        if self.references is not None and made and isinstance(item, Record) \
                and item.kind in _REFERENCE_KINDS:
            self.references.keep(item, made)
        if srcs is not None:
            if isinstance(item, Record):
                first = item.first_line
                srcs.extend(item.lines[t.line - first] for t in made)
            else:
                srcs.extend([item] * len(made))

    @property
    def open_lines(self) -> int:
        """Lines pushed whose rows are not made yet (an open record's)."""
        return self._grouper.open_lines if self._grouper is not None else 0

    def iter_rows(self, lines: Iterable[str]) -> Iterator[BatchRow]:
        """Rows for each record, lazily: lines are read only as their rows are wanted (a
        :class:`~doiname.batch.rows.RowStream`, which the CSV writer reads as tuples, a
        chunk of lines at a time). A ``str`` is the text of a list: its lines
        (:func:`~doiname.batch.lines.lines_of`)."""
        source = iter(lines_of(lines))
        grouper: RecordGrouper | None = None
        ended = False

        def read(k: int) -> list[RowFields] | None:
            nonlocal grouper, ended
            if ended:
                return None
            if grouper is None:  # numbered from the line the session is at when read
                grouper = RecordGrouper(hint=self.hint, first_line=self.next_line)
            rows: list[RowFields] = []
            if self._take(islice(source, k), grouper, rows, None, True) < k:  # input ended
                out: list[Record | str] = []
                grouper.finish(out)
                ended = True
                for item in out:
                    rows.extend(self._item_fields(item))
            return rows

        return RowStream(read, self.summary)

    def _item_fields(self, item: Record | str) -> list[RowFields]:
        """The rows of what a :class:`~doiname.records.RecordGrouper` gave, as tuples, not
        counted (a stream counts them as it hands them out)."""
        if type(item) is not str and isinstance(item, Record):
            return self._record_fields(item)
        number = self._line = self._line + 1
        summary = self.summary
        summary.input_lines += 1
        summary.records += 1
        return self._line_fields(number, item, None)

    # -------------------------------------------------------------------- one line

    def _line_rows(self, number: int, text: str, key: str | None) -> list[BatchRow]:
        return [row_of(t) for t in self._line_fields(number, text, key)]

    def _line_fields(self, number: int, text: str, key: str | None) -> list[RowFields]:
        if len(text) > BATCH_MAX_LINE_CHARS or type(text) is not str:
            if len(text) > BATCH_MAX_LINE_CHARS or isinstance(text, LongLine):
                return [fields_of(r) for r in self._cut_rows(number, text, key)]
            text = str(text)  # a str of another class: read as the text it holds
        parts: tuple[Part, ...] | None = None
        cache = self._cache
        if cache is not None:
            parts = cache.get(text)
            if parts is None:
                matches = None
                plain = line_name(text) if text[:1] in _LINE_FIRST else None
                if plain is None and text[:4] == "http":
                    plain = link_name(text)
                if plain is None:
                    plain = tail_name(text)
                    if plain is None:
                        plain = plain_names(text)
                if plain is not None and not plain:
                    parts = ()  # no name (kept: a blank line or a heading comes again)
                else:
                    if plain is not None:
                        if self._plain:
                            if len(plain) == 1 and plain[0].read:  # (none for plain_fields)
                                part = link_part(text, plain[0], self._check)
                                if part is not None:
                                    return [self._part_fields(number, text, key, part)]
                            else:
                                made = plain_fields(number, text, key, plain, self._seen,
                                                    self._max_names, self.summary)
                                if made is not None:
                                    return made
                        matches = read_plains(text, plain)
                    parts = analyse(text, self._check, matches)
                if len(text) <= _CACHED_CHARS:
                    cache.put(text, parts)
        else:
            parts = analyse(text, self._check)
        if not parts:
            return [new_fields((number, shown_input(text), "no-doi", None, None, None, (),
                                 None, None, None, None, None, None, (), key, None))]
        if len(parts) == 1:  # (the commonest: no list comprehension's frame)
            return [self._part_fields(number, text, key, parts[0])]
        return [self._part_fields(number, text, key, p) for p in parts]

    def _part_row(self, number: int, text: str, key: str | None, p: Part) -> BatchRow:
        return row_of(self._part_fields(number, text, key, p))

    def _part_fields(self, number: int, text: str, key: str | None, p: Part) -> RowFields:
        status = p.status
        duplicate_of = None
        name_key = p.key
        if name_key is not None:
            first = self._seen.get(name_key)
            if first is not None:
                status, duplicate_of = "duplicate", first
            else:
                self._remember(name_key, number)
        return new_fields((number, shown_input(text, p.start, p.end), status, p.doi, p.url,
                            p.uri, p.findings, duplicate_of, p.start, p.end, p.text, p.form,
                            p.api_url, p.alternatives, key, p.name))

    def _remember(self, name_key: str, number: int) -> None:
        if len(self._seen) < self._max_names:
            self._seen[name_key] = number
        else:
            self.summary.names_not_kept += 1

    def _cut_rows(self, number: int, text: str, key: str | None,
                  rows: Iterable[BatchRow] | None = None) -> list[BatchRow]:
        """A line over the bound: the rows of its first characters (up to the last
        separator before the bound, so that no name is read cut short), then one error
        row that says so."""
        kept = str(text[:BATCH_MAX_LINE_CHARS])
        at = read_up_to(kept)
        if rows is None:
            rows = self._line_rows(number, kept[:at], key)
        rows = [r for r in rows if r.status != "no-doi"]
        self.summary.cut_lines += 1
        finding = too_long(text.total if isinstance(text, LongLine) else len(text), at)
        rows.append(make_row(number, shown_input(kept), "error", None, None, None, (finding,),
                             None, None, None, None, None, None, (), key, None))
        return rows

    # ---------------------------------------------------------- several lines

    def _record_rows(self, record: Record) -> list[BatchRow]:
        """A record over several lines (:func:`.several.record_rows`)."""
        return record_rows(record, extract if self._fast else extract_general, self._check,
                           self._part_row, self._cut_rows)


def iter_batch_rows(
    lines: Iterable[str], session: BatchSession | None = None
) -> Iterator[BatchRow]:
    """Stream the rows of a list, in order, at least one per record.

    ``lines`` is any iterable of lines (a file object, ``sys.stdin``, a generator), or
    the text of a list as one ``str``; trailing line breaks are ignored. Pass a
    :class:`BatchSession` to read its ``summary`` afterwards or to continue numbering and
    dedupe across inputs.
    """
    return (session if session is not None else BatchSession()).iter_rows(lines)
