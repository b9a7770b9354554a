"""The fast path of Batch gives exactly the rows of the general path (the oracle).

``BatchSession()`` reads plain lines without the scanner and keeps the parts of lines
seen lately; ``BatchSession(fast=False)`` reads every line by the general path
(:mod:`doiname.batch.general`). Over generated lists (plain text, records, repeated
lines and names), every fixture and every line of the benchmark, both give the same
rows: names, statuses, duplicates, findings with their positions, links, alternatives.
The rows a job keeps compactly (:class:`~doiname.batch.RowStore`) read back equal, and
the CSV cells are those of the straightforward writer.
"""

from __future__ import annotations

import csv
import dataclasses
import io
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from doiname.batch import BatchJob, BatchRow, BatchSession, RowStore, iter_batch_rows, write_csv
from doiname.batch.export import _FORMULA, csv_line, findings_cell
from doiname.batch.fast import line_name, tail_name
from doiname.batch.rows import CSV_COLUMNS, make_row
from doiname.extract import extract_general
from doiname.extract.plain import plain_names, read_plains

from .reference_text import bench_lines, fixture_lines, reference_lines, reference_lists


def rows(lines: list[str], fast: bool) -> list[BatchRow]:
    return list(iter_batch_rows(lines, BatchSession(fast=fast)))


def assert_same(lines: list[str]) -> list[BatchRow]:
    fast = rows(lines, True)
    slow = rows(lines, False)
    assert [r.as_dict() for r in fast] == [r.as_dict() for r in slow]
    assert [r.name for r in fast] == [r.name for r in slow]  # not in as_dict
    return fast


def assert_read_as_plain_names_reads_it(recognise: Callable[[str], object], line: str) -> None:
    """A one-pattern recogniser gives what :func:`~doiname.extract.plain.plain_names`
    gives, whenever it gives anything (for a name outside ASCII, which plain_names leaves
    to the scanner: the scanner's matches); and the line's rows are the general path's."""
    got = recognise(line)
    if got is not None:
        if line.isascii():
            assert got == plain_names(line)
        else:
            assert isinstance(got, list)
            assert read_plains(line, got) == extract_general(line)
    assert_same([line])


@settings(max_examples=300)
@given(reference_lists())
def test_batch_fast_path_gives_the_general_rows(lines: list[str]) -> None:
    assert_same(lines)


def test_fixtures_and_bench_lines_twice() -> None:
    lines = fixture_lines() + bench_lines()
    assert_same(lines + lines)  # the second time: duplicates, and lines seen lately


def test_links_through_the_same_head() -> None:
    """The reader's view of a link's head is kept by the head (extract.plain._read_link):
    every name behind a head seen before reads as the reader reads it, whatever the
    escapes decode to (errors, lookalikes, slashes)."""
    heads = ["https://doi-org.ezproxy.example.edu/", "http://dx-doi-org.x.edu:8080/",
             "https://doi.org.evil.com/", "https://doi-org.x.edu/login?url=https://doi.org/",
             "https://doi-org.x.edu/api/handles/", "https://dx.doi.org/", "see doi.org/",
             "https://doi.test.datacite.org/", "5doi-org.x.edu/", "https://doi.acm.org/"]
    names = ["10.1234/x%23567", "10.1234/ab%2Fc%23567", "10.12345/a%E2%80%90b", "10.1234/a%00",
             "10.1234/a%ZZ", "10.1234/%2525x", "10.1234/a%41", "10.1234/a", "10.1234/x%2F..",
             "10.1234/%EF%BF%BDx", "10.1234/a%20b", "10.1234/x%3Fy%23z"]
    lines = [head + name for head in heads for name in names]
    lines += [" " + x + " end" for x in lines]
    assert_same(lines)
    from doiname.extract import extract, extract_general

    assert [extract(x) for x in lines] == [extract_general(x) for x in lines]


