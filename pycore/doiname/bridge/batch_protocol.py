"""The web worker's protocol for a batch (``batch_open`` ... ``batch_close``): what each
of its operations takes and gives back, and the row statuses as the page reads them.
:mod:`doiname.bridge.protocol` holds the other operations' and what both use;
``pycore/tools/gen_types.py`` writes the JavaScript types of both."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, NotRequired, TypedDict

from ..model import Doi
from .protocol import Answered

if TYPE_CHECKING:  # the batch's and verify's types: protocol.fields_of imports them to read
    from ..batch import BatchRow, BatchSummary
    from ..batch.lines import TextEncoding
    from ..batch.status import Status as RowStatus
    from ..verify import RowCheck

__all__ = [
    "BatchCheckParams",
    "BatchChecked",
    "BatchCloseParams",
    "BatchEndParams",
    "BatchExportParams",
    "BatchFed",
    "BatchFeedParams",
    "BatchOpenParams",
    "BatchOpened",
    "BatchStep",
    "BatchStepParams",
    "BatchTarget",
    "BatchTargetParams",
    "CheckedRow",
    "ExportFormat",
    "Resolution",
    "StatusLabel",
]

#: The formats a batch is exported in.
ExportFormat = Literal["csv", "json", "jsonl"]


class StatusLabel(TypedDict):
    """A batch row status as the page reads it (:class:`doiname.batch.status.StatusInfo`),
    listed in the order rows sort by status (the ones that need attention first)."""

    status: RowStatus
    #: How a row of this status is labelled (the Status column).
    label: str
    #: How its rows are named: the filter's option, a count.
    rows: str
    #: Whether "Resolve all" asks doi.org about the name of a row with this status.
    resolve: bool
    #: The verdict of doi.org that gives a resolved row this status; null: reading does.
    verdict: str | None
    #: The status such a row takes from its name's verdict (``Verdict``), by verdict;
    #: a verdict not listed leaves the row's status as it was.
    after: dict[str, RowStatus]


class BatchOpened(TypedDict):
    """A batch job, opened (``batch_open``): its number and its size."""

    job: int
    lines_total: int
    chars_total: int
    #: How the page decodes a file's bytes (from its ``head``; "utf-8" for a text).
    encoding: TextEncoding


class BatchStep(TypedDict):
    """One step of a batch (:meth:`doiname.batch.BatchJob.step`): the rows it made, from
    row number ``first_row`` on, and how far the batch is; ``done`` when every line is.
    ``needs_input`` when a fed job read all it was given; ``rows_kept`` of ``rows_total``
    rows are kept for the exports (:data:`~doiname.limits.BATCH_MAX_ROWS_KEPT`)."""

    done: bool
    lines_done: int
    lines_total: int
    chars_done: int
    chars_total: int
    summary: BatchSummary
    first_row: int
    rows: list[BatchRow]
    needs_input: bool
    rows_kept: int
    rows_total: int


class Resolution(TypedDict):
    """What resolving a batch row gave (``batch_export``): the outcome, the URL and the
    record's verdict (:attr:`doiname.resolver.HandleRecord.verdict`), which gives the
    row's status ``not-found`` or ``unreachable``."""

    outcome: str
    url: str | None
    verdict: NotRequired[str]


class BatchOpenParams(TypedDict):
    """``batch_open``: the whole text of a batch, or ``null`` (or nothing) for a batch
    whose input comes in pieces (``batch_feed``, then ``batch_end``). ``skip_rows``: a
    batch going on after the engine restarted, whose first rows the page holds already
    (they are made again, so every count and duplicate stays right, but not sent).
    ``head``: a file's first bytes (at most TEXT_SNIFF_BYTES), which say how it is read
    (:func:`doiname.batch.lines.text_encoding`)."""

    text: NotRequired[str | None]
    skip_rows: NotRequired[int]
    head: NotRequired[list[int]]


class BatchFeedParams(TypedDict):
    """``batch_feed``: the next piece of a streamed batch's input (cut anywhere)."""

    job: int
    text: str


class BatchFed(TypedDict):
    """What ``batch_feed`` did: ``taken`` false when the job holds too much text not read
    yet (step, then feed the same piece again); ``room``: characters it takes now."""

    taken: bool
    room: int


class BatchEndParams(TypedDict):
    """``batch_end``: a streamed batch has all its input."""

    job: int


class BatchStepParams(TypedDict):
    """``batch_step``: work on job ``job`` for up to ``budget_ms`` or ``max_lines``."""

    job: int
    max_lines: NotRequired[int]
    budget_ms: NotRequired[float]


class BatchExportParams(TypedDict):
    """``batch_export``: the rows of ``job`` (all in input order, or the row numbers in
    ``order``) as a file's text, with the resolutions by row number; ``unique`` and
    ``excel`` as :meth:`doiname.batch.BatchJob.export_chunks`."""

    job: int
    format: ExportFormat
    order: NotRequired[list[int] | None]
    resolved: NotRequired[dict[str, Resolution] | None]
    #: Each distinct name once: its first row, with ``occurrences`` and ``duplicate_lines``.
    unique: NotRequired[bool]
    #: A CSV that starts with a UTF-8 byte-order mark (Excel needs it to read UTF-8).
    excel: NotRequired[bool]


class BatchTargetParams(TypedDict):
    """``batch_target``: rows of job ``job`` whose exact names are wanted (Check all)."""

    job: int
    rows: list[int]


class BatchTarget(TypedDict):
    """A row's exact name, for its record to be asked for."""

    row: int
    doi: Doi


class BatchCheckParams(Answered):
    """``batch_check``: what the registry answered (:class:`Answered`) for the name of row
    ``row`` of job ``job`` (as ``read`` of kind ``registry`` takes it), to check every row
    of that name."""

    job: int
    row: int


class CheckedRow(TypedDict):
    """One row checked: its number, the status it takes, and the check."""

    row: int
    status: RowStatus
    check: RowCheck


class BatchChecked(TypedDict):
    """What ``batch_check`` did: the registry answer's outcome, sentence and wait (a
    ``rate-limited`` or ``timeout`` answer changes no row: ask again after the wait), and
    the rows checked."""

    outcome: str
    message: str
    retry_after_s: float | None
    rows: list[CheckedRow]


class BatchCloseParams(TypedDict):
    """``batch_close``: forget job ``job`` and its rows."""

    job: int
