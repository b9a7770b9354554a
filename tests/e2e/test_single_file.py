"""The offline single file, dist/doi-tool.html.

* In Chromium from ``file://`` with every request that is not ``file:``, ``data:`` or
  ``blob:`` refused: it boots, and encoding, equivalence and checks work through the
  page and through ``window.doiname``; resolution says that the network is down (the
  core's ``network`` outcome). Expected values come from the core on the host.
* It carries its own Content-Security-Policy (a ``<meta>`` written by build.py): no test
  may see a violation of it; axe finds no accessibility violation in it, also in the
  Batch state, and a batch's CSV download works from ``file://``.
* The trimmed standard library runs the core and its unit suite: test_stdlib_suite.py.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

import doiname as d
from doiname.resolver import transport_outcome
from doiname_build import paths
from doiname_build import single_file as single_file_module

from .conftest import NOT_LOCAL

pytestmark = pytest.mark.e2e

LOCAL_SCHEMES = ("file:", "data:", "blob:")


@pytest.fixture(scope="session")
def single_file(site_dir: Path) -> Path:
    """dist/doi-tool.html, written by the same build as the site."""
    path = paths.SINGLE_FILE
    if not path.is_file() or path.stat().st_mtime < (site_dir / "index.html").stat().st_mtime:
        path = single_file_module.single_file(site_dir)
    return path


@pytest.fixture
def refused(context: BrowserContext) -> list[str]:
    """Every request that is not file:, data: or blob: is refused (and listed here)."""
    urls: list[str] = []

    def handler(route: Route) -> None:
        url = route.request.url
        if url.startswith(LOCAL_SCHEMES):
            route.continue_()
        else:
            urls.append(url)
            route.abort("internetdisconnected")

    context.route("**/*", handler)
    return urls


def open_offline(page: Page, single_file: Path, errors: list[str]) -> None:
    """Open the single file from file:// and wait until Python is ready; page errors and
    CSP violations go to ``errors``."""
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda m: errors.append(m.text)
            if "Content Security Policy" in m.text or "Content-Security-Policy" in m.text else None)
    page.goto(single_file.as_uri())
    page.wait_for_function("() => window.doiname !== undefined", timeout=30_000)
    assert page.evaluate("() => window.doiname.ready.then(() => true, (e) => e.message)") is True
    expect(page.locator("#boot")).to_have_attribute("data-phase", "ready")


@pytest.fixture
def fresh_offline(page: Page, single_file: Path, refused: list[str]) -> Iterator[Page]:
    """The single file opened from file:// in a page of its own, offline, Python ready."""
    errors: list[str] = []
    open_offline(page, single_file, errors)
    yield page
    assert errors == []
    assert [u for u in refused if not u.startswith("https://doi.org/")] == []


@dataclass
class OfflinePage:
    """The single file opened once per module (a boot of it costs seconds): the page,
    the errors it reported and the requests refused, both since it was opened."""

    page: Page
    errors: list[str]
    refused: list[str]


@pytest.fixture(scope="module")
def offline_page(browser: Browser, browser_context_args: dict[str, Any],
                 single_file: Path) -> Iterator[OfflinePage]:
    """The single file opened from file://, offline (every request that is not file:,
    data: or blob: refused), with Python ready; shared by the module's tests that use
    its API and its page (through :func:`offline`, which checks each test's share)."""
    context = browser.new_context(**browser_context_args)
    context.route(NOT_LOCAL, lambda route: route.abort("internetdisconnected"))
    shared = OfflinePage(context.new_page(), [], [])

    def handler(route: Route) -> None:
        url = route.request.url
        if url.startswith(LOCAL_SCHEMES):
            route.continue_()
        else:
            shared.refused.append(url)
            route.abort("internetdisconnected")

    context.route("**/*", handler)
    open_offline(shared.page, single_file, shared.errors)
    assert shared.errors == []
    yield shared
    context.close()


