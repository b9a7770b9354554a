"""axe-core finds no accessibility violation in any state of the page or the widget
demo, and hostile input (names carrying HTML, ``javascript:``/``data:`` URLs, bidi overrides,
very long strings) is shown as text: nothing executes, nothing escapes its element.

Each test boots the engine once and walks through its states, to keep the suite fast.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

import doiname as d

from .conftest import DoiRoutes
from .site_page import open_page, reading

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """With the site's service worker (conftest blocks it elsewhere):
    axe runs on the page as visitors get it, its notices included."""
    return {**browser_context_args, "service_workers": "allow"}


RUN_AXE = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map(n => n.target.join(' '))}));
}"""


def axe_violations(page: Page) -> list[dict[str, Any]]:
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Evaluated by the test driver, not as a page script: a page's CSP (the single
        # file's own) allows no injected <script>, and must not be loosened for axe.
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    result: list[dict[str, Any]] = page.evaluate(RUN_AXE)
    return result


def test_axe_in_every_state_of_the_page(page: Page, site_url: str, doi_routes: DoiRoutes) -> None:
    open_page(page, site_url)
    assert axe_violations(page) == [], "empty"
    page.fill("#doi-input", "doi:10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O")
    expect(page.locator("#result-name")).to_contain_text("SICI", timeout=20_000)
    assert axe_violations(page) == [], "result"
    page.fill("#doi-input", "10.1000/a%zzb")
    with pytest.raises(d.DoiError) as bad:
        d.parse("10.1000/a%zzb")
    expect(page.locator("#inspect-error")).to_contain_text(bad.value.message, timeout=20_000)
    assert axe_violations(page) == [], "error"
    page.fill("#doi-input", "doi: 10.1000/\u0430bc.")
    expect(page.locator("#candidates li")).to_have_count(2, timeout=20_000)
    expect(page.locator("#findings button.use-repair").first).to_be_visible()
    assert axe_violations(page) == [], "readings and repairs"
    page.fill("#doi-input", "10.1000/182")
    expect(page.locator("#result-name")).to_have_text("10.1000/182", timeout=20_000)
    page.click("#resolve-button")
    expect(page.locator("#resolve-output")).to_contain_text("http://www.doi.org/hb.html",
                                                            timeout=20_000)
    assert axe_violations(page) == [], "record"
    page.fill("#eq-a", "10.1000/ABC")
    page.fill("#eq-b", "doi:10.1000/abc")
    expect(page.locator("#eq-output")).to_contain_text("Equivalent", timeout=20_000)
    assert axe_violations(page) == [], "equivalence"
    page.fill("#batch-input", "Reading list\nhttps://doi.org/10.1038/nature14539\n"
              "doi:10.1038/NATURE14539\nbad: 10.1234/50%zz\nKelvin 10.1000/\u212a")
    page.click("#batch-run")
    expect(page.locator("#batch-status")).to_contain_text("Done:", timeout=20_000)
    page.focus("#batch-scroll")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    expect(page.locator("#batch-detail h3")).to_have_text("Line 3: Duplicate")
    assert axe_violations(page) == [], "batch"
    page.locator('#batch-summary button[data-filter="duplicate"]').click()
    expect(page.locator("#batch-shown")).to_contain_text("Showing 1 of")
    assert axe_violations(page) == [], "batch filtered by a count"
    page.fill("#doi-input", "10/abcde")
    expect(page.locator("#expand-button")).to_be_visible(timeout=20_000)
    assert axe_violations(page) == [], "shortDOI"
    page.fill("#doi-input", "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O")
    page.locator("details.more-more > summary").click()
    page.locator("details.more-notes > summary").click()
    expect(page.locator("details.why").first).to_be_visible()
    assert axe_violations(page) == [], "other forms and notes open"
    page.fill("#doi-input", "")
    expect(page.locator("#inspect-empty")).to_be_visible()
    assert axe_violations(page) == [], "empty again"


def test_axe_on_the_widget_demo(page: Page, site_url: str) -> None:
    page.goto(site_url + "widget-demo.html")
    expect(page.locator("#refs [data-doiname-link]").first).to_be_attached(timeout=60_000)
    assert axe_violations(page) == []


HOSTILE_NAMES = [
    '10.1000/<img src=x onerror="window.__pwned=1">',
    '10.1000/"><script>window.__pwned=2</script>',
    "10.1000/</textarea><svg onload=window.__pwned=3>",
    "javascript:window.__pwned=4//10.1000/x",
    "10.1000/x?javascript:window.__pwned=5",
    "data:text/html,<script>window.__pwned=6</script>",
    "10.1000/\u202egnp.exe",
    "10.1000/&lt;b&gt;&#x3c;i&#x3e;",
    "10.1000/" + "A" * 100_000,
    "10.1000/" + "<" * 5_000,
]


def settle(page: Page, text: str) -> None:
    """Type ``text`` into Inspect and wait until the page has drawn its reading: the box is
    emptied first (the results lose their verdict), so the verdict the core gives ``text``
    can only come from the drawing of ``text`` (however slow the machine)."""
    results = page.locator("#inspect-results")
    page.fill("#doi-input", "")
    expect(results).not_to_have_attribute("data-verdict", re.compile(".*"), timeout=60_000)
    page.fill("#doi-input", text)
    expect(results).to_have_attribute("data-verdict", reading(text).verdict, timeout=60_000)


#: What hostile text could have done: run a script, add elements, or make a link that is
#: not http(s), a fragment or one of the site's own pages.
PAGE_STATE = """() => ({
  pwned: window.__pwned ?? null,
  elements: document.querySelectorAll('img, script, svg, iframe').length,
  badLinks: [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))
    .filter(h => !/^(https?:|#|\\.\\/|[a-z-]+\\.html)/i.test(h)),
})"""


def test_hostile_names_render_as_text(page: Page, site_url: str) -> None:
    open_page(page, site_url)
    before = page.evaluate("() => document.querySelectorAll('img, script, svg, iframe').length")
    for text in HOSTILE_NAMES:
        settle(page, text)
        state = page.evaluate(PAGE_STATE)
        assert state["pwned"] is None, text
        assert state["elements"] == before, text
        assert state["badLinks"] == [], text
    # The same names in a batch: the table and each row's details show them as text.
    page.fill("#batch-input", "\n".join(HOSTILE_NAMES))
    page.click("#batch-run")
    expect(page.locator("#batch-status")).to_contain_text("Done:", timeout=60_000)
    page.focus("#batch-scroll")
    for _ in HOSTILE_NAMES:
        page.keyboard.press("ArrowDown")
        state = page.evaluate(PAGE_STATE)
        assert state == {"pwned": None, "elements": before, "badLinks": []}
    # The page still works afterwards.
    page.fill("#doi-input", "10.1000/456#789")
    expect(page.locator("#result-name")).to_have_text("10.1000/456#789", timeout=20_000)
