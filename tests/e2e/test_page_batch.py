"""The Batch view and ``window.doiname.batch``.

A 100,000-line paste (a real Ctrl+V from the clipboard) runs in the worker while the
page stays usable; the progress bar moves, the counts and both downloads are compared
with what the core computes on the host for the same text, Cancel keeps the rows done
so far, and the table draws only the rows in sight. Expected values always come from
the host's ``doiname.batch``, never from this file.
"""

from __future__ import annotations

import csv
import io
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from doiname.batch import BatchJob, BatchRow, BatchSession, iter_batch_rows, write_csv
from doiname.limits import BATCH_PASTE_STREAM_CHARS

from .test_page_helpers import open_page

pytestmark = pytest.mark.e2e

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


def test_hundred_thousand_lines(context: BrowserContext, page: Page, site_url: str) -> None:
    text = make_text(100_000)
    rows = host_rows(text)
    expected = summary_of(rows)
    assert expected["duplicates"] > 10_000 and expected["errors"] > 1000  # a real dedupe job
    open_page(page, site_url)
    paste(context, page, "#batch-input", text)
    page.click("#batch-run")

    # The progress bar moves while the worker works.
    seen: set[float] = set()
    deadline = time.monotonic() + 60
    while len({v for v in seen if 0 < v < 1}) < 3 and time.monotonic() < deadline:
        seen.add(progress(page))
        page.wait_for_timeout(100)
    assert len({v for v in seen if 0 < v < 1}) >= 3, seen
    assert running(page)

    # The page answers meanwhile: another control's result comes while the batch runs.
    page.click('button[data-example^="10.1002/(SICI)"]')
    expect(page.locator("#result-name")).to_have_text(
        "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O", timeout=10_000)
    assert running(page) and progress(page) < 1, "the batch ended before the check"
    # Scrolling the (partial) table also works meanwhile.
    page.locator("#batch-scroll").evaluate("(e) => { e.scrollTop = 3000; }")

    expect(page.locator("#batch-status")).to_contain_text("Done:", timeout=180_000)
    assert progress(page) == 1
    for key, value in expected.items():
        assert count(page, key) == value, key
    expect(page.locator("#batch-shown")).to_have_text(f"Showing all {len(rows):,} rows")
    # Only the rows in sight are in the document.
    drawn = page.locator("#batch-body tr[data-row]").count()
    assert 0 < drawn < 100
    assert page.get_attribute("#batch-table", "aria-rowcount") == str(len(rows) + 1)

    # The CSV download is exactly what the CLI would write for this text.
    assert read_download(page, "#batch-csv") == host_csv(rows)

    # Filter: duplicates only; the shown-rows download has exactly those, in order.
    page.select_option("#batch-filter", "duplicate")
    expect(page.locator("#batch-shown")).to_have_text(
        f"Showing {expected['duplicates']:,} of {len(rows):,} rows")
    statuses = page.locator("#batch-body tr[data-row]").evaluate_all(
        "(rows) => rows.map((r) => r.dataset.status)")
    assert statuses and set(statuses) == {"duplicate"}
    page.check("#batch-shown-only")
    data = json.loads(read_download(page, "#batch-json"))
    assert data == [r.as_dict() for r in rows if r.status == "duplicate"]


def test_cancel_keeps_the_rows_done(context: BrowserContext, page: Page, site_url: str) -> None:
    text = make_text(100_000, seed=9)
    rows = host_rows(text)
    open_page(page, site_url)
    paste(context, page, "#batch-input", text)
    page.click("#batch-run")
    deadline = time.monotonic() + 60
    while progress(page) < 0.05 and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    page.click("#batch-cancel")
    expect(page.locator("#batch-status")).to_contain_text("Cancelled after", timeout=10_000)
    assert not running(page)
    lines = count(page, "lines")
    assert 0 < lines < 100_000
    done = [r for r in rows if r.line <= lines]
    assert count(page, "dois") == summary_of(done)["dois"]
    # Cancelled at a line boundary: the download is the host's rows of those lines.
    assert read_download(page, "#batch-csv") == host_csv(done)
    # A new run starts from scratch.
    page.fill("#batch-input", "10.1000/1\n10.1000/1")
    page.click("#batch-run")
    expect(page.locator("#batch-status")).to_contain_text("Done: 2 lines")
    assert count(page, "duplicates") == 1


