"""What the first visit's files cost to send, by format: for each file of the built site
a host can send compressed, gzip (level 9, as the build writes ``NAME.gz``) against
brotli (quality 11, ``NAME.br``); for the two archives the boot reads, their own
compression (deflated entries, as shipped) against stored entries compressed whole
(gzip, brotli, xz); and the lock file as the boot reads it against Pyodide's own.

Sizes only, no timing: bench/boot.py measures what they cost in time. Brotli of the
archives comes from Node's zlib (quality 11), like the build's.

    python3 bench/sizes.py [--no-build]
"""

from __future__ import annotations

import argparse
import gzip
import io
import lzma
import shutil
import subprocess
import zipfile

from common import ROOT  # noqa: F401  (puts the build package on the path)

from doiname_build import compress, paths
from doiname_build import site as site_build

BROTLI_JS = ("const z = require('zlib'); const fs = require('fs');"
             "const d = fs.readFileSync(0); process.stdout.write(String(z.brotliCompressSync(d, "
             "{params: {[z.constants.BROTLI_PARAM_QUALITY]: 11, "
             "[z.constants.BROTLI_PARAM_LGWIN]: 24}}).length));")


def brotli_size(data: bytes) -> int | None:
    node = shutil.which("node")
    if node is None:
        return None
    done = subprocess.run([node, "-e", BROTLI_JS], input=data, capture_output=True,
                          check=True)
    return int(done.stdout)


def stored(data: bytes) -> bytes:
    """The same archive with every entry stored."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as dst:
        for info in src.infolist():
            dst.writestr(info, src.read(info), compress_type=zipfile.ZIP_STORED)
    return out.getvalue()


def kb(n: int | None) -> str:
    return "-" if n is None else f"{n / 1e3:8.1f} kB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--no-build", action="store_true", help="use dist/site as it is")
    args = parser.parse_args()
    site = paths.SITE if args.no_build and (paths.SITE / "sw.js").is_file() else \
        site_build.build()

    print("Files a host can send compressed (the build's NAME.gz and NAME.br):")
    print(f"{'file':<36} {'raw':>11} {'gzip -9':>11} {'brotli 11':>11}  brotli/gzip")
    total = {"raw": 0, "gz": 0, "br": 0}
    for path in sorted(site.rglob("*")):
        if not path.is_file() or not compress.compressible(path):
            continue
        raw = path.stat().st_size
        gz = path.with_name(path.name + ".gz").stat().st_size
        br = path.with_name(path.name + ".br").stat().st_size
        total["raw"] += raw
        total["gz"] += gz
        total["br"] += br
        print(f"{path.relative_to(site).as_posix():<36} {kb(raw)} {kb(gz)} {kb(br)}  "
              f"{br / gz:.2f}")
    print(f"{'all of them':<36} {kb(total['raw'])} {kb(total['gz'])} {kb(total['br'])}  "
          f"{total['br'] / total['gz']:.2f}")

    print("\nArchives the boot reads (sent as they are: hosts do not compress zip files):")
    print(f"{'file':<36} {'as shipped':>11} | stored entries, whole: "
          f"{'raw':>11} {'gzip -9':>11} {'brotli 11':>11} {'xz -9e':>11}")
    runtime = site / "pyodide"
    archives = {"python_stdlib.zip": (runtime / "python_stdlib.zip").read_bytes(),
                paths.STDLIB_BOOT: (runtime / paths.STDLIB_BOOT).read_bytes(),
                **{name: gzip.decompress((runtime / name).read_bytes())
                   for name in (paths.CORE_FILES, paths.CORE_LATER)}}
    wheel = next((site / "wheels").glob("doiname-*.whl"))
    archives[f"wheels/{wheel.name}"] = wheel.read_bytes()
    for name, data in archives.items():
        flat = stored(data)
        shipped = (runtime / name).stat().st_size if (runtime / name).is_file() else len(data)
        print(f"{name:<36} {kb(shipped)} |                        {kb(len(flat))} "
              f"{kb(len(gzip.compress(flat, 9, mtime=0)))} {kb(brotli_size(flat))} "
              f"{kb(len(lzma.compress(flat, preset=9 | lzma.PRESET_EXTREME)))}")

    lock = runtime / "pyodide-lock.json"
    sent = lock.with_name(lock.name + ".br")
    npm = paths.NODE_PYODIDE / "pyodide-lock.json"
    print(f"\npyodide-lock.json: the site's {kb(lock.stat().st_size)} raw, "
          f"{kb((sent if sent.is_file() else lock).stat().st_size)} sent; Pyodide's own "
          f"{kb(npm.stat().st_size)} raw, {kb(brotli_size(npm.read_bytes()))} brotli")

if __name__ == "__main__":
    main()
