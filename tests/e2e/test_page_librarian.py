"""The page a librarian keeps open: the link first, a steady page, Batch for real lists.

* The task card (name, link, Copy link, Open, Resolve) is above the fold at 390x844 and
  1280x800, and the link it shows and copies is the core's recommended URL.
* A screen reader hears one announcement per settled result, not one per keystroke.
* Layout shift stays at or below 0.05 while the page starts, when the engine becomes
  ready, and when a result loaded from the address is drawn.
* Batch on a mixed BibTeX / RIS / APA list: one row per record with its key, the rows,
  the unique export and the CSV for Excel exactly as the host core writes them; after
  Resolve all, names doi.org does not know and names it could not be asked about get
  their statuses, counts and filters; a large Resolve all asks first.

Expected values come from the core on the host (``doiname``), never from this file.
"""

from __future__ import annotations

import csv
import io
import itertools
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from doiname.batch import BatchJob

from .conftest import DoiRoutes
from .site_page import READY, open_page, reading

#: How long the page waits for typing to pause before it announces a result (its one owner
#: is the page's script).
_SETTLE = re.search(r"export const SETTLE_MS = (\d+);", (
    Path(__file__).resolve().parents[2] / "web/src/views/inspect.js").read_text("utf-8"))
assert _SETTLE, "web/src/views/inspect.js exports SETTLE_MS"
SETTLE_MS = int(_SETTLE[1])

pytestmark = pytest.mark.e2e

REFERENCES = Path(__file__).resolve().parents[1] / "fixtures" / "references"
SICI = "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O"


def mixed_list() -> str:
    """A reference list as people paste it: a BibTeX export, a RIS export, APA lines."""
    return "\n".join((REFERENCES / name).read_text(encoding="utf-8")
                     for name in ("bibtex.bib", "ris.ris", "apa.txt"))


def host_job(text: str) -> BatchJob:
    job = BatchJob(text)
    while not job.step(1_000_000, 60)["done"]:
        pass
    return job


def download_bytes(page: Page, button: str) -> bytes:
    with page.expect_download() as info:
        page.click(button)
    return Path(info.value.path()).read_bytes()


def run_batch(page: Page, text: str) -> None:
    page.fill("#batch-input", text)
    page.click("#batch-run")
    expect(page.locator("#batch-status")).to_contain_text("Done:", timeout=60_000)


# The task card ---------------------------------------------------------------------------

@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
@pytest.mark.parametrize("text", ["10.1000/182", SICI, "https://doi.org/10.1038/nature14539."])
def test_the_link_and_copy_are_above_the_fold(page: Page, site_url: str, width: int,
                                              height: int, text: str) -> None:
    page.set_viewport_size({"width": width, "height": height})
    open_page(page, site_url, doi=text)
    found = reading(text)
    assert found.forms is not None
    link = page.locator("#url-recommended")
    expect(link).to_have_text(found.forms.url)
    for selector in ("#result-name", "#url-recommended", "#copy-link", "#open-link",
                     "#resolve-button"):
        box = page.locator(selector).bounding_box()
        assert box is not None, selector
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (selector, box)
    expect(page.locator("#open-link")).to_have_attribute("href", found.forms.url)


def test_one_announcement_per_settled_result(page: Page, site_url: str) -> None:
    open_page(page, site_url)
    page.evaluate("""() => {
      window.__said = [];
      window.__typed = [];
      const summary = document.getElementById("inspect-summary");
      new MutationObserver(() => {
        if (summary.textContent) window.__said.push(summary.textContent);
      })
        .observe(summary, { childList: true, characterData: true, subtree: true });
      document.getElementById("doi-input")
        .addEventListener("input", () => window.__typed.push(performance.now()));
    }""")
    page.locator("#doi-input").click()
    page.keyboard.type("10.1038/nature14539", delay=60)
    message = reading("10.1038/nature14539").message
    expect(page.locator("#inspect-summary")).to_have_text(message)
    page.wait_for_timeout(1500)  # nothing more is said while nothing changes
    said = page.evaluate("() => window.__said")
    # One announcement for each pause in the typing long enough to settle a result (a
    # busy machine can hold a keystroke back that long), never one for each keystroke.
    typed = page.evaluate("() => window.__typed")
    pauses = sum(1 for a, b in itertools.pairwise(typed) if b - a >= SETTLE_MS / 2)
    assert said[-1] == message
    assert len(said) <= 1 + pauses, (said, pauses)
    assert all(a != b for a, b in itertools.pairwise(said)), said
    # A second settled result is announced once too.
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")
    second = reading("10.1038/nature145").message
    expect(page.locator("#inspect-summary")).to_have_text(second)
    page.wait_for_timeout(1000)
    typed = page.evaluate("() => window.__typed")
    pause = 1 if typed[-1] - typed[-2] >= SETTLE_MS / 2 else 0
    later = page.evaluate("() => window.__said")[len(said):]
    assert later[-1] == second and 1 <= len(later) <= 1 + pause, later


