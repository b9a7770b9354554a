"""The site after one visit: the first visit boots without the memory snapshot and then
stores the build (service worker); the repeat visit downloads no body and boots from the
stored snapshot; the page boots and answers with the server stopped and the network
gone; a new build replaces the stored one whole; the web app manifest is valid.

Each test has its own server (``build.py serve``'s handler with the ``_headers`` policy,
counting the bodies it sends) and a persistent profile (a disk cache and a service
worker, as a visitor's browser has).
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import os
import shutil
import struct
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from doiname_build import offline, serve

pytestmark = pytest.mark.e2e

READY = """() => new Promise((resolve) => { const check = () => window.doiname
  ? resolve(window.doiname.ready.then(() => true, (e) => 'rejected: ' + e.message))
  : setTimeout(check, 5); check(); })"""
STEPS = "() => Object.keys(window.doiname.timings).filter((k) => k.startsWith('worker.'))"
#: The names of the caches holding a complete copy of a build (its list stored last).
STORED = offline.STORED_JS
CACHES = "() => caches.keys()"
#: Collects the start-up progress events from before the page's script runs.
PROGRESS_HOOK = """window.__progress = [];
const hook = setInterval(() => {
  if (!window.doiname) return;
  clearInterval(hook);
  window.doiname.onProgress((p) => window.__progress.push([p.loaded, p.total]));
}, 1);"""


class Host:
    """A directory served like ``build.py serve`` (``_headers`` applied) on a free port,
    which counts the bodies it sends (path, bytes) until ``reset``."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.sent: list[tuple[str, int]] = []
        self.lock = threading.Lock()
        self.server: Any = None
        self.url = ""

    def start(self) -> None:
        server = serve.make_server(self.directory, 0, quiet=True, host_headers=True)
        host = self

        class Counted(server.RequestHandlerClass):  # type: ignore[misc, name-defined]
            def send_head(self) -> Any:
                f = super().send_head()
                if f is not None:
                    with host.lock:
                        host.sent.append((self.path, os.fstat(f.fileno()).st_size))
                return f

        server.RequestHandlerClass = Counted
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.server = server
        self.url = f"http://127.0.0.1:{server.server_port}/"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def reset(self) -> list[tuple[str, int]]:
        with self.lock:
            sent, self.sent = self.sent, []
        return sent


class RedirectingHost(Host):
    """A host that answers ``/x.html`` with ``308 -> /x`` (and ``/index.html`` with
    ``308 -> /``) and serves ``/x``, as Cloudflare Pages does."""

    def start(self) -> None:
        super().start()
        served = self.server.RequestHandlerClass

        class Redirecting(served):  # type: ignore[misc, valid-type]
            def send_head(self) -> Any:
                path, _, query = self.path.partition("?")
                if path.endswith(".html"):
                    target = path.removesuffix(".html")
                    target = target.removesuffix("index") if target.endswith("/index") else target
                    self.send_response(308)
                    self.send_header("Location", target + ("?" + query if query else ""))
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return None
                return super().send_head()

        self.server.RequestHandlerClass = Redirecting


@pytest.fixture
def host(site_dir: Path) -> Iterator[Host]:
    h = Host(site_dir)
    h.start()
    yield h
    if h.server is not None:
        h.stop()


def visit(context: BrowserContext, url: str) -> Page:
    page = context.new_page()
    page.goto(url)
    assert page.evaluate(READY) is True
    return page


def first_visit(context: BrowserContext, url: str) -> tuple[Page, list[str]]:
    """A first visit, then the build stored; returns the page and the complete caches."""
    page = visit(context, url)
    stored = page.evaluate(STORED)
    assert len(stored) == 1, stored
    return page, stored


def throttle(context: BrowserContext, page: Page, mbit: float, rtt: float) -> None:
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": rtt, "downloadThroughput": mbit * 1e6 / 8,
        "uploadThroughput": mbit * 1e6 / 8})


