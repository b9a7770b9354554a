"""parse/read: every input form of the issue, and every rejection with code and position."""

from __future__ import annotations

import pytest

import doiname as d

FORMS = [
    ("10.1000/182", "10.1000/182", "name"),
    ("  10.1000/182\n", "10.1000/182", "name"),
    ("doi:10.1000/182", "10.1000/182", "doi-uri"),
    ("DOI: 10.1000/182", "10.1000/182", "label"),
    ("Doi:10.1000/456%23789", "10.1000/456#789", "doi-uri"),
    ("urn:doi:10.123:456ABC%2Fzyz", "10.123/456ABC/zyz", "urn"),
    ("URN:DOI:10.123:456", "10.123/456", "urn"),
    ("info:doi/10.1000/182", "10.1000/182", "info-uri"),
    ("hdl:10.1000/182", "10.1000/182", "hdl-uri"),
    ("https://doi.org/10.1000/182", "10.1000/182", "url"),
    ("http://dx.doi.org/10.1000/182", "10.1000/182", "url"),
    ("https://www.doi.org/10.1000/182", "10.1000/182", "url"),
    ("doi.org/10.1000/182", "10.1000/182", "url"),
    ("HTTPS://DOI.ORG/10.1000/ABC", "10.1000/ABC", "url"),
    ("https://hdl.handle.net/10.1000/182", "10.1000/182", "url"),
    ("https://doi.org/urn:doi:10.123:456ABC%2Fzyz", "10.123/456ABC/zyz", "urn-url"),
    ("https://doi.org/api/handles/10.1000/182?type=URL", "10.1000/182", "api-url"),
    ("https://doi.org/api/handles/10.6338/JDA.202212%2FSP_17(4).0000",
     "10.6338/JDA.202212/SP_17(4).0000", "api-url"),
    ("https://doi-org.ezproxy.lib.example.edu/10.1000/456%23789", "10.1000/456#789", "proxy-url"),
    ("https://dx-doi-org.proxy.example.ac.uk/10.1000/182", "10.1000/182", "proxy-url"),
    ("https://login.ezproxy.example.edu/login?url=https://doi.org/10.1000/456%23789",
     "10.1000/456#789", "proxy-login"),
    ("https://login.ezproxy.example.edu/login?qurl=https%3A%2F%2Fdoi.org%2F10.1000%2F456%2523789",
     "10.1000/456#789", "proxy-login"),
    ("10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O",
     "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O", "name"),
    ("10.1000/a b", "10.1000/a b", "name"),
    ("10.1000/caf%C3%A9", "10.1000/caf\u00e9", "name"),
    ("10.1000/caf\u00e9", "10.1000/caf\u00e9", "name"),
    ("10.1000/%2523", "10.1000/%23", "name"),  # decoded exactly once
]


@pytest.mark.parametrize(("text", "name", "form"), FORMS)
def test_forms(text: str, name: str, form: str) -> None:
    assert str(d.parse(text)) == name
    r = d.read(text)
    assert str(r.doi) == name and r.form == form
    assert len(r.spans) == len(name)


def test_doi_is_returned_unchanged() -> None:
    x = d.Doi("10.1000", "182")
    assert d.parse(x) is x


def test_url_fragment_is_not_the_name_but_is_reported() -> None:
    r = d.read("https://doi.org/10.1000/456#789")
    assert str(r.doi) == "10.1000/456"
    assert [n.code for n in r.notes] == ["url-fragment-dropped"]
    assert r.notes[0].start == len("https://doi.org/10.1000/456")


