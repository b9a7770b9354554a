"""The site after one visit and on its first: what the worker downloads at once (with
sizes, for its progress), and the service worker that keeps every file of the build for
offline use (``sw.js``, with the integrity value of each file)."""

from __future__ import annotations

import fnmatch
import hashlib
import json
import zlib
from pathlib import Path
from typing import Any

from .bundle import bundle
from .integrity import FRAMED_BY_ANY, site_csp, sri
from .paths import CORE_FILES, STDLIB_BOOT

#: The service worker's script, at the site's root (its scope is the whole site).
SERVICE_WORKER = "sw.js"
#: Where the service worker stores the list of the files it kept (written last: a cache
#: holding it is complete). Never a file of the site.
PRECACHE_LIST = "precache-list.json"
#: For tests and benchmarks (``page.evaluate``): waits until the service worker controls
#: the page's origin and a cache holds the list (a complete copy of a build); resolves to
#: the names of the complete caches (``[]`` after 60 s).
STORED_JS = """async () => {
  await navigator.serviceWorker.ready;
  const list = new URL("PRECACHE_LIST", location.href).href;
  for (let i = 0; i < 600; i++) {
    const done = [];
    for (const name of await caches.keys()) {
      if (await (await caches.open(name)).match(list)) done.push(name);
    }
    if (done.length) return done;
    await new Promise((r) => setTimeout(r, 100));
  }
  return [];
}""".replace("PRECACHE_LIST", PRECACHE_LIST)
#: The runtime files the normal boot downloads, under the site's ``pyodide/``; modules
#: are imported (``import()``), the others fetched. micropip's wheel is not among them:
#: the worker loads it once the page is ready (worker/boot.js).
RUNTIME_MODULES = ("pyodide.mjs", "pyodide.asm.mjs")
RUNTIME_FETCHED = ("pyodide.asm.wasm", STDLIB_BOOT, "pyodide-lock.json", CORE_FILES)
#: Suffixes a host compresses (an estimate of what a file costs to send).
_COMPRESSED_BY_HOSTS = frozenset({".mjs", ".js", ".json", ".wasm", ".html", ".css"})


def sent_bytes(path: Path) -> int:
    """About what ``path`` costs to send from a host that compresses (zlib level 6, a
    little more than the brotli copy); the worker uses the answer's ``Content-Length``
    once it has it."""
    data = path.read_bytes()
    if path.suffix not in _COMPRESSED_BY_HOSTS:
        return len(data)
    return len(zlib.compress(data, 6))


def runtime_files(site: Path, core_integrity: str) -> list[dict[str, Any]]:
    """What the worker's normal boot downloads (``BuildInfo.runtime``): each file's path
    in the site, size, estimated cost to send, and the integrity value the boot checks
    it against (every file's: the module scripts are imported only from their checked
    bytes, the others are checked as they stream, worker/fetches.js; the core's files'
    is the value the worker asks for them with), and ``later`` for the core's files: asked
    for once the others have arrived, since nothing reads them before the interpreter is
    up."""
    out: list[dict[str, Any]] = []
    for name in (*RUNTIME_MODULES, *RUNTIME_FETCHED):
        path = site / "pyodide" / name
        entry: dict[str, Any] = {"path": f"pyodide/{name}", "bytes": path.stat().st_size,
                                 "transfer": sent_bytes(path)}
        entry["integrity"] = sri(path.read_bytes())
        if name in RUNTIME_MODULES:
            entry["module"] = True
        if name == CORE_FILES:
            entry["integrity"] = core_integrity
            entry["later"] = True
        out.append(entry)
    return out


#: Files of the site its pages never read: the whole standard library, for a bare
#: ``loadPyodide`` on the site's files (the site's worker mounts STDLIB_BOOT and gets the
#: rest with the core's).
NOT_PRECACHED = ("_headers", SERVICE_WORKER, "pyodide/python_stdlib.zip")


def precached(site: Path) -> list[tuple[str, str]]:
    """Every file of the built site a visitor may need, with its integrity value: all but
    :data:`NOT_PRECACHED` and the precompressed copies."""
    out: list[tuple[str, str]] = []
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site).as_posix()
        if (not path.is_file() or rel in NOT_PRECACHED
                or (path.suffix in (".br", ".gz") and path.with_suffix("").is_file())
                or any(part.startswith(".") for part in rel.split("/"))):
            continue
        out.append((rel, sri(path.read_bytes())))
    return out


def write_service_worker(site: Path) -> str:
    """Write ``sw.js`` for the files the site holds now (call it once they are final, before
    the compressed copies), with each page's policy; returns the name of its build's
    cache (the service worker adds its scope), which changes with any file."""
    files = precached(site)
    listing = json.dumps(files, separators=(",", ":")).encode("utf-8")
    cache = "doiname-" + hashlib.sha256(listing).hexdigest()[:20]
    # The policy each page is served with from the offline copy: the one _headers gives it.
    policies = {path: site_csp(frame_ancestors=None if fnmatch.fnmatchcase(
        "/" + path, FRAMED_BY_ANY) else "'self'") for path, _ in files if path.endswith(".html")}
    precache = {"cache": cache, "list": PRECACHE_LIST, "files": files, "policies": policies}
    (site / SERVICE_WORKER).write_text(
        bundle("sw.js", "iife", defines={"DOINAME_PRECACHE": precache}), encoding="ascii")
    return cache
