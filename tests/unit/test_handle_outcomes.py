"""Reading doi.org's answers (003 ch. 4): every outcome of the served fixtures, odd and
hostile answers (wrong status, JSONP, too large, too deep, too many values)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import doiname
from doiname.jsonable import to_jsonable
from doiname.resolver import (
    read_handle_response,
    read_which_ra_response,
    transport_outcome,
)

from .handles import FIX, INDEX, figure_1, record, served, value

# --- outcomes ----------------------------------------------------------------------------


OUTCOMES = {
    "/api/handles/10.1000/182": "ok",
    "/api/handles/10.1000/182?type=URL": "ok",
    "/api/handles/10.1000/182?callback=handleCallback": "ok",
    "/api/handles/10.1002/(SICI)1097-4571(199806)49:8%3C693::AID-ASI4%3E3.0.CO;2-O": "ok",
    "/api/handles/10.5555/formats": "ok",
    "/api/handles/10/abcde?type=HS_ALIAS": "ok",
    "/api/handles/10/zzzzz?type=HS_ALIAS": "not-found",
    "/api/handles/10.1000/does-not-exist": "not-found",
    "/api/handles/10.1000/empty": "no-values",
    "/api/handles/10.1000/server-error": "server-error",
    "/api/handles/10.1000/not-json": "bad-json",
    "/api/handles/10.1000/bad-gateway": "http-error",
    "/api/handles/10.1000/rate-limited": "http-error",
    "/api/handles/10.1000/hostile": "ok",
}


@pytest.mark.parametrize(("path", "outcome"), OUTCOMES.items())
def test_each_fixture_outcome(path: str, outcome: str) -> None:
    rec = served(path)
    assert rec.outcome == outcome
    assert rec.ok is (outcome == "ok")
    assert rec.status == INDEX[path]["status"]
    assert rec.message and rec.message[0].isupper() and rec.message.endswith((".", "”"))
    json.dumps(to_jsonable(rec))


def test_index_lists_every_fixture_and_only_real_files() -> None:
    handle_paths = {p for p in INDEX if p.startswith("/api/handles/")}
    assert handle_paths == set(OUTCOMES)
    files = {e["file"] for e in INDEX.values()}
    assert files <= {p.name for p in FIX.iterdir()}
    assert {p.name for p in FIX.iterdir()} - files == {"index.json"}
    for entry in INDEX.values():
        assert set(entry) == {"status", "file", "content_type"}
        assert isinstance(entry["status"], int) and "/" in entry["content_type"]


@pytest.mark.parametrize("path", [p for p in INDEX if "?" not in p and p.startswith("/api/")])
def test_index_paths_are_what_the_core_requests(path: str) -> None:
    """Each key is the path the page fetches: to_handles_api_url of the name it holds."""
    url = "https://doi.org" + path
    assert doiname.to_handles_api_url(doiname.parse(url)) == url


def test_index_query_paths_are_what_the_core_requests() -> None:
    base = "https://doi.org"
    assert doiname.to_handles_api_url("10.1000/182", types=("URL",)) == (
        base + "/api/handles/10.1000/182?type=URL")
    for code in ("abcde", "zzzzz"):
        assert doiname.short_doi_api_url(f"10/{code}") == (
            base + f"/api/handles/10/{code}?type=HS_ALIAS")
    names = ["10.7554/eLife.00001", "10.5281/zenodo.1234567", "10.9999/nope"]
    assert doiname.to_which_ra_url(names) + ",10.abc/x" == base + next(
        p for p in INDEX if p.startswith("/ra/10.7554/"))


def test_mismatched_status_and_response_code_is_noted() -> None:
    rec = read_handle_response(200, '{"responseCode": 100, "handle": "10.1/x"}')
    assert rec.outcome == "not-found"
    assert rec.notes == ("the HTTP status 200 is not the one doi.org sends with this answer "
                         "(404)",)
    assert rec.source == ("doi.org handle API (003 ch. 4); responseCode 100 (handle not found); "
                          "HTTP 200 (OK)")  # the codes the note leaves out
    rec = read_handle_response(404, figure_1())
    assert rec.outcome == "ok" and "HTTP status 404 is not the one" in rec.notes[0]
    assert "responseCode 1 (success); HTTP 404" in rec.source


@pytest.mark.parametrize(
    ("status", "text", "outcome", "words", "technical"),
    [
        (200, "[1, 2]", "unexpected", "not an object", "no responseCode; HTTP 200 (OK)"),
        (200, '{"responseCode": 7}', "unexpected", "format", "responseCode 7; HTTP 200"),
        (400, '{"responseCode": 102, "message": "Invalid handle"}', "unexpected",
         "It says: invalid handle.", "responseCode 102 (invalid handle); HTTP 400"),
        (200, '{"responseCode": 3}', "server-error", "too busy", "responseCode 3"),
        (200, '{"handle": "10.1/x"}', "unexpected", "format", "no responseCode"),
        (403, '{"error": "forbidden"}', "http-error", "error (Forbidden)",
         "HTTP 403 (Forbidden)"),
        (404, "", "not-found", "does not know", "no responseCode; HTTP 404"),
        (500, "<html>oops</html>", "server-error", "on its side", "HTTP 500"),
        (503, "", "http-error", "(Service Unavailable)", "HTTP 503 (Service Unavailable)"),
        (200, "", "bad-json", "answered, but not with the JSON", "HTTP 200"),
        (200, "   ", "bad-json", "answered, but not with the JSON", "HTTP 200"),
        (200, "\ufeff" + '{"responseCode": 200, "handle": "10.1/x"}', "no-values", "no values",
         "responseCode 200 (values not found)"),
        (200, '{"responseCode": 1, "values": {"a": 1}}', "ok", "resolved", "responseCode 1"),
        (200, "[" * 100_000, "bad-json", "JSON", "HTTP 200"),
        (200, '{"a":' * 5000 + "1" + "}" * 5000, "bad-json", "JSON", "HTTP 200"),
        (200, "1" * 4000, "unexpected", "not an object", "HTTP 200"),
        (200, "1" * 5000, "bad-json", "not with the JSON", "HTTP 200"),  # beyond int's limit
        (200, "NaN", "unexpected", "not an object", "HTTP 200"),
    ],
)
def test_odd_answers(status: int, text: str, outcome: str, words: str, technical: str) -> None:
    rec = read_handle_response(status, text)
    assert rec.outcome == outcome
    assert words in rec.message
    assert "responseCode" not in rec.message and "HTTP" not in rec.message  # plain words
    assert rec.source.startswith("doi.org handle API (003 ch. 4); ") and technical in rec.source


def test_server_error_says_what_the_server_said() -> None:
    rec = served("/api/handles/10.1000/server-error")
    assert rec.message.endswith("The server said: “Error resolving handle”")


def test_transport_outcomes() -> None:
    assert read_handle_response(None, None).outcome == "network"
    assert read_handle_response(0, "").outcome == "network"
    assert read_handle_response(True, "{}").outcome == "network"  # a bool is no status
    assert transport_outcome("timeout").outcome == "timeout"
    assert transport_outcome("offline").outcome == "offline"
    assert "offline" in transport_outcome("offline").message
    assert transport_outcome("cancelled").message == "The request was cancelled."
    assert transport_outcome("anything").outcome == "network"
    for kind in ("network", "offline", "timeout", "cancelled"):
        assert not transport_outcome(kind).ok


def test_jsonp_is_read_with_a_note() -> None:
    rec = served("/api/handles/10.1000/182?callback=handleCallback")
    assert rec.url == "http://www.doi.org/hb.html"
    assert rec.notes == ("the answer was wrapped in a JSONP callback “handleCallback(…)”",)
    assert read_handle_response(200, "cb(").outcome == "bad-json"
    assert read_handle_response(200, "alert(1)").outcome == "unexpected"


def test_too_large_and_bytes() -> None:
    big = 10 * 1024 * 1024 + 1
    assert read_handle_response(200, b" " * big).outcome == "too-large"
    assert read_handle_response(200, " " * big).outcome == "too-large"
    assert read_handle_response(200, b"\xff\xfe{").outcome == "bad-json"
    assert read_handle_response(200, bytearray(figure_1().encode())).outcome == "ok"  # type: ignore[arg-type]
    assert read_handle_response(200, memoryview(figure_1().encode())).outcome == "ok"  # type: ignore[arg-type]
    assert read_handle_response(200, 12).outcome == "bad-json"  # type: ignore[arg-type]


def test_deep_json_never_reaches_the_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pyodide's stack overflows before Python's recursion limit: refuse before parsing."""
    calls: list[int] = []
    real_loads = json.loads

    def loads(text: str) -> Any:
        calls.append(len(text))
        return real_loads(text)

    monkeypatch.setattr("doiname.resolver.body.json.loads", loads)
    for deep in ("[" * (10 * 1024 * 1024 - 1), '{"a":' * 101 + "1" + "}" * 101,
                 "cb(" + "[" * 200 + ")"):
        assert read_handle_response(200, deep).outcome == "bad-json"
        assert read_which_ra_response(200, deep).outcome == "bad-json"
    assert calls == []
    # brackets inside strings do not count
    deep_text = record(value("DESC", "string", "[" * 500))
    assert read_handle_response(200, deep_text).values[0].text == "[" * 500


