"""The web worker's protocol: what each operation of :mod:`doiname.bridge` takes (its
params) and gives back, where that is not one of the core's own dataclasses
(:class:`~doiname.inspection.Inspection`, :class:`~doiname.resolver.HandleRecord`, ...).

``pycore/tools/gen_types.py`` writes the JavaScript types of the protocol
(``web/src/engine/types.gen.d.ts``) from these, the dataclasses and
:data:`doiname.bridge.OPERATIONS`, so the page, the worker and the widget read one
description of every request and reply. A batch's operations (``batch_open`` ...
``batch_close``) are in :mod:`doiname.bridge.batch_protocol`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict, get_origin, get_type_hints

from ..encoding import Level
from ..inspection import Inspection
from ..memo import remembered
from ..model import Doi

if TYPE_CHECKING:  # the types the first answer does not need: fields_of reads them
    from ..settle import SettleReading

__all__ = [
    "AliasTarget",
    "AnswerKind",
    "Answered",
    "BoxParams",
    "CallParams",
    "CodePointsParams",
    "CompareParams",
    "ErrorJson",
    "ExactName",
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
    "SettleParams",
    "ShortTarget",
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


class Answered(TypedDict):
    """What came back for a request the page made (status, body and, for a registry, its
    ``Content-Type`` and ``Retry-After``), or how it failed; for a registry, the agency
    asked and what Which RA said of the name."""

    status: int | None
    body: str | None
    failure: TransportFailure | RegistryFailure | None
    content_type: NotRequired[str | None]
    retry_after: NotRequired[str | None]
    agency: NotRequired[str]
    #: What Which RA said of the name (:class:`~doiname.resolver.RaAnswer` ``kind``).
    ra_kind: NotRequired[str | None]


class ReadParams(Answered):
    """``read``: what came back (:class:`Answered`) for a request of ``kind``. A registry
    answer also names the exact name asked, and the reference (the pasted text) to check
    the record against, if any."""

    kind: AnswerKind
    doi: NotRequired[ExactName]
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
    """The types the hints of this module and of :mod:`.batch_protocol` name but do not
    import (the first answer needs neither the batch and verify packages nor the
    readings Resolve settles), imported now: the names both import under
    ``TYPE_CHECKING``, with their values."""
    from ..batch import BatchRow, BatchSummary
    from ..batch.lines import TextEncoding
    from ..batch.status import Status as RowStatus
    from ..settle import SettleReading
    from ..verify import RowCheck

    return {"BatchRow": BatchRow, "BatchSummary": BatchSummary, "TextEncoding": TextEncoding,
            "RowStatus": RowStatus, "SettleReading": SettleReading, "RowCheck": RowCheck}
