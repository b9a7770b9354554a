"""doiname.bridge.arrival: an import of a package module, or of a standard library module
of the rest, that has not arrived yet fetches the rest of the files itself, checks them,
unpacks them and goes on; nothing else is touched. (The worker's side, and the
synchronous request in a real browser: tests/e2e/test_core_later.py.)"""

from __future__ import annotations

import base64
import gzip
import hashlib
import importlib
import io
import sys
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import doiname
from doiname.bridge import arrival

MODULE = "doiname._arrival_probe"


def _zip(files: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
    return gzip.compress(out.getvalue(), mtime=0)  # the same bytes in every process


def _sri(data: bytes) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Path]:
    """A site-packages whose ``doiname/`` is part of the package (as the worker's is),
    empty until the rest arrives."""
    (tmp_path / "doiname").mkdir()
    doiname.__path__.append(str(tmp_path / "doiname"))
    try:
        yield tmp_path
    finally:
        doiname.__path__.remove(str(tmp_path / "doiname"))
        sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, arrival.Arriving)]
        sys.modules.pop(MODULE, None)
        for path in [p for p in sys.path_importer_cache if p.startswith(str(tmp_path))]:
            del sys.path_importer_cache[path]


def _unpacker(site: Path) -> Callable[[bytes], None]:
    """What the worker's unpacker does (web/src/worker/site-packages.js unpackCore; the
    e2e tests run that one): the zip's files written into ``site``, the path finder of
    that folder told to forget its listing."""

    def unpack(data: bytes) -> None:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            archive.extractall(site)
        finder: Any = sys.path_importer_cache.get(str(site))
        if finder is not None:
            finder.invalidate_caches()

    return unpack


def _expect(site: Path, body: bytes, integrity: str) -> list[str]:
    asked: list[str] = []

    def fetch(url: str) -> bytes:
        asked.append(url)
        return body

    sys.meta_path.append(arrival.Arriving("https://site.example/rest.zip.gz", integrity,
                                          str(site), _unpacker(site), fetch))
    return asked


def test_an_import_that_needs_the_rest_fetches_it_once(site: Path) -> None:
    body = _zip({"doiname/_arrival_probe.py": "ANSWER = 42\n"})
    asked = _expect(site, body, _sri(body))
    with pytest.raises(ImportError):  # a name of another package is not its business
        importlib.import_module("not_doiname_at_all_xyz")
    assert asked == [] and arrival.waiting()
    assert importlib.import_module(MODULE).ANSWER == 42
    assert asked == ["https://site.example/rest.zip.gz"]
    assert not arrival.waiting()  # nothing waits any more; the files are there
    assert (site / "doiname" / "_arrival_probe.py").is_file()


def test_a_module_the_rest_lacks_is_still_missing(site: Path) -> None:
    body = _zip({"doiname/other.py": ""})
    _expect(site, body, _sri(body))
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(MODULE)
    assert not arrival.waiting()


@pytest.mark.parametrize(("body", "integrity", "says"), [
    (_zip({"doiname/_arrival_probe.py": ""}), "sha256-" + "A" * 43 + "=", "integrity check failed"),
    (b"not gzip", _sri(b"not gzip"), "could not be read"),
], ids=["other-bytes", "not-gzip"])
def test_a_rest_that_is_not_the_builds_is_refused_with_a_reason(
        site: Path, body: bytes, integrity: str, says: str) -> None:
    _expect(site, body, integrity)
    with pytest.raises(ImportError, match=says):
        importlib.import_module(MODULE)
    assert not (site / "doiname" / "_arrival_probe.py").exists()
    assert arrival.waiting()  # a later import may try again


def test_the_workers_own_download_ends_the_wait(site: Path) -> None:
    arrival.expect("https://site.example/rest.zip.gz", "sha256-x", str(site), _unpacker(site))
    arrival.expect("https://site.example/rest.zip.gz", "sha256-x", str(site),
                   _unpacker(site))  # once
    assert sum(isinstance(f, arrival.Arriving) for f in sys.meta_path) == 1
    # The worker unpacked the files itself (worker/site-packages.js), then says so.
    (site / "doiname" / "_arrival_probe.py").write_text("ANSWER = 7\n")
    arrival.arrived()
    assert not arrival.waiting()
    assert importlib.import_module(MODULE).ANSWER == 7