@pytest.mark.parametrize(
    ("inside", "depth", "outcome"),
    [
        ("[" * 500, 1, "ok"),  # brackets in a string do not count
        ('\\"' + "[" * 500, 1, "ok"),  # nor after an escaped quote
        ("\\\\" + "]" * 500, 1, "ok"),  # an escaped backslash ends nothing
        ("]" * 500, 120, "bad-json"),  # closing brackets in strings hide no depth
        ("", 97, "ok"),  # the record adds 3 levels: 100 in all is allowed
        ("", 98, "bad-json"),
    ],
)
def test_nesting_guard_reads_strings_right(inside: str, depth: int, outcome: str) -> None:
    text = record(value("DESC", "string", inside, extra=json.loads("[" * depth + "]" * depth)))
    rec = read_handle_response(200, text)
    assert rec.outcome == outcome
    if outcome == "ok":
        assert rec.values[0].text == inside


def test_many_values_are_capped() -> None:
    rec = read_handle_response(200, record(*[value("X", "string", "a")] * 1200))
    assert len(rec.values) == 1000
    assert "only the first 1000 of 1200 values are shown" in rec.notes


def test_huge_numbers_are_not_passed_to_javascript() -> None:
    rec = read_handle_response(200, record({"index": 2**60, "type": "X",
                                            "data": {"format": "string", "value": "a"}}))
    assert rec.values[0].index is None
