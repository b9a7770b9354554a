"""The embeddable widget on someone else's page.

The host pages are served from a second local port, so the widget is always cross-origin,
as it is on a library's site. Each host page is built here, with its own headers (a
strict Content-Security-Policy is sent as a real header).
"""

from __future__ import annotations

import html
import http.server
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import ConsoleMessage, Page, expect

from .conftest import DoiRoutes

REFS = Path(__file__).resolve().parents[1] / "fixtures" / "references"
SICI = "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O"
SICI_URL = "https://doi.org/10.1002/(SICI)1097-4571(199806)49:8%3C693::AID-ASI4%3E3.0.CO;2-O"


class HostPages:
    """A tiny server for host pages: path -> (html, headers)."""

    def __init__(self) -> None:
        self.pages: dict[str, tuple[str, dict[str, str]]] = {}
        pages = self.pages

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body, headers = pages.get(urlsplit(self.path).path, ("not found", {}))
                data = body.encode("utf-8")
                self.send_response(200 if self.path in pages or urlsplit(self.path).path in pages
                                   else 404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                for k, v in headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.origin = f"http://127.0.0.1:{self.server.server_port}"

    def add(self, path: str, body: str, headers: dict[str, str] | None = None) -> str:
        self.pages[path] = (body, headers or {})
        return self.origin + path


@pytest.fixture(scope="module")
def host() -> Iterator[HostPages]:
    pages = HostPages()
    yield pages
    pages.server.shutdown()


def page_html(site_url: str, body: str, head: str = "") -> str:
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title>'
            f'{head}<script src="{site_url}widget.js" defer></script></head>'
            f"<body>{body}</body></html>")


def links(page: Page, selector: str = "[data-doiname-link]") -> list[tuple[str, str]]:
    pairs = page.eval_on_selector_all(
        selector, "els => els.map(e => [e.textContent, e.getAttribute('href')])")
    return [(text, href) for text, href in pairs]


def wait_links(page: Page, count: int, selector: str = "[data-doiname-link]") -> None:
    expect(page.locator(selector)).to_have_count(count, timeout=60_000)


def tool_origin(site_url: str) -> str:
    parts = urlsplit(site_url)
    return f"{parts.scheme}://{parts.netloc}"


def test_linkify_cross_origin_with_hostile_css_and_late_content(
    page: Page, site_url: str, host: HostPages
) -> None:
    hostile = ("<style>* { font-size: 31px !important; color: red !important; "
               "letter-spacing: 9px !important } input, textarea, button, label, div { "
               "display: none !important } a[href] { pointer-events: none }</style>")
    refs = (f"<p data-doiname-linkify id=refs>Hert (1998) doi:{html.escape(SICI)}. "
            "Handbook (see 10.1000/182). Hash: 10.1000/456#789, and "
            "https://doi-org.ezproxy.example.edu/10.1000/182. Not a DOI: 10.5 percent.</p>")
    url = host.add("/hostile.html", page_html(site_url, refs + "<doi-tool></doi-tool>", hostile))
    page.goto(url)
    before = page.inner_text("#refs")
    wait_links(page, 4)
    assert links(page) == [
        (f"doi:{SICI}", SICI_URL),
        ("10.1000/182", "https://doi.org/10.1000/182"),
        ("10.1000/456#789", "https://doi.org/10.1000/456%23789"),
        ("https://doi-org.ezproxy.example.edu/10.1000/182", "https://doi.org/10.1000/182"),
    ]
    assert page.inner_text("#refs") == before  # the visible text is exactly as it was
    # Content added later is linked too.
    page.evaluate("""() => { const s = document.createElement('span');
        s.textContent = ' Added: doi:10.17487/RFC3650.';
        document.getElementById('refs').append(s); }""")
    wait_links(page, 5)
    assert links(page)[-1] == ("doi:10.17487/RFC3650", "https://doi.org/10.17487/RFC3650")
    # The host's CSS cannot reach into <doi-tool>.
    style = page.evaluate("""() => { const i = document.querySelector('doi-tool').shadowRoot
        .querySelector('textarea'); const s = getComputedStyle(i);
        return [s.display, s.fontSize, s.letterSpacing]; }""")
    assert style[0] != "none" and style[1] != "31px" and style[2] != "9px"