def test_links_the_reader_reads_otherwise() -> None:
    """A link plain_names marks for the reader that the reader reads as the name inside
    another site's link (``in-url``): what lay before the name (a shortDOI, a ``doi``
    word) is the scanner's again (found by hypothesis)."""
    assert_same(["https://doi.org/10/abcdedoi:10.1000/182 ",
                 "https://doi-org.ezproxy.example.edu/10.1234/x%23567",
                 "see https://doi-org.ezproxy.example.edu/10.1234/ab%2Fc%23567 x",
                 "https://doi-org.ezproxy.example.edu/10.1234/%EF%BF%BDx",
                 "https://doi-org.ezproxy.example.edu/10.1234/%ZZx",
                 "DOI: 10.1234/a%23b", "doi:10.1234/a%2523b 10.5555/c%2Fd"])


def test_a_custom_checker_is_always_asked() -> None:
    calls: list[str] = []

    def check(doi: object) -> list[object]:
        calls.append(str(doi))
        return []

    list(iter_batch_rows(["10.1234/abc", "https://doi.org/10.5555/x"],
                         BatchSession(check=check)))  # type: ignore[arg-type]
    assert calls == ["10.1234/abc", "10.5555/x"]


@settings(max_examples=80)
@given(reference_lists())
def test_the_store_gives_back_every_row(lines: list[str]) -> None:
    made = rows(lines, True)
    store = RowStore()
    for row in made:
        store.add(row, row.input)  # the input of a short line is the line itself
    assert list(store) == made
    assert [r.name for r in store] == [r.name for r in made]


def test_the_store_of_a_job_gives_back_every_row() -> None:
    lines = fixture_lines() + bench_lines(700)
    job = BatchJob("\n".join(lines))
    made: list[dict[str, object]] = []
    while not job.done:
        made.extend(job.step(max_lines=997, budget=10.0)["rows"])
    assert [r.as_dict() for r in job.rows] == made
    assert made == [r.as_dict() for r in iter_batch_rows(lines)]


def test_make_row_is_an_ordinary_batch_row() -> None:
    fields = dict(line=3, input="x 10.1/ab", status="ok", doi="10.1/ab", url="u", uri="v",
                  findings=(), duplicate_of=None, start=2, end=9, text="10.1/ab", form="name",
                  api_url="a", alternatives=(), record=None, name=None)
    made = make_row(*fields.values())  # type: ignore[arg-type]
    assert type(made) is BatchRow and made == BatchRow(**fields)  # type: ignore[arg-type]
    assert hash(made) == hash(BatchRow(**fields))  # type: ignore[arg-type]
    assert dataclasses.replace(made, status="duplicate").status == "duplicate"
    try:
        made.line = 4  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError("a row is frozen")


def _reference_csv(rows_: list[BatchRow]) -> str:
    """The CSV written the straightforward way: every text cell through the pattern."""
    def cell(value: str) -> str:
        return "'" + value if _FORMULA.match(value) else value

    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for r in rows_:
        writer.writerow((
            r.line, cell(r.record or ""), r.status, cell(r.doi or ""), r.url or "",
            "" if r.duplicate_of is None else r.duplicate_of, cell(findings_cell(r.findings)),
            cell(r.input), r.uri or "", "" if r.start is None else r.start,
            "" if r.end is None else r.end, cell(r.text or ""), r.form or "",
            r.api_url or "", cell(" | ".join(r.alternatives))))
    return out.getvalue()


@settings(max_examples=80)
@given(reference_lists())
def test_csv_cells_are_those_of_the_straightforward_writer(lines: list[str]) -> None:
    made = rows([*lines, "=1+1", " @x 10.1000/1", "\t10.1000/2", "-10.1000/3", "＝10.1000/4"],
                True)
    out = io.StringIO(newline="")
    write_csv(made, out)
    assert out.getvalue() == _reference_csv(made)


