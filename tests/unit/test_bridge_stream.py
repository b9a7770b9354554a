"""A batch fed in pieces through the bridge (``batch_open`` with no text, ``batch_feed``,
``batch_end``), as the page feeds a file or a long paste: the rows are those of the whole
text, a piece over the bound is refused with a message, and back-pressure says so."""

from __future__ import annotations

import json
from typing import Any

from doiname.bridge import request_json
from doiname.limits import BATCH_MAX_FEED_CHARS


def ask(op: str, **params: Any) -> Any:
    reply = json.loads(request_json(op, json.dumps(params)))
    return reply


def rows_of(job: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    while True:
        step = ask("batch_step", job=job, max_lines=1000, budget_ms=1000)["ok"]
        rows.extend(step["rows"])
        if step["done"]:
            return rows


def test_pieces_cut_anywhere_give_the_rows_of_the_whole_text() -> None:
    text = "see doi:10.1000/182.\r\n10.1000/a\u00e9b 10.1000/x\n\nnothing\r10.5555/last"
    whole = ask("batch_open", text=text)["ok"]["job"]
    expected = rows_of(whole)
    for size in (1, 2, 5, 17):
        job = ask("batch_open")["ok"]["job"]
        for at in range(0, len(text), size):
            fed = ask("batch_feed", job=job, text=text[at:at + size])["ok"]
            assert fed["taken"] is True
        assert ask("batch_end", job=job) == {"ok": True}
        assert rows_of(job) == expected
        ask("batch_close", job=job)
    ask("batch_close", job=whole)


def test_a_piece_at_below_and_above_the_bound() -> None:
    job = ask("batch_open", text=None)["ok"]["job"]
    assert ask("batch_feed", job=job, text="a" * (BATCH_MAX_FEED_CHARS - 1))["ok"]["taken"]
    rows_left = ask("batch_feed", job=job, text="b" * BATCH_MAX_FEED_CHARS)["ok"]
    assert rows_left["taken"] is True
    assert 0 <= rows_left["room"] <= BATCH_MAX_FEED_CHARS
    over = ask("batch_feed", job=job, text="c" * (BATCH_MAX_FEED_CHARS + 1))
    assert over["error"]["code"] == "bad-arguments"
    assert f"{BATCH_MAX_FEED_CHARS:,}" in over["error"]["message"]
    ask("batch_close", job=job)


def test_back_pressure_then_room_after_a_step() -> None:
    job = ask("batch_open")["ok"]["job"]
    piece = "10.1000/1\n" * (BATCH_MAX_FEED_CHARS // 10)
    assert ask("batch_feed", job=job, text=piece)["ok"]["taken"]
    assert ask("batch_feed", job=job, text=piece)["ok"]["taken"]
    refused = ask("batch_feed", job=job, text=piece)["ok"]
    assert refused["taken"] is False
    steps = 0
    while not ask("batch_feed", job=job, text=piece)["ok"]["taken"]:
        step = ask("batch_step", job=job, max_lines=100_000, budget_ms=60_000)["ok"]
        assert step["rows"] and not step["done"]
        steps += 1
    assert steps >= 1
    ask("batch_close", job=job)


def test_feeding_a_closed_or_ended_job_is_refused_plainly() -> None:
    job = ask("batch_open")["ok"]["job"]
    ask("batch_end", job=job)
    ended = ask("batch_feed", job=job, text="10.1000/1")
    assert ended["error"]["code"] == "bad-arguments" and "no more text" in ended["error"]["message"]
    ask("batch_close", job=job)
    assert ask("batch_feed", job=job, text="x")["error"]["code"] == "unknown-job"
    assert ask("batch_end", job=job)["error"]["code"] == "unknown-job"
    whole = ask("batch_open", text="10.1000/1")["ok"]["job"]
    assert ask("batch_feed", job=whole, text="x")["error"]["code"] == "bad-arguments"
    assert ask("batch_feed", job=whole, text=5)["error"]["code"] == "bad-arguments"
    ask("batch_close", job=whole)
