"""What the page reads stays in proportion to what it was given, and a file is read as
the CLI and Spark read it.

The 24 KB zero-width line in Batch and the 8,000-character one in Inspect: each
worker reply stays small (the line's batch stopped with "it is not JSON" and Inspect
took a 17.5 MB reply and 52,000 elements). A UTF-16 file opened in Batch gives the CLI's
rows (it gave "0 DOI names, 7 lines without a DOI"); a binary file is refused in words.
Expected rows come from the host's ``doiname`` (the CLI's own file reader).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from doiname.cli import main as cli_main
from doiname.limits import INSPECT_MAX_CHARS

from .batch_page import count, read_download
from .site_page import open_page

pytestmark = pytest.mark.e2e

#: Every reply the worker sends, measured as the page receives it (JSON text length).
_REPLY_SIZES = """
(() => {
  const Native = window.Worker;
  window.__replySizes = [];
  window.Worker = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => {
        const d = e.data;
        window.__replySizes.push(typeof d === "string" ? d.length : JSON.stringify(d).length);
      });
    }
  };
})();
"""


def _largest_reply(page: Page) -> int:
    sizes = page.evaluate("window.__replySizes")
    assert sizes, "no reply was measured"
    return int(max(sizes))


def test_the_zero_width_line_in_batch_and_inspect(page: Page, site_url: str) -> None:
    page.add_init_script(_REPLY_SIZES)
    open_page(page, site_url)
    line = "10.1000/" + "a\u200b" * 12_000  # 24 KB
    page.fill("#batch-input", line)
    page.click("#batch-run")
    expect(page.locator("#batch-status")).to_contain_text("Done:", timeout=60_000)
    assert count(page, "dois") == 1
    assert _largest_reply(page) < 1_000_000
    rows = json.loads(read_download(page, "#batch-json"))
    (row,) = rows
    codes = [f["code"] for f in row["findings"]]
    assert codes.count("zero-width-dropped") == 1
    assert "11,999 invisible characters" in next(
        f["message"] for f in row["findings"] if f["code"] == "zero-width-dropped")

    page.evaluate("window.__replySizes = []")
    nodes = page.evaluate("document.querySelectorAll('*').length")
    case = line[:INSPECT_MAX_CHARS]
    page.fill("#doi-input", case)
    expect(page.locator('#findings li[data-code="zero-width-dropped"]')).to_have_count(1)
    assert _largest_reply(page) < 300_000
    # (it was 52,000 elements: one finding each; now one, and a mark for each invisible
    # character of the text shown)
    assert page.evaluate("document.querySelectorAll('*').length") - nodes < INSPECT_MAX_CHARS


def _cli_csv(path: Path) -> list[list[str]]:
    out, err = io.StringIO(), io.StringIO()
    assert cli_main(["batch", str(path)], stdout=out, stderr=err) == 0, err.getvalue()
    return list(csv.reader(io.StringIO(out.getvalue(), newline="")))


#: Six names, one in a link, after a title with an accent (as a Windows export writes it).
UTF16_NAMES = ["10.1000/1", "10.1000/2", "10.1038/nphys1170", "10.1000/\u00e9t\u00e9",
               "10.1000/5", "10.1000/6"]
UTF16_TEXT = ("Titre: \u00e9tudes\r\n" + "\r\n".join(
    f"https://doi.org/{n}" if i == 2 else n for i, n in enumerate(UTF16_NAMES)) + "\r\n")


@pytest.mark.parametrize("codec,bom", [("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff")])
def test_a_utf16_file_gives_the_rows_of_the_cli(page: Page, site_url: str, tmp_path: Path,
                                                codec: str, bom: bytes) -> None:
    path = tmp_path / "references.txt"
    path.write_bytes(bom + UTF16_TEXT.encode(codec))
    want = _cli_csv(path)
    doi = want[0].index("doi")
    assert [r[doi] for r in want[1:] if r[doi]] == UTF16_NAMES  # the CLI reads its text
    open_page(page, site_url)
    page.set_input_files("#batch-file", str(path))
    expect(page.locator("#batch-status")).to_contain_text("Done:", timeout=60_000)
    assert count(page, "dois") == 6
    got = list(csv.reader(io.StringIO(read_download(page, "#batch-csv"), newline="")))
    assert got == want


def test_a_binary_file_is_refused_in_words(page: Page, site_url: str, tmp_path: Path) -> None:
    path = tmp_path / "scan.pdf"
    path.write_bytes(b"%PDF-1.7\n\x00\x01\x02 10.1000/182 stream\n" * 50)
    open_page(page, site_url)
    page.set_input_files("#batch-file", str(path))
    expect(page.locator("#batch-status")).to_contain_text(
        "This file was not read: it is not text: a NUL byte at byte 9 (an image, a PDF, an "
        "archive or a spreadsheet?)")
    expect(page.locator("#batch-progress-wrap")).to_be_hidden()  # no "Starting…" left
