"""The resolve panel against https://doi.org/** routed to fixtures: every outcome.

The expected message and values are what the core reads from the same fixture on the
host (``read_handle_response``); the test never reaches the real doi.org.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, Route, expect

from doiname.resolver import read_handle_response, read_which_ra_response, transport_outcome

from .conftest import DoiRoutes
from .site_page import fixture_body, fixture_entry, open_page, selected

pytestmark = pytest.mark.e2e

CASES = [
    ("10.1000/182", "/api/handles/10.1000/182", "ok"),
    ("10.1000/does-not-exist", "/api/handles/10.1000/does-not-exist", "not-found"),
    ("10.1000/empty", "/api/handles/10.1000/empty", "no-values"),
    ("10.1000/server-error", "/api/handles/10.1000/server-error", "server-error"),
    ("10.1000/not-json", "/api/handles/10.1000/not-json", "bad-json"),
    ("10.1000/bad-gateway", "/api/handles/10.1000/bad-gateway", "http-error"),
    ("10.1000/rate-limited", "/api/handles/10.1000/rate-limited", "http-error"),
]


def _resolve(page: Page, site_url: str, name: str) -> None:
    open_page(page, site_url, doi=name)
    expect(page.locator("#result-name")).to_have_text(name)
    page.get_by_role("button", name="Resolve", exact=True).click()


@pytest.fixture
def resolve_page(booted_page: Page, shared_doi_routes: DoiRoutes) -> Iterator[Page]:
    """The module's booted page, doi.org routed (one boot for every case); the input
    emptied after, which clears the outcome (checked)."""
    yield booted_page
    booted_page.fill("#doi-input", "")
    expect(booted_page.locator("#resolve-outcome")).to_have_count(0)
    expect(booted_page.locator("#handle-values tbody tr")).to_have_count(0)


@pytest.mark.parametrize(("name", "path", "outcome"), CASES)
def test_each_answer_gets_the_cores_message(
    resolve_page: Page, name: str, path: str, outcome: str
) -> None:
    entry = fixture_entry(path)
    record = read_handle_response(entry["status"], fixture_body(entry["file"]))
    assert record.outcome == outcome
    page = resolve_page
    page.fill("#doi-input", name)
    expect(page.locator("#result-name")).to_have_text(name)
    page.get_by_role("button", name="Resolve", exact=True).click()
    line = page.locator("#resolve-outcome")
    expect(line).to_have_attribute("data-outcome", outcome)
    # What it means first, naming the DOI: where it leads, or the core's message
    if record.ok and record.url:
        expect(line).to_have_text(f"{name} leads to {record.url}")
    else:
        expect(line).to_have_text(f"{name}: {record.message}")
    # the service, responseCode and HTTP status as a small source line after the message
    expect(page.locator(".outcome .finding-source")).to_have_text(f"Source: {record.source}")
    rows = page.locator("#handle-values tbody tr")
    expect(rows).to_have_count(len(record.values))
    if not record.ok:  # what to do next: doi.org's own page for the name, and again
        expect(page.locator(".outcome a", has_text="Open at doi.org")).to_have_attribute(
            "href", f"https://doi.org/{name}")
        expect(page.get_by_role("button", name="Try again")).to_have_count(
            1 if record.retry else 0)


@pytest.mark.parametrize(("name", "path"), [
    ("10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O",
     "/api/handles/10.1002/(SICI)1097-4571(199806)49:8%3C693::AID-ASI4%3E3.0.CO;2-O"),
    ("10.5555/formats", "/api/handles/10.5555/formats"),
])
def test_values_table_shows_every_value_as_decoded(
    page: Page, site_url: str, doi_routes: object, name: str, path: str
) -> None:
    entry = fixture_entry(path)
    record = read_handle_response(entry["status"], fixture_body(entry["file"]))
    assert record.ok and record.values
    _resolve(page, site_url, name)
    expect(page.locator("#resolve-outcome")).to_have_attribute("data-outcome", "ok")
    rows = page.locator("#handle-values tbody tr")
    expect(rows).to_have_count(len(record.values))
    for row, v in zip(rows.all(), record.values, strict=True):
        cells = row.locator("td")
        expect(cells.nth(0)).to_have_text(str(v.index))
        expect(cells.nth(1)).to_have_text(v.type)
        expect(cells.nth(2)).to_have_text(v.format)
        expect(cells.nth(4)).to_have_text(v.ttl)
        expect(cells.nth(5)).to_have_text(v.timestamp or "–")
        data = cells.nth(3)
        if v.href:
            link = data.locator(".data-text a")
            expect(link).to_have_attribute("href", v.href)
            expect(link).to_have_attribute("rel", "noopener noreferrer")
        for label, value in v.details:
            expect(data.locator("dl.details")).to_contain_text(label)
            expect(data.locator("dl.details")).to_contain_text(value)
        if v.locations:
            items = data.locator("ol.locations li")
            expect(items).to_have_count(len(v.locations))
            for item, loc in zip(items.all(), v.locations, strict=True):
                if loc.linkable:
                    expect(item.locator("a")).to_have_attribute("href", loc.href)
                else:
                    expect(item.locator("a")).to_have_count(0)
                    expect(item).to_contain_text(loc.href)
        if not v.details and not v.locations and not v.href and v.text.isprintable():
            expect(data.locator(".data-text")).to_have_text(v.text)
        if v.note:
            expect(data.locator(".note")).to_have_text(v.note)
    if record.url:
        expect(page.locator("#resolve-outcome a")).to_have_attribute("href", record.url)


def test_hostile_record_renders_inert(page: Page, site_url: str, doi_routes: object) -> None:
    entry = fixture_entry("/api/handles/10.1000/hostile")
    record = read_handle_response(entry["status"], fixture_body(entry["file"]))
    _resolve(page, site_url, "10.1000/hostile")
    table = page.locator("#handle-values")
    expect(table.locator("tbody tr")).to_have_count(len(record.values))
    # The record is folded under the outcome (administrators and all): open it
    page.locator("details.record-details > summary").click()
    expect(table).to_be_visible()
    # The markup in the values is shown as text, never parsed.
    expect(table).to_contain_text("<img src=x onerror=")
    expect(table).to_contain_text("javascript:window.__pwned=1")
    output = page.locator("#resolve-output")
    assert output.locator("img, script, b, iframe, object, embed").count() == 0
    hrefs = output.locator("a").evaluate_all("as => as.map(a => a.getAttribute('href'))")
    linkable = {v.href for v in record.values if v.href} | {
        loc.href for v in record.values for loc in v.locations if loc.linkable}
    assert set(hrefs) <= linkable
    assert all(h.startswith(("https://", "http://")) for h in hrefs)
    for a in output.locator("a").all():
        expect(a).to_have_attribute("rel", "noopener noreferrer")
    # Hover over everything; nothing the record carries may run. (Where the cell is, not
    # whether it stands still, is this test's concern: forced, the hover does not wait for
    # layout to settle, which a busy machine once made it wait for past 30 s.)
    for cell in table.locator("td").all():
        cell.hover(force=True)
    assert page.evaluate("() => window.__pwned") is None
    assert page.evaluate("() => document.querySelectorAll('img').length") == 0


def test_network_failure_is_its_own_outcome(page: Page, site_url: str) -> None:
    page.route("https://doi.org/**", lambda route: route.abort("failed"))
    _resolve(page, site_url, "10.1000/182")
    line = page.locator("#resolve-outcome")
    expect(line).to_have_attribute("data-outcome", "network")
    expect(line).to_have_text(f"10.1000/182: {transport_outcome('network').message}")
    expect(page.locator("#handle-values")).to_have_count(0)


def test_cors_refusal_reads_as_a_network_failure(
    page: Page, site_url: str, doi_routes: DoiRoutes
) -> None:
    # doi.org answers, but without Access-Control-Allow-Origin: the browser keeps the
    # answer from the page, which can only say that nothing usable arrived.
    entry = fixture_entry("/api/handles/10.1000/182")
    doi_routes.answer("/api/handles/10.1000/182", entry["status"], fixture_body(entry["file"]),
                      cors=False)
    _resolve(page, site_url, "10.1000/182")
    line = page.locator("#resolve-outcome")
    expect(line).to_have_attribute("data-outcome", "network")
    expect(line).to_have_text(f"10.1000/182: {transport_outcome('network').message}")
    # Asked once, not again (Resolve then asks Which RA for the record, test_page_registry).
    asked = [DoiRoutes.key(u) for u in doi_routes.requests]
    assert [k for k in asked if k.startswith("/api/")] == ["/api/handles/10.1000/182"]


@pytest.fixture
def hanging_doi_org(page: Page) -> Iterator[list[Route]]:
    """doi.org never answers (the routes are released at the end of the test)."""
    held: list[Route] = []
    lock = threading.Lock()

    def hold(route: Route) -> None:
        with lock:
            held.append(route)

    page.route("https://doi.org/**", hold)
    yield held
    for route in held:
        with contextlib.suppress(Exception):  # the page may have moved on
            route.abort("failed")


def _wait_until_held(page: Page, held: list[Route]) -> None:
    """Until the page's request reaches the hanging route."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if held:
            return
        page.wait_for_timeout(25)
    raise AssertionError("the page sent no request to doi.org")


