// @ts-check
/**
 * Build-time memory snapshot of the site's booted interpreter, run by build.py:
 *
 *     node make-snapshot.mjs PYODIDE_DIR CORE_WHEEL OUT_DIR
 *
 * Boots Pyodide from PYODIDE_DIR (the site's copy: loader, runtime, lock file, micropip's
 * wheel) for a snapshot as the worker does (boot-core.mjs: micropip imported, CORE_WHEEL
 * installed with it, `doiname.bridge` imported), and writes to OUT_DIR:
 *
 * - `snapshot.bin`: the WebAssembly memory (Python's heap) with a header carrying
 *   Pyodide's build id (a hash of pyodide.asm.mjs and pyodide.asm.wasm; Pyodide refuses
 *   to restore it into another build);
 * - `snapshot-files.zip`: the files micropip wrote to site-packages. The snapshot holds
 *   memory only, not the Emscripten file system, so after a restore site-packages is
 *   empty: the worker unpacks this archive there again (metadata, lazy imports);
 * - `snapshot.json`: what the worker needs to restore it (`sitePackages`).
 *
 * Pyodide's private snapshot API is used by web/src/worker/snapshot.js only
 * (`MAKE_OPTIONS`, `makeSnapshot` here; `restore` in the worker).
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { MAKE_OPTIONS, makeSnapshot } from "../../web/src/worker/snapshot.js";
import { bootCore } from "./boot-core.mjs";

const [pyodideDir, wheelPath, outDir] = process.argv.slice(2);
if (!pyodideDir || !wheelPath || !outDir) {
  console.error("usage: node make-snapshot.mjs PYODIDE_DIR CORE_WHEEL OUT_DIR");
  process.exit(2);
}
const started = performance.now();
const { pyodide, version } = await bootCore(pyodideDir, wheelPath, MAKE_OPTIONS);

// site-packages as micropip left it, in a zip (deflated: the local server does not gzip).
const sitePackages = String(pyodide.runPython(`
def _snapshot_files():
    import os, sysconfig, zipfile
    site = "/" + os.path.normpath(sysconfig.get_paths()["purelib"]).lstrip("/")
    with zipfile.ZipFile("/tmp/snapshot-files.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        for top, dirs, files in os.walk(site):
            dirs.sort()
            for f in sorted(files):
                if not f.endswith(".pyc"):
                    path = os.path.join(top, f)
                    zf.write(path, os.path.relpath(path, site))
    return site
_snapshot_files()`));
pyodide.runPython("del _snapshot_files");
const files = pyodide.FS.readFile("/tmp/snapshot-files.zip");
pyodide.FS.unlink("/tmp/snapshot-files.zip");

const snapshot = makeSnapshot(pyodide);
writeFileSync(resolve(outDir, "snapshot.bin"), snapshot);
writeFileSync(resolve(outDir, "snapshot-files.zip"), files);
const info = { pyodideVersion: version, sitePackages, bytes: snapshot.length,
  seconds: Math.round(performance.now() - started) / 1000 };
writeFileSync(resolve(outDir, "snapshot.json"), JSON.stringify(info));
console.log(JSON.stringify(info));
