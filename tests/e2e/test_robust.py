"""Hostile and huge input in the page: it stays responsive, bounded and honest, and it
recovers. A 1,000,000-character paste into Inspect, a 6 MB hostile handle record, a
20 MB Batch paste with 99 DOIs a line, a 400 MB answer, a worker closed under the page,
a reply corrupted on its way, and 100,000 pasted lines. Expected values come from the
host's ``doiname``; "responsive" is measured by the browser's own ``longtask`` entries
(a task of the main thread over 50 ms).

Timing bounds: the target is 200 ms for the longest task and 1 s for the length message,
asserted as such with ``DOINAME_STRICT_TIMING=1`` (a quiet machine). By default the
bounds are loose enough for a shared, loaded machine (the house rule: no timing
assertion that noise can break) yet still catch the freezes these tests were written for
(53-164 s for a large record, 3.8-5.1 s for a 100,000-line paste, 14 minutes for a
1,000,000-character Inspect paste); every run prints what it measured.
"""

from __future__ import annotations

import json
import math
import os
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from doiname.batch import BatchJob
from doiname.inspection import inspect
from doiname.limits import (
    BATCH_PASTE_STREAM_CHARS,
    DRAW_MAX_VALUE_CHARS,
    DRAW_MAX_VALUES,
    DRAW_PAGE_VALUES,
    MAX_BODY,
    MAX_VALUES,
)
from doiname.resolver import read_handle_response

from .conftest import DoiRoutes
from .site_page import open_page

pytestmark = pytest.mark.e2e

#: Timing bounds as targets (a quiet machine) or loose (the default; see above).
STRICT = os.environ.get("DOINAME_STRICT_TIMING") == "1"
#: The longest main-thread task allowed while the page works on huge input (ms).
LONGEST_TASK_MS = 200
#: The time for Inspect's length message after a 1,000,000-character paste (ms).
LENGTH_MESSAGE_MS = 1000


def within(measured: float, target: float, loose: float, what: str) -> None:
    """Assert ``measured`` <= ``target`` (strict) or <= ``loose``; print it either way."""
    print(f"{what}: {measured:.0f} ms (target {target:.0f} ms)")
    bound = target if STRICT else loose
    assert measured <= bound, f"{what}: {measured:.0f} ms > {bound:.0f} ms"

#: Every long task of the page, from its first script on (window.__longtasks, in ms).
LONGTASKS = """
window.__longtasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__longtasks.push(Math.round(e.duration));
}).observe({ type: "longtask", buffered: true });
"""


def watch_longtasks(page: Page) -> None:
    page.add_init_script(LONGTASKS)


def longest_task_since(page: Page, mark: int) -> int:
    tasks: list[int] = page.evaluate("(m) => window.__longtasks.slice(m)", mark)
    return max(tasks, default=0)


def task_mark(page: Page) -> int:
    return int(page.evaluate("() => window.__longtasks.length"))


def synthetic_paste(page: Page, selector: str, text: str) -> None:
    """A paste event carrying ``text`` (what Ctrl+V delivers), for texts too large for the
    test's clipboard round trip."""
    page.evaluate("""([sel, text]) => {
      const box = document.querySelector(sel); box.focus();
      const data = new DataTransfer(); data.setData('text/plain', text);
      const ev = new ClipboardEvent('paste',
        {clipboardData: data, bubbles: true, cancelable: true});
      if (box.dispatchEvent(ev)) {
        box.value = text;
        box.dispatchEvent(new Event('input', {bubbles: true}));
      }
    }""", [selector, text])


def test_a_million_characters_in_inspect_get_the_length_message_at_once(page: Page,
                                                                          site_url: str) -> None:
    open_page(page, site_url)
    text = "<" * 1_000_000
    message = inspect(text).message
    elapsed = page.evaluate("""(text) => new Promise((resolve) => {
      const input = document.getElementById('doi-input');
      const box = document.getElementById('inspect-error');
      const start = performance.now();
      const seen = () => !box.hidden && box.textContent.includes('1,000,000');
      new MutationObserver((_, obs) => {
        if (seen()) { obs.disconnect(); resolve(performance.now() - start); }
      }).observe(box, {childList: true, subtree: true, characterData: true, attributes: true});
      input.focus();
      const data = new DataTransfer(); data.setData('text/plain', text);
      input.dispatchEvent(new ClipboardEvent('paste',
        {clipboardData: data, bubbles: true, cancelable: true}));
    })""", text)
    expect(page.locator("#inspect-error")).to_contain_text(message)
    within(elapsed, LENGTH_MESSAGE_MS, 5000, "length message after 1,000,000 characters")
    assert page.eval_on_selector("#doi-input", "(e) => e.value") == ""  # kept out of the box
    # The next normal name is answered at once (no queue of work behind the long text).
    page.fill("#doi-input", "10.1000/182")
    expect(page.locator("#result-name")).to_have_text("10.1000/182", timeout=20_000)


