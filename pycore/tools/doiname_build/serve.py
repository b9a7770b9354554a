"""The local server of ``build.py serve``, the tests and the benchmarks: static files as a
real host sends them.

* The right content types (``.wasm`` and ``.mjs`` matter: streaming compilation and module
  scripts refuse anything else).
* The precompressed copies the build wrote (``NAME.br``, ``NAME.gz``) when the request
  accepts them, with ``Content-Encoding``, ``Vary: Accept-Encoding`` and an ``ETag`` per
  representation; ``If-None-Match`` gets ``304 Not Modified`` (a repeat visit downloads no
  bodies). ``Cache-Control: no-cache``: every use revalidates. HTTP/1.1 (keep-alive).
* ``/name`` answers ``/name.html`` when there is no file ``name`` (as Cloudflare Pages and
  Netlify do), so a policy must cover such paths too.
* With ``host_headers``, the headers of the site's ``_headers`` file (the format Netlify and
  Cloudflare Pages read: a path pattern, ``*`` matching any characters, then indented
  ``Name: value`` lines), as Cloudflare Pages sends them: every matching rule applies, the
  values of one header joined with ``,`` (for a policy: each enforced), and a
  ``! Name`` line drops that header of the rules above it. Rules are matched against the
  decoded, normalised path (``rule_path``): the file served, however its path is written.
"""

from __future__ import annotations

import http.server
import posixpath
import re
import sys
from email.utils import formatdate
from pathlib import Path
from typing import Any, BinaryIO, ClassVar
from urllib.parse import unquote

from .paths import ROOT

#: Content types the server must get right (wasm streaming compilation needs the first).
MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".html": "text/html",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".webmanifest": "application/manifest+json",
    ".png": "image/png",
}
#: Precompressed copies, in the order they are preferred: (token, file suffix).
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))

HeaderRule = tuple[re.Pattern[str], list[tuple[str, str]]]


def read_headers_file(path: Path) -> list[HeaderRule]:
    """The rules of a ``_headers`` file: each path pattern with its headers, in order."""
    rules: list[HeaderRule] = []
    if not path.is_file():
        return rules
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            pattern = re.escape(line.strip()).replace(r"\*", ".*")
            rules.append((re.compile(pattern + r"\Z"), []))
        elif rules and line.strip().startswith("!"):
            rules[-1][1].append(("!" + line.strip()[1:].strip(), ""))
        elif rules and ":" in line:
            name, _, value = line.strip().partition(":")
            rules[-1][1].append((name.strip(), value.strip()))
    return rules


def rule_path(request_path: str) -> str:
    """The path ``_headers`` rules are matched against: the request's path without its
    query, percent-decoded, with dot segments and repeated slashes resolved, so that it
    names the file served (``/%69ndex.html`` and ``/a/../index.html`` are ``/index.html``)."""
    raw = request_path.split("?", 1)[0].split("#", 1)[0]
    path = posixpath.normpath(re.sub(r"/+", "/", "/" + unquote(raw)))
    path = re.sub(r"/+", "/", path)
    return path + "/" if raw.endswith("/") and path != "/" else path


