"""Screenshots of what a name identifies, written to ``tests/screenshots/`` (shown in the
README): Inspect with a retracted work's notice and card after Enter, and Batch after
Check all on a BibTeX list; at 1280x800 and 390x844, light and dark. Crossref routed to
the fixtures; each shot is taken once what it shows has settled, and checks it is on
screen."""

from __future__ import annotations

from typing import Literal

import pytest
from playwright.sync_api import Browser, expect

from .registry_routes import REGISTRY, route_registries
from .site_page import open_page
from .test_page_verdicts import SHOTS, SIZES, sized_page

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_registry_screenshots(browser: Browser, site_url: str, size: str,
                              scheme: Literal["light", "dark"]) -> None:
    height = SIZES[size][1]
    with sized_page(browser, size, scheme) as (page, routes):
        route_registries(page, routes)
        SHOTS.mkdir(exist_ok=True)
        open_page(page, site_url)
        page.fill("#doi-input", "https://doi.org/10.1080/13813455.2019.1651869")
        expect(page.locator("#result-name")).to_have_text("10.1080/13813455.2019.1651869")
        page.locator("#doi-input").press("Enter")
        expect(page.locator("#work-title")).to_be_visible()
        page.wait_for_timeout(800)
        box = page.locator("#work-notice").bounding_box()
        assert box is not None and box["y"] + box["height"] <= height
        page.screenshot(path=str(SHOTS / f"record-{size}-{scheme}.png"))
        page.fill("#batch-input", (REGISTRY / "check-all.bib").read_text(encoding="utf-8"))
        page.click("#batch-run")
        expect(page.locator("#batch-status")).to_contain_text("Done")
        page.click("#batch-check")
        expect(page.locator("#batch-status")).to_contain_text("Checked 3 names")
        page.locator('#batch-body tr[data-row="1"]').click()
        page.evaluate("() => document.getElementById('batch-summary').scrollIntoView()")
        page.wait_for_timeout(300)
        page.screenshot(path=str(SHOTS / f"check-{size}-{scheme}.png"))
