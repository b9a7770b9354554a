"""The page's main panel: every presentation, the explain tables, findings, errors.

Expected values come from the core on the host (``doiname``); the page computes them
in the browser through Pyodide. They must agree.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

import doiname as d
from doiname.codepoints import describe_code_points

from .site_page import open_page, reading, selected, shown_name, type_into

pytestmark = pytest.mark.e2e

SICI = "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O"
INPUTS = [
    SICI,
    "https://doi.org/10.1000/456%23789",
    "doi:10.6338/JDA.202212/SP_17(4).0000",
    " urn:doi:10.26321/Á.GUTIÉRREZ.ZARZA.02.2018.03 ",
    "10.1000/a/./b",
]


def open_more(page: Page) -> None:
    """Open "Other forms and why each character is encoded" (folded under the card)."""
    page.locator("details.more-more > summary").click()
    expect(page.locator("details.more-more")).to_have_attribute("open", "")


@pytest.fixture
def inspect_page(booted_page: Page) -> Iterator[Page]:
    """The module's booted page (one boot for every input); the input emptied after."""
    yield booted_page
    type_into(booted_page, "#doi-input", "")
    expect(booted_page.locator("#inspect-card")).to_have_attribute("data-state", "empty")


@pytest.mark.parametrize("text", INPUTS)
def test_every_presentation_matches_the_core(inspect_page: Page, text: str) -> None:
    page = inspect_page
    type_into(page, "#doi-input", text)
    doi = d.parse(text)
    expect(page.locator("#result-name")).to_have_text(str(doi))
    urls = {level: d.to_url(text, level=level) for level in ("recommended", "mandatory", "strict")}
    if len(set(urls.values())) == 1:  # the same link at every level: shown once
        expect(page.locator("#links-same code")).to_have_text(urls["recommended"])
        expect(page.locator("#url-strict")).to_have_count(0)
    else:
        for level, url in urls.items():
            expect(page.locator(f"#url-{level}")).to_have_text(url)
    expect(page.locator("#result-urn")).to_have_text(d.to_urn_url(text))
    expect(page.locator("#result-uri")).to_have_text(d.to_uri(text))
    expect(page.locator("#result-api")).to_have_text(d.to_handles_api_url(text))
    expect(page.locator("#result-canonical")).to_have_text(d.canonical_uri_2003(text))
    expect(page.locator("#result-html")).to_have_text(d.to_html_link(text))
    expect(page.locator("#result-markdown")).to_have_text(d.to_markdown_link(text))


def test_why_is_this_encoded_lists_every_change(page: Page, site_url: str) -> None:
    open_page(page, site_url, doi=SICI)
    expect(page.locator("#result-name")).to_have_text(SICI)
    open_more(page)
    levels: tuple[str, ...] = ("recommended", "mandatory", "strict")
    if len({d.to_url(SICI, level=level) for level in levels}) == 1:
        levels = ("recommended",)  # the same link at every level: shown once, with why
        expect(page.locator("details.why")).to_have_count(1)
    for index, level in enumerate(levels):
        changes = d.explain_url(SICI, level)
        details = page.locator("details.why").nth(index)
        expect(details.locator("summary")).to_contain_text(f"{len(changes)} characters changed")
        details.locator("summary").click()
        rows = details.locator("tbody tr")
        expect(rows).to_have_count(len(changes))
        for row, change in zip(rows.all(), changes, strict=True):
            cells = row.locator("td")
            expect(cells.nth(0)).to_contain_text(change.code_point)
            expect(cells.nth(1)).to_have_text(str(change.start + 1))
            expect(cells.nth(2)).to_have_text(change.encoded)
            expect(cells.nth(3)).to_have_text(change.rule)
            expect(cells.nth(4)).to_have_text(change.source)


def test_an_open_explain_view_stays_open_while_typing(page: Page, site_url: str) -> None:
    open_page(page, site_url, doi="10.1000/a<b")
    open_more(page)
    page.locator("details.why summary").first.click()
    page.locator("#doi-input").press("End")
    page.keyboard.type("^c")
    assert shown_name("10.1000/a<b^c") == "10.1000/a<b^c"
    expect(page.locator("#result-name")).to_have_text("10.1000/a<b^c")
    expect(page.locator("details.why").first).to_have_attribute("open", "")
    expect(page.locator("details.why").first.locator("tbody tr")).to_have_count(
        len(d.explain_url("10.1000/a<b^c")))


