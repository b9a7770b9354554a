"""The README's test command: set up, build, lint, type-check, run every test."""

from __future__ import annotations

import os
import subprocess
import time
import tomllib
from collections.abc import Sequence
from pathlib import Path

from .env import ensure_java, ensure_venv
from .paths import BIOME, CHROMIUM, ROOT, TSC, WEB
from .proc import install_apt, log
from .site import build


def mypy_targets() -> list[str]:
    """The configured mypy files plus build.py and the benchmarks."""
    with (ROOT / "pyproject.toml").open("rb") as f:
        files = list(tomllib.load(f).get("tool", {}).get("mypy", {}).get("files", []))
    for extra in ("build.py", "bench"):
        if extra not in files and (ROOT / extra).exists():
            files.append(extra)
    return files


def js_checks() -> list[tuple[str, list[str], Path]]:
    """The JavaScript's checks, run in web/: types (tsc, checkJs, the page's code and its
    unit tests), lint and format (Biome, biome.json there), and the unit tests that need
    no browser (``node --test``, web/test)."""
    return [
        ("tsc", [str(TSC), "--noEmit", "-p", "jsconfig.json"], WEB),
        ("tsc (tests)", [str(TSC), "--noEmit", "-p", "test/jsconfig.json"], WEB),
        ("biome", [str(BIOME), "ci", "--colors=off", "."], WEB),
        ("node --test", ["node", "--test", "test/"], WEB),
    ]


def test(pytest_args: Sequence[str]) -> int:
    """The README's test command: set up, build, lint, type-check, run every test."""
    started = time.monotonic()
    missing = [pkg for pkg, path in (("chromium", CHROMIUM),
                                     ("unicode-data", Path("/usr/share/unicode/Scripts.txt")))
               if not path.is_file()]
    if missing:  # Chromium for the browser tests; the UCD to check the generated tables
        install_apt(*missing)
    java_env = ensure_java()  # Spark's tests (tests/spark) run on Debian's Java
    py = ensure_venv(dev=True)
    build()
    env = {**os.environ, **java_env, "DOINAME_SITE_BUILT": "1", "PYTHONDONTWRITEBYTECODE": "1",
           "PYTHON": str(py),  # node --test asks Python for what Python decides (batch statuses)
           "MYPYPATH": os.pathsep.join(str(ROOT / p) for p in ("pycore", "pycore/tools"))}
    env.pop("PYTHONPATH", None)
    steps: list[tuple[str, list[str], Path]] = [
        ("ruff", [str(py), "-m", "ruff", "check", "."], ROOT),
        ("mypy", [str(py), "-m", "mypy", "--strict", *mypy_targets()], ROOT),
        *js_checks(),
        # Two workers (pytest-xdist), one test file each at a time: most of the time of the
        # browser tests is Pyodide booting in Chromium, which keeps one core busy. Files
        # go in collection order, the longest first (tests/conftest.py, LONGEST_FIRST).
        ("pytest", [str(py), "-m", "pytest", "tests", "-p", "no:cacheprovider",
                    "-n", str(min(2, os.cpu_count() or 1)), "--dist", "loadfile",
                    "--no-loadscope-reorder",
                    "--screenshot", "only-on-failure", "--output", "test-results",
                    *pytest_args], ROOT),
        # A short coverage-guided fuzz pass; saved crashes are replayed by the unit suite.
        ("fuzz", [str(py), "tests/fuzz/run.py", "--seconds", "5"], ROOT),
    ]
    failed: list[str] = []
    for name, cmd, cwd in steps:
        log("$ " + ("" if cwd == ROOT else f"(in {cwd.relative_to(ROOT)}) ") + " ".join(cmd))
        t0 = time.monotonic()
        code = subprocess.run(cmd, cwd=cwd, env=env, check=False).returncode
        log(f"{name}: {'ok' if code == 0 else f'FAILED (exit code {code})'} "
            f"in {time.monotonic() - t0:.0f} s")
        if code != 0:
            failed.append(name)
    total = time.monotonic() - started
    if failed:
        log(f"FAILED: {', '.join(failed)} ({total:.0f} s)")
        return 1
    log(f"all checks passed ({total:.0f} s)")
    return 0
