"""The built page as the page tests (test_page_*.py and others) open and read it; this
module holds no tests.

The page is the built site (``dist/site``) served by the suite's fixtures; every
expected value is computed by the core on the host, never written here by hand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from playwright.sync_api import Page, expect

from doiname.bridge import for_view
from doiname.inspection import Candidate, Inspection, inspect

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "handles"

READY = "() => window.doiname.ready.then(() => true)"


#: The page's option to boot from the build's memory snapshot at once (for fast networks):
#: the page tests are about what the page does once ready, and this boot takes a third
#: of the time on localhost. The first visit's own boot (without the snapshot) is tested
#: in test_boot.py, test_offline.py, test_startup.py and the layout-shift tests.
FROM_SNAPSHOT = "?snapshot=always"


def page_address(site_url: str, **state: str) -> str:
    """The page's address booting from the snapshot, with ``state`` in the fragment."""
    return site_url + FROM_SNAPSHOT + ("#" + urlencode(state) if state else "")


def open_page(page: Page, site_url: str, **state: str) -> None:
    """Open the page (:func:`page_address`) and wait until Python is ready."""
    page.goto(page_address(site_url, **state))
    assert page.evaluate(READY) is True
    expect(page.locator("#boot")).to_have_attribute("data-phase", "ready")


def fixture_body(name: str) -> str:
    """The text of a handle fixture."""
    return (FIXTURES / name).read_text(encoding="utf-8")


def fixture_entry(path: str) -> dict[str, Any]:
    """The index entry of a handle fixture for a request path (with its query)."""
    index: dict[str, dict[str, Any]] = json.loads((FIXTURES / "index.json").read_text())
    return index[path]


def type_into(page: Page, selector: str, text: str) -> None:
    """Replace an input's text as a person would (input events)."""
    page.fill(selector, text)


def reading(text: str) -> Inspection:
    """What Inspect shows for ``text``: the core's reading, findings most severe first."""
    return for_view(inspect(text))


def selected(text: str) -> Candidate:
    """The candidate Inspect selects for ``text`` (there must be one)."""
    found = reading(text)
    assert found.selected is not None, text
    return found.candidates[found.selected]


def shown_name(text: str) -> str:
    """The DOI name Inspect shows for ``text`` (its selected reading)."""
    return str(selected(text).doi)