def test_a_distribution_of_another_name_is_not_fetched(site: Path) -> None:
    asked = _expect(site, b"", "sha256-x")
    finder = next(f for f in sys.meta_path if isinstance(f, arrival.Arriving))
    context = type("Context", (), {"name": "requests", "path": [str(site)]})()
    assert list(finder.find_distributions(context)) == []
    assert asked == []


@pytest.fixture
def stdlib(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """A standard library as the worker has it: a zip on ``sys.path`` holding the package
    ``_arrival_std`` (imported, as the boot imports ``encodings``), and the standard
    library's folder, empty until the rest arrives (Pyodide leaves it off ``sys.path``)."""
    archive = tmp_path / "stdlib.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("_arrival_std/__init__.py", "")
    lib = tmp_path / "lib"
    lib.mkdir()
    sys.path.insert(0, str(archive))
    importlib.import_module("_arrival_std")
    try:
        yield archive, lib
    finally:
        sys.path[:] = [p for p in sys.path if p not in (str(archive), str(lib))]
        sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, arrival.Arriving)]
        for name in [n for n in sys.modules if n.startswith("_arrival_")]:
            del sys.modules[name]
        for path in [p for p in sys.path_importer_cache if p.startswith(str(tmp_path))]:
            del sys.path_importer_cache[path]


def test_a_standard_library_module_of_the_rest_fetches_it_once(stdlib: tuple[Path, Path]) -> None:
    archive, lib = stdlib
    body = _zip({"_arrival_std/extra.py": "ANSWER = 5\n", "_arrival_top.py": "ANSWER = 6\n",
                 "site-packages/doiname/_arrival_probe.py": ""})
    asked: list[str] = []

    def fetch(url: str) -> bytes:
        asked.append(url)
        return body

    sys.meta_path.append(arrival.Arriving("https://site.example/rest.zip.gz", _sri(body),
                                          str(lib), _unpacker(lib), fetch,
                                          modules=["_arrival_std.extra", "_arrival_top"]))
    # Modules the rest does not hold are not its business: no download for them.
    for name in ("_arrival_unlisted", "_arrival_std.missing"):
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(name)
    assert asked == []
    # A module of a package imported from the zip: the package looks in the folder too.
    assert importlib.import_module("_arrival_std.extra").ANSWER == 5
    assert asked == ["https://site.example/rest.zip.gz"] and not arrival.waiting()
    assert sys.path[:2] == [str(archive), str(lib)]
    package = sys.modules["_arrival_std"]
    assert package.__path__ == [f"{archive}/_arrival_std", str(lib / "_arrival_std")]
    assert importlib.import_module("_arrival_top").ANSWER == 6  # no second download
    assert asked == ["https://site.example/rest.zip.gz"]


def test_what_the_arrival_imports_is_never_fetched_for(stdlib: tuple[Path, Path]) -> None:
    """An import of a module of the rest while the rest is being brought (a module the
    arrival itself would need) fails plainly, never by asking for the rest again."""
    _, lib = stdlib
    asked: list[str] = []

    def fetch(url: str) -> bytes:
        asked.append(url)
        importlib.import_module("_arrival_top")
        return b""

    sys.meta_path.append(arrival.Arriving("https://site.example/rest.zip.gz", "sha256-x",
                                          str(lib), _unpacker(lib), fetch,
                                          modules=["_arrival_top"]))
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("_arrival_top")
    assert asked == ["https://site.example/rest.zip.gz"] and arrival.waiting()


def test_integrity_values() -> None:
    data = b"abc"
    assert arrival.integrity_ok(data, _sri(data))
    assert arrival.integrity_ok(data, "sha384-x " + _sri(data))
    assert not arrival.integrity_ok(data, "")
    md5 = base64.b64encode(hashlib.md5(data).digest()).decode()
    assert not arrival.integrity_ok(data, "md5-" + md5)
