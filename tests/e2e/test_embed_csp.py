"""An embed that cannot fail silently, with the tool in a folder of a web server (as a
library hosts it: ``/doi/doiname/``), not at an origin's root:

* the widget demo's "Copy the markup" and "Copy the CSP lines" give lines that work when
  used exactly as copied on a host page whose policy is only those lines (the folder
  written with its final ``/``);
* a policy that blocks the tool's frame is said in the ``<doi-tool>`` element in one
  plain sentence, and on the console; a report-only policy that would block it changes
  nothing;
* at 1280x800 and 390x844, light and dark; axe clean, layout shift at most 0.05.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from .conftest import serving
from .test_axe_and_hostile import axe_violations
from .test_page_verdicts import sized_page
from .test_widget import HostPages

pytestmark = pytest.mark.e2e

SHOTS = Path(__file__).resolve().parents[1] / "screenshots"
SIZES = ("desktop", "phone")


@pytest.fixture(scope="module")
def folder_url(site_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The built site served from ``/doi/doiname/`` of a server of its own."""
    root = tmp_path_factory.mktemp("webroot")
    (root / "doi").mkdir()
    (root / "doi" / "doiname").symlink_to(site_dir.resolve(), target_is_directory=True)
    with serving(root) as url:
        yield url + "doi/doiname/"


@pytest.fixture(scope="module")
def host() -> Iterator[HostPages]:
    pages = HostPages()
    yield pages
    pages.server.shutdown()


def copied(page: Page, button: str) -> str:
    page.click(button)
    expect(page.locator("#copy-status")).to_have_text("Copied. Paste it into your page.")
    text: str = page.evaluate("() => navigator.clipboard.readText()")
    return text


def host_page(markup: str) -> str:
    return ('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Library</title>'
            f'</head><body><main><h1>Find a DOI</h1>{markup}</main></body></html>')


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", SIZES)
def test_the_copied_lines_work_and_a_wrong_policy_is_said(
        browser: Browser, folder_url: str, host: HostPages, size: str,
        scheme: Literal["light", "dark"]) -> None:
    with sized_page(browser, size, scheme) as (page, _routes):
        page.goto(folder_url + "widget-demo.html")
        markup = copied(page, "button[data-copy=embed-markup]")
        lines = copied(page, "button[data-copy=embed-csp]")
        assert lines == f"script-src {folder_url};\nframe-src {folder_url};"
        assert f'<script src="{folder_url}widget.js" defer></script>' in markup
        # Exactly the copied lines are the policy (besides 'none' for everything else).
        policy = "default-src 'none'; " + " ".join(lines.splitlines())
        page.goto(host.add(f"/ok-{size}-{scheme}.html", host_page(markup),
                           {"Content-Security-Policy": policy}))
        tool = page.locator("doi-tool")
        tool.locator("textarea").fill("10.1000/182")
        expect(tool.locator(".out a")).to_have_attribute(
            "href", "https://doi.org/10.1000/182", timeout=60_000)
        cls = page.evaluate("() => window.__shifts.reduce((a, b) => a + b, 0)")
        assert cls <= 0.05
        assert axe_violations(page) == []
        # The same folder without its final "/": widget.js is blocked; the element still
        # holds its link to the tool, never nothing.
        wrong = policy.replace(f"{folder_url};", f"{folder_url.rstrip('/')};")
        page.goto(host.add(f"/no-slash-{size}-{scheme}.html", host_page(markup),
                           {"Content-Security-Policy": wrong}))
        expect(page.locator("doi-tool a")).to_have_attribute("href", folder_url)
        expect(page.locator("doi-tool a")).to_be_visible()
        # A policy that allows the script but not the frame: the box says so, and the console.
        messages: list[str] = []
        page.on("console", lambda m: messages.append(m.text)
                if isinstance(m, ConsoleMessage) else None)
        no_frame = f"default-src 'none'; script-src {folder_url}"
        page.goto(host.add(f"/no-frame-{size}-{scheme}.html", host_page(markup),
                           {"Content-Security-Policy": no_frame}))
        tool.locator("textarea").fill("10.1000/182")
        said = ("This page's Content-Security-Policy blocks the DOI tool: its frame-src must "
                f'allow {folder_url} (with the final "/").')
        expect(tool.locator("[role=status]")).to_have_text(said, timeout=20_000)
        assert any(said in m for m in messages), messages
        assert axe_violations(page) == []
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"widget-blocked-{size}-{scheme}.png"))
        # Report-only: nothing is blocked, nothing is said.
        page.goto(host.add(f"/report-only-{size}-{scheme}.html", host_page(markup), {
            "Content-Security-Policy": policy,
            "Content-Security-Policy-Report-Only": no_frame}))
        tool.locator("textarea").fill("10.1000/182")
        expect(tool.locator(".out a")).to_have_attribute(
            "href", "https://doi.org/10.1000/182", timeout=60_000)
        expect(tool.locator("[role=status]")).not_to_contain_text("Content-Security-Policy")
