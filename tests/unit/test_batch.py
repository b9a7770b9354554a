"""Batch: every line present and in order, dedupe by equivalence, CSV/JSONL, streaming
(BatchJob, the page's batch: test_batch_job.py)."""

from __future__ import annotations

import csv
import io
import itertools
import json
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

import doiname as d
from doiname import record_starts
from doiname.batch import (
    CSV_COLUMNS,
    MATCH_COLUMNS,
    BatchJob,
    BatchRow,
    BatchSession,
    BatchSummary,
    iter_batch_rows,
    iter_line_matches,
    write_csv,
    write_jsonl,
    write_matches_csv,
    write_matches_jsonl,
)
from doiname.extract import extract
from doiname.inspection import one_per_name
from doiname.model import Doi, Finding
from doiname.record_starts import REFERENCE_KINDS
from doiname.records import iter_records

from .batch_cases import FIXTURES, LIST, rows_of


def test_every_line_in_order_with_a_status() -> None:
    rows = rows_of(LIST)
    assert [r.line for r in rows] == [1, 2, 3, 4, 5, 5, 6, 7, 8, 9, 9, 10]
    assert [r.status for r in rows] == [
        "no-doi", "ok", "no-doi", "duplicate", "ok", "ok", "duplicate", "error", "error",
        "warning", "ok", "duplicate",  # check() warns about the KELVIN SIGN
    ]
    for r in rows:
        assert r.input == LIST[r.line - 1]


def test_dedupe_by_equivalence_key() -> None:
    rows = rows_of(LIST)
    dup = {r.line: r.duplicate_of for r in rows if r.status == "duplicate"}
    assert dup == {4: 2, 6: 5, 10: 9}
    nine = [r for r in rows if r.line == 9]
    assert [r.doi for r in nine] == ["10.1000/\u212a", "10.1000/k"]
    assert all(r.duplicate_of is None for r in nine)
    ten = rows[-1]
    assert d.equivalence_key(ten.doi or "") == d.equivalence_key(nine[1].doi or "")


def test_doi_url_uri_and_span() -> None:
    row = rows_of(["LeCun et al. 2015 https://doi.org/10.1038/nature14539."])[0]
    assert row.doi == "10.1038/nature14539"
    assert row.url == d.to_url("10.1038/nature14539") == "https://doi.org/10.1038/nature14539"
    assert row.uri == d.to_uri("10.1038/nature14539") == "doi:10.1038/nature14539"
    assert row.text == "https://doi.org/10.1038/nature14539" and row.form == "url"
    assert row.input[row.start:row.end] == row.text
    sici = rows_of(["10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O"])[0]
    assert sici.url == d.to_url(d.parse(sici.doi or ""))
    assert "%3C693" in (sici.url or "") and sici.uri == d.to_uri(d.parse(sici.doi or ""))


def test_error_rows_keep_the_raw_name_and_the_error() -> None:
    row = rows_of(["bad: 10.1234/50%zz"])[0]
    assert row.status == "error" and row.doi == "10.1234/50%zz"
    assert row.url is None and row.uri is None and row.duplicate_of is None
    assert [f.code for f in row.findings] == ["bad-percent"]
    assert row.findings[0].severity == "error"


def test_findings_of_extraction_and_of_check_are_both_there() -> None:
    row = rows_of(["see 10.1000/a\u200bb\u2010c."])[0]
    codes = [f.code for f in row.findings]
    assert "zero-width-dropped" in codes and "trailing-punctuation" in codes
    from_check = [f for f in row.findings if f.in_name]
    assert from_check == [f for f in d.check(d.Doi("10.1000", "ab\u2010c"))
                          if f.code not in {"zero-width-dropped", "trailing-punctuation"}]
    assert row.status in ("warning", "error")


def test_status_precedence_with_a_given_checker() -> None:
    def warn_on_x(doi: Doi) -> list[Finding]:
        if "x" in doi.suffix:
            return [Finding("test-warning", "warning", "has x", 0, 1)]
        return []

    rows = list(iter_batch_rows(["10.1000/x1", "10.1000/X1", "10.1000/y"],
                                BatchSession(check=warn_on_x)))
    # a duplicate is a duplicate even with a warning; the first one is a warning
    assert [r.status for r in rows] == ["warning", "duplicate", "ok"]


