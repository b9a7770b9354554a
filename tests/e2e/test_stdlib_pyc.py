"""The site's python_stdlib.zip holds compiled modules for exactly what its boot imports.

The built zip is booted in Pyodide under Node the worker's way (compile-stdlib.mjs
``--list``: micropip, the core wheel installed, ``doiname.bridge`` imported): every module
the boot takes from the zip comes from a ``.pyc``, and the zip's ``.pyc`` entries are those
modules and no others. Each ``.pyc`` is valid for this runtime (its magic number), an
unchecked hash-based one (zipimport never looks for a source) whose hash is that of the
module's source in Pyodide's own python_stdlib.zip; every other entry is that source,
unchanged, and the compiled modules' ``.py`` are gone.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from doiname_build import paths, runtime

ORIGINAL = paths.NODE_PYODIDE / "python_stdlib.zip"


@pytest.fixture(scope="module")
def booted(site_dir: Path) -> dict[str, object]:
    """compile-stdlib.mjs --list on the built site."""
    node = shutil.which("node")
    assert node is not None, "node is not installed (the build needs it too)"
    wheel = next((site_dir / "wheels").glob("*.whl"))
    done = subprocess.run([node, str(paths.STDLIB_PYC_SCRIPT), "--list", str(site_dir / "pyodide"),
                           str(wheel), str(ORIGINAL)],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_the_boot_imports_exactly_the_compiled_modules(site_dir: Path,
                                                       booted: dict[str, object]) -> None:
    shipped = site_dir / "pyodide" / "python_stdlib.zip"
    modules = booted["modules"]
    assert isinstance(modules, dict)
    # Pyodide's start, micropip and the core: well over a hundred modules from the zip.
    assert {"json", "email", "importlib.metadata", "_pyodide._base",
            "asyncio.tasks"} <= set(modules)
    from_source = {name: f for name, f in modules.items() if not f.endswith(".pyc")}
    assert from_source == {}, f"the boot compiled these at run time: {from_source}"
    with zipfile.ZipFile(shipped) as z:
        compiled = {n for n in z.namelist() if n.endswith(".pyc")}
    assert compiled == set(modules.values())


def test_each_pyc_is_for_this_runtime_and_its_source(site_dir: Path,
                                                      booted: dict[str, object]) -> None:
    magic = bytes.fromhex(str(booted["magic"]))
    hashes = booted["sourceHashes"]
    assert isinstance(hashes, dict)
    shipped = site_dir / "pyodide" / "python_stdlib.zip"
    with zipfile.ZipFile(shipped) as z, zipfile.ZipFile(ORIGINAL) as original:
        names = z.namelist()
        compiled = [n for n in names if n.endswith(".pyc")]
        assert compiled and set(hashes) == set(compiled)
        for name in compiled:
            header = z.read(name)[:16]
            assert header[:4] == magic, name
            assert int.from_bytes(header[4:8], "little") == 0b01, name  # unchecked hash
            assert header[8:16].hex() == hashes[name], name
            assert name[:-1] not in names, f"{name}: its source is shipped too"
        # Every other entry is the original source, unchanged, and nothing kept is lost.
        for name in names:
            if not name.endswith(".pyc"):
                assert z.read(name) == original.read(name), name
    with zipfile.ZipFile(io.BytesIO(runtime.trimmed_stdlib(ORIGINAL.read_bytes()))) as trimmed:
        kept = trimmed.namelist()
    assert sorted(n.removesuffix("c") if n.endswith(".pyc") else n for n in names) == sorted(kept)
