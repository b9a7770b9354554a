"""Batch jobs: a text read a step at a time (:class:`doiname.batch.BatchJob`); the page
asks for each step, so every step is its own request with its own deadline, and the
batch's end is the step's ``done``.

A batch stopped by an engine restart goes on in the new engine as a new job over the
same input, opened with ``skip_rows`` (the rows the page holds): the job reads the input
from its start again, so its rows, counts and duplicates are exactly those of a batch
never stopped (a name seen before the cut is still a duplicate after it; the exports
have every row), but its steps do not send the rows the page has. Memory is that of any
job; no state crosses from the page to Python but that number."""

from __future__ import annotations

import json
import os
from typing import Any

from ..batch import BatchJob
from ..batch.lines import NotText, TextEncoding, text_encoding
from ..batch.status import STATUSES, VERDICT_STATUSES, StatusInfo, status_after
from ..limits import BATCH_STEP_LINES, BATCH_STEP_MS, TEXT_SNIFF_BYTES
from .batch_protocol import StatusLabel
from .reply import dumps, error, internal

__all__ = ["BATCH_STATUSES", "batch_close_json", "batch_end_json", "batch_export_json",
           "batch_feed_json", "batch_open_json", "batch_step_json", "export_rows", "open_jobs"]


def _status(info: StatusInfo) -> StatusLabel:
    """A status as the page reads it: its labels, whether Resolve all asks about its rows,
    the verdict that gives it, and the status each verdict gives its rows
    (:func:`~doiname.batch.status.status_after`)."""
    after = {v: status_after(info.status, v) for v in VERDICT_STATUSES}
    return {"status": info.status, "label": info.label, "rows": info.rows,
            "resolve": info.resolve, "verdict": info.verdict,
            "after": {v: s for v, s in after.items() if s != info.status}}


#: The statuses of batch rows (:data:`doiname.batch.status.STATUSES`), in the order rows
#: sort by status, as the page reads them: ``pycore/tools/gen_types.py`` writes them into
#: ``web/src/engine/statuses.gen.js``, so the page has them before the engine is ready.
BATCH_STATUSES: list[StatusLabel] = [_status(info) for info in STATUSES]


#: The open batch jobs, by number. The page closes a job when its table is cleared.
_JOBS: dict[int, BatchJob] = {}
#: Of a job going on after a restart: the rows its steps still do not send.
_SKIP: dict[int, int] = {}
#: The last job number given; 0 until the first job, whose number starts at random (see
#: :func:`_new_job_number`).
_next_job = 0


def _new_job_number() -> int:
    """A new job number. The first of each interpreter is random (below 2**29, read from
    ``os.urandom`` when the first job opens, so not frozen in the build's memory
    snapshot): after an engine restart the page may still close or export an old
    engine's job by its number, which must not name a new engine's job."""
    global _next_job
    if _next_job == 0:
        _next_job = int.from_bytes(os.urandom(4), "big") >> 3
    _next_job += 1
    return _next_job


def open_jobs() -> int:
    """How many batch jobs are open (``info``)."""
    return len(_JOBS)


def batch_open_json(text: str | None, skip_rows: Any = 0, head: Any = None) -> str:
    """Start a batch over ``text`` (:class:`doiname.batch.BatchJob`), or, for ``None``, a
    streamed batch fed piece by piece (:func:`batch_feed_json`, :func:`batch_end_json`);
    reply :class:`~doiname.bridge.protocol.BatchOpened` (its number and size).
    ``skip_rows``: the first rows are made but not sent (a batch going on after a restart).
    ``head``, for a file, is its first bytes: the reply's ``encoding`` says how the page
    decodes the rest (:func:`doiname.batch.lines.text_encoding`, as the CLI and Spark
    read a file), and a file that is not text is refused (code ``not-text``).

    The job's rows stay here for :func:`batch_export_json` until :func:`batch_close_json`.
    """
    if text is not None and not isinstance(text, str):
        return error("bad-arguments", "The text of a batch must be a string.")
    if not isinstance(skip_rows, int) or isinstance(skip_rows, bool) or skip_rows < 0:
        return error("bad-arguments", "The rows a batch skips are a count, 0 or more.")
    encoding: TextEncoding = "utf-8"
    if head is not None:
        if (not isinstance(head, list) or len(head) > TEXT_SNIFF_BYTES
                or not all(type(b) is int and 0 <= b < 256 for b in head)):
            return error("bad-arguments", "The head of a file is a list of at most "
                         f"{TEXT_SNIFF_BYTES:,} bytes (numbers 0-255).")
        try:
            encoding = text_encoding(bytes(head))[0]
        except NotText as why:
            return error("not-text", f"This file was not read: {why}.")
    try:
        job = BatchJob(text)
    except Exception as exc:
        return internal("starting the batch", exc)
    number = _new_job_number()
    _JOBS[number] = job
    if skip_rows:
        _SKIP[number] = skip_rows
    return dumps({"ok": {"job": number, "lines_total": job.lines_total,
                         "chars_total": job.chars_total, "encoding": encoding}})


