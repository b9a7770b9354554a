"""A batch stopped by an engine restart goes on in a new job (``batch_open`` with
``skip_rows``): the rows it sends are exactly the rows after those the page holds, with
the duplicates and counts of a batch never stopped, and its exports have every row."""

from __future__ import annotations

import json
from typing import Any

import pytest

from doiname.bridge import request_json


def ask(op: str, **params: Any) -> Any:
    return json.loads(request_json(op, json.dumps(params)))


def steps(job: int, max_lines: int = 7) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    while True:
        step = ask("batch_step", job=job, max_lines=max_lines, budget_ms=1000)["ok"]
        out.append(step)
        if step["done"]:
            return out


#: Duplicates on both sides of any cut: a name, its case variant, a name seen once.
TEXT = "\n".join(f"10.1000/n{i % 9} and doi:10.1000/N{(i * 7) % 11} x" if i % 5 else "Nothing here."
                 for i in range(120))


def whole_run() -> tuple[list[dict[str, Any]], dict[str, Any], str]:
    job = ask("batch_open", text=TEXT)["ok"]["job"]
    done = steps(job)
    rows = [r for s in done for r in s["rows"]]
    export = ask("batch_export", job=job, format="csv")["ok"]
    ask("batch_close", job=job)
    return rows, done[-1]["summary"], export


@pytest.mark.parametrize("cut", [1, 37, 100, 199])
def test_going_on_sends_the_rows_after_the_cut_and_keeps_every_duplicate(cut: int) -> None:
    rows, summary, export = whole_run()
    assert summary["duplicates"] > 20 and len(rows) > cut
    held = rows[:cut]
    job = ask("batch_open", text=TEXT, skip_rows=cut)["ok"]["job"]
    done = steps(job)
    sent = [r for s in done for r in s["rows"]]
    firsts = [s["first_row"] for s in done if s["rows"]]
    assert firsts[0] == cut
    assert held + sent == rows  # duplicate marks and duplicate_of across the cut included
    assert done[-1]["summary"] == summary
    assert ask("batch_export", job=job, format="csv")["ok"] == export
    assert ask("batch_close", job=job) == {"ok": True}


def test_going_on_with_a_streamed_input() -> None:
    rows, summary, _ = whole_run()
    job = ask("batch_open", skip_rows=50)["ok"]["job"]
    for at in range(0, len(TEXT), 333):
        assert ask("batch_feed", job=job, text=TEXT[at:at + 333])["ok"]["taken"]
    ask("batch_end", job=job)
    done = steps(job)
    assert [r for s in done for r in s["rows"]] == rows[50:]
    assert done[-1]["summary"] == summary
    ask("batch_close", job=job)


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True])
def test_skip_rows_is_a_count(bad: Any) -> None:
    assert ask("batch_open", text="10.1000/1", skip_rows=bad)["error"]["code"] == "bad-arguments"
