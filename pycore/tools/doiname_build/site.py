"""``build()``: ``dist/site/`` (the static site) and the single file, from web/ and the core."""

from __future__ import annotations

import base64
import contextlib
import fcntl
import hashlib
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

from .bundle import bundle_site
from .compress import precompress, precompress_ahead
from .env import ensure_micropip, ensure_npm
from .integrity import add_integrity, add_meta_csp, static_headers
from .offline import PRECACHE_LIST, runtime_files, write_service_worker
from .paths import (
    CORE_FILES,
    CORE_LATER,
    DIST,
    MICROPIP_WHEEL,
    PYODIDE_FILES,
    PYODIDE_VERSION,
    ROOT,
    SITE,
    STDLIB_BOOT,
    WEB_PAGES,
)
from .proc import log, sha256_file
from .runtime import compile_boot, micropip_lock, stdlib_later, trimmed_stdlib
from .single_file import single_file
from .site_zip import site_zip
from .snapshot import memory_snapshot
from .wheel import build_wheel, project_metadata


@contextlib.contextmanager
def build_lock() -> Iterator[None]:
    """One build at a time (tests and people may build concurrently)."""
    DIST.mkdir(parents=True, exist_ok=True)
    with (DIST / ".build.lock").open("w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def build() -> Path:
    """Write dist/site/, dist/doi-tool.html and dist/doiname-site-VERSION.zip; return the
    site's path. The old site is
    swapped out atomically."""
    started = time.monotonic()
    pyodide_dir = ensure_npm()
    precompress_ahead([pyodide_dir / name for name in PYODIDE_FILES])  # while we build
    micropip = ensure_micropip()
    with build_lock():
        tmp = DIST / f".site-{os.getpid()}"
        if tmp.exists():
            shutil.rmtree(tmp)
        shutil.copytree(WEB_PAGES, tmp, ignore=shutil.ignore_patterns("*~", ".*", "*.md"))
        runtime = tmp / "pyodide"
        runtime.mkdir()
        for name in PYODIDE_FILES:
            shutil.copy2(pyodide_dir / name, runtime / name)
        # The standard library the core needs (STDLIB_KEEP), not all of it: 2.5 MB less.
        stdlib = runtime / "python_stdlib.zip"
        stdlib.write_bytes(trimmed_stdlib(stdlib.read_bytes(), deflate=True))
        shutil.copy2(micropip, runtime / MICROPIP_WHEEL)
        (runtime / "pyodide-lock.json").write_text(
            micropip_lock(pyodide_dir, sha256_file(micropip)), encoding="utf-8")
        wheel = build_wheel(tmp / "wheels")
        # The core as micropip installs it and the modules the boot imports, as .pyc (no
        # compiling at boot); the rest of the standard library as source. Each in two
        # parts: what the boot imports, and the rest (CORE_LATER), which comes after.
        compile_boot(runtime, wheel)
        core_files = runtime / CORE_FILES
        digest = hashlib.sha256(core_files.read_bytes()).digest()
        core_integrity = "sha256-" + base64.b64encode(digest).decode("ascii")
        later = hashlib.sha256((runtime / CORE_LATER).read_bytes()).digest()
        info = {
            "pyodideVersion": PYODIDE_VERSION,
            "indexURL": "pyodide/",
            "coreFiles": f"pyodide/{CORE_FILES}",
            "coreIntegrity": core_integrity,
            # The rest of the core's files: asked for once the first are in, unpacked
            # when they arrive (doiname.bridge.arrival).
            "coreLater": f"pyodide/{CORE_LATER}",
            "coreLaterIntegrity": "sha256-" + base64.b64encode(later).decode("ascii"),
            # The standard library the worker mounts: the modules its boot imports; the
            # others are in coreLater (python_stdlib.zip, whole, is for bare Pyodide).
            "stdlib": f"pyodide/{STDLIB_BOOT}",
            "stdlibLater": stdlib_later(runtime / CORE_LATER),
            "coreVersion": str(project_metadata()["version"]),
            "micropip": MICROPIP_WHEEL,
            "wasmSha256": sha256_file(runtime / "pyodide.asm.wasm"),
            "snapshot": memory_snapshot(runtime, core_files),
            # What the worker downloads at once on a first visit, and the service
            # worker's list of the files it kept (offline.py).
            "runtime": runtime_files(tmp, core_integrity),
            "precache": PRECACHE_LIST,
        }
        bundle_site(tmp, info)  # app.js, worker.js, widget.js, widget-frame.js
        add_integrity(tmp)
        add_meta_csp(tmp)
        (tmp / "_headers").write_text(static_headers(), encoding="utf-8")
        write_service_worker(tmp)  # sw.js: every file above with its integrity value
        precompress(tmp)  # NAME.br and NAME.gz, last: every file is final now
        old = DIST / f".old-{os.getpid()}"
        if SITE.exists():
            SITE.rename(old)
        tmp.rename(SITE)
        if old.exists():
            shutil.rmtree(old, ignore_errors=True)
        single_file(SITE)  # dist/doi-tool.html
        site_zip(str(project_metadata()["version"]))  # dist/doiname-site-VERSION.zip
    log(f"wrote {SITE.relative_to(ROOT)} in {time.monotonic() - started:.1f} s")
    return SITE


