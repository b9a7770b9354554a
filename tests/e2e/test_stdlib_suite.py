"""The trimmed standard library (``doiname_build.runtime.STDLIB_KEEP``) runs the core:
in Pyodide under Node, with the shipped ``python_stdlib.zip`` (trimmed, the boot's
modules compiled) as the runtime's standard library, micropip installs the core's
wheel, every core module is imported, the page's first call (the wheel's metadata,
which needs ``email``) is made, then the core's whole unit suite runs. Modules left
out are still reachable from the original archive, through an import hook that
records each one served: any served while booting and installing, or while a
``doiname`` frame is on the stack, fails the test with the module's name and the
line that wanted it. (pytest and hypothesis, which the single file does not carry,
may use them freely.)
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

from doiname_build import paths, runtime

from .conftest import ROOT

#: Node: boot Pyodide on the trimmed stdlib, install micropip and the core's wheel, import
#: every core module, run the unit suite; print one RESULT line of JSON.
RUNNER = r"""
import { readFileSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";

/** @param {string} path */
const bytes = (path) => new Uint8Array(readFileSync(path));
const [pyodideDir, stdlib, original, micropipWheel, coreWheel, testWheels, repo, ...pytestArgs] =
  process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/", stdLibURL: stdlib });
pyodide.FS.writeFile("/original-stdlib.zip", bytes(original));
pyodide.runPython(readFileSync(process.env.GUARD_PY, "utf8"));
const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
pyodide.unpackArchive(bytes(micropipWheel), "wheel", { extractDir: sitePackages });
const wheelPath = "/tmp/" + basename(coreWheel);
pyodide.FS.writeFile(wheelPath, bytes(coreWheel));
await pyodide.runPythonAsync(`
import micropip
await micropip.install(${JSON.stringify("emfs:" + wheelPath)}, deps=False)
import importlib, pkgutil, doiname
for m in pkgutil.walk_packages(doiname.__path__, "doiname."):
    if not m.name.endswith("__main__"):
        importlib.import_module(m.name)
import doiname.bridge
doiname.bridge.info_json()  # the page's first call: the installed wheel's metadata
_guard.phase = "core"
`);
for (const name of readdirSync(testWheels).filter((f) => f.endsWith(".whl")).sort()) {
  pyodide.unpackArchive(bytes(join(testWheels, name)), "wheel", { extractDir: sitePackages });
}
pyodide.mountNodeFS("/repo", repo);
pyodide.globals.set("pytest_args", pyodide.toPy(pytestArgs));
const result = await pyodide.runPythonAsync(`
import json, os, sys
sys.dont_write_bytecode = True
os.makedirs("/tmp/run", exist_ok=True)
os.chdir("/tmp/run")
import pytest

class _Failures:
    def __init__(self):
        self.failed = []
        self.passed = 0
    def pytest_runtest_logreport(self, report):
        if report.passed and report.when == "call":
            self.passed += 1
        if report.failed:
            self.failed.append([report.nodeid, str(report.longrepr)[-2000:]])
    def pytest_collectreport(self, report):
        if report.failed:
            self.failed.append([report.nodeid, str(report.longrepr)[-2000:]])

_failures = _Failures()
code = int(pytest.main(["-q", "-p", "no:cacheprovider", "-o", "addopts=", "--rootdir", "/repo",
                        "/repo/tests/unit", *pytest_args], plugins=[_failures]))
_guard.phase = "probe"
exec(compile("import colorsys", "/lib/python3.14/site-packages/doiname/_probe.py", "exec"), {})
json.dumps({"exit": code, "served": _guard.served, "failed": _failures.failed,
            "passed": _failures.passed})
`);
console.log("RESULT " + result);
"""

#: Python, run first: the import hook that serves left-out modules from the original
#: archive and records who needed them.
GUARD = r'''
import sys, zipimport

class _Guard:
    """Last on sys.meta_path: modules the trimmed stdlib lacks, from the original."""

    def __init__(self):
        self.phase = "boot"  # boot: micropip and importing the core; core: the suite
        self.served = []

    def find_spec(self, name, path=None, target=None):
        head = name.rpartition(".")[0]
        prefix = "/original-stdlib.zip/" + (head.replace(".", "/") + "/" if head else "")
        try:
            spec = zipimport.zipimporter(prefix).find_spec(name)
        except zipimport.ZipImportError:
            return None
        if spec is None:
            return None
        where = None
        frame = sys._getframe(1)
        while frame is not None:
            filename = frame.f_code.co_filename
            if "/site-packages/doiname/" in filename or "/site-packages/micropip/" in filename:
                where = f"{filename}:{frame.f_lineno}"
                break
            frame = frame.f_back
        if self.phase == "boot" or where is not None:
            self.served.append({"module": name, "phase": self.phase, "where": where})
        return spec

_guard = _Guard()
sys.meta_path.append(_guard)
'''


def _test_wheels() -> Path | None:
    """The pinned pytest/hypothesis wheels of tests/pyodide (downloaded once from PyPI)."""
    spec = importlib.util.spec_from_file_location("doiname_pyodide_run",
                                                  ROOT / "tests" / "pyodide" / "run.py")
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
        return Path(module.wheels())
    except (OSError, subprocess.CalledProcessError):
        return None


def test_trimmed_stdlib_runs_the_core_and_its_unit_suite(site_dir: Path, tmp_path: Path) -> None:
    node = shutil.which("node")
    assert node is not None, "node is not installed (the build needs it too)"
    wheels = _test_wheels()
    assert wheels is not None, "the test wheels of tests/pyodide could not be downloaded"
    pyodide_dir = paths.NODE_PYODIDE
    original = pyodide_dir / "python_stdlib.zip"
    # The standard library as shipped (the single file's own: the site's, stored), with
    # the boot's modules compiled.
    trimmed = tmp_path / "python_stdlib.zip"
    trimmed.write_bytes(runtime.trimmed_stdlib((site_dir / "pyodide" / "python_stdlib.zip")
                                               .read_bytes()))
    core = next((site_dir / "wheels").glob("*.whl"))
    (tmp_path / "runner.mjs").write_text(RUNNER, encoding="utf-8")
    (tmp_path / "guard.py").write_text(GUARD, encoding="utf-8")
    extra = os.environ.get("DOINAME_SINGLE_SUITE_ARGS", "").split()
    proc = subprocess.run(
        [node, str(tmp_path / "runner.mjs"), str(pyodide_dir), str(trimmed), str(original),
         str(site_dir / "pyodide" / paths.MICROPIP_WHEEL), str(core),
         str(wheels), str(ROOT), *extra],
        capture_output=True, text=True, timeout=1800, check=False,
        env={**os.environ, "GUARD_PY": str(tmp_path / "guard.py")})
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    assert lines, (f"the runner did not finish (exit {proc.returncode}):\n"
                   f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(lines[-1][len("RESULT "):])
    served = [s for s in result["served"] if s["phase"] != "probe"]
    assert served == [], (
        "the single file's standard library lacks modules that were needed; add them to "
        f"runtime.STDLIB_KEEP: {served}")
    # The hook does see a core frame asking for a left-out module (the test can fail).
    assert [s["module"] for s in result["served"] if s["phase"] == "probe"] == ["colorsys"]
    assert result["exit"] in (0, 1), f"pytest could not run the suite: {result}"
    assert result["passed"] > 0
    missing = [f for f in result["failed"]
               if re.search(r"No module named|ModuleNotFoundError", f[1])]
    assert missing == []
    # The core's whole unit suite passes in the shipped runtime (Python 3.14, Unicode 16,
    # the trimmed standard library): the one run of the suite inside Pyodide that
    # `build.py test` makes (tests/pyodide/run.py runs it on the full one, by hand).
    assert result["failed"] == [], "\n\n".join(f"{n}\n{r}" for n, r in result["failed"])
