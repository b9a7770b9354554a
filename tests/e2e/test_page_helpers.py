"""Shared helpers for the page tests (test_page_*.py); this module holds no tests.

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


def open_page(page: Page, site_url: str, **state: str) -> None:
    """Open the page with ``state`` in the fragment and wait until Python is ready."""
    url = site_url + ("#" + urlencode(state) if state else "")
    page.goto(url)
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
