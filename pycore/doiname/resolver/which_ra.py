"""Reading a Which RA answer (the specs README: ``https://doi.org/ra/A,B``): which
registration agency registered each name, or the service's status for it."""

from __future__ import annotations

from typing import Any

from ..limits import MAX_VALUES
from .body import as_text, load_json
from .model import RaAnswer, WhichRaResult
from .outcome import MESSAGES, http_error_message
from .text import label, read_int

__all__ = ["read_which_ra_response"]


def _ra_answer(item: dict[str, Any]) -> RaAnswer:
    name = label(item.get("DOI"))
    ra = label(item.get("RA")) or None
    stat = label(item.get("status")) or None
    who = name or "(no name given)"
    if ra:
        return RaAnswer(name, ra, stat, f"{who} is registered with {ra}.", "found")
    folded = (stat or "").strip().lower()
    if folded == "doi does not exist":
        return RaAnswer(name, None, stat, f"{who}: the Which RA service says “{stat}”: no "
                        "registration agency knows this name.", "does-not-exist")
    if folded == "invalid doi":
        return RaAnswer(name, None, stat, f"{who}: the Which RA service says “{stat}”: it does "
                        "not read this as a DOI name.", "invalid")
    if stat:
        return RaAnswer(name, None, stat, f"{who}: the Which RA service says “{stat}”.")
    return RaAnswer(name, None, None, f"{who}: the answer names no registration agency.")


def read_which_ra_response(status: int | None, body: str | bytes | None) -> WhichRaResult:
    """Read a Which RA answer: a JSON array of ``{"DOI", "RA"}`` or ``{"DOI", "status"}``.

    Unknown names come back with HTTP 200 and a ``status`` such as ``"DOI does not
    exist"`` or ``"Invalid DOI"`` (specs README); each entry becomes an :class:`RaAnswer`.
    No answer is ``network``; a 5xx without JSON ``server-error``; another 4xx/5xx
    ``http-error``; a body that is not JSON ``bad-json``; JSON of another shape
    ``unexpected``; over 10 MB ``too-large``. Never raises.
    """
    st = read_int(status)
    if not st:
        return WhichRaResult("network", False, MESSAGES["network"])
    text, too_large = as_text(body)
    if too_large or text is None:
        return WhichRaResult("too-large", False, MESSAGES["too-large"], st)
    doc, ok, _callback = load_json(text)
    if not ok:
        if st >= 500:
            return WhichRaResult("server-error", False, "The Which RA service reported a "
                                 "server error. Try again later.", st)
        if st >= 400:
            return WhichRaResult("http-error", False, http_error_message(st).replace(
                "no handle record", "no Which RA answer"), st)
        return WhichRaResult("bad-json", False, "The Which RA answer was not JSON; it may be "
                             "an error or login page from a proxy in between.", st)
    if isinstance(doc, dict):
        doc = [doc]
    if not isinstance(doc, list):
        return WhichRaResult("unexpected", False, "The Which RA answer is not a list of "
                             "names.", st)
    answers = tuple(_ra_answer(item) for item in doc[:MAX_VALUES] if isinstance(item, dict))
    if st >= 400:
        return WhichRaResult("http-error", False, http_error_message(st).replace(
            "no handle record", "an error"), st, answers)
    if not answers:
        return WhichRaResult("unexpected", False, "The Which RA answer lists no names.", st)
    if len(answers) == 1:
        return WhichRaResult("ok", True, answers[0].message, st, answers)
    found = sum(1 for a in answers if a.ra)
    verb = "has" if found == 1 else "have"
    return WhichRaResult("ok", True, f"{found} of {len(answers)} names {verb} a registration "
                         "agency.", st, answers)
