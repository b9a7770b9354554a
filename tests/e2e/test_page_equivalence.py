"""The equivalence panel: the verdict and explanation of ``explain_equivalence``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

import doiname as d

from .site_page import open_page

pytestmark = pytest.mark.e2e

PAIRS = [
    ("10.1000/ABC", "10.1000/abc"),
    ("https://doi.org/10.1000/abc", "doi:10.1000/abc"),
    ("10.1000/\u00e9", "10.1000/e\u0301"),
    ("10.1000/\u00c9", "10.1000/\u00e9"),
    ("10.1000/abc", "10.1000/abd"),
    ("10.1000/abc", "10.1000/abcd"),
]


@pytest.fixture
def eq_page(booted_page: Page) -> Iterator[Page]:
    """The module's booted page (one boot for every pair); both names emptied after."""
    yield booted_page
    booted_page.fill("#eq-a", "")
    booted_page.fill("#eq-b", "")
    expect(booted_page.locator("#eq-verdict")).to_have_count(0)


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_verdict_and_explanation(eq_page: Page, a: str, b: str) -> None:
    ex = d.explain_equivalence(a, b)
    page = eq_page
    page.fill("#eq-a", a)
    page.fill("#eq-b", b)
    verdict = page.locator("#eq-verdict")
    expect(verdict).to_have_attribute("data-verdict", ex.verdict)
    expect(page.locator("#eq-message")).to_have_text(ex.message)
    # the plain explanation first, the rule it rests on as a small source line apart
    expect(verdict.locator(".finding-source")).to_have_text(f"Source: {ex.source}")
    expect(page.locator("#eq-name-a")).to_contain_text(ex.a[: ex.position or 0])
    if ex.position is not None:
        expect(page.locator("#eq-name-a mark, #eq-name-b mark")).to_have_count(2)


def test_unreadable_side_is_named(page: Page, site_url: str) -> None:
    with pytest.raises(d.DoiError) as info:
        d.parse("11.1000/x")
    open_page(page, site_url, a="10.1000/x", b="11.1000/x")
    verdict = page.locator("#eq-verdict")
    expect(verdict).to_have_attribute("data-verdict", "error")
    expect(verdict).to_contain_text("Second name")
    expect(verdict).to_contain_text(info.value.message)
    expect(verdict.locator(".finding-source")).to_have_text(f"Source: {info.value.source}")


def test_one_side_empty_asks_for_both(page: Page, site_url: str) -> None:
    open_page(page, site_url)
    page.fill("#eq-a", "10.1000/x")
    expect(page.locator("#eq-output")).to_contain_text("Give both names")
    expect(page.locator("#eq-verdict")).to_have_count(0)
