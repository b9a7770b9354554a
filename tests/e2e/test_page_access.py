"""Keyboard-only use, visible focus, labels, contrast, phone width, light and dark."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

import pytest
from playwright.sync_api import Page, expect

import doiname as d

from .site_page import open_page

pytestmark = pytest.mark.e2e

SICI = "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O"


def _focused(page: Page) -> str:
    return str(page.evaluate("""() => { const e = document.activeElement;
        return (e.id || e.getAttribute('aria-label') || e.textContent || e.tagName).trim(); }"""))


def _tab_to(page: Page, predicate: str, limit: int = 80) -> None:
    """Press Tab until the focused element satisfies the JS predicate ``(e) => bool``."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => ({predicate})(document.activeElement)"):
            return
    raise AssertionError(f"Tab never reached {predicate}; last focus: {_focused(page)}")


def test_keyboard_only_flow(page: Page, site_url: str, doi_routes: object) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_page(page, site_url)
    page.locator("body").focus()
    # The skip link is the first stop and leads to the input.
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.classList.contains('skip')")
    page.keyboard.press("Enter")
    _tab_to(page, "(e) => e.id === 'doi-input'")
    page.keyboard.type("10.1000/182")
    expect(page.locator("#result-name")).to_have_text("10.1000/182")
    # Enter in the input resolves; the focus stays in the input.
    page.keyboard.press("Enter")
    expect(page.locator("#resolve-outcome")).to_have_attribute("data-outcome", "ok")
    expect(page.locator("#doi-input")).to_be_focused()
    # The registry's record is asked for too (doi.org's agency lookup is not routed here):
    # its settled answer is announced before the copy's.
    expect(page.locator("#work-card")).to_have_attribute("data-state", re.compile("found|failed"))
    # Copy the link with the keyboard: the first stop after the input's Clear.
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "copy-link"
    page.keyboard.press("Enter")
    expect(page.locator("#announcer")).to_have_text("Copied link")
    assert page.evaluate("() => navigator.clipboard.readText()") == "https://doi.org/10.1000/182"
    # Resolve with the keyboard: the focus stays on the button.
    _tab_to(page, "(e) => e.id === 'resolve-button'")
    page.keyboard.press("Enter")
    expect(page.locator("#resolve-outcome")).to_have_attribute("data-outcome", "ok")
    expect(page.locator("#resolve-button")).to_be_focused()
    # Open the other forms with the keyboard.
    _tab_to(page, "(e) => e.tagName === 'SUMMARY'"
                  " && e.parentElement.classList.contains('more-more')")
    page.keyboard.press("Enter")
    expect(page.locator("details.more-more")).to_have_attribute("open", "")
    # Compare two names with the keyboard.
    _tab_to(page, "(e) => e.id === 'eq-a'")
    page.keyboard.type("10.1000/ABC")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "eq-b"
    page.keyboard.type("10.1000/abc")
    expect(page.locator("#eq-verdict")).to_have_attribute(
        "data-verdict", d.explain_equivalence("10.1000/ABC", "10.1000/abc").verdict)
    # A batch with the keyboard: type, Ctrl+Enter, select a row, download, open in Inspect.
    _tab_to(page, "(e) => e.id === 'batch-input'")
    page.keyboard.type("10.1000/ABC\n")
    page.keyboard.type("doi:10.1000/abc")
    page.keyboard.press("Control+Enter")
    expect(page.locator("#batch-status")).to_contain_text("Done: 2 lines")
    _tab_to(page, "(e) => e.id === 'batch-filter'")
    page.keyboard.press("ArrowDown")  # a closed <select> changes with the arrows
    expect(page.locator("#batch-shown")).to_have_text("Showing 0 of 2 rows")
    page.keyboard.press("ArrowUp")
    expect(page.locator("#batch-shown")).to_have_text("Showing all 2 rows")
    _tab_to(page, "(e) => e.id === 'batch-csv'")
    with page.expect_download() as download:
        page.keyboard.press("Enter")
    assert download.value.suggested_filename == "doiname-batch.csv"
    _tab_to(page, "(e) => e.id === 'batch-scroll'")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    expect(page.locator("#batch-detail h3")).to_have_text("Line 2: Duplicate")
    page.keyboard.press("Enter")
    expect(page.locator("#doi-input")).to_have_value("doi:10.1000/abc")
    expect(page.locator("#doi-input")).to_be_focused()


def test_links_within_the_page_keep_the_state(page: Page, site_url: str) -> None:
    """The skip link and "Also on this page" move the focus; the text in the input and
    the address, which holds the page's state, stay as they were."""
    open_page(page, site_url, doi="10.1000/182")
    address = page.url
    page.locator("body").focus()
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # the skip link
    expect(page.locator("#doi-input")).to_be_focused()
    expect(page.locator("#doi-input")).to_have_value("10.1000/182")
    expect(page.locator("#result-name")).to_have_text("10.1000/182")
    assert page.url == address
    page.keyboard.press("Escape")  # empty: the placeholder says what else is here
    expect(page.locator("#inspect-card")).to_have_attribute("data-state", "empty")
    _tab_to(page, "(e) => e.getAttribute('href') === '#batch'")
    page.keyboard.press("Enter")
    expect(page.locator("#batch-input")).to_be_focused()
    assert "batch" not in page.evaluate("() => location.hash")
    page.locator("a[href='#equivalence']").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#eq-a")).to_be_focused()
    assert page.evaluate("() => location.hash") == ""


def test_focus_is_visible(page: Page, site_url: str) -> None:
    open_page(page, site_url, doi=SICI)
    page.locator("body").focus()
    seen = 0
    for _ in range(25):
        page.keyboard.press("Tab")
        style = page.evaluate("""() => { const s = getComputedStyle(document.activeElement);
            return [s.outlineStyle, parseFloat(s.outlineWidth),
                    document.activeElement.tagName]; }""")
        if style[2] == "BODY":
            continue
        assert style[0] != "none" and style[1] >= 2, style
        seen += 1
    assert seen >= 20


