"""State in the URL fragment: ``#doi=...`` and ``#a=...&b=...``, back and forward."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, expect

import doiname as d

from .site_page import open_page, page_address, shown_name

pytestmark = pytest.mark.e2e

AWKWARD = "10.1000/a#b&c=d+e %25 \u00e9\U0001d400?x"


def _fragment(page: Page) -> dict[str, list[str]]:
    return parse_qs(urlsplit(page.url).fragment, keep_blank_values=True)


def test_fragment_fills_the_inputs(page: Page, site_url: str) -> None:
    open_page(page, site_url, doi=AWKWARD, a="10.1000/ABC", b="10.1000/abc")
    expect(page.locator("#doi-input")).to_have_value(AWKWARD)
    expect(page.locator("#result-name")).to_have_text(shown_name(AWKWARD))
    expect(page.locator("#eq-a")).to_have_value("10.1000/ABC")
    expect(page.locator("#eq-b")).to_have_value("10.1000/abc")
    expect(page.locator("#eq-verdict")).to_have_attribute(
        "data-verdict", d.explain_equivalence("10.1000/ABC", "10.1000/abc").verdict)


def test_typing_writes_the_fragment_and_it_round_trips(page: Page, site_url: str) -> None:
    open_page(page, site_url)
    page.fill("#doi-input", AWKWARD)
    page.fill("#eq-a", "10.1000/x")
    page.fill("#eq-b", "10.1000/X")
    expect(page.locator("#result-name")).to_have_text(shown_name(AWKWARD))
    # While typing, the address follows within a moment (written at most every 250 ms).
    page.wait_for_function(
        "() => new URLSearchParams(location.hash.slice(1)).get('b') === '10.1000/X'")
    frag = _fragment(page)
    assert frag["doi"] == [AWKWARD]
    assert frag["a"] == ["10.1000/x"]
    assert frag["b"] == ["10.1000/X"]
    # The shared link opens the same state in a fresh page.
    url = page.url
    other = page.context.new_page()
    other.goto(url)
    expect(other.locator("#doi-input")).to_have_value(AWKWARD)
    expect(other.locator("#result-name")).to_have_text(shown_name(AWKWARD), timeout=60_000)
    expect(other.locator("#eq-b")).to_have_value("10.1000/X")
    other.close()


def test_typing_does_not_flood_history(page: Page, site_url: str) -> None:
    open_page(page, site_url)
    before = page.evaluate("() => history.length")
    page.locator("#doi-input").click()
    page.keyboard.type("10.1000/abcdef")
    expect(page.locator("#result-name")).to_have_text("10.1000/abcdef")
    assert page.evaluate("() => history.length") <= before + 1


def test_back_and_forward_restore_state(page: Page, site_url: str) -> None:
    open_page(page, site_url, doi="10.1000/first")
    expect(page.locator("#result-name")).to_have_text("10.1000/first")
    box = page.locator("#doi-input")
    box.fill("10.1000/second")
    box.press("Enter")
    expect(page.locator("#result-name")).to_have_text("10.1000/second")
    box.fill("10.1000/third")
    box.press("Enter")
    expect(page.locator("#result-name")).to_have_text("10.1000/third")
    page.go_back()
    expect(box).to_have_value("10.1000/second")
    expect(page.locator("#result-name")).to_have_text("10.1000/second")
    page.go_back()
    expect(box).to_have_value("10.1000/first")
    expect(page.locator("#result-name")).to_have_text("10.1000/first")
    page.go_forward()
    expect(box).to_have_value("10.1000/second")
    expect(page.locator("#result-name")).to_have_text("10.1000/second")


def test_back_restores_the_equivalence_panel(page: Page, site_url: str) -> None:
    open_page(page, site_url, a="10.1000/a", b="10.1000/A")
    expect(page.locator("#eq-verdict")).to_have_attribute("data-verdict", "basic-latin-case")
    page.fill("#eq-b", "10.1000/b")
    page.locator("#eq-b").press("Enter")
    expect(page.locator("#eq-verdict")).to_have_attribute("data-verdict", "different")
    page.go_back()
    expect(page.locator("#eq-b")).to_have_value("10.1000/A")
    expect(page.locator("#eq-verdict")).to_have_attribute("data-verdict", "basic-latin-case")


def test_editing_the_address_bar_fragment_updates_the_page(page: Page, site_url: str) -> None:
    open_page(page, site_url, doi="10.1000/one")
    page.goto(page_address(site_url, doi="10.1000/two"))  # only the fragment changes
    expect(page.locator("#doi-input")).to_have_value("10.1000/two")
    expect(page.locator("#result-name")).to_have_text("10.1000/two")


def test_paste_is_its_own_history_entry(page: Page, site_url: str) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_page(page, site_url)
    box = page.locator("#doi-input")
    box.click()
    page.keyboard.type("10.1000/typed")
    expect(page.locator("#result-name")).to_have_text("10.1000/typed")
    pasted = "https://doi.org/10.1000/456%23789"
    page.evaluate("(t) => navigator.clipboard.writeText(t)", pasted)
    box.press("ControlOrMeta+a")
    box.press("ControlOrMeta+v")
    expect(box).to_have_value(pasted)
    expect(page.locator("#result-name")).to_have_text(str(d.parse(pasted)))
    assert _fragment(page)["doi"] == [pasted]
    page.go_back()
    expect(box).to_have_value("10.1000/typed")
    expect(page.locator("#result-name")).to_have_text("10.1000/typed")
    page.go_forward()
    expect(box).to_have_value(pasted)