def test_findings_are_listed_and_marked_in_place(page: Page, site_url: str) -> None:
    text = "doi: 10.1000/\u0430bc\u2013x "
    open_page(page, site_url, doi=text)
    findings = [*selected(text).findings, *reading(text).notes]
    assert {f.code for f in findings} >= {"lookalike-letter", "lookalike-dash"}
    items = page.locator("#findings li")
    expect(items).to_have_count(len(findings))
    for f in findings:
        item = page.locator(f'#findings li[data-code="{f.code}"]').first
        expect(item).to_contain_text(f.message)
        expect(item.locator(".badge")).to_have_text(f.severity)
    # Every warning or error span of the input is marked in the mirror.
    marked = page.evaluate("""() => [...document.querySelectorAll('#mirror mark')]
        .map(m => [Number(m.dataset.start), Number(m.dataset.end)])""")
    covered = {i for a, b in marked for i in range(a, b)}
    for f in findings:
        if f.severity != "info" and f.input_start is not None and f.input_end is not None:
            assert set(range(f.input_start, f.input_end)) <= covered, f
    # The mirror keeps the input's text (invisible characters get a visible tag).
    expect(page.locator("#mirror")).to_contain_text("\u0430bc\u2013x")
    # A repair is offered, never applied: one click puts it in the input.
    repair = next(f.repair for f in findings if f.repair)
    page.locator(f'#findings button.use-repair[data-repair="{repair}"]').first.click()
    expect(page.locator("#doi-input")).to_have_value(repair)
    expect(page.locator("#result-name")).to_have_text(shown_name(repair))


def test_every_place_of_a_finding_said_once_is_marked(page: Page, site_url: str) -> None:
    """A character repeated is one finding (its count and places): the mirror marks each
    of its places, which the core lists (the page computes none)."""
    text = "doi: 10.1000/\u0430b\u0430-\u0430x%2541y%2541"
    open_page(page, site_url, doi=text)
    expect(page.locator("#result-name")).to_have_text(shown_name(text))
    findings = [f for f in [*selected(text).findings, *reading(text).notes]
                if f.severity != "info"]
    said_once = [f for f in findings if len(f.places) > 1]
    assert {f.code for f in said_once} == {"lookalike-letter", "percent-escape-in-name"}
    marked = page.evaluate("""() => [...document.querySelectorAll('#mirror mark')]
        .map(m => [Number(m.dataset.start), Number(m.dataset.end)])""")
    covered = {i for a, b in marked for i in range(a, b)}
    places = {i for f in said_once for a, b in f.places for i in range(a, b)}
    assert places <= covered, (marked, [f.places for f in said_once])
    # and nothing else: every mark is a place or a span of a finding
    spans = places | {i for f in findings if f.input_start is not None
                      and f.input_end is not None for i in range(f.input_start, f.input_end)}
    assert covered <= spans


def test_error_says_what_and_where(page: Page, site_url: str) -> None:
    text = "10.1000/a%zzb"
    with pytest.raises(d.DoiError) as info:
        d.parse(text)
    err = info.value
    assert err.position == 9
    assert selected(text).status == "error"
    open_page(page, site_url, doi=text)
    expect(page.locator("#error-message")).to_have_text(err.message)
    expect(page.locator("#inspect-error")).to_contain_text("characters 10\u201312 of your input")
    mark = page.locator("#mirror mark.sev-error")
    expect(mark).to_have_count(1)
    expect(mark).to_have_attribute("data-start", "9")
    expect(mark).to_have_attribute("data-end", "12")
    expect(mark).to_contain_text("%zz")
    expect(page.locator("#result-name")).to_be_hidden()
    # "Show in input" selects the offending characters in the input.
    page.locator("#inspect-error button", has_text="Show in input").click()
    sel = page.evaluate("""() => { const i = document.getElementById('doi-input');
        return [i.selectionStart, i.selectionEnd]; }""")
    assert sel == [9, 12]


def test_a_zero_width_space_is_dropped_with_a_warning_that_says_where(
        page: Page, site_url: str) -> None:
    """An invisible character is not part of the name: the name is read without it, and
    the page says so, where, and offers the repaired text (never silently)."""
    text = "10.1000/a\u200bb"
    c = selected(text)
    (warning,) = [f for f in c.findings if f.severity == "warning"]
    assert (warning.input_start, warning.input_end) == (9, 10) and "U+200B" in warning.message
    open_page(page, site_url, doi=text)
    expect(page.locator("#result-name")).to_have_text(str(c.doi))
    item = page.locator(f'#findings li[data-code="{warning.code}"]')
    expect(item).to_contain_text(warning.message)
    expect(item).to_contain_text("character 10 of your input")
    mark = page.locator("#mirror mark.sev-warning")
    expect(mark).to_have_count(1)
    expect(mark).to_have_attribute("data-start", "9")
    expect(mark).to_have_attribute("data-end", "10")
    expect(mark).to_contain_text("U+200B")
    item.get_by_role("button", name="Show in input").click()
    sel = page.evaluate("""() => { const i = document.getElementById('doi-input');
        return [i.selectionStart, i.selectionEnd]; }""")
    assert sel == [9, 10]
    assert warning.repair == "10.1000/ab"
    item.locator("button.use-repair").click()
    expect(page.locator("#doi-input")).to_have_value("10.1000/ab")


