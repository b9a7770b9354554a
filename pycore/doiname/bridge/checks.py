"""Batch's "Check all" through the page: ``batch_target`` (the exact names of rows, to ask
their records for) and ``batch_check`` (the registry's answer for a row's name, read once
and compared with the record of every row of that name; 002 foreword, "DOI and
Metadata")."""

from __future__ import annotations

from typing import Any

from ..batch.status import CHECK_STATUSES
from ..jsonable import to_jsonable
from .jobs import _job
from .registry import bad_answer_params, registry_answer
from .reply import dumps, error, internal

__all__ = ["batch_check_json", "batch_target_json"]

#: Rows one ``batch_target`` names at most.
_MAX_TARGETS = 1000


def batch_target_json(job: Any, rows: Any) -> str:
    """The exact names of rows ``rows`` of ``job`` (``[{row, doi}]``; a row without a
    readable name is left out), for their records to be asked for."""
    found = _job(job)
    if found is None:
        return error("unknown-job", "This batch is closed or never existed.")
    if not isinstance(rows, list) or len(rows) > _MAX_TARGETS or not all(
            type(r) is int and 0 <= r < len(found.rows) for r in rows):
        return error("bad-arguments", f"batch_target takes up to {_MAX_TARGETS} row numbers "
                     "of the batch.")
    out = []
    for r in rows:
        name = found.rows[r].name
        if name is not None and found.rows[r].status not in ("error", "short-doi"):
            out.append({"row": r, "doi": to_jsonable(name)})
    return dumps({"ok": out})


def batch_check_json(q: dict[str, Any]) -> str:
    """Read the registry's answer for the name of row ``row`` of ``job`` (as ``read`` of
    kind ``registry`` does) and check every row of that name against its own record
    (:meth:`doiname.batch.BatchJob.check_name`); reply the answer's outcome, sentence and
    wait, and each row's status (:data:`~doiname.batch.rows.CHECK_STATUSES`) and check."""
    found = _job(q.get("job"))
    if found is None:
        return error("unknown-job", "This batch is closed or never existed.")
    row = q.get("row")
    if type(row) is not int or not 0 <= row < len(found.rows):
        return error("bad-arguments", "batch_check takes a row number of the batch.")
    bad = bad_answer_params(q)
    if bad is not None:
        return bad
    name = found.rows[row].name
    if name is None:
        return error("bad-arguments", "This row has no readable DOI name to check.")
    try:
        answer = registry_answer(q, name)
        if answer.outcome in ("rate-limited", "timeout") or q.get("failure") == "cancelled":
            checked: list[Any] = []  # asked again later: no row changes yet
        else:
            checked = found.check_name(row, answer)
        return dumps({"ok": {
            "outcome": answer.outcome, "message": answer.message,
            "retry_after_s": answer.retry_after_s,
            "rows": [{"row": i, "status": CHECK_STATUSES.get(c.status, found.rows[i].status),
                      "check": to_jsonable(c)} for i, c in checked]}})
    except Exception as exc:
        return internal("checking the rows against the registry's record", exc)
