"""What the page receives from a batch job's fast path is exactly what the general path
gives (the oracle).

The worker's step (:func:`doiname.bridge.jobs.batch_step_json`) is made from the row
tuples (:meth:`~doiname.batch.BatchJob.step_rows`, :mod:`doiname.batch.wire`), without
row objects. Its text is compared, character for character, with the bridge's ``dumps``
of the general job's :meth:`~doiname.batch.BatchJob.step` (``BatchJob(fast=False)``: every
line by the general path, each row a :class:`~doiname.batch.BatchRow` and its
``as_dict``), step by step, over generated lists, every fixture and the benchmark's
lines, whole or streamed in pieces cut anywhere, with a small bound of rows kept, and
going on after a restart (``skip_rows``); then the rows kept, the counts and every
export (CSV, JSON, JSON Lines; all rows, an order, the unique names, resolutions).
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from doiname.batch import BatchJob, BatchRow
from doiname.batch.rows import make_row
from doiname.batch.status import STATUS_NAMES
from doiname.batch.wire import findings_json, row_json
from doiname.bridge.jobs import _step_reply
from doiname.bridge.reply import dumps
from doiname.jsonable import to_jsonable
from doiname.model import Finding

from .reference_text import bench_lines, fixture_lines, reference_lists


def oracle_reply(step: dict[str, Any], skip: int) -> str:
    """The reply the bridge sent before the fast path: ``dumps`` of the general step,
    its rows below ``skip`` left out."""
    rows = step["rows"]
    cut = max(0, min(len(rows), skip - step["first_row"]))
    if cut:
        step = {**step, "rows": rows[cut:], "first_row": step["first_row"] + cut}
    return dumps({"ok": step})


def feed_all(job: BatchJob, text: str, piece: int) -> None:
    for at in range(0, len(text), piece):
        job.feed(text[at:at + piece])
    job.end()


def run_both(lines: list[str], *, max_lines: int = 7, keep: int | None = None,
             skip: int = 0, piece: int = 0) -> tuple[BatchJob, BatchJob]:
    """Step a fast job and a general one over the same lines; every reply the same."""
    text = "\n".join(lines)
    kw: dict[str, Any] = {} if keep is None else {"keep": keep}
    if piece:
        fast, slow = BatchJob(**kw), BatchJob(fast=False, **kw)
        feed_all(fast, text, piece)
        feed_all(slow, text, piece)
    else:
        fast, slow = BatchJob(text, **kw), BatchJob(text, fast=False, **kw)
    while not slow.done:
        want = oracle_reply(slow.step(max_lines, 10.0), skip)
        got = _step_reply(*fast.step_rows(max_lines, 10.0, skip))
        assert got == want
        json.loads(got)  # (and it is JSON)
    assert fast.done
    assert list(fast.rows) == list(slow.rows)
    assert fast.rows.dropped == slow.rows.dropped
    assert fast.session.summary.as_dict() == slow.session.summary.as_dict()
    return fast, slow


def same_exports(fast: BatchJob, slow: BatchJob) -> None:
    n = len(slow.rows)
    order = list(range(n - 1, -1, -3))
    resolved = {i: {"outcome": "ok", "url": f"https://example.org/{i}", "verdict": "not-found"}
                for i in range(0, n, 4)}
    for fmt in ("csv", "json", "jsonl"):
        for kw in ({}, {"order": order}, {"unique": True}, {"resolved": resolved},
                   {"excel": True, "spreadsheet_safe": False}):
            assert fast.export(fmt, **kw) == slow.export(fmt, **kw)


@settings(max_examples=150, deadline=None)
@given(reference_lists(), st.integers(1, 40), st.integers(0, 60), st.sampled_from([0, 1, 5, 97]))
def test_a_job_sends_the_general_paths_steps(lines: list[str], max_lines: int, skip: int,
                                             piece: int) -> None:
    fast, slow = run_both(lines, max_lines=max_lines, skip=skip, piece=piece)
    same_exports(fast, slow)


def test_fixtures_and_bench_lines_in_steps_and_pieces() -> None:
    lines = fixture_lines() + bench_lines(1400)
    lines += lines[::3]  # duplicates and lines seen lately
    for kw in ({"max_lines": 997}, {"max_lines": 61, "piece": 4093, "skip": 333}):
        fast, slow = run_both(lines, **kw)
    same_exports(fast, slow)


def test_the_bound_of_rows_kept() -> None:
    lines = bench_lines(700)
    for keep in (0, 1, 150, 699):
        fast, slow = run_both(lines, max_lines=97, keep=keep)
        assert len(fast.rows) == min(keep, fast.rows_total)
        assert fast.rows.dropped == fast.rows_total - len(fast.rows)
        same_exports(fast, slow)


# ----------------------------------------------------------------- one row's text

_TEXT = st.text(st.characters(codec="utf-8"), max_size=12) | st.sampled_from(
    ["", '"', "\\", "\x00\x1f\x7f", "…\u2028", "\U0001f600", "x\ud800"])
_INT = st.integers(-(2**40), 2**40)


@st.composite
def findings(draw: st.DrawFn) -> Finding:
    return Finding(draw(_TEXT), draw(st.sampled_from(["info", "warning", "error"])),
                   draw(_TEXT), draw(_INT), draw(_INT), draw(st.none() | _INT),
                   draw(st.none() | _INT), draw(st.booleans()), draw(_TEXT),
                   draw(st.none() | _TEXT))


@st.composite
def batch_rows(draw: st.DrawFn) -> BatchRow:
    opt = st.none() | _TEXT
    return make_row(draw(_INT), draw(_TEXT), draw(st.sampled_from(STATUS_NAMES)), draw(opt),
                    draw(opt), draw(opt), tuple(draw(st.lists(findings(), max_size=3))),
                    draw(st.none() | _INT), draw(st.none() | _INT), draw(st.none() | _INT),
                    draw(opt), draw(opt), draw(opt), tuple(draw(st.lists(_TEXT, max_size=3))),
                    draw(opt), None)


@settings(max_examples=400)
@given(batch_rows())
def test_a_rows_text_is_the_bridges_dumps_of_its_dict(row: BatchRow) -> None:
    from doiname.batch.rows import fields_of

    assert row_json(fields_of(row)) == dumps(row.as_dict())
    assert findings_json(row.findings) == dumps([to_jsonable(f) for f in row.findings])
    assert findings_json(row.findings) == findings_json(row.findings)  # kept, the same


def test_findings_that_are_equal_but_of_other_types_are_written_as_theirs() -> None:
    """A finding is remembered by its values and their types: ``True == 1`` in Python,
    not in JSON."""
    made = Finding("x", "info", "m", 0, 1, None, None, True, "s")
    odd = Finding("x", "info", "m", 0, 1, None, None, 1, "s")  # type: ignore[arg-type]
    for f in (made, odd, made):
        assert findings_json((f,)) == dumps([to_jsonable(f)])
    assert '"in_name":1' in findings_json((odd,))


_CELL = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=8) | \
    st.sampled_from(["", ",", '"', "a\nb", "\r", "=1+2", "@x", " -1", "+", "\t"])


@settings(max_examples=300)
@given(st.lists(st.tuples(batch_rows(), st.tuples(_CELL, _CELL)), max_size=6), st.booleans())
def test_rows_as_tuples_write_the_csv_lines_of_rows(rows: list[tuple[BatchRow, tuple[str, str]]],
                                                   safe: bool) -> None:
    """:func:`~doiname.batch.export.fields_csv` (Spark's CSV parts: row tuples and the
    cells of extra columns) writes what :func:`~doiname.batch.export.write_csv` writes."""
    import io

    from doiname.batch import write_csv
    from doiname.batch.export import fields_csv
    from doiname.batch.rows import fields_of

    cells = {id(r): dict(zip(("file", "id"), more, strict=True)) for r, more in rows}
    out = io.StringIO(newline="")
    write_csv([r for r, _ in rows], out, header=False, spreadsheet_safe=safe,
              extra=lambda r: cells[id(r)], extra_columns=("file", "id"))
    got = fields_csv([fields_of(r) for r, _ in rows], [more for _, more in rows],
                     spreadsheet_safe=safe)
    assert got == out.getvalue()
    plain = io.StringIO(newline="")
    write_csv([r for r, _ in rows], plain, header=False, spreadsheet_safe=safe)
    assert fields_csv([fields_of(r) for r, _ in rows], spreadsheet_safe=safe) == plain.getvalue()
