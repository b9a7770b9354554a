"""The site's python_stdlib.zip holds compiled modules for exactly what its boot imports,
and the core's files are the core's wheel as micropip installs it, compiled. The worker
mounts only those compiled modules (STDLIB_BOOT, which ``--list`` boots from, so an import
of any module it lacks fails the boot); the rest of python_stdlib.zip is in the core's
second zip, unchanged.

The built zip is booted in Pyodide under Node the worker's way (compile-stdlib.mjs
``--list``: the core's files unpacked into site-packages, ``doiname.bridge`` imported and
asked once): every module the boot takes from the zip comes from a ``.pyc``, and the zip's
``.pyc`` entries are those modules and no others. Each ``.pyc`` is valid for this runtime
(its magic number), an unchecked hash-based one (zipimport never looks for a source) whose
hash is that of the module's source in Pyodide's own python_stdlib.zip; every other entry
is that source, unchanged, and the compiled modules' ``.py`` are gone, as are the sources of
the modules the runtime has frozen (it never reads them from the zip). Every core module
the boot imports comes from a ``.pyc`` in site-packages, from the first of the two zips
the core's files are shipped in (``--list`` unpacks only that one), which holds exactly
those modules; each ``.pyc`` of the two is for this runtime and for the source of the same
module in the site's wheel, and nothing else of the wheel is lost.
"""

from __future__ import annotations

import base64
import csv
import gzip
import hashlib
import io
import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from doiname import warm
from doiname_build import paths, runtime

ORIGINAL = paths.NODE_PYODIDE / "python_stdlib.zip"


