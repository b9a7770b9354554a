"""``dist/doiname-site-VERSION.zip``: the built site as one download, to host as it is.

A library web manager who wants the widget or the page on their own server unpacks this
zip into a folder of their web server (README, "Embed on your site"). Every file of
``dist/site/`` is in it under one folder ``doiname-site-VERSION/``, with the precompressed
``.br`` and ``.gz`` twins. The zip is reproducible: names sorted, one fixed time stamp,
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
    folder = f"doiname-site-{version}"
    tmp = dest.with_name(f".{dest.name}-{os.getpid()}")
    with zipfile.ZipFile(tmp, "w") as z:
        for path in sorted(p for p in site.rglob("*") if p.is_file()):
            rel = path.relative_to(site).as_posix()
            info = zipfile.ZipInfo(f"{folder}/{rel}", date_time=STAMP)
            info.external_attr = 0o644 << 16
            stored = path.name.endswith(STORED)
            info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
            z.writestr(info, path.read_bytes(), compresslevel=None if stored else 9)
    tmp.replace(dest)
    return dest
