"""The worker's JSON bridge (doiname.bridge): calls, results, errors, answers from doi.org.

Expected values come from calling the package directly; the bridge only converts.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import doiname
from doiname import bridge
from doiname.resolver import alias_target, read_handle_response, read_which_ra_response

from .strategies import dois


def reply(text: str) -> dict[str, Any]:
    data = json.loads(text)
    assert isinstance(data, dict)
    assert set(data) in ({"ok"}, {"error"})
    return data


def ok(text: str) -> Any:
    data = reply(text)
    assert "ok" in data, data
    return data["ok"]


def err(text: str) -> dict[str, Any]:
    data = reply(text)
    assert "error" in data, data
    e = data["error"]
    assert set(e) - {"source"} == {"code", "message", "position", "end"}
    assert isinstance(e.get("source", ""), str)  # a DoiError's source; the bridge's own: none
    return dict(e)


def test_parse_gives_prefix_suffix_name() -> None:
    assert ok(bridge.call_json("parse", '["10.1000/182"]')) == {
        "prefix": "10.1000", "suffix": "182", "name": "10.1000/182"}


def test_keyword_arguments() -> None:
    text = "10.1000/a,b/c"
    got = ok(bridge.call_json("to_url", json.dumps(
        {"args": [text], "kwargs": {"level": "strict"}})))
    assert got == doiname.to_url(text, level="strict")
    assert got != doiname.to_url(text)  # the keyword made a difference


def test_only_public_functions() -> None:
    names = bridge.functions()
    assert "parse" in names and "to_url" in names
    assert set(names) <= set(doiname.__all__)
    assert "Doi" not in names and "DoiError" not in names  # classes are not calls
    for name in ("__import__", "eval", "bridge", "jsonable", "Doi", "_FUNCTIONS", "functions"):
        e = err(bridge.call_json(name, '["x"]'))
        assert e["code"] == "unknown-function"
        assert name in e["message"]


def test_doi_error_keeps_code_message_and_span() -> None:
    text = "10.1000/a\u200bb"
    with pytest.raises(doiname.DoiError) as info:
        doiname.parse(text)
    e = err(bridge.call_json("parse", json.dumps([text])))
    assert e == {"code": info.value.code, "message": info.value.message,
                 "position": info.value.position, "end": info.value.end,
                 "source": info.value.source}
    assert e["position"] is not None
    assert e["source"] == "003 ch. 2; 002 §4.1"  # the registry's source of not-graphic


@pytest.mark.parametrize(("args_json", "code"), [
    ("[]", "bad-arguments"),
    ('["10.1000/182", "x", "y", "z"]', "bad-arguments"),
    ('{"args": ["10.1000/182"], "kwargs": {"nonsense": 1}}', "bad-arguments"),
    ("not json", "bad-arguments"),
    ('{"other": 1}', "bad-arguments"),
    ('"a string"', "bad-arguments"),
])
def test_bad_arguments_are_named(args_json: str, code: str) -> None:
    e = err(bridge.call_json("parse", args_json))
    assert e["code"] == code
    assert "parse" in e["message"]
    assert "Traceback" not in e["message"]


@pytest.mark.parametrize("args", ["[12345]", "[null]", "[[1, 2]]", '[{"a": 1}]'])
def test_wrong_types_never_bring_the_bridge_down(args: str) -> None:
    # A value the core does not expect (a number where text goes): the reply is still
    # JSON, and an error carries no traceback.
    e = err(bridge.call_json("to_url", args))
    assert e["code"] == "bad-arguments"
    assert "to_url" in e["message"] and "Traceback" not in e["message"]


def test_internal_error_path(monkeypatch: pytest.MonkeyPatch,
                             capsys: pytest.CaptureFixture[str]) -> None:
    def boom(text: str) -> str:
        raise KeyError("secret detail")

    monkeypatch.setattr(doiname, "parse", boom)
    e = err(bridge.call_json("parse", '["10.1000/182"]'))
    assert e["code"] == "internal"
    assert "KeyError" in e["message"] and "secret detail" not in e["message"]
    assert "Traceback" not in e["message"]
    logged = capsys.readouterr().err
    assert "Traceback" in logged and "secret detail" in logged


def test_unserializable_result_is_an_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(doiname, "parse", lambda text: {1, 2})
    assert err(bridge.call_json("parse", '["x"]'))["code"] == "internal"
    monkeypatch.setattr(doiname, "parse", lambda text: float("nan"))
    assert err(bridge.call_json("parse", '["x"]'))["code"] == "internal"


def test_dataclasses_become_objects_and_tuples_lists() -> None:
    text = "doi: 10.1000/\u0430bc x"
    got = ok(bridge.call_json("check", json.dumps([text])))
    want = doiname.check(text)
    assert isinstance(got, list) and len(got) == len(want) > 0
    for g, w in zip(got, want, strict=True):
        # (a tuple, such as a finding's places, is a list in JSON)
        fields = {f.name: getattr(w, f.name) for f in dataclasses.fields(w)}
        assert g == json.loads(json.dumps(fields))
    expl = ok(bridge.call_json("explain_equivalence", '["10.1000/ABC", "10.1000/abc"]'))
    assert isinstance(expl, dict)
    assert expl["equivalent"] is doiname.explain_equivalence("10.1000/ABC",
                                                             "10.1000/abc").equivalent


def test_reply_is_plain_ascii_json() -> None:
    text = "10.26321/\u00c1.GUTI\u00c9RREZ \U0001d400"
    out = bridge.call_json("parse", json.dumps([text]))
    assert out.isascii()
    assert ok(out)["name"] == str(doiname.parse(text))


@given(dois())
def test_any_name_round_trips_through_the_bridge(doi: doiname.Doi) -> None:
    uri = doiname.to_uri(doi)
    got = ok(bridge.call_json("parse", json.dumps([uri])))
    assert got == {"prefix": doi.prefix, "suffix": doi.suffix, "name": str(doi)}
    assert ok(bridge.call_json("to_url", json.dumps([uri]))) == doiname.to_url(doi)


@given(st.text(max_size=40))
def test_never_raises_on_any_text(text: str) -> None:
    for name in ("parse", "to_url", "check", "to_uri"):
        reply(bridge.call_json(name, json.dumps([text])))


def test_read_handle_answer() -> None:
    body = json.dumps({"responseCode": 1, "handle": "10.1000/182", "values": [
        {"index": 1, "type": "URL", "data": {"format": "string", "value": "https://x.example/"},
         "ttl": 86400, "timestamp": "2014-06-01T00:00:00Z"}]})
    got = ok(bridge.read_answer_json("handle", 200, body))
    assert got == json.loads(json.dumps(doiname.jsonable.to_jsonable(
        read_handle_response(200, body))))
    assert got["outcome"] == "ok" and got["url"] == "https://x.example/"


def test_read_alias_answer_has_target() -> None:
    body = json.dumps({"responseCode": 1, "handle": "10/abcde", "values": [
        {"index": 1, "type": "HS_ALIAS", "data": {"format": "string", "value": "10.1000/182"},
         "ttl": 86400, "timestamp": "2014-06-01T00:00:00Z"}]})
    got = ok(bridge.read_answer_json("alias", 200, body))
    assert got["target"] == alias_target(read_handle_response(200, body)) == "10.1000/182"
    missing = ok(bridge.read_answer_json("alias", 404, '{"responseCode":100}'))
    assert missing["target"] is None and missing["outcome"] == "not-found"


def test_read_which_ra_answer() -> None:
    body = '[{"DOI": "10.1000/182", "RA": "DOI"}, {"DOI": "10.9/x", "status": "Invalid DOI"}]'
    got = ok(bridge.read_answer_json("which-ra", 200, body))
    want = read_which_ra_response(200, body)
    assert got["outcome"] == want.outcome and got["message"] == want.message
    assert [a["doi"] for a in got["answers"]] == [a.doi for a in want.answers]


@pytest.mark.parametrize("failure", bridge.TRANSPORT_FAILURES)
@pytest.mark.parametrize("kind", bridge.ANSWER_KINDS)
def test_transport_failures_have_their_own_outcome(kind: str, failure: str) -> None:
    got = ok(bridge.read_answer_json(kind, None, None, failure))
    want = doiname.transport_outcome(failure)
    assert got["outcome"] == want.outcome == failure
    assert got["message"] == want.message
    assert got["ok"] is False
    if kind == "which-ra":
        assert got["answers"] == []
    else:
        assert got["values"] == []


def test_read_answer_refuses_unknown_kinds() -> None:
    assert err(bridge.read_answer_json("nope", 200, "{}"))["code"] == "bad-arguments"
    assert err(bridge.read_answer_json("handle", 200, "{}", "boom"))["code"] == "bad-arguments"


def test_info() -> None:
    info = ok(bridge.info_json())
    assert info["doiname"] == doiname.__version__
    assert "parse" in info["functions"]


def test_batch_job_through_the_bridge() -> None:
    opened = json.loads(bridge.batch_open_json("10.1000/a\nnothing\n10.1000/A\n10.1000/%zz"))["ok"]
    job = opened["job"]
    assert opened["lines_total"] == 4
    rows: list[dict[str, object]] = []
    while True:
        text = bridge.batch_step_json(job, 1, 1000)
        step = json.loads(text)["ok"]
        rows.extend(step["rows"])
        if step["done"]:
            break
    assert [r["status"] for r in rows] == ["ok", "no-doi", "duplicate", "error"]
    assert json.loads(bridge.info_json())["ok"]["batch_jobs"] >= 1
    csv_text = json.loads(bridge.batch_export_json(job, "csv", "[2]"))["ok"]
    assert csv_text.splitlines()[1].startswith("3,,duplicate,10.1000/A,https://doi.org/10.1000/A,1,")
    bad = json.loads(bridge.batch_export_json(job, "csv", "[99]"))["error"]
    assert bad["code"] == "bad-arguments" and "no row 99" in bad["message"]
    bad = json.loads(bridge.batch_export_json(job, "csv", '{"a": 1}'))["error"]
    assert bad["code"] == "bad-arguments"
    assert json.loads(bridge.batch_close_json(job)) == {"ok": True}
    assert json.loads(bridge.batch_close_json(job)) == {"ok": False}
    for gone in (bridge.batch_step_json(job), bridge.batch_export_json(job, "csv")):
        assert json.loads(gone)["error"]["code"] == "unknown-job"


def test_batch_open_refuses_what_is_not_text() -> None:
    assert json.loads(bridge.batch_open_json(3))["error"]["code"] == "bad-arguments"  # type: ignore[arg-type]


def test_batch_open_says_how_a_file_is_read_from_its_first_bytes() -> None:
    """The page hands Python a file's first bytes; Python says how to decode the rest
    (the CLI's and Spark's rule), or refuses a file that is not text, in words."""
    def opened(head: bytes) -> dict[str, Any]:
        reply = json.loads(bridge.request_json("batch_open", json.dumps({"head": list(head)})))
        if "ok" in reply:
            bridge.batch_close_json(reply["ok"]["job"])
        return dict(reply)

    assert opened(b"10.1000/1\n")["ok"]["encoding"] == "utf-8"
    assert opened("\ufeff10.1000/1\n".encode("utf-16-le"))["ok"]["encoding"] == "utf-16le"
    assert opened("\ufeff10.1000/1\n".encode("utf-16-be"))["ok"]["encoding"] == "utf-16be"
    refused = opened(b"%PDF-1.7\n\x00\x01")["error"]
    assert refused["code"] == "not-text"
    assert refused["message"] == ("This file was not read: it is not text: a NUL byte at "
                                  "byte 9 (an image, a PDF, an archive or a spreadsheet?).")
    assert opened(b"")["ok"]["encoding"] == "utf-8"
    for bad in ([256], [-1], ["a"], [0] * 8001):
        reply = json.loads(bridge.request_json("batch_open", json.dumps({"head": bad})))
        assert reply["error"]["code"] == "bad-arguments"
