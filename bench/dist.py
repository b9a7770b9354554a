"""The single file and the widget: sizes, boot time against the site.

* The offline single file, ``dist/doi-tool.html``: its size, and each inlined file's raw,
  gzip and written (in the file) size; what base64 would have cost instead; the trimmed
  standard library against the whole one.
* Boot: in one Chromium run, alternating rounds (ABBA, a fresh context each) of the site
  over ``http://127.0.0.1`` and the single file from ``file://`` with every request that
  is not ``file:``, ``data:`` or ``blob:`` refused: time from navigation start to
  ``window.doiname.ready``, to first contentful paint, and to the engine's ``runtime``
  phase (the single file unpacks its files before it). Medians, ranges, the ratio.
* The widget before activation: ``widget.js`` raw and gzip, and what a host page on
  another origin with a ``<doi-tool>`` that is never focused (and no linkify container
  or ``data-doi``, which activate it) actually fetched from the tool.

Prints figures only; never asserts (machines here are noisy: compare the ratios).

    python3 bench/dist.py [--rounds N] [--no-build]
"""

from __future__ import annotations

import argparse
import gzip
import http.server
import re
import statistics
import threading
import zlib
from pathlib import Path

from common import ARGS, CHROMIUM, Figure, as_ratio, table

from doiname_build import paths, runtime, serve
from doiname_build import site as site_build

LOCAL = ("file:", "data:", "blob:")

READY = """() => window.doiname.ready.then(() => {
  const t = window.doiname.timings;
  const paint = Object.fromEntries(performance.getEntriesByType("paint")
    .map((e) => [e.name, e.startTime]));
  return {ready: t.ready, start: t.start, runtime: t.runtime ?? null,
          fcp: paint["first-contentful-paint"] ?? null};
})"""

BLOCK = re.compile(rb'<script type="application/octet-stream" data-doiname-asset="([^"]+)" '
                   rb'data-encoding="([^"]+)" data-size="(\d+)">(.*?)</script>', re.DOTALL)



def mb(n: float) -> str:
    return f"{n / 1e6:6.2f} MB"


def summary(values: list[float]) -> str:
    if not values:
        return "no data"
    return (f"median {statistics.median(values):7.1f} ms  "
            f"(range {min(values):.1f}-{max(values):.1f}, n={len(values)})")


def sizes(single: Path) -> Figure:
    data = single.read_bytes()
    print(f"dist/doi-tool.html: {mb(len(data))} ({len(data):,} bytes; target <= 6 MB)")
    print(f"  {'inlined file':<36}{'raw':>11}{'gzip -9':>11}{'in file':>11}")
    total_gz = 0
    blocks = 0
    for m in BLOCK.finditer(data):
        name, encoding, raw = m.group(1).decode(), m.group(2).decode(), int(m.group(3))
        written = len(m.group(4))
        if encoding == "gzip-1252":
            packed = len(m.group(4)) - m.group(4).count(b"=")
        else:
            packed = len(m.group(4)) * 3 // 4
        total_gz += packed
        blocks += written
        print(f"  {name:<36}{mb(raw)}{mb(packed)}{mb(written)}")
    rest = len(data) - blocks
    print(f"  {'page HTML, CSS, boot script':<36}{'':>11}{'':>11}{mb(rest)}")
    print(f"  the same files as base64 would take {mb(total_gz * 4 / 3 + rest)} "
          f"(gzip bytes written raw in a windows-1252 page instead: "
          f"{(len(data) - rest) / total_gz - 1:+.1%} over the gzip bytes)")
    full = (paths.NODE_PYODIDE / "python_stdlib.zip").read_bytes()
    trimmed = runtime.trimmed_stdlib(full)
    whole = runtime.stored_zip(full)
    print(f"  standard library: whole {mb(len(whole))} stored, "
          f"{mb(len(zlib.compress(whole, 9)))} gzip; trimmed {mb(len(trimmed))} stored, "
          f"{mb(len(zlib.compress(trimmed, 9)))} gzip "
          f"({len(runtime.STDLIB_KEEP)} keep entries)")
    return Figure("the single file, dist/doi-tool.html", f"{len(data) / 1e6:.2f} MB", "<= 6 MB",
                  f"base64 would make it {(total_gz * 4 / 3 + rest) / 1e6:.2f} MB",
                  len(data) <= 6e6)


