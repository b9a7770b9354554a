"""A reference list copied from a PDF, each reference wrapped over lines, in Batch at
1280x800 and 390x844, light and dark: one row per reference (the rows of the host's
``doiname``), its input the whole reference, its record column its first line (in the
table, the details and the CSV, whose first columns are those people read); the table
marks where a line was broken, the details show the lines as written (no ``U+000A`` tag);
a name cut by the line break is offered joined; the final "." of a sentence is a note, as
Inspect says it, not a warning. Layout shift at most 0.05 and axe clean."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Literal

import pytest
from playwright.sync_api import Browser, expect

from doiname.batch import BatchJob

from .site_page import open_page
from .test_axe_and_hostile import axe_violations
from .test_page_verdicts import sized_page

pytestmark = pytest.mark.e2e

SHOTS = Path(__file__).resolve().parents[1] / "screenshots"
LIST = """1. Smith J, Doe K, Roe A, Poe E,
White B. A study of things in
mice. Lancet. 2020;395:497-506.
doi:10.1016/S0140-6736(20)30183-5.
2. Green C. Angew Chem. 2020. doi:10.1002/anie.2020
12345
LeCun, Y., Bengio, Y., & Hinton, G. (2015). Deep learning. Nature, 521(7553), 436-444.
https://doi.org/10.1038/nature14539"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_wrapped_list_is_one_row_per_reference(browser: Browser, site_url: str, size: str,
                                                 scheme: Literal["light", "dark"]) -> None:
    job = BatchJob(LIST)
    while not job.step(1_000_000, 60)["done"]:
        pass
    rows = job.rows
    assert [r.line for r in rows] == [1, 5, 7]
    assert [r.record for r in rows] == ["1. Smith J, Doe K, Roe A, Poe E,",
                                        "2. Green C. Angew Chem. 2020. doi:10.1002/anie.2020",
                                        rows[2].input.split("\n")[0]]
    # the final "." after the first name ends the sentence: a note in Inspect's words
    assert rows[0].status == "ok" and rows[0].findings[0].severity == "info"
    assert rows[0].findings[0].message.startswith("The final “.” was left out: it ends the")
    with sized_page(browser, size, scheme) as (page, _routes):
        open_page(page, site_url)
        page.fill("#batch-input", LIST)
        page.click("#batch-run")
        expect(page.locator("#batch-status")).to_contain_text("Done:", timeout=60_000)
        table = page.locator("#batch-body tr[data-row]")
        expect(table).to_have_count(len(rows))
        for i, r in enumerate(rows):
            expect(table.nth(i).locator(".col-doi")).to_have_text(r.doi or "")
            expect(table.nth(i).locator(".col-record")).to_have_text(r.record or "")
            expect(table.nth(i)).to_have_attribute("data-status", r.status)
            expect(table.nth(i).locator(".col-input .line-break")).to_have_count(
                r.input.count("\n"))
        expect(page.locator("#batch-body .cp-tag")).to_have_count(0)
        cut = next(i for i, r in enumerate(rows) if r.doi == "10.1002/anie.2020")
        page.locator(f"#batch-body tr[data-row='{cut}']").click()
        detail = page.locator("#batch-detail")
        expect(detail).to_contain_text("10.1002/anie.202012345")
        value = detail.locator(".data-text-plain").first
        expect(value.locator("br")).to_have_count(1)
        assert value.inner_text() == rows[cut].input
        expect(detail.locator(".cp-tag")).to_have_count(0)
        expect(detail).to_contain_text(rows[cut].record or "")
        # the CSV: the columns people read first, the record column as the table shows it
        with page.expect_download() as info:
            page.click("#batch-csv")
        got = Path(info.value.path()).read_bytes().decode("utf-8")
        assert got == job.export("csv")
        assert got.splitlines()[0].startswith("line,record,status,doi,url,duplicate_of,findings,")
        table_rows = list(csv.DictReader(io.StringIO(got)))
        assert [(t["line"], t["record"]) for t in table_rows] == [
            (str(r.line), r.record) for r in rows]
        cls = page.evaluate("() => window.__shifts.reduce((a, b) => a + b, 0)")
        assert cls <= 0.05, (cls, page.evaluate("() => window.__shifts"))
        assert axe_violations(page) == []
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"batch-wrapped-{size}-{scheme}.png"))
