"""What a Spark task computes, in plain Python: the batch rows of a file's region, of a
DataFrame's text cells, and rows for files that cannot be read.

Rows are :class:`doiname.batch.BatchRow` objects made by :class:`doiname.batch.BatchSession`
exactly as the CLI makes them, one record at a time (a record's rows only need the
record), written as plain dicts (:func:`row_dict`) with where they come from (``line``,
``k``: the row's place in its record) and the name's equivalence key (``key``), which
the corpus-wide deduplication shuffles by. Nothing here imports Spark.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Iterator
from typing import Any

from ..batch import BatchRow, BatchSession
from ..batch.lines import NotText, TextEncoding, text_encoding
from ..citations import POLICY
from ..equivalence import equivalence_key
from ..model import Finding
from ..records import Record, iter_records
from .lines import ReadFailed, decode, head, iter_lines, open_bytes, text_reader

__all__ = ["FINDING_FIELDS", "Numbered", "file_error", "region_records", "region_rows", "row_dict",
           "stats", "text_rows"]

#: The fields of a finding, as the rows carry them.
FINDING_FIELDS = tuple(f.name for f in dataclasses.fields(Finding))
_KEYED = frozenset({"ok", "warning", "duplicate"})


def row_dict(row: BatchRow, k: int) -> dict[str, Any]:
    """A row as plain data: the CLI's columns, ``k`` (its place among its record's rows)
    and ``key`` (the equivalence key of its name, for the rows that are deduplicated)."""
    name = row.name
    return {
        "line": row.line, "k": k, "input": row.input, "doi": row.doi, "url": row.url,
        "uri": row.uri, "status": row.status, "duplicate_of": row.duplicate_of,
        "findings": [{n: getattr(f, n) for n in FINDING_FIELDS} for f in row.findings],
        "start": row.start, "end": row.end, "text": row.text, "form": row.form,
        "api_url": row.api_url, "alternatives": list(row.alternatives), "record": row.record,
        "key": equivalence_key(name) if name is not None and row.status in _KEYED else None,
    }


#: One session per hint in each Python worker, for every record it reads: its caches (a
#: line read a moment ago, a link's head) stay warm; the names it saw are forgotten
#: before each record.
_SESSIONS: dict[str | None, BatchSession] = {}


def _record_rows(rec: Record, hint: str | None) -> Iterator[dict[str, Any]]:
    # Rows are numbered by the record, and duplicates across records are found by the
    # shuffle, not here: the session forgets the names of the records before.
    session = _SESSIONS.get(hint)
    if session is None:
        session = _SESSIONS[hint] = BatchSession(hint=hint)
    session.forget_names()
    for k, row in enumerate(session.rows_for_record(rec)):
        yield row_dict(row, k)


def file_error(line: int, code: str, message: str) -> dict[str, Any]:
    """The row that says a file (or the rest of it) could not be read, at ``line``."""
    finding = Finding(code, "error", message, 0, 0, None, None, in_name=False, source=POLICY)
    return row_dict(BatchRow(line, "", "error", findings=(finding,)), 0)


def stats(lines: int, records: int) -> dict[str, Any]:
    """The counts of what a task read (one such row per task, taken out before output)."""
    return {"line": 0, "k": -1, "status": None, "_lines": lines, "_records": records}


class Numbered:
    """Decoded lines of a file with the byte where each starts; a failure to read ends
    the lines (the records open then are given back, as at the end of a file) and is
    kept in ``failed``."""

    def __init__(self, f: Any, start: int) -> None:
        self.raw = iter_lines(f, start)
        self.offsets: dict[int, int] = {}
        self.failed: ReadFailed | None = None
        self.last = 0  # the number of the last line read
        self.failed_at = 0  # where the last line read starts, when reading failed

    def texts(self, first_line: int) -> Iterator[str]:
        self.last = first_line - 1
        try:
            for at, raw in self.raw:
                self.last += 1
                self.offsets[self.last] = at
                yield decode(raw, at)
        except ReadFailed as err:
            self.failed = err
            self.failed_at = self.offsets.get(self.last, 0)


def region_rows(path: str, compression: str | None, hint: str | None, *, first_at: int = 0,
                first_line: int = 1, start: int = 0, end: int | None = None,
                content: bytes | None = None) -> Iterator[dict[str, Any]]:
    """The rows of the records of a file that start in bytes ``[start, end)`` (``end``
    ``None``: to the end), reading from byte ``first_at``, whose line is ``first_line``.

    ``content``, when given, is the file's bytes (as Spark read them) instead of ``path``.
    A file that cannot be opened, is not text, or stops reading gives an ``error`` row
    saying so (where), after the rows read before; the last dict is :func:`stats`."""
    lines = records = 0
    try:
        encoding: TextEncoding = "utf-8"
        bom = 0
        if start == 0:  # the region that starts the file says how it is read
            with _open(path, compression, content) as f:
                try:
                    encoding, bom = text_encoding(head(f))
                except NotText as why:
                    yield file_error(1, "not-text", f"This file was not read: {why}.")
                    yield stats(0, 0)
                    return
        f = text_reader(_open(path, compression, content), encoding, bom)
    except ReadFailed as err:
        yield file_error(1, "unreadable", f"This file could not be read: {err.reason}.")
        yield stats(0, 0)
        return
    with f:
        if first_at:
            f.seek(first_at - 1)
        source = Numbered(f, first_at)
        for rec in region_records(source, hint, first_line=first_line, start=start, end=end):
            lines += len(rec.lines)
            records += rec.kind != "structure"
            yield from _record_rows(rec, hint)
        if source.failed is not None and (end is None or source.failed_at < end):
            yield file_error(
                source.last + 1, "unreadable",
                f"Reading this file stopped after line {source.last:,}: "
                f"{source.failed.reason}. The rows before are kept.")
    yield stats(lines, records)


def region_records(source: Numbered, hint: str | None, *, first_line: int = 1,
                   start: int = 0, end: int | None = None) -> Iterator[Record]:
    """The records of ``source`` (lines numbered from ``first_line``) that start in bytes
    ``[start, end)``, grouped as :func:`doiname.records.iter_records` groups them."""
    offsets = source.offsets
    for rec in iter_records(source.texts(first_line), hint=hint, first_line=first_line):
        at = offsets.pop(rec.first_line)
        for n in range(rec.first_line + 1, rec.last_line + 1):
            offsets.pop(n, None)
        if at < start:
            continue
        if end is not None and at >= end:
            return
        yield rec


def _open(path: str, compression: str | None, content: bytes | None) -> Any:
    """The file's bytes (decompressed), from ``content`` when given, else from ``path``."""
    if content is None:
        try:
            return open_bytes(path, compression)
        except OSError as err:
            raise ReadFailed(0, err.strerror or str(err)) from err
    raw = io.BytesIO(content)
    if compression == "gzip":
        import gzip

        return gzip.GzipFile(fileobj=raw)
    if compression == "bz2":
        import bz2

        return bz2.BZ2File(raw)
    if compression == "lzma":
        import lzma

        return lzma.LZMAFile(raw)
    return raw


def text_rows(text: str | None, hint: str | None = None,
              counts: list[int] | None = None) -> Iterator[dict[str, Any]]:
    """The rows of one text (a DataFrame cell), read as a file holding it: lines end at
    ``\n``, ``\r\n`` or ``\r``; a cell that is null or empty gives no row. ``counts``,
    when given, gets the lines and the records read added to its two items."""
    if not text:
        return
    for rec in iter_records(io.StringIO(text, newline=""), hint=hint):
        if counts is not None:
            counts[0] += len(rec.lines)
            counts[1] += rec.kind != "structure"
        yield from _record_rows(rec, hint)
