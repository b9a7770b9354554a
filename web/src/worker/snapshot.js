// @ts-check
/**
 * The build-time memory snapshot: the only file that touches Pyodide's private snapshot
 * API, written against Pyodide 314.0.7 (PYODIDE_VERSION below). It makes the snapshot
 * (`makeSnapshot`, with `loadPyodide(MAKE_OPTIONS)`: pycore/tools/make-snapshot.mjs runs
 * it in Node at build time) and boots from it in the worker (`restore`:
 * `loadPyodide({_loadSnapshot, _snapshotDeserializer})`). A snapshot made by another
 * version is refused before that API is used (its `snapshot.json`), so an upgrade of
 * Pyodide boots the normal way until this file is checked against the new version.
 * @module worker/snapshot
 */

import { checkedResponse, EXPECTED_HEADER } from "../engine/verified.js";
import { gunzipped } from "./fetches.js";
import { unpackCore } from "./site-packages.js";

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

/** The `loadPyodide` options of an interpreter whose memory will be snapshot. */
export const MAKE_OPTIONS = Object.freeze({ _makeSnapshot: true });

/**
 * The memory snapshot of an interpreter started with MAKE_OPTIONS, once it holds what
 * the site needs. Python may hold JavaScript objects that a snapshot cannot point at by
 * a global name (`loadPackage`, as micropip holds it, `pyodide_js`, `_api.install`,
 * `_api.loadBinaryFile`); they are written as `{pyodide: true}`, `{pub: NAME}` or
 * `{api: NAME}`, and `restore` turns them back into forwarders to the restored instance.
 * Pyodide also requires its package table (`loadedPackages`) to be empty when the
 * snapshot is taken, so it is cleared first (it lives in JavaScript, not in the snapshot).
 * @param {any} pyodide
 * @returns {Uint8Array}
 */
export function makeSnapshot(pyodide) {
  for (const key of Object.keys(pyodide.loadedPackages)) delete pyodide.loadedPackages[key];
  const api = pyodide._api;
  /** @param {unknown} value */
  function serializer(value) {
    if (value === pyodide) return { pyodide: true };
    for (const key of ["install", "loadBinaryFile"]) if (api[key] === value) return { api: key };
    for (const key of ["loadPackage"]) if (pyodide[key] === value) return { pub: key };
    throw new Error(`the snapshot: Python holds a JavaScript ${typeof value} it cannot name`);
  }
  return pyodide.makeMemorySnapshot({ serializer });
}

/**
 * The JavaScript objects Python held when the snapshot was made that have no global
 * name (`makeSnapshot`): forwarders to the restored instance, which exists only once
 * `loadPyodide` returns (`holder.pyodide`).
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
 * core's files (the same zip the normal boot unpacks) put back, or throws why it could not (the caller then
 * boots the normal way). The snapshot, the files it needs and its `snapshot.json` are
 * fetched at the same time; the first two are dropped as soon as the third does not match.
 * @param {WorkerConfig} config
 * @param {Record<string, unknown>} options the `loadPyodide` options of both ways of booting
 * @param {(phase: "packages", message: string) => void} report
 * @param {(name: string) => void} step
 * @param {Cache | null} [stored] the offline copy of this build: read from it, not from
 *   the network, each file checked against its integrity value as it is read
 * @param {Promise<string>} [loaderURL] where to import Pyodide's loader from, once its
 *   scripts are checked (worker/loader.js; meanwhile the snapshot downloads)
 * @returns {Promise<any>}
 */
export async function restore(config, options, report, step, stored = null, loaderURL = undefined) {
  if (typeof DecompressionStream !== "function") throw new Error("no DecompressionStream here");
  const abort = new AbortController();
  /**
   * @param {string | undefined} url
   * @param {string} [integrity]
   */
  const get = async (url, integrity) => {
    const name = String(url).split("/").pop() || String(url);
    const kept = stored ? await stored.match(String(url)) : undefined;
    /** @type {RequestInit} */
    const init = integrity
      ? { signal: abort.signal, headers: { [EXPECTED_HEADER]: integrity } }
      : { signal: abort.signal };
    const response = kept ?? (await fetch(String(url), init));
    if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
    // Checked as it streams, from the network and from the offline copy alike.
    return integrity ? checkedResponse(response, integrity, name) : response;
  };
  const manifest = get(config.snapshotURL, config.snapshotIntegrity).then((r) => r.json());
  const data = get(config.snapshotDataURL, config.snapshotDataIntegrity).then(gunzipped);
  const files = get(config.snapshotFilesURL, config.snapshotFilesIntegrity).then(gunzipped);
  data.catch(() => {}); // awaited below, or dropped on a mismatch
  files.catch(() => {});
  try {
    const module = (loaderURL ?? Promise.resolve(config.pyodideModuleURL)).then((url) => import(url));
    const [found, loader] = await Promise.all([manifest, module]);
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
    // The snapshot holds memory, not files: put back the core's (as the normal boot does).
    unpackCore(pyodide, await files, found.sitePackages);
    // A fresh random state for this visit (the snapshot froze the build's).
    pyodide.runPython("import random\nrandom.seed()\ndel random");
    step("unpackFiles");
    return pyodide;
  } catch (err) {
    abort.abort();
    throw err;
  }
}
