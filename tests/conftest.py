"""Shared test set-up: the package is imported from ``pycore`` when it is not installed,
and every test under ``tests/e2e`` is marked ``e2e`` (deselect with ``-m "not e2e"``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests: no deadline (shared machines are noisy). In CI (CI=true) the examples
# are derandomized so a run is repeatable; fuzzing (tests/fuzz) is where variety comes from.
settings.register_profile("default", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")

ROOT = Path(__file__).resolve().parents[1]
PYCORE = ROOT / "pycore"

try:
    import doiname  # noqa: F401
except ImportError:  # not installed: run from the source tree
    sys.path.insert(0, str(PYCORE))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    e2e = ROOT / "tests" / "e2e"
    for item in items:
        if e2e in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.e2e)