def hostile_record(size: int) -> str:
    """A handle record of about ``size`` bytes: many values, each a long text of spaces,
    invisible characters and markup (each space was once an element of its own)."""
    unit = " \u200b<b>x</b>\u202e" * 300
    values: list[str] = []
    i = 0
    while sum(len(v) for v in values) < size:
        i += 1
        values.append(json.dumps({"index": i, "type": "DESC", "data": {
            "format": "string", "value": f"{i}:{unit}"}, "ttl": 86400,
            "timestamp": "2024-01-01T00:00:00Z"}))
    return '{"responseCode": 1, "handle": "10.1000/182", "values": [' + ",".join(values) + "]}"


def test_a_six_megabyte_hostile_record_is_drawn_in_bounds(page: Page, site_url: str,
                                                          doi_routes: DoiRoutes) -> None:
    body = hostile_record(6 * 1024 * 1024)
    assert len(body.encode()) >= 6 * 1024 * 1024
    doi_routes.answer("/api/handles/10.1000/182", 200, body)
    record = read_handle_response(200, body)
    kept = len(record.values)
    assert kept == min(MAX_VALUES, len(json.loads(body)["values"]))
    watch_longtasks(page)
    open_page(page, site_url, doi="10.1000/182")
    expect(page.locator("#result-name")).to_have_text("10.1000/182")
    mark = task_mark(page)
    page.click("#resolve-button")
    rows = page.locator("#handle-values tbody tr")
    expect(rows).to_have_count(DRAW_MAX_VALUES, timeout=30_000)
    expect(page.locator("#handle-values caption")).to_have_text(
        f"{kept:,} values in the handle record")
    # Each long text is drawn up to the bound, the rest behind its own button.
    text = record.values[0].text
    assert text is not None and len(text) > DRAW_MAX_VALUE_CHARS
    first = page.locator("#handle-values tbody tr").first.locator(".data-text")
    expect(first.locator("button[data-more=text]")).to_contain_text(
        f"({len(text) - DRAW_MAX_VALUE_CHARS:,} of {len(text):,} not shown)")
    # "Show all" shows the values in pages, each replacing the last; every value in reach
    # (the record is folded under what it means: open it first, as a person would).
    page.click("details.record-details > summary")
    page.click("[data-more=values] button")
    expect(rows).to_have_count(DRAW_PAGE_VALUES)
    nxt = page.locator("[data-more=values] button[data-page=next]")
    meta = page.locator("[data-more=values] .meta")
    pages = 1
    while not nxt.is_disabled():
        # A key, not a pointer: each page's rows move the button (a click aimed at where
        # it was can miss), and each page is seen before the next is asked for.
        nxt.press("Enter")
        pages += 1
        expect(meta).to_contain_text(f"Values {(pages - 1) * DRAW_PAGE_VALUES + 1:,}–")
    assert pages == math.ceil(kept / DRAW_PAGE_VALUES)
    expect(rows).to_have_count(kept - (pages - 1) * DRAW_PAGE_VALUES)
    expect(page.locator("[data-more=values] .meta")).to_have_text(
        f"Values {(pages - 1) * DRAW_PAGE_VALUES + 1:,}–{kept:,} of {kept:,}")
    within(longest_task_since(page, mark), LONGEST_TASK_MS, 5000,
           "longest main-thread task, 6 MB record drawn and paged through")
    assert page.evaluate("() => window.__pwned === undefined")


def test_a_huge_answer_is_abandoned_past_the_limit(page: Page, site_url: str) -> None:
    """400 MB from "doi.org" (a stream made in the page, so its bytes exist only as read):
    the page stops reading just past MAX_BODY, says the answer is too large, and the
    tab's memory does not grow by anything near the answer's size."""
    open_page(page, site_url, doi="10.1000/182")
    expect(page.locator("#result-name")).to_have_text("10.1000/182")
    # Every request gets an endless answer of its own (Resolve asks doi.org's handle API and,
    # for the card, Which RA and the registry): the most read of any one of them.
    page.evaluate("""(total) => {
      window.__pulled = 0;
      window.fetch = async () => {
        let pulled = 0;
        return new Response(new ReadableStream({
          pull(c) {
            if (pulled >= total) { c.close(); return; }
            pulled += 1 << 20;
            window.__pulled = Math.max(window.__pulled, pulled);
            c.enqueue(new Uint8Array(1 << 20).fill(32));
          },
        }), {status: 200, headers: {'content-type': 'application/json'}});
      };
    }""", 400 * 1024 * 1024)
    before = page.evaluate("() => performance.memory.usedJSHeapSize")
    page.click("#resolve-button")
    outcome = page.locator("#resolve-outcome")
    expect(outcome).to_have_attribute("data-outcome", "too-large", timeout=30_000)
    pulled = page.evaluate("() => window.__pulled")
    assert pulled <= MAX_BODY + 2 * 1024 * 1024, pulled
    after = page.evaluate("() => performance.memory.usedJSHeapSize")
    # Three requests read at most MAX_BODY each (handle, Which RA, registry), not 400 MB.
    assert after - before < 4 * MAX_BODY, (before, after)