def boot(site: Path, single: Path, rounds: int) -> list[Figure]:
    from playwright.sync_api import Route, sync_playwright

    server = serve.make_server(site, 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    site_url = f"http://127.0.0.1:{server.server_port}/index.html"
    results: dict[str, dict[str, list[float]]] = {
        k: {"ready": [], "fcp": [], "start": [], "runtime": []} for k in ("site", "single")}

    def offline(route: Route) -> None:
        if route.request.url.startswith(LOCAL):
            route.continue_()
        else:
            route.abort("internetdisconnected")

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        order = ["site", "single"]
        for i in range(rounds * 2 + 2):
            which = order[i % 2] if (i // 2) % 2 == 0 else order[1 - i % 2]  # ABBA
            ctx = browser.new_context()
            if which == "single":
                ctx.route("**/*", offline)
            page = ctx.new_page()
            page.goto(site_url if which == "site" else single.as_uri())
            page.wait_for_function("() => window.doiname !== undefined", timeout=60_000)
            r = page.evaluate(READY)
            ctx.close()
            if i < 2:
                continue  # one warm-up of each (OS disk cache), not counted
            for k, v in r.items():
                if v is not None:
                    results[which][k].append(float(v))
        version = browser.version
        browser.close()
    server.shutdown()
    print(f"\nChromium {version}; {rounds} alternating rounds of each (ABBA) after one "
          "warm-up each, fresh context each; times from navigation start.")
    for which, label in (("site", "site (http)"), ("single", "single file (file://)")):
        print(f"{label:<24} ready {summary(results[which]['ready'])}")
        print(f"{'':<24} fcp   {summary(results[which]['fcp'])}")
        print(f"{'':<24} API   {summary(results[which]['start'])}  (window.doiname made)")
        print(f"{'':<24} runtime phase {summary(results[which]['runtime'])}")
    s, f = results["site"]["ready"], results["single"]["ready"]
    if s and f:
        pairs = [b / a for a, b in zip(s, f, strict=False)]
        ratio = statistics.median(f) / statistics.median(s)
        print(f"ratio single file / site (medians): {ratio:.2f}x"
              f"  (per round {min(pairs):.2f}-{max(pairs):.2f})")
        return [Figure("the single file from file:// (no network), navigation to ready",
                       f"{statistics.median(f):,.0f} ms", "",
                       f"{as_ratio(ratio)} the site's first visit over http://127.0.0.1 "
                       f"({statistics.median(s):,.0f} ms)")]
    return []


def widget(site: Path) -> Figure:
    from playwright.sync_api import Response, sync_playwright

    js = (site / "widget.js").read_bytes()
    print(f"\nwidget.js: {len(js):,} bytes raw, {len(gzip.compress(js, 9)):,} gzip -9 "
          "(target: at most 30 KB before activation)")
    tool = serve.make_server(site, 0, quiet=True)
    threading.Thread(target=tool.serve_forever, daemon=True).start()
    tool_url = f"http://127.0.0.1:{tool.server_port}/"
    body = (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title>'
            f'<script src="{tool_url}widget.js" defer></script></head><body>'
            '<doi-tool></doi-tool>'
            + "<p>filler</p>" * 200 + "</body></html>").encode()

    class Host(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    host = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Host)
    threading.Thread(target=host.serve_forever, daemon=True).start()
    fetched: dict[str, int] = {}

    def record(response: Response) -> None:
        if response.url.startswith(tool_url):
            try:
                fetched[response.url.removeprefix(tool_url)] = len(response.body())
            except Exception:  # a redirect or an aborted response has no body
                fetched[response.url.removeprefix(tool_url)] = 0

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        page.on("response", record)
        page.goto(f"http://127.0.0.1:{host.server_port}/")
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(500)
        browser.close()
    host.shutdown()
    tool.shutdown()
    total = sum(fetched.values())
    print(f"host page on another origin, no interaction: {total:,} bytes from the tool "
          f"({', '.join(f'{k} {v:,}' for k, v in fetched.items()) or 'nothing'}; "
          "uncompressed: the local server does not gzip)")
    return Figure("the widget on a host page, never activated: bytes fetched from the tool",
                  f"{total / 1e3:,.1f} KB", "<= 30 KB",
                  f"widget.js {len(gzip.compress(js, 9)) / 1e3:,.1f} KB gzip", total <= 30_000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each (5)")
    parser.add_argument("--no-build", action="store_true", help="use dist/ as it is")
    args = parser.parse_args()
    site = paths.SITE if args.no_build and (paths.SITE / "sw.js").is_file() else \
        site_build.build()
    single: Path = paths.SINGLE_FILE
    figures = [sizes(single), *boot(site, single, args.rounds), widget(site)]
    table("Single file and widget", figures, f"{args.rounds} alternating rounds in Chromium.")


if __name__ == "__main__":
    main()
