"""Writing a batch's rows: CSV (RFC 4180, safe for spreadsheets, optionally for Excel),
JSON and JSON Lines, every row or the unique names only. The CLI and the web page's
downloads use these same writers."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import IO, Any

from ..equivalence import equivalence_key
from ..limits import EXPORT_CHUNK_CHARS
from ..memo import Memo
from ..model import Finding
from .rows import CSV_COLUMNS, BatchRow, BatchSummary, RowFields, RowStream, fields_of

__all__ = ["EXPORT_FORMATS", "UNIQUE_COLUMNS", "Extra", "export_pieces", "fields_csv",
           "safe_cell", "unique_rows", "write_csv", "write_json", "write_jsonl"]

#: The formats of an export.
EXPORT_FORMATS = ("csv", "json", "jsonl")

#: What a unique export adds to each name's first row.
UNIQUE_COLUMNS = ("occurrences", "duplicate_lines")

# A cell a spreadsheet would run as a formula (OWASP "CSV injection"): = + - @ (also their
# full-width forms, which spreadsheets read as the same signs), after any leading
# whitespace, or a cell starting with a tab or a carriage return.
_FORMULA = re.compile("[ \t\r\n\u00a0\u3000]*[=+\\-@\uff1d\uff0b\uff0d\uff20]|[\t\r]")
#: What such a cell starts with (a quick test before the pattern).
_RISKY = frozenset(" \t\r\n\u00a0\u3000=+-@\uff1d\uff0b\uff0d\uff20")

#: A function giving extra cells (CSV) or fields (JSON) for a row, e.g. its resolution.
Extra = Callable[[BatchRow], Mapping[str, Any]]


def safe_cell(value: str, spreadsheet_safe: bool = True) -> str:
    """``value``, with a leading ``'`` when a spreadsheet would run it as a formula."""
    if spreadsheet_safe and _FORMULA.match(value):
        return "'" + value
    return value


def findings_cell(findings: Iterable[Finding]) -> str:
    return " | ".join(f"{f.severity} {f.code}: {f.message}" for f in findings)


def write_csv(
    rows: Iterable[BatchRow], fp: IO[str], *, header: bool = True, spreadsheet_safe: bool = True,
    extra: Extra | None = None, extra_columns: tuple[str, ...] = (), excel: bool = False,
) -> BatchSummary:
    """Write rows as CSV (RFC 4180 quoting, columns ``CSV_COLUMNS``) as they come.

    With ``spreadsheet_safe`` (default) every text cell a spreadsheet would run as a
    formula (``= + - @``, their full-width forms, after leading whitespace, or a leading
    tab or carriage return) gets a leading ``'``. Findings are one cell:
    ``severity code: message`` joined by `` | ``. ``extra_columns`` are added at the end,
    their cells taken from ``extra(row)`` by name. ``excel`` starts the file with a UTF-8
    byte-order mark, which Excel needs to read UTF-8. Returns the counts. Open ``fp``
    with ``newline=""``.
    """
    if excel:
        fp.write("\ufeff")
    if header:
        fp.write(csv_line((*CSV_COLUMNS, *extra_columns)))
    summary = BatchSummary()
    write = fp.write
    if type(rows) is RowStream and not extra_columns:  # a stream's rows, as tuples
        count_rows = summary.count_rows
        for chunk in rows.chunks():
            count_rows(chunk)
            write(fields_csv(chunk, spreadsheet_safe=spreadsheet_safe))
        return summary
    add = summary.add
    for row in rows:
        add(row)
        write(csv_line(csv_cells(row, spreadsheet_safe, extra, extra_columns)))
    return summary


def fields_csv(rows: Iterable[RowFields], extras: Iterable[tuple[str, ...]] | None = None, *,
               spreadsheet_safe: bool = True) -> str:
    """The lines :func:`write_csv` writes (without its header) for rows given as
    :data:`~doiname.batch.rows.RowFields` tuples, each with the cells of ``extras`` (one
    tuple of texts per row, its extra columns) after its ``CSV_COLUMNS`` cells: what
    ``write_csv(rows, fp, extra=..., extra_columns=...)`` writes for the same rows, without
    a row object per row (Spark's CSV parts)."""
    risky = _RISKY if spreadsheet_safe else frozenset()
    if extras is None:
        return "".join([_line(t, risky) for t in rows])
    return "".join([
        _line(t, risky)[:-2] + "," + ",".join([
            _quoted(safe_cell(c, spreadsheet_safe)) for c in more]) + "\r\n"
        for t, more in zip(rows, extras, strict=True)])


