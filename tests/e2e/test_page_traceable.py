"""Rows that point at their reference, sources on demand, and a page that does not slip,
at 1280x800 and 390x844, light and dark:

* a row shows its record's key and first line (author, year, title); a duplicate names its
  first occurrence by them (and line); the details show them and the text as written
  (spaces are not drawn as dots);
* the source of a message is behind a small "Why?", closed by default; identical URL
  levels are shown once, and each other form has a line of plain explanation;
* the hidden progress bar takes no room; the DOI column stays in sight when the keyboard sorts by
  another column; a row's details are brought into sight;
* layout shift at most 0.05 and axe clean in each state.

Expected values come from the host's ``doiname``.
"""

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
from .test_page_verdicts import put, sized_page

pytestmark = pytest.mark.e2e

SHOTS = Path(__file__).resolve().parents[1] / "screenshots"
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
LIST = """@article{lecun2015deep,
  title  = {Deep learning},
  author = {LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey},
  year   = {2015},
  doi    = {10.1038/nature14539}
}
Smith, J. (2019). Things we know. Journal of Stuff, 12(3), 45-67. https://doi.org/10.1000/182
@article{again2015,
  title  = {Deep learning, once more},
  doi    = {10.1038/NATURE14539}
}
LeCun Y, Bengio Y, Hinton G. Deep learning. Nature. 2015;521:436-44. doi:10.1038/nature14539.
TY  - JOUR
AU  - Smith, Jo
PY  - 2019
TI  - Things we know
ID  - smith2019
DO  - 10.1000/182
ER  - """


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_rows_sources_and_layout(browser: Browser, site_url: str, size: str,
                                 scheme: Literal["light", "dark"]) -> None:
    height = SIZES[size][1]
    with sized_page(browser, size, scheme) as (page, _routes):
        open_page(page, site_url)
        # The hidden progress bar takes no room.
        expect(page.locator("#batch-progress-wrap")).to_be_hidden()
        assert page.locator("#batch-progress-wrap").bounding_box() is None
        # Sources behind "Why?", closed by default.
        put(page, "#doi-input", "10.1000/a\u2013b")
        why = page.locator("#findings .why-source").first
        expect(why).to_be_visible()
        assert why.get_attribute("open") is None
        expect(page.locator("#findings .finding-source").first).to_be_hidden()
        why.locator("summary").click()
        expect(page.locator("#findings .finding-source").first).to_be_visible()
        # A plain name: its three URL levels are one link, shown once.
        put(page, "#doi-input", "10.1000/182")
        page.locator("details.more-more > summary").click()
        expect(page.locator("#links-same code")).to_have_text("https://doi.org/10.1000/182")
        expect(page.locator("#url-strict")).to_have_count(0)
        # URN, doi: URI, handle API, 2003 URI and "Which RA?": each with its line
        expect(page.locator(".form-explained")).to_have_count(5)
        assert axe_violations(page) == []
        # Batch: duplicates by key.
        job = BatchJob(LIST)
        while not job.step(1_000_000, 60)["done"]:
            pass
        rows = job.rows
        page.fill("#batch-input", LIST)
        # The run button keeps its width while its label says "New batch…" (the buttons
        # beside it do not move when a batch starts or ends, however long it takes).
        run, cancel = page.locator("#batch-run"), page.locator("#batch-cancel")
        before = [(b["x"], b["width"]) for b in (run.bounding_box(), cancel.bounding_box()) if b]
        # ... nor do the results when the status line's "Searching…" becomes "Done: …"
        # (the click's own handler shows them: this listener runs after it)
        page.evaluate("""() => document.addEventListener("click", () => {
            window.__resultsTop = document.getElementById("batch-results")
              .getBoundingClientRect().top + window.scrollY; }, {once: true})""")
        page.click("#batch-run")
        expect(page.locator("#batch-status")).to_contain_text("Done:", timeout=60_000)
        assert page.evaluate("""() => document.getElementById("batch-results")
            .getBoundingClientRect().top + window.scrollY""") == page.evaluate(
            "() => window.__resultsTop")
        expect(run).to_have_accessible_name("Find DOIs")
        after = [(b["x"], b["width"]) for b in (run.bounding_box(), cancel.bounding_box()) if b]
        assert after == before and len(before) == 2
        run.evaluate("(b) => b.classList.add('second')")  # what a run shows: the same box
        expect(run).to_have_accessible_name("New batch…")
        box = run.bounding_box()
        assert box is not None and (box["x"], box["width"]) == before[0]
        run.evaluate("(b) => b.classList.remove('second')")
        table = page.locator("#batch-body tr[data-row]")
        expect(table).to_have_count(len(rows))
        by_line = {r.line: r.record for r in rows}
        for i, r in enumerate(rows):
            cell = table.nth(i).locator(".col-duplicate_of")
            if r.duplicate_of is None:
                expect(cell).to_have_text("")
            else:
                key = by_line.get(r.duplicate_of)
                want = f"{key} (line {r.duplicate_of})" if key else f"line {r.duplicate_of}"
                expect(cell).to_have_text(want)
        first = rows[0]
        # a row points at its entry: the key and its first line (author, year, title)
        assert first.record == "lecun2015deep · LeCun (2015) Deep learning"
        expect(table.first.locator(".col-record")).to_have_text(first.record)
        assert [r.duplicate_of for r in rows].count(first.line) == 2  # both name it
        # Keyboard sorting keeps the DOI column in sight.
        page.locator("#batch-head button[data-sort=findings]").focus()
        page.keyboard.press("Enter")
        scroller = page.locator("#batch-scroll")
        frame = scroller.bounding_box()
        doi = page.locator("#batch-head th.col-doi").bounding_box()
        assert frame is not None and doi is not None
        assert doi["x"] >= frame["x"] - 1 and doi["x"] + 40 <= frame["x"] + frame["width"]
        # A row's details: in sight, the key shown, the text as written.
        apa = next(i for i, r in enumerate(rows) if r.input.startswith("Smith"))
        page.locator(f"#batch-body tr[data-row='{apa}']").click()
        detail = page.locator("#batch-detail")
        expect(detail).to_contain_text("Smith, J. (2019). Things we know.")
        expect(detail.locator(".space")).to_have_count(0)
        top = detail.bounding_box()
        assert top is not None and top["y"] < height
        ris = next(r for r in rows if (r.record or "").startswith("smith2019"))
        assert ris.record == "smith2019 · Smith (2019) Things we know"
        # the CSV starts with the columns people read, its record column the table's
        with page.expect_download() as info:
            page.click("#batch-csv")
        got = Path(info.value.path()).read_bytes().decode("utf-8")
        assert got == job.export("csv")
        assert got.splitlines()[0].startswith("line,record,status,doi,url,duplicate_of,findings,")
        assert [t["record"] for t in csv.DictReader(io.StringIO(got))] == [
            r.record or "" for r in rows]
        dup = next(i for i, r in enumerate(rows) if (r.record or "").startswith("again2015"))
        page.locator(f"#batch-body tr[data-row='{dup}']").click()
        expect(detail).to_contain_text("again2015 · Deep learning, once more")
        expect(detail).to_contain_text(f"{first.record} (line {first.line})")
        cls = page.evaluate("() => window.__shifts.reduce((a, b) => a + b, 0)")
        assert cls <= 0.05, (cls, page.evaluate("() => window.__shiftNodes"))
        assert axe_violations(page) == []
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"batch-traceable-{size}-{scheme}.png"))
