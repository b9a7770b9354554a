"""Presentation functions on the hard cases: every level, links, API, Which RA, proxies."""

from __future__ import annotations

import pytest

import doiname as d
from doiname import forms

from .strategies import SICI


@pytest.mark.parametrize(
    ("name", "mandatory", "recommended", "strict"),
    [
        ("10.1000/182", "10.1000/182", "10.1000/182", "10.1000/182"),
        ("10.1000/456#789", "10.1000/456%23789", "10.1000/456%23789", "10.1000/456%23789"),
        ("10.1000/a b?c%d\"e", "10.1000/a%20b%3Fc%25d%22e", "10.1000/a%20b%3Fc%25d%22e",
         "10.1000/a%20b%3Fc%25d%22e"),
        ("10.1000/a+b^c[d]", "10.1000/a+b%5Ec[d]", "10.1000/a%2Bb%5Ec%5Bd%5D",
         "10.1000/a+b%5Ec%5Bd%5D"),
        ("10.1000/a\\b", "10.1000/a%5Cb", "10.1000/a%5Cb", "10.1000/a%5Cb"),
        ("10.1000/x/y,z", "10.1000/x/y,z", "10.1000/x/y,z", "10.1000/x%2Fy%2Cz"),
        ("10.1000/./x", "10.1000/.%2Fx", "10.1000/.%2Fx", "10.1000/.%2Fx"),
        ("10.1000/.", "10.1000%2F.", "10.1000%2F.", "10.1000%2F."),
        ("10.1000/..", "10.1000%2F..", "10.1000%2F..", "10.1000%2F.."),
        ("10.1000/a/.", "10.1000/a%2F.", "10.1000/a%2F.", "10.1000/a%2F."),
        ("10.1000/a/../b", "10.1000/a/..%2Fb", "10.1000/a/..%2Fb", "10.1000/a%2F..%2Fb"),
        ("10.1000/\u00e9\u2010", "10.1000/%C3%A9%E2%80%90", "10.1000/%C3%A9%E2%80%90",
         "10.1000/%C3%A9%E2%80%90"),
        ("10.1000/a\u00a0b", "10.1000/a%C2%A0b", "10.1000/a%C2%A0b", "10.1000/a%C2%A0b"),
        (SICI, "10.1002/(SICI)1097-4571(199806)49:8%3C693::AID-ASI4%3E3.0.CO;2-O",
         "10.1002/(SICI)1097-4571(199806)49:8%3C693::AID-ASI4%3E3.0.CO;2-O",
         "10.1002/(SICI)1097-4571(199806)49:8%3C693::AID-ASI4%3E3.0.CO;2-O"),
    ],
)
def test_levels(name: str, mandatory: str, recommended: str, strict: str) -> None:
    doi = d.Doi(*name.split("/", 1))
    assert d.to_url(doi, level="mandatory") == "https://doi.org/" + mandatory
    assert d.to_url(doi) == "https://doi.org/" + recommended
    assert d.to_url(doi, level="strict") == "https://doi.org/" + strict


_NAMES = ["10.1000/182", "10.1000/456#789", "10.1000/a b?c%d\"e", "10.1000/a+b^c[d]",
          "10.1000/x/y,z", "10.1000/./x", "10.1000/.", "10.1000/..", "10.1000/a/../b",
          "10.1000/\u00e9\u2010", "10.1000/a+#b", "10.1000/a/#b", "10.1000/#/.", SICI]


@pytest.mark.parametrize("name", _NAMES)
def test_the_default_resolver_is_its_own_normal_form(name: str) -> None:
    """The default resolver is used as it is (presentation._base): it is what
    _resolver makes of it, so a link through it is the link through the same address
    given as another string."""
    from doiname.presentation import DEFAULT_RESOLVER, _resolver

    assert _resolver(DEFAULT_RESOLVER) == DEFAULT_RESOLVER
    other = "https://doi.org"  # (not the same object: normalised by _resolver)
    doi = d.Doi(*name.split("/", 1))
    assert d.to_handles_api_url(doi) == d.to_handles_api_url(doi, resolver=other)
    assert d.to_url(doi) == d.to_url(doi, resolver=other)


@pytest.mark.parametrize("name", _NAMES)
def test_a_batch_rows_forms_are_the_public_functions(name: str) -> None:
    """batch.general.name_forms (one encoding shared) gives what the public functions
    give: the name, to_url, to_uri, to_handles_api_url and equivalence_key (003 ch. 2-4)."""
    from doiname.batch.general import name_forms
    from doiname.memo import forget_all

    doi = d.Doi(*name.split("/", 1))
    fresh = d.Doi(doi.prefix, doi.suffix)  # (nothing kept by an earlier call)
    forget_all()
    assert name_forms(doi) == (name, d.to_url(fresh), d.to_uri(fresh),
                                           d.to_handles_api_url(fresh), d.equivalence_key(fresh))


