"""BatchJob, the page's batch: steps that give the CLI's rows, time budgets, exports
(picked, resolved, unique), very long lines."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doiname.batch import (
    CSV_COLUMNS,
    BatchJob,
    BatchRow,
    count_lines,
    iter_batch_rows,
    write_csv,
    write_json,
)
from doiname.limits import BATCH_STEP_MAX_CHARS

from .batch_cases import LIST, rows_of


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


def test_a_step_stops_at_its_characters() -> None:
    """Lines of 90,000 characters: a step reads BATCH_STEP_MAX_CHARS of them (and the
    line that passes it), not max_lines, whatever its time budget."""
    line = "10.1000/x " + "y" * 89_990
    job = BatchJob(f"{line}\n" * 8)
    done: list[int] = []
    while not job.done:
        step = job.step(max_lines=1000, budget=100.0)
        done.append(step["chars_done"])
    sizes = [b - a for a, b in zip([0, *done], done, strict=False)]
    assert len(done) > 1 and max(sizes) < BATCH_STEP_MAX_CHARS + len(line) + 1, sizes
    assert job.lines_done == 8


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
    from doiname.batch.status import RESOLVED_STATUSES, status_after
    from doiname.bridge.jobs import BATCH_STATUSES

    job, rows = run_job("10.1000/ABC\ndoi:10.1000/abc\n10.1000/%zz\n10/abc\n"
                        "see doi:10.1000/x\u2013y\n10.1000/gone")
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
    resolved: dict[int, dict[str, str | None]] = {
        0: {"outcome": "ok", "url": "https://example.org/a"},
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
