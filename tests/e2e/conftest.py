"""Browser test set-up: Debian's Chromium, the built site on a local port, doi.org routed.

Fixtures:

* ``browser_type_launch_args`` (session): pytest-playwright launches ``/usr/bin/chromium``
  with the project's flags (never a downloaded browser); ``browser_context_args``: no
  service worker unless the module allows it (``service_workers="allow"``).
* ``site_dir`` (session): ``dist/site``, built once per run by ``build.py`` (skipped when
  ``DOINAME_SITE_BUILT=1``: ``build.py test`` has just built it).
* ``site_url`` (session): ``http://127.0.0.1:PORT/``, served from a thread by the same
  handler as ``build.py serve`` (MIME types, CORS): :func:`serving`, which tests use for
  a directory of their own (another origin, the host's ``_headers``).
* ``doi_routes``: ``https://doi.org/**`` answered from ``tests/fixtures/handles`` (its
  ``index.json``); a test can add answers, network failures or hanging requests.
* ``booted_page`` (module) and ``shared_doi_routes``: one booted page shared by the tests
  of a module, for tests of the API that need no fresh page.
* every browser context refuses requests to hosts other than this machine, so no test
  can reach the real doi.org; a test's own ``page.route`` comes first.

Screenshots of failing tests go to ``test-results/`` (``--screenshot only-on-failure``
is the default here).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, BrowserType, Page, Route, expect

from doiname_build import paths, serve, site

from .site_page import page_address

ROOT = Path(__file__).resolve().parents[2]
HANDLES = ROOT / "tests" / "fixtures" / "handles"
CHROMIUM = str(paths.CHROMIUM)
CHROMIUM_ARGS = list(paths.CHROMIUM_ARGS)
#: Any http(s) URL whose host is not this machine.
NOT_LOCAL = re.compile(r"^(?:https?|wss?)://(?!(?:127\.0\.0\.1|localhost|\[::1\])(?:[:/]|$))",
                       re.IGNORECASE)
#: How long an ``expect`` waits for the page by default: a page that answers within 5 s on a
#: quiet machine can take longer on a busy test machine; waiting longer changes no verdict.
expect.set_options(timeout=20_000)


def pytest_configure(config: pytest.Config) -> None:
    if getattr(config.option, "screenshot", None) == "off":
        config.option.screenshot = "only-on-failure"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    args = [*browser_type_launch_args.get("args", []), *CHROMIUM_ARGS]
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": args}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """Contexts without the site's service worker unless a module allows it (its install
    downloads the memory snapshot in the background of every test): test_offline.py,
    test_csp.py and the axe tests run with it."""
    return {**browser_context_args, "service_workers": "block"}


@pytest.fixture(scope="session")
def site_dir() -> Path:
    """The built site (built once per test run)."""
    if os.environ.get("DOINAME_SITE_BUILT") == "1" and (paths.SITE / "app.js").is_file():
        return paths.SITE
    return site.build()


@contextlib.contextmanager
def serving(directory: Path, *, host_headers: bool = False) -> Iterator[str]:
    """``directory`` served as ``build.py serve`` serves it (with ``host_headers``, the
    headers of its ``_headers`` file too) on a free local port: its ``http://.../``."""
    server = serve.make_server(directory, 0, quiet=True, host_headers=host_headers)
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def site_url(site_dir: Path) -> Iterator[str]:
    """The site served on a free local port, for the whole run."""
    with serving(site_dir) as url:
        yield url


@pytest.fixture
def profile(browser_type: BrowserType,
            browser_type_launch_args: dict[str, Any]) -> Iterator[BrowserContext]:
    """A persistent profile with service workers; no request leaves this machine."""
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as data:
        context = browser_type.launch_persistent_context(
            data, **browser_type_launch_args, service_workers="allow")
        context.route(NOT_LOCAL, lambda route: route.abort("internetdisconnected"))
        yield context
        context.close()


@pytest.fixture(autouse=True)
def _no_real_network(request: pytest.FixtureRequest) -> None:
    """Refuse every non-local request of a test's browser context (doi.org included)."""
    if not {"page", "context"} & set(request.fixturenames):
        return
    context: BrowserContext = request.getfixturevalue("context")
    context.route(NOT_LOCAL, lambda route: route.abort("internetdisconnected"))


