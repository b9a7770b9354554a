"""Records across split boundaries: where each split's reading of a file is the CLI's.

A large file is read by several tasks at once, each from a byte offset (a *split*, as
Spark splits files). Lines are easy: a task owns the lines that start in its split
(:func:`doiname.spark.lines.iter_lines`). Records are not: a BibTeX entry, a RIS record,
a JSON object or a CSV row may start in one split and end in the next, and how
:func:`doiname.records.iter_records` groups the lines after a boundary depends on what
came before it. So each split is read twice, cheaply the first time:

1. :func:`scan_split` groups the split's lines into records starting fresh at its first
   line (a guess: as if the file started there), reads on past its end, and at the next
   split's first line starts a second fresh grouping (the next split's own guess). The two
   readings agree from the first record both make alike after which nothing before can
   matter: a structured record (it sets the reader's one flag, "the last record was
   structured") or a line of text read on its own (it clears it). From there on, the
   next split's reading is this split's reading. That line is the *handover*.
2. :func:`regions` follows the handovers from the file's first split, whose reading is
   the CLI's: each split on that chain owns the records from where its predecessor hands
   over to where it hands over. A split that every reading runs past owns nothing.

Only the grouping runs twice (no DOI is looked for in the first pass), and only for files
that have more than one split; compressed files are never split.

Whether a line was read on its own (not given back by a record that never closed) is
seen from how far the grouping has read when it yields the line: a record that is still
open must read ahead, a line read on its own need not. A grouping that reads ahead
anyway only makes handovers later, never wrong.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain, tee

from ..record_starts import STRUCTURED_KINDS as _STRUCTURED
from ..records import Record, iter_records
from .lines import Bytes, decode, iter_lines

__all__ = ["Region", "Scan", "regions", "scan_split", "split_starts"]



@dataclass(frozen=True, slots=True)
class Scan:
    """What the first pass learned about split ``index`` of a file.

    ``first_at``: the byte where its first line starts (the file's size when no line
    starts in it or after it); ``lines``: how many lines start in it; ``to_split`` and
    ``to_at``: the split whose own reading equals this one from byte ``to_at`` on
    (``None`` and the file's size when this reading runs to the end of the file).
    """

    index: int
    first_at: int
    lines: int
    to_split: int | None
    to_at: int


@dataclass(frozen=True, slots=True)
class Region:
    """The records split ``index`` gives rows for: it reads from ``first_at`` (line number
    ``first_line``) and owns the records that start in bytes ``[start, end)``."""

    index: int
    first_at: int
    first_line: int
    start: int
    end: int


def split_starts(size: int, split_bytes: int) -> list[int]:
    """Where the splits of a file of ``size`` bytes start (one split when it is small)."""
    if size <= split_bytes:
        return [0]
    return list(range(0, size, split_bytes))


class _Reading:
    """One grouping of lines into records, fed from ``lines`` numbered from ``first``,
    that knows where each record starts and whether a record settles the grouping's
    state (see the module's docstring)."""

    def __init__(self, lines: Iterator[tuple[int, str]], first: int, hint: str | None,
                 split: int) -> None:
        self.split = split
        self.first = first
        self.pulled = first - 1  # the number of the last line read
        self._at: deque[tuple[int, int]] = deque()  # (number, offset) of lines read
        self._lines = lines
        self.records = iter_records(self._texts(), hint=hint, first_line=first)
        self.ahead: dict[int, tuple[Record, bool]] = {}  # records made, by first line
        self.done = False

    def _texts(self) -> Iterator[str]:
        for at, text in self._lines:
            self.pulled += 1
            self._at.append((self.pulled, at))
            yield text

    def offset_of(self, number: int) -> int:
        """The byte where line ``number`` starts (lines before it are forgotten)."""
        while self._at and self._at[0][0] < number:
            self._at.popleft()
        return self._at[0][1]

    def settles(self, rec: Record) -> bool:
        """Whether ``rec`` fixes the grouping's state whatever came before it."""
        if rec.kind in _STRUCTURED:
            return True
        return rec.kind == "line" and bool(rec.lines[0].strip()) and self.pulled == rec.first_line

    def next(self) -> tuple[Record, bool] | None:
        rec = next(self.records, None)
        if rec is None:
            self.done = True
            return None
        return rec, self.settles(rec)

    def made(self, number: int) -> tuple[Record, bool] | None:
        """This grouping's record that starts at line ``number``, reading as far as needed."""
        while not self.done and (not self.ahead or max(self.ahead) < number):
            got = self.next()
            if got is not None:
                self.ahead[got[0].first_line] = got
        for n in [n for n in self.ahead if n < number]:
            del self.ahead[n]
        return self.ahead.get(number)


def scan_split(f: Bytes, *, index: int, starts: list[int], size: int,
               hint: str | None) -> Scan:
    """The first pass over split ``index`` of a file whose splits start at ``starts``
    (:func:`split_starts`); ``f`` is the file, at any position."""
    start = starts[index]
    end = starts[index + 1] if index + 1 < len(starts) else size
    later = starts[index + 1:]
    f.seek(max(0, start - 1))
    upstream: Iterator[tuple[int, str]] = (
        (at, decode(raw, at)) for at, raw in iter_lines(f, start))
    state: dict[str, int] = {"lines": 0, "first_at": size, "next": 0}
    other: list[_Reading] = []  # the next split's own reading, once this one gets there

    def own() -> Iterator[tuple[int, str]]:
        it = upstream
        number = 0
        while True:
            item = next(it, None)
            if item is None:
                return
            number += 1
            at = item[0]
            if number == 1:
                state["first_at"] = at
            if at < end:
                state["lines"] += 1
            k = state["next"]
            if k < len(later) and at >= later[k]:
                while k + 1 < len(later) and at >= later[k + 1]:
                    k += 1  # a line longer than a split: the last split it crosses
                state["next"] = k + 1
                it, theirs = tee(it)
                other[:] = [_Reading(chain([item], theirs), number, hint, index + 1 + k)]
            yield item

    mine = _Reading(own(), 1, hint, index)
    while True:
        got = mine.next()
        if got is None:
            return Scan(index, state["first_at"], state["lines"], None, size)
        rec, settled = got
        if not other or rec.first_line < other[0].first:
            continue
        theirs = other[0].made(rec.first_line)
        if settled and theirs is not None and theirs[1] and theirs[0] == rec:
            at = mine.offset_of(rec.first_line)
            return Scan(index, state["first_at"], state["lines"], other[0].split, at)


def regions(scans: list[Scan]) -> list[Region]:
    """The regions of a file's splits from their scans (in split order): the chain of
    handovers from the first split (see the module's docstring)."""
    line_numbers = [1]
    for s in scans[:-1]:
        line_numbers.append(line_numbers[-1] + s.lines)
    out: list[Region] = []
    cur: int | None = 0
    start = 0
    while cur is not None:
        scan = scans[cur]
        if scan.to_at > start:
            out.append(Region(cur, scan.first_at, line_numbers[cur], start, scan.to_at))
            start = scan.to_at
        cur = scan.to_split
    return out
