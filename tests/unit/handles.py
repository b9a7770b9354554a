"""What the handle-record tests share: the fixtures doi.org's answers are served from in
the browser tests (tests/fixtures/handles, 003 ch. 4 and RFC 3651) and small records
made in place."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from doiname.resolver import HandleRecord, read_handle_response

__all__ = ["FIX", "INDEX", "SPEC_003", "body", "by_index", "figure_1", "one", "record", "served",
           "value"]

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures" / "handles"
SPEC_003 = next((ROOT.parent / "shared" / "specs").glob("003_*.txt"), None)
INDEX: dict[str, dict[str, Any]] = json.loads((FIX / "index.json").read_text(encoding="utf-8"))


def body(name: str) -> str:
    return (FIX / name).read_text(encoding="utf-8")


def served(path: str) -> HandleRecord:
    entry = INDEX[path]
    return read_handle_response(entry["status"], (FIX / entry["file"]).read_bytes())


def by_index(rec: HandleRecord) -> dict[int | None, Any]:
    return {v.index: v for v in rec.values}


def record(*values: dict[str, Any], code: int = 1) -> str:
    return json.dumps({"responseCode": code, "handle": "10.5555/x", "values": list(values)})


def value(vtype: str, fmt: str, data: object, **extra: object) -> dict[str, Any]:
    return {"index": 1, "type": vtype, "data": {"format": fmt, "value": data}, "ttl": 86400,
            "timestamp": "2020-01-01T00:00:00Z", **extra}


def one(vtype: str, fmt: str, data: object, **extra: object) -> Any:
    rec = read_handle_response(200, record(value(vtype, fmt, data, **extra)))
    assert rec.outcome == "ok", rec.message
    (v,) = rec.values
    return v


def figure_1() -> str:
    """003_373959d3cc9bb80c.txt ch. 4 Figure 1, as kept in the fixture (test_handle.py
    checks it is the spec's text)."""
    return body("10.1000-182.json")
