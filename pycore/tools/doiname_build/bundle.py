"""The JavaScript the site and the single file run, bundled by esbuild (pinned in
package-lock.json) from ``web/src``: one file per page script, worker and widget, with
no import left for the browser to follow (so no import map and no module chain).

The bundles are minified in whitespace and syntax, not in names (a stack trace in the
console stays readable), written in ASCII (esbuild escapes the rest), and get what the
build knows (``DOINAME_BUILD``: the core wheel, the runtime, the snapshot) as a constant.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any, Literal

from .paths import ESBUILD, ROOT, WEB_SRC

Format = Literal["esm", "iife"]

#: The site's bundles: entry (under web/src), file written in the site, format.
SITE_BUNDLES: tuple[tuple[str, str, Format], ...] = (
    ("site.js", "app.js", "esm"),  # pages/index.html
    ("widget/widget.js", "widget.js", "iife"),  # one classic script on host pages
    ("widget/frame.js", "widget-frame.js", "esm"),  # pages/widget-frame.html
)
#: The engine's module worker (the page's and the frame's), bundled into their scripts.
WORKER_ENTRY = "worker/main.js"
#: The single file's page script and its worker (single_file.py inlines them).
SINGLE_PAGE = "single/page.js"
SINGLE_WORKER = "single/worker.js"


def bundle(entry: str, fmt: Format, build_info: dict[str, Any] | None = None, *,
           defines: dict[str, Any] | None = None) -> str:
    """The bundle of ``web/src/<entry>`` and everything it imports, as text; ``build_info``
    is ``DOINAME_BUILD``, ``defines`` other constants (name: JSON value)."""
    cmd = [str(ESBUILD), str(WEB_SRC / entry), "--bundle", f"--format={fmt}",
           "--target=es2022", "--platform=browser", "--charset=ascii", "--legal-comments=none",
           "--minify-whitespace", "--minify-syntax", "--log-level=warning"]
    constants = {**({"DOINAME_BUILD": build_info} if build_info is not None else {}),
                 **(defines or {})}
    for name, value in constants.items():
        cmd.append(f"--define:{name}={json.dumps(value, separators=(',', ':'))}")
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"build.py: esbuild could not bundle web/src/{entry}:\n"
                         f"{done.stderr.strip()}")
    if done.stderr.strip():
        raise SystemExit(f"build.py: esbuild warns about web/src/{entry}:\n{done.stderr.strip()}")
    return done.stdout


#: Most characters of a constant given to esbuild on its command line (one argument: Linux
#: takes at most 128 KiB).
MAX_DEFINE_CHARS = 120_000


def bundle_site(site: Path, build_info: dict[str, Any]) -> None:
    """Write the site's bundles (SITE_BUNDLES) into ``site``. The worker's bundle is made
    first and given to the others as the constant ``DOINAME_WORKER`` (its text): the page
    and the widget's frame start their worker at once from a ``blob:`` URL of it, and the
    ``integrity`` value of their own ``<script>`` covers the worker's bytes too (no
    browser checks one for ``new Worker(url)``)."""
    worker = bundle(WORKER_ENTRY, "esm", build_info)
    if len(json.dumps(worker)) > MAX_DEFINE_CHARS:
        raise SystemExit(f"build.py: the worker's bundle is over {MAX_DEFINE_CHARS:,} "
                         "characters, more than esbuild's command line can take as a constant")
    for entry, name, fmt in SITE_BUNDLES:
        text = bundle(entry, fmt, build_info, defines={"DOINAME_WORKER": worker})
        (site / name).write_text(text, encoding="ascii")
