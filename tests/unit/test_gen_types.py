"""The JavaScript types of the worker protocol (web/src/engine/types.gen.d.ts) are
generated from the Python side (pycore/tools/gen_types.py): the committed file must be
what the generator writes now, and what it says must be what the bridge sends."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType
from typing import Literal

import pytest

from doiname import bridge
from doiname.batch import BatchJob, BatchRow, BatchSummary
from doiname.bridge import protocol

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = ROOT / "pycore" / "tools" / "gen_types.py"
OUT = ROOT / "web" / "src" / "engine" / "types.gen.d.ts"


def generator() -> ModuleType:
    if not GENERATOR.is_file():
        pytest.skip("pycore/tools/gen_types.py is not shipped here (e.g. inside Pyodide)")
    spec = importlib.util.spec_from_file_location("gen_types", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def interface(text: str, name: str) -> list[str]:
    """The field names of ``export interface NAME`` in the generated text."""
    m = re.search(rf"^export interface {name} \{{\n(.*?)^\}}", text, re.M | re.S)
    assert m, name
    return [line.strip().split(":")[0].rstrip("?") for line in m.group(1).splitlines()]


def test_the_committed_types_are_up_to_date() -> None:
    gen = generator()
    assert OUT.is_file(), "run python3 pycore/tools/gen_types.py"
    assert OUT.read_text(encoding="utf-8") == gen.render(), \
        "web/src/engine/types.gen.d.ts is stale: run python3 pycore/tools/gen_types.py"
    assert gen.main(["--check"]) == 0


def test_literal_types_are_named_aliases() -> None:
    """A Literal of several values is written once, as the alias gen_types names it
    (``Status``), and every field of that type reads the alias."""
    text = generator().render()
    assert 'export type Status = "error" | "not-found" |' in text
    assert "  status: Status;" in text and '  status: "' not in text
    assert not re.search(r'^  \w+\??: "[^"]*" \|', text, re.M), "an unnamed Literal"
    gen = generator()
    with pytest.raises(SystemExit, match="ALIASES"):
        gen.Writer().render(Literal["a", "b"])


def test_the_page_reads_the_statuses_python_gives() -> None:
    """statuses.gen.js holds doiname.bridge.BATCH_STATUSES, in their order."""
    text = generator().render_statuses()
    assert re.findall(r'^    status: "([^"]+)",$', text, re.M) == [
        s["status"] for s in bridge.BATCH_STATUSES]
    assert re.findall(r'^    rows: "([^"]+)",$', text, re.M) == [
        s["rows"] for s in bridge.BATCH_STATUSES]


def test_every_operation_is_typed() -> None:
    text = generator().render()
    ops = re.search(r"export interface Operations \{\n(.*?)^\}", text, re.M | re.S)
    assert ops is not None
    names = re.findall(r'^  "([a-z_]+)":', ops.group(1), re.M)
    assert names == list(bridge.OPERATIONS)


def test_rows_and_counts_are_typed_as_the_bridge_sends_them() -> None:
    """BatchRow and BatchSummary go out through as_dict(): the fields the types list."""
    text = generator().render()
    job = BatchJob("10.1000/a\nnothing")
    step = job.step(100, 1.0)
    assert sorted(interface(text, "BatchRow")) == sorted(step["rows"][0])
    assert interface(text, "BatchSummary") == list(step["summary"])
    assert interface(text, "BatchStep") == list(step)
    assert [f.name for f in dataclasses.fields(BatchRow) if not f.repr] == ["name"]
    assert [f.name for f in dataclasses.fields(BatchSummary) if not f.repr] == ["_last_line"]


def test_replies_have_the_fields_the_types_list() -> None:
    text = generator().render()
    found = json.loads(bridge.request_json("inspect", '{"text": "doi: 10.1000/a."}'))["ok"]
    assert interface(text, "Inspection") == list(found)
    assert interface(text, "Candidate") == list(found["candidates"][0])
    assert interface(text, "Presentation") == list(found["forms"])
    opened = json.loads(bridge.request_json("batch_open", '{"text": "10.1000/x"}'))["ok"]
    assert interface(text, "BatchOpened") == list(opened)
    info = json.loads(bridge.request_json("info", "{}"))["ok"]
    assert interface(text, "Info") == list(info)
    alias = json.loads(bridge.request_json(
        "read", '{"kind": "alias", "status": null, "body": null, "failure": "network"}'))["ok"]
    assert set(alias) == set(interface(text, "HandleRecord")) | set(
        interface(text, "AliasTarget"))


def test_typed_dict_fields_see_not_required() -> None:
    assert protocol.fields_of(protocol.InspectParams) == {
        "text": (str, True), "pick": (int | None, False)}
    assert all(not required for _, required in protocol.fields_of(protocol.LinkOptions).values())


def test_the_readme_lists_every_limit_with_its_value() -> None:
    """One table of the limits in the README, with the values of doiname.limits."""
    from doiname import limits

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in limits.__all__:
        assert f"| `{name}` | {getattr(limits, name):,} |" in readme, name
