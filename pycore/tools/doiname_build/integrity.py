"""Subresource integrity and Content-Security-Policy for the built site."""

from __future__ import annotations

import base64
import hashlib
import os
import re
from pathlib import Path

from .html import SCRIPT_SRC, attr

#: The site's policy: no inline script or style at all, scripts and workers (the service
#: worker too) from the site itself, WebAssembly compilation, requests to the site and to
#: doi.org only, the web app manifest from the site.
SITE_CSP = ("default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; "
            "worker-src 'self'; connect-src 'self' https://doi.org; style-src 'self'; "
            "img-src 'self' data:; frame-src 'self'; manifest-src 'self'; base-uri 'none'; "
            "form-action 'none'")


def sri(data: bytes) -> str:
    """A Subresource Integrity value (SHA-384) for these bytes."""
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode("ascii")


def csp_hash(text: str) -> str:
    """A CSP source for an inline script or style with exactly this text."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


def add_integrity(site: Path) -> None:
    """Subresource integrity for the site's own scripts: each page's ``<script src>`` gets
    an ``integrity`` attribute. Each is one bundle that imports nothing (bundle.py), so
    that covers every script a page runs. Worker scripts cannot carry integrity (no browser
    supports it); the worker checks the core wheel's hash itself, and Pyodide the packages
    of its lock file."""
    for page in sorted(site.glob("*.html")):
        html = page.read_text(encoding="utf-8")

        def with_integrity(m: re.Match[str]) -> str:
            src = os.path.normpath(attr(m.group(0), "src") or "")
            value = sri((site / src).read_bytes())
            return m.group(0).replace("<script ", f'<script integrity="{value}" ', 1)

        page.write_text(SCRIPT_SRC.sub(with_integrity, html), encoding="utf-8")


def site_csp(*, frame_ancestors: str | None = "'self'") -> str:
    """The strictest policy the built site works under."""
    return SITE_CSP + (f"; frame-ancestors {frame_ancestors}" if frame_ancestors else "")


#: The paths whose pages may only be framed by the site itself (``frame-ancestors``):
#: every page but the widget's frame, which library sites embed. ``*`` also covers the
#: extensionless forms (``/index``) that Cloudflare Pages and Netlify serve.
FRAMED_BY_SELF = ("/", "/index*", "/widget-demo*")


def static_headers() -> str:
    """A ``_headers`` file (Netlify and Cloudflare Pages read it) with the site's policy.

    Rules by pattern, so that no path goes without a policy: ``/*`` gives every answer
    (pages, scripts, the worker's script, which sets the worker's own policy, and any
    unknown path) the site's policy without ``frame-ancestors``; the pages of
    FRAMED_BY_SELF get it again with ``frame-ancestors 'self'``. A host that joins the
    values of every matching rule (Cloudflare: two policies, both enforced) and one that
    takes the most specific rule (Netlify) both end up enforcing the full policy there.
    """
    base = site_csp(frame_ancestors=None)
    page = site_csp()
    lines = ["# Written by build.py: the headers a static host should send (README, CSP).",
             "/*", f"  Content-Security-Policy: {base}", "  X-Content-Type-Options: nosniff",
             "  Referrer-Policy: no-referrer", ""]
    for path in FRAMED_BY_SELF:
        lines += [path, f"  Content-Security-Policy: {page}", ""]
    return "\n".join(lines)
