"""The site, the widget demo and the single file under the strictest
Content-Security-Policy that works, sent as a real header. Any violation fails
the test."""

from __future__ import annotations

import contextlib
import http.server
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from doiname_build import integrity, offline, paths, serve, single_file

from .conftest import DoiRoutes
from .registry_routes import route_registries

#: The policy's shape: nothing inline at all, nothing eval'd except WebAssembly
#: compilation, scripts and workers from the site itself (and from ``blob:`` URLs of
#: checked bytes), requests to the site and to doi.org only. build.py writes it
#: (``site_csp``) into ``_headers``.
FORBIDDEN = ("'unsafe-inline'", "'unsafe-eval'", "*", "http:", "https:", "data: 'self'")


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """With the site's service worker (conftest blocks it elsewhere):
    the policy must allow it (and its manifest), nothing more."""
    return {**browser_context_args, "service_workers": "allow"}



@contextlib.contextmanager
def serve_with_csp(directory: Path, policy: str) -> Iterator[str]:
    """Serve ``directory`` (build.py's handler) with ``policy`` as a header on every answer."""
    class Handler(serve.SiteHandler):
        quiet = True

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(directory), **kwargs)

        def end_headers(self) -> None:
            self.send_header("Content-Security-Policy", policy)
            super().end_headers()

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()


@pytest.fixture(scope="module")
def site_policy(site_dir: Path) -> str:
    policy = integrity.site_csp()
    sources = policy.split()
    assert not [f for f in FORBIDDEN if f in sources], policy
    assert "default-src 'none';" in policy
    # blob: only for scripts whose bytes were checked first (the worker's, Pyodide's).
    assert "script-src 'self' 'wasm-unsafe-eval' blob:;" in policy
    assert "worker-src 'self' blob:;" in policy
    assert "sha256-" not in policy  # no inline script or style to allow
    assert policy in (site_dir / "_headers").read_text(encoding="utf-8")
    return policy


@pytest.fixture(scope="module")
def csp_url(site_dir: Path, site_policy: str) -> Iterator[str]:
    with serve_with_csp(site_dir, site_policy) as url:
        yield url


def test_site_scripts_carry_integrity(page: Page, site_dir: Path, csp_url: str) -> None:
    """Every script tag of every page has an integrity value; each script is one bundle
    that imports nothing, and a bundle whose bytes differ from its hash is refused (the
    page then does not run)."""
    for html_file in sorted(site_dir.glob("*.html")):
        html = html_file.read_text(encoding="utf-8")
        tags = re.findall(r"<script\b[^>]*>", html)
        assert all('integrity="sha384-' in t and "src=" in t for t in tags), html_file.name
    assert not re.search(r"^\s*(import|export)\b[^(]*from\s", (site_dir / "app.js").read_text(),
                         re.MULTILINE)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.route("**/app.js", lambda route: route.fulfill(
        status=200, content_type="text/javascript",
        body=(site_dir / "app.js").read_text(encoding="utf-8") + "\n// tampered\n"))
    page.goto(csp_url + "index.html")
    deadline = time.monotonic() + 60
    while not any("integrity" in e.lower() for e in errors) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert any("integrity" in e.lower() for e in errors), errors
    # The page's script (which wires the views) did not run.
    assert page.evaluate("() => document.getElementById('batch-head').children.length") == 0
    assert page.evaluate("() => window.doiname === undefined")


def watch_violations(page: Page) -> list[str]:
    found: list[str] = []
    page.on("console", lambda m: found.append(m.text)
            if "Content Security Policy" in m.text or "Content-Security-Policy" in m.text else None)
    page.on("pageerror", lambda e: found.append(f"pageerror: {e}"))
    return found


def test_site_under_strict_csp(page: Page, csp_url: str) -> None:
    violations = watch_violations(page)
    page.goto(csp_url + "index.html")
    # Poll with evaluate: wait_for_function would need 'unsafe-eval' (PLATFORM.md).
    assert page.evaluate("() => window.doiname.ready.then(() => true)")
    page.fill("#doi-input", "10.1000/456#789")
    expect(page.locator("#result-name")).to_have_text("10.1000/456#789", timeout=20_000)
    assert page.evaluate("() => window.doiname.call('to_url', '10.1000/456#789')") == (
        "https://doi.org/10.1000/456%23789")
    assert violations == []


def test_registry_records_under_strict_csp(page: Page, csp_url: str,
                                           doi_routes: DoiRoutes) -> None:
    """Resolve reads a name's record from Crossref (routed) under the site's policy: the
    hosts ``connect-src`` gained let it through, and nothing else is refused."""
    route_registries(page, doi_routes)
    violations = watch_violations(page)
    page.goto(csp_url + "index.html")
    assert page.evaluate("() => window.doiname.ready.then(() => true)")
    page.fill("#doi-input", "10.1080/13813455.2019.1651869")
    expect(page.locator("#result-name")).to_have_text("10.1080/13813455.2019.1651869",
                                                      timeout=20_000)
    page.locator("#doi-input").press("Enter")
    expect(page.locator("#work-notice")).to_contain_text("Retracted")
    expect(page.locator("#work-title")).to_be_visible()
    assert violations == []


def test_offline_copy_under_strict_csp(page: Page, csp_url: str) -> None:
    """The service worker registers, stores the build and boots the page from it with the
    policy the site ships (``worker-src``, ``connect-src`` and ``manifest-src 'self'``)."""
    violations = watch_violations(page)
    page.goto(csp_url + "index.html")
    assert page.evaluate("() => window.doiname.ready.then(() => true)")
    assert page.evaluate(offline.STORED_JS)
    page.reload()
    assert page.evaluate("() => window.doiname.ready.then(() => true)")
    assert page.evaluate("() => navigator.serviceWorker.controller !== null")
    assert "worker.restoreSnapshot" in page.evaluate("() => Object.keys(window.doiname.timings)")
    assert violations == []


def test_widget_demo_under_strict_csp(page: Page, csp_url: str) -> None:
    violations = watch_violations(page)
    page.goto(csp_url + "widget-demo.html")
    expect(page.locator("#refs [data-doiname-link]").first).to_be_attached(timeout=60_000)
    assert violations == []


def test_single_file_under_its_own_csp_as_a_header(page: Page, site_dir: Path) -> None:
    """The single file's own policy (its <meta>), sent as a header with frame-ancestors."""
    single = paths.SINGLE_FILE
    if not single.is_file() or single.stat().st_mtime < (site_dir / "index.html").stat().st_mtime:
        single = single_file.single_file(site_dir)
    head = single.read_bytes()[:4000].decode("latin-1")
    meta = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', head)
    assert meta is not None
    violations = watch_violations(page)
    with serve_with_csp(single.parent, meta.group(1) + "; frame-ancestors 'none'") as url:
        page.goto(url + single.name)
        # The file makes window.doiname once its worker's files are unpacked; poll with
        # evaluate (wait_for_function would need 'unsafe-eval').
        for _ in range(300):
            if page.evaluate("() => window.doiname !== undefined"):
                break
            page.wait_for_timeout(100)
        assert page.evaluate("() => window.doiname.ready.then(() => true)")
        page.fill("#batch-input", "doi:10.1000/ABC\n10.1000/abc")
        page.click("#batch-run")
        expect(page.locator("#batch-status")).to_contain_text("Done: 2 lines", timeout=20_000)
        expect(page.locator('#batch-summary [data-count="duplicates"]')).to_have_text("1")
    assert violations == []
