// @ts-check
/**
 * The site worker's normal boot (web/src/worker/boot.js), for the build's Node scripts
 * (make-snapshot.mjs, compile-stdlib.mjs): Pyodide from PYODIDE_DIR with micropip loaded
 * through its lock file, `import micropip`, the core wheel installed with micropip from
 * the in-memory file system (`emfs:`, deps=False), `doiname.bridge` imported.
 */
import { readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Boot as the worker does; `options` are passed on to `loadPyodide`.
 * @param {string} pyodideDir the site's `pyodide/` (loader, runtime, lock file, micropip)
 * @param {string} wheelPath the core wheel
 * @param {Record<string, unknown>} [options]
 * @returns {Promise<{pyodide: any, version: string}>}
 */
export async function bootCore(pyodideDir, wheelPath, options = {}) {
  const indexURL = resolve(pyodideDir) + "/";
  const { loadPyodide, version } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
  const pyodide = await loadPyodide({ indexURL, packageBaseUrl: indexURL, packages: ["micropip"], ...options });
  const name = basename(wheelPath).replace(/[^A-Za-z0-9_.+-]/g, "_");
  pyodide.FS.writeFile(`/tmp/${name}`, readFileSync(wheelPath));
  await pyodide.runPythonAsync("import micropip");
  await pyodide.runPythonAsync(`await micropip.install(${JSON.stringify(`emfs:/tmp/${name}`)}, deps=False)`);
  pyodide.pyimport("doiname.bridge");
  pyodide.FS.unlink(`/tmp/${name}`);
  return { pyodide, version };
}
