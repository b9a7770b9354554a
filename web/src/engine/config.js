// @ts-check
/**
 * What the worker needs to boot (`WorkerConfig`), and how a page of the built site makes
 * it from its `build-info.js` (`siteConfig`).
 * @module engine/config
 */

/**
 * What the worker needs to boot. URLs are absolute.
 *
 * `snapshotURL` (the site only) is the build-time memory snapshot's `snapshot.json`, with
 * the snapshot (`snapshotDataURL`, gzip) and the files it needs (`snapshotFilesURL`), each
 * fetched or read from the offline copy and checked against its integrity value when the
 * config has one (`snapshot*Integrity`); the
 * worker uses it when that JSON matches `pyodideVersion`, `wasmSha256` and `coreIntegrity`,
 * and boots the normal way otherwise (and always when there is no `snapshotURL`).
 * `snapshotWhen` says when the snapshot pays: `stored` (the default) only when the
 * offline copy of this build (`precacheURL`, written by the service worker) holds it, so
 * a first visit never downloads it before it is ready; `always` (a fast network) and
 * `never` are for measuring and for people who choose.
 *
 * `coreFilesURL` is the core as micropip installs it, compiled by Pyodide's Python at
 * build time (a zip, checked against `coreIntegrity`): the modules the boot and the first
 * answer import, which the worker unpacks into site-packages before it is ready;
 * `coreLaterURL` the rest (`coreLaterIntegrity`), asked for once the first zip is in and
 * unpacked when it arrives, or before ready with `coreLaterAtBoot` (the single file,
 * whose files are all at hand). Until it is unpacked, an import that needs it fetches it
 * itself (doiname.bridge.arrival).
 *
 * `stdLibURL` is the standard library the worker mounts (`loadPyodide`'s option; Pyodide's
 * whole `python_stdlib.zip` without it): the site's holds the modules the boot and the
 * first answer import. The others (`stdlibLater`, by name) are in `coreLaterURL`'s zip,
 * which is unpacked into the standard library's folder; an import of one of them before
 * it arrives fetches it as an import of the core's rest does.
 *
 * `runtimeFiles` lists what the normal boot downloads, with each file's size (and its
 * integrity value when Pyodide or the worker checks one): the worker asks for all of
 * them at once and reports their progress.
 * @typedef {{
 *   pyodideModuleURL: string,
 *   indexURL: string,
 *   packageBaseUrl?: string,
 *   lockFileURL?: string,
 *   lockFileContents?: string,
 *   coreFilesURL: string,
 *   coreIntegrity?: string,
 *   coreLaterURL?: string,
 *   coreLaterIntegrity?: string,
 *   coreLaterAtBoot?: boolean,
 *   stdLibURL?: string,
 *   stdlibLater?: string[],
 *   pyodideVersion?: string,
 *   wasmSha256?: string,
 *   snapshotURL?: string,
 *   snapshotDataURL?: string,
 *   snapshotFilesURL?: string,
 *   snapshotIntegrity?: string,
 *   snapshotDataIntegrity?: string,
 *   snapshotFilesIntegrity?: string,
 *   snapshotWhen?: SnapshotWhen,
 *   precacheURL?: string,
 *   runtimeFiles?: RuntimeFile[],
 * }} WorkerConfig
 */

/** @typedef {"stored" | "always" | "never"} SnapshotWhen */

/**
 * One file the normal boot downloads: its absolute URL, its size in bytes (decoded), what
 * it costs to send (its brotli size, an estimate until the answer's `Content-Length`), its
 * integrity value when it is checked, whether it is a module script (imported), and
 * whether it is asked for only once the others have arrived (`later`: the core's files).
 * @typedef {{url: string, bytes: number, transfer?: number, integrity?: string, module?: boolean, later?: boolean}} RuntimeFile
 */

/**
 * What build.py writes into `build-info.js` about a build. The `runtime` entries of the
 * module scripts carry their integrity values (worker/loader.js checks them).
 * @typedef {{indexURL: string, coreFiles: string, coreIntegrity?: string,
 *   coreLater?: string, coreLaterIntegrity?: string, stdlib?: string, stdlibLater?: string[],
 *   pyodideVersion?: string, wasmSha256?: string,
 *   snapshot?: {manifest: string, data: string, files: string, manifestIntegrity?: string, dataIntegrity?: string,
 *     filesIntegrity?: string} | null,
 *   runtime?: {path: string, bytes: number, transfer?: number, integrity?: string, module?: boolean, later?: boolean}[],
 *   precache?: string}} BuildInfo
 */

/**
 * The worker config of a site built by build.py, from its `build-info.js`.
 * @param {BuildInfo} build
 * @param {string | URL} base the site's base URL
 * @param {SnapshotWhen} [snapshotWhen] when to boot from the snapshot (default `stored`)
 * @returns {WorkerConfig}
 */
export function siteConfig(build, base, snapshotWhen = "stored") {
  const indexURL = new URL(build.indexURL, base).href;
  return {
    runtimeFiles: (build.runtime ?? []).map(({ path, ...file }) => ({ ...file, url: new URL(path, base).href })),
    ...(build.precache ? { precacheURL: new URL(build.precache, base).href } : {}),
    pyodideModuleURL: new URL("pyodide.mjs", indexURL).href,
    indexURL,
    packageBaseUrl: indexURL,
    coreFilesURL: new URL(build.coreFiles, base).href,
    coreIntegrity: build.coreIntegrity,
    ...(build.coreLater
      ? { coreLaterURL: new URL(build.coreLater, base).href, coreLaterIntegrity: build.coreLaterIntegrity }
      : {}),
    ...(build.stdlib ? { stdLibURL: new URL(build.stdlib, base).href, stdlibLater: build.stdlibLater ?? [] } : {}),
    ...(build.snapshot
      ? {
          pyodideVersion: build.pyodideVersion,
          wasmSha256: build.wasmSha256,
          snapshotURL: new URL(build.snapshot.manifest, base).href,
          snapshotDataURL: new URL(build.snapshot.data, base).href,
          snapshotFilesURL: new URL(build.snapshot.files, base).href,
          snapshotIntegrity: build.snapshot.manifestIntegrity,
          snapshotDataIntegrity: build.snapshot.dataIntegrity,
          snapshotFilesIntegrity: build.snapshot.filesIntegrity,
          snapshotWhen,
        }
      : {}),
  };
}
