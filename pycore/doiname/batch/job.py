"""A whole text worked through in steps, its rows kept for export: what the web page's
worker runs (:class:`BatchJob`)."""

from __future__ import annotations

import dataclasses
import io
import time
from collections.abc import Iterable, Mapping
from typing import Any

from ..equivalence import equivalence_key
from .export import UNIQUE_COLUMNS, Extra, unique_rows, write_csv, write_json, write_jsonl
from .rows import BatchRow
from .session import BatchSession, Checker

__all__ = ["EXPORT_FORMATS", "RESOLUTION_COLUMNS", "BatchJob", "count_lines"]

#: What :meth:`BatchJob.export` writes.
EXPORT_FORMATS = ("csv", "json", "jsonl")
#: The columns :meth:`BatchJob.export` adds when names were resolved.
RESOLUTION_COLUMNS = ("resolution", "resolves_to")


def count_lines(text: str) -> int:
    """How many lines :class:`BatchJob` (and the CLI, reading a file) finds in ``text``.

    A line ends at ``\\n``, ``\\r\\n`` or a lone ``\\r``; a last line without a break
    counts; an empty text has no lines.
    """
    breaks = text.count("\n") + text.count("\r") - text.count("\r\n")
    return breaks + (1 if text and not text.endswith(("\n", "\r")) else 0)


