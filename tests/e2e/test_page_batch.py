"""The Batch view and ``window.doiname.batch``.

A 100,000-line paste (a real Ctrl+V from the clipboard) runs in the worker while the
page stays usable; the progress bar moves, the counts and both downloads are compared
with what the core computes on the host for the same text, Cancel keeps the rows done
so far, and the table draws only the rows in sight. Expected values always come from
the host's ``doiname.batch``, never from this file.
"""

from __future__ import annotations

import csv
import io
import json
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from doiname.batch import BatchJob
from doiname.batch.status import STATUSES

from .batch_page import (
    REFERENCES,
    count,
    host_csv,
    host_rows,
    make_text,
    paste,
    progress,
    read_download,
    running,
    summary_of,
)
from .site_page import open_page

pytestmark = pytest.mark.e2e


def test_hundred_thousand_lines(context: BrowserContext, page: Page, site_url: str) -> None:
    text = make_text(100_000)
    rows = host_rows(text)
    expected = summary_of(rows)
    assert expected["duplicates"] > 10_000 and expected["errors"] > 1000  # a real dedupe job
    open_page(page, site_url)
    paste(context, page, "#batch-input", text)
    page.click("#batch-run")

    # The progress bar moves while the worker works.
    seen: set[float] = set()
    deadline = time.monotonic() + 60
    while len({v for v in seen if 0 < v < 1}) < 3 and time.monotonic() < deadline:
        seen.add(progress(page))
        page.wait_for_timeout(100)
    assert len({v for v in seen if 0 < v < 1}) >= 3, seen
    assert running(page)

    # The page answers meanwhile: another control's result comes while the batch runs.
    page.click('button[data-example^="10.1002/(SICI)"]')
    expect(page.locator("#result-name")).to_have_text(
        "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O", timeout=60_000)
    assert running(page) and progress(page) < 1, "the batch ended before the check"
    # Scrolling the (partial) table also works meanwhile.
    page.locator("#batch-scroll").evaluate("(e) => { e.scrollTop = 3000; }")

    expect(page.locator("#batch-status")).to_contain_text("Done:", timeout=180_000)
    assert progress(page) == 1
    for key, value in expected.items():
        assert count(page, key) == value, key
    expect(page.locator("#batch-shown")).to_have_text(f"Showing all {len(rows):,} rows")
    # Only the rows in sight are in the document.
    drawn = page.locator("#batch-body tr[data-row]").count()
    assert 0 < drawn < 100
    assert page.get_attribute("#batch-table", "aria-rowcount") == str(len(rows) + 1)

    # The CSV download is exactly what the CLI would write for this text.
    assert read_download(page, "#batch-csv") == host_csv(rows)

    # The filter offers every status of Python's table, in its order, by its name.
    options = page.locator("#batch-filter option").evaluate_all(
        "(os) => os.map((o) => [o.value, o.textContent])")
    assert options == [["all", "All rows"], *([s.status, s.rows] for s in STATUSES)]

    # Filter: duplicates only; the shown-rows download has exactly those, in order.
    page.select_option("#batch-filter", "duplicate")
    expect(page.locator("#batch-shown")).to_have_text(
        f"Showing {expected['duplicates']:,} of {len(rows):,} rows")
    statuses = page.locator("#batch-body tr[data-row]").evaluate_all(
        "(rows) => rows.map((r) => r.dataset.status)")
    assert statuses and set(statuses) == {"duplicate"}
    page.check("#batch-shown-only")
    data = json.loads(read_download(page, "#batch-json"))
    assert data == [r.as_dict() for r in rows if r.status == "duplicate"]


