"""Registry records through the page: ``lookup`` and ``read`` of kind ``registry``, the
readings to look up (``registry_plan``) and the order the registry settles them in
(``settle``); 002 foreword, "DOI and Metadata".

Python makes each request (:func:`doiname.registry_request`: URL, headers, the agency's
rate limits) and reads each answer (:func:`doiname.read_registry_answer`); the page only
carries the bytes and the headers that matter (``Content-Type``, ``Retry-After``). A
record read is given back as what a page draws: the answer, the card
(:func:`doiname.work_card.work_card`) and, when a reference was given, the check of the
record against it (:func:`doiname.verify`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import DoiError
from ..inspection import inspect
from ..jsonable import error_json, to_jsonable
from ..limits import INSPECT_MAX_CHARS, SETTLE_MAX_CANDIDATES, VERIFY_MAX_REFERENCE_CHARS
from ..model import Doi
from ..registry import RegistryAnswer, open_link, read_registry_answer, registry_request
from ..settle import SettleReading, registry_targets, settle
from ..verify import Verification, verify
from ..work_card import WorkCard, work_card
from .reply import dumps, error, guarded, internal

__all__ = ["REGISTRY_FAILURES", "RegistryReading", "bad_answer_params", "plan_json",
           "read_registry_json", "registry_answer", "registry_lookup", "settle_json"]

#: How a registry request can end without an answer read: the transport failures, and
#: ``not-readable`` for an agency no browser may read (the request said so; nothing sent).
REGISTRY_FAILURES = ("network", "offline", "timeout", "cancelled", "too-large",
                     "not-readable")
#: Longest e-mail address sent to Crossref (RFC 5321: 254 octets in a path).
_MAX_MAILTO = 254


@dataclass(frozen=True, slots=True)
class RegistryReading:
    """A registry answer as a page draws it: the :class:`~doiname.registry.RegistryAnswer`
    (its outcome and one sentence), the :class:`~doiname.work_card.WorkCard` of the work
    when one was read, and the check of the record against the reference, when a
    reference was given (:class:`~doiname.verify.Verification`)."""

    answer: RegistryAnswer
    card: WorkCard | None
    verification: Verification | None


def _mailto(value: Any) -> str | None:
    """The address the host page or the person gave, checked; ``None`` for none."""
    if value is None or value == "":
        return None
    text = value.strip() if isinstance(value, str) else ""
    local, at, domain = text.partition("@")
    if not (at and local and "." in domain and len(text) <= _MAX_MAILTO
            and not any(c.isspace() or c in "<>,;\"" for c in text)):
        raise DoiError("bad-mailto", "The e-mail address given for Crossref is not an "
                       "address (name@example.org); nothing was sent.")
    return text


def registry_lookup(target: Any) -> str:
    """The request for a name's record: ``target`` is ``{doi: {prefix, suffix}, agency,
    mailto}`` (:class:`~doiname.protocol.RegistryTarget`); reply the
    :class:`~doiname.registry.RegistryRequest` (002 foreword, "DOI and Metadata")."""
    from .reading import exact_name
    try:
        if not isinstance(target, dict) or not isinstance(target.get("agency", ""), str):
            raise DoiError("bad-name", "A registry lookup is sent as {doi, agency, mailto}.")
        doi = exact_name(target.get("doi"))
        return dumps({"ok": to_jsonable(registry_request(
            doi, target.get("agency") or "", mailto=_mailto(target.get("mailto"))))})
    except DoiError as err:
        return dumps({"error": error_json(err)})
    except Exception as exc:
        return internal("making the registry request", exc)


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def bad_answer_params(q: dict[str, Any]) -> str | None:
    """The error reply for what came back when it is not an answer's params (a failure
    not known, a status that is no number, a body that is no text), else ``None``."""
    failure = q.get("failure")
    if failure is not None and failure not in REGISTRY_FAILURES:
        return error("bad-arguments", f"Unknown request failure {failure!r}.")
    status, body = q.get("status"), q.get("body")
    if not (status is None or type(status) is int) or not (body is None or isinstance(body, str)):
        return error("bad-arguments", "An answer is read from its HTTP status (a number) and "
                     "its body (text).")
    return None


def registry_answer(q: dict[str, Any], doi: Doi) -> RegistryAnswer:
    """What came back for ``doi``'s record (params checked by :func:`bad_answer_params`),
    read (:func:`doiname.read_registry_answer`): a name Which RA said no agency knows is
    not found without a request; a cancelled request says so."""
    failure = q.get("failure")
    agency = _text(q.get("agency")) or ""
    if failure == "cancelled":
        return RegistryAnswer("network", None, "The request was cancelled.", None,
                              open_link(doi), agency)
    if not agency and failure in ("network", "timeout"):
        return RegistryAnswer("network", None, "doi.org could not be asked which registration "
                              "agency registered this DOI name, so its record could not be "
                              "read; try again later.", None, open_link(doi), "")
    if q.get("ra_kind") in ("does-not-exist", "invalid"):
        return RegistryAnswer("not-found", None, "Not found: no registration agency knows "
                              "this DOI name, so it has no record.", None, open_link(doi), "")
    return read_registry_answer(doi, agency, q.get("status"), q.get("body"), failure=failure,
                                retry_after=_text(q.get("retry_after")),
                                content_type=_text(q.get("content_type")))


def read_registry_json(q: dict[str, Any]) -> str:
    """Read a registry's answer (``read`` of kind ``registry``; :class:`ReadParams`):
    the answer, the card of the work read and, with ``reference``, its check; reply a
    :class:`RegistryReading` (002 foreword, "DOI and Metadata")."""
    from .reading import exact_name
    bad = bad_answer_params(q)
    if bad is not None:
        return bad
    reference = _text(q.get("reference"))
    try:
        doi = exact_name(q.get("doi"))
    except DoiError as err:
        return dumps({"error": error_json(err)})
    try:
        answer = registry_answer(q, doi)
        work = answer.work
        checked = (verify(reference[:VERIFY_MAX_REFERENCE_CHARS], work)
                   if work is not None and reference else None)
        card = work_card(work) if work is not None else None
        return dumps({"ok": to_jsonable(RegistryReading(answer, card, checked))})
    except Exception as exc:
        return internal("reading the registry's answer", exc)


def plan_json(text: Any, pick: Any = None) -> str:
    """The readings Resolve looks up for ``text`` (:func:`doiname.settle.registry_targets`):
    ``{targets: [{candidate, doi}], reference}``; at most
    :data:`~doiname.limits.SETTLE_MAX_CANDIDATES` (002 foreword, "DOI and Metadata")."""
    if not isinstance(text, str) or len(text) > INSPECT_MAX_CHARS:
        return error("bad-arguments", "The text to look up is a string of at most "
                     f"{INSPECT_MAX_CHARS:,} characters, as Inspect reads.")

    def plan() -> dict[str, Any]:
        found = inspect(text, pick if isinstance(pick, int) else None, forms=False)
        targets, reference = registry_targets(text, found)
        return {"targets": [{"candidate": t.candidate, "doi": t.doi} for t in targets],
                "reference": reference}
    return guarded("choosing the readings to look up", plan)


def settle_json(readings: Any) -> str:
    """:func:`doiname.settle.settle` of what looking each reading up gave (the outcomes
    and verdicts ``read`` replied, sent back as they came): ``{order, first, reason}``."""
    if not isinstance(readings, list) or len(readings) > SETTLE_MAX_CANDIDATES or not all(
            isinstance(r, dict) and type(r.get("candidate")) is int
            and isinstance(r.get("name"), str) and isinstance(r.get("outcome"), str)
            for r in readings):
        return error("bad-arguments", "Settle takes up to "
                     f"{SETTLE_MAX_CANDIDATES} readings {{candidate, name, outcome, verdict}}.")
    return guarded("settling the readings", lambda: settle([SettleReading(
        r["candidate"], r["name"], r["outcome"], _text(r.get("verdict")),
        _text(r.get("summary")) or "") for r in readings]))
