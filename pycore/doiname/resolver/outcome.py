"""What a request to doi.org came to, in plain words: outcomes, phrases, retries.

The handle API (003 ch. 4) answers with a JSON ``responseCode`` (1 success, 2 server
error, 100 not found, 200 no values; others from RFC 3652) and an HTTP status; a request
can also get no answer at all (the network, a CORS refusal, a timeout, a cancel). Each
outcome has a stable code and a message for people in plain words; the technical detail
(the service, the ``responseCode`` and the HTTP status) is its source
(:func:`answer_source`), shown apart from the message.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Literal

__all__ = ["HANDLE_API", "MESSAGES", "WHICH_RA", "Outcome", "Verdict", "answer_source",
           "code_meaning", "code_phrase", "expected_status", "http_error_message",
           "http_phrase", "outcome_of_code", "verdict_of", "worth_retrying"]

Outcome = Literal[
    "ok", "not-found", "no-values", "server-error", "bad-json", "http-error", "unexpected",
    "network", "offline", "timeout", "cancelled", "too-large",
]

#: What a resolution says of a name, in a list (Batch's statuses after Resolve all).
Verdict = Literal["resolves", "no-values", "not-found", "unreachable"]

MESSAGES: dict[str, str] = {
    "ok": "The DOI name was resolved at doi.org.",
    "not-found": "Not found: doi.org does not know this DOI name. Check it for typing or "
                 "encoding mistakes; it may also not be registered yet.",
    "no-values": "Found, but empty: doi.org knows this DOI name and its record holds no "
                 "values.",
    "server-error": "The resolver reported an error on its side; try again later.",
    "bad-json": "The answer was not what doi.org sends; it may be an error or login page "
                "from a proxy or firewall in between.",
    "http-error": "The resolver answered with an HTTP error and no handle record.",
    "unexpected": "The answer does not follow the format of doi.org's handle API.",
    "network": "Could not reach doi.org: you may be offline, or the browser refused the "
               "answer (CORS). Nothing was received.",
    "offline": "You are offline: doi.org can be asked again once this device is back on a "
               "network. Everything else on this page works offline.",
    "timeout": "No answer from doi.org in time; the request was stopped.",
    "cancelled": "The request was cancelled.",
    "too-large": "The answer was too large to read (over 10 MB); it was not processed.",
}

#: Handle protocol response codes (RFC 3652, message header ``ResponseCode``), for messages.
_RESPONSE_CODES: dict[int, str] = {
    1: "success", 2: "server error", 3: "server too busy", 4: "protocol error",
    5: "operation not supported", 6: "too many recursions", 100: "handle not found",
    101: "handle already exists", 102: "invalid handle", 200: "values not found",
    201: "value already exists", 202: "invalid value", 300: "expired site information",
    301: "server not responsible for the handle", 302: "service referral",
    303: "naming authority delegation", 400: "not authorized", 401: "access denied",
    402: "authentication needed", 403: "authentication failed", 404: "invalid credential",
    405: "authentication timed out", 406: "unable to authenticate",
    500: "session timed out", 501: "session failed", 502: "no session key",
    503: "session not supported", 504: "session key invalid",
}

#: responseCodes other than 1 that have their own outcome (003 ch. 4; 3 from RFC 3652).
_CODE_OUTCOMES: dict[int, Outcome] = {
    100: "not-found", 200: "no-values", 2: "server-error", 3: "server-error",
}

#: 003 ch. 4: the HTTP status that goes with each defined responseCode.
_EXPECTED_STATUS = {1: 200, 2: 500, 100: 404, 200: 200}

#: The services an answer comes from, as a source names them.
HANDLE_API = "doi.org handle API (003 ch. 4)"
WHICH_RA = "doi.org Which RA service (specs README)"


def answer_source(service: str, code: int | None, status: int | None) -> str:
    """What an answer's message rests on, in the technical words the message leaves out:
    ``doi.org handle API (003 ch. 4); responseCode 100 (handle not found); HTTP 404 (Not
    Found)``. ``""`` when nothing was received (no status)."""
    if not status:
        return ""
    parts = [service]
    if code is not None or service == HANDLE_API:
        parts.append(code_phrase(code))
    parts.append(http_phrase(status))
    return "; ".join(parts)


def outcome_of_code(code: int | None) -> Outcome | None:
    """The outcome a ``responseCode`` other than 1 has of its own (003 ch. 4), or None."""
    return _CODE_OUTCOMES.get(code) if code is not None else None


def expected_status(code: int | None) -> int | None:
    """The HTTP status 003 ch. 4 pairs with a ``responseCode`` (1/200, 2/500, 100/404,
    200/200), or None."""
    return _EXPECTED_STATUS.get(code) if code is not None else None


def http_phrase(status: int) -> str:
    """``HTTP 404 (Not Found)``: the status with its reason phrase (RFC 9110)."""
    reason = _reason(status)
    return f"HTTP {status}" + (f" ({reason})" if reason else "")


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


def http_error_message(status: int) -> str:
    """What an HTTP error status without a handle record means for the person asking."""
    hint = ""
    if status == 429:
        hint = " The resolver is limiting requests: wait a moment and try again."
    elif status in (401, 403):
        hint = " The request was refused, perhaps by a firewall or proxy in between."
    elif status >= 500:
        hint = " A server or gateway between you and doi.org failed; try again later."
    reason = _reason(status)
    said = f" ({reason})" if reason else ""
    return f"The resolver answered with an error{said} and no handle record.{hint}"


def code_meaning(code: int | None) -> str | None:
    """What a ``responseCode`` means in words (``invalid handle``, RFC 3652), or None."""
    return _RESPONSE_CODES.get(code) if code is not None else None


def code_phrase(code: int | None) -> str:
    """``responseCode 102 (invalid handle)`` (RFC 3652), or ``no responseCode``."""
    if code is None:
        return "no responseCode"
    meaning = _RESPONSE_CODES.get(code)
    return f"responseCode {code}" + (f" ({meaning})" if meaning else "")


def worth_retrying(outcome: str, status: int | None) -> bool:
    """Whether a handle API request with this result may succeed if asked again later.

    True for HTTP 429 (Too Many Requests), any 5xx, the resolver's server error
    (``responseCode`` 2, 003 ch. 4) and a timeout; a page that resolves many names
    retries these with backoff. A name that is not found, a bad answer or a refused
    request (``network``, which includes CORS) is final.
    """
    if status is not None and (status == 429 or 500 <= status <= 599):
        return True
    return outcome in ("server-error", "timeout")


def verdict_of(outcome: str) -> Verdict:
    """What an outcome says of the name: ``resolves`` (``ok``), ``no-values``,
    ``not-found``, or ``unreachable`` when no usable answer came (anything else)."""
    if outcome == "ok":
        return "resolves"
    if outcome in ("no-values", "not-found"):
        return "no-values" if outcome == "no-values" else "not-found"
    return "unreachable"