SMALL = "\n".join([
    "Reading list",
    "LeCun 2015 https://doi.org/10.1038/nature14539",
    "doi:10.1038/NATURE14539",
    "bad: 10.1234/50%zz",
    "Kelvin 10.1000/\u212a",
    "10.1000/182, 10.1000/183",
])


def test_sort_select_and_inspect_with_the_keyboard(page: Page, site_url: str) -> None:
    rows = host_rows(SMALL)
    open_page(page, site_url)
    page.fill("#batch-input", SMALL)
    page.focus("#batch-input")
    page.keyboard.press("Control+Enter")
    expect(page.locator("#batch-status")).to_contain_text("Done: 6 lines")
    body = page.locator("#batch-body tr[data-row]")
    assert body.evaluate_all("(r) => r.map((x) => x.dataset.status)") == [r.status for r in rows]

    page.click('button[data-sort="status"]')
    expect(page.locator("th.col-status")).to_have_attribute("aria-sort", "ascending")
    order = body.evaluate_all("(r) => r.map((x) => x.dataset.status)")
    assert order[0] == "error" and order[-1] == "no-doi"
    page.click('button[data-sort="status"]')
    expect(page.locator("th.col-status")).to_have_attribute("aria-sort", "descending")
    page.click('button[data-sort="line"]')

    # Keyboard: the table region takes focus; arrows select; details follow.
    page.focus("#batch-scroll")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    detail = page.locator("#batch-detail")
    expect(detail.locator("h3")).to_have_text("Line 3: Duplicate")
    expect(detail).to_contain_text("doi:10.1038/NATURE14539")
    detail.get_by_role("button", name="line 2").click()
    expect(detail.locator("h3")).to_have_text("Line 2: OK")
    expect(page.locator("#batch-body tr.selected")).to_have_attribute("data-row", "1")
    # Enter opens the selected DOI in Inspect.
    page.focus("#batch-scroll")
    page.keyboard.press("Enter")
    expect(page.locator("#doi-input")).to_have_value("https://doi.org/10.1038/nature14539")
    expect(page.locator("#doi-input")).to_be_focused()

    # Search and filter together; a filter with no match says so.
    page.fill("#batch-search", "kelvin")
    expect(page.locator("#batch-shown")).to_have_text(f"Showing 1 of {len(rows)} rows")
    page.select_option("#batch-filter", "error")
    expect(page.locator("#batch-body")).to_contain_text("No rows match the filter.")


def test_open_a_file(page: Page, site_url: str, tmp_path: Path) -> None:
    source = (REFERENCES / "bibtex.bib").read_text(encoding="utf-8")
    # A Windows export: byte-order mark and CRLF line ends; the rows must not change.
    path = tmp_path / "export.bib"
    path.write_bytes(b"\xef\xbb\xbf" + source.replace("\n", "\r\n").encode("utf-8"))
    rows = host_rows(source)
    open_page(page, site_url)
    page.set_input_files("#batch-file", str(path))
    expect(page.locator("#batch-status")).to_contain_text("Done:")
    for key, value in summary_of(rows).items():
        assert count(page, key) == value, key
    got = list(csv.reader(io.StringIO(read_download(page, "#batch-csv"))))
    want = list(csv.reader(io.StringIO(host_csv(rows))))
    assert got == want


def test_nothing_to_search_is_said(page: Page, site_url: str) -> None:
    open_page(page, site_url)
    page.fill("#batch-input", "   \n  ")
    page.click("#batch-run")
    expect(page.locator("#batch-status")).to_contain_text("There is nothing to search")
    expect(page.locator("#batch-input")).to_be_focused()


