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

from .integrity import sri
from .paths import ESBUILD, ROOT, WEB_SRC

Format = Literal["esm", "iife"]

#: The site's bundles: entry (under web/src), file written in the site, format.
SITE_BUNDLES: tuple[tuple[str, str, Format], ...] = (
    ("site.js", "app.js", "esm"),  # pages/index.html
    ("worker/main.js", "worker.js", "esm"),  # the module worker (pages and the frame)
    ("widget/widget.js", "widget.js", "iife"),  # one classic script on host pages
    ("widget/frame.js", "widget-frame.js", "esm"),  # pages/widget-frame.html
)
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


#: The site's worker script (SITE_BUNDLES), whose integrity value the other bundles get.
WORKER_BUNDLE = "worker.js"


def bundle_site(site: Path, build_info: dict[str, Any]) -> None:
    """Write the site's bundles (SITE_BUNDLES) into ``site``: the worker's first, then the
    others with its integrity value as ``DOINAME_BUILD.workerIntegrity`` (the page checks
    the script before a worker runs it; the worker's own bundle does not use it)."""
    order = sorted(SITE_BUNDLES, key=lambda b: b[1] != WORKER_BUNDLE)
    info = dict(build_info)
    for entry, name, fmt in order:
        text = bundle(entry, fmt, info)
        (site / name).write_text(text, encoding="ascii")
        if name == WORKER_BUNDLE:
            info["workerIntegrity"] = sri(text.encode("ascii"))
