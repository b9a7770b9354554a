"""``dist/doi-tool.html``: the site in one file that works from ``file://`` with no network.

The page's HTML and CSS are inlined (non-ASCII as references: the page is declared
windows-1252), and so is its one script, the bundle of web/src/single/page.js (ASCII).
Everything else is gzip, written raw (SINGLE_ENCODING), in ``<script
type="application/octet-stream" data-doiname-asset=NAME>`` blocks: ``config.json``, the
worker's bundle (web/src/single/worker.js, started from a ``data:`` URL), the Pyodide
runtime, the standard library and the core's files (compiled, as the site ships them)
and micropip's wheel (the worker answers ``fetch()`` for them; see web/src/single/).
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import os
import re
import time
from collections.abc import Sequence
from pathlib import Path

from .bundle import SINGLE_PAGE, SINGLE_WORKER, bundle
from .html import LINK, SCRIPT_SRC, ascii_css, ascii_html, attr
from .integrity import CONNECT_HOSTS, csp_hash
from .paths import (
    CACHE,
    CORE_FILES,
    CORE_LATER,
    MICROPIP_WHEEL,
    NODE_PYODIDE,
    ROOT,
    SINGLE_FILE,
    SITE,
    STDLIB_BOOT,
)
from .proc import log
from .runtime import micropip_lock, stdlib_later, stored_zip

#: The fake ``indexURL`` the single file's worker answers from its inlined files
#: (``.invalid`` never resolves, so a file missing from the inlined set fails at once).
SINGLE_BASE = "https://pyodide.doiname.invalid/"
#: How the inlined files are written: ``gzip-1252`` is the gzip bytes themselves in a
#: page declared windows-1252 (every byte is one character there), with four bytes
#: escaped: 1.6 % larger than the bytes, where base64 (``gzip-base64``) is 33 % larger.
SINGLE_ENCODING = "gzip-1252"
#: The site page's script, which the single file replaces by its own (it makes
#: window.doiname with the single file's worker, then starts the same page).
SITE_SCRIPT = "app.js"


def _gzip(data: bytes) -> bytes:
    """gzip, zlib level 9, with no name or time in the header (reproducible). Results
    for large inputs (the wasm takes seconds) are kept in .cache/single-file/."""
    if len(data) < 1 << 20:
        return gzip.compress(data, compresslevel=9, mtime=0)
    cached = CACHE / "single-file" / (hashlib.sha256(data).hexdigest() + ".gz")
    if cached.is_file():
        return cached.read_bytes()
    packed = gzip.compress(data, compresslevel=9, mtime=0)
    cached.parent.mkdir(parents=True, exist_ok=True)
    tmp = cached.with_name(f".{cached.name}-{os.getpid()}")
    tmp.write_bytes(packed)
    tmp.replace(cached)
    return packed


def _escape_1252(data: bytes) -> bytes:
    """Bytes that survive as the text of a script block in a windows-1252 page: the HTML
    parser turns NUL into U+FFFD and CR into LF, and ``<`` could end the block; they and
    the escape byte ``=`` itself become ``=0`` .. ``=3`` (web/single-worker.js, bytesOf)."""
    return (data.replace(b"=", b"=3").replace(b"\x00", b"=0").replace(b"\r", b"=1")
            .replace(b"<", b"=2"))


def _asset_block(name: str, data: bytes, encoding: str) -> bytes:
    """One inlined file, gzipped, in a script block the browser does not run."""
    packed = _gzip(data)
    if encoding == "gzip-1252":
        text = _escape_1252(packed)
    elif encoding == "gzip-base64":
        text = base64.b64encode(packed)
    else:
        raise ValueError(f"unknown single-file encoding {encoding!r}")
    return (f'<script type="application/octet-stream" data-doiname-asset="{name}" '
            f'data-encoding="{encoding}" data-size="{len(data)}">').encode("ascii") + text + \
        b"</script>\n"


def single_file_csp(scripts: Sequence[str], styles: Sequence[str]) -> str:
    """The Content-Security-Policy the single file carries in a ``<meta>``.

    Only its own inline script and stylesheets (by hash), its ``data:`` worker and the
    ``blob:`` modules that worker makes (the Pyodide loader), WebAssembly compilation,
    requests to doi.org and the registries (``CONNECT_HOSTS``), and to the file's own
    origin (served as UTF-8, the page reads its own bytes again: web/src/single/unpack.js).
    ``frame-ancestors`` cannot be set from a ``<meta>``; a server can add it as a header.
    """
    script_src = " ".join(csp_hash(t) for t in scripts)
    style_src = " ".join(csp_hash(t) for t in styles) or "'none'"
    return ("default-src 'none'; "
            f"script-src {script_src} blob: 'wasm-unsafe-eval'; worker-src data: blob:; "
            f"connect-src 'self' {' '.join(CONNECT_HOSTS)} blob: data:; "
            f"style-src {style_src}; img-src data:; base-uri 'none'; form-action 'none'")


def single_file(site: Path = SITE, dest: Path = SINGLE_FILE, *,
                encoding: str = SINGLE_ENCODING) -> Path:
    """Write the offline single file from a built site (``build()`` calls it).

    The page is the site's index.html with its stylesheets inlined and its script
    (SITE_SCRIPT) replaced by the bundle of web/src/single/page.js, which makes
    ``window.doiname`` with a worker started from a ``data:`` URL (the bundle of
    web/src/single/worker.js) and starts the same page. Returns the path written.
    """
    started = time.monotonic()
    html = (site / "index.html").read_text(encoding="utf-8")

    def inline_link(m: re.Match[str]) -> str:
        # Stylesheets are inlined; other links to files of the site (preload hints, a
        # manifest) have nothing to point at in a single file and are dropped.
        href = attr(m.group(0), "href") or ""
        if href.startswith("data:") or re.match(r"[a-z][a-z0-9+.-]*:", href, re.IGNORECASE):
            return m.group(0)
        if (attr(m.group(0), "rel") or "").lower() != "stylesheet":
            return ""
        css = (site / href).read_text(encoding="utf-8")
        if "</style" in css.lower():
            raise SystemExit(f"build.py: {href} contains </style; cannot inline it")
        return f"<style>\n{ascii_css(css)}</style>"

    if re.search(r"<(script|style)\b[^>]*>[^<]*[^\x00-\x7f]", html, re.IGNORECASE):
        raise SystemExit("build.py: index.html has non-ASCII text in an inline script or "
                         "style; the single file cannot re-encode it")
    html = ascii_html(html)
    # The site's own meta policy (script-src 'self') does not fit a file with inline
    # scripts: the single file carries its own (single_file_csp) instead.
    html = re.sub(r"""<meta\s+http-equiv=["']Content-Security-Policy["'][^>]*>\n?""", "", html,
                  flags=re.IGNORECASE)
    html, charsets = re.subn(r"""<meta\s+charset=["']?[\w-]+["']?\s*/?>""",
                             '<meta charset="windows-1252">' if encoding == "gzip-1252"
                             else '<meta charset="utf-8">', html, count=1, flags=re.IGNORECASE)
    if not charsets:
        raise SystemExit('build.py: index.html has no <meta charset=...>; the single file '
                         'needs it to say how it is written')
    html = LINK.sub(inline_link, html)
    scripts: list[str] = []

    def take_script(m: re.Match[str]) -> str:
        src = attr(m.group(0), "src") or ""
        if (attr(m.group(0), "type") or "").lower() != "module":
            raise SystemExit(f"build.py: index.html loads {src} as a classic script; the "
                             "single file only inlines module scripts")
        scripts.append(os.path.normpath(src))
        return ""

    html = SCRIPT_SRC.sub(take_script, html)
    if scripts != [SITE_SCRIPT]:
        raise SystemExit(f"build.py: index.html loads {scripts}; the single file replaces "
                         f"only {SITE_SCRIPT}")
    if "</body>" not in html:
        raise SystemExit("build.py: index.html has no </body>; cannot write the single file")

    runtime = site / "pyodide"
    core = (runtime / CORE_FILES).read_bytes()  # gzip of a stored zip, as the site's
    later = (runtime / CORE_LATER).read_bytes()
    micropip = stored_zip((runtime / MICROPIP_WHEEL).read_bytes())
    micropip_sha = hashlib.sha256(micropip).hexdigest()
    engine: dict[str, bytes] = {
        "pyodide.mjs": (runtime / "pyodide.mjs").read_bytes(),
        "pyodide.asm.mjs": (runtime / "pyodide.asm.mjs").read_bytes(),
        "pyodide.asm.wasm": (runtime / "pyodide.asm.wasm").read_bytes(),
        # The site's two parts of the standard library: the boot's, stored (gzipped with
        # the rest of the file), and the rest in CORE_LATER.
        STDLIB_BOOT: stored_zip((runtime / STDLIB_BOOT).read_bytes()),
        CORE_FILES: core,
        CORE_LATER: later,
        MICROPIP_WHEEL: micropip,
    }
    config = {
        "worker": {
            "pyodideModuleURL": SINGLE_BASE + "pyodide.mjs",  # the worker replaces it
            "indexURL": SINGLE_BASE,
            "packageBaseUrl": SINGLE_BASE,
            "stdLibURL": SINGLE_BASE + STDLIB_BOOT,
            "lockFileContents": micropip_lock(NODE_PYODIDE, micropip_sha),
            "coreFilesURL": SINGLE_BASE + CORE_FILES,
            "coreIntegrity": "sha256-" + base64.b64encode(hashlib.sha256(core).digest()).decode(),
            # Both parts of the core before ready: nothing here comes over a network.
            "coreLaterURL": SINGLE_BASE + CORE_LATER,
            "coreLaterIntegrity": "sha256-" + base64.b64encode(
                hashlib.sha256(later).digest()).decode(),
            "coreLaterAtBoot": True,
            "stdlibLater": stdlib_later(runtime / CORE_LATER),
        },
        "base": SINGLE_BASE,
        "engineAssets": list(engine),
    }
    script = bundle(SINGLE_PAGE, "esm")
    if "</script" in script.lower() or not script.isascii():
        raise SystemExit(f"build.py: the bundle of {SINGLE_PAGE} must be ASCII without "
                         "</script to be inlined")
    blocks = [_asset_block("config.json", json.dumps(config).encode("utf-8"), encoding),
              _asset_block("worker.js", bundle(SINGLE_WORKER, "esm").encode("ascii"), encoding)]
    blocks += [_asset_block(name, data, encoding) for name, data in engine.items()]
    styles = re.findall(r"<style>(.*?)</style>", html, flags=re.DOTALL)
    html = re.sub(r"(<meta charset=[^>]*>)",
                  lambda m: f'{m.group(1)}\n<meta http-equiv="Content-Security-Policy" '
                            f'content="{single_file_csp([script], styles)}">', html, count=1)
    head, _, rest = html.rpartition("</body>")
    out = b"".join([head.encode("ascii"), *blocks,
                    f'<script type="module">{script}</script>\n</body>{rest}'.encode("ascii")])
    tmp = dest.with_name(f".{dest.name}-{os.getpid()}")
    tmp.write_bytes(out)
    tmp.replace(dest)
    log(f"wrote {dest.relative_to(ROOT) if dest.is_relative_to(ROOT) else dest} "
        f"({dest.stat().st_size / 1e6:.2f} MB) in {time.monotonic() - started:.1f} s")
    return dest