def csv_cells(row: BatchRow, spreadsheet_safe: bool = True, extra: Extra | None = None,
              extra_columns: tuple[str, ...] = ()) -> tuple[Any, ...]:
    """The cells of one row as :func:`write_csv` writes them (``CSV_COLUMNS`` and the
    ``extra_columns``), formula-like text cells neutralised when ``spreadsheet_safe``."""
    cells = _cells(fields_of(row), _RISKY if spreadsheet_safe else frozenset())
    if not extra_columns:
        return cells
    more = extra(row) if extra is not None else {}
    return (*cells, *(safe_cell(str(more.get(c) or ""), spreadsheet_safe)
                      for c in extra_columns))


def _texts(t: RowFields, risky: frozenset[str]) -> tuple[str, str, str, str, str]:
    """The text cells of a row that may come from the input (input, name, text,
    alternatives, record), each starting with one of ``risky`` through :func:`safe_cell`."""
    inp = t.input
    if inp[:1] in risky:
        inp = safe_cell(inp)
    doi = t.doi or ""
    if doi[:1] in risky:
        doi = safe_cell(doi)
    text = t.text or ""
    if text[:1] in risky:
        text = safe_cell(text)
    alternatives = " | ".join(t.alternatives) if t.alternatives else ""
    if alternatives[:1] in risky:
        alternatives = safe_cell(alternatives)
    record = t.record or ""
    if record[:1] in risky:
        record = safe_cell(record)
    return inp, doi, text, alternatives, record


def _cells(t: RowFields, risky: frozenset[str]) -> tuple[Any, ...]:
    """The ``CSV_COLUMNS`` cells of a row's fields; a text cell starting with one of
    ``risky`` goes through :func:`safe_cell`."""
    inp, doi, text, alternatives, record = _texts(t, risky)
    findings = findings_cell(t.findings) if t.findings else ""
    if findings[:1] in risky:
        findings = safe_cell(findings)
    dup, start, end = t.duplicate_of, t.start, t.end
    return (t.line, record, t.status, doi, t.url or "", "" if dup is None else dup, findings,
            inp, t.uri or "", "" if start is None else start, "" if end is None else end,
            text, t.form or "", t.api_url or "", alternatives)


def _line(t: RowFields, risky: frozenset[str]) -> str:
    """``csv_line(_cells(t, risky))``, made with fewer steps: the cells that may hold a
    comma or a quote (the input, the findings) are quoted on their own, the others
    checked at once."""
    (line, inp, status, doi, url, uri, findings, dup, start, end, text, form, api,
     alternatives, record, _) = t
    if inp[:1] in risky:
        inp = safe_cell(inp)
    if "," in inp or '"' in inp or "\n" in inp or "\r" in inp:
        inp = '"' + inp.replace('"', '""') + '"'
    doi = doi or ""
    if doi[:1] in risky:
        doi = safe_cell(doi)
    text = text or ""
    if text[:1] in risky:
        text = safe_cell(text)
    alts = ""
    if alternatives:
        alts = " | ".join(alternatives)
        if alts[:1] in risky:
            alts = safe_cell(alts)
    if record is None:
        record = ""
    elif record[:1] in risky:
        record = safe_cell(record)
    cell = _findings_quoted(findings, risky) if findings else ""
    head = f"{record},{status},{doi},{url or ''},{'' if dup is None else dup}"
    tail = (f"{uri or ''},{'' if start is None else start},{'' if end is None else end},"
            f"{text},{form or ''},{api or ''},{alts}")
    both = head + tail  # (str.__contains__ is many times faster than a pattern here)
    if (both.count(",") == 10 and '"' not in both and "\n" not in both
            and "\r" not in both):
        return f"{line},{head},{cell},{inp},{tail}\r\n"
    return csv_line(_cells(t, risky))


#: The findings cells made lately, quoted, by the findings (another line's name often
#: has the same: a link's head, an escape, a character outside the Crossref set).
_FINDINGS_CELLS: Memo[tuple[Finding, ...], str] = Memo(256)


def _findings_quoted(findings: tuple[Finding, ...], risky: frozenset[str]) -> str:
    """The findings cell of :func:`_cells`, quoted as the csv module quotes it."""
    if not risky:
        return _quoted(findings_cell(findings))
    got = _FINDINGS_CELLS.get(findings)
    if got is not None:
        return got
    cell = findings_cell(findings)
    if cell[:1] in risky:
        cell = safe_cell(cell)
    return _FINDINGS_CELLS.put(findings, _quoted(cell))


