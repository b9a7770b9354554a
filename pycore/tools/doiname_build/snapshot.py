"""The build-time memory snapshot of the booted engine (made by Node, used by the site's
worker when it matches the runtime)."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import os
import shutil
from pathlib import Path

from .integrity import sri
from .paths import (
    BOOT_SCRIPT,
    CORE_FILES,
    PYODIDE_FILES,
    SNAPSHOT_FILES,
    SNAPSHOT_MODULE,
    SNAPSHOT_SCRIPT,
    STDLIB_BOOT,
)
from .proc import NodeFailed, cached_node_output, log, sha256_file


def memory_snapshot(runtime: Path, core_files: Path) -> dict[str, str] | None:
    """Write the memory snapshot of the booted interpreter (the core's files unpacked,
    ``doiname.bridge`` imported) to ``runtime`` (the site's ``pyodide/``) and return the
    paths build-info.js gives the worker, or None (logged) when it cannot be made: the
    site then boots the normal way. The files it needs back after a restore are the
    core's (``core_files``, CORE_FILES, which the normal boot unpacks too).

    ``snapshot.json`` carries the match data the worker checks before using it (Pyodide's
    version and the sha256 of pyodide.asm.wasm and of the core's files it was made with);
    Pyodide itself refuses a snapshot of another build of pyodide.asm.mjs/.wasm.
    ``snapshot.bin.gz`` is gzip (the worker decompresses it: any static host works);
    results are kept in .cache/snapshot/, keyed by the hash of every input."""
    if os.environ.get("DOINAME_SNAPSHOT") == "0":
        log("memory snapshot skipped (DOINAME_SNAPSHOT=0)")
        return None
    def finish(work: Path) -> None:
        made = json.loads((work / "snapshot.json").read_text(encoding="utf-8"))
        raw = work / "snapshot.bin"
        packed = gzip.compress(raw.read_bytes(), compresslevel=9, mtime=0)
        (work / "snapshot.bin.gz").write_bytes(packed)
        manifest = {
            "pyodideVersion": made["pyodideVersion"],
            "wasmSha256": sha256_file(runtime / "pyodide.asm.wasm"),
            "coreIntegrity": "sha256-" + base64.b64encode(
                hashlib.sha256(core_files.read_bytes()).digest()).decode("ascii"),
            "sitePackages": made["sitePackages"],
            "bytes": raw.stat().st_size,
            "gzipBytes": len(packed),
        }
        raw.unlink()
        (work / "snapshot.json").write_text(json.dumps(manifest, indent=2) + "\n",
                                           encoding="utf-8")

    # The standard library the worker mounts (STDLIB_BOOT): the snapshot's zip importer
    # holds that zip's listing.
    inputs = [BOOT_SCRIPT, SNAPSHOT_MODULE, core_files,
              *(runtime / f for f in (*PYODIDE_FILES, STDLIB_BOOT, "pyodide-lock.json"))]
    try:
        cached = cached_node_output("snapshot", SNAPSHOT_SCRIPT, inputs,
                                    [str(runtime), str(core_files), str(runtime / STDLIB_BOOT)],
                                    finish)
    except NodeFailed as err:
        log(f"memory snapshot skipped: {err}")
        return None
    for name in SNAPSHOT_FILES:
        shutil.copy2(cached / name, runtime / name)
    manifest = json.loads((cached / "snapshot.json").read_text(encoding="utf-8"))
    log(f"memory snapshot: {manifest['bytes'] / 1e6:.1f} MB, "
        f"{manifest['gzipBytes'] / 1e6:.1f} MB gzip")
    manifest_name, data_name = SNAPSHOT_FILES
    return {"manifest": f"pyodide/{manifest_name}", "data": f"pyodide/{data_name}",
            "files": f"pyodide/{CORE_FILES}",
            # build-info.js is under the page's integrity checks: so are these three.
            "manifestIntegrity": sri((runtime / manifest_name).read_bytes()),
            "dataIntegrity": sri((runtime / data_name).read_bytes()),
            "filesIntegrity": sri(core_files.read_bytes())}
