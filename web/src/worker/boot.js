// @ts-check
/**
 * Starting Python in the worker: Pyodide and the core's files, or the build-time memory
 * snapshot when the config names one that fits (snapshot.js). Returns the module
 * `doiname.bridge`.
 *
 * The normal way: Pyodide and the core's files (`coreFilesURL`: what micropip's install
 * of the core's wheel writes to site-packages, compiled by Pyodide's own Python at build
 * time, in a zip) are fetched by the worker itself, every file asked for the moment the
 * config arrives and the core's the moment the others are in (fetches.js), their
 * progress reported; the zip is unpacked into site-packages (where the runtime says) and
 * `doiname.bridge` imported (through `doiname.warm`, with the record of that import the
 * build made): nothing is compiled and nothing but the first answer's modules is imported
 * before ready. The core's files come in two zips: the modules the
 * first answer imports, and the rest, asked for once the first is in and unpacked when
 * it arrives (site-packages.js `awaitLater`); so does the standard library: the worker
 * mounts the modules the boot imports (`stdLibURL`), and the rest is in the core's second
 * zip. micropip, the way Python packages are
 * installed into this runtime, is loaded once the engine is ready (`afterReady`), not
 * before. When the
 * snapshot is missing, does not match, or fails to load, the worker says so on the
 * console and boots the normal way. Without a snapshot in the config (the single file),
 * only the normal way is tried. The snapshot is used when it pays (`snapshotWhen`): by
 * default only when the offline copy of this build holds it (`storedSnapshot`), since on
 * a first visit its download costs more than the normal boot saves. Either way Pyodide's
 * two module scripts are checked against the build's integrity values before they run
 * (loader.js), once.
 * @module worker/boot
 */

import { gunzipped, startFetches } from "./fetches.js";
import { pyodideLoaderURL } from "./loader.js";
import { awaitLater, REST, unpackCore } from "./site-packages.js";
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
 * Core files (a zip, gzipped whole: ungzipped as they arrive), fetched with their
 * integrity hash.
 * @param {string} url
 * @param {string | undefined} integrity
 * @param {string} what the files, as a message names them
 * @returns {Promise<Uint8Array>}
 */
async function coreZip(url, integrity, what) {
  /** @type {RequestInit} */
  const init = integrity ? { integrity } : {};
  let response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    // A missing file fails its integrity check here too: the browser does not say which.
    throw new Error(`${what} could not be downloaded or did not match its hash (${plain(err)})`);
  }
  if (!response.ok) throw new Error(`${what} could not be downloaded (HTTP ${response.status})`);
  return gunzipped(response);
}

/**
 * The rest of the core's files (`coreLaterURL`), asked for once `after` has settled (the
 * first zip is in: the two never share the connection), or null when the config has none.
 * @param {WorkerConfig} config
 * @param {Promise<unknown>} after
 * @returns {Promise<Uint8Array> | null}
 */
function laterFiles(config, after) {
  const url = config.coreLaterURL;
  if (!url) return null;
  const files = after.then(
    () => coreZip(url, config.coreLaterIntegrity, REST),
    () => coreZip(url, config.coreLaterIntegrity, REST),
  );
  files.catch(() => {}); // awaited by awaitLater, or reported there
  return files;
}

/**
 * The options of `loadPyodide` common to both ways of booting.
 * @param {WorkerConfig} config
 * @returns {Record<string, unknown>}
 */
