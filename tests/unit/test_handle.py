"""Reading handle records (003 ch. 4, RFC 3651) and Which RA answers (specs README):
every outcome, every data format, hostile values; nothing ever raises."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import doiname
from doiname.jsonable import to_jsonable
from doiname.resolver import (
    ADMIN_PERMISSIONS,
    HandleRecord,
    alias_target,
    is_linkable_url,
    read_handle_response,
    read_which_ra_response,
    transport_outcome,
    worth_retrying,
)

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures" / "handles"
SPEC_003 = next((ROOT.parent / "shared" / "specs").glob("003_*.txt"), None)
INDEX: dict[str, dict[str, Any]] = json.loads((FIX / "index.json").read_text(encoding="utf-8"))


def body(name: str) -> str:
    return (FIX / name).read_text(encoding="utf-8")


def served(path: str) -> HandleRecord:
    entry = INDEX[path]
    return read_handle_response(entry["status"], (FIX / entry["file"]).read_bytes())


def by_index(rec: HandleRecord) -> dict[int | None, Any]:
    return {v.index: v for v in rec.values}


def record(*values: dict[str, Any], code: int = 1) -> str:
    return json.dumps({"responseCode": code, "handle": "10.5555/x", "values": list(values)})


def value(vtype: str, fmt: str, data: object, **extra: object) -> dict[str, Any]:
    return {"index": 1, "type": vtype, "data": {"format": fmt, "value": data}, "ttl": 86400,
            "timestamp": "2020-01-01T00:00:00Z", **extra}


def one(vtype: str, fmt: str, data: object, **extra: object) -> Any:
    rec = read_handle_response(200, record(value(vtype, fmt, data, **extra)))
    assert rec.outcome == "ok", rec.message
    (v,) = rec.values
    return v


# --- 003_373959d3cc9bb80c.txt, chapter 4, Figure 1 -------------------------------------


def _figure_1() -> str:
    """003_373959d3cc9bb80c.txt ch. 4 Figure 1, as kept in the fixture (checked below)."""
    return body("10.1000-182.json")


@pytest.mark.skipif(SPEC_003 is None, reason="../shared/specs is not beside this checkout")
def test_fixture_is_003_figure_1_verbatim() -> None:
    """The 10.1000/182 fixture is the JSON printed in 003_373959d3cc9bb80c.txt Figure 1."""
    assert SPEC_003 is not None
    text = SPEC_003.read_text(encoding="utf-8")
    start = text.index("Figure 1 illustrates")
    block = re.search(r"```\s*\n(\{.*?\})\s*\n```", text[start:], re.DOTALL)
    assert block is not None
    assert json.loads(_figure_1()) == json.loads(block.group(1))


def test_003_figure_1_reads_as_the_spec_says() -> None:
    """003 ch. 4 Figure 1 (file 003_373959d3cc9bb80c.txt), read from the spec text itself."""
    rec = read_handle_response(200, _figure_1())
    assert (rec.outcome, rec.ok, rec.response_code, rec.handle) == ("ok", True, 1, "10.1000/182")
    url, admin = rec.values
    assert (url.index, url.type, url.format, url.text) == (1, "URL", "string",
                                                          "http://www.doi.org/hb.html")
    # 003 ch. 5: the referent of 10.1000/182 can be retrieved at this URL.
    assert url.href == rec.url == "http://www.doi.org/hb.html"
    assert (url.ttl, url.ttl_seconds, url.timestamp) == ("86400 s (1 day)", 86400,
                                                        "2004-01-21T14:14:17Z")
    assert (admin.index, admin.type, admin.format, admin.href) == (100, "HS_ADMIN", "admin", None)
    assert admin.admin is not None
    assert (admin.admin.handle, admin.admin.index, admin.admin.permissions,
            admin.admin.legacy_byte_length) == ("0.na/10.1000", 200, "011111110010", True)
    # "011111110010": the last character is bit 0 (RFC 3651 section 3.5 Add_Handle).
    assert set(admin.admin.granted) == {
        "delete handle", "modify values", "remove values", "add values",
        "modify administrator", "remove administrator", "add administrator", "read values"}
    assert set(admin.admin.denied) == {
        "add handle", "add derived prefix (naming authority)",
        "delete derived prefix (naming authority)", "list handles"}
    details = dict(admin.details)
    assert details["administrator"] == "200:0.na/10.1000"
    assert details["permissions"] == "011111110010"
    assert details["legacy byte length"] == "true"
    assert admin.timestamp == "2000-06-23T15:17:46Z"
    assert rec.notes == ()


# --- HS_ADMIN permissions: RFC 3651 section 3.5 -----------------------------------------


def test_admin_permission_names_follow_rfc_3651_bit_order() -> None:
    # Add_Handle 0x0001 ... Add_Admin 0x0200, Authorized_Read 0x0400, LIST_Handle 0x0800.
    assert len(ADMIN_PERMISSIONS) == 12 == len(set(ADMIN_PERMISSIONS))
    assert ADMIN_PERMISSIONS.index("add handle") == 0
    assert ADMIN_PERMISSIONS.index("modify administrator") == 7
    assert ADMIN_PERMISSIONS.index("read values") == 10
    assert ADMIN_PERMISSIONS.index("list handles") == 11


@pytest.mark.parametrize("bit", range(12))
def test_each_admin_bit_alone(bit: int) -> None:
    bits = "".join("1" if 11 - i == bit else "0" for i in range(12))
    v = one("HS_ADMIN", "admin", {"handle": "0.NA/10.5555", "index": 200, "permissions": bits})
    assert v.admin.granted == (ADMIN_PERMISSIONS[bit],)
    assert len(v.admin.denied) == 11 and ADMIN_PERMISSIONS[bit] not in v.admin.denied
    assert dict(v.details)["may"] == ADMIN_PERMISSIONS[bit]
    assert v.note is None


def test_admin_with_read_but_not_admin_rights() -> None:
    """formats.json index 101: bits 7 (modify admin) and 10 (read) differ, so order shows."""
    v = by_index(served("/api/handles/10.5555/formats"))[101]
    assert v.admin.permissions == "010001110000"
    assert v.admin.granted == ("modify values", "remove values", "add values", "read values")
    assert "modify administrator" in v.admin.denied


@pytest.mark.parametrize(
    ("perms", "note"),
    [
        ("1111", "the permissions have 4 bits; RFC 3651 defines 12"),
        ("1" * 16, "the permissions have 16 bits; RFC 3651 defines 12"),
        ("11x1", "the permissions are not a string of 0 and 1"),
        (4095, "the permissions are not a string of 0 and 1"),
        ("", "the permissions are not a string of 0 and 1"),
    ],
)
def test_odd_admin_permissions(perms: object, note: str) -> None:
    v = one("HS_ADMIN", "admin", {"handle": "0.NA/10.5555", "index": 200, "permissions": perms})
    assert v.note == note
    if isinstance(perms, str) and perms and set(perms) <= {"0", "1"}:
        assert len(v.admin.granted) == perms.count("1")
        assert "bit 15" in v.admin.granted or len(perms) < 16
    else:
        assert v.admin.permissions is None and v.admin.granted == ()
        assert "permissions unreadable" in v.text


def test_admin_not_an_object() -> None:
    v = one("HS_ADMIN", "admin", "0.NA/10.5555")
    assert v.admin is None and v.note == "the admin data is not an object"
    assert v.text == '"0.NA/10.5555"'


# --- formats -----------------------------------------------------------------------------


def test_every_format_of_the_formats_fixture() -> None:
    rec = served("/api/handles/10.5555/formats")
    assert rec.outcome == "ok" and rec.url == "https://example.org/article/10.5555/formats"
    v = by_index(rec)
    assert v[2].type == "URL.mirror" and v[2].href == "http://mirror.example.net/article/formats"
    assert v[2].ttl == "5400 s (1 hour, 30 minutes)"
    locs = v[3].locations
    assert [(loc.href, loc.linkable, loc.weight, loc.view) for loc in locs] == [
        ("", False, "0", None),
        ("https://example.org/article/formats?x=1&y=2", True, "1", "html")]
    assert ("href_template", "https://data.example.org/{hdl}") in locs[0].attributes
    assert ("locations http_sc", "302") in v[3].details
    assert (v[4].type, v[4].text, v[4].href) == ("EMAIL", "editor@example.org", None)
    assert v[5].text == "Résumé: ça marche, 日本語"
    assert v[5].note == "decoded from base64 as UTF-8 text"
    assert v[6].text.startswith("89 50 4e 47") and v[6].note == (
        "16 bytes of binary data (base64), shown as hex")
    assert v[7].text == "Grüße" and v[7].note == "decoded from hex as UTF-8 text"
    assert v[8].text == "de ad be ef 00 ff" and v[8].ttl == "until 2031-12-31T23:59:59Z"
    assert v[8].ttl_seconds is None
    assert v[9].ttl == "0 s (not cached)" and v[9].text == "0.SERV/10.5555"
    assert v[10].text == "public key (DSA, JSON Web Key)"
    assert dict(v[10].details) == {"key type": "DSA", "fields": "g, p, q, y"}
    site = dict(v[11].details)
    assert v[11].text == "primary site with 1 server (192.0.2.10): Example primary site"
    assert site["protocol version"] == "2.10" and site["role"] == "primary"
    assert site["server 1"] == ("192.0.2.10: TCP 2641 (query, admin); UDP 2641 (query); "
                                "HTTP 8000 (query, admin)")
    assert [(m.handle, m.index) for m in v[200].members] == [("10.5555/alice", 300),
                                                              ("10.5555/bob", 300)]
    assert v[200].text == "300:10.5555/alice, 300:10.5555/bob"
    assert all(x.href is None for i, x in v.items() if i not in (1, 2))


def test_multiple_resolution_fixture() -> None:
    rec = served("/api/handles/10.1002/(SICI)1097-4571(199806)49:8%3C693::AID-ASI4%3E3.0.CO;2-O")
    by_type = {v.type: v for v in rec.values}
    locs = by_type["10320/loc"].locations
    assert [(loc.href, loc.linkable, loc.weight, loc.view) for loc in locs] == [
        ("https://example.org/fulltext/693.pdf", True, "1", "fulltext"),
        ("ftp://mirror.example.net/693.pdf", False, "0", "mirror"),
    ]
    assert ("locations chooseby", "locatt,country,weighted") in by_type["10320/loc"].details
    assert by_type["DESC"].text == "Japanese: 日本語"
    assert by_type["CHECKSUM"].text == "00 ff 10 fe" and by_type["NOTE"].text == "hello"
    assert by_type["HS_VLIST"].text == "300:0.na/10.1002, 301:10.1002/admins"
    admin = by_type["HS_ADMIN"].admin
    assert admin is not None and admin.granted == ADMIN_PERMISSIONS


@pytest.mark.parametrize(
    ("fmt", "raw", "text", "note"),
    [
        ("base64", "cGxhaW4=", "plain", "decoded from base64 as UTF-8 text"),
        ("base64", "cGxhaW4", "plain", "decoded from base64 as UTF-8 text"),  # no padding
        ("base64", "w6k_", "é?", "decoded from base64 as UTF-8 text"),  # URL-safe alphabet
        ("base64", "/w==", "ff", "1 byte of binary data (base64), shown as hex"),
        ("base64", "cGxh\naW4=", "plain", "decoded from base64 as UTF-8 text"),
        ("base64", "***", "***", "not valid base64; shown as received"),
        ("base64", "", "", "0 bytes of binary data (base64), shown as hex"),
        ("hex", "c3A9", "é", "decoded from hex as UTF-8 text"),
        ("hex", "00 01", "00 01", "2 bytes of binary data (hex), shown as hex"),
        ("hex", "0g", "0g", "not valid hex; shown as received"),
        ("hex", "616", "616", "not valid hex; shown as received"),
        ("hex", "ff" * 300, "ff " * 255 + "ff …", "300 bytes of binary data (hex), shown as hex"),
        ("hex", "1b5b33316d", "1b 5b 33 31 6d", "5 bytes of binary data (hex), shown as hex"),
    ],
)
def test_base64_and_hex(fmt: str, raw: str, text: str, note: str) -> None:
    v = one("DESC", fmt, raw)
    assert (v.text, v.note) == (text, note)
    assert v.raw == json.dumps(raw)


def test_unknown_and_missing_formats_are_shown_as_given() -> None:
    v = one("X", "blob", {"a": 1})
    assert (v.format, v.text) == ("blob", '{"a": 1}')
    assert v.note == "data in format “blob” shown as received"
    rec = read_handle_response(200, record({"index": 1, "type": "DESC", "data": "bare text"}))
    (w,) = rec.values
    assert (w.format, w.text) == ("", "bare text")
    assert w.note == "the data is not a {format, value} object"
    assert one("HS_PUBKEY", "key", "AAAAB3NzaC1").note == "key data shown as received"


def test_vlist_and_site_of_the_wrong_shape() -> None:
    assert one("HS_VLIST", "vlist", {"handle": "x"}).note == "the value list is not a list"
    v = one("HS_VLIST", "vlist", [{"handle": "0.NA/1", "index": 300}, 7, {"index": 1}])
    assert v.text == "300:0.NA/1" and v.note == "2 entries without a handle left out"
    assert one("HS_SITE", "site", [1]).note == "the site data is not an object"
    s = one("HS_SITE", "site", {"servers": [{"address": "x", "interfaces": "no"}, 3]})
    assert s.text == "secondary site with 1 server (x)"


@pytest.mark.parametrize(
    ("ttl", "shown", "seconds"),
    [
        (86400, "86400 s (1 day)", 86400), (3600, "3600 s (1 hour)", 3600),
        (45, "45 s", 45), (1, "1 s", 1), (0, "0 s (not cached)", 0),
        (90061, "90061 s (1 day, 1 hour, 1 minute, 1 second)", 90061),
        (172800, "172800 s (2 days)", 172800), (86400.0, "86400 s (1 day)", 86400),
        ("2030-01-01T00:00:00Z", "until 2030-01-01T00:00:00Z", None),
        (None, "", None), (-5, "-5 s", -5), (True, "true", None),
        (2**60, "1152921504606846976", None),
    ],
)
def test_ttl(ttl: object, shown: str, seconds: int | None) -> None:
    v = one("URL", "string", "https://example.org/", ttl=ttl)
    assert (v.ttl, v.ttl_seconds) == (shown, seconds)


def test_timestamp_kept_as_text_and_checked() -> None:
    assert one("X", "string", "a", timestamp="2020-01-01T00:00:00.123+01:00").note is None
    assert one("X", "string", "a", timestamp="yesterday").note == (
        "the timestamp is not an ISO 8601 date")
    v = one("X", "string", "a", timestamp=17)
    assert (v.timestamp, v.note) == ("17", "the timestamp is not text")


# --- 10320/loc ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("xml", "note"),
    [
        ('<!DOCTYPE x SYSTEM "file:///etc/passwd"><locations/>',
         "the location list declares a DTD; it was not parsed"),
        ("<locations><location href='https://e.org/'>", "the location list is not well-formed XML"),
        ("not xml at all", "the location list is not well-formed XML"),
        ("<locations></locations>", "the location list has no <location> entries"),
        ("<list><location href='https://e.org/'/></list>",
         "the location list starts with <list>, not <locations>"),
        ("<a>" * 40 + "</a>" * 40,
         "the location list is nested too deeply or too long to parse"),
    ],
)
def test_bad_location_lists(xml: str, note: str) -> None:
    v = one("10320/loc", "string", xml)
    assert v.note == note
    assert v.text == xml  # still shown, as text


def test_billion_laughs_is_refused() -> None:
    entities = '<!ENTITY e0 "xxxxxxxxxx">' + "".join(
        f'<!ENTITY e{i} "{f"&e{i - 1};" * 10}">' for i in range(1, 10))
    xml = f"<!DOCTYPE l [{entities}]><locations><location href='&e9;'/></locations>"
    v = one("10320/loc", "string", xml)
    assert v.locations == () and v.note == "the location list declares a DTD; it was not parsed"
    assert v.text == xml


def test_location_list_caps() -> None:
    xml = "<locations>" + "<location href='https://e.org/'/>" * 1500 + "</locations>"
    assert len(one("10320/loc", "string", xml).locations) == 1000


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
    assert rec.notes == ("HTTP status 200 does not match responseCode 100 (003 ch. 4 pairs it "
                         "with 404)",)
    rec = read_handle_response(404, _figure_1())
    assert rec.outcome == "ok" and "does not match responseCode 1" in rec.notes[0]


@pytest.mark.parametrize(
    ("status", "text", "outcome", "words"),
    [
        (200, "[1, 2]", "unexpected", "not an object"),
        (200, '{"responseCode": 7}', "unexpected", "responseCode 7"),
        (400, '{"responseCode": 102, "message": "Invalid handle"}', "unexpected",
         "responseCode 102 (invalid handle)"),
        (200, '{"responseCode": 3}', "server-error", "too busy"),
        (200, '{"handle": "10.1/x"}', "unexpected", "no responseCode"),
        (403, '{"error": "forbidden"}', "http-error", "HTTP 403 (Forbidden)"),
        (404, "", "not-found", "HTTP 404"),
        (500, "<html>oops</html>", "server-error", "HTTP 500"),
        (503, "", "http-error", "HTTP 503 (Service Unavailable)"),
        (200, "", "bad-json", "HTTP 200, but not with the JSON"),
        (200, "   ", "bad-json", "HTTP 200, but not with the JSON"),
        (200, "\ufeff" + '{"responseCode": 200, "handle": "10.1/x"}', "no-values", "no values"),
        (200, '{"responseCode": 1, "values": {"a": 1}}', "ok", "resolved"),
        (200, "[" * 100_000, "bad-json", "JSON"),
        (200, '{"a":' * 5000 + "1" + "}" * 5000, "bad-json", "JSON"),
        (200, "1" * 4000, "unexpected", "not an object"),
        (200, "1" * 5000, "bad-json", "not with the JSON"),  # beyond Python's int digit limit
        (200, "NaN", "unexpected", "not an object"),
    ],
)
def test_odd_answers(status: int, text: str, outcome: str, words: str) -> None:
    rec = read_handle_response(status, text)
    assert rec.outcome == outcome
    assert words in rec.message


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
    assert read_handle_response(200, bytearray(_figure_1().encode())).outcome == "ok"  # type: ignore[arg-type]
    assert read_handle_response(200, memoryview(_figure_1().encode())).outcome == "ok"  # type: ignore[arg-type]
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


# --- links -------------------------------------------------------------------------------


def test_hostile_record_has_no_links_but_http() -> None:
    rec = served("/api/handles/10.1000/hostile")
    v = by_index(rec)
    assert rec.url is None
    assert all(x.href is None for x in rec.values)
    assert v[5].text == '<img src=x onerror="window.__pwned=5"><script>window.__pwned=6</script>'
    assert v[5].timestamp == "<b onmouseover=window.__pwned=7>t</b>"
    assert [loc.linkable for loc in v[6].locations] == [False, True]
    assert v[15].locations == () and "DTD" in (v[15].note or "")
    assert v[16].text == '<svg onload="window.__pwned=13">'
    assert v[100].text.startswith("administrator 200:<img src=x")
    for i in (1, 2, 3, 4, 7, 8, 9, 10, 11, 12, 13):
        assert v[i].note == "not made a link: only a plain http(s) address with a host becomes one"
    json.dumps(to_jsonable(rec))


@pytest.mark.parametrize(
    ("url", "ok"),
    [
        ("https://example.org/x", True), ("http://a.b", True), ("HTTPS://EXAMPLE.ORG", True),
        ("https://example.org:8443/a?b=c#d", True), ("http://[2001:db8::1]/", True),
        ("https://例え.jp/パス", True), ("https://example.org/?x=<img>", True),
        ("http://localhost", True), ("https://a", True),
        ("javascript:alert(1)", False), (" https://example.org", False),
        ("https://example.org ", False), ("https://example.org/a b", False),
        ("data:text/html,x", False), ("https://", False), ("https:///x", False),
        ("ftp://example.org", False), ("https://user@host/", False),
        ("https://doi.org@evil.example/", False), ("//example.org", False),
        ("https://exa\nmple.org", False), ("https://example.org/\u202e", False),
        ("vbscript:x", False), ("java\tscript:alert(1)", False), ("jAvAsCrIpT:alert(1)", False),
        ("\u0000https://x.org", False), ("https:\\\\evil.example", False),
        ("https://evil.example\\@good.example", False), ("https://example.org:99999/", False),
        ("https://example.org:/", False), ("https://example.org:8a/", False),
        ("https://[::1/", False), ("https://-/", False), ("https://exa mple.org", False),
        ("https://example.org/\u200b", False), ("https://example.org/\u00a0", False),
        ("", False), ("https://e.org/" + "a" * 9000, False), ("mailto:a@b.org", False),
        (None, False), (b"https://example.org", False), (42, False),
    ],
)
def test_is_linkable_url(url: object, ok: bool) -> None:
    assert is_linkable_url(url) is ok


def test_only_url_types_get_a_href() -> None:
    assert one("URL", "string", "https://e.org/").href == "https://e.org/"
    assert one("url", "string", "https://e.org/").href == "https://e.org/"
    assert one("URL.alt", "string", "https://e.org/").href == "https://e.org/"
    assert one("URLX", "string", "https://e.org/").href is None
    assert one("EMAIL", "string", "https://e.org/").href is None
    assert one("HS_ALIAS", "string", "https://e.org/").href is None
    assert one("URL", "base64", base64.b64encode(b"https://e.org/").decode()).href == (
        "https://e.org/")


# --- shortDOI aliases --------------------------------------------------------------------


def test_short_doi_alias() -> None:
    rec = served("/api/handles/10/abcde?type=HS_ALIAS")
    assert alias_target(rec) == "10.1000/182"
    assert doiname.parse(alias_target(rec) or "") == doiname.parse("10.1000/182")
    assert alias_target(served("/api/handles/10.1000/182")) is None
    assert alias_target(served("/api/handles/10/zzzzz?type=HS_ALIAS")) is None


@pytest.mark.parametrize(
    ("target", "found"),
    [("10.1000/182", "10.1000/182"), ("no-slash", None), ("10.1/a b", None),
     ("10.1/\u0000x", None), ("", None)],
)
def test_alias_target_must_look_like_a_handle(target: str, found: str | None) -> None:
    rec = read_handle_response(200, record(value("HS_ALIAS", "string", target)))
    assert alias_target(rec) == found
    not_ok = read_handle_response(200, record(value("HS_ALIAS", "string", target), code=7))
    assert alias_target(not_ok) is None


# --- Which RA ----------------------------------------------------------------------------


def test_which_ra_fixture() -> None:
    path = next(p for p in INDEX if p.startswith("/ra/10.7554/"))
    res = read_which_ra_response(200, body(INDEX[path]["file"]))
    assert (res.outcome, res.ok, res.status) == ("ok", True, 200)
    assert [(a.doi, a.ra, a.status, a.kind) for a in res.answers] == [
        ("10.7554/eLife.00001", "Crossref", None, "found"),
        ("10.5281/zenodo.1234567", "DataCite", None, "found"),
        ("10.9999/nope", None, "DOI does not exist", "does-not-exist"),
        ("10.abc/x", None, "Invalid DOI", "invalid"),
    ]
    assert [a.doi for a in res.answers] == path.removeprefix("/ra/").split(",")
    assert res.message == "2 of 4 names have a registration agency."
    assert res.answers[0].message == "10.7554/eLife.00001 is registered with Crossref."
    assert "“DOI does not exist”" in res.answers[2].message
    assert "“Invalid DOI”" in res.answers[3].message


def test_which_ra_page_fixture_answers_the_names_asked() -> None:
    names = ["10.1000/182", "10.7554/eLife.00001", "10.9999/nope"]
    path = doiname.to_which_ra_url(names).removeprefix("https://doi.org")
    res = read_which_ra_response(INDEX[path]["status"], body(INDEX[path]["file"]))
    assert [a.doi for a in res.answers] == names
    assert [a.kind for a in res.answers] == ["found", "found", "does-not-exist"]


def test_which_ra_specs_readme_example() -> None:
    """The specs README's answer ``[{"DOI": "10.7554", "RA": "Crossref"}]``, verbatim."""
    res = read_which_ra_response(200, '[{"DOI": "10.7554", "RA": "Crossref"}]')
    assert res.answers[0].ra == "Crossref" and res.message == "10.7554 is registered with Crossref."
    assert read_which_ra_response(200, body("which-ra-prefix.json")) == res