def test_cancel_stops_the_request(page: Page, site_url: str, hanging_doi_org: list[Route]) -> None:
    _resolve(page, site_url, "10.1000/182")
    _wait_until_held(page, hanging_doi_org)
    cancel = page.get_by_role("button", name="Cancel the lookup")
    expect(cancel).to_be_enabled()
    expect(page.locator("#resolve-pending")).to_be_visible()
    cancel.click()
    line = page.locator("#resolve-outcome")
    expect(line).to_have_attribute("data-outcome", "cancelled")
    expect(line).to_contain_text(transport_outcome("cancelled").message)
    expect(cancel).to_be_hidden()
    expect(page.get_by_role("button", name="Resolve", exact=True)).to_be_enabled()


def test_timeout_after_ten_seconds(page: Page, site_url: str, hanging_doi_org: list[Route]) -> None:
    open_page(page, site_url, doi="10.1000/182")
    expect(page.locator("#result-name")).to_have_text("10.1000/182")
    # The page's clock is the test's: no real waiting, and the limit is exactly checked.
    # Paused, not only installed: an installed clock still follows real time, so a slow
    # machine (more than 100 ms between the steps below) would reach the limit early.
    page.clock.install()
    page.clock.pause_at(page.evaluate("() => Date.now()") + 1)
    page.get_by_role("button", name="Resolve", exact=True).click()
    _wait_until_held(page, hanging_doi_org)
    page.clock.run_for(9_900)
    expect(page.locator("#resolve-pending")).to_be_visible()
    expect(page.locator("#resolve-outcome")).to_have_count(0)
    page.clock.run_for(200)
    line = page.locator("#resolve-outcome")
    expect(line).to_have_attribute("data-outcome", "timeout")
    expect(line).to_contain_text(transport_outcome("timeout").message)
    expect(page.get_by_role("button", name="Cancel the lookup")).to_be_hidden()
    expect(page.get_by_role("button", name="Resolve", exact=True)).to_be_enabled()