def test_positions_count_code_points_like_the_core(page: Page, site_url: str) -> None:
    # An astral character before the error: Python counts 1, JavaScript 2.
    text = "10.1000/\U0001d400%zz"
    err_pos = 9
    with pytest.raises(d.DoiError) as info:
        d.parse(text)
    assert info.value.position == err_pos
    open_page(page, site_url, doi=text)
    mark = page.locator("#mirror mark.sev-error")
    expect(mark).to_have_attribute("data-start", str(err_pos))
    expect(mark).to_contain_text("%zz")
    expect(page.locator("#mirror")).to_contain_text("\U0001d400")
    # The same with an invisible character (a warning now: it is dropped from the name).
    open_page(page, site_url, doi="10.1000/\U0001d400\u200bb")
    mark = page.locator("#mirror mark.sev-warning").first
    expect(mark).to_have_attribute("data-start", str(err_pos))
    expect(mark).to_contain_text("U+200B")


def test_code_point_view_on_demand(page: Page, site_url: str) -> None:
    text = "https://doi.org/10.1000/%C3%A9\u0430"
    open_page(page, site_url, doi=text)
    open_more(page)
    toggle = page.locator("#codepoints-toggle")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(page.locator("#codepoints-table")).to_have_count(0)
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    rows = page.locator("#codepoints-table tbody tr")
    described = describe_code_points(text)
    expect(rows).to_have_count(len(described))
    for row, cp in zip(rows.all(), described, strict=True):
        expect(row.locator("td").nth(2)).to_have_text(cp.code_point)
        expect(row.locator("td").nth(3)).to_have_text(cp.name)
        if cp.looks_like:
            expect(row.locator("td").nth(6)).to_have_text(cp.looks_like)
    toggle.click()
    expect(page.locator("#codepoints-table")).to_have_count(0)


def test_short_doi_offers_expand(page: Page, site_url: str, doi_routes: object) -> None:
    from doiname.inspection import written_form
    from doiname.resolver import alias_target, read_handle_response
    from doiname.syntax import validate_name

    from .site_page import fixture_body, fixture_entry

    entry = fixture_entry("/api/handles/10/abcde?type=HS_ALIAS")
    record = read_handle_response(entry["status"], fixture_body(entry["file"]))
    target = alias_target(record)
    assert target
    open_page(page, site_url, doi="10/abcde")
    found = reading("10/abcde")
    assert found.verdict == "short-doi" and selected("10/abcde").kind == "short-doi"
    expect(page.locator("#shortdoi-message")).to_have_text(found.message)
    page.get_by_role("button", name="Expand").click()
    expect(page.locator("#expanded-name")).to_have_text(target)
    assert any("/api/handles/10/abcde?type=HS_ALIAS" in u
               for u in doi_routes.requests)  # type: ignore[attr-defined]
    page.get_by_role("button", name="Inspect this DOI name").click()
    written = written_form(validate_name(target))
    expect(page.locator("#doi-input")).to_have_value(written)
    expect(page.locator("#result-name")).to_have_text(target)


def test_copy_buttons_copy_and_announce(page: Page, site_url: str) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_page(page, site_url, doi=SICI)
    # The card's Copy link copies the recommended link
    page.locator("#copy-link").click()
    expect(page.locator("#announcer")).to_have_text("Copied link")
    assert page.evaluate("() => navigator.clipboard.readText()") == d.to_url(SICI)
    open_more(page)
    # (the three levels are one link for this name: shown once)
    page.get_by_role("button", name="Copy Link", exact=True).click()
    expect(page.locator("#announcer")).to_have_text("Copied Link")
    assert page.evaluate("() => navigator.clipboard.readText()") == d.to_url(SICI, level="strict")
    page.get_by_role("button", name="Copy Markdown link").click()
    expect(page.locator("#announcer")).to_have_text("Copied Markdown link")
    assert page.evaluate("() => navigator.clipboard.readText()") == d.to_markdown_link(SICI)


