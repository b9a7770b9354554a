"""Every file the page or its worker runs or reads is checked against the build's
integrity value: the worker's script is part of the page's (whose ``<script integrity>``
covers it), and a served ``pyodide.mjs``, ``pyodide.asm.mjs``, wasm, standard library or
lock file with one byte changed is refused (the page says so in plain words) instead of
run, on a first visit and from the service worker's cache. The change is harmless to how
the script works, so a check that lets it through boots the engine and the test fails."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, Route, expect

from doiname_build import integrity, serve
from doiname_build import paths as build_paths
from doiname_build.integrity import sri

from .test_offline import Host, first_visit

pytestmark = pytest.mark.e2e

READY = "() => window.doiname.ready.then(() => 'ready', (e) => 'rejected: ' + e.message)"

#: The file, a text in it and the same text with one byte changed (in a message, so the
#: changed script would still work).
TAMPERED = [
    ("pyodide/pyodide.mjs", 'Dynamic require of "', 'Dynamic requirf of "'),
    ("pyodide/pyodide.asm.mjs", "Pyodide has suffered a fatal error",
     "Pyodide has suffered a fatal errar"),
]


def one_byte_changed(data: bytes, old: str, new: str) -> bytes:
    assert len(old) == len(new) and sum(a != b for a, b in zip(old, new, strict=True)) == 1
    assert data.count(old.encode()) >= 1, old
    changed = data.replace(old.encode(), new.encode(), 1)
    assert len(changed) == len(data)
    assert sum(a != b for a, b in zip(data, changed, strict=True)) == 1
    return changed


def test_the_build_gives_every_script_its_integrity_value(site_dir: Path) -> None:
    """The values the page and the worker check come from the build (never written by
    hand): each page's own script carries its value, the worker's script is inside the
    page's and the frame's bundles (so their values cover it: no worker.js is served or
    preloaded), the modules' values are in the runtime list."""
    assert not (site_dir / "worker.js").exists()
    marker = "Loading the Python runtime"  # a status only the worker reports (worker/boot.js)
    for name, page_name in (("app.js", "index.html"), ("widget-frame.js", "widget-frame.html")):
        text = (site_dir / name).read_text(encoding="ascii")
        assert marker in text, name  # the worker's source, as a string in the bundle
        page = (site_dir / page_name).read_text(encoding="utf-8")
        value = sri(text.encode("ascii"))
        assert f'<script integrity="{value}" type="module" src="./{name}"' in page, page_name
        assert not re.findall(r"<link\b[^>]*\brel=\"(?:module)?preload\"[^>]*>", page), page_name
        for module in ("pyodide.mjs", "pyodide.asm.mjs"):
            assert sri((site_dir / "pyodide" / module).read_bytes()) in text, (name, module)


@pytest.mark.parametrize(("path", "old", "new"), TAMPERED, ids=[t[0] for t in TAMPERED])
def test_a_changed_script_is_refused_with_a_plain_message(page: Page, site_url: str, site_dir: Path,
                                                          path: str, old: str, new: str) -> None:
    changed = one_byte_changed((site_dir / path).read_bytes(), old, new)
    served: list[str] = []

    def tamper(route: Route) -> None:
        served.append(route.request.url)
        route.fulfill(status=200, body=changed, content_type="text/javascript")

    page.route(re.compile(r".*/" + re.escape(path) + r"$"), tamper)
    page.goto(site_url)
    outcome = page.evaluate(READY)
    assert served, "the changed script was never asked for"
    name = path.rsplit("/", 1)[-1]
    assert outcome.startswith("rejected: "), outcome
    assert name in outcome and "integrity check failed" in outcome, outcome
    boot = page.locator("#boot")
    expect(boot).to_have_attribute("data-phase", "failed")
    message = page.locator("#boot-message").inner_text()
    assert name in message and "integrity check failed" in message, message
    # One plain sentence: no stack trace, no script position.
    assert "\n" not in message.strip(), message
    assert not re.search(r"\bat \S+:\d+|\.m?js:\d+", message), message


def test_the_untouched_scripts_run_from_their_checked_bytes(page: Page, site_url: str) -> None:
    """The site boots, its worker started from a blob: URL of the script in the page's."""
    page.goto(site_url)
    assert page.evaluate(READY) == "ready"
    assert [w.url.split(":", 1)[0] for w in page.workers] == ["blob"]
    parsed = page.evaluate("() => window.doiname.call('parse', '10.1000/182')")
    assert parsed["name"] == "10.1000/182"


def test_a_changed_loader_is_refused_on_the_snapshot_way_too(page: Page, site_url: str,
                                                              site_dir: Path) -> None:
    """Booting from the memory snapshot imports the same checked scripts."""
    if not (site_dir / "pyodide" / "snapshot.json").is_file():
        pytest.skip("this build has no memory snapshot (no node at build time)")
    path, old, new = TAMPERED[0]
    changed = one_byte_changed((site_dir / path).read_bytes(), old, new)
    page.route(re.compile(r".*/" + re.escape(path) + r"$"),
               lambda route: route.fulfill(status=200, body=changed,
                                           content_type="text/javascript"))
    page.goto(site_url + "?snapshot=always")
    outcome = page.evaluate(READY)
    assert outcome.startswith("rejected: ") and "pyodide.mjs" in outcome, outcome
    assert "integrity check failed" in outcome, outcome