@pytest.fixture(scope="module")
def booted(site_dir: Path) -> dict[str, object]:
    """compile-stdlib.mjs --list on the built site."""
    node = shutil.which("node")
    assert node is not None, "node is not installed (the build needs it too)"
    core = site_dir / "pyodide" / paths.CORE_FILES
    wheel = next((site_dir / "wheels").glob("doiname-*.whl"))
    stdlib = site_dir / "pyodide" / paths.STDLIB_BOOT
    done = subprocess.run([node, str(paths.STDLIB_PYC_SCRIPT), "--list", str(site_dir / "pyodide"),
                           str(core), str(stdlib), str(ORIGINAL), str(wheel)],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_the_boot_imports_exactly_the_compiled_modules(site_dir: Path,
                                                       booted: dict[str, object]) -> None:
    shipped = site_dir / "pyodide" / "python_stdlib.zip"
    modules = booted["modules"]
    assert isinstance(modules, dict)
    # Pyodide's start and the core: well over a hundred modules from the zip; none that
    # only a later use needs (the package's metadata, the reference check's, the batch's).
    assert {"json", "_pyodide._base", "asyncio.tasks", "dataclasses"} <= set(modules)
    assert not {"email", "importlib.metadata", "difflib", "csv", "xml.parsers.expat",
                "datetime"} & set(modules)
    from_source = {name: f for name, f in modules.items() if not f.endswith(".pyc")}
    assert from_source == {}, f"the boot compiled these at run time: {from_source}"
    with zipfile.ZipFile(shipped) as z:
        compiled = {n for n in z.namelist() if n.endswith(".pyc")}
    assert compiled == set(modules.values())
    # What the worker mounts: those modules and nothing else (the boot above ran on it).
    with zipfile.ZipFile(site_dir / "pyodide" / paths.STDLIB_BOOT) as boot:
        assert set(boot.namelist()) == compiled
        assert all(i.compress_type == zipfile.ZIP_DEFLATED for i in boot.infolist())


def test_the_two_parts_of_the_standard_library_are_python_stdlib_zip(site_dir: Path) -> None:
    """STDLIB_BOOT and the standard library's entries of CORE_LATER: every entry of the
    whole python_stdlib.zip (which a bare loadPyodide on the site's files mounts) once,
    with the same bytes; the worker's config names the latter's modules."""
    later = zipfile.ZipFile(io.BytesIO(gzip.decompress(
        (site_dir / "pyodide" / paths.CORE_LATER).read_bytes())))
    with zipfile.ZipFile(site_dir / "pyodide" / "python_stdlib.zip") as whole, \
            zipfile.ZipFile(site_dir / "pyodide" / paths.STDLIB_BOOT) as boot, later:
        rest = [n for n in later.namelist() if not n.startswith(paths.LATER_SITE_PACKAGES)]
        assert sorted([*boot.namelist(), *rest]) == sorted(whole.namelist())
        assert {"csv.py", "email/message.py", "importlib/metadata/__init__.py"} <= set(rest)
        for name in whole.namelist():
            part = boot if name in boot.namelist() else later
            assert part.read(name) == whole.read(name), name
    assert runtime.stdlib_later(site_dir / "pyodide" / paths.CORE_LATER) == sorted(
        runtime._stdlib_module(n) or "" for n in rest)


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
        # Every other entry is the original source, unchanged, and nothing kept is lost
        # but the source of the modules the runtime has frozen (never read from the zip).
        for name in names:
            if not name.endswith(".pyc"):
                assert z.read(name) == original.read(name), name
    with zipfile.ZipFile(io.BytesIO(runtime.trimmed_stdlib(ORIGINAL.read_bytes()))) as trimmed:
        kept = trimmed.namelist()
    frozen = booted["frozen"]
    assert isinstance(frozen, list) and {"os", "codecs", "zipimport"} <= set(frozen)
    left_out = {n for n in kept
                if n[:-3].removesuffix("/__init__").replace("/", ".") in frozen}
    assert {"os.py", "codecs.py", "zipimport.py"} <= left_out
    shipped_names = sorted(n.removesuffix("c") if n.endswith(".pyc") else n for n in names)
    assert shipped_names == sorted(set(kept) - left_out)


def test_the_core_boots_from_its_compiled_files(booted: dict[str, object]) -> None:
    core = booted["core"]
    assert isinstance(core, dict)
    assert {"doiname", "doiname.bridge", "doiname.syntax"} <= set(core)
    from_source = {name: f for name, f in core.items() if not f.endswith(".pyc")}
    assert from_source == {}, f"the boot compiled these at run time: {from_source}"
    assert all("/site-packages/doiname/" in f for f in core.values())


def test_the_core_is_imported_with_its_record(booted: dict[str, object]) -> None:
    """Every dataclass's code and every pattern's program of the boot's import came from
    the build's record (doiname.warm), none was computed at boot."""
    warmed = booted["warmed"]
    assert isinstance(warmed, dict)
    assert warmed.get("dataclass", 0) >= 10 and warmed.get("pattern", 0) >= 20, warmed
    assert not {k for k in warmed if k.endswith("-missed")}, warmed


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(
        b"=").decode()


def _core_rest(later: zipfile.ZipFile) -> zipfile.ZipFile:
    """The entries of CORE_LATER under site-packages/, named as in site-packages."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for info in later.infolist():
            if info.filename.startswith(paths.LATER_SITE_PACKAGES):
                entry = zipfile.ZipInfo(info.filename.removeprefix(paths.LATER_SITE_PACKAGES),
                                        date_time=info.date_time)
                z.writestr(entry, later.read(info))
    return zipfile.ZipFile(out)


def test_the_core_files_are_the_wheel_as_micropip_installs_it_compiled(
        site_dir: Path, booted: dict[str, object]) -> None:
    magic = bytes.fromhex(str(booted["magic"]))
    hashes = booted["coreSourceHashes"]
    assert isinstance(hashes, dict)
    wheel = next((site_dir / "wheels").glob("doiname-*.whl"))
    first, later = (zipfile.ZipFile(io.BytesIO(gzip.decompress(
        (site_dir / "pyodide" / name).read_bytes())))
        for name in (paths.CORE_FILES, paths.CORE_LATER))
    # The core's rest: CORE_LATER's entries under site-packages/ (the others are the
    # standard library's).
    rest = _core_rest(later)
    assert all(i.compress_type == zipfile.ZIP_STORED for i in later.infolist())
    core = booted["core"]
    assert isinstance(core, dict)
    # The first zip: the modules the boot imported (as their files in site-packages).
    site = next(iter(core.values())).split("/doiname/")[0] + "/"
    # ... and the build's record of that import (doiname.warm), not one of micropip's files.
    record = f"doiname/{warm.RECORD}"
    assert sorted(first.namelist()) == sorted([*(f.removeprefix(site) for f in core.values()),
                                               record])
    assert not set(first.namelist()) & set(rest.namelist())
    assert all(i.compress_type == zipfile.ZIP_STORED for i in first.infolist())
    # Both together: the files micropip's install wrote.
    both = io.BytesIO()
    with zipfile.ZipFile(both, "w") as joined:
        for part in (first, rest):
            for info in part.infolist():
                if info.filename != record:
                    joined.writestr(info, part.read(info))
    with zipfile.ZipFile(both) as z, zipfile.ZipFile(wheel) as w:
        names = z.namelist()
        in_wheel = set(w.namelist())
        dist_info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
        assert not [n for n in names if n.endswith(".py") or "__pycache__" in n]
        assert all(i.compress_type == zipfile.ZIP_STORED for i in z.infolist())
        # Every file of the wheel is there: a module as its .pyc, the rest as it is.
        for name in in_wheel:
            if name.endswith(".py"):
                header = z.read(name + "c")[:16]
                assert header[:4] == magic, name
                assert int.from_bytes(header[4:8], "little") == 0b01, name
                assert header[8:16].hex() == hashes[name], name
            elif not name.endswith("/RECORD"):
                assert z.read(name) == w.read(name), name
        # micropip's own records of the install, and a RECORD of what is shipped.
        assert z.read(f"{dist_info}/INSTALLER").decode().strip() == "micropip"
        rows = list(csv.reader(io.StringIO(z.read(f"{dist_info}/RECORD").decode())))
        assert sorted(r[0] for r in rows) == sorted(names)
        for name, digest, size in rows:
            if name.endswith("/RECORD"):
                continue
            assert digest == _record_hash(z.read(name)) and int(size) == len(z.read(name))