@pytest.mark.parametrize(
    ("status", "text", "outcome"),
    [
        (None, None, "network"), (0, "[]", "network"), (200, "<html>", "bad-json"),
        (503, "", "server-error"), (502, "<h1>Bad Gateway</h1>", "server-error"),
        (404, "Not Found", "http-error"), (200, "[]", "unexpected"), (200, "{}", "ok"),
        (200, '"x"', "unexpected"), (200, "[1, 2]", "unexpected"),
        (400, '[{"DOI": "x", "status": "Invalid DOI"}]', "http-error"),
        (200, "[" * 50_000, "bad-json"),
    ],
)
def test_which_ra_outcomes(status: int | None, text: str | None, outcome: str) -> None:
    res = read_which_ra_response(status, text)
    assert res.outcome == outcome and res.ok is (outcome == "ok") and res.message


def test_which_ra_odd_entries() -> None:
    res = read_which_ra_response(200, '[{"DOI": "10.1/a", "status": "Something else"},'
                                      ' {"DOI": 5}, {"RA": "Crossref"}]')
    assert [(a.doi, a.kind) for a in res.answers] == [("10.1/a", "unknown"), ("", "unknown"),
                                                     ("", "found")]
    assert res.answers[1].message == "(no name given): the answer names no registration agency."
    assert res.message == "1 of 3 names has a registration agency."
    assert read_which_ra_response(200, b" " * (10 * 1024 * 1024 + 1)).outcome == "too-large"