def _stdlib_changed(data: bytes) -> bytes:
    """The standard library the worker mounts with one byte of its first entry's local
    header time changed: a zip that zipimport reads as before."""
    assert data[:4] == b"PK\x03\x04"
    changed = bytearray(data)
    changed[10] ^= 1  # last modified time (zipimport reads the central directory's)
    return bytes(changed)


#: The runtime's data files, each with a change that leaves it working: a message in the
#: wasm's data, a module micropip's entry in the lock file names (read only to load a
#: package by an import), a time in the zip.
CHANGED_DATA: dict[str, Callable[[bytes], bytes]] = {
    "pyodide/pyodide.asm.wasm": lambda b: one_byte_changed(b, "Fatal Python error",
                                                           "Fatal Python errar"),
    f"pyodide/{build_paths.STDLIB_BOOT}": _stdlib_changed,
    "pyodide/pyodide-lock.json": lambda b: one_byte_changed(b, '"imports":["micropip"]',
                                                            '"imports":["micropiq"]'),
}


@pytest.mark.parametrize("path", list(CHANGED_DATA), ids=[p.split("/")[-1] for p in CHANGED_DATA])
def test_a_changed_runtime_file_is_refused_on_a_first_visit(page: Page, site_url: str,
                                                            site_dir: Path, path: str) -> None:
    changed = CHANGED_DATA[path]((site_dir / path).read_bytes())
    served: list[str] = []

    def tamper(route: Route) -> None:
        served.append(route.request.url)
        route.fulfill(status=200, body=changed, content_type=serve.MIME_TYPES[Path(path).suffix])

    page.route(re.compile(r".*/" + re.escape(path) + r"$"), tamper)
    page.goto(site_url + "?snapshot=never")
    outcome = page.evaluate(READY)
    assert served, "the changed file was never asked for"
    name = path.rsplit("/", 1)[-1]
    assert outcome.startswith("rejected: "), outcome
    assert name in outcome and "integrity check failed" in outcome, outcome


#: Changes one byte of a stored file in place (the offset and the new value).
CHANGE_STORED = """async ([name, url, at, value]) => {
  const cache = await caches.open(name);
  const kept = await cache.match(url);
  const bytes = new Uint8Array(await kept.arrayBuffer());
  bytes[at] = value;
  await cache.put(url, new Response(bytes, {headers: kept.headers}));
}"""


@pytest.mark.parametrize("path", list(CHANGED_DATA), ids=[p.split("/")[-1] for p in CHANGED_DATA])
def test_a_changed_copy_in_the_cache_is_never_used(profile: BrowserContext, site_dir: Path,
                                                   path: str) -> None:
    """A same-origin script (or Python in the worker) can write into the site's cache; the
    changed copy is refused when read: offline, the boot says so instead of running it;
    online, the service worker fetches the file again."""
    h = Host(site_dir)
    h.start()
    try:
        first, (cache,) = first_visit(profile, h.url)
        data = (site_dir / path).read_bytes()
        changed = CHANGED_DATA[path](data)
        at = next(i for i, (a, b) in enumerate(zip(data, changed, strict=True)) if a != b)
        first.evaluate(CHANGE_STORED, [cache, h.url + path, at, changed[at]])
        first.close()
        profile.set_offline(True)
        page = profile.new_page()
        page.goto(h.url + "?snapshot=never")
        outcome = page.evaluate(READY)
        assert outcome.startswith("rejected: "), outcome
        page.close()
        profile.set_offline(False)
        h.reset()
        page = profile.new_page()
        page.goto(h.url + "?snapshot=never")
        assert page.evaluate(READY) == "ready"
        assert [p for p, _ in h.reset() if p == "/" + path], "the changed copy was used"
    finally:
        h.stop()


def test_a_page_from_the_cache_is_checked_and_carries_the_policy(profile: BrowserContext,
                                                                 site_dir: Path) -> None:
    h = Host(site_dir)
    h.start()
    try:
        first, (cache,) = first_visit(profile, h.url)
        # A page written into the cache by a same-origin script is not served.
        first.evaluate("""async ([name, url]) => {
          await (await caches.open(name)).put(url, new Response(
            "<!doctype html><title>changed</title><p id=changed>changed</p>",
            {headers: {"Content-Type": "text/html"}}));
        }""", [cache, h.url + "widget-demo.html"])
        first.close()
        h.reset()
        page = profile.new_page()
        response = page.goto(h.url)
        assert response is not None and response.from_service_worker
        policy = response.headers.get("content-security-policy", "")
        assert integrity.site_csp() in policy, policy
        demo = profile.new_page()
        response = demo.goto(h.url + "widget-demo")
        assert response is not None
        expect(demo.locator("#changed")).to_have_count(0)
        assert "frame-ancestors 'self'" in response.headers.get("content-security-policy", "")
    finally:
        h.stop()