def test_reference_lists_in_several_styles(page: Page, site_url: str, host: HostPages) -> None:
    for name in ("apa", "vancouver"):
        text = (REFS / f"{name}.txt").read_text(encoding="utf-8")
        expected = [line.strip() for line in
                    (REFS / f"{name}.expected.txt").read_text(encoding="utf-8").splitlines()
                    if line.strip() and not line.startswith("#")]
        body = f'<div data-doiname-linkify style="white-space: pre-wrap">{html.escape(text)}</div>'
        page.goto(host.add(f"/{name}.html", page_html(site_url, body)))
        wait_links(page, len(expected))
        got = page.eval_on_selector_all("[data-doiname-link]", "els => els.map(e => e.title)")
        assert [t.removeprefix("DOI ") for t in got] == expected


def test_proxy_prefixes(page: Page, site_url: str, host: HostPages) -> None:
    """The proxy is the script's option: one page per prefix."""
    got = []
    for kind in ("url", "qurl"):
        proxy = f"https://login.ezproxy.example.edu/login?{kind}="
        html_ = page_html(site_url, "<p data-doiname-linkify>10.1000/456#789</p>").replace(
            'widget.js" defer>', f'widget.js" data-proxy="{proxy}" defer>')
        page.goto(host.add(f"/proxy-{kind}.html", html_))
        wait_links(page, 1)
        got += [h for _, h in links(page)]
    assert got == [
        "https://login.ezproxy.example.edu/login?url=https://doi.org/10.1000/456%23789",
        "https://login.ezproxy.example.edu/login?qurl=https%3A%2F%2Fdoi.org%2F10.1000%2F456%2523789",
    ]


def test_strict_csp_allowing_the_tool_origin(page: Page, site_url: str, host: HostPages) -> None:
    origin = tool_origin(site_url)
    csp = (f"default-src 'none'; script-src 'self' {origin}; frame-src {origin}; "
           "style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'")
    body = (f'<p data-doiname-linkify>See doi:{html.escape(SICI)}.</p>'
            '<p data-doiname-linkify><span data-doi="10.1000/182"></span></p>')
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(host.add("/csp.html", page_html(site_url, body),
                       {"Content-Security-Policy": csp}))
    expect(page.locator("[data-doiname-link][href^='https://doi.org/']")).to_have_count(
        2, timeout=60_000)
    assert links(page) == [(f"doi:{SICI}", SICI_URL), ("10.1000/182", "https://doi.org/10.1000/182")]
    assert errors == []