# --- properties --------------------------------------------------------------------------


def _check_record(rec: HandleRecord) -> None:
    data = to_jsonable(rec)
    json.dumps(data)
    assert rec.message
    for v in rec.values:
        assert isinstance(v.text, str) and isinstance(v.type, str) and isinstance(v.raw, str)
        if v.href is not None:
            assert is_linkable_url(v.href) and v.href == v.text
            assert v.href[:8].lower().startswith(("http://", "https://"))
        for loc in v.locations:
            assert loc.linkable == is_linkable_url(loc.href)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.none(), st.integers(-5, 700)),
       st.one_of(st.none(), st.text(max_size=300), st.binary(max_size=300)))
def test_never_raises(status: int | None, data: str | bytes | None) -> None:
    _check_record(read_handle_response(status, data))
    json.dumps(to_jsonable(read_which_ra_response(status, data)))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
    | st.sampled_from(["URL", "HS_ADMIN", "10320/loc", "string", "admin", "vlist", "site",
                       "key", "base64", "hex", "https://e.org/", "<locations><location "
                       "href='https://e.org/'/></locations>", "0101", "DOI does not exist"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["index", "type", "data", "format", "value", "ttl", "timestamp",
                         "handle", "permissions", "values", "responseCode", "DOI", "RA",
                         "status", "servers", "interfaces", "attributes", "kty", "message"]),
        children, max_size=5),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(json_values, st.sampled_from([200, 404, 500, 502]))
