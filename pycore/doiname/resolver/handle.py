"""Reading an answer of the handle API (003 ch. 4): :func:`read_handle_response`, and the
DOI name a shortDOI stands for (:func:`alias_target`, the specs README)."""

from __future__ import annotations

from ..limits import MAX_URL, MAX_VALUES
from .body import as_text, load_json
from .model import HandleRecord, HandleValue, transport_outcome
from .outcome import (
    MESSAGES,
    code_meaning,
    expected_status,
    http_error_message,
    outcome_of_code,
)
from .text import clip, label, plural, read_int
from .values import read_value

__all__ = ["alias_target", "read_handle_response"]


def read_handle_response(status: int | None, body: str | bytes | None) -> HandleRecord:
    """Read one answer of the handle API (003 ch. 4; values per RFC 3651 §3).

    ``status`` is the HTTP status (``None`` or 0 when no answer arrived); ``body`` the
    response text or bytes. The ``outcome`` follows the JSON ``responseCode`` (1 ``ok``,
    2 ``server-error``, 100 ``not-found``, 200 ``no-values``, others ``unexpected``); an
    HTTP status that does not match it (003 ch. 4 pairs 1/200, 2/500, 100/404, 200/200)
    is kept as a note. Without a JSON object: HTTP 404 is ``not-found``, 500
    ``server-error``, other 4xx/5xx ``http-error``, anything else ``bad-json``. A JSONP
    body (``?callback=``) is read, with a note. Bodies over 10 MB are ``too-large``.
    Messages and notes are plain words; the ``responseCode`` and HTTP status they leave
    out are in the record's ``source``.
    Never raises, whatever the arguments.
    """
    st = read_int(status)
    if not st:
        return transport_outcome("network")
    text, too_large = as_text(body)
    if too_large or text is None:
        return HandleRecord("too-large", False, MESSAGES["too-large"], st)
    doc, ok, callback = load_json(text)
    notes: list[str] = []
    if callback and ok:
        notes.append(f"the answer was wrapped in a JSONP callback “{callback}(…)”")
    if not ok or not isinstance(doc, dict):
        return _not_an_object(st, ok, tuple(notes))
    code = read_int(doc.get("responseCode"))
    handle = label(doc.get("handle")) or None
    values = _values(doc.get("values"), notes)
    expected = expected_status(code)
    if expected is not None and expected != st:
        notes.append(f"the HTTP status {st} is not the one doi.org sends with this answer "
                     f"({expected})")
    message = doc.get("message")
    said = f" The server said: “{clip(message, 500)}”" if isinstance(message, str) and \
        message.strip() else ""
    url = next((v.href for v in values if v.href), None)
    if code == 1:
        if not values:
            notes.append("the answer says the name was found, but lists no values")
        return HandleRecord("ok", True, MESSAGES["ok"], st, code, handle, tuple(values), url,
                            tuple(notes))
    outcome = outcome_of_code(code)
    if outcome is not None:
        msg = MESSAGES[outcome]
        if code == 3:
            msg = "The resolver is too busy to answer. Try again later."
        if values:
            notes.append(f"the answer also lists {plural(len(values), 'value')}; "
                         "they are not shown")
        return HandleRecord(outcome, False, msg + said, st, code, handle, (), None,
                            tuple(notes))
    if code is None and st >= 400:
        return HandleRecord("http-error", False, http_error_message(st) + said, st, None,
                            handle, (), None, tuple(notes))
    meaning = code_meaning(code)
    msg = MESSAGES["unexpected"] + (f" It says: {meaning}." if meaning else "") + said
    return HandleRecord("unexpected", False, msg, st, code, handle, tuple(values), url,
                        tuple(notes))


def _not_an_object(st: int, is_json: bool, notes: tuple[str, ...]) -> HandleRecord:
    """An answer without a JSON object: read from its HTTP status (003 ch. 4)."""
    if st == 404:
        return HandleRecord("not-found", False, MESSAGES["not-found"], st, notes=notes)
    if st == 500:
        return HandleRecord("server-error", False, MESSAGES["server-error"], st, notes=notes)
    if st >= 400:
        return HandleRecord("http-error", False, http_error_message(st), st, notes=notes)
    if is_json:
        return HandleRecord("unexpected", False, MESSAGES["unexpected"] + " It is JSON "
                            "but not an object.", st, notes=notes)
    return HandleRecord("bad-json", False, "The resolver answered, but not with the JSON "
                        "the handle API sends; it may be an error or login page from a "
                        "proxy or firewall in between.", st, notes=notes)


def _values(raw: object, notes: list[str]) -> list[HandleValue]:
    """The record's values (RFC 3651 §3), at most MAX_VALUES; what was left out is added
    to ``notes``."""
    if not isinstance(raw, list):
        if raw is not None:
            notes.append("“values” is not a list; it was ignored")
        return []
    values = []
    skipped = 0
    for item in raw[:MAX_VALUES]:
        v = read_value(item)
        if v is None:
            skipped += 1
        else:
            values.append(v)
    if skipped:
        notes.append(f"{plural(skipped, 'value')} that are not objects left out")
    if len(raw) > MAX_VALUES:
        notes.append(f"only the first {MAX_VALUES} of {len(raw)} values are shown")
    return values


def alias_target(record: HandleRecord) -> str | None:
    """The DOI name a shortDOI points to: its first ``HS_ALIAS`` value (specs README).

    Only a successful record counts, and only a value that looks like a handle
    (``prefix/suffix``, no whitespace or control characters); the caller still reads it
    with :func:`doiname.parse`.
    """
    if record.outcome != "ok":
        return None
    for v in record.values:
        if v.type.upper() != "HS_ALIAS":
            continue
        target = v.text
        if "/" in target and target.isprintable() and not any(c.isspace() for c in target) \
                and len(target) <= MAX_URL:
            return target
    return None
