"""Fuzz targets shared by the atheris runner and the regression unit test.

Each target takes raw bytes, turns them into the input its function takes, and checks
the documented contract: a result or a :class:`doiname.DoiError`, never another
exception. Hangs are caught by the fuzzer's per-input timeout.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import doiname
from doiname import resolver as handle
from doiname.extract import extract
from doiname.jsonable import to_jsonable


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def fuzz_parse(data: bytes) -> None:
    text = _text(data)
    try:
        doi = doiname.parse(text)
    except doiname.DoiError as err:
        assert err.code and err.message
        return
    # Whatever parses must present and read back.
    for out in (doiname.to_url(doi), doiname.to_uri(doi), doiname.to_urn_url(doi)):
        assert out.isascii()
        assert doiname.parse(out) == doi
    doiname.check(text)


def fuzz_extract(data: bytes) -> None:
    text = _text(data)
    last_end = -1
    for m in extract(text):
        assert 0 <= m.start < m.end <= len(text)
        assert m.start >= last_end
        last_end = m.end


def fuzz_canonical(data: bytes) -> None:
    try:
        out = doiname.canonical_uri_2003(_text(data))
    except doiname.DoiError:
        return
    assert out.isascii() and out.startswith("doi:")


def fuzz_handle_response(data: bytes) -> None:
    status = data[0] * 3 if data else None
    body = data[1:]
    rec = handle.read_handle_response(status, body)
    json.dumps(to_jsonable(rec))
    handle.read_handle_response(200, _text(body))


def fuzz_which_ra_response(data: bytes) -> None:
    status = data[0] * 3 if data else None
    rec = handle.read_which_ra_response(status, data[1:])
    json.dumps(to_jsonable(rec))


_DOI = doiname.Doi("10.1000", "182")


def fuzz_registry_answer(data: bytes) -> None:
    """Any answer of a registry reads as a work or one sentence; a work it gives is
    checked against its own title as a reference, and the reference's text as a work."""
    status = data[0] * 3 if data else None
    text = _text(data[1:])
    answer = doiname.read_registry_answer(_DOI, "Crossref", status, text)
    assert answer.message and (answer.work is None) == (answer.outcome != "found")
    json.dumps(to_jsonable(answer))
    if answer.work is not None:
        doiname.verify(text, answer.work)
        doiname.verify(answer.work.title, answer.work)
    doiname.verify(text, doiname.Work(doi=None, title=text[:200]))


TARGETS: dict[str, Callable[[bytes], None]] = {
    "parse": fuzz_parse,
    "extract": fuzz_extract,
    "canonical": fuzz_canonical,
    "handle": fuzz_handle_response,
    "which_ra": fuzz_which_ra_response,
    "registry": fuzz_registry_answer,
}
