"""Every example in the five spec files, as a table; each row names its file and place."""

from __future__ import annotations

import pytest

import doiname as d

# (spec file and place, DOI name, expected output, function)
URL_EXAMPLES = [
    ("000 hex-encoding example", "10.1000/456#789", "https://doi.org/10.1000/456%23789"),
    ("001 '#' example", "10.1000/456#789", "https://doi.org/10.1000/456%23789"),
    ("002 appendix E encoding issues", "10.1000/456#789", "https://doi.org/10.1000/456%23789"),
    ("002 appendix E link example", "10.1006/rwei.1999.0001",
     "https://doi.org/10.1006/rwei.1999.0001"),
    ("002 appendix E link with '\"'", '10.1006/rwei.1999".0001',
     "https://doi.org/10.1006/rwei.1999%22.0001"),
    ("000 note /./", "10.1000/a/./b", "https://doi.org/10.1000/a/.%2Fb"),
    ("000 note /../", "10.1000/a/../b", "https://doi.org/10.1000/a/..%2Fb"),
]


@pytest.mark.parametrize(("where", "name", "url"), URL_EXAMPLES)
def test_url_examples(where: str, name: str, url: str) -> None:
    assert d.to_url(name) == url, where


@pytest.mark.parametrize(
    ("where", "name", "urn"),
    [
        ("000 URN note", "10.123/456", "https://doi.org/urn:doi:10.123:456"),
        ("000 URN note, further slash", "10.123/456ABC/zyz",
         "https://doi.org/urn:doi:10.123:456ABC%2Fzyz"),
    ],
)
def test_urn_examples(where: str, name: str, urn: str) -> None:
    assert d.to_urn_url(name) == urn, where
    assert str(d.parse(urn)) == name, where


@pytest.mark.parametrize(
    ("where", "name", "uri"),
    [
        ("003 ch. 1 example 2", "10.5240/7481-838B-59CA-63D0-B9A8-E",
         "doi:10.5240/7481-838B-59CA-63D0-B9A8-E"),
        ("003 ch. 2 example 1", "10.5594/SMPTE.ST2067-21.2020", "doi:10.5594/SMPTE.ST2067-21.2020"),
        ("003 ch. 2 example 2", "10.6338/JDA.202212/SP_17(4).0000",
         "doi:10.6338/JDA.202212%2FSP_17(4).0000"),
        ("003 ch. 2 example 3", "10.26321/\u00c1.GUTI\u00c9RREZ.ZARZA.02.2018.03",
         "doi:10.26321/%C3%81.GUTI%C3%89RREZ.ZARZA.02.2018.03"),
        ("003 title page", "10.1000/292", "doi:10.1000/292"),
    ],
)
def test_uri_examples(where: str, name: str, uri: str) -> None:
    assert d.to_uri(name) == uri, where
    assert str(d.parse(uri)) == name, where


def test_003_example_3_code_points() -> None:
    """003 ch. 2 example 3 lists the code points: the name is exactly those."""
    cps = [0x31, 0x30, 0x2E, 0x32, 0x36, 0x33, 0x32, 0x31, 0x2F, 0xC1, 0x2E, 0x47, 0x55, 0x54,
           0x49, 0xC9, 0x52, 0x52, 0x45, 0x5A, 0x2E, 0x5A, 0x41, 0x52, 0x5A, 0x41, 0x2E, 0x30,
           0x32, 0x2E, 0x32, 0x30, 0x31, 0x38, 0x2E, 0x30, 0x33]
    name = "".join(map(chr, cps))
    assert d.to_uri(name) == "doi:10.26321/%C3%81.GUTI%C3%89RREZ.ZARZA.02.2018.03"


def test_003_note_1_not_normalized() -> None:
    """003 ch. 2 note 1: <U+00C1> and <U+0041, U+0301> are not identical."""
    a, b = "10.26321/\u00c1", "10.26321/A\u0301"
    assert not d.equivalent(a, b)
    assert d.explain_equivalence(a, b).verdict == "normalization"


def test_003_ch3_basic_latin_case_only() -> None:
    """003 ch. 3 note: case-insensitive only with respect to the Basic Latin block."""
    assert d.equivalent("doi:10.5594/smpte.st2067-21.2020", "doi:10.5594/SMPTE.ST2067-21.2020")
    assert not d.equivalent("10.1000/\u212a", "10.1000/k")  # KELVIN SIGN


