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


#: Brotli runs started ahead of :func:`precompress` (:func:`precompress_ahead`).
_AHEAD: list[tuple[subprocess.Popen[bytes], list[Path]]] = []


def _start_brotli(node: str,
                  sources: dict[Path, str]) -> list[tuple[subprocess.Popen[bytes], list[Path]]]:
    """Start ``brotli.mjs`` on each file of ``sources`` (path -> sha256) whose ``.br`` the
    cache lacks and no earlier run is making, in up to two processes (two cores; the
    largest file alone in one)."""
    store = CACHE / "compress"
    store.mkdir(parents=True, exist_ok=True)
    making = {dest for _, dests in _AHEAD for dest in dests}
    missing = sorted({store / f"{key}.br": p for p, key in sources.items()
                      if not (store / f"{key}.br").is_file()
                      and store / f"{key}.br" not in making}.items(),
                     key=lambda item: -item[1].stat().st_size)
    if not missing:
        return []
    log(f"$ node {BROTLI_SCRIPT.name} ({len(missing)} files)")
    lanes = [missing[:1], missing[1:]] if len(missing) > 1 else [missing]
    started = []
    for lane in lanes:
        args = [a for dest, src in lane for a in (str(src), f"{dest}.{os.getpid()}")]
        started.append((subprocess.Popen([node, str(BROTLI_SCRIPT), *args]),
                        [dest for dest, _ in lane]))
    return started


def _finish_brotli(runs: list[tuple[subprocess.Popen[bytes], list[Path]]]) -> None:
    """Wait for brotli runs; move their outputs into the cache."""
    for proc, dests in runs:
        if proc.wait() != 0:
            raise SystemExit(f"build.py: brotli.mjs failed with exit code {proc.returncode}")
        for dest in dests:
            Path(f"{dest}.{os.getpid()}").replace(dest)


def precompress_ahead(paths: list[Path]) -> None:
    """Start compressing ``paths`` (files copied unchanged into the site, e.g. Pyodide's)
    in the background, into the cache :func:`precompress` reads: the WebAssembly alone
    takes most of a build's time on one core, while the build and the set-up go on."""
    node = shutil.which("node")
    if node is not None:
        _AHEAD.extend(_start_brotli(node, {p: hashlib.sha256(p.read_bytes()).hexdigest()
                                           for p in paths if compressible(p)}))


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
    ahead, _AHEAD[:] = list(_AHEAD), []
    _finish_brotli(ahead)  # what was started ahead is in the cache now
    runs = _start_brotli(node, files) if node is not None else []
    for path, key in files.items():  # gzip here while brotli runs
        gz = store / f"{key}.gz"
        if not gz.is_file():
            _write(gz, gzip.compress(path.read_bytes(), compresslevel=9, mtime=0))
    _finish_brotli(runs)
    for path, key in files.items():
        for suffix in encodings:
            shutil.copyfile(store / f"{key}{suffix}", path.with_name(path.name + suffix))
    return len(files)


def _write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}-{os.getpid()}")
    tmp.write_bytes(data)
    tmp.replace(path)
