"""Screenshots of the page as a librarian sees it, written to ``tests/screenshots/`` (shown
in the README): Inspect with a result (a pasted reference end, resolved), and Batch with
the results of a mixed BibTeX / RIS / APA list; at 1280x800 and 390x844, light and dark.
Each shot is taken after what it shows has settled, and checks it is on screen.
"""

from __future__ import annotations

from typing import Literal

import pytest
from playwright.sync_api import Browser, expect

from .site_page import open_page
from .test_page_librarian import mixed_list
from .test_page_verdicts import SHOTS, SIZES, sized_page

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_screenshots(browser: Browser, site_url: str, size: str,
                     scheme: Literal["light", "dark"]) -> None:
    height = SIZES[size][1]
    with sized_page(browser, size, scheme) as (page, _routes):
        SHOTS.mkdir(exist_ok=True)
        # Inspect: the end of a Vancouver reference, pasted; Enter resolves.
        open_page(page, site_url)
        page.fill("#doi-input", "doi: 10.1000/182.")
        expect(page.locator("#result-name")).to_have_text("10.1000/182")
        page.locator("#doi-input").press("Enter")
        expect(page.locator("#resolve-outcome")).to_have_attribute("data-outcome", "ok")
        page.wait_for_timeout(800)  # the settled announcement, the copy feedback
        for sel in ("#url-recommended", "#copy-link"):
            box = page.locator(sel).bounding_box()
            assert box is not None and box["y"] + box["height"] <= height, sel
        page.screenshot(path=str(SHOTS / f"inspect-{size}-{scheme}.png"))
        # Batch: a mixed list, one row per record.
        page.fill("#batch-input", mixed_list())
        page.click("#batch-run")
        expect(page.locator("#batch-status")).to_contain_text("Done:", timeout=60_000)
        page.locator("#batch-body tr[data-row]").nth(1).click()
        page.locator("#batch-summary").scroll_into_view_if_needed()
        page.evaluate("() => document.getElementById('batch-summary').scrollIntoView()")
        page.wait_for_timeout(300)
        page.screenshot(path=str(SHOTS / f"batch-{size}-{scheme}.png"))
