"""What ``doiname extract`` prints: every DOI found in a stream of lines, no dedupe and no
checks (positions in the line)."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator
from typing import IO, Any

from ..extract import Match, extract
from ..jsonable import to_jsonable
from .export import findings_cell, safe_cell
from .lines import lines_of

__all__ = ["MATCH_COLUMNS", "iter_line_matches", "write_matches_csv", "write_matches_jsonl"]

MATCH_COLUMNS = ("line", "start", "end", "doi", "text", "form", "ok", "findings")


def _strip_newline(line: str) -> str:
    if line.endswith("\n"):
        line = line[:-1]
    if line.endswith("\r"):
        line = line[:-1]
    return line


def iter_line_matches(lines: Iterable[str], first_line: int = 1) -> Iterator[tuple[int, Match]]:
    """``(line number, match)`` for every DOI in a stream of lines, lazily.

    No dedupe and no checks: what ``doiname extract`` prints. Positions are in the line.
    A ``str`` is the text of a list: its lines (:func:`~doiname.batch.lines.lines_of`).
    """
    for number, line in enumerate(lines_of(lines), first_line):
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
                         safe_cell(m.text, spreadsheet_safe), m.form,
                         "true" if m.ok else "false", findings_cell(m.findings)))
    return count


def write_matches_jsonl(items: Iterable[tuple[int, Match]], fp: IO[str]) -> int:
    """Write one JSON object per match (keys ``MATCH_COLUMNS``); returns how many."""
    count = 0
    for number, m in items:
        count += 1
        fp.write(json.dumps(_match_record(number, m), ensure_ascii=False))
        fp.write("\n")
    return count
