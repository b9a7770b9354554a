"""What a :class:`~doiname.batch.BatchJob` writes: its kept rows, picked, resolved or one
per name, as the pieces of a CSV, JSON or JSON Lines file (:func:`job_pieces`).

Nothing here holds every row at once: rows are read from the
:class:`~doiname.batch.store.RowStore` as the pieces are written; a unique export first
groups the rows by name (one index and one list of duplicate lines per distinct name).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from ..equivalence import equivalence_key
from ..verify.rows import CHECK_COLUMNS
from .export import EXPORT_FORMATS, UNIQUE_COLUMNS, export_pieces
from .rows import BatchRow
from .status import CHECK_STATUSES, status_after
from .store import RowStore

if TYPE_CHECKING:
    from ..verify import RowCheck

__all__ = ["EXPORT_FORMATS", "RESOLUTION_COLUMNS", "job_pieces"]

#: The columns an export adds when names were resolved.
RESOLUTION_COLUMNS = ("resolution", "resolves_to")

#: What resolving a name gave: (outcome, url it resolves to, verdict), by name key.
Resolutions = dict[str, tuple[str, "str | None", str]]


def job_pieces(store: RowStore, fmt: str, order: Iterable[int] | None, *,
               spreadsheet_safe: bool = True,
               resolved: Mapping[int, Mapping[str, Any]] | None = None,
               unique: bool = False, excel: bool = False,
               checks: Mapping[int, RowCheck] | None = None) -> Iterator[str]:
    """The rows of ``store`` (see :meth:`~doiname.batch.BatchJob.export_chunks`) as the
    pieces of a file; with ``checks`` (Check all, by row index), each checked row's status
    is the check's (:data:`~doiname.batch.rows.CHECK_STATUSES`) and the columns
    :data:`~doiname.verify.CHECK_COLUMNS` are added. Raises ``ValueError`` at once for a
    bad format or index."""
    if fmt not in EXPORT_FORMATS:
        raise ValueError(
            f"unknown export format {fmt!r}; use one of {', '.join(EXPORT_FORMATS)}")
    picked = _picked(store, order)
    columns: tuple[str, ...] = ()
    by_key: Resolutions | None = None
    if resolved is not None:
        by_key = _resolutions(store, resolved)
        columns += RESOLUTION_COLUMNS
    if checks is not None:
        columns += CHECK_COLUMNS
    counts: dict[int, tuple[int, list[int]]] | None = None
    if unique:
        picked, counts = _unique(store, picked)
        columns += UNIQUE_COLUMNS
    current = [0]  # the index of the row being written (rows are written as they come)

    def rows() -> Iterator[BatchRow]:
        for i in picked:
            current[0] = i
            row = store[i]
            row = row if by_key is None else _with_verdict(row, by_key)
            checked = checks.get(i) if checks is not None else None
            if checked is not None:
                status = CHECK_STATUSES.get(checked.status)
                row = row if status is None else dataclasses.replace(row, status=status)
            yield row

    def extra(row: BatchRow) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if by_key is not None:
            found = by_key.get(equivalence_key(row.name)) if row.name is not None else None
            out["resolution"] = None if found is None else found[0]
            out["resolves_to"] = None if found is None else found[1]
        if checks is not None:
            checked = checks.get(current[0])
            cells = checked.cells if checked is not None else ("",) * len(CHECK_COLUMNS)
            out.update(zip(CHECK_COLUMNS, cells, strict=True))
        if counts is not None:
            n, lines = counts[current[0]]
            out["occurrences"] = n
            out["duplicate_lines"] = "; ".join(map(str, lines))
        return out

    return export_pieces(rows(), fmt, extra=extra if columns else None, extra_columns=columns,
                         spreadsheet_safe=spreadsheet_safe, excel=excel)


def _picked(store: RowStore, order: Iterable[int] | None) -> Iterable[int]:
    size = len(store)
    if order is None:
        return range(size)
    picked: list[int] = []
    for i in order:
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < size:
            raise ValueError(f"no row {i!r} in this batch (it keeps {size} rows)")
        picked.append(i)
    return picked


def _resolutions(store: RowStore, resolved: Mapping[int, Mapping[str, Any]]) -> Resolutions:
    """Each resolved name's (outcome, url, verdict), by the exact name's key."""
    by_key: Resolutions = {}
    size = len(store)
    for index, result in resolved.items():
        i = int(index)
        if not 0 <= i < size:
            raise ValueError(f"no row {index!r} in this batch (it keeps {size} rows)")
        row = store[i]
        if row.name is None or not isinstance(result, Mapping):
            continue
        url = result.get("url")
        verdict = result.get("verdict")
        by_key[equivalence_key(row.name)] = (
            str(result.get("outcome") or ""), url if isinstance(url, str) else None,
            verdict if isinstance(verdict, str) else "")
    return by_key


def _unique(store: RowStore, picked: Iterable[int]
            ) -> tuple[list[int], dict[int, tuple[int, list[int]]]]:
    """The first row of each distinct name, in order, and per first row (how many rows
    name it, the lines of the others). Names are the same when their equivalence keys
    are (003 ch. 3); shortDOIs by their handle; rows without a readable name are left
    out (as :func:`~doiname.batch.export.unique_rows` does)."""
    first: dict[str, int] = {}
    others: dict[int, list[int]] = {}
    for i in picked:
        key = store.name_key(i)
        if key is None:
            continue
        at = first.get(key)
        if at is None:
            first[key] = i
            others[i] = []
        else:
            others[at].append(store.line_of(i))
    return list(first.values()), {i: (1 + len(lines), lines) for i, lines in others.items()}


def _with_verdict(row: BatchRow, by_key: Resolutions) -> BatchRow:
    """The row with the status resolving gave its name
    (:func:`~doiname.batch.status.status_after`)."""
    found = by_key.get(equivalence_key(row.name)) if row.name is not None else None
    status = status_after(row.status, None if found is None else found[2])
    return row if status == row.status else dataclasses.replace(row, status=status)
