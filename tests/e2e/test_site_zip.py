"""``dist/doiname-site-VERSION.zip``: the built site, to host as it is (README, "Embed on
your site"). Its entries are exactly the files of ``dist/site`` under one folder
``doiname/`` (the same for every version, so an upgrade unpacks in place), byte for
byte, and ``doiname/VERSION`` holds the version; the zip is the same when written twice; compressed
files are stored, the rest deflated."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from doiname_build import paths, site_zip
from doiname_build.wheel import project_metadata

pytestmark = pytest.mark.e2e


def test_the_zip_holds_the_site(site_dir: Path) -> None:
    version = str(project_metadata()["version"])
    path = site_zip.zip_path(version)
    assert path.is_file(), "python3 build.py build writes the zip"
    folder = "doiname/"
    files = {p.relative_to(site_dir).as_posix(): p for p in site_dir.rglob("*") if p.is_file()}
    for needed in ("index.html", "widget.js", "widget-frame.html", "widget-demo.html",
                   "app.js", "_headers", "pyodide/pyodide.asm.wasm"):
        assert needed in files, needed
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        assert names == sorted(names)
        assert {n.removeprefix(folder) for n in names} == {*files, "VERSION"}
        assert all(n.startswith(folder) for n in names)
        assert z.read("doiname/VERSION").decode() == f"{version}\n"
        for name in names:
            if name == "doiname/VERSION":
                continue
            rel = name.removeprefix(folder)
            assert z.read(name) == files[rel].read_bytes(), rel
            info = z.getinfo(name)
            stored = rel.endswith(site_zip.STORED)
            assert info.compress_type == (zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED)


def test_the_zip_is_reproducible(site_dir: Path, tmp_path: Path) -> None:
    one = site_zip.site_zip("0.0.0-test", site_dir, tmp_path / "a")
    two = site_zip.site_zip("0.0.0-test", site_dir, tmp_path / "b")
    assert one.read_bytes() == two.read_bytes()
    assert paths.DIST not in one.parents