CLS_OBSERVER = """() => {
  window.__shifts = [];
  window.__shiftNodes = [];  // what moved, for a failing test's message
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.hadRecentInput) continue;
      window.__shifts.push(e.value);
      window.__shiftNodes.push([e.value, Math.round(e.startTime), ...e.sources.map((s) =>
        s.node ? `${s.node.nodeName}#${s.node.id || ""}.${s.node.className || ""}` : "?")]);
    }
  }).observe({ type: "layout-shift", buffered: true });
}"""


@pytest.mark.parametrize(("width", "height", "doi"), [
    (390, 844, ""), (390, 844, "10.1000/182"),
    (1280, 800, ""), (1280, 800, "10.1000/182"), (1280, 800, SICI),
    (1280, 800, "https://doi.org/10.1038/nature14539."), (390, 844, SICI),
])
def test_layout_shift_while_starting_and_drawing(page: Page, site_url: str, width: int,
                                                 height: int, doi: str) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.add_init_script(CLS_OBSERVER.replace("() => {", "(() => {", 1) + ")()")
    page.goto(site_url + (f"#doi={doi}" if doi else ""))
    assert page.evaluate(READY) is True
    expect(page.locator("#boot")).to_have_attribute("data-phase", "ready")
    if doi:
        found = reading(doi)
        assert found.selected is not None
        expect(page.locator("#result-name")).to_have_text(
            found.candidates[found.selected].doi.name)
    page.wait_for_timeout(500)
    cls = page.evaluate("() => window.__shifts.reduce((a, b) => a + b, 0)")
    assert cls <= 0.05, (cls, page.evaluate("() => window.__shifts"))


def test_the_task_card_keeps_the_focus_and_enter_resolves(
        page: Page, site_url: str, doi_routes: DoiRoutes) -> None:
    open_page(page, site_url, doi="10.1000/182")
    box = page.locator("#doi-input")
    box.focus()
    box.press("Enter")
    line = page.locator("#resolve-outcome")
    expect(line).to_have_attribute("data-outcome", "ok")
    expect(box).to_be_focused()
    # The handle record once; Enter also reads what the name identifies (Which RA first).
    asked = [DoiRoutes.key(u) for u in doi_routes.requests]
    assert [k for k in asked if k.startswith("/api/")] == ["/api/handles/10.1000/182"]
    # The card shows while it loads; the Which-RA request is made by then, settled after.
    expect(page.locator("#work-card")).to_have_attribute("data-state", re.compile("found|failed"))
    assert "/ra/10.1000/182" in [DoiRoutes.key(u) for u in doi_routes.requests]
    # The handle record (with its administrators) is folded under what it means.
    expect(page.locator("details.record-details")).not_to_have_attribute("open", "")
    expect(line).to_contain_text("10.1000/182 leads to")


# Batch for real lists ---------------------------------------------------------------------

def test_batch_reads_records_not_lines(page: Page, site_url: str) -> None:
    text = mixed_list()
    job = host_job(text)
    rows = job.rows
    assert len(rows) < len(text.splitlines()) // 3  # a record is one row, not its lines
    open_page(page, site_url)
    run_batch(page, text)
    expect(page.locator("#batch-shown")).to_have_text(f"Showing all {len(rows)} rows")
    summary = job.session.summary.as_dict()
    for key in ("dois", "unique", "duplicates", "errors", "no_doi"):
        expect(page.locator(f'#batch-summary [data-count="{key}"]')).to_have_text(
            f"{summary[key]:,}")
    keys = [r.record for r in rows if r.record]
    assert keys, "the fixtures have keyed records"
    page.fill("#batch-search", keys[0])
    expect(page.locator("#batch-body tr[data-row] td.col-record").first).to_have_text(keys[0])
    page.fill("#batch-search", "")
    # Every download is the host's, byte for byte.
    assert download_bytes(page, "#batch-csv").decode("utf-8") == job.export("csv")
    unique = download_bytes(page, "#batch-unique").decode("utf-8")
    assert unique == job.export("csv", unique=True)
    excel = download_bytes(page, "#batch-excel")
    assert excel.startswith(b"\xef\xbb\xbf")
    assert excel.decode("utf-8") == job.export("csv", excel=True)


