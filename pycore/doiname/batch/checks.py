"""Batch's "Check all": each row's record compared with its name's registry record (002
foreword, "DOI and Metadata").

A job keeps the text of the structured records its rows come from (BibTeX entries, RIS
and MEDLINE records, JSON objects: :class:`References`, bounded by
:data:`~doiname.limits.BATCH_CHECK_MAX_RECORDS`); a plain line is its own reference. When
the registry's answer for a name comes (:func:`doiname.read_registry_answer`), every row
of the job whose name is equivalent to it (003 ch. 3: its duplicates too) is checked
against its own record (:func:`doiname.check_row`, as the CLI's ``verify`` does) and
takes the status :data:`~doiname.batch.rows.CHECK_STATUSES` gives.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..equivalence import equivalence_key
from ..limits import BATCH_CHECK_MAX_RECORDS
from ..record_starts import REFERENCE_KINDS

if TYPE_CHECKING:
    from ..records import Record
    from ..registry import RegistryAnswer
    from ..verify import RowCheck
    from .store import RowStore

__all__ = ["REFERENCE_KINDS", "Checks", "References"]


class References:
    """The structured records of a job's rows, by the line of each row: ``(text, kind)``
    of the first :data:`~doiname.limits.BATCH_CHECK_MAX_RECORDS` records (later rows are
    checked against their line)."""

    __slots__ = ("by_line", "records")

    def __init__(self) -> None:
        self.by_line: dict[int, tuple[str, str]] = {}
        self.records = 0

    def keep(self, record: Record, rows: Sequence[Sequence[Any]]) -> None:
        """Keep ``record`` for its ``rows`` (row tuples: the line first)."""
        if self.records >= BATCH_CHECK_MAX_RECORDS:
            return
        self.records += 1
        kept = (record.text, record.kind)
        for t in rows:
            self.by_line[t[0]] = kept


class Checks:
    """The checks of a job's rows, by row index, and the rows of each name."""

    __slots__ = ("_by_key", "_indexed", "by_row")

    def __init__(self) -> None:
        self.by_row: dict[int, RowCheck] = {}
        self._by_key: dict[str, list[int]] = {}
        self._indexed = 0

    def rows_named(self, store: RowStore, index: int) -> list[int]:
        """The rows of ``store`` whose name is equivalent to row ``index``'s (003 ch. 3),
        in order; the index of names grows with the rows kept."""
        for i in range(self._indexed, len(store)):
            name = store[i].name
            if name is not None:
                self._by_key.setdefault(equivalence_key(name), []).append(i)
        self._indexed = len(store)
        name = store[index].name
        return [] if name is None else self._by_key.get(equivalence_key(name), [])

    def check(self, store: RowStore, references: References | None, index: int,
              answer: RegistryAnswer) -> list[tuple[int, RowCheck]]:
        """Check every row named as row ``index`` against its own record; keep and return
        each check (002 foreword, "DOI and Metadata")."""
        from ..verify import check_row, row_reference
        out: list[tuple[int, RowCheck]] = []
        for i in self.rows_named(store, index):
            row = store[i]
            if row.status in ("error", "short-doi"):
                continue
            kept = references.by_line.get(row.line) if references is not None else None
            reference = row_reference(*kept) if kept is not None else row_reference(row.input)
            result = check_row(reference, answer)
            self.by_row[i] = result
            out.append((i, result))
        return out
