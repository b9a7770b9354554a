"""Reading what a registry answered into a :class:`RegistryAnswer`: the work, or one plain
sentence saying why there is none (002 foreword, "DOI and Metadata").

The answer is untrusted: it is read within :mod:`doiname.limits` (``REGISTRY_MAX_BODY``
bytes, ``REGISTRY_MAX_DEPTH`` nesting, ``REGISTRY_MAX_JSON_VALUES`` values, counted
before parsing), and whatever it holds (a web page, a login page, truncated JSON, a JSON
bomb, JSON of another shape) gives an outcome and a sentence, never an exception.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any, Literal

from ..limits import (
    REGISTRY_MAX_BODY,
    REGISTRY_MAX_DEPTH,
    REGISTRY_MAX_JSON_VALUES,
    REGISTRY_RETRY_AFTER_MAX_S,
)
from ..model import Doi
from ..resolver.body import load_json
from .requests import agency_key, open_link
from .work import RecordError, Work

__all__ = ["RegistryAnswer", "RegistryOutcome", "read_registry_answer"]

RegistryOutcome = Literal["found", "not-found", "rate-limited", "not-readable", "offline",
                          "too-large", "timeout", "bad-answer", "network"]

#: What a carrier reports when no answer could be read, as outcomes.
_FAILURES: dict[str, RegistryOutcome] = {
    "offline": "offline", "timeout": "timeout", "too-large": "too-large",
    "not-readable": "not-readable", "network": "network", "cors": "network",
}


@dataclass(frozen=True, slots=True)
class RegistryAnswer:
    """What reading a DOI's record came to (002 foreword, "DOI and Metadata").

    ``outcome`` is a stable code; ``work`` the record when ``found``; ``message`` one
    plain sentence for people; ``retry_after_s`` the seconds to wait before asking
    again (rate limited or a server error that said so), else ``None``; ``open_url``
    the DOI's page at doi.org, for a person to open; ``status`` the HTTP status, if any.
    """

    outcome: RegistryOutcome
    work: Work | None
    message: str
    retry_after_s: float | None
    open_url: str
    agency: str = ""
    status: int | None = None


def _retry_after(value: str | None) -> float | None:
    """Seconds of a ``Retry-After`` header (seconds, or an HTTP date; RFC 9110 10.2.3)."""
    if not value or not value.strip():
        return None
    text = value.strip()
    if text.isdigit():
        return float(min(int(text[:9]), 10**8))
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return max(0.0, round(when.timestamp() - time.time(), 1))


def _who(agency: str) -> str:
    return agency or "The registry"


def _looks_like_page(text: str, content_type: str | None) -> bool:
    head = text.lstrip()[:200].lower()
    return ("html" in (content_type or "").lower() or head.startswith(("<!doctype", "<html"))
            or (head.startswith("<") and "<body" in text[:5000].lower()))


def _parse(text: str) -> tuple[Any, str | None]:
    """(JSON value, None) or (None, the outcome that refuses it)."""
    if text.count(",") + text.count(":") > REGISTRY_MAX_JSON_VALUES:
        return None, "too-large"
    value, ok, _ = load_json(text, max_depth=REGISTRY_MAX_DEPTH)
    return (value, None) if ok else (None, "bad-answer")


def _work(value: Any, agency: str) -> Work:
    if isinstance(value, dict) and isinstance(value.get("message"), dict):
        status = value.get("status")
        if status not in (None, "ok"):
            raise RecordError("The registry answered with an error instead of a record.")
        return Work.from_crossref(value)
    if isinstance(value, dict) and isinstance(value.get("data"), dict):
        return Work.from_datacite(value)
    if isinstance(value, dict) and isinstance(value.get("errors"), list):
        raise RecordError("The registry answered with an error instead of a record.")
    return Work.from_csl(value, agency=agency)


def _found(work: Work) -> str:
    who = work.authors[0].family or work.authors[0].literal if work.authors else ""
    year = work.year
    said = ", ".join(x for x in (who, str(year) if year else "") if x)
    title = work.title or "(no title)"
    return f"Registered for “{title}”" + (f" ({said})." if said else ".")


def read_registry_answer(doi: Doi, agency: str, status: int | None, body: str | None, *,
                         failure: str | None = None, retry_after: str | None = None,
                         content_type: str | None = None) -> RegistryAnswer:
    """Read a registry's answer for ``doi`` (002 foreword, "DOI and Metadata").

    ``status`` and ``body`` are what came back (``None`` when nothing did); ``failure``
    what the carrier saw instead (``offline``, ``timeout``, ``too-large``,
    ``not-readable`` for an agency browsers cannot read, ``network`` or ``cors``, or
    ``does-not-exist`` when Which RA said no agency knows the name);
    ``retry_after`` the ``Retry-After`` header, ``content_type`` the ``Content-Type``.
    Never raises.
    """
    name = agency_key(agency)
    opened = open_link(doi)
    who = _who(name)

    def answer(outcome: RegistryOutcome, message: str, work: Work | None = None,
               retry: float | None = None) -> RegistryAnswer:
        return RegistryAnswer(outcome, work, message, retry, opened, name, status or None)

    if failure == "does-not-exist":
        return answer("not-found", "Not found: no registration agency knows this DOI "
                      "(doi.org's Which RA).")
    if failure:
        outcome = _FAILURES.get(failure, "network")
        return answer(outcome, _FAILURE_MESSAGES[outcome].format(who=who))
    if not status:
        return answer("network", _FAILURE_MESSAGES["network"].format(who=who))
    wait = _retry_after(retry_after)
    if status == 429:
        when = f" Asking again in {wait:g} seconds." if wait is not None else (
            " Wait a moment before asking again.")
        if wait is not None and wait > REGISTRY_RETRY_AFTER_MAX_S:  # not waited for
            when = f" It asks to wait {wait:g} seconds: try again later."
        return answer("rate-limited", f"{who} is limiting requests.{when}", retry=wait)
    if status in (404, 410):
        return answer("not-found", f"Not found: {who} has no record of this DOI.")
    if status >= 500:
        return answer("network", f"{who} answered with a server error; try again later.",
                      retry=wait)
    if status >= 400:
        return answer("bad-answer", f"{who} refused the request (HTTP {status}); open the "
                      "DOI's page instead.")
    text = body or ""
    if len(text) > REGISTRY_MAX_BODY:
        return answer("too-large", _FAILURE_MESSAGES["too-large"].format(who=who))
    if _looks_like_page(text, content_type):
        return answer("bad-answer", "The answer was a web page, not a record: the DOI's "
                      "landing page or a login page came back instead; open the DOI's page.")
    value, refused = _parse(text)
    if refused == "too-large":
        return answer("too-large", _FAILURE_MESSAGES["too-large"].format(who=who))
    if refused:
        return answer("bad-answer", "The answer was not a readable record (not JSON, cut "
                      "short, or nested too deeply); open the DOI's page instead.")
    try:
        work = _work(value, name)
    except RecordError as err:
        return answer("bad-answer", str(err))
    return answer("found", _found(work), work)


_FAILURE_MESSAGES: dict[str, str] = {
    "offline": "You are offline: the record can be read once this device is back on a "
               "network.",
    "timeout": "No answer from {who} in time; the request was stopped.",
    "too-large": "The answer from {who} was too large to read; it was not processed.",
    "not-readable": "{who} does not let browsers read its records; open the DOI's page "
                    "instead.",
    "network": "The record could not be read: nothing readable came back from {who} (the "
               "network failed, or the agency does not let browsers read its records).",
}
