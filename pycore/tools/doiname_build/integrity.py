"""Subresource integrity and Content-Security-Policy for the built site."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
from pathlib import Path

from .html import IMPORTMAP, SCRIPT_SRC, attr
from .modules import page_modules

#: The site's policy; ``{hashes}`` are the sources of its inline import maps.
SITE_CSP = ("default-src 'none'; script-src 'self' {hashes} 'wasm-unsafe-eval'; "
            "worker-src 'self'; connect-src 'self' https://doi.org; style-src 'self'; "
            "img-src 'self' data:; frame-src 'self'; base-uri 'none'; form-action 'none'")


def sri(data: bytes) -> str:
    """A Subresource Integrity value (SHA-384) for these bytes."""
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode("ascii")


def csp_hash(text: str) -> str:
    """A CSP source for an inline script or style with exactly this text."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


def add_integrity(site: Path) -> None:
    """Subresource integrity for the site's own scripts.

    Each page's ``<script src>`` gets an ``integrity`` attribute, and a page with module
    scripts gets an import map whose ``integrity`` section lists every module its
    scripts import, directly or not: the browser refuses a module whose bytes changed.
    Worker scripts cannot carry integrity (no browser supports it); the worker checks
    the core wheel's hash itself, and Pyodide the packages of its lock file.
    """
    for page in sorted(site.glob("*.html")):
        html = page.read_text(encoding="utf-8")
        tags = [m.group(0) for m in SCRIPT_SRC.finditer(html)]
        if not tags:
            continue
        modules = [attr(t, "src") or "" for t in tags
                   if (attr(t, "type") or "").lower() == "module"]
        graph = [m["path"] for m in page_modules(site, modules)] if modules else []

        def with_integrity(m: re.Match[str]) -> str:
            src = os.path.normpath(attr(m.group(0), "src") or "")
            value = sri((site / src).read_bytes())
            return m.group(0).replace("<script ", f'<script integrity="{value}" ', 1)

        html = SCRIPT_SRC.sub(with_integrity, html)
        if graph:
            imap = json.dumps({"integrity": {f"./{p}": sri((site / p).read_bytes())
                                             for p in sorted(graph)}},
                              separators=(",", ":"))
            first = SCRIPT_SRC.search(html)
            assert first is not None
            html = (html[:first.start()] + f'<script type="importmap">{imap}</script>\n'
                    + html[first.start():])
            # A page with its own policy (widget-frame.html) must allow its import map.
            source = csp_hash(imap)
            html = re.sub(r'(<meta http-equiv="Content-Security-Policy" content="[^"]*?'
                          r"script-src 'self')", rf"\1 {source}", html)
        page.write_text(html, encoding="utf-8")


def site_csp(site: Path, *, frame_ancestors: str | None = "'self'") -> str:
    """The strictest policy the built site works under: the hashes of its import maps."""
    hashes = sorted({csp_hash(m.group(1)) for page in site.glob("*.html")
                     for m in IMPORTMAP.finditer(page.read_text(encoding="utf-8"))})
    policy = SITE_CSP.format(hashes=" ".join(hashes)).replace("  ", " ")
    return policy + (f"; frame-ancestors {frame_ancestors}" if frame_ancestors else "")


#: The paths whose pages may only be framed by the site itself (``frame-ancestors``):
#: every page but the widget's frame, which library sites embed. ``*`` also covers the
#: extensionless forms (``/index``) that Cloudflare Pages and Netlify serve.
FRAMED_BY_SELF = ("/", "/index*", "/widget-demo*")


def static_headers(site: Path) -> str:
    """A ``_headers`` file (Netlify and Cloudflare Pages read it) with the site's policy.

    Rules by pattern, so that no path goes without a policy: ``/*`` gives every answer
    (pages, scripts, the worker's script, which sets the worker's own policy, and any
    unknown path) the site's policy without ``frame-ancestors``; the pages of
    FRAMED_BY_SELF get it again with ``frame-ancestors 'self'``. A host that joins the
    values of every matching rule (Cloudflare: two policies, both enforced) and one that
    takes the most specific rule (Netlify) both end up enforcing the full policy there.
    """
    base = site_csp(site, frame_ancestors=None)
    page = site_csp(site)
    lines = ["# Written by build.py: the headers a static host should send (README, CSP).",
             "/*", f"  Content-Security-Policy: {base}", "  X-Content-Type-Options: nosniff",
             "  Referrer-Policy: no-referrer", ""]
    for path in FRAMED_BY_SELF:
        lines += [path, f"  Content-Security-Policy: {page}", ""]
    return "\n".join(lines)