def test_cancel_with_the_keyboard(page: Page, site_url: str, hanging_doi_org: list[Route]) -> None:
    open_page(page, site_url, doi="10.1000/182")
    expect(page.locator("#result-name")).to_have_text("10.1000/182")
    page.locator("#resolve-button").focus()
    page.keyboard.press("Enter")
    _wait_until_held(page, hanging_doi_org)
    # Cancel takes Resolve's place, and the focus (nothing beside or below them moves)
    assert page.evaluate("() => document.activeElement.id") == "resolve-cancel"
    resolve, cancel = page.locator("#resolve-button"), page.locator("#resolve-cancel")
    expect(resolve).to_be_hidden()
    box = cancel.bounding_box()
    page.keyboard.press("Enter")
    expect(page.locator("#resolve-outcome")).to_have_attribute("data-outcome", "cancelled")
    expect(cancel).to_be_hidden()
    assert page.evaluate("() => document.activeElement.id") == "resolve-button"
    assert resolve.bounding_box() == box


def test_which_ra(page: Page, site_url: str) -> None:
    body = fixture_body("which-ra.json")
    result = read_which_ra_response(200, body)
    page.route("https://doi.org/ra/**", lambda route: route.fulfill(
        status=200, body=body, content_type="application/json",
        headers={"Access-Control-Allow-Origin": "*"}))
    open_page(page, site_url, doi="10.1000/182")
    # Folded under "Other forms", with its line of plain words; not among the actions.
    expect(page.locator(".task-actions #which-ra-button")).to_have_count(0)
    expect(page.get_by_role("button", name="Which RA")).to_be_hidden()
    page.locator("details.more-more > summary").click()
    row = page.locator(".more-more dl.values .row", has=page.locator("#which-ra-button"))
    expect(row.locator("dt")).to_contain_text("Registration agency")
    expect(row.locator(".form-explained")).to_contain_text("which agency registered the name")
    page.get_by_role("button", name="Which RA").click()
    line = page.locator("#resolve-outcome")
    expect(line).to_have_attribute("data-outcome", result.outcome)
    expect(line).to_have_text(f"10.1000/182: {result.message}")
    rows = page.locator("#which-ra tbody tr")
    expect(rows).to_have_count(len(result.answers))
    for row, answer in zip(rows.all(), result.answers, strict=True):
        expect(row.locator("td").nth(0)).to_have_text(answer.doi)
        expect(row.locator("td").nth(1)).to_have_text(answer.ra or "–")
        expect(row.locator("td").nth(2)).to_have_text(answer.message)


