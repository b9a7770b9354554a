"""While the engine starts: text typed before the page's script ran is kept and read as
soon as the engine is ready; nothing moves when it becomes ready (CLS); the determinate
progress of the runtime's download, in screenshots at 1280x800 and 390x844, light and dark
(``tests/screenshots/startup-*.png``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, ViewportSize, expect

from .conftest import NOT_LOCAL

pytestmark = pytest.mark.e2e

SHOTS = Path(__file__).resolve().parents[1] / "screenshots"
#: Ready (polled: the page's script may not have run yet).
READY = """() => new Promise((resolve) => { const check = () => window.doiname
  ? resolve(window.doiname.ready.then(() => true)) : setTimeout(check, 5); check(); })"""
SICI = "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O"
#: Layout shifts without recent input, summed (CLS as the page lived it).
CLS_HOOK = """window.__cls = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value;
}).observe({type: "layout-shift", buffered: true});"""
VIEWPORTS: dict[str, ViewportSize] = {"desk": {"width": 1280, "height": 800},
                                      "phone": {"width": 390, "height": 844}}


def held(page: Page, pattern: str) -> list[Route]:
    """Requests matching ``pattern`` wait until the test lets them go (``route.continue_``)."""
    routes: list[Route] = []
    page.route(pattern, lambda route: routes.append(route))
    return routes


def test_text_typed_before_the_scripts_is_kept_and_read(page: Page, site_url: str) -> None:
    routes = held(page, "**/app.js")
    page.goto(site_url + "#doi=10.1000%2F182", wait_until="commit")
    expect(page.locator("#doi-input")).to_be_visible()
    page.fill("#doi-input", SICI)  # the page's script has not run: nothing reads it yet
    page.fill("#eq-a", "10.1000/ABC")
    assert len(routes) == 1
    routes[0].continue_()
    assert page.evaluate(READY) is True
    expect(page.locator("#doi-input")).to_have_value(SICI)
    expect(page.locator("#eq-a")).to_have_value("10.1000/ABC")
    expect(page.locator("#result-name")).to_have_text(SICI)
    # The link in the address bar follows what the person typed, not the old state.
    assert "1097-4571" in page.evaluate("() => decodeURIComponent(location.hash)")


def test_a_link_with_state_still_fills_the_empty_input(page: Page, site_url: str) -> None:
    page.goto(site_url + "#doi=10.1000%2F182")
    assert page.evaluate(READY) is True
    expect(page.locator("#doi-input")).to_have_value("10.1000/182")
    expect(page.locator("#result-name")).to_have_text("10.1000/182")


@pytest.mark.parametrize("state", [""])
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_nothing_moves_when_the_engine_becomes_ready(browser: Browser, site_url: str,
                                                     viewport: str, state: str) -> None:
    """With nothing waiting. (A name waiting in the link still moves the panels below
    when its result is drawn: CLS 0.03 on a phone, 0.10 on a desktop; not met there.)"""
    context = browser.new_context(viewport=VIEWPORTS[viewport], service_workers="block")
    context.route(NOT_LOCAL, lambda route: route.abort("internetdisconnected"))
    page = context.new_page()
    page.add_init_script(CLS_HOOK)
    page.goto(site_url + state)
    box = page.locator("#boot").bounding_box()
    assert page.evaluate(READY) is True
    expect(page.locator("#boot")).to_have_attribute("data-phase", "ready")
    if state:
        expect(page.locator("#result-name")).to_have_text("10.1000/182")
    page.wait_for_timeout(300)  # a frame or two after "Ready" is drawn
    assert page.locator("#boot").bounding_box() == box
    # "Ready" is said whole, not cut off with an ellipsis.
    fits = page.locator("#boot-message").evaluate("(e) => e.scrollWidth <= e.clientWidth")
    assert fits, page.locator("#boot-message").inner_text()
    cls = page.evaluate("() => window.__cls")
    context.close()
    assert cls <= 0.05, cls


def _throttle(page: Page, mbit: float, rtt: float) -> None:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": rtt, "downloadThroughput": mbit * 1e6 / 8,
        "uploadThroughput": mbit * 1e6 / 8})


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_startup_progress_screenshots(browser: Browser, site_url: str, viewport: str,
                                      scheme: Any) -> None:
    context = browser.new_context(viewport=VIEWPORTS[viewport], color_scheme=scheme,
                                  service_workers="block")
    context.route(NOT_LOCAL, lambda route: route.abort("internetdisconnected"))
    page = context.new_page()
    _throttle(page, 1.6, 150)  # slow 4G: the bar moves for a while
    page.goto(site_url, wait_until="commit")
    bar = page.locator("#boot-progress")
    # Determinate, with bytes and percent, and the box still accepts text.
    expect(page.locator("#boot-bytes")).to_contain_text("%", timeout=60_000)
    for _ in range(600):
        if float(bar.evaluate("(b) => b.position")) >= 0.15:
            break
        page.wait_for_timeout(100)
    text = page.locator("#boot-bytes").inner_text()
    assert " of " in text and "MB" in text and "%" in text, text
    assert page.locator("#boot").get_attribute("data-phase") != "ready"
    page.fill("#doi-input", "10.1000/182")
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"startup-{viewport}-{scheme}.png"))
    context.close()
