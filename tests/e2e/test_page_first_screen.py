"""The first screen at 1280x800 and 390x844, light and dark: an empty Inspect takes its
card's own space, so it leaves no blank screen and Compare follows it (on the first screen
of a desktop); while the input holds text (typed, or a name waiting in the address)
Inspect keeps the first screen, so an answer drawn later than the browser counts it as
the edit's answer moves nothing a person sees; layout shift at most 0.05 and axe clean in
each state; screenshots in tests/screenshots."""

from __future__ import annotations

from typing import Literal

import pytest
from playwright.sync_api import Browser, Page, expect

from .site_page import open_page
from .test_axe_and_hostile import axe_violations
from .test_page_verdicts import SHOTS, SIZES, layout_shift, put, sized_page

pytestmark = pytest.mark.e2e

#: The blank under Inspect's last block: its panel's padding and no more (px).
BLANK = """() => {
  const panel = document.getElementById("inspect");
  let bottom = panel.getBoundingClientRect().top;
  for (const child of panel.children) {
    if (getComputedStyle(child).display === "none") continue;
    bottom = Math.max(bottom, child.getBoundingClientRect().bottom);
  }
  return panel.getBoundingClientRect().bottom - bottom;
}"""


def top(page: Page, selector: str) -> float:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["y"]


def blank_under_inspect(page: Page) -> float:
    value: float = page.evaluate(BLANK)
    return value


def settled_state(page: Page, size: str, scheme: str, state: str, *, first_screen: bool) -> None:
    """The state on screen: no blank under Inspect, Compare where it belongs, no layout
    shift, axe clean; a screenshot."""
    height = SIZES[size][1]
    assert layout_shift(page) <= 0.05, (state, page.evaluate("() => window.__shiftNodes"))
    assert axe_violations(page) == [], state
    if first_screen:
        assert blank_under_inspect(page) <= 24, state
        if size == "desktop":  # Compare's title and fields are on the first screen
            assert top(page, "#eq-a") + 40 <= height, state
    else:
        assert top(page, "#equivalence") >= height, state
    page.screenshot(path=str(SHOTS / f"first-screen-{state}-{size}-{scheme}.png"))


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_an_empty_card_leaves_no_blank_screen(browser: Browser, site_url: str, size: str,
                                              scheme: Literal["light", "dark"]) -> None:
    SHOTS.mkdir(exist_ok=True)
    with sized_page(browser, size, scheme) as (page, _routes):
        open_page(page, site_url)
        expect(page.locator("#inspect-card")).to_have_attribute("data-state", "empty")
        settled_state(page, size, scheme, "empty", first_screen=True)
        put(page, "#doi-input", "10.1000/182")
        expect(page.locator("#result-name")).to_have_text("10.1000/182")
        expect(page.locator("#inspect")).to_have_attribute("data-reserve", "")
        settled_state(page, size, scheme, "short", first_screen=False)
        put(page, "#doi-input", "")
        expect(page.locator("#inspect-card")).to_have_attribute("data-state", "empty")
        settled_state(page, size, scheme, "emptied", first_screen=True)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_a_name_in_the_address_keeps_the_first_screen_while_there_is_text(
        browser: Browser, site_url: str, size: str, scheme: Literal["light", "dark"]) -> None:
    SHOTS.mkdir(exist_ok=True)
    with sized_page(browser, size, scheme) as (page, _routes):
        open_page(page, site_url, doi="10.1000/182")
        expect(page.locator("#result-name")).to_have_text("10.1000/182")
        expect(page.locator("#inspect")).to_have_attribute("data-reserve", "")
        settled_state(page, size, scheme, "from-address", first_screen=False)
        put(page, "#doi-input", "10.1000/183")
        expect(page.locator("#result-name")).to_have_text("10.1000/183")
        expect(page.locator("#inspect")).to_have_attribute("data-reserve", "")
        settled_state(page, size, scheme, "edited", first_screen=False)