@pytest.fixture
def offline(offline_page: OfflinePage) -> Iterator[Page]:
    """The module's single file, offline and ready (:func:`offline_page`). A test that
    types into a field empties it again; no test may see a page error, a CSP violation
    or a refused request other than to doi.org."""
    errors, refused = len(offline_page.errors), len(offline_page.refused)
    yield offline_page.page
    assert offline_page.errors[errors:] == []
    assert [u for u in offline_page.refused[refused:] if not u.startswith("https://doi.org/")] == []
    for field in ("#doi-input", "#eq-a", "#eq-b"):
        offline_page.page.fill(field, "")


def test_the_file_refers_to_nothing_outside_itself(single_file: Path) -> None:
    html = single_file.read_bytes().decode("latin-1")
    # The inlined files' bytes are data, not markup: leave them out of the scan.
    html = re.sub(r"(<script type=\"application/octet-stream\"[^>]*>).*?</script>",
                  r"\1</script>", html, flags=re.DOTALL)
    assert len(html) < 200_000
    refs = re.findall(r"""\b(?:src|href)\s*=\s*["']?([^"'\s>]+)""", html, re.IGNORECASE)
    assert [r for r in refs if not r.startswith(("data:", "#"))] == []
    assert "<script type=\"module\" src" not in html


def test_encode_through_the_page_and_the_api(offline: Page) -> None:
    text = "10.1000/456#789"
    expected = d.to_url(text)
    assert expected == "https://doi.org/10.1000/456%23789"  # the example
    assert offline.evaluate("(t) => window.doiname.call('to_url', t)", text) == expected
    offline.fill("#doi-input", text)
    expect(offline.locator("#result-name")).to_have_text(d.parse(text).name)
    expect(offline.locator("#url-recommended")).to_have_text(expected)


def test_equivalence_through_the_page_and_the_api(offline: Page) -> None:
    a, b = "https://doi.org/10.1000/ABC", "doi:10.1000/abc"
    ex = d.explain_equivalence(a, b)
    got = offline.evaluate("([a, b]) => window.doiname.call('explain_equivalence', a, b)", [a, b])
    assert (got["verdict"], got["equivalent"], got["message"]) == (ex.verdict, ex.equivalent,
                                                                   ex.message)
    offline.fill("#eq-a", a)
    offline.fill("#eq-b", b)
    expect(offline.locator("#eq-verdict")).to_have_attribute("data-verdict", ex.verdict)
    expect(offline.locator("#eq-message")).to_have_text(ex.message)


@pytest.mark.parametrize("text", ["10.1000/\u0430bc\u20131", "10.1000/a\u200bb"])
def test_check_through_the_api(offline: Page, text: str) -> None:
    findings = d.check(text)
    assert findings
    got = offline.evaluate("(t) => window.doiname.call('check', t)", text)
    assert [(f["code"], f["severity"], f["start"], f["end"], f["message"]) for f in got] == [
        (f.code, f.severity, f.start, f.end, f.message) for f in findings]


def test_the_rest_of_the_core_is_there_offline(fresh_offline: Page) -> None:
    """Both zips of the core's files are unpacked before ready: a function whose module is
    in the second answers with no network (and no request for it)."""
    answer = '[{"DOI": "10.1000/182", "RA": "DOI"}]'
    got = fresh_offline.evaluate(
        "(a) => window.doiname.call('read_which_ra_response', 200, a)", answer)
    assert got["outcome"] == d.read_which_ra_response(200, answer).outcome == "ok"
    assert fresh_offline.evaluate("() => window.doiname.info()")["installer"] == "micropip"


def test_check_through_the_page(offline: Page) -> None:
    text = "10.1000/\u0430bc\u20131"  # lookalikes: the name reads, with warnings
    findings = d.check(text)
    assert findings
    offline.fill("#doi-input", text)
    for f in findings:
        expect(offline.locator("#findings")).to_contain_text(f.message)