function pyodideOptions(config) {
  /** @type {Record<string, unknown>} */
  const options = { indexURL: config.indexURL, packageBaseUrl: config.packageBaseUrl ?? config.indexURL };
  if (config.stdLibURL) options.stdLibURL = config.stdLibURL;
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
 * Pyodide with the core's files unpacked into site-packages.
 * @param {WorkerConfig} config
 * @param {(phase: Phase, message: string) => void} report
 * @param {(name: string) => void} step
 * @param {(progress: Progress) => void} progress
 * @param {{url: () => Promise<string>, checked: boolean}} loader where to import
 *   Pyodide's loader from (loader.js), and whether its scripts were checked already (by
 *   the snapshot's way): they are then not downloaded again
 * @returns {Promise<{pyodide: any, later: Promise<Uint8Array> | null}>} the runtime, and
 *   the rest of the core's files under way
 */
async function installed(config, report, step, progress, loader) {
  const files = (config.runtimeFiles ?? []).filter((f) => !(loader.checked && f.module && f.integrity));
  const fetches = files.length ? startFetches(globalThis, files, progress) : null;
  const core = coreZip(config.coreFilesURL, config.coreIntegrity, "the doiname package");
  core.catch(() => {}); // awaited below; do not report it as unhandled meanwhile
  const later = laterFiles(config, core);
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
  const loading = loadPyodide(pyodideOptions(config));
  // A file refused by its integrity check stops the boot with that reason.
  const pyodide = await (fetches ? Promise.race([loading, fetches.refused]) : loading);
  fetches?.release(); // (the core's files were asked for when the wasm and the stdlib were in)
  step("loadPyodide");
  report("packages", "Installing the doiname package…");
  const bytes = await core;
  step("coreFiles");
  unpackCore(pyodide, bytes, sitePackages(pyodide));
  step("install");
  return { pyodide, later };
}

/**
 * Where the runtime installs packages.
 * @param {any} pyodide
 * @returns {string}
 */
function sitePackages(pyodide) {
  return String(pyodide.runPython("__import__('site').getsitepackages()[0]"));
}

/**
 * How long after ready micropip is loaded (ms): the first answers (a keystroke typed
 * before ready is answered the moment it is) do not wait for its download and unpacking.
 */
export const MICROPIP_AFTER_READY_MS = 1000;

/**
 * What waits until the engine is ready: micropip, loaded from the lock file (the site's
 * `pyodide/`, or the single file's copy) so that packages can be installed into this
 * runtime as anywhere in Pyodide (`import micropip` then works); a failure is only logged.
 * It waits for the rest of the files too (`settled`: unpacked, or failed), whose standard
 * library modules installing a package imports: it never has them fetched twice.
 * @param {any} pyodide
 * @param {Promise<void>} settled
 */
function afterReady(pyodide, settled) {
  const delay = new Promise((resolve) => setTimeout(resolve, MICROPIP_AFTER_READY_MS));
  Promise.allSettled([delay, settled]).then(() =>
    pyodide.loadPackage("micropip", { messageCallback: () => {} }).catch((/** @type {unknown} */ err) => {
      console.warn("doiname worker: micropip could not be loaded", err);
    }),
  );
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
      const later = laterFiles(config, Promise.resolve());
      const { settled } = await awaitLater(pyodide, config, sitePackages(pyodide), later);
      afterReady(pyodide, settled);
      return bridge;
    } catch (err) {
      step("snapshotFailed");
      // Pyodide's own refusals say why on their first line; a Python error on its last.
      const text = err instanceof Error ? err.message.trim() : String(err);
      const why = text.startsWith("Traceback") ? plain(err) : text.split("\n")[0];
      console.warn(`doiname worker: booting without the memory snapshot: ${why}`, err);
    }
  }
  const { pyodide, later } = await installed(config, report, step, progress, {
    url: loaderURL,
    checked: checked !== null,
  });
  report("core", "Starting doiname…");
  // With the record of this import the build made (doiname.warm: its dataclasses' code
  // and its patterns' programs), when the core's files hold one that fits this runtime.
  const warm = pyodide.pyimport("doiname.warm");
  const bridge = warm.imported("doiname.bridge");
  warm.destroy();
  step("importCore");
  const { settled } = await awaitLater(pyodide, config, sitePackages(pyodide), later);
  afterReady(pyodide, settled);
  return bridge;
}