def accepted(header: str | None) -> set[str]:
    """The content codings an ``Accept-Encoding`` header accepts (``q=0`` refuses)."""
    out: set[str] = set()
    for part in (header or "").split(","):
        token, _, params = part.strip().partition(";")
        q = re.search(r"q\s*=\s*([0-9.]+)", params)
        if token and not (q and float(q.group(1)) == 0):
            out.add(token.strip().lower())
    return out


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files as a real host sends them (see the module's docstring); CORS open."""

    quiet: ClassVar[bool] = False
    rules: ClassVar[list[HeaderRule]] = []
    #: HTTP/1.1, as hosts answer: Chromium stores an HTTP/1.0 answer marked ``no-cache``
    #: but never revalidates it (every visit downloaded every body again), and
    #: connections are kept open between requests.
    protocol_version = "HTTP/1.1"
    #: Each write sent at once (TCP_NODELAY), as hosts send (nginx's ``tcp_nodelay``):
    #: the headers and the body are two writes, and with Nagle's algorithm the body
    #: waited for the peer's delayed acknowledgement of the headers, about 40 ms an
    #: answer on Linux, which a page of several files in a row pays several times.
    disable_nagle_algorithm = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Set before the base class handles the request (it does so in __init__).
        self.extensions_map = {**self.extensions_map, **MIME_TYPES}
        self._extra: list[tuple[str, str]] = []
        super().__init__(*args, **kwargs)

    def send_head(self) -> BinaryIO | None:
        url_path = self.path.split("?", 1)[0].split("#", 1)[0]
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not url_path.endswith("/"):
                return super().send_head()  # the redirect to "name/"
            path = path / "index.html"
        elif not path.exists() and path.with_name(path.name + ".html").is_file():
            path = path.with_name(path.name + ".html")
        if not path.is_file():
            self.send_error(404, "File not found")
            return None
        variants = [(token, path.with_name(path.name + suffix)) for token, suffix in ENCODINGS
                    if path.with_name(path.name + suffix).is_file()]
        want = accepted(self.headers.get("Accept-Encoding"))
        coding, body = next(((t, p) for t, p in variants if t in want), (None, path))
        stat = body.stat()
        etag = f'"{stat.st_size:x}-{stat.st_mtime_ns:x}{"-" + coding if coding else ""}"'
        self._extra = [("ETag", etag)]
        if variants:
            self._extra.append(("Vary", "Accept-Encoding"))
        if coding:
            self._extra.append(("Content-Encoding", coding))
        if etag in [t.strip() for t in self.headers.get("If-None-Match", "").split(",")]:
            self.send_response(304)
            self.end_headers()
            return None
        f = body.open("rb")
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Length", str(stat.st_size))
        self.send_header("Last-Modified", formatdate(stat.st_mtime, usegmt=True))
        self.end_headers()
        return f

    def end_headers(self) -> None:
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        for name, value in self._extra:
            self.send_header(name, value)
        self._extra = []
        url_path = rule_path(self.path)
        merged: dict[str, tuple[str, list[str]]] = {}
        for pattern, headers in self.rules:
            if pattern.match(url_path):
                for name, value in headers:
                    if name.startswith("!"):  # detached: an earlier rule's header is dropped
                        merged.pop(name[1:].strip().lower(), None)
                    else:
                        merged.setdefault(name.lower(), (name, []))[1].append(value)
        for name, values in merged.values():  # joined, as Cloudflare Pages does
            self.send_header(name, ", ".join(dict.fromkeys(values)))
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        if not self.quiet:
            super().log_message(format, *args)


def make_server(directory: Path, port: int = 0, *, quiet: bool = False,
                host: str = "127.0.0.1",
                host_headers: bool = False) -> http.server.ThreadingHTTPServer:
    """A threading HTTP server for ``directory`` on ``host:port`` (0: a free port); with
    ``host_headers``, it also sends the headers of ``directory/_headers``."""

    class Handler(SiteHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(directory), **kwargs)

    class Server(http.server.ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request: Any, client_address: Any) -> None:
            # A browser that drops a connection (page closed mid-download) is no error.
            if quiet and isinstance(sys.exc_info()[1], ConnectionError):
                return
            super().handle_error(request, client_address)

    Handler.quiet = quiet
    Handler.rules = read_headers_file(directory / "_headers") if host_headers else []
    return Server((host, port), Handler)


def serve(port: int, site: Path) -> None:
    """Serve the built ``site`` until interrupted, with the headers of its ``_headers``."""
    server = make_server(site, port, host_headers=True)
    print(f"Serving {site.relative_to(ROOT)} at http://127.0.0.1:{server.server_port}/ "
          "(Ctrl+C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


__all__ = ["ENCODINGS", "MIME_TYPES", "SiteHandler", "accepted", "make_server",
           "read_headers_file", "rule_path", "serve"]
