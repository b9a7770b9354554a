"""Shared helpers for the Batch page tests (test_page_batch*.py); this module holds no
tests. Expected values come from the host's ``doiname.batch``, never from here."""

from __future__ import annotations

import io
import random
from pathlib import Path

from playwright.sync_api import BrowserContext, Page

from doiname.batch import BatchRow, BatchSession, iter_batch_rows, write_csv
from doiname.limits import BATCH_PASTE_STREAM_CHARS

REFERENCES = Path(__file__).resolve().parents[1] / "fixtures" / "references"

TEMPLATES = [
    "Smith, J. (2019). Things. Journal of Stuff, 12(3), 45-67. https://doi.org/10.{r}/js.{n}",
    "[{n}] Doe A, Roe B. Title. J Med. 2018;5:1-9. doi:10.{r}/JM.{n}.",
    "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O",
    "no identifier here, only 10.5 percent and ISBN 978-3-16-148410-0",
    "https://doi-org.ezproxy.example.edu/10.{r}/x%23{n}",
    "DOI: 10.{r}/dup.{n}",
    "broken: 10.{r}/50%zz",
    "lookalike 10.{r}/\u0430bc{n} and (see 10.1000/182)",
    "",
]


def make_text(lines: int, seed: int = 5) -> str:
    """A list with many duplicates (few registrants and numbers), errors and non-DOI lines."""
    rng = random.Random(seed)
    return "\n".join(rng.choice(TEMPLATES).format(r=rng.randrange(1000, 1012), n=rng.randrange(600))
                     for _ in range(lines))


def host_rows(text: str) -> list[BatchRow]:
    """What the core on the host makes of ``text`` (lines split as the CLI reads a file)."""
    return list(iter_batch_rows(io.StringIO(text, newline=""), BatchSession()))


def host_csv(rows: list[BatchRow]) -> str:
    out = io.StringIO(newline="")
    write_csv(rows, out)
    return out.getvalue()


#: The counts the page draws.
SHOWN_COUNTS = ("lines", "dois", "unique", "duplicates", "errors", "warnings", "no_doi")


def summary_of(rows: list[BatchRow]) -> dict[str, int]:
    session = BatchSession()
    for row in rows:
        session.summary.add(row)
    counts = session.summary.as_dict()
    return {k: counts[k] for k in SHOWN_COUNTS}


def paste(context: BrowserContext, page: Page, selector: str, text: str) -> None:
    """Paste ``text`` into a field as a person does: clipboard, then Ctrl+V."""
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.evaluate("(t) => navigator.clipboard.writeText(t)", text)
    page.focus(selector)
    page.keyboard.press("Control+V")
    shown = page.eval_on_selector(selector, "(e) => e.value")
    if len(text) <= BATCH_PASTE_STREAM_CHARS:
        assert shown == text
    else:  # a long paste is held and read in pieces; the box shows its beginning
        assert text.startswith(shown) and 0 < len(shown) < len(text)


def progress(page: Page) -> float:
    return float(page.eval_on_selector("#batch-progress", "(e) => e.value"))


def running(page: Page) -> bool:
    return not page.locator("#batch-cancel").is_disabled()


def count(page: Page, key: str) -> int:
    return int(page.locator(f'#batch-summary [data-count="{key}"]').inner_text().replace(",", ""))


def read_download(page: Page, button: str) -> str:
    with page.expect_download() as info:
        page.click(button)
    path = info.value.path()
    return Path(path).read_bytes().decode("utf-8")  # as saved: CRLF stays
