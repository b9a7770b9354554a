"""Shared test set-up: the package is imported from ``pycore`` when it is not installed,
every test under ``tests/e2e`` is marked ``e2e`` (deselect with ``-m "not e2e"``), and the
longest test files run first."""

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


#: The test files that take longest, run first. ``build.py test`` spreads files over two
#: workers in collection order (``--dist loadfile --no-loadscope-reorder``): started last,
#: the longest (the core's unit suite inside Pyodide, test_stdlib_suite.py) would run
#: alone on one core at the end.
LONGEST_FIRST = ("tests/e2e/test_stdlib_suite.py", "tests/e2e/test_robust.py",
                 "tests/spark/test_spark.py", "tests/e2e/test_page_librarian.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    e2e = ROOT / "tests" / "e2e"
    for item in items:
        if e2e in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.e2e)
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))
