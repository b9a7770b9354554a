// @ts-check
/**
 * Where the worker imports Pyodide's loader from. Pyodide's loader (`pyodide.mjs`)
 * would `import()` its runtime module (`pyodide.asm.mjs`) itself; here both are fetched
 * with the build's integrity values (engine/verified.js) and imported from `blob:` URLs
 * through a small wrapper module that hands the runtime to the loader
 * (`createPyodideModule`). The single file's worker uses the same wrapper for its
 * inlined copies.
 * @module worker/loader
 */

import { moduleURL, verifiedScriptURL } from "../engine/verified.js";

/** @typedef {import("../engine/config.js").WorkerConfig} WorkerConfig */

/**
 * A module that exports `loadPyodide` (the loader at `loaderURL`, given the runtime
 * module at `asmURL`) and `version`, as `pyodide.mjs` does.
 * @param {string} loaderURL
 * @param {string} asmURL
 * @returns {string} its `blob:` URL
 */
export function loaderWrapper(loaderURL, asmURL) {
  return moduleURL(
    [
      `import { loadPyodide as load, version } from ${JSON.stringify(loaderURL)};`,
      `import createPyodideModule from ${JSON.stringify(asmURL)};`,
      "export { version };",
      "export function loadPyodide(options) { return load({ ...options, createPyodideModule }); }",
      "",
    ].join("\n"),
  );
}

/**
 * The URL to import Pyodide's loader from: a wrapper of the two module scripts, checked
 * against the integrity values of `config.runtimeFiles`; the config's own
 * `pyodideModuleURL` when those carry none (the single file makes its wrapper itself).
 * Rejects with a plain reason when a script is not the build's.
 * @param {WorkerConfig} config
 * @returns {Promise<string>}
 */
export async function pyodideLoaderURL(config) {
  const modules = (config.runtimeFiles ?? []).filter((f) => f.module && f.integrity);
  const loader = modules.find((f) => f.url === config.pyodideModuleURL);
  const runtime = modules.find((f) => f !== loader);
  if (!loader || !runtime) return config.pyodideModuleURL;
  const [loaderURL, asmURL] = await Promise.all(
    [loader, runtime].map((f) =>
      verifiedScriptURL(f.url, String(f.integrity), {
        what: `the Python runtime's script ${f.url.split("/").pop()}`,
      }),
    ),
  );
  return loaderWrapper(loaderURL, asmURL);
}