def test_resolution_says_offline(offline: Page, offline_page: OfflinePage) -> None:
    refused = len(offline_page.refused)
    record = transport_outcome("network")
    got = offline.evaluate("(t) => window.doiname.resolve(t)", "10.1000/182")
    assert (got["outcome"], got["ok"], got["message"]) == ("network", False, record.message)
    offline.fill("#doi-input", "10.1000/182")
    expect(offline.locator("#result-name")).to_have_text("10.1000/182")
    offline.get_by_role("button", name="Resolve").click()
    line = offline.locator("#resolve-outcome")
    expect(line).to_have_attribute("data-outcome", "network")
    expect(line).to_have_text(f"10.1000/182: {record.message}")
    assert any(u.startswith("https://doi.org/api/handles/10.1000/182")
               for u in offline_page.refused[refused:])


def test_the_file_carries_its_own_csp(single_file: Path) -> None:
    html = single_file.read_bytes()[:4000].decode("latin-1")
    policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', html)
    assert policy is not None
    directives = dict(d.strip().split(" ", 1) for d in policy.group(1).split(";"))
    assert directives["default-src"] == "'none'"
    assert "'unsafe-inline'" not in policy.group(1) and "'unsafe-eval'" not in policy.group(1)
    # its own origin (to read its bytes again when served as UTF-8) and doi.org only
    assert directives["connect-src"].split()[:2] == ["'self'", "https://doi.org"]


@pytest.mark.parametrize("content_type", ["text/html; charset=utf-8", "text/html"])
def test_the_file_works_served_by_a_web_server(page: Page, single_file: Path,
                                               content_type: str) -> None:
    """Served over http with ``charset=utf-8`` (nginx, Apache and CMS defaults: the header
    wins over the file's own windows-1252) and with no charset (the file's wins)."""
    body = single_file.read_bytes()
    url = "http://127.0.0.1:9/library/doi-tool.html"
    asked: list[str] = []

    def serve(route: Route) -> None:
        asked.append(route.request.url)
        route.fulfill(status=200, body=body, headers={"Content-Type": content_type})

    page.route(url, serve)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(url)
    charset = page.evaluate("() => document.characterSet")
    assert charset == ("UTF-8" if "utf-8" in content_type else "windows-1252")
    page.wait_for_function("() => window.doiname !== undefined", timeout=60_000)
    assert page.evaluate("() => window.doiname.ready.then(() => true)") is True
    page.fill("#doi-input", "10.1000/456%23789")
    expect(page.locator("#result-name")).to_have_text(str(d.parse("10.1000/456%23789")))
    expect(page.locator("#boot")).to_have_attribute("data-phase", "ready")
    # with the UTF-8 header the page read its own bytes once more; without, it did not
    assert len(asked) == (2 if "utf-8" in content_type else 1)
    assert errors == []


def test_batch_and_axe_offline(fresh_offline: Page) -> None:
    offline = fresh_offline  # axe's "empty" is the state of a page just booted
    from doiname.batch import BatchSession, iter_batch_rows, write_csv

    from .test_axe_and_hostile import axe_violations

    assert axe_violations(offline) == [], "empty"
    text = "Reading list\nhttps://doi.org/10.1038/nature14539\ndoi:10.1038/NATURE14539\nbad 10.1/x"
    offline.fill("#batch-input", text)
    offline.click("#batch-run")
    expect(offline.locator("#batch-status")).to_contain_text("Done: 4 lines")
    offline.focus("#batch-scroll")
    offline.keyboard.press("ArrowDown")
    expect(offline.locator("#batch-detail h3")).to_have_text("Line 1: No DOI")
    assert axe_violations(offline) == [], "batch"
    with offline.expect_download() as info:
        offline.click("#batch-csv")
    out = io.StringIO(newline="")
    write_csv(iter_batch_rows(text.split("\n"), BatchSession()), out)
    assert Path(info.value.path()).read_bytes().decode("utf-8") == out.getvalue()


def test_a_browser_that_cannot_unpack_gets_told(page: Page, single_file: Path,
                                                refused: list[str]) -> None:
    page.add_init_script("delete window.DecompressionStream")
    page.goto(single_file.as_uri())
    expect(page.locator("#boot")).to_have_attribute("data-phase", "failed")
    expect(page.locator("#boot-message")).to_contain_text("DecompressionStream")
    assert page.evaluate("() => window.doiname === undefined")