def test_copy_falls_back_without_the_clipboard_api(page: Page, site_url: str) -> None:
    page.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined});"
                         "window.__copied = []; document.execCommand = (c) => "
                         "{ window.__copied.push(document.activeElement.value); return true; };")
    open_page(page, site_url, doi=SICI)
    open_more(page)
    page.get_by_role("button", name="Copy doi: URI").click()
    expect(page.locator("#announcer")).to_have_text("Copied doi: URI")
    assert page.evaluate("() => window.__copied") == [d.to_uri(SICI)]


def test_fast_typing_ends_on_the_last_text(page: Page, site_url: str) -> None:
    open_page(page, site_url)
    box = page.locator("#doi-input")
    box.click()
    final = "10.1000/abc^def<ghi"
    page.keyboard.type(final, delay=0)
    assert shown_name(final) == final
    expect(page.locator("#result-name")).to_have_text(final)
    expect(page.locator("#url-recommended")).to_have_text(d.to_url(final))
    box.press("Escape")
    expect(box).to_have_value("")
    expect(page.locator("#result-name")).to_be_hidden()


def test_typeable_before_python_and_filled_when_ready(page: Page, site_url: str) -> None:
    # Hold the core's start until the test lets it go: the page must be drawn and
    # typeable meanwhile, and fill in the result afterwards.
    page.add_init_script("""(() => {
      let release; window.__go = new Promise((r) => { release = r; }); window.__release = release;
      const Real = window.Worker;
      window.Worker = class extends Real {
        constructor(...args) { super(...args); const post = this.postMessage.bind(this);
          const queue = []; let open = false;
          window.__go.then(() => { open = true; for (const m of queue) post(...m); });
          this.postMessage = (...m) => { if (open) post(...m); else queue.push(m); }; }
      };
    })()""")
    page.goto(site_url)
    box = page.locator("#doi-input")
    box.fill("10.1000/182")
    expect(page.locator("#result-name")).to_be_hidden()
    expect(page.locator("#inspect-placeholder")).to_contain_text("Your text is kept")
    expect(page.locator("#boot")).not_to_have_attribute("data-phase", "failed")
    page.evaluate("() => window.__release()")
    expect(page.locator("#result-name")).to_have_text("10.1000/182", timeout=60_000)


@pytest.mark.parametrize("breakage", [
    "window.Worker = function () { throw new Error('workers are disabled'); };",
    "delete window.WebAssembly; window.Worker = function () { throw new Error('no wasm'); };",
])
def test_says_plainly_when_the_engine_cannot_start(
    page: Page, site_url: str, breakage: str
) -> None:
    page.add_init_script(breakage)
    page.goto(site_url)
    boot = page.locator("#boot")
    expect(boot).to_have_attribute("data-phase", "failed", timeout=30_000)
    expect(boot).to_contain_text("could not start")
    page.fill("#doi-input", "10.1000/182")
    expect(page.locator("#inspect-summary")).to_contain_text("could not start")


def test_still_encodes_with_the_network_cut_after_load(page: Page, site_url: str) -> None:
    open_page(page, site_url)
    page.context.set_offline(True)
    try:
        type_into(page, "#doi-input", SICI)
        expect(page.locator("#url-recommended")).to_have_text(d.to_url(SICI))
    finally:
        page.context.set_offline(False)


#: Counts every message the page posts to a worker (installed before the page's scripts).
COUNT_POSTS = """() => {
  window.__posted = [];
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    const what = message && (message.method ?? (message.cancel ? "cancel" : null));
    window.__posted.push(what ?? "other");
    return post.call(this, message, ...rest);
  };
}"""


def test_one_keystroke_is_one_request(page: Page, site_url: str) -> None:
    """Typing one character in Inspect posts at most 2 messages to the worker (in fact
    one: the `inspect` request, which reads the text once)."""
    page.add_init_script(f"({COUNT_POSTS})()")
    open_page(page, site_url, doi="10.1000/18")
    expect(page.locator("#result-name")).to_have_text("10.1000/18")
    page.wait_for_timeout(300)  # whatever the page asks after loading is done
    page.evaluate("() => { window.__posted.length = 0; }")
    page.locator("#doi-input").press("End")
    page.keyboard.type("2")
    expect(page.locator("#result-name")).to_have_text("10.1000/182")
    page.wait_for_timeout(500)  # anything the keystroke would still send
    # The engine's heartbeat pings it every few seconds whatever the person does.
    posted = [p for p in page.evaluate("() => window.__posted") if p != "ping"]
    assert len(posted) <= 2, posted
    assert posted == ["inspect"]
