"""Bytes a visitor downloads: first visit vs repeat visit of the site.

Serves dist/site with ``build.py``'s server (which answers conditional requests), loads the
page in Chromium until ``window.doiname.ready``, and sums what was transferred: for the
first visit the gzip size of each response (what a static host with compression sends)
and the raw size; for a repeat visit (same browser profile with its disk cache, the page
opened again) the responses that were not served from a cache (the service worker's or
the disk's) or answered 304.
Prints the figures; never asserts.

    python3 bench/transfer.py
"""

from __future__ import annotations

import gzip
import tempfile
import threading
from typing import Any

from common import ARGS, CHROMIUM, Figure, table

from doiname_build import paths, serve
from doiname_build import site as site_build


def visit(page: Any, url: str) -> list[tuple[str, int, int, bool]]:
    seen: list[tuple[str, int, int, bool]] = []

    def on_response(response: Any) -> None:
        if not response.url.startswith("http://127.0.0.1"):
            return
        try:
            body = response.body()
        except Exception:  # redirects and 304s have no body here
            body = b""
        # A revalidated response reaches the page as the cached 200: no body bytes came
        # over the network for it (Chromium reports the 304 itself only sometimes).
        try:
            sizes = response.request.sizes()
        except Exception:
            sizes = {}
        # The site's service worker answers a repeat visit from its own cache.
        cached = response.status == 304 or response.from_service_worker or (
            bool(body) and sizes.get("responseBodySize") == 0)
        seen.append((response.url, len(body), len(gzip.compress(body, 6)), cached))

    page.on("response", on_response)
    page.goto(url)
    page.evaluate("() => window.doiname.ready")
    page.wait_for_load_state("networkidle")
    page.remove_listener("response", on_response)
    return seen


def main() -> None:
    from playwright.sync_api import sync_playwright

    site = paths.SITE
    if not (site / "index.html").is_file():
        site_build.build()
    server = serve.make_server(site, 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}/index.html"
    # A persistent profile has a disk cache, as a visitor's browser does; a fresh
    # Playwright context only has a small memory cache that drops the large files.
    with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        context = p.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=ARGS)
        page = context.new_page()
        first = visit(page, url)
        second_page = context.new_page()
        second = visit(second_page, url)
        context.close()
    server.shutdown()
    raw = sum(r for _, r, _, _ in first)
    gz = sum(g for _, _, g, _ in first)
    print(f"first visit: {len(first)} requests, {raw / 1e6:.2f} MB raw, "
          f"{gz / 1e6:.2f} MB with gzip")
    for u, r, g, _ in sorted(first, key=lambda x: -x[2])[:6]:
        print(f"  {u.rsplit('/', 1)[-1]:<40} {r / 1e3:>9.0f} KB raw {g / 1e3:>9.0f} KB gzip")
    fetched = [(u, r, g) for u, r, g, c in second if not c]
    print(f"repeat visit: {len(second)} requests, {len(second) - len(fetched)} answered "
          f"304/cache, {sum(g for _, _, g in fetched) / 1e6:.2f} MB transferred (gzip) "
          f"= {sum(g for _, _, g in fetched) / max(gz, 1):.0%} of the first visit")
    for u, r, _ in sorted(fetched, key=lambda x: -x[1])[:6]:
        print(f"  downloaded again: {u.rsplit('/', 1)[-1]:<32} {r / 1e3:>9.0f} KB raw")
    again = sum(g for _, _, g in fetched)
    table("Bytes transferred: first and repeat visit", [
        Figure("first visit, until ready (gzip, as a host compressing on the fly sends it)",
               f"{gz / 1e6:.2f} MB", "<= 6 MB", f"{raw / 1e6:.2f} MB raw, {len(first)} requests",
               gz <= 6e6),
        Figure("repeat visit, downloaded again", f"{again / 1e6:.2f} MB", "",
               f"{again / max(gz, 1):.0%} of the first visit; {len(second) - len(fetched)} of "
               f"{len(second)} answers from a cache (the service worker's, the disk's) or 304"),
    ], "dist/site served by build.py serve; Chromium with a persistent profile.")


if __name__ == "__main__":
    main()