def test_every_control_has_a_name(page: Page, site_url: str) -> None:
    open_page(page, site_url, doi=SICI, a="10.1000/a", b="10.1000/b")
    expect(page.get_by_label("DOI name, doi.org link")).to_have_count(1)
    expect(page.get_by_label("First name")).to_have_count(1)
    expect(page.get_by_label("Second name")).to_have_count(1)
    nameless = page.evaluate("""() => [...document.querySelectorAll('button, input, a, summary')]
        .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')
                     && !e.getAttribute('aria-labelledby') && !e.textContent.trim())
        .map(e => e.outerHTML)""")
    assert nameless == []
    assert page.locator("[aria-live]").count() >= 3


CONTRAST = """() => {
  const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1}; };
  const lum = ({r, g, b}) => { const f = (v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const over = (top, under) => ({ r: top.r * top.a + under.r * (1 - top.a),
    g: top.g * top.a + under.g * (1 - top.a), b: top.b * top.a + under.b * (1 - top.a), a: 1 });
  const background = (el) => { const layers = [];
    for (let e = el; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; } }
    let bg = {r: 255, g: 255, b: 255, a: 1};
    if (layers.length && layers[layers.length - 1].a >= 1) bg = layers.pop();
    while (layers.length) bg = over(layers.pop(), bg);
    return bg; };
  const bad = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim()) continue;
    const el = n.parentElement; const s = getComputedStyle(el);
    if (el.closest('[hidden], .offscreen, .summary, thead') || s.visibility === 'hidden') continue;
    const rect = el.getBoundingClientRect(); if (!rect.width || !rect.height) continue;
    let fg = parse(s.color); const bg = background(el);
    let opacity = 1;
    for (let e = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
    if (el.closest('button:disabled')) continue;  // WCAG exempts inactive controls
    fg = over({...fg, a: fg.a * opacity}, bg);
    const [l1, l2] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    const ratio = (l1 + 0.05) / (l2 + 0.05);
    const size = parseFloat(s.fontSize); const bold = Number(s.fontWeight) >= 700;
    const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    if (ratio < need) bad.push([n.textContent.trim().slice(0, 40), ratio.toFixed(2), need]);
  }
  return bad;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_contrast_meets_wcag_aa(
    page: Page, site_url: str, doi_routes: object, scheme: Literal["light", "dark"]
) -> None:
    page.emulate_media(color_scheme=scheme)
    open_page(page, site_url, doi="doi: 10.1000/\u0430bc\u2013x ", a="10.1000/a", b="10.1000/A")
    page.locator("details.more-more > summary").click()
    page.locator("details.why summary").first.click()
    page.locator("#codepoints-toggle").click()
    expect(page.locator("#codepoints-table")).to_be_visible()
    assert page.evaluate(CONTRAST) == []
    page.fill("#doi-input", "10.1000/a%zzb")
    expect(page.locator("#error-message")).to_be_visible()
    assert page.evaluate(CONTRAST) == []
    page.fill("#doi-input", "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O")
    page.get_by_role("button", name="Resolve", exact=True).click()
    expect(page.locator("#resolve-outcome")).to_have_attribute("data-outcome", "ok")
    page.locator("details.record-details > summary").click()
    assert page.evaluate(CONTRAST) == []
    page.fill("#batch-input", "none\n10.1000/x\n10.1000/X\n10.1/bad\n10.1000/\u0430")
    page.click("#batch-run")
    expect(page.locator("#batch-status")).to_contain_text("Done: 5 lines")
    page.locator("#batch-body tr[data-row]").nth(4).click()
    expect(page.locator("#batch-detail h3")).to_contain_text("Line 5")
    assert page.evaluate(CONTRAST) == []


def test_dark_and_light_differ(page: Page, site_url: str) -> None:
    colors = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        open_page(page, site_url)
        colors.append(page.evaluate("() => getComputedStyle(document.body).backgroundColor"))
    assert colors[0] != colors[1]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_usable_at_phone_width(
    page: Page, site_url: str, doi_routes: object, scheme: Literal["light", "dark"], tmp_path: Path
) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    page.emulate_media(color_scheme=scheme)
    open_page(page, site_url, doi="https://doi.org/10.1002/(SICI)1097-4571(199806)49:8%3C693::AID-ASI4%3E3.0.CO;2-O",
              a="10.1000/\u00e9", b="10.1000/e\u0301")
    page.locator("details.more-more > summary").click()
    page.locator("details.why summary").first.click()
    page.get_by_role("button", name="Resolve", exact=True).click()
    expect(page.locator("#resolve-outcome")).to_have_attribute("data-outcome", "ok")
    # Nothing makes the page itself scroll sideways (wide tables scroll in their own box).
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360
    for sel in ("#doi-input", "#resolve-button", "#eq-a", "#eq-b"):
        box = page.locator(sel).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, sel
    page.screenshot(path=str(tmp_path / f"page-360-{scheme}.png"), full_page=True)


def test_no_html_from_data_in_the_page_code() -> None:
    """The page's modules never write HTML from strings (innerHTML and friends)."""
    web = Path(__file__).resolve().parents[2] / "web"
    sources = sorted((web / "src").rglob("*.js")) + sorted((web / "pages").glob("*.js"))
    assert {web / "src" / "ui" / "dom.js", web / "src" / "views" / "inspect.js"} <= set(sources)
    for path in sources:
        text = path.read_text(encoding="utf-8")
        for bad in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                    "new Function"):
            assert bad not in text, f"{path.name} uses {bad}"
