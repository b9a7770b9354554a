"""Batch processing of lists: every reference in, one or more rows out.

A librarian's list (``.txt``, ``.csv``, ``.tsv``, ``.bib``, ``.ris``, ``.nbib``, ``.json``, or
a paste) is read as records (:mod:`doiname.records`: BibTeX entries, RIS and MEDLINE
records, JSON objects and lines of plain text), each scanned with
:func:`doiname.extract.extract` and judged as every other surface judges it
(:mod:`doiname.inspection`).

* :mod:`.rows`: :class:`BatchRow` and :class:`BatchSummary`;
* :mod:`.status`: the statuses of rows, in one table (what the page reads too);
* :mod:`.session`: :class:`BatchSession` and :func:`iter_batch_rows` (streaming, the CLI);
* :mod:`.job`: :class:`BatchJob`, a whole text or a stream fed in pieces, in time-boxed
  steps (the page's worker), its rows kept compactly (:mod:`.store`) and exported in
  pieces (:mod:`.outputs`);
* :mod:`.lines`: text in pieces to lines, each line bounded;
* :mod:`.fast` and :mod:`.general`: how a line is read (the fast path and its oracle);
* :mod:`.export`: the writers (CSV, JSON, JSON Lines; unique names; CSV for Excel);
* :mod:`.matches`: what ``doiname extract`` prints.

Lines are split as the CLI reads a file (``open(..., newline="")``): at ``\n``,
``\r\n`` and a lone ``\r``.
"""

from __future__ import annotations

from .export import (
    UNIQUE_COLUMNS,
    export_pieces,
    safe_cell,
    unique_rows,
    write_csv,
    write_json,
    write_jsonl,
)
from .job import EXPORT_FORMATS, RESOLUTION_COLUMNS, BatchJob, count_lines
from .lines import LineSplitter, LongLine, read_lines, split_lines
from .matches import MATCH_COLUMNS, iter_line_matches, write_matches_csv, write_matches_jsonl
from .rows import CSV_COLUMNS, INPUT_CONTEXT, INPUT_LIMIT, BatchRow, BatchSummary, Status
from .session import BatchSession, iter_batch_rows
from .store import RowStore

__all__ = [
    "CSV_COLUMNS",
    "EXPORT_FORMATS",
    "INPUT_CONTEXT",
    "INPUT_LIMIT",
    "MATCH_COLUMNS",
    "RESOLUTION_COLUMNS",
    "UNIQUE_COLUMNS",
    "BatchJob",
    "BatchRow",
    "BatchSession",
    "BatchSummary",
    "LineSplitter",
    "LongLine",
    "RowStore",
    "Status",
    "count_lines",
    "export_pieces",
    "iter_batch_rows",
    "iter_line_matches",
    "read_lines",
    "safe_cell",
    "split_lines",
    "unique_rows",
    "write_csv",
    "write_json",
    "write_jsonl",
    "write_matches_csv",
    "write_matches_jsonl",
]
