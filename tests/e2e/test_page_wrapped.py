"""A reference list copied from a PDF, each reference wrapped over lines, in Batch at
1280x800 and 390x844: one row per reference (the rows of the host's ``doiname``), its
input the whole reference; the table marks where a line was broken, the details show the
lines as written (no ``U+000A`` tag); a name cut by the line break is offered joined.
Layout shift at most 0.05 and axe clean."""

from __future__ import annotations

from pathlib import Path

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
doi:10.1016/S0140-6736(20)30183-5
2. Green C. Angew Chem. 2020. doi:10.1002/anie.2020
12345
LeCun, Y., Bengio, Y., & Hinton, G. (2015). Deep learning. Nature, 521(7553), 436-444.
https://doi.org/10.1038/nature14539"""


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_wrapped_list_is_one_row_per_reference(browser: Browser, site_url: str,
                                                 size: str) -> None:
    job = BatchJob(LIST)
    while not job.step(1_000_000, 60)["done"]:
        pass
    rows = job.rows
    assert [r.line for r in rows] == [1, 5, 7]
    with sized_page(browser, size, "light") as (page, _routes):
        open_page(page, site_url)
        page.fill("#batch-input", LIST)
        page.click("#batch-run")
        expect(page.locator("#batch-status")).to_contain_text("Done:", timeout=60_000)
        table = page.locator("#batch-body tr[data-row]")
        expect(table).to_have_count(len(rows))
        for i, r in enumerate(rows):
            expect(table.nth(i).locator(".col-doi")).to_have_text(r.doi or "")
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
        cls = page.evaluate("() => window.__shifts.reduce((a, b) => a + b, 0)")
        assert cls <= 0.05, (cls, page.evaluate("() => window.__shifts"))
        assert axe_violations(page) == []
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"batch-wrapped-{size}-light.png"))