ERRORS = [
    ("", "empty", None),
    ("   ", "empty", None),
    ("10.1000", "no-slash", None),
    ("10.1000/", "empty-suffix", 7),
    ("10/abcde", "short-doi", 0),
    ("11.1000/x", "bad-prefix", 1),
    ("10.1000a/x", "bad-prefix", 7),
    ("10../x", "bad-prefix", 3),
    ("10./x", "bad-prefix", 2),
    ("/x", "bad-prefix", 0),
    ("10.1000/a%2", "bad-percent", 9),
    ("10.1000/a%zz", "bad-percent", 9),
    ("10.1000/%C3%28", "bad-utf8", 8),
    ("10.1000/%FF", "bad-utf8", 8),
    ("10.1000/a\u200bb", "not-graphic", 9),
    ("10.1000/a%E2%80%8Bb", "not-graphic", 9),
    ("10.1000/a\tb", "not-graphic", 9),
    ("10.1000/\u202eabc", "not-graphic", 8),
    ("10.1000/\ue000", "not-graphic", 8),
    ("10.1000/\ud800", "not-graphic", 8),
    ("10.1000/\U000e0001x", "not-graphic", 8),
    ("10.1000/a\u2028b", "not-graphic", 9),
    ("doi:10.1000/456#789", "uri-fragment", 15),
    ("doi:10.1000/456?x", "uri-query", 15),
    ("  10.1000/a\u200b", "not-graphic", 11),
    ("https://doi.org/10.1000/a%ZZ", "bad-percent", 25),
    # a "/" escaped twice: decoded once, there is "%2F" where the "/" was
    ("https://doi.org/10.1000%252F182", "no-slash", 23),
    ("10.1000%252F182", "no-slash", 7),
    # a link to a site that is no resolver: its host is pointed at, not "https:" as a prefix
    ("https://www.nature.com/articles/nature14539", "not-a-doi-link", 8),
    (" HTTP://Example.org:8080?doi=x", "not-a-doi-link", 8),
    ("https://", "bad-prefix", 0),
]


@pytest.mark.parametrize(("text", "code", "position"), ERRORS)
def test_errors(text: str, code: str, position: int | None) -> None:
    with pytest.raises(d.DoiError) as e:
        d.parse(text)
    assert e.value.code == code
    assert e.value.position == position
    assert e.value.message and "Traceback" not in e.value.message
    if position is not None and code != "short-doi":
        assert f"character {position + 1}" in e.value.message


def test_a_slash_escaped_twice_is_said_with_the_name_decoded_again() -> None:
    with pytest.raises(d.DoiError) as e:
        d.parse("https://doi.org/10.1000%252F182")
    assert "escaped twice" in e.value.message and "it would read 10.1000/182" in e.value.message
    with pytest.raises(d.DoiError) as e:
        d.parse("10.1000")
    assert "escaped twice" not in e.value.message


def test_not_graphic_message_names_the_code_point() -> None:
    with pytest.raises(d.DoiError) as e:
        d.parse("10.1000/a\u200bb")
    assert "U+200B ZERO WIDTH SPACE" in e.value.message
    with pytest.raises(d.DoiError) as e:
        d.parse("10.1000/\u202eabc")
    assert "U+202E" in e.value.message and "bidirectional" in e.value.message


def test_error_position_through_proxy_layers() -> None:
    text = "https://x.example.edu/login?qurl=https%3A%2F%2Fdoi.org%2F10.1000%2Fa%E2%80%8Bb"
    with pytest.raises(d.DoiError) as e:
        d.parse(text)
    assert e.value.code == "not-graphic"
    assert e.value.position is not None and e.value.end is not None
    assert text[e.value.position:e.value.end] == "%E2%80%8B"


def test_spans_point_at_the_input() -> None:
    text = "https://doi.org/10.1000/x%E2%80%90y"
    r = d.read(text)
    i = str(r.doi).index("\u2010")
    a, b = r.spans[i]
    assert text[a:b] == "%E2%80%90"
    assert r.input_span(i, i + 1) == (a, b)


def test_registrant() -> None:
    assert d.parse("10.1000/182").registrant == "1000"
    assert d.parse("10.1000/182").directory == "10"
    assert d.parse("10.1000/182").name == "10.1000/182"


def test_type_error_for_non_text() -> None:
    with pytest.raises(TypeError):
        d.parse(12)  # type: ignore[arg-type]