def test_the_count_cards_filter(page: Page, site_url: str) -> None:
    text = "no DOI here\n10.1000/x\n10.1000/X\nDOI: 10.abc/123"
    job = host_job(text)
    open_page(page, site_url)
    run_batch(page, text)
    card = page.locator('#batch-summary button[data-filter="duplicate"]')
    card.click()
    expect(card).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#batch-filter")).to_have_value("duplicate")
    expect(page.locator("#batch-body tr[data-row]")).to_have_count(
        sum(r.status == "duplicate" for r in job.rows))
    page.locator('#batch-summary button[data-filter="error"]').click()
    expect(page.locator("#batch-body tr[data-row]")).to_have_count(
        sum(r.status == "error" for r in job.rows))


def test_after_resolve_all_unknown_and_unreachable_names_are_found(
        page: Page, site_url: str, doi_routes: DoiRoutes) -> None:
    text = "10.1000/182\n10.1000/does-not-exist\n10.1000/cut-off\n10.1000/does-not-exist"
    doi_routes.fail("/api/handles/10.1000/cut-off", "failed")
    job = host_job(text)
    open_page(page, site_url)
    run_batch(page, text)
    page.click("#batch-resolve")
    expect(page.locator("#batch-status")).to_contain_text("Resolved 3 names", timeout=30_000)
    expect(page.locator('#batch-summary [data-count="not-found"]')).to_have_text("1")
    expect(page.locator('#batch-summary [data-count="unreachable"]')).to_have_text("1")
    page.locator('#batch-summary button[data-filter="not-found"]').click()
    rows = page.locator("#batch-body tr[data-row]")
    expect(rows).to_have_count(1)
    expect(rows.first).to_have_attribute("data-status", "not-found")
    page.select_option("#batch-filter", "unreachable")
    expect(rows).to_have_count(1)
    expect(rows.first.locator("td.col-doi")).to_have_text("10.1000/cut-off")
    # The CSV says the same (the statuses come from Python's export)
    page.select_option("#batch-filter", "all")
    got = download_bytes(page, "#batch-csv").decode("utf-8")
    statuses = [row["status"] for row in csv.DictReader(io.StringIO(got))]
    assert statuses.count("not-found") == 1 and statuses.count("unreachable") == 1
    assert len(statuses) == len(job.rows)


def test_a_large_resolve_all_asks_first(page: Page, site_url: str,
                                        doi_routes: DoiRoutes) -> None:
    text = "\n".join(f"10.1000/n{i}" for i in range(120))
    open_page(page, site_url)
    run_batch(page, text)
    page.click("#batch-resolve")
    ask = page.locator("#batch-status .ask")
    expect(ask).to_contain_text("120 requests")
    expect(page.get_by_role("button", name="Resolve 120 names")).to_be_focused()
    page.get_by_role("button", name="Not now").click()
    expect(ask).to_have_count(0)
    assert doi_routes.requests == []


def test_a_new_batch_asks_before_stopping_a_running_one(page: Page, site_url: str) -> None:
    open_page(page, site_url)
    page.evaluate("""() => {
      const lines = [];
      for (let i = 0; i < 100000; i++) lines.push(`see doi:10.1000/r${i} p. ${i}`);
      document.getElementById("batch-input").value = lines.join("\\n");
    }""")
    page.click("#batch-run")
    expect(page.locator("#batch-cancel")).to_be_enabled()
    page.evaluate("() => document.getElementById('batch-run').click()")
    ask = page.locator("#batch-status .ask")
    expect(ask).to_contain_text("A batch is still running")
    page.get_by_role("button", name="Keep it running").click()
    expect(ask).to_have_count(0)
    expect(page.locator("#batch-cancel")).to_be_enabled()
    page.click("#batch-cancel")
    expect(page.locator("#batch-status")).to_contain_text("Cancelled")
