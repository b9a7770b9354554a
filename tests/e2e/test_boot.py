"""The built site boots: Pyodide and the core (as micropip installs it, compiled), all
self-hosted, in a worker; micropip is loaded once it is ready.

Expected values come from the core on the host; the browser computes them through
``window.doiname``.
"""

from __future__ import annotations

import base64
import csv
import gzip
import hashlib
import io
import json
import re
import tomllib
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Request, expect

import doiname as d
from doiname_build import paths as build_paths
from doiname_build import wheel as build_wheel

from .conftest import ROOT

pytestmark = pytest.mark.e2e

SICI = "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O"
READY = "() => window.doiname.ready.then(() => true, (e) => 'rejected: ' + e.message)"


def boot(page: Page, url: str) -> None:
    page.goto(url)
    assert page.evaluate(READY) is True


def has_snapshot() -> bool:
    """Whether the built site carries the memory snapshot (build.py skips it without node)."""
    return (build_paths.SITE / "pyodide" / "snapshot.json").is_file()


def without_snapshot(page: Page) -> None:
    """The snapshot's files answer 404: the worker boots the normal way."""
    page.route(re.compile(r".*/pyodide/snapshot[^/]*$"),
               lambda route: route.fulfill(status=404, body="missing"))


def project() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        data: dict[str, Any] = tomllib.load(f)["project"]
    return data


def test_boots_and_parses(booted_page: Page) -> None:
    page = booted_page
    got = page.evaluate("() => window.doiname.call('parse', '10.1000/182')")
    assert got == {"prefix": "10.1000", "suffix": "182", "name": "10.1000/182"}
    assert page.evaluate("(s) => window.doiname.call('to_url', s)", SICI) == d.to_url(SICI)


def test_doi_error_rejects_with_its_message(booted_page: Page) -> None:
    page = booted_page
    text = "10.1000/a\u200bb"
    with pytest.raises(d.DoiError) as info:
        d.parse(text)
    got = page.evaluate("""(t) => window.doiname.call('parse', t).then(
        () => null, (e) => ({isError: e instanceof Error, message: e.message, code: e.code,
                             position: e.position, end: e.end}))""", text)
    assert got == {"isError": True, "message": info.value.message, "code": info.value.code,
                   "position": info.value.position, "end": info.value.end}


def test_calls_before_ready_are_queued(page: Page, site_url: str) -> None:
    # The calls are made as soon as the page's scripts have run, long before Python is up.
    page.add_init_script("""document.addEventListener("DOMContentLoaded", () => {
      const api = window.doiname;
      window.__early = {
        readyBefore: "ready" in api.timings,
        results: Promise.all([api.call("parse", "doi:10.1000/182"),
                              api.call("to_uri", "10.1000/456#789"),
                              api.call("parse", "nope").catch((e) => "rejected: " + e.message)]),
      };
    });""")
    page.goto(site_url)
    assert page.evaluate("() => window.__early.readyBefore") is False
    with pytest.raises(d.DoiError) as info:
        d.parse("nope")
    assert page.evaluate("() => window.__early.results") == [
        {"prefix": "10.1000", "suffix": "182", "name": "10.1000/182"},
        d.to_uri("10.1000/456#789"),
        "rejected: " + info.value.message,
    ]


def test_status_events_in_order(page: Page, site_url: str) -> None:
    page.add_init_script("""document.addEventListener("DOMContentLoaded", () => {
      window.__phases = [];
      window.doiname.onStatus((s) => window.__phases.push([s.phase, s.message]));
    });""")
    boot(page, site_url)
    phases = page.evaluate("() => window.__phases")
    names = [p for p, _ in phases]
    assert names[-1] == "ready"
    order = ["runtime", "packages", "core", "ready"]
    assert [p for p in names if p in order] == order
    assert all(isinstance(m, str) and m for _, m in phases)


def test_micropip_installed_the_core_wheel(booted_page: Page) -> None:
    info = booted_page.evaluate("() => window.doiname.info()")
    assert info["installer"] == "micropip"
    assert info["distribution"] == project()["version"] == info["doiname"]
    assert "site-packages" in info["location"]
    assert info["platform"] == "emscripten"
    assert set(info["functions"]) == {
        n for n in d.__all__ if callable(getattr(d, n)) and not isinstance(getattr(d, n), type)}


