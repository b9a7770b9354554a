"""Reading handle records (003 ch. 4, RFC 3651) and Which RA answers: every outcome,
every data format, hostile values; nothing ever raises."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doiname.handle import (
    alias_target,
    is_linkable_url,
    read_handle_response,
    read_which_ra_response,
    transport_outcome,
)
from doiname.jsonable import to_jsonable

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "handles"


def body(name: str) -> str:
    return (FIX / name).read_text(encoding="utf-8")


def test_003_figure_1() -> None:
    """003 ch. 4 Figure 1: the record of 10.1000/182, verbatim."""
    rec = read_handle_response(200, body("10.1000-182.json"))
    assert (rec.outcome, rec.ok, rec.response_code, rec.handle) == ("ok", True, 1, "10.1000/182")
    url, admin = rec.values
    assert (url.index, url.type, url.format, url.text) == (1, "URL", "string",
                                                          "http://www.doi.org/hb.html")
    assert url.href == "http://www.doi.org/hb.html" and rec.url == url.href
    assert url.ttl == "86400 s (1 day)" and url.timestamp == "2004-01-21T14:14:17Z"
    details = dict(admin.details)
    assert details["administrator"] == "200:0.na/10.1000"
    assert details["permissions"] == "011111110010"
    # bit 11 first: list handles no, admin ops and value ops yes, naming authority no.
    assert details["may"] == ("delete handle, modify values, remove values, add values, "
                              "read values, modify administrator, remove administrator, "
                              "add administrator")
    assert "add handle" in details["may not"] and "list handles" in details["may not"]
    assert admin.href is None


def test_formats_locations_vlist_base64_hex() -> None:
    rec = read_handle_response(200, body("multiple-resolution.json"))
    by_type = {v.type: v for v in rec.values}
    locs = by_type["10320/loc"].locations
    assert [(loc.href, loc.linkable, loc.weight, loc.view) for loc in locs] == [
        ("https://example.org/fulltext/693.pdf", True, "1", "fulltext"),
        ("ftp://mirror.example.net/693.pdf", False, "0", "mirror"),
    ]
    assert by_type["DESC"].text == "Japanese: \u65e5\u672c\u8a9e"
    assert "base64" in (by_type["DESC"].note or "")
    assert by_type["CHECKSUM"].text == "00 ff 10 fe" and "hex" in (by_type["CHECKSUM"].note or "")
    assert by_type["CHECKSUM"].ttl == "until 2030-01-01T00:00:00Z"
    assert by_type["NOTE"].text == "hello"
    assert by_type["HS_VLIST"].text == "300:0.na/10.1002, 301:10.1002/admins"
    assert dict(by_type["HS_ADMIN"].details)["may"].count(",") == 11
    assert by_type["EMAIL"].href is None


@pytest.mark.parametrize(
    ("status", "file", "outcome"),
    [
        (404, "not-found.json", "not-found"),
        (200, "no-values.json", "no-values"),
        (500, "server-error.json", "server-error"),
        (502, "not-json.html", "bad-json"),
        (404, "not-json.html", "not-found"),
    ],
)
def test_outcomes(status: int, file: str, outcome: str) -> None:
    rec = read_handle_response(status, body(file))
    assert rec.outcome == outcome and not rec.ok and rec.message


def test_transport_outcomes_and_odd_bodies() -> None:
    assert read_handle_response(None, None).outcome == "network"
    assert read_handle_response(0, "").outcome == "network"
    assert transport_outcome("timeout").outcome == "timeout"
    assert transport_outcome("cancelled").message == "The request was cancelled."
    assert read_handle_response(200, "[1, 2]").outcome == "unexpected"
    assert read_handle_response(200, '{"responseCode": 7}').outcome == "unexpected"
    assert read_handle_response(200, "cb(" + body("10.1000-182.json") + ");").outcome == "ok"
    assert read_handle_response(200, "[" * 100_000).outcome == "bad-json"
    assert read_handle_response(200, b"\xff\xfe{").outcome == "bad-json"
    assert read_handle_response(200, "x" * (11 * 1024 * 1024)).outcome == "too-large"
    mismatch = read_handle_response(200, '{"responseCode": 100}')
    assert mismatch.outcome == "not-found" and "does not match" in mismatch.notes[0]


def test_hostile_record_has_no_links_but_http() -> None:
    rec = read_handle_response(200, body("hostile.json"))
    hrefs = [v.href for v in rec.values]
    assert hrefs[:4] == [None, None, None, None]
    assert rec.values[4].text.startswith("<img src=x onerror=")  # plain text, for textContent
    assert [loc.linkable for loc in rec.values[5].locations] == [False, True]
    # a bidi override, or spaces inside, and it is not a link: text only.
    assert rec.values[6].href is None
    assert rec.values[7].href is None
    json.dumps(to_jsonable(rec))


@pytest.mark.parametrize(
    ("url", "ok"),
    [
        ("https://example.org/x", True), ("http://a.b", True), ("HTTPS://EXAMPLE.ORG", True),
        ("javascript:alert(1)", False), (" https://example.org", False),
        ("https://example.org/a b", False), ("data:text/html,x", False), ("https://", False),
        ("https:///x", False), ("ftp://example.org", False), ("https://user@host/", False),
        ("//example.org", False), ("https://exa\nmple.org", False),
        ("https://example.org/\u202e", False), ("vbscript:x", False),
    ],
)
def test_is_linkable_url(url: str, ok: bool) -> None:
    assert is_linkable_url(url) is ok


def test_short_doi_alias() -> None:
    rec = read_handle_response(200, body("short-alias.json"))
    assert alias_target(rec) == "10.1000/182"
    assert alias_target(read_handle_response(200, body("10.1000-182.json"))) is None


def test_which_ra() -> None:
    res = read_which_ra_response(200, body("which-ra.json"))
    assert res.outcome == "ok"
    assert [(a.doi, a.ra, a.status) for a in res.answers] == [
        ("10.1000/182", "DataCite", None), ("10.7554/eLife.00001", "Crossref", None),
        ("10.9999/nope", None, "DOI does not exist"), ("11.1/x", None, "Invalid DOI"),
    ]
    assert res.message == "2 of 4 name(s) have a registration agency."
    assert read_which_ra_response(None, None).outcome == "network"
    assert read_which_ra_response(200, "<html>").outcome == "bad-json"
    assert read_which_ra_response(503, "").outcome == "server-error"


@given(st.one_of(st.none(), st.integers(-5, 700)),
       st.one_of(st.none(), st.text(max_size=300), st.binary(max_size=300)))
def test_never_raises(status: int | None, data: str | bytes | None) -> None:
    json.dumps(to_jsonable(read_handle_response(status, data)))
    json.dumps(to_jsonable(read_which_ra_response(status, data)))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["index", "type", "data", "format", "value", "ttl", "timestamp",
                         "handle", "permissions", "values", "responseCode", "DOI", "RA"]),
        children, max_size=5),
    max_leaves=30,
)


@given(json_values)
def test_never_raises_on_wrongly_typed_json(doc: object) -> None:
    for wrapped in (doc, {"responseCode": 1, "values": doc}, {"responseCode": 1, "values": [doc]},
                    {"responseCode": 1, "values": [{"type": "URL", "data": doc}]}):
        text = json.dumps(wrapped)
        json.dumps(to_jsonable(read_handle_response(200, text)))
        json.dumps(to_jsonable(read_which_ra_response(200, text)))