def test_batch_api(booted_page: Page) -> None:
    text = make_text(3000, seed=3)
    result: dict[str, Any] = booted_page.evaluate("""async (text) => {
        const progress = [];
        const rows = await window.doiname.batch(text, {onProgress: (p) => progress.push(p)});
        const info = await window.doiname.info();
        return {rows, progress, jobs: info.batch_jobs};
    }""", text)
    assert result["rows"] == [r.as_dict() for r in host_rows(text)]
    done = [p["lines_done"] for p in result["progress"]]
    assert done == sorted(done) and done[-1] == 3000 and result["progress"][-1]["done"]
    assert result["jobs"] == 0  # batch() closes its job

    # startBatch: export picked rows; a cancelled batch rejects with code "cancelled".
    out = booted_page.evaluate("""async (text) => {
        const h = window.doiname.startBatch('10.1000/a\\n10.1000/A\\nnone');
        await h.finished;
        const jsonl = await h.export('jsonl', [1]);
        await h.close();
        const c = new AbortController();
        const h2 = window.doiname.startBatch(text, {signal: c.signal});
        c.abort();
        let code = null;
        try { await h2.finished; } catch (e) { code = e.code; }
        await h2.close();
        let closed = null;
        try { await h2.export('csv'); } catch (e) { closed = e.code; }
        return {jsonl, code, closed};
    }""", text)
    job = BatchJob("10.1000/a\n10.1000/A\nnone")
    while not job.done:
        job.step()
    assert out["jsonl"] == job.export("jsonl", [1])
    assert out["code"] == "cancelled"
    assert out["closed"] == "unknown-job"


def test_resolve_all_four_at_a_time_with_retry(page: Page, site_url: str) -> None:
    """Resolve all: only unique names are asked for, never more than 4 at once; 503 and
    429 are asked again (Python's reading says ``retry``), 404 is final; the downloads
    carry each name's resolution, also on its duplicates."""
    from doiname import to_handles_api_url

    names = [f"10.1000/r{i}" for i in range(10)]
    text = "\n".join([*names, "doi:10.1000/R0", "nothing", "10.1000/%zz"])
    record = {"responseCode": 1, "handle": "", "values": [
        {"index": 1, "type": "URL", "data": {"format": "string", "value": ""}}]}
    held: list[Any] = []
    asked: list[str] = []
    peak = 0

    def handler(route: Any) -> None:
        held.append(route)

    page.route("https://doi.org/**", handler)
    open_page(page, site_url)
    page.fill("#batch-input", text)
    page.click("#batch-run")
    expect(page.locator("#batch-status")).to_contain_text("Done: 13 lines")
    page.click("#batch-resolve")
    deadline = time.monotonic() + 60
    while (time.monotonic() < deadline
           and "Resolved 10 names" not in page.inner_text("#batch-status")):
        page.wait_for_timeout(150)
        peak = max(peak, len(held))
        for route in held:
            url = route.request.url
            asked.append(url)
            name = url.split("/api/handles/")[1].split("?")[0]
            tries = asked.count(url)
            if name == "10.1000/r1" and tries == 1:
                route.fulfill(status=503, body="Service Unavailable")
            elif name == "10.1000/r2" and tries < 3:
                route.fulfill(status=429, body="")
            elif name == "10.1000/r3":
                route.fulfill(status=404, content_type="application/json",
                              body=json.dumps({"responseCode": 100, "handle": name}))
            else:
                body = json.loads(json.dumps(record))
                body["handle"] = name
                body["values"][0]["data"]["value"] = f"https://example.org/{name}"
                route.fulfill(status=200, content_type="application/json", body=json.dumps(body))
        held.clear()
    expect(page.locator("#batch-status")).to_contain_text("Resolved 10 names: 9 resolve, 1 do not")
    assert 1 < peak <= 4
    assert sorted(set(asked)) == sorted(to_handles_api_url(n) for n in names)
    assert asked.count(to_handles_api_url("10.1000/r1")) == 2
    assert asked.count(to_handles_api_url("10.1000/r2")) == 3
    assert asked.count(to_handles_api_url("10.1000/r3")) == 1
    table = list(csv.reader(io.StringIO(read_download(page, "#batch-csv"))))
    assert table[0][-2:] == ["resolution", "resolves_to"]
    by_line = {row[0]: row[-2:] for row in table[1:]}
    assert by_line["1"] == ["ok", "https://example.org/10.1000/r0"]
    assert by_line["11"] == by_line["1"]  # the duplicate gets its original's resolution
    assert by_line["4"] == ["not-found", ""]
    assert by_line["12"] == ["", ""] and by_line["13"] == ["", ""]
    expect(page.locator('#batch-body tr[data-row="0"] td.col-resolution')).to_have_text(
        "https://example.org/10.1000/r0")