@settings(max_examples=80)
@given(reference_lists())
def test_a_streams_csv_is_that_of_its_rows(lines: list[str]) -> None:
    """``write_csv(iter_batch_rows(...))`` reads the stream's tuples without making rows:
    the same text, the same counts, in the session and in what the writer returns."""
    lines = [*lines, "=1+1", " @x 10.1000/1", "\t10.1000/2", "-10.1000/3", "＝10.1000/4"]
    session = BatchSession()
    out = io.StringIO(newline="")
    counted = write_csv(iter_batch_rows(lines, session), out)
    made = rows(lines, True)
    assert out.getvalue() == _reference_csv(made)
    again = BatchSession()
    listed = write_csv(list(iter_batch_rows(lines, again)), io.StringIO(newline=""))
    assert counted == listed and counted.as_dict() == listed.as_dict()
    assert session.summary.as_dict() == again.summary.as_dict()
    unsafe = io.StringIO(newline="")
    write_csv(iter_batch_rows(lines), unsafe, spreadsheet_safe=False)
    plain = io.StringIO(newline="")
    write_csv(made, plain, spreadsheet_safe=False)
    assert unsafe.getvalue() == plain.getvalue()


def test_a_stream_read_partly_then_written_gives_each_row_once() -> None:
    lines = bench_lines(50)
    stream = iter_batch_rows(lines)
    first = [next(stream), next(stream)]
    out = io.StringIO(newline="")
    write_csv(stream, out, header=False)
    whole = io.StringIO(newline="")
    write_csv(rows(lines, True)[2:], whole, header=False)
    assert out.getvalue() == whole.getvalue()
    assert [r.line for r in first] == [1, 2]


_CELL = st.one_of(st.integers(), st.text(), st.sampled_from(
    ["", ",", '"', "\r\n", "a,b", 'say "x"', "\x00", " lead", "tail ", "\n", "\r", "'=1"]))


@settings(max_examples=400)
@given(st.lists(_CELL, max_size=17))
def test_csv_line_is_the_csv_modules_row(cells: list[object]) -> None:
    """:func:`~doiname.batch.export.csv_line` (string operations) writes exactly what the
    csv module writes for the same cells (the oracle of the fast CSV writer)."""
    out = io.StringIO(newline="")
    csv.writer(out, lineterminator="\r\n").writerow(cells)
    assert csv_line(tuple(cells)) == out.getvalue()


@settings(max_examples=400)
@given(st.one_of(st.text(), st.sampled_from(
    ["[1] Doe A. 10.1000/x", "[", "[ ]", "[],", " [", "TY  - JOUR", "The end", "T", "@article{x,",
     "{\"id\": 1}", '"a"', "[\"x\", 1]"]).flatmap(
        lambda s: st.builds(lambda t: s + t, st.text(max_size=5)))),
    st.sampled_from([None, "csv"]))
def test_the_groupers_shortcut_is_what_it_would_make(line: str, hint: str | None) -> None:
    """A line ``RecordGrouper.add`` holds as plain text (the next line may go on with it)
    is the record of one ``line`` the general grouping (``_take``) makes of it."""
    from doiname.records import Record, RecordGrouper

    grouper = RecordGrouper(hint=hint)
    held: list[Record | str] = []
    grouper.add(line, held)
    if not held and grouper._held:
        grouper.finish(held)
        assert held == [line]
        out: list[Record | str] = []
        RecordGrouper(hint=hint)._take(1, line, out)
        assert out == [Record(1, (line,), "line")]


@settings(max_examples=500)
@given(st.one_of(reference_lines(), st.builds(
    lambda lead, head, reg, suffix, tail: f"{lead}{head}10.{reg}/{suffix}{tail}",
    st.sampled_from(["", " ", "\t", "  "]),
    st.sampled_from(["", "https://doi.org/", "http://dx.doi.org/", "https://doi-org.x.edu/",
                     "doi:", "DOI: ", "DOI ", "Doi:\t", "doi:  ", "DOI:       ", "DOI:        ",
                     "xdoi:", "DOI:: ", "doi: \u00a0", "doi ："]),
    st.integers(0, 10**10), st.one_of(
        st.from_regex(r"[A-Za-z0-9_/.\-]{1,120}", fullmatch=True),
        st.lists(st.sampled_from([*"aZ0_/.-", "é", "ß", "²", "٣", "东", "ǅ", "ı", "\u0301",
                                  "\u200b", "\u00a0", "\u2010", "(", "%C3%A9", "…"]),
                 min_size=1, max_size=40).map("".join)),
    st.sampled_from(["", " ", "\t", ".", "/full", "-"]))))
