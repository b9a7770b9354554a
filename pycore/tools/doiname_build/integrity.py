"""Subresource integrity and Content-Security-Policy for the built site."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import sys
from pathlib import Path

from .html import SCRIPT_SRC, attr
from .paths import CORE


def _registry_hosts() -> tuple[str, ...]:
    """:data:`doiname.registry.REGISTRY_HOSTS`, read from the core's source (its one owner:
    the hosts the core's registry requests reach, redirects included)."""
    if str(CORE.parent) not in sys.path:
        sys.path.insert(0, str(CORE.parent))
    from doiname.registry.requests import REGISTRY_HOSTS
    return tuple(REGISTRY_HOSTS)


#: The hosts the page asks besides itself: doi.org (handle records, Which RA, content
#: negotiation) and the one way each agency lets a browser read its records
#: (doiname.registry.registry_request, which lists them).
CONNECT_HOSTS = _registry_hosts()

#: The site's policy: no inline script or style at all, scripts and workers (the service
#: worker too) from the site itself, WebAssembly compilation, requests to the site, to
#: doi.org and to the registries' record services only (:data:`CONNECT_HOSTS`), the web
#: app manifest from the site. ``blob:`` in ``worker-src`` and
#: ``script-src`` is for scripts whose bytes were checked first: the page runs the
#: worker from a ``blob:`` URL of the worker's script inside its own (bundle.py), and the
#: worker (which runs under this policy: a ``blob:`` worker takes its creator's) imports
#: Pyodide's two module scripts from ``blob:`` URLs of their bytes fetched with their
#: integrity values (README, "Integrity and Content-Security-Policy").
SITE_CSP = ("default-src 'none'; script-src 'self' 'wasm-unsafe-eval' blob:; "
            "worker-src 'self' blob:; connect-src 'self' " + " ".join(CONNECT_HOSTS) + "; "
            "style-src 'self'; "
            "img-src 'self' data:; frame-src 'self'; manifest-src 'self'; base-uri 'none'; "
            "form-action 'none'")


#: A ``<meta charset>`` tag, after which a page's ``<meta http-equiv>`` policy goes.
META_CHARSET = re.compile(r"<meta charset=[^>]*>", re.IGNORECASE)


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
    that covers every script a page runs, the worker's too: a worker's script cannot
    carry integrity (no browser supports it), so the page's bundle holds it and runs it
    from a ``blob:`` URL (bundle.py). The worker fetches Pyodide's two module scripts with
    their values and runs the checked bytes (``BuildInfo.runtime``) and checks every
    other file it reads as it streams; Pyodide checks the packages of its lock file."""
    for page in sorted(site.glob("*.html")):
        html = page.read_text(encoding="utf-8")

        def with_integrity(m: re.Match[str]) -> str:
            src = os.path.normpath(attr(m.group(0), "src") or "")
            value = sri((site / src).read_bytes())
            return m.group(0).replace("<script ", f'<script integrity="{value}" ', 1)

        page.write_text(SCRIPT_SRC.sub(with_integrity, html), encoding="utf-8")


def add_meta_csp(site: Path) -> None:
    """Every page of the site carries the site's policy in a ``<meta http-equiv>`` too, for
    hosts that send no headers of their own (GitHub Pages ignores ``_headers``). A meta
    policy cannot carry ``frame-ancestors`` (browsers ignore it there): that part needs
    the header. A page with its own meta policy (the widget's frame) keeps it."""
    meta = f'<meta http-equiv="Content-Security-Policy" content="{site_csp(frame_ancestors=None)}">'
    for page in sorted(site.glob("*.html")):
        html = page.read_text(encoding="utf-8")
        if "http-equiv=\"Content-Security-Policy\"" in html:
            continue
        found = META_CHARSET.search(html)
        if found is None:
            raise ValueError(f"{page.name} has no <meta charset>: its policy has no place")
        page.write_text(html[:found.end()] + "\n" + meta + html[found.end():], encoding="utf-8")


def site_csp(*, frame_ancestors: str | None = "'self'") -> str:
    """The strictest policy the built site works under."""
    return SITE_CSP + (f"; frame-ancestors {frame_ancestors}" if frame_ancestors else "")


#: The paths that other sites may frame: the widget's frame (its page, ``/widget-frame``
#: as Cloudflare Pages and Netlify serve it, and its script). Every other answer says
#: ``frame-ancestors 'self'``.
FRAMED_BY_ANY = "/widget-frame*"


def static_headers() -> str:
    """A ``_headers`` file (Netlify and Cloudflare Pages read it) with the site's policy.

    Rules by pattern, so that no path goes without a policy: ``/*`` gives every answer
    (pages, scripts, any unknown path) the site's policy with
    ``frame-ancestors 'self'``, so that no spelling of a page's path (``/%69ndex.html``,
    ``/index``) serves it frameable; FRAMED_BY_ANY drops that header (``! Name``, as
    Cloudflare Pages reads it) and sends the policy without ``frame-ancestors`` (the
    widget's frame declares its own in its page). README ("Hosting") says what a host
    that reads no ``!`` must send instead.
    """
    lines = ["# Written by build.py: the headers a static host should send (README, CSP).",
             "# Cloudflare Pages sends every matching rule's headers; '!' drops what a rule",
             "# above added. Netlify skips the '!' line and sends the last matching rule's",
             "# value of a header. Other hosts: README, 'Hosting the site'.",
             "/*", f"  Content-Security-Policy: {site_csp()}", "  X-Content-Type-Options: nosniff",
             "  Referrer-Policy: no-referrer", "",
             FRAMED_BY_ANY, "  ! Content-Security-Policy",
             f"  Content-Security-Policy: {site_csp(frame_ancestors=None)}", ""]
    return "\n".join(lines)
