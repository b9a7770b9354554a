"""Hypothesis properties: round trips through every presentation, ASCII
outputs, equivalence is an equivalence relation, parse never raises anything else."""

from __future__ import annotations

import contextlib

from hypothesis import given
from hypothesis import strategies as st

import doiname as d

from .strategies import dois


@given(dois())
def test_round_trips(doi: d.Doi) -> None:
    for level in ("mandatory", "recommended", "strict"):
        url = d.to_url(doi, level=level)
        assert url.isascii()
        assert d.parse(url) == doi, (level, url)
    for out in (d.to_urn_url(doi), d.to_uri(doi), d.to_handles_api_url(doi)):
        assert out.isascii()
        assert d.parse(out) == doi, out
    assert d.parse(d.to_url(doi, resolver="https://doi-org.ezproxy.example.edu/")) == doi
    for proxy in ("https://login.ezproxy.example.edu/login?url=",
                  "https://login.ezproxy.example.edu/login?qurl="):
        assert d.parse(d.to_proxy_url(doi, proxy)) == doi


@given(dois())
def test_all_forms_are_equivalent(doi: d.Doi) -> None:
    forms = [d.to_url(doi, level=lv) for lv in ("mandatory", "recommended", "strict")]
    forms += [d.to_urn_url(doi), d.to_uri(doi), d.to_handles_api_url(doi),
              d.canonical_uri_2003(doi).replace("doi:", "doi:", 1)]
    key = d.equivalence_key(doi)
    for f in forms[:-1]:
        assert d.equivalence_key(f) == key, f
        assert d.equivalent(f, doi)
    # The 2003 canonical form uppercases Basic Latin only: still the same name under 003 ch. 3.
    assert d.equivalent(forms[-1], doi)


def _swapcase_ascii(s: str) -> str:
    return "".join(c.swapcase() if c.isascii() and c.isalpha() else c for c in s)


@given(dois(), st.booleans(), st.booleans())
def test_equivalence_is_an_equivalence_relation(doi: d.Doi, up: bool, low: bool) -> None:
    a = doi
    b = d.Doi(doi.prefix, _swapcase_ascii(doi.suffix) if up else doi.suffix)
    c = d.Doi(doi.prefix, doi.suffix.upper() if low and doi.suffix.isascii() else doi.suffix)
    assert d.equivalent(a, a)
    assert d.equivalent(a, b) == d.equivalent(b, a)
    if d.equivalent(a, b) and d.equivalent(b, c):
        assert d.equivalent(a, c)
    assert d.equivalent(a, b)  # only Basic Latin case was changed
    assert d.explain_equivalence(a, b).equivalent


@given(dois(), dois())
def test_equivalent_agrees_with_explanation(a: d.Doi, b: d.Doi) -> None:
    e = d.explain_equivalence(a, b)
    assert e.equivalent == d.equivalent(a, b)
    assert e.verdict in ("identical", "basic-latin-case", "normalization", "non-basic-latin-case",
                         "different")


@given(st.text(max_size=60))
def test_parse_returns_doi_or_raises_doierror(text: str) -> None:
    try:
        r = d.parse(text)
    except d.DoiError as e:
        assert e.code and e.message
        if e.position is not None:
            assert 0 <= e.position <= len(text)
    else:
        assert isinstance(r, d.Doi)


@given(st.text(alphabet=st.sampled_from(list("10./%:#?doiurnhtps")), max_size=40))
def test_parse_on_dense_syntax_noise(text: str) -> None:
    with contextlib.suppress(d.DoiError):
        d.parse(text)


@given(dois(), st.sampled_from(["mandatory", "recommended", "strict"]))
def test_explain_url_accounts_for_every_change(doi: d.Doi, level: str) -> None:
    name = str(doi)
    out = list(name)
    for ch in d.explain_url(doi, level):
        assert name[ch.start:ch.end] == ch.char
        out[ch.start] = ch.encoded
    assert "https://doi.org/" + "".join(out) == d.to_url(doi, level=level)


@given(dois())
def test_canonical_2003_is_idempotent_and_ascii(doi: d.Doi) -> None:
    c = d.canonical_uri_2003(d.to_uri(doi))
    assert c.isascii() and c.startswith("doi:")
    assert d.canonical_uri_2003(c) == c
