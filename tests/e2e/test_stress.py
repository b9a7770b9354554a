"""Bad input at scale in the page: a 1 MB paste, 10,000 rapid keystrokes and
100,000 calls in a row. The page stays responsive (it keeps answering), the last input
wins, and memory (the JS heap and Python's) settles instead of growing with the work.
No timing assertions: "responsive" means the page answers while the work goes on.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

import doiname
from doiname.inspection import inspect
from doiname.limits import INSPECT_MAX_CHARS

from .site_page import open_page

GC = "() => { if (window.gc) window.gc(); }"


def memory(page: Page) -> dict[str, Any]:
    info: dict[str, Any] = page.evaluate("() => window.doiname.info()")
    heap = page.evaluate("() => performance.memory ? performance.memory.usedJSHeapSize : 0")
    return {"js": heap, **info["memory"]}


def test_one_megabyte_paste(page: Page, site_url: str) -> None:
    open_page(page, site_url)
    big = "10.1000/" + "x" * 1_000_000
    page.fill("#doi-input", big)
    # The page answers a click on another control while (or after) it works on 1 MB.
    page.fill("#eq-a", "10.1000/ABC")
    page.fill("#eq-b", "10.1000/abc")
    expect(page.locator("#eq-output")).to_contain_text("Equivalent", timeout=60_000)
    # Inspect reads a bounded text: a 1 MB paste is told so (and pointed to Batch).
    too_long = inspect(big)
    assert too_long.verdict == "too-long" and f"{INSPECT_MAX_CHARS:,}" in too_long.message
    expect(page.locator("#inspect-error")).to_contain_text(too_long.message, timeout=60_000)
    expect(page.locator("#inspect-task")).to_be_hidden()  # no name, no link to copy
    # A 1 MB paste that is not a DOI gets the same, not a frozen page.
    page.fill("#doi-input", "%" * 1_000_000)
    expect(page.locator("#inspect-error")).to_contain_text(inspect("%" * 1_000_000).message,
                                                          timeout=60_000)


def test_ten_thousand_keystrokes_last_one_wins(page: Page, site_url: str) -> None:
    open_page(page, site_url)
    final = "10.1000/456#789"
    page.evaluate("""(final) => { const input = document.getElementById('doi-input');
      for (let i = 0; i < 10000; i++) {
        input.value = final.slice(0, 8) + String(i);
        input.dispatchEvent(new Event('input', {bubbles: true}));
      }
      input.value = final; input.dispatchEvent(new Event('input', {bubbles: true})); }""", final)
    expect(page.locator("#result-name")).to_have_text(final, timeout=60_000)
    assert "10.1000/456%23789" in page.inner_text("#inspect")


def test_hundred_thousand_calls_memory_settles(page: Page, site_url: str) -> None:
    open_page(page, site_url)
    names = [f"10.{1000 + i % 50}/x#{i}" for i in range(100)]
    expected = [doiname.to_url(n) for n in names]
    rounds: list[dict[str, Any]] = []
    for _ in range(4):  # 4 x 25,000 = 100,000 calls
        got = page.evaluate("""async (names) => { const out = [];
          for (let k = 0; k < 250; k++) {
            const batch = await Promise.all(names.map(n => window.doiname.call('to_url', n)));
            if (k === 249) out.push(...batch);
          }
          return out; }""", names)
        assert got == expected
        page.evaluate(GC)
        rounds.append(memory(page))
    first, last = rounds[1], rounds[-1]  # round 0 warms caches up
    # Python's live blocks and the wasm heap do not grow with the number of calls.
    assert last["python_blocks"] <= first["python_blocks"] * 1.2 + 20_000, rounds
    if first["wasm_heap_bytes"]:
        assert last["wasm_heap_bytes"] <= first["wasm_heap_bytes"] * 1.2 + 16 * 2**20, rounds
    if first["js"]:
        assert last["js"] <= first["js"] * 1.5 + 16 * 2**20, rounds
    # And the page still answers a person.
    page.fill("#doi-input", "10.1000/182")
    expect(page.locator("#result-name")).to_have_text("10.1000/182", timeout=20_000)