def test_first_visit_boots_without_the_snapshot_then_stores_the_build(
        profile: BrowserContext, host: Host, site_dir: Path) -> None:
    page = profile.new_page()
    page.add_init_script(PROGRESS_HOOK)
    throttle(profile, page, 10, 40)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    bodies: list[int] = []
    page.on("requestfinished", lambda r: bodies.append(r.sizes()["responseBodySize"]))
    page.goto(host.url, wait_until="commit")
    assert page.evaluate(READY) is True
    before_ready = sum(bodies)
    steps = page.evaluate(STEPS)
    assert "worker.install" in steps and "worker.restoreSnapshot" not in steps, steps
    assert not [u for u in asked if "/snapshot" in u], "the page asked for the snapshot"
    assert 3e6 < before_ready <= 6e6, before_ready  # the bound for a first visit
    # The determinate progress: bytes rising to the total, which is about what was sent.
    # The last report may come just after ready (reports are at most every 100 ms).
    for _ in range(100):
        last = page.evaluate("() => window.__progress.at(-1) || [0, 1]")
        if last[0] == last[1]:
            break
        page.wait_for_timeout(100)
    progress = page.evaluate("() => window.__progress")
    assert len(progress) >= 3, progress
    assert all(a[0] <= b[0] for a, b in itertools.pairwise(progress)), progress
    loaded, total = progress[-1]
    # Known gap (2026-11-26): since the core's files are unpacked as they arrive, the last
    # report can end short of the total (0.02-2% seen); the bar is hidden at ready.
    assert 0.95 * total <= loaded <= total, progress[-3:]
    assert abs(total - before_ready) < 0.25 * before_ready, (total, before_ready)
    expect(page.locator("#boot-progress")).to_have_attribute("value", "1")
    expect(page.locator("#boot .boot-load")).to_be_hidden()
    # Then the service worker stores every file of the build, each checked, the list last.
    (cache,) = page.evaluate(STORED)
    files = page.evaluate("""async (name) => {
      const list = await (await caches.open(name)).match(
        new URL("precache-list.json", location.href).href);
      return Object.keys((await list.json()).files);
    }""", cache)
    expected = {host.url + path for path, _ in offline.precached(site_dir)}
    assert set(files) == expected
    assert host.url + "pyodide/snapshot.bin.gz" in files


def test_repeat_visit_downloads_no_body_and_boots_from_the_snapshot(
        profile: BrowserContext, host: Host) -> None:
    first, _ = first_visit(profile, host.url)
    first.close()
    host.reset()
    page = profile.new_page()
    responses: list[tuple[str, bool]] = []
    page.on("response", lambda r: responses.append((r.url, r.from_service_worker)))
    page.goto(host.url)
    assert page.evaluate(READY) is True
    assert page.evaluate(STEPS) == ["worker.restoreSnapshot", "worker.unpackFiles",
                                    "worker.importCore"]
    sent = [(path, n) for path, n in host.reset() if path != "/sw.js"]  # the update check
    assert sent == []
    assert responses and all(from_sw for _, from_sw in responses), responses
    page.fill("#doi-input", "10.1000/456#789")
    expect(page.locator("#result-name")).to_have_text("10.1000/456#789")


def test_boots_and_answers_offline_after_one_visit(profile: BrowserContext, host: Host) -> None:
    page, _ = first_visit(profile, host.url)
    host.stop()
    host.server = None
    profile.set_offline(True)
    page.reload()
    assert page.evaluate(READY) is True
    assert "worker.restoreSnapshot" in page.evaluate(STEPS)
    page.fill("#doi-input", "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O")
    expect(page.locator("#result-name")).to_have_text(
        "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O")
    # Resolution still goes to doi.org, and says that the browser is offline.
    page.click("#resolve-button")
    expect(page.locator("#resolve-output")).to_contain_text("offline", timeout=15_000)
    # A page of the site not opened yet is there too (/name is name.html).
    other = profile.new_page()
    other.goto(host.url + "widget-demo")
    expect(other.locator("#refs [data-doiname-link]").first).to_be_attached(timeout=60_000)


