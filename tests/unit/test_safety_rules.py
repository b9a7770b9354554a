"""The rules for what leaves the core: CSV cells never formulas, proxy links that
cannot gain a parameter, resolvers that are a scheme, a host, a port and a path only."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

import doiname as d
from doiname.batch import safe_cell


@pytest.mark.parametrize("cell", [
    "=1+1", "+1", "-1", "@SUM(A1)", " =1+1", "\t=1+1", "  \t @x", "\u00a0=x", "\u3000=x",
    "\uff1dHYPERLINK(\"x\")", "\uff0b1", "\uff0d1", "\uff20x", "\tplain", "\rplain",
    "\n=1",
])
def test_formula_cells_are_neutralised(cell: str) -> None:
    assert safe_cell(cell) == "'" + cell
    assert safe_cell(cell, spreadsheet_safe=False) == cell


@pytest.mark.parametrize("cell", ["10.1000/182", "plain text", " x=1", "a=b", "", "'quoted"])
def test_other_cells_are_kept(cell: str) -> None:
    assert safe_cell(cell) == cell


def test_a_proxy_url_link_cannot_gain_a_parameter() -> None:
    name = "10.1000/a&url=https://evil.example/x+y"
    link = d.to_proxy_url(name, "https://login.proxy.example.edu/login?url=")
    assert "&" not in link.split("url=", 1)[1] and "+" not in link
    query = parse_qs(urlsplit(link).query)
    assert list(query) == ["url"] and len(query["url"]) == 1
    # doi.org reads %26 and %2B as the same characters: the name is unchanged
    assert d.parse(link.split("url=", 1)[1]) == d.parse(name)
    qurl = d.to_proxy_url(name, "https://login.proxy.example.edu/login?qurl=")
    assert list(parse_qs(urlsplit(qurl).query)) == ["qurl"]
    with pytest.raises(d.DoiError, match="fragment"):
        d.to_proxy_url("10.1000/182", "https://proxy.example.edu/#x?url=")


@pytest.mark.parametrize(("resolver", "words"), [
    ("https://doi.org@evil.example/", "user information"),
    ("https://user:pw@doi.org/", "user information"),
    ("https://doi.org/?x=", "query"),
    ("https://doi.org/#", "fragment"),
    ("https://doi.org/x#y", "fragment"),
    ("ftp://doi.org/", "http"),
    ("https:///path", "host"),
    ("https://doi.org:99999/", "host"),
    ("https://doi org/", "not allowed"),
])
def test_bad_resolvers_are_refused_with_the_reason(resolver: str, words: str) -> None:
    with pytest.raises(d.DoiError, match=words) as info:
        d.to_url("10.1000/182", resolver=resolver)
    assert info.value.code == "bad-resolver"


@pytest.mark.parametrize("resolver", [
    "https://doi.org/", "https://doi.org", "http://dx.doi.org/", "https://hdl.handle.net/",
    "https://resolver.example.edu:8443/doi/", "https://[::1]:8080/", "http://127.0.0.1/",
])
def test_good_resolvers_are_kept(resolver: str) -> None:
    url = d.to_url("10.1000/182", resolver=resolver)
    assert url.startswith(resolver.rstrip("/") + "/") and url.endswith("10.1000/182")


@pytest.mark.parametrize(("proxy", "words"), [
    ("https://doi.org@evil.example/login?url=", "user information"),
    ("https://user:pw@proxy.example.edu/login?url=", "user information"),
    ('https://proxy.example.edu/login?x="<b>&url=', "not allowed"),
    ("https://proxy.example.edu/lo<gin?url=", "not allowed"),
    ("https://proxy.example.edu/login?x=`&url=", "not allowed"),
    ("https:///login?url=", "host"),
    ("https://proxy.example.edu:99999/login?url=", "host"),
])
def test_a_proxy_prefix_passes_the_resolver_checks(proxy: str, words: str) -> None:
    """A proxy prefix is where the link goes: user information sends it to another host
    (``https://doi.org@evil.example/``), quotes and angle brackets are not URL characters."""
    with pytest.raises(d.DoiError, match=words) as caught:
        d.to_proxy_url("10.1000/182", proxy)
    assert caught.value.code == "bad-proxy"
