// @ts-check
/**
 * The site worker's normal boot (web/src/worker/boot.js), for the build's Node scripts
 * (make-snapshot.mjs, compile-stdlib.mjs), and the install it ships:
 *
 * - `installCore`: Pyodide from PYODIDE_DIR with micropip loaded through its lock file,
 *   the core wheel installed with micropip from the in-memory file system (`emfs:`,
 *   deps=False). compile-stdlib.mjs compiles what this install wrote (the core's files,
 *   `CORE_FILES` in the site).
 * - `bootCore`: as the worker boots: Pyodide (with the standard library the worker
 *   mounts when `options.stdLibURL` names it: make-snapshot.mjs, compile-stdlib.mjs
 *   `--list`), that zip unpacked into site-packages,
 *   `doiname.bridge` imported through `doiname.warm` (or its import recorded, for the
 *   build to ship) and asked its first answer (an Inspect of a name), and
 *   `doiname.bridge.arrival` imported and its integrity check run (the worker waits
 *   with it for the rest of the core's files; what it imports to check them must come
 *   before them).
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { basename, resolve } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Pyodide's loader from `pyodideDir`, and the options both ways pass it.
 * @param {string} pyodideDir
 * @returns {Promise<{loadPyodide: any, version: string, indexURL: string}>}
 */
async function loader(pyodideDir) {
  const indexURL = resolve(pyodideDir) + "/";
  const { loadPyodide, version } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
  return { loadPyodide, version, indexURL };
}

/**
 * Where this runtime installs packages (as the worker asks it: web/src/worker/boot.js).
 * @param {any} pyodide
 * @returns {string}
 */
export function sitePackages(pyodide) {
  return String(pyodide.runPython("__import__('site').getsitepackages()[0]"));
}

/**
 * The core wheel installed by micropip, as a page's user would; `options` are passed on
 * to `loadPyodide`.
 * @param {string} pyodideDir the site's `pyodide/` (loader, runtime, lock file, micropip)
 * @param {string} wheelPath the core wheel
 * @param {Record<string, unknown>} [options]
 * @returns {Promise<{pyodide: any, sitePackages: string}>}
 */
export async function installCore(pyodideDir, wheelPath, options = {}) {
  const { loadPyodide, indexURL } = await loader(pyodideDir);
  const pyodide = await loadPyodide({ indexURL, packageBaseUrl: indexURL, packages: ["micropip"], ...options });
  const name = basename(wheelPath).replace(/[^A-Za-z0-9_.+-]/g, "_");
  pyodide.FS.writeFile(`/tmp/${name}`, readFileSync(wheelPath));
  await pyodide.runPythonAsync("import micropip");
  await pyodide.runPythonAsync(`await micropip.install(${JSON.stringify(`emfs:/tmp/${name}`)}, deps=False)`);
  pyodide.FS.unlink(`/tmp/${name}`);
  return { pyodide, sitePackages: sitePackages(pyodide) };
}

/**
 * Boot as the worker does: the core's files (`coreFiles`, the zip compile-stdlib.mjs
 * made) unpacked into site-packages, `doiname.bridge` imported and asked once; `options`
 * are passed on to `loadPyodide`.
 * @param {string} pyodideDir the site's `pyodide/`
 * @param {string} coreFiles the core's installed files, compiled (a zip; gzipped when its
 *   name ends in `.gz`, as the site ships it)
 * @param {Record<string, unknown>} [options]
 * @param {{record: boolean}} [how] record the import's work (doiname.warm `record`), or
 *   import with the record the core's files hold
 * @returns {Promise<{pyodide: any, version: string, sitePackages: string,
 *   record: {bytes: Uint8Array, entry: string} | null, warmed: Record<string, number>}>}
 *   the runtime, the record made (and where in site-packages doiname.warm reads it), and
 *   what the import took from a record (doiname.warm `seen`)
 */
export async function bootCore(pyodideDir, coreFiles, options = {}, how = { record: false }) {
  const { loadPyodide, version, indexURL } = await loader(pyodideDir);
  const pyodide = await loadPyodide({ indexURL, packageBaseUrl: indexURL, ...options });
  const site = sitePackages(pyodide);
  const zip = coreFiles.endsWith(".gz") ? gunzipSync(readFileSync(coreFiles)) : readFileSync(coreFiles);
  pyodide.unpackArchive(new Uint8Array(zip), "zip", { extractDir: site });
  // Imported through doiname.warm, as the worker imports it: recorded, or with the record
  // the core's files hold (none: the plain import).
  /** @type {{bytes: Uint8Array, entry: string} | null} */
  let record = null;
  if (how.record) {
    pyodide.runPython(
      "import doiname.warm\nwith open('/tmp/warm.bin', 'wb') as f:\n    f.write(doiname.warm.record('doiname.bridge'))",
    );
    // Where doiname.warm reads it, as named in site-packages.
    const entry = pyodide.runPython(
      "import os\nos.path.relpath(os.path.join(os.path.dirname(doiname.warm.__file__), doiname.warm.RECORD), " +
        `${JSON.stringify(site)})`,
    );
    record = { bytes: pyodide.FS.readFile("/tmp/warm.bin"), entry: String(entry) };
    pyodide.FS.unlink("/tmp/warm.bin");
  } else {
    pyodide.runPython("import doiname.warm\ndoiname.warm.imported('doiname.bridge')");
  }
  const warmed = JSON.parse(String(pyodide.runPython("import json\njson.dumps(doiname.warm.seen)")));
  const bridge = pyodide.pyimport("doiname.bridge");
  bridge.request_json("inspect", '{"text": "10.1000/182"}');
  bridge.destroy();
  // What the arrival needs to check the rest before unpacking it (hashlib): it cannot
  // fetch the rest for itself, so it is measured, and shipped, with the boot's modules.
  pyodide.runPython("__import__('doiname.bridge.arrival').bridge.arrival.integrity_ok(b'', 'sha256- sha384- sha512-')");
  return { pyodide, version, sitePackages: site, record, warmed };
}