def test_003_ch4_api_url() -> None:
    """003 ch. 4: https://doi.org/api/handles/ + scheme-specific part; Figure 1's request."""
    assert d.to_handles_api_url("10.1000/182") == "https://doi.org/api/handles/10.1000/182"
    assert (d.to_handles_api_url("10.6338/JDA.202212/SP_17(4).0000")
            == "https://doi.org/api/handles/10.6338/JDA.202212%2FSP_17(4).0000")


@pytest.mark.parametrize(
    "form",
    [
        "DOI:dk/P%C3%A6dagogi%2037(2),%20562",
        "doi:DK/P%C3%A6dagogi%2037(2),%20562",
        "doi:dk/P%c3%a6dagogi%2037(2),%20562",
        "doi:dk/p%c3%a6dagogi%2037(2),%20562",
        "doi:dk%2FP%C3%A6dagogi%2037%282%29%2C%20562",
    ],
)
def test_004_five_forms(form: str) -> None:
    """004: all five forms normalize to the same canonical form."""
    assert d.canonical_uri_2003(form) == "doi:DK/P%C3%A6DAGOGI%2037(2),%20562"


def test_002_appendix_e_utf8() -> None:
    """002 appendix E: 日本語 is 65E5 672C 8A9E, in UTF-8 E6 97 A5 E6 9C AC E8 AA 9E."""
    name = "10.1000/\u65e5\u672c\u8a9e"
    assert d.to_uri(name) == "doi:10.1000/%E6%97%A5%E6%9C%AC%E8%AA%9E"
    assert d.to_url(name) == "https://doi.org/10.1000/%E6%97%A5%E6%9C%AC%E8%AA%9E"
    assert str(d.parse("10.1000/%E6%97%A5%E6%9C%AC%E8%AA%9E")) == name


def test_002_tables_recommended_set() -> None:
    """002 tables 1-2 (with the README's repair: ` is %60, | is %7C) and 000's lists."""
    for ch, enc in [("%", "%25"), ('"', "%22"), ("#", "%23"), (" ", "%20"), ("?", "%3F"),
                    ("<", "%3C"), (">", "%3E"), ("{", "%7B"), ("}", "%7D"), ("^", "%5E"),
                    ("[", "%5B"), ("]", "%5D"), ("`", "%60"), ("|", "%7C"), ("\\", "%5C"),
                    ("+", "%2B")]:
        assert d.to_url(f"10.1000/a{ch}b".replace("%", "%25")) == f"https://doi.org/10.1000/a{enc}b"


def test_000_comma_only_in_which_ra() -> None:
    assert d.to_url("10.1000/a,b") == "https://doi.org/10.1000/a,b"
    assert d.to_which_ra_url(["10.1000/a,b", "10.1000/182"]) == (
        "https://doi.org/ra/10.1000/a%2Cb,10.1000/182")


def test_000_ezproxy_links_as_written_in_the_spec() -> None:
    """000 and 001 show doi.org through a library's EZproxy (specs README)."""
    assert str(d.parse("https://doi-org.lama.univ-amu.fr/10.1000/456%23789")) == "10.1000/456#789"
    assert str(d.parse("https://doi-org.lama.univ-amu.fr/urn:doi:10.123:456ABC%2Fzyz")) == (
        "10.123/456ABC/zyz")


def test_001_percent_always_starts_an_escape() -> None:
    assert str(d.parse("10.1000/100%25")) == "10.1000/100%"
    with pytest.raises(d.DoiError) as e:
        d.parse("10.1000/100%")
    assert e.value.code == "bad-percent" and e.value.position == 11


def test_002_section_4_two_digit_and_dotted_prefixes() -> None:
    assert d.parse("10.21/2V9FYC24").registrant == "21"
    assert d.parse("10.1000.10/x").registrant == "1000.10"


def test_004_other_prefixes_without_doi_scheme() -> None:
    """004: the draft is not limited to 10. prefixes; a bare ``dk/...`` is read as a URI's
    scheme-specific part. A URI without a prefix, slash and suffix is refused."""
    assert d.canonical_uri_2003("dk/P%C3%A6dagogi%2037(2),%20562") == (
        "doi:DK/P%C3%A6DAGOGI%2037(2),%20562")
    for bad, code in [("doi:abc", "no-slash"), ("doi:/x", "bad-prefix"),
                      ("doi:10.1/", "empty-suffix"), ("doi:10.1/%2", "bad-percent")]:
        with pytest.raises(d.DoiError) as e:
            d.canonical_uri_2003(bad)
        assert e.value.code == code
