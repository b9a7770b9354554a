"""Where the build reads and writes, the versions it pins, and how Chromium is started."""

from __future__ import annotations

from pathlib import Path

#: The repository (this file is ``pycore/tools/doiname_build/paths.py``).
ROOT = Path(__file__).resolve().parents[3]
WEB = ROOT / "web"
#: The site's pages and stylesheets, copied as they are.
WEB_PAGES = WEB / "pages"
#: The JavaScript sources (ES modules), bundled by esbuild.
WEB_SRC = WEB / "src"
CORE = ROOT / "pycore" / "doiname"
TOOLS = ROOT / "pycore" / "tools"
DIST = ROOT / "dist"
SITE = DIST / "site"
SINGLE_FILE = DIST / "doi-tool.html"
CACHE = ROOT / ".cache"
WHEEL_CACHE = CACHE / "wheels"
VENV = ROOT / ".venv"
#: The dev tools (pyproject's ``dev`` extra and the build backend), every version and
#: hash pinned; written by ``python3 build.py lock``.
DEV_LOCK = ROOT / "tests" / "requirements-dev.lock"
NODE_MODULES = ROOT / "node_modules"
NODE_PYODIDE = NODE_MODULES / "pyodide"
#: The pinned npm tools (package-lock.json) the build and the tests run.
ESBUILD = NODE_MODULES / ".bin" / "esbuild"
TSC = NODE_MODULES / ".bin" / "tsc"
BIOME = NODE_MODULES / ".bin" / "biome"

#: Debian's Chromium (``apt-get install chromium``); Playwright drives it by this path.
CHROMIUM = Path("/usr/bin/chromium")
#: The flags Chromium needs on these machines (no sandbox as root, no GPU, no calls home).
CHROMIUM_ARGS = ("--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync")

PYODIDE_VERSION = "314.0.7"
#: What the site needs from the npm package (no wheels: the package carries none).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
)
MICROPIP_VERSION = "0.11.1"
MICROPIP_WHEEL = f"micropip-{MICROPIP_VERSION}-py3-none-any.whl"
#: sha256 of PyPI's micropip 0.11.1 wheel (it differs from the one in Pyodide's lock
#: file, which is why the copied lock file is patched with this one).
MICROPIP_SHA256 = "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"

#: The core's files as micropip installs them, compiled by Pyodide's Python
#: (bytecode.installed_zip: a zip of stored entries), in two zips gzipped whole, in the
#: site's ``pyodide/``: CORE_FILES holds the modules the worker's boot and first answer
#: import, unpacked into site-packages before the engine is ready; CORE_LATER the rest
#: (the package's metadata among it) and the standard library's modules that are not in
#: STDLIB_BOOT, unpacked when it arrives (doiname.bridge.arrival).
#: The wheel stays in ``wheels/`` for micropip. Sent as they are, like snapshot.bin.gz:
#: the worker ungzips them.
CORE_FILES = "doiname-core.zip.gz"
CORE_LATER = "doiname-core-later.zip.gz"
#: The standard library modules the worker's boot and first answer import (compiled, a
#: zip of deflated entries, in the site's ``pyodide/``): what the site's worker mounts
#: as the standard library (``loadPyodide``'s ``stdLibURL``). The rest of the trimmed
#: standard library travels in CORE_LATER, unpacked into the standard library's folder
#: when it arrives. ``python_stdlib.zip`` stays whole, for a bare ``loadPyodide`` on the
#: site's files (micropip's install of the core's wheel, bench/boot.py's baseline).
STDLIB_BOOT = "python_stdlib-boot.zip"
#: Where CORE_LATER's entries of the core go, in the standard library's folder (the
#: runtime's site-packages: ``/lib/python3.X/site-packages``); its standard library
#: entries are at its root, as in python_stdlib.zip.
LATER_SITE_PACKAGES = "site-packages/"

#: The worker's normal boot, for the build's Node scripts (the snapshot, the compiled stdlib).
BOOT_SCRIPT = TOOLS / "boot-core.mjs"
#: The standard library modules the boot imports, compiled by Pyodide's own Python: this
#: Node script runs the boot and then BYTECODE_MODULE inside that Python.
STDLIB_PYC_SCRIPT = TOOLS / "compile-stdlib.mjs"
BYTECODE_MODULE = TOOLS / "doiname_build" / "bytecode.py"

#: The build-time memory snapshot: made by this Node script, written to the site's
#: ``pyodide/`` as SNAPSHOT_FILES. ``DOINAME_SNAPSHOT=0`` builds a site without it.
SNAPSHOT_SCRIPT = TOOLS / "make-snapshot.mjs"
#: The one module that uses Pyodide's private snapshot API (the script and the worker use it).
SNAPSHOT_MODULE = WEB_SRC / "worker" / "snapshot.js"
SNAPSHOT_FILES = ("snapshot.json", "snapshot.bin.gz")