def _new_build(site: Path, tmp: Path) -> Path:
    """A copy of ``site`` whose page says "(build B)", with its own service worker: what
    ``build.py build`` writes after a change to the page."""
    copy = tmp / "site"
    shutil.copytree(site, copy, copy_function=os.link)
    page = copy / "index.html"
    html = page.read_text(encoding="utf-8").replace("</h1>", " (build B)</h1>", 1)
    for name in ("index.html", "index.html.br", "index.html.gz", "sw.js", "sw.js.br",
                 "sw.js.gz"):
        (copy / name).unlink(missing_ok=True)  # hard links: never write through them
    page.write_text(html, encoding="utf-8")
    offline.write_service_worker(copy)
    return copy


def test_a_new_build_replaces_the_stored_one_whole(
        profile: BrowserContext, site_dir: Path, tmp_path: Path) -> None:
    h = Host(tmp_path / "site")
    shutil.copytree(site_dir, tmp_path / "site", copy_function=os.link)
    h.start()
    try:
        page, (old,) = first_visit(profile, h.url)
        shutil.rmtree(tmp_path / "site")
        _new_build(site_dir, tmp_path)  # deployed at the same place
        # The open page keeps the old build; the new one is stored beside it, waiting.
        page.reload()
        assert page.evaluate(READY) is True
        expect(page.locator("h1")).not_to_contain_text("build B")
        note = page.locator("#update-note")
        expect(note).to_contain_text("new version", timeout=60_000)
        names = page.evaluate(STORED)
        assert old in names and len(names) == 2, names
        # Reload: the new build, whole; the old copy is gone.
        with page.expect_navigation():
            note.get_by_role("button", name="Reload").click()
        assert page.evaluate(READY) is True
        expect(page.locator("h1")).to_contain_text("build B")
        assert [n for n in page.evaluate(CACHES) if n.startswith("doiname-")] == \
            [n for n in names if n != old]
        assert "worker.restoreSnapshot" in page.evaluate(STEPS)
    finally:
        h.stop()


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_makes_the_site_installable(profile: BrowserContext, host: Host) -> None:
    page, _ = first_visit(profile, host.url)
    cdp = profile.new_cdp_session(page)
    got = cdp.send("Page.getAppManifest")
    assert got["errors"] == [] and got["url"] == host.url + "manifest.webmanifest"
    manifest = page.evaluate("() => fetch('manifest.webmanifest').then((r) => r.json())")
    assert manifest["name"] and manifest["short_name"] and manifest["display"] == "standalone"
    assert manifest["start_url"] == "./" and manifest["scope"] == "./"
    sizes = set()
    for icon in manifest["icons"]:
        response = page.request.get(host.url + icon["src"])
        assert response.ok and response.headers["content-type"] == icon["type"]
        if icon["type"] == "image/png":
            w, h = _png_size(response.body())
            assert icon["sizes"] == f"{w}x{h}"
            sizes.add(w)
    assert {192, 512} <= sizes
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == [], errors


@pytest.mark.parametrize("redirects", [True, False], ids=["redirects-html", "serves-html"])
def test_the_second_visit_loads_on_a_host_that_redirects_html(
        profile: BrowserContext, site_dir: Path, redirects: bool) -> None:
    """A host that redirects ``/x.html`` to ``/x``: the stored pages are the pages, never the
    redirect (Chromium refuses a redirected answer to a navigation)."""
    h = (RedirectingHost if redirects else Host)(site_dir)
    h.start()
    try:
        first, _ = first_visit(profile, h.url)
        if redirects:
            assert ("/index.html", 0) not in h.sent  # the redirect sends no body
            assert first.request.get(h.url + "index.html", max_redirects=0).status == 308
        first.close()
        for path in ("", "widget-demo", "?x=1", "index.html"):
            page = profile.new_page()
            response = page.goto(h.url + path)
            assert response is not None and response.ok, (path, response)
            if path == "widget-demo":
                expect(page.locator("#refs [data-doiname-link]").first).to_be_attached(
                    timeout=60_000)
            else:
                assert page.evaluate(READY) is True, path
                assert page.evaluate(STEPS)[0] == "worker.restoreSnapshot", path
            page.close()
    finally:
        h.stop()




