"""What the benchmarks share: the repository root, Chromium's path and flags, and the
build package (``pycore/tools/doiname_build``: ``site.build()``, ``paths``, the server)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "pycore" / "tools"))

from doiname_build import paths  # noqa: E402

CHROMIUM = str(paths.CHROMIUM)
ARGS = list(paths.CHROMIUM_ARGS)
