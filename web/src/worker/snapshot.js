// @ts-check
/**
 * Booting from the build-time memory snapshot (pycore/tools/make-snapshot.mjs): the only
 * file that touches Pyodide's private snapshot API (`loadPyodide({_loadSnapshot,
 * _snapshotDeserializer})`), written against Pyodide 314.0.7 (PYODIDE_VERSION below). A
 * snapshot made by another version is refused before that API is used (its
 * `snapshot.json`), so an upgrade of Pyodide boots the normal way until the snapshot,
 * this file and make-snapshot.mjs are checked against the new version.
 * @module worker/snapshot
 */

/** @typedef {import("../engine/config.js").WorkerConfig} WorkerConfig */

/** The Pyodide version whose private snapshot API this file uses. */
export const PYODIDE_VERSION = "314.0.7";

/**
 * Why a snapshot's `snapshot.json` does not fit this runtime and core, or "" when it does.
 * (Pyodide itself also refuses a snapshot of another build of its runtime.)
 * @param {any} manifest
 * @param {WorkerConfig} config
 * @param {string} runtimeVersion the loader's `version`
 * @returns {string}
 */
export function snapshotMismatch(manifest, config, runtimeVersion) {
  if (!manifest || typeof manifest !== "object") return "its snapshot.json is not an object";
  if (manifest.pyodideVersion !== runtimeVersion || manifest.pyodideVersion !== config.pyodideVersion) {
    return `it was made with Pyodide ${manifest.pyodideVersion}, this is ${runtimeVersion}`;
  }
  if (runtimeVersion !== PYODIDE_VERSION) {
    return `this worker's snapshot code is written for Pyodide ${PYODIDE_VERSION}, not ${runtimeVersion}`;
  }
  if (!config.wasmSha256 || manifest.wasmSha256 !== config.wasmSha256) {
    return "it was made with another pyodide.asm.wasm";
  }
  if (!config.coreIntegrity || manifest.coreIntegrity !== config.coreIntegrity) {
    return "it was made with another doiname wheel";
  }
  if (typeof manifest.sitePackages !== "string" || !manifest.sitePackages.startsWith("/")) {
    return "its snapshot.json has no sitePackages";
  }
  return "";
}

/**
 * The JavaScript objects Python held when the snapshot was made that have no global
 * name (make-snapshot.mjs, `serializer`): forwarders to the restored instance, which
 * exists only once `loadPyodide` returns (`holder.pyodide`).
 * @param {{pyodide: any}} holder
 * @returns {(value: any) => any}
 */
function snapshotDeserializer(holder) {
  return (value) => {
    if (value && value.pyodide === true) {
      return new Proxy({}, { get: (_, key) => holder.pyodide?.[key] });
    }
    if (value && typeof value.api === "string") {
      return (/** @type {any[]} */ ...args) => holder.pyodide._api[value.api](...args);
    }
    if (value && typeof value.pub === "string") {
      return (/** @type {any[]} */ ...args) => holder.pyodide[value.pub](...args);
    }
    throw new Error(`the snapshot refers to an unknown object ${JSON.stringify(value)}`);
  };
}

/**
 * Restore the interpreter from the snapshot; returns the Pyodide instance with the
 * files micropip had installed put back, or throws why it could not (the caller then
 * boots the normal way). The snapshot, the files it needs and its `snapshot.json` are
 * fetched at the same time; the first two are dropped as soon as the third does not match.
 * @param {WorkerConfig} config
 * @param {Record<string, unknown>} options the `loadPyodide` options of both ways of booting
 * @param {(phase: "packages", message: string) => void} report
 * @param {(name: string) => void} step
 * @returns {Promise<any>}
 */
export async function restore(config, options, report, step) {
  if (typeof DecompressionStream !== "function") throw new Error("no DecompressionStream here");
  const abort = new AbortController();
  /**
   * @param {string | undefined} url
   * @param {string} [integrity]
   */
  const get = async (url, integrity) => {
    /** @type {RequestInit} */
    const init = integrity ? { signal: abort.signal, integrity } : { signal: abort.signal };
    const response = await fetch(String(url), init);
    if (!response.ok) throw new Error(`${String(url).split("/").pop()}: HTTP ${response.status}`);
    return response;
  };
  const manifest = get(config.snapshotURL).then((r) => r.json());
  const data = get(config.snapshotDataURL, config.snapshotDataIntegrity).then((r) => {
    const body = /** @type {ReadableStream<BufferSource>} */ (r.body);
    return new Response(body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  });
  const files = get(config.snapshotFilesURL, config.snapshotFilesIntegrity).then((r) => r.arrayBuffer());
  data.catch(() => {}); // awaited below, or dropped on a mismatch
  files.catch(() => {});
  try {
    const [found, loader] = await Promise.all([manifest, import(config.pyodideModuleURL)]);
    const mismatch = snapshotMismatch(found, config, String(loader.version));
    if (mismatch) throw new Error(`the snapshot does not match: ${mismatch}`);
    /** @type {{pyodide: any}} */
    const holder = { pyodide: null };
    const pyodide = await loader.loadPyodide({
      ...options,
      _loadSnapshot: data,
      _snapshotDeserializer: snapshotDeserializer(holder),
    });
    holder.pyodide = pyodide;
    step("restoreSnapshot");
    report("packages", "Installing the doiname package…");
    // The snapshot holds memory, not files: put back what micropip had installed.
    pyodide.unpackArchive(await files, "zip", { extractDir: found.sitePackages });
    // A fresh random state for this visit (the snapshot froze the build's).
    pyodide.runPython("import importlib, random\nimportlib.invalidate_caches()\nrandom.seed()\ndel importlib, random");
    step("unpackFiles");
    return pyodide;
  } catch (err) {
    abort.abort();
    throw err;
  }
}