def test_resolve_all_can_be_cancelled(page: Page, site_url: str) -> None:
    held: list[Any] = []
    page.route("https://doi.org/**", lambda route: held.append(route))
    open_page(page, site_url)
    page.fill("#batch-input", "\n".join(f"10.1000/c{i}" for i in range(20)))
    page.click("#batch-run")
    expect(page.locator("#batch-status")).to_contain_text("Done: 20 lines")
    page.click("#batch-resolve")
    expect(page.locator("#batch-progress-text")).to_have_text("Resolved 0 of 20 names")
    for _ in range(50):
        if len(held) == 4:
            break
        page.wait_for_timeout(100)
    assert len(held) == 4
    page.get_by_role("button", name="Cancel the batch").click()
    expect(page.locator("#batch-status")).to_contain_text("Resolving cancelled after 0 of 20")
    page.wait_for_timeout(300)
    assert len(held) == 4  # nothing more was asked
    expect(page.locator("#batch-resolve")).to_be_enabled()


def test_resolve_all_asks_for_the_exact_names(page: Page, site_url: str) -> None:
    """Names holding ``%``: each is asked of doi.org as exactly the name its row holds
    (``10.1000/a%41``, not the ``10.1000/aA`` that reading the decoded name again gives),
    by the URL Python made from the exact name; never a decoded name read again."""
    lines = ["10.1000/a%2541", "https://doi.org/10.1000/x%2523y", "10.1000/p%2Fq",
             "doi:10.1000/b%252Fc"]
    expected = {
        "https://doi.org/api/handles/10.1000/a%2541": "10.1000/a%41",
        "https://doi.org/api/handles/10.1000/x%2523y": "10.1000/x%23y",
        "https://doi.org/api/handles/10.1000/p%2Fq": "10.1000/p/q",
        "https://doi.org/api/handles/10.1000/b%252Fc": "10.1000/b%2Fc",
    }
    rows = host_rows("\n".join(lines))
    assert {r.api_url: r.doi for r in rows} == expected  # the host agrees with this table
    asked: list[str] = []

    def answer(route: Any) -> None:
        url = route.request.url
        asked.append(url)
        handle = expected.get(url, "unexpected")
        route.fulfill(status=200, content_type="application/json", body=json.dumps({
            "responseCode": 1, "handle": handle, "values": [
                {"index": 1, "type": "URL",
                 "data": {"format": "string", "value": f"https://example.org/{len(asked)}"}}]}))

    page.route("https://doi.org/**", answer)
    open_page(page, site_url)
    page.fill("#batch-input", "\n".join(lines))
    page.click("#batch-run")
    expect(page.locator("#batch-status")).to_contain_text("Done: 4 lines")
    page.click("#batch-resolve")
    expect(page.locator("#batch-status")).to_contain_text("Resolved 4 names: 4 resolve")
    assert sorted(asked) == sorted(expected)
    # Each row shows the record asked for its own name.
    table = list(csv.reader(io.StringIO(read_download(page, "#batch-csv"))))
    header = table[0]
    got = {row[header.index("doi")]: row[header.index("resolves_to")] for row in table[1:]}
    assert {name: asked.index(url) + 1 for url, name in expected.items()} == {
        name: int(target.rsplit("/", 1)[1]) for name, target in got.items()}