class BatchJob:
    """A whole text worked through in steps, its rows kept for export.

    :meth:`step` reads records for at most ``budget`` seconds (so the worker can report
    progress and take a Cancel between steps) and returns the new rows as JSON data;
    :meth:`export` writes the rows (all, in input order, or those at the given indices,
    in that order; or each distinct name once) as CSV, JSON or JSON Lines, with the
    writers the CLI uses. Lines are split and grouped into records as in the CLI.
    """

    __slots__ = ("_reader", "_records", "chars_total", "done", "lines_total", "rows",
                 "session")

    def __init__(self, text: str, *, check: Checker | None = None,
                 hint: str | None = None) -> None:
        self._reader = io.StringIO(text, newline="")
        self.chars_total = len(text)
        self.lines_total = count_lines(text)
        self.session = BatchSession(check=check, hint=hint)
        self._records = self.session.records(self._reader)
        self.rows: list[BatchRow] = []
        self.done = self.lines_total == 0

    @property
    def lines_done(self) -> int:
        """How many lines have been processed."""
        return self.session.next_line - 1

    def step(self, max_lines: int = 5000, budget: float = 0.05) -> dict[str, Any]:
        """Process records for up to about ``max_lines`` lines or ``budget`` seconds.

        Returns ``{"done", "lines_done", "lines_total", "chars_done", "chars_total",
        "summary", "first_row": index of the first new row, "rows": [row dicts]}``. At
        least one record is processed per call while any is left.
        """
        first = len(self.rows)
        new: list[BatchRow] = []
        deadline = time.perf_counter() + budget
        rows_for_record = self.session.rows_for_record
        start_line = self.lines_done
        count = 0
        while not self.done:
            record = next(self._records, None)
            if record is None:
                self.done = True
                break
            new.extend(rows_for_record(record))
            count += 1
            if self.lines_done >= self.lines_total:
                self.done = True
            elif self.lines_done - start_line >= max(1, max_lines) or (
                    count % 16 == 0 and time.perf_counter() > deadline):
                break
        self.rows.extend(new)
        return {
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
               resolved: Mapping[int, Mapping[str, Any]] | None = None,
               unique: bool = False, excel: bool = False) -> str:
        """The rows as the text of a ``csv``, ``json`` or ``jsonl`` file.

        ``order`` lists row indices (as :meth:`step` numbered them, from 0) to write, in
        that order; ``None`` writes every row in input order. ``unique`` writes each
        distinct name once (its first row, with ``occurrences`` and ``duplicate_lines``).
        ``resolved`` maps row indices to what resolving their name gave (``outcome``,
        ``url`` and ``verdict`` of a :class:`~doiname.resolver.HandleRecord`); every row
        whose name is equivalent to a resolved one (003 ch. 3: its duplicates too) then
        gets the columns ``resolution`` and ``resolves_to``, and a status ``not-found`` or
        ``unreachable`` when resolving said so. ``excel`` starts a CSV with a UTF-8
        byte-order mark. Raises ``ValueError`` for an unknown format or index.
        """
        if fmt not in EXPORT_FORMATS:
            raise ValueError(
                f"unknown export format {fmt!r}; use one of {', '.join(EXPORT_FORMATS)}")
        rows = self._picked(order)
        extras: list[Extra] = []
        columns: tuple[str, ...] = ()
        if resolved is not None:
            by_key = self._resolutions(resolved)
            rows = [_with_verdict(row, by_key) for row in rows]
            extras.append(lambda row: _resolution(row, by_key))
            columns += RESOLUTION_COLUMNS
        if unique:
            found = list(unique_rows(rows))
            counts = {id(row): (n, lines) for row, n, lines in found}
            rows = [row for row, _n, _lines in found]
            extras.append(lambda row: {"occurrences": counts[id(row)][0],
                                       "duplicate_lines": "; ".join(
                                           map(str, counts[id(row)][1]))})
            columns += UNIQUE_COLUMNS
        extra = _combined(extras)
        out = io.StringIO(newline="")
        if fmt == "csv":
            write_csv(rows, out, spreadsheet_safe=spreadsheet_safe, extra=extra,
                      extra_columns=columns, excel=excel)
        elif fmt == "json":
            write_json(rows, out, extra=extra)
        else:
            write_jsonl(rows, out, extra=extra)
        return out.getvalue()

    def _picked(self, order: Iterable[int] | None) -> list[BatchRow]:
        if order is None:
            return self.rows
        picked: list[BatchRow] = []
        size = len(self.rows)
        for i in order:
            if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < size:
                raise ValueError(f"no row {i!r} in this batch (it has {size} rows)")
            picked.append(self.rows[i])
        return picked

    def _resolutions(self, resolved: Mapping[int, Mapping[str, Any]]
                     ) -> dict[str, tuple[str, str | None, str]]:
        """Each resolved name's (outcome, url, verdict), by the exact name's key."""
        by_key: dict[str, tuple[str, str | None, str]] = {}
        size = len(self.rows)
        for index, result in resolved.items():
            i = int(index)
            if not 0 <= i < size:
                raise ValueError(f"no row {index!r} in this batch (it has {size} rows)")
            row = self.rows[i]
            if row.name is None or not isinstance(result, Mapping):
                continue
            url = result.get("url")
            verdict = result.get("verdict")
            by_key[equivalence_key(row.name)] = (
                str(result.get("outcome") or ""), url if isinstance(url, str) else None,
                verdict if isinstance(verdict, str) else "")
        return by_key


def _combined(extras: list[Extra]) -> Extra | None:
    if not extras:
        return None

    def extra(row: BatchRow) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for e in extras:
            out.update(e(row))
        return out

    return extra


def _resolution(row: BatchRow, by_key: Mapping[str, tuple[str, str | None, str]]
                ) -> dict[str, Any]:
    found = by_key.get(equivalence_key(row.name)) if row.name is not None else None
    if found is None:
        return {"resolution": None, "resolves_to": None}
    return {"resolution": found[0], "resolves_to": found[1]}


def _with_verdict(row: BatchRow, by_key: Mapping[str, tuple[str, str | None, str]]
                  ) -> BatchRow:
    """The row with the status resolving gave its name (``not-found``, ``unreachable``)."""
    found = by_key.get(equivalence_key(row.name)) if row.name is not None else None
    if found is None or row.status == "duplicate":
        return row
    if found[2] == "not-found":
        return dataclasses.replace(row, status="not-found")
    if found[2] == "unreachable":
        return dataclasses.replace(row, status="unreachable")
    return row
