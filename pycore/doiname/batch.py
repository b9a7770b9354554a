"""Streaming batch processing of lists: every line in, one or more rows out (issue 5).

A librarian's list (``.txt``, ``.csv``, ``.tsv``, ``.bib``, ``.ris``, ``.json``, or a
paste) is read line by line. Each physical line is scanned with
:func:`doiname.extract.extract`, which handles all of these formats as plain text (CSV
cells end at ``,``/``"``, TSV cells at tabs, BibTeX values at ``}``/``"``, RIS values at
the line end, JSON strings at ``"``, with ``\\/`` read as ``/``); a ``.json`` file is
simply scanned as text, so a minified JSON file is one long line whose DOIs all carry
line number 1. Quoted CSV fields that span lines are scanned line by line.

Rows (:class:`BatchRow`), in input order, nothing lost:

* a line with no DOI gives one row with status ``no-doi``; a line with *k* DOIs gives
  *k* rows with the same line number, in the order of the DOIs in the line;
* each DOI row has the name, its URL (:func:`doiname.to_url`, recommended level, 000),
  its ``doi:`` URI (:func:`doiname.to_uri`, 003 ch. 2), the findings of extraction (the
  positions of these are in the line) and of :func:`doiname.check` on the name (their
  ``in_name`` is ``True``: positions in the name);
* ``duplicate_of`` is the line number of the first row whose name has the same
  :func:`doiname.equivalence_key` (003 ch. 3: percent-decoded, Basic Latin case folded,
  no Unicode normalization);
* ``status``: ``error`` (a finding of severity error: the name was not readable, see
  rule R16 of :mod:`doiname.extract`) before ``duplicate`` before ``warning`` before
  ``ok``; ``no-doi`` for lines without one. Error rows are never deduplicated.

Memory: rows are produced lazily from any iterable of lines and written as they come;
the only state that grows is the dedupe map (one short key string and one line number
per *distinct* name) and the counts of :class:`BatchSummary`. An input line is held
only while it is processed.

Entry points: :func:`iter_batch_rows` (generator), :class:`BatchSession` (keeps the
dedupe state across chunks), :class:`BatchJob` (a whole text worked through in steps,
rows kept for export: what the web page's worker runs), the writers :func:`write_csv`,
:func:`write_jsonl` and :func:`write_json` (return the :class:`BatchSummary`), and for
``doiname extract``: :func:`iter_line_matches`, :func:`write_matches_csv`,
:func:`write_matches_jsonl`.

Lines are split as the CLI reads a file (``open(..., newline="")``): at ``\n``,
``\r\n`` and a lone ``\r`` (:func:`count_lines`, :class:`BatchJob`).
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, Any, Literal

from .equivalence import equivalence_key
from .extract import Match, extract
from .inspection import judge, whole_reading
from .jsonable import to_jsonable
from .model import Doi, Finding
from .presentation import short_doi_api_url, to_handles_api_url, to_uri, to_url

__all__ = [
    "CSV_COLUMNS",
    "EXPORT_FORMATS",
    "MATCH_COLUMNS",
    "RESOLUTION_COLUMNS",
    "BatchJob",
    "BatchRow",
    "BatchSession",
    "BatchSummary",
    "Status",
    "count_lines",
    "iter_batch_rows",
    "iter_line_matches",
    "write_csv",
    "write_json",
    "write_jsonl",
    "write_matches_csv",
    "write_matches_jsonl",
]

Status = Literal["ok", "warning", "error", "no-doi", "duplicate", "short-doi"]
_STATUSES: tuple[Status, ...] = ("ok", "warning", "error", "no-doi", "duplicate", "short-doi")
Checker = Callable[[Doi], list[Finding]]

CSV_COLUMNS = (
    "line", "input", "doi", "url", "uri", "status", "duplicate_of", "findings",
    "start", "end", "text", "form", "api_url", "alternatives",
)
MATCH_COLUMNS = ("line", "start", "end", "doi", "text", "form", "ok", "findings")

_NO_SEVERITY: frozenset[str] = frozenset()

# Cells a spreadsheet would run as a formula (OWASP "CSV injection").
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True, slots=True)
class BatchRow:
    """One row of a batch: a DOI found in a line, or the line itself when it has none.

    ``line`` counts from 1. ``input`` is the line without its line break (over
    ``INPUT_LIMIT`` code points: an excerpt around the DOI, ``…`` marking cuts). ``start``,
    ``end``, ``text`` and ``form`` are those of the :class:`~doiname.extract.Match`
    (positions in the line). ``doi`` is the name; for an ``error`` row it is the raw
    text scanned and ``url``/``uri`` are ``None``; for a ``short-doi`` row it is the
    shortDOI (``10/abcde``, an alias, not a DOI name). ``api_url`` is the handle API
    request for the exact name (``?type=HS_ALIAS`` for a shortDOI), so resolving a row
    never reads its decoded name again; ``alternatives`` are the other readings of the
    same place (extract R13, R14, R19-R21). ``name`` is the exact name itself (kept in
    Python for exports; not written).
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
    name: Doi | None = field(default=None, compare=False, repr=False)

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON data (findings as objects of their fields), keys as in ``CSV_COLUMNS``."""
        return {
            "line": self.line,
            "input": self.input,
            "doi": self.doi,
            "url": self.url,
            "uri": self.uri,
            "status": self.status,
            "duplicate_of": self.duplicate_of,
            "findings": [to_jsonable(f) for f in self.findings],
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "form": self.form,
            "api_url": self.api_url,
            "alternatives": list(self.alternatives),
        }


    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BatchRow:
        """The row back from :meth:`as_dict` (read a JSON or JSON Lines export back in)."""
        return cls(
            line=int(data["line"]),
            input=str(data["input"]),
            status=_status(data["status"]),
            doi=data.get("doi"),
            url=data.get("url"),
            uri=data.get("uri"),
            findings=tuple(Finding(**f) for f in data.get("findings") or ()),
            duplicate_of=data.get("duplicate_of"),
            start=data.get("start"),
            end=data.get("end"),
            text=data.get("text"),
            form=data.get("form"),
            api_url=data.get("api_url"),
            alternatives=tuple(data.get("alternatives") or ()),
        )


def _status(value: object) -> Status:
    for s in _STATUSES:
        if value == s:
            return s
    raise ValueError(f"unknown batch status {value!r}")


@dataclass(slots=True)
class BatchSummary:
    """Counts over the rows seen: ``dois == unique + duplicates + errors``.

    ``lines`` is the number of input lines, ``no_doi`` the lines without a DOI,
    ``warnings`` the unique names with a warning (they are in ``unique`` too),
    ``short_dois`` the shortDOIs found (aliases, not counted as DOI names).
    """

    lines: int = 0
    dois: int = 0
    unique: int = 0
    duplicates: int = 0
    errors: int = 0
    warnings: int = 0
    no_doi: int = 0
    short_dois: int = 0
    _last_line: int = field(default=0, repr=False, compare=False)

    def add(self, row: BatchRow) -> None:
        """Count one row (rows of one line come together, as the batch makes them)."""
        if row.line != self._last_line:
            self.lines += 1
            self._last_line = row.line
        status = row.status
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

    def as_dict(self) -> dict[str, int]:
        """The counts as a JSON object."""
        return {
            "lines": self.lines, "dois": self.dois, "unique": self.unique,
            "duplicates": self.duplicates, "errors": self.errors,
            "warnings": self.warnings, "no_doi": self.no_doi, "short_dois": self.short_dois,
        }

    def __str__(self) -> str:
        return (
            f"{self.lines} lines, {self.dois} DOIs: {self.unique} unique "
            f"({self.warnings} with warnings), {self.duplicates} duplicates, "
            f"{self.errors} errors; {self.no_doi} lines without a DOI"
            + (f"; {self.short_dois} shortDOIs" if self.short_dois else "")
        )


#: A line longer than this (code points) is shown in ``input`` as an excerpt.
INPUT_LIMIT = 1000
#: How much of a long line is kept on each side of the DOI in an excerpt.
INPUT_CONTEXT = 200


def _shown_input(line: str, m: Match | None = None) -> str:
    """The ``input`` of a row: the line, or for a line over ``INPUT_LIMIT`` code points
    (a minified JSON file is one line) an excerpt around the DOI with ``…`` where text
    was left out, so that each row stays small however many DOIs share the line.
    ``start``/``end`` still count in the whole line."""
    if len(line) <= INPUT_LIMIT:
        return line
    if m is None:
        return line[:INPUT_LIMIT] + "…"
    a = max(0, m.start - INPUT_CONTEXT)
    b = min(len(line), m.end + INPUT_CONTEXT)
    return ("…" if a else "") + line[a:b] + ("…" if b < len(line) else "")


def _strip_newline(line: str) -> str:
    if line.endswith("\n"):
        line = line[:-1]
    if line.endswith("\r"):
        line = line[:-1]
    return line


def _default_checker() -> Checker:
    from . import check  # the package's check (issue 2), imported late: no import cycle

    def run(doi: Doi) -> list[Finding]:
        return list(check(doi))

    return run


class BatchSession:
    """Batch state that lives across chunks: line counter, dedupe map, summary (issue 5).

    :class:`BatchJob` steps it through a pasted text for the web worker; the CLI streams
    with :meth:`iter_rows`. ``check`` replaces
    :func:`doiname.check` (for tests); by default the core's own is used.
    """

    __slots__ = ("_check", "_line", "_seen", "summary")

    def __init__(self, *, first_line: int = 1, check: Checker | None = None) -> None:
        self._line = first_line - 1
        self._seen: dict[str, int] = {}
        self._check = check if check is not None else _default_checker()
        self.summary = BatchSummary()

    @property
    def next_line(self) -> int:
        """The number the next line fed will get."""
        return self._line + 1

    def rows_for_line(self, line: str) -> list[BatchRow]:
        """The rows of the next line (its trailing ``\\n``/``\\r\\n`` is not part of it)."""
        self._line += 1
        number = self._line
        text = _strip_newline(line)
        matches = extract(text)
        if not matches:
            rows = [BatchRow(number, _shown_input(text), "no-doi")]
        else:
            rows = [self._row(number, text, m) for m in matches]
            whole = whole_reading(text, matches) if len(matches) == 1 else None
            if whole is not None:  # the whole line as one name: its last other reading
                row = rows[0]
                rows[0] = dataclasses.replace(
                    row, alternatives=(*row.alternatives, str(whole.doi)))
        add = self.summary.add
        for row in rows:
            add(row)
        return rows

    def _row(self, number: int, text: str, m: Match) -> BatchRow:
        shown = _shown_input(text, m)
        alternatives = tuple(str(a.doi) for a in m.alternatives)
        judged, findings = judge(m, check=self._check)
        if judged == "short-doi":
            return BatchRow(number, shown, "short-doi", str(m.doi), None, None, findings, None,
                            m.start, m.end, m.text, m.form, short_doi_api_url(str(m.doi)))
        if judged == "error":
            return BatchRow(number, shown, "error", str(m.doi), None, None, findings, None,
                            m.start, m.end, m.text, m.form, None, alternatives)
        doi = m.doi
        status: Status = judged
        duplicate_of: int | None = None
        key = equivalence_key(doi)
        first = self._seen.get(key)
        if first is not None:
            status, duplicate_of = "duplicate", first
        else:
            self._seen[key] = number
        return BatchRow(number, shown, status, str(doi), to_url(doi), to_uri(doi), findings,
                        duplicate_of, m.start, m.end, m.text, m.form, to_handles_api_url(doi),
                        alternatives, doi)

    def iter_rows(self, lines: Iterable[str]) -> Iterator[BatchRow]:
        """Rows for each line, lazily: the next line is read only when its rows are wanted."""
        for line in lines:
            yield from self.rows_for_line(line)


def iter_batch_rows(
    lines: Iterable[str], session: BatchSession | None = None
) -> Iterator[BatchRow]:
    """Stream the rows of a list, in order, at least one per line (issue 5).

    ``lines`` is any iterable of lines (a file object, ``sys.stdin``, a generator);
    trailing line breaks are ignored. Pass a :class:`BatchSession` to read its
    ``summary`` afterwards or to continue numbering and dedupe across inputs.
    """
    return (session if session is not None else BatchSession()).iter_rows(lines)


def _safe_cell(value: str, spreadsheet_safe: bool) -> str:
    if spreadsheet_safe and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def _findings_cell(findings: Iterable[Finding]) -> str:
    return " | ".join(f"{f.severity} {f.code}: {f.message}" for f in findings)


#: A function giving extra cells (CSV) or fields (JSON) for a row, e.g. its resolution.
Extra = Callable[[BatchRow], Mapping[str, Any]]


def write_csv(
    rows: Iterable[BatchRow], fp: IO[str], *, header: bool = True, spreadsheet_safe: bool = True,
    extra: Extra | None = None, extra_columns: tuple[str, ...] = (),
) -> BatchSummary:
    """Write rows as CSV (RFC 4180 quoting, columns ``CSV_COLUMNS``) as they come.

    With ``spreadsheet_safe`` (default) an ``input`` or ``text`` cell that starts with
    ``= + - @``, a tab or a carriage return gets a leading ``'`` so that a spreadsheet
    shows it instead of running it as a formula. Findings are one cell:
    ``severity code: message`` joined by `` | ``. ``extra_columns`` are added at the end,
    their cells taken from ``extra(row)`` by name. Returns the counts. Open ``fp`` with
    ``newline=""``.
    """
    writer = csv.writer(fp, lineterminator="\r\n")
    if header:
        writer.writerow((*CSV_COLUMNS, *extra_columns))
    summary = BatchSummary()
    for row in rows:
        summary.add(row)
        more = extra(row) if extra is not None else {}
        writer.writerow((
            row.line,
            _safe_cell(row.input, spreadsheet_safe),
            row.doi or "",
            row.url or "",
            row.uri or "",
            row.status,
            "" if row.duplicate_of is None else row.duplicate_of,
            _findings_cell(row.findings),
            "" if row.start is None else row.start,
            "" if row.end is None else row.end,
            _safe_cell(row.text or "", spreadsheet_safe),
            row.form or "",
            row.api_url or "",
            _safe_cell(" | ".join(row.alternatives), spreadsheet_safe),
            *(_safe_cell(str(more.get(c) or ""), spreadsheet_safe) for c in extra_columns),
        ))
    return summary


def _row_json(row: BatchRow, extra: Extra | None) -> str:
    data = row.as_dict()
    if extra is not None:
        data.update(extra(row))
    return json.dumps(data, ensure_ascii=False)


def write_jsonl(rows: Iterable[BatchRow], fp: IO[str], *,
                extra: Extra | None = None) -> BatchSummary:
    """Write one JSON object per row (:meth:`BatchRow.as_dict`, plus ``extra(row)``), one
    per line. Returns the counts."""
    summary = BatchSummary()
    for row in rows:
        summary.add(row)
        fp.write(_row_json(row, extra))
        fp.write("\n")
    return summary


def write_json(rows: Iterable[BatchRow], fp: IO[str], *,
               extra: Extra | None = None) -> BatchSummary:
    """Write the rows as one JSON array of :meth:`BatchRow.as_dict` objects (plus
    ``extra(row)``). Returns the counts."""
    summary = BatchSummary()
    fp.write("[")
    sep = "\n"
    for row in rows:
        summary.add(row)
        fp.write(sep)
        fp.write(_row_json(row, extra))
        sep = ",\n"
    fp.write("\n]\n")
    return summary


def count_lines(text: str) -> int:
    """How many lines :class:`BatchJob` (and the CLI, reading a file) finds in ``text``.

    A line ends at ``\n``, ``\r\n`` or a lone ``\r``; a last line without a break
    counts; an empty text has no lines.
    """
    breaks = text.count("\n") + text.count("\r") - text.count("\r\n")
    return breaks + (1 if text and not text.endswith(("\n", "\r")) else 0)


#: What :meth:`BatchJob.export` writes.
EXPORT_FORMATS = ("csv", "json", "jsonl")
#: The columns :meth:`BatchJob.export` adds when names were resolved.
RESOLUTION_COLUMNS = ("resolution", "resolves_to")


class BatchJob:
    """A whole text worked through in steps, its rows kept for export (issue 5).

    The web page's worker holds one per running batch: :meth:`step` processes lines for
    at most ``budget`` seconds (so the worker can report progress and take a Cancel
    between steps) and returns the new rows as JSON data; :meth:`export` writes the rows
    (all, in input order, or those at the given indices, in that order) as CSV, JSON or
    JSON Lines, with the writers the CLI uses. Lines are split as in the CLI.
    """

    __slots__ = ("_reader", "chars_total", "done", "lines_total", "rows", "session")

    def __init__(self, text: str, *, check: Checker | None = None) -> None:
        self._reader = io.StringIO(text, newline="")
        self.chars_total = len(text)
        self.lines_total = count_lines(text)
        self.session = BatchSession(check=check)
        self.rows: list[BatchRow] = []
        self.done = self.lines_total == 0

    @property
    def lines_done(self) -> int:
        """How many lines have been processed."""
        return self.session.next_line - 1

    def step(self, max_lines: int = 5000, budget: float = 0.05) -> dict[str, Any]:
        """Process up to ``max_lines`` lines, stopping early once ``budget`` seconds passed.

        Returns ``{"done", "lines_done", "lines_total", "chars_done", "chars_total",
        "summary", "first_row": index of the first new row, "rows": [row dicts]}``, with
        ``done`` as the first key (the worker tests the start of the JSON text for it).
        At least one line is processed per call while any is left.
        """
        first = len(self.rows)
        new: list[BatchRow] = []
        deadline = time.perf_counter() + budget
        readline = self._reader.readline
        rows_for_line = self.session.rows_for_line
        for count in range(max(1, max_lines)):
            if self.done:
                break
            line = readline()
            if not line:
                self.done = True
                break
            new.extend(rows_for_line(line))
            if self.lines_done >= self.lines_total:
                self.done = True
            if count % 16 == 15 and time.perf_counter() > deadline:
                break
        self.rows.extend(new)
        return {  # "done" first: the worker reads it from the start of the JSON text
            "done": self.done,
            "lines_done": self.lines_done,
            "lines_total": self.lines_total,
            "chars_done": self._reader.tell(),
            "chars_total": self.chars_total,
            "summary": self.session.summary.as_dict(),
            "first_row": first,
            "rows": [row.as_dict() for row in new],
        }

    def export(self, fmt: str, order: Iterable[int] | None = None,
               *, spreadsheet_safe: bool = True,
               resolved: Mapping[int, Mapping[str, Any]] | None = None) -> str:
        """The rows as the text of a ``csv``, ``json`` or ``jsonl`` file.

        ``order`` lists row indices (as :meth:`step` numbered them, from 0) to write, in
        that order; ``None`` writes every row in input order. ``resolved`` maps row
        indices to what resolving their name gave (``outcome`` and ``url`` of a
        :class:`~doiname.resolver.HandleRecord`); every row whose name is equivalent to a
        resolved one (003 ch. 3: its duplicates too) then gets the columns
        ``resolution`` and ``resolves_to`` (in JSON: ``"resolution": {outcome, url}``).
        Raises ``ValueError`` for an unknown format or index.
        """
        if fmt not in EXPORT_FORMATS:
            raise ValueError(
                f"unknown export format {fmt!r}; use one of {', '.join(EXPORT_FORMATS)}")
        rows: Iterable[BatchRow]
        if order is None:
            rows = self.rows
        else:
            picked: list[BatchRow] = []
            size = len(self.rows)
            for i in order:
                if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < size:
                    raise ValueError(f"no row {i!r} in this batch (it has {size} rows)")
                picked.append(self.rows[i])
            rows = picked
        extra = self._resolution(resolved) if resolved is not None else None
        out = io.StringIO(newline="")
        if fmt == "csv":
            write_csv(rows, out, spreadsheet_safe=spreadsheet_safe, extra=extra,
                      extra_columns=RESOLUTION_COLUMNS if extra is not None else ())
        elif fmt == "json":
            write_json(rows, out, extra=extra)
        else:
            write_jsonl(rows, out, extra=extra)
        return out.getvalue()

    def _resolution(self, resolved: Mapping[int, Mapping[str, Any]]) -> Extra:
        """``extra`` for the writers: each row's resolution, found by equivalence key."""
        by_key: dict[str, tuple[str, str | None]] = {}
        size = len(self.rows)
        for index, result in resolved.items():
            i = int(index)
            if not 0 <= i < size:
                raise ValueError(f"no row {index!r} in this batch (it has {size} rows)")
            row = self.rows[i]
            if row.name is None or not isinstance(result, Mapping):
                continue
            url = result.get("url")
            by_key[equivalence_key(row.name)] = (str(result.get("outcome") or ""),
                                                 url if isinstance(url, str) else None)

        def extra(row: BatchRow) -> dict[str, Any]:
            found = by_key.get(equivalence_key(row.name)) if row.name is not None else None
            if found is None:
                return {"resolution": None, "resolves_to": None}
            return {"resolution": found[0], "resolves_to": found[1]}

        return extra


