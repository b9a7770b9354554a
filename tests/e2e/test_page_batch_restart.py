"""A Batch stopped by an engine restart says how far it got and goes on from there.

The test closes the worker in the middle of a 100,000-line batch (duplicates on both
sides of the cut), presses "Go on" with the keyboard, and compares the final table,
counts and download with what the core on the host makes of the whole text: exactly
the rows of a batch never stopped, duplicate marks across the cut included."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from doiname.limits import BATCH_PASTE_STREAM_CHARS

from .batch_page import (
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


def close_worker_mid_run(page: Page) -> None:
    """Wait until the batch is under way (some rows drawn, far from the end), then close
    the engine's worker under it."""
    deadline = time.monotonic() + 60
    while progress(page) < 0.05 and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert running(page) and 0 < progress(page) < 0.9, progress(page)
    assert len(page.workers) == 1
    page.workers[0].evaluate("() => { setTimeout(() => self.close(), 0); }")


def go_on(page: Page, total: int) -> int:
    """Read the stop message, press its button with the keyboard; return the line it
    stopped at."""
    status = page.locator("#batch-status")
    expect(status).to_contain_text("by an engine restart", timeout=30_000)
    text = status.inner_text()
    found = re.search(r"Stopped at line ([\d,]+) of ([\d,]+)", text)
    assert found is not None, text
    stopped = int(found.group(1).replace(",", ""))
    assert 0 < stopped < total and int(found.group(2).replace(",", "")) <= total, text
    button = page.get_by_role("button", name=f"Go on from line {stopped + 1:,}")
    expect(button).to_be_focused()
    # the counts of the lines done stay: one per record (a wrapped reference is one)
    assert 0 < count(page, "lines") <= stopped
    page.keyboard.press("Enter")
    return stopped


def test_a_batch_stopped_by_a_restart_goes_on_to_the_rows_of_an_uninterrupted_run(
        context: BrowserContext, page: Page, site_url: str) -> None:
    text = make_text(100_000, seed=11)
    rows = host_rows(text)
    expected = summary_of(rows)
    assert expected["duplicates"] > 10_000
    open_page(page, site_url)
    paste(context, page, "#batch-input", text)
    # A long paste starts at once (the Batch view holds it and reads it in pieces); the
    # person's focus is then on a button of the status line ("Stop and start again?").
    assert len(text) > BATCH_PASTE_STREAM_CHARS
    page.click("#batch-run")
    expect(page.get_by_role("button", name="Keep it running")).to_be_visible()
    close_worker_mid_run(page)
    stopped = go_on(page, 100_000)
    # The duplicates after the cut include names first seen before it.
    assert any(r.status == "duplicate" and r.line > stopped and r.duplicate_of is not None
               and r.duplicate_of <= stopped for r in rows)

    expect(page.locator("#batch-status")).to_contain_text("Done:", timeout=180_000)
    assert progress(page) == 1
    for key, value in expected.items():
        assert count(page, key) == value, key
    expect(page.locator("#batch-shown")).to_have_text(f"Showing all {len(rows):,} rows")
    assert page.get_attribute("#batch-table", "aria-rowcount") == str(len(rows) + 1)
    # Every row, in order, with its status and duplicate_of, as the CLI writes them.
    assert read_download(page, "#batch-csv") == host_csv(rows)
    page.select_option("#batch-filter", "duplicate")
    expect(page.locator("#batch-shown")).to_have_text(
        f"Showing {expected['duplicates']:,} of {len(rows):,} rows")
    assert page.evaluate("() => window.doiname.timings.restarts") == 1


def test_a_file_stopped_by_a_restart_goes_on(page: Page, site_url: str, tmp_path: Path) -> None:
    """A file (read as a stream) is still in the page: going on reads it again."""
    text = make_text(100_000, seed=12)
    rows = host_rows(text)
    expected = summary_of(rows)
    path = tmp_path / "list.txt"
    path.write_text(text, encoding="utf-8", newline="")
    open_page(page, site_url)
    page.set_input_files("#batch-file", str(path))
    close_worker_mid_run(page)
    go_on(page, 100_000)
    expect(page.locator("#batch-status")).to_contain_text("Done:", timeout=180_000)
    for key, value in expected.items():
        assert count(page, key) == value, key
    assert read_download(page, "#batch-csv") == host_csv(rows)


def test_a_new_batch_after_a_restart_is_not_the_old_one(page: Page, site_url: str) -> None:
    """Starting a new batch closes the old one; after a restart the old job's number
    must not name the new engine's new job."""
    open_page(page, site_url)
    page.fill("#batch-input", "10.1000/1\n10.1000/1")
    page.click("#batch-run")
    expect(page.locator("#batch-status")).to_contain_text("Done: 2 lines")
    page.workers[0].evaluate("() => { setTimeout(() => self.close(), 0); }")
    expect(page.locator("#boot-message")).to_contain_text("restarted", timeout=60_000)
    expect(page.locator("#boot")).to_have_attribute("data-phase", "ready", timeout=60_000)
    page.fill("#batch-input", "10.1000/2\n10.1000/3\n10.1000/2")
    page.click("#batch-run")
    expect(page.locator("#batch-status")).to_contain_text("Done: 3 lines", timeout=60_000)
    assert count(page, "duplicates") == 1
    assert read_download(page, "#batch-csv").count("10.1000/") >= 3
