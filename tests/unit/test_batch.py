"""Batch: every line present and in order, dedupe by equivalence, CSV/JSONL, streaming."""

from __future__ import annotations

import csv
import io
import itertools
import json
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import doiname as d
from doiname.batch import (
    CSV_COLUMNS,
    MATCH_COLUMNS,
    BatchJob,
    BatchRow,
    BatchSession,
    BatchSummary,
    count_lines,
    iter_batch_rows,
    iter_line_matches,
    write_csv,
    write_json,
    write_jsonl,
    write_matches_csv,
    write_matches_jsonl,
)
from doiname.extract import extract
from doiname.model import Doi, Finding
from doiname.records import iter_records

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "references"

LIST = [
    "Reading list, week 3",                                    # 1 no DOI
    "LeCun et al. 2015 https://doi.org/10.1038/nature14539",   # 2
    "",                                                        # 3 empty
    "doi:10.1038/NATURE14539",                                 # 4 duplicate of 2 (Basic Latin case)
    "10.1000/182, 10.1000/183",                                # 5 two DOIs
    "https://doi.org/10.1000/%31%38%32",                       # 6 duplicate of 5 (percent-decoded)
    "bad: 10.1234/50%zz",                                      # 7 error
    "bad again: 10.1234/50%zz",                                # 8 error, never a duplicate
    "Kelvin: 10.1000/\u212a and 10.1000/k",                    # 9 two names, not equivalent (003)
    "10.1000/K",                                               # 10 duplicate of the second in 9
]


def rows_of(lines: list[str]) -> list[BatchRow]:
    return list(iter_batch_rows(lines))


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
    assert [r[1] for r in table[1:]] == ["'" + lines[0], "'" + lines[1], "'@x"]
    raw = io.StringIO(newline="")
    write_csv(iter_batch_rows(lines), raw, spreadsheet_safe=False, header=False)
    assert next(csv.reader(io.StringIO(raw.getvalue(), newline="")))[1] == lines[0]


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
    """Records, not lines. Every record (a BibTeX entry, a RIS record, a line of
    plain text) gives its rows, on the lines inside it, and the names its text holds (one
    row per name in a structured record)."""
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
        names = [str(m.doi) for m in extract(rec.text)]
        if rec.kind in ("bibtex", "ris", "json"):  # one row per name in a reference
            names = list(dict.fromkeys(d.equivalence_key(n) for n in names))
            assert [d.equivalence_key(r.doi or "") for r in mine if r.status != "no-doi"] \
                == names
            assert all(r.record == rec.key for r in mine)
        else:
            assert [r.doi for r in mine if r.status != "no-doi"] == names
        want.extend(names)
    assert len([r for r in rows if r.status != "no-doi"]) == len(want)
    if path.suffix in (".bib", ".ris"):
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
    assert consumed == 120
    assert [r.line for r in first] == list(range(1, 121))
    assert [r.status for r in first[:50]] == ["ok"] * 50
    assert all(r.status == "duplicate" for r in first[50:])
    assert first[50].duplicate_of == 1
    assert consumed == 120  # nothing read ahead


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


# ------------------------------------------------------------------ BatchJob (the page's worker)


def run_job(text: str, max_lines: int = 3,
            budget: float = 10.0) -> tuple[BatchJob, list[dict[str, Any]]]:
    job = BatchJob(text)
    rows: list[dict[str, Any]] = []
    steps = 0
    while not job.done:
        step = job.step(max_lines, budget)
        assert step["first_row"] == len(rows)
        assert next(iter(step)) == "done"  # the worker reads `done` from the start of the JSON
        rows.extend(step["rows"])
        steps += 1
        assert steps <= len(text) + 1
    return job, rows


def test_job_steps_give_the_rows_of_the_cli_stream() -> None:
    text = "\r\n".join(LIST) + "\r\n"
    job, rows = run_job(text)
    assert rows == [r.as_dict() for r in rows_of(LIST)]
    assert job.lines_total == len(LIST) == job.lines_done
    assert job.session.summary.as_dict()["lines"] == len(LIST)


def test_job_splits_lines_as_the_cli_reads_a_file(tmp_path: Path) -> None:
    text = "10.1000/a\r10.1000/b\r\n\n10.1000/c\n\r10.1000/d"
    path = tmp_path / "list.txt"
    path.write_bytes(text.encode())
    with path.open(encoding="utf-8-sig", newline="") as fp:
        cli = [r.as_dict() for r in iter_batch_rows(fp)]
    job, rows = run_job(text)
    assert rows == cli
    assert job.lines_total == count_lines(text) == 6


@given(st.text(alphabet="ab\r\n1./", max_size=40))
def test_count_lines_matches_the_reader(text: str) -> None:
    assert count_lines(text) == len(io.StringIO(text, newline="").readlines())


def test_empty_text_is_done_at_once() -> None:
    job = BatchJob("")
    assert job.done and job.lines_total == 0
    step = job.step()
    assert step["rows"] == [] and step["done"] is True


def test_a_step_stops_at_its_time_budget() -> None:
    job = BatchJob("10.1000/x\n" * 1000)
    step = job.step(max_lines=1000, budget=0.0)
    assert 1 <= step["lines_done"] < 1000
    assert not step["done"]


