"""Handle records read for people (003 ch. 4, RFC 3651): only http(s) values become
links, shortDOI aliases, Which RA answers (specs README), and nothing ever raises."""

from __future__ import annotations

import base64
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import doiname
from doiname.jsonable import to_jsonable
from doiname.resolver import (
    HandleRecord,
    alias_target,
    is_linkable_url,
    read_handle_response,
    read_which_ra_response,
    transport_outcome,
    worth_retrying,
)

from .handles import INDEX, body, by_index, one, record, served, value

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



def _host_by_urllib(authority: str) -> bool:
    """The host check as :func:`urllib.parse.urlsplit` and :mod:`ipaddress` read it: the
    oracle of links.py's own reading of a ``host[:port]``. Two differences, on purpose, as
    the WHATWG URL parser says: a second ``]`` after an IPv6 literal (``[::1]]``,
    ``[::1]x]``) makes no host (urlsplit reads the port after the first ``]`` and the old
    check looked for text after the last one), and neither does a bracket anywhere but
    around a leading IPv6 literal (urlsplit reads ``][v1.x`` as the host ``v1.x``)."""
    import ipaddress
    from urllib.parse import urlsplit

    if not authority or "@" in authority:
        return False
    if authority.startswith("[") and authority.count("]") > 1:
        return False
    if not authority.startswith("[") and ("[" in authority or "]" in authority):
        return False
    try:
        parts = urlsplit("//" + authority)
        port = parts.port
    except ValueError:
        return False
    host = parts.hostname
    if host is None:
        return False
    if authority.startswith("["):
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            return False
    elif not all(c.isalnum() or c in "-._~" for c in host) or not any(c.isalnum() for c in host):
        return False
    rest = authority[authority.rfind("]") + 1:] if authority.startswith("[") else \
        authority.partition(":")[1] + authority.partition(":")[2]
    return not rest or (port is not None and rest[1:].isdigit())


_AUTHORITY_PARTS = st.one_of(
    st.sampled_from(["[", "]", ":", "::", "@", ".", "-", "~", "%", "0", "1", "65535", "65536",
                     "80", "a", "Z", "é", "\u0663", "\uff1a", "\u00b2", "fe80::1", "::ffff:1.2.3.4",
                     "1.2.3.4", "v1.x", "%25eth0", "doi.org", "_", "!", "xn--d1a"]),
    st.text(alphabet=st.characters(codec="utf-8", exclude_characters="/?#"), max_size=3))


@settings(deadline=None, max_examples=600)
@given(st.lists(_AUTHORITY_PARTS, max_size=8).map("".join))
def test_host_reading_agrees_with_urllib(authority: str) -> None:
    url = "https://" + authority + "/x"
    expected = url.isprintable() and not any(c.isspace() or c == "\\" for c in url) \
        and _host_by_urllib(authority)
    assert is_linkable_url(url) is expected


@pytest.mark.parametrize(("authority", "ok"), [
    ("doi.org", True), ("doi.org:443", True), ("doi.org:65535", True), ("doi.org:65536", False),
    ("doi.org:", False), ("doi.org:8a", False), ("doi.org:\u0668\u0660", False),
    ("[::1]", True), ("[::1]:8080", True), ("[fe80::1%25eth0]", True), ("[::1", False),
    ("::1]", False), ("[1.2.3.4]", False), ("[v1.x]", False), ("[]", False),
    ("[::1]x80", False), ("a:1:2", False), ("caf\u00e9.example", True), (":80", False),
    ("-", False), ("a\uff1a80", False), ("[::1]]", False), ("[::1]x]", False),
])
def test_host_and_port(authority: str, ok: bool) -> None:
    assert is_linkable_url(f"https://{authority}/") is ok
    assert _host_by_urllib(authority) is ok

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