def test_a_new_name_clears_the_old_record(page: Page, site_url: str, doi_routes: object) -> None:
    _resolve(page, site_url, "10.1000/182")
    expect(page.locator("#resolve-outcome")).to_have_attribute("data-outcome", "ok")
    page.fill("#doi-input", "10.1000/183")
    expect(page.locator("#resolve-outcome")).to_have_count(0)


def test_a_new_name_drops_a_lookup_under_way(page: Page, site_url: str,
                                            hanging_doi_org: list[Route]) -> None:
    """Another text while the old name's lookup is under way: the old run draws nothing
    for the new text (it drew "cancelled", or a remembered record and its work card)."""
    _resolve(page, site_url, "10.1000/182")
    _wait_until_held(page, hanging_doi_org)
    page.fill("#doi-input", "10.1000/183")
    expect(page.locator("#result-name")).to_have_text("10.1000/183")
    page.wait_for_timeout(500)  # what the stopped run would still draw
    expect(page.locator("#resolve-output")).to_be_empty()
    expect(page.get_by_role("button", name="Cancel the lookup")).to_be_hidden()
    expect(page.locator("#resolve-output")).not_to_have_attribute("aria-busy", "true")


def test_resolving_an_unreadable_name_says_why(page: Page, site_url: str) -> None:
    text = "10.1000/a%zzb"
    (error,) = [f for f in selected(text).findings if f.severity == "error"]
    open_page(page, site_url, doi=text)
    # No Resolve button for a text that is not a name; Enter in the input says why
    expect(page.locator("#error-message")).to_have_text(error.message)
    expect(page.locator("#resolve-button")).to_be_hidden()
    page.locator("#doi-input").press("Enter")
    expect(page.locator("#resolve-outcome")).to_have_text(error.message)


def test_unknown_short_doi_says_so(page: Page, site_url: str, doi_routes: DoiRoutes) -> None:
    entry = fixture_entry("/api/handles/10/zzzzz?type=HS_ALIAS")
    record = read_handle_response(entry["status"], fixture_body(entry["file"]))
    assert record.outcome == "not-found"
    open_page(page, site_url, doi="10/zzzzz")
    page.get_by_role("button", name="Expand").click()
    expect(page.locator(".expand-out")).to_contain_text(record.message)
    expect(page.locator("#expanded-name")).to_have_count(0)
    expect(page.get_by_role("button", name="Inspect this DOI name")).to_have_count(0)