def test_resolver_and_level_errors() -> None:
    assert d.to_url("10.1000/182", resolver="https://dx.doi.org") == "https://dx.doi.org/10.1000/182"
    with pytest.raises(d.DoiError) as e:
        d.to_url("10.1000/182", level="loose")
    assert e.value.code == "bad-level"
    with pytest.raises(d.DoiError) as e:
        d.to_url("10.1000/182", resolver="javascript:alert(1)//")
    assert e.value.code == "bad-resolver"


def test_urn_api_which_ra() -> None:
    assert d.to_urn_url("10.1000/a/b#c") == "https://doi.org/urn:doi:10.1000:a%2Fb%23c"
    assert d.to_handles_api_url("10.1000/182", types=("URL", "10320/loc"), index=(1, 100)) == (
        "https://doi.org/api/handles/10.1000/182?type=URL&type=10320/loc&index=1&index=100")
    assert d.to_handles_api_url("10.1000/.") == "https://doi.org/api/handles/10.1000%2F."
    assert d.to_handles_api_url("10.1000/a&b=c") == "https://doi.org/api/handles/10.1000/a&b=c"
    assert d.to_which_ra_url("10.1000/182") == "https://doi.org/ra/10.1000/182"
    with pytest.raises(d.DoiError):
        d.to_which_ra_url([])
    assert d.short_doi_api_url("10/abcde") == "https://doi.org/api/handles/10/abcde?type=HS_ALIAS"
    assert d.short_doi_api_url("https://doi.org/abcde") == (
        "https://doi.org/api/handles/10/abcde?type=HS_ALIAS")
    # after every head of a doi.org link (the scanner's R17 reads dx.doi.org's too)
    for head in (*forms.DOI_LINK_STARTS, "doi:", "DOI:"):
        assert d.short_doi_api_url(head + "10/abcde") == (
            "https://doi.org/api/handles/10/abcde?type=HS_ALIAS")


def test_links_are_escaped_for_their_format() -> None:
    assert d.to_html_link("10.1000/182") == (
        '<a href="https://doi.org/10.1000/182">10.1000/182</a>')
    assert d.to_html_link("10.1000/x'&\"<") == (
        '<a href="https://doi.org/10.1000/x&#x27;&amp;%22%3C">10.1000/x\'&amp;"&lt;</a>')
    assert d.to_markdown_link("10.1000/182") == "[10.1000/182](https://doi.org/10.1000/182)"
    assert d.to_markdown_link("10.1000/a_b*[c]") == (
        "[10.1000/a\\_b\\*\\[c\\]](https://doi.org/10.1000/a_b*%5Bc%5D)")
    assert d.to_markdown_link("10.1000/a)b") == "[10.1000/a)b](https://doi.org/10.1000/a\\)b)"


def test_proxy_urls() -> None:
    assert d.to_proxy_url("10.1000/456#789", "https://login.ezproxy.example.edu/login?url=") == (
        "https://login.ezproxy.example.edu/login?url=https://doi.org/10.1000/456%23789")
    assert d.to_proxy_url("10.1000/456#789", "https://login.ezproxy.example.edu/login?qurl=") == (
        "https://login.ezproxy.example.edu/login?qurl=https%3A%2F%2Fdoi.org%2F10.1000%2F456%2523789")
    with pytest.raises(d.DoiError):
        d.to_proxy_url("10.1000/182", "https://login.ezproxy.example.edu/login")


def test_explain_url_sources() -> None:
    # A Doi value is taken as it is (no validation), so a control character can be shown.
    by_char = {c.char: c for c in d.explain_url(d.Doi("10.1000", "a#b<c\u00e9\x01"), "mandatory")}
    assert by_char["#"].source == "000 mandatory"
    assert by_char["<"].source.startswith("browser URL parser")
    assert by_char["\u00e9"].source.startswith("003")
    assert by_char["\x01"].source == "001 control"
    assert d.explain_url("10.1000/a<b")[0].source == "000 recommended"
    assert d.explain_url("10.1000/182") == []


def test_explain_equivalence_verdicts() -> None:
    e = d.explain_equivalence("10.1/abc", "10.1/abd")
    assert (e.verdict, e.equivalent, e.position) == ("different", False, 7)
    assert "U+0063" in e.message and "U+0064" in e.message
    # U+212A KELVIN SIGN is canonically equivalent to K: NFC turns it into U+004B.
    kelvin = d.explain_equivalence("10.1/\u212a", "10.1/k")
    assert (kelvin.verdict, kelvin.equivalent) == ("normalization", False)
    assert d.explain_equivalence("10.1/\u03a3", "10.1/\u03c3").verdict == "non-basic-latin-case"
    assert d.explain_equivalence("10.1/\u00c9", "10.1/\u00e9").verdict == "non-basic-latin-case"
    assert d.explain_equivalence("10.1/ab", "10.1/abc").verdict == "different"
    assert d.explain_equivalence("10.1/X", "doi:10.1/x").verdict == "basic-latin-case"
    assert d.explain_equivalence("10.1/x", "https://doi.org/10.1/x").verdict == "identical"