def test_export_all_or_picked_rows() -> None:
    job, rows = run_job("\n".join(LIST))
    all_csv = job.export("csv")
    out = io.StringIO(newline="")
    write_csv(rows_of(LIST), out)
    assert all_csv == out.getvalue()
    picked = list(csv.reader(io.StringIO(job.export("csv", [3, 0]))))
    assert [row[0] for row in picked] == ["line", "4", "1"]
    assert json.loads(job.export("json", [1])) == [rows[1]]
    assert [json.loads(x) for x in job.export("jsonl").splitlines()] == rows
    for bad in ([len(rows)], [-1], [True], ["1"]):
        with pytest.raises(ValueError, match="no row"):
            job.export("csv", bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown export format"):
        job.export("xlsx")


def test_write_json_is_one_array() -> None:
    out = io.StringIO()
    summary = write_json(rows_of(LIST), out)
    data = json.loads(out.getvalue())
    assert [BatchRow.from_dict(x) for x in data] == rows_of(LIST)
    assert summary.lines == len(LIST)
    out = io.StringIO()
    write_json([], out)
    assert json.loads(out.getvalue()) == []


def test_the_status_a_verdict_gives_is_one_rule_for_the_export_and_the_page() -> None:
    """The export (``_with_verdict``) and the page (``batch_open``'s statuses, read as a
    table by web/src/views/batch/model.js) follow ``status_after``; a duplicate, an error
    and a shortDOI keep their status, a readable name takes not-found or unreachable."""
    from doiname.batch.rows import RESOLVED_STATUSES, status_after
    from doiname.bridge.jobs import BATCH_STATUSES

    job, rows = run_job("10.1000/ABC\ndoi:10.1000/abc\n10.1000/%zz\n10/abc\n"
                        "see doi:10.1000/x.\n10.1000/gone")
    assert [r["status"] for r in rows] == [
        "ok", "duplicate", "error", "short-doi", "warning", "ok"]
    for verdict in ("resolves", "no-values", "not-found", "unreachable"):
        resolved = {0: {"outcome": "x", "verdict": verdict},
                    4: {"outcome": "x", "verdict": verdict},
                    5: {"outcome": "x", "verdict": verdict}}
        exported = [r["status"] for r in json.loads(job.export("json", resolved=resolved))]
        assert exported == [status_after(r["status"], verdict if i in resolved or
                                         r["status"] == "duplicate" else None)
                            for i, r in enumerate(rows)]
        for label in BATCH_STATUSES:
            assert label["resolve"] == (label["status"] in RESOLVED_STATUSES)
            assert label["after"].get(verdict, label["status"]) == status_after(
                label["status"], verdict)
    assert status_after("duplicate", "not-found") == "duplicate"
    assert status_after("ok", "not-found") == "not-found"
    assert status_after("warning", "unreachable") == "unreachable"
    assert status_after("ok", "resolves") == "ok"


def test_export_with_resolutions_reaches_the_duplicates() -> None:
    job, rows = run_job("10.1000/ABC\nnone\ndoi:10.1000/abc\n10.1000/%zz\n10.1000/other")
    assert [r["status"] for r in rows] == ["ok", "no-doi", "duplicate", "error", "ok"]
    resolved = {0: {"outcome": "ok", "url": "https://example.org/a"},
                4: {"outcome": "not-found", "url": None}}
    table = list(csv.reader(io.StringIO(job.export("csv", resolved=resolved))))
    assert table[0][-2:] == ["resolution", "resolves_to"]
    assert [row[-2:] for row in table[1:]] == [
        ["ok", "https://example.org/a"], ["", ""], ["ok", "https://example.org/a"],
        ["", ""], ["not-found", ""]]
    data = json.loads(job.export("json", [2], resolved=resolved))
    assert data[0]["resolution"] == "ok" and data[0]["resolves_to"] == "https://example.org/a"
    with pytest.raises(ValueError, match="no row"):
        job.export("csv", resolved={9: {"outcome": "ok"}})
    # Without resolutions the columns are the CLI's.
    assert next(csv.reader(io.StringIO(job.export("csv")))) == list(CSV_COLUMNS)


def test_a_very_long_line_gives_small_rows() -> None:
    """A minified JSON file is one line: its rows carry an excerpt, not the whole line."""
    from doiname.batch import INPUT_CONTEXT, INPUT_LIMIT

    items = [f'{{"doi":"10.1000/j{i}","title":"{"x" * 50}"}}' for i in range(1000)]
    line = "[" + ",".join(items) + "]"  # 84,000 characters: under the bound of a line
    rows = rows_of([line])
    assert [r.doi for r in rows] == [f"10.1000/j{i}" for i in range(1000)]
    for r in rows:
        assert r.start is not None and r.end is not None
        assert len(r.input) <= 2 * INPUT_CONTEXT + (r.end - r.start) + 2
        assert line[r.start:r.end] == r.text and r.text in r.input
    assert rows[0].input.startswith("[") and rows[0].input.endswith("…")
    assert rows[-1].input.startswith("…") and rows[-1].input.endswith("]")
    nothing = rows_of(["y" * (INPUT_LIMIT + 5)])[0]
    assert nothing.status == "no-doi" and nothing.input == "y" * INPUT_LIMIT + "…"
    short = rows_of(["z" * INPUT_LIMIT])[0]
    assert short.input == "z" * INPUT_LIMIT
