// @ts-check
/**
 * Starting Python in the worker: Pyodide, micropip and the doiname wheel, or the
 * build-time memory snapshot when the config names one that fits (snapshot.js). Returns
 * the module `doiname.bridge`.
 *
 * The normal way: Pyodide, micropip (through `loadPyodide({packages: ["micropip"]})`) and
 * the core wheel's bytes are fetched by the worker itself, every file asked for the moment
 * the config arrives and the two wheels the moment the others are in (fetches.js), their
 * progress reported; the wheel is then written to the
 * in-memory file system and installed with micropip from there (`emfs:`). When the
 * snapshot is missing, does not match, or fails to load, the worker says so on the
 * console and boots the normal way. Without a snapshot in the config (the single file),
 * only the normal way is tried. The snapshot is used when it pays (`snapshotWhen`): by
 * default only when the offline copy of this build holds it (`storedSnapshot`), since on
 * a first visit its download costs more than the normal boot saves. Either way Pyodide's
 * two module scripts are checked against the build's integrity values before they run
 * (loader.js), once.
 * @module worker/boot
 */

import { startFetches } from "./fetches.js";
import { pyodideLoaderURL } from "./loader.js";
import { restore } from "./snapshot.js";

/** @typedef {import("../engine/config.js").WorkerConfig} WorkerConfig */
/** @typedef {"runtime" | "packages" | "core"} Phase */
/** @typedef {import("./fetches.js").Progress} Progress */

/** The names of the service worker's caches (web/src/sw.js), one per build. */
export const CACHE_PREFIX = "doiname-";

/**
 * A plain one-line reason from whatever was thrown (a Python traceback's last line).
 * @param {unknown} err
 * @returns {string}
 */
export function plain(err) {
  const text = err && typeof err === "object" && "message" in err ? String(err.message) : String(err);
  const lines = text
    .trim()
    .split("\n")
    .filter((l) => l.trim());
  return lines.length ? lines[lines.length - 1].trim() : "unknown error";
}

/**
 * The core wheel's bytes: given in the config, or fetched (with its integrity hash).
 * @param {WorkerConfig} config
 * @returns {Promise<Uint8Array>}
 */
