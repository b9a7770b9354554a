"""A batch of any size, bounded: a streamed job gives the rows of the whole text, every
bound holds at, below and above it, exports come in pieces, and memory stays small."""

from __future__ import annotations

import io
import json
import random
import tracemalloc
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doiname import limits
from doiname.batch import (
    BatchJob,
    BatchSession,
    LineSplitter,
    LongLine,
    iter_batch_rows,
    read_lines,
    split_lines,
)

from .reference_text import bench_lines, fixture_lines, reference_lists


def drain(job: BatchJob, max_lines: int = 5000) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    while not job.done:
        step = job.step(max_lines, 10.0)
        assert next(iter(step)) == "done"
        # (the rows past those kept are counted, not handed over)
        assert step["first_row"] == len(rows) or not step["rows"]
        rows.extend(step["rows"])
        if step["needs_input"]:
            break
    return rows


def streamed(text: str, cuts: list[int], max_lines: int = 7) -> tuple[BatchJob, list[Any]]:
    """Feed ``text`` cut at ``cuts``, stepping whenever the job refuses a piece."""
    job = BatchJob()
    rows: list[dict[str, Any]] = []
    at = 0
    for cut in [*sorted(set(cuts)), len(text)]:
        piece = text[at:cut]
        at = max(at, cut)
        while not job.feed(piece):
            rows.extend(job.step(max_lines, 10.0)["rows"])
        rows.extend(job.step(max_lines, 10.0)["rows"])
    job.end()
    while not job.done:
        rows.extend(job.step(max_lines, 10.0)["rows"])
    return job, rows


def whole(text: str) -> list[dict[str, Any]]:
    return drain(BatchJob(text))


# ------------------------------------------------------------------ the same rows


@settings(max_examples=120)
@given(reference_lists(), st.sampled_from(["\n", "\r\n", "\r"]), st.data())
def test_any_chunking_gives_the_rows_of_the_whole_text(lines: list[str], brk: str,
                                                       data: st.DataObject) -> None:
    text = brk.join(lines) + data.draw(st.sampled_from(["", brk]))
    cuts = data.draw(st.lists(st.integers(0, len(text)), max_size=12))
    job, rows = streamed(text, cuts)
    assert rows == whole(text)
    assert rows == [r.as_dict() for r in iter_batch_rows(io.StringIO(text, newline=""))]
    assert job.lines_total == len(split_lines(text)) and job.chars_total == len(text)


def test_fixtures_fed_one_character_then_one_line_at_a_time() -> None:
    text = "\r\n".join(fixture_lines()[:400]) + "\r\n"
    want = whole(text)
    assert streamed(text, list(range(0, 3000)) + list(range(3000, len(text), 97)))[1] == want
    assert streamed(text, [i for i, c in enumerate(text) if c == "\r"])[1] == want  # \r|\n


def test_a_cr_lf_cut_in_two_is_one_break() -> None:
    for text in ("a 10.1000/1\r\nb\r\n", "a\r\rb", "\r\n\r\n", "x\r"):
        for cut in range(len(text) + 1):
            assert streamed(text, [cut])[1] == whole(text), (text, cut)


def test_a_byte_order_mark_that_starts_the_text_is_not_text() -> None:
    # open(path).read() of a file saved "UTF-8 with BOM" keeps U+FEFF: the first line is
    # still the line that opens the record, in every way a text comes in
    text = "TY  - JOUR\nTI  - Things\nDO  - 10.1000/182\nER  - \n10.1000/1 \ufeff\n"
    want = whole(text)
    assert [r["record"] for r in want] == ["Things", None]
    marked = "\ufeff" + text
    assert whole(marked) == want
    for cut in (0, 1, 2, 11):
        job, rows = streamed(marked, [cut])
        assert rows == want and job.chars_total == len(marked)
    for source in (marked, marked.splitlines(), io.StringIO(marked, newline="")):
        assert [r.as_dict() for r in iter_batch_rows(source)] == want
    assert split_lines(marked) == split_lines(text) and split_lines("\ufeff") == []
    # only the text's first character is its mark: one inside a line stays (R1 says it)
    assert whole("\ufeff" + marked)[0]["input"] == "\ufeffTY  - JOUR"


def test_the_splitter_holds_at_most_a_bounded_line() -> None:
    splitter = LineSplitter(max_line=10)
    assert splitter.feed("abc") == [] and splitter.held == 3
    for _ in range(1000):
        assert splitter.feed("x" * 1000) == []
        assert splitter.held == 10
    out = splitter.feed("y\nz")
    assert len(out) == 1 and isinstance(out[0], LongLine)
    assert out[0] == "abcxxxxxxx" and out[0].total == 3 + 1_000_000 + 1
    assert splitter.end() == ["z"]
    # a long line between short ones in one piece is cut; the short ones are as they were
    out = splitter.feed("a\n" + "b" * 25 + "\nc\nd")
    assert out == ["a", "b" * 10, "c"] and [type(x) for x in out] == [str, LongLine, str]
    assert isinstance(out[1], LongLine) and out[1].total == 25 and splitter.end() == ["d"]


