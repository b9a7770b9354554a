"""Verdicts in words, safe copies and shortDOIs, on the page and in the widget, at
1280x800 and 390x844, light and dark:

* a final period: the card says what was left out and offers the other reading in words
  ("Most likely" / "If the “.” belongs to the name"), above the fold; no reading is called
  OK or WARNING; no doubled period; separate names are "3 DOI names"; Batch gives the
  same verdict (an OK row, the card's words, the literal reading kept);
* an en dash: the repaired link is offered beside Copy, each button says what it copies,
  and each copies exactly that;
* the four written forms of a shortDOI are shortDOIs, expanded through doi.org in one
  click, in Inspect, Batch (their own status) and the widget;
* layout shift at most 0.05 and axe clean in each state; screenshots in tests/screenshots.

Every expected word comes from the core on the host (``doiname.inspect``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import pytest
from playwright.sync_api import Browser, Page, expect

from doiname.batch import BatchJob

from .conftest import NOT_LOCAL, DoiRoutes
from .site_page import open_page, reading
from .test_axe_and_hostile import axe_violations
from .test_page_librarian import CLS_OBSERVER
from .test_widget import HostPages, page_html

pytestmark = pytest.mark.e2e

SHOTS = Path(__file__).resolve().parents[1] / "screenshots"
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
PERIOD = "doi: 10.1016/S0140-6736(20)30183-5."
DASH = "10.1000/a\u2013b"
SHORT_FORMS = ("https://doi.org/abcde", "doi.org/abcde", "10/abcde", "doi:10/abcde")


@pytest.fixture(scope="module")
def host() -> Iterator[HostPages]:
    pages = HostPages()
    yield pages
    pages.server.shutdown()


@contextlib.contextmanager
def sized_page(browser: Browser, size: str, scheme: Literal["light", "dark"]
               ) -> Iterator[tuple[Page, DoiRoutes]]:
    """A page of ``size`` in ``scheme`` (clipboard allowed, layout shifts recorded in
    ``window.__shifts``, doi.org routed to the fixtures); its context closed after."""
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height},
                                  color_scheme=scheme, device_scale_factor=1,
                                  service_workers="block")
    context.route(NOT_LOCAL, lambda route: route.abort("internetdisconnected"))
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.add_init_script(CLS_OBSERVER.replace("() => {", "(() => {", 1) + ")()")
    routes = DoiRoutes()
    page.route("https://doi.org/**", routes.handle)
    try:
        yield page, routes
    finally:
        routes.release()
        context.close()


def put(page: Page, selector: str, text: str) -> None:
    """Replace a field's text as a person does, with keys (so the browser knows the layout
    changes that follow are answers to the person: a paste with Ctrl+V, or Delete)."""
    page.locator(selector).focus()
    page.keyboard.press("Control+A")
    if text:
        page.evaluate("(t) => navigator.clipboard.writeText(t)", text)
        page.keyboard.press("Control+V")
    else:
        page.keyboard.press("Delete")


def layout_shift(page: Page) -> float:
    page.wait_for_timeout(300)
    value: float = page.evaluate("() => window.__shifts.reduce((a, b) => a + b, 0)")
    return value


def on_screen(page: Page, selector: str) -> None:
    height = page.viewport_size["height"] if page.viewport_size else 0
    box = page.locator(selector).bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, selector


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_a_final_period_in_words(browser: Browser, site_url: str, size: str,
                                 scheme: Literal["light", "dark"]) -> None:
    with sized_page(browser, size, scheme) as (page, _routes):
        open_page(page, site_url)
        put(page, "#doi-input", PERIOD)
        found = reading(PERIOD)
        assert found.headline is not None and found.selected == 0
        expect(page.locator("#result-name")).to_have_text("10.1016/S0140-6736(20)30183-5")
        expect(page.locator("#task-reading .reading-said")).to_have_text(found.headline.said)
        expect(page.locator("#task-reading .other-reading")).to_have_text(found.headline.label)
        for sel in ("#task-reading", "#copy-link", "#url-recommended"):
            on_screen(page, sel)
        expect(page.locator("#task-checks")).not_to_contain_text("warning")
        labels = page.locator("#candidates .reading-label")
        expect(labels).to_have_text([c.label for c in found.candidates])
        assert labels.all_text_contents() == ["Most likely", "If the “.” belongs to the name"]
        expect(page.locator("#candidates .badge")).to_have_count(0)
        # what the card's line says is a note below, not a problem to check
        expect(page.locator(".findings-block h3")).to_have_count(0)
        expect(page.locator("[data-code=trailing-punctuation] .badge")).to_have_text("info")
        text = page.locator("#inspect-card").inner_text() + page.locator(
            "#inspect-results").inner_text()
        assert "5.." not in text and "OK" not in text.split() and "WARNING" not in text
        assert layout_shift(page) <= 0.05
        page.wait_for_timeout(800)  # the settled announcement
        assert axe_violations(page) == []
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"inspect-period-{size}-{scheme}.png"))
        # The other reading, one click away; and back.
        page.click("#task-reading .other-reading")
        expect(page.locator("#result-name")).to_have_text("10.1016/S0140-6736(20)30183-5.")
        expect(page.locator("#task-reading .other-reading")).to_contain_text("Most likely")
        assert "5.." not in page.locator("#inspect-summary").inner_text()
        # Separate names are names, not readings.
        names = "10.1000/a, 10.1000/b, 10.1000/c"
        put(page, "#doi-input", names)
        several = reading(names)
        assert several.headline is not None
        expect(page.locator("#task-reading")).to_have_text(several.headline.said)
        expect(page.locator("#candidates .reading-label")).to_have_text(
            ["DOI name 1 of 3", "DOI name 2 of 3", "DOI name 3 of 3"])
        expect(page.locator("#inspect-card")).not_to_contain_text("other reading")
        assert axe_violations(page) == []
        # Batch gives Inspect's verdict: an OK row whose note says what the card's line
        # says, the literal reading kept as the other reading
        page.fill("#batch-input", PERIOD)
        page.click("#batch-run")
        expect(page.locator("#batch-status")).to_contain_text("Done:", timeout=60_000)
        row = page.locator("#batch-body tr[data-row]")
        expect(row).to_have_count(1)
        expect(row).to_have_attribute("data-status", "ok")
        expect(row.locator(".col-findings")).to_contain_text(found.headline.said)
        row.click()
        expect(page.locator("#batch-detail")).to_contain_text("10.1016/S0140-6736(20)30183-5.")
        expect(page.locator("#batch-detail")).not_to_contain_text("Warning")
        assert layout_shift(page) <= 0.05
        assert axe_violations(page) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_copy_offers_the_repaired_link(browser: Browser, site_url: str, size: str,
                                       scheme: Literal["light", "dark"]) -> None:
    with sized_page(browser, size, scheme) as (page, _routes):
        open_page(page, site_url)
        put(page, "#doi-input", DASH)
        found = reading(DASH)
        assert found.offer is not None and found.forms is not None
        expect(page.locator("#copy-repaired")).to_have_text(found.offer.label)
        expect(page.locator("#copy-link")).to_have_text(found.offer.as_written)
        expect(page.locator("#task-offer code")).to_have_text(found.offer.url)
        for sel in ("#copy-link", "#copy-repaired"):
            on_screen(page, sel)
        assert layout_shift(page) <= 0.05
        page.wait_for_timeout(800)
        assert axe_violations(page) == []
        page.screenshot(path=str(SHOTS / f"inspect-repair-{size}-{scheme}.png"))
        page.click("#copy-repaired")
        assert page.evaluate("() => navigator.clipboard.readText()") == found.offer.url
        expect(page.locator("#copy-repaired")).to_have_text("Copied")
        page.click("#copy-link")
        assert page.evaluate("() => navigator.clipboard.readText()") == found.forms.url
        # Nothing was repaired silently: the input and the name are as typed.
        assert page.input_value("#doi-input") == DASH
        expect(page.locator("#result-name")).to_have_text(DASH)
        expect(page.locator("#copy-repaired")).to_have_text(found.offer.label, timeout=5000)
        # A name without a repair: one plain Copy link.
        put(page, "#doi-input", "10.1000/182")
        expect(page.locator("#copy-link")).to_have_text("Copy link")
        expect(page.locator("#copy-repaired")).to_be_hidden()
        # ... and it stays so once "Copied" would have gone back (the words of the name
        # copied before are not put back over this name's).
        page.wait_for_timeout(1800)
        expect(page.locator("#copy-link")).to_have_text("Copy link")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_short_dois_in_every_form(browser: Browser, site_url: str, size: str,
                                  scheme: Literal["light", "dark"]) -> None:
    with sized_page(browser, size, scheme) as (page, routes):
        open_page(page, site_url)
        for form in SHORT_FORMS:
            put(page, "#doi-input", "")
            expect(page.locator("#inspect-card")).to_have_attribute("data-state", "empty")
            put(page, "#doi-input", form)
            expect(page.locator("#inspect-card")).to_have_attribute("data-state", "short")
            expect(page.locator("#shortdoi-message")).to_have_text(reading(form).message)
            page.click("#expand-button")
            expect(page.locator("#expanded-name")).to_have_text("10.1000/182")
            on_screen(page, "#expanded-name")
        assert sum("/api/handles/10/abcde?type=HS_ALIAS" in u for u in routes.requests) == 4
        for not_short in ("10/2021", "1/2"):
            put(page, "#doi-input", not_short)
            expect(page.locator("#inspect-card")).not_to_have_attribute("data-state", "short")
        assert layout_shift(page) <= 0.05
        put(page, "#doi-input", "")
        expect(page.locator("#inspect-card")).to_have_attribute("data-state", "empty")
        put(page, "#doi-input", SHORT_FORMS[0])
        page.click("#expand-button")
        expect(page.locator("#expanded-name")).to_have_text("10.1000/182")
        page.wait_for_timeout(800)
        assert axe_violations(page) == []
        page.screenshot(path=str(SHOTS / f"inspect-shortdoi-{size}-{scheme}.png"))
        # Batch: each form a row of its own status; a date is not one.
        text = "\n".join([*SHORT_FORMS, "Seen 10/2021.", "10.1000/182"])
        page.fill("#batch-input", text)
        page.click("#batch-run")
        expect(page.locator("#batch-status")).to_contain_text("Done:", timeout=60_000)
        job = BatchJob(text)
        while not job.step(1_000_000, 60)["done"]:
            pass
        want = [r.status for r in job.rows]
        assert want[:4] == ["short-doi"] * 4 and "short-doi" not in want[4:]
        rows = page.locator("#batch-body tr[data-row]")
        expect(rows).to_have_count(len(want))
        got = [rows.nth(i).get_attribute("data-status") for i in range(len(want))]
        assert got == want
        assert axe_violations(page) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_widget_says_the_same(browser: Browser, site_url: str, host: HostPages,
                                  size: str, scheme: Literal["light", "dark"]) -> None:
    with sized_page(browser, size, scheme) as (page, _routes):
        page.goto(host.add("/verdicts.html", page_html(
            site_url, "<main><h1>Find a DOI</h1><doi-tool></doi-tool></main>")))
        tool = page.locator("doi-tool")
        tool.locator("textarea").fill(PERIOD)
        found = reading(PERIOD)
        assert found.headline is not None
        status = tool.locator("[role=status]")
        expect(status).to_have_text(found.headline.said, timeout=60_000)
        items = tool.locator("ol li")
        expect(items).to_have_text([f"{c.doi.name} ({c.label})" for c in found.candidates])
        assert "(ok)" not in tool.inner_text() and "(warning)" not in tool.inner_text()
        assert axe_violations(page) == []
        page.screenshot(path=str(SHOTS / f"widget-period-{size}-{scheme}.png"))
        for form in SHORT_FORMS:
            tool.locator("textarea").fill(form)
            expect(status).to_have_text(reading(form).message)
            button = tool.get_by_role("button", name="Expand")
            button.click()
            expect(tool.locator("a").first).to_have_attribute(
                "href", "https://doi.org/10.1000/182", timeout=20_000)
            expect(status).to_have_text("doi.org says 10/abcde stands for 10.1000/182.")
        assert layout_shift(page) <= 0.05
        assert axe_violations(page) == []