# ------------------------------------------------------------------ doiname extract


def iter_line_matches(lines: Iterable[str], first_line: int = 1) -> Iterator[tuple[int, Match]]:
    """``(line number, match)`` for every DOI in a stream of lines, lazily (issue 5).

    No dedupe and no checks: what ``doiname extract`` prints. Positions are in the line.
    """
    for number, line in enumerate(lines, first_line):
        text = _strip_newline(line)
        for m in extract(text):
            yield number, m


def _match_record(number: int, m: Match) -> dict[str, Any]:
    return {
        "line": number, "start": m.start, "end": m.end, "doi": str(m.doi), "text": m.text,
        "form": m.form, "ok": m.ok, "findings": [to_jsonable(f) for f in m.findings],
    }


def write_matches_csv(
    items: Iterable[tuple[int, Match]], fp: IO[str], *, header: bool = True,
    spreadsheet_safe: bool = True,
) -> int:
    """Write matches as CSV (columns ``MATCH_COLUMNS``); returns how many were written."""
    writer = csv.writer(fp, lineterminator="\r\n")
    if header:
        writer.writerow(MATCH_COLUMNS)
    count = 0
    for number, m in items:
        count += 1
        writer.writerow((number, m.start, m.end, str(m.doi),
                         _safe_cell(m.text, spreadsheet_safe), m.form,
                         "true" if m.ok else "false", _findings_cell(m.findings)))
    return count


def write_matches_jsonl(items: Iterable[tuple[int, Match]], fp: IO[str]) -> int:
    """Write one JSON object per match (keys ``MATCH_COLUMNS``); returns how many."""
    count = 0
    for number, m in items:
        count += 1
        fp.write(json.dumps(_match_record(number, m), ensure_ascii=False))
        fp.write("\n")
    return count