def _quoted(cell: str) -> str:
    """``cell`` as the csv module writes it (quoted when it holds ``,`` ``"`` or a line
    break, its quotes doubled)."""
    if "," in cell or '"' in cell or "\n" in cell or "\r" in cell:
        return '"' + cell.replace('"', '""') + '"'
    return cell


_PLAIN_TYPES = frozenset({str, int})


def csv_line(cells: tuple[Any, ...]) -> str:
    """The line ``csv.writer(fp, lineterminator="\\r\\n").writerow(cells)`` writes for
    cells of ``str`` and ``int`` (RFC 4180: a cell holding ``,``, ``"`` or a line break
    is quoted, its quotes doubled), made by string operations: the csv module reads
    every character of every cell, several times slower for a batch's long rows."""
    strs = [c if type(c) is str else str(c) for c in cells]
    body = ",".join(strs)
    if (body.count(",") == len(strs) - 1 and '"' not in body and "\n" not in body
            and "\r" not in body and body):
        return body + "\r\n"
    if len(strs) < 2 or not _PLAIN_TYPES.issuperset(map(type, cells)):
        out = io.StringIO(newline="")  # a lone cell, or a cell of another type: as csv does
        csv.writer(out, lineterminator="\r\n").writerow(cells)
        return out.getvalue()
    return ",".join([_quoted(c) for c in strs]) + "\r\n"


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


def unique_rows(rows: Iterable[BatchRow]) -> Iterator[tuple[BatchRow, int, list[int]]]:
    """Each distinct name once, in the order first seen: ``(its first row, how many
    rows name it, the lines of the others)``. Names are the same when their equivalence
    keys are (003 ch. 3); shortDOIs by their handle. Rows without a readable name
    (``no-doi``, ``error``) are not names and are left out. Holds one entry per distinct
    name, and yields when the rows are all read."""
    first: dict[str, BatchRow] = {}
    others: dict[str, list[int]] = {}
    for row in rows:
        if row.status in ("no-doi", "error") or row.doi is None:
            continue
        key = ("short:" + row.doi if row.status == "short-doi" else
               equivalence_key(row.name) if row.name is not None else equivalence_key(row.doi))
        if key in first:
            others[key].append(row.line)
        else:
            first[key] = row
            others[key] = []
    for key, row in first.items():
        yield row, 1 + len(others[key]), others[key]


def unique_extra(occurrences: Mapping[int, tuple[int, list[int]]]) -> Extra:
    """``extra`` for the writers: a first row's count and the lines of its duplicates."""
    def extra(row: BatchRow) -> dict[str, Any]:
        count, lines = occurrences.get(id(row), (1, []))
        return {"occurrences": count, "duplicate_lines": "; ".join(map(str, lines))}

    return extra


def export_pieces(rows: Iterable[BatchRow], fmt: str, *, extra: Extra | None = None,
                  extra_columns: tuple[str, ...] = (), spreadsheet_safe: bool = True,
                  excel: bool = False, size: int = EXPORT_CHUNK_CHARS) -> Iterator[str]:
    """The text :func:`write_csv` (``csv``), :func:`write_json` (``json``) or
    :func:`write_jsonl` (``jsonl``) would write, in pieces of about ``size`` characters
    (a row is never cut), read from ``rows`` as the pieces are wanted. Raises
    ``ValueError`` for another format."""
    if fmt not in EXPORT_FORMATS:
        raise ValueError(f"unknown export format {fmt!r}; use one of {', '.join(EXPORT_FORMATS)}")
    return _pieces(rows, fmt, extra, extra_columns, spreadsheet_safe, excel, size)


def _pieces(rows: Iterable[BatchRow], fmt: str, extra: Extra | None,
            extra_columns: tuple[str, ...], spreadsheet_safe: bool, excel: bool,
            size: int) -> Iterator[str]:
    buf = io.StringIO(newline="")
    write = buf.write
    if fmt == "csv":
        if excel:
            write("\ufeff")
        write(csv_line((*CSV_COLUMNS, *extra_columns)))
        for row in rows:
            write(csv_line(csv_cells(row, spreadsheet_safe, extra, extra_columns)))
            if buf.tell() >= size:
                yield buf.getvalue()
                buf.seek(0)
                buf.truncate()
    else:
        sep, after, end = ("\n", ",\n", "\n]\n") if fmt == "json" else ("", "", "")
        if fmt == "json":
            write("[")
        for row in rows:
            write(sep)
            write(_row_json(row, extra))
            if fmt == "jsonl":
                write("\n")
            else:
                sep = after
            if buf.tell() >= size:
                yield buf.getvalue()
                buf.seek(0)
                buf.truncate()
        write(end)
    rest = buf.getvalue()
    if rest:
        yield rest
