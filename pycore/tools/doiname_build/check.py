"""The README's test command: set up, build, lint, type-check, run every test."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .compress import precompress_ahead
from .env import ensure_java, ensure_npm, ensure_venv
from .paths import BIOME, CHROMIUM, PYODIDE_FILES, ROOT, TSC, WEB
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


def run_step(name: str, cmd: list[str], cwd: Path, env: dict[str, str], *,
             quiet: bool = False) -> bool:
    """Run one step of the test command, logging its command, outcome and time; with
    ``quiet``, its output is held and printed in one piece when it ends (a step that runs
    beside another)."""
    shown = "$ " + ("" if cwd == ROOT else f"(in {cwd.relative_to(ROOT)}) ") + " ".join(cmd)
    if not quiet:
        log(shown)
    t0 = time.monotonic()
    out = subprocess.run(cmd, cwd=cwd, env=env, check=False,
                         stdout=subprocess.PIPE if quiet else None,
                         stderr=subprocess.STDOUT if quiet else None)
    with _LOG_LOCK:
        if quiet:
            log(shown)
        if quiet and out.stdout:
            sys.stdout.buffer.write(out.stdout)
            sys.stdout.flush()
        log(f"{name}: {'ok' if out.returncode == 0 else f'FAILED (exit code {out.returncode})'}"
            f" in {time.monotonic() - t0:.0f} s")
    return out.returncode == 0


_LOG_LOCK = threading.Lock()


def test(pytest_args: Sequence[str]) -> int:
    """The README's test command: set up, build, lint, type-check, run every test."""
    started = time.monotonic()
    missing = [pkg for pkg, path in (("chromium", CHROMIUM),
                                     ("unicode-data", Path("/usr/share/unicode/Scripts.txt")))
               if not path.is_file()]
    if missing:  # Chromium for the browser tests; the UCD to check the generated tables
        install_apt(*missing)
    java_env = ensure_java()  # Spark's tests (tests/spark) run on Debian's Java
    # Brotli of Pyodide's files (a minute on one core, for the build) while pip installs.
    precompress_ahead([ensure_npm() / name for name in PYODIDE_FILES])
    ensure_venv()  # the venv itself first: the build's pip falls back on it
    js = js_checks()
    failed: list[str] = []
    # The build needs no dev tools (the host's Python, Node): it runs beside pip, which
    # mostly waits on downloads and the disk, and the checks need nothing built.
    with ThreadPoolExecutor(max_workers=1) as pool:
        built = pool.submit(build)
        py = ensure_venv(dev=True)
        env = {**os.environ, **java_env, "DOINAME_SITE_BUILT": "1",
               "PYTHONDONTWRITEBYTECODE": "1",
               # node --test asks Python for what Python decides (batch statuses)
               "PYTHON": str(py),
               "MYPYPATH": os.pathsep.join(str(ROOT / p) for p in ("pycore", "pycore/tools"))}
        env.pop("PYTHONPATH", None)
        checks: list[tuple[str, list[str], Path]] = [
            ("ruff", [str(py), "-m", "ruff", "check", "."], ROOT),
            ("mypy", [str(py), "-m", "mypy", "--strict", *mypy_targets()], ROOT),
            *js,
        ]
        failed += [name for name, cmd, cwd in checks
                   if not run_step(name, cmd, cwd, env, quiet=True)]
        built.result()
    steps: list[tuple[str, list[str], Path]] = [
        # Two workers (pytest-xdist), one test file each at a time: most of the time of the
        # browser tests is Pyodide booting in Chromium, which keeps one core busy. Files
        # go in collection order, the longest first (tests/conftest.py, LONGEST_FIRST).
        ("pytest", [str(py), "-m", "pytest", "tests", "-p", "no:cacheprovider",
                    "-n", str(min(2, os.cpu_count() or 1)), "--dist", "loadfile",
                    "--no-loadscope-reorder",
                    "--screenshot", "only-on-failure", "--output", "test-results",
                    *pytest_args], ROOT),
        # A short coverage-guided fuzz pass (two targets at a time); saved crashes are
        # replayed by the unit suite.
        ("fuzz", [str(py), "tests/fuzz/run.py", "--seconds", "5",
                  "--jobs", str(min(2, os.cpu_count() or 1))], ROOT),
    ]
    failed += [name for name, cmd, cwd in steps if not run_step(name, cmd, cwd, env)]
    total = time.monotonic() - started
    if failed:
        log(f"FAILED: {', '.join(failed)} ({total:.0f} s)")
        return 1
    log(f"all checks passed ({total:.0f} s)")
    return 0
