// @ts-check
// Runs the core's unit test suite (tests/unit) inside the shipped Pyodide, under Node.
// Usage: node run_unit_suite.mjs <pyodide dir> <wheel dir> <repo root> [pytest args...]
// The core itself is imported from <repo root>/pycore, mounted into the Pyodide file
// system, so the same sources run on CPython (host) and on Pyodide's Python 3.14.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, wheelDir, repoRoot, ...pytestArgs] = process.argv.slice(2);
if (!pyodideDir || !wheelDir || !repoRoot) {
  console.error("usage: node run_unit_suite.mjs <pyodide dir> <wheel dir> <repo root> [pytest args]");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(join(resolve(pyodideDir), "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: resolve(pyodideDir) + "/" });
const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
for (const name of readdirSync(wheelDir).filter((f) => f.endsWith(".whl")).sort()) {
  const bytes = new Uint8Array(readFileSync(join(wheelDir, name)));
  pyodide.unpackArchive(bytes, "wheel", { extractDir: sitePackages });
}
pyodide.mountNodeFS("/repo", resolve(repoRoot));
pyodide.globals.set("pytest_args", pyodide.toPy(pytestArgs));
const code = await pyodide.runPythonAsync(`
import os, sys
os.chdir("/repo")
sys.path.insert(0, "/repo/pycore")
sys.dont_write_bytecode = True
import pytest
print(f"Python {sys.version.split()[0]} on {sys.platform}, unicodedata {__import__('unicodedata').unidata_version}")
pytest.main(["-q", "-p", "no:cacheprovider", "-o", "addopts=", "tests/unit", *pytest_args])
`);
process.exit(Number(code));
