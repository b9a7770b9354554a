"""The visits bench/boot.py times: the directory it serves (the site, the npm package's
Pyodide as it ships under ``bare/``, the two bare pages), the server that counts the bodies
it sends, one visit of a page (first or repeat) in a new tab, one round of a page with a
fresh profile, and the single file opened from ``file://``."""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from common import ARGS, CHROMIUM, ROOT, throttle

from doiname_build import compress, offline, paths, serve

#: Ready, in ms from navigation start, and the same moment as epoch ms (polled: the page's
#: script may not have run yet).
SITE_READY = """() => new Promise((resolve) => { const check = () => window.doiname
  ? resolve(window.doiname.ready.then(() => { const t = performance.now();
      return [t, performance.timeOrigin + t]; }))
  : setTimeout(check, 5); check(); })"""
BARE_READY = """() => new Promise((resolve) => { const check = () => window.bareReady
  ? resolve(window.bareReady.then(() => [window.bareReadyAt,
      performance.timeOrigin + window.bareReadyAt])) : setTimeout(check, 5); check(); })"""
#: Resolves once the service worker has stored every file of the build (its list is there).
SW_STORED = offline.STORED_JS

BARE_PAGE = (ROOT / "bench" / "pages" / "bare.html").read_text(encoding="utf-8")
NPM_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
             "pyodide-lock.json")


class Meter:
    """Bodies the server sent (bytes of 200 answers), each with the moment its request
    came (epoch ms, this machine's clock, which the pages' ``performance.timeOrigin``
    shares)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.log: list[tuple[float, int]] = []

    def reset(self) -> None:
        with self.lock:
            self.log = []

    def before(self, epoch_ms: float) -> tuple[int, int]:
        """(bytes, answers) of the requests that came before ``epoch_ms``: what the page
        asked for until it was ready, not what the service worker stores after."""
        with self.lock:
            sent = [size for at, size in self.log if at <= epoch_ms]
        return sum(sent), len(sent)


def bench_root(site: Path, work: Path) -> Path:
    """The directory served: the site (hard links), ``bare/`` with the npm package's files
    (compressed like the site's), the two bare pages."""
    root = work / "root"
    shutil.copytree(site, root, copy_function=os.link)
    bare = root / "bare"
    bare.mkdir()
    for name in NPM_FILES:
        shutil.copy2(paths.NODE_PYODIDE / name, bare / name)
    compress.precompress(bare)
    (bare / "index.html").write_text(BARE_PAGE.replace("./pyodide/", "./"), encoding="utf-8")
    (root / "bare-site.html").write_text(BARE_PAGE, encoding="utf-8")
    return root


def make_server(root: Path, meter: Meter) -> Any:
    server = serve.make_server(root, 0, quiet=True)
    base = server.RequestHandlerClass

    class Counted(base):  # type: ignore[misc, valid-type]
        def send_head(self) -> Any:
            at = time.time() * 1000
            f = super().send_head()
            if f is not None and self.path.split("?")[0] != "/sw.js":
                with meter.lock:
                    meter.log.append((at, os.fstat(f.fileno()).st_size))
            return f

    server.RequestHandlerClass = Counted
    return server


#: The site's boot steps (ms from navigation start): the worker started, then each step
#: it reports (its clock starts when it gets the config).
STEPS = """() => { const t = window.doiname.timings; const w = Object.entries(t)
  .filter(([k]) => k.startsWith("worker.")); return {worker: t.worker, steps: w}; }"""


def visit(context: Any, url: str, ready: str, meter: Meter, mbit: float,
          rtt: float, steps: list[Any] | None = None) -> tuple[float, int, int]:
    """Open ``url`` in a new tab; (ms to ready, bytes sent before ready, requests); the
    site's boot steps appended to ``steps``."""
    page = context.new_page()
    throttle(context, page, mbit, rtt)
    meter.reset()
    page.goto(url, wait_until="commit")
    ms, epoch = (float(x) for x in page.evaluate(ready))
    if steps is not None and ready == SITE_READY:
        steps.append(page.evaluate(STEPS))
    sent, requests = meter.before(epoch)
    if ready == SITE_READY and not page.evaluate(SW_STORED):
        raise SystemExit("bench/boot.py: the service worker did not store the build")
    page.close()
    return ms, sent, requests


def round_of(browser_type: Any, base: str, variant: str, meter: Meter, mbit: float,
             rtt: float, steps: list[Any] | None = None) -> dict[str, float]:
    url = {"site": base + "index.html", "bare": base + "bare/index.html",
           "bare-site": base + "bare-site.html"}[variant]
    ready = SITE_READY if variant == "site" else BARE_READY
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
        context = browser_type.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=ARGS)
        for p in context.pages:
            p.close()
        first, first_bytes, first_requests = visit(context, url, ready, meter, mbit, rtt,
                                                   steps)
        repeat, repeat_bytes, repeat_requests = visit(context, url, ready, meter, mbit, rtt)
        context.close()
    return {"first": first, "first_bytes": first_bytes, "first_requests": first_requests,
            "repeat": repeat, "repeat_bytes": repeat_bytes, "repeat_requests": repeat_requests}


def single_file_ready(browser_type: Any, rounds: int) -> list[float]:
    out = []
    url = paths.SINGLE_FILE.resolve().as_uri()
    for _ in range(rounds):
        browser = browser_type.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        page.goto(url, wait_until="commit")
        out.append(float(page.evaluate(SITE_READY)[0]))
        browser.close()
    return out