def _job(job: Any) -> BatchJob | None:
    return _JOBS.get(int(job)) if isinstance(job, int | float) else None


def batch_feed_json(job: Any, text: Any) -> str:
    """Give a streamed batch its next piece of input (:meth:`BatchJob.feed`: cut
    anywhere, at most :data:`~doiname.limits.BATCH_MAX_FEED_CHARS` characters); reply
    :class:`~doiname.bridge.protocol.BatchFed`: ``taken`` false when the job holds too much
    unread text (step, then feed the same piece again), and the ``room`` left."""
    found = _job(job)
    if found is None:
        return error("unknown-job", "This batch is closed or never existed.")
    if not isinstance(text, str):
        return error("bad-arguments", "A piece of a batch's input must be a string.")
    try:
        taken = found.feed(text)
    except ValueError as exc:
        return error("bad-arguments", f"This piece of input cannot be read: {exc}.")
    except Exception as exc:
        return internal("feeding the batch", exc)
    return dumps({"ok": {"taken": taken, "room": found.room}})


def batch_end_json(job: Any) -> str:
    """A streamed batch has all its input (:meth:`BatchJob.end`); reply ``{"ok": true}``."""
    found = _job(job)
    if found is None:
        return error("unknown-job", "This batch is closed or never existed.")
    found.end()
    return dumps({"ok": True})


def batch_step_json(job: int, max_lines: int = BATCH_STEP_LINES,
                    budget_ms: float = BATCH_STEP_MS) -> str:
    """Work on a batch for up to ``budget_ms`` milliseconds or ``max_lines`` lines; reply
    :meth:`BatchJob.step` (:class:`~doiname.bridge.protocol.BatchStep`), whose ``done`` says when
    every line is read."""
    found = _job(job)
    if found is None:
        return error("unknown-job", "This batch is closed or never existed.")
    skip = _SKIP.get(int(job), 0)
    try:
        step, rows = found.step_rows(int(max_lines), float(budget_ms) / 1000, skip)
    except Exception as exc:
        return internal("the batch", exc)
    if skip and step["rows_total"] >= skip:
        del _SKIP[int(job)]
    return _step_reply(step, rows)


def _step_reply(step: dict[str, Any], rows: str) -> str:
    """The reply of a step (``dumps({"ok": step})``, its ``rows`` given as their JSON
    text by :meth:`~doiname.batch.BatchJob.step_rows`, set in their place after
    ``first_row``)."""
    head = dumps(step)
    at = head.index(',"needs_input":')  # (the keys are the job's: no text value before it)
    return '{"ok":' + head[:at] + ',"rows":' + rows + head[at:] + "}"


def batch_export_json(job: int, fmt: str, order_json: str = "null",
                      resolved_json: str = "null") -> str:
    """A batch's rows as the text of a CSV, JSON or JSON Lines file (:meth:`BatchJob.export`).

    ``order_json`` is ``null`` (every row, input order) or a JSON array of row indices;
    ``resolved_json`` is ``null`` or a JSON object from row indices to ``{outcome, url}``.
    """
    try:
        order = json.loads(order_json) if order_json else None
        resolved = json.loads(resolved_json) if resolved_json else None
    except ValueError as exc:
        return error("bad-arguments", f"The rows cannot be exported: {exc}")
    return export_rows(job, fmt, order, resolved)


def export_rows(job: Any, fmt: Any, order: Any, resolved: Any, *, unique: Any = False,
                excel: Any = False) -> str:
    """:func:`batch_export_json` with its arguments read already; ``unique`` writes each
    distinct name once (with its count and the lines of its duplicates), ``excel`` starts
    a CSV with a UTF-8 byte-order mark (:meth:`~doiname.batch.BatchJob.export_chunks`)."""
    found = _job(job)
    if found is None:
        return error("unknown-job", "This batch is closed or never existed.")
    try:
        if order is not None and not isinstance(order, list):
            raise ValueError("the order must be a list of row numbers")
        if resolved is not None:
            if not isinstance(resolved, dict) or not all(str(k).isdigit() for k in resolved):
                raise ValueError("the resolutions must be an object keyed by row number")
            resolved = {int(k): v for k, v in resolved.items()}
        if not isinstance(unique, bool) or not isinstance(excel, bool):
            raise ValueError("unique and excel must be true or false")
        text = found.export(str(fmt), order, resolved=resolved, unique=unique, excel=excel)
    except ValueError as exc:
        return error("bad-arguments", f"The rows cannot be exported: {exc}")
    except Exception as exc:
        return internal("exporting the batch", exc)
    return dumps({"ok": text})


def batch_close_json(job: int) -> str:
    """Forget a batch and its rows; reply ``{"ok": true}`` (also when it was not open)."""
    found = _job(job)
    if found is not None:
        del _JOBS[int(job)]
        _SKIP.pop(int(job), None)
    return dumps({"ok": found is not None})