def test_a_line_that_is_one_name_is_read_as_plain_names_reads_it(line: str) -> None:
    """:func:`~doiname.batch.fast.line_name` (one pattern) gives what
    :func:`~doiname.extract.plain.plain_names` gives, whenever it gives anything."""
    assert_read_as_plain_names_reads_it(line_name, line)


@settings(max_examples=500)
@given(st.one_of(reference_lines(), st.builds(
    lambda pre, head, reg, suffix, tail: f"{pre}{head}10.{reg}/{suffix}{tail}",
    st.one_of(st.text(max_size=30), st.sampled_from(
        ["Smith, J. (2019). J, 12(3), 45-67. ", "[12] Doe A. 2018;5:1-9. ", "x", "a 10.5 b ",
         "see doi ", "10/abc ", "Dói ", "İ ", "a &amp; b ", "\u200b ", "«x» ", "1", "\t"])),
    st.sampled_from(["https://doi.org/", "http://dx.doi.org/", "doi:", "DOI:", "Doi:",
                     "https://doi-org.x.edu/", "doi: ", "hdl:"]),
    st.integers(0, 10**10), st.from_regex(r"[A-Za-z0-9_/.\-]{1,110}", fullmatch=True),
    st.sampled_from(["", " ", "\t", ".", "/full", "-", " x"]))))
def test_a_line_ending_in_one_link_is_read_as_plain_names_reads_it(line: str) -> None:
    """:func:`~doiname.batch.fast.tail_name` gives what
    :func:`~doiname.extract.plain.plain_names` gives, whenever it gives anything."""
    assert_read_as_plain_names_reads_it(tail_name, line)


_LINK_HEADS = ["https://doi-org.ezproxy.example.edu/", "http://dx-doi-org.x.edu:8080/",
               "https://doi.org/", "http://dx.doi.org/", "HTTPS://DOI.ORG/", "https://doi.org.evil.com/",
               "https://x10.edu/", "https://doi.test.datacite.org/", "https://doi.acm.org/",
               "https://10.0.0.1/", "https://a-b.c/", "", "doi:", "DOI: ", "doi: ", "Doi "]
#: Pieces of a suffix: plain characters, brackets, escapes of characters in and outside the
#: Crossref set, of a "%", a space, a control, a slash, of UTF-8 and of bad bytes.
_LINK_PIECES = ["a", "Z", "0", "9", ".", "-", "_", "/", "x", "%23", "%3C", "%3E", "%7B", "%41",
                "%2F", "%25", "%20", "%00", "%3B", "%28", "%E2%80%90", "%C3%A9", "%FF", "%2",
                "#", "..", "/full", "/pdf", "%5C", "%26", "(", ")", "(20)", "(a.b)", "()"]


def _link_lines() -> st.SearchStrategy[str]:
    return st.builds(
        lambda head, reg, pieces, tail: f"{head}10.{reg}/{''.join(pieces)}{tail}",
        st.sampled_from(_LINK_HEADS), st.sampled_from(["1234", "12345", "123456789", "1"]),
        st.lists(st.sampled_from(_LINK_PIECES), min_size=1, max_size=40),
        st.sampled_from(["", " ", "\t ", ".", " x", "\u00a0"]))


@settings(max_examples=300)
@given(st.lists(_link_lines(), min_size=2, max_size=12))
def test_links_of_one_shape_give_the_general_rows(lines: list[str]) -> None:
    """Lines that are one name the reader reads, through the same heads (links, labels,
    ``doi:``, none), whose names differ in characters of the Crossref set, in where and
    which characters outside it are, in brackets, in the prefix's length and in escapes,
    read the same as on the general path (what is kept by a link's head,
    :func:`~doiname.extract.plain.head_left`, stays right)."""
    assert_same(lines + [x.replace("a", "b").replace("0", "7") for x in lines])