def test_csp_without_the_tool_degrades_to_plain_links(
    page: Page, site_url: str, host: HostPages
) -> None:
    origin = tool_origin(site_url)
    csp = f"default-src 'none'; script-src {origin}; style-src 'self'"
    body = ('<p data-doiname-linkify id=refs>See 10.1000/182.</p>'
            '<p data-doiname-linkify><span data-doi="10.1000/182" id=one></span></p>'
            '<doi-tool></doi-tool>')
    messages: list[str] = []
    errors: list[str] = []
    page.on("console", lambda m: messages.append(m.text) if isinstance(m, ConsoleMessage) else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(host.add("/blocked.html", page_html(site_url, body),
                       {"Content-Security-Policy": csp}))
    # Still a working link (to the tool's own page), the text untouched, a clear console note.
    expect(page.locator("#one a")).to_have_attribute("href", f"{site_url}#doi=10.1000%2F182")
    expect(page.locator("#one a")).to_have_text("10.1000/182")
    deadline = time.monotonic() + 60
    while (not any("Content-Security-Policy" in m for m in messages)
           and time.monotonic() < deadline):
        page.wait_for_timeout(100)
    assert any("Content-Security-Policy" in m for m in messages), messages
    assert page.inner_text("#refs") == "See 10.1000/182."
    assert errors == []


def test_doi_tool_by_keyboard(page: Page, site_url: str, host: HostPages,
                              doi_routes: DoiRoutes) -> None:
    body = "<p><a href='#'>before</a></p><doi-tool></doi-tool>"
    page.goto(host.add("/tool.html", page_html(site_url, body)))
    page.keyboard.press("Tab")  # the host's link
    page.keyboard.press("Tab")  # into the shadow DOM: the input
    active = page.evaluate("() => document.activeElement.shadowRoot.activeElement.id")
    assert active == "doiname-input"
    page.keyboard.type("https://doi.org/10.1000/182")
    tool = page.locator("doi-tool")
    expect(tool.locator("a").first).to_have_attribute("href", "https://doi.org/10.1000/182",
                                                       timeout=60_000)
    expect(tool.locator("code")).to_have_text("doi:10.1000/182")
    page.keyboard.press("Enter")  # resolve
    expect(tool.locator("[role=status]")).to_contain_text("resolved", timeout=20_000)
    assert any("/api/handles/10.1000/182" in u for u in doi_routes.requests)
    expect(tool.locator("[role=status] a")).to_have_attribute("href", "http://www.doi.org/hb.html")
    page.keyboard.press("Tab")  # Resolve button
    page.keyboard.press("Tab")  # the link
    page.keyboard.press("Tab")  # Copy link
    focused = page.evaluate("() => document.activeElement.shadowRoot.activeElement.textContent")
    assert focused == "Copy link"
    # A bad input says what is wrong and where.
    page.locator("doi-tool textarea").fill("10.1000/a\u200bb")
    expect(tool.locator("[role=status]")).to_contain_text("U+200B", timeout=20_000)


def test_bytes_before_activation(page: Page, site_url: str, host: HostPages) -> None:
    """Before activation the widget costs the host at most 30 KB."""
    body = "<doi-tool></doi-tool>" + "<p>filler</p>" * 200
    sizes: dict[str, int] = {}

    def record(response: object) -> None:
        url = response.url  # type: ignore[attr-defined]
        if url.startswith(site_url):
            sizes[url] = len(response.body())  # type: ignore[attr-defined]

    page.on("response", record)
    page.goto(host.add("/lazy.html", page_html(site_url, body)))
    page.wait_for_load_state("networkidle")
    assert list(sizes) == [f"{site_url}widget.js"]
    assert sum(sizes.values()) <= 30 * 1024
    assert page.locator("iframe").count() == 0  # Python not loaded before it is needed


#: Records the method of every request a worker of the page (or of one of its frames) is
#: sent, in that window's ``__asked``.
COUNT_WORKER_REQUESTS = """(() => {
  const post = Worker.prototype.postMessage;
  window.__asked = [];
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && typeof message.method === "string") window.__asked.push(message.method);
    return post.call(this, message, ...rest);
  };
})();"""


def test_resolve_is_one_call_to_the_worker(page: Page, site_url: str, host: HostPages,
                                           doi_routes: DoiRoutes) -> None:
    """The frame fetches the request URL Python made with the box's reading and has it
    read: one request to its worker (``read``), no ``lookup`` first."""
    page.context.add_init_script(COUNT_WORKER_REQUESTS)
    page.goto(host.add("/tool-one-call.html", page_html(site_url, "<doi-tool></doi-tool>")))
    tool = page.locator("doi-tool")
    page.locator("doi-tool textarea").fill("doi:10.1000/182")
    expect(tool.locator("code")).to_have_text("doi:10.1000/182", timeout=60_000)
    frame = next(f for f in page.frames if f.url.endswith("widget-frame.html"))
    frame.evaluate("() => { window.__asked.length = 0; }")
    tool.get_by_role("button", name="Resolve").click()
    expect(tool.locator("[role=status]")).to_contain_text("resolved", timeout=20_000)
    asked = frame.evaluate("() => window.__asked")
    assert [m for m in asked if m not in ("ping", "hold")] == ["read"], asked  # no heartbeat
    assert any("/api/handles/10.1000/182" in u for u in doi_routes.requests)


def test_a_sanitised_comment_cannot_choose_where_links_go(page: Page, site_url: str,
                                                          host: HostPages) -> None:
    """A sanitiser that keeps ``data-*`` (DOMPurify's default) lets a commenter write
    ``data-doi``, ``data-resolver`` and ``data-proxy``: outside the containers the host
    marks nothing is linked, and inside them every link goes where the script says."""
    evil = 'data-resolver="https://evil.example/" data-proxy="https://evil.example/login?url="'
    body = (f'<div class=comment id=comment><span data-doi="10.1000/182" {evil}>'
            "click here</span></div>"
            f'<p data-doiname-linkify id=refs>See <span {evil}>10.1000/182</span> and '
            f'<span data-doi="10.1000/456#789" {evil}></span>.</p>')
    page.goto(host.add("/comment.html", page_html(site_url, body)))
    wait_links(page, 2)
    assert [h for _, h in links(page)] == ["https://doi.org/10.1000/182",
                                           "https://doi.org/10.1000/456%23789"]
    assert page.inner_text("#comment") == "click here"
    assert page.locator("#comment a").count() == 0


def test_resolver_and_proxy_come_from_the_script(page: Page, site_url: str,
                                                 host: HostPages) -> None:
    proxy = "https://login.ezproxy.example.edu/login?url="
    html_ = page_html(site_url, "<p data-doiname-linkify>10.1000/456#789</p>").replace(
        'widget.js" defer>', f'widget.js" data-proxy="{proxy}" defer>')
    page.goto(host.add("/script-proxy.html", html_))
    wait_links(page, 1)
    assert links(page) == [("10.1000/456#789", proxy + "https://doi.org/10.1000/456%23789")]


def test_linkify_leaves_links_svg_buttons_and_editable_text_alone(
        page: Page, site_url: str, host: HostPages) -> None:
    body = ('<div data-doiname-linkify id=refs>'
            '<a id=hostlink href="https://host.example/x"><span id=inner>nothing yet</span></a>'
            '<svg width="300" height="40"><text id=svgtext x="0" y="20">10.1000/182</text></svg>'
            '<button type="button" id=btn>10.1000/182</button>'
            '<div contenteditable="true" id=edit>10.1000/182</div>'
            '<p id=plain>10.1000/182</p></div>')
    page.goto(host.add("/ancestors.html", page_html(site_url, body)))
    wait_links(page, 1)
    expect(page.locator("#plain a[data-doiname-link]")).to_have_count(1)
    # Text changed under the host's <a><span>, and a new DOI elsewhere (which says when
    # the change was seen).
    page.evaluate("""() => {
      document.getElementById('inner').textContent = 'see 10.1000/182';
      const p = document.createElement('p'); p.id = 'later'; p.textContent = '10.1000/456#789';
      document.getElementById('refs').append(p);
    }""")
    expect(page.locator("#later a[data-doiname-link]")).to_have_count(1, timeout=60_000)
    assert page.locator("a a").count() == 0
    assert page.locator("svg a, svg [data-doiname-link]").count() == 0
    assert page.text_content("#svgtext") == "10.1000/182"
    assert page.locator("#btn a, #edit a").count() == 0


def test_host_elements_cannot_switch_the_widget_off(page: Page, site_url: str,
                                                    host: HostPages) -> None:
    body = ('<a id="__doinameWidget" href="#">clobber</a><form name="__doinameWidget"></form>'
            '<p data-doiname-linkify>10.1000/182</p>')
    page.goto(host.add("/clobber.html", page_html(site_url, body)))
    wait_links(page, 1)


def test_a_report_only_policy_does_not_stop_the_widget(page: Page, site_url: str,
                                                       host: HostPages) -> None:
    """A report-only policy that would block the tool reports and blocks nothing."""
    report_only = "default-src 'none'; script-src 'self'"
    body = '<p data-doiname-linkify>10.1000/182</p>'
    page.goto(host.add("/report-only.html", page_html(site_url, body),
                       {"Content-Security-Policy-Report-Only": report_only}))
    expect(page.locator("[data-doiname-link][href='https://doi.org/10.1000/182']")).to_have_count(
        1, timeout=60_000)
