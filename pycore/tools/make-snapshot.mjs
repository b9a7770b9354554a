// @ts-check
/**
 * Build-time memory snapshot of the site's booted interpreter, run by build.py:
 *
 *     node make-snapshot.mjs PYODIDE_DIR CORE_FILES STDLIB OUT_DIR
 *
 * Boots Pyodide from PYODIDE_DIR (the site's copy: loader, runtime, lock file) for a
 * snapshot as the worker does (boot-core.mjs: STDLIB, the standard library's modules the
 * boot imports, as its standard library; CORE_FILES, the core as micropip installs
 * it, compiled, unpacked into site-packages; `doiname.bridge` imported and asked once),
 * and writes to OUT_DIR:
 *
 * - `snapshot.bin`: the WebAssembly memory (Python's heap) with a header carrying
 *   Pyodide's build id (a hash of pyodide.asm.mjs and pyodide.asm.wasm; Pyodide refuses
 *   to restore it into another build);
 * - `snapshot.json`: what the worker needs to restore it (`sitePackages`). The snapshot
 *   holds memory only, not the Emscripten file system, so after a restore site-packages
 *   is empty: the worker unpacks CORE_FILES there again (metadata, lazy imports).
 *
 * Pyodide's private snapshot API is used by web/src/worker/snapshot.js only
 * (`MAKE_OPTIONS`, `makeSnapshot` here; `restore` in the worker).
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { MAKE_OPTIONS, makeSnapshot } from "../../web/src/worker/snapshot.js";
import { bootCore } from "./boot-core.mjs";

const [pyodideDir, coreFiles, stdlib, outDir] = process.argv.slice(2);
if (!pyodideDir || !coreFiles || !stdlib || !outDir) {
  console.error("usage: node make-snapshot.mjs PYODIDE_DIR CORE_FILES STDLIB OUT_DIR");
  process.exit(2);
}
const started = performance.now();
const { pyodide, version, sitePackages } = await bootCore(pyodideDir, coreFiles, {
  ...MAKE_OPTIONS,
  stdLibURL: resolve(stdlib),
});
const snapshot = makeSnapshot(pyodide);
writeFileSync(resolve(outDir, "snapshot.bin"), snapshot);
const info = { pyodideVersion: version, sitePackages, bytes: snapshot.length,
  seconds: Math.round(performance.now() - started) / 1000 };
writeFileSync(resolve(outDir, "snapshot.json"), JSON.stringify(info));
console.log(JSON.stringify(info));