@dataclass
class Answer:
    """One routed answer: an HTTP response, a network failure, or no answer at all."""

    status: int = 200
    body: str = ""
    content_type: str = "application/json"
    cors: bool = True
    fail: str | None = None  # a Playwright error code for route.abort ("failed" ...)
    hang: bool = False


class DoiRoutes:
    """Answers for ``https://doi.org/**``, by request path and query.

    The default answers come from ``tests/fixtures/handles/index.json``; a request that
    is not there gets HTTP 404 with ``not-found.json``. ``requests`` lists every URL
    asked for, in order.
    """

    def __init__(self) -> None:
        index: dict[str, dict[str, Any]] = json.loads(
            (HANDLES / "index.json").read_text(encoding="utf-8"))
        self.answers: dict[str, Answer] = {
            key: Answer(int(v["status"]), (HANDLES / v["file"]).read_text(encoding="utf-8"),
                        str(v.get("content_type", "application/json")))
            for key, v in index.items()
        }
        self.requests: list[str] = []
        self.held: list[Route] = []
        self._lock = threading.Lock()

    @staticmethod
    def key(url: str) -> str:
        """``/path?query`` of a URL, as the browser sent it (the fixture index's key)."""
        parts = urlsplit(url)
        return parts.path + (f"?{parts.query}" if parts.query else "")

    def answer(self, path: str, status: int, body: str | dict[str, Any] | list[Any],
               content_type: str = "application/json", *, cors: bool = True) -> None:
        """Answer ``path`` (``/api/handles/...?...``) with ``status`` and ``body``.

        ``cors=False`` allows another origin only in ``Access-Control-Allow-Origin``: the
        browser then refuses the answer to the page, as it does a real CORS refusal.
        """
        text = body if isinstance(body, str) else json.dumps(body)
        self.answers[path] = Answer(status, text, content_type, cors)

    def fail(self, path: str, error: str = "failed") -> None:
        """A network error for ``path`` (Playwright abort codes: failed, timedout ...)."""
        self.answers[path] = Answer(fail=error)

    def hang(self, path: str) -> None:
        """Never answer ``path`` (until the test ends)."""
        self.answers[path] = Answer(hang=True)

    def handle(self, route: Route) -> None:
        url = route.request.url
        with self._lock:
            self.requests.append(url)
        key = self.key(url)
        answer = self.answers.get(key)
        if answer is None:
            answer = Answer(404, (HANDLES / "not-found.json").read_text(encoding="utf-8"))
        if answer.hang:
            with self._lock:
                self.held.append(route)
            return
        if answer.fail:
            route.abort(answer.fail)
            return
        # Without CORS, the answer allows another origin only (Playwright would add a
        # permissive header to an answer that has none).
        origin = "*" if answer.cors else "https://another-site.example"
        headers = {"Access-Control-Allow-Origin": origin}
        route.fulfill(status=answer.status, body=answer.body,
                      content_type=answer.content_type, headers=headers)

    def release(self) -> None:
        """Abort the requests held by ``hang`` (at the end of a test)."""
        with self._lock:
            held, self.held = self.held, []
        for route in held:
            with contextlib.suppress(Exception):  # the page may be gone already
                route.abort("failed")


@pytest.fixture
def doi_routes(page: Page) -> Iterator[DoiRoutes]:
    """``https://doi.org/**`` answered from the handle fixtures (see :class:`DoiRoutes`)."""
    routes = DoiRoutes()
    page.route("https://doi.org/**", routes.handle)
    yield routes
    routes.release()


@pytest.fixture(scope="module")
def booted_page(browser: Browser, site_url: str) -> Iterator[Page]:
    """One page of the site, booted once and shared by the tests of a module (boots cost
    seconds). Tests must leave it as they found it; ``shared_doi_routes`` routes it."""
    context = browser.new_context(service_workers="block")
    context.route(NOT_LOCAL, lambda route: route.abort("internetdisconnected"))
    page = context.new_page()
    page.goto(page_address(site_url))
    assert page.evaluate("() => window.doiname.ready.then(() => true)") is True
    yield page
    context.close()


@pytest.fixture
def shared_doi_routes(booted_page: Page) -> Iterator[DoiRoutes]:
    """:class:`DoiRoutes` on ``booted_page``, for one test."""
    routes = DoiRoutes()
    booted_page.route("https://doi.org/**", routes.handle)
    yield routes
    booted_page.unroute("https://doi.org/**", routes.handle)
    routes.release()
