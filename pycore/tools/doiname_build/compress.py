"""Precompressed copies of the site's files: ``NAME.br`` and ``NAME.gz`` next to each file
a host would compress, written once per content (kept in .cache/compress/ by sha256).

Hosts that serve precompressed files (nginx ``gzip_static``/``brotli_static``, Caddy
``precompressed``, ``build.py serve``) send them with ``Content-Encoding``; the others
compress the same types on the fly. Zip archives and wheels are already compressed and are
left as they are. Brotli comes from Node's zlib (Python's standard library has none)."""

from __future__ import annotations

import gzip
import hashlib
import os
import shutil
import subprocess
from pathlib import Path

from .paths import CACHE, TOOLS
from .proc import log

#: File types worth compressing: text and WebAssembly (what hosts compress themselves).
COMPRESSIBLE = frozenset({".html", ".js", ".mjs", ".css", ".json", ".wasm", ".svg", ".txt",
                          ".webmanifest", ".map", ".ico"})
#: The encodings written, in the order a server prefers them.
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))
#: Files smaller than this are sent as they are (compression would not pay for itself).
MIN_BYTES = 512
BROTLI_SCRIPT = TOOLS / "brotli.mjs"


def compressible(path: Path) -> bool:
    """Whether the build writes compressed copies of ``path``."""
    return path.suffix in COMPRESSIBLE and path.stat().st_size >= MIN_BYTES


def precompress(site: Path) -> int:
    """Write ``.br`` and ``.gz`` next to every compressible file of ``site``; returns how
    many files were compressed. Without Node only ``.gz`` is written (logged)."""
    files = {p: hashlib.sha256(p.read_bytes()).hexdigest()
             for p in sorted(site.rglob("*")) if p.is_file() and compressible(p)}
    store = CACHE / "compress"
    store.mkdir(parents=True, exist_ok=True)
    node = shutil.which("node")
    if node is None:
        log("precompression: node is not installed; writing .gz only")
    encodings = [suffix for _, suffix in ENCODINGS if node is not None or suffix != ".br"]
    missing = list({store / f"{key}.br": p for p, key in files.items()
                    if ".br" in encodings and not (store / f"{key}.br").is_file()}.items())
    if missing:
        log(f"$ node {BROTLI_SCRIPT.name} ({len(missing)} files)")
        args = [a for dest, src in missing for a in (str(src), f"{dest}.{os.getpid()}")]
        done = subprocess.run([str(node), str(BROTLI_SCRIPT), *args], check=False)
        if done.returncode != 0:
            raise SystemExit(f"build.py: brotli.mjs failed with exit code {done.returncode}")
        for dest, _ in missing:
            Path(f"{dest}.{os.getpid()}").replace(dest)
    for path, key in files.items():
        gz = store / f"{key}.gz"
        if not gz.is_file():
            _write(gz, gzip.compress(path.read_bytes(), compresslevel=9, mtime=0))
        for suffix in encodings:
            shutil.copyfile(store / f"{key}{suffix}", path.with_name(path.name + suffix))
    return len(files)


def _write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}-{os.getpid()}")
    tmp.write_bytes(data)
    tmp.replace(path)
