"""The first screen at 1280x800 and 390x844, light and dark: Inspect takes its card's own
space when empty and when a short card answers the person's keys in time, so it leaves no
blank screen and Compare follows it (on the first screen of a desktop); a name in the
address, and an answer later than the browser counts it as the edit's, are drawn in the
first screen, given back by the next answer in time; layout shift at most 0.05 and axe
clean in each state; screenshots in tests/screenshots."""

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


def answered_in_time(page: Page, text: str, name: str) -> None:
    """Put ``text`` into Inspect with keys until its answer comes in time, so Inspect takes
    its card's own space (a busy machine may answer one edit late: that one keeps the first
    screen, and the next in time gives it back). Fails if no answer of four does."""
    for _ in range(4):
        put(page, "#doi-input", text)
        expect(page.locator("#result-name")).to_have_text(name)
        if page.locator("#inspect").get_attribute("data-reserve") is None:
            return
    raise AssertionError("Inspect kept the first screen after four answers")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_an_empty_or_short_card_leaves_no_blank_screen(
        browser: Browser, site_url: str, size: str, scheme: Literal["light", "dark"]) -> None:
    SHOTS.mkdir(exist_ok=True)
    with sized_page(browser, size, scheme) as (page, _routes):
        open_page(page, site_url)
        expect(page.locator("#inspect-card")).to_have_attribute("data-state", "empty")
        settled_state(page, size, scheme, "empty", first_screen=True)
        answered_in_time(page, "10.1000/182", "10.1000/182")
        settled_state(page, size, scheme, "short", first_screen=True)
        put(page, "#doi-input", "")
        expect(page.locator("#inspect-card")).to_have_attribute("data-state", "empty")
        settled_state(page, size, scheme, "emptied", first_screen=True)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_a_name_in_the_address_keeps_the_first_screen_until_an_edit_answered_in_time(
        browser: Browser, site_url: str, size: str, scheme: Literal["light", "dark"]) -> None:
    SHOTS.mkdir(exist_ok=True)
    with sized_page(browser, size, scheme) as (page, _routes):
        open_page(page, site_url, doi="10.1000/182")
        expect(page.locator("#result-name")).to_have_text("10.1000/182")
        expect(page.locator("#inspect")).to_have_attribute("data-reserve", "")
        settled_state(page, size, scheme, "from-address", first_screen=False)
        answered_in_time(page, "10.1000/183", "10.1000/183")
        settled_state(page, size, scheme, "edited", first_screen=True)


def test_a_late_answer_is_drawn_in_the_first_screen_without_a_shift(
        browser: Browser, site_url: str) -> None:
    """An answer held back past the browser's 500 ms (the worker's reply delayed): Inspect
    is given the first screen while the edit still counts, the answer moves nothing, and
    the next answer in time gives the space back."""
    with sized_page(browser, "desktop", "light") as (page, _routes):
        open_page(page, site_url)
        expect(page.locator("#inspect-card")).to_have_attribute("data-state", "empty")
        page.evaluate("""() => {
          const post = Worker.prototype.postMessage;
          window.__hold = true;
          Worker.prototype.postMessage = function (...args) {
            if (window.__hold) setTimeout(() => post.apply(this, args), 1500);
            else post.apply(this, args);
          };
        }""")
        put(page, "#doi-input", "10.1000/182")
        expect(page.locator("#inspect")).to_have_attribute("data-reserve", "")
        expect(page.locator("#result-name")).to_have_text("10.1000/182")
        assert top(page, "#equivalence") >= SIZES["desktop"][1]
        assert layout_shift(page) <= 0.05, page.evaluate("() => window.__shiftNodes")
        page.evaluate("() => { window.__hold = false; }")
        answered_in_time(page, "10.1000/183", "10.1000/183")
        assert blank_under_inspect(page) <= 24
        assert layout_shift(page) <= 0.05, page.evaluate("() => window.__shiftNodes")