def test_only_local_files_are_loaded(page: Page, site_url: str) -> None:
    requests: list[Request] = []
    page.on("request", lambda r: requests.append(r))
    failed: list[str] = []
    page.on("requestfailed", lambda r: failed.append(r.url))
    bad: list[str] = []
    page.on("response", lambda r: bad.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    boot(page, site_url)
    urls = [r.url for r in requests]
    assert all(u.startswith(site_url) or u.startswith("data:") for u in urls), urls
    assert not failed and not bad, (failed, bad)
    paths = {u[len(site_url):].split("?")[0] for u in urls}
    runtime = {"pyodide/pyodide.mjs", "pyodide/pyodide.asm.wasm",
               f"pyodide/{build_paths.STDLIB_BOOT}", "pyodide/pyodide-lock.json",
               f"pyodide/{build_paths.CORE_FILES}"}
    assert runtime <= paths
    # The whole standard library is for bare Pyodide on the site's files: the worker
    # mounts the part its boot imports, and the rest comes with the core's rest.
    assert "pyodide/python_stdlib.zip" not in paths
    # A first visit boots the normal way: the snapshot only once it is stored. The core's
    # wheel is for micropip's users (test_micropip_install.py): the page never asks for it.
    assert not paths & {f"pyodide/{f}" for f in build_paths.SNAPSHOT_FILES}
    assert f"wheels/{build_wheel.wheel_name()}" not in paths
    # micropip is loaded once the engine is ready (from the site, checked by the lock file).
    micropip = site_url + f"pyodide/{build_paths.MICROPIP_WHEEL}"
    for _ in range(300):
        if any(r.url == micropip for r in requests):
            break
        page.wait_for_timeout(100)
    assert any(r.url == micropip for r in requests)
    assert not failed and not bad, (failed, bad)
    # Python runs in the worker: the page itself never loads the runtime.
    main_thread = page.evaluate(
        "() => performance.getEntriesByType('resource').map((e) => e.name)")
    assert not [u for u in main_thread if "pyodide" in u or u.endswith(".whl")]


def test_still_encodes_with_the_network_cut_off(page: Page, site_url: str) -> None:
    boot(page, site_url)
    page.context.route("**/*", lambda route: route.abort("internetdisconnected"))
    page.context.set_offline(True)
    try:
        got = page.evaluate("(s) => window.doiname.call('to_url', s, {kwargs: {level: 'strict'}})",
                            SICI)
        assert got == d.to_url(SICI, level="strict")
        findings = page.evaluate("(s) => window.doiname.call('check', s)", "doi: 10.1000/\u0430")
        assert [f["code"] for f in findings] == [f.code for f in d.check("doi: 10.1000/\u0430")]
    finally:
        page.context.set_offline(False)


@pytest.mark.parametrize(("path", "expected"), [
    # Pyodide's loader is missing (checked before it runs: a 404 fails the check too)
    ("pyodide/pyodide.mjs", "script pyodide.mjs could not be downloaded"),
    # the core's files are missing
    (f"pyodide/{build_paths.CORE_FILES}", "doiname package could not be downloaded"),
])
def test_a_broken_site_says_so(page: Page, site_url: str, path: str, expected: str) -> None:
    without_snapshot(page)  # the normal boot, which needs the core's files
    page.route(re.compile(re.escape(site_url + path) + r"[^?]*(\?.*)?$"),
               lambda route: route.fulfill(status=404, body="missing"))
    page.goto(site_url)
    got = page.evaluate(READY)
    assert isinstance(got, str) and got.startswith("rejected: ")
    assert expected in got
    assert "Traceback" not in got and "  File " not in got
    expect(page.locator("#boot")).to_have_attribute("data-phase", "failed")
    rejected = page.evaluate("() => window.doiname.call('parse', '10.1000/1').catch((e) => e.code)")
    assert rejected == "not-started"


def bare_page(page: Page, site_url: str) -> None:
    """The benchmark's baseline page (bench/pages/bare.html, not part of the site), served
    at the site's origin as bench/boot.py serves it."""
    body = (ROOT / "bench" / "pages" / "bare.html").read_text(encoding="utf-8")
    page.route(site_url + "bare.html", lambda route: route.fulfill(
        status=200, content_type="text/html", body=body))
    page.goto(site_url + "bare.html")


def test_bare_pyodide_page_boots(page: Page, site_url: str) -> None:
    """The benchmark's baseline (bench/boot.py) works from the same files."""
    bare_page(page, site_url)
    assert page.evaluate("() => window.bareReady") is True
    expect(page.locator("#state")).to_have_text("ready")


def test_the_site_does_not_ship_the_benchmark_page(site_dir: Path) -> None:
    assert not (site_dir / "bare.html").exists()


# The built files (no browser) ----------------------------------------------------------


def test_server_content_types_and_cors(site_url: str) -> None:
    want = {
        "pyodide/pyodide.asm.wasm": "application/wasm",
        "pyodide/pyodide.mjs": "text/javascript",
        "app.js": "text/javascript",
        "index.html": "text/html",
        "pyodide/pyodide-lock.json": "application/json",
    }
    for path, ctype in want.items():
        with urllib.request.urlopen(site_url + path) as resp:
            assert resp.headers.get_content_type() == ctype, path
            assert resp.headers["Access-Control-Allow-Origin"] == "*"


def test_lock_file_carries_the_shipped_micropip_hash(site_dir: Path) -> None:
    lock = json.loads((site_dir / "pyodide" / "pyodide-lock.json").read_text())
    wheel = site_dir / "pyodide" / build_paths.MICROPIP_WHEEL
    assert lock["packages"]["micropip"]["sha256"] == hashlib.sha256(wheel.read_bytes()).hexdigest()
    assert lock["packages"]["micropip"]["file_name"] == wheel.name


def test_core_wheel_is_a_valid_pure_python_wheel(site_dir: Path, tmp_path: Path) -> None:
    wheel = site_dir / "wheels" / build_wheel.wheel_name()
    meta = project()
    dist_info = f"doiname-{meta['version']}.dist-info"
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        record = list(csv.reader(io.StringIO(zf.read(f"{dist_info}/RECORD").decode())))
        assert sorted(r[0] for r in record) == sorted(names)
        for name, digest, size in record:
            if name.endswith("RECORD"):
                assert digest == size == ""
                continue
            data = zf.read(name)
            b64 = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert digest == f"sha256={b64}" and int(size) == len(data), name
        wheel_file = zf.read(f"{dist_info}/WHEEL").decode()
        metadata = zf.read(f"{dist_info}/METADATA").decode()
    assert "Tag: py3-none-any" in wheel_file and "Root-Is-Purelib: true" in wheel_file
    assert f"Name: {meta['name']}\n" in metadata and f"Version: {meta['version']}\n" in metadata
    sources = {f"doiname/{p.relative_to(ROOT / 'pycore' / 'doiname').as_posix()}"
               for p in (ROOT / "pycore" / "doiname").rglob("*.py")
               if "__pycache__" not in p.parts}
    assert sources <= set(names)
    assert "doiname/bridge/__init__.py" in names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    assert build_wheel.build_wheel(tmp_path).read_bytes() == wheel.read_bytes()


# The build-time memory snapshot ---------------------------------------------


WORKER_STEPS = "() => Object.keys(window.doiname.timings).filter((k) => k.startsWith('worker.'))"


def test_boots_from_the_memory_snapshot(page: Page, site_url: str) -> None:
    if not has_snapshot():
        pytest.skip("this build has no memory snapshot (node missing or DOINAME_SNAPSHOT=0)")
    warnings: list[str] = []
    page.on("console",
            lambda m: warnings.append(m.text) if m.type in ("warning", "error")
            and "blocked by Playwright" not in m.text else None)  # the suite's contexts
    # Not stored yet (a first visit boots the normal way, test_offline.py): asked for.
    boot(page, site_url + "?snapshot=always")
    assert page.evaluate(WORKER_STEPS) == [
        "worker.restoreSnapshot", "worker.unpackFiles", "worker.importCore"]
    assert not warnings
    # A module imported before the snapshot, one imported lazily after, the metadata.
    assert page.evaluate("() => window.doiname.call('parse', 'doi:10.1000/182')") == {
        "prefix": "10.1000", "suffix": "182", "name": "10.1000/182"}
    info = page.evaluate("() => window.doiname.info()")
    assert info["installer"] == "micropip" and info["distribution"] == project()["version"]


def _snapshot_json(site_dir: Path, **changes: str) -> str:
    manifest = json.loads((site_dir / "pyodide" / "snapshot.json").read_text())
    return json.dumps({**manifest, **changes})


@pytest.mark.parametrize("broken", ["missing", "other-wasm", "other-core", "corrupt",
                                    "tampered-files"])
def test_falls_back_when_the_snapshot_does_not_fit(page: Page, site_url: str, site_dir: Path,
                                                   broken: str) -> None:
    if not has_snapshot():
        pytest.skip("this build has no memory snapshot")
    notes: list[str] = []
    page.on("console", lambda m: notes.append(m.text) if m.type == "warning" else None)
    if broken == "missing":
        without_snapshot(page)
    elif broken == "corrupt":  # not the bytes the build named: the fetch refuses it
        page.route("**/pyodide/snapshot.bin.gz", lambda route: route.fulfill(
            status=200, body=gzip.compress(b"\x00snp" + b"x" * 4092)))
    elif broken == "tampered-files":  # the same for the files unpacked after the restore
        # (the core's, which the normal boot then asks for again: that one is intact)
        core = site_dir / "pyodide" / build_paths.CORE_FILES
        page.route(f"**/pyodide/{build_paths.CORE_FILES}", lambda route: route.fulfill(
            status=200, body=core.read_bytes() + b"x"), times=1)
    else:
        key = "wasmSha256" if broken == "other-wasm" else "coreIntegrity"
        body = _snapshot_json(site_dir, **{key: "sha256-other"})
        page.route("**/pyodide/snapshot.json", lambda route: route.fulfill(
            status=200, content_type="application/json", body=body))
    boot(page, site_url + "?snapshot=always")
    steps = page.evaluate(WORKER_STEPS)
    assert "worker.snapshotFailed" in steps and "worker.install" in steps
    assert any("booting without the memory snapshot" in n for n in notes), notes
    assert page.evaluate("() => window.doiname.call('to_url', '10.1000/456#789')") == \
        "https://doi.org/10.1000/456%23789"
    assert page.evaluate("() => window.doiname.info()")["installer"] == "micropip"