def test_cancel_keeps_the_rows_done(context: BrowserContext, page: Page, site_url: str) -> None:
    text = make_text(100_000, seed=9)
    rows = host_rows(text)
    open_page(page, site_url)
    paste(context, page, "#batch-input", text)
    page.click("#batch-run")
    deadline = time.monotonic() + 60
    while progress(page) < 0.05 and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    page.click("#batch-cancel")
    expect(page.locator("#batch-status")).to_contain_text("Cancelled after", timeout=60_000)
    assert not running(page)
    lines = count(page, "lines")
    assert 0 < lines < 100_000
    # the rows of the first `lines` records (a reference wrapped over lines is one)
    firsts = sorted({r.line for r in rows})
    done = [r for r in rows if r.line <= firsts[lines - 1]]
    assert count(page, "dois") == summary_of(done)["dois"]
    # Cancelled at a line boundary: the download is the host's rows of those lines.
    assert read_download(page, "#batch-csv") == host_csv(done)
    # A new run starts from scratch.
    page.fill("#batch-input", "10.1000/1\n10.1000/1")
    page.click("#batch-run")
    expect(page.locator("#batch-status")).to_contain_text("Done: 2 lines")
    assert count(page, "duplicates") == 1


SMALL = "\n".join([
    "Reading list",
    "LeCun 2015 https://doi.org/10.1038/nature14539",
    "doi:10.1038/NATURE14539",
    "bad: 10.1234/50%zz",
    "Kelvin 10.1000/\u212a",
    "10.1000/182, 10.1000/183",
])


def test_sort_select_and_inspect_with_the_keyboard(page: Page, site_url: str) -> None:
    rows = host_rows(SMALL)
    open_page(page, site_url)
    page.fill("#batch-input", SMALL)
    page.focus("#batch-input")
    page.keyboard.press("Control+Enter")
    expect(page.locator("#batch-status")).to_contain_text("Done: 6 lines")
    body = page.locator("#batch-body tr[data-row]")
    assert body.evaluate_all("(r) => r.map((x) => x.dataset.status)") == [r.status for r in rows]

    page.click('button[data-sort="status"]')
    expect(page.locator("th.col-status")).to_have_attribute("aria-sort", "ascending")
    order = body.evaluate_all("(r) => r.map((x) => x.dataset.status)")
    assert order[0] == "error" and order[-1] == "no-doi"
    page.click('button[data-sort="status"]')
    expect(page.locator("th.col-status")).to_have_attribute("aria-sort", "descending")
    page.click('button[data-sort="line"]')

    # Keyboard: the table region takes focus; arrows select; details follow.
    page.focus("#batch-scroll")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    detail = page.locator("#batch-detail")
    expect(detail.locator("h3")).to_have_text("Line 3: Duplicate")
    expect(detail).to_contain_text("doi:10.1038/NATURE14539")
    page.keyboard.press("ArrowDown")  # the error row: its finding, then its source apart
    bad = next(r for r in rows if r.line == 4)
    expect(detail.locator("h3")).to_have_text("Line 4: Error")
    expect(detail.locator(".findings li")).to_contain_text(bad.findings[0].message)
    expect(detail.locator(".finding-source")).to_have_text(f"Source: {bad.findings[0].source}")
    page.keyboard.press("ArrowUp")
    expect(detail.locator("h3")).to_have_text("Line 3: Duplicate")
    detail.get_by_role("button", name="line 2").click()
    expect(detail.locator("h3")).to_have_text("Line 2: OK")
    expect(page.locator("#batch-body tr.selected")).to_have_attribute("data-row", "1")
    # Enter opens the selected DOI in Inspect.
    page.focus("#batch-scroll")
    page.keyboard.press("Enter")
    expect(page.locator("#doi-input")).to_have_value("https://doi.org/10.1038/nature14539")
    expect(page.locator("#doi-input")).to_be_focused()

    # Search and filter together; a filter with no match says so.
    page.fill("#batch-search", "kelvin")
    expect(page.locator("#batch-shown")).to_have_text(f"Showing 1 of {len(rows)} rows")
    page.select_option("#batch-filter", "error")
    expect(page.locator("#batch-body")).to_contain_text("No rows match the filter.")


