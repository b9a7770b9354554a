"""Batch throughput: ``doiname batch`` on 1,000,000 lines, and the page on 100,000.

CLI: lines/s of ``iter_batch_rows`` + ``write_csv`` over a generated reference list (a mix
of citation lines, bare names, links, SICI names, duplicates and lines without DOIs), and
the ratio to a plain loop that only splits the same text into lines and writes them, in
the same process. Page: if ``dist/site`` is built and Chromium is installed, the time the
page's ``window.doiname.batch`` takes on 100,000 lines vs. a plain JS loop that splits the
same text in the same page. Prints medians and ranges over alternating rounds; never asserts.

    python3 bench/batch.py [--lines N] [--page-lines N] [--rounds R] [--no-page]
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "pycore"))

from doiname.batch import BatchSession, iter_batch_rows, write_csv  # noqa: E402

TEMPLATES = [
    "Smith, J. (2019). A study of things. Journal of Stuff, 12(3), 45-67. https://doi.org/10.{r}/js.{n}",
    "[{n}] Doe A, Roe B. Title of the article. J Med. 2018;5:1-9. doi:10.{r}/jm.2018.{n}",
    "10.{r}/abc.{n}",
    "Hert CA. Facilitating statistical information seeking. JASIS. 1998;49(8):693. "
    "doi:10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O",
    "no identifier on this line, only 10.5 percent and ISBN 978-3-16-148410-0",
    "https://doi-org.ezproxy.example.edu/10.{r}/x%23{n}",
    "DOI: 10.{r}/DUP.{m}",
]


def make_lines(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    return [rng.choice(TEMPLATES).format(r=rng.randrange(1000, 9999), n=rng.randrange(10**6),
                                         m=rng.randrange(1000)) for _ in range(n)]


def run_cli(lines: list[str]) -> None:
    out = io.StringIO()
    write_csv(iter_batch_rows(lines, BatchSession()), out)


def run_plain(lines: list[str]) -> None:
    out = io.StringIO()
    for line in "\n".join(lines).split("\n"):
        out.write(line)
        out.write("\r\n")


def timed(fn: Callable[[list[str]], None], lines: list[str]) -> float:
    t0 = time.perf_counter()
    fn(lines)
    return time.perf_counter() - t0


def page_bench(n: int, rounds: int) -> None:
    import threading

    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("page: playwright not installed; skipped")
        return
    site = ROOT / "dist" / "site"
    if not (site / "index.html").is_file() or not Path("/usr/bin/chromium").exists():
        print("page: dist/site not built or /usr/bin/chromium missing; skipped")
        return
    from doiname_build import serve  # the site's own server (MIME types, CORS)

    server = serve.make_server(site, 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    text = "\n".join(make_lines(n, seed=11))
    ours: list[float] = []
    plain: list[float] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{server.server_port}/index.html")
        page.evaluate("() => window.doiname.ready")
        if not page.evaluate("() => typeof window.doiname.batch === 'function'"):
            print("page: window.doiname.batch is not in this build; skipped")
            browser.close()
            server.shutdown()
            return
        for _ in range(rounds):
            ours.append(page.evaluate("""async (text) => { const t0 = performance.now();
                await window.doiname.batch(text); return performance.now() - t0; }""", text) / 1000)
            plain.append(page.evaluate("""(text) => { const t0 = performance.now(); let n = 0;
                for (const line of text.split('\\n')) n += line.length;
                return performance.now() - t0; }""", text) / 1000)
        browser.close()
    server.shutdown()
    mo, mp = statistics.median(ours), statistics.median(plain)
    print(f"page batch, {n:,} lines: {n / mo:,.0f} lines/s (median {mo:.2f} s, range "
          f"{min(ours):.2f}-{max(ours):.2f} s); plain JS split {n / mp:,.0f} lines/s; "
          f"ratio {mo / mp:.0f}x slower than splitting")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=1_000_000)
    ap.add_argument("--page-lines", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--no-page", action="store_true")
    args = ap.parse_args()
    lines = make_lines(args.lines)
    t_cli: list[float] = []
    t_plain: list[float] = []
    for _ in range(args.rounds):
        t_cli.append(timed(run_cli, lines))
        t_plain.append(timed(run_plain, lines))
    mc, mp = statistics.median(t_cli), statistics.median(t_plain)
    print(f"CLI batch, {args.lines:,} lines (Python {sys.version.split()[0]}): "
          f"{args.lines / mc:,.0f} lines/s (median {mc:.2f} s, range {min(t_cli):.2f}-"
          f"{max(t_cli):.2f} s); plain split+write loop {args.lines / mp:,.0f} lines/s; "
          f"ratio {mc / mp:.0f}x the plain loop's time")
    if not args.no_page:
        page_bench(args.page_lines, args.rounds)


if __name__ == "__main__":
    main()
