"""The page's part of bench/batch.py: a batch in Chromium, through the built site.

``window.doiname.batch`` on the bench's lines (with the naive scan of the same lines in
the same run, since the issue's 3 s were set on a machine of another speed); how often
progress is reported during a batch and how soon ``cancel()`` is answered; the longest
main-thread task while a long list is pasted into Batch; and the worker's WebAssembly
heap while Batch reads a large file. Run by ``bench/batch.py`` (``--page-lines``,
``--file-mb``, ``--no-page``), which hands it its lines and its naive scan; the figures
go back to that bench's table.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from common import ARGS, CHROMIUM, ROOT, Figure, as_ratio, spread, timed  # (pycore on the path)

from doiname import limits

#: The page's goal for a batch, as a rate (a run of fewer lines is held to the same).
PAGE_RATE = 100_000 / 3
PAGE_GOAL = ">= 33,333 lines/s (100,000 lines in <= 3 s)"

LONGTASKS = """window.__longtasks = [];
new PerformanceObserver((l) => {
  for (const e of l.getEntries()) window.__longtasks.push(e.duration);
}).observe({ type: "longtask", buffered: true });"""


ANSWERS = """async ([text, after]) => {
  // cancel() from the `after`-th progress report: at that moment the next step has just
  // been asked (before the report is drawn), so the Cancel waits for a whole step, the
  // longest it can wait; a fixed delay instead would find a fast machine done already
  const gaps = [];
  let last = null;
  let reports = 0;
  let t0 = null;
  const handle = window.doiname.startBatch(text, { onProgress: () => {
    const now = performance.now();
    if (last !== null) gaps.push(now - last);
    last = now;
    if (++reports === after) {
      t0 = performance.now();
      handle.cancel();
    }
  } });
  let cancel = null;
  // (settled either way: the step asked before the Cancel may have been the last)
  await handle.finished.catch(() => {});
  if (t0 !== null) cancel = performance.now() - t0;
  await handle.close();
  return { gaps, cancel, reports };
}"""


def answer_bench(page: Any, text: str, rounds: int) -> list[Figure]:
    """How soon the page hears of a batch under way: the time between two progress
    reports while ``text`` is read (each a step of the worker's), and from
    ``cancel()`` until the batch stops (says it was cancelled, or done when the step
    asked already, which comes first, was the last). Cancel is pressed at a progress
    report after the first few: the worst moment, whatever the machine's speed."""
    # the whole text (read in pieces: over PIECE_CHARS) and the most of its first lines
    # that is sent at once (at most PIECE_CHARS characters)
    short, size = [], 0
    for line in text.split("\n"):
        size += len(line) + 1
        if size > limits.PIECE_CHARS:
            break
        short.append(line)
    figures: list[Figure] = []
    for sample, after in ((text, 5), ("\n".join(short), 2)):
        gaps: list[float] = []
        cancels: list[float] = []
        for _ in range(rounds):
            got = page.evaluate(ANSWERS, [sample, after])
            gaps += got["gaps"]
            if got["cancel"] is not None:
                cancels.append(got["cancel"])
        how = "in pieces" if len(sample) > limits.PIECE_CHARS else "sent whole"
        lines = sample.count("\n") + 1
        if not gaps or not cancels:
            print(f"page answers during a batch of {lines:,} lines ({how}): done in fewer "
                  f"than {after} progress reports, nothing to cancel")
            continue
        gaps.sort()
        p95 = gaps[min(len(gaps) - 1, int(len(gaps) * 0.95))]
        print(f"page answers during a batch of {lines:,} lines ({how}): "
              f"progress every {statistics.median(gaps):.0f} ms (95% within {p95:.0f} ms, "
              f"longest {gaps[-1]:.0f} ms, {len(gaps)} reports); cancel() at report {after} "
              f"until it stops: median {statistics.median(cancels):.0f} ms, longest "
              f"{max(cancels):.0f} ms ({len(cancels)} rounds; target: both within 100 ms)")
        figures += [
            Figure(f"page, a batch of {lines:,} lines ({how}): time between progress reports, "
                   "95th percentile", f"{p95:.0f} ms", "<= 100 ms",
                   f"median {statistics.median(gaps):.0f} ms, longest {gaps[-1]:.0f} ms",
                   p95 <= 100),
            Figure(f"page, a batch of {lines:,} lines ({how}): from cancel() until it "
                   "stops, longest", f"{max(cancels):.0f} ms", "<= 100 ms",
                   f"median {statistics.median(cancels):.0f} ms", max(cancels) <= 100),
        ]
    return figures


# A longer paste is streamed to the worker at once; a shorter one fills the box (limits.py).
PASTE_STREAM_CHARS = limits.BATCH_PASTE_STREAM_CHARS


def paste_bench(page: Any, text: str, rounds: int) -> Figure:
    """The longest main-thread task while ``text`` is pasted into Batch and searched."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    longest: list[float] = []
    for _ in range(rounds):
        page.click("#batch-clear")
        page.evaluate("(t) => navigator.clipboard.writeText(t)", text)
        page.focus("#batch-input")
        mark = page.evaluate("() => window.__longtasks.length")
        page.keyboard.press("Control+V")
        if len(text) <= PASTE_STREAM_CHARS:  # the box takes a short paste; Ctrl+Enter starts it
            page.wait_for_function("(n) => document.getElementById('batch-input').value.length"
                                   " === n", arg=len(text))
            page.keyboard.press("Control+Enter")
        page.wait_for_function("() => /Done:/.test(document.getElementById('batch-status')"
                               ".textContent)", timeout=600_000)
        longest.append(page.evaluate("(m) => Math.max(0, ...window.__longtasks.slice(m))", mark))
    lines = text.count("\n") + 1
    print(f"page paste, {lines:,} lines into Batch (Ctrl+V) until done: longest main-thread "
          f"task {statistics.median(longest):.0f} ms ({spread([t / 1000 for t in longest])}; "
          "target: <= 200 ms)")
    top = statistics.median(longest)
    return Figure(f"page, {lines:,} lines pasted into Batch (Ctrl+V) until done: longest "
                  "main-thread task", f"{top:.0f} ms", "<= 200 ms", "", top <= 200)


def file_bench(page: Any, megabytes: int, lines: list[str]) -> Figure:
    """The worker's heap while Batch reads a file of ``megabytes`` MB (streamed)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "list.txt"
        block = ("\n".join(lines) + "\n").encode()
        with path.open("wb") as f:
            written = 0
            while written < megabytes * 1_000_000:
                f.write(block)
                written += len(block)
        page.click("#batch-clear")
        start = time.perf_counter()
        page.set_input_files("#batch-file", str(path))
        heap: list[int] = []
        while True:
            info = page.evaluate("() => window.doiname.info()")
            heap.append(int(info["memory"]["wasm_heap_bytes"] or 0))
            done = page.evaluate("() => /Done:|failed/.test(document.getElementById("
                                 "'batch-status').textContent)")
            if done:
                break
            page.wait_for_timeout(2000)
        seconds = time.perf_counter() - start
        status = page.inner_text("#batch-status")
    print(f"page file, {written / 1e6:,.0f} MB opened in Batch: {seconds:,.0f} s, worker heap "
          f"max {max(heap) / 2**20:,.0f} MiB (samples every 2 s, MiB: "
          f"{', '.join(f'{h / 2**20:,.0f}' for h in heap[:: max(1, len(heap) // 12)])}); "
          f"{status.strip()[:160]}")
    top = max(heap) / 2**20
    return Figure(f"page, a {written / 1e6:,.0f} MB file opened in Batch: largest worker heap",
                  f"{top:,.0f} MiB", "far below 2 GiB", f"{seconds:,.0f} s", top < 1024)


def page_bench(lines: list[str], run_naive: Callable[[list[str]], None], rounds: int,
               file_lines: list[str], file_mb: int = 0) -> list[Figure]:
    """The page's figures for ``lines`` (``run_naive``: the naive scan of the same lines,
    timed here in the same run) and, with ``file_mb``, a file made of ``file_lines``."""
    import threading

    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("page: playwright not installed; skipped")
        return []

    site = ROOT / "dist" / "site"
    if not (site / "index.html").is_file() or not Path(CHROMIUM).exists():
        print("page: dist/site not built or Chromium missing; skipped")
        return []
    from doiname_build import serve  # the site's own server (MIME types, CORS)

    server = serve.make_server(site, 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    n = len(lines)
    text = "\n".join(lines)
    ours: list[float] = []
    naive: list[float] = []  # the naive scan of the same lines here, round by round
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        page.add_init_script(LONGTASKS)
        page.goto(f"http://127.0.0.1:{server.server_port}/index.html")
        page.evaluate("() => window.doiname.ready")
        if not page.evaluate("() => typeof window.doiname.batch === 'function'"):
            print("page: window.doiname.batch is not in this build; skipped")
            browser.close()
            server.shutdown()
            return []
        for _ in range(rounds):
            naive.append(timed(run_naive, lines))
            ours.append(page.evaluate("""async (text) => { const t0 = performance.now();
                await window.doiname.batch(text); return performance.now() - t0; }""", text) / 1000)
        figures = answer_bench(page, text, rounds)
        figures.append(paste_bench(page, text, rounds))
        if file_mb:
            figures.append(file_bench(page, file_mb, file_lines))
        browser.close()
    server.shutdown()
    mo = statistics.median(ours)
    ratios = [o / v for o, v in zip(ours, naive, strict=True)]
    print(f"page window.doiname.batch, {n:,} lines: {n / mo:,.0f} lines/s ({spread(ours)}; "
          "target: 100,000 lines in <= 3 s)")
    # The 3 s of the issue were set on this machine when the naive scan (host Python) ran
    # at 290,000-540,000 lines/s, i.e. 3 s was 8.7-16x its time on 100,000 lines.
    print(f"  the same run's naive scan of these lines (host Python): "
          f"{n / statistics.median(naive):,.0f} lines/s; page / naive scan median "
          f"{statistics.median(ratios):.1f}x (the issue's 3 s: 8.7-16x the naive scan as it "
          "ran then, 290,000-540,000 lines/s)")
    return [Figure(f"page, window.doiname.batch on {n:,} lines",
                   f"{n / mo:,.0f} lines/s ({mo:.2f} s)",
                   PAGE_GOAL,
                   f"{as_ratio(statistics.median(ratios))} the naive scan (host Python)",
                   n / mo >= PAGE_RATE), *figures]
