"""The local server of ``build.py serve`` and of the tests and benchmarks."""

from __future__ import annotations

import http.server
import sys
from pathlib import Path
from typing import Any, ClassVar

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
}

class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with the right MIME types, CORS open (the widget needs it), no caching."""

    quiet: ClassVar[bool] = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Set before the base class handles the request (it does so in __init__).
        self.extensions_map = {**self.extensions_map, **MIME_TYPES}
        super().__init__(*args, **kwargs)

    def end_headers(self) -> None:
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        if not self.quiet:
            super().log_message(format, *args)


def make_server(directory: Path, port: int = 0, *, quiet: bool = False,
                host: str = "127.0.0.1") -> http.server.ThreadingHTTPServer:
    """A threading HTTP server for ``directory`` on ``host:port`` (0: a free port)."""

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
    return Server((host, port), Handler)


def serve(port: int, site: Path) -> None:
    """Serve the built ``site`` until interrupted."""
    server = make_server(site, port)
    print(f"Serving {site.relative_to(ROOT)} at http://127.0.0.1:{server.server_port}/ "
          "(Ctrl+C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