# ------------------------------------------------------------------ back-pressure


def test_feed_refuses_past_the_pending_bound_and_takes_it_after_a_step() -> None:
    job = BatchJob()
    piece = "10.1000/x\n" * (limits.BATCH_MAX_FEED_CHARS // 10)
    piece += "\n" * (limits.BATCH_MAX_FEED_CHARS - len(piece))
    assert len(piece) == limits.BATCH_MAX_FEED_CHARS and job.room == limits.BATCH_MAX_FEED_CHARS
    assert job.feed(piece) and job.feed(piece)  # exactly the pending bound
    assert job.room == 0 and not job.feed("x")  # refused: nothing taken
    assert job.chars_total == 2 * len(piece)
    step = job.step(max_lines=10_000, budget=100.0)
    assert not step["done"] and not step["needs_input"]
    # taken: the lines read, and the last, held until the next says whether it goes on
    assert job.room == (step["lines_done"] + 1) * 10 > 10 and job.feed("x" * job.room)
    assert not job.feed("y")


def test_feed_errors() -> None:
    job = BatchJob()
    with pytest.raises(ValueError, match="at most"):
        job.feed("x" * (limits.BATCH_MAX_FEED_CHARS + 1))
    assert job.feed("x" * limits.BATCH_MAX_FEED_CHARS)
    job.end()
    with pytest.raises(ValueError, match="no more text"):
        job.feed("more")
    with pytest.raises(ValueError, match="no more text"):
        BatchJob("whole").feed("more")


def test_a_stream_waits_for_input() -> None:
    job = BatchJob()
    step = job.step()
    assert step["needs_input"] and not step["done"] and step["rows"] == []
    job.feed("10.1000/1\n10.1000/2")  # the second line is not complete yet
    step = job.step()
    # the first line waits for the second: it might go on with it (a wrapped reference)
    assert step["rows"] == [] and step["needs_input"]
    job.feed("\n10.1000/3")
    step = job.step()
    assert [r["doi"] for r in step["rows"]] == ["10.1000/1"] and step["needs_input"]
    job.end()
    step = job.step()
    assert [r["doi"] for r in step["rows"]] == ["10.1000/2", "10.1000/3"] and step["done"]
    assert step["lines_total"] == 3 and step["chars_done"] == step["chars_total"] == 29


# ------------------------------------------------------------------ a line too long


@pytest.mark.parametrize("extra", [-1, 0, 1, 5000])
def test_a_line_at_below_and_above_the_bound(extra: int) -> None:
    bound = limits.BATCH_MAX_LINE_CHARS
    names = " ".join(f"10.1000/{i:05d}" for i in range(bound // 14 + 10))
    line = names[:bound + extra]
    line = line[:line.rfind(" ")] + " " + "x" * (bound + extra - line.rfind(" ") - 1)
    assert len(line) == bound + extra
    text = "before 10.1000/a\n" + line + "\nafter 10.1000/b\n"
    for rows in (whole(text), streamed(text, list(range(0, len(text), 4099)))[1],
                 [r.as_dict() for r in iter_batch_rows(read_lines(io.StringIO(text)))],
                 [r.as_dict() for r in iter_batch_rows(text.splitlines())]):
        mine = [r for r in rows if r["line"] == 2]
        found = [r["doi"] for r in mine if r["status"] != "error"]
        assert found == [n for n in line[:bound].split(" ")[:-1]]  # every name before the cut
        cut = [r for r in mine if r["status"] == "error"]
        if extra <= 0:
            assert cut == []
        else:
            assert len(cut) == 1 and cut[0]["doi"] is None
            (finding,) = cut[0]["findings"]
            assert finding["code"] == "line-too-long"
            assert f"This line has {bound + extra:,} characters" in finding["message"]
            read = line[:bound].rfind(" ") + 1  # the name the bound cuts is not read
            assert f"first {read:,} characters" in finding["message"]
            assert f"the {bound + extra - read:,} characters after" in finding["message"]
            assert len(cut[0]["input"]) <= 1001
        assert [r["doi"] for r in rows if r["line"] != 2] == ["10.1000/a", "10.1000/b"]


def test_a_cut_line_is_counted() -> None:
    job = BatchJob("x" * (limits.BATCH_MAX_LINE_CHARS + 1))
    rows = drain(job)
    assert [r["status"] for r in rows] == ["error"]
    summary = job.session.summary
    assert summary.cut_lines == 1 and summary.errors == 1 and summary.dois == 1


# ------------------------------------------------------------------ rows kept, names kept


@pytest.mark.parametrize("keep", [3, 4, 5])
def test_rows_kept_at_below_and_above_the_bound(keep: int) -> None:
    text = "\n".join(f"10.1000/{i}" for i in range(4))
    job = BatchJob(text, keep=keep)
    rows = drain(job, max_lines=1)
    assert len(rows) == min(keep, 4)  # every row is made, only those kept handed over
    assert len(job.rows) == min(keep, 4) and job.rows.dropped == max(0, 4 - keep)
    assert job.rows_total == 4 and job.session.summary.dois == 4
    step = job.step()
    assert step["rows_kept"] == min(keep, 4) and step["rows_total"] == 4
    exported = json.loads(job.export("json"))
    assert exported == rows[:keep]
    with pytest.raises(ValueError, match="keeps"):
        job.export("csv", [keep])


@pytest.mark.parametrize("keep", [0, 1, 150, 10_000])
def test_the_page_is_handed_the_rows_kept_and_no_more(keep: int) -> None:
    """``step_rows`` (what the worker sends) hands over the first ``keep`` rows, in
    order, each once, as export writes them; the steps past them say how many rows were
    made, with no rows."""
    job = BatchJob("\n".join(bench_lines(700)), keep=keep)
    handed: list[dict[str, Any]] = []
    while not job.done:
        step, rows = job.step_rows(97, 10.0)
        got = json.loads(rows)
        assert step["first_row"] == len(handed) or not got
        assert step["rows_kept"] == min(keep, step["rows_total"])
        handed += got
    assert len(handed) == min(keep, job.rows_total) and job.rows_total > 150
    assert handed == json.loads(job.export("json"))


@pytest.mark.parametrize("max_names", [1, 2, 3])
def test_names_remembered_at_below_and_above_the_bound(max_names: int) -> None:
    lines = ["10.1000/a", "10.1000/b", "10.1000/A", "10.1000/B", "10.1000/c", "10.1000/C"]
    session = BatchSession(max_names=max_names)
    got = [(r.status, r.duplicate_of) for r in iter_batch_rows(lines, session)]
    remembered = ["10.1000/a", "10.1000/b", "10.1000/c"][:max_names]
    want = []
    for i, line in enumerate(lines, 1):
        first = next((j for j, x in enumerate(lines, 1) if x.lower() == line.lower()), i)
        dup = first != i and line.lower() in remembered
        want.append(("duplicate", first) if dup else ("ok", None))
    assert got == want
    assert session.summary.names_not_kept == sum(1 for s, _ in want if s == "ok") - max_names


# ------------------------------------------------------------------ exports in pieces


def test_exports_in_pieces_equal_the_whole_and_stay_small() -> None:
    lines = (fixture_lines() + bench_lines(1400)) * 2
    job = BatchJob("\n".join(lines))
    drain(job)
    resolved = {1: {"outcome": "ok", "url": "https://example.org/", "verdict": "ok"}}
    for fmt in ("csv", "json", "jsonl"):
        for kw in ({}, {"unique": True}, {"excel": True}, {"resolved": resolved},
                   {"order": [5, 3, 1]}):
            pieces = list(job.export_chunks(fmt, **kw))
            assert all(len(p) < limits.EXPORT_CHUNK_CHARS + 20_000 for p in pieces)
            assert "".join(pieces) == job.export(fmt, **kw)
    assert len(list(job.export_chunks("csv"))) > 1  # a large export is several pieces
    with pytest.raises(ValueError, match="unknown export format"):
        job.export_chunks("xlsx")


# ------------------------------------------------------------------ memory


def _dense_text(lines: int, per_line: int = 99, seed: int = 1) -> str:
    rng = random.Random(seed)
    return "\n".join(" ".join(f"10.{rng.randrange(1000, 99999)}/j.{rng.randrange(10**7)}"
                              for _ in range(per_line)) for _ in range(lines))


def test_memory_of_the_99_names_a_line_paste() -> None:
    """The page's worst paste, scaled down: 99 names a line. The job keeps every row and
    its peak Python heap stays near 200 bytes a row, so the 20 MB paste (about 650,000
    rows) stays well under 1 GiB."""
    text = _dense_text(400)
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        job = BatchJob(text)
        while not job.done:
            job.step(max_lines=200, budget=10.0)
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    rows = job.rows_total
    assert rows == 400 * 99 == len(job.rows)
    per_row = (kept - before - len(text)) / rows  # what the job keeps besides the text
    assert per_row < 450, per_row  # rows kept compactly and the dedupe map
    assert peak - kept < 15_000_000  # a step's rows as JSON data, not more
    rows_20mb = 20_000_000 / len(text) * rows
    assert rows_20mb * per_row + 20_000_000 + (peak - kept) < 2**30 / 2


def test_memory_of_a_stream_is_bounded_when_rows_are_not_kept() -> None:
    """A stream much longer than the rows kept: the heap does not grow with it."""
    def run(lines: int) -> int:
        text = "\n".join(f"ref {i}: https://doi.org/10.1000/{i % 50}x" for i in range(lines))
        tracemalloc.start()
        try:
            job = BatchJob(keep=100)
            for at in range(0, len(text), 50_000):
                while not job.feed(text[at:at + 50_000]):
                    job.step(budget=10.0)
                job.step(budget=10.0)
            job.end()
            while not job.done:
                job.step(budget=10.0)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    small, large = run(2000), run(32_000)
    assert large < 2 * small + 2_000_000, (small, large)
