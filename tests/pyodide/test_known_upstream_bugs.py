"""Known bugs of the shipped Pyodide, reproduced so that an upgrade says when they are gone.

Each test asserts the *correct* behaviour and is marked ``xfail(strict=True)``: while the
bug is there the test fails as expected; once a new Pyodide fixes it, the test passes,
which ``strict`` turns into a failure asking to drop the mark (and the workaround).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
PYODIDE = HERE.parents[1] / "node_modules" / "pyodide"


pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not (PYODIDE / "pyodide.mjs").is_file(),
    reason="needs node and the npm pyodide package (npm ci)")


@pytest.fixture(scope="module")
def above_2_gib() -> dict[str, Any]:
    """What string_above_2gib.mjs saw (one Node run, about 2.2 GiB of wasm memory)."""
    proc = subprocess.run(["node", str(HERE / "string_above_2gib.mjs"), str(PYODIDE)],
                          capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def test_the_reproduction_places_a_string_above_2_gib(above_2_gib: dict[str, Any]) -> None:
    assert above_2_gib["heap_mib"] > 2048
    assert above_2_gib["address"] is not None and above_2_gib["address"] >= 2**31
    assert above_2_gib["length"] is not None and above_2_gib["length"] > 1 << 16


@pytest.mark.xfail(strict=True, reason=(
    "Pyodide 314.0.7: a str stored above 2 GiB of wasm memory reaches JavaScript as U+0000 "
    "characters (upstream). doiname keeps the worker's heap far below 2 GiB and fails a "
    "reply it cannot decode instead of dropping it."))
def test_a_string_above_2_gib_reaches_javascript_intact(above_2_gib: dict[str, Any]) -> None:
    assert above_2_gib["intact"], above_2_gib