def test_summary_counts() -> None:
    session = BatchSession()
    rows = list(iter_batch_rows(LIST, session))
    s = session.summary
    assert (s.lines, s.dois, s.unique, s.duplicates, s.errors, s.no_doi) == (10, 10, 5, 3, 2, 2)
    assert s.warnings == 1
    assert s.dois == s.unique + s.duplicates + s.errors
    assert s.lines == len(LIST) == len({r.line for r in rows})
    again = BatchSummary()
    for r in rows:
        again.add(r)
    assert again == s
    assert "10 lines, 10 DOIs: 5 unique" in str(s)
    assert s.as_dict()["no_doi"] == 2


def test_line_breaks_are_not_part_of_the_input() -> None:
    rows = rows_of(["10.1000/182\r\n", "10.1000/183\n", "plain\n"])
    assert [r.input for r in rows] == ["10.1000/182", "10.1000/183", "plain"]
    assert [r.doi for r in rows] == ["10.1000/182", "10.1000/183", None]


# ----------------------------------------------------------------------------- writers


def test_csv_content() -> None:
    buf = io.StringIO(newline="")
    summary = write_csv(iter_batch_rows(LIST), buf)
    table = list(csv.reader(io.StringIO(buf.getvalue(), newline="")))
    assert tuple(table[0]) == CSV_COLUMNS
    body = [dict(zip(CSV_COLUMNS, r, strict=True)) for r in table[1:]]
    assert len(body) == 12
    assert body[1]["line"] == "2" and body[1]["doi"] == "10.1038/nature14539"
    assert body[1]["url"] == "https://doi.org/10.1038/nature14539"
    assert body[1]["uri"] == "doi:10.1038/nature14539" and body[1]["status"] == "ok"
    assert body[3]["status"] == "duplicate" and body[3]["duplicate_of"] == "2"
    assert body[0]["status"] == "no-doi" and body[0]["doi"] == "" and body[0]["start"] == ""
    assert body[7]["status"] == "error" and body[7]["findings"].startswith("error bad-percent: ")
    assert body[4]["input"] == body[5]["input"] == "10.1000/182, 10.1000/183"
    assert buf.getvalue().endswith("\r\n")
    assert summary.dois == 10 and summary.lines == 10


def test_rows_kept_as_dicts_write_the_same_csv() -> None:
    rows = rows_of(LIST)
    dicts = json.loads(json.dumps([r.as_dict() for r in rows]))  # as the page holds them
    assert [BatchRow.from_dict(x) for x in dicts] == rows
    a, b = io.StringIO(newline=""), io.StringIO(newline="")
    write_csv(rows, a)
    write_csv(map(BatchRow.from_dict, dicts), b)
    assert a.getvalue() == b.getvalue()
    with pytest.raises(ValueError):
        BatchRow.from_dict({**dicts[0], "status": "fine"})


def test_csv_cells_that_a_spreadsheet_would_run_are_defused() -> None:
    lines = ['=HYPERLINK("http://evil.example","x") 10.1000/182', "-10.1000/183", "@x"]
    buf = io.StringIO(newline="")
    write_csv(iter_batch_rows(lines), buf)
    table = list(csv.reader(io.StringIO(buf.getvalue(), newline="")))
    at = CSV_COLUMNS.index("input")
    assert [r[at] for r in table[1:]] == ["'" + lines[0], "'" + lines[1], "'@x"]
    raw = io.StringIO(newline="")
    write_csv(iter_batch_rows(lines), raw, spreadsheet_safe=False, header=False)
    assert next(csv.reader(io.StringIO(raw.getvalue(), newline="")))[at] == lines[0]


def test_csv_starts_with_the_columns_people_read() -> None:
    assert CSV_COLUMNS[:7] == ("line", "record", "status", "doi", "url", "duplicate_of",
                               "findings")


def test_jsonl_content() -> None:
    buf = io.StringIO()
    summary = write_jsonl(iter_batch_rows(LIST), buf)
    objs = [json.loads(line) for line in buf.getvalue().splitlines()]
    assert len(objs) == 12 == summary.dois + summary.no_doi
    assert all(tuple(o) == CSV_COLUMNS for o in objs)
    assert objs[3]["status"] == "duplicate" and objs[3]["duplicate_of"] == 2
    assert objs[0]["doi"] is None and objs[0]["findings"] == []
    err = objs[7]
    assert err["findings"][0]["code"] == "bad-percent" and err["findings"][0]["in_name"] is False
    assert objs[9]["doi"] == "10.1000/\u212a"  # written as UTF-8, not escaped


