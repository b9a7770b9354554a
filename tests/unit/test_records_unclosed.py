"""Records that never close: a BibTeX entry whose brace is missing, a RIS or Web of
Science record without its ``ER``, a JSON object that runs on. One the next of its kind
starts before it closes ends there; one the text ends in, or that runs past the bounds,
gives its lines back one by one. Either way the first row says so."""

from __future__ import annotations

import pytest

from doiname.batch import BatchSession, iter_batch_rows
from doiname.records import RECORD_MAX_LINES, iter_records

from .test_records import kinds


@pytest.mark.parametrize(("lines", "closed"), [
    # a BibTeX field's brace never closed (HALLMARK's "Man{\\'e" author, cut short)
    (["@inproceedings{amodei,", "  author = {Dario Amodei and Man{\\'e},",
      "  doi = {10.48550/arXiv.1606.06565},", "}", "@misc{next,", "  doi = {10.1000/2}", "}"],
     ["@misc{next,", "  doi = {10.1000/2}", "}"]),
    (["TY  - JOUR", "TI  - First", "DO  - 10.1000/1", "TY  - JOUR", "DO  - 10.1000/2",
      "ER  - "], ["TY  - JOUR", "DO  - 10.1000/2", "ER  - "]),  # its "ER  -" missing
    (["PT J", "TI First", "DI 10.1000/1", "PT J", "DI 10.1000/2", "ER"],
     ["PT J", "DI 10.1000/2", "ER"]),
])
def test_a_record_the_next_one_starts_before_it_closes_ends_there(
        lines: list[str], closed: list[str]) -> None:
    first, second = iter_records(lines)
    assert first.unclosed and first.lines == tuple(lines[:len(lines) - len(closed)])
    assert not second.unclosed and second.lines == tuple(closed) and second.kind == first.kind
    rows = list(iter_batch_rows(lines))
    (note,) = [f for f in rows[0].findings if f.code == "unclosed-record"]
    assert note.severity == "warning" and rows[0].status == "warning"
    assert "(line 1) never closes" in note.message
    assert f"on line {first.last_line + 1}, so it was read up to there" in note.message
    assert rows[-1].doi == "10.1000/2" and rows[-1].findings == ()


@pytest.mark.parametrize(("lines", "what"), [
    (["@article{x,", "  doi = {10.1000/1},"], "BibTeX entry"),  # the text ends first
    (["TY  - JOUR", "DO  - 10.1000/1"], "RIS record"),
    (['{"doi": "10.1000/1",', '"a": 1'], "JSON object"),
    (["@article{open,"] + ["  x = 1,"] * RECORD_MAX_LINES + ["10.1000/1"], "BibTeX entry"),
])
def test_a_line_whose_record_never_closes_says_so(lines: list[str], what: str) -> None:
    got = list(iter_records(lines))
    assert got[0].kind == "line" and got[0].unclosed
    assert not any(r.unclosed for r in got[1:])
    rows = list(iter_batch_rows(lines))
    (note,) = [f for f in rows[0].findings if f.code == "unclosed-record"]
    assert f"This line opens a {what} that never closes" in note.message
    assert note.severity == "warning"
    # (a JSON object's first line holds the name: its row is a warning, not OK)
    assert rows[0].status == ("warning" if rows[0].doi else "no-doi")
    assert [r.doi for r in rows if r.doi] == ["10.1000/1"]
    assert all(f.code != "unclosed-record" for r in rows[1:] for f in r.findings)


def test_lines_that_open_no_record_of_its_kind_do_not_end_one() -> None:
    # "@" text, another kind's first line, a MEDLINE start (its kind ends at a blank line)
    lines = ["@article{k,", "  note = {@SUM(1)", "@SUM(1) x}", "PMID- 1", "TY  - JOUR x",
             "  doi = {10.1000/1}}"]
    assert kinds(lines) == [(1, 6, "bibtex", "k")]
    assert not next(iter(iter_records(lines))).unclosed
    (row,) = iter_batch_rows(lines)
    assert row.status == "ok" and row.findings == ()


def test_a_csv_row_whose_quote_never_closes_says_so() -> None:
    rows = list(BatchSession(hint="csv").iter_rows(['a,"b 10.1000/1', "c"]))
    (note,) = rows[0].findings
    assert note.code == "unclosed-record" and rows[0].status == "warning"
    assert note.message.startswith("This line opens a CSV row that never closes (the quote")