def test_never_raises_on_wrongly_typed_json(doc: object, status: int) -> None:
    for wrapped in (doc, {"responseCode": 1, "values": doc}, {"responseCode": 1, "values": [doc]},
                    {"responseCode": 1, "values": [{"type": "URL", "data": doc}]},
                    {"responseCode": 1, "values": [{"type": "10320/loc", "data": doc}]},
                    {"responseCode": 1, "values": [{"type": "HS_ADMIN", "data": {
                        "format": "admin", "value": doc}}]}):
        text = json.dumps(wrapped)
        _check_record(read_handle_response(status, text))
        json.dumps(to_jsonable(read_which_ra_response(status, text)))


@settings(deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60))
def test_linkable_means_plain_http(s: str) -> None:
    if is_linkable_url(s):
        assert s[:8].lower().startswith(("http://", "https://"))
        assert s.isprintable() and not any(c.isspace() or c == "\\" for c in s)
        assert "@" not in s.split("/")[2]


hosts = st.from_regex(r"[a-z0-9]{1,10}(\.[a-z0-9]{1,10}){0,3}", fullmatch=True)
paths = st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E,
                                       blacklist_characters="\\"), max_size=30)


@settings(deadline=None)
@given(st.sampled_from(["http://", "https://", "HTTPS://"]), hosts, paths)
def test_plain_http_urls_are_linkable(scheme: str, host: str, path: str) -> None:
    url = scheme + host + "/" + path
    assert is_linkable_url(url) is ("@" not in host)
    for trick in (" " + url, url + "\n", "\u200b" + url, url.replace("/", "\\", 1)):
        assert not is_linkable_url(trick)


@pytest.mark.parametrize(("status", "body", "retry"), [
    (429, "", True),
    (503, "", True),
    (500, '{"responseCode": 2}', True),
    (200, '{"responseCode": 2}', True),
    (404, '{"responseCode": 100, "handle": "10.1000/x"}', False),
    (403, "", False),
    (200, "<html>login</html>", False),
])
def test_retry_only_where_asking_again_may_help(status: int, body: str, retry: bool) -> None:
    record = read_handle_response(status, body)
    assert record.retry is retry
    assert worth_retrying(record.outcome, record.status) is retry


def test_retry_after_no_answer() -> None:
    assert transport_outcome("timeout").retry is True
    assert transport_outcome("network").retry is False  # also a CORS refusal: final
    assert transport_outcome("cancelled").retry is False
