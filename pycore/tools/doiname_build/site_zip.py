"""``dist/doiname-site-VERSION.zip``: the built site as one download, to host as it is.

A library web manager who wants the widget or the page on their own server unpacks this
zip into a folder of their web server (README, "Embed on your site"). Every file of
``dist/site/`` is in it under one folder ``doiname/`` (without the version, so the embed
address stays the same across upgrades: unpacking a newer zip over it upgrades in
place), with the precompressed ``.br`` and ``.gz`` twins, and ``doiname/VERSION`` says
which version it is. The zip is reproducible: names sorted, one fixed time stamp,
files that are compressed already (``.br``, ``.gz``, ``.whl``, ``.zip``, ``.wasm``'s
twins) stored, the rest deflated.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

from .paths import DIST, SITE

#: Files that are compressed already: stored as they are.
STORED = (".br", ".gz", ".whl", ".zip")
#: The time stamp of every entry (zip cannot say 1970; this is its earliest).
STAMP = (1980, 1, 1, 0, 0, 0)
#: The one folder of the zip (the same for every version).
FOLDER = "doiname"
#: The file inside it that holds the version.
VERSION_FILE = "VERSION"


def zip_path(version: str, dist: Path = DIST) -> Path:
    """Where the zip of ``version`` is written."""
    return dist / f"doiname-site-{version}.zip"


def site_zip(version: str, site: Path = SITE, dist: Path = DIST) -> Path:
    """Write ``dist/doiname-site-VERSION.zip`` from ``site`` (older versions' zips are
    removed); return its path."""
    dest = zip_path(version, dist)
    dist.mkdir(parents=True, exist_ok=True)
    for old in dist.glob("doiname-site-*.zip"):
        if old != dest:
            old.unlink()
    tmp = dest.with_name(f".{dest.name}-{os.getpid()}")
    files = {p.relative_to(site).as_posix(): p for p in site.rglob("*") if p.is_file()}
    entries: dict[str, bytes | Path] = {**files, VERSION_FILE: f"{version}\n".encode()}
    with zipfile.ZipFile(tmp, "w") as z:
        for rel in sorted(entries):
            data = entries[rel]
            info = zipfile.ZipInfo(f"{FOLDER}/{rel}", date_time=STAMP)
            info.external_attr = 0o644 << 16
            stored = rel.endswith(STORED)
            info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
            z.writestr(info, data if isinstance(data, bytes) else data.read_bytes(),
                       compresslevel=None if stored else 9)
    tmp.replace(dest)
    return dest
