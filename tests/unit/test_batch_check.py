"""Batch's "Check all" in the worker: each row of a name checked against its own record
(a BibTeX entry's fields) with the registry's answer, the statuses it gives, the export's
columns; through the bridge's ``batch_target`` and ``batch_check``."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from doiname.bridge import BATCH_STATUSES, request_json

FIXTURES = Path(__file__).parents[1] / "fixtures" / "registry"
#: One right DOI, one wrong (another work's), one retracted, one unknown: BibTeX entries
#: whose fields are the records' own (the wrong one cites another record's title).
BIBTEX = (FIXTURES / "check-all.bib").read_text(encoding="utf-8")


def ask(op: str, **params: Any) -> Any:
    reply = json.loads(request_json(op, json.dumps(params)))
    assert "ok" in reply, reply
    return reply["ok"]


def test_check_all_gives_each_row_its_status_and_the_export_its_columns() -> None:
    opened = ask("batch_open", text=BIBTEX)
    job = opened["job"]
    labels: dict[str, str] = {s["status"]: s["label"] for s in BATCH_STATUSES}
    assert labels["another-work"] == "Points at another work"
    assert labels["updated"] == "Retracted or corrected" and labels["cannot-tell"] == "Cannot tell"
    rows = ask("batch_step", job=job, max_lines=1000, budget_ms=1000)["rows"]
    # each row points at its entry: the key, then the first author, year and title
    assert [r["record"].split(" · ")[0] for r in rows] == ["right", "wrong", "retracted",
                                                            "unknown"]
    assert rows[0]["record"].startswith("right · Tosatto (2015) Single-molecule FRET studies")
    assert len(rows[0]["record"]) <= len("right · ") + 120 and rows[0]["record"].endswith("…")
    targets = ask("batch_target", job=job, rows=[0, 2, 3])
    assert [t["doi"]["name"] for t in targets] == [
        "10.1038/srep16696", "10.1080/13813455.2019.1651869", "10.1038/srep99999999"]
    srep = (FIXTURES / "crossref-srep16696.json").read_text(encoding="utf-8")
    got = ask("batch_check", job=job, row=0, agency="Crossref", status=200, body=srep,
              failure=None, content_type="application/json")
    assert got["outcome"] == "found"
    assert [(r["row"], r["status"]) for r in got["rows"]] == [(0, "ok"), (1, "another-work")]
    assert got["rows"][1]["check"]["label"] == "Points at another work"
    retracted = (FIXTURES / "crossref-retracted.json").read_text(encoding="utf-8")
    got = ask("batch_check", job=job, row=2, agency="Crossref", status=200, body=retracted,
              failure=None)
    assert [(r["row"], r["status"]) for r in got["rows"]] == [(2, "updated")]
    limited = ask("batch_check", job=job, row=3, agency="Crossref", status=429, body="",
                  failure=None, retry_after="3")
    assert limited["outcome"] == "rate-limited" and limited["retry_after_s"] == 3
    assert limited["rows"] == []  # asked again later
    got = ask("batch_check", job=job, row=3, agency="Crossref", status=404,
              body="Resource not found.", failure=None, content_type="text/plain")
    assert [(r["row"], r["status"]) for r in got["rows"]] == [(3, "not-found")]
    table = list(csv.DictReader(io.StringIO(ask("batch_export", job=job, format="csv"))))
    assert [(r["record"].split(" · ")[0], r["status"], r["verdict"]) for r in table] == [
        ("right", "ok", "matches"), ("wrong", "another-work", "mismatch"),
        ("retracted", "updated", "matches"), ("unknown", "not-found", "")]
    assert table[1]["registered_title"].startswith("Single-molecule FRET studies")
    assert table[0]["registered_year"] == "2015"
    assert table[2]["update"] == "retraction 2020-06-09 10.1080/13813455.2019.1700048"
    assert "title: differed" in table[1]["evidence"]
    assert [s["status"] for s in BATCH_STATUSES][:4] == [
        "error", "not-found", "another-work", "updated"]
    ask("batch_close", job=job)


def test_a_row_without_a_name_or_a_closed_job_is_refused() -> None:
    job = ask("batch_open", text="no doi here\n")["job"]
    ask("batch_step", job=job, max_lines=10, budget_ms=1000)
    assert ask("batch_target", job=job, rows=[0]) == []
    bad = json.loads(request_json("batch_check", json.dumps(
        {"job": job, "row": 0, "status": 404, "body": "", "failure": None})))
    assert bad["error"]["code"] == "bad-arguments"
    ask("batch_close", job=job)
    gone = json.loads(request_json("batch_target", json.dumps({"job": job, "rows": [0]})))
    assert gone["error"]["code"] == "unknown-job"
