"""What reading a resolver's answer gives: handle records, their values, Which RA answers.

Every text field is plain text for ``textContent``; only ``http``/``https`` URLs with a
host are marked linkable (:func:`~doiname.resolver.links.is_linkable_url`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .outcome import (
    HANDLE_API,
    MESSAGES,
    WHICH_RA,
    Outcome,
    Verdict,
    answer_source,
    verdict_of,
    worth_retrying,
)

__all__ = ["AdminInfo", "HandleRecord", "HandleValue", "Location", "RaAnswer", "Reference",
           "WhichRaResult", "transport_outcome"]


@dataclass(frozen=True, slots=True)
class Location:
    """One ``<location>`` of a ``10320/loc`` value (the DOI multiple resolution format).

    ``linkable`` is true only for an ``http``/``https`` ``href`` (:func:`is_linkable_url`);
    ``attributes`` holds every other attribute (``id``, ``country``, ``href_template``...).
    """

    href: str
    linkable: bool
    weight: str | None = None
    view: str | None = None
    attributes: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Reference:
    """A handle value reference ``index:handle`` (RFC 3651 §3.1, HS_VLIST 3.7)."""

    handle: str
    index: int | None


@dataclass(frozen=True, slots=True)
class AdminInfo:
    """An ``HS_ADMIN`` value (RFC 3651 §3.5): who administers the handle, and how.

    ``permissions`` is the bit string as received (highest bit first); ``granted`` and
    ``denied`` spell the bits out with :data:`ADMIN_PERMISSIONS`.
    """

    handle: str | None
    index: int | None
    permissions: str | None
    granted: tuple[str, ...] = ()
    denied: tuple[str, ...] = ()
    legacy_byte_length: bool | None = None


@dataclass(frozen=True, slots=True)
class HandleValue:
    """One value of a handle record, decoded for display (RFC 3651 §3.1).

    ``text`` is the display form; ``details`` label/value pairs (admin permissions spelled
    out, vlist entries, site servers); ``locations`` the parsed ``10320/loc`` list;
    ``href`` is set only when the value is a ``URL``/``URL.*`` value holding a linkable
    http(s) URL. ``raw`` is ``data.value`` as received, as JSON text. ``admin`` and
    ``members`` are the structured forms of ``admin`` and ``vlist`` data.
    """

    index: int | None
    type: str
    format: str
    text: str
    raw: str
    href: str | None = None
    details: tuple[tuple[str, str], ...] = ()
    locations: tuple[Location, ...] = ()
    ttl: str = ""
    ttl_seconds: int | None = None
    timestamp: str | None = None
    note: str | None = None
    admin: AdminInfo | None = None
    members: tuple[Reference, ...] = ()


@dataclass(frozen=True, slots=True)
class HandleRecord:
    """The outcome of one handle API request (003 ch. 4).

    ``outcome`` is a stable code (``ok``, ``not-found``, ``no-values``, ``server-error``,
    ``bad-json``, ``http-error``, ``unexpected``, ``network``, ``offline``, ``timeout``,
    ``cancelled``, ``too-large``); ``message`` says it in plain words; ``url`` is the first
    linkable URL value (where the name resolves); ``notes`` list oddities of the answer. ``retry``
    says whether asking again later may give another answer (:func:`worth_retrying`);
    ``verdict`` what it says of the name, for a list: ``resolves``, ``no-values``,
    ``not-found`` or ``unreachable`` (no usable answer: the network, a timeout, a server
    error, an answer that is not the handle API's). ``source`` is what the message rests
    on, in the technical words it leaves out (the API, the ``responseCode``, the HTTP
    status: :func:`~doiname.resolver.outcome.answer_source`), ``""`` when nothing arrived.
    """

    outcome: Outcome
    ok: bool
    message: str
    status: int | None = None
    response_code: int | None = None
    handle: str | None = None
    values: tuple[HandleValue, ...] = ()
    url: str | None = None
    notes: tuple[str, ...] = ()
    retry: bool = field(init=False, default=False)
    verdict: Verdict = field(init=False, default="unreachable")
    source: str = field(init=False, default="")

    def __post_init__(self) -> None:
        object.__setattr__(self, "retry", worth_retrying(self.outcome, self.status))
        object.__setattr__(self, "verdict", verdict_of(self.outcome))
        object.__setattr__(self, "source",
                           answer_source(HANDLE_API, self.response_code, self.status))


def transport_outcome(kind: str) -> HandleRecord:
    """The record for a request whose answer was not read: ``network``, ``offline`` (the
    browser says it has no network), ``timeout``, ``cancelled`` or ``too-large``.

    The page reports these when ``fetch()`` fails, its timer fires, the person cancels,
    or the answer passed :data:`~doiname.limits.MAX_BODY` bytes while it was read (the
    rest is never downloaded); any other ``kind`` reads as ``network``.
    """
    outcomes: dict[str, Outcome] = {"timeout": "timeout", "cancelled": "cancelled",
                                    "offline": "offline", "too-large": "too-large"}
    outcome = outcomes.get(kind, "network")
    return HandleRecord(outcome, False, MESSAGES[outcome])


@dataclass(frozen=True, slots=True)
class RaAnswer:
    """One entry of a Which RA answer: the name, its registration agency or a status.

    ``kind`` is ``found`` (an RA is named), ``does-not-exist``, ``invalid`` (the service
    does not read it as a DOI name) or ``unknown`` (another status, or none).
    """

    doi: str
    ra: str | None
    status: str | None
    message: str
    kind: str = "unknown"


@dataclass(frozen=True, slots=True)
class WhichRaResult:
    """The outcome of one Which RA request (specs README: ``https://doi.org/ra/...``).

    ``message`` says it in plain words; ``source`` names the service and the HTTP status
    (``""`` when nothing arrived), shown apart from the message.
    """

    outcome: Outcome
    ok: bool
    message: str
    status: int | None = None
    answers: tuple[RaAnswer, ...] = ()
    source: str = field(init=False, default="")

    def __post_init__(self) -> None:
        object.__setattr__(self, "source", answer_source(WHICH_RA, None, self.status))
