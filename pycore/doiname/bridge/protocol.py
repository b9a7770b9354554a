"""The web worker's protocol: what each operation of :mod:`doiname.bridge` takes (its
params) and gives back, where that is not one of the core's own dataclasses
(:class:`~doiname.inspection.Inspection`, :class:`~doiname.resolver.HandleRecord`, ...).

``pycore/tools/gen_types.py`` writes the JavaScript types of the protocol
(``web/src/engine/types.gen.d.ts``) from these, the dataclasses and
:data:`doiname.bridge.OPERATIONS`, so the page, the worker and the widget read one
description of every request and reply.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict, get_origin, get_type_hints

from ..encoding import Level
from ..inspection import Inspection
from ..memo import remembered
from ..model import Doi

if TYPE_CHECKING:  # the types the first answer does not need: fields_of reads them
    from ..batch import BatchRow, BatchSummary
    from ..batch.lines import TextEncoding
    from ..batch.status import Status as RowStatus
    from ..settle import SettleReading
    from ..verify import RowCheck

__all__ = [
    "AliasTarget",
    "AnswerKind",
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
    "BoxParams",
    "CallParams",
    "CheckedRow",
    "CodePointsParams",
    "CompareParams",
    "ErrorJson",
    "ExactName",
    "ExportFormat",
    "Info",
    "InfoParams",
    "InspectParams",
    "LinkOptions",
    "LinkTargetsParams",
    "LinkedReading",
    "LookupParams",
    "LookupRequest",
    "Memory",
    "PlanParams",
    "PlanTarget",
    "ReadParams",
    "RegistryFailure",
    "RegistryPlan",
    "RegistryTarget",
    "Resolution",
    "SettleParams",
    "ShortTarget",
    "StatusLabel",
    "TransportFailure",
    "fields_of",
]

#: What an answer is read as (``read``) and what a lookup asks for: doi.org's handle
#: API, Which RA, a shortDOI's alias, or a registration agency's record of the work.
AnswerKind = Literal["handle", "which-ra", "alias", "registry"]
#: How a request to doi.org can fail without an answer (the page's ``fetch`` says which).
TransportFailure = Literal["network", "offline", "timeout", "cancelled", "too-large"]
#: A registry request not sent: the agency lets no browser read its records.
RegistryFailure = Literal["not-readable"]
#: The formats a batch is exported in.
ExportFormat = Literal["csv", "json", "jsonl"]


class ErrorJson(TypedDict):
    """A refused request: a :class:`~doiname.errors.DoiError`'s code, message, span (code
    points of the text it is about) and source (shown apart from the message; ``""`` or
    absent for none), or one of the bridge's own codes (``bad-arguments``, ``unknown-operation``,
    ``unknown-function``, ``unknown-job``, ``internal``)."""

    code: str
    message: str
    position: int | None
    end: int | None
    source: NotRequired[str]


class LinkOptions(TypedDict, total=False):
    """How a link is made (:func:`doiname.to_url`, :func:`doiname.to_proxy_url`): the
    widget's ``data-level``, ``data-resolver`` and ``data-proxy``."""

    level: Level
    resolver: str
    proxy: str


@dataclass(frozen=True, slots=True)
class LinkedReading:
    """The widget's box: the reading of its text (:func:`~doiname.inspection.inspect`,
    without the forms) and, for the selected name, its link made with the box's
    :class:`LinkOptions` and its ``doi:`` URI (003 ch. 2); both ``None`` when the text
    holds no readable DOI name."""

    inspection: Inspection
    href: str | None
    uri: str | None


class LookupRequest(TypedDict):
    """The request to send to doi.org for exact names (``lookup``)."""

    url: str


class AliasTarget(TypedDict):
    """What a shortDOI's ``HS_ALIAS`` record stands for (added to its handle record):
    the DOI name as text, as an exact name, and as a text that Inspect reads back as
    exactly that name; all ``None`` when the record names none."""

    target: str | None
    target_doi: Doi | None
    target_text: str | None


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


class Memory(TypedDict):
    """Python's live allocated blocks and, inside Pyodide, the WebAssembly heap's size."""

    python_blocks: int
    wasm_heap_bytes: int | None


class Info(TypedDict):
    """Facts about the running package (``info``), for diagnostics and tests."""

    doiname: str
    distribution: str | None
    installer: str | None
    location: str
    python: str
    platform: str
    functions: list[str]
    batch_jobs: int
    memory: Memory


class CallParams(TypedDict):
    """``call``: a public function of the package by name (``window.doiname.call``)."""

    name: str
    args: list[Any]
    kwargs: NotRequired[dict[str, Any]]


class ExactName(TypedDict):
    """A name that left Python, sent back exactly: its prefix and suffix as they were
    (``name``, when sent too, is ignored). Never decoded again: ``10.1000/a%41`` stays."""

    prefix: str
    suffix: str
    name: NotRequired[str]


class ShortTarget(TypedDict):
    """A shortDOI to expand (``lookup`` of kind ``alias``): ``{short: "10/abcde"}``."""

    short: str