def test_extract_stream_and_writers() -> None:
    lines = ["a 10.1000/182 b doi:10.1000/183.", "none", "10.1234/50%zz"]
    items = list(iter_line_matches(lines))
    assert [(n, str(m.doi)) for n, m in items] == [
        (1, "10.1000/182"), (1, "10.1000/183"), (3, "10.1234/50%zz")]
    buf = io.StringIO(newline="")
    assert write_matches_csv(iter(items), buf) == 3
    table = list(csv.reader(io.StringIO(buf.getvalue(), newline="")))
    assert tuple(table[0]) == MATCH_COLUMNS
    assert table[2][:7] == ["1", "16", "31", "10.1000/183", "doi:10.1000/183", "doi-uri", "true"]
    assert table[3][6] == "false"
    out = io.StringIO()
    assert write_matches_jsonl(iter(items), out) == 3
    first = json.loads(out.getvalue().splitlines()[0])
    assert tuple(first) == MATCH_COLUMNS and first["start"] == 2 and first["ok"] is True


# --------------------------------------------------------------------- chunks, streaming


def test_chunks_give_the_same_rows_as_one_stream() -> None:
    lines = [line for p in sorted(FIXTURES.glob("*")) if ".expected." not in p.name
             for line in p.read_text(encoding="utf-8").splitlines()] * 3
    whole = [r.as_dict() for r in iter_batch_rows(lines)]
    job = BatchJob("\n".join(lines))
    session = job.session
    chunked: list[dict[str, object]] = []
    while not job.done:
        chunked.extend(job.step(max_lines=7, budget=10.0)["rows"])
    assert chunked == whole
    assert session.next_line == len(lines) + 1
    assert session.summary.duplicates > 0
    assert json.loads(json.dumps(chunked)) == chunked


@pytest.mark.parametrize("path", sorted(p for p in FIXTURES.iterdir()
                                         if ".expected." not in p.name), ids=lambda p: p.name)
def test_fixture_files_through_the_batch(path: Path) -> None:
    """Records, not lines. Every record (a BibTeX entry, a RIS, MEDLINE, Refer or Web of
    Science record, a line of plain text) gives its rows, on the lines inside it, and the
    names its text holds (one row per name in a structured record, but for a Web of
    Science record's cited references)."""
    with path.open(encoding="utf-8", newline="") as fp:
        rows = list(iter_batch_rows(fp))
    text = path.read_text(encoding="utf-8")
    records = [r for r in iter_records(text.splitlines()) if r.kind != "structure"]
    assert sum(len(r.lines) for r in iter_records(text.splitlines())) == len(
        text.splitlines())
    want: list[str] = []
    for rec in records:
        mine = [r for r in rows if rec.first_line <= r.line <= rec.last_line]
        assert mine, rec  # every record has a row
        cited = record_starts.cited_lines(rec.lines) if rec.kind == "wos" else range(0)
        text_read = "\n".join(x for i, x in enumerate(rec.lines) if i not in cited)
        # (a record's cited works: no rows; a name written twice in a text: one)
        names = [str(m.doi) for m in one_per_name(extract(text_read))]
        if rec.kind in REFERENCE_KINDS:  # one row per name in a reference
            names = list(dict.fromkeys(d.equivalence_key(n) for n in names))
            assert [d.equivalence_key(r.doi or "") for r in mine if r.status != "no-doi"] \
                == names
            assert all(r.record == rec.label for r in mine)
        else:
            assert [r.doi for r in mine if r.status != "no-doi"] == names
        want.extend(names)
    assert len([r for r in rows if r.status != "no-doi"]) == len(want)
    if path.suffix in (".bib", ".ris", ".nbib", ".enw") or path.name == "wos.txt":
        assert len(rows) < len(text.splitlines()) / 2  # far fewer rows than lines


def test_streaming_consumes_lazily() -> None:
    consumed = 0

    def endless() -> Iterator[str]:
        nonlocal consumed
        for i in itertools.count():
            consumed += 1
            yield f"item {i}: https://doi.org/10.1000/{i % 50}x"

    rows = iter_batch_rows(endless())
    first = list(itertools.islice(rows, 120))
    assert consumed == 121  # the next line is read: it might go on with the 120th
    assert [r.line for r in first] == list(range(1, 121))
    assert [r.status for r in first[:50]] == ["ok"] * 50
    assert all(r.status == "duplicate" for r in first[50:])
    assert first[50].duplicate_of == 1
    assert consumed == 121  # nothing read ahead but that one line