def _changed_runtime(copy: Path) -> None:
    """Build B's Pyodide loader differs from build A's by a comment (a restarted engine
    reads it again), with B's integrity values written for it: in the scripts that name
    it, then in the pages that name those scripts, and B's service worker."""
    changed = {"pyodide/pyodide.mjs": (copy / "pyodide/pyodide.mjs").read_bytes()
               + b"\n// build B\n"}
    while changed:
        name, data = changed.popitem()
        old = b"sha384-" + base64.b64encode(hashlib.sha384((copy / name).read_bytes()).digest())
        for suffix in ("", ".br", ".gz"):
            (copy / (name + suffix)).unlink(missing_ok=True)  # hard links: never write through
        (copy / name).write_bytes(data)
        new = b"sha384-" + base64.b64encode(hashlib.sha384(data).digest())
        for other in [*copy.glob("*.js"), *copy.glob("*.html")]:
            text = other.read_bytes()
            if other.name != "sw.js" and old in text:
                changed[other.name] = text.replace(old, new)
    for name in ("sw.js", "sw.js.br", "sw.js.gz"):
        (copy / name).unlink(missing_ok=True)
    offline.write_service_worker(copy)


def test_two_builds_in_two_folders_keep_their_own_copies(
        profile: BrowserContext, site_dir: Path, tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    shutil.copytree(site_dir, root / "a", copy_function=os.link)
    _new_build(site_dir, tmp_path)  # tmp_path/site: build B
    (tmp_path / "site").rename(root / "b")
    h = Host(root)
    h.start()
    try:
        first, (a,) = first_visit(profile, h.url + "a/")
        second, (b,) = first_visit(profile, h.url + "b/")
        assert a != b and {a, b} <= set(second.evaluate(CACHES))
        first.reload()
        assert first.evaluate(READY) is True
        assert first.evaluate(STORED) == [a]
        assert {a, b} <= set(first.evaluate(CACHES))
    finally:
        h.stop()


def test_a_page_of_the_old_build_restarts_its_engine(
        profile: BrowserContext, site_dir: Path, tmp_path: Path) -> None:
    """A page of build A stays open while build B takes over (another page's "Reload"): its
    engine, restarted, gets build A's files, not B's (which A's checks refuse)."""
    shutil.copytree(site_dir, tmp_path / "site", copy_function=os.link)
    h = Host(tmp_path / "site")
    h.start()
    try:
        old, _ = first_visit(profile, h.url + "?snapshot=never")
        old.reload()  # now a page the service worker answered
        assert old.evaluate(READY) is True
        # build B deployed at the same place: a file a restarted engine reads differs
        _changed_runtime(tmp_path / "site")
        other = visit(profile, h.url)
        note = other.locator("#update-note")
        expect(note).to_contain_text("new version", timeout=60_000)
        with other.expect_navigation():
            note.get_by_role("button", name="Reload").click()
        # The old page's engine ends and restarts.
        assert len(old.workers) == 1
        old.workers[0].evaluate("() => { setTimeout(() => self.close(), 0); }")
        # A request sent while it was closing is failed with a sentence (by design); the
        # page is asked once its engine was restarted and is ready again.
        old.wait_for_function("() => (window.doiname.timings.restarts ?? 0) >= 1",
                              timeout=60_000)
        assert old.evaluate(READY) is True
        parsed = old.evaluate("() => window.doiname.call('parse', '10.1000/182').then("
                              "(r) => r.name, (e) => 'failed: ' + e.message)")
        assert parsed == "10.1000/182"
        assert old.evaluate("() => window.doiname.timings.restarts") >= 1
    finally:
        h.stop()
