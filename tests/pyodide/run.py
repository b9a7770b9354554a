"""Run the core's unit suite inside the shipped Pyodide (Node), on Pyodide's full
standard library, by hand. The test command runs the same suite on the site's trimmed
standard library with the site's wheel instead (tests/e2e/test_stdlib_suite.py, which
takes its test wheels from here).

Fetches the pinned pure-Python test wheels from PyPI (requirements.txt, for Python 3.14)
into .cache/pyodide-test-wheels, then runs run_unit_suite.mjs with the npm pyodide
package from node_modules. Exit code is pytest's.

    python3 tests/pyodide/run.py [pytest args...]
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def wheels() -> Path:
    dest = ROOT / ".cache" / "pyodide-test-wheels"
    reqs = HERE / "requirements.txt"
    stamp = dest / ".requirements"
    if stamp.is_file() and stamp.read_text() == reqs.read_text():
        return dest
    dest.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
         "--python-version", "3.14", "--platform", "any", "--implementation", "py",
         "-d", str(dest), "-r", str(reqs)],
        check=True,
    )
    stamp.write_text(reqs.read_text())
    return dest


def main() -> int:
    pyodide_dir = Path(os.environ.get("PYODIDE_DIR", ROOT / "node_modules" / "pyodide"))
    if not (pyodide_dir / "pyodide.mjs").is_file():
        print(f"pyodide npm package not found in {pyodide_dir}: run npm ci", file=sys.stderr)
        return 2
    cmd = ["node", str(HERE / "run_unit_suite.mjs"), str(pyodide_dir), str(wheels()), str(ROOT),
           *sys.argv[1:]]
    return subprocess.run(cmd, check=False).returncode


if __name__ == "__main__":
    raise SystemExit(main())