def test_memory_does_not_grow_with_the_input() -> None:
    def lines(n: int) -> Iterator[str]:
        for i in range(n):
            yield f"{i}. Some title, 2020. https://doi.org/10.1000/{i % 20}x and more text"

    def peak(n: int) -> int:
        tracemalloc.start()
        try:
            summary = write_jsonl(iter_batch_rows(lines(n)), _NullWriter())
        finally:
            _, top = tracemalloc.get_traced_memory()
            tracemalloc.stop()
        assert summary.lines == n
        return top

    small, large = peak(500), peak(8000)
    # 16x the lines; rows kept in memory would take about 16x the space
    assert large < 2 * small + 200_000, (small, large)


class _NullWriter(io.StringIO):
    def write(self, s: str) -> int:
        return len(s)


def test_a_wrapped_reference_is_one_row_with_the_whole_reference_as_input() -> None:
    """A list copied from a PDF: each reference's link or the rest of its name on the next
    line; one row per reference, its input the whole reference, on its first line."""
    text = ("Smith, J., & Doe, K. (2020). Deep learning of things. Nature, 521(7553),\n"
            "436-444.\nhttps://doi.org/10.1038/nature14539\n"
            "Roe, A. (2019). A study without a DOI. Science, 1(2), 3-4.\n\n"
            "Poe E. Angew Chem. 2020. doi:10.1002/anie.2020\n12345\n"
            "Moe F. Title. BMJ. 2019;1:2. https://doi.org/10.1038/NATURE14539\n")
    rows = rows_of(text.splitlines(True))
    assert [(r.line, r.status) for r in rows] == [(1, "ok"), (4, "no-doi"), (5, "no-doi"),
                                                 (6, "warning"), (8, "duplicate")]
    assert rows[0].input == ("Smith, J., & Doe, K. (2020). Deep learning of things. Nature, "
                             "521(7553),\n436-444.\nhttps://doi.org/10.1038/nature14539")
    assert rows[0].doi == "10.1038/nature14539" and rows[4].duplicate_of == 1
    assert rows[0].input[rows[0].start:rows[0].end] == "https://doi.org/10.1038/nature14539"
    # the name cut by the line break: the split-name rule offers it joined
    assert rows[3].doi == "10.1002/anie.2020" and rows[3].input.endswith("anie.2020\n12345")
    assert "10.1002/anie.202012345" in rows[3].alternatives
    assert all(r.doi != "12345" for r in rows)
    # the CSV has the same rows: the input cell holds the reference's line breaks
    buf = io.StringIO(newline="")
    write_csv(iter_batch_rows(text.splitlines(True)), buf)
    table = list(csv.reader(io.StringIO(buf.getvalue(), newline="")))
    body = [dict(zip(CSV_COLUMNS, r, strict=True)) for r in table[1:]]
    assert [(b["line"], b["input"]) for b in body] == [(str(r.line), r.input) for r in rows]


def test_a_final_period_gives_the_verdict_inspect_gives() -> None:
    """The right reading is no warning in Batch either: the final "." that ends the
    sentence is a note in Inspect's words, the literal reading kept as the alternative."""
    text = "doi: 10.1016/S0140-6736(20)30183-5."
    (row,) = rows_of([text])
    found = d.inspect(text)
    assert found.headline is not None
    assert row.status == "ok" and row.doi == "10.1016/S0140-6736(20)30183-5"
    (note,) = row.findings
    assert note.code == "trailing-punctuation" and note.severity == "info"
    assert note.message.startswith(found.headline.said)
    assert row.alternatives == ("10.1016/S0140-6736(20)30183-5.",)
    # a colon after a name: the same, in its words
    (row,) = rows_of(["see 10.1000/182: and"])
    assert row.status == "ok" and row.findings[0].message.startswith(
        "The final “:” was left out: it is punctuation after the name.")


def test_a_list_given_as_one_text_is_read_by_its_lines() -> None:
    """A ``str`` is the text of a whole list (broken as a file's text is), never one
    character a line: the rows and the matches of its lines."""
    from doiname.batch import iter_line_matches

    text = "10.1000/1\r\nsee 10.1000/2\rno name here\n\n10.1000/3"
    lines = ["10.1000/1", "see 10.1000/2", "no name here", "", "10.1000/3"]

    def rows(given: str | list[str]) -> list[tuple[int, str, str | None]]:
        return [(r.line, r.status, r.doi) for r in iter_batch_rows(given)]

    assert rows(text) == rows(lines)
    assert [r[2] for r in rows(text)] == ["10.1000/1", "10.1000/2", None, None, "10.1000/3"]
    assert [(n, str(m.doi)) for n, m in iter_line_matches(text)] == \
        [(1, "10.1000/1"), (2, "10.1000/2"), (5, "10.1000/3")]