class Resolution(TypedDict):
    """What resolving a batch row gave (``batch_export``): the outcome, the URL and the
    record's verdict (:attr:`doiname.resolver.HandleRecord.verdict`), which gives the
    row's status ``not-found`` or ``unreachable``."""

    outcome: str
    url: str | None
    verdict: NotRequired[str]


class InspectParams(TypedDict):
    """``inspect``: a pasted text and, optionally, which candidate to select."""

    text: str
    pick: NotRequired[int | None]


class CompareParams(TypedDict):
    """``compare``: two pasted texts."""

    a: str
    b: str


class BoxParams(TypedDict):
    """``box``: the widget box's text and its link options."""

    text: str
    options: NotRequired[LinkOptions]


class LinkTargetsParams(TypedDict):
    """``link_targets``: texts of a page's text nodes and the container's link options."""

    texts: list[str]
    options: NotRequired[LinkOptions]


class CodePointsParams(TypedDict):
    """``code_points``: a pasted text, described character by character."""

    text: str


class RegistryTarget(TypedDict):
    """A name's record to ask its registration agency for (``lookup`` of kind
    ``registry``): the exact name, the agency as Which RA names it, and the e-mail
    address the host page or the person gave for Crossref (never invented; none: null)."""

    doi: ExactName
    agency: str
    mailto: NotRequired[str | None]


class LookupParams(TypedDict):
    """``lookup``: the request for exact names: one (``handle``), a list (``which-ra``), a
    shortDOI (``alias``) or a name's record at its agency (``registry``)."""

    kind: AnswerKind
    target: ExactName | list[ExactName] | ShortTarget | RegistryTarget


class ReadParams(TypedDict):
    """``read``: what came back (status, body and, for a registry, its ``Content-Type`` and
    ``Retry-After``), or how the request failed. A registry answer also names the exact
    name and agency asked, and the reference (the pasted text) to check the record
    against, if any."""

    kind: AnswerKind
    status: int | None
    body: str | None
    failure: TransportFailure | RegistryFailure | None
    content_type: NotRequired[str | None]
    retry_after: NotRequired[str | None]
    doi: NotRequired[ExactName]
    agency: NotRequired[str]
    #: What Which RA said of the name (:class:`~doiname.resolver.RaAnswer` ``kind``).
    ra_kind: NotRequired[str | None]
    reference: NotRequired[str | None]


class PlanParams(TypedDict):
    """``registry_plan``: a pasted text and the candidate selected, if another."""

    text: str
    pick: NotRequired[int | None]


class PlanTarget(TypedDict):
    """A reading to look up: its index among the inspection's candidates, its name."""

    candidate: int
    doi: Doi


class RegistryPlan(TypedDict):
    """The readings Resolve looks up (:func:`doiname.settle.registry_targets`) and the
    reference their records are checked against (``null``: the text is the name alone)."""

    targets: list[PlanTarget]
    reference: str | None


class SettleParams(TypedDict):
    """``settle``: what looking each reading up gave, as ``read`` replied it."""

    readings: list[SettleReading]


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


class BatchCheckParams(TypedDict):
    """``batch_check``: what the registry answered for the name of row ``row`` of job
    ``job`` (as ``read`` of kind ``registry`` takes it), to check every row of that name."""

    job: int
    row: int
    status: int | None
    body: str | None
    failure: TransportFailure | RegistryFailure | None
    content_type: NotRequired[str | None]
    retry_after: NotRequired[str | None]
    agency: NotRequired[str]
    ra_kind: NotRequired[str | None]


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


class InfoParams(TypedDict):
    """``info``: takes nothing."""


@remembered(64)
def fields_of(params: type) -> dict[str, tuple[object, bool]]:
    """The fields of a TypedDict: each one's type and whether it is required (read from
    the annotations, so ``NotRequired`` is seen under postponed annotations too). Read
    once per type (every request checks its parameters): the dict is not to be changed."""
    total = bool(getattr(params, "__total__", True))
    out: dict[str, tuple[object, bool]] = {}
    try:
        hints = get_type_hints(params, include_extras=True)
    except NameError:  # a hint names a type imported only for type checkers: import it now
        hints = get_type_hints(params, localns=_deferred_types(), include_extras=True)
    for name, hint in hints.items():
        if get_origin(hint) is NotRequired:
            out[name] = (hint.__args__[0], False)
        else:
            out[name] = (hint, total)
    return out


def _deferred_types() -> dict[str, object]:
    """The types this module's hints name but does not import (the first answer needs
    neither the batch and verify packages nor the readings Resolve settles), imported
    now: the names under ``TYPE_CHECKING`` above, with their values."""
    from ..batch import BatchRow, BatchSummary
    from ..batch.lines import TextEncoding
    from ..batch.status import Status as RowStatus
    from ..settle import SettleReading
    from ..verify import RowCheck

    return {"BatchRow": BatchRow, "BatchSummary": BatchSummary, "TextEncoding": TextEncoding,
            "RowStatus": RowStatus, "SettleReading": SettleReading, "RowCheck": RowCheck}
