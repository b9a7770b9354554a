"""The site's pages may be framed by the site itself only: another origin's page that
frames the app gets nothing from a host that sends the site's headers (``frame-ancestors``)
and, from a host that sends none (the page's own ``<meta>`` policy cannot say
``frame-ancestors``), a page that refuses to run and says why. The widget's frame stays
frameable: that is how the widget works."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .conftest import serving

pytestmark = pytest.mark.e2e


@pytest.fixture
def elsewhere(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """Another origin (another port): a host of its own, serving what a test writes."""
    with serving(tmp_path) as url:
        yield tmp_path, url


def framing(page: Page, elsewhere: tuple[Path, str], src: str) -> None:
    """Open a page of another origin that frames ``src``."""
    directory, url = elsewhere
    (directory / "elsewhere.html").write_text(
        f'<!doctype html><title>elsewhere</title><iframe src="{src}"></iframe>', encoding="utf-8")
    page.goto(url + "elsewhere.html")


@pytest.fixture
def headers_url(site_dir: Path) -> Iterator[str]:
    with serving(site_dir, host_headers=True) as url:
        yield url


def test_the_app_refuses_to_run_framed_by_another_origin(page: Page, site_url: str,
                                                        elsewhere: tuple[Path, str]) -> None:
    """``site_url`` sends no policy header: the page's own check is all there is."""
    framing(page, elsewhere, site_url + "index.html")
    frame = page.frame_locator("iframe")
    expect(frame.locator("#framed-note")).to_contain_text("another site")
    assert frame.locator("#framed-note a").get_attribute("target") == "_top"
    child = page.frames[1]
    assert child.evaluate("() => typeof window.doiname") == "undefined"
    expect(frame.locator("#doi-input")).to_have_count(0)


def test_the_app_runs_framed_by_itself(page: Page, site_url: str) -> None:
    page.route(site_url + "self.html", lambda route: route.fulfill(
        status=200, content_type="text/html",
        body=f'<!doctype html><title>self</title><iframe src="{site_url}"></iframe>'))
    page.goto(site_url + "self.html")
    frame = page.frame_locator("iframe")
    expect(frame.locator("#doi-input")).to_be_visible()
    expect(frame.locator("#framed-note")).to_have_count(0)


@pytest.mark.parametrize("path", ["%69ndex.html", "index", "widget-demo"])
def test_a_host_with_the_sites_headers_refuses_the_frame(page: Page, headers_url: str, path: str,
                                                         elsewhere: tuple[Path, str]) -> None:
    with page.expect_console_message(lambda m: "frame-ancestors" in m.text):
        framing(page, elsewhere, headers_url + path)
    assert all(f.url in ("about:blank", "chrome-error://chromewebdata/") or "elsewhere" in f.url
               for f in page.frames), [f.url for f in page.frames]


def test_the_widget_frame_may_be_framed(page: Page, headers_url: str,
                                        elsewhere: tuple[Path, str]) -> None:
    framing(page, elsewhere, headers_url + "widget-frame.html")
    expect(page.frame_locator("iframe").locator("body")).to_be_attached()
    assert any(f.url.endswith("widget-frame.html") for f in page.frames)
