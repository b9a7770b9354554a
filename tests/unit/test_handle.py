"""Reading handle records (003 ch. 4, RFC 3651): the spec's own example, HS_ADMIN
permissions, every data format, 10320/loc location lists."""

from __future__ import annotations

import json
import re

import pytest

from doiname.resolver import (
    ADMIN_PERMISSIONS,
    read_handle_response,
)

from .handles import SPEC_003, by_index, figure_1, one, record, served

# --- 003_373959d3cc9bb80c.txt, chapter 4, Figure 1 -------------------------------------


@pytest.mark.skipif(SPEC_003 is None, reason="../shared/specs is not beside this checkout")
def test_fixture_is_003_figure_1_verbatim() -> None:
    """The 10.1000/182 fixture is the JSON printed in 003_373959d3cc9bb80c.txt Figure 1."""
    assert SPEC_003 is not None
    text = SPEC_003.read_text(encoding="utf-8")
    start = text.index("Figure 1 illustrates")
    block = re.search(r"```\s*\n(\{.*?\})\s*\n```", text[start:], re.DOTALL)
    assert block is not None
    assert json.loads(figure_1()) == json.loads(block.group(1))


def test_003_figure_1_reads_as_the_spec_says() -> None:
    """003 ch. 4 Figure 1 (file 003_373959d3cc9bb80c.txt), read from the spec text itself."""
    rec = read_handle_response(200, figure_1())
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
    # "011111110010": the last character is bit 0 (RFC 3651 §3.5 Add_Handle).
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


# --- HS_ADMIN permissions: RFC 3651 §3.5 -----------------------------------------


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
        ("1111", "the permissions have 4 bits; the handle system defines 12"),
        ("1" * 16, "the permissions have 16 bits; the handle system defines 12"),
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