async function wheelBytes(config) {
  if (config.coreWheelBytes) return new Uint8Array(config.coreWheelBytes);
  /** @type {RequestInit} */
  const init = config.coreIntegrity ? { integrity: config.coreIntegrity } : {};
  let response;
  try {
    response = await fetch(config.coreWheelURL, init);
  } catch (err) {
    // A missing file fails its integrity check here too: the browser does not say which.
    throw new Error(`the doiname package could not be downloaded or did not match its hash (${plain(err)})`);
  }
  if (!response.ok) throw new Error(`the doiname package could not be downloaded (HTTP ${response.status})`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * The options of `loadPyodide` common to both ways of booting.
 * @param {WorkerConfig} config
 * @returns {Record<string, unknown>}
 */
function pyodideOptions(config) {
  /** @type {Record<string, unknown>} */
  const options = { indexURL: config.indexURL, packageBaseUrl: config.packageBaseUrl ?? config.indexURL };
  if (config.lockFileURL) options.lockFileURL = config.lockFileURL;
  if (config.lockFileContents) options.lockFileContents = config.lockFileContents;
  return options;
}

/**
 * The offline copy of this build that holds its snapshot, or null: a cache of the service
 * worker whose list (`precacheURL`, written once every file is stored, each checked
 * against its integrity value) names this config's snapshot with the same integrity.
 * @param {WorkerConfig} config
 * @returns {Promise<Cache | null>}
 */
export async function storedSnapshot(config) {
  if (typeof caches === "undefined" || !config.precacheURL || !config.snapshotDataURL) return null;
  try {
    for (const name of await caches.keys()) {
      if (!name.startsWith(CACHE_PREFIX)) continue;
      const cache = await caches.open(name);
      const list = await cache.match(config.precacheURL);
      const files = list ? (await list.json())?.files : null;
      if (
        files &&
        files[config.snapshotDataURL] === config.snapshotDataIntegrity &&
        files[String(config.snapshotFilesURL)] === config.snapshotFilesIntegrity &&
        String(config.snapshotURL) in files
      ) {
        return cache;
      }
    }
  } catch (err) {
    console.warn("doiname worker: the offline copy could not be read", err);
  }
  return null;
}

/**
 * Pyodide with micropip, the core wheel installed from the in-memory file system.
 * @param {WorkerConfig} config
 * @param {(phase: Phase, message: string) => void} report
 * @param {(name: string) => void} step
 * @param {(progress: Progress) => void} progress
 * @param {{url: () => Promise<string>, checked: boolean}} loader where to import
 *   Pyodide's loader from (loader.js), and whether its scripts were checked already (by
 *   the snapshot's way): they are then not downloaded again
 * @returns {Promise<any>}
 */
async function installed(config, report, step, progress, loader) {
  const files = (config.runtimeFiles ?? []).filter((f) => !(loader.checked && f.module && f.integrity));
  const fetches = files.length ? startFetches(globalThis, files, progress) : null;
  const wheel = wheelBytes(config);
  wheel.catch(() => {}); // awaited below; do not report it as unhandled meanwhile
  // Module scripts without an integrity value: imported (not fetched) at once, the
  // loader's own import of them then finds them loaded. Those with one are among the
  // downloads started above, which loader.js's requests then get.
  for (const file of files.filter((f) => f.module && !f.integrity && f.url !== config.pyodideModuleURL)) {
    import(file.url).then(
      () => fetches?.done(file.url),
      () => {},
    );
  }
  const { loadPyodide } = await import(await loader.url());
  fetches?.done(config.pyodideModuleURL);
  const loading = loadPyodide({ ...pyodideOptions(config), packages: ["micropip"] });
  // A file refused by its integrity check stops the boot with that reason.
  const pyodide = await (fetches ? Promise.race([loading, fetches.refused]) : loading);
  fetches?.release(); // (the wheels were asked for when the wasm and the stdlib were in)
  step("loadPyodide");
  report("packages", "Installing the doiname package…");
  const bytes = await wheel;
  step("wheel");
  const name = String(config.coreWheelName).replace(/[^A-Za-z0-9_.+-]/g, "_");
  const path = `/tmp/${name}`;
  pyodide.FS.writeFile(path, bytes);
  await pyodide.runPythonAsync("import micropip");
  step("importMicropip");
  await pyodide.runPythonAsync(`await micropip.install(${JSON.stringify(`emfs:${path}`)}, deps=False)`);
  step("install");
  return pyodide;
}

/**
 * Start Python and import `doiname.bridge`: from the snapshot when there is one that
 * fits, else the normal way.
 * @param {WorkerConfig} config
 * @param {(phase: Phase, message: string) => void} report a boot phase reached
 * @param {(name: string) => void} step a step done (its time is kept)
 * @param {(progress: Progress) => void} [progress] the runtime's download so far
 * @returns {Promise<any>} the module `doiname.bridge` (a PyProxy kept for the worker's life)
 */
export async function boot(config, report, step, progress = () => {}) {
  if (typeof WebAssembly !== "object") {
    throw new Error("this browser does not run WebAssembly, which the DOI engine needs");
  }
  report("runtime", "Loading the Python runtime…");
  /** @type {Promise<string> | null} */
  let checked = null;
  const loaderURL = () => {
    checked ??= pyodideLoaderURL(config);
    return checked;
  };
  const when = config.snapshotWhen ?? "stored";
  const stored = config.snapshotURL && when !== "never" ? await storedSnapshot(config) : null;
  if (config.snapshotURL && (stored || when === "always")) {
    try {
      const pyodide = await restore(config, pyodideOptions(config), report, step, stored, loaderURL());
      report("core", "Starting doiname…");
      const bridge = pyodide.pyimport("doiname.bridge");
      const probe = JSON.parse(String(bridge.request_json("inspect", '{"text": "10.1000/182"}')));
      if (!probe || typeof probe !== "object" || !("ok" in probe)) {
        throw new Error("the restored interpreter does not answer");
      }
      step("importCore");
      return bridge;
    } catch (err) {
      step("snapshotFailed");
      // Pyodide's own refusals say why on their first line; a Python error on its last.
      const text = err instanceof Error ? err.message.trim() : String(err);
      const why = text.startsWith("Traceback") ? plain(err) : text.split("\n")[0];
      console.warn(`doiname worker: booting without the memory snapshot: ${why}`, err);
    }
  }
  const pyodide = await installed(config, report, step, progress, { url: loaderURL, checked: checked !== null });
  report("core", "Starting doiname…");
  const bridge = pyodide.pyimport("doiname.bridge");
  step("importCore");
  return bridge;
}
