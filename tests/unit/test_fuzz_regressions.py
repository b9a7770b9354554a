"""Replays every input the fuzzer ever saved (tests/fuzz/regressions) through its target."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fuzz.targets import TARGETS

REGRESSIONS = sorted(
    p for p in (Path(__file__).resolve().parents[1] / "fuzz" / "regressions").iterdir()
    if p.suffix != ".md"
)


@pytest.mark.parametrize("path", REGRESSIONS, ids=[p.name for p in REGRESSIONS])
def test_regression(path: Path) -> None:
    target = path.name.split("-", 1)[0]
    TARGETS[target](path.read_bytes())


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_targets_accept_seed_like_inputs(name: str) -> None:
    for data in (b"", b"\x00", b"10.1000/182", b"\xff\xfe%", b"doi:" * 1000):
        TARGETS[name](data)
