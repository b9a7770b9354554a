"""What the benchmarks share: the repository root, Chromium's flags, and build.py itself
(its ``build()``, ``SITE`` and ``make_server``), loaded from the file by path."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def load_build() -> Any:
    """The repository's build.py as a module (not the ``build`` package on PyPI)."""
    spec = importlib.util.spec_from_file_location("doiname_build", ROOT / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