def test_a_worker_closed_under_the_page_is_replaced(page: Page, site_url: str) -> None:
    open_page(page, site_url)
    assert len(page.workers) == 1
    page.workers[0].evaluate("() => { setTimeout(() => self.close(), 0); }")
    # "Ready again: the engine restarted." once the new worker is ready (the phase is
    # still the old "ready" until the page notices the end of the old one).
    expect(page.locator("#boot-message")).to_contain_text("restarted", timeout=60_000)
    expect(page.locator("#boot")).to_have_attribute("data-phase", "ready")
    page.fill("#doi-input", "10.1000/182")
    expect(page.locator("#result-name")).to_have_text("10.1000/182", timeout=60_000)
    assert page.evaluate("() => window.doiname.timings.restarts") == 1


def test_a_corrupted_reply_is_reported_not_dropped(page: Page, site_url: str) -> None:
    open_page(page, site_url)
    page.workers[0].evaluate("""() => {
      const post = self.postMessage.bind(self);
      let once = true;
      self.postMessage = (m, t) => {
        if (once && m && typeof m.json === 'string') {
          once = false;
          m = {...m, json: m.json.slice(0, -7)};
        }
        return post(m, t);
      };
    }""")
    page.fill("#doi-input", "10.1000/182")
    expect(page.locator("#inspect-summary")).to_contain_text("could not be read", timeout=60_000)
    # The engine that sent it is replaced; the next name is answered.
    expect(page.locator("#boot-message")).to_contain_text("restarted", timeout=60_000)
    page.fill("#doi-input", "10.1000/183")
    expect(page.locator("#result-name")).to_have_text("10.1000/183", timeout=60_000)


def counts(page: Page) -> dict[str, int]:
    return {k: int(page.locator(f'#batch-summary [data-count="{k}"]').inner_text().replace(",", ""))
            for k in ("lines", "dois", "unique", "duplicates", "errors", "no_doi")}


def host_counts(text: str) -> dict[str, int]:
    job = BatchJob(text)
    while not job.done:
        job.step(100_000, 60)
    s = job.session.summary.as_dict()
    return {k: int(s[k]) for k in ("lines", "dois", "unique", "duplicates", "errors", "no_doi")}


def test_a_twenty_megabyte_paste_with_99_dois_a_line(page: Page, site_url: str) -> None:
    def line_of(i: int) -> str:
        return " ".join(f"10.{1000 + j % 7}/r{i}.{j}" for j in range(99))

    lines: list[str] = []
    size = 0
    while size < 20 * 1024 * 1024:
        lines.append(line_of(len(lines)))
        size += len(lines[-1]) + 1
    text = "\n".join(lines)
    watch_longtasks(page)
    open_page(page, site_url)
    mark = task_mark(page)
    synthetic_paste(page, "#batch-input", text)
    assert page.eval_on_selector("#batch-input", "(e) => e.value.length") < len(text)
    expect(page.locator("#batch-status")).to_contain_text("Done:", timeout=600_000)
    assert counts(page) == host_counts(text)
    info: dict[str, Any] = page.evaluate("() => window.doiname.info()")
    heap = info["memory"]["wasm_heap_bytes"]
    assert heap is not None and heap < 1024 ** 3, f"worker heap {heap / 2**20:.0f} MiB"
    longest = longest_task_since(page, mark)
    print(f"20 MB paste: worker heap {heap / 2**20:.0f} MiB, longest task {longest} ms")


def test_a_hundred_thousand_lines_pasted_never_block_the_page(context: BrowserContext,
                                                              page: Page, site_url: str) -> None:
    text = "\n".join(f"[{i}] Doe A. Title. J Med. 2018;5:1-9. doi:10.{1000 + i % 50}/jm.{i}."
                     for i in range(100_000))
    assert len(text) > BATCH_PASTE_STREAM_CHARS
    watch_longtasks(page)
    open_page(page, site_url)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.evaluate("(t) => navigator.clipboard.writeText(t)", text)
    page.focus("#batch-input")
    mark = task_mark(page)
    page.keyboard.press("Control+V")
    expect(page.locator("#batch-status")).to_contain_text("Done:", timeout=300_000)
    assert counts(page) == host_counts(text)
    longest = longest_task_since(page, mark)
    within(longest, LONGEST_TASK_MS, 2000, "longest main-thread task, 100,000 lines pasted")
    # The box shows the paste's beginning; Find DOIs reads the whole paste again.
    shown = page.eval_on_selector("#batch-input", "(e) => e.value")
    assert text.startswith(shown) and 0 < len(shown) < len(text)