def test_open_a_file(page: Page, site_url: str, tmp_path: Path) -> None:
    source = (REFERENCES / "bibtex.bib").read_text(encoding="utf-8")
    # A Windows export: byte-order mark and CRLF line ends; the rows must not change.
    path = tmp_path / "export.bib"
    path.write_bytes(b"\xef\xbb\xbf" + source.replace("\n", "\r\n").encode("utf-8"))
    rows = host_rows(source)
    open_page(page, site_url)
    page.set_input_files("#batch-file", str(path))
    expect(page.locator("#batch-status")).to_contain_text("Done:")
    for key, value in summary_of(rows).items():
        assert count(page, key) == value, key
    got = list(csv.reader(io.StringIO(read_download(page, "#batch-csv"))))
    want = list(csv.reader(io.StringIO(host_csv(rows))))
    assert got == want


def test_a_pubmed_export_is_one_row_a_record(page: Page, site_url: str, tmp_path: Path) -> None:
    # PubMed's export (.nbib, MEDLINE format), opened as a file: a row for each record,
    # its PMID and first author, year and title in the Record column, as the host reads it
    path = tmp_path / "pubmed.nbib"
    source = (REFERENCES / "medline.nbib").read_text(encoding="utf-8")
    path.write_text(source, encoding="utf-8")
    rows = host_rows(source)
    assert len(rows) == 3
    open_page(page, site_url)
    page.set_input_files("#batch-file", str(path))
    expect(page.locator("#batch-status")).to_contain_text(
        "Done: 54 lines in 3 records, 3 DOI names (3 unique, 0 duplicates, 0 unreadable), "
        "0 records without a DOI.")
    got = list(csv.reader(io.StringIO(read_download(page, "#batch-csv"))))
    assert got == list(csv.reader(io.StringIO(host_csv(rows))))
    assert [r[1] for r in got[1:]] == [r.record for r in rows]
    assert got[1][1] == "26017442 · LeCun (2015) Deep learning."


def test_nothing_to_search_is_said(page: Page, site_url: str) -> None:
    open_page(page, site_url)
    page.fill("#batch-input", "   \n  ")
    page.click("#batch-run")
    expect(page.locator("#batch-status")).to_contain_text("There is nothing to search")
    expect(page.locator("#batch-input")).to_be_focused()


def test_batch_api(booted_page: Page) -> None:
    text = make_text(3000, seed=3)
    result: dict[str, Any] = booted_page.evaluate("""async (text) => {
        const progress = [];
        const rows = await window.doiname.batch(text, {onProgress: (p) => progress.push(p)});
        const info = await window.doiname.info();
        return {rows, progress, jobs: info.batch_jobs};
    }""", text)
    assert result["rows"] == [r.as_dict() for r in host_rows(text)]
    done = [p["lines_done"] for p in result["progress"]]
    assert done == sorted(done) and done[-1] == 3000 and result["progress"][-1]["done"]
    assert result["jobs"] == 0  # batch() closes its job

    # startBatch: export picked rows; a cancelled batch rejects with code "cancelled".
    out = booted_page.evaluate("""async (text) => {
        const h = window.doiname.startBatch('10.1000/a\\n10.1000/A\\nnone');
        await h.finished;
        const jsonl = await h.export('jsonl', [1]);
        await h.close();
        const c = new AbortController();
        const h2 = window.doiname.startBatch(text, {signal: c.signal});
        c.abort();
        let code = null;
        try { await h2.finished; } catch (e) { code = e.code; }
        await h2.close();
        let closed = null;
        try { await h2.export('csv'); } catch (e) { closed = e.code; }
        return {jsonl, code, closed};
    }""", text)
    job = BatchJob("10.1000/a\n10.1000/A\nnone")
    while not job.done:
        job.step()
    assert out["jsonl"] == job.export("jsonl", [1])
    assert out["code"] == "cancelled"
    assert out["closed"] == "unknown-job"
