"""A list worked through in steps, its rows kept for export: what the web page's worker
runs (:class:`BatchJob`).

The input comes whole (``BatchJob(text)``) or as a stream: ``BatchJob()``, then
:meth:`~BatchJob.feed` with pieces cut anywhere (inside a line, between ``\\r`` and
``\\n``, inside a record) and :meth:`~BatchJob.end` when there is no more. Either way the
rows are the same, and memory stays bounded whatever the input:

* the text not read yet is held up to :data:`~doiname.limits.BATCH_MAX_PENDING_CHARS`
  characters: past that :meth:`~BatchJob.feed` refuses the piece (back-pressure: step,
  then feed it again);
* a line is read up to :data:`~doiname.limits.BATCH_MAX_LINE_CHARS` characters (a longer
  one gives an ``error`` row saying so; its rest is counted, never held);
* rows are kept compactly (:class:`~doiname.batch.store.RowStore`, about 100 bytes each
  plus the lines they come from), at most :data:`~doiname.limits.BATCH_MAX_ROWS_KEPT`;
  later rows are still made and counted (the summary, ``rows_total``), but
  :meth:`~BatchJob.step` hands over only the rows kept: the page holds what the job
  keeps, and no row is written as JSON to be dropped;
* the dedupe map holds at most :data:`~doiname.limits.BATCH_MAX_NAMES` names;
* exports are written in pieces (:meth:`~BatchJob.export_chunks`).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from ..limits import (
    BATCH_MAX_FEED_CHARS,
    BATCH_MAX_PENDING_CHARS,
    BATCH_MAX_ROWS_KEPT,
    BATCH_STEP_LINES,
    BATCH_STEP_MAX_CHARS,
    BATCH_STEP_MAX_ROWS,
    BATCH_STEP_MS,
)
from .checks import Checks, References
from .lines import LineSplitter
from .outputs import EXPORT_FORMATS, RESOLUTION_COLUMNS, job_pieces
from .rows import RowFields, row_of
from .session import BatchSession, Checker
from .store import RowStore
from .wire import rows_json

if TYPE_CHECKING:
    from ..registry import RegistryAnswer
    from ..verify import RowCheck

__all__ = ["EXPORT_FORMATS", "RESOLUTION_COLUMNS", "BatchJob", "count_lines"]

#: Lines given to the session at a time between two looks at the clock.
_BLOCK = 64


def count_lines(text: str) -> int:
    """How many lines :class:`BatchJob` (and the CLI, reading a file) finds in ``text``.

    A line ends at ``\\n``, ``\\r\\n`` or a lone ``\\r``; a last line without a break
    counts; an empty text has no lines.
    """
    breaks = text.count("\n") + text.count("\r") - text.count("\r\n")
    return breaks + (1 if text and not text.endswith(("\n", "\r")) else 0)


class BatchJob:
    """A list worked through in steps, its rows kept for export.

    ``BatchJob(text)`` takes the whole input; ``BatchJob()`` starts a stream, fed with
    :meth:`feed` and closed with :meth:`end`. :meth:`step` reads lines for at most
    ``budget`` seconds (so the worker can report progress and take a Cancel between
    steps) and returns the new rows as JSON data; :meth:`export_chunks` (and
    :meth:`export`, the same as one string) writes the rows kept (all, in input order, or
    those at the given indices, in that order; or each distinct name once) as CSV, JSON
    or JSON Lines, with the writers the CLI uses. Lines are split and grouped into
    records as in the CLI. ``keep`` bounds the rows kept; ``fast=False`` reads every line
    by the general path (the oracle of the fast path, for tests).
    """

    __slots__ = ("_blocks", "_chars_done", "_ended", "_pending", "_splitter", "_text",
                 "_text_at", "chars_total", "checks", "done", "lines_total", "rows",
                 "rows_total", "session")

    def __init__(self, text: str | None = None, *, check: Checker | None = None,
                 hint: str | None = None, keep: int = BATCH_MAX_ROWS_KEPT,
                 fast: bool = True) -> None:
        self.session = BatchSession(check=check, hint=hint, fast=fast)
        self.session.references = References()
        #: "Check all": each row's check against its name's registry record.
        self.checks = Checks()
        self.rows = RowStore(keep)
        self.rows_total = 0
        self._splitter = LineSplitter()
        self._blocks: deque[list[str]] = deque()  # lines split, not read yet
        self._pending = 0  # characters of those lines (a break counted as one)
        self._chars_done = 0
        self._text = text
        self._text_at = 0
        if text is None:
            self.chars_total = 0
            self.lines_total = 0
            self._ended = False
        else:
            self.chars_total = len(text)
            self.lines_total = count_lines(text)
            self._ended = True
        self.done = text is not None and self.lines_total == 0

    # ------------------------------------------------------------------- input

    @property
    def room(self) -> int:
        """Characters :meth:`feed` takes now (0 once :meth:`end` was called)."""
        if self._ended:
            return 0
        return max(0, min(BATCH_MAX_FEED_CHARS,
                          BATCH_MAX_PENDING_CHARS - self._pending - self._splitter.held))

    def feed(self, piece: str) -> bool:
        """Add the next piece of a streamed input (cut anywhere); ``False`` when it is not
        taken because the text not read yet would pass
        :data:`~doiname.limits.BATCH_MAX_PENDING_CHARS` (call :meth:`step`, then feed the
        same piece again). Raises ``ValueError`` for a piece over
        :data:`~doiname.limits.BATCH_MAX_FEED_CHARS` characters, and after :meth:`end`
        (or for a job made with its whole text)."""
        if self._ended:
            raise ValueError("this batch has all its input: it takes no more text")
        if not isinstance(piece, str):
            raise ValueError(f"a batch reads text, not {type(piece).__name__}")
        if len(piece) > BATCH_MAX_FEED_CHARS:
            raise ValueError(f"a piece of input is at most {BATCH_MAX_FEED_CHARS:,} "
                             f"characters; this one has {len(piece):,}: split it")
        if len(piece) > self.room:
            return False
        self.chars_total += len(piece)
        self._take(self._splitter.feed(piece))
        return True

    def end(self) -> None:
        """The streamed input is complete: the last line and every record still open are
        read by the next steps."""
        if self._ended:
            return
        self._ended = True
        self._take(self._splitter.end())

    def _take(self, lines: list[str]) -> None:
        if lines:
            self._blocks.append(lines)
            self._pending += sum(map(len, lines)) + len(lines)
            if self._text is None:
                self.lines_total += len(lines)

    def _refill(self) -> bool:
        """Split the next slice of a whole text given to the constructor."""
        text = self._text
        if text is None or self._text_at >= len(text):
            return False
        at = self._text_at
        stop = min(len(text), at + BATCH_MAX_FEED_CHARS)
        self._text_at = stop
        self._take(self._splitter.feed(text[at:stop]))
        if stop >= len(text):
            self._take(self._splitter.end())
        return True

    # ------------------------------------------------------------------- steps

    @property
    def lines_done(self) -> int:
        """How many lines have been processed (their rows made)."""
        return self.session.next_line - 1

    @property
    def needs_input(self) -> bool:
        """Whether a streamed job has read all it was given and waits for more."""
        return not self._ended and not self._blocks

    def step(self, max_lines: int = BATCH_STEP_LINES,
             budget: float = BATCH_STEP_MS / 1000) -> dict[str, Any]:
        """Process lines for up to about ``max_lines`` lines or ``budget`` seconds.

        Returns ``{"done", "lines_done", "lines_total", "chars_done", "chars_total",
        "summary", "first_row", "rows", "needs_input", "rows_kept", "rows_total"}``:
        ``rows`` are the new rows as JSON data (:meth:`BatchRow.as_dict`), numbered from
        ``first_row``; ``done`` is true once the input is complete and every row made.
        While a stream is fed, ``lines_total`` and ``chars_total`` count what came so
        far, and ``needs_input`` says that everything fed was read. ``rows_kept`` rows
        are kept for exports, of ``rows_total`` made (they differ once
        :data:`~doiname.limits.BATCH_MAX_ROWS_KEPT` rows were made); ``rows`` holds only
        new rows that are kept (none past the bound, whose rows are counted only). At
        least one line is processed per call while any is ready; a step stops early once
        it made :data:`~doiname.limits.BATCH_STEP_MAX_ROWS` rows.
        """
        first, new = self._advance(max_lines, budget)
        return self._progress(first, [row_of(t).as_dict() for t in self._kept(first, new)])

    def step_rows(self, max_lines: int = BATCH_STEP_LINES, budget: float = BATCH_STEP_MS / 1000,
                  skip: int = 0) -> tuple[dict[str, Any], str]:
        """:meth:`step` for the web bridge: the step without ``rows``, and its rows as
        one JSON array's text (compact, ASCII only: what the bridge's ``dumps`` gives for
        ``rows``), made from the row tuples without row objects
        (:mod:`doiname.batch.wire`). The rows numbered below ``skip`` are left out (a
        batch going on after an engine restart: the page has them); ``first_row`` is
        then that of the first row given."""
        first, new = self._advance(max_lines, budget)
        new = self._kept(first, new)
        cut = max(0, min(len(new), skip - first))
        if cut:
            first += cut
            new = new[cut:]
        step = self._progress(first, None)
        del step["rows"]
        return step, rows_json(new)

    def _kept(self, first: int, new: list[RowFields]) -> list[RowFields]:
        """Of the rows ``new``, numbered from ``first``, those the job keeps."""
        kept = len(self.rows) - first
        return new if kept >= len(new) else new[:max(0, kept)]

    def _progress(self, first: int, rows: Any) -> dict[str, Any]:
        """What :meth:`step` says, in its order, with ``rows``."""
        chars_done = self.chars_total if self.done else min(self._chars_done,
                                                             self.chars_total)
        return {"done": self.done, "lines_done": self.lines_done,
                "lines_total": self.lines_total, "chars_done": chars_done,
                "chars_total": self.chars_total, "summary": self.session.summary.as_dict(),
                "first_row": first, "rows": rows, "needs_input": self.needs_input,
                "rows_kept": len(self.rows), "rows_total": self.rows_total}

    def _advance(self, max_lines: int, budget: float) -> tuple[int, list[RowFields]]:
        """Process lines as :meth:`step` says; the number of the first new row and the
        new rows, kept and counted."""
        first = self.rows_total
        new: list[RowFields] = []
        srcs: list[str] = []
        deadline = time.perf_counter() + budget
        push = self.session.push
        pushed = read = 0
        want = max(1, max_lines)
        while not self.done:
            blocks = self._blocks
            if not blocks:
                if self._refill():
                    continue
                if self._ended and self._splitter.held == 0:
                    self.session.finish(new, srcs)
                    self.done = True
                break
            block = blocks[0]
            count = _within(block, min(_BLOCK, want - pushed), BATCH_STEP_MAX_CHARS - read)
            take = block[:count] if len(block) > count else block
            if take is block:
                blocks.popleft()
            else:
                del block[:count]
            push(take, new, srcs)
            pushed += len(take)
            size = sum(map(len, take)) + len(take)
            self._pending -= size
            self._chars_done += size
            read += size
            if (pushed >= want or len(new) >= BATCH_STEP_MAX_ROWS
                    or read >= BATCH_STEP_MAX_CHARS or time.perf_counter() > deadline):
                break
        if (not self.done and not self._blocks and not self._refill() and self._ended
                and self._splitter.held == 0):
            self.session.finish(new, srcs)  # the last line read: done in this step, not the next
            self.done = True
        self.session.summary.count_rows(new)
        self.rows.add_rows(new, srcs)
        self.rows_total += len(new)
        return first, new

    def check_name(self, index: int, answer: RegistryAnswer) -> list[tuple[int, RowCheck]]:
        """Check every row named as row ``index`` (its duplicates too) against its own
        record, with the registry's ``answer`` for that name (:func:`doiname.check_row`;
        002 foreword, "DOI and Metadata"); the checks are kept for the exports."""
        if not 0 <= index < len(self.rows):
            raise ValueError(f"no row {index!r} in this batch (it keeps {len(self.rows)} rows)")
        return self.checks.check(self.rows, self.session.references, index, answer)

    # ------------------------------------------------------------------- exports

    def export_chunks(self, fmt: str, order: Iterable[int] | None = None,
                      *, spreadsheet_safe: bool = True,
                      resolved: Mapping[int, Mapping[str, Any]] | None = None,
                      unique: bool = False, excel: bool = False) -> Iterator[str]:
        """The rows kept as the text of a ``csv``, ``json`` or ``jsonl`` file, in pieces
        of about :data:`~doiname.limits.EXPORT_CHUNK_CHARS` characters (never one giant
        string; the rows are read from the store as they are written).

        ``order`` lists row indices (as :meth:`step` numbered them, from 0) to write, in
        that order; ``None`` writes every row kept in input order. ``unique`` writes each
        distinct name once (its first row, with ``occurrences`` and ``duplicate_lines``).
        ``resolved`` maps row indices to what resolving their name gave (``outcome``,
        ``url`` and ``verdict`` of a :class:`~doiname.resolver.HandleRecord`); every row
        whose name is equivalent to a resolved one (003 ch. 3: its duplicates too) then
        gets the columns ``resolution`` and ``resolves_to``, and a status ``not-found`` or
        ``unreachable`` when resolving said so. ``excel`` starts a CSV with a UTF-8
        byte-order mark. Raises ``ValueError`` (before the first piece) for an unknown
        format or an index of no row kept.
        """
        return job_pieces(self.rows, fmt, order, spreadsheet_safe=spreadsheet_safe,
                          resolved=resolved, unique=unique, excel=excel,
                          checks=self.checks.by_row or None)

    def export(self, fmt: str, order: Iterable[int] | None = None,
               *, spreadsheet_safe: bool = True,
               resolved: Mapping[int, Mapping[str, Any]] | None = None,
               unique: bool = False, excel: bool = False) -> str:
        """:meth:`export_chunks` as one string (for small batches and tests)."""
        return "".join(self.export_chunks(fmt, order, spreadsheet_safe=spreadsheet_safe,
                                          resolved=resolved, unique=unique, excel=excel))


def _within(block: list[str], count: int, room: int) -> int:
    """How many of the first ``count`` lines of ``block`` a step takes with ``room``
    characters left: at least one, then as long as the lines (with their breaks) fit."""
    size = 0
    for i, line in enumerate(block[:count]):
        size += len(line) + 1
        if size >= room:
            return i + 1
    return count
