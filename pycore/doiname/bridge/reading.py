"""Reading pasted text and doi.org's answers: ``inspect``, ``compare``, ``box``, ``lookup``
(the request for exact names) and ``read`` (what came back)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from .. import inspection, resolver
from ..errors import DoiError
from ..inspection import Inspection, written_form
from ..jsonable import error_json, to_jsonable
from ..limits import INSPECT_MAX_CHARS
from ..linkify import link_targets
from ..model import SEVERITIES, Doi, Finding
from ..presentation import (
    short_doi_api_url,
    to_handles_api_url,
    to_proxy_url,
    to_uri,
    to_url,
    to_which_ra_url,
)
from ..syntax import validate_name
from .protocol import LinkedReading
from .reply import dumps, error, guarded, internal

if TYPE_CHECKING:
    from ..resolver import HandleRecord, WhichRaResult

__all__ = ["ANSWER_KINDS", "TRANSPORT_FAILURES", "box", "code_points",
           "compare_json", "exact_name", "for_view", "inspect_json", "link_options",
           "linked_reading", "links", "lookup", "read_answer_json"]

#: How a request can fail without an answer read (the main thread's ``fetch`` reports
#: these; ``offline``: the browser says it has no network; ``too-large``: it stopped
#: reading an answer past :data:`~doiname.limits.MAX_BODY` bytes).
TRANSPORT_FAILURES = ("network", "offline", "timeout", "cancelled", "too-large")
#: What an answer from doi.org is read as (a registry's record: :mod:`.registry`).
ANSWER_KINDS = ("handle", "which-ra", "alias")


def _read(kind: str, status: int | None, body: str | None,
          failure: str | None) -> HandleRecord | WhichRaResult:
    if failure is not None:
        record = resolver.transport_outcome(failure)
        if kind == "which-ra":
            return resolver.WhichRaResult(record.outcome, False, record.message)
        return record
    if kind == "which-ra":
        return resolver.read_which_ra_response(status, body)
    return resolver.read_handle_response(status, body)


def read_answer_json(kind: str, status: int | None, body: str | None,
                     failure: str | None = None) -> str:
    """Read what doi.org answered (or how the request failed); reply as JSON text.

    ``kind`` is ``handle`` (:func:`doiname.read_handle_response`), ``which-ra``
    (:func:`doiname.read_which_ra_response`) or ``alias`` (a shortDOI's ``HS_ALIAS``
    record: the handle record plus ``target``, the DOI name it stands for (or None),
    ``target_doi``, the same exact name as ``{prefix, suffix, name}`` (a handle value is
    never percent-decoded), and ``target_text``, a text that Inspect reads back as
    exactly that name).
    ``failure`` is ``network``, ``offline``, ``timeout`` or ``cancelled`` when no answer
    arrived, and ``too-large`` when the page stopped reading one past
    :data:`~doiname.limits.MAX_BODY` bytes (:func:`doiname.transport_outcome`); the reply
    is then that outcome.
    """
    if kind not in ANSWER_KINDS:
        return error("bad-arguments", f"Unknown kind of answer {kind!r}.")
    if failure is not None and failure not in TRANSPORT_FAILURES:
        return error("bad-arguments", f"Unknown request failure {failure!r}.")
    if not (status is None or type(status) is int) or not (body is None or isinstance(body, str)):
        return error("bad-arguments", "An answer is read from its HTTP status (a number) and "
                     "its body (text).")
    try:
        outcome = _read(kind, status, body, failure)
        data = to_jsonable(outcome)
        if kind == "alias" and isinstance(outcome, resolver.HandleRecord):
            target = _alias_name(outcome)
            data["target"] = str(target) if target is not None else None
            data["target_doi"] = to_jsonable(target) if target is not None else None
            data["target_text"] = written_form(target) if target is not None else None
        return dumps({"ok": data})
    except Exception as exc:
        return internal(f"reading the {kind} answer", exc)


def _alias_name(record: HandleRecord) -> Doi | None:
    handle = resolver.alias_target(record)
    if handle is None:
        return None
    try:
        return validate_name(handle)
    except DoiError:
        return None


def exact_name(value: Any) -> Doi:
    """An exact name sent back from JavaScript: ``{prefix, suffix}`` (as every name left
    Python), checked (002 §4, 003 ch. 2) but never decoded: ``10.1000/a%41`` stays that.
    Raises :class:`DoiError` (``bad-name``) for anything else."""
    if not isinstance(value, dict) or not isinstance(value.get("prefix"), str) \
            or not isinstance(value.get("suffix"), str):
        raise DoiError("bad-name", "An exact DOI name is sent as {prefix, suffix}.")
    doi = validate_name(value["prefix"] + "/" + value["suffix"])
    if doi.prefix != value["prefix"]:
        raise DoiError("bad-name", "The prefix of an exact DOI name holds no “/”.")
    return doi


_RANK = {s: i for i, s in enumerate(SEVERITIES)}


def _most_severe_first(findings: tuple[Finding, ...]) -> tuple[Finding, ...]:
    """Findings in the order a page lists them: errors, warnings, notes (stable)."""
    return tuple(sorted(findings, key=lambda f: _RANK.get(f.severity, len(_RANK))))


def for_view(found: Inspection) -> Inspection:
    """An inspection as the page shows it: each list of findings most severe first
    (:data:`~doiname.model.SEVERITIES`), so a view draws them in the order given."""
    return dataclasses.replace(
        found, notes=_most_severe_first(found.notes),
        candidates=tuple(dataclasses.replace(c, findings=_most_severe_first(c.findings))
                         for c in found.candidates))


def inspect_json(text: str, pick: int | None = None) -> str:
    """:func:`doiname.inspection.inspect` as JSON text (:func:`for_view`): one keystroke,
    one reading."""
    if not isinstance(text, str):
        return error("bad-arguments", "The text to inspect must be a string.")
    try:
        found = inspection.inspect(text, pick if isinstance(pick, int) else None)
        return dumps({"ok": to_jsonable(for_view(found))})
    except Exception as exc:
        return internal("inspecting the text", exc)


def compare_json(a: str, b: str) -> str:
    """:func:`doiname.inspection.compare` as JSON text (the Equivalence view's one call)."""
    if not isinstance(a, str) or not isinstance(b, str):
        return error("bad-arguments", "The texts to compare must be strings.")
    from ..comparison import compare  # the Equivalence view's, imported on its first call

    try:
        return dumps({"ok": to_jsonable(compare(a, b))})
    except Exception as exc:
        return internal("comparing the names", exc)


def link_options(options: Any) -> dict[str, str]:
    """The :class:`~doiname.bridge.protocol.LinkOptions` given (strings only), or a DoiError."""
    if options is None:
        return {}
    if not isinstance(options, dict) or not set(options) <= {"level", "resolver", "proxy"} \
            or not all(isinstance(v, str) for v in options.values()):
        raise DoiError("bad-arguments", "Link options are {level, resolver, proxy}, as text.")
    return {k: v for k, v in options.items() if v}


def linked_reading(text: str, options: dict[str, str]) -> LinkedReading:
    """The widget's box: :func:`~doiname.inspection.inspect` (no forms) and the selected
    name's link (:func:`~doiname.to_url` or, with a ``proxy``, :func:`~doiname.to_proxy_url`)
    and ``doi:`` URI (003 ch. 2). Bad options raise :class:`DoiError` (the link functions
    check them) whatever the text."""
    level = options.get("level", "recommended")
    resolver = options.get("resolver")
    kw: dict[str, Any] = {"level": level, **({"resolver": resolver} if resolver else {})}
    proxy = options.get("proxy")
    probe = Doi("10.1000", "182")
    _ = to_proxy_url(probe, proxy, **kw) if proxy else to_url(probe, **kw)
    found = for_view(inspection.inspect(text, forms=False))
    href = uri = None
    if found.selected is not None:
        c = found.candidates[found.selected]
        if c.kind == "doi" and c.status != "error":
            href = to_proxy_url(c.doi, proxy, **kw) if proxy else to_url(c.doi, **kw)
            uri = to_uri(c.doi)
    return LinkedReading(found, href, uri)


def box(text: Any, options: Any) -> str:
    """:func:`linked_reading` as JSON text, its options checked (:func:`link_options`):
    one keystroke in the widget's box, one reading."""
    if not isinstance(text, str):
        return error("bad-arguments", "The text to read must be a string.")
    return guarded("reading the text", lambda: linked_reading(text, link_options(options)))


def links(texts: Any, options: Any) -> str:
    """:func:`doiname.link_targets` of a page's texts, with the container's link options."""
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        return error("bad-arguments", "The texts to link are a list of strings.")
    return guarded("finding the DOI names to link",
                   lambda: link_targets(texts, **link_options(options)))


def code_points(text: Any) -> str:
    """:func:`doiname.describe_code_points` of a pasted text (Inspect's "each character"),
    up to :data:`~doiname.limits.INSPECT_MAX_CHARS` characters (one row each)."""
    if not isinstance(text, str):
        return error("bad-arguments", "The text to describe must be a string.")
    if len(text) > INSPECT_MAX_CHARS:
        return error("too-long", f"This text is {len(text):,} characters long; the character "
                     f"view describes up to {INSPECT_MAX_CHARS:,}, as Inspect reads.")
    from ..codepoints import describe_code_points  # imported on the view's first call

    return guarded("describing the characters", lambda: describe_code_points(text))


def lookup(kind: Any, target: Any) -> str:
    """The request to send to doi.org, ``{"url": ...}``, for exact names.

    ``kind`` ``handle``: ``target`` is one exact name ``{prefix, suffix}``
    (:func:`doiname.to_handles_api_url`, 003 ch. 4); ``which-ra``: a list of exact names
    (:func:`doiname.to_which_ra_url`); ``alias``: ``{"short": "10/abcde"}``
    (:func:`doiname.short_doi_api_url`). No name is parsed from text here.
    """
    try:
        if kind == "handle":
            url = to_handles_api_url(exact_name(target))
        elif kind == "which-ra":
            if not isinstance(target, list) or not target:
                raise DoiError("bad-name", "Which RA takes a list of exact DOI names.")
            url = to_which_ra_url([exact_name(t) for t in target])
        elif kind == "registry":
            from .registry import registry_lookup
            return registry_lookup(target)
        elif kind == "alias":
            if not isinstance(target, dict) or not isinstance(target.get("short"), str):
                raise DoiError("bad-name", "A shortDOI is sent as {short: \"10/abcde\"}.")
            url = short_doi_api_url(target["short"])
        else:
            return error("bad-arguments", f"Unknown kind of lookup {kind!r}.")
    except DoiError as err:
        return dumps({"error": error_json(err)})
    except Exception as exc:
        return internal("making the lookup request", exc)
    return dumps({"ok": {"url": url}})


